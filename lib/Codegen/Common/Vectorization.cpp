//===- Vectorization.cpp - vectorizing the marked tiles -------------------===//

#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
