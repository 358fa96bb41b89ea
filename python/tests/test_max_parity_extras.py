"""MAX names added for porting (docs/MaxParity.md), written against MAX's
spellings with the imports renamed, and checked against numpy: collectives
on distributed Tensors, true division, DType's helpers, creation over a
mesh, and the composite functions (band_part, repeat_interleave, bottom_k,
group_norm, hann_window, gather_nd)."""

import numpy as np
import pytest

import maxgraph
import maxgraph.functional as F
from maxgraph import compilation, ops
from maxgraph.driver import CPU, GPU, Accelerator
from maxgraph.dtype import DType, finfo
from maxgraph.sharding import (ConversionError, DeviceMapping, DeviceMesh,
                               NamedMapping, Partial, Replicated, Sharded,
                               ShardingError, TensorLayout)
from maxgraph.tensor import Tensor

MESH2 = DeviceMesh([CPU(0), CPU(1)], (2,), ("tp",))
GRID = DeviceMesh([CPU(i) for i in range(4)], (2, 2), ("dp", "tp"))


def layout(shape, mesh, *placements, dtype=DType.float32):
    return TensorLayout(dtype, list(shape),
                        DeviceMapping(mesh, list(placements)))


def spec_of(array):
    return TensorLayout(DType.from_numpy(array.dtype), list(array.shape))


def run(fn, *arrays):
    """fn compiled for the arrays' layouts and run on them, as numpy."""
    result = compilation.compile(fn)(*[spec_of(a) for a in arrays])(*arrays)
    if isinstance(result, (list, tuple)):
        return [r.to_numpy() for r in result]
    return result.to_numpy()


def partial_sum(data, mesh=MESH2):
    """The live result of summing `data` over its axis 0, split across
    `mesh` (axis tp): Partial(sum), each device holding its rows' sum."""
    placements = [Replicated()] * (mesh.ndim - 1) + [Sharded(0)]
    total = compilation.compile(lambda x: F.sum(x, axis=0))(
        layout(data.shape, mesh, *placements))(data)
    assert total.placements[-1] == Partial()
    return total


# Collectives on distributed Tensors ------------------------------------------

def test_allreduce_sum_of_a_distributed_tensor_live_and_traced(rng):
    data = rng.standard_normal((6, 3)).astype(np.float32)
    total = partial_sum(data)
    # Live: runs eagerly; every device gets the sum.
    reduced = F.allreduce_sum(total)
    assert reduced.is_distributed and reduced.placements == [Replicated()]
    for shard in reduced.local_shards:
        np.testing.assert_allclose(shard.to_numpy(),
                                   data.sum(0, keepdims=True), rtol=1e-5)
    # Traced, with MAX's mesh_axis keyword.
    run_sum = compilation.compile(
        lambda x: F.allreduce_sum(F.sum(x, axis=0), mesh_axis=0))(
        layout(data.shape, MESH2, Sharded(0)))
    result = run_sum(data)
    assert result.placements == [Replicated()]
    np.testing.assert_allclose(result.to_numpy(), data.sum(0, keepdims=True),
                               rtol=1e-5)


def test_allreduce_sum_on_the_second_axis_of_a_grid(rng):
    data = rng.standard_normal((4, 6)).astype(np.float32)

    def rows(x):
        return F.allreduce_sum(F.sum(x, axis=1), mesh_axis=1)

    spec = layout(data.shape, GRID, Sharded(0), Sharded(1))
    result = compilation.compile(rows)(spec)(data)
    assert result.placements == [Sharded(0), Replicated()]
    np.testing.assert_allclose(result.to_numpy(), data.sum(1, keepdims=True),
                               rtol=1e-5)


def test_allgather_and_reduce_scatter_of_distributed_tensors(rng):
    data = rng.standard_normal((4, 6)).astype(np.float32)
    split = Tensor.from_numpy(data).to(DeviceMapping(MESH2, [Sharded(1)]))
    gathered = F.allgather(split, 1)
    assert gathered.placements == [Replicated()]
    for shard in gathered.local_shards:
        np.testing.assert_array_equal(shard.to_numpy(), data)
    gathered = F.allgather(split, tensor_axis=-1, mesh_axis=0)
    np.testing.assert_array_equal(gathered.to_numpy(), data)

    total = partial_sum(data)                       # [1, 6], Partial
    scattered = F.reduce_scatter(total, scatter_axis=1)
    assert scattered.placements == [Sharded(1)]
    assert [s.shape for s in scattered.local_shards] == [[1, 3], [1, 3]]
    np.testing.assert_allclose(scattered.to_numpy(),
                               data.sum(0, keepdims=True), rtol=1e-5)

    def traced(x):
        return F.reduce_scatter(F.sum(x, axis=0), 1)

    result = compilation.compile(traced)(
        layout(data.shape, MESH2, Sharded(0)))(data)
    assert result.placements == [Sharded(1)]
    np.testing.assert_allclose(result.to_numpy(), data.sum(0, keepdims=True),
                               rtol=1e-5)


def test_collectives_say_what_placement_they_take():
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    split = Tensor.from_numpy(data).to(DeviceMapping(MESH2, [Sharded(0)]))
    with pytest.raises(ShardingError, match=r"allreduce_sum: mesh axis 0 "
                       r"\('tp'\) of the tensor is Sharded\(axis=0\), but "
                       r"allreduce_sum takes Partial\(reduce_op='sum'\)"):
        F.allreduce_sum(split)
    with pytest.raises(ShardingError, match=r"allgather: .* is "
                       r"Sharded\(axis=0\), but allgather takes "
                       r"Sharded\(axis=1\)"):
        F.allgather(split, tensor_axis=1)
    with pytest.raises(ShardingError, match="reduce_scatter: .* is "
                       r"Sharded\(axis=0\)"):
        F.reduce_scatter(split)
    with pytest.raises(IndexError, match="mesh_axis 1 is out of range"):
        F.allgather(split, 0, mesh_axis=1)
    with pytest.raises(TypeError, match="allreduce_sum: takes a distributed "
                       "Tensor, or the list of per-device tensors"):
        F.allreduce_sum(data)
    # A tensor on one device is a group of one: it comes back as it is.
    single = Tensor.from_numpy(data)
    assert F.allreduce_sum(single) is single
    assert F.allgather(single, 1) is single


def test_distributed_broadcast_replicates_one_device_tensor():
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    replicated = F.distributed_broadcast(Tensor.from_numpy(data), MESH2)
    assert replicated.placements == [Replicated()]
    assert [str(s.device) for s in replicated.local_shards] == ["cpu:0",
                                                                "cpu:1"]
    for shard in replicated.local_shards:
        np.testing.assert_array_equal(shard.to_numpy(), data)
    result = compilation.compile(
        lambda x: F.distributed_broadcast(x * 2, GRID))(spec_of(data))(data)
    assert result.placements == [Replicated(), Replicated()]
    for shard in result.local_shards:
        np.testing.assert_array_equal(shard.to_numpy(), data * 2)
    with pytest.raises(RuntimeError, match="distributed_broadcast: the source "
                       "tensor must be on one device"):
        F.distributed_broadcast(replicated, MESH2)


# Creation over a mesh ----------------------------------------------------------

def test_full_on_a_device_mapping_is_distributed():
    mapping = DeviceMapping(MESH2, [Sharded(0)])
    t = F.full([5, 3], 2.5, device=mapping)
    assert t.is_live and t.is_distributed and t.placements == [Sharded(0)]
    assert [s.shape for s in t.local_shards] == [[3, 3], [2, 3]]
    np.testing.assert_array_equal(t.to_numpy(), np.full((5, 3), 2.5))
    ones = Tensor.ones([2, 2], dtype=DType.int32, device=MESH2)
    assert ones.placements == [Replicated()]
    for shard in ones.local_shards:
        np.testing.assert_array_equal(shard.to_numpy(), np.ones((2, 2)))
    zeros = F.zeros([4], device=NamedMapping(MESH2, ("tp",)))
    assert zeros.placements == [Sharded(0)]
    np.testing.assert_array_equal(zeros.to_numpy(), np.zeros(4))
    # full_like of a distributed tensor takes its mapping.
    like = F.full_like(t, 7)
    assert like.placements == [Sharded(0)] and like.dtype == DType.float32
    np.testing.assert_array_equal(like.to_numpy(), np.full((5, 3), 7))

    # Staged: the global shape, laid out by the mapping.
    def fn(x):
        return x + F.full(x.shape, 1.0, device=x.mapping)

    data = np.arange(8, dtype=np.float32).reshape(4, 2)
    result = compilation.compile(fn)(layout([4, 2], MESH2, Sharded(1)))(data)
    assert result.placements == [Sharded(1)]
    np.testing.assert_array_equal(result.to_numpy(), data + 1)


def test_tensor_like_creation_and_arange():
    ref = Tensor.from_numpy(np.arange(6, dtype=np.int32).reshape(2, 3))
    full = Tensor.full_like(ref, 4)
    assert full.dtype == DType.int32
    np.testing.assert_array_equal(full.to_numpy(), np.full((2, 3), 4))
    np.testing.assert_array_equal(Tensor.ones_like(ref).to_numpy(),
                                  np.ones((2, 3)))
    np.testing.assert_array_equal(Tensor.zeros_like(input=ref).to_numpy(),
                                  np.zeros((2, 3)))

    def fn(x):
        return Tensor.ones_like(x) + x, Tensor.zeros_like(x)

    a = np.arange(4, dtype=np.float32)
    ones, zeros = run(fn, a)
    np.testing.assert_array_equal(ones, a + 1)
    np.testing.assert_array_equal(zeros, np.zeros(4))
    # MAX's Tensor.arange(n) counts from 0.
    np.testing.assert_array_equal(Tensor.arange(5).to_numpy(), np.arange(5))
    np.testing.assert_array_equal(
        Tensor.arange(2, 8, 3, dtype=DType.int64).to_numpy(), [2, 5])
    assert maxgraph.Tensor is Tensor


# True division ------------------------------------------------------------------

def test_div_of_integers_is_true_division_in_float64():
    a = np.array([7, -7, 1, 0], dtype=np.int32)
    b = np.array([2, 2, 3, 5], dtype=np.int32)
    out = run(F.div, a, b)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, a / b, rtol=1e-15)
    out = run(lambda x: F.div(x, 4), a)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, a / 4)
    np.testing.assert_allclose(run(lambda x: F.div(3, x), b), 3 / b)
    np.testing.assert_allclose(run(lambda x: F.div(x, True), a), a / 1)
    # Floats keep their dtype.
    x = np.array([1, 2, 3], dtype=np.float32)
    out = run(lambda t: F.div(t, 2), x)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, x / 2)
    # Live, eagerly.
    np.testing.assert_allclose(
        F.div(Tensor.from_numpy(a), Tensor.from_numpy(b)).to_numpy(), a / b)
    # maxgraph.ops.div keeps its meaning (floor division of integers), and
    # F.floor_div is MAX's //.
    np.testing.assert_array_equal(run(ops.div, a, b), a // b)
    np.testing.assert_array_equal(run(F.floor_div, a, b), a // b)


# Tensor.max and Tensor.min --------------------------------------------------------

def test_tensor_max_and_min_reduce_as_max_s_and_name_the_mistake(rng):
    data = rng.standard_normal((3, 4)).astype(np.float32)
    x = Tensor.from_numpy(data)
    np.testing.assert_array_equal(x.max().to_numpy(),
                                  data.max(-1, keepdims=True))
    np.testing.assert_array_equal(x.min(axis=0).to_numpy(),
                                  data.min(0, keepdims=True))
    np.testing.assert_array_equal(x.max(None).to_numpy(), [data.max()])
    y = Tensor.from_numpy(-data)
    with pytest.raises(TypeError, match=r"Tensor.max: axis must be an int "
                       r"or None, got Tensor: .* use F.max\(x, y\)"):
        x.max(y)
    with pytest.raises(TypeError, match=r"Tensor.min: axis must be an int "
                       r"or None, got float"):
        x.min(1.5)
    np.testing.assert_array_equal(F.max(x, y).to_numpy(),
                                  np.maximum(data, -data))
    # numpy's functions still read a live tensor's data.
    assert np.max(x) == data.max()
    assert np.min(x, axis=0).tolist() == data.min(0).tolist()

    def traced(t, u):
        with pytest.raises(TypeError, match="Tensor.max: axis must be"):
            t.max(u)
        return t.max(axis=1), t.min()

    maxima, minima = run(traced, data, -data)
    np.testing.assert_array_equal(maxima, data.max(1, keepdims=True))
    np.testing.assert_array_equal(minima, data.min(-1, keepdims=True))


# DType, finfo, driver and sharding names ------------------------------------------

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "float16", "float32", "float64"]


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_dtype_helpers_agree_with_numpy(name):
    dtype = getattr(DType, name)
    reference = np.dtype(name)
    assert dtype.size_in_bytes == reference.itemsize
    assert dtype.align == reference.alignment
    assert dtype.is_float() == (reference.kind == "f")
    assert dtype.is_integral() == (reference.kind in "iu")
    assert dtype.to_numpy() == reference
    assert DType.from_numpy(reference) is dtype
    assert DType.from_numpy(reference.type) is dtype


def test_bfloat16_and_unknown_dtypes():
    assert DType.bfloat16.size_in_bytes == 2 and DType.bfloat16.align == 2
    assert DType.bfloat16.is_float() and not DType.bfloat16.is_integral()
    with pytest.raises(ValueError, match="numpy has no bfloat16"):
        DType.bfloat16.to_numpy()
    with pytest.raises(ValueError, match="no dtype for numpy's complex64"):
        DType.from_numpy(np.complex64)
    with pytest.raises(ValueError, match="is not a numpy dtype"):
        DType.from_numpy("no-such-type")


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_agrees_with_numpy(name):
    info, reference = finfo(getattr(DType, name)), np.finfo(name)
    assert info.bits == reference.bits
    assert info.eps == float(reference.eps)
    assert info.max == float(reference.max)
    assert info.min == float(reference.min)
    assert info.tiny == info.smallest_normal == float(reference.tiny)
    assert info.dtype == getattr(DType, name)
    assert DType.finfo is finfo


def test_finfo_of_bfloat16_and_of_integers():
    info = finfo(DType.bfloat16)
    # bfloat16: float32's 8 exponent bits with 7 mantissa bits.
    assert info.bits == 16
    assert info.eps == 2.0 ** -7
    assert info.tiny == float(np.finfo(np.float32).tiny)
    largest = np.array([0x7F7F0000], np.uint32).view(np.float32)[0]
    assert info.max == float(largest) == -info.min
    with pytest.raises(TypeError, match="finfo only supports floating-point "
                       "types, got int32"):
        finfo(DType.int32)


def test_accelerator_is_gpu_and_conversion_error_is_caught():
    assert Accelerator(1) == GPU(1) and Accelerator() == GPU(0)
    with pytest.raises(ConversionError, match="named twice"):
        NamedMapping(GRID, ("tp", "tp"))


# Composites over existing ops -----------------------------------------------------

def band_reference(x, lower, upper, exclude):
    rows, cols = x.shape[-2:]
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    band = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(~band if exclude else band, x, 0).astype(x.dtype)


@pytest.mark.parametrize("lower, upper, exclude", [
    (None, 0, False), (0, None, False), (1, 2, False), (0, 0, False),
    (2, 1, True), (None, None, False), (None, None, True), (-1, 1, True)])
def test_band_part_matches_numpy(rng, lower, upper, exclude):
    x = rng.standard_normal((2, 4, 5)).astype(np.float32)
    out = run(lambda t: F.band_part(t, lower, upper, exclude), x)
    np.testing.assert_array_equal(out, band_reference(
        x, -1 if lower is None else lower, -1 if upper is None else upper,
        exclude))


def test_band_part_on_symbolic_dims_and_its_errors(rng):
    x = rng.integers(-9, 9, (3, 3))
    causal = compilation.compile(
        lambda t: F.band_part(t, num_lower=None, num_upper=0))(
        TensorLayout(DType.int64, ["n", "n"]))
    np.testing.assert_array_equal(causal(x).to_numpy(), np.tril(x))
    with pytest.raises(ValueError, match="band_part: the input must have at "
                       "least 2 dims"):
        run(lambda t: F.band_part(t, 0, 0), np.ones(3, np.float32))
    with pytest.raises(ValueError, match="num_lower=4 is out of bounds for "
                       "dimension size 4"):
        run(lambda t: F.band_part(t, 4, 0), np.ones((4, 4), np.float32))
    with pytest.raises(ValueError, match="num_upper must be None, -1 or a "
                       "non-negative int, got -2"):
        run(lambda t: F.band_part(t, 0, -2), np.ones((4, 4), np.float32))


@pytest.mark.parametrize("repeats, axis", [(2, 0), (3, 1), (2, -1), (1, 0),
                                           (2, None)])
def test_repeat_interleave_matches_numpy(rng, repeats, axis):
    x = rng.standard_normal((2, 3)).astype(np.float32)
    out = run(lambda t: F.repeat_interleave(t, repeats, axis), x)
    np.testing.assert_array_equal(out, np.repeat(x, repeats, axis=axis))


def test_repeat_interleave_symbolic_and_errors():
    spec = TensorLayout(DType.float32, ["heads", 4])
    staged = compilation.stage(
        lambda t: F.repeat_interleave(t, 2, axis=0))(spec)
    assert [str(dim) for dim in staged.out_layouts[0].shape] == [
        "heads * 2", "4"]
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    np.testing.assert_array_equal(staged.compile()(x).to_numpy(),
                                  np.repeat(x, 2, axis=0))
    np.testing.assert_array_equal(
        run(lambda t: F.repeat_interleave(t, 2, 1, out_dim=8), x),
        np.repeat(x, 2, axis=1))
    with pytest.raises(ValueError, match="the result has 8 elements along "
                       "axis 1, but out_dim is 6"):
        run(lambda t: F.repeat_interleave(t, 2, 1, out_dim=6), x)
    with pytest.raises(TypeError, match="repeats must be an int: a tensor of "
                       "per-element repeats"):
        run(lambda t: F.repeat_interleave(t, t, 0), x)
    with pytest.raises(ValueError, match="repeats must be non-negative"):
        run(lambda t: F.repeat_interleave(t, -1, 0), x)
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        run(lambda t: F.repeat_interleave(t, 2, 2), x)


def bottom_reference(x, k, axis):
    order = np.argsort(x, axis=axis, kind="stable")
    indices = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, indices, axis=axis), indices


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int32",
                                   "int64", "uint8", "uint32"])
def test_bottom_k_matches_a_stable_sort(rng, dtype):
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    if info is None:
        x = rng.standard_normal((3, 7)).astype(dtype)
        x[0, 2] = x[0, 5]                    # A tie: ascending index first.
    else:
        x = rng.integers(info.min, info.max, (3, 7), dtype=dtype,
                         endpoint=True)
        x[0, :3] = [info.min, info.max, info.min]   # -x would overflow.
        x[1, 1] = x[1, 4]
    for k, axis in ((3, -1), (7, 1), (2, 0)):
        values, indices = run(lambda t: F.bottom_k(t, k, axis), x)
        expected_values, expected_indices = bottom_reference(x, k, axis)
        assert values.dtype == x.dtype and indices.dtype == np.int64
        np.testing.assert_array_equal(values, expected_values)
        np.testing.assert_array_equal(indices, expected_indices)


def test_bottom_k_live():
    x = Tensor.from_numpy(np.array([1.0, 3.0, 2.0, 5.0, 4.0], np.float32))
    values, indices = F.bottom_k(x, k=2, axis=-1)
    np.testing.assert_array_equal(values.to_numpy(), [1, 2])
    np.testing.assert_array_equal(indices.to_numpy(), [0, 2])
    with pytest.raises(TypeError, match="bottom_k: takes a numeric "
                       r"\(non-bool\) tensor, as top_k does, got bool"):
        F.bottom_k(Tensor.from_numpy(np.array([True, False])), 1)


def group_norm_reference(x, gamma, beta, groups, epsilon):
    n, c = x.shape[:2]
    grouped = x.reshape(n, groups, -1).astype(np.float64)
    mean = grouped.mean(-1, keepdims=True)
    var = grouped.var(-1, keepdims=True)
    normalized = ((grouped - mean) / np.sqrt(var + epsilon)).reshape(x.shape)
    per_channel = (c,) + (1,) * (x.ndim - 2)
    return normalized * gamma.reshape(per_channel) + beta.reshape(per_channel)


@pytest.mark.parametrize("shape, groups", [((2, 6, 3, 4), 3), ((2, 6, 5), 2),
                                           ((3, 4), 4), ((1, 4, 2, 2), 1)])
def test_group_norm_matches_numpy(rng, shape, groups):
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    gamma = rng.standard_normal(shape[1]).astype(np.float32)
    beta = rng.standard_normal(shape[1]).astype(np.float32)
    out = run(lambda t, g, b: F.group_norm(t, g, b, groups, 1e-5),
              x, gamma, beta)
    np.testing.assert_allclose(
        out, group_norm_reference(x, gamma, beta, groups, 1e-5),
        rtol=1e-4, atol=1e-5)


def test_group_norm_symbolic_batch_and_errors(rng):
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    gamma, beta = np.ones(4, np.float32), np.zeros(4, np.float32)
    compiled = compilation.compile(
        lambda t, g, b: F.group_norm(t, g, b, 2, 1e-6))(
        TensorLayout(DType.float32, ["batch", 4, 5]), spec_of(gamma),
        spec_of(beta))
    np.testing.assert_allclose(
        compiled(x, gamma, beta).to_numpy(),
        group_norm_reference(x, gamma, beta, 2, 1e-6), rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="num_groups must be a positive int "
                       "that divides the 4 channels, got 3"):
        run(lambda t, g, b: F.group_norm(t, g, b, 3, 1e-5), x, gamma, beta)
    with pytest.raises(ValueError, match="at least 2 dims"):
        run(lambda t, g, b: F.group_norm(t, g, b, 1, 1e-5),
            np.ones(4, np.float32), gamma, beta)


@pytest.mark.parametrize("length", [0, 1, 2, 5, 16])
def test_hann_window_matches_numpy(length):
    n = np.arange(length)
    periodic = F.hann_window(length)
    assert periodic.is_live and periodic.dtype == DType.float32
    expected = 0.5 * (1 - np.cos(2 * np.pi * n / length)) if length > 1 \
        else np.ones(length)
    np.testing.assert_allclose(periodic.to_numpy(), expected, atol=1e-6)
    symmetric = F.hann_window(length, periodic=False, dtype=DType.float64)
    assert symmetric.dtype == DType.float64
    np.testing.assert_allclose(symmetric.to_numpy(), np.hanning(length),
                               atol=1e-12)


def test_hann_window_staged_and_errors():
    def windowed(x):
        return x * F.hann_window(8, periodic=True)

    x = np.full(8, 2.0, np.float32)
    np.testing.assert_allclose(
        run(windowed, x), 2 * 0.5 * (1 - np.cos(2 * np.pi * np.arange(8) / 8)),
        atol=1e-6)
    with pytest.raises(TypeError, match="window_length must be an int"):
        F.hann_window(4.0)
    with pytest.raises(ValueError, match="window_length must be "
                       "non-negative"):
        F.hann_window(-1)
    with pytest.raises(ValueError, match="cannot create with a sharded "
                       "placement"):
        F.hann_window(4, device=DeviceMapping(MESH2, [Sharded(0)]))
    replicated = F.hann_window(4, device=MESH2)
    assert replicated.placements == [Replicated()]
    np.testing.assert_allclose(replicated.local_shards[1].to_numpy(),
                               [0, 0.5, 1, 0.5], atol=1e-6)


def test_gather_nd_matches_numpy(rng):
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    pairs = np.array([[0, 1], [2, 3], [1, 0], [2, 3]], np.int32)
    out = run(F.gather_nd, x, pairs)
    np.testing.assert_array_equal(out, x[pairs[:, 0], pairs[:, 1]])
    triples = np.array([[[0, 1, 4]], [[2, 3, 0]]], np.int64)   # [2, 1, 3]
    out = run(F.gather_nd, x, triples)
    assert out.shape == (2, 1)
    np.testing.assert_array_equal(out, x[tuple(np.moveaxis(triples, -1, 0))])
    # batch_dims=1: batch b picks rows of x[b].
    rows = np.array([[[1], [3], [0]], [[2], [2], [1]], [[0], [1], [3]]])
    out = run(lambda t, i: F.gather_nd(t, i, batch_dims=1), x, rows)
    assert out.shape == (3, 3, 5)
    np.testing.assert_array_equal(
        out, np.stack([x[b][rows[b, :, 0]] for b in range(3)]))
    cells = np.array([[[1, 4], [3, 0]], [[0, 0], [2, 2]], [[3, 3], [0, 1]]])
    out = run(lambda t, i: F.gather_nd(t, i, 1), x, cells)
    np.testing.assert_array_equal(out, np.stack(
        [x[b][cells[b, :, 0], cells[b, :, 1]] for b in range(3)]))


def test_gather_nd_errors(rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    with pytest.raises(ValueError, match="indices must be an integer tensor"):
        run(F.gather_nd, x, np.zeros((2, 1), np.float32))
    with pytest.raises(ValueError, match="index vectors of length 3 after 0 "
                       "batch dims do not fit an input of rank 2"):
        run(F.gather_nd, x, np.zeros((2, 3), np.int64))
    with pytest.raises(ValueError, match="must match in their first 1 dims"):
        run(lambda t, i: F.gather_nd(t, i, 1), x, np.zeros((2, 1), np.int64))
    with pytest.raises(ValueError, match="axis 1 of input must be static"):
        compilation.stage(F.gather_nd)(TensorLayout(DType.float32, [3, "m"]),
                                       TensorLayout(DType.int64, [2, 2]))
    # The first indexed axis may be symbolic.
    compiled = compilation.compile(F.gather_nd)(
        TensorLayout(DType.float32, ["n", 4]),
        TensorLayout(DType.int32, [2, 2]))
    pairs = np.array([[2, 3], [0, 1]], np.int32)
    np.testing.assert_array_equal(compiled(x, pairs).to_numpy(),
                                  x[pairs[:, 0], pairs[:, 1]])
    # Negative components count from the end of their own axis; one out of
    # its axis is an error even where the flattened index would be in range
    # ([0, 5] would be element [1, 1] of the flattened rows).
    negative = np.array([[-1, -1], [0, -4]], np.int32)
    np.testing.assert_array_equal(compiled(x, negative).to_numpy(),
                                  x[negative[:, 0], negative[:, 1]])
    with pytest.raises(maxgraph.RuntimeError, match="an index is out of range "
                       "of the axis"):
        compiled(x, np.array([[0, 5], [0, 0]], np.int32))


def test_eager_calls_take_numpy_scalars():
    # A numpy scalar is a number, as a Python one is, on live tensors too.
    x = Tensor.from_numpy(np.array([3, 4], np.int64))
    np.testing.assert_array_equal(F.div(x, np.int64(2)).to_numpy(), [1.5, 2.0])
    y = Tensor.from_numpy(np.array([1.5, -2.0], np.float32))
    product = F.mul(y, np.float32(2))
    assert product.dtype == DType.float32
    np.testing.assert_array_equal(product.to_numpy(), [3.0, -4.0])
