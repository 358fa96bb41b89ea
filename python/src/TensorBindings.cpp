//===- TensorBindings.cpp - Tensor and Buffer -----------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `Tensor` is both the traced value inside stage() and the live tensor that
// holds data; operators on traced tensors stage ops at the caller's line.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "MaxGraph/API/CompiledGraph.h"
#include "MaxGraph/API/Distributed.h"
#include "MaxGraph/Runtime/DeviceStream.h"
#include "MaxGraph/Staging/Ops.h"
#include <cstring>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <type_traits>

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
  if (const DistributedHostTensor *tensor = distributed())
    throw nb::type_error(
        (std::string(what) + ": this tensor is distributed (" +
         tensor->layout.str() +
         "); take one device's part from `.local_shards`, or the whole with "
         "`.to_numpy()`")
            .c_str());
  throw nb::type_error(
      (std::string(what) +
       ": this tensor is being traced and has no data yet; data exists only "
       "for the inputs and results of a compiled graph")
          .c_str());
}

namespace {
/// numpy's scalar base classes, once numpy is imported (an object of a
/// numpy type implies that it is); held for the life of the process.
struct NumpyScalarTypes {
  PyObject *array = nullptr;
  PyObject *generic = nullptr;
};

const NumpyScalarTypes *numpyScalarTypes() {
  static NumpyScalarTypes types;
  if (types.generic)
    return &types;
  PyObject *numpy = PyImport_GetModule(nb::str("numpy").ptr());
  if (!numpy) {
    PyErr_Clear();
    return nullptr;
  }
  nb::object module = nb::steal(numpy);
  types.array = nb::object(module.attr("ndarray")).release().ptr();
  types.generic = nb::object(module.attr("generic")).release().ptr();
  return &types;
}

bool isInstance(nb::handle object, PyObject *type) {
  int result = PyObject_IsInstance(object.ptr(), type);
  if (result < 0)
    throw nb::python_error();
  return result;
}
} // namespace

/// A symbolic or algebraic dim's size when the graph runs, an int64 scalar.
static Tensor runTimeSize(const Dim &dim) {
  return ops::reshape(ops::shape_to_tensor({dim}), {});
}

/// A binary operand: a Tensor, or a Python or numpy number, which takes the
/// other operand's dtype.
Operand maxgraph::python::toOperand(nb::handle object, const char *op) {
  if (nb::isinstance<PyTensor>(object))
    return Operand(nb::cast<const PyTensor &>(object).traced(op));
  // A buffer used as a value reads its current contents, as in MAX.
  if (nb::isinstance<PyBuffer>(object))
    return Operand(nb::cast<const PyBuffer &>(object).buffer.load());
  // A dim is a number: its size when the graph runs (`pos + seq`), an int64.
  if (nb::isinstance<Dim>(object)) {
    const Dim &dim = nb::cast<const Dim &>(object);
    if (dim.isStatic())
      return Operand(dim.staticSize());
    return Operand(runTimeSize(dim));
  }
  if (PyBool_Check(object.ptr()))
    return Operand(object.ptr() == Py_True ? 1.0 : 0.0);
  // numpy scalars and 0-d arrays are numbers like Python's, by their dtype's
  // kind: a timedelta64 is a numpy integer but no number, and a longdouble
  // would be rounded. Those that no maxgraph dtype holds are refused.
  if (const NumpyScalarTypes *numpy = numpyScalarTypes()) {
    bool rank0 = isInstance(object, numpy->array) &&
                 nb::cast<int64_t>(object.attr("ndim")) == 0;
    if (rank0 || isInstance(object, numpy->generic)) {
      nb::object dtype = object.attr("dtype");
      char kind = numpyNumberKind(dtype);
      if (kind == 'b')
        return Operand(PyObject_IsTrue(object.ptr()) ? 1.0 : 0.0);
      if (kind == 'i' || kind == 'u')
        return Operand(toInt64(rank0 ? object.attr("item")() : object, op,
                               "an int operand"));
      if (kind == 'f')
        return Operand(nb::cast<double>(nb::float_(object)));
      throw nb::type_error(
          (std::string(op) + ": no maxgraph dtype for numpy's " +
           nb::cast<std::string>(nb::repr(dtype)) +
           // Not the value's repr: a datetime of generic units has none.
           (rank0 ? " array of rank 0" : " scalar") +
           "; a number operand is a bool, int or float of at most 64 bits")
              .c_str());
    }
  }
  // Arrays before ints: a numpy array has __index__.
  if (nb::hasattr(object, "__array__") ||
      nb::hasattr(object, "__array_interface__"))
    throw nb::type_error((std::string(op) + ": got an array operand (" +
                          typeName(object) +
                          "); only numbers combine with a traced Tensor: "
                          "make the array a tensor with "
                          "ops.constant(array, dtype) first")
                             .c_str());
  // Ints of any size (nanobind's isinstance<int> stops at 32 bits).
  if (isInt(object))
    return Operand(toInt64(object, op, "an int operand"));
  if (PyFloat_Check(object.ptr()))
    return Operand(PyFloat_AS_DOUBLE(object.ptr()));
  throw nb::type_error((std::string(op) +
                        ": expected a Tensor or a number, got " +
                        typeName(object))
                           .c_str());
}

namespace {
using BinaryFn = Tensor (*)(const Operand &, const Operand &);

template <BinaryFn fn>
PyTensor binary(nb::handle lhs, nb::handle rhs, const char *op) {
  CallerLocation at;
  return PyTensor(fn(toOperand(lhs, op), toOperand(rhs, op)));
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
  case DType::Float8E4M3FN:
    return make(Code::Float8_E4M3FN, 8);
  case DType::Float8E5M2:
    return make(Code::Float8_E5M2, 8);
  }
  return make(Code::Float, 32);
}

/// What every refusal of an element type lists.
constexpr const char *kAcceptedDTypes =
    "maxgraph takes bool, int8-int64, uint8-uint64, float16, bfloat16 "
    "(through DLPack), float32, float64, and ml_dtypes' float8_e4m3fn and "
    "float8_e5m2";

DType fromDLPack(nb::dlpack::dtype dtype, const std::string &what) {
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
    case Code::Float8_E4M3FN:
      return DType::Float8E4M3FN;
    case Code::Float8_E5M2:
      return DType::Float8E5M2;
    case Code::Bool:
      if (dtype.bits == 8)
        return DType::Bool;
      break;
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
  const char *kind = nullptr;
  switch (code) {
  case Code::Int:
    kind = "int";
    break;
  case Code::UInt:
    kind = "uint";
    break;
  case Code::Float:
    kind = "float";
    break;
  case Code::Bfloat:
    kind = "bfloat";
    break;
  case Code::Complex:
    kind = "complex";
    break;
  case Code::Bool:
    kind = "bool";
    break;
  default:
    break;
  }
  std::string name = kind ? kind + std::to_string(dtype.bits)
                          : "DLPack type code " + std::to_string(dtype.code) +
                                " with " + std::to_string(dtype.bits) + " bits";
  if (dtype.lanes != 1)
    name += " x " + std::to_string(dtype.lanes) + " lanes";
  throw nb::type_error((what + ": no maxgraph dtype for " + name +
                        " elements; " + kAcceptedDTypes)
                           .c_str());
}

/// An imported array of any layout, dtype and writability, in CPU memory.
using AnyArray = nb::ndarray<nb::device::cpu>;
using ReadOnlyArray = nb::ndarray<nb::ro, nb::device::cpu>;

/// Keeps an imported array alive for a HostTensor. A HostTensor may be
/// destroyed without the GIL (after a run that released it), and dropping
/// nanobind's reference to the array needs it.
std::shared_ptr<void> ownerOf(const AnyArray &array) {
  return std::shared_ptr<void>(new AnyArray(array), [](void *held) {
    if (!Py_IsInitialized())
      return; // The interpreter is gone, and the array with it.
    nb::gil_scoped_acquire gil;
    delete static_cast<AnyArray *>(held);
  });
}

/// Copies the elements of `array` (any strides) into `tensor`, row-major.
void copyStrided(const AnyArray &array, HostTensor &tensor) {
  size_t rank = array.ndim(), element = sizeInBytes(tensor.dtype());
  int64_t count = tensor.numElements();
  auto *from = static_cast<const uint8_t *>(array.data());
  auto *to = static_cast<uint8_t *>(tensor.rawData());
  std::vector<int64_t> position(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t at = 0;
    for (size_t d = 0; d < rank; ++d)
      at += position[d] * array.stride(d);
    std::memcpy(to + i * element, from + at * element, element);
    for (size_t d = rank; d-- > 0;) {
      if (++position[d] < static_cast<int64_t>(array.shape(d)))
        break;
      position[d] = 0;
    }
  }
}

/// Throws a TypeError naming numpy's `dtype` unless maxgraph has a dtype
/// for its elements. The one gate for arrays that DLPack and the buffer
/// protocol did not take: numpy exports no longdouble, complex256,
/// string, object, structured or datetime elements either way.
void checkNumpyDType(nb::handle dtype, const std::string &what) {
  if (numpyNumberKind(dtype))
    return;
  throw nb::type_error((what + ": no maxgraph dtype for numpy's " +
                        nb::cast<std::string>(nb::repr(dtype)) + "; " +
                        kAcceptedDTypes)
                           .c_str());
}

/// The 8-bit float DType of a numpy array of ml_dtypes' `float8_e4m3fn` or
/// `float8_e5m2`; none for anything else.
std::optional<DType> float8OfNumpy(nb::handle object) {
  if (!nb::hasattr(object, "dtype") || !nb::hasattr(object, "view"))
    return std::nullopt;
  nb::object dtype = object.attr("dtype");
  // ml_dtypes' types are user-defined numpy types, numbered from
  // NPY_USERDEF (256); numpy's own are not. Their number is cheaper to read
  // than the name, which numpy computes in Python for every array passed.
  if (!nb::hasattr(dtype, "num") ||
      nb::cast<int64_t>(dtype.attr("num")) < 256 || !nb::hasattr(dtype, "name"))
    return std::nullopt;
  std::string name = nb::cast<std::string>(nb::str(dtype.attr("name")));
  if (name == "float8_e4m3fn")
    return DType::Float8E4M3FN;
  if (name == "float8_e5m2")
    return DType::Float8E5M2;
  return std::nullopt;
}

/// numpy's `array` as a native-byte-order, C-contiguous copy, for what
/// DLPack and the buffer protocol cannot describe (a big-endian array, say).
nb::object nativeCopy(nb::handle array) {
  nb::object dtype = array.attr("dtype");
  if (!nb::cast<bool>(dtype.attr("isnative")))
    dtype = dtype.attr("newbyteorder")("=");
  return nb::module_::import_("numpy").attr("array")(
      array, nb::arg("dtype") = dtype, nb::arg("order") = "C",
      nb::arg("copy") = true);
}
} // namespace

char maxgraph::python::numpyNumberKind(nb::handle dtype) {
  std::string kind = nb::cast<std::string>(nb::str(dtype.attr("kind")));
  int64_t size = nb::cast<int64_t>(dtype.attr("itemsize"));
  if (!dtype.attr("fields").is_none() || !dtype.attr("subdtype").is_none())
    return '\0';
  bool known = (kind == "b" && size == 1) ||
               ((kind == "i" || kind == "u") &&
                (size == 1 || size == 2 || size == 4 || size == 8)) ||
               (kind == "f" && (size == 2 || size == 4 || size == 8));
  return known ? kind[0] : '\0';
}

/// hostTensorOfArray; `copied` when `object` is numpy's copy of the
/// caller's array, which is not copied again.
static HostTensor importArray(nb::handle object, Device device, ArrayUse use,
                              const std::string &what, bool copied) {
  // numpy holds 8-bit floats as ml_dtypes' types, which neither DLPack nor
  // the buffer protocol describes: their bytes come in as uint8 and keep
  // their dtype.
  if (std::optional<DType> narrow = float8OfNumpy(object)) {
    HostTensor bits = importArray(
        object.attr("view")(nb::module_::import_("numpy").attr("uint8")),
        device, use, what, copied);
    auto held = std::make_shared<HostTensor>(bits);
    return HostTensor::wrap(held->rawData(), *narrow, bits.shape(), held,
                            device);
  }
  AnyArray array;
  bool readOnly = false;
  if (!nb::try_cast(object, array, /*convert=*/false)) {
    ReadOnlyArray constant;
    if (nb::try_cast(object, constant, /*convert=*/false)) {
      array = AnyArray(constant);
      readOnly = true;
    } else if (copied) {
      // numpy's own copy was not taken either: no second copy.
      throw nb::type_error((what +
                            ": neither DLPack nor the buffer protocol "
                            "takes numpy's copy of the array (" +
                            nb::cast<std::string>(nb::repr(object.type())) +
                            ")")
                               .c_str());
    } else if (nb::hasattr(object, "__array__") ||
               PyObject_CheckBuffer(object.ptr())) {
      // numpy reads what nanobind did not (a big-endian buffer, say), and
      // names its dtype where maxgraph has none.
      nb::object viewed = nb::module_::import_("numpy").attr("asarray")(object);
      checkNumpyDType(viewed.attr("dtype"), what);
      if (use == ArrayUse::GraphBuffer)
        throw nb::type_error(
            (what + ": the array cannot be stored into in place: neither "
                    "DLPack nor the buffer protocol describes its memory (a "
                    "non-native byte order, say); pass a native, "
                    "C-contiguous array and read the stores from it")
                .c_str());
      return importArray(nativeCopy(viewed), device, use, what,
                         /*copied=*/true);
    } else {
      throw nb::type_error((what +
                            ": expected a CPU array (numpy, or anything with "
                            "__dlpack__ or the buffer protocol), got " +
                            nb::cast<std::string>(nb::repr(object.type())))
                               .c_str());
    }
  }
  DType dtype = fromDLPack(array.dtype(), what);
  std::vector<int64_t> shape;
  for (size_t d = 0; d < array.ndim(); ++d)
    shape.push_back(static_cast<int64_t>(array.shape(d)));
  int64_t count = 1;
  bool rowMajor = true;
  for (size_t d = array.ndim(); d-- > 0;) {
    rowMajor &= shape[d] == 1 || array.stride(d) == count;
    count *= shape[d];
  }
  rowMajor |= count == 0;
  bool aligned =
      reinterpret_cast<uintptr_t>(array.data()) % sizeInBytes(dtype) == 0;
  bool writable = !readOnly || use == ArrayUse::GraphInput;
  if (rowMajor && aligned && writable)
    return HostTensor::wrap(array.data(), dtype, std::move(shape),
                            ownerOf(array), device);
  if (use == ArrayUse::GraphBuffer) {
    std::string problem =
        readOnly   ? "is read-only, but the graph stores into this buffer "
                     "argument; pass a writable array"
        : rowMajor ? "is not aligned to its element size; a buffer argument "
                     "is stored into in place, so pass an aligned copy "
                     "(numpy.ascontiguousarray) and read the stores from it"
                   : "is not C-contiguous; a buffer argument is stored into "
                     "in place, so pass numpy.ascontiguousarray(a) and read "
                     "the stores from that array";
    throw nb::type_error((what + ": the array " + problem).c_str());
  }
  HostTensor copy = [&] {
    try {
      return HostTensor::uninitialized(dtype, std::move(shape), device);
    } catch (const RuntimeError &error) {
      // Strided views (numpy.broadcast_to) may stand for more bytes than
      // the copy can have: name what the array was for.
      throw RuntimeError(what +
                         ": cannot copy the array into row-major "
                         "order: " +
                         error.what());
    }
  }();
  copyStrided(array, copy);
  return copy;
}

HostTensor maxgraph::python::hostTensorOfArray(nb::handle object, Device device,
                                               ArrayUse use,
                                               const std::string &what) {
  return importArray(object, device, use, what, /*copied=*/false);
}

namespace {
PyTensor fromArray(nb::handle array, Device device, const char *what) {
  return PyTensor(hostTensorOfArray(array, device, ArrayUse::Tensor, what));
}

/// A capsule that keeps `tensor`'s storage alive for an exported array.
nb::capsule storageCapsule(const HostTensor &tensor) {
  return nb::capsule(new HostTensor(tensor), [](void *pointer) noexcept {
    delete static_cast<HostTensor *>(pointer);
  });
}

/// An array over `tensor`'s storage (no copy) for `Framework`: numpy, or
/// nanobind's array-API object that exports DLPack. numpy gets an 8-bit
/// float tensor as a view of its bytes with ml_dtypes' type.
template <typename... Framework>
nb::object exportArray(const HostTensor &tensor) {
  std::vector<size_t> shape(tensor.shape().begin(), tensor.shape().end());
  constexpr bool toNumpy = (std::is_same_v<Framework, nb::numpy> || ...);
  bool narrow = tensor.dtype() == DType::Float8E4M3FN ||
                tensor.dtype() == DType::Float8E5M2;
  nb::dlpack::dtype type = toDLPack(tensor.dtype());
  if (toNumpy && narrow)
    type = toDLPack(DType::UInt8);
  nb::object array = nb::ndarray<Framework...>(
                         const_cast<void *>(tensor.rawData()), shape.size(),
                         shape.data(), storageCapsule(tensor), nullptr, type)
                         .cast();
  if (!toNumpy || !narrow)
    return array;
  nb::object types;
  try {
    types = nb::module_::import_("ml_dtypes");
  } catch (const nb::python_error &) {
    throw nb::type_error(("numpy holds " + numpyName(tensor.dtype()) +
                          " elements only with the ml_dtypes package, which "
                          "is not installed (pip install ml_dtypes)")
                             .c_str());
  }
  return array.attr("view")(types.attr(numpyName(tensor.dtype()).c_str()));
}

const HostTensor &exportable(const PyTensor &self, const char *what) {
  const HostTensor &tensor = self.live(what);
  if (tensor.dtype() == DType::BFloat16)
    throw nb::type_error((std::string(what) +
                          ": numpy has no bfloat16; cast the "
                          "result to float32 in the graph")
                             .c_str());
  return tensor;
}

/// The message of an export that needs the elements in host memory.
std::string onDeviceMessage(const char *what, const HostTensor &tensor) {
  return std::string(what) + ": the elements are in the memory of " +
         tensor.device().str() + " (" + tensor.memoryRuntime() +
         "); copy them to the host with .to(CPU())";
}

nb::object toNumpy(const PyTensor &self) {
  // A distributed tensor's shards are joined into a new array.
  if (const DistributedHostTensor *tensor = self.distributed())
    return exportArray<nb::numpy>(exportable(
        PyTensor(gather(tensor->shards, tensor->layout, "Tensor.to_numpy")),
        "Tensor.to_numpy"));
  const HostTensor &tensor = exportable(self, "Tensor.to_numpy");
  // Elements in a GPU's memory are copied to the host.
  if (tensor.isOnDevice())
    return exportArray<nb::numpy>(tensor.to(CPU()));
  // The array shares the tensor's storage and keeps it alive.
  return exportArray<nb::numpy>(tensor);
}

/// `__array__(dtype=None, copy=None)` as numpy 2 calls it.
nb::object asArray(const PyTensor &self, nb::handle dtype, nb::handle copy) {
  bool mustCopy =
      toOptionalBool(copy, "Tensor.__array__", "copy").value_or(false);
  bool mayCopy = copy.is_none() || mustCopy;
  const HostTensor *live = std::get_if<HostTensor>(&self.value);
  if (live && live->isOnDevice() && !mayCopy)
    throw nb::value_error((onDeviceMessage("Tensor.__array__", *live) +
                           ", which is a copy, and copy=False was passed")
                              .c_str());
  nb::object array = toNumpy(self);
  if (!dtype.is_none() &&
      !array.attr("dtype").equal(
          nb::module_::import_("numpy").attr("dtype")(dtype))) {
    if (!mayCopy)
      throw nb::value_error("Tensor.__array__: converting to another dtype "
                            "needs a copy, and copy=False was passed");
    return array.attr("astype")(dtype);
  }
  return mustCopy ? array.attr("copy")() : array;
}

/// `__dlpack__(*, stream, max_version, dl_device, copy)`: a capsule over
/// the tensor's storage (a copy's with copy=True).
nb::object toDLPackCapsule(const PyTensor &self, nb::kwargs kwargs) {
  HostTensor tensor = self.live("Tensor.__dlpack__");
  if (tensor.isOnDevice())
    throw nb::buffer_error(
        onDeviceMessage("Tensor.__dlpack__", tensor).c_str());
  if (kwargs.contains("copy")) {
    nb::object copy = kwargs["copy"];
    if (toOptionalBool(copy, "Tensor.__dlpack__", "copy").value_or(false))
      tensor = tensor.clone();
    nb::del(kwargs["copy"]);
  }
  // nanobind's array-API object makes the capsule (versioned or not, as
  // `max_version` asks).
  nb::object array = exportArray<nb::array_api>(tensor);
  return array.attr("__dlpack__")(**kwargs);
}

/// The buffer protocol: a writable, C-contiguous view of a live tensor.
int getBuffer(PyObject *object, Py_buffer *view, int flags) {
  view->obj = nullptr;
  PyTensor *self = nb::inst_ptr<PyTensor>(object);
  const HostTensor *tensor =
      self ? std::get_if<HostTensor>(&self->value) : nullptr;
  if (!tensor) {
    PyErr_SetString(PyExc_BufferError, "a traced Tensor has no data to export");
    return -1;
  }
  const char *format = nullptr;
  switch (tensor->dtype()) {
  case DType::Float16:
    format = "e";
    break;
  case DType::Float32:
    format = "f";
    break;
  case DType::Float64:
    format = "d";
    break;
  case DType::Bool:
    format = "?";
    break;
  case DType::Int8:
    format = "b";
    break;
  case DType::Int16:
    format = "h";
    break;
  case DType::Int32:
    format = "i";
    break;
  case DType::Int64:
    format = "q";
    break;
  case DType::UInt8:
    format = "B";
    break;
  case DType::UInt16:
    format = "H";
    break;
  case DType::UInt32:
    format = "I";
    break;
  case DType::UInt64:
    format = "Q";
    break;
  case DType::BFloat16:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    break;
  }
  if (!format) {
    PyErr_SetString(PyExc_BufferError, ("the buffer protocol has no " +
                                        numpyName(tensor->dtype()) + " format")
                                           .c_str());
    return -1;
  }
  size_t rank = tensor->shape().size();
  if (tensor->isOnDevice()) {
    PyErr_SetString(PyExc_BufferError,
                    onDeviceMessage("the buffer protocol", *tensor).c_str());
    return -1;
  }
  auto *dims = static_cast<Py_ssize_t *>(
      PyMem_Malloc(sizeof(Py_ssize_t) * std::max<size_t>(2 * rank, 1)));
  if (!dims) {
    PyErr_NoMemory();
    return -1;
  }
  Py_ssize_t itemSize = static_cast<Py_ssize_t>(sizeInBytes(tensor->dtype()));
  Py_ssize_t stride = itemSize;
  for (size_t d = rank; d-- > 0;) {
    dims[d] = static_cast<Py_ssize_t>(tensor->shape()[d]);
    dims[rank + d] = stride;
    stride *= dims[d];
  }
  view->buf = const_cast<void *>(tensor->rawData());
  view->obj = Py_NewRef(object);
  view->len = static_cast<Py_ssize_t>(tensor->numBytes());
  view->readonly = 0;
  view->itemsize = itemSize;
  view->format = (flags & PyBUF_FORMAT) ? const_cast<char *>(format) : nullptr;
  view->ndim = static_cast<int>(rank);
  view->shape = (flags & PyBUF_ND) == PyBUF_ND ? dims : nullptr;
  view->strides =
      (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? dims + rank : nullptr;
  view->suboffsets = nullptr;
  view->internal = dims;
  return 0;
}

void releaseBuffer(PyObject *, Py_buffer *view) { PyMem_Free(view->internal); }

PyType_Slot tensorSlots[] = {
    {Py_bf_getbuffer, reinterpret_cast<void *>(&getBuffer)},
    {Py_bf_releasebuffer, reinterpret_cast<void *>(&releaseBuffer)},
    {0, nullptr}};

TensorLayout tensorLayoutOf(const PyTensor &self) {
  if (const HostTensor *tensor = std::get_if<HostTensor>(&self.value))
    return maxgraph::layoutOf(*tensor);
  if (const DistributedHostTensor *tensor = self.distributed())
    return tensor->layout;
  // A StagingError at the caller's line once the trace has ended.
  CallerLocation at;
  return std::get<Tensor>(self.value).layout();
}

BufferLayout bufferLayoutOf(const PyBuffer &self) {
  CallerLocation at;
  return self.buffer.layout();
}

/// `Tensor(traced, <layout>)`; never an error, even for a tensor of an
/// ended trace, which repr names instead of its (gone) layout.
std::string tracedRepr(const PyTensor &self) {
  if (self.isLive())
    return "Tensor(live, " + tensorLayoutOf(self).str() + ")";
  const Tensor &tensor = std::get<Tensor>(self.value);
  if (!tensor.getTraceId())
    return "Tensor(traced, empty)";
  if (!tensor.isAlive())
    return "Tensor(traced, of the ended trace of " + tensor.traceName() + ")";
  return "Tensor(traced, " + tensor.layout().str() + ")";
}

/// A Python index key over `rank` dims: one range per dim, and whether an
/// int (or a rank-0 tensor) picked the dim, which then drops out.
struct IndexKey {
  std::vector<ops::Range> ranges;
  std::vector<bool> dropped;
};

/// A slice bound: an int, a Dim (a symbolic one is read at run time), or a
/// traced rank-0 integer tensor read at run time.
ops::Bound toBound(nb::handle object, const char *what, const char *role) {
  if (nb::isinstance<PyTensor>(object))
    return nb::cast<const PyTensor &>(object).traced(what);
  if (nb::isinstance<Dim>(object)) {
    const Dim &dim = nb::cast<const Dim &>(object);
    if (dim.isStatic())
      return dim.staticSize();
    return runTimeSize(dim);
  }
  return toInt64(object, what, role,
                 "an int, a Dim, a rank-0 integer Tensor or None");
}

/// Parses ints, rank-0 integer tensors, slices (positive steps, bounds that
/// are ints, tensors or None) and one Ellipsis.
IndexKey parseIndexKey(nb::handle key, const std::vector<Dim> &shape,
                       const char *what) {
  int64_t rank = shape.size();
  std::vector<nb::handle> items;
  if (nb::isinstance<nb::tuple>(key)) {
    for (nb::handle item : nb::borrow<nb::tuple>(key))
      items.push_back(item);
  } else {
    items.push_back(key);
  }
  int64_t ellipses = 0;
  for (nb::handle item : items)
    ellipses += item.is(Py_Ellipsis);
  if (ellipses > 1)
    throw nb::index_error((std::string(what) + ": at most one '...'").c_str());
  int64_t explicitDims = items.size() - ellipses;
  if (explicitDims > rank)
    throw nb::index_error(
        (std::string(what) + ": " + std::to_string(explicitDims) +
         " indices for a tensor of rank " + std::to_string(rank))
            .c_str());
  IndexKey parsed;
  auto add = [&](ops::Range range, bool drop) {
    parsed.ranges.push_back(std::move(range));
    parsed.dropped.push_back(drop);
  };
  for (nb::handle item : items) {
    if (item.is(Py_Ellipsis)) {
      for (int64_t i = 0; i < rank - explicitDims; ++i)
        add(ops::Range{}, false);
    } else if (nb::isinstance<nb::slice>(item)) {
      ops::Range range;
      nb::object start = item.attr("start"), stop = item.attr("stop"),
                 step = item.attr("step");
      if (!step.is_none())
        range.step = toInt64(step, what, "a slice step", "an int or None");
      if (range.step <= 0)
        throw nb::index_error(
            (std::string(what) + ": slice steps must be positive").c_str());
      if (!start.is_none())
        range.start = toBound(start, what, "a slice start");
      if (!stop.is_none())
        range.stop = toBound(stop, what, "a slice stop");
      add(range, false);
    } else if (nb::isinstance<PyTensor>(item)) {
      // One element at a run-time index: index:index + 1, where -1 (whose
      // stop would be 0) takes the last element through a stop past the
      // end, which clamps.
      Tensor index = nb::cast<const PyTensor &>(item).traced(what);
      if (index.dtype() != DType::Int64 && isInteger(index.dtype()))
        index = ops::cast(index, DType::Int64);
      Tensor stop = ops::select(ops::equal(index, -1), 0x1p62, index + 1);
      add(ops::Range{index, stop, 1}, true);
    } else if (isInt(item)) {
      int64_t index = toInt64(item, what, "an index");
      // As numpy: an index outside a static dim is an IndexError (which
      // also ends Python's iteration by indexing).
      const Dim &dim = shape[parsed.ranges.size()];
      if (dim.isStatic() &&
          (index < -dim.staticSize() || index >= dim.staticSize()))
        throw nb::index_error((std::string(what) + ": index " +
                               std::to_string(index) +
                               " is out of range for dim " +
                               std::to_string(parsed.ranges.size()) +
                               " of size " + std::to_string(dim.staticSize()))
                                  .c_str());
      ops::Range range{index, index + 1, 1};
      if (index == -1)
        range.stop = std::nullopt;
      add(range, true);
    } else {
      throw nb::type_error((std::string(what) +
                            " takes ints, slices, rank-0 integer Tensors and "
                            "'...', got " +
                            typeName(item))
                               .c_str());
    }
  }
  while (static_cast<int64_t>(parsed.ranges.size()) < rank)
    add(ops::Range{}, false);
  return parsed;
}

/// Python's `x[...]`: ints, rank-0 integer tensors, slices (positive steps;
/// a tensor bound is read at run time and gives its dim `?`) and one
/// Ellipsis.
PyTensor getItem(const PyTensor &self, nb::handle key) {
  CallerLocation at;
  const Tensor &x = self.traced("Tensor.__getitem__");
  IndexKey parsed = parseIndexKey(key, x.shape(), "Tensor indexing");
  Tensor sliced = ops::slice(x, parsed.ranges);
  if (std::find(parsed.dropped.begin(), parsed.dropped.end(), true) ==
      parsed.dropped.end())
    return PyTensor(sliced);
  std::vector<Dim> shape;
  std::vector<Dim> slicedShape = sliced.shape();
  for (size_t i = 0; i < slicedShape.size(); ++i)
    if (!parsed.dropped[i])
      shape.push_back(slicedShape[i]);
  return PyTensor(ops::reshape(sliced, shape));
}

/// `buffer[key] = value` (MAX's `buffer_store_slice`): `value` has one dim
/// per range that an int did not pick; those dims get size 1.
void setItem(const PyBuffer &self, nb::handle key, const PyTensor &value) {
  CallerLocation at;
  const char *what = "Buffer.__setitem__";
  const Buffer &buffer = self.buffer;
  std::vector<Dim> bufferShape = buffer.layout().shape();
  int64_t rank = bufferShape.size();
  IndexKey parsed = parseIndexKey(key, bufferShape, what);
  Tensor source = value.traced(what);
  int64_t kept =
      std::count(parsed.dropped.begin(), parsed.dropped.end(), false);
  if (source.rank() != kept)
    throw nb::value_error(
        (std::string(what) + ": the key selects " + std::to_string(kept) +
         " of the buffer's " + std::to_string(rank) + " dims, but the value " +
         source.layout().str() + " has rank " + std::to_string(source.rank()))
            .c_str());
  if (kept != rank) {
    std::vector<Dim> valueShape = source.shape(), shape;
    size_t next = 0;
    for (bool drop : parsed.dropped)
      shape.push_back(drop ? Dim(1) : valueShape[next++]);
    source = ops::reshape(source, shape);
  }
  ops::buffer_store_slice(buffer, source, parsed.ranges);
}
} // namespace

void maxgraph::python::bindTensor(nb::module_ &m) {
  auto tensor = nb::class_<PyTensor>(
      m, "Tensor",
      "A tensor: inside a staged function, a traced value whose operators "
      "stage ops; outside, a live tensor holding data "
      "(`Tensor.from_numpy`, or the result of a compiled graph).\n\n"
      "A live tensor exports its memory without a copy: `to_numpy()`, "
      "`numpy.asarray(t)`, the buffer protocol (`memoryview(t)`) and "
      "DLPack (`numpy.from_dlpack(t)`) all share it, and keep it alive.",
      nb::type_slots(tensorSlots));
  tensor
      .def_static(
          "from_numpy",
          [](nb::handle array, Device device) {
            return fromArray(array, device, "Tensor.from_numpy");
          },
          nb::arg("array"), nb::arg("device") = CPU(),
          "A live tensor over `array`'s memory, without a copy, when the "
          "array is C-contiguous, writable, aligned and of a maxgraph dtype: "
          "writes through either are seen by the other, and the tensor keeps "
          "the array alive. Other arrays are copied into a new row-major "
          "tensor: non-contiguous ones (a transpose, a strided slice), "
          "read-only ones (the tensor may be stored into as a buffer), "
          "misaligned ones and non-native byte orders. Dtypes maxgraph does "
          "not have (complex, strings) are a TypeError.")
      .def_static(
          "from_dlpack",
          [](nb::handle array, Device device) {
            return fromArray(array, device, "Tensor.from_dlpack");
          },
          nb::arg("array"), nb::arg("device") = CPU(),
          "A live tensor over the memory of a CPU array that implements "
          "`__dlpack__` (numpy, PyTorch, JAX, a DLPack capsule), without a "
          "copy under the same conditions as `from_numpy`.")
      .def("to_numpy", &toNumpy,
           "A numpy array over this live tensor's memory (no copy): writes "
           "through either are seen by the other, and the array keeps the "
           "memory alive after the Tensor is gone. Use `.copy()` on it for "
           "an independent array. A tensor in a GPU's memory (`is_host` "
           "False) is copied to the host.")
      .def(
          "_move_to",
          [](const PyTensor &self, Device device) {
            return PyTensor(self.live("Tensor.to").to(device));
          },
          nb::arg("device"),
          "HostTensor::to: the elements copied into a GPU's memory, or from "
          "it to the host (Tensor.to calls it).")
      .def(
          "_move_to_stream",
          [](const PyTensor &self, const DeviceStream &stream) {
            const HostTensor &live = self.live("Tensor.to");
            nb::gil_scoped_release release;
            return PyTensor(live.to(stream));
          },
          nb::arg("stream"),
          "HostTensor::to(DeviceStream): the elements copied to the "
          "stream's device in order on the stream, without waiting for "
          "the copy (Tensor.to calls it).")
      .def_static(
          "pinned",
          [](DType dtype, std::vector<int64_t> shape) {
            return PyTensor(HostTensor::pinned(dtype, std::move(shape)));
          },
          nb::arg("dtype"), nb::arg("shape"),
          "A zero-filled live tensor in page-locked host memory of the GPU "
          "runtime (CUDA's cuMemAllocHost): its copies to and from GPUs are "
          "DMA transfers that do not make the host wait. On a runtime "
          "without such memory (OpenCL), an ordinary host tensor.")
      .def_prop_ro(
          "is_pinned",
          [](const PyTensor &self) {
            return self.live("Tensor.is_pinned").isPinned();
          },
          "Whether the elements are in page-locked host memory "
          "(Tensor.pinned).")
      .def_prop_ro(
          "is_host",
          [](const PyTensor &self) {
            return !self.live("Tensor.is_host").isOnDevice();
          },
          "Whether the elements are in host memory (else in a GPU's).")
      .def("__array__", &asArray, nb::arg("dtype") = nb::none(),
           nb::arg("copy") = nb::none(),
           "numpy's conversion: shares memory unless a dtype conversion or "
           "copy=True asks for a copy.")
      .def("__dlpack__", &toDLPackCapsule,
           "A DLPack capsule over this live tensor's memory (a copy with "
           "copy=True).")
      .def(
          "__dlpack_device__",
          [](const PyTensor &self) {
            const HostTensor &tensor = self.live("Tensor.__dlpack_device__");
            if (!tensor.isOnDevice())
              return nb::make_tuple(1, 0); // kDLCPU, device 0.
            // kDLCUDA or kDLOpenCL, the GPU's index.
            return nb::make_tuple(tensor.memoryRuntime() == "cuda" ? 2 : 4,
                                  tensor.device().id);
          },
          "DLPack's device of the data: the host CPU, (1, 0), or the GPU's "
          "memory ((2, n) for CUDA, (4, n) for OpenCL; `__dlpack__` then "
          "asks for a copy to the host first).")
      .def_prop_ro("layout", &tensorLayoutOf,
                   "The TensorLayout of this tensor (for a live tensor, "
                   "every dim fixed to its size).")
      .def_prop_ro(
          "dtype",
          [](const PyTensor &self) { return tensorLayoutOf(self).dtype(); })
      .def_prop_ro(
          "shape",
          [](const PyTensor &self) -> nb::object {
            TensorLayout layout = tensorLayoutOf(self);
            if (!self.isLive())
              return tracedShape(layout.shape());
            nb::list shape;
            for (const Dim &dim : layout.shape())
              shape.append(fromDim(dim));
            return shape;
          },
          "The dims: ints for a live tensor; Dim objects (static, symbolic "
          "or expressions, which combine with `+ - * //`) for a traced one.")
      .def_prop_ro(
          "device",
          [](const PyTensor &self) { return tensorLayoutOf(self).device(); })
      .def_prop_ro(
          "rank",
          [](const PyTensor &self) { return tensorLayoutOf(self).rank(); })
      .def_prop_ro("is_live", &PyTensor::isLive,
                   "Whether this tensor holds data (else it is being traced).")
      .def_prop_ro(
          "external_name",
          [](const PyTensor &self) -> std::optional<std::string> {
            const Tensor *traced = std::get_if<Tensor>(&self.value);
            if (!traced)
              return std::nullopt;
            CallerLocation at;
            return traced->externalName();
          },
          "The name this tensor loads under when it is an external weight "
          "(constant_external's name; a distributed weight's without its "
          "shards' `._shard.<i>`), as MAX's; None for every other tensor, "
          "live ones and those computed from a weight included.")
      .def_prop_ro(
          "is_distributed",
          [](const PyTensor &self) {
            return tensorLayoutOf(self).isDistributed();
          },
          "Whether this tensor spans a device mesh (one shard per device).")
      .def_prop_ro(
          "mapping",
          [](const PyTensor &self) -> nb::object {
            TensorLayout layout = tensorLayoutOf(self);
            return layout.mapping() ? nb::cast(*layout.mapping()) : nb::none();
          },
          "The DeviceMapping of a distributed tensor, else None.")
      .def_prop_ro(
          "mesh",
          [](const PyTensor &self) -> nb::object {
            TensorLayout layout = tensorLayoutOf(self);
            return layout.mapping() ? nb::cast(layout.mapping()->mesh())
                                    : nb::none();
          },
          "The DeviceMesh of a distributed tensor, else None.")
      .def_prop_ro(
          "placements",
          [](const PyTensor &self) -> nb::object {
            TensorLayout layout = tensorLayoutOf(self);
            if (!layout.mapping())
              return nb::none();
            return nb::cast(layout.mapping()->placements());
          },
          "One Placement per mesh axis of a distributed tensor, else None.")
      .def_prop_ro(
          "local_shards",
          [](const PyTensor &self) {
            std::vector<PyTensor> shards;
            if (const DistributedHostTensor *live = self.distributed()) {
              for (const HostTensor &shard : live->shards)
                shards.emplace_back(shard);
            } else if (const Tensor *traced =
                           std::get_if<Tensor>(&self.value)) {
              CallerLocation at;
              for (const Tensor &shard : traced->localShards())
                shards.emplace_back(shard);
            } else {
              shards.push_back(self);
            }
            return shards;
          },
          "The per-device tensors of a distributed tensor, in mesh order "
          "(a tensor on one device is its own only shard).")
      .def_prop_ro("num_shards",
                   [](const PyTensor &self) {
                     TensorLayout layout = tensorLayoutOf(self);
                     return layout.mapping()
                                ? layout.mapping()->mesh().numDevices()
                                : int64_t(1);
                   })
      .def(
          "to",
          [](const PyTensor &self, nb::handle target) {
            std::optional<sharding::DeviceMapping> mapping = toMapping(target);
            if (const Tensor *traced = std::get_if<Tensor>(&self.value)) {
              CallerLocation at;
              if (mapping)
                return PyTensor(ops::reshard(*traced, *mapping));
              if (!nb::isinstance<Device>(target))
                throw nb::type_error(("Tensor.to: takes a Device, DeviceMesh, "
                                      "DeviceMapping or NamedMapping, got " +
                                      typeName(target))
                                         .c_str());
              return PyTensor(ops::transfer(*traced, nb::cast<Device>(target)));
            }
            if (!mapping)
              throw nb::type_error(
                  "Tensor.to: a live tensor is laid out over a mesh here "
                  "(DeviceMesh, DeviceMapping, NamedMapping); moving live "
                  "data between devices is not supported");
            const HostTensor &live = self.live("Tensor.to");
            TensorLayout layout(
                live.dtype(),
                std::vector<Dim>(live.shape().begin(), live.shape().end()),
                *mapping);
            return PyTensor(DistributedHostTensor{
                layout, distribute(live, layout, "Tensor.to")});
          },
          nb::arg("target"),
          "Inside a staged function: this tensor on another device "
          "(ops.transfer) or laid out over a mesh (ops.reshard). On a live "
          "tensor: its data laid out over a mesh, one shard per device.")
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
      .def("__getitem__", &getItem, nb::arg("key").none())
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
      .def("__repr__", &tracedRepr);

  // `other` may be None, so that `x + None` says what `+` takes.
#define MAXGRAPH_BINARY(PY, RPY, FN, SYMBOL)                                   \
  tensor.def(                                                                  \
      PY, [](nb::handle a, nb::handle b) { return binary<FN>(a, b, SYMBOL); }, \
      nb::arg("other").none());                                                \
  tensor.def(                                                                  \
      RPY,                                                                     \
      [](nb::handle a, nb::handle b) { return binary<FN>(b, a, SYMBOL); },     \
      nb::arg("other").none());
  MAXGRAPH_BINARY("__add__", "__radd__", ops::add, "+")
  MAXGRAPH_BINARY("__sub__", "__rsub__", ops::sub, "-")
  MAXGRAPH_BINARY("__mul__", "__rmul__", ops::mul, "*")
  MAXGRAPH_BINARY("__truediv__", "__rtruediv__", ops::div, "/")
  MAXGRAPH_BINARY("__mod__", "__rmod__", ops::mod, "%")
  MAXGRAPH_BINARY("__pow__", "__rpow__", ops::pow, "**")
  // `&`, `|` and `^` are bitwise, as numpy's operators (logical on bools).
  MAXGRAPH_BINARY("__and__", "__rand__", ops::bitwise_and, "&")
  MAXGRAPH_BINARY("__or__", "__ror__", ops::bitwise_or, "|")
  MAXGRAPH_BINARY("__xor__", "__rxor__", ops::bitwise_xor, "^")
#undef MAXGRAPH_BINARY
  // Comparisons reflect to the swapped comparison, as Python does.
  tensor.def(
      "__eq__",
      [](nb::handle a, nb::handle b) { return binary<ops::equal>(a, b, "=="); },
      nb::arg("other").none());
  tensor.def(
      "__ne__",
      [](nb::handle a, nb::handle b) {
        return binary<ops::not_equal>(a, b, "!=");
      },
      nb::arg("other").none());
  tensor.def(
      "__lt__",
      [](nb::handle a, nb::handle b) { return binary<ops::less>(a, b, "<"); },
      nb::arg("other").none());
  tensor.def(
      "__le__",
      [](nb::handle a, nb::handle b) {
        return binary<ops::less_equal>(a, b, "<=");
      },
      nb::arg("other").none());
  tensor.def(
      "__gt__",
      [](nb::handle a, nb::handle b) {
        return binary<ops::greater>(a, b, ">");
      },
      nb::arg("other").none());
  tensor.def(
      "__ge__",
      [](nb::handle a, nb::handle b) {
        return binary<ops::greater_equal>(a, b, ">=");
      },
      nb::arg("other").none());
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
      .def("__setitem__", &setItem, nb::arg("key").none(), nb::arg("value"),
           "`buffer[key] = value` stores `value` into the window `key` "
           "selects (`maxgraph.buffer_store_slice`): ints, slices and '...' "
           "as in indexing, and rank-0 integer Tensors as indices or slice "
           "bounds read when the graph runs (`cache[pos:end] = kv`). Each "
           "range must select as many elements as `value` has there.")
      .def_prop_ro("layout", &bufferLayoutOf)
      .def_prop_ro(
          "dtype",
          [](const PyBuffer &self) { return bufferLayoutOf(self).dtype(); })
      .def_prop_ro(
          "shape",
          [](const PyBuffer &self) {
            return tracedShape(bufferLayoutOf(self).shape());
          },
          "The dims, as Dim objects.")
      .def_prop_ro(
          "device",
          [](const PyBuffer &self) { return bufferLayoutOf(self).device(); })
      .def("__repr__", [](const PyBuffer &self) {
        if (!self.buffer.getTraceId())
          return std::string("Buffer(traced, empty)");
        if (!self.buffer.isAlive())
          return "Buffer(traced, of the ended trace of " +
                 self.buffer.traceName() + ")";
        return "Buffer(traced, " + self.buffer.layout().str() + ")";
      });
}
