//===- Vectorization.cpp - vectorizing the marked tiles -------------------===//

#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

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

/// Vectorizes any other tile: of static shape as it is; of dynamic shape
/// (a peeled remainder, such as the 16 elements of a softmax row over 16
/// tokens) as masked vectors of its `bounds` (the sizes it was tiled to)
/// where every dynamic dim has one.
void vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op,
                   ArrayRef<int64_t> bounds) {
  if (hasSubByteOperands(op))
    return;
  SmallVector<int64_t> sizes;
  if (!hasStaticShape(op)) {
    sizes = op.getStaticLoopRanges();
    if (bounds.size() != sizes.size())
      return;
    for (auto [size, bound] : llvm::zip_equal(sizes, bounds)) {
      if (!ShapedType::isDynamic(size))
        continue;
      if (bound <= 0)
        return;
      size = bound;
    }
  }
  if (failed(linalg::vectorizeOpPrecondition(op, sizes)))
    return;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
      rewriter, op, sizes, SmallVector<bool>(sizes.size(), false));
  if (succeeded(result))
    rewriter.replaceOp(op, result->replacements);
}
} // namespace

void maxgraph::markForVectorization(Operation *op, ArrayRef<int64_t> bounds) {
  if (bounds.empty())
    op->setAttr(kVectorTileAttr, UnitAttr::get(op->getContext()));
  else
    op->setAttr(kVectorTileAttr,
                DenseI64ArrayAttr::get(op->getContext(), bounds));
}

void maxgraph::vectorizeMarkedTiles(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::LinalgOp> tiles;
  root->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorTileAttr))
      tiles.push_back(op);
  });
  for (linalg::LinalgOp op : tiles) {
    SmallVector<int64_t> bounds;
    if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kVectorTileAttr))
      llvm::append_range(bounds, attr.asArrayRef());
    op->removeAttr(kVectorTileAttr);
    if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation()))
      vectorizeMatmulTile(rewriter, matmul);
    else
      vectorizeTile(rewriter, op, bounds);
  }
}

void maxgraph::lowerVectorMasks(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
  (void)applyPatternsGreedily(root, std::move(patterns));
}

void maxgraph::hoistLoopInvariantAccumulators(RewriterBase &rewriter,
                                              Operation *root) {
  root->walk([&](scf::ForOp loop) {
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    hoistLoopInvariantSubsets(rewriter,
                              cast<LoopLikeOpInterface>(loop.getOperation()));
  });
}
