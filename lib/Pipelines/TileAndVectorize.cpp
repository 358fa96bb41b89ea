//===- TileAndVectorize.cpp - tiling and vectorization for the CPU --------===//
//
// Two passes of `maxgraph-lower-to-cpu`:
//
// `maxgraph-tile-and-vectorize` runs on linalg on tensors. Every linalg op
// gets an outer `scf.forall` over its leading parallel dim when it is large
// (the runtime maps it to OpenMP threads), then
//  - linalg.matmul: a K loop of `kKc` (so a panel of B stays in L2), 8x32
//    register tiles peeled so the main tiles are static, a K loop of 1 and a
//    vector.contract whose accumulator is hoisted out of that loop: sixteen
//    live zmm accumulators fed by broadcasts of A and loads of B;
//  - every other op: tiles of one element in the outer dims and up to
//    `kVectorSize` in the innermost dim, peeled, then vectorized (elementwise
//    ops become vector arithmetic); a reduction over the innermost dim
//    accumulates lane-wise into a partial vector kept in registers and
//    reduces it once per row.
// Tiles whose shape stays dynamic (the peeled remainders) are left to
// convert-linalg-to-loops.
//
// `maxgraph-lower-vector-ops` runs after bufferization and lowers what the
// generic vector-to-LLVM conversion does not: vector.multi_reduction, and
// math.rsqrt (which math-to-libm would turn into calls of a missing rsqrtf);
// math.exp becomes a polynomial on whole vectors.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Pipelines/Pipelines.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace maxgraph {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#define GEN_PASS_DEF_LOWERVECTOROPS
#include "MaxGraph/Pipelines/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Marks the innermost tiles that are to be vectorized.
constexpr StringLiteral kTileAttr = "maxgraph.vector_tile";

/// Matmul blocking: the register tile (`kMr` x `kNr`, sixteen 16-lane
/// accumulators), the K panel, and the block each thread gets.
constexpr int64_t kMr = 8, kNr = 32, kKc = 128, kMc = 128, kNc = 512;
/// Innermost tile of all other ops.
constexpr int64_t kVectorSize = 64;
/// Ops with fewer iterations than this stay on one thread.
constexpr int64_t kParallelWork = 1 << 16;
/// The number of chunks the leading dim of a parallel op is cut into.
constexpr int64_t kParallelChunks = 8;

SmallVector<OpFoldResult> indexAttrs(MLIRContext *context,
                                     ArrayRef<int64_t> values) {
  return getAsIndexOpFoldResult(context, values);
}

/// The number of iterations of `op`, counting a dynamic dim as large.
int64_t estimatedWork(linalg::LinalgOp op) {
  int64_t work = 1;
  for (int64_t size : op.getStaticLoopRanges())
    work = ShapedType::isDynamic(size)
               ? kParallelWork
               : std::min<int64_t>(work * size, 1LL << 40);
  return work;
}

/// Tiles `op` in place; returns the tiled op and the generated loops.
FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter, TilingInterface op,
                                     const scf::SCFTilingOptions &options) {
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return result;
}

FailureOr<scf::SCFTilingResult> tileWithFor(RewriterBase &rewriter,
                                            TilingInterface op,
                                            ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(indexAttrs(op->getContext(), sizes));
  return tile(rewriter, op, options);
}

/// Peels the last partial iteration off every loop, innermost first, so that
/// the main loops see full, static tiles.
void peel(RewriterBase &rewriter, ArrayRef<LoopLikeOpInterface> loops) {
  for (LoopLikeOpInterface loop : llvm::reverse(loops)) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    if (!forOp)
      continue;
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
}

/// The outer `scf.forall` that spreads a large op over threads: the
/// iteration space gets tile sizes `sizes` (with `sizes` empty, the leading
/// dim is cut into `kParallelChunks` chunks). Small ops and ops whose leading
/// dim is a reduction are returned untiled.
FailureOr<TilingInterface> tileForThreads(RewriterBase &rewriter,
                                          linalg::LinalgOp op,
                                          ArrayRef<int64_t> sizes) {
  if (op.getNumLoops() == 0 ||
      op.getIteratorTypesArray().front() != utils::IteratorType::parallel ||
      estimatedWork(op) < kParallelWork)
    return cast<TilingInterface>(op.getOperation());
  int64_t leading = op.getStaticLoopRanges().front();
  if (sizes.empty() && leading != ShapedType::kDynamic && leading < 2)
    return cast<TilingInterface>(op.getOperation());
  scf::SCFTilingOptions options;
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  if (sizes.empty())
    options.setNumThreads(indexAttrs(op->getContext(), {kParallelChunks}));
  else
    options.setTileSizes(indexAttrs(op->getContext(), sizes));
  FailureOr<scf::SCFTilingResult> result =
      tile(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  return cast<TilingInterface>(result->tiledOps.back());
}

/// Blocks a matmul down to register tiles; see the file comment.
void tileMatmul(RewriterBase &rewriter, linalg::MatmulOp matmul) {
  FailureOr<TilingInterface> block = tileForThreads(
      rewriter, cast<linalg::LinalgOp>(matmul.getOperation()), {kMc, kNc, 0});
  if (failed(block))
    return;
  FailureOr<scf::SCFTilingResult> panel =
      tileWithFor(rewriter, *block, {0, 0, kKc});
  if (failed(panel))
    return;
  FailureOr<scf::SCFTilingResult> registers = tileWithFor(
      rewriter, cast<TilingInterface>(panel->tiledOps.back()), {kMr, kNr, 0});
  if (failed(registers))
    return;
  registers->tiledOps.back()->setAttr(kTileAttr, rewriter.getUnitAttr());
  peel(rewriter, registers->loops);
}

/// A reduction over the innermost dim: rows of one element in the outer
/// dims, then the row in chunks of `kVectorSize` accumulated lane-wise into
/// a partial vector (no horizontal step per chunk), reduced once at the end.
void tileRowReduction(RewriterBase &rewriter, TilingInterface op,
                      ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> outer(sizes);
  outer.back() = 0;
  TilingInterface row = op;
  SmallVector<LoopLikeOpInterface> loops;
  if (llvm::any_of(outer, [](int64_t size) { return size != 0; })) {
    FailureOr<scf::SCFTilingResult> rows = tileWithFor(rewriter, op, outer);
    if (failed(rows))
      return;
    row = cast<TilingInterface>(rows->tiledOps.back());
  }
  unsigned inner = sizes.size() - 1;
  SmallVector<int64_t> chunk(sizes.size(), 0);
  chunk.back() = sizes.back();
  scf::SCFTilingOptions options;
  options.setTileSizes(indexAttrs(op->getContext(), chunk));
  options.setReductionTilingStrategy(
      ReductionTilingStrategy::PartialReductionOuterReduction);
  options.setReductionDims({inner});
  FailureOr<scf::SCFTilingResult> chunks = tile(rewriter, row, options);
  if (failed(chunks))
    return;
  chunks->tiledOps.back()->setAttr(kTileAttr, rewriter.getUnitAttr());
  for (Operation *merge : chunks->mergeOps)
    merge->setAttr(kTileAttr, rewriter.getUnitAttr());
  for (Value init : chunks->initialValues)
    if (Operation *fill = init.getDefiningOp())
      fill->setAttr(kTileAttr, rewriter.getUnitAttr());
  peel(rewriter, chunks->loops);
}

/// Tiles any other linalg op to one row of up to `kVectorSize` elements.
void tileToRows(RewriterBase &rewriter, linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  if (loops == 0)
    return;
  FailureOr<TilingInterface> block = tileForThreads(rewriter, op, {});
  if (failed(block))
    return;
  auto tiledOp = cast<linalg::LinalgOp>(block->getOperation());
  SmallVector<int64_t> ranges = tiledOp.getStaticLoopRanges();
  SmallVector<int64_t> sizes(loops, 1);
  int64_t inner = ranges.back();
  sizes.back() =
      !ShapedType::isDynamic(inner) && inner <= kVectorSize ? 0 : kVectorSize;
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; })) {
    tiledOp->setAttr(kTileAttr, rewriter.getUnitAttr());
    return;
  }
  SmallVector<utils::IteratorType> iterators = tiledOp.getIteratorTypesArray();
  bool innerReductionOnly =
      sizes.back() != 0 && iterators.back() == utils::IteratorType::reduction &&
      tiledOp.getNumReductionLoops() == 1 && tiledOp->getNumResults() == 1;
  if (innerReductionOnly) {
    tileRowReduction(rewriter, *block, sizes);
    return;
  }
  FailureOr<scf::SCFTilingResult> rows = tileWithFor(rewriter, *block, sizes);
  if (failed(rows))
    return;
  rows->tiledOps.back()->setAttr(kTileAttr, rewriter.getUnitAttr());
  peel(rewriter, rows->loops);
}

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
  FailureOr<scf::SCFTilingResult> steps = tileWithFor(
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

/// Every canonicalization pattern, built once per pass instance.
FrozenRewritePatternSet canonicalizations(MLIRContext *context) {
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : context->getRegisteredOperations())
    name.getCanonicalizationPatterns(patterns, context);
  return FrozenRewritePatternSet(std::move(patterns));
}

struct TileAndVectorizePass
    : maxgraph::impl::TileAndVectorizeBase<TileAndVectorizePass> {

  LogicalResult initialize(MLIRContext *context) override {
    cleanUp = canonicalizations(context);
    return success();
  }

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> ops;
    function.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
          matmul && matmul.getIndexingMapsArray() ==
                        matmul.getDefaultIndexingMaps(&getContext()))
        tileMatmul(rewriter, matmul);
      else
        tileToRows(rewriter, op);
    }
    // Peeling made the main tiles' sizes constant: fold them into the types.
    (void)applyPatternsGreedily(function, cleanUp);

    SmallVector<linalg::LinalgOp> tiles;
    function.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kTileAttr))
        tiles.push_back(op);
    });
    for (linalg::LinalgOp op : tiles) {
      op->removeAttr(kTileAttr);
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
        vectorizeMatmulTile(rewriter, matmul);
        continue;
      }
      if (!hasStaticShape(op) || hasSubByteOperands(op))
        continue;
      if (failed(linalg::vectorizeOpPrecondition(op)))
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }
    (void)applyPatternsGreedily(function, cleanUp);
    // Accumulators (a reduction's partial vector) read and written at the
    // same place in every iteration move into registers: loop-carried
    // vectors instead of a load and a store per step.
    function.walk([&](scf::ForOp loop) {
      moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
      hoistLoopInvariantSubsets(rewriter,
                                cast<LoopLikeOpInterface>(loop.getOperation()));
    });
    (void)applyPatternsGreedily(function, cleanUp);
  }

  FrozenRewritePatternSet cleanUp;
};

struct LowerVectorOpsPass
    : maxgraph::impl::LowerVectorOpsBase<LowerVectorOpsPass> {

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // libm has no rsqrtf for math-to-libm to call on vector lanes.
    math::populateExpansionPatterns(patterns, {"rsqrt"});
    // exp (softmax, sigmoid, silu) as a polynomial on whole vectors rather
    // than a libm call per lane; accurate to a few ulp in f32.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == "math.exp" || name == "exp";
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
