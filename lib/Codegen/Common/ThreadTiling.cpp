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

/// The number of chunks to cut `op`, of symbolic size, into: as
/// tileForThreads says, computed before `op`.
static Value chunksForRunTimeWork(RewriterBase &rewriter, linalg::LinalgOp op,
                                  const maxgraph::ThreadTiling &tiling) {
  int64_t chunks = tiling.numChunks, minWork = tiling.minWork;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value work =
      arith::ConstantIndexOp::create(rewriter, loc, workPerIteration(op));
  for (Range range : op.createLoopRanges(rewriter, loc))
    work = arith::MulIOp::create(
        rewriter, loc, work,
        getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  Value enough = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::sge, work,
      arith::ConstantIndexOp::create(rewriter, loc, minWork));
  return arith::SelectOp::create(
      rewriter, loc, enough,
      arith::ConstantIndexOp::create(rewriter, loc, chunks),
      arith::ConstantIndexOp::create(rewriter, loc, 1));
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
  if (tileSizes.empty() && work < 0)
    options.setNumThreads({chunksForRunTimeWork(rewriter, op, tiling)});
  else if (tileSizes.empty())
    options.setNumThreads(
        {getAsIndexOpFoldResult(op->getContext(), tiling.numChunks)});
  else
    options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), tileSizes));
  options.setInterchange(interchange);
  FailureOr<scf::SCFTilingResult> result =
      tileAndReplace(rewriter, untiled, options);
  if (failed(result))
    return failure();
  return cast<TilingInterface>(result->tiledOps.back());
}
