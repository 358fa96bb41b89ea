"""Every numpy dtype, through every way data enters from Python: it is taken
(and reads back as the same values) or refused with a TypeError that names
it; never a crash. Byte-swapped arrays of the dtypes maxgraph has are taken
with a copy everywhere."""

import numpy as np
import pytest

from maxgraph import compilation, functional as F, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

# numpy's dtypes that maxgraph has, by numpy name.
TAKEN = {"bool": DType.bool, "int8": DType.int8, "int16": DType.int16,
         "int32": DType.int32, "int64": DType.int64, "uint8": DType.uint8,
         "uint16": DType.uint16, "uint32": DType.uint32,
         "uint64": DType.uint64, "float16": DType.float16,
         "float32": DType.float32, "float64": DType.float64}


def all_dtypes():
    """Every dtype numpy names (np.sctypeDict's values), a structured one,
    and the non-native byte order of each. Not the types that other
    packages register there (ml_dtypes' bfloat16 and 8-bit floats, once
    something has imported it; test_float8.py tests those), so that the
    list does not depend on the order of the tests."""
    seen, dtypes = set(), []
    candidates = [np.dtype(t) for t in set(np.sctypeDict.values())
                  if t.__module__ == "numpy"]
    candidates += [np.dtype([("a", np.int32), ("b", np.float32)]),
                   np.dtype("U3"),
                   np.dtype("S3"), np.dtype("V4"), np.dtype("M8[ns]"),
                   np.dtype("m8[s]")]
    for dtype in candidates:
        for each in (dtype, dtype.newbyteorder("S")):
            if each.str not in seen:
                seen.add(each.str)
                dtypes.append(each)
    return dtypes


DTYPES = all_dtypes()
IDS = [dtype.str if dtype.fields is None else "structured" for dtype in DTYPES]


def array_of(dtype):
    """Three elements of `dtype` (0, 1, 2 where they are numbers)."""
    base = dtype.subdtype[0] if dtype.subdtype else dtype
    if base.kind in "biuf":
        return np.array([0, 1, 2]).astype(dtype)
    return np.zeros(3, dtype)


def refusal_names(dtype):
    """What a refusal of `dtype` may name it by: numpy's str or repr, in
    either byte order, or its name (complex64, as DLPack describes it)."""
    return {name for each in (dtype, dtype.newbyteorder("="))
            for name in (str(each), repr(each), each.name)}


def is_taken(dtype):
    return (dtype.name in TAKEN and dtype.fields is None and
            dtype.subdtype is None)


def expect(taken, dtype, action):
    """Runs `action`: it must return (taken) or raise a TypeError naming
    `dtype`, the dtype of the array it passes (refused)."""
    if taken:
        return action()
    with pytest.raises(TypeError) as refused:
        action()
    message = str(refused.value)
    assert "no maxgraph dtype" in message, message
    assert any(name in message for name in refusal_names(dtype)), message
    return None


def test_the_walk_covers_numpy():
    names = {dtype.name for dtype in DTYPES}
    # The walk is the real list: every dtype maxgraph has, and the ones it
    # refuses (longdouble where numpy has one wider than a double).
    assert set(TAKEN) <= names
    assert {"complex64", "complex128", "object", "datetime64[ns]"} <= names
    assert any(not dtype.isnative for dtype in DTYPES)
    assert len(DTYPES) >= 40


@pytest.mark.parametrize("importer", [Tensor.from_numpy, Tensor.from_dlpack],
                         ids=["from_numpy", "from_dlpack"])
@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_live_tensors(dtype, importer):
    array = array_of(dtype)
    tensor = expect(is_taken(dtype), array.dtype, lambda: importer(array))
    if tensor is not None:
        assert tensor.dtype == TAKEN[dtype.name]
        np.testing.assert_array_equal(tensor.to_numpy(), array)


def has_buffer(dtype):
    try:
        memoryview(array_of(dtype))
        return True
    except (ValueError, TypeError, BufferError):
        return False  # numpy gives no buffer of datetimes, say.


BUFFERED = [dtype for dtype in DTYPES if has_buffer(dtype)]


@pytest.mark.parametrize("dtype", BUFFERED,
                         ids=[IDS[DTYPES.index(d)] for d in BUFFERED])
def test_buffer_protocol(dtype):
    array = array_of(dtype)
    # A memoryview carries a format, not a dtype: a refusal names the dtype
    # numpy reads from it (a void array's reads as a structured one).
    read = np.asarray(memoryview(array)).dtype
    tensor = expect(is_taken(dtype), read,
                    lambda: Tensor.from_numpy(memoryview(array)))
    if tensor is not None:
        np.testing.assert_array_equal(tensor.to_numpy(), array)


@pytest.fixture(scope="module")
def identity():
    """x -> x over [3] of every dtype maxgraph has, by numpy name."""
    return {name: compilation.compile(lambda x: x)(
        TensorLayout(dtype, [3])) for name, dtype in TAKEN.items()}


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_compiled_callable_inputs(dtype, identity):
    array = array_of(dtype)
    run = identity[dtype.name] if is_taken(dtype) else identity["float32"]
    result = expect(is_taken(dtype), array.dtype, lambda: run(array))
    if result is not None:
        np.testing.assert_array_equal(result.to_numpy(), array)
        np.testing.assert_array_equal(
            run.execute_raw(array)[0].to_numpy(), array)
    else:
        expect(False, array.dtype, lambda: run.execute_raw(array))


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_weights(dtype):
    array = array_of(dtype)
    layout = TensorLayout(TAKEN.get(dtype.name, DType.float32), [3])
    staged = compilation.stage(lambda x: ops.concat(
        [x, ops.constant_external("w", layout)], 0))(layout)
    run = expect(is_taken(dtype), array.dtype,
                 lambda: staged.compile(weights={"w": array}))
    if run is not None:
        zeros = np.zeros(3, dtype.newbyteorder("="))
        np.testing.assert_array_equal(run(zeros).to_numpy()[3:], array)


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS)
def test_constants(dtype):
    array = array_of(dtype)
    layout = TensorLayout(TAKEN.get(dtype.name, DType.float32), [3])
    staged = expect(is_taken(dtype), array.dtype, lambda: compilation.stage(
        lambda x: ops.concat([x, F.constant(array)], 0))(layout))
    if staged is not None:
        zeros = np.zeros(3, dtype.newbyteorder("="))
        np.testing.assert_array_equal(
            staged.compile()(zeros).to_numpy()[3:], array)
    # ops.constant takes a dtype of its own and converts numbers to it.
    numbers = dtype.kind in "biuf" and dtype.itemsize <= 8 and \
        dtype.fields is None
    with_float32 = lambda: compilation.stage(  # noqa: E731
        lambda x: x + ops.constant(array, DType.float32))(
            TensorLayout(DType.float32, [3]))
    if numbers:
        with_float32()
    else:
        with pytest.raises(TypeError, match="constant: value must be"):
            with_float32()


# Dtypes with scalars of their own (a structured element is a tuple, an
# object array's any object: the array tests cover them).
SCALARS = [dtype for dtype in DTYPES
           if dtype.fields is None and dtype.kind != "O"]


@pytest.mark.parametrize("dtype", SCALARS,
                         ids=[IDS[DTYPES.index(d)] for d in SCALARS])
def test_scalar_operands(dtype):
    scalar = array_of(dtype)[1]
    taken = dtype.kind in "biuf" and dtype.itemsize <= 8
    for operand in (scalar, np.asarray(scalar)):
        if taken:
            compilation.stage(lambda x: x + operand)(
                TensorLayout(DType.float32, [3]))
            continue
        with pytest.raises(TypeError, match="no maxgraph dtype for numpy's"):
            compilation.stage(lambda x: x + operand)(
                TensorLayout(DType.float32, [3]))


def test_byte_swapped_arrays_are_copied_everywhere(identity):
    native = np.array([1.5, -2.0, 3.25], np.float32)
    swapped = native.astype(">f4")
    tensor = Tensor.from_numpy(swapped)
    assert tensor.dtype == DType.float32
    assert not np.shares_memory(tensor.to_numpy(), swapped)
    np.testing.assert_array_equal(tensor.to_numpy(), native)
    np.testing.assert_array_equal(identity["float32"](swapped).to_numpy(),
                                  native)
    layout = TensorLayout(DType.float32, [3])
    run = compilation.stage(
        lambda x: x + ops.constant_external("w", layout))(layout).compile(
            weights={"w": swapped})
    np.testing.assert_array_equal(run(np.zeros(3, np.float32)).to_numpy(),
                                  native)
    run = compilation.compile(lambda x: x + F.constant(swapped))(layout)
    np.testing.assert_array_equal(run(np.zeros(3, np.float32)).to_numpy(),
                                  native)
