# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""F.argsort (maxgraph.argsort) against numpy's stable argsort: ties,
NaN, -0, integers of both signednesses, rows, long axes."""

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

DTYPES = {np.float32: DType.float32, np.float64: DType.float64,
          np.float16: DType.float16, np.int32: DType.int32,
          np.int64: DType.int64, np.uint8: DType.uint8}


def expected(x, ascending):
    """numpy's stable argsort; descending: a stable sort of the negated
    values with NaN first (lexsort is stable, its last key the primary)."""
    if ascending:
        return np.argsort(x, axis=-1, kind="stable")
    negated = -x.astype(np.float64)
    result = np.empty(x.shape, np.int64)
    for row in np.ndindex(x.shape[:-1]):
        result[row] = np.lexsort((negated[row], ~np.isnan(negated[row])))
    return result


def run(x, ascending=True):
    spec = TensorLayout(DTYPES[x.dtype.type], list(x.shape))
    fn = compilation.compile(lambda t: F.argsort(t, ascending))(spec)
    compiled = fn(x).to_numpy()
    staged = compilation.stage(lambda t: F.argsort(t, ascending))(spec)
    np.testing.assert_array_equal(compiled, staged.interpret(x).to_numpy())
    return compiled


@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("dtype", sorted(DTYPES, key=str))
def test_matches_numpys_stable_sort(ascending, dtype, rng):
    if np.dtype(dtype).kind == "f":
        x = rng.integers(-4, 5, (3, 37)).astype(dtype) / 2  # Many ties.
        x[0, [3, 9]] = np.nan
        x[1, 4], x[1, 5] = -0.0, 0.0
        x[2, 7] = np.inf
    else:
        x = rng.integers(0, 9, (3, 37)).astype(dtype)
    out = run(x, ascending)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, expected(x, ascending))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 64, 1000, 4097])
def test_lengths(n, rng):
    x = rng.standard_normal(n).astype(np.float32)
    np.testing.assert_array_equal(run(x), np.argsort(x, kind="stable"))


def test_any_axis_and_live_tensors(rng):
    x = rng.integers(0, 5, (4, 6, 3)).astype(np.int32)
    spec = TensorLayout(DType.int32, [4, 6, 3])
    out = compilation.compile(lambda t: ops.argsort(t, 1, True))(spec)(x)
    np.testing.assert_array_equal(
        out.to_numpy(),
        np.swapaxes(expected(np.swapaxes(x, 1, 2), False), 1, 2))
    live = F.argsort(Tensor.from_numpy(np.array([3.0, 1.0, 2.0],
                                                np.float32)))
    np.testing.assert_array_equal(live.to_numpy(), [1, 2, 0])


def test_bad_input_is_refused():
    with pytest.raises(TypeError, match="argsort: ascending is a bool"):
        F.argsort(Tensor.from_numpy(np.zeros(3, np.float32)), "yes")
    with pytest.raises(Exception, match="operand 0 has element type 'i1' but "
                       "the op takes a numeric"):
        compilation.stage(F.argsort)(TensorLayout(DType.bool, [3]))
    with pytest.raises(Exception, match="a rank-0 tensor has no axes"):
        compilation.stage(F.argsort)(TensorLayout(DType.float32, []))
