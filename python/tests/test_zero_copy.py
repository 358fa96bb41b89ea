"""Data crosses the Python boundary without copies: Tensor.from_numpy and
to_numpy share memory, DLPack and the buffer protocol export it, and numpy
arrays go straight into compiled graphs. The cases that copy, and the ones
refused, are the documented ones."""

import gc
import weakref

import numpy as np
import pytest

from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout
from maxgraph.tensor import Tensor


def test_from_numpy_shares_memory_both_ways():
    array = np.arange(6, dtype=np.float32).reshape(2, 3)
    tensor = Tensor.from_numpy(array)
    view = tensor.to_numpy()
    assert np.shares_memory(view, array)
    array[0, 0] = 42
    assert view[0, 0] == 42
    view[1, 2] = -1
    assert array[1, 2] == -1


def test_from_numpy_keeps_the_array_alive():
    tensor = Tensor.from_numpy(np.full(1000, 3, np.int32))
    gc.collect()
    np.testing.assert_array_equal(tensor.to_numpy(), np.full(1000, 3))


def test_to_numpy_outlives_the_tensor():
    run = compilation.compile(lambda x: x * 2)(TensorLayout(DType.float32,
                                                            [4]))
    result = run(Tensor.from_numpy(np.arange(4, dtype=np.float32)))
    array = result.to_numpy()
    assert np.shares_memory(array, result.to_numpy())
    del result
    gc.collect()
    np.testing.assert_array_equal(array, [0, 2, 4, 6])
    array[0] = 5  # Still writable memory that the array owns a share of.
    assert array[0] == 5


def test_asarray_and_the_buffer_protocol_share_memory():
    array = np.arange(4, dtype=np.int64)
    tensor = Tensor.from_numpy(array)
    assert np.shares_memory(np.asarray(tensor), array)
    assert not np.shares_memory(np.asarray(tensor, dtype=np.float64), array)
    assert not np.shares_memory(np.array(tensor, copy=True), array)
    view = memoryview(tensor)
    assert (view.format, view.shape, view.readonly) == ("q", (4,), False)
    view[1] = 7
    assert array[1] == 7


def test_dlpack_round_trip_with_numpy():
    array = np.arange(6, dtype=np.float64).reshape(3, 2)
    tensor = Tensor.from_numpy(array)
    assert tensor.__dlpack_device__() == (1, 0)
    exported = np.from_dlpack(tensor)
    assert np.shares_memory(exported, array)
    np.testing.assert_array_equal(exported, array)
    imported = Tensor.from_dlpack(exported)
    assert np.shares_memory(imported.to_numpy(), array)
    assert imported.shape == [3, 2]
    assert imported.dtype == DType.float64
    copied = np.from_dlpack(tensor, copy=True)
    assert not np.shares_memory(copied, array)


def test_from_dlpack_takes_any_dlpack_producer():
    source = np.arange(5, dtype=np.uint8)
    capsule = source.__dlpack__()
    tensor = Tensor.from_dlpack(capsule)
    assert np.shares_memory(tensor.to_numpy(), source)
    with pytest.raises(TypeError, match="Tensor.from_dlpack: expected a CPU "
                       "array"):
        Tensor.from_dlpack(object())


def test_non_contiguous_arrays_are_copied():
    array = np.arange(12, dtype=np.float32).reshape(3, 4)
    for strided in (array.T, array[:, ::2], array[::-1]):
        tensor = Tensor.from_numpy(strided)
        assert tensor.shape == list(strided.shape)
        assert not np.shares_memory(tensor.to_numpy(), array)
        np.testing.assert_array_equal(tensor.to_numpy(), strided)


def test_read_only_misaligned_and_byte_swapped_arrays_are_copied():
    constant = np.arange(3, dtype=np.float32)
    constant.setflags(write=False)
    tensor = Tensor.from_numpy(constant)
    assert not np.shares_memory(tensor.to_numpy(), constant)
    np.testing.assert_array_equal(tensor.to_numpy(), constant)

    raw = np.zeros(4 * 3 + 1, np.uint8)
    misaligned = raw[1:].view(np.float32)
    misaligned[:] = [1, 2, 3]
    tensor = Tensor.from_numpy(misaligned)
    assert not np.shares_memory(tensor.to_numpy(), raw)
    np.testing.assert_array_equal(tensor.to_numpy(), [1, 2, 3])

    swapped = np.arange(3, dtype=">i4")
    tensor = Tensor.from_numpy(swapped)
    assert tensor.dtype == DType.int32
    np.testing.assert_array_equal(tensor.to_numpy(), [0, 1, 2])


def test_bool_arrays_share_memory():
    flags = np.array([True, False, True])
    tensor = Tensor.from_numpy(flags)
    assert tensor.dtype == DType.bool
    assert np.shares_memory(tensor.to_numpy(), flags)


def test_unsupported_dtypes_are_refused():
    with pytest.raises(TypeError, match="Tensor.from_numpy: no maxgraph "
                       "dtype"):
        Tensor.from_numpy(np.zeros(2, np.complex64))


def test_numpy_arrays_go_straight_into_a_compiled_graph():
    run = compilation.compile(lambda x, y: x + y)(
        TensorLayout(DType.float32, [3]), TensorLayout(DType.float32, [3]))
    x = np.array([1, 2, 3], np.float32)
    y = Tensor.from_numpy(np.array([10, 20, 30], np.float32))
    out = run(x, y)
    assert isinstance(out, Tensor)
    np.testing.assert_array_equal(out.to_numpy(), [11, 22, 33])
    # Results are fresh memory, never the inputs'.
    assert not np.shares_memory(out.to_numpy(), x)
    # Read-only and non-contiguous arrays are fine for inputs only read.
    x.setflags(write=False)
    np.testing.assert_array_equal(run(x, y).to_numpy(), [11, 22, 33])
    strided = np.arange(6, dtype=np.float32)[::2]
    np.testing.assert_array_equal(run(strided, y).to_numpy(), [10, 22, 34])
    # The input checks are the same as for Tensors.
    with pytest.raises(ValueError, match=r"argument 0 \(`x`\) has dtype "
                       r"f64 but the graph expects f32"):
        run(np.ones(3), y)


def test_a_graph_returning_its_argument_returns_fresh_memory():
    run = compilation.compile(lambda x: x)(TensorLayout(DType.int32, [3]))
    x = np.array([1, 2, 3], np.int32)
    out = run(x)
    np.testing.assert_array_equal(out.to_numpy(), x)
    assert not np.shares_memory(out.to_numpy(), x)


def test_results_of_two_calls_do_not_share():
    run = compilation.compile(lambda x: x * 3)(TensorLayout(DType.float32,
                                                            [8]))
    x = np.ones(8, np.float32)
    first, second = run(x), run(x)
    assert not np.shares_memory(first.to_numpy(), second.to_numpy())


def test_buffers_are_updated_in_place_through_a_numpy_array():
    def accumulate(state, x):
        state.store(state.load() + x)
        return ops.reduce_sum(x, [0])

    run = compilation.compile(accumulate)(BufferLayout(DType.float32, [3]),
                                          TensorLayout(DType.float32, [3]))
    state = np.zeros(3, np.float32)
    run(state, np.array([1, 2, 3], np.float32))
    run(state, np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(state, [2, 4, 6])


def test_read_only_or_strided_arrays_are_refused_as_buffers():
    def store(state, x):
        state.store(x)
        return x

    run = compilation.compile(store)(BufferLayout(DType.float32, [3]),
                                     TensorLayout(DType.float32, [3]))
    constant = np.zeros(3, np.float32)
    constant.setflags(write=False)
    with pytest.raises(TypeError, match=r"input 'state' of compiled graph "
                       r"'store': the array is read-only, but the graph "
                       r"stores into this buffer argument"):
        run(constant, np.ones(3, np.float32))
    with pytest.raises(TypeError, match="is not C-contiguous; a buffer "
                       "argument is stored into in place"):
        run(np.zeros(6, np.float32)[::2], np.ones(3, np.float32))
    with pytest.raises(TypeError, match="cannot be stored into in place"):
        run(np.zeros(3, ">f4"), np.ones(3, np.float32))
    assert not constant.any()


def test_wrapped_array_is_released_with_the_last_handle():
    class Owned(np.ndarray):
        pass

    array = np.arange(4, dtype=np.float32).view(Owned)
    alive = weakref.ref(array)
    tensor = Tensor.from_numpy(array)
    exported = tensor.to_numpy()
    del array
    gc.collect()
    assert alive() is not None
    del tensor
    gc.collect()
    assert alive() is not None  # `exported` still holds the storage.
    del exported
    gc.collect()
    assert alive() is None
