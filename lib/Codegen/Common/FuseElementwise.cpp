//===- FuseElementwise.cpp - elementwise fusion that keeps accumulations --===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace maxgraph {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "MaxGraph/Codegen/Common/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether `producer`'s payload reads one of its inits.
bool readsItsInits(linalg::GenericOp producer) {
  return llvm::any_of(producer.getDpsInitsMutable(), [&](OpOperand &init) {
    return !producer.getMatchingBlockArgument(&init).use_empty();
  });
}

/// linalg's default (the producer has one use), and no accumulation fused
/// into a consumer that broadcasts it.
bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  if (generic && consumer && readsItsInits(generic) &&
      !consumer.getMatchingIndexingMap(fused).isPermutation())
    return false;
  return true;
}

struct FuseElementwise
    : public maxgraph::impl::FuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, shouldFuse);
    linalg::populateConstantFoldLinalgOperations(patterns, shouldFuse);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
