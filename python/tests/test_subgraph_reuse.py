"""as_subgraph traces a body once per staging for each identity of the
callable, argument tree, static values and operand types, and reuses it
without running the function again."""

import functools
import re

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

X = TensorLayout(DType.float32, [2, 4])
W = TensorLayout(DType.float32, [4, 4])


def bodies(text):
    """The subgraph bodies (func definitions) of a printed module."""
    return re.findall(r"maxgraph\.graph @(\w+)\(.*is_subgraph", text)


def calls(text, name):
    return len(re.findall(rf"maxgraph\.call @{name}\(", text))


class Counter:
    def __init__(self):
        self.calls = 0


def test_body_is_traced_once_for_n_calls(rng):
    traced = Counter()

    def layer(x, w):
        traced.calls += 1
        return ops.relu(x @ w) + x

    shared = compilation.as_subgraph(layer)

    def fn(x, ws):
        for w in ws:
            x = shared(x, w)
        return x

    staged = compilation.stage(fn)(X, [W] * 8)
    text = str(staged)
    assert traced.calls == 1
    assert bodies(text) == ["layer"]
    assert calls(text, "layer") == 8
    assert text.count("maxgraph.matmul") == 1
    x = rng.standard_normal((2, 4)).astype(np.float32)
    ws = [rng.standard_normal((4, 4)).astype(np.float32) for _ in range(8)]
    expected = x
    for w in ws:
        expected = np.maximum(expected @ w, 0) + expected
    out = staged.compile()(x, ws).to_numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    # Another staging has its own cache: the body is traced again.
    compilation.stage(fn)(X, [W] * 2)
    assert traced.calls == 2


def test_as_subgraph_made_at_each_call_still_traces_once():
    traced = Counter()

    def layer(x):
        traced.calls += 1
        return x * 2.0

    def fn(x):
        for _ in range(5):
            x = compilation.as_subgraph(layer)(x)
        return x

    text = str(compilation.stage(fn)(X))
    assert traced.calls == 1
    assert calls(text, "layer") == 5


def test_same_results_as_inline(rng):
    def layer(x, w, scale):
        return {"out": ops.relu(x @ w) * scale, "skip": (x, x + 1.0)}

    def model(shared):
        body = compilation.as_subgraph(layer) if shared else layer

        def fn(x, ws):
            for w in ws:
                result = body(x, w, 0.5)
                x = result["out"] + result["skip"][1]
            return x
        return fn

    x = rng.standard_normal((2, 4)).astype(np.float32)
    ws = [rng.standard_normal((4, 4)).astype(np.float32) for _ in range(4)]
    inline = compilation.compile(model(False))(X, [W] * 4)(x, ws).to_numpy()
    staged = compilation.stage(model(True))(X, [W] * 4)
    assert calls(str(staged), "layer") == 4
    shared = staged.compile()(x, ws).to_numpy()
    np.testing.assert_allclose(shared, inline, rtol=1e-5, atol=1e-6)


def test_retraced_for_other_layouts():
    traced = Counter()

    def body(x):
        traced.calls += 1
        return x + x

    shared = compilation.as_subgraph(body)

    def fn(a, b, c, d):
        return (shared(a), shared(b), shared(c), shared(d), shared(a))

    staged = compilation.stage(fn)(
        TensorLayout(DType.float32, [2, 4]),
        TensorLayout(DType.float32, [4, 2]),
        TensorLayout(DType.float32, ["batch", 4]),
        TensorLayout(DType.int32, [2, 4]))
    # Four operand types (static, other shape, symbolic, other dtype); the
    # fifth call reuses the first body.
    assert traced.calls == 4
    assert [str(layout) for layout in staged.output_layouts] == [
        "!maxgraph.tensor<[2, 4], f32>", "!maxgraph.tensor<[4, 2], f32>",
        "!maxgraph.tensor<[batch, 4], f32>", "!maxgraph.tensor<[2, 4], si32>",
        "!maxgraph.tensor<[2, 4], f32>"]


def test_symbolic_dims_bind_per_call():
    traced = Counter()

    def body(x):
        traced.calls += 1
        return ops.relu(x)

    shared = compilation.as_subgraph(body)

    def fn(a, b):
        return shared(a), shared(b), shared(a)

    staged = compilation.stage(fn)(TensorLayout(DType.float32, ["n", 4]),
                                   TensorLayout(DType.float32, ["m", 4]))
    # `n` and `m` are other types: a body each; results keep their dims.
    assert traced.calls == 2
    assert [str(layout) for layout in staged.output_layouts] == [
        "!maxgraph.tensor<[n, 4], f32>", "!maxgraph.tensor<[m, 4], f32>",
        "!maxgraph.tensor<[n, 4], f32>"]


def test_algebraic_dims_reuse_one_generic_body():
    traced = Counter()

    def body(x):
        traced.calls += 1
        return x + 1.0

    shared = compilation.as_subgraph(body)

    def fn(a):
        doubled = ops.concat([a, a], axis=0)
        tripled = ops.concat([a, a, a], axis=0)
        return shared(doubled), shared(tripled)

    staged = compilation.stage(fn)(TensorLayout(DType.float32, ["n", 4]))
    # 2*n and 3*n are both fresh symbols in the body: one trace.
    assert traced.calls == 1
    assert [str(layout) for layout in staged.output_layouts] == [
        "!maxgraph.tensor<[n * 2, 4], f32>",
        "!maxgraph.tensor<[n * 3, 4], f32>"]


def test_statics_are_typed():
    traced = []

    def body(x, value):
        traced.append(value)
        return x * 2.0 if isinstance(value, str) else x * value

    shared = compilation.as_subgraph(body)

    def fn(x):
        return [shared(x, value) for value in (2, 2.0, True, 2, 2.0, -0.0,
                                               0.0, "a", "a")]

    compilation.stage(fn)(X)
    assert [(type(v), v) for v in traced] == [
        (int, 2), (float, 2.0), (bool, True), (float, -0.0), (float, 0.0),
        (str, "a")]
    assert traced[3] == 0 and str(traced[3]) == "-0.0"


def test_statics_in_containers_and_tree_structure():
    traced = Counter()

    def body(args):
        traced.calls += 1
        if isinstance(args, dict):
            return args["x"] * args["k"]
        return args[0] * args[1]

    shared = compilation.as_subgraph(body)

    def fn(x):
        return (shared((x, 2.0)), shared([x, 2.0]), shared({"x": x, "k": 2.0}),
                shared((x, 2.0)), shared({"x": x, "k": 3.0}),
                shared({"x": x, "k": 2.0}))

    compilation.stage(fn)(X)
    # tuple, list, dict (k=2), dict (k=3): four; the repeats reuse.
    assert traced.calls == 4


def test_keyword_arguments():
    traced = Counter()

    def body(x, *, scale=1.0):
        traced.calls += 1
        return x * scale

    shared = compilation.as_subgraph(body)

    def fn(x):
        return (shared(x, scale=2.0), shared(x, scale=2.0), shared(x),
                shared(x, scale=3.0))

    compilation.stage(fn)(X)
    assert traced.calls == 3


def test_distinct_callables_that_trace_alike_share_by_ir():
    traced = Counter()

    def make():
        def double(x):
            traced.calls += 1
            return x * 2.0
        return double

    first, second = make(), make()

    def fn(x):
        a = compilation.as_subgraph(first)
        b = compilation.as_subgraph(second)
        return a(x) + b(x) + a(x) + b(x)

    text = str(compilation.stage(fn)(X))
    # Two function objects: each traced once; their IR is one body.
    assert traced.calls == 2
    assert bodies(text) == ["double"]
    assert calls(text, "double") == 4


def test_closures_over_other_values_trace_apart(rng):
    def scaled(scale):
        return compilation.as_subgraph(lambda x: x * scale, name="scaled")

    def fn(x):
        return scaled(2.0)(x) + scaled(3.0)(x) + scaled(2.0)(x)

    staged = compilation.stage(fn)(X)
    text = str(staged)
    assert len(bodies(text)) == 2
    x = rng.standard_normal((2, 4)).astype(np.float32)
    np.testing.assert_allclose(staged.compile()(x).to_numpy(), x * 7.0,
                               rtol=1e-6)


def test_rebound_captured_variable_traces_again(rng):
    scale = 2.0
    traced = Counter()

    def body(x):
        traced.calls += 1
        return x * scale

    shared = compilation.as_subgraph(body)

    def fn(x):
        nonlocal scale
        first = shared(x)
        scale = 3.0
        second = shared(x)
        scale = 2.0
        return first + second + shared(x)

    staged = compilation.stage(fn)(X)
    assert traced.calls == 2
    x = rng.standard_normal((2, 4)).astype(np.float32)
    np.testing.assert_allclose(staged.compile()(x).to_numpy(), x * 7.0,
                               rtol=1e-6)


def test_key_reuses_one_body_for_closures_of_one_code():
    traced = Counter()

    def scaled(scale):
        def body(x):
            traced.calls += 1
            return x * 2.0  # Does not read `scale`: the key says so.
        return compilation.as_subgraph(body, key="double")

    def fn(x):
        for scale in range(4):
            x = scaled(scale)(x)
        return x

    text = str(compilation.stage(fn)(X))
    assert traced.calls == 1
    assert calls(text, "body") == 4


def test_bound_methods_and_partials():
    traced = Counter()

    class Block:
        def __init__(self, scale):
            self.scale = scale

        def forward(self, x):
            traced.calls += 1
            return x * self.scale

    blocks = [Block(2.0), Block(2.0), Block(3.0)]

    def fn(x):
        out = x
        for block in blocks + blocks:
            out = compilation.as_subgraph(block.forward)(out)
        return out

    text = str(compilation.stage(fn)(X))
    # One trace per object (bound methods of one object are one identity);
    # the two objects that trace alike share a body by IR.
    assert traced.calls == 3
    assert len(bodies(text)) == 2

    def mul(x, scale):
        return x * scale

    def with_partials(x):
        two = functools.partial(mul, scale=2.0)
        return compilation.as_subgraph(two)(x) + compilation.as_subgraph(
            two)(x)

    text = str(compilation.stage(with_partials)(X))
    assert calls(text, "partial") == 2


def test_prefixed_weights_bind_per_call_on_reuse(rng):
    traced = Counter()

    def block(x):
        traced.calls += 1
        return ops.relu(x @ ops.constant_external("w", W)) + x

    def fn(x):
        for i in range(4):
            x = compilation.as_subgraph(block, prefix=f"layers.{i}.")(x)
        return x

    staged = compilation.stage(fn)(X)
    assert traced.calls == 1
    assert staged.weight_names == [f"layers.{i}.w" for i in range(4)]
    text = str(staged)
    assert bodies(text) == ["block"]
    assert calls(text, "block") == 4
    ws = {name: rng.standard_normal((4, 4)).astype(np.float32)
          for name in staged.weight_names}
    x = rng.standard_normal((2, 4)).astype(np.float32)
    expected = x
    for i in range(4):
        expected = np.maximum(expected @ ws[f"layers.{i}.w"], 0) + expected
    out = staged.compile(weights=ws)(x).to_numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_reused_weight_conflict_is_reported_at_the_body_line():
    def block(x):
        return x @ ops.constant_external("w", W)  # the body's line

    def fn(x):
        ops.constant_external("layers.1.w", TensorLayout(DType.float32, [4]))
        x = compilation.as_subgraph(block, prefix="layers.0.")(x)
        return compilation.as_subgraph(block, prefix="layers.1.")(x)

    with pytest.raises(maxgraph.StagingError) as error:
        compilation.stage(fn)(X)
    message = str(error.value)
    assert "weight 'layers.1.w' was declared as" in message
    assert "the body's line" not in message  # Located, not quoted:
    line = block.__code__.co_firstlineno + 1
    assert f"test_subgraph_reuse.py:{line}:" in message


def test_captured_outer_tensor_is_still_an_error():
    def fn(x):
        y = x + 1.0
        shared = compilation.as_subgraph(lambda a: a + y, name="captures")
        return shared(x)

    with pytest.raises(maxgraph.StagingError):
        compilation.stage(fn)(X)


def test_failed_trace_is_not_cached():
    attempts = Counter()

    def body(x):
        attempts.calls += 1
        if attempts.calls == 1:
            raise RuntimeError("first attempt")
        return x * 2.0

    shared = compilation.as_subgraph(body)

    def fn(x):
        try:
            shared(x)
        except RuntimeError:
            pass
        return shared(x) + shared(x)

    text = str(compilation.stage(fn)(X))
    assert attempts.calls == 2
    assert calls(text, "body") == 2


def test_nested_calls_are_inlined_into_the_one_body():
    traced = Counter()

    def inner(a):
        traced.calls += 1
        return ops.exp(a)

    shared_inner = compilation.as_subgraph(inner)
    outer = compilation.as_subgraph(lambda a: shared_inner(a) * 3.0,
                                    name="outer")

    def fn(x):
        return outer(x) + outer(x) + outer(x)

    text = str(compilation.stage(fn)(X))
    assert traced.calls == 1
    assert bodies(text) == ["outer"]
    assert text.count("maxgraph.exp") == 1


def test_allow_subgraphs_false_traces_every_call():
    traced = Counter()

    def body(x):
        traced.calls += 1
        return x * 2.0

    shared = compilation.as_subgraph(body)

    def fn(x):
        return shared(shared(shared(x)))

    text = str(compilation.stage(fn, allow_subgraphs=False)(X))
    assert traced.calls == 3
    assert "maxgraph.call" not in text


def test_live_tensor_argument_is_still_refused():
    shared = compilation.as_subgraph(lambda a, b: a + b, name="add")
    live = Tensor.from_numpy(np.zeros((2, 4), np.float32))

    def fn(x):
        shared(x, x)
        return shared(x, live)

    with pytest.raises(TypeError, match="live|value"):
        compilation.stage(fn)(X)


def test_results_rebuilt_with_static_leaves():
    def body(a):
        return a * 2.0, 7, {"name": "out"}

    shared = compilation.as_subgraph(body)

    def fn(x):
        first = shared(x)
        second = shared(x)
        assert first[1:] == second[1:] == (7, {"name": "out"})
        assert second[2] is not first[2]  # Containers are rebuilt.
        return first[0] + second[0]

    text = str(compilation.stage(fn)(X))
    assert calls(text, "body") == 2
