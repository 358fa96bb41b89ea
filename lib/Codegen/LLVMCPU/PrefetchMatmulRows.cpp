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
// The K loop is split where the rows ahead leave its rows, so that neither
// part checks a bound at each step: a tile with many rows of A reads B
// from L2, and pays for every instruction the prefetch adds.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

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

/// Bytes of B below which its rows are not prefetched: a B of a few pages
/// is in cache after its first rows, or streams in before the
/// prefetchers lose it, and splitting its tiles' loops only costs compile
/// time (the 32-layer model of compile_scaling.py, d = 64, compiled 15%
/// slower with its 16-64 KB matrices prefetched).
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

/// What a K loop prefetches: the row `rowsAhead` steps ahead in the rows
/// it reads (the loop's first iterations), or that row's place in the same
/// window of the next panel (its last `rowsAhead` iterations, past the
/// window's end).
enum class Ahead { InWindow, InNextPanel };

struct PrefetchMatmulRowsPass
    : maxgraph::impl::PrefetchMatmulRowsBase<PrefetchMatmulRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (rowsAhead <= 0)
      return;
    // One read per loop (a register tile's K loop has one contraction): a
    // loop is split once.
    SmallVector<std::pair<vector::TransferReadOp, scf::ForOp>> reads;
    llvm::SmallPtrSet<Operation *, 16> loops;
    getOperation().walk([&](vector::ContractionOp contract) {
      auto loop = dyn_cast<scf::ForOp>(contract->getParentOp());
      auto read = contract.getRhs().getDefiningOp<vector::TransferReadOp>();
      if (loop && read && read->getParentOp() == loop &&
          isConstantIntValue(loop.getStep(), 1) && rowReadOf(read, loop) &&
          !isSmall(rowReadOf(read, loop)) && loops.insert(loop).second)
        reads.emplace_back(read, loop);
    });
    for (auto [read, loop] : reads)
      splitAndPrefetch(read, loop);
  }

  /// Splits `loop` (step 1) where `rowsAhead` iterations are left: in the
  /// first part, row %k + rowsAhead is in the rows the loop reads, and
  /// each step prefetches it at a fixed distance from the row it reads (an
  /// address LLVM strength-reduces: one instruction per cache line, no
  /// bound to check, which a register tile of 12 multiply-adds per step on
  /// AVX2 has no issue slots for); in the last part, where it is past
  /// them, each step prefetches the next panel's row instead, or nothing.
  void splitAndPrefetch(vector::TransferReadOp read, scf::ForOp loop) {
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    Value ahead = arith::ConstantIndexOp::create(builder, loc, rowsAhead);
    Value split = arith::MaxSIOp::create(
        builder, loc, loop.getLowerBound(),
        arith::SubIOp::create(builder, loc, loop.getUpperBound(), ahead));
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    if (!lower || !upper || *upper - *lower > rowsAhead) {
      IRMapping mapping;
      auto first = cast<scf::ForOp>(builder.clone(*loop, mapping));
      first.getUpperBoundMutable().assign(split);
      loop.getLowerBoundMutable().assign(split);
      loop.getInitArgsMutable().assign(first.getResults());
      auto firstRead =
          cast<vector::TransferReadOp>(mapping.lookup(read.getOperation()));
      prefetch(rowReadOf(firstRead, first), firstRead, first, Ahead::InWindow);
    }
    prefetch(rowReadOf(read, loop), read, loop, Ahead::InNextPanel);
  }

  /// Prefetches row %iv + rowsAhead of `row`'s source (`InWindow`), or,
  /// where `row`'s rows are a window of one panel among several (the dim
  /// before them dropped) that `loop` reads to its end, the same row past
  /// the window's end in the next panel's window (`InNextPanel`, the last
  /// panel at most; nothing otherwise): every cache line of the columns
  /// that `read` reads of it, indexed in the memref that the source views
  /// through unit-stride subviews.
  void prefetch(memref::SubViewOp row, vector::TransferReadOp read,
                scf::ForOp loop, Ahead where) {
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
    // Whether the row is in bounds without a clamp: rows ahead within the
    // rows the loop reads, or in a window of at least `rowsAhead` rows.
    bool inBounds = where == Ahead::InWindow;
    bool wrapped = where == Ahead::InWindow;
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
      // panel of B, the dim before the rows dropped), which the loop reads
      // to its end: the tile after this one reads the same window of the
      // next panel, and starts with its first rows on their way.
      bool nextPanel = false;
      if (!wrapped && outerRowDim > 0 && dropped.test(outerRowDim - 1) &&
          isEqualConstantIntOrValue(view.getMixedSizes()[outerRowDim],
                                    getAsOpFoldResult(loop.getUpperBound()))) {
        wrapped = nextPanel = true;
        OpFoldResult size = view.getMixedSizes()[outerRowDim];
        origin[rowDim] = arith::SubIOp::create(
            builder, loc, origin[rowDim],
            getValueOrCreateConstantIndexOp(builder, loc, size));
        std::optional<int64_t> staticSize = getConstantIntValue(size);
        inBounds = staticSize && *staticSize >= rowsAhead;
      }
      SmallVector<Value> outer;
      unsigned kept = 0;
      for (auto [dim, offset] : llvm::enumerate(view.getMixedOffsets())) {
        Value start = getValueOrCreateConstantIndexOp(builder, loc, offset);
        if (nextPanel && dim + 1 == outerRowDim) {
          // The next panel, the last one at most (loop invariant).
          start = arith::MinUIOp::create(
              builder, loc,
              arith::AddIOp::create(builder, loc, start, constant(1)),
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
    if (!wrapped)
      return;
    if (!inBounds)
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
