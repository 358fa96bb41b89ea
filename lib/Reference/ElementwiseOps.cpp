//===- ElementwiseOps.cpp - elementwise ops and constants -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Elementwise binary and unary ops, casts and constants, element by element
// with the scalar semantics (ScalarSemantics.h) that the folders use too.
//
//===----------------------------------------------------------------------===//

#include "GraphRun.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::interpreter;

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

HostTensor GraphRun::binary(Operation *op, const HostTensor &lhs,
                            const HostTensor &rhs) {
  std::string what = opName(op);
  if (lhs.dtype() != rhs.dtype())
    fail(what + ": operands have dtypes " + toString(lhs.dtype()) + " and " +
         toString(rhs.dtype()));
  Shape shape = broadcastShapes({lhs.shape(), rhs.shape()}, what);
  HostTensor result = make(op->getResult(0).getType(), shape);
  DType dtype = lhs.dtype();
  bool isSigned = isSignedInt(dtype);

  if (auto cmp = dyn_cast<CmpOp>(op)) {
    CmpPredicate predicate = cmp.getPredicate();
    forEachBroadcast(
        shape, {&lhs, &rhs}, [&](int64_t out, const std::vector<int64_t> &at) {
          bool value;
          if (isFloat(dtype)) {
            double a = loadElementAsDouble(lhs, at[0]),
                   b = loadElementAsDouble(rhs, at[1]);
            if (std::isnan(a) || std::isnan(b))
              value = predicate == CmpPredicate::ne;
            else
              value = evaluateCmpPredicate(predicate, a < b    ? -1
                                                      : a == b ? 0
                                                               : 1);
          } else {
            // Bools load as 0 and 1 and compare unsigned: false < true.
            value = evaluateCmpPredicate(
                predicate, compareInts(loadInt(lhs, at[0]), loadInt(rhs, at[1]),
                                       isSigned));
          }
          storeInt(result, out, value);
        });
    return result;
  }

  scalar::BinaryOp kind = cast<BinaryElementwiseOpInterface>(op).getScalarOp();
  if (isFloat(dtype)) {
    if (!scalar::takesFloats(kind))
      fail(what + " does not take " + toString(dtype) + " operands");
    forEachBroadcast(
        shape, {&lhs, &rhs}, [&](int64_t out, const std::vector<int64_t> &at) {
          storeElementAsFloat(
              result, out,
              scalar::evaluate(kind, loadElementAsDouble(lhs, at[0]),
                               loadElementAsDouble(rhs, at[1])));
        });
  } else {
    scalar::IntKind intKind = intKindOf(dtype);
    forEachBroadcast(shape, {&lhs, &rhs},
                     [&](int64_t out, const std::vector<int64_t> &at) {
                       storeInt(result, out,
                                scalar::evaluate(kind, loadInt(lhs, at[0]),
                                                 loadInt(rhs, at[1]), intKind));
                     });
  }
  return result;
}

HostTensor GraphRun::unary(Operation *op, const HostTensor &input) {
  std::string what = opName(op);
  DType dtype = input.dtype();
  HostTensor result = make(op->getResult(0).getType(), input.shape());
  int64_t count = input.numElements();
  if (isa<IsNanOp, IsInfOp>(op)) {
    bool isNan = isa<IsNanOp>(op);
    for (int64_t i = 0; i < count; ++i) {
      double x = loadElementAsDouble(input, i);
      storeInt(result, i, isNan ? std::isnan(x) : std::isinf(x));
    }
    return result;
  }
  scalar::UnaryOp kind = cast<UnaryElementwiseOpInterface>(op).getScalarOp();
  if (!isFloat(dtype)) {
    if (!scalar::takesIntegers(kind))
      fail(what + " does not take " + toString(dtype) + " operands");
    scalar::IntKind intKind = intKindOf(dtype);
    for (int64_t i = 0; i < count; ++i)
      storeInt(result, i, scalar::evaluate(kind, loadInt(input, i), intKind));
    return result;
  }
  if (!scalar::takesFloats(kind))
    fail(what + " does not take " + toString(dtype) + " operands");
  for (int64_t i = 0; i < count; ++i)
    storeElementAsFloat(result, i,
                        scalar::evaluate(kind, loadElementAsDouble(input, i)));
  return result;
}

HostTensor GraphRun::castTensor(Type resultType, const HostTensor &input) {
  HostTensor result = make(resultType, input.shape());
  DType from = input.dtype(), to = result.dtype();
  int64_t count = input.numElements();
  for (int64_t i = 0; i < count; ++i) {
    if (isFloat(to)) {
      double value = isFloat(from) ? loadElementAsDouble(input, i)
                                   : scalar::castIntToFloat(loadInt(input, i),
                                                            intKindOf(from),
                                                            floatSemantics(to));
      storeElementAsFloat(result, i, value);
    } else if (isFloat(from)) {
      storeInt(
          result, i,
          scalar::castFloatToInt(loadElementAsDouble(input, i), intKindOf(to)));
    } else {
      storeInt(result, i,
               scalar::castIntToInt(loadInt(input, i), intKindOf(to)));
    }
  }
  return result;
}

HostTensor GraphRun::constant(ConstantOp op) {
  auto type = op.getType();
  Shape shape(type.getShape().begin(), type.getShape().end());
  for (int64_t size : shape)
    if (size < 0)
      fail("maxgraph.constant has a non-static type " + str(type));
  HostTensor result = make(type, shape);
  DType dtype = result.dtype();
  Attribute value = op.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    int64_t i = 0;
    if (isa<FloatType>(dense.getElementType())) {
      for (const llvm::APFloat &element : dense.getValues<llvm::APFloat>())
        storeElementBits(result, i++, element.bitcastToAPInt().getZExtValue());
    } else {
      for (const llvm::APInt &element : dense.getValues<llvm::APInt>())
        storeInt(result, i++, element.getZExtValue());
    }
    if (i != result.numElements())
      fail("maxgraph.constant has " + std::to_string(i) + " values for " +
           std::to_string(result.numElements()) + " elements");
    return result;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      fail("maxgraph.constant: dense_resource<" +
           resource.getRawHandle().getKey().str() + "> has no data");
    ArrayRef<char> data = blob->getData();
    size_t bytes = result.numElements() * sizeInBytes(dtype);
    if (data.size() != bytes)
      fail("maxgraph.constant: dense_resource<" +
           resource.getRawHandle().getKey().str() + "> holds " +
           std::to_string(data.size()) + " bytes but " + str(type) + " needs " +
           std::to_string(bytes));
    std::memcpy(result.rawData(), data.data(), bytes);
    if (dtype == DType::Bool)
      for (int64_t i = 0; i < result.numElements(); ++i)
        storeInt(result, i, loadElementBits(result, i) != 0);
    return result;
  }
  fail("maxgraph.constant: unsupported elements attribute kind");
}
