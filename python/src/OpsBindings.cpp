//===- OpsBindings.cpp - maxgraph.ops: one function per op ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "Bindings.h"
#include "MaxGraph/Staging/Ops.h"
#include <algorithm>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace maxgraph;
using namespace maxgraph::python;

namespace {
std::vector<Tensor> tensors(const std::vector<const PyTensor *> &inputs,
                            const char *op) {
  std::vector<Tensor> result;
  for (const PyTensor *input : inputs) {
    if (!input)
      throw nb::type_error(
          (std::string(op) + ": None is not a Tensor").c_str());
    result.push_back(input->traced(op));
  }
  return result;
}

/// A traced tensor for a value that a region op takes or a region returns
/// (a buffer reads as its current contents); a TypeError naming `op`,
/// `what` and `index` for anything else.
Tensor regionValue(nb::handle value, const char *op, const char *what,
                   size_t index) {
  if (nb::isinstance<PyTensor>(value))
    return nb::cast<const PyTensor &>(value).traced(op);
  if (nb::isinstance<PyBuffer>(value))
    return nb::cast<const PyBuffer &>(value).buffer.load();
  throw nb::type_error((std::string(op) + ": " + what + " " +
                        std::to_string(index) + " must be a Tensor, got " +
                        typeName(value))
                           .c_str());
}

/// The values a region receives, as Python Tensors.
nb::tuple regionArguments(const std::vector<Tensor> &values) {
  nb::list arguments;
  for (const Tensor &value : values)
    arguments.append(nb::cast(PyTensor(value)));
  return nb::tuple(arguments);
}

/// What a region's function returned: None (nothing), one Tensor, or a
/// sequence of them.
std::vector<Tensor> regionResults(nb::handle returned, const char *op,
                                  const char *what) {
  std::vector<Tensor> results;
  if (returned.is_none())
    return results;
  if (nb::isinstance<PyTensor>(returned) || nb::isinstance<PyBuffer>(returned))
    return {regionValue(returned, op, what, 0)};
  if (!nb::isinstance<nb::list>(returned) &&
      !nb::isinstance<nb::tuple>(returned))
    throw nb::type_error((std::string(op) + ": " + what +
                          " must return a Tensor, a list or tuple of them, "
                          "or None, got " +
                          typeName(returned))
                             .c_str());
  std::string result = std::string(what) + "'s result";
  for (nb::handle value : returned)
    results.push_back(regionValue(value, op, result.c_str(), results.size()));
  return results;
}

std::vector<PyTensor> wrap(std::vector<Tensor> results) {
  std::vector<PyTensor> wrapped;
  for (Tensor &result : results)
    wrapped.emplace_back(std::move(result));
  return wrapped;
}

/// Axes of a reduction `op`: one int or a sequence of ints.
std::vector<int64_t> axes(nb::handle object, const char *op) {
  const char *expected = "an int or a sequence of ints";
  if (isInt(object))
    return {toInt64(object, op, "axis", expected)};
  if (nb::isinstance<nb::str>(object) || !nb::hasattr(object, "__iter__"))
    throw nb::type_error((std::string(op) + ": axis must be " + expected +
                          ", got " + typeName(object))
                             .c_str());
  std::vector<int64_t> result;
  for (nb::handle item : object)
    result.push_back(
        toInt64(item, op, "axis[" + std::to_string(result.size()) + "]"));
  return result;
}

using Binary = Tensor (*)(const Operand &, const Operand &);
using Unary = Tensor (*)(const Tensor &, SourceLoc);
using Reduction = Tensor (*)(const Tensor &, std::vector<int64_t>, bool,
                             SourceLoc);
using Collective = std::vector<Tensor> (*)(const std::vector<Tensor> &,
                                           SourceLoc);
using AxisCollective = std::vector<Tensor> (*)(const std::vector<Tensor> &,
                                               int64_t, SourceLoc);

template <Binary fn> void defBinary(nb::module_ &m, const char *name) {
  m.def(
      name,
      [name](nb::handle lhs, nb::handle rhs) {
        CallerLocation at;
        return PyTensor(fn(toOperand(lhs, name), toOperand(rhs, name)));
      },
      nb::arg("lhs"), nb::arg("rhs"));
}

template <Unary fn> void defUnary(nb::module_ &m, const char *name) {
  m.def(
      name,
      [name](const PyTensor &x) {
        CallerLocation at;
        return PyTensor(fn(x.traced(name), SourceLoc::current()));
      },
      nb::arg("x"));
}

template <Reduction fn> void defReduction(nb::module_ &m, const char *name) {
  m.def(
      name,
      [name](const PyTensor &x, nb::handle axis, bool keepDims) {
        CallerLocation at;
        return PyTensor(fn(x.traced(name), axes(axis, name), keepDims,
                           SourceLoc::current()));
      },
      nb::arg("x"), nb::arg("axis") = -1, nb::arg("keep_dims") = false);
}

template <Collective fn> void defCollective(nb::module_ &m, const char *name) {
  m.def(
      name,
      [name](const std::vector<const PyTensor *> &inputs) {
        CallerLocation at;
        return wrap(fn(tensors(inputs, name), SourceLoc::current()));
      },
      nb::arg("inputs"));
}

template <AxisCollective fn>
void defAxisCollective(nb::module_ &m, const char *name, const char *axis) {
  m.def(
      name,
      [name](const std::vector<const PyTensor *> &inputs, int64_t value) {
        CallerLocation at;
        return wrap(fn(tensors(inputs, name), value, SourceLoc::current()));
      },
      nb::arg("inputs"), nb::arg(axis) = 0);
}

/// A kernel input of ops.custom: a Tensor or a traced Buffer.
ops::KernelInput kernelInput(nb::handle object) {
  if (nb::isinstance<PyTensor>(object))
    return ops::KernelInput(
        nb::cast<const PyTensor &>(object).traced("ops.custom"));
  if (nb::isinstance<PyBuffer>(object))
    return ops::KernelInput(nb::cast<const PyBuffer &>(object).buffer);
  throw nb::type_error(
      ("ops.custom: an input is a Tensor or a Buffer, got " + typeName(object))
          .c_str());
}
} // namespace

namespace {
/// The product of `dims` (1 for none).
Dim product(const std::vector<Dim> &dims) {
  Dim result(1);
  for (const Dim &dim : dims)
    result = result * dim;
  return result;
}

/// The target shape of reshape: what `toDims` takes, and at most one -1,
/// the dim that makes the element count match `x`'s. It is inferred
/// symbolically: dims that the target shares with `x` cancel out, and what
/// is left of `x` must divide exactly by what is left of the target, a
/// static size (`[batch, 4] -> [-1]` is `[batch * 4]`, `[batch, 6] ->
/// [batch, -1, 2]` is `[batch, 3, 2]`).
std::vector<Dim> reshapeDims(const Tensor &x, nb::handle shape) {
  if (nb::isinstance<nb::str>(shape) || !nb::hasattr(shape, "__iter__"))
    throw nb::type_error(("reshape: shape must be a shape: a sequence of "
                          "ints, symbolic names and Dims, got " +
                          typeName(shape))
                             .c_str());
  std::vector<Dim> dims;
  std::optional<size_t> inferred;
  for (nb::handle item : shape) {
    std::string at = "reshape: shape[" + std::to_string(dims.size()) + "]";
    if (PyLong_Check(item.ptr()) && !PyBool_Check(item.ptr()) &&
        nb::cast<int64_t>(item) == -1) {
      if (inferred)
        throw nb::value_error(("reshape: shape has more than one -1 (at " +
                               std::to_string(*inferred) + " and " +
                               std::to_string(dims.size()) + ")")
                                  .c_str());
      inferred = dims.size();
      dims.push_back(Dim(1));
      continue;
    }
    dims.push_back(toDim(item, at));
  }
  if (!inferred)
    return dims;
  std::vector<Dim> remaining = x.shape();
  std::vector<Dim> known;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i == *inferred)
      continue;
    auto same = std::find(remaining.begin(), remaining.end(), dims[i]);
    if (!dims[i].isStatic() && same != remaining.end())
      remaining.erase(same);
    else
      known.push_back(dims[i]);
  }
  Dim total = product(remaining), divisor = product(known);
  auto fail = [&](const std::string &why) {
    std::string text;
    for (const Dim &dim : x.shape())
      text += (text.empty() ? "" : ", ") + dim.str();
    return nb::value_error(("reshape: cannot infer the -1 of the shape for "
                            "a tensor of shape [" +
                            text + "]: " + why)
                               .c_str());
  };
  if (!divisor.isStatic())
    throw fail("the other dims leave " + divisor.str() +
               ", which is not a static size");
  if (divisor.staticSize() == 0)
    throw fail("the other dims hold no elements");
  Dim quotient = floordiv(total, divisor.staticSize());
  if (!(quotient * divisor == total))
    throw fail(total.str() + " elements do not divide by " + divisor.str());
  dims[*inferred] = quotient;
  return dims;
}

/// The constant of a nested list (or tuple) of Python or numpy ints, every
/// value exact; nullopt when some leaf is not an int or the list is ragged,
/// which the general path reports.
std::optional<PyTensor> exactIntegerList(nb::handle numpy, nb::handle value,
                                         DType dtype, Device device) {
  nb::object objects;
  try {
    objects = numpy.attr("asarray")(value, nb::arg("dtype") = "object");
  } catch (nb::python_error &) {
    return std::nullopt;
  }
  std::vector<llvm::APSInt> values;
  for (nb::handle item : objects.attr("reshape")(-1).attr("tolist")()) {
    if (!PyLong_Check(item.ptr()) && !isInt(item))
      return std::nullopt;
    values.emplace_back(nb::cast<std::string>(nb::str(nb::int_(item))));
  }
  std::vector<Dim> shape;
  for (nb::handle size : objects.attr("shape"))
    shape.push_back(Dim(nb::cast<int64_t>(size)));
  return PyTensor(ops::constant(values, dtype, shape, device));
}
} // namespace

void maxgraph::python::bindOps(nb::module_ &parent) {
  nb::module_ m = parent.def_submodule(
      "ops", "One function per maxgraph op; each stages the op at the "
             "caller's line and checks its operands there.");

  defBinary<ops::add>(m, "add");
  defBinary<ops::sub>(m, "sub");
  defBinary<ops::mul>(m, "mul");
  defBinary<ops::div>(m, "div");
  defBinary<ops::mod>(m, "mod");
  defBinary<ops::pow>(m, "pow");
  defBinary<ops::max>(m, "max");
  defBinary<ops::min>(m, "min");
  defBinary<ops::logical_and>(m, "logical_and");
  defBinary<ops::logical_or>(m, "logical_or");
  defBinary<ops::logical_xor>(m, "logical_xor");
  defBinary<ops::bitwise_and>(m, "bitwise_and");
  defBinary<ops::bitwise_or>(m, "bitwise_or");
  defBinary<ops::bitwise_xor>(m, "bitwise_xor");
  defBinary<ops::equal>(m, "equal");
  defBinary<ops::not_equal>(m, "not_equal");
  defBinary<ops::less>(m, "less");
  defBinary<ops::less_equal>(m, "less_equal");
  defBinary<ops::greater>(m, "greater");
  defBinary<ops::greater_equal>(m, "greater_equal");

  defUnary<ops::neg>(m, "neg");
  defUnary<ops::abs>(m, "abs");
  defUnary<ops::exp>(m, "exp");
  defUnary<ops::log>(m, "log");
  defUnary<ops::log1p>(m, "log1p");
  defUnary<ops::sqrt>(m, "sqrt");
  defUnary<ops::rsqrt>(m, "rsqrt");
  defUnary<ops::sin>(m, "sin");
  defUnary<ops::cos>(m, "cos");
  defUnary<ops::tanh>(m, "tanh");
  defUnary<ops::acos>(m, "acos");
  defUnary<ops::atanh>(m, "atanh");
  defUnary<ops::erf>(m, "erf");
  defUnary<ops::floor>(m, "floor");
  defUnary<ops::ceil>(m, "ceil");
  defUnary<ops::round>(m, "round");
  defUnary<ops::sigmoid>(m, "sigmoid");
  defUnary<ops::relu>(m, "relu");
  defUnary<ops::gelu>(m, "gelu");
  defUnary<ops::silu>(m, "silu");
  defUnary<ops::logical_not>(m, "logical_not");
  defUnary<ops::bitwise_not>(m, "bitwise_not");
  defUnary<ops::is_nan>(m, "is_nan");
  defUnary<ops::is_inf>(m, "is_inf");

  m.def(
      "select",
      [](const PyTensor &condition, nb::handle onTrue, nb::handle onFalse) {
        CallerLocation at;
        return PyTensor(ops::select(condition.traced("select"),
                                    toOperand(onTrue, "select"),
                                    toOperand(onFalse, "select")));
      },
      nb::arg("condition"), nb::arg("on_true"), nb::arg("on_false"));
  m.def(
      "cast",
      [](const PyTensor &x, DType dtype) {
        CallerLocation at;
        return PyTensor(ops::cast(x.traced("cast"), dtype));
      },
      nb::arg("x"), nb::arg("dtype"));
  m.def(
      "constant_external",
      [](const std::string &name, const TensorLayout &layout) {
        CallerLocation at;
        return PyTensor(ops::constant_external(name, layout));
      },
      nb::arg("name"), nb::arg("layout"),
      "An external weight, like MAX's F.constant_external: declares the "
      "weight `name` of static `layout`, whose data compile(..., weights=) "
      "binds. The graph holds the name and layout, never the data. In an "
      "as_subgraph body the name is relative to the call's prefix.");
  m.def(
      "constant",
      [](nb::handle value, DType dtype, Device device) {
        CallerLocation at;
        bool exact = !isFloat(dtype);
        // Python ints of integer dtypes stay exact at any size (a double
        // would round int64 values beyond 2^53); the C++ op checks the fit.
        if (PyLong_Check(value.ptr()) && exact) {
          llvm::APSInt number(nb::cast<std::string>(nb::str(nb::int_(value))));
          return PyTensor(
              ops::constant(llvm::ArrayRef(number), dtype, {}, device));
        }
        if (PyFloat_Check(value.ptr()) || PyLong_Check(value.ptr())) {
          double number = PyFloat_AsDouble(value.ptr());
          if (number == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            throw nb::value_error(("constant: value " +
                                   nb::cast<std::string>(nb::str(value)) +
                                   " does not fit in a double")
                                      .c_str());
          }
          return PyTensor(ops::constant(number, dtype, device));
        }
        // Anything numpy reads as an array of numbers: nested lists,
        // arrays. Not strings, None (numpy's NaN) or other objects.
        nb::object numpy = nb::module_::import_("numpy");
        const char *expected =
            "constant: value must be a number or an array of numbers (bool, "
            "int or float)";
        // numpy reads a list of ints that no one int dtype holds
        // ([-1, 2**64 - 1], [0, 2**64 - 1]) as float64: read nested lists
        // of ints as Python ints instead.
        if (exact && (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())))
          if (std::optional<PyTensor> constant =
                  exactIntegerList(numpy, value, dtype, device))
            return *constant;
        nb::object array;
        try {
          array = numpy.attr("asarray")(value);
        } catch (nb::python_error &error) {
          throw nb::type_error((std::string(expected) + ", got " +
                                typeName(value) + ": " + error.what())
                                   .c_str());
        }
        nb::object elements = array.attr("dtype");
        // Not longdouble, which a double would round without a word.
        char kind = numpyNumberKind(elements);
        if (!kind)
          throw nb::type_error((std::string(expected) + ", got " +
                                typeName(value) + " that numpy reads as " +
                                nb::cast<std::string>(nb::str(elements)) +
                                " elements")
                                   .c_str());
        std::vector<Dim> shape;
        for (nb::handle size : array.attr("shape"))
          shape.push_back(Dim(nb::cast<int64_t>(size)));
        if (exact && kind != 'f') {
          // Integers stay exact: through int64, or uint64 for unsigned
          // arrays, never through a double.
          bool isUnsigned = kind == 'u';
          nb::object flat =
              array.attr("astype")(isUnsigned ? "uint64" : "int64")
                  .attr("reshape")(-1)
                  .attr("tolist")();
          std::vector<llvm::APSInt> values;
          if (isUnsigned) {
            for (uint64_t number : nb::cast<std::vector<uint64_t>>(flat))
              values.emplace_back(llvm::APInt(64, number), true);
          } else {
            for (int64_t number : nb::cast<std::vector<int64_t>>(flat))
              values.emplace_back(llvm::APInt(64, number, /*isSigned=*/true),
                                  false);
          }
          return PyTensor(ops::constant(values, dtype, shape, device));
        }
        array = array.attr("astype")("float64");
        std::vector<double> values = nb::cast<std::vector<double>>(
            array.attr("reshape")(-1).attr("tolist")());
        return PyTensor(ops::constant(values, dtype, shape, device));
      },
      nb::arg("value"), nb::arg("dtype") = DType::Float32,
      nb::arg("device") = CPU(),
      "A constant: a number (rank 0) or anything numpy reads as an array. "
      "Ints (Python's, numpy integer arrays, lists of ints) of an integer "
      "or bool dtype are exact at any size, and must fit the dtype.");

  m.def(
      "matmul",
      [](const PyTensor &lhs, const PyTensor &rhs) {
        CallerLocation at;
        return PyTensor(
            ops::matmul(lhs.traced("matmul"), rhs.traced("matmul")));
      },
      nb::arg("lhs"), nb::arg("rhs"));
  m.def(
      "dequantize",
      [](const std::string &encoding, const PyTensor &quantized) {
        CallerLocation at;
        return PyTensor(
            ops::dequantize(encoding, quantized.traced("dequantize")));
      },
      nb::arg("encoding"), nb::arg("quantized"),
      "GGUF blocks ('q4_0', 'q4_1', 'q8_0') along the last dim (ui8) decoded "
      "to f32.");
  m.def(
      "qmatmul",
      [](const std::string &encoding, const PyTensor &lhs,
         const PyTensor &rhs) {
        CallerLocation at;
        return PyTensor(ops::qmatmul(encoding, lhs.traced("qmatmul"),
                                     rhs.traced("qmatmul")));
      },
      nb::arg("encoding"), nb::arg("lhs"), nb::arg("rhs"),
      "f32 lhs [..., m, k] times the quantized rows of rhs [n, bytes].");

  defReduction<ops::reduce_sum>(m, "reduce_sum");
  defReduction<ops::reduce_max>(m, "reduce_max");
  defReduction<ops::reduce_min>(m, "reduce_min");
  defReduction<ops::reduce_prod>(m, "reduce_prod");
  defReduction<ops::reduce_mean>(m, "reduce_mean");
  m.def(
      "argmax",
      [](const PyTensor &x, int64_t axis, bool keepDims) {
        CallerLocation at;
        return PyTensor(ops::argmax(x.traced("argmax"), axis, keepDims));
      },
      nb::arg("x"), nb::arg("axis") = -1, nb::arg("keep_dims") = false);
  m.def(
      "argmin",
      [](const PyTensor &x, int64_t axis, bool keepDims) {
        CallerLocation at;
        return PyTensor(ops::argmin(x.traced("argmin"), axis, keepDims));
      },
      nb::arg("x"), nb::arg("axis") = -1, nb::arg("keep_dims") = false);
  m.def(
      "cumsum",
      [](const PyTensor &x, int64_t axis, bool exclusive, bool reverse) {
        CallerLocation at;
        return PyTensor(
            ops::cumsum(x.traced("cumsum"), axis, exclusive, reverse));
      },
      nb::arg("x"), nb::arg("axis") = -1, nb::arg("exclusive") = false,
      nb::arg("reverse") = false);

  m.def(
      "top_k",
      [](const PyTensor &x, int64_t k, int64_t axis) {
        CallerLocation at;
        auto [values, indices] = ops::top_k(x.traced("top_k"), k, axis);
        return std::make_pair(PyTensor(std::move(values)),
                              PyTensor(std::move(indices)));
      },
      nb::arg("x"), nb::arg("k"), nb::arg("axis") = -1,
      "The k largest elements along `axis` in descending order (NaN first, "
      "equal elements by ascending index) and their int64 indices.");

  m.def(
      "softmax",
      [](const PyTensor &x, int64_t axis) {
        CallerLocation at;
        return PyTensor(ops::softmax(x.traced("softmax"), axis));
      },
      nb::arg("x"), nb::arg("axis") = -1);
  m.def(
      "log_softmax",
      [](const PyTensor &x, int64_t axis) {
        CallerLocation at;
        return PyTensor(ops::log_softmax(x.traced("log_softmax"), axis));
      },
      nb::arg("x"), nb::arg("axis") = -1);
  m.def(
      "layer_norm",
      [](const PyTensor &x, const PyTensor &gamma, const PyTensor &beta,
         double epsilon) {
        CallerLocation at;
        return PyTensor(ops::layer_norm(x.traced("layer_norm"),
                                        gamma.traced("layer_norm"),
                                        beta.traced("layer_norm"), epsilon));
      },
      nb::arg("x"), nb::arg("gamma"), nb::arg("beta"),
      nb::arg("epsilon") = 1e-5);
  m.def(
      "rms_norm",
      [](const PyTensor &x, const PyTensor &weight, double epsilon) {
        CallerLocation at;
        return PyTensor(ops::rms_norm(x.traced("rms_norm"),
                                      weight.traced("rms_norm"), epsilon));
      },
      nb::arg("x"), nb::arg("weight"), nb::arg("epsilon") = 1e-6);

  m.def(
      "reshape",
      [](const PyTensor &x, nb::handle shape) {
        CallerLocation at;
        const Tensor &traced = x.traced("reshape");
        return PyTensor(ops::reshape(traced, reshapeDims(traced, shape)));
      },
      nb::arg("x"), nb::arg("shape"),
      "`x` with the dims `shape` (ints, names, Dims; one -1 is inferred "
      "from the element count, symbolically).");
  m.def(
      "transpose",
      [](const PyTensor &x, std::vector<int64_t> permutation) {
        CallerLocation at;
        return PyTensor(ops::transpose(x.traced("transpose"), permutation));
      },
      nb::arg("x"), nb::arg("permutation"));
  m.def(
      "broadcast_to",
      [](const PyTensor &x, nb::handle shape) {
        CallerLocation at;
        return PyTensor(ops::broadcast_to(
            x.traced("broadcast_to"), toDims(shape, "broadcast_to", "shape")));
      },
      nb::arg("x"), nb::arg("shape"));
  m.def(
      "concat",
      [](const std::vector<const PyTensor *> &inputs, int64_t axis) {
        CallerLocation at;
        return PyTensor(ops::concat(tensors(inputs, "concat"), axis));
      },
      nb::arg("inputs"), nb::arg("axis") = 0);
  m.def(
      "split",
      [](const PyTensor &x, nb::handle sizes, int64_t axis) {
        CallerLocation at;
        return wrap(ops::split(x.traced("split"),
                               toDims(sizes, "split", "sizes"), axis));
      },
      nb::arg("x"), nb::arg("sizes"), nb::arg("axis") = 0);
  m.def(
      "shape_to_tensor",
      [](nb::handle shape, Device device) {
        CallerLocation at;
        return PyTensor(ops::shape_to_tensor(
            toDims(shape, "shape_to_tensor", "shape"), device));
      },
      nb::arg("shape"), nb::arg("device") = CPU(),
      "The sizes of `shape`'s dims when the graph runs (symbolic and "
      "algebraic ones evaluated from the call's sizes), as a 1-D int64 "
      "tensor on `device`.");
  m.def(
      "slice",
      [](const PyTensor &x, const std::vector<nb::tuple> &ranges) {
        CallerLocation at;
        std::vector<ops::Range> converted;
        for (const nb::tuple &range : ranges) {
          if (range.size() < 1 || range.size() > 3)
            throw nb::value_error(
                "ops.slice: each range is (start,), (start, stop) or "
                "(start, stop, step)");
          std::string at = "ranges[" + std::to_string(converted.size()) + "]";
          ops::Range r;
          r.start = toInt64(range[0], "slice", at + " start");
          if (range.size() > 1)
            r.stop = toOptionalInt64(range[1], "slice", at + " stop");
          if (range.size() > 2)
            r.step = toInt64(range[2], "slice", at + " step");
          converted.push_back(r);
        }
        return PyTensor(ops::slice(x.traced("slice"), converted));
      },
      nb::arg("x"), nb::arg("ranges"),
      "Slices with one (start, stop, step) tuple per dim; stop None is the "
      "end.");
  m.def(
      "gather",
      [](const PyTensor &x, const PyTensor &indices, int64_t axis) {
        CallerLocation at;
        return PyTensor(
            ops::gather(x.traced("gather"), indices.traced("gather"), axis));
      },
      nb::arg("x"), nb::arg("indices"), nb::arg("axis") = 0);
  m.def(
      "conv2d",
      [](const PyTensor &x, const PyTensor &filter,
         const std::vector<int64_t> &strides,
         const std::vector<int64_t> &dilations,
         const std::vector<int64_t> &padding, int64_t groups) {
        CallerLocation at;
        return PyTensor(ops::conv2d(x.traced("conv2d"), filter.traced("conv2d"),
                                    strides, dilations, padding, groups));
      },
      nb::arg("x"), nb::arg("filter"),
      nb::arg("strides") = std::vector<int64_t>{1, 1},
      nb::arg("dilations") = std::vector<int64_t>{1, 1},
      nb::arg("padding") = std::vector<int64_t>{0, 0, 0, 0},
      nb::arg("groups") = 1,
      "2-D convolution of an NHWC image with an RSCF filter; padding is "
      "(top, bottom, left, right).");
  m.def(
      "argsort",
      [](const PyTensor &x, int64_t axis, bool descending) {
        CallerLocation at;
        return PyTensor(ops::argsort(x.traced("argsort"), axis, descending));
      },
      nb::arg("x"), nb::arg("axis") = -1, nb::arg("descending") = false,
      "The si64 positions along `axis` that sort `x`, stably.");
  m.def(
      "scatter",
      [](const PyTensor &x, const PyTensor &updates, const PyTensor &indices,
         int64_t axis, const std::string &reduction) {
        CallerLocation at;
        return PyTensor(
            ops::scatter(x.traced("scatter"), updates.traced("scatter"),
                         indices.traced("scatter"), axis, reduction));
      },
      nb::arg("x"), nb::arg("updates"), nb::arg("indices"),
      nb::arg("axis") = -1, nb::arg("reduction") = "none",
      "A copy of `x` with `updates` written at `indices` along `axis`.");
  m.def(
      "scatter_nd",
      [](const PyTensor &x, const PyTensor &updates, const PyTensor &indices,
         const std::string &reduction) {
        CallerLocation at;
        return PyTensor(ops::scatter_nd(
            x.traced("scatter_nd"), updates.traced("scatter_nd"),
            indices.traced("scatter_nd"), reduction));
      },
      nb::arg("x"), nb::arg("updates"), nb::arg("indices"),
      nb::arg("reduction") = "none",
      "A copy of `x` with the slices of `updates` written at the index "
      "vectors of `indices`.");
  m.def(
      "nonzero",
      [](const PyTensor &x, nb::handle outDim) {
        CallerLocation at;
        return PyTensor(ops::nonzero(x.traced("nonzero"),
                                     outDim.is_none()
                                         ? Dim::unknown()
                                         : toDim(outDim, "nonzero: out_dim")));
      },
      nb::arg("x"), nb::arg("out_dim").none() = nb::none(),
      "The si64 coordinates of the nonzero elements of `x`, one row each, "
      "row-major; the row count is a `?` dim known once the graph runs.");
  m.def(
      "rebind",
      [](const PyTensor &x, nb::handle shape, const std::string &message) {
        CallerLocation at;
        return PyTensor(ops::rebind(x.traced("rebind"),
                                    toDims(shape, "rebind", "shape"), message));
      },
      nb::arg("x"), nb::arg("shape"), nb::arg("message") = "",
      "`x` with the dims `shape`, asserted when the graph runs.");
  m.def(
      "masked_scatter",
      [](const PyTensor &x, const PyTensor &mask, const PyTensor &updates,
         nb::handle outDim) {
        CallerLocation at;
        return PyTensor(ops::masked_scatter(
            x.traced("masked_scatter"), mask.traced("masked_scatter"),
            updates.traced("masked_scatter"),
            outDim.is_none() ? Dim::unknown()
                             : toDim(outDim, "masked_scatter: out_dim")));
      },
      nb::arg("x"), nb::arg("mask"), nb::arg("updates"),
      nb::arg("out_dim").none() = nb::none(),
      "A copy of `x` with `updates`, in row-major order, written where "
      "`mask` is nonzero.");
  m.def(
      "print",
      [](const std::string &label, const PyTensor *value) {
        CallerLocation at;
        if (value) {
          const Tensor &traced = value->traced("print");
          ops::print(label, &traced);
        } else {
          ops::print(label);
        }
      },
      nb::arg("label"), nb::arg("value").none() = nb::none(),
      "Prints `label`, and `value`'s type and elements, when the graph "
      "runs.");
  m.def(
      "pad",
      [](const PyTensor &x, const std::vector<int64_t> &paddings,
         const std::string &mode, double value) {
        CallerLocation at;
        return PyTensor(ops::pad(x.traced("pad"), paddings, mode, value));
      },
      nb::arg("x"), nb::arg("paddings"), nb::arg("mode") = "constant",
      nb::arg("value") = 0.0,
      "Pads every dim by [before_0, after_0, before_1, after_1, ...]; mode "
      "'constant' (with `value`), 'reflect' or 'edge'.");
  m.def(
      "arange",
      [](double start, nb::handle stop, double step, DType dtype,
         Device device) {
        CallerLocation at;
        // Numbers are a range's end; a Dim or a name a length's.
        if (PyFloat_Check(stop.ptr()) ||
            (PyLong_Check(stop.ptr()) && !PyBool_Check(stop.ptr()))) {
          double end = PyFloat_AsDouble(stop.ptr());
          if (end == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            throw nb::value_error(("arange: stop " +
                                   nb::cast<std::string>(nb::str(stop)) +
                                   " does not fit in a double")
                                      .c_str());
          }
          return PyTensor(ops::arange(start, end, step, dtype, device));
        }
        return PyTensor(ops::arange(start, toDim(stop, "arange: stop"), step,
                                    dtype, device));
      },
      nb::arg("start"), nb::arg("stop"), nb::arg("step") = 1.0,
      nb::arg("dtype") = DType::Int64, nb::arg("device") = CPU(),
      "start, start + step, ... below `stop` (numpy's arange). `stop` may be "
      "a dim (a symbolic or algebraic length, with an integer start and a "
      "positive integer step).");
  m.def(
      "transfer",
      [](const PyTensor &x, Device device) {
        CallerLocation at;
        return PyTensor(ops::transfer(x.traced("transfer"), device));
      },
      nb::arg("x"), nb::arg("device"));
  m.def(
      "reshard",
      [](const PyTensor &x, nb::handle mapping) {
        std::optional<sharding::DeviceMapping> target = toMapping(mapping);
        if (!target)
          throw nb::type_error(("reshard: mapping must be a DeviceMapping, "
                                "NamedMapping or DeviceMesh, got " +
                                typeName(mapping))
                                   .c_str());
        CallerLocation at;
        return PyTensor(ops::reshard(x.traced("reshard"), *target));
      },
      nb::arg("x"), nb::arg("mapping"),
      "`x` laid out as `mapping`: the collectives and local slices that "
      "change its placements (a tensor on one device is first replicated "
      "over the mesh).");

  m.def(
      "custom",
      [](const std::string &name, const std::vector<nb::handle> &inputs,
         const std::vector<TensorLayout> &outputs,
         const std::map<std::string, std::string> &params) {
        CallerLocation at;
        std::vector<ops::KernelInput> converted;
        for (nb::handle input : inputs)
          converted.push_back(kernelInput(input));
        return wrap(ops::custom(name, converted, outputs, params));
      },
      nb::arg("name"), nb::arg("inputs"), nb::arg("outputs"),
      nb::arg("params") = std::map<std::string, std::string>(),
      "Calls kernel `name` of one of the graph's custom extensions.");

  m.def(
      "random_uniform",
      [](const PyTensor &seed, nb::handle shape, double low, double high,
         DType dtype, Device device) {
        CallerLocation at;
        return PyTensor(
            ops::random_uniform(seed.traced("random_uniform"),
                                toDims(shape, "random_uniform", "shape"), low,
                                high, dtype, device));
      },
      nb::arg("seed"), nb::arg("shape"), nb::arg("low") = 0.0,
      nb::arg("high") = 1.0, nb::arg("dtype") = DType::Float32,
      nb::arg("device") = CPU(),
      "Values uniform in [low, high), a function of `seed` (a rank-0 int64 "
      "tensor) and each element's index alone.");
  m.def(
      "random_seed",
      []() {
        CallerLocation at;
        return PyTensor(ops::random_seed());
      },
      "The graph's seed: 0 until set_random_seed; every uniform advances it.");
  m.def(
      "set_random_seed",
      [](const PyTensor &seed) {
        CallerLocation at;
        ops::set_random_seed(seed.traced("set_random_seed"));
      },
      nb::arg("seed"), "Sets the graph's seed (a rank-0 integer tensor).");
  m.def(
      "uniform",
      [](nb::handle shape, double low, double high, DType dtype,
         Device device) {
        CallerLocation at;
        return PyTensor(ops::uniform(toDims(shape, "uniform", "shape"), low,
                                     high, dtype, device));
      },
      nb::arg("shape"), nb::arg("low") = 0.0, nb::arg("high") = 1.0,
      nb::arg("dtype") = DType::Float32, nb::arg("device") = CPU(),
      "random_uniform with the graph's seed, which it advances.");
  m.def(
      "while_loop",
      [](const std::vector<nb::handle> &initial, nb::callable predicate,
         nb::callable body) {
        CallerLocation at;
        std::vector<Tensor> values;
        for (nb::handle value : initial)
          values.push_back(
              regionValue(value, "while_loop", "initial value", values.size()));
        return wrap(ops::while_loop(
            values,
            [&](const std::vector<Tensor> &carried) {
              nb::object result = predicate(*regionArguments(carried));
              return regionValue(result, "while_loop", "predicate's result", 0);
            },
            [&](const std::vector<Tensor> &carried) {
              return regionResults(body(*regionArguments(carried)),
                                   "while_loop", "body");
            }));
      },
      nb::arg("initial"), nb::arg("predicate"), nb::arg("body"),
      "Carries `initial` while `predicate(*values)` is true, replacing the "
      "values with `body(*values)` each round; both are traced once.");
  m.def(
      "cond",
      [](const PyTensor &pred, nb::callable thenFn, nb::callable elseFn) {
        CallerLocation at;
        auto branch = [](nb::callable fn, const char *what) {
          return [fn, what](const std::vector<Tensor> &) {
            return regionResults(fn(), "cond", what);
          };
        };
        return wrap(ops::cond(pred.traced("cond"), branch(thenFn, "then_fn"),
                              branch(elseFn, "else_fn")));
      },
      nb::arg("pred"), nb::arg("then_fn"), nb::arg("else_fn"),
      "The results of `then_fn()` when `pred` holds, else of `else_fn()`.");

  defCollective<ops::allreduce_sum>(m, "allreduce_sum");
  defCollective<ops::allreduce_max>(m, "allreduce_max");
  defCollective<ops::allreduce_min>(m, "allreduce_min");
  defCollective<ops::allreduce_prod>(m, "allreduce_prod");
  defAxisCollective<ops::allgather>(m, "allgather", "axis");
  defAxisCollective<ops::reduce_scatter_sum>(m, "reduce_scatter_sum", "axis");
  defAxisCollective<ops::broadcast>(m, "broadcast", "root");
}
