"""BufferLayout arguments: stores reach the caller's tensor, in place."""

import numpy as np

from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout
from maxgraph.tensor import Buffer, Tensor


def test_buffer_is_updated_in_place():
    def accumulate(state, x):
        assert isinstance(state, Buffer)
        state.store(state.load() + x)
        return x * 2

    staged = compilation.stage(accumulate)(
        BufferLayout(DType.float32, [3]), TensorLayout(DType.float32, [3]))
    assert "!maxgraph.buffer<[3], f32>" in str(staged)
    run = staged.compile()
    state = Tensor.from_numpy(np.zeros(3, np.float32))
    x = Tensor.from_numpy(np.array([1, 2, 3], np.float32))
    doubled = run(state, x)
    np.testing.assert_array_equal(doubled.to_numpy(), [2, 4, 6])
    np.testing.assert_array_equal(state.to_numpy(), [1, 2, 3])
    run(state, x)
    np.testing.assert_array_equal(state.to_numpy(), [2, 4, 6])
    # The input tensor was only read.
    np.testing.assert_array_equal(x.to_numpy(), [1, 2, 3])


def test_to_numpy_shares_the_tensor_and_copy_makes_it_independent():
    state = Tensor.from_numpy(np.zeros(2, np.int64))
    array = state.to_numpy()
    array[0] = 7
    np.testing.assert_array_equal(state.to_numpy(), [7, 0])
    independent = state.to_numpy().copy()
    independent[1] = 9
    np.testing.assert_array_equal(state.to_numpy(), [7, 0])
