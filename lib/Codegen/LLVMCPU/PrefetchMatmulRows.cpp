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
// loads in flight across those boundaries, and into the next tile's panel.
// Each step adds a comparison, a select and the prefetches: a tile with
// many rows of A reads B from L2, and pays for every instruction the
// prefetch adds.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/CPUTarget.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace maxgraph {
#define GEN_PASS_DEF_PREFETCHMATMULROWS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {

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

/// Bytes of B below which its rows are not prefetched: a B of a few pages
/// is in cache after its first rows, or streams in before the prefetchers
/// lose it, and the prefetches only cost compile time (a tenth of it, with
/// the K loops split where the rows ahead ran out, for the 32-layer model
/// of compile_scaling.py, d = 64, whose matrices are 16-64 KB).
constexpr int64_t kMinPrefetchedBytes = 256 * 1024;

/// The memref whose rows `row` (a row of a K loop's B) is a view of,
/// through unit-stride subviews: the whole B, or its packed panels.
Value outermostRows(memref::SubViewOp row) {
  Value rows = row.getSource();
  while (auto view = rows.getDefiningOp<memref::SubViewOp>()) {
    if (!llvm::all_of(view.getMixedStrides(), [](OpFoldResult stride) {
          return isConstantIntValue(stride, 1);
        }))
      break;
    rows = view.getSource();
  }
  return rows;
}

/// Whether B, the memref that `row`'s rows view, is small enough to stay
/// unprefetched (kMinPrefetchedBytes, static sizes only).
bool isSmall(memref::SubViewOp row) {
  auto type = cast<MemRefType>(outermostRows(row).getType());
  return type.hasStaticShape() &&
         type.getNumElements() * type.getElementTypeBitWidth() / 8 <
             kMinPrefetchedBytes;
}

struct PrefetchMatmulRowsPass
    : maxgraph::impl::PrefetchMatmulRowsBase<PrefetchMatmulRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (rowsAhead <= 0)
      return;
    // One read per loop (a register tile's K loop has one contraction).
    SmallVector<
        std::tuple<vector::TransferReadOp, memref::SubViewOp, scf::ForOp>>
        reads;
    llvm::SmallPtrSet<Operation *, 16> loops;
    getOperation().walk([&](vector::ContractionOp contract) {
      auto loop = dyn_cast<scf::ForOp>(contract->getParentOp());
      auto read = contract.getRhs().getDefiningOp<vector::TransferReadOp>();
      if (!loop || !read || read->getParentOp() != loop ||
          !isConstantIntValue(loop.getStep(), 1))
        return;
      memref::SubViewOp row = rowReadOf(read, loop);
      if (row && !isSmall(row) && loops.insert(loop).second)
        reads.emplace_back(read, row, loop);
    });
    for (auto [read, row, loop] : reads)
      prefetchAhead(read, row, loop);
  }

  /// Prefetches, at each step %k of `loop`, row %k + rowsAhead of the
  /// rows that `read` reads `row` of (every cache line of the columns it
  /// reads), in the memref that they view through unit-stride subviews.
  /// Past the rows the loop reads, the row is that of the same window of
  /// the next panel, where the rows are a window of one panel among several
  /// (the dim before them dropped) that the loop reads to its end, and the
  /// memref is contiguous (the next panel's window is then a fixed
  /// distance away in its rows taken as one dim); else the row read. The
  /// index is %k plus one of two loop-invariant distances, chosen by one
  /// comparison: LLVM makes it a compare, a select and the prefetch off the
  /// row's address, which an AVX2 register tile of 12 multiply-adds per
  /// step has issue slots for (bounds and a wrap computed at each step were
  /// 16 instructions and cost it a tenth of its speed).
  void prefetchAhead(vector::TransferReadOp read, memref::SubViewOp row,
                     scf::ForOp loop) {
    // Elements below a byte are not read by vectors (their tiles stay
    // scalar); none is prefetched.
    int64_t elementBytes =
        cast<MemRefType>(row.getSourceType()).getElementTypeBitWidth() / 8;
    if (elementBytes <= 0)
      return;
    OpBuilder builder(read);
    Location loc = read.getLoc();
    auto constant = [&](OpBuilder &b, int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    int64_t columns = read.getVectorType().getShape().back();
    int64_t available = row.getSourceType().getShape().back();
    columns =
        ShapedType::isDynamic(available) ? 1 : std::min(columns, available);
    // The loop-invariant part of the indices of row %k in the outermost
    // memref, the dim of its rows, and the window (the view that drops the
    // panel dim before the rows, and its dim of rows) if there is one.
    Value rows = row.getSource();
    SmallVector<Value> origin(row.getSourceType().getRank(),
                              constant(builder, 0));
    unsigned rowDim = 0;
    memref::SubViewOp window;
    unsigned windowRowDim = 0;
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
      if (!window && outerRowDim > 0 && dropped.test(outerRowDim - 1) &&
          isEqualConstantIntOrValue(view.getMixedSizes()[outerRowDim],
                                    getAsOpFoldResult(loop.getUpperBound()))) {
        window = view;
        windowRowDim = outerRowDim;
      }
      SmallVector<Value> outer;
      unsigned kept = 0;
      for (auto [dim, offset] : llvm::enumerate(view.getMixedOffsets())) {
        Value start = getValueOrCreateConstantIndexOp(builder, loc, offset);
        outer.push_back(
            dropped.test(dim)
                ? start
                : arith::AddIOp::create(builder, loc, start, origin[kept++]));
      }
      origin = std::move(outer);
      rowDim = outerRowDim;
      rows = view.getSource();
    }
    // The rows taken across the panels, when the window's panels are the
    // outermost memref's dim before its rows and that memref is contiguous.
    auto type = cast<MemRefType>(rows.getType());
    bool acrossPanels = window && window.getSource() == rows &&
                        rowDim == windowRowDim && type.getLayout().isIdentity();
    Value iv = loop.getInductionVar();
    Value ahead = constant(builder, rowsAhead);
    Value past = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::uge,
        arith::AddIOp::create(builder, loc, iv, ahead), loop.getUpperBound());
    Value pastDistance = constant(builder, 0);
    if (acrossPanels) {
      unsigned panelDim = rowDim - 1;
      SmallVector<ReassociationIndices> groups;
      for (unsigned dim = 0; dim < type.getRank(); ++dim) {
        if (dim == rowDim)
          continue;
        groups.push_back(dim == panelDim
                             ? ReassociationIndices{panelDim, rowDim}
                             : ReassociationIndices{dim});
      }
      // Built where `rows` is, or at the read where that is in the loop.
      OpBuilder atRows(builder);
      if (!loop->isAncestor(rows.getParentRegion()->getParentOp()))
        atRows.setInsertionPoint(loop);
      Value panels = memref::DimOp::create(atRows, loc, rows, panelDim);
      Value panelRows = memref::DimOp::create(atRows, loc, rows, rowDim);
      Value flat = memref::CollapseShapeOp::create(atRows, loc, rows, groups);
      // Row %k + ahead past the window of `size` rows of panel %j is row
      // %k + ahead - size of the window of panel min(%j + 1, last), that
      // many panels' rows further.
      Value panel = origin[panelDim];
      Value next = arith::MinUIOp::create(
          builder, loc,
          arith::AddIOp::create(builder, loc, panel, constant(builder, 1)),
          arith::SubIOp::create(builder, loc, panels, constant(builder, 1)));
      Value size = getValueOrCreateConstantIndexOp(
          builder, loc, window.getMixedSizes()[windowRowDim]);
      pastDistance = arith::SubIOp::create(
          builder, loc,
          arith::AddIOp::create(
              builder, loc,
              arith::MulIOp::create(
                  builder, loc,
                  arith::SubIOp::create(builder, loc, next, panel), panelRows),
              ahead),
          size);
      Value rowIndex = arith::AddIOp::create(
          builder, loc, arith::MulIOp::create(builder, loc, panel, panelRows),
          origin[rowDim]);
      origin.erase(origin.begin() + rowDim);
      origin[panelDim] = rowIndex;
      rowDim = panelDim;
      rows = flat;
    }
    Value distance =
        arith::SelectOp::create(builder, loc, past, pastDistance, ahead);
    origin[rowDim] = arith::AddIOp::create(
        builder, loc, origin[rowDim],
        arith::AddIOp::create(builder, loc, iv, distance));
    // In bounds: the row read, a row the loop reads, or one of the next
    // panel's window, at most `ahead` rows into it; a window shorter than
    // that is clamped to the last row.
    std::optional<int64_t> size =
        window ? getConstantIntValue(window.getMixedSizes()[windowRowDim])
               : std::nullopt;
    if (acrossPanels && (!size || *size < rowsAhead)) {
      OpBuilder outside(builder);
      if (!loop->isAncestor(rows.getParentRegion()->getParentOp()))
        outside.setInsertionPoint(loop);
      Value last = arith::SubIOp::create(
          outside, loc, memref::DimOp::create(outside, loc, rows, rowDim),
          constant(outside, 1));
      origin[rowDim] =
          arith::MinUIOp::create(builder, loc, origin[rowDim], last);
    }
    if (rowDim + 1 == origin.size())
      columns = 1;
    Value firstColumn = origin.back();
    int64_t perLine =
        std::max<int64_t>(1, maxgraph::kCacheLineBytes / elementBytes);
    for (int64_t column = 0; column < columns; column += perLine) {
      if (column > 0)
        origin.back() = arith::AddIOp::create(builder, loc, firstColumn,
                                              constant(builder, column));
      memref::PrefetchOp::create(builder, loc, rows, origin,
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  }
};
} // namespace
