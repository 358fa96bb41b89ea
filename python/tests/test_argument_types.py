"""Wrong argument types are a TypeError (or a ValueError for values out of
range) that names the function, the argument and what it expects: never
nanobind's ``RuntimeError: std::bad_cast`` and never a crash.

Every call runs in this one process, so a crash fails the whole suite.
"""

import operator

import numpy as np
import pytest

from maxgraph import compilation, ops
from maxgraph.driver import CPU
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, DeviceMesh, TensorLayout
from maxgraph.tensor import Tensor

F32_2x3 = TensorLayout(DType.float32, [2, 3])

# Values of the wrong type for most arguments: a str, a list, a float, None,
# an array, a plain object, a dict, a tuple, ints beyond 64 bits, a bool, a
# DType, a Device, slices of non-ints.
WRONG = [
    "str", [1, 2], ["a"], [None], 1.5, None, np.zeros(2, np.float32),
    object(), {"a": 1}, (1,), 2**70, -2**70, True, DType.float32, CPU(),
    slice(1.5, 2), slice(None, None, 2**70), np.float64(2.5),
]


def check(error, name):
    """The exception of a call of `name` with a wrong-typed argument."""
    message = str(error)
    assert isinstance(error, (TypeError, ValueError, IndexError)), (
        f"{name}: {type(error).__name__}: {message}")
    assert "std::" not in message and "bad_cast" not in message, message
    assert "unchecked cast" not in message, message
    if type(error) is TypeError:
        # Ops name themselves; operators name their symbol or method.
        names = name if isinstance(name, tuple) else (name,)
        assert any(n in message for n in names), f"{name}: {message}"


def call(name, fn, *args):
    """Calls fn; returns the exception it raises, checked, or None."""
    try:
        fn(*args)
    except Exception as error:  # noqa: BLE001 - any exception is checked
        check(error, name)
        return error
    return None


def parameters(fn):
    """(name, has_default) of each parameter of a nanobind function."""
    signature = fn.__nb_signature__[0][0]
    inner = signature[signature.index("(") + 1:signature.rindex(") ->")]
    parts, depth, current = [], 0, ""
    for char in inner:
        depth += char in "[(" and 1 or 0
        depth -= char in "])" and 1 or 0
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return [(part.split(":")[0].strip(), "=" in part) for part in parts]


def _scalar_bool(x):
    """A rank-0 bool of the trace of `x`: a predicate of while_loop and
    cond."""
    return ops.less(ops.reduce_sum(x, [0, 1], keep_dims=False), 0.0)


def good_arguments(x):
    """A valid value for each argument name the ops use."""
    return {
        "x": x, "lhs": x, "rhs": x, "condition": x, "on_true": x,
        "on_false": x, "gamma": x, "beta": x, "weight": x, "indices": x,
        "updates": x, "reduction": "none", "mask": x, "label": "tag",
        "filter": x, "strides": [1, 1], "dilations": [1, 1],
        "padding": [0, 0, 0, 0], "groups": 1,
        "message": "why",
        "inputs": [x], "shape": [2, 3], "sizes": [1, 1],
        "permutation": [1, 0], "ranges": [(0, 1)], "dtype": DType.float32,
        "device": CPU(), "value": 1.0, "name": "kernel",
        "outputs": [TensorLayout(DType.float32, [2])], "axis": 0,
        "keep_dims": False, "exclusive": False, "reverse": False,
        "epsilon": 1e-5, "root": 0, "params": {},
        "layout": TensorLayout(DType.float32, [2]),
        "start": 0, "stop": 4, "step": 1, "k": 1,
        "paddings": [0, 0, 1, 0], "mode": "constant", "quantized": x,
        "encoding": "q4_1",
        "initial": [x], "predicate": lambda value: _scalar_bool(value),
        "body": lambda value: value, "pred": _scalar_bool(x),
        "then_fn": lambda: x, "else_fn": lambda: x,
        "seed": ops.cast(ops.reduce_sum(x, [0, 1], keep_dims=False),
                         DType.int64),
        "low": 0.0, "high": 1.0,
        "mapping": DeviceMesh([CPU(0), CPU(1)], (2,), ("x",)),
    }


def test_every_op_refuses_wrong_argument_types():
    names = [name for name in dir(ops) if not name.startswith("_")]
    assert len(names) > 60
    calls = []

    def body(x):
        good = good_arguments(x)
        for name in names:
            fn = getattr(ops, name)
            params = parameters(fn)
            for index, (param, _) in enumerate(params):
                for wrong in WRONG:
                    args = []
                    for position, (other, has_default) in enumerate(params):
                        if position == index:
                            args.append(wrong)
                        elif has_default and position > index:
                            break
                        else:
                            args.append(good[other])
                    calls.append(name)
                    error = call(name, fn, *args)
                    # A plain object fits no argument.
                    if wrong is WRONG[7]:
                        assert error is not None, (name, param)
        return x

    compilation.stage(body)(F32_2x3)
    assert len(calls) > 1000


def test_tensor_methods_refuse_wrong_argument_types():
    def body(x):
        for wrong in WRONG:
            call("Tensor indexing", lambda: x[wrong])
            call("Tensor indexing", lambda: x[0, wrong])
            for symbol, fn in [("+", operator.add), ("*", operator.mul),
                               ("**", operator.pow), ("&", operator.and_),
                               ("==", operator.eq), ("<", operator.lt),
                               ("matmul", operator.matmul)]:
                call(symbol, fn, x, wrong)
                # numpy's operators hand the traced Tensor to its
                # __array_ufunc__, which names the operator.
                call((symbol, "@"), fn, wrong, x)
        return x

    compilation.stage(body)(F32_2x3)


def test_live_tensors_and_layouts_refuse_wrong_argument_types():
    live = Tensor.from_numpy(np.zeros((2, 3), np.float32))
    for wrong in WRONG:
        if not isinstance(wrong, bool) and wrong is not None:
            assert call("Tensor.__array__",
                        lambda: live.__array__(copy=wrong)) is not None
            assert call("Tensor.__dlpack__",
                        lambda: live.__dlpack__(copy=wrong)) is not None
        call("Tensor indexing", lambda: live[wrong])
        call("TensorLayout", TensorLayout, wrong, [2])
        call("TensorLayout", TensorLayout, DType.float32, wrong)
        call("TensorLayout", TensorLayout, DType.float32, [wrong])
        call("TensorLayout", TensorLayout, DType.float32, [2], wrong)
        call("BufferLayout", BufferLayout, DType.float32, [wrong])
        call("from_numpy", Tensor.from_numpy, wrong)
        call("from_numpy", Tensor.from_numpy, np.zeros(2), wrong)
        call("from_dlpack", Tensor.from_dlpack, wrong)
        call("CPU", CPU, wrong)


def test_compile_and_compiled_graphs_refuse_wrong_argument_types():
    def add(a, b):
        return a + b

    spec = TensorLayout(DType.float32, [2])
    compiled = compilation.compile(add)(spec, spec)
    good = np.zeros(2, np.float32)
    for wrong in WRONG:
        for args in [(wrong, good), (good, wrong)]:
            call("compiled graph 'add'", compiled, *args)
        # A non-spec argument is static: `a + b` then refuses it, at `+`.
        call("", lambda: compilation.stage(add)(wrong, spec))
        call("", lambda: compilation.compile(add)(spec, wrong))


def test_messages_name_the_function_the_argument_and_the_type():
    def body(x):
        with pytest.raises(TypeError,
                           match=r"^reduce_sum: axis must be an int or a "
                           r"sequence of ints, got <class 'str'>$"):
            ops.reduce_sum(x, "0")
        with pytest.raises(TypeError, match=r"^reduce_max: axis\[1\] must "
                           r"be an int, got <class 'float'>$"):
            ops.reduce_max(x, [0, 1.0])
        with pytest.raises(TypeError, match=r"^reduce_min: axis must be an "
                           r"int or a sequence of ints, got <class 'bool'>"):
            ops.reduce_min(x, True)
        with pytest.raises(ValueError, match=r"^reduce_sum: axis "
                           r"1180591620717411303424 does not fit in 64 bits"):
            ops.reduce_sum(x, 2**70)
        with pytest.raises(TypeError, match=r"^slice: ranges\[1\] stop must "
                           r"be an int or None, got <class 'str'>$"):
            ops.slice(x, [(0, 1), (0, "2")])
        with pytest.raises(TypeError, match=r"^slice: ranges\[0\] start "
                           r"must be an int, got <class 'NoneType'>$"):
            ops.slice(x, [(None, 1)])
        with pytest.raises(TypeError, match=r"^reshape: shape\[1\]: a dim "
                           r"is an int or a symbolic name \(str\), got "
                           r"<class 'float'>$"):
            ops.reshape(x, [3, 2.0])
        with pytest.raises(TypeError, match=r"^split: sizes must be a shape"):
            ops.split(x, 1)
        with pytest.raises(TypeError, match=r"^Tensor indexing: a slice "
                           r"start must be an int, a Dim, a rank-0 integer "
                           r"Tensor or None, got <class 'float'>$"):
            x[1.5:]
        with pytest.raises(ValueError, match=r"^\+: an int operand "
                           r"1180591620717411303424 does not fit in 64 bits"):
            x + 2**70
        with pytest.raises(TypeError, match=r"^constant: value must be a "
                           r"number or an array of numbers .*<class 'str'>"):
            ops.constant("1.5")
        # numpy reads None as NaN: not a number here.
        with pytest.raises(TypeError, match=r"^constant: value must be a "
                           r"number .* reads as object elements"):
            ops.constant([None, 1.0])
        # nanobind's own message names the function and its signature.
        with pytest.raises(TypeError, match=r"(?s)exp\(\): incompatible "
                           r"function arguments.*x: maxgraph._core.Tensor"):
            ops.exp("x")
        return x

    compilation.stage(body)(F32_2x3)
    live = Tensor.from_numpy(np.zeros(2, np.float32))
    with pytest.raises(TypeError, match=r"^Tensor.__array__: copy must be a "
                       r"bool or None, got <class 'str'>$"):
        live.__array__(copy="yes")
    with pytest.raises(TypeError, match=r"^TensorLayout: shape\[0\]: a dim "
                       r"is an int or a symbolic name \(str\), got <class "
                       r"'NoneType'>$"):
        TensorLayout(DType.float32, [None])


def test_large_and_numpy_ints_are_ints():
    # nanobind's int check stops at 32 bits; ints of 64 bits and numpy
    # integers are ints for operands, axes and indices alike.
    def body(x):
        assert (x + 2**40).dtype == DType.int64
        assert ops.reduce_sum(x, np.int64(0)).shape == [3]
        assert x[np.int32(1)].shape == [3]
        assert ops.slice(x, [(np.int64(0), np.int64(1)), (0,)]).shape == [1, 3]
        return x

    compilation.stage(body)(TensorLayout(DType.int64, [2, 3]))
