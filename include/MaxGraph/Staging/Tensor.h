//===- Tensor.h - traced values ---------------------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_STAGING_TENSOR_H
#define MAXGRAPH_STAGING_TENSOR_H

#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Staging/StagingError.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace maxgraph {
namespace detail {
class Trace;
struct Distribution;

/// What a trace shares with the values it makes, so that a value can tell
/// that its trace has ended (and its MLIR value may be gone with the
/// module) without touching the value.
struct TraceLifetime {
  explicit TraceLifetime(std::string graph) : graph(std::move(graph)) {}
  /// Set when the trace ends; values of an ended trace refuse every use.
  std::atomic<bool> ended{false};
  /// What the trace recorded, for messages: `graph @main`.
  const std::string graph;
  /// The name of each external weight declared in the trace
  /// (constant_external), by its value.
  llvm::DenseMap<mlir::Value, std::string> weightNames;
};
} // namespace detail

/// A value being traced: the result of a staged op or a graph argument.
/// Tensors exist only inside the function passed to stage(); operations on
/// them record ops and check shapes at the line that wrote them. Once the
/// trace that made a tensor has ended, every accessor throws a
/// StagingError saying so: its MLIR value may no longer exist.
class Tensor {
public:
  Tensor() = default;
  /// The layout of this value (dims may be symbolic or algebraic).
  TensorLayout layout(SourceLoc loc = SourceLoc::current()) const;
  DType dtype(SourceLoc loc = SourceLoc::current()) const;
  std::vector<Dim> shape(SourceLoc loc = SourceLoc::current()) const;
  Device device(SourceLoc loc = SourceLoc::current()) const;
  int64_t rank(SourceLoc loc = SourceLoc::current()) const;
  /// Whether this is a value of a trace that is still recording (false for
  /// an empty Tensor and once the trace has ended).
  bool isAlive() const;
  /// Whether this tensor spans a device mesh: its layout() is then the
  /// global layout with its mapping, and each device of the mesh holds one
  /// of localShards(). Ops on distributed tensors stage one op per device
  /// and the collectives their placements need (MaxGraph/Staging/Ops.h).
  bool isDistributed() const { return distribution != nullptr; }
  /// The shards of a distributed tensor, one per device in mesh order; a
  /// tensor on one device is its own only shard.
  std::vector<Tensor> localShards(SourceLoc loc = SourceLoc::current()) const;
  /// What made this tensor, for messages: `graph @main`, or empty for an
  /// empty Tensor.
  std::string traceName() const;
  /// The name this tensor loads under when it is an external weight, as
  /// constant_external declared it (relative to an as_subgraph body's
  /// prefix; a distributed weight's, without its shards' `._shard.<i>`);
  /// nullopt for every other tensor, one computed from a weight included.
  std::optional<std::string>
  externalName(SourceLoc loc = SourceLoc::current()) const;

  /// The MLIR value (for code that builds IR by hand); a StagingError once
  /// the trace has ended, and for a distributed tensor (one value per
  /// device: take localShards()).
  mlir::Value getValue(SourceLoc loc = SourceLoc::current()) const;
  /// The trace (graph body) that made this value; never reused.
  uint64_t getTraceId() const { return traceId; }
  Tensor(mlir::Value value, uint64_t traceId,
         std::shared_ptr<const detail::TraceLifetime> lifetime)
      : value(value), traceId(traceId), lifetime(std::move(lifetime)) {}

  /// What a distributed tensor holds (null for a tensor on one device);
  /// opaque outside the staging library.
  const detail::Distribution *getDistribution() const {
    return distribution.get();
  }
  /// A distributed tensor over `distribution`'s shards.
  explicit Tensor(std::shared_ptr<const detail::Distribution> distribution);

private:
  friend class detail::Trace;
  mlir::Value value;
  uint64_t traceId = 0;
  std::shared_ptr<const detail::TraceLifetime> lifetime;
  std::shared_ptr<const detail::Distribution> distribution;
};

/// A traced buffer argument: the graph may load it and store into it.
/// Like a Tensor, it refuses every use once its trace has ended.
class Buffer {
public:
  Buffer() = default;
  /// The buffer's current contents.
  Tensor load(SourceLoc loc = SourceLoc::current()) const;
  /// Overwrites the buffer with `value` (same dims, dtype and device).
  void store(const Tensor &value, SourceLoc loc = SourceLoc::current()) const;
  BufferLayout layout(SourceLoc loc = SourceLoc::current()) const;
  /// Whether this is a value of a trace that is still recording.
  bool isAlive() const;
  /// What made this buffer, for messages: `graph @main`.
  std::string traceName() const;

  /// The MLIR value; a StagingError once the trace has ended.
  mlir::Value getValue(SourceLoc loc = SourceLoc::current()) const;
  uint64_t getTraceId() const { return traceId; }
  Buffer(mlir::Value value, uint64_t traceId,
         std::shared_ptr<const detail::TraceLifetime> lifetime)
      : value(value), traceId(traceId), lifetime(std::move(lifetime)) {}

private:
  friend class detail::Trace;
  mlir::Value value;
  uint64_t traceId = 0;
  std::shared_ptr<const detail::TraceLifetime> lifetime;
};

/// An operand of a binary op: a Tensor, or a number that becomes a constant
/// of the other operand's dtype. Converting records the user's source
/// location, which is how `a + b` reports errors at the user's line.
class Operand {
public:
  Operand(const Tensor &tensor, SourceLoc loc = SourceLoc::current())
      : tensor(tensor), loc(loc) {}
  /// A buffer used as a value reads its current contents (`buffer_load`).
  Operand(const Buffer &buffer, SourceLoc loc = SourceLoc::current())
      : tensor(buffer.load(loc)), loc(loc) {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Operand(T number, SourceLoc loc = SourceLoc::current())
      : number(static_cast<double>(number)), isNumber(true), loc(loc) {}

  Tensor tensor;
  double number = 0;
  bool isNumber = false;
  SourceLoc loc;
};

Tensor operator+(const Operand &lhs, const Operand &rhs);
Tensor operator-(const Operand &lhs, const Operand &rhs);
Tensor operator*(const Operand &lhs, const Operand &rhs);
Tensor operator/(const Operand &lhs, const Operand &rhs);
Tensor operator%(const Operand &lhs, const Operand &rhs);
Tensor operator-(const Operand &operand);
/// Comparisons return Bool tensors.
Tensor operator==(const Operand &lhs, const Operand &rhs);
Tensor operator!=(const Operand &lhs, const Operand &rhs);
Tensor operator<(const Operand &lhs, const Operand &rhs);
Tensor operator<=(const Operand &lhs, const Operand &rhs);
Tensor operator>(const Operand &lhs, const Operand &rhs);
Tensor operator>=(const Operand &lhs, const Operand &rhs);
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_TENSOR_H
