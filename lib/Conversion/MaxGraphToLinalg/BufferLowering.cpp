//===- BufferLowering.cpp - maxgraph buffer access to memref --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `!maxgraph.buffer` arguments become memrefs, the caller's storage: loads
// copy the current contents out of them and stores copy into them, so that
// loads and stores happen in program order.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// buffer_load: a copy of the buffer's current contents into a new buffer,
/// read as a tensor; later stores do not change it.
struct BufferLoadLowering : OpConversionPattern<BufferLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value buffer = adaptor.getBuffer();
    auto bufferType = cast<MemRefType>(buffer.getType());
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < bufferType.getRank(); ++d)
      if (bufferType.isDynamicDim(d))
        sizes.push_back(memref::DimOp::create(rewriter, loc, buffer, d));
    Value copy = memref::AllocOp::create(rewriter, loc, bufferType, sizes);
    memref::CopyOp::create(rewriter, loc, buffer, copy);
    auto type = RankedTensorType::get(bufferType.getShape(),
                                      bufferType.getElementType());
    Value tensor = bufferization::ToTensorOp::create(
        rewriter, loc, type, copy, /*restrict=*/true, /*writable=*/true);
    RankedTensorType resultType = convertTensorType(layoutOf(op.getResult()));
    if (resultType != type)
      tensor = tensor::CastOp::create(rewriter, loc, resultType, tensor);
    rewriter.replaceOp(op, tensor);
    return success();
  }
};

/// buffer_store: the tensor's buffer (read only) copied into the memref.
struct BufferStoreLowering : OpConversionPattern<BufferStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getValue();
    auto type = cast<RankedTensorType>(value.getType());
    Value source = bufferization::ToBufferOp::create(
        rewriter, loc, bufferization::getMemRefTypeWithFullyDynamicLayout(type),
        value,
        /*read_only=*/true);
    memref::CopyOp::create(rewriter, loc, source, adaptor.getBuffer());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphBufferToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BufferLoadLowering, BufferStoreLowering>(converter,
                                                        patterns.getContext());
}
