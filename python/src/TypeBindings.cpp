//===- TypeBindings.cpp - DType, Device, TensorLayout, BufferLayout -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "Bindings.h"
#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Device.h"
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace maxgraph;
using namespace maxgraph::python;

std::string maxgraph::python::typeName(nb::handle object) {
  return nb::cast<std::string>(nb::repr(object.type()));
}

bool maxgraph::python::isInt(nb::handle object) {
  return !PyBool_Check(object.ptr()) && PyIndex_Check(object.ptr());
}

int64_t maxgraph::python::toInt64(nb::handle object,
                                  const std::string &function,
                                  const std::string &argument,
                                  const char *expected) {
  auto wrongType = [&] {
    return nb::type_error((function + ": " + argument + " must be " + expected +
                           ", got " + typeName(object))
                              .c_str());
  };
  if (!isInt(object))
    throw wrongType();
  // `__index__` may still refuse (a numpy array of floats, of two ints).
  nb::object index = nb::steal(PyNumber_Index(object.ptr()));
  if (!index.is_valid()) {
    PyErr_Clear();
    throw wrongType();
  }
  int overflow = 0;
  long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow)
    throw nb::value_error((function + ": " + argument + " " +
                           nb::cast<std::string>(nb::str(index)) +
                           " does not fit in 64 bits")
                              .c_str());
  return value;
}

std::optional<int64_t>
maxgraph::python::toOptionalInt64(nb::handle object,
                                  const std::string &function,
                                  const std::string &argument) {
  if (object.is_none())
    return std::nullopt;
  return toInt64(object, function, argument, "an int or None");
}

std::optional<bool>
maxgraph::python::toOptionalBool(nb::handle object, const std::string &function,
                                 const std::string &argument) {
  if (object.is_none())
    return std::nullopt;
  if (PyBool_Check(object.ptr()))
    return object.ptr() == Py_True;
  throw nb::type_error((function + ": " + argument +
                        " must be a bool or None, got " + typeName(object))
                           .c_str());
}

Dim maxgraph::python::toDim(nb::handle object, const std::string &what) {
  std::string prefix = what.empty() ? "" : what + ": ";
  if (nb::isinstance<Dim>(object))
    return nb::cast<Dim>(object);
  if (nb::isinstance<bool>(object))
    throw nb::type_error(
        (prefix + "a dim is an int or a symbolic name, not a bool").c_str());
  // PyLong_Check, not isinstance<int>: nanobind's int check fails for
  // values beyond 32 bits.
  if (PyLong_Check(object.ptr())) {
    int overflow = 0;
    long long size = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
    if (overflow)
      throw nb::value_error((prefix + "a static dim must fit in 63 bits, got " +
                             nb::cast<std::string>(nb::str(object)))
                                .c_str());
    if (size < 0)
      throw nb::value_error((prefix +
                             "a static dim must not be negative, got " +
                             std::to_string(size))
                                .c_str());
    return Dim(size);
  }
  if (nb::isinstance<nb::str>(object)) {
    std::string name = nb::cast<std::string>(object);
    if (name == "?")
      return Dim::unknown();
    return Dim(name);
  }
  throw nb::type_error((prefix +
                        "a dim is an int or a symbolic name (str), got " +
                        typeName(object))
                           .c_str());
}

std::vector<Dim> maxgraph::python::toDims(nb::handle sequence,
                                          const std::string &function,
                                          const std::string &argument) {
  if (nb::isinstance<nb::str>(sequence) || !nb::hasattr(sequence, "__iter__"))
    throw nb::type_error((function + ": " + argument +
                          " must be a shape: a shape is a sequence of ints "
                          "and symbolic names, got " +
                          typeName(sequence))
                             .c_str());
  std::vector<Dim> dims;
  for (nb::handle item : sequence)
    dims.push_back(toDim(item, function + ": " + argument + "[" +
                                   std::to_string(dims.size()) + "]"));
  return dims;
}

nb::object maxgraph::python::fromDim(const Dim &dim) {
  if (dim.isStatic())
    return nb::int_(dim.staticSize());
  return nb::str(dim.str().c_str());
}

namespace {
/// The other operand of Dim arithmetic: a Dim or a Python int (not a
/// bool); nullopt for anything else, which Python then tries reflected.
std::optional<Dim> dimOperand(nb::handle object) {
  if (nb::isinstance<Dim>(object))
    return nb::cast<Dim>(object);
  if (PyLong_Check(object.ptr()) && !PyBool_Check(object.ptr())) {
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
    if (overflow)
      throw nb::value_error(
          ("Dim arithmetic: " + nb::cast<std::string>(nb::str(object)) +
           " does not fit in 64 bits")
              .c_str());
    if (value < 0)
      return std::nullopt; // Handled by the callers (x + -1 is x - 1).
    return Dim(value);
  }
  return std::nullopt;
}

/// Python's int of a negative int operand (dimOperand leaves them out).
std::optional<int64_t> negativeInt(nb::handle object) {
  if (!PyLong_Check(object.ptr()) || PyBool_Check(object.ptr()))
    return std::nullopt;
  int overflow = 0;
  long long value = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
  if (overflow || value >= 0)
    return std::nullopt;
  return value;
}

nb::object notImplemented() { return nb::borrow(Py_NotImplemented); }

std::string dimRepr(const Dim &dim) {
  if (dim.isStatic())
    return "Dim(" + dim.str() + ")";
  return "Dim('" + dim.str() + "')";
}

/// `dim == other`: a Dim, an int (a static dim of that size) or a str (the
/// dim's text: a symbol's name, `batch * 4`, `?`).
bool dimEquals(const Dim &dim, nb::handle other) {
  if (nb::isinstance<nb::str>(other))
    return dim.str() == nb::cast<std::string>(other);
  if (std::optional<Dim> operand = dimOperand(other))
    return dim == *operand;
  return false;
}

void bindDim(nb::module_ &m) {
  nb::class_<Dim>(
      m, "Dim",
      "One dim of a traced tensor's shape: static (`4`), symbolic "
      "(`batch`) or an expression of those (`batch * 4`), printed as the "
      "dialect prints it. Dims combine with `+ - *` (with ints and other "
      "dims) and `//` (by a positive int); they compare equal to ints "
      "(static dims) and to their text (`'batch * 4'`). Shapes take them "
      "wherever they take ints and names.")
      .def(
          "__init__",
          [](Dim *self, nb::handle value) {
            new (self) Dim(toDim(value, "Dim"));
          },
          nb::arg("value"))
      .def_prop_ro("is_static", &Dim::isStatic)
      .def_prop_ro("is_symbolic", &Dim::isSymbolic)
      .def_prop_ro("is_algebraic", &Dim::isAlgebraic)
      .def("__int__",
           [](const Dim &dim) {
             if (!dim.isStatic())
               throw nb::type_error(
                   ("int() of the dim " + dim.str() + ", which is not static")
                       .c_str());
             return dim.staticSize();
           })
      .def("__index__",
           [](const Dim &dim) {
             if (!dim.isStatic())
               throw nb::type_error(
                   ("the dim " + dim.str() +
                    " is not static: it has no size to use as an int")
                       .c_str());
             return dim.staticSize();
           })
      .def("__str__", &Dim::str)
      .def("__repr__", &dimRepr)
      .def("__eq__", &dimEquals, nb::arg("other").none())
      .def(
          "__ne__",
          [](const Dim &dim, nb::handle other) {
            return !dimEquals(dim, other);
          },
          nb::arg("other").none())
      // Equal values hash equal: a static dim as its int, others as their
      // text.
      .def("__hash__",
           [](const Dim &dim) {
             if (dim.isStatic())
               return nb::hash(nb::int_(dim.staticSize()));
             return nb::hash(nb::str(dim.str().c_str()));
           })
      .def(
          "__add__",
          [](const Dim &a, nb::handle b) -> nb::object {
            if (std::optional<int64_t> negative = negativeInt(b))
              return nb::cast(a - Dim(-*negative));
            if (std::optional<Dim> rhs = dimOperand(b))
              return nb::cast(a + *rhs);
            return notImplemented();
          },
          nb::is_operator())
      .def(
          "__radd__",
          [](const Dim &a, nb::handle b) -> nb::object {
            if (std::optional<int64_t> negative = negativeInt(b))
              return nb::cast(a - Dim(-*negative));
            if (std::optional<Dim> lhs = dimOperand(b))
              return nb::cast(*lhs + a);
            return notImplemented();
          },
          nb::is_operator())
      .def(
          "__sub__",
          [](const Dim &a, nb::handle b) -> nb::object {
            if (std::optional<int64_t> negative = negativeInt(b))
              return nb::cast(a + Dim(-*negative));
            if (std::optional<Dim> rhs = dimOperand(b))
              return nb::cast(a - *rhs);
            return notImplemented();
          },
          nb::is_operator())
      .def(
          "__rsub__",
          [](const Dim &a, nb::handle b) -> nb::object {
            if (std::optional<Dim> lhs = dimOperand(b))
              return nb::cast(*lhs - a);
            return notImplemented();
          },
          nb::is_operator())
      .def(
          "__mul__",
          [](const Dim &a, nb::handle b) -> nb::object {
            if (std::optional<Dim> rhs = dimOperand(b))
              return nb::cast(a * *rhs);
            return notImplemented();
          },
          nb::is_operator())
      .def(
          "__rmul__",
          [](const Dim &a, nb::handle b) -> nb::object {
            if (std::optional<Dim> lhs = dimOperand(b))
              return nb::cast(*lhs * a);
            return notImplemented();
          },
          nb::is_operator())
      .def(
          "__floordiv__",
          [](const Dim &a, nb::handle b) -> nb::object {
            std::optional<Dim> rhs = dimOperand(b);
            bool negative = negativeInt(b).has_value();
            if (!rhs && !negative)
              return notImplemented();
            if (negative || !rhs->isStatic() || rhs->staticSize() == 0)
              throw nb::value_error(
                  ("Dim //: the divisor must be a positive int or a static "
                   "dim, got " +
                   nb::cast<std::string>(nb::str(b)))
                      .c_str());
            return nb::cast(floordiv(a, rhs->staticSize()));
          },
          nb::is_operator());
}
} // namespace

static nb::list shapeList(const std::vector<Dim> &dims) {
  nb::list list;
  for (const Dim &dim : dims)
    list.append(fromDim(dim));
  return list;
}

static std::string deviceRepr(const Device &device) {
  return std::string(device.kind == Device::Kind::CPU ? "CPU(" : "GPU(") +
         std::to_string(device.id) + ")";
}

static std::string layoutRepr(const Layout &layout) {
  std::string text = layout.isBuffer() ? "BufferLayout(" : "TensorLayout(";
  text += "DType." + numpyName(layout.dtype()) + ", [";
  for (size_t i = 0; i < layout.shape().size(); ++i) {
    const Dim &dim = layout.shape()[i];
    text += i ? ", " : "";
    text += dim.isStatic() ? dim.str() : "'" + dim.str() + "'";
  }
  if (layout.mapping())
    return text + "], " + layout.mapping()->str() + ")";
  return text + "], " + deviceRepr(layout.device()) + ")";
}

nb::object maxgraph::python::tracedShape(const std::vector<Dim> &dims) {
  nb::list shape;
  for (const Dim &dim : dims)
    shape.append(nb::cast(dim));
  return shape;
}

void maxgraph::python::bindTypes(nb::module_ &m) {
  bindDim(m);
  nb::enum_<DType>(m, "DType", "The element type of a tensor.")
      .value("float16", DType::Float16)
      .value("bfloat16", DType::BFloat16)
      .value("float32", DType::Float32)
      .value("float64", DType::Float64)
      .value("bool", DType::Bool)
      .value("int8", DType::Int8)
      .value("int16", DType::Int16)
      .value("int32", DType::Int32)
      .value("int64", DType::Int64)
      .value("uint8", DType::UInt8)
      .value("uint16", DType::UInt16)
      .value("uint32", DType::UInt32)
      .value("uint64", DType::UInt64)
      .value("float8_e4m3fn", DType::Float8E4M3FN)
      .value("float8_e5m2", DType::Float8E5M2);
  m.def("dtype_size", &sizeInBytes, nb::arg("dtype"),
        "Bytes per element of `dtype`.");
  m.def("dtype_is_float", &isFloat, nb::arg("dtype"));
  m.def(
      "dtype_mlir_name", [](DType dtype) { return toString(dtype); },
      nb::arg("dtype"), "The MLIR spelling: `f32`, `si64`, `i1`, ...");

  nb::class_<Device>(m, "Device", "A device: the host CPU or a GPU.")
      .def_prop_ro("kind",
                   [](const Device &device) {
                     return device.kind == Device::Kind::CPU ? "cpu" : "gpu";
                   })
      .def_ro("id", &Device::id)
      // Anything else is unequal, not a TypeError (`CPU() == None`).
      .def(
          "__eq__",
          [](const Device &a, nb::handle b) {
            return nb::isinstance<Device>(b) && a == nb::cast<Device>(b);
          },
          nb::arg("other").none())
      .def("__hash__",
           [](const Device &device) {
             return static_cast<int>(device.kind) * 1000003 + device.id;
           })
      .def("__repr__", &deviceRepr)
      .def("__str__", &Device::str);
  m.def(
      "CPU", [](int id) { return CPU(id); }, nb::arg("id") = 0,
      "The CPU with the given index; `CPU()` is the host.");
  m.def(
      "GPU", [](int id) { return GPU(id); }, nb::arg("id") = 0,
      "The GPU with the given index.");

  nb::class_<Layout>(m, "Layout",
                     "What a spec describes: dtype, shape and device.")
      .def_prop_ro("dtype", &Layout::dtype)
      .def_prop_ro(
          "shape",
          [](const Layout &layout) { return shapeList(layout.shape()); })
      .def_prop_ro("device", &Layout::device)
      .def_prop_ro("rank", &Layout::rank)
      .def_prop_ro("is_distributed", &Layout::isDistributed)
      .def_prop_ro("mapping",
                   [](const Layout &layout) -> nb::object {
                     return layout.mapping() ? nb::cast(*layout.mapping())
                                             : nb::none();
                   })
      .def(
          "__eq__",
          [](const Layout &a, nb::handle b) {
            return nb::isinstance<Layout>(b) &&
                   a == nb::cast<const Layout &>(b);
          },
          nb::arg("other").none())
      .def("__hash__",
           [](const Layout &layout) {
             return nb::hash(nb::str(layout.str().c_str()));
           })
      .def("__str__", &Layout::str)
      .def("__repr__", &layoutRepr);

  nb::class_<TensorLayout, Layout>(
      m, "TensorLayout",
      "A read-only tensor spec: dtype, shape (ints and symbolic names) and "
      "device.")
      .def(
          "__init__",
          [](TensorLayout *self, DType dtype, nb::handle shape,
             nb::handle device) {
            std::vector<Dim> dims = toDims(shape, "TensorLayout", "shape");
            if (std::optional<sharding::DeviceMapping> mapping =
                    toMapping(device)) {
              CallerLocation at;
              new (self) TensorLayout(dtype, std::move(dims), *mapping);
              return;
            }
            if (!nb::isinstance<Device>(device))
              throw nb::type_error(
                  ("TensorLayout: device must be a Device, DeviceMesh, "
                   "DeviceMapping or NamedMapping, got " +
                   typeName(device))
                      .c_str());
            new (self)
                TensorLayout(dtype, std::move(dims), nb::cast<Device>(device));
          },
          nb::arg("dtype"), nb::arg("shape"), nb::arg("device") = CPU(),
          "`device` is a Device, or a DeviceMesh (replicated), DeviceMapping "
          "or NamedMapping: a tensor over a mesh, whose `shape` is global; "
          "the graph takes one argument per device, its shard.");
  nb::class_<BufferLayout, Layout>(
      m, "BufferLayout",
      "A buffer spec: storage the staged graph may also store through; the "
      "store reaches the caller's tensor.")
      .def(
          "__init__",
          [](BufferLayout *self, DType dtype, nb::handle shape, Device device) {
            new (self) BufferLayout(
                dtype, toDims(shape, "BufferLayout", "shape"), device);
          },
          nb::arg("dtype"), nb::arg("shape"), nb::arg("device") = CPU());
}
