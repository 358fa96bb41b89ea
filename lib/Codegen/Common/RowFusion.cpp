//===- RowFusion.cpp - reductions fused with their consumers, row by row --===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The last op of a row group is tiled to one row per iteration with
// scf::tileConsumerAndFuseProducersUsingSCF; the fusion follows row-aligned
// operands only, so every fused producer computes the same one row (a
// producer read as a whole by every row, such as a sum over the rows, would
// be recomputed for each row, and is not fused). A producer that two ops of
// the row use is fused once for each and CSE merges the copies.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/RowFusion.h"
#include "MaxGraph/Codegen/Common/RowTiling.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {
/// Marks the loops of row groups until the pass that made them is done.
constexpr StringLiteral kRowLoopAttr = "maxgraph.row_loop";

/// How many copies of one producer a row group may fuse before CSE merges
/// them: enough for two norms in a row (36 copies of the first one's
/// input), not for every path through a longer chain of them.
constexpr uint64_t kMaxFusedCopies = 64;

/// How an operand of a row op of `loops` loops is indexed: by every leading
/// loop (a row of its own per row), by none (the same for every row), by
/// some (a row shared by several, as attention's mask [batch, seq] is by
/// the heads and rows of its scores), or otherwise.
enum class RowIndexing { Aligned, Invariant, Partial, Other };

RowIndexing classifyIndexing(AffineMap map, unsigned loops) {
  if (!map.isProjectedPermutation())
    return RowIndexing::Other;
  unsigned leading = 0;
  int64_t last = -1;
  for (AffineExpr result : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim || static_cast<int64_t>(dim.getPosition()) <= last)
      return RowIndexing::Other;
    last = dim.getPosition();
    if (dim.getPosition() + 1 < loops)
      ++leading;
  }
  if (leading == loops - 1)
    return RowIndexing::Aligned;
  return leading == 0 ? RowIndexing::Invariant : RowIndexing::Partial;
}

bool reducesRows(linalg::LinalgOp op) {
  return op.getIteratorTypesArray().back() == utils::IteratorType::reduction;
}

/// Whether a row reduction produces a row-aligned operand of `op`, directly
/// or through other row ops.
bool consumesRowReduction(linalg::LinalgOp op, unsigned loops) {
  SmallVector<linalg::LinalgOp> worklist{op};
  llvm::SmallPtrSet<Operation *, 8> visited;
  while (!worklist.empty()) {
    linalg::LinalgOp current = worklist.pop_back_val();
    for (OpOperand *input : current.getDpsInputOperands()) {
      if (classifyIndexing(current.getMatchingIndexingMap(input), loops) !=
          RowIndexing::Aligned)
        continue;
      auto producer = input->get().getDefiningOp<linalg::LinalgOp>();
      if (!producer || !maxgraph::isRowOp(producer, loops) ||
          !visited.insert(producer).second)
        continue;
      if (reducesRows(producer))
        return true;
      worklist.push_back(producer);
    }
  }
  return false;
}

/// Whether `slice` takes one row of a row-aligned result of an op with
/// `loops` loops: one element in each leading dim.
bool isOneRow(tensor::ExtractSliceOp slice, unsigned loops) {
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  unsigned leading = loops - 1;
  if (sizes.size() != loops && sizes.size() != leading)
    return false;
  for (unsigned dim = 0; dim < leading; ++dim)
    if (getConstantIntValue(sizes[dim]) != 1)
      return false;
  return true;
}

/// Whether `op` ends a row group: an elementwise row op that consumes a row
/// reduction.
bool endsRowGroup(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  return maxgraph::isRowOp(op, loops) && !reducesRows(op) &&
         !llvm::is_contained(op.getStaticLoopRanges(), 0) &&
         consumesRowReduction(op, loops);
}

/// Erases the fused producers that no op outside the row uses any more,
/// consumers first.
void eraseDeadProducers(RewriterBase &rewriter,
                        const llvm::SetVector<Operation *> &producers) {
  llvm::SetVector<Operation *> left(producers.begin(), producers.end());
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *op : left.takeVector()) {
      if (op->use_empty()) {
        rewriter.eraseOp(op);
        erased = true;
      } else {
        left.insert(op);
      }
    }
  }
}

/// The producers that the row group `last` ends may fuse: the row ops and
/// fills it reads through row-aligned operands (or as inits), directly or
/// through each other, less
/// - those with a use outside the group: such a producer is computed whole
///   anyway (for a matmul, or the next layer's residual add), so each row
///   reads its row of it rather than computing it again, and a group does
///   not reach back through the residual stream into the layers before;
/// - those that would be copied more than kMaxFusedCopies times: each use
///   in the row fuses a copy of its producer, and each copy fuses its own
///   operands again, so through a chain of norms (each reading its input
///   six times) the copies grow as 6^norms before CSE merges them.
/// Either way all the producer's producers are left out too (they have a
/// use outside), so every copy of an op in the row reads the same values
/// and CSE makes the copies one.
llvm::SmallPtrSet<Operation *, 16> fusableProducers(linalg::LinalgOp last) {
  unsigned loops = last.getNumLoops();
  auto readsRows = [&](linalg::LinalgOp consumer, OpOperand &operand) {
    return consumer.isDpsInit(&operand) ||
           classifyIndexing(consumer.getMatchingIndexingMap(&operand), loops) ==
               RowIndexing::Aligned;
  };
  llvm::SetVector<Operation *> group;
  SmallVector<linalg::LinalgOp> worklist{last};
  while (!worklist.empty()) {
    linalg::LinalgOp current = worklist.pop_back_val();
    for (OpOperand &operand : current->getOpOperands()) {
      if (!readsRows(current, operand))
        continue;
      auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
      if (producer && producer->getBlock() == last->getBlock() &&
          (isa<linalg::FillOp>(producer) ||
           maxgraph::isRowOp(producer, loops)) &&
          group.insert(producer))
        worklist.push_back(producer);
    }
  }
  // Users come after their producers in the block: deciding from the last
  // op up, each producer's users have been decided.
  SmallVector<Operation *> order = group.takeVector();
  llvm::sort(order,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  llvm::SmallPtrSet<Operation *, 16> fusable;
  llvm::DenseMap<Operation *, uint64_t> copies{{last.getOperation(), 1}};
  for (Operation *producer : order) {
    uint64_t count = 0;
    bool inside = true;
    for (OpOperand &use : producer->getUses()) {
      Operation *user = use.getOwner();
      // A dim is answered by the producer's operands, not its data.
      if (isa<tensor::DimOp>(user))
        continue;
      if (user != last.getOperation() && !fusable.contains(user)) {
        inside = false;
        break;
      }
      count += copies.lookup(user);
    }
    if (!inside || count > kMaxFusedCopies)
      continue;
    fusable.insert(producer);
    copies[producer] = count;
  }
  return fusable;
}

/// Tiles the group that `last` ends to rows and fuses it; returns the row
/// loop.
FailureOr<Operation *> tileRowGroup(RewriterBase &rewriter,
                                    linalg::LinalgOp last,
                                    const maxgraph::ThreadTiling &threads) {
  MLIRContext *context = last->getContext();
  unsigned loops = last.getNumLoops();
  SmallVector<int64_t> sizes(loops, 1);
  sizes.back() = 0;
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(context, sizes));
  llvm::SmallPtrSet<Operation *, 16> fusable = fusableProducers(last);
  // The group is spread when its work together pays for the threads.
  int64_t work = maxgraph::estimateWork(last, threads.minWork);
  for (Operation *producer : fusable)
    work = std::min<int64_t>(
        work + maxgraph::estimateWork(cast<linalg::LinalgOp>(producer),
                                      threads.minWork),
        int64_t(1) << 40);
  if (threads.spreads(work))
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [loops, &fusable](tensor::ExtractSliceOp slice, OpResult producer, bool)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!fusable.contains(producer.getOwner()) || !isOneRow(slice, loops))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(last);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(last.getOperation()), options);
  if (failed(fused) || fused->loops.empty())
    return failure();
  for (OpResult result : last->getResults()) {
    auto replacement = fused->replacements.find(result);
    if (replacement != fused->replacements.end())
      rewriter.replaceAllUsesWith(result, replacement->second);
  }
  if (last->use_empty())
    rewriter.eraseOp(last);
  eraseDeadProducers(rewriter, fused->fusedProducers);
  Operation *loop = fused->loops.front().getOperation();
  loop->setAttr(kRowLoopAttr, UnitAttr::get(context));
  return loop;
}

/// The next op that ends a row group outside the row loops made so far,
/// last first.
linalg::LinalgOp findGroupEnd(func::FuncOp function) {
  linalg::LinalgOp found;
  function.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->hasAttr(kRowLoopAttr))
      return WalkResult::skip();
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && endsRowGroup(linalgOp))
      found = linalgOp;
    return WalkResult::advance();
  });
  return found;
}
} // namespace

bool maxgraph::isRowOp(linalg::LinalgOp op, unsigned loops) {
  if (!isa<linalg::GenericOp, linalg::ReduceOp>(op.getOperation()) ||
      !op.hasPureTensorSemantics() || loops < 2 || op.getNumLoops() != loops)
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (!llvm::all_of(ArrayRef(iterators).drop_back(),
                    [](utils::IteratorType iterator) {
                      return iterator == utils::IteratorType::parallel;
                    }))
    return false;
  unsigned resultDims = reducesRows(op) ? loops - 1 : loops;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    RowIndexing indexing = classifyIndexing(map, loops);
    if (op.isDpsInit(&operand)) {
      if (indexing != RowIndexing::Aligned || map.getNumResults() != resultDims)
        return false;
    } else if (indexing == RowIndexing::Other) {
      return false;
    }
  }
  return true;
}

SmallVector<Operation *> maxgraph::tileRowGroups(RewriterBase &rewriter,
                                                 func::FuncOp function,
                                                 int64_t vectorLength,
                                                 const ThreadTiling &threads) {
  SmallVector<Operation *> rowLoops;
  while (linalg::LinalgOp last = findGroupEnd(function)) {
    FailureOr<Operation *> loop = tileRowGroup(rewriter, last, threads);
    if (failed(loop)) {
      // Leave the op to the per-op strategy; mark nothing else.
      break;
    }
    rowLoops.push_back(*loop);
  }
  // The fused producers' results are slices of the whole tensors they were
  // to fill: give each row its own (an L1-sized temporary).
  RewritePatternSet patterns(function.getContext());
  tensor::populateFoldTensorEmptyPatterns(patterns);
  FrozenRewritePatternSet foldEmpty(std::move(patterns));
  for (Operation *loop : rowLoops) {
    SmallVector<Operation *> slices;
    loop->walk([&](tensor::ExtractSliceOp slice) {
      if (slice.getSource().getDefiningOp<tensor::EmptyOp>())
        slices.push_back(slice);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    (void)applyOpPatternsGreedily(slices, foldEmpty, config);
  }
  // Producers that several ops of a row use were fused once for each, their
  // slices sized by dims taken inside the loop or above it: CSE over the
  // whole function makes those one value and the copies one op (softmax's
  // exp, read by its sum and its division, is computed once). The row loops
  // are found again by their mark. The dims of one size are made one value
  // first: a copy sized by the dims of a row loop's result and one sized
  // by those of the fused producer's (attention's scaled and masked scores,
  // read by the max and the exp) would stay two, each a pass over the row.
  SmallVector<Operation *> dims;
  function.walk([&](tensor::DimOp dim) { dims.push_back(dim); });
  RewritePatternSet dimPatterns(function.getContext());
  tensor::DimOp::getCanonicalizationPatterns(dimPatterns,
                                             function.getContext());
  scf::ForallOp::getCanonicalizationPatterns(dimPatterns,
                                             function.getContext());
  memref::populateResolveRankedShapedTypeResultDimsPatterns(dimPatterns);
  GreedyRewriteConfig dimConfig;
  dimConfig.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(dims, std::move(dimPatterns), dimConfig);
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, function);
  rowLoops.clear();
  function.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!op->hasAttr(kRowLoopAttr))
      return WalkResult::advance();
    op->removeAttr(kRowLoopAttr);
    rowLoops.push_back(op);
    return WalkResult::skip();
  });
  ThreadTiling oneThread = ThreadTiling::none();
  for (Operation *loop : rowLoops) {
    SmallVector<linalg::LinalgOp> ops;
    loop->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() &&
          !llvm::is_contained(op.getStaticLoopRanges(), 0))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      tileToVectorRows(rewriter, op, vectorLength, oneThread);
  }
  return rowLoops;
}
