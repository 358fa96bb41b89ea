//===- Bindings.h - shared pieces of the maxgraph._core module --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The extension is a thin layer over the C++ staging API and runtime: every
// op is staged by the C++ library, at the Python caller's file:line.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_PYTHON_BINDINGS_H
#define MAXGRAPH_PYTHON_BINDINGS_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Staging/StagingError.h"
#include "MaxGraph/Staging/Tensor.h"
#include "MaxGraph/Support/Error.h"
#include <nanobind/nanobind.h>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace maxgraph::python {
/// A Python `Tensor`: a value being traced inside stage(), or a live tensor
/// that holds data (made by `Tensor.from_numpy` or returned by a compiled
/// graph). One class for both, as in MAX.
/// A live tensor laid out over a device mesh: the global layout (with its
/// mapping) and one HostTensor per device, in mesh order.
struct DistributedHostTensor {
  TensorLayout layout;
  std::vector<HostTensor> shards;
};

struct PyTensor {
  explicit PyTensor(Tensor traced) : value(std::move(traced)) {}
  explicit PyTensor(HostTensor live) : value(std::move(live)) {}
  explicit PyTensor(DistributedHostTensor live) : value(std::move(live)) {}

  bool isLive() const { return !std::holds_alternative<Tensor>(value); }
  /// The shards of a live distributed tensor, or null.
  const DistributedHostTensor *distributed() const {
    return std::get_if<DistributedHostTensor>(&value);
  }
  /// The traced value; a TypeError for live tensors, naming `what`.
  const Tensor &traced(const char *what) const;
  /// The data of a live tensor on one device; a TypeError for traced and
  /// distributed ones.
  const HostTensor &live(const char *what) const;

  std::variant<Tensor, HostTensor, DistributedHostTensor> value;
};

/// A traced buffer argument (a BufferLayout spec inside stage()).
struct PyBuffer {
  Buffer buffer;
};

/// Locates what is staged while it lives at the innermost Python frame
/// outside the maxgraph package, so errors and op locations name the user's
/// line.
class CallerLocation {
public:
  CallerLocation();

private:
  std::optional<ScopedSourceLocation> scope;
};

/// Where stage()/as_subgraph() was called, kept for the session's later
/// errors (specs, results).
struct SavedLocation {
  /// The caller's location now.
  static SavedLocation current();
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  /// Makes this the location of what is staged in the returned scope.
  ScopedSourceLocation scope() const {
    return ScopedSourceLocation(file.c_str(), line, column);
  }
};

/// Sets the directory whose frames CallerLocation skips (the package).
void setPackageDirectory(std::string directory);

/// What a HostTensor made from a Python array is for, which decides when
/// it may share the array's memory and when it must copy.
enum class ArrayUse {
  /// `Tensor.from_numpy`/`from_dlpack`: shares C-contiguous, aligned,
  /// writable arrays of a maxgraph dtype; copies others into row-major
  /// order (the tensor may be stored into or exported writable later).
  Tensor,
  /// A TensorLayout input of a compiled graph, which the code only reads:
  /// shares read-only arrays too; copies non-contiguous ones.
  GraphInput,
  /// A BufferLayout input, which the code stores into: shares the array's
  /// memory or refuses it (read-only, not C-contiguous, misaligned) with a
  /// TypeError, since a copy would lose the stores.
  GraphBuffer,
};

/// A live tensor over the memory of `array` (anything with `__dlpack__` or
/// the buffer protocol on the CPU, or a numpy-convertible `__array__`),
/// tagged with `device`. The tensor keeps the array alive. `what` starts
/// every error message.
HostTensor hostTensorOfArray(nanobind::handle array, Device device,
                             ArrayUse use, const std::string &what);

/// The kind of numpy's `dtype` ('b', 'i', 'u' or 'f') when a maxgraph dtype
/// holds its numbers: bool, ints of 8 to 64 bits, floats of 16 to 64 bits,
/// no fields. '\0' for any other (longdouble, complex, strings, objects,
/// structured, datetimes): the one rule for every way data enters.
char numpyNumberKind(nanobind::handle dtype);

/// The type of `object` as Python prints it (`<class 'str'>`), for messages.
std::string typeName(nanobind::handle object);

/// Whether `object` is a Python int of any size or has `__index__` (a numpy
/// integer), but is not a bool.
bool isInt(nanobind::handle object);

/// `object` as an int64_t, for argument `argument` of `function` (both
/// start the messages): a TypeError "<function>: <argument> must be
/// <expected>, got <type>" unless `isInt`, a ValueError when the value does
/// not fit in 64 bits. Never nanobind's std::bad_cast.
int64_t toInt64(nanobind::handle object, const std::string &function,
                const std::string &argument, const char *expected = "an int");

/// `None` as nullopt, else `toInt64` (the TypeError expects "an int or
/// None").
std::optional<int64_t> toOptionalInt64(nanobind::handle object,
                                       const std::string &function,
                                       const std::string &argument);

/// `None` as nullopt, a bool as itself, and a TypeError naming `function`
/// and `argument` for anything else.
std::optional<bool> toOptionalBool(nanobind::handle object,
                                   const std::string &function,
                                   const std::string &argument);

/// An operand of a binary op: a traced Tensor, or a Python or numpy number
/// (bool, int, float), which takes the other operand's dtype; a TypeError
/// naming `op` otherwise (one that says to use ops.constant for arrays).
Operand toOperand(nanobind::handle object, const char *op);

/// One Dim from a Python int (static) or str (a symbol or `?`); `what`
/// (when not empty) starts the error messages.
Dim toDim(nanobind::handle object, const std::string &what = "");
/// The dims of a shape argument `argument` of `function`: a sequence of
/// what `toDim` takes; errors name the function, the argument and the
/// index.
std::vector<Dim> toDims(nanobind::handle sequence, const std::string &function,
                        const std::string &argument);
/// A static dim as an int, others as their text.
nanobind::object fromDim(const Dim &dim);
/// The shape of a traced value: a list of `Dim` objects.
nanobind::object tracedShape(const std::vector<Dim> &dims);

/// A mapping over a device mesh from a DeviceMapping, a NamedMapping or a
/// DeviceMesh (replicated), or none for anything else (a Device).
std::optional<sharding::DeviceMapping> toMapping(nanobind::handle object);

void bindTypes(nanobind::module_ &m);
void bindSharding(nanobind::module_ &m, nanobind::handle stagingError);
void bindTensor(nanobind::module_ &m);
void bindOps(nanobind::module_ &m);
void bindStaging(nanobind::module_ &m);
void bindRuntime(nanobind::module_ &m);
void bindDeviceStreams(nanobind::module_ &m);
} // namespace maxgraph::python

#endif // MAXGRAPH_PYTHON_BINDINGS_H
