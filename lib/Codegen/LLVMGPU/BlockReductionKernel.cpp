//===- BlockReductionKernel.cpp - one GPU block per reduced row -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reductions whose rows are long (softmax's max and sum, layer_norm's
// moments, reduce_* to few outputs): a block per point of the parallel
// space. Each thread folds every `blockDim`-th element of the row into a
// partial result starting from the combiner's neutral element, then the
// block combines the partials as a tree in shared memory, and thread 0
// folds the total into the output. With one thread per row, a row of n
// elements took n sequential steps on one thread and a full reduction ran
// on one thread of the whole GPU.
//
// The tree reorders the combination, so it is used only for associative
// and commutative combiners (floating-point sums are reassociated, as every
// GPU reduction does).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {

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
} // namespace

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

  // A power of two for the tree, no larger than a static row needs.
  int64_t threads = llvm::bit_floor(static_cast<uint64_t>(blockSize));
  if (std::optional<int64_t> staticRow = getConstantIntValue(rowSize))
    threads =
        std::min<int64_t>(threads, llvm::bit_ceil(static_cast<uint64_t>(
                                       std::max<int64_t>(*staticRow, 1))));
  SmallVector<Type> partialBuffers;
  for (OpOperand &init : op.getDpsInitsMutable())
    partialBuffers.push_back(
        workgroupBuffer(getElementTypeOrSelf(init.get().getType()), threads));

  gpu::LaunchOp launch =
      openLaunch(rewriter, loc, rows, threads, partialBuffers);
  Value thread = launch.getThreadIds().x;
  SmallVector<Value> rowIvs =
      delinearize(rewriter, loc, launch.getBlockIds().x, parallelSizes);

  // This thread's partials: every `threads`-th element of the row.
  SmallVector<Value> neutrals;
  for (Operation *combiner : combiners)
    neutrals.push_back(arith::ConstantOp::create(
        rewriter, loc, *arith::getNeutralElement(combiner)));
  Value step = arith::ConstantIndexOp::create(rewriter, loc, threads);
  auto strided = scf::ForOp::create(
      rewriter, loc, thread, rowSize, step, neutrals,
      [&](OpBuilder &b, Location, Value position, ValueRange partials) {
        SmallVector<Value> ivs(rowIvs);
        llvm::append_range(ivs, delinearize(b, loc, position, reductionSizes));
        scf::YieldOp::create(b, loc, emitBody(b, op, ivs, partials));
      });

  ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
  for (auto [partial, buffer] : llvm::zip_equal(strided.getResults(), shared))
    memref::StoreOp::create(rewriter, loc, partial, buffer, thread);
  gpu::BarrierOp::create(rewriter, loc);
  // The tree: at each level the lower half adds the upper half's partials.
  for (int64_t half = threads / 2; half >= 1; half /= 2) {
    Value halfValue = arith::ConstantIndexOp::create(rewriter, loc, half);
    Value lower = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, thread, halfValue);
    auto ifOp = scf::IfOp::create(rewriter, loc, lower, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      Value partner = arith::AddIOp::create(rewriter, loc, thread, halfValue);
      for (auto [combiner, buffer] : llvm::zip_equal(combiners, shared)) {
        Value mine = memref::LoadOp::create(rewriter, loc, buffer, thread);
        Value theirs = memref::LoadOp::create(rewriter, loc, buffer, partner);
        memref::StoreOp::create(rewriter, loc,
                                combine(rewriter, combiner, mine, theirs),
                                buffer, thread);
      }
    }
    // Thread 0 wrote the last level itself.
    if (half > 1)
      gpu::BarrierOp::create(rewriter, loc);
  }

  // Thread 0 folds the row's total into the output.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      thread, zero);
  auto ifOp = scf::IfOp::create(rewriter, loc, first, /*withElse=*/false);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  for (auto [init, combiner, buffer] :
       llvm::zip_equal(op.getDpsInitsMutable(), combiners, shared)) {
    SmallVector<Value> indices =
        applyMap(rewriter, loc, op.getMatchingIndexingMap(&init), rowIvs);
    Value initial = memref::LoadOp::create(rewriter, loc, init.get(), indices);
    Value total = memref::LoadOp::create(rewriter, loc, buffer, zero);
    memref::StoreOp::create(rewriter, loc,
                            combine(rewriter, combiner, initial, total),
                            init.get(), indices);
  }
  rewriter.eraseOp(op);
  return success();
}

} // namespace maxgraph::gpu_kernels
