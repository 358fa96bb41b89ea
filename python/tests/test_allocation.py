"""Tensors whose storage cannot exist: a shape whose byte count overflows,
or memory that cannot be allocated, is a maxgraph.RuntimeError naming the
shape, the dtype and the bytes, never a crash or a MemoryError from C++."""

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

# A view of one element that numpy describes as 2^50 elements (4 PiB of
# float32): it must be copied into row-major order, which cannot be done.
HUGE_SHAPE = (2**20, 2**20, 2**10)
HUGE_MESSAGE = (r"cannot allocate 4503599627370496 bytes for a tensor of "
                r"shape \[1048576, 1048576, 1024\] and dtype f32")


def huge_view():
    return np.broadcast_to(np.float32(1.5), HUGE_SHAPE)


@pytest.mark.parametrize("make", [Tensor.from_numpy, Tensor.from_dlpack])
def test_a_copy_that_cannot_be_allocated_is_a_runtime_error(make):
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"^Tensor\.from_(numpy|dlpack): cannot copy the "
                       r"array into row-major order: HostTensor: "
                       + HUGE_MESSAGE + "$"):
        make(huge_view())


def test_a_compiled_graph_input_that_cannot_be_copied_names_the_input():
    compiled = compilation.compile(lambda x: x + 1)(
        TensorLayout(DType.float32, ["a", "b", "c"]))
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"^input 'x' of compiled graph '.*': cannot copy "
                       r"the array into row-major order: HostTensor: "
                       + HUGE_MESSAGE):
        compiled(huge_view())
    # The session is still usable.
    small = np.arange(4, dtype=np.float32).reshape(1, 2, 2)
    assert np.array_equal(np.asarray(compiled(small)), small + 1)


def test_small_strided_views_are_still_copied():
    view = np.broadcast_to(np.float32(2.0), (3, 4))
    tensor = Tensor.from_numpy(view)
    assert tensor.shape == [3, 4]
    assert np.array_equal(tensor.to_numpy(), np.full((3, 4), 2.0, np.float32))
