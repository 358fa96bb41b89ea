//===- BlockReductionKernel.cpp - one GPU block per reduced row -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reductions whose rows are long (softmax's max and sum, layer_norm's
// moments, reduce_* to few outputs): a block per point of the parallel
// space. Each thread folds every `blockDim`-th element of the row into a
// partial result starting from the combiner's neutral element; the warps
// combine their lanes' partials by shuffles (`gpu.shuffle xor`, a
// butterfly, so every lane ends with its warp's total), lane 0 of each warp
// leaves it in shared memory, and after one barrier every warp combines
// those the same way; thread 0 folds the total into the output. The row
// groups of RowGroupKernel.cpp reduce their rows with the same code.
//
// The butterfly reorders the combination, so it is used only for
// associative and commutative combiners (floating-point sums are
// reassociated, as every GPU reduction does).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {

namespace {
/// NVIDIA's warp: the lanes a `gpu.shuffle` exchanges between.
constexpr int64_t kWarp = 32;
/// Blocks that a reduction of few rows is split into: two for each of an
/// H100's or H200's 132 SMs.
constexpr int64_t kSplitBlocks = 264;
/// Elements each thread of a split folds at the least.
constexpr int64_t kSplitWork = 8;
} // namespace

std::optional<SmallVector<Operation *>> treeCombiners(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0)
    return std::nullopt;
  Block &body = *op.getBlock();
  Operation *yield = body.getTerminator();
  unsigned parallel = op.getNumParallelLoops();
  SmallVector<Operation *> combiners;
  for (auto [position, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    // Parallel loops come first; outputs are indexed by them only.
    for (AffineExpr expr : op.getMatchingIndexingMap(&init).getResults())
      for (unsigned dim = parallel; dim < op.getNumLoops(); ++dim)
        if (expr.isFunctionOfDim(dim))
          return std::nullopt;
    // Shared memory holds the partials: no i1 buffers there.
    Type element = getElementTypeOrSelf(init.get().getType());
    if (element.isInteger(1))
      return std::nullopt;
    BlockArgument accumulator = op.getMatchingBlockArgument(&init);
    if (!accumulator.hasOneUse())
      return std::nullopt;
    Operation *combiner = *accumulator.getUsers().begin();
    if (combiner->getBlock() != &body || combiner->getNumOperands() != 2 ||
        combiner->getNumResults() != 1 || !combiner->getResult(0).hasOneUse() ||
        yield->getOperand(position) != combiner->getResult(0) ||
        !arith::getNeutralElement(combiner))
      return std::nullopt;
    combiners.push_back(combiner);
  }
  return combiners;
}

namespace {
/// `combiner` applied to `lhs` and `rhs` (its operands are interchangeable).
Value combine(OpBuilder &b, Operation *combiner, Value lhs, Value rhs) {
  Operation *combined = b.clone(*combiner);
  combined->setOperands({lhs, rhs});
  return combined->getResult(0);
}

/// The combiners' neutral elements: where every partial starts.
SmallVector<Value> neutralsOf(OpBuilder &b, Location loc,
                              ArrayRef<Operation *> combiners) {
  SmallVector<Value> neutrals;
  for (Operation *combiner : combiners)
    neutrals.push_back(
        arith::ConstantOp::create(b, loc, *arith::getNeutralElement(combiner)));
  return neutrals;
}

/// The partials of `op` over the row at `parallelIvs`: its body folded over
/// the row's positions `first`, `first + step`, ... below `end`.
ValueRange foldStrided(OpBuilder &b, Location loc, linalg::GenericOp op,
                       ArrayRef<Operation *> combiners,
                       ArrayRef<Value> parallelIvs,
                       ArrayRef<Value> reductionSizes, Value first, Value end,
                       int64_t step) {
  auto strided = scf::ForOp::create(
      b, loc, first, end, arith::ConstantIndexOp::create(b, loc, step),
      neutralsOf(b, loc, combiners),
      [&](OpBuilder &nested, Location, Value position, ValueRange partials) {
        SmallVector<Value> ivs(parallelIvs);
        llvm::append_range(ivs,
                           delinearize(nested, loc, position, reductionSizes));
        scf::YieldOp::create(nested, loc, emitBody(nested, op, ivs, partials));
      });
  return strided.getResults();
}

/// `value` of lane `lane ^ offset` of the warp (`gpu.shuffle xor`), for any
/// integer or float of at most 64 bits: shuffles move 32-bit words, so a
/// narrower value travels widened and a 64-bit one as two halves.
Value shuffleXor(OpBuilder &b, Location loc, Value value, int32_t offset,
                 int32_t width) {
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  auto shuffle = [&](Value word) {
    return gpu::ShuffleOp::create(b, loc, word, offset, width,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  if (bits == 32)
    return shuffle(value);
  Type integer = b.getIntegerType(bits);
  Value word = isa<FloatType>(type)
                   ? arith::BitcastOp::create(b, loc, integer, value)
                   : value;
  Value result;
  if (bits < 32) {
    Value shuffled = shuffle(arith::ExtUIOp::create(b, loc, i32, word));
    result = arith::TruncIOp::create(b, loc, integer, shuffled);
  } else {
    Value shift = arith::ConstantIntOp::create(b, loc, integer, 32);
    Value low = shuffle(arith::TruncIOp::create(b, loc, i32, word));
    Value high = shuffle(arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, word, shift)));
    result = arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, integer, low),
        arith::ShLIOp::create(
            b, loc, arith::ExtUIOp::create(b, loc, integer, high), shift));
  }
  return isa<FloatType>(type) ? arith::BitcastOp::create(b, loc, type, result)
                              : result;
}

/// Each `values` combined over aligned groups of `lanes` lanes (a power of
/// two, at most `width`): a butterfly of shuffles, after which every lane
/// holds its group's totals. `width` is the lanes the shuffles name: the
/// warp, or all the block's threads when there are fewer (a shuffle must
/// not name lanes that do not run it).
SmallVector<Value> warpReduce(OpBuilder &b, Location loc,
                              ArrayRef<Operation *> combiners,
                              SmallVector<Value> values, int64_t lanes,
                              int64_t width) {
  for (int64_t offset = lanes / 2; offset >= 1; offset /= 2)
    for (auto [combiner, value] : llvm::zip_equal(combiners, values))
      value = combine(b, combiner, value,
                      shuffleXor(b, loc, value, static_cast<int32_t>(offset),
                                 static_cast<int32_t>(width)));
  return values;
}
} // namespace

int64_t warpsOf(int64_t threads) { return llvm::divideCeil(threads, kWarp); }

SmallVector<Value> blockReduce(OpBuilder &b, Location loc,
                               ArrayRef<Operation *> combiners,
                               ValueRange partials, Value thread,
                               int64_t threads, ArrayRef<Value> scratch) {
  int64_t width = std::min(threads, kWarp);
  SmallVector<Value> totals =
      warpReduce(b, loc, combiners, llvm::to_vector(partials), width, width);
  if (threads <= kWarp)
    return totals;
  // Lane 0 of each warp leaves its warp's totals in `scratch`; then every
  // warp reduces those, each aligned group of `lanes` lanes a copy of them,
  // so that every thread holds the block's totals without a branch around
  // the shuffles.
  int64_t warps = warpsOf(threads);
  int64_t lanes = llvm::bit_ceil(static_cast<uint64_t>(warps));
  Value warpSize = arith::ConstantIndexOp::create(b, loc, kWarp);
  Value lane = arith::RemUIOp::create(b, loc, thread, warpSize);
  Value warp = arith::DivUIOp::create(b, loc, thread, warpSize);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  auto ifOp = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (auto [total, buffer] : llvm::zip_equal(totals, scratch))
      memref::StoreOp::create(b, loc, total, buffer, warp);
  }
  gpu::BarrierOp::create(b, loc);
  Value slot = arith::RemUIOp::create(
      b, loc, lane, arith::ConstantIndexOp::create(b, loc, lanes));
  // Past the warp count, a lane reads slot 0 and takes the neutral element.
  Value holds;
  if (warps != lanes) {
    holds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slot,
                              arith::ConstantIndexOp::create(b, loc, warps));
    slot = arith::SelectOp::create(b, loc, holds, slot, zero);
  }
  SmallVector<Value> perWarp;
  for (auto [neutral, buffer] :
       llvm::zip_equal(neutralsOf(b, loc, combiners), scratch)) {
    Value loaded = memref::LoadOp::create(b, loc, buffer, slot);
    perWarp.push_back(
        holds ? arith::SelectOp::create(b, loc, holds, loaded, neutral)
              : loaded);
  }
  return warpReduce(b, loc, combiners, std::move(perWarp), lanes, kWarp);
}

LogicalResult mapToBlockReduction(RewriterBase &rewriter, linalg::GenericOp op,
                                  ArrayRef<Value> sizes,
                                  ArrayRef<Operation *> combiners,
                                  int64_t blockSize) {
  Location loc = op.getLoc();
  unsigned parallel = op.getNumParallelLoops();
  ArrayRef<Value> parallelSizes = sizes.take_front(parallel);
  ArrayRef<Value> reductionSizes = sizes.drop_front(parallel);
  Value rows = product(rewriter, loc, parallelSizes);
  Value rowSize = product(rewriter, loc, reductionSizes);

  int64_t threads = blockThreads(blockSize, getConstantIntValue(rowSize));
  SmallVector<Type> scratchBuffers;
  for (OpOperand &init : op.getDpsInitsMutable())
    scratchBuffers.push_back(workgroupBuffer(
        getElementTypeOrSelf(init.get().getType()), warpsOf(threads)));

  gpu::LaunchOp launch =
      openLaunch(rewriter, loc, rows, threads, scratchBuffers);
  Value thread = launch.getThreadIds().x;
  SmallVector<Value> rowIvs =
      delinearize(rewriter, loc, launch.getBlockIds().x, parallelSizes);
  SmallVector<Value> totals = reduceRow(
      rewriter, loc, op, combiners, rowIvs, reductionSizes, thread, threads,
      threads, llvm::to_vector_of<Value>(launch.getWorkgroupAttributions()));
  storeTotals(rewriter, loc, op, combiners, rowIvs, totals,
              isFirstThread(rewriter, loc, thread));
  rewriter.eraseOp(op);
  return success();
}

std::optional<int64_t> splitsPerRow(linalg::GenericOp op, ArrayRef<Value> sizes,
                                    int64_t threads) {
  unsigned parallel = op.getNumParallelLoops();
  int64_t rows = 1;
  for (Value size : sizes.take_front(parallel)) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant)
      return std::nullopt;
    rows *= *constant;
  }
  if (rows == 0 || rows * 2 > kSplitBlocks)
    return std::nullopt;
  int64_t splits = kSplitBlocks / rows;
  // At least kSplitWork elements for each thread of a split.
  std::optional<int64_t> rowSize = 1;
  for (Value size : sizes.drop_front(parallel))
    if (std::optional<int64_t> constant = getConstantIntValue(size);
        constant && rowSize)
      *rowSize *= *constant;
    else
      rowSize = std::nullopt;
  if (rowSize)
    splits = std::min(splits, *rowSize / (threads * kSplitWork));
  if (splits < 2)
    return std::nullopt;
  return splits;
}

LogicalResult mapToSplitReduction(RewriterBase &rewriter, linalg::GenericOp op,
                                  ArrayRef<Value> sizes,
                                  ArrayRef<Operation *> combiners,
                                  int64_t threads, int64_t splits) {
  Location loc = op.getLoc();
  unsigned parallel = op.getNumParallelLoops();
  ArrayRef<Value> parallelSizes = sizes.take_front(parallel);
  ArrayRef<Value> reductionSizes = sizes.drop_front(parallel);
  int64_t rows = *getConstantIntValue(product(rewriter, loc, parallelSizes));
  Value rowSize = product(rewriter, loc, reductionSizes);
  Value splitCount = arith::ConstantIndexOp::create(rewriter, loc, splits);

  // The partial totals, a row's `splits` of them side by side.
  SmallVector<Value> partials;
  SmallVector<Type> scratchTypes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Type element = getElementTypeOrSelf(init.get().getType());
    partials.push_back(memref::AllocOp::create(
        rewriter, loc, MemRefType::get({rows * splits}, element)));
    scratchTypes.push_back(workgroupBuffer(element, warpsOf(threads)));
  }

  // First pass: block (row, split) folds every (splits x threads)-th element
  // of its row from position split x threads + thread.
  {
    OpBuilder::InsertionGuard guard(rewriter);
    Value blocks = arith::ConstantIndexOp::create(rewriter, loc, rows * splits);
    gpu::LaunchOp launch =
        openLaunch(rewriter, loc, blocks, threads, scratchTypes);
    Value thread = launch.getThreadIds().x;
    Value block = launch.getBlockIds().x;
    Value row = arith::DivUIOp::create(rewriter, loc, block, splitCount);
    Value split = arith::RemUIOp::create(rewriter, loc, block, splitCount);
    SmallVector<Value> rowIvs = delinearize(rewriter, loc, row, parallelSizes);
    Value threadCount = arith::ConstantIndexOp::create(rewriter, loc, threads);
    Value first = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, split, threadCount),
        thread);
    ValueRange folded =
        foldStrided(rewriter, loc, op, combiners, rowIvs, reductionSizes, first,
                    rowSize, splits * threads);
    SmallVector<Value> totals = blockReduce(
        rewriter, loc, combiners, folded, thread, threads,
        llvm::to_vector_of<Value>(launch.getWorkgroupAttributions()));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value leader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, thread, zero);
    auto ifOp = scf::IfOp::create(rewriter, loc, leader, /*withElse=*/false);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    for (auto [total, buffer] : llvm::zip_equal(totals, partials))
      memref::StoreOp::create(rewriter, loc, total, buffer, block);
  }

  // Second pass: a block per row combines its splits' totals into the
  // output.
  int64_t combineThreads =
      std::min<int64_t>(threads, llvm::bit_ceil(static_cast<uint64_t>(splits)));
  SmallVector<Type> combineScratch;
  for (Value buffer : partials)
    combineScratch.push_back(
        workgroupBuffer(cast<MemRefType>(buffer.getType()).getElementType(),
                        warpsOf(combineThreads)));
  Value rowCount = arith::ConstantIndexOp::create(rewriter, loc, rows);
  gpu::LaunchOp launch =
      openLaunch(rewriter, loc, rowCount, combineThreads, combineScratch);
  Value thread = launch.getThreadIds().x;
  Value row = launch.getBlockIds().x;
  Value base = arith::MulIOp::create(rewriter, loc, row, splitCount);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, combineThreads);
  auto strided = scf::ForOp::create(
      rewriter, loc, thread, splitCount, step,
      neutralsOf(rewriter, loc, combiners),
      [&](OpBuilder &b, Location, Value split, ValueRange current) {
        Value at = arith::AddIOp::create(b, loc, base, split);
        SmallVector<Value> next;
        for (auto [combiner, buffer, value] :
             llvm::zip_equal(combiners, partials, current))
          next.push_back(combine(b, combiner, value,
                                 memref::LoadOp::create(b, loc, buffer, at)));
        scf::YieldOp::create(b, loc, next);
      });
  SmallVector<Value> totals = blockReduce(
      rewriter, loc, combiners, strided.getResults(), thread, combineThreads,
      llvm::to_vector_of<Value>(launch.getWorkgroupAttributions()));
  storeTotals(rewriter, loc, op, combiners,
              delinearize(rewriter, loc, row, parallelSizes), totals,
              isFirstThread(rewriter, loc, thread));
  rewriter.eraseOp(op);
  return success();
}

int64_t blockThreads(int64_t blockSize, std::optional<int64_t> staticRow) {
  // A power of two, no larger than a static row needs.
  int64_t threads = llvm::bit_floor(static_cast<uint64_t>(blockSize));
  if (staticRow)
    threads =
        std::min<int64_t>(threads, llvm::bit_ceil(static_cast<uint64_t>(
                                       std::max<int64_t>(*staticRow, 1))));
  return threads;
}

SmallVector<Value> reduceRow(OpBuilder &b, Location loc, linalg::GenericOp op,
                             ArrayRef<Operation *> combiners,
                             ArrayRef<Value> parallelIvs,
                             ArrayRef<Value> reductionSizes, Value lane,
                             int64_t lanes, int64_t threads,
                             ArrayRef<Value> scratch, Value active) {
  // This lane's partials: every `lanes`-th element of the row (none past
  // the last row).
  Value rowSize = product(b, loc, reductionSizes);
  if (active)
    rowSize = arith::SelectOp::create(
        b, loc, active, rowSize, arith::ConstantIndexOp::create(b, loc, 0));
  ValueRange partials = foldStrided(b, loc, op, combiners, parallelIvs,
                                    reductionSizes, lane, rowSize, lanes);
  if (lanes == threads)
    return blockReduce(b, loc, combiners, partials, lane, threads, scratch);
  // Several rows per warp: each aligned group of `lanes` lanes reduces its
  // own, by shuffles over the whole warp.
  return warpReduce(b, loc, combiners, SmallVector<Value>(partials), lanes,
                    std::min(threads, kWarp));
}

void storeTotals(OpBuilder &b, Location loc, linalg::GenericOp op,
                 ArrayRef<Operation *> combiners, ArrayRef<Value> parallelIvs,
                 ArrayRef<Value> totals, Value leader) {
  // Outputs are indexed by the parallel loops only (`treeCombiners`); the
  // reduction loops' indices are never read.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> ivs(parallelIvs);
  ivs.resize(op.getNumLoops(), zero);
  auto ifOp = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  for (auto [init, combiner, total] :
       llvm::zip_equal(op.getDpsInitsMutable(), combiners, totals)) {
    SmallVector<Value> indices =
        applyMap(b, loc, op.getMatchingIndexingMap(&init), ivs);
    Value initial = memref::LoadOp::create(b, loc, init.get(), indices);
    memref::StoreOp::create(b, loc, combine(b, combiner, initial, total),
                            init.get(), indices);
  }
}

Value isFirstThread(OpBuilder &b, Location loc, Value thread) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

} // namespace maxgraph::gpu_kernels
