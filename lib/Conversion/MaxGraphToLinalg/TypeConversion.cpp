//===- TypeConversion.cpp - maxgraph types to builtin types ---------------===//
//
// The type converter of convert-maxgraph-to-linalg and the type helpers the
// patterns use directly: maxgraph tensors become builtin tensors, buffers
// identity-layout memrefs (the caller's storage), and signed and unsigned
// integers become signless.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
                                   Value value, Type type) {
  if (value.getType() == type)
    return value;
  // Callers check the types up front (checkKernelSignature, the call
  // verifier): only static and dynamic dims may differ.
  if (isa<MemRefType>(type)) {
    assert(memref::CastOp::areCastCompatible(value.getType(), type) &&
           "castToType: memref types differ in more than static dims");
    return memref::CastOp::create(builder, loc, type, value);
  }
  assert(tensor::CastOp::areCastCompatible(value.getType(), type) &&
         "castToType: tensor types differ in more than static dims");
  return tensor::CastOp::create(builder, loc, type, value);
}
