//===- InterpreterSupport.cpp - element, shape and dim helpers ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What every op family of the interpreter shares: element access in the
// scalar semantics' forms, numpy broadcasting, axes and dims.
//
//===----------------------------------------------------------------------===//

#include "GraphRun.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimExprOf.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Support/Error.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::interpreter;

namespace maxgraph::interpreter {
[[noreturn]] void fail(const std::string &message) {
  throw RuntimeError("interpret: " + message);
}

std::string str(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Advances the row-major multi-index `index` within `shape`.
void increment(Shape &index, const Shape &shape) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d])
      return;
    index[d] = 0;
  }
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

/// Element `i` of an integer or bool tensor, sign- or zero-extended to 64
/// bits; a bool is 0 or 1 (any nonzero byte is true).
uint64_t loadInt(const HostTensor &tensor, int64_t i) {
  DType dtype = tensor.dtype();
  uint64_t bits = loadElementBits(tensor, i);
  if (dtype == DType::Bool)
    return bits != 0;
  if (isSignedInt(dtype))
    return static_cast<uint64_t>(llvm::SignExtend64(bits, bitWidth(dtype)));
  return bits;
}

/// Stores `value` truncated to the width of integer element `i`.
void storeInt(HostTensor &tensor, int64_t i, uint64_t value) {
  if (tensor.dtype() == DType::Bool)
    return storeElementBits(tensor, i, value & 1);
  storeElementBits(tensor, i, value);
}

void copyElement(HostTensor &to, int64_t toIndex, const HostTensor &from,
                 int64_t fromIndex) {
  storeElementBits(to, toIndex, loadElementBits(from, fromIndex));
}

/// A copy of `tensor` with another device tag.
HostTensor retag(const HostTensor &tensor, Device device) {
  HostTensor result(tensor.dtype(), tensor.shape(), device);
  size_t bytes = tensor.numElements() * sizeInBytes(tensor.dtype());
  // Empty tensors have no storage: memcpy must not see their null pointers.
  if (bytes)
    std::memcpy(result.rawData(), tensor.rawData(), bytes);
  return result;
}

//===----------------------------------------------------------------------===//
// Scalar semantics (ScalarSemantics.h holds each op's arithmetic)
//===----------------------------------------------------------------------===//

scalar::IntKind intKindOf(DType dtype) {
  return {bitWidth(dtype), isSignedInt(dtype)};
}

/// -1, 0 or 1 as `a` is below, equal to or above `b` (values extended to
/// 64 bits, so their width does not matter).
int compareInts(uint64_t a, uint64_t b, bool isSigned) {
  return scalar::compare(a, b, wide(isSigned));
}

double nanMax(double a, double b) {
  return scalar::evaluate(scalar::BinaryOp::Max, a, b);
}

double nanMin(double a, double b) {
  return scalar::evaluate(scalar::BinaryOp::Min, a, b);
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

/// Numpy broadcasting of `shapes`; `what` names the op for errors.
Shape broadcastShapes(const std::vector<Shape> &shapes,
                      const std::string &what) {
  size_t rank = 0;
  for (const Shape &shape : shapes)
    rank = std::max(rank, shape.size());
  Shape result(rank, 1);
  for (const Shape &shape : shapes) {
    size_t offset = rank - shape.size();
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t &target = result[offset + d];
      if (shape[d] == target || shape[d] == 1)
        continue;
      if (target != 1) {
        std::string all;
        for (const Shape &each : shapes)
          all += (all.empty() ? "" : " and ") + shapeString(each);
        fail(what + ": shapes " + all + " cannot broadcast");
      }
      target = shape[d];
    }
  }
  return result;
}

/// Element strides of `from` read as the broadcast shape `to`: 0 along the
/// dims it stretches.
Shape broadcastStrides(const Shape &from, const Shape &to) {
  Shape strides(to.size(), 0), own = rowMajorStrides(from);
  size_t offset = to.size() - from.size();
  for (size_t d = 0; d < from.size(); ++d)
    strides[offset + d] = from[d] == 1 ? 0 : own[d];
  return strides;
}

/// Calls `fn(outIndex, offsets)` for every element of the broadcast shape
/// `shape`, with each operand's element offset.
void forEachBroadcast(
    const Shape &shape, const std::vector<const HostTensor *> &operands,
    const std::function<void(int64_t, const std::vector<int64_t> &)> &fn) {
  std::vector<Shape> strides;
  for (const HostTensor *operand : operands)
    strides.push_back(broadcastStrides(operand->shape(), shape));
  int64_t count = numElements(shape);
  Shape index(shape.size(), 0);
  std::vector<int64_t> offsets(operands.size());
  for (int64_t linear = 0; linear < count; ++linear) {
    for (size_t k = 0; k < operands.size(); ++k) {
      int64_t offset = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        offset += index[d] * strides[k][d];
      offsets[k] = offset;
    }
    fn(linear, offsets);
    increment(index, shape);
  }
}

/// Normalizes a possibly negative axis of a rank-`rank` tensor.
int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string &what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    fail(what + ": axis " + std::to_string(axis) +
         " is out of range for rank " + std::to_string(rank));
  return normalized;
}

AxisSplit splitAt(const Shape &shape, int64_t axis) {
  AxisSplit split;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis)
      split.outer *= shape[d];
    else if (d == axis)
      split.size = shape[d];
    else
      split.inner *= shape[d];
  }
  return split;
}

//===----------------------------------------------------------------------===//
// Dims
//===----------------------------------------------------------------------===//

int64_t floorDivide(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    --quotient;
  return quotient;
}

std::optional<int64_t> evalDim(DimAttr dim, const Bindings &bindings,
                               Operation *op) {
  DimExpr::Value value = dimExprOf(dim).evaluateWith(
      [&](StringRef symbol) -> std::optional<int64_t> {
        auto bound = bindings.find(symbol);
        if (bound == bindings.end())
          return std::nullopt;
        return bound->second;
      });
  if (value.status == DimExpr::Value::Status::Overflow) {
    std::string where = op ? opName(op) + ": " : "";
    if (auto at = op ? dyn_cast<FileLineColLoc>(op->getLoc()) : nullptr)
      where = at.getFilename().str() + ":" + std::to_string(at.getLine()) +
              ":" + std::to_string(at.getColumn()) + ": " + where;
    fail(where + "dim `" + dim.str() +
         "` overflows 64-bit integers at run time");
  }
  if (!value.known())
    return std::nullopt;
  return value.size;
}

Device deviceOf(Type type) {
  DeviceAttr device = cast<LayoutType>(type).getDevice();
  Device::Kind kind = device.getKind() == DeviceKind::gpu ? Device::Kind::GPU
                                                          : Device::Kind::CPU;
  return Device{kind, static_cast<int>(device.getId())};
}

DType dtypeOf(Type type) {
  Type element = cast<LayoutType>(type).getElementType();
  if (std::optional<DType> dtype = tryFromMLIRType(element))
    return *dtype;
  fail("element type " + str(element) + " has no maxgraph::DType");
}

std::string opName(Operation *op) { return op->getName().getStringRef().str(); }
} // namespace maxgraph::interpreter
