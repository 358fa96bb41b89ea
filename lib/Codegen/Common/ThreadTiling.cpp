//===- ThreadTiling.cpp - the outer scf.forall that spreads work ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/ThreadTiling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include <algorithm>

using namespace mlir;

int64_t maxgraph::estimateWork(linalg::LinalgOp op, int64_t dynamicWork) {
  constexpr int64_t kCap = int64_t(1) << 40;
  int64_t perIteration = 0;
  if (op->getNumRegions() == 1 && !op->getRegion(0).empty())
    for (Operation &inner : op->getRegion(0).front()) {
      if (isa<linalg::YieldOp, linalg::IndexOp>(inner))
        continue;
      perIteration +=
          isa<math::MathDialect>(inner.getDialect()) ? kMathFunctionWork : 1;
    }
  int64_t work = std::max<int64_t>(perIteration, 1);
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
  if (tiling.spreadsNothing() || op.getNumLoops() == 0 ||
      op.getIteratorTypesArray().front() != utils::IteratorType::parallel ||
      !tiling.spreads(estimateWork(op, tiling.minWork)))
    return untiled;
  int64_t leading = op.getStaticLoopRanges().front();
  if (tileSizes.empty() && !ShapedType::isDynamic(leading) && leading < 2)
    return untiled;
  scf::SCFTilingOptions options;
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  if (tileSizes.empty())
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
