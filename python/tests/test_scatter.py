# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MAX's scatter family (maxgraph.scatter and scatter_nd) against numpy:
every reduction, axes, duplicate indices, negative indices, errors."""

import numpy as np
import pytest

import maxgraph
import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.driver import CPU
from maxgraph.dtype import DType
from maxgraph.sharding import DeviceMapping, DeviceMesh, Sharded, TensorLayout
from maxgraph.tensor import Tensor

DTYPES = {np.float32: DType.float32, np.float64: DType.float64,
          np.int32: DType.int32, np.int64: DType.int64}
UFUNCS = {"add": np.add, "max": np.maximum, "min": np.minimum,
          "mul": np.multiply}


def spec(array):
    return TensorLayout(DTYPES[array.dtype.type], list(array.shape))


def run(fn, *arrays):
    """`fn` compiled for `arrays` and run on them, and the interpreter's
    result of the same staged graph."""
    specs = [spec(a) for a in arrays]
    compiled = compilation.compile(fn)(*specs)(*arrays).to_numpy()
    interpreted = compilation.stage(fn)(*specs).interpret(*arrays)
    np.testing.assert_array_equal(compiled, interpreted.to_numpy())
    return compiled


def scatter_reference(x, updates, indices, axis, reduction):
    """numpy, one update at a time in row-major order."""
    out = x.copy()
    axis %= x.ndim
    for p in np.ndindex(updates.shape):
        target = list(p)
        target[axis] = indices[p]
        target = tuple(target)
        if reduction == "none":
            out[target] = updates[p]
        else:
            out[target] = UFUNCS[reduction](out[target], updates[p])
    return out


def scatter_nd_reference(x, updates, indices, reduction):
    out = x.copy()
    k = indices.shape[-1]
    for q in np.ndindex(indices.shape[:-1]):
        target = tuple(indices[q])
        assert len(target) == k
        if reduction == "none":
            out[target] = updates[q]
        else:
            out[target] = UFUNCS[reduction](out[target], updates[q])
    return out


FUNCTIONS = {"none": F.scatter, "add": F.scatter_add, "max": F.scatter_max,
             "min": F.scatter_min, "mul": F.scatter_mul}
ND_FUNCTIONS = {"none": F.scatter_nd, "add": F.scatter_nd_add,
                "max": F.scatter_nd_max, "min": F.scatter_nd_min,
                "mul": F.scatter_nd_mul}


@pytest.mark.parametrize("reduction", sorted(FUNCTIONS))
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int32])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_scatter_matches_numpy(reduction, dtype, axis, rng):
    x = rng.integers(-5, 6, (5, 4, 3)).astype(dtype)
    shape = [4, 3, 2]
    shape[axis] = 6  # More updates than the axis has: duplicates.
    updates = rng.integers(-9, 10, shape).astype(dtype)
    size = x.shape[axis]
    # Negative indices among them.
    indices = rng.integers(-size, size, shape).astype(np.int64)
    fn = FUNCTIONS[reduction]
    result = run(lambda a, u, i: fn(a, u, i, axis), x, updates, indices)
    np.testing.assert_array_equal(
        result, scatter_reference(x, updates, indices, axis, reduction))


@pytest.mark.parametrize("reduction", sorted(ND_FUNCTIONS))
def test_scatter_nd_rows_and_points(reduction, rng):
    x = rng.standard_normal((6, 5)).astype(np.float32)
    rows = rng.standard_normal((4, 5)).astype(np.float32)
    at = np.array([[1], [-1], [1], [3]], np.int32)  # Row 1 twice.
    fn = ND_FUNCTIONS[reduction]
    np.testing.assert_allclose(
        run(fn, x, rows, at),
        scatter_nd_reference(x, rows, at, reduction), rtol=1e-6)
    values = rng.standard_normal(7).astype(np.float32)
    points = rng.integers(-5, 5, (7, 2)).astype(np.int64)
    np.testing.assert_allclose(
        run(fn, x, values, points),
        scatter_nd_reference(x, values, points, reduction), rtol=1e-6)


def test_the_last_duplicate_wins_on_every_thread_count():
    x = np.zeros(4, np.float32)
    updates = np.arange(1, 1001, dtype=np.float32)
    indices = np.tile(np.arange(4, dtype=np.int64), 250)
    fn = compilation.compile(F.scatter)(spec(x), spec(updates), spec(indices))
    before = maxgraph.get_num_threads()
    try:
        for threads in (1, 2):
            maxgraph.set_num_threads(threads)
            np.testing.assert_array_equal(fn(x, updates, indices).to_numpy(),
                                          [997, 998, 999, 1000])
    finally:
        maxgraph.set_num_threads(before)


def test_a_kv_cache_update_writes_rows_at_run_time_positions():
    cache = np.zeros((8, 2, 4), np.float32)
    new = (np.ones((3, 2, 4)) * np.arange(1, 4)[:, None, None]).astype(
        np.float32)

    def step(cache, new, start):
        rows = F.range(0, 3, 1, dtype=DType.int64) + start
        return F.scatter_nd(cache, new, F.reshape(rows, [3, 1]))

    run_step = compilation.compile(step)(
        spec(cache), spec(new), TensorLayout(DType.int64, []))
    out = run_step(cache, new, np.array(4, np.int64)).to_numpy()
    expected = cache.copy()
    expected[4:7] = new
    np.testing.assert_array_equal(out, expected)


def test_out_of_range_indices_are_run_time_errors():
    x = np.zeros((3, 2), np.float32)
    updates = np.ones((1, 2), np.float32)
    fn = compilation.compile(lambda a, u, i: F.scatter(a, u, i, axis=0))(
        spec(x), spec(updates), TensorLayout(DType.int64, [1, 2]))
    for bad in (3, -4):
        with pytest.raises(maxgraph.RuntimeError, match="maxgraph.scatter: "
                           "an index is out of range of the axis"):
            fn(x, updates, np.array([[0, bad]], np.int64))
    nd = compilation.compile(F.scatter_nd)(
        spec(x), spec(updates), TensorLayout(DType.int64, [1, 1]))
    with pytest.raises(maxgraph.RuntimeError, match="maxgraph.scatter_nd: "
                       "an index is out of range of the axis"):
        nd(x, updates, np.array([[5]], np.int64))
    staged = compilation.stage(F.scatter_nd)(
        spec(x), spec(updates), TensorLayout(DType.int64, [1, 1]))
    with pytest.raises(Exception, match="maxgraph.scatter_nd: index 5 is out "
                       "of range for dim 0 of size 3"):
        staged.interpret(x, updates, np.array([[5]], np.int64))


def test_staging_errors_name_the_line():
    f32 = TensorLayout(DType.float32, [4])

    def wrong_updates(x, u, i):
        return F.scatter(x, u, i)

    with pytest.raises(Exception, match=r"test_scatter.py:\d+.*\(C-types\) "
                       r"the updates' element type 'f64' differs from the "
                       r"input's 'f32'"):
        compilation.stage(wrong_updates)(
            f32, TensorLayout(DType.float64, [2]),
            TensorLayout(DType.int64, [2]))
    with pytest.raises(Exception, match=r"\(C2\) the updates must have dims "
                       r"\[2\]"):
        compilation.stage(F.scatter_nd)(
            f32, TensorLayout(DType.float32, [3]),
            TensorLayout(DType.int64, [2, 1]))


def test_live_tensors_scatter_eagerly_and_meshes_are_refused():
    x = Tensor.from_numpy(np.zeros(4, np.float32))
    out = F.scatter_add(x, Tensor.from_numpy(np.ones(3, np.float32)),
                        Tensor.from_numpy(np.array([1, 1, 3], np.int64)))
    np.testing.assert_array_equal(out.to_numpy(), [0, 2, 0, 1])
    mesh = DeviceMesh([CPU(0), CPU(1)], (2,), ("tp",))
    sharded = TensorLayout(DType.float32, [4],
                           DeviceMapping(mesh, [Sharded(0)]))
    with pytest.raises(Exception, match="operand 0 of 'maxgraph.scatter' is "
                       "distributed.*has no sharding rule"):
        compilation.stage(F.scatter)(sharded, TensorLayout(DType.float32, [2]),
                                     TensorLayout(DType.int64, [2]))


def test_unknown_dims_are_checked_when_the_graph_runs():
    # `?` dims the verifier could not compare: checked per call, and a
    # mismatch is an error, never a read past the updates.
    x = np.zeros((4, 3), np.float32)
    nd = compilation.compile(F.scatter_nd)(
        spec(x), TensorLayout(DType.float32, ["?", 3]),
        TensorLayout(DType.int64, ["?", 1]))
    out = nd(x, np.ones((2, 3), np.float32), np.array([[1], [3]], np.int64))
    np.testing.assert_array_equal(out.to_numpy()[[1, 3]], np.ones((2, 3)))
    with pytest.raises(maxgraph.RuntimeError, match="maxgraph.scatter_nd: "
                       "the updates' dims differ from the indices' and the "
                       "input's"):
        nd(x, np.ones((2, 3), np.float32),
           np.array([[1], [3], [0]], np.int64))
    elements = compilation.compile(
        lambda a, u, i: F.scatter(a, u, i, axis=0))(
        TensorLayout(DType.float32, ["?", 3]),
        TensorLayout(DType.float32, [2, "?"]),
        TensorLayout(DType.int64, [2, "?"]))
    for updates, indices in [((2, 4), (2, 4)), ((2, 3), (2, 2))]:
        with pytest.raises(maxgraph.RuntimeError, match="maxgraph.scatter: "
                           "the updates' dims differ from the indices' or "
                           "exceed the input's"):
            elements(x, np.ones(updates, np.float32),
                     np.zeros(indices, np.int64))
