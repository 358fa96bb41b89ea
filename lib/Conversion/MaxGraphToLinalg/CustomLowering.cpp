//===- CustomLowering.cpp - maxgraph.custom to func.call ------------------===//
//
// A custom op calls the kernel `func.func` of the same name that
// maxgraph-link-kernels copied into the module, with `tensor.cast` or
// `memref.cast` where the kernel's dims are more or less static than the
// op's.
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

void maxgraph::populateMaxGraphCustomToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CustomLowering>(converter, patterns.getContext());
}
