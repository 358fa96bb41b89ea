"""numpy scalars as operands of Tensor's operators, on either side: numbers
with the dtype rules of Python numbers (they take the Tensor's dtype).
numpy arrays are a TypeError naming the operator and ops.constant; live
tensors still go through numpy as arrays."""

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

F32_2 = TensorLayout(DType.float32, [2])
I64_2 = TensorLayout(DType.int64, [2])
BOOL_2 = TensorLayout(DType.bool, [2])


def constant_lines(fn, spec):
    """The `maxgraph.constant` lines of `fn` staged over `spec`, and the
    text of the whole module."""
    text = str(compilation.stage(fn)(spec))
    return [line.strip() for line in text.splitlines()
            if "maxgraph.constant" in line], text


@pytest.mark.parametrize("fn, spec, constant, op", [
    (lambda x: x + np.float32(2), F32_2,
     "dense<2.000000e+00> : !maxgraph.tensor<[], f32>", "maxgraph.add"),
    (lambda x: np.float32(2) + x, F32_2,
     "dense<2.000000e+00> : !maxgraph.tensor<[], f32>", "maxgraph.add"),
    (lambda x: np.float16(0.5) * x, F32_2,
     "dense<5.000000e-01> : !maxgraph.tensor<[], f32>", "maxgraph.mul"),
    (lambda x: x * np.int64(3), I64_2,
     "dense<3> : !maxgraph.tensor<[], si64>", "maxgraph.mul"),
    (lambda x: np.int64(3) * x, I64_2,
     "dense<3> : !maxgraph.tensor<[], si64>", "maxgraph.mul"),
    (lambda x: np.uint8(7) - x, I64_2,
     "dense<7> : !maxgraph.tensor<[], si64>", "maxgraph.sub"),
    # An int takes the float tensor's dtype, as a Python int does.
    (lambda x: x / np.int32(4), F32_2,
     "dense<4.000000e+00> : !maxgraph.tensor<[], f32>", "maxgraph.div"),
    (lambda x: x & np.bool_(True), BOOL_2,
     "dense<true> : !maxgraph.tensor<[], i1>", "maxgraph.and"),
    (lambda x: np.bool_(False) | x, BOOL_2,
     "dense<false> : !maxgraph.tensor<[], i1>", "maxgraph.or"),
    (lambda x: x ** np.float64(2), F32_2,
     "dense<2.000000e+00> : !maxgraph.tensor<[], f32>", "maxgraph.pow"),
    (lambda x: np.array(3.0) + x, F32_2,
     "dense<3.000000e+00> : !maxgraph.tensor<[], f32>", "maxgraph.add"),
    (lambda x: x + np.array(3.0), F32_2,
     "dense<3.000000e+00> : !maxgraph.tensor<[], f32>", "maxgraph.add"),
])
def test_numpy_scalar_operands(fn, spec, constant, op):
    constants, text = constant_lines(fn, spec)
    assert len(constants) == 1, text
    assert constant in constants[0], text
    assert op in text, text


def test_reflected_operand_order():
    # np.float32(1) - x stages 1 - x, not x - 1.
    text = str(compilation.stage(lambda x: np.float32(1) - x)(F32_2))
    assert "maxgraph.sub %0, %x" in text, text
    text = str(compilation.stage(lambda x: np.float32(1) / x)(F32_2))
    assert "maxgraph.div %0, %x" in text, text


@pytest.mark.parametrize("fn, predicate", [
    (lambda x: np.float32(2) < x, "maxgraph.cmp gt, %x, %0"),
    (lambda x: np.float32(2) >= x, "maxgraph.cmp le, %x, %0"),
    (lambda x: x < np.float32(2), "maxgraph.cmp lt, %x, %0"),
    (lambda x: np.float32(2) == x, "maxgraph.cmp eq, %x, %0"),
    (lambda x: x != np.int64(2), "maxgraph.cmp ne, %x, %0"),
])
def test_numpy_scalar_comparisons(fn, predicate):
    results = []
    staged = compilation.stage(lambda x: results.append(fn(x)) or
                               results[-1])(F32_2)
    assert isinstance(results[0], Tensor)
    assert predicate in str(staged), str(staged)
    assert staged.output_layouts[0].dtype == DType.bool


def test_numpy_scalars_follow_python_number_rules():
    # A fraction cannot become an int64 constant, from Python or numpy.
    for number in (2.5, np.float32(2.5)):
        with pytest.raises(maxgraph.StagingError,
                           match="the number 2.5 cannot become a constant of "
                                 "si64"):
            compilation.stage(lambda x: x + number)(I64_2)
        with pytest.raises(maxgraph.StagingError,
                           match="the number 2.5 cannot become a constant of "
                                 "si64"):
            compilation.stage(lambda x: number + x)(I64_2)


def test_numpy_scalars_in_ops_that_take_numbers():
    text = str(compilation.stage(
        lambda x: ops.select(x > np.float32(0), x, np.float32(0)))(F32_2))
    assert "maxgraph.select" in text, text


@pytest.mark.parametrize("fn, symbol", [
    (lambda x: np.zeros(2) + x, "+"),
    (lambda x: x + np.zeros(2), "+"),
    (lambda x: np.ones(2, np.float32) * x, "*"),
    (lambda x: x - np.ones((2, 2)), "-"),
    (lambda x: np.ones(2) < x, "<"),
    (lambda x: np.ones((2, 2)) @ x, "@"),
])
def test_numpy_arrays_are_a_type_error_naming_the_operator(fn, symbol):
    with pytest.raises(TypeError) as error:
        compilation.stage(fn)(F32_2)
    message = str(error.value)
    assert message.startswith(f"{symbol}: got an array operand"), message
    assert "ops.constant(array, dtype)" in message


def test_numpy_functions_on_traced_tensors_are_a_type_error():
    with pytest.raises(TypeError,
                       match="numpy.sqrt cannot take a traced Tensor.*"
                             "maxgraph.ops"):
        compilation.stage(lambda x: np.sqrt(x))(F32_2)
    # (numpy.add.reduce(x) says "numpy.add.reduce cannot take ..." too, but
    # numpy 2.4 leaks a reference to x when a reduce override raises.)
    with pytest.raises(TypeError,
                       match="numpy.add cannot take a traced Tensor"):
        compilation.stage(lambda x: np.add(x, 1, out=x))(F32_2)


def test_compiled_numbers_with_numpy_scalars():
    fn = compilation.compile(
        lambda x: np.float32(2) * x - np.int64(1) + x / np.float16(4))
    out = fn(F32_2)(np.array([1.0, 4.0], np.float32)).to_numpy()
    np.testing.assert_allclose(out, [1.25, 8.0])


def test_live_tensors_still_work_with_numpy():
    live = Tensor.from_numpy(np.array([1.0, 4.0], np.float32))
    result = np.zeros(2, np.float32) + live
    assert isinstance(result, np.ndarray)
    np.testing.assert_array_equal(result, [1.0, 4.0])
    np.testing.assert_array_equal(np.sqrt(live), [1.0, 2.0])
    assert np.add.reduce(live) == 5.0
    assert np.sum(live) == 5.0
    # An operator with a numpy scalar is the tensor's, run eagerly.
    assert isinstance(np.float32(1) + live, Tensor)
    np.testing.assert_array_equal(np.float32(1) + live, [2.0, 5.0])
    out = np.empty(2, np.float32)
    np.multiply(live, 2, out=out)
    np.testing.assert_array_equal(out, [2.0, 8.0])
    # The memory is shared: writing into the live tensor through numpy.
    np.add(live, 1, out=live)
    np.testing.assert_array_equal(live.to_numpy(), [2.0, 5.0])
