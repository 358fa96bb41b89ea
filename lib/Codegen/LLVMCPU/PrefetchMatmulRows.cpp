//===- PrefetchMatmulRows.cpp - maxgraph-prefetch-matmul-rows -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A register tile of a matmul with few rows of A (a batch of a few tokens
// through a layer's weights) does a few fused multiply-adds per element of
// B, and B comes from memory once: the tile waits on B's loads. The
// hardware's prefetchers follow a stream within a 4 KB page and start over
// at each new one, and the tiles read B in chunks of a K panel, a page or a
// few apart; a software prefetch a fixed number of rows ahead keeps the
// loads in flight across those boundaries.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SmallBitVector.h"

namespace maxgraph {
#define GEN_PASS_DEF_PREFETCHMATMULROWS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Bytes in a cache line.
constexpr int64_t kCacheLineBytes = 64;

/// The memref whose row `loop`'s induction variable reads into `read`'s
/// vector, when `read` reads row %iv of it through `memref.subview
/// %rows[%iv, 0, ...] [1, ...]` from its origin; else null.
memref::SubViewOp rowReadOf(vector::TransferReadOp read, scf::ForOp loop) {
  auto row = read.getBase().getDefiningOp<memref::SubViewOp>();
  if (!row || row.getSourceType().getRank() < 2 ||
      row.getMixedOffsets().front() != OpFoldResult(loop.getInductionVar()) ||
      !isConstantIntValue(row.getMixedSizes().front(), 1) ||
      !llvm::all_of(row.getMixedStrides(),
                    [](OpFoldResult s) { return isConstantIntValue(s, 1); }) ||
      !llvm::all_of(llvm::drop_begin(row.getMixedOffsets()),
                    [](OpFoldResult o) { return isConstantIntValue(o, 0); }) ||
      !llvm::all_of(read.getIndices(),
                    [](Value index) { return isConstantIntValue(index, 0); }))
    return nullptr;
  return row;
}

/// The last index of `memref`'s dim `dim`, computed before `loop` when
/// `memref` is defined outside it (the bound is loop invariant there), at
/// `builder`'s point otherwise.
Value lastIndex(OpBuilder &builder, scf::ForOp loop, Value memref,
                int64_t dim) {
  OpBuilder outside(builder);
  if (!loop->isAncestor(memref.getParentRegion()->getParentOp()))
    outside.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  return arith::SubIOp::create(outside, loc,
                               memref::DimOp::create(outside, loc, memref, dim),
                               arith::ConstantIndexOp::create(outside, loc, 1));
}

struct PrefetchMatmulRowsPass
    : maxgraph::impl::PrefetchMatmulRowsBase<PrefetchMatmulRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (rowsAhead <= 0)
      return;
    getOperation().walk([&](vector::ContractionOp contract) {
      auto loop = dyn_cast<scf::ForOp>(contract->getParentOp());
      auto read = contract.getRhs().getDefiningOp<vector::TransferReadOp>();
      if (!loop || !read)
        return;
      memref::SubViewOp row = rowReadOf(read, loop);
      if (!row)
        return;
      prefetch(row, read, loop);
    });
  }

  /// Prefetches row %iv + rowsAhead of `row`'s source, every cache line
  /// of the columns that `read` reads of it. The rows are those of the
  /// memref that the source views through unit-stride subviews (the whole
  /// packed panel of B, of which a K panel's rows are a window), so that
  /// the last rows of one K panel prefetch the first of the next; the last
  /// row of that memref at most.
  void prefetch(memref::SubViewOp row, vector::TransferReadOp read,
                scf::ForOp loop) {
    OpBuilder builder(read);
    Location loc = read.getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    // Elements below a byte are not read by vectors (their tiles stay
    // scalar); none is prefetched.
    int64_t elementBytes =
        cast<MemRefType>(row.getSourceType()).getElementTypeBitWidth() / 8;
    if (elementBytes <= 0)
      return;
    int64_t columns = read.getVectorType().getShape().back();
    int64_t available = row.getSourceType().getShape().back();
    if (ShapedType::isDynamic(available))
      columns = 1;
    else
      columns = std::min(columns, available);
    // The prefetched row's indices in the outermost memref, and which of
    // them steps with the rows.
    Value rows = row.getSource();
    SmallVector<Value> origin(row.getSourceType().getRank(), constant(0));
    origin.front() = arith::AddIOp::create(builder, loc, loop.getInductionVar(),
                                           constant(rowsAhead));
    unsigned rowDim = 0;
    bool wrapped = false;
    while (auto view = rows.getDefiningOp<memref::SubViewOp>()) {
      if (!llvm::all_of(view.getMixedStrides(), [](OpFoldResult stride) {
            return isConstantIntValue(stride, 1);
          }))
        break;
      llvm::SmallBitVector dropped = view.getDroppedDims();
      unsigned outerRowDim = 0;
      for (unsigned dim = 0, kept = 0; dim < dropped.size(); ++dim)
        if (!dropped.test(dim) && kept++ == rowDim)
          outerRowDim = dim;
      // A window of rows of one panel of several (a K panel of a packed
      // panel of B, the dim before the rows dropped): the tile after this
      // one reads the same window of the next panel, so rows past the
      // window's end are prefetched there, and that tile starts with its
      // first rows on their way instead of waiting for them.
      Value nextPanel;
      if (!wrapped && outerRowDim > 0 && dropped.test(outerRowDim - 1)) {
        wrapped = true;
        Value size = getValueOrCreateConstantIndexOp(
            builder, loc, view.getMixedSizes()[outerRowDim]);
        Value past = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::uge, origin[rowDim], size);
        origin[rowDim] = arith::SelectOp::create(
            builder, loc, past,
            arith::SubIOp::create(builder, loc, origin[rowDim], size),
            origin[rowDim]);
        nextPanel = arith::SelectOp::create(builder, loc, past, constant(1),
                                            constant(0));
      }
      SmallVector<Value> outer;
      unsigned kept = 0;
      for (auto [dim, offset] : llvm::enumerate(view.getMixedOffsets())) {
        Value start = getValueOrCreateConstantIndexOp(builder, loc, offset);
        if (nextPanel && dim + 1 == outerRowDim) {
          // The next panel, the last one at most.
          start = arith::MinUIOp::create(
              builder, loc,
              arith::AddIOp::create(builder, loc, start, nextPanel),
              lastIndex(builder, loop, view.getSource(), dim));
        }
        if (dropped.test(dim)) {
          outer.push_back(start);
          continue;
        }
        outer.push_back(
            arith::AddIOp::create(builder, loc, start, origin[kept++]));
      }
      origin = std::move(outer);
      rowDim = outerRowDim;
      rows = view.getSource();
    }
    origin[rowDim] = arith::MinUIOp::create(
        builder, loc, origin[rowDim], lastIndex(builder, loop, rows, rowDim));
    if (rowDim + 1 == origin.size())
      columns = 1;
    Value firstColumn = origin.back();
    int64_t perLine = std::max<int64_t>(1, kCacheLineBytes / elementBytes);
    for (int64_t column = 0; column < columns; column += perLine) {
      if (column > 0)
        origin.back() =
            arith::AddIOp::create(builder, loc, firstColumn, constant(column));
      memref::PrefetchOp::create(builder, loc, rows, origin,
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  }
};
} // namespace
