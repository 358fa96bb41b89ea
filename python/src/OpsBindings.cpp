//===- OpsBindings.cpp - maxgraph.ops: one function per op ----------------===//

#include "Bindings.h"
#include "MaxGraph/Staging/Ops.h"
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
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

std::vector<PyTensor> wrap(std::vector<Tensor> results) {
  std::vector<PyTensor> wrapped;
  for (Tensor &result : results)
    wrapped.emplace_back(std::move(result));
  return wrapped;
}

/// Axes of a reduction: one int or a sequence.
std::vector<int64_t> axes(nb::handle object) {
  if (nb::isinstance<int>(object))
    return {nb::cast<int64_t>(object)};
  std::vector<int64_t> result;
  if (!nb::try_cast(object, result))
    throw nb::type_error(
        ("axis is an int or a sequence of ints (64-bit), got " +
         nb::cast<std::string>(nb::repr(object)))
            .c_str());
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
        return PyTensor(
            fn(x.traced(name), axes(axis), keepDims, SourceLoc::current()));
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
  throw nb::type_error(("ops.custom: an input is a Tensor or a Buffer, got " +
                        nb::cast<std::string>(nb::repr(object.type())))
                           .c_str());
}

/// `None`, or an int as the stop of a range.
std::optional<int64_t> optionalInt(nb::handle object) {
  if (object.is_none())
    return std::nullopt;
  return nb::cast<int64_t>(object);
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
      "constant",
      [](nb::handle value, DType dtype, Device device) {
        CallerLocation at;
        if (nb::isinstance<nb::float_>(value) || nb::isinstance<int>(value))
          return PyTensor(
              ops::constant(nb::cast<double>(value), dtype, device));
        // Anything numpy can read: nested lists, arrays.
        nb::object numpy = nb::module_::import_("numpy");
        nb::object array = numpy.attr("asarray")(value, "float64");
        std::vector<Dim> shape;
        for (nb::handle size : array.attr("shape"))
          shape.push_back(Dim(nb::cast<int64_t>(size)));
        std::vector<double> values = nb::cast<std::vector<double>>(
            array.attr("reshape")(-1).attr("tolist")());
        return PyTensor(ops::constant(values, dtype, shape, device));
      },
      nb::arg("value"), nb::arg("dtype") = DType::Float32,
      nb::arg("device") = CPU(),
      "A constant: a number (rank 0) or anything numpy reads as an array.");

  m.def(
      "matmul",
      [](const PyTensor &lhs, const PyTensor &rhs) {
        CallerLocation at;
        return PyTensor(
            ops::matmul(lhs.traced("matmul"), rhs.traced("matmul")));
      },
      nb::arg("lhs"), nb::arg("rhs"));

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
        return PyTensor(ops::reshape(x.traced("reshape"), toDims(shape)));
      },
      nb::arg("x"), nb::arg("shape"));
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
        return PyTensor(
            ops::broadcast_to(x.traced("broadcast_to"), toDims(shape)));
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
        return wrap(ops::split(x.traced("split"), toDims(sizes), axis));
      },
      nb::arg("x"), nb::arg("sizes"), nb::arg("axis") = 0);
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
          ops::Range r;
          r.start = nb::cast<int64_t>(range[0]);
          if (range.size() > 1)
            r.stop = optionalInt(range[1]);
          if (range.size() > 2)
            r.step = nb::cast<int64_t>(range[2]);
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
      "transfer",
      [](const PyTensor &x, Device device) {
        CallerLocation at;
        return PyTensor(ops::transfer(x.traced("transfer"), device));
      },
      nb::arg("x"), nb::arg("device"));

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

  defCollective<ops::allreduce_sum>(m, "allreduce_sum");
  defCollective<ops::allreduce_max>(m, "allreduce_max");
  defCollective<ops::allreduce_min>(m, "allreduce_min");
  defCollective<ops::allreduce_prod>(m, "allreduce_prod");
  defAxisCollective<ops::allgather>(m, "allgather", "axis");
  defAxisCollective<ops::reduce_scatter_sum>(m, "reduce_scatter_sum", "axis");
  defAxisCollective<ops::broadcast>(m, "broadcast", "root");
}
