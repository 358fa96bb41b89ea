"""Numerics of every op, compiled for the CPU, against numpy on random
inputs."""

import math

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation, ops
from maxgraph.driver import CPU
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

DTYPES = {np.float32: DType.float32, np.float64: DType.float64,
          np.int32: DType.int32, np.int64: DType.int64, np.bool_: DType.bool}


def spec_of(array, device=CPU()):
    return TensorLayout(DTYPES[array.dtype.type], list(array.shape), device)


def run(fn, *arrays, devices=None):
    """Stages `fn` over specs of `arrays`, compiles it and runs it."""
    devices = devices or [CPU()] * len(arrays)
    specs = [spec_of(a, d) for a, d in zip(arrays, devices)]
    compiled = compilation.compile(fn)(*specs)
    out = compiled(*[Tensor.from_numpy(a, d)
                     for a, d in zip(arrays, devices)])
    if isinstance(out, (list, tuple)):
        return [o.to_numpy() for o in out]
    return out.to_numpy()


def close(actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


erf = np.vectorize(math.erf)

UNARY = {
    "neg": (ops.neg, np.negative, None),
    "abs": (ops.abs, np.abs, None),
    "exp": (ops.exp, np.exp, None),
    "log": (ops.log, np.log, "positive"),
    "log1p": (ops.log1p, np.log1p, "positive"),
    "sqrt": (ops.sqrt, np.sqrt, "positive"),
    "rsqrt": (ops.rsqrt, lambda x: 1 / np.sqrt(x), "positive"),
    "sin": (ops.sin, np.sin, None),
    "cos": (ops.cos, np.cos, None),
    "tanh": (ops.tanh, np.tanh, None),
    "erf": (ops.erf, erf, None),
    "acos": (ops.acos, np.arccos, "unit"),
    "atanh": (ops.atanh, np.arctanh, "unit"),
    "floor": (ops.floor, np.floor, None),
    "ceil": (ops.ceil, np.ceil, None),
    "round": (ops.round, np.rint, None),
    "sigmoid": (ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)), None),
    "relu": (ops.relu, lambda x: np.maximum(x, 0), None),
    "gelu": (ops.gelu, lambda x: 0.5 * x * (1 + erf(x / np.sqrt(2))), None),
    "silu": (ops.silu, lambda x: x / (1 + np.exp(-x)), None),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary(name, dtype, rng):
    op, reference, domain = UNARY[name]
    x = rng.standard_normal((3, 5)) * 3
    if domain == "positive":
        x = np.abs(x) + 0.1
    elif domain == "unit":
        x = np.tanh(x) * 0.95
    x = x.astype(dtype)
    close(run(op, x), reference(x.astype(np.float64)),
          rtol=2e-5 if dtype == np.float32 else 1e-12)


BINARY = {
    "add": (ops.add, np.add),
    "sub": (ops.sub, np.subtract),
    "mul": (ops.mul, np.multiply),
    "div": (ops.div, np.divide),
    "mod": (ops.mod, np.mod),
    "pow": (ops.pow, np.power),
    "max": (ops.max, np.maximum),
    "min": (ops.min, np.minimum),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_float_with_broadcasting(name, rng):
    op, reference = BINARY[name]
    x = rng.standard_normal((4, 1, 3)).astype(np.float32)
    y = rng.standard_normal((5, 1)).astype(np.float32)
    if name == "pow":
        x = np.abs(x) + 0.5
    if name in ("div", "mod"):
        y = np.where(np.abs(y) < 0.1, 0.5, y).astype(np.float32)
    close(run(op, x, y), reference(x, y), rtol=1e-5)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "mod", "max",
                                  "min"])
def test_binary_int(name, rng):
    op, reference = BINARY[name]
    x = rng.integers(-50, 50, (3, 4)).astype(np.int64)
    y = rng.integers(1, 9, (4,)).astype(np.int64) * rng.choice([-1, 1], 4)
    expected = np.floor_divide(x, y) if name == "div" else reference(x, y)
    np.testing.assert_array_equal(run(op, x, y), expected)


def test_operators_with_python_numbers(rng):
    x = rng.standard_normal((2, 3)).astype(np.float32)

    def fn(a):
        return (2 - a) * 3 / (a * a + 1) + a ** 2 - (-a) % 1.5

    expected = (2 - x) * 3 / (x * x + 1) + x ** 2 - np.mod(-x, 1.5)
    close(run(fn, x), expected, rtol=1e-5, atol=1e-5)


COMPARE = {
    "equal": (ops.equal, np.equal, lambda a, b: a == b),
    "not_equal": (ops.not_equal, np.not_equal, lambda a, b: a != b),
    "less": (ops.less, np.less, lambda a, b: a < b),
    "less_equal": (ops.less_equal, np.less_equal, lambda a, b: a <= b),
    "greater": (ops.greater, np.greater, lambda a, b: a > b),
    "greater_equal": (ops.greater_equal, np.greater_equal,
                      lambda a, b: a >= b),
}


@pytest.mark.parametrize("name", sorted(COMPARE))
def test_comparisons(name, rng):
    op, reference, operator = COMPARE[name]
    x = rng.integers(0, 3, (3, 4)).astype(np.int32)
    y = rng.integers(0, 3, (4,)).astype(np.int32)
    np.testing.assert_array_equal(run(op, x, y), reference(x, y))
    np.testing.assert_array_equal(run(operator, x, y), reference(x, y))


def test_logical_ops_and_select(rng):
    a = rng.integers(0, 2, (6,)).astype(np.bool_)
    b = rng.integers(0, 2, (6,)).astype(np.bool_)
    np.testing.assert_array_equal(run(ops.logical_and, a, b), a & b)
    np.testing.assert_array_equal(run(ops.logical_or, a, b), a | b)
    np.testing.assert_array_equal(run(ops.logical_xor, a, b), a ^ b)
    np.testing.assert_array_equal(run(ops.logical_not, a), ~a)
    np.testing.assert_array_equal(run(lambda p, q: (p & ~q) | (q ^ p), a, b),
                                  (a & ~b) | (b ^ a))
    x = rng.standard_normal(6).astype(np.float32)
    np.testing.assert_array_equal(
        run(lambda c, v: ops.select(c, v, -1.0), a, x), np.where(a, x, -1))


def test_logical_ops_take_truth_values(rng):
    # numpy's logical_* take any dtype (x != 0, NaN is true) and return bools.
    i = rng.integers(-2, 3, (8,)).astype(np.int32)
    x = np.array([0.0, -0.0, np.nan, np.inf, 1.5, 0.0, -2.0, 3.0], np.float32)
    for name in ("logical_and", "logical_or", "logical_xor"):
        result = run(getattr(ops, name), i, x)
        assert result.dtype == np.bool_
        np.testing.assert_array_equal(result, getattr(np, name)(i, x))
    np.testing.assert_array_equal(run(ops.logical_not, x), np.logical_not(x))
    np.testing.assert_array_equal(run(ops.logical_not, i), np.logical_not(i))
    np.testing.assert_array_equal(run(lambda p: ops.logical_and(p, 2), i),
                                  np.logical_and(i, 2))


def test_bitwise_ops_and_operators_on_ints(rng):
    a = rng.integers(-100, 100, (6,)).astype(np.int32)
    b = rng.integers(-100, 100, (6,)).astype(np.int32)
    np.testing.assert_array_equal(run(ops.bitwise_and, a, b), a & b)
    np.testing.assert_array_equal(run(ops.bitwise_or, a, b), a | b)
    np.testing.assert_array_equal(run(ops.bitwise_xor, a, b), a ^ b)
    np.testing.assert_array_equal(run(ops.bitwise_not, a), ~a)
    np.testing.assert_array_equal(run(lambda p, q: (p & ~q) | (q ^ p), a, b),
                                  (a & ~b) | (b ^ a))


def test_is_nan_is_inf():
    x = np.array([0.0, np.nan, np.inf, -np.inf, 1.0], np.float32)
    np.testing.assert_array_equal(run(ops.is_nan, x), np.isnan(x))
    np.testing.assert_array_equal(run(ops.is_inf, x), np.isinf(x))


def test_cast(rng):
    x = (rng.standard_normal(8) * 10).astype(np.float32)
    np.testing.assert_array_equal(
        run(lambda a: ops.cast(a, DType.int32), x), x.astype(np.int32))
    np.testing.assert_array_equal(
        run(lambda a: ops.cast(a, DType.bool), x), x.astype(np.bool_))


def test_constant():
    def fn(x):
        return x + ops.constant([[1, 2, 3], [4, 5, 6]], DType.float32) \
            + ops.constant(0.5, DType.float32)

    x = np.zeros((2, 3), np.float32)
    np.testing.assert_array_equal(run(fn, x), [[1.5, 2.5, 3.5],
                                               [4.5, 5.5, 6.5]])


@pytest.mark.parametrize("shapes", [((4, 3), (3, 5)), ((2, 4, 3), (3, 2)),
                                    ((2, 1, 4, 3), (3, 3, 2))])
def test_matmul(shapes, rng):
    x = rng.standard_normal(shapes[0]).astype(np.float32)
    y = rng.standard_normal(shapes[1]).astype(np.float32)
    close(run(lambda a, b: a @ b, x, y), x @ y, rtol=1e-5, atol=1e-5)
    close(run(ops.matmul, x, y), np.matmul(x, y), rtol=1e-5, atol=1e-5)


def test_batched_matmul_with_a_matrix_on_symbolic_dims(rng):
    # [batch, seq, k] x [k, n] collapses into one matrix product: every
    # batch size and length through one compiled graph.
    run = compilation.compile(lambda a, b: a @ b)(
        TensorLayout(DType.float32, ["batch", "seq", 24]),
        TensorLayout(DType.float32, [24, 40]))
    for dims in ((1, 1), (3, 7), (2, 33)):
        x = rng.standard_normal(dims + (24,)).astype(np.float32)
        y = rng.standard_normal((24, 40)).astype(np.float32)
        out = run(x, y).to_numpy()
        assert out.shape == dims + (40,)
        close(out, x @ y, rtol=1e-5, atol=1e-5)


def test_batched_matmul_with_the_same_batch_dims(rng):
    # Attention's [batch, heads, seq, d] x [batch, heads, d, seq]: a loop of
    # matrix products over the batch, on symbolic dims.
    run = compilation.compile(lambda a, b: a @ b)(
        TensorLayout(DType.float32, ["batch", 3, "seq", 16]),
        TensorLayout(DType.float32, ["batch", 3, 16, "seq"]))
    for batch, seq in ((1, 1), (2, 9), (3, 20)):
        x = rng.standard_normal((batch, 3, seq, 16)).astype(np.float32)
        y = rng.standard_normal((batch, 3, 16, seq)).astype(np.float32)
        out = run(x, y).to_numpy()
        assert out.shape == (batch, 3, seq, seq)
        close(out, x @ y, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [DType.float32, DType.float64,
                                   DType.int32], ids=str)
def test_matmul_columns_below_a_vector(dtype, rng):
    # The last columns of N below a vector register (fewer than 16 on
    # AVX-512, 8 on AVX2) are a register tile whose rhs rows and
    # accumulators are read and written through masks: the columns past N
    # must be neither read into the result nor written. A decoder's step
    # has 3 query rows against its cache.
    run = compilation.compile(lambda a, b: a @ b)(
        TensorLayout(dtype, [3, "m", 64]), TensorLayout(dtype, [3, 64, "n"]))
    numpy_type = dtype.to_numpy()
    for m, n in ((1, 1), (3, 3), (13, 7), (3, 15), (12, 17), (25, 47)):
        x = (rng.standard_normal((3, m, 64)) * 4).astype(numpy_type)
        y = (rng.standard_normal((3, 64, n)) * 4).astype(numpy_type)
        out = run(x, y).to_numpy()
        assert out.shape == (3, m, n)
        close(out, x.astype(np.float64) @ y.astype(np.float64), rtol=1e-5,
              atol=1e-4)


@pytest.mark.parametrize("dtype", [DType.float32, DType.float64], ids=str)
def test_matmul_rows_of_a_symbolic_m(dtype, rng):
    # The rows of a symbolic M past the last full register tile (12 on
    # AVX-512, 6 on AVX2) run as tiles of 4 rows, then of 1: every count
    # of leftover rows, with a K of several panels and N with a column
    # remainder, against float64.
    run = compilation.compile(lambda a, b: a @ b)(
        TensorLayout(dtype, ["m", 300]), TensorLayout(dtype, [300, 40]))
    numpy_type = dtype.to_numpy()
    for m in range(1, 38):
        x = rng.standard_normal((m, 300)).astype(numpy_type)
        y = rng.standard_normal((300, 40)).astype(numpy_type)
        out = run(x, y).to_numpy()
        assert out.shape == (m, 40)
        close(out, x.astype(np.float64) @ y.astype(np.float64), rtol=1e-4,
              atol=1e-3)


@pytest.mark.parametrize("dtype", [DType.float32, DType.float64], ids=str)
def test_matmul_with_rows_of_a_an_l1_way_apart(dtype, rng):
    # A's rows 4096 bytes apart (K = 1024 f32s, 512 f64s) are copied into
    # longer rows before the register tiles read them: a symbolic M with
    # leftover rows, a static M, and a B wide enough to be packed, against
    # float64.
    numpy_type = dtype.to_numpy()
    k = 4096 // np.dtype(numpy_type).itemsize
    y = rng.standard_normal((k, 96)).astype(numpy_type)
    symbolic = compilation.compile(lambda a, b: a @ b)(
        TensorLayout(dtype, ["m", k]), TensorLayout(dtype, [k, 96]))
    static = compilation.compile(lambda a, b: a @ b)(
        TensorLayout(dtype, [50, k]), TensorLayout(dtype, [k, 96]))
    for run, m in ((symbolic, 13), (symbolic, 40), (static, 50)):
        x = rng.standard_normal((m, k)).astype(numpy_type)
        out = run(x, y).to_numpy()
        assert out.shape == (m, 96)
        close(out, x.astype(np.float64) @ y.astype(np.float64), rtol=1e-4,
              atol=1e-3)


REDUCE = {
    "reduce_sum": (ops.reduce_sum, np.sum),
    "reduce_max": (ops.reduce_max, np.max),
    "reduce_min": (ops.reduce_min, np.min),
    "reduce_prod": (ops.reduce_prod, np.prod),
    "reduce_mean": (ops.reduce_mean, np.mean),
}


@pytest.mark.parametrize("name", sorted(REDUCE))
@pytest.mark.parametrize("axes,keep", [(-1, False), ([0, 2], True), (1, True)])
def test_reductions(name, axes, keep, rng):
    op, reference = REDUCE[name]
    x = (rng.standard_normal((3, 4, 5)) * 0.5 + 1).astype(np.float32)
    expected = reference(x, axis=tuple(np.atleast_1d(axes)), keepdims=keep)
    close(run(lambda a: op(a, axes, keep), x), expected, rtol=1e-5)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_argmax_argmin(axis, rng):
    x = rng.integers(0, 5, (4, 6)).astype(np.float32)  # ties: first index
    np.testing.assert_array_equal(run(lambda a: ops.argmax(a, axis), x),
                                  np.argmax(x, axis))
    np.testing.assert_array_equal(run(lambda a: ops.argmin(a, axis), x),
                                  np.argmin(x, axis))


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum(exclusive, reverse, rng):
    x = rng.standard_normal((3, 5)).astype(np.float32)
    source = x[:, ::-1] if reverse else x
    expected = np.cumsum(source, axis=1)
    if exclusive:
        expected = expected - source
    if reverse:
        expected = expected[:, ::-1]
    close(run(lambda a: ops.cumsum(a, 1, exclusive, reverse), x), expected,
          rtol=1e-5, atol=1e-5)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def test_softmax_and_norms(rng):
    x = rng.standard_normal((4, 8)).astype(np.float32)
    gamma = rng.standard_normal(8).astype(np.float32)
    beta = rng.standard_normal(8).astype(np.float32)
    close(run(ops.softmax, x), softmax(x))
    close(run(lambda a: ops.softmax(a, 0), x), softmax(x, 0))
    close(run(ops.log_softmax, x), np.log(softmax(x)), atol=1e-5)
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    close(run(ops.layer_norm, x, gamma, beta),
          (x - mean) / np.sqrt(var + 1e-5) * gamma + beta, atol=1e-5)
    rms = np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)
    close(run(ops.rms_norm, x, gamma), x / rms * gamma, atol=1e-5)


def test_shape_ops(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    np.testing.assert_array_equal(run(lambda a: ops.reshape(a, [6, 4]), x),
                                  x.reshape(6, 4))
    np.testing.assert_array_equal(
        run(lambda a: ops.transpose(a, [2, 0, 1]), x), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(run(lambda a: a.T, x), x.swapaxes(-1, -2))
    np.testing.assert_array_equal(
        run(lambda a: ops.broadcast_to(a, [5, 2, 3, 4]), x),
        np.broadcast_to(x, (5, 2, 3, 4)))
    y = rng.standard_normal((2, 2, 4)).astype(np.float32)
    np.testing.assert_array_equal(
        run(lambda a, b: ops.concat([a, b], 1), x, y),
        np.concatenate([x, y], 1))
    parts = run(lambda a: ops.split(a, [1, 3], axis=2), x)
    np.testing.assert_array_equal(parts[0], x[:, :, :1])
    np.testing.assert_array_equal(parts[1], x[:, :, 1:])


def test_indexing(rng):
    x = rng.standard_normal((4, 5, 6)).astype(np.float32)
    for index in [(1,), (slice(1, 3),), (-1,), (slice(None), 2),
                  (Ellipsis, slice(0, 6, 2)), (2, slice(1, None), -2),
                  (slice(-3, None), Ellipsis)]:
        np.testing.assert_array_equal(run(lambda a: a[index], x), x[index],
                                      err_msg=str(index))
    np.testing.assert_array_equal(
        run(lambda a: ops.slice(a, [(0, 4, 3), (1, None), (2, 5)]), x),
        x[0:4:3, 1:, 2:5])


def test_gather(rng):
    x = rng.standard_normal((5, 3)).astype(np.float32)
    indices = np.array([4, 0, 2, 2], np.int64)
    np.testing.assert_array_equal(run(lambda a, i: ops.gather(a, i, 0), x,
                                      indices), np.take(x, indices, 0))
    columns = np.array([[2, 1], [0, 0]], np.int64)
    np.testing.assert_array_equal(run(lambda a, i: ops.gather(a, i, 1), x,
                                      columns), np.take(x, columns, 1))


def test_collectives_and_transfers_over_cpu_devices(rng):
    parts = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2)]
    devices = [CPU(0), CPU(1)]
    summed = run(lambda a, b: ops.allreduce_sum([a, b]), *parts,
                 devices=devices)
    for result in summed:
        close(result, parts[0] + parts[1])
    gathered = run(lambda a, b: ops.allgather([a, b], 1), *parts,
                   devices=devices)
    for result in gathered:
        np.testing.assert_array_equal(result, np.concatenate(parts, 1))
    moved = run(lambda a, b: ops.transfer(a, CPU(1)) + b, *parts,
                devices=devices)
    close(moved, parts[0] + parts[1])


# arange, pad, top_k.

def top_k_reference(x, k, axis):
    """numpy's oracle: a stable sort by descending value, NaN first."""
    moved = np.moveaxis(x, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    values, indices = [], []
    for row in rows:
        order = sorted(range(len(row)),
                       key=lambda i: (not np.isnan(row[i]),
                                      0 if np.isnan(row[i]) else -row[i], i))
        order = order[:k]
        indices.append(order)
        values.append(row[order])
    shape = moved.shape[:-1] + (k,)
    return (np.moveaxis(np.array(values, x.dtype).reshape(shape), -1, axis),
            np.moveaxis(np.array(indices, np.int64).reshape(shape), -1, axis))


@pytest.mark.parametrize("start, stop, step", [
    (0, 5, 1), (2, 11, 3), (5, 0, -1), (3, 1, 1), (0, 4, -1), (-4, 4, 3),
    (0, 0, 1)])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32])
def test_arange_matches_numpy(start, stop, step, dtype):
    expected = np.arange(start, stop, step, dtype=dtype)
    actual = run(lambda _: ops.arange(start, stop, step, DTYPES[dtype]),
                 np.zeros(1, np.float32))
    assert actual.dtype == expected.dtype
    np.testing.assert_array_equal(actual, expected)


def test_arange_float_steps_round_once():
    # numpy's length: ceil((2.2 - 0.1) / 0.3) is 8 in doubles.
    count = len(np.arange(0.1, 2.2, 0.3))
    expected = np.array([0.1 + i * 0.3 for i in range(count)])
    for dtype, rtol in ((np.float64, 0), (np.float32, 1e-7)):
        actual = run(lambda _: ops.arange(0.1, 2.2, 0.3, DTYPES[dtype]),
                     np.zeros(1, np.float32))
        assert actual.shape == (count,)
        np.testing.assert_allclose(actual, expected.astype(dtype), rtol=rtol)


def test_arange_f16():
    def fn(_):
        return ops.arange(-1.0, 1.0, 0.5, DType.float16)
    staged = compilation.stage(fn)(TensorLayout(DType.float32, [1]))
    assert "!maxgraph.tensor<[4], f16>" in str(staged)
    out = compilation.compile(fn)(TensorLayout(DType.float32, [1]))(
        Tensor.from_numpy(np.zeros(1, np.float32)))
    np.testing.assert_array_equal(out.to_numpy().astype(np.float32),
                                  [-1, -0.5, 0, 0.5])


def test_arange_up_to_a_symbolic_dim_compiles_once():
    def fn(x):
        seq = x.shape[1]
        return ops.arange(0, seq, 1, DType.int64), ops.arange(1, seq, 2,
                                                               DType.int32)
    spec = TensorLayout(DType.float32, ["batch", "seq"], CPU())
    staged = compilation.stage(fn)(spec)
    assert "!maxgraph.tensor<[seq], si64>" in str(staged)
    assert "!maxgraph.tensor<[seq floordiv 2], si32>" in str(staged)
    compiled = compilation.compile(fn)(spec)
    for batch, seq in ((2, 5), (3, 8)):
        x = Tensor.from_numpy(np.zeros((batch, seq), np.float32))
        positions, odd = compiled(x)
        np.testing.assert_array_equal(positions.to_numpy(), np.arange(seq))
        np.testing.assert_array_equal(odd.to_numpy(),
                                      np.arange(1, seq, 2, dtype=np.int32))


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
def test_pad_matches_numpy(mode, dtype, rng):
    x = (rng.standard_normal((3, 4)) * 10).astype(dtype)
    widths = [(1, 2), (2, 0)]
    flat = [w for pair in widths for w in pair]
    value = 7 if mode == "constant" else 0
    kwargs = {"constant_values": value} if mode == "constant" else {}
    expected = np.pad(x, widths, mode=mode, **kwargs)
    np.testing.assert_array_equal(
        run(lambda a: ops.pad(a, flat, mode, value), x), expected)


def test_pad_bool_and_negative_values():
    x = np.array([True, False])
    np.testing.assert_array_equal(run(lambda a: ops.pad(a, [1, 1], value=1), x),
                                  [True, True, False, True])
    y = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(
        run(lambda a: ops.pad(a, [0, 1, 1, 0], value=-np.inf), y),
        np.pad(y, [(0, 1), (1, 0)], constant_values=-np.inf))


def test_pad_of_a_symbolic_dim_is_algebraic_and_compiles_once():
    def fn(x):
        return ops.pad(x, [2, 1, 0, 3], "constant", 0.5)
    spec = TensorLayout(DType.float32, ["batch", 4], CPU())
    staged = compilation.stage(fn)(spec)
    assert "!maxgraph.tensor<[batch + 3, 7], f32>" in str(staged)
    compiled = compilation.compile(fn)(spec)
    for batch in (1, 5, 0):
        x = np.arange(batch * 4, dtype=np.float32).reshape(batch, 4)
        out = compiled(Tensor.from_numpy(x)).to_numpy()
        np.testing.assert_array_equal(
            out, np.pad(x, [(2, 1), (0, 3)], constant_values=0.5))


def test_pad_of_an_empty_tensor_is_all_value():
    x = np.zeros((0, 2), np.float32)
    np.testing.assert_array_equal(run(lambda a: ops.pad(a, [1, 1, 0, 0], value=3), x),
                                  np.full((2, 2), 3, np.float32))


# k up to 8 runs in registers, larger k through slot buffers.
@pytest.mark.parametrize("k", [1, 3, 8, 11])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_top_k_matches_a_stable_descending_sort(k, axis, dtype, rng):
    # Small integers make ties; NaNs go first.
    x = rng.integers(-3, 4, size=(13, 12)).astype(dtype)
    if dtype in (np.float32, np.float64):
        x[1, 2] = x[2, 0] = x[0, 5] = np.nan
    values, indices = run(lambda a: ops.top_k(a, k, axis), x)
    expected_values, expected_indices = top_k_reference(x, k, axis)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(values, expected_values)
    assert indices.dtype == np.int64 and values.dtype == dtype


# One row of a long axis (a sampler's logits) skips the pairs of elements
# that beat none of the slots: ascending values beat them all, ties and NaNs
# test the order.
@pytest.mark.parametrize("k", [9, 40])
@pytest.mark.parametrize("kind", ["random", "ascending", "ties", "nans"])
@pytest.mark.parametrize("n", [41, 1001])
def test_top_k_of_one_long_row_matches_a_stable_sort(k, kind, n, rng):
    x = {"random": rng.standard_normal(n),
         "ascending": np.arange(n, dtype=np.float64),
         "ties": rng.integers(0, 5, n).astype(np.float64),
         "nans": rng.standard_normal(n)}[kind].astype(np.float32)
    if kind == "nans":
        x[[3, n // 2, n - 1]] = np.nan
    values, indices = run(lambda a: ops.top_k(a, k), x[None])
    expected_values, expected_indices = top_k_reference(x[None], k, -1)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(values, expected_values)


def test_top_k_all_and_none():
    x = np.array([[2, 7, 7, -1, 0]], np.int32)
    values, indices = run(lambda a: ops.top_k(a, 5), x)
    np.testing.assert_array_equal(values, [[7, 7, 2, 0, -1]])
    np.testing.assert_array_equal(indices, [[1, 2, 0, 4, 3]])
    values, indices = run(lambda a: ops.top_k(a, 0), x)
    assert values.shape == (1, 0) and indices.shape == (1, 0)


def test_top_k_signed_zeros_and_infinities_tie_by_index():
    x = np.array([0.0, -np.inf, -0.0, np.inf, 0.0], np.float32)
    values, indices = run(lambda a: ops.top_k(a, 4), x)
    np.testing.assert_array_equal(indices, [3, 0, 2, 4])
    np.testing.assert_array_equal(values, [np.inf, 0, 0, 0])


@pytest.mark.parametrize("k", [2, 10])
def test_top_k_over_a_symbolic_batch_compiles_once(k, rng):
    def fn(x):
        return ops.top_k(x, k, axis=-1)
    spec = TensorLayout(DType.float32, ["batch", 17], CPU())
    staged = compilation.stage(fn)(spec)
    assert f"!maxgraph.tensor<[batch, {k}], si64>" in str(staged)
    compiled = compilation.compile(fn)(spec)
    for batch in (3, 9):
        x = rng.standard_normal((batch, 17)).astype(np.float32)
        values, indices = compiled(Tensor.from_numpy(x))
        expected_values, expected_indices = top_k_reference(x, k, -1)
        np.testing.assert_array_equal(indices.to_numpy(), expected_indices)
        np.testing.assert_array_equal(values.to_numpy(), expected_values)


@pytest.mark.parametrize("k", [3, 9])
def test_top_k_along_a_symbolic_axis_shorter_than_k(k):
    def fn(x):
        return ops.top_k(x, k, axis=0)
    compiled = compilation.compile(fn)(TensorLayout(DType.int32, ["n", 2]))
    x = np.array([[5, -1], [7, -1]], np.int32)
    values, indices = compiled(Tensor.from_numpy(x))
    # Positions past the axis hold value 0 and index -1 (docs/Spec.md).
    expected_values = np.zeros((k, 2), np.int32)
    expected_values[:2] = [[7, -1], [5, -1]]
    expected_indices = np.full((k, 2), -1, np.int64)
    expected_indices[:2] = [[1, 0], [0, 1]]
    np.testing.assert_array_equal(values.to_numpy(), expected_values)
    np.testing.assert_array_equal(indices.to_numpy(), expected_indices)


def test_top_k_f16(rng):
    x = rng.standard_normal((3, 8)).astype(np.float16)

    def fn(a):
        return ops.top_k(a, 3)
    compiled = compilation.compile(fn)(TensorLayout(DType.float16, [3, 8]))
    values, indices = compiled(Tensor.from_numpy(x))
    expected_values, expected_indices = top_k_reference(x, 3, -1)
    np.testing.assert_array_equal(indices.to_numpy(), expected_indices)
    np.testing.assert_array_equal(values.to_numpy(), expected_values)


@pytest.mark.parametrize("dtype,numpy_dtype", [
    (DType.float32, np.float32), (DType.float64, np.float64),
    (DType.float16, np.float16)])
def test_float_array_constants_round_each_value_once(dtype, numpy_dtype,
                                                     rng):
    # A table as large as a RoPE cache, given in float64: each value is
    # rounded once to the dtype, as numpy's astype rounds it.
    table = rng.standard_normal((2048, 32)) * 100
    got = run(lambda x: ops.add(x, ops.cast(ops.constant(table, dtype),
                                            DType.float64)),
              np.zeros((2048, 32), np.float64))
    np.testing.assert_array_equal(got, table.astype(numpy_dtype))


def test_a_constant_of_equal_values_is_a_splat():
    staged = compilation.stage(
        lambda x: ops.add(x, ops.constant(np.full(4, 2.5), DType.float32)))(
        TensorLayout(DType.float32, [4]))
    assert "dense<2.500000e+00> : !maxgraph.tensor<[4], f32>" in str(staged)


def test_acos_and_atanh_edges():
    # docs/Spec.md: acos(1) = +0, acos(-1) = pi, NaN beyond [-1, 1];
    # atanh(+-1) = +-inf, atanh(-0) = -0, NaN beyond.
    x = np.array([1.0, -1.0, 0.0, -0.0, 1.5, np.nan], np.float32)
    a = run(ops.acos, x)
    np.testing.assert_array_equal(a[:2], [0.0, np.float32(np.pi)])
    np.testing.assert_allclose(a[2:4], [np.pi / 2] * 2, rtol=1e-7)
    assert np.isnan(a[4:]).all()
    with np.errstate(divide="ignore", invalid="ignore"):
        t = run(ops.atanh, x)
    np.testing.assert_array_equal(t[:4], [np.inf, -np.inf, 0.0, -0.0])
    assert np.signbit(t[3])
    assert np.isnan(t[4:]).all()
    # F's names run eagerly on live tensors too.
    live = Tensor.from_numpy(np.array([0.5, -0.25], np.float32))
    np.testing.assert_allclose(F.acos(live).to_numpy(),
                               np.arccos([0.5, -0.25]), rtol=1e-6)
    np.testing.assert_allclose(F.atanh(live).to_numpy(),
                               np.arctanh([0.5, -0.25]), rtol=1e-6)
