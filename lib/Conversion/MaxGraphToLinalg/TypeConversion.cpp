//===- TypeConversion.cpp - maxgraph types to builtin types ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The type converter of convert-maxgraph-to-linalg and the type helpers the
// patterns use directly: maxgraph tensors become builtin tensors, buffers
// identity-layout memrefs (the caller's storage), and signed and unsigned
// integers become signless. Casts to more static types are checked at run
// time.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

Type maxgraph::detail::convertElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

RankedTensorType maxgraph::detail::convertTensorType(TensorLayoutType type) {
  return RankedTensorType::get(type.getShape(),
                               convertElementType(type.getElementType()));
}

MemRefType maxgraph::detail::convertBufferType(BufferLayoutType type) {
  return MemRefType::get(type.getShape(),
                         convertElementType(type.getElementType()));
}

MaxGraphToLinalgTypeConverter::MaxGraphToLinalgTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion(
      [](TensorLayoutType type) -> Type { return convertTensorType(type); });
  addConversion(
      [](BufferLayoutType type) -> Type { return convertBufferType(type); });
}

Value maxgraph::detail::castToType(OpBuilder &builder, Location loc,
                                   Value value, Type type,
                                   const Twine &checked) {
  if (value.getType() == type)
    return value;
  auto from = cast<ShapedType>(value.getType());
  auto to = cast<ShapedType>(type);
  // Callers check the types up front (checkKernelSignature, the call
  // verifier): only static and dynamic dims may differ.
  auto build = [&](OpBuilder &b, Location at) -> Value {
    if (isa<MemRefType>(type)) {
      assert(memref::CastOp::areCastCompatible(value.getType(), type) &&
             "castToType: memref types differ in more than static dims");
      return memref::CastOp::create(b, at, type, value);
    }
    assert(tensor::CastOp::areCastCompatible(value.getType(), type) &&
           "castToType: tensor types differ in more than static dims");
    return tensor::CastOp::create(b, at, type, value);
  };
  // A dynamic dim cast to a static one must have that size.
  Value ok;
  bool check = !checked.isTriviallyEmpty();
  for (int64_t d = 0; check && d < to.getRank(); ++d) {
    if (!from.isDynamicDim(d) || to.isDynamicDim(d))
      continue;
    Value same = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, dimOf(builder, loc, value, d),
        arith::ConstantIndexOp::create(builder, loc, to.getDimSize(d)));
    emitRuntimeCheck(builder, loc, same,
                     checked + ": dim " + Twine(d) + " is not " +
                         Twine(to.getDimSize(d)) + " at run time");
    ok = ok ? arith::AndIOp::create(builder, loc, ok, same).getResult() : same;
  }
  if (!ok)
    return build(builder, loc);
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < to.getRank(); ++d)
    if (to.isDynamicDim(d))
      dynamicSizes.push_back(dimOf(builder, loc, value, d));
  // After a failed check the code goes on with fresh storage of the right
  // size instead of reading past the value.
  if (auto memref = dyn_cast<MemRefType>(type)) {
    auto ifOp = scf::IfOp::create(
        builder, loc, ok,
        [&](OpBuilder &b, Location at) {
          scf::YieldOp::create(b, at, build(b, at));
        },
        [&](OpBuilder &b, Location at) {
          scf::YieldOp::create(
              b, at,
              memref::AllocOp::create(b, at, memref, dynamicSizes).getResult());
        });
    return ifOp.getResult(0);
  }
  return guardedValue(builder, loc, ok, cast<RankedTensorType>(type),
                      dynamicSizes, build);
}
