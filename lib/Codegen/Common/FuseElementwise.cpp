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

/// The bytes `value` takes as a kernel parameter: a memref descriptor (two
/// pointers, an offset, a size and a stride per dim) for a shaped value.
int64_t kernelParameterBytes(Value value) {
  auto shaped = dyn_cast<ShapedType>(value.getType());
  return 8 * (shaped ? 3 + 2 * shaped.getRank() : 1);
}

/// The bytes of kernel parameters the op made by fusing `fused`'s producer
/// into its owner would take: the owner's operands but the fused one, and
/// the producer's inputs (and inits, where its payload reads them).
int64_t fusedKernelParameterBytes(OpOperand *fused, linalg::LinalgOp producer) {
  int64_t bytes = 0;
  for (OpOperand &operand : fused->getOwner()->getOpOperands())
    if (&operand != fused)
      bytes += kernelParameterBytes(operand.get());
  for (Value input : producer.getDpsInputs())
    bytes += kernelParameterBytes(input);
  auto generic = dyn_cast<linalg::GenericOp>(producer.getOperation());
  if (generic && readsItsInits(generic))
    for (Value init : producer.getDpsInits())
      bytes += kernelParameterBytes(init);
  return bytes;
}

/// linalg's default (the producer has one use), no accumulation fused into
/// a consumer that broadcasts it, and no fused op whose operands would pass
/// `maxParameterBytes` of kernel parameters (where that is not 0).
bool shouldFuse(OpOperand *fused, int64_t maxParameterBytes) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  if (generic && consumer && readsItsInits(generic) &&
      !consumer.getMatchingIndexingMap(fused).isPermutation())
    return false;
  auto producerOp = dyn_cast<linalg::LinalgOp>(producer);
  if (maxParameterBytes > 0 && producerOp &&
      fusedKernelParameterBytes(fused, producerOp) > maxParameterBytes)
    return false;
  return true;
}

struct FuseElementwise
    : public maxgraph::impl::FuseElementwiseBase<FuseElementwise> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    int64_t maxParameterBytes = maxKernelParameterBytes;
    linalg::ControlFusionFn shouldFuse = [=](OpOperand *fused) {
      return ::shouldFuse(fused, maxParameterBytes);
    };
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
