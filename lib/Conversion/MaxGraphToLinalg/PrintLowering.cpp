//===- PrintLowering.cpp - print to a call of the runtime's maxgraphPrint -===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph.print formats on the host, in the runtime (the text is the
// interpreter's): compiled code passes the label's bytes, the value's
// contiguous buffer, its DType code and its sizes to `maxgraphPrint`, as
// i64 words. The call is opaque, so it stays where the op was.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
constexpr StringLiteral kPrintEntry = "maxgraphPrint";

struct PrintLowering : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  /// A read-only buffer holding the constant `values`.
  static Value constantBuffer(OpBuilder &b, Location loc, Type element,
                              ArrayRef<Attribute> values) {
    auto type =
        RankedTensorType::get({static_cast<int64_t>(values.size())}, element);
    Value constant =
        arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
    return bufferization::ToBufferOp::create(
        b, loc, MemRefType::get(type.getShape(), element), constant,
        /*read_only=*/true);
  }

  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The label's bytes, NUL-terminated so that an empty label has storage.
    StringRef label = op.getLabel();
    SmallVector<Attribute> bytes;
    for (char c : label)
      bytes.push_back(rewriter.getI8IntegerAttr(static_cast<int8_t>(c)));
    bytes.push_back(rewriter.getI8IntegerAttr(0));
    Value labelBuffer =
        constantBuffer(rewriter, loc, rewriter.getI8Type(), bytes);

    std::optional<DType> valueType;
    if (op.getValue()) {
      valueType = tryFromMLIRType(layoutOf(op.getValue()).getElementType());
      if (!valueType)
        return op.emitError() << "cannot print element type "
                              << layoutOf(op.getValue()).getElementType();
    }
    Value data = i64Constant(rewriter, loc, 0),
          dtype = i64Constant(rewriter, loc, -1),
          rank = i64Constant(rewriter, loc, -1),
          sizes = i64Constant(rewriter, loc, 0);
    if (Value value = adaptor.getValue()) {
      auto type = cast<RankedTensorType>(value.getType());
      Value buffer = bufferization::ToBufferOp::create(
          rewriter, loc,
          MemRefType::get(type.getShape(), type.getElementType()), value,
          /*read_only=*/true);
      auto sizesType = MemRefType::get({std::max<int64_t>(type.getRank(), 1)},
                                       rewriter.getI64Type());
      Value sizesBuffer = memref::AllocaOp::create(rewriter, loc, sizesType);
      for (int64_t d = 0; d < type.getRank(); ++d)
        memref::StoreOp::create(
            rewriter, loc,
            indexToI64(rewriter, loc, dimOf(rewriter, loc, value, d)),
            sizesBuffer,
            ValueRange{arith::ConstantIndexOp::create(rewriter, loc, d)});
      data = alignedPointerAsI64(rewriter, loc, buffer);
      dtype = i64Constant(rewriter, loc, static_cast<int64_t>(*valueType));
      rank = i64Constant(rewriter, loc, type.getRank());
      sizes = alignedPointerAsI64(rewriter, loc, sizesBuffer);
    }
    SmallVector<Value> arguments = {
        alignedPointerAsI64(rewriter, loc, labelBuffer),
        i64Constant(rewriter, loc, static_cast<int64_t>(label.size())),
        data,
        dtype,
        rank,
        sizes};
    func::FuncOp function = declareRuntimeEntry(
        rewriter, op, kPrintEntry,
        rewriter.getFunctionType(
            SmallVector<Type>(arguments.size(), rewriter.getI64Type()), {}));
    func::CallOp::create(rewriter, loc, function, arguments);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphPrintToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PrintLowering>(converter, patterns.getContext());
}
