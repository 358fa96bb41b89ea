//===- ControlFlowLowering.cpp - while_loop and cond to scf ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `while_loop` becomes `scf.while` over the carried tensors and `cond`
// becomes `scf.if`; the regions move over as they are and their ops lower
// in place. The predicate, a rank-0 i1 tensor, is read with
// `tensor.extract`. Stores into buffers inside the regions are memref
// writes, which bufferization leaves in place.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;

namespace {
struct WhileLoopLowering : OpConversionPattern<WhileLoopOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WhileLoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    SmallVector<Type> types;
    if (failed(converter.convertTypes(op.getResultTypes(), types)))
      return rewriter.notifyMatchFailure(op, "carried type not converted");
    auto loop = scf::WhileOp::create(rewriter, op.getLoc(), types,
                                     adaptor.getInitial());
    rewriter.inlineRegionBefore(op.getCondition(), loop.getBefore(),
                                loop.getBefore().end());
    rewriter.inlineRegionBefore(op.getBody(), loop.getAfter(),
                                loop.getAfter().end());
    if (failed(rewriter.convertRegionTypes(&loop.getBefore(), converter)) ||
        failed(rewriter.convertRegionTypes(&loop.getAfter(), converter)))
      return failure();
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct CondLowering : OpConversionPattern<CondOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CondOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return rewriter.notifyMatchFailure(op, "result type not converted");
    Value pred = tensor::ExtractOp::create(rewriter, op.getLoc(),
                                           adaptor.getPred(), ValueRange());
    auto branch = scf::IfOp::create(rewriter, op.getLoc(), types, pred,
                                    /*addThenBlock=*/false,
                                    /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), branch.getThenRegion(),
                                branch.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), branch.getElseRegion(),
                                branch.getElseRegion().end());
    rewriter.replaceOp(op, branch.getResults());
    return success();
  }
};

/// A yield becomes the terminator of the scf region it now ends: the
/// condition of a loop (forwarding the carried values to the body), or a
/// yield.
struct YieldLowering : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto loop = dyn_cast<scf::WhileOp>(op->getParentOp());
    if (loop && op->getParentRegion() == &loop.getBefore()) {
      Value pred = tensor::ExtractOp::create(
          rewriter, op.getLoc(), adaptor.getOperands().front(), ValueRange());
      rewriter.replaceOpWithNewOp<scf::ConditionOp>(
          op, pred, op->getBlock()->getArguments());
      return success();
    }
    if (!loop && !isa<scf::IfOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not in a lowered region op");
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getOperands());
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphControlFlowToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WhileLoopLowering, CondLowering, YieldLowering>(
      converter, patterns.getContext());
}
