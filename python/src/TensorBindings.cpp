//===- TensorBindings.cpp - Tensor and Buffer -----------------------------===//
//
// `Tensor` is both the traced value inside stage() and the live tensor that
// holds data; operators on traced tensors stage ops at the caller's line.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "MaxGraph/Runtime/CompiledGraph.h"
#include "MaxGraph/Staging/Ops.h"
#include <cstring>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace maxgraph;
using namespace maxgraph::python;

const Tensor &PyTensor::traced(const char *what) const {
  if (const Tensor *tensor = std::get_if<Tensor>(&value))
    return *tensor;
  throw nb::type_error(
      (std::string(what) +
       ": this is a live tensor (it holds data); ops run only on the traced "
       "tensors of a staged function: stage() or compile() the function "
       "instead of running it eagerly")
          .c_str());
}

const HostTensor &PyTensor::live(const char *what) const {
  if (const HostTensor *tensor = std::get_if<HostTensor>(&value))
    return *tensor;
  throw nb::type_error(
      (std::string(what) +
       ": this tensor is being traced and has no data yet; data exists only "
       "for the inputs and results of a compiled graph")
          .c_str());
}

/// A binary operand: a Tensor or a Python number.
Operand maxgraph::python::toOperand(nb::handle object, const char *op) {
  if (nb::isinstance<PyTensor>(object))
    return Operand(nb::cast<const PyTensor &>(object).traced(op));
  if (nb::isinstance<bool>(object))
    return Operand(nb::cast<bool>(object) ? 1.0 : 0.0);
  if (nb::isinstance<int>(object))
    return Operand(nb::cast<int64_t>(object));
  if (nb::isinstance<nb::float_>(object))
    return Operand(nb::cast<double>(object));
  throw nb::type_error((std::string(op) +
                        ": expected a Tensor or a number, got " +
                        nb::cast<std::string>(nb::repr(object.type())))
                           .c_str());
}

namespace {
using BinaryFn = Tensor (*)(const Operand &, const Operand &);

template <BinaryFn fn>
PyTensor binary(nb::handle lhs, nb::handle rhs, const char *op) {
  CallerLocation at;
  return PyTensor(fn(toOperand(lhs, op), toOperand(rhs, op)));
}

Tensor addFn(const Operand &a, const Operand &b) { return ops::add(a, b); }
Tensor subFn(const Operand &a, const Operand &b) { return ops::sub(a, b); }
Tensor mulFn(const Operand &a, const Operand &b) { return ops::mul(a, b); }
Tensor divFn(const Operand &a, const Operand &b) { return ops::div(a, b); }
Tensor modFn(const Operand &a, const Operand &b) { return ops::mod(a, b); }
Tensor powFn(const Operand &a, const Operand &b) { return ops::pow(a, b); }
Tensor eqFn(const Operand &a, const Operand &b) { return ops::equal(a, b); }
Tensor neFn(const Operand &a, const Operand &b) { return ops::not_equal(a, b); }
Tensor ltFn(const Operand &a, const Operand &b) { return ops::less(a, b); }
Tensor leFn(const Operand &a, const Operand &b) {
  return ops::less_equal(a, b);
}
Tensor gtFn(const Operand &a, const Operand &b) { return ops::greater(a, b); }
Tensor geFn(const Operand &a, const Operand &b) {
  return ops::greater_equal(a, b);
}
// `&`, `|`, `^` and `~` are bitwise, as numpy's operators (logical on
// bools).
Tensor andFn(const Operand &a, const Operand &b) {
  return ops::bitwise_and(a, b);
}
Tensor orFn(const Operand &a, const Operand &b) {
  return ops::bitwise_or(a, b);
}
Tensor xorFn(const Operand &a, const Operand &b) {
  return ops::bitwise_xor(a, b);
}

nb::dlpack::dtype toDLPack(DType dtype) {
  using Code = nb::dlpack::dtype_code;
  auto make = [](Code code, int bits) {
    return nb::dlpack::dtype{static_cast<uint8_t>(code),
                             static_cast<uint8_t>(bits), 1};
  };
  switch (dtype) {
  case DType::Float16:
    return make(Code::Float, 16);
  case DType::BFloat16:
    return make(Code::Bfloat, 16);
  case DType::Float32:
    return make(Code::Float, 32);
  case DType::Float64:
    return make(Code::Float, 64);
  case DType::Bool:
    return make(Code::Bool, 8);
  case DType::Int8:
    return make(Code::Int, 8);
  case DType::Int16:
    return make(Code::Int, 16);
  case DType::Int32:
    return make(Code::Int, 32);
  case DType::Int64:
    return make(Code::Int, 64);
  case DType::UInt8:
    return make(Code::UInt, 8);
  case DType::UInt16:
    return make(Code::UInt, 16);
  case DType::UInt32:
    return make(Code::UInt, 32);
  case DType::UInt64:
    return make(Code::UInt, 64);
  }
  return make(Code::Float, 32);
}

DType fromDLPack(nb::dlpack::dtype dtype) {
  using Code = nb::dlpack::dtype_code;
  auto code = static_cast<Code>(dtype.code);
  if (dtype.lanes == 1) {
    switch (code) {
    case Code::Float:
      if (dtype.bits == 16)
        return DType::Float16;
      if (dtype.bits == 32)
        return DType::Float32;
      if (dtype.bits == 64)
        return DType::Float64;
      break;
    case Code::Bfloat:
      if (dtype.bits == 16)
        return DType::BFloat16;
      break;
    case Code::Bool:
      return DType::Bool;
    case Code::Int:
      switch (dtype.bits) {
      case 8:
        return DType::Int8;
      case 16:
        return DType::Int16;
      case 32:
        return DType::Int32;
      case 64:
        return DType::Int64;
      }
      break;
    case Code::UInt:
      switch (dtype.bits) {
      case 8:
        return DType::UInt8;
      case 16:
        return DType::UInt16;
      case 32:
        return DType::UInt32;
      case 64:
        return DType::UInt64;
      }
      break;
    default:
      break;
    }
  }
  throw nb::type_error(("Tensor.from_numpy: no maxgraph dtype for an array "
                        "of dlpack type code " +
                        std::to_string(dtype.code) + " with " +
                        std::to_string(dtype.bits) + " bits")
                           .c_str());
}

using InputArray = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;

PyTensor fromNumpy(InputArray array, Device device) {
  std::vector<int64_t> shape;
  for (size_t i = 0; i < array.ndim(); ++i)
    shape.push_back(static_cast<int64_t>(array.shape(i)));
  HostTensor tensor(fromDLPack(array.dtype()), shape, device);
  if (array.nbytes())
    std::memcpy(tensor.rawData(), array.data(), array.nbytes());
  return PyTensor(std::move(tensor));
}

nb::object toNumpy(const PyTensor &self) {
  const HostTensor &tensor = self.live("Tensor.to_numpy");
  if (tensor.dtype() == DType::BFloat16)
    throw nb::type_error("Tensor.to_numpy: numpy has no bfloat16; cast the "
                         "result to float32 in the graph");
  // The array owns a deep copy, so writing to it does not change the tensor.
  auto *copy = new HostTensor(tensor.clone());
  nb::capsule owner(copy, [](void *pointer) noexcept {
    delete static_cast<HostTensor *>(pointer);
  });
  std::vector<size_t> shape(copy->shape().begin(), copy->shape().end());
  return nb::ndarray<nb::numpy>(copy->rawData(), shape.size(), shape.data(),
                                owner, nullptr, toDLPack(copy->dtype()))
      .cast();
}

TensorLayout tensorLayoutOf(const PyTensor &self) {
  if (const HostTensor *tensor = std::get_if<HostTensor>(&self.value))
    return maxgraph::layoutOf(*tensor);
  return std::get<Tensor>(self.value).layout();
}

/// Python's `x[...]`: ints, slices (positive steps) and one Ellipsis.
PyTensor getItem(const PyTensor &self, nb::handle key) {
  CallerLocation at;
  const Tensor &x = self.traced("Tensor.__getitem__");
  std::vector<nb::handle> items;
  if (nb::isinstance<nb::tuple>(key)) {
    for (nb::handle item : nb::borrow<nb::tuple>(key))
      items.push_back(item);
  } else {
    items.push_back(key);
  }
  int64_t rank = x.rank();
  int64_t ellipses = 0;
  for (nb::handle item : items)
    ellipses += item.is(Py_Ellipsis);
  if (ellipses > 1)
    throw nb::index_error("Tensor indexing: at most one '...'");
  int64_t explicitDims = items.size() - ellipses;
  if (explicitDims > rank)
    throw nb::index_error(("Tensor indexing: " + std::to_string(explicitDims) +
                           " indices for a tensor of rank " +
                           std::to_string(rank))
                              .c_str());
  std::vector<ops::Range> ranges;
  std::vector<bool> dropped;
  for (nb::handle item : items) {
    if (item.is(Py_Ellipsis)) {
      for (int64_t i = 0; i < rank - explicitDims; ++i) {
        ranges.push_back(ops::Range{});
        dropped.push_back(false);
      }
    } else if (nb::isinstance<nb::slice>(item)) {
      ops::Range range;
      nb::object start = item.attr("start"), stop = item.attr("stop"),
                 step = item.attr("step");
      if (!step.is_none())
        range.step = nb::cast<int64_t>(step);
      if (range.step <= 0)
        throw nb::index_error("Tensor indexing: slice steps must be positive");
      if (!start.is_none())
        range.start = nb::cast<int64_t>(start);
      if (!stop.is_none())
        range.stop = nb::cast<int64_t>(stop);
      ranges.push_back(range);
      dropped.push_back(false);
    } else if (nb::isinstance<int>(item) && !nb::isinstance<bool>(item)) {
      int64_t index = nb::cast<int64_t>(item);
      ops::Range range{index, index + 1, 1};
      if (index == -1)
        range.stop = std::nullopt;
      ranges.push_back(range);
      dropped.push_back(true);
    } else {
      throw nb::type_error(
          ("Tensor indexing takes ints, slices and '...', got " +
           nb::cast<std::string>(nb::repr(item.type())))
              .c_str());
    }
  }
  while (static_cast<int64_t>(ranges.size()) < rank) {
    ranges.push_back(ops::Range{});
    dropped.push_back(false);
  }
  Tensor sliced = ops::slice(x, ranges);
  if (std::find(dropped.begin(), dropped.end(), true) == dropped.end())
    return PyTensor(sliced);
  std::vector<Dim> shape;
  std::vector<Dim> slicedShape = sliced.shape();
  for (size_t i = 0; i < slicedShape.size(); ++i)
    if (!dropped[i])
      shape.push_back(slicedShape[i]);
  return PyTensor(ops::reshape(sliced, shape));
}
} // namespace

void maxgraph::python::bindTensor(nb::module_ &m) {
  auto tensor = nb::class_<PyTensor>(
      m, "Tensor",
      "A tensor: inside a staged function, a traced value whose operators "
      "stage ops; outside, a live tensor holding data "
      "(`Tensor.from_numpy`, or the result of a compiled graph).");
  tensor
      .def_static("from_numpy", &fromNumpy, nb::arg("array"),
                  nb::arg("device") = CPU(),
                  "A live tensor holding a copy of `array`'s data.")
      .def("to_numpy", &toNumpy,
           "A numpy array holding a copy of this live tensor's data.")
      .def(
          "__array__",
          [](const PyTensor &self, nb::handle dtype, nb::handle) {
            nb::object array = toNumpy(self);
            if (!dtype.is_none())
              return array.attr("astype")(dtype);
            return array;
          },
          nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none())
      .def_prop_ro("layout", &tensorLayoutOf,
                   "The TensorLayout of this tensor (for a live tensor, "
                   "every dim fixed to its size).")
      .def_prop_ro(
          "dtype",
          [](const PyTensor &self) { return tensorLayoutOf(self).dtype(); })
      .def_prop_ro("shape",
                   [](const PyTensor &self) {
                     TensorLayout layout = tensorLayoutOf(self);
                     nb::list shape;
                     for (const Dim &dim : layout.shape())
                       shape.append(fromDim(dim));
                     return shape;
                   })
      .def_prop_ro(
          "device",
          [](const PyTensor &self) { return tensorLayoutOf(self).device(); })
      .def_prop_ro(
          "rank",
          [](const PyTensor &self) { return tensorLayoutOf(self).rank(); })
      .def_prop_ro("is_live", &PyTensor::isLive,
                   "Whether this tensor holds data (else it is being traced).")
      .def_prop_ro(
          "T",
          [](const PyTensor &self) {
            CallerLocation at;
            const Tensor &x = self.traced("Tensor.T");
            int64_t rank = x.rank();
            if (rank < 2)
              return PyTensor(x);
            std::vector<int64_t> permutation;
            for (int64_t i = 0; i < rank; ++i)
              permutation.push_back(i);
            std::swap(permutation[rank - 1], permutation[rank - 2]);
            return PyTensor(ops::transpose(x, permutation));
          },
          "The tensor with its last two dims swapped.")
      .def("__getitem__", &getItem)
      .def("__neg__",
           [](const PyTensor &self) {
             CallerLocation at;
             return PyTensor(ops::neg(self.traced("-x")));
           })
      .def("__abs__",
           [](const PyTensor &self) {
             CallerLocation at;
             return PyTensor(ops::abs(self.traced("abs(x)")));
           })
      .def("__invert__",
           [](const PyTensor &self) {
             CallerLocation at;
             return PyTensor(ops::bitwise_not(self.traced("~x")));
           })
      .def("__matmul__",
           [](const PyTensor &self, const PyTensor &other) {
             CallerLocation at;
             return PyTensor(ops::matmul(self.traced("@"), other.traced("@")));
           })
      .def("__rmatmul__",
           [](const PyTensor &self, const PyTensor &other) {
             CallerLocation at;
             return PyTensor(ops::matmul(other.traced("@"), self.traced("@")));
           })
      .def("__bool__",
           [](const PyTensor &) -> bool {
             throw nb::type_error(
                 "the truth value of a Tensor is unknown while tracing; use "
                 "ops.select or a comparison result as a tensor");
           })
      .def("__len__",
           [](const PyTensor &self) -> int64_t {
             TensorLayout layout = tensorLayoutOf(self);
             if (layout.rank() == 0)
               throw nb::type_error("len() of a rank-0 tensor");
             const Dim &dim = layout.shape()[0];
             if (!dim.isStatic())
               throw nb::type_error(
                   ("len() of a tensor whose first dim is symbolic (" +
                    dim.str() + ")")
                       .c_str());
             return dim.staticSize();
           })
      .def("__repr__", [](const PyTensor &self) {
        std::string kind = self.isLive() ? "Tensor(live, " : "Tensor(traced, ";
        return kind + tensorLayoutOf(self).str() + ")";
      });

#define MAXGRAPH_BINARY(PY, RPY, FN, SYMBOL)                                   \
  tensor.def(PY, [](nb::handle a, nb::handle b) {                              \
    return binary<FN>(a, b, SYMBOL);                                           \
  });                                                                          \
  tensor.def(RPY, [](nb::handle a, nb::handle b) {                             \
    return binary<FN>(b, a, SYMBOL);                                           \
  });
  MAXGRAPH_BINARY("__add__", "__radd__", addFn, "+")
  MAXGRAPH_BINARY("__sub__", "__rsub__", subFn, "-")
  MAXGRAPH_BINARY("__mul__", "__rmul__", mulFn, "*")
  MAXGRAPH_BINARY("__truediv__", "__rtruediv__", divFn, "/")
  MAXGRAPH_BINARY("__mod__", "__rmod__", modFn, "%")
  MAXGRAPH_BINARY("__pow__", "__rpow__", powFn, "**")
  MAXGRAPH_BINARY("__and__", "__rand__", andFn, "&")
  MAXGRAPH_BINARY("__or__", "__ror__", orFn, "|")
  MAXGRAPH_BINARY("__xor__", "__rxor__", xorFn, "^")
#undef MAXGRAPH_BINARY
  // Comparisons reflect to the swapped comparison, as Python does.
  tensor.def("__eq__", [](nb::handle a, nb::handle b) {
    return binary<eqFn>(a, b, "==");
  });
  tensor.def("__ne__", [](nb::handle a, nb::handle b) {
    return binary<neFn>(a, b, "!=");
  });
  tensor.def("__lt__", [](nb::handle a, nb::handle b) {
    return binary<ltFn>(a, b, "<");
  });
  tensor.def("__le__", [](nb::handle a, nb::handle b) {
    return binary<leFn>(a, b, "<=");
  });
  tensor.def("__gt__", [](nb::handle a, nb::handle b) {
    return binary<gtFn>(a, b, ">");
  });
  tensor.def("__ge__", [](nb::handle a, nb::handle b) {
    return binary<geFn>(a, b, ">=");
  });
  // Tensors compare elementwise, so they cannot be dict keys.
  tensor.attr("__hash__") = nb::none();

  nb::class_<PyBuffer>(
      m, "Buffer",
      "A traced BufferLayout argument: `load()` reads it, `store(x)` "
      "overwrites the caller's tensor.")
      .def(
          "load",
          [](const PyBuffer &self) {
            CallerLocation at;
            return PyTensor(self.buffer.load());
          },
          "The buffer's current contents.")
      .def(
          "store",
          [](const PyBuffer &self, const PyTensor &value) {
            CallerLocation at;
            self.buffer.store(value.traced("Buffer.store"));
          },
          nb::arg("value"),
          "Overwrites the buffer with `value` (same shape, dtype, device).")
      .def_prop_ro("layout",
                   [](const PyBuffer &self) { return self.buffer.layout(); })
      .def_prop_ro(
          "dtype",
          [](const PyBuffer &self) { return self.buffer.layout().dtype(); })
      .def_prop_ro("shape",
                   [](const PyBuffer &self) {
                     BufferLayout layout = self.buffer.layout();
                     nb::list shape;
                     for (const Dim &dim : layout.shape())
                       shape.append(fromDim(dim));
                     return shape;
                   })
      .def_prop_ro("device", [](const PyBuffer &self) {
        return self.buffer.layout().device();
      });
}
