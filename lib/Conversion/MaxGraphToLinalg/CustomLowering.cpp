//===- CustomLowering.cpp - maxgraph.custom to func.call ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A custom op calls the kernel `func.func` of the same name that
// maxgraph-link-kernels copied into the module, with `tensor.cast` or
// `memref.cast` where the kernel's dims are more or less static than the
// op's. The signature check that makes those casts valid is shared by
// maxgraph-link-kernels (against the library's kernel) and by the up-front
// checks of the conversion (against the module's kernel).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// Whether `dims` (maxgraph) and `shape` (builtin) agree on rank and on
/// every dim that both give statically.
bool dimsFit(ArrayRef<DimAttr> dims, ArrayRef<int64_t> shape) {
  if (dims.size() != shape.size())
    return false;
  for (auto [dim, size] : llvm::zip_equal(dims, shape))
    if (dim.isStatic() && !ShapedType::isDynamic(size) &&
        dim.getStaticSize() != size)
      return false;
  return true;
}

/// Whether kernel type `kernelType` can take (or give) maxgraph value type
/// `type`: a tensor for a tensor, an identity-layout memref for a buffer,
/// with the converted (signless) element type and compatible dims, so that
/// at most a `tensor.cast` or `memref.cast` between static and dynamic dims
/// is needed.
bool fits(Type type, Type kernelType) {
  auto layout = cast<LayoutType>(type);
  Type element = convertElementType(layout.getElementType());
  if (isa<TensorLayoutType>(type)) {
    auto tensor = dyn_cast<RankedTensorType>(kernelType);
    return tensor && !tensor.getEncoding() &&
           tensor.getElementType() == element &&
           dimsFit(layout.getDims(), tensor.getShape());
  }
  auto memref = dyn_cast<MemRefType>(kernelType);
  return memref && memref.getLayout().isIdentity() &&
         !memref.getMemorySpace() && memref.getElementType() == element &&
         dimsFit(layout.getDims(), memref.getShape());
}

/// custom: a call of the linked kernel, with casts where the kernel's dims
/// are more or less static than the op's.
struct CustomLowering : OpConversionPattern<CustomOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CustomOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto kernel = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getKernelAttr());
    if (!kernel)
      return rewriter.notifyMatchFailure(op, "kernel not linked");
    FunctionType signature = kernel.getFunctionType();
    SmallVector<Value> operands;
    for (auto [index, operand] : llvm::enumerate(adaptor.getInputs()))
      operands.push_back(castToType(rewriter, loc, operand,
                                    signature.getInput(index),
                                    "maxgraph.custom: operand " + Twine(index) +
                                        " of kernel @" + kernel.getSymName()));
    auto call = func::CallOp::create(rewriter, loc, kernel, operands);
    SmallVector<Value> results;
    for (auto [index, result] : llvm::enumerate(call.getResults()))
      results.push_back(
          castToType(rewriter, loc, result,
                     convertTensorType(layoutOf(op.getResult(index))),
                     "maxgraph.custom: result " + Twine(index) +
                         " of kernel @" + kernel.getSymName()));
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

LogicalResult maxgraph::detail::checkKernelSignature(CustomOp op,
                                                     func::FuncOp kernel,
                                                     bool noteDefinition) {
  auto fail = [&](InFlightDiagnostic diag) {
    if (noteDefinition)
      diag.attachNote(kernel.getLoc())
          << "custom kernel '" << op.getKernel() << "' is defined here";
    return failure();
  };
  FunctionType type = kernel.getFunctionType();
  if (type.getNumInputs() != op.getInputs().size() ||
      type.getNumResults() != op.getNumResults())
    return fail(op.emitError()
                << "custom kernel '" << op.getKernel() << "' takes "
                << type.getNumInputs() << " inputs and returns "
                << type.getNumResults() << " results, but the op passes "
                << op.getInputs().size() << " and expects "
                << op.getNumResults());
  for (auto [index, operand] : llvm::enumerate(op.getInputs()))
    if (!fits(operand.getType(), type.getInput(index)))
      return fail(op.emitError()
                  << "input " << index << " of custom kernel '"
                  << op.getKernel() << "' has type " << operand.getType()
                  << " but the kernel takes " << type.getInput(index)
                  << (isa<BufferLayoutType>(operand.getType())
                          ? " (a buffer is passed as a memref)"
                          : " (a tensor is passed as a tensor)"));
  for (auto [index, result] : llvm::enumerate(op.getResultTypes()))
    if (!fits(result, type.getResult(index)))
      return fail(op.emitError()
                  << "result " << index << " of custom kernel '"
                  << op.getKernel() << "' has type " << result
                  << " but the kernel returns " << type.getResult(index));
  return success();
}

void maxgraph::populateMaxGraphCustomToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CustomLowering>(converter, patterns.getContext());
}
