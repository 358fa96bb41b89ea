//===- ThreadTiling.cpp - the outer scf.forall that spreads work ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/ThreadTiling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include <algorithm>

using namespace mlir;

/// The work of one iteration of `op` (estimateWork).
static int64_t workPerIteration(linalg::LinalgOp op) {
  int64_t perIteration = 0;
  if (op->getNumRegions() == 1 && !op->getRegion(0).empty())
    for (Operation &inner : op->getRegion(0).front()) {
      if (isa<linalg::YieldOp, linalg::IndexOp>(inner))
        continue;
      perIteration += isa<math::MathDialect>(inner.getDialect())
                          ? maxgraph::kMathFunctionWork
                          : 1;
    }
  return std::max<int64_t>(perIteration, 1);
}

/// Whether the work of `op`, of symbolic size, reaches `tiling.minWork` at
/// run time (estimateWork's count), computed before `op`.
static Value enoughRunTimeWork(RewriterBase &rewriter, linalg::LinalgOp op,
                               const maxgraph::ThreadTiling &tiling) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value work =
      arith::ConstantIndexOp::create(rewriter, loc, workPerIteration(op));
  for (Range range : op.createLoopRanges(rewriter, loc))
    work = arith::MulIOp::create(
        rewriter, loc, work,
        getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  return arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::sge, work,
      arith::ConstantIndexOp::create(rewriter, loc, tiling.minWork));
}

/// `count` where `enough`, else 1, computed before `op`.
static Value countIfEnough(RewriterBase &rewriter, linalg::LinalgOp op,
                           Value enough, Value count) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  return arith::SelectOp::create(
      rewriter, op.getLoc(), enough, count,
      arith::ConstantIndexOp::create(rewriter, op.getLoc(), 1));
}

/// The threads' split of `op` cut into chunks: `tiling.numChunks` of its
/// first loop or, when that loop is symbolic (it may be shorter than the
/// chunks) and the second is parallel too (a batch of rows [batch, seq,
/// hidden], of which the batch may be 1: the threads split nothing), each
/// iteration of the first cut into numChunks / (its size) chunks of the
/// second. An op of symbolic size whose work falls short at run time is one
/// chunk. (A static leading dim is cut as it is: the copies that pack a
/// matmul's operands are made for the split of their first dim.)
static SmallVector<OpFoldResult>
chunksForThreads(RewriterBase &rewriter, linalg::LinalgOp op, int64_t work,
                 const maxgraph::ThreadTiling &tiling) {
  MLIRContext *context = op->getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (work >= 0)
    return {getAsIndexOpFoldResult(context, tiling.numChunks)};
  bool splitsSecond = ranges.size() >= 3 &&
                      ShapedType::isDynamic(ranges.front()) &&
                      iterators[1] == utils::IteratorType::parallel;
  Value enough = enoughRunTimeWork(rewriter, op, tiling);
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Value chunks =
      arith::ConstantIndexOp::create(rewriter, loc, tiling.numChunks);
  if (!splitsSecond)
    return {countIfEnough(rewriter, op, enough, chunks)};
  Value size = getValueOrCreateConstantIndexOp(
      rewriter, loc, op.createLoopRanges(rewriter, loc).front().size);
  // ceil(numChunks / max(size, 1)) chunks of the second loop.
  Value atLeastOne = arith::MaxUIOp::create(
      rewriter, loc, size, arith::ConstantIndexOp::create(rewriter, loc, 1));
  Value perIteration =
      arith::CeilDivUIOp::create(rewriter, loc, chunks, atLeastOne);
  return {countIfEnough(rewriter, op, enough, size),
          countIfEnough(rewriter, op, enough, perIteration)};
}

int64_t maxgraph::estimateWork(linalg::LinalgOp op, int64_t dynamicWork) {
  constexpr int64_t kCap = int64_t(1) << 40;
  int64_t work = workPerIteration(op);
  for (int64_t size : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(size))
      return dynamicWork;
    work = std::min<int64_t>(work * size, kCap);
  }
  return work;
}

FailureOr<TilingInterface> maxgraph::tileForThreads(
    RewriterBase &rewriter, linalg::LinalgOp op, const ThreadTiling &tiling,
    ArrayRef<int64_t> tileSizes, ArrayRef<int64_t> interchange) {
  auto untiled = cast<TilingInterface>(op.getOperation());
  // -1: known only at run time.
  int64_t work = estimateWork(op, -1);
  if (tiling.spreadsNothing() || op.getNumLoops() == 0 ||
      op.getIteratorTypesArray().front() != utils::IteratorType::parallel ||
      (work >= 0 && !tiling.spreads(work)))
    return untiled;
  int64_t leading = op.getStaticLoopRanges().front();
  if (tileSizes.empty() && !ShapedType::isDynamic(leading) && leading < 2)
    return untiled;
  scf::SCFTilingOptions options;
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  if (tileSizes.empty())
    options.setNumThreads(chunksForThreads(rewriter, op, work, tiling));
  else
    options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), tileSizes));
  options.setInterchange(interchange);
  FailureOr<scf::SCFTilingResult> result =
      tileAndReplace(rewriter, untiled, options);
  if (failed(result))
    return failure();
  return cast<TilingInterface>(result->tiledOps.back());
}
