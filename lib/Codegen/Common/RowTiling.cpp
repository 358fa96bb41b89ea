//===- RowTiling.cpp - tiling any linalg op to vector rows ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/RowTiling.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace {
/// A reduction over the innermost dim: rows of one element in the outer
/// dims, then the row in chunks of `tileSizes.back()` accumulated lane-wise
/// into a partial vector (no horizontal step per chunk), reduced once at
/// the end.
void tileRowReduction(RewriterBase &rewriter, TilingInterface op,
                      ArrayRef<int64_t> tileSizes) {
  SmallVector<int64_t> outer(tileSizes);
  outer.back() = 0;
  TilingInterface row = op;
  if (llvm::any_of(outer, [](int64_t size) { return size != 0; })) {
    FailureOr<scf::SCFTilingResult> rows =
        maxgraph::tileWithForLoops(rewriter, op, outer);
    if (failed(rows))
      return;
    row = cast<TilingInterface>(rows->tiledOps.back());
  }
  unsigned inner = tileSizes.size() - 1;
  SmallVector<int64_t> chunk(tileSizes.size(), 0);
  chunk.back() = tileSizes.back();
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), chunk));
  options.setReductionTilingStrategy(
      ReductionTilingStrategy::PartialReductionOuterReduction);
  options.setReductionDims({inner});
  FailureOr<scf::SCFTilingResult> chunks =
      maxgraph::tileAndReplace(rewriter, row, options);
  if (failed(chunks))
    return;
  maxgraph::markForVectorization(chunks->tiledOps.back());
  for (Operation *merge : chunks->mergeOps)
    maxgraph::markForVectorization(merge);
  for (Value init : chunks->initialValues)
    if (Operation *fill = init.getDefiningOp())
      maxgraph::markForVectorization(fill);
  maxgraph::peelPartialIterations(rewriter, chunks->loops);
}
} // namespace

void maxgraph::tileToVectorRows(RewriterBase &rewriter, linalg::LinalgOp op,
                                int64_t vectorLength,
                                const ThreadTiling &threads) {
  unsigned loops = op.getNumLoops();
  if (loops == 0)
    return;
  FailureOr<TilingInterface> block =
      tileForThreads(rewriter, op, threads, /*tileSizes=*/{});
  if (failed(block))
    return;
  auto tiledOp = cast<linalg::LinalgOp>(block->getOperation());
  SmallVector<int64_t> ranges = tiledOp.getStaticLoopRanges();
  SmallVector<int64_t> sizes(loops, 1);
  int64_t inner = ranges.back();
  sizes.back() =
      !ShapedType::isDynamic(inner) && inner <= vectorLength ? 0 : vectorLength;
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; })) {
    markForVectorization(tiledOp);
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
  FailureOr<scf::SCFTilingResult> rows =
      tileWithForLoops(rewriter, *block, sizes);
  if (failed(rows))
    return;
  markForVectorization(rows->tiledOps.back());
  peelPartialIterations(rewriter, rows->loops);
}
