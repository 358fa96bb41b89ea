"""ops.constant of integer dtypes is exact: Python ints and numpy integer
arrays never go through a double (which rounds int64 values beyond 2^53),
and values that do not fit the dtype are a StagingError."""

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout

INT64_MIN = -2**63
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1

DTYPES = {DType.int8: np.int8, DType.int16: np.int16, DType.int32: np.int32,
          DType.int64: np.int64, DType.uint8: np.uint8,
          DType.uint16: np.uint16, DType.uint32: np.uint32,
          DType.uint64: np.uint64, DType.bool: np.bool_}


def run_constant(value, dtype):
    """Stages, compiles and runs a graph returning `ops.constant(value,
    dtype)`; its result as numpy."""
    graph = compilation.compile(lambda x: ops.constant(value, dtype))(
        TensorLayout(DType.float32, [1]))
    return graph(np.zeros(1, np.float32)).to_numpy()


def staged_constant(value, dtype):
    text = str(compilation.stage(lambda x: ops.constant(value, dtype))(
        TensorLayout(DType.float32, [1])))
    return next(line.strip() for line in text.splitlines()
                if "maxgraph.constant" in line)


@pytest.mark.parametrize("value, dtype", [
    (2**62 + 1, DType.int64),
    (INT64_MIN, DType.int64),
    (INT64_MAX, DType.int64),
    (2**53 + 1, DType.int64),
    (UINT64_MAX, DType.uint64),
    (2**63 + 1, DType.uint64),
    (np.int64(2**62 + 1), DType.int64),
    (np.uint64(UINT64_MAX), DType.uint64),
    (-2**31, DType.int32),
    (2**32 - 1, DType.uint32),
    (True, DType.bool),
    (1, DType.bool),
])
def test_scalar_integer_constants_are_exact(value, dtype):
    assert f"dense<{int(value)}>" in staged_constant(value, dtype) \
        or dtype == DType.bool
    out = run_constant(value, dtype)
    assert out.shape == ()
    assert out.dtype == DTYPES[dtype]
    assert int(out) == int(value)


@pytest.mark.parametrize("values, dtype", [
    ([2**62 + 1, INT64_MIN, INT64_MAX, -1], DType.int64),
    (np.array([2**62 + 1, INT64_MIN, INT64_MAX, -1], np.int64), DType.int64),
    # numpy itself reads this list as float64.
    ([UINT64_MAX, 2**63 + 1, 0, 2**53 + 1], DType.uint64),
    ((2**62 + 1, np.int64(-3), True, 2**53 + 1), DType.int64),
    (np.array([UINT64_MAX, 2**63 + 1, 0, 2**53 + 1], np.uint64),
     DType.uint64),
    # Arrays of a narrower numpy dtype than the constant's.
    (np.array([[-128, 127], [0, 1]], np.int8), DType.int16),
    (np.array([[255, 0], [7, 1]], np.uint8), DType.uint8),
    (np.array([True, False, True, True]), DType.int32),
    ([[1, 0], [0, 1]], DType.bool),
])
def test_array_integer_constants_are_exact(values, dtype):
    out = run_constant(values, dtype)
    assert out.dtype == DTYPES[dtype]
    assert out.shape == np.shape(values)
    assert [int(v) for v in out.ravel()] == \
        [int(v) for v in np.array(values, dtype=object).ravel()]


@pytest.mark.parametrize("value, dtype, printed", [
    (2**63, DType.int64, "9223372036854775808"),
    (INT64_MIN - 1, DType.int64, "-9223372036854775809"),
    (2**64, DType.uint64, "18446744073709551616"),
    (-1, DType.uint64, "-1"),
    (2**100, DType.int64, str(2**100)),
    (128, DType.int8, "128"),
    (2, DType.bool, "2"),
    ([0, UINT64_MAX], DType.int64, "18446744073709551615"),
    (np.array([1, -1], np.int64), DType.uint32, "-1"),
    (np.array([UINT64_MAX], np.uint64), DType.int64, "18446744073709551615"),
])
def test_integer_constants_that_do_not_fit(value, dtype, printed):
    with pytest.raises(maxgraph.StagingError) as error:
        staged_constant(value, dtype)
    message = str(error.value)
    assert message.startswith(__file__), message
    assert f"the value {printed} does not fit" in message, message


def test_float_constants_are_unchanged():
    # Ints of float dtypes, and floats of integer dtypes, as before.
    assert "dense<3.000000e+00>" in staged_constant(3, DType.float32)
    assert "dense<[1.000000e+00, 2.500000e+00]>" in staged_constant(
        np.array([1, 2.5]), DType.float32)
    with pytest.raises(maxgraph.StagingError,
                       match="the value 2.5 does not fit si32"):
        staged_constant(2.5, DType.int32)
    with pytest.raises(maxgraph.StagingError,
                       match="the value 2.5 does not fit si64"):
        staged_constant([1, 2.5], DType.int64)
    # A float array of whole numbers still makes an int constant.
    assert "dense<[1, 2]>" in staged_constant(np.array([1.0, 2.0]),
                                              DType.int64)
