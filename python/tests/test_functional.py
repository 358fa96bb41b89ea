"""maxgraph.functional: MAX's F.* names and conventions, checked against
numpy on compiled graphs."""

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.driver import CPU
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor


def spec_of(array):
    return TensorLayout(getattr(DType, array.dtype.name), list(array.shape))


def run(fn, *arrays):
    """fn compiled for the arrays' layouts and run on them, as numpy."""
    compiled = compilation.compile(fn)(*[spec_of(a) for a in arrays])
    result = compiled(*arrays)
    if isinstance(result, (list, tuple)):
        return [r.to_numpy() for r in result]
    return result.to_numpy()


@pytest.fixture
def x(rng):
    return rng.standard_normal((2, 3, 4)).astype(np.float32)


@pytest.mark.parametrize("name, reference", [
    ("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min),
    ("prod", np.prod)])
def test_reductions_keep_the_axis_with_size_1(x, name, reference):
    reduce = getattr(F, name)
    for axis in (-1, 0, 1):
        out = run(lambda t: reduce(t, axis=axis), x)
        np.testing.assert_allclose(
            out, reference(x, axis=axis, keepdims=True), rtol=1e-5)
    # The default axis is the last.
    assert run(reduce, x).shape == (2, 3, 1)
    # axis=None: every element, into shape [1].
    np.testing.assert_allclose(run(lambda t: reduce(t, axis=None), x),
                               [reference(x)], rtol=1e-4)


def test_max_and_min_of_two_tensors_are_elementwise(x):
    y = -x
    np.testing.assert_array_equal(run(lambda a, b: F.max(a, b), x, y),
                                  np.maximum(x, y))
    np.testing.assert_array_equal(run(F.elementwise_min, x, y),
                                  np.minimum(x, y))


def test_argmax_keeps_the_axis_and_is_int64(x):
    out = run(lambda t: F.argmax(t, axis=1), x)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, np.argmax(x, axis=1)[:, None, :])
    np.testing.assert_array_equal(run(lambda t: F.argmin(t, axis=None), x),
                                  [np.argmin(x)])


def test_elementwise_names(x):
    pos = np.abs(x) + 0.5
    cases = [
        (F.negate, np.negative, x), (F.exp, np.exp, x),
        (F.log1p, np.log1p, pos), (F.sqrt, np.sqrt, pos),
        (F.rsqrt, lambda a: 1 / np.sqrt(a), pos), (F.tanh, np.tanh, x),
        (F.floor, np.floor, x * 3), (F.ceil, np.ceil, x * 3),
        (F.trunc, np.trunc, x * 3), (F.abs, np.abs, x),
        (F.relu, lambda a: np.maximum(a, 0), x),
        (F.sigmoid, lambda a: 1 / (1 + np.exp(-a)), x),
    ]
    for fn, reference, operand in cases:
        np.testing.assert_allclose(run(fn, operand), reference(operand),
                                   rtol=1e-5, atol=1e-6, err_msg=fn.__name__)


def test_floor_div_floors_floats_and_ints():
    a = np.array([7, -7, 7, -7], np.float32)
    b = np.array([2, 2, -2, -2], np.float32)
    np.testing.assert_array_equal(run(F.floor_div, a, b), a // b)
    ai, bi = a.astype(np.int32), b.astype(np.int32)
    np.testing.assert_array_equal(run(F.floor_div, ai, bi), ai // bi)
    np.testing.assert_array_equal(run(F.mod, ai, bi), ai % bi)


def test_where_clamp_and_comparisons(x):
    np.testing.assert_array_equal(
        run(lambda t: F.where(F.greater(t, 0), t, 0.0), x),
        np.where(x > 0, x, 0))
    np.testing.assert_array_equal(run(lambda t: F.clamp(t, -0.5, 0.5), x),
                                  np.clip(x, -0.5, 0.5))
    np.testing.assert_array_equal(run(lambda t: F.clip(t, max=0.1), x),
                                  np.minimum(x, 0.1))
    np.testing.assert_array_equal(run(lambda t: F.not_equal(t, t), x),
                                  np.zeros(x.shape, bool))


def test_permute_reorders_all_axes_and_transpose_swaps_two(x):
    np.testing.assert_array_equal(run(lambda t: F.permute(t, [2, 0, 1]), x),
                                  np.transpose(x, (2, 0, 1)))
    np.testing.assert_array_equal(run(lambda t: F.transpose(t, 0, -1), x),
                                  np.swapaxes(x, 0, -1))
    with pytest.raises(IndexError, match="transpose: axis 3 is out of range"):
        compilation.stage(lambda t: F.transpose(t, 0, 3))(spec_of(x))


def test_shape_functions(x):
    np.testing.assert_array_equal(run(lambda t: F.flatten(t, 1), x),
                                  x.reshape(2, 12))
    np.testing.assert_array_equal(run(F.flatten, x), x.reshape(24))
    assert run(lambda t: F.unsqueeze(t, -1), x).shape == (2, 3, 4, 1)
    assert run(lambda t: F.unsqueeze(t, 0), x).shape == (1, 2, 3, 4)
    y = x[:, :1]
    np.testing.assert_array_equal(run(lambda t: F.squeeze(t, 1), y), y[:, 0])
    with pytest.raises(ValueError, match="squeeze: axis 0 has size 2, not 1"):
        compilation.stage(lambda t: F.squeeze(t, 0))(spec_of(x))
    np.testing.assert_array_equal(
        run(lambda a, b: F.stack([a, b], axis=1), x, -x),
        np.stack([x, -x], axis=1))
    np.testing.assert_array_equal(run(lambda t: F.tile(t, [1, 2, 3]), x),
                                  np.tile(x, (1, 2, 3)))
    np.testing.assert_array_equal(
        run(lambda t: F.slice_tensor(t, [0, slice(1, 3)]), x), x[0, 1:3])
    v = np.arange(3, dtype=np.float32)
    w = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(run(F.outer, v, w), np.outer(v, w))


def test_split_and_chunk(x):
    pieces = run(lambda t: F.split(t, 3, axis=2), x)
    assert [p.shape[2] for p in pieces] == [3, 1]
    pieces = run(lambda t: F.split(t, [1, 2], axis=1), x)
    np.testing.assert_array_equal(pieces[1], x[:, 1:])
    pieces = run(lambda t: F.chunk(t, 2, axis=1), x)
    assert [p.shape[1] for p in pieces] == [2, 1]


def test_normalizations_and_softmax(x, rng):
    gamma = rng.standard_normal(4).astype(np.float32)
    beta = rng.standard_normal(4).astype(np.float32)
    mean = x.mean(-1, keepdims=True)
    normed = (x - mean) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(run(F.layer_norm, x, gamma, beta),
                               normed * gamma + beta, rtol=1e-4, atol=1e-5)
    rms = x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(
        run(lambda t, g: F.rms_norm(t, g, 1e-6, weight_offset=1.0), x, gamma),
        rms * (gamma + 1), rtol=1e-4, atol=1e-5)
    e = np.exp(x - x.max(0, keepdims=True))
    np.testing.assert_allclose(run(lambda t: F.softmax(t, axis=0), x),
                               e / e.sum(0, keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(run(F.logsoftmax, x),
                               x - np.log(np.exp(x).sum(-1, keepdims=True)),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(run(lambda t: F.cumsum(t, axis=1), x),
                               np.cumsum(x, axis=1), rtol=1e-5, atol=1e-6)


def test_creation_inside_a_trace(x):
    out = run(lambda t: [F.full_like(t, 2.5), F.zeros([2], dtype=DType.int32),
                         F.ones_like(t) + t,
                         F.constant([1, 2, 3], DType.float32)], x)
    np.testing.assert_array_equal(out[0], np.full(x.shape, 2.5, np.float32))
    assert out[1].dtype == np.int32
    np.testing.assert_array_equal(out[1], [0, 0])
    np.testing.assert_allclose(out[2], x + 1)
    np.testing.assert_array_equal(out[3], [1, 2, 3])


def test_creation_outside_a_trace_is_live():
    t = F.full([2, 3], 7, dtype=DType.int64)
    assert t.is_live and t.dtype == DType.int64
    np.testing.assert_array_equal(t.to_numpy(), np.full((2, 3), 7))
    assert F.ones([2]).dtype == DType.float32
    np.testing.assert_array_equal(F.zeros_like(t).to_numpy(), np.zeros((2, 3)))
    assert F.constant(1.5).dtype == DType.float32
    assert F.constant(np.arange(3, dtype=np.int16)).dtype == DType.int16


def test_collectives_take_per_device_tensors():
    a = np.arange(4, dtype=np.float32)
    spec0 = TensorLayout(DType.float32, [4], CPU(0))
    spec1 = TensorLayout(DType.float32, [4], CPU(1))
    compiled = compilation.compile(
        lambda p, q: [F.allreduce_sum([p, q]), F.allgather([p, q], 0),
                      F.reduce_scatter([p, q], 0)])(spec0, spec1)
    sums, gathered, scattered = compiled(
        Tensor.from_numpy(a, CPU(0)), Tensor.from_numpy(a * 10, CPU(1)))
    np.testing.assert_array_equal(sums[1].to_numpy(), a * 11)
    np.testing.assert_array_equal(gathered[0].to_numpy(),
                                  np.concatenate([a, a * 10]))
    np.testing.assert_array_equal(scattered[1].to_numpy(), (a * 11)[2:])


def test_buffer_store_and_transfer():
    from maxgraph.sharding import BufferLayout

    def fn(buffer, t):
        F.buffer_store(buffer, F.transfer_to(t * 2, CPU()))

    compiled = compilation.compile(fn)(BufferLayout(DType.float32, [3]),
                                       TensorLayout(DType.float32, [3]))
    target = np.zeros(3, np.float32)
    compiled(target, np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(target, [0, 2, 4])


def test_custom_names_where_extensions_go():
    with pytest.raises(ValueError, match="pass custom_extensions to "
                       r"compilation.stage\(\)"):
        compilation.stage(lambda t: F.custom(
            "k", CPU(), [t], [TensorLayout(DType.float32, [1])],
            custom_extensions="ops.so"))(TensorLayout(DType.float32, [1]))


def test_range_and_arange_take_maxs_arguments(x):
    out = run(lambda t: [F.range(0, 5), F.arange(4, 0, -1, dtype=DType.int32),
                         F.range(0, t.shape[2], 1, out_dim=4,
                                 dtype=DType.int64),
                         F.range(0.5, 2, 0.5, dtype=DType.float64)], x)
    assert out[0].dtype == np.float32  # MAX's default on the CPU
    np.testing.assert_array_equal(out[0], np.arange(0, 5, dtype=np.float32))
    np.testing.assert_array_equal(out[1], np.arange(4, 0, -1, dtype=np.int32))
    np.testing.assert_array_equal(out[2], np.arange(4))
    np.testing.assert_array_equal(out[3], np.arange(0.5, 2, 0.5))


def test_range_out_dim_must_be_the_length():
    with pytest.raises(ValueError, match="range: the range has 5 elements "
                                         "but out_dim is 4"):
        compilation.stage(lambda t: F.range(0, 5, out_dim=4))(
            TensorLayout(DType.float32, [1]))


def test_range_outside_a_trace_is_live():
    t = F.arange(2, 11, 3, dtype=DType.int64)
    assert t.is_live and t.dtype == DType.int64
    np.testing.assert_array_equal(t.to_numpy(), np.arange(2, 11, 3))
    assert F.range(3, 1).to_numpy().shape == (0,)
    np.testing.assert_array_equal(Tensor.arange(0, 1, 0.25).to_numpy(),
                                  np.arange(0, 1, 0.25, dtype=np.float32))


def test_range_up_to_a_symbolic_dim_runs_at_two_sizes():
    def positions(ids):
        return F.arange(0, ids.shape[1], dtype=DType.int64)
    spec = TensorLayout(DType.int64, ["batch", "seq"])
    compiled = compilation.compile(positions)(spec)
    for shape in ((2, 3), (1, 6)):
        np.testing.assert_array_equal(
            compiled(np.zeros(shape, np.int64)).to_numpy(),
            np.arange(shape[1]))


def test_pad_and_top_k_stage_and_run_eagerly(x):
    padded = run(lambda t: F.pad(t, [0, 0, 1, 0, 2, 3], value=-1.5), x)
    np.testing.assert_array_equal(
        padded, np.pad(x, [(0, 0), (1, 0), (2, 3)], constant_values=-1.5))
    reflected = run(lambda t: F.pad(t, [1, 1, 0, 0, 0, 0], mode="reflect"), x)
    np.testing.assert_array_equal(
        reflected, np.pad(x, [(1, 1), (0, 0), (0, 0)], mode="reflect"))
    values, indices = run(lambda t: F.top_k(t, 2, axis=1), x)
    order = np.argsort(-x, axis=1, kind="stable")[:, :2]
    np.testing.assert_array_equal(indices, order)
    np.testing.assert_array_equal(values, np.take_along_axis(x, order, 1))
    # Live tensors run eagerly, as MAX's functions do.
    live = Tensor.from_numpy(x)
    values, indices = F.top_k(live, 1)
    np.testing.assert_array_equal(indices.to_numpy(),
                                  np.argmax(x, axis=-1)[..., None])
    np.testing.assert_array_equal(F.pad(live, [0, 0, 0, 0, 1, 1],
                                        mode="edge").to_numpy(),
                                  np.pad(x, [(0, 0), (0, 0), (1, 1)],
                                         mode="edge"))
