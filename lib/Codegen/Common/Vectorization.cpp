//===- Vectorization.cpp - vectorizing the marked tiles -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {
/// Marks the innermost tiles that are to be vectorized.
constexpr StringLiteral kVectorTileAttr = "maxgraph.vector_tile";

bool hasStaticShape(linalg::LinalgOp op) {
  return llvm::none_of(op.getStaticLoopRanges(), ShapedType::isDynamic);
}

/// Vectors of i1 are bit-packed in memory while memrefs of i1 take a byte per
/// element: ops that load or store them stay scalar.
bool hasSubByteOperands(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    Type element = getElementTypeOrSelf(type);
    return element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 != 0;
  });
}

/// The sizes that tileDynamicTiles tiles `op` to; all 0 when its shape is
/// static as far as vectorizing goes.
SmallVector<int64_t> dynamicTileSizes(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  if (hasSubByteOperands(op))
    return sizes;
  // A matmul tile's K may stay dynamic (vectorizeMatmulTile steps through
  // it).
  unsigned tiled = isa<linalg::MatmulOp>(op.getOperation()) ? 2 : sizes.size();
  for (unsigned dim = 0; dim < tiled; ++dim) {
    if (!ShapedType::isDynamic(ranges[dim]))
      continue;
    bool columns = isa<linalg::MatmulOp>(op.getOperation())
                       ? dim == 1
                       : dim + 1 == ranges.size();
    sizes[dim] = columns ? lanes : 1;
  }
  return sizes;
}

/// Computes the sizes of `op`'s operand slices that an affine.apply gives
/// (a remainder's `ub - iv`) with arith ops instead. Tiling would compose
/// the affine.apply into each tile's affine.min, in the values it reads
/// (`min(16, ub - iv - j)`), and peeling could not match that to the new
/// loop's bound (`ub - iv`) to prove its main tiles full; an opaque size
/// is the same value in both.
void expandSliceSizes(RewriterBase &rewriter, linalg::LinalgOp op) {
  llvm::SetVector<affine::AffineApplyOp> applies;
  for (Value operand : op->getOperands())
    if (auto slice = operand.getDefiningOp<tensor::ExtractSliceOp>())
      for (Value size : slice.getSizes())
        if (auto apply = size.getDefiningOp<affine::AffineApplyOp>())
          applies.insert(apply);
  for (affine::AffineApplyOp apply : applies) {
    rewriter.setInsertionPoint(apply);
    std::optional<SmallVector<Value, 8>> expanded = affine::expandAffineMap(
        rewriter, apply.getLoc(), apply.getAffineMap(), apply.getOperands());
    if (expanded)
      rewriter.replaceOp(apply, *expanded);
  }
}

/// Vectorizes a register tile of a matmul whose M and N are static (K may
/// be the dynamic last panel): a K loop of one, a vector.contract per step,
/// the accumulator carried in registers.
void vectorizeMatmulTile(RewriterBase &rewriter, linalg::MatmulOp matmul) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  if (ShapedType::isDynamic(ranges[0]) || ShapedType::isDynamic(ranges[1]))
    return;
  FailureOr<scf::SCFTilingResult> steps = maxgraph::tileWithForLoops(
      rewriter, cast<TilingInterface>(matmul.getOperation()), {0, 0, 1});
  if (failed(steps))
    return;
  Operation *step = steps->tiledOps.back();
  rewriter.setInsertionPoint(step);
  FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
      rewriter, step, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
      /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false,
      /*createNamedContraction=*/true);
  if (failed(vectorized))
    return;
  rewriter.replaceOp(step, vectorized->replacements);
  if (steps->loops.empty())
    return;
  // The accumulator's read and write are loop invariant once the constants
  // they index with are out of the loop.
  LoopLikeOpInterface loop = steps->loops.front();
  moveLoopInvariantCode(loop);
  hoistLoopInvariantSubsets(rewriter, loop);
}

/// Vectorizes any other tile of static shape as it is.
void vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!hasStaticShape(op) || hasSubByteOperands(op))
    return;
  if (failed(linalg::vectorizeOpPrecondition(op)))
    return;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op);
  if (succeeded(result))
    rewriter.replaceOp(op, result->replacements);
}
} // namespace

void maxgraph::markForVectorization(Operation *op) {
  op->setAttr(kVectorTileAttr, UnitAttr::get(op->getContext()));
}

void maxgraph::tileDynamicTiles(RewriterBase &rewriter, Operation *root,
                                int64_t lanes) {
  if (lanes < 2)
    return;
  SmallVector<linalg::LinalgOp> tiles;
  root->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorTileAttr) && op.hasPureTensorSemantics())
      tiles.push_back(op);
  });
  for (linalg::LinalgOp op : tiles) {
    SmallVector<int64_t> sizes = dynamicTileSizes(op, lanes);
    if (llvm::all_of(sizes, [](int64_t size) { return size == 0; }))
      continue;
    expandSliceSizes(rewriter, op);
    FailureOr<scf::SCFTilingResult> tiled = maxgraph::tileWithForLoops(
        rewriter, cast<TilingInterface>(op.getOperation()), sizes);
    if (failed(tiled))
      continue;
    markForVectorization(tiled->tiledOps.back());
    peelPartialIterations(rewriter, tiled->loops);
  }
}

void maxgraph::vectorizeMarkedTiles(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::LinalgOp> tiles;
  root->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorTileAttr))
      tiles.push_back(op);
  });
  for (linalg::LinalgOp op : tiles) {
    op->removeAttr(kVectorTileAttr);
    if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation()))
      vectorizeMatmulTile(rewriter, matmul);
    else
      vectorizeTile(rewriter, op);
  }
}

void maxgraph::hoistLoopInvariantAccumulators(RewriterBase &rewriter,
                                              Operation *root) {
  root->walk([&](scf::ForOp loop) {
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    hoistLoopInvariantSubsets(rewriter,
                              cast<LoopLikeOpInterface>(loop.getOperation()));
  });
}
