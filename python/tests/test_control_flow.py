"""F.while_loop and F.cond: traced once into region ops, compiled, and
checked against the same computation in numpy; their errors name the loop
or branch and the value at fault."""

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout

SCALAR = TensorLayout(DType.int64, [])


def zero():
    return F.constant(np.array(0, np.int64), DType.int64)


def test_while_loop_carries_values_and_stores_into_a_buffer():
    # Fibonacci numbers: the loop carries (i, a, b) and stores a at i.
    def fibonacci(out, n):
        one = F.constant(np.array([1], np.int64), DType.int64)

        def more(i, a, b):
            return i < n

        def step(i, a, b):
            out[i:i + 1] = a
            return i + 1, b, a + b

        i, a, _ = F.while_loop([zero(), one, one], more, step)
        return i, a

    compiled = compilation.compile(fibonacci)(
        BufferLayout(DType.int64, [10]), SCALAR)
    for n in (0, 1, 7, 10):
        out = np.full(10, -1, np.int64)
        i, a = compiled(out, np.array(n, np.int64))
        expected = [1, 1]
        while len(expected) < n + 1:
            expected.append(expected[-1] + expected[-2])
        assert int(i.to_numpy()) == n
        assert a.to_numpy().tolist() == [expected[n]]
        np.testing.assert_array_equal(out[:n], expected[:n])
        assert (out[n:] == -1).all()


def test_while_loop_body_reads_graph_values_and_the_buffer_it_stores():
    # Each round doubles the buffer's contents and adds x: the body reads
    # the buffer after its own store of the previous round.
    def accumulate(buf, x, n):
        def more(i):
            return i < n

        def step(i):
            F.buffer_store(buf, buf * 2 + x)
            return i + 1

        [rounds] = F.while_loop(zero(), more, step)
        return rounds

    compiled = compilation.compile(accumulate)(
        BufferLayout(DType.float32, [3]), TensorLayout(DType.float32, [3]),
        SCALAR)
    buf = np.array([1, 0, -1], np.float32)
    x = np.array([0.5, 1, 2], np.float32)
    expected = buf.copy()
    for _ in range(4):
        expected = expected * 2 + x
    rounds = compiled(buf, x, np.array(4, np.int64))
    assert int(rounds.to_numpy()) == 4
    np.testing.assert_array_equal(buf, expected)


def test_while_loop_calls_a_subgraph_in_its_body():
    def layer(h, w):
        return F.relu(h @ w)

    def model(h, w, n):
        shared = compilation.as_subgraph(layer, name="layer")

        def step(i, h):
            return i + 1, shared(h, w)

        _, out = F.while_loop([zero(), h], lambda i, h: i < n, step)
        return out

    compiled = compilation.compile(model)(
        TensorLayout(DType.float32, [2, 4]),
        TensorLayout(DType.float32, [4, 4]), SCALAR)
    rng = np.random.default_rng(0)
    h = rng.standard_normal((2, 4)).astype(np.float32)
    w = rng.standard_normal((4, 4)).astype(np.float32) * 0.5
    expected = h
    for _ in range(3):
        expected = np.maximum(expected @ w, 0)
    got = compiled(h, w, np.array(3, np.int64)).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("taken", [True, False])
def test_cond_returns_the_taken_branch_and_runs_only_its_stores(taken):
    def choose(p, x, buf):
        def then_fn():
            return x * x

        def else_fn():
            F.buffer_store(buf, -x)
            return -x

        [result] = F.cond(p, [TensorLayout(DType.float32, [3])], then_fn,
                          else_fn)
        return result

    compiled = compilation.compile(choose)(
        TensorLayout(DType.bool, []), TensorLayout(DType.float32, [3]),
        BufferLayout(DType.float32, [3]))
    x = np.array([1, 2, 3], np.float32)
    buf = np.zeros(3, np.float32)
    got = compiled(np.array(taken), x, buf).to_numpy()
    np.testing.assert_array_equal(got, x * x if taken else -x)
    np.testing.assert_array_equal(buf, np.zeros(3) if taken else -x)


def test_cond_without_results_for_its_stores():
    def maybe_store(p, x, buf):
        def store():
            F.buffer_store(buf, x)

        assert F.cond(p, None, store, lambda: None) == []
        return x

    compiled = compilation.compile(maybe_store)(
        TensorLayout(DType.bool, []), TensorLayout(DType.float32, [2]),
        BufferLayout(DType.float32, [2]))
    for taken in (False, True):
        buf = np.zeros(2, np.float32)
        compiled(np.array(taken), np.array([3, 4], np.float32), buf)
        assert buf.tolist() == ([3, 4] if taken else [0, 0])


def stage_error(fn, *specs):
    with pytest.raises((ValueError, TypeError)) as error:
        compilation.stage(fn)(*specs)
    return str(error.value)


def test_a_predicate_that_is_not_a_host_bool_scalar_is_refused():
    def fn(x):
        return F.while_loop(x, lambda x: x > 0, lambda x: x)

    message = stage_error(fn, TensorLayout(DType.float32, [2]))
    assert "the predicate of the while_loop at" in message
    assert "test_control_flow.py" in message
    assert "returned !maxgraph.tensor<[2], i1>; it must return a rank-0 " \
        "bool tensor on the host" in message


def test_a_body_that_changes_the_carried_layout_is_refused():
    def fn(x, n):
        return F.while_loop([zero(), x], lambda i, x: i < n,
                            lambda i, x: (i + 1, F.concat([x, x], 0)))

    message = stage_error(fn, TensorLayout(DType.float32, [2]), SCALAR)
    assert "the body of the while_loop at" in message
    assert "returned !maxgraph.tensor<[4], f32> for carried value 1, which " \
        "is !maxgraph.tensor<[2], f32>" in message


def test_a_body_that_returns_another_number_of_values_is_refused():
    def fn(n):
        return F.while_loop(zero(), lambda i: i < n, lambda i: (i, i))

    message = stage_error(fn, SCALAR)
    assert "returned 2 tensors, but the loop carries 1" in message


def test_values_of_a_body_are_refused_after_the_loop():
    leaked = []

    def fn(n):
        def step(i):
            leaked.append(i + 1)
            return leaked[-1]

        F.while_loop(zero(), lambda i: i < n, step)
        return leaked[0] * 2

    message = stage_error(fn, SCALAR)
    assert "the body of the while_loop at" in message
    assert "which has ended" in message


def test_while_loop_needs_initial_values_and_tensors():
    message = stage_error(lambda n: F.while_loop([], lambda: n, lambda: n),
                          SCALAR)
    assert "'maxgraph.while_loop' needs at least one initial value" in message
    message = stage_error(
        lambda n: F.while_loop([n, 3], lambda a, b: a < 1, lambda a, b: a),
        SCALAR)
    assert "while_loop: initial value 1 must be a Tensor, got <class " \
        "'int'>" in message


def test_cond_branches_must_agree_and_match_out_types():
    def fn(p, x):
        return F.cond(p, None, lambda: x, lambda: F.cast(x, DType.float16))

    message = stage_error(fn, TensorLayout(DType.bool, []),
                          TensorLayout(DType.float32, [2]))
    assert "the else branch of the cond at" in message
    assert "returned !maxgraph.tensor<[2], f16> for result 0, which is " \
        "!maxgraph.tensor<[2], f32>" in message

    def typed(p, x):
        return F.cond(p, [TensorLayout(DType.float32, [3])], lambda: x,
                      lambda: x)

    message = stage_error(typed, TensorLayout(DType.bool, []),
                          TensorLayout(DType.float32, [2]))
    assert "cond: out_types[0] is" in message

    message = stage_error(lambda p, x: F.cond(p, None, lambda: x, lambda: x),
                          TensorLayout(DType.int64, []),
                          TensorLayout(DType.float32, [2]))
    assert "the predicate of 'maxgraph.cond' is !maxgraph.tensor<[], si64>" \
        in message


def test_a_carried_load_keeps_the_contents_it_read():
    # Each round stores (i + 1) * x, then loads the buffer and carries the
    # load; the next round reads the carried value after its own store: it
    # must still be the previous round's contents, compiled as interpreted.
    def fn(buf, x):
        def step(i, loaded, previous):
            F.buffer_store(buf, x * F.cast(i + 1, DType.float32))
            return i + 1, F.buffer_load(buf), loaded + 0

        _, last, previous = F.while_loop([zero(), x, x],
                                         lambda i, l, p: i < 3, step)
        return last, previous

    staged = compilation.stage(fn)(BufferLayout(DType.float32, [3]),
                                   TensorLayout(DType.float32, [3]))
    x = np.array([1, 2, 3], np.float32)
    for run in (staged.compile(), staged.interpret):
        last, previous = run(np.zeros(3, np.float32), x)
        np.testing.assert_array_equal(last.to_numpy(), 3 * x)
        np.testing.assert_array_equal(previous.to_numpy(), 2 * x)
