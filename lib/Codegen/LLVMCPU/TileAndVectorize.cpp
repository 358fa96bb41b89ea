//===- TileAndVectorize.cpp - the CPU tiling strategy ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-tile-and-vectorize` runs on linalg on tensors. It resolves the
// target CPU (the options, the host for every option left 0), chooses the
// tile sizes for it (chooseCPUTileSizes) and applies Codegen/Common's
// mechanism:
//  - row groups (reductions over the innermost dim and the elementwise ops
//    that consume them, as softmax and the norms decompose to) first: one
//    row per iteration of a loop (an `scf.forall` when large) with the
//    whole group fused into it, each op of the row then tiled to vector
//    rows (tileRowGroups), so that each row is read from memory once;
// then op by op:
//  - linalg.matmul (default maps): thread blocks, K panels and register
//    tiles (tileMatmulToRegisterTiles); each register tile becomes a K loop
//    of vector.contracts with the accumulators held in registers;
//  - linalg.batch_matmul (default maps): a loop over its matmuls with their
//    zero fill fused, threads taking whole matmuls when there are enough,
//    each matmul blocked as above (tileBatchMatmulToRegisterTiles);
//  - linalg.conv_2d_nhwc_hwcf (static but for the batch): output rows over
//    the threads, each reading a window of padded rows it builds, then
//    register tiles of pixels x filters, each a loop over the filter's taps
//    of matmul register tiles (tileConvolutionToRegisterTiles);
//  - linalg.depthwise_conv_2d_nhwc_hwc (static but for the batch): the same
//    rows and taps, each tap an elementwise multiply-add of register tiles
//    of pixels x channels (tileDepthwiseToRegisterTiles);
//  - every other op: rows vectorized along the innermost dim
//    (tileToVectorRows); a reduction over the innermost dim accumulates
//    lane-wise into a partial vector kept in registers and reduces it once
//    per row.
// Large ops get an outer `scf.forall` (the pipeline maps it to OpenMP
// threads). Tiles whose shape stays dynamic (the peeled remainders of a size
// known at run time) are tiled again to one vector register's lanes
// (tileDynamicTiles); what is left below that is left to
// convert-linalg-to-loops, but for a matmul's last columns, a register tile
// of masked lanes.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/Canonicalization.h"
#include "MaxGraph/Codegen/Common/ConvolutionTiling.h"
#include "MaxGraph/Codegen/Common/MatmulTiling.h"
#include "MaxGraph/Codegen/Common/RowFusion.h"
#include "MaxGraph/Codegen/Common/RowTiling.h"
#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "MaxGraph/Codegen/LLVMCPU/TileSizes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace maxgraph {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
/// The attribute of an `scf.for` that scf-to-cf moves to its latch, where
/// the LLVM dialect's branch takes it as the loop's metadata.
constexpr llvm::StringLiteral kLoopAnnotation = "loop_annotation";

/// A matmul with the default indexing maps (no transposed operands), the
/// one kind of matmul that is blocked to register tiles.
bool isPlainMatmul(linalg::LinalgOp op) {
  auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
  return matmul && matmul.getIndexingMapsArray() ==
                       matmul.getDefaultIndexingMaps(op->getContext());
}

/// A batch_matmul with the default indexing maps.
bool isPlainBatchMatmul(linalg::LinalgOp op) {
  auto batch = dyn_cast<linalg::BatchMatmulOp>(op.getOperation());
  return batch && batch.getIndexingMapsArray() ==
                      batch.getDefaultIndexingMaps(op->getContext());
}

/// A linalg.conv_2d_nhwc_hwcf or depthwise_conv_2d_nhwc_hwc whose loops
/// are static but for the batch (maxgraph.conv2d's), the convolutions tiled
/// to register tiles.
bool isDirectConvolution(linalg::LinalgOp op) {
  if (!isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp>(
          op.getOperation()))
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return llvm::all_of(ArrayRef<int64_t>(ranges).drop_front(),
                      [](int64_t size) { return ShapedType::isStatic(size); });
}

/// Whether every use of `value` is a slice (or a collapse_shape: the
/// unpacking of a packed weight) whose value, in turn, has no use but such
/// views; collects those views, each after the views of it.
bool collectDeadSlices(Value value, SmallVectorImpl<Operation *> &slices) {
  for (Operation *user : value.getUsers()) {
    if (!isa<tensor::ExtractSliceOp, tensor::CollapseShapeOp>(user) ||
        user->getOperand(0) != value ||
        !collectDeadSlices(user->getResult(0), slices))
      return false;
    slices.push_back(user);
  }
  return true;
}

/// Erases `op` (and the slices of it) when nothing reads its results but
/// slices nothing reads: a transpose that a matmul's packing of B read
/// through. Returns whether it did.
bool eraseIfOnlySliced(RewriterBase &rewriter, linalg::LinalgOp op) {
  SmallVector<Operation *> slices;
  for (Value result : op->getResults())
    if (!collectDeadSlices(result, slices))
      return false;
  for (Operation *slice : slices)
    rewriter.eraseOp(slice);
  rewriter.eraseOp(op);
  return true;
}

/// A copy of `value`'s producer chain of fills and empty tensors for one
/// more destination, or null when `value` is not such a chain.
Value cloneDestination(RewriterBase &rewriter, Value value) {
  Operation *producer = value.getDefiningOp();
  if (isa_and_nonnull<tensor::EmptyOp>(producer))
    return rewriter.clone(*producer)->getResult(0);
  auto fill = dyn_cast_or_null<linalg::FillOp>(producer);
  if (!fill || !fill.hasPureTensorSemantics())
    return Value();
  Value init = cloneDestination(rewriter, fill.getDpsInits()[0]);
  if (!init)
    return Value();
  IRMapping mapping;
  mapping.map(fill.getDpsInits()[0], init);
  return rewriter.clone(*fill, mapping)->getResult(0);
}

/// Gives every op its own destination where several share one fill or
/// empty tensor (CSE makes identical zero-filled accumulators, such as the
/// query, key and value projections', one value): bufferization would copy
/// a shared destination for each writer but the last, a copy of the whole
/// result per matmul.
void unshareDestinations(RewriterBase &rewriter, func::FuncOp function) {
  SmallVector<OpOperand *> shared;
  function.walk([&](linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics())
      return;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Operation *producer = init.get().getDefiningOp();
      if (isa_and_nonnull<tensor::EmptyOp, linalg::FillOp>(producer) &&
          !init.get().hasOneUse())
        shared.push_back(&init);
    }
  });
  for (OpOperand *init : shared) {
    // The last use keeps the original.
    if (init->get().hasOneUse())
      continue;
    rewriter.setInsertionPoint(init->getOwner());
    if (Value own = cloneDestination(rewriter, init->get()))
      rewriter.modifyOpInPlace(init->getOwner(), [&] { init->set(own); });
  }
}

/// The input that `op` yields unchanged into its one result (an
/// elementwise generic left with `linalg.yield %in`, both of the same
/// type and identity maps), or null.
Value identityCopySource(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic->getNumResults() != 1 ||
      !llvm::hasSingleElement(generic.getBody()->getOperations()))
    return Value();
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  auto element = dyn_cast<BlockArgument>(yield.getValues()[0]);
  if (!element || element.getOwner() != generic.getBody() ||
      element.getArgNumber() >= generic.getNumDpsInputs())
    return Value();
  OpOperand *input = generic.getDpsInputOperand(element.getArgNumber());
  if (input->get().getType() != generic->getResult(0).getType() ||
      !generic.getMatchingIndexingMap(input).isIdentity() ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity())
    return Value();
  return input->get();
}

/// Whether `op` has a static loop of size 0: it computes nothing, and
/// tiling would divide by that size. convert-linalg-to-loops gives it loops
/// that never run.
bool hasEmptyLoop(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

/// Asks LLVM not to unroll the loops of `function`: an iteration of a loop
/// that tiling made is already a tile's vector work (a register tile's step
/// of 12 x 32 multiply-adds, a row of four vectors, a row of a panel of B
/// to copy), and a graph's own loop holds whole ops. LLVM's unroller copied
/// them over and over (by 16 for the loop over a K panel of 256 and for the
/// copy of B's panels) into code that ran no faster: the 32-layer model of
/// compile_scaling.py compiled in 0.28 instead of 0.31-0.33 s on one CPU,
/// all-MiniLM-L6-v2 in 0.83 instead of 0.85-0.88 s on two, its calls, the
/// matmuls, the chain and SmolLM2's tokens as fast. The loops that later
/// lowerings make (a remainder's scalar loop, a quantized block's) are left
/// to the unroller.
void keepTileLoopsRolled(func::FuncOp function) {
  MLIRContext *context = function.getContext();
  auto rolled = LLVM::LoopAnnotationAttr::get(
      context, {}, {}, {},
      LLVM::LoopUnrollAttr::get(context, BoolAttr::get(context, true), {}, {},
                                {}, {}, {}, {}),
      {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
  function.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(kLoopAnnotation))
      loop->setAttr(kLoopAnnotation, rolled);
  });
}

struct TileAndVectorizePass
    : maxgraph::impl::TileAndVectorizeBase<TileAndVectorizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    CPUTarget pinned;
    pinned.vectorBits = vectorBits;
    pinned.vectorRegisters = vectorRegisters;
    pinned.l1CacheBytes = static_cast<int64_t>(l1CacheBytes);
    pinned.l2CacheBytes = static_cast<int64_t>(l2CacheBytes);
    pinned.cores = cores;
    sizes = chooseCPUTileSizes(pinned.withDefaultsFrom(getHostCPUTarget()));
    cleanUp = collectCanonicalizationPatterns(context);
    RewritePatternSet splatReads(context);
    populateSplatReadForwardingPatterns(splatReads);
    forwarding = std::move(splatReads);
    return success();
  }

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> rowLoops =
        tileRowGroups(rewriter, function, sizes.vectorLength, sizes.threads);
    unshareDestinations(rewriter, function);
    SmallVector<linalg::LinalgOp> ops;
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (llvm::is_contained(rowLoops, op))
        return WalkResult::skip();
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (linalgOp && linalgOp.hasPureTensorSemantics() &&
          !hasEmptyLoop(linalgOp))
        ops.push_back(linalgOp);
      return WalkResult::advance();
    });
    // Matmuls first: packing B may read a transposed matrix directly
    // (MatmulTiling.cpp), leaving the transpose unused, so that it is
    // dropped rather than tiled. The list is split before rewriting, which
    // erases the matmuls.
    SmallVector<linalg::MatmulOp> matmuls;
    SmallVector<linalg::BatchMatmulOp> batches;
    SmallVector<linalg::LinalgOp> convolutions;
    SmallVector<linalg::LinalgOp> others;
    for (linalg::LinalgOp op : ops) {
      if (isDirectConvolution(op))
        convolutions.push_back(op);
      else if (isPlainMatmul(op))
        matmuls.push_back(cast<linalg::MatmulOp>(op.getOperation()));
      else if (isPlainBatchMatmul(op))
        batches.push_back(cast<linalg::BatchMatmulOp>(op.getOperation()));
      else
        others.push_back(op);
    }
    for (linalg::MatmulOp matmul : matmuls)
      tileMatmulToRegisterTiles(rewriter, matmul, sizes.matmul, sizes.threads);
    for (linalg::BatchMatmulOp batch : batches)
      tileBatchMatmulToRegisterTiles(rewriter, batch, sizes.matmul,
                                     sizes.threads, sizes.vectorLength);
    for (linalg::LinalgOp op : convolutions) {
      if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation()))
        tileConvolutionToRegisterTiles(rewriter, conv, sizes.matmul,
                                       sizes.threads, sizes.vectorLength);
      else
        tileDepthwiseToRegisterTiles(
            rewriter, cast<linalg::DepthwiseConv2DNhwcHwcOp>(*op), sizes.matmul,
            sizes.threads, sizes.vectorLength);
    }
    for (linalg::LinalgOp op : others) {
      // A fill fused into the matmuls of a batch has no use left.
      if (op->use_empty()) {
        rewriter.eraseOp(op);
        continue;
      }
      // A bias add that the matmul's register tiles took over leaves a copy.
      if (Value copied = identityCopySource(op)) {
        rewriter.replaceOp(op, copied);
        continue;
      }
      if (!eraseIfOnlySliced(rewriter, op))
        tileToVectorRows(rewriter, op, sizes.vectorLength, sizes.threads);
    }
    // Peeling made the main tiles' sizes constant: fold them into the types.
    (void)applyPatternsGreedily(function, cleanUp);
    // The remainders that stay dynamic (a row of `seq` elements) in vectors
    // of one register; their peeled tiles' sizes folded in turn.
    tileDynamicTiles(rewriter, function, sizes.remainderLength);
    (void)applyPatternsGreedily(function, cleanUp);
    vectorizeMarkedTiles(rewriter, function);
    (void)applyPatternsGreedily(function, cleanUp);
    // Accumulators (a reduction's partial vector) read and written at the
    // same place in every iteration move into registers.
    hoistLoopInvariantAccumulators(rewriter, function);
    (void)applyPatternsGreedily(function, forwarding);
    (void)applyPatternsGreedily(function, cleanUp);
    keepTileLoopsRolled(function);
  }

  CPUTileSizes sizes;
  FrozenRewritePatternSet cleanUp;
  FrozenRewritePatternSet forwarding;
};
} // namespace
