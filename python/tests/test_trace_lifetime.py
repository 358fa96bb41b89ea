"""Traced tensors kept past their trace: every use is a StagingError naming
the graph whose trace has ended (their MLIR values may be gone), never a
crash; repr() still works."""

import gc
import inspect

import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout

F32_2 = TensorLayout(DType.float32, [2])
ENDED = "which has ended"


def here() -> int:
    """The line number of the caller."""
    return inspect.currentframe().f_back.f_lineno


def stage_and_keep(name="kept"):
    """Stages a graph whose function keeps its argument and a result, drops
    the graph (and with it the module), and returns the kept tensors."""
    kept = []

    def fn(x):
        kept.append(x)
        kept.append(ops.relu(x) + 1.0)
        return kept[-1]

    compilation.stage(fn, name=name)(F32_2)
    gc.collect()
    return kept


@pytest.mark.parametrize("accessor", [
    lambda t: t.shape,
    lambda t: t.dtype,
    lambda t: t.layout,
    lambda t: t.device,
    lambda t: t.rank,
    lambda t: len(t),
    lambda t: t.T,
    lambda t: t[0],
], ids=["shape", "dtype", "layout", "device", "rank", "len", "T", "getitem"])
def test_accessors_of_an_ended_trace_raise(accessor):
    for tensor in stage_and_keep():
        with pytest.raises(maxgraph.StagingError) as error:
            accessor(tensor)
        message = str(error.value)
        # Located at the accessor's lambda above.
        assert message.startswith(f"{__file__}:"), message
        assert "this Tensor belongs to the trace of graph @kept" in message
        assert ENDED in message


def test_repr_of_an_ended_trace_names_it_without_raising():
    for tensor in stage_and_keep():
        assert repr(tensor) == "Tensor(traced, of the ended trace of graph @kept)"
        assert not tensor.is_live


def test_ended_trace_while_the_staged_graph_is_alive():
    kept = []
    staged = compilation.stage(lambda x: kept.append(x) or x * 2.0,
                               name="alive")(F32_2)
    with pytest.raises(maxgraph.StagingError, match="graph @alive, " + ENDED):
        kept[0].shape
    # The graph itself still describes its results.
    assert staged.output_tree == F32_2


def test_tensor_of_an_ended_trace_in_another_trace():
    (old, result) = stage_and_keep("first")
    lines = []

    def second(x):
        lines.append(here() + 1)
        return x + old

    with pytest.raises(maxgraph.StagingError) as error:
        compilation.stage(second)(F32_2)
    message = str(error.value)
    assert message.startswith(f"{__file__}:{lines[0]}:"), message
    assert ("operand 1 of 'maxgraph.add' is a value of the trace of graph "
            "@first, " + ENDED) in message
    for use in (lambda x: ops.relu(result), lambda x: result,
                lambda x: ops.concat([x, result], 0),
                lambda x: compilation.as_subgraph(lambda a: a)(result)):
        with pytest.raises(maxgraph.StagingError, match="@first, " + ENDED):
            compilation.stage(use)(F32_2)


def test_tensor_of_a_returned_subgraph_body():
    for allow_subgraphs in (True, False):
        inner = []

        def body(a):
            inner.append(ops.relu(a))
            return inner[-1]

        block = compilation.as_subgraph(body, name="block")

        def fn(x):
            y = block(x)
            assert "subgraph body @block" in repr(inner[0])
            with pytest.raises(maxgraph.StagingError,
                               match="subgraph body @block, " + ENDED):
                inner[0].shape
            with pytest.raises(maxgraph.StagingError,
                               match="subgraph body @block, " + ENDED):
                y + inner[0]
            return y

        staged = compilation.stage(fn, allow_subgraphs=allow_subgraphs)(F32_2)
        assert str(staged).count("maxgraph.relu") == 1


def test_buffer_of_an_ended_trace():
    kept = []

    def fn(buffer, x):
        kept.append(buffer)
        buffer.store(x)

    compilation.stage(fn, name="buffers")(BufferLayout(DType.float32, [2]),
                                          F32_2)
    gc.collect()
    (buffer,) = kept
    assert repr(buffer) == "Buffer(traced, of the ended trace of graph @buffers)"
    for accessor in (lambda b: b.layout, lambda b: b.shape,
                     lambda b: b.dtype, lambda b: b.device):
        with pytest.raises(maxgraph.StagingError,
                           match="this Buffer belongs to the trace of graph "
                                 "@buffers, " + ENDED):
            accessor(buffer)
    with pytest.raises(maxgraph.StagingError,
                       match="'maxgraph.buffer_store' is a value of the trace "
                             "of graph @buffers, " + ENDED):
        compilation.stage(lambda x: buffer.store(x))(F32_2)
    with pytest.raises(maxgraph.StagingError,
                       match="'maxgraph.buffer_load' is a value of the trace "
                             "of graph @buffers, " + ENDED):
        compilation.stage(lambda x: buffer.load())(F32_2)


def test_live_tensors_in_a_trace_still_work():
    # A traced tensor of the live trace: repr shows its layout.
    seen = []
    compilation.stage(lambda x: seen.append(repr(x)) or x)(F32_2)
    assert seen == ["Tensor(traced, !maxgraph.tensor<[2], f32>)"]
