"""Every error path: located at the Python line that made the mistake, and
naming the op, the operands and the argument paths."""

import inspect
import re

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.driver import CPU, GPU
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout
from maxgraph.tensor import Tensor

F32_2 = TensorLayout(DType.float32, [2])
F32_3 = TensorLayout(DType.float32, [3])


def here() -> int:
    """The line number of the caller."""
    return inspect.currentframe().f_back.f_lineno


def test_broadcast_mistake_is_a_value_error_at_the_users_line():
    lines = []

    def bad(x, y):
        lines.append(here() + 1)
        return x + y

    with pytest.raises(ValueError) as error:
        compilation.stage(bad)(F32_2, F32_3)
    message = str(error.value)
    assert isinstance(error.value, maxgraph.StagingError)
    assert message.startswith(f"{__file__}:{lines[0]}:"), message
    assert "'maxgraph.add' op operands 0 and 1 cannot broadcast" in message
    assert "!maxgraph.tensor<[2], f32>" in message
    assert "!maxgraph.tensor<[3], f32>" in message


def test_error_column_points_at_the_operator():
    def bad(x, y):
        return ops.matmul(x, y)

    with pytest.raises(ValueError) as error:
        compilation.stage(bad)(TensorLayout(DType.float32, [2, 3]),
                               TensorLayout(DType.float32, [4, 5]))
    line = inspect.getsourcelines(bad)[1] + 1
    match = re.match(rf"{re.escape(__file__)}:{line}:(\d+): error: ",
                     str(error.value))
    assert match, str(error.value)
    # Column of `ops.matmul(` in the source line (1-based).
    source = inspect.getsourcelines(bad)[0][1]
    assert int(match.group(1)) == source.index("ops.matmul") + 1
    assert "'maxgraph.matmul' op" in str(error.value)


def test_ops_carry_the_python_location():
    def fn(x):
        return ops.exp(x)

    staged = compilation.stage(fn)(F32_2)
    line = inspect.getsourcelines(fn)[1] + 1
    text = staged.format(debug_info=True)
    column = inspect.getsourcelines(fn)[0][1].index("ops.exp") + 1
    assert f'loc("{__file__}":{line}:{column})' in text, text
    assert "loc(" not in staged.format()


def test_dtype_mistake_names_both_types():
    def bad(x, y):
        return ops.matmul(x, y)

    with pytest.raises(ValueError, match=r"'maxgraph\.matmul' op operand 1 "
                       r"has element type 'si32' but operand 0 has 'f32'"):
        compilation.stage(bad)(TensorLayout(DType.float32, [2, 2]),
                               TensorLayout(DType.int32, [2, 2]))


def test_live_tensor_is_refused_as_a_spec():
    live = Tensor.from_numpy(np.zeros(2, np.float32))
    with pytest.raises(TypeError, match=r"argument 'x': a Tensor is a value, "
                       r"not a layout.*t\.layout"):
        compilation.stage(lambda x: x)(live)
    # Its layout may be passed on purpose.
    staged = compilation.stage(lambda x: x + 1)(live.layout)
    assert staged.input_layouts == [F32_2]


def test_as_layout():
    assert compilation.as_layout(F32_2) is F32_2
    buffer = BufferLayout(DType.int64, ["n"])
    assert compilation.as_layout(buffer) is buffer
    live = Tensor.from_numpy(np.zeros((2, 3), np.float64))
    with pytest.raises(TypeError, match="a Tensor is a value, not a layout"):
        compilation.as_layout(live)
    assert compilation.as_layout(live.layout) == TensorLayout(
        DType.float64, [2, 3])
    with pytest.raises(TypeError, match="expected a TensorLayout or "
                       "BufferLayout, got list"):
        compilation.as_layout([2, 3])


def test_array_is_refused_as_a_spec():
    with pytest.raises(TypeError, match="argument 'x': an array is a value"):
        compilation.stage(lambda x: x)(np.zeros(2))


def test_static_value_mismatch():
    run = compilation.compile(lambda x, alpha: x * alpha)(F32_2, 2.0)
    x = Tensor.from_numpy(np.ones(2, np.float32))
    np.testing.assert_array_equal(run(x, 2.0).to_numpy(), [2, 2])
    np.testing.assert_array_equal(run(x, 2).to_numpy(), [2, 2])
    with pytest.raises(ValueError, match=r"static argument 'alpha' was staged "
                       r"as 2\.0, got 3\.0"):
        run(x, 3.0)
    with pytest.raises(ValueError, match="static argument 'alpha'"):
        run(x, "2.0")


def test_input_checks_of_the_compiled_graph():
    def scale(x, y):
        return x * ops.reshape(y, ["batch", 1])

    run = compilation.compile(scale)(TensorLayout(DType.float32, ["batch", 3]),
                                     TensorLayout(DType.float32, ["batch"]))

    def call(x, y):
        return run(Tensor.from_numpy(x), Tensor.from_numpy(y))

    good_x = np.ones((2, 3), np.float32)
    good_y = np.ones(2, np.float32)
    np.testing.assert_array_equal(call(good_x, good_y).to_numpy(), good_x)
    with pytest.raises(ValueError, match=r"@scale: argument 0 \(`x`\) has "
                       r"dtype si32 but the graph expects f32"):
        call(good_x.astype(np.int32), good_y)
    with pytest.raises(ValueError, match=r"@scale: argument 1 \(`y`\) has "
                       r"rank 2 but the graph expects rank 1"):
        call(good_x, np.ones((2, 1), np.float32))
    with pytest.raises(ValueError, match=r"argument 0 \(`x`\) has size 4 in "
                       r"dim 1 but the graph expects 3"):
        call(np.ones((2, 4), np.float32), good_y)
    with pytest.raises(ValueError, match=r"`batch` is already 2 from argument "
                       r"0 \(`x`\)"):
        call(good_x, np.ones(5, np.float32))
    with pytest.raises(ValueError, match=r"is on gpu:0 but the graph expects "
                       r"cpu:0"):
        run(Tensor.from_numpy(good_x, GPU(0)), Tensor.from_numpy(good_y))


def test_runtime_failures_are_maxgraph_runtime_errors():
    # As in C++ (MaxGraph/Support/Error.h): one base, maxgraph.Error, for
    # staging mistakes and failures while running; all are ValueErrors.
    assert issubclass(maxgraph.Error, ValueError)
    assert issubclass(maxgraph.StagingError, maxgraph.Error)
    assert issubclass(maxgraph.RuntimeError, maxgraph.Error)
    assert not issubclass(maxgraph.RuntimeError, maxgraph.StagingError)
    assert "RuntimeError" not in maxgraph.__all__  # keeps the builtin
    run = compilation.compile(lambda x, alpha: x * alpha)(F32_2, 2.0)
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"argument 0 \(`x`\) has size 3 in dim 0"):
        run(Tensor.from_numpy(np.ones(3, np.float32)), 2.0)
    with pytest.raises(maxgraph.RuntimeError,
                       match="static argument 'alpha' was staged as 2.0"):
        run(Tensor.from_numpy(np.ones(2, np.float32)), 3.0)
    with pytest.raises(maxgraph.StagingError) as error:
        compilation.stage(lambda x, y: x + y)(F32_2, F32_3)
    assert not isinstance(error.value, maxgraph.RuntimeError)


def test_call_structure_mistakes():
    run = compilation.compile(lambda kv: kv["a"] + kv["b"])(
        {"a": F32_2, "b": F32_2})
    t = Tensor.from_numpy(np.ones(2, np.float32))
    with pytest.raises(TypeError, match=r"argument 'kv' was staged with keys "
                       r"\['a', 'b'\], got \['a'\]"):
        run({"a": t})
    with pytest.raises(TypeError, match=r"argument 'kv\.b' was staged as "
                       r"TensorLayout\(DType\.float32, \[2\], CPU\(0\)\); "
                       r"call with a live Tensor"):
        run({"a": t, "b": [1.0, 1.0]})
    with pytest.raises(TypeError, match="staged with 1 positional arguments, "
                       "got 2"):
        run({"a": t, "b": t}, t)


def test_graph_ops_on_live_tensors_are_refused():
    # maxgraph.ops builds graphs; F's functions and Tensor's operators run
    # eagerly on live tensors (test_live_operators.py).
    live = Tensor.from_numpy(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="exp: this is a live tensor"):
        ops.exp(live)

    def mixed(x):
        with pytest.raises(TypeError, match=r"\+: this is a live tensor"):
            x + live
        return x

    compilation.stage(mixed)(F32_2)


def test_traced_tensor_has_no_data_and_no_truth_value():
    def fn(x):
        with pytest.raises(TypeError, match="has no data yet"):
            x.to_numpy()
        with pytest.raises(TypeError, match="truth value of a Tensor"):
            bool(x)
        return x

    compilation.stage(fn)(F32_2)


def test_tensor_of_a_finished_graph_cannot_be_used():
    kept = []
    compilation.stage(lambda x: kept.append(x) or x)(F32_2)
    with pytest.raises(ValueError, match="maxgraph.add"):
        compilation.stage(lambda y: y + kept[0])(F32_2)


def test_result_must_be_traced():
    live = Tensor.from_numpy(np.ones(2, np.float32))
    with pytest.raises(TypeError, match="result 'output\\[1\\]' is a live "
                       "tensor"):
        compilation.stage(lambda x: (x, live))(F32_2)


def test_subgraph_cannot_read_its_parents_tensor():
    def outer(x, y):
        @compilation.as_subgraph
        def body(a):
            return a + y

        return body(x)

    with pytest.raises(ValueError) as error:
        compilation.stage(outer)(F32_2, F32_2)
    assert "maxgraph.add" in str(error.value)
    assert f"{__file__}:" in str(error.value)


def test_bad_dims_and_shapes():
    with pytest.raises(ValueError, match="must not be negative, got -1"):
        TensorLayout(DType.float32, [-1])
    with pytest.raises(ValueError, match="1x"):
        TensorLayout(DType.float32, ["1x"])
    with pytest.raises(TypeError, match="a dim is an int or a symbolic name"):
        TensorLayout(DType.float32, [2.5])
    with pytest.raises(TypeError, match="a shape is a sequence"):
        TensorLayout(DType.float32, "batch")


def test_large_dims():
    # Dims beyond 32 bits are dims; beyond 63 bits a clear error.
    layout = TensorLayout(DType.float32, [2**31, 2])
    assert "[2147483648, 2]" in str(layout)
    with pytest.raises(ValueError,
                       match="a static dim must fit in 63 bits, got "
                       "9223372036854775808"):
        TensorLayout(DType.float32, [2**63])


def test_missing_custom_extension():
    with pytest.raises(ValueError, match=r"custom extension '/nonexistent/"
                       r"kernels\.mlir' does not exist"):
        compilation.stage(lambda x: x, custom_extensions=[
            "/nonexistent/kernels.mlir"])(F32_2)


def test_unknown_kernel_lists_the_names(tmp_path):
    library = tmp_path / "kernels.mlir"
    library.write_text(
        "func.func @add_one(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  return %x : tensor<4xf32>\n}\n")
    spec = TensorLayout(DType.float32, [4])

    def fn(x):
        return ops.custom("add_two", [x], [spec])[0]

    with pytest.raises(ValueError, match="add_one"):
        compilation.stage(fn, custom_extensions=[str(library)])(spec)


def test_unresolved_symbol_is_a_compile_error(tmp_path):
    # compile() generates all machine code, so a kernel calling a function
    # that no library defines fails there, not at the first call.
    library = tmp_path / "kernels.mlir"
    library.write_text(
        "func.func private @maxgraph_test_no_such_function(f32) -> f32\n"
        "func.func @calls_missing(%x: tensor<f32>) -> tensor<f32> {\n"
        "  %a = tensor.extract %x[] : tensor<f32>\n"
        "  %r = func.call @maxgraph_test_no_such_function(%a) : (f32) -> f32\n"
        "  %y = tensor.from_elements %r : tensor<f32>\n"
        "  return %y : tensor<f32>\n}\n")
    spec = TensorLayout(DType.float32, [])

    def fn(x):
        return ops.custom("calls_missing", [x], [spec])[0]

    staged = compilation.stage(fn, custom_extensions=[str(library)])(spec)
    with pytest.raises(ValueError, match="compile: @fn calls "
                       "`maxgraph_test_no_such_function`, which no loaded "
                       "library defines"):
        staged.compile()


def test_indexing_mistakes():
    def fn(x):
        with pytest.raises(IndexError, match="3 indices for a tensor of rank "
                           "2"):
            x[0, 0, 0]
        with pytest.raises(IndexError, match="slice steps must be positive"):
            x[::-1]
        with pytest.raises(TypeError, match="indexing takes ints, slices"):
            x["a"]
        return x

    compilation.stage(fn)(TensorLayout(DType.float32, [2, 3]))


def test_session_state_is_clean_after_an_error():
    def bad(x):
        raise RuntimeError("user bug")

    with pytest.raises(RuntimeError, match="user bug"):
        compilation.stage(bad)(F32_2)
    # The next stage() starts a fresh graph, not one nested in the failed one.
    staged = compilation.stage(lambda x: x + 1)(F32_2)
    assert str(staged).count("maxgraph.graph") == 1
    assert ops.add is not None and CPU() == CPU(0)


def test_tensor_of_a_finished_graph_is_an_error_not_a_crash():
    # Found by fuzz/staging_fuzzer.py: the layout of a tensor kept past its
    # graph read IR that had been freed (a segfault). Now every use is a
    # StagingError (test_trace_lifetime.py has the rest).
    kept = []

    def fn(x, b):
        kept.extend([x + 1, b])
        return kept[0]

    compilation.stage(fn)(F32_2, BufferLayout(DType.float32, [2]))
    tensor, buffer = kept
    assert not tensor.is_live
    for use in (lambda: tensor.layout, lambda: tensor.shape,
                lambda: buffer.layout):
        with pytest.raises(ValueError, match="which has ended"):
            use()
    with pytest.raises(ValueError, match="can only be used while a function "
                       "is being staged"):
        ops.add(tensor, 1)
    assert repr(tensor) == "Tensor(traced, of the ended trace of graph @fn)"
    with pytest.raises(ValueError, match="which has ended"):
        compilation.stage(lambda x: x + tensor)(F32_2)


def test_wrongly_typed_arguments_are_type_errors_not_cpp_errors():
    # Found by fuzz/staging_fuzzer.py: these were RuntimeError("std::bad_cast").
    def fn(x):
        for axis in (object(), [1.5], "x", 2**70):
            with pytest.raises((TypeError, ValueError),
                               match="axis(\\[0\\])? must be|does not fit"):
                ops.reduce_sum(x, axis=axis)
        with pytest.raises(TypeError, match="slice"):
            ops.slice(x, [(1.5, None, 1)])
        return x

    compilation.stage(fn)(F32_2)


def test_new_op_mistakes_are_located_at_the_users_line():
    spec = TensorLayout(DType.float32, [3, 4])
    cases = [
        (lambda x: ops.top_k(x, 5, 1),
         "'maxgraph.top_k' op k = 5 is larger than dim 1 (`4`) of operand 0"),
        (lambda x: ops.top_k(x, 1, 2),
         "'maxgraph.top_k' op axis 2 is out of range for an operand of rank 2"),
        (lambda x: ops.pad(x, [1, 1]),
         "'maxgraph.pad' op has 2 paddings for an operand of rank 2"),
        (lambda x: ops.pad(x, [0, 0, -1, 0]),
         "'maxgraph.pad' op padding -1 before dim 1 is negative"),
        (lambda x: ops.pad(x, [0, 0, 4, 0], "reflect"),
         "'maxgraph.pad' op mode reflect pads dim 1 of size 4 by 4"),
        (lambda x: ops.pad(x, [0, 0, 1, 0], "wrap"),
         "'maxgraph.pad' has no mode 'wrap'; expected 'constant', 'reflect' "
         "or 'edge'"),
        (lambda x: ops.pad(x, [0, 0, 1, 0], "edge", 2.0),
         "'maxgraph.pad' mode 'edge' takes no value"),
        (lambda x: ops.arange(0, 4, 0, DType.int32),
         "'maxgraph.arange' step must be nonzero"),
        (lambda x: ops.arange(0.5, 4, 1, DType.int32),
         "'maxgraph.arange' of si32 needs integer start and step"),
        (lambda x: ops.arange(0, "m", 1, DType.int64),
         "'maxgraph.arange' up to the dim `m`: no input of the graph has the "
         "symbolic dim `m`"),
        (lambda x: ops.arange(0, "n", -1, DType.int64),
         "'maxgraph.arange' up to the dim `n` needs an integer start and a "
         "positive integer step"),
    ]
    for fn, expected in cases:
        line = inspect.getsourcelines(fn)[1]
        with pytest.raises(ValueError) as error:
            compilation.stage(fn)(spec)
        message = str(error.value)
        assert isinstance(error.value, maxgraph.StagingError)
        assert message.startswith(f"{__file__}:"), message
        assert expected in message, message
        located = int(message.split(":")[1])
        assert line <= located <= line + 1, (line, message)
