//===- Tensor.h - traced values ---------------------------------*- C++ -*-===//

#ifndef MAXGRAPH_STAGING_TENSOR_H
#define MAXGRAPH_STAGING_TENSOR_H

#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Staging/StagingError.h"
#include "mlir/IR/Value.h"
#include <cstdint>
#include <type_traits>

namespace maxgraph {
/// A value being traced: the result of a staged op or a graph argument.
/// Tensors exist only inside the function passed to stage(); operations on
/// them record ops and check shapes at the line that wrote them.
class Tensor {
public:
  Tensor() = default;
  /// The layout of this value (dims may be symbolic or algebraic).
  TensorLayout layout() const;
  DType dtype() const;
  std::vector<Dim> shape() const;
  Device device() const;
  int64_t rank() const;

  /// The MLIR value (for code that builds IR by hand).
  mlir::Value getValue() const { return value; }
  /// The trace (graph body) that made this value; never reused.
  uint64_t getTraceId() const { return traceId; }
  Tensor(mlir::Value value, uint64_t traceId)
      : value(value), type(value ? value.getType() : mlir::Type()),
        traceId(traceId) {}

private:
  mlir::Value value;
  /// The value's type (owned by the staging context, which outlives every
  /// graph), so that layout() stays valid after the graph's IR is gone: a
  /// Tensor kept past its trace is refused by ops, but can still be printed.
  mlir::Type type;
  uint64_t traceId = 0;
};

/// A traced buffer argument: the graph may load it and store into it.
class Buffer {
public:
  Buffer() = default;
  /// The buffer's current contents.
  Tensor load(SourceLoc loc = SourceLoc::current()) const;
  /// Overwrites the buffer with `value` (same dims, dtype and device).
  void store(const Tensor &value, SourceLoc loc = SourceLoc::current()) const;
  BufferLayout layout() const;

  mlir::Value getValue() const { return value; }
  uint64_t getTraceId() const { return traceId; }
  Buffer(mlir::Value value, uint64_t traceId)
      : value(value), type(value ? value.getType() : mlir::Type()),
        traceId(traceId) {}

private:
  mlir::Value value;
  /// The value's type, as in Tensor.
  mlir::Type type;
  uint64_t traceId = 0;
};

/// An operand of a binary op: a Tensor, or a number that becomes a constant
/// of the other operand's dtype. Converting records the user's source
/// location, which is how `a + b` reports errors at the user's line.
class Operand {
public:
  Operand(const Tensor &tensor, SourceLoc loc = SourceLoc::current())
      : tensor(tensor), loc(loc) {}
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
