//===- TiledMatmulKernel.cpp - matmuls tiled through shared memory --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The portable matmul strategy (both back ends; tensor cores are NVVM's
// own): a block of 256 threads computes a 64x64 tile of C, each thread a
// 4x4 tile in registers, at rows `ty + 16 i` and columns `tx + 16 j` so
// that neighbouring threads touch neighbouring columns. K advances in steps
// of 16: the block stages A's 64x16 and B's 16x64 slices in shared memory
// (each thread loads 4 elements of each, neighbours reading neighbouring
// addresses), waits, and every thread runs its 16 products per k from
// there. Each output still sees its k in order through the op's own body,
// so the results are those of a sequential loop.
//
// Edges: loads clamp their indices into the operands (what they read for
// rows or columns past the end feeds only outputs that are not stored), the
// last K step runs only to K, and stores are guarded. The batch and both
// tile indices share the grid's x dimension, which has no 65535 limit.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {
namespace {
constexpr int64_t kTile = 64;          // rows and columns of C per block
constexpr int64_t kStep = 16;          // K per shared-memory stage
constexpr int64_t kThreadsPerRow = 16; // threads along a tile's rows
constexpr int64_t kPerThread = kTile / kThreadsPerRow; // 4x4 per thread
constexpr int64_t kThreads = kThreadsPerRow * kThreadsPerRow;
} // namespace

bool isTiledMatmul(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isa<MemRefType>(input->get().getType()))
      return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(cast<linalg::LinalgOp>(op.getOperation()));
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() + 3 != op.getNumLoops())
    return false;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return output.isProjectedPermutation() &&
         !output.isFunctionOfDim(dims->k.front());
}

LogicalResult mapToTiledMatmul(RewriterBase &rewriter, linalg::GenericOp op,
                               ArrayRef<Value> sizes) {
  Location loc = op.getLoc();
  OpOperand *lhs = op.getDpsInputOperand(0);
  OpOperand *rhs = op.getDpsInputOperand(1);
  OpOperand &out = *op.getDpsInitOperand(0);
  MatmulBlock block = MatmulBlock::open(
      rewriter, op, sizes, kTile, kThreads,
      {workgroupBuffer(getElementTypeOrSelf(lhs->get().getType()),
                       kTile * kStep),
       workgroupBuffer(getElementTypeOrSelf(rhs->get().getType()),
                       kStep * kTile)});
  auto constant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value).getResult();
  };
  Value tile = constant(kTile);
  Value lhsTile = block.launch.getWorkgroupAttributions()[0];
  Value rhsTile = block.launch.getWorkgroupAttributions()[1];
  Value thread = block.launch.getThreadIds().x;
  Value threadsPerRow = constant(kThreadsPerRow);
  Value tx = arith::RemUIOp::create(rewriter, loc, thread, threadsPerRow);
  Value ty = arith::DivUIOp::create(rewriter, loc, thread, threadsPerRow);
  Value row0 = block.row0, col0 = block.col0;
  Value one = block.one, zero = block.zero;
  Value lastRow = block.lastRow, lastCol = block.lastCol, lastK = block.lastK;
  auto clamp = [&](OpBuilder &b, Value index, Value last) {
    return arith::MinUIOp::create(b, loc, index, last).getResult();
  };
  auto ivsAt = [&](Value row, Value col, Value kIndex) {
    return block.ivsAt(row, col, kIndex);
  };

  // This thread's points of C.
  SmallVector<Value> rows, cols;
  for (int64_t i = 0; i < kPerThread; ++i) {
    rows.push_back(arith::AddIOp::create(
        rewriter, loc, row0,
        arith::AddIOp::create(rewriter, loc, ty,
                              constant(i * kThreadsPerRow))));
    cols.push_back(arith::AddIOp::create(
        rewriter, loc, col0,
        arith::AddIOp::create(rewriter, loc, tx,
                              constant(i * kThreadsPerRow))));
  }
  AffineMap outMap = op.getMatchingIndexingMap(&out);
  Type outElement = getElementTypeOrSelf(out.get().getType());
  SmallVector<Value> initial;
  for (Value row : rows)
    for (Value col : cols) {
      if (!op.payloadUsesValueFromOperand(&out)) {
        initial.push_back(ub::PoisonOp::create(rewriter, loc, outElement));
        continue;
      }
      SmallVector<Value> ivs = ivsAt(clamp(rewriter, row, lastRow),
                                     clamp(rewriter, col, lastCol), zero);
      initial.push_back(memref::LoadOp::create(
          rewriter, loc, out.get(), applyMap(rewriter, loc, outMap, ivs)));
    }

  Value step = constant(kStep);
  auto kLoop = scf::ForOp::create(
      rewriter, loc, zero, block.depth, step, initial,
      [&](OpBuilder &b, Location, Value k0, ValueRange accumulators) {
        // Stage A[row0 : +64, k0 : +16] and B[k0 : +16, col0 : +64].
        for (int64_t part = 0; part < kTile * kStep / kThreads; ++part) {
          Value element =
              arith::AddIOp::create(b, loc, thread, constant(part * kThreads));
          Value lhsRow = arith::DivUIOp::create(b, loc, element, step);
          Value lhsK = arith::RemUIOp::create(b, loc, element, step);
          SmallVector<Value> ivs = ivsAt(
              clamp(b, arith::AddIOp::create(b, loc, row0, lhsRow), lastRow),
              zero, clamp(b, arith::AddIOp::create(b, loc, k0, lhsK), lastK));
          Value a = memref::LoadOp::create(
              b, loc, lhs->get(),
              applyMap(b, loc, op.getMatchingIndexingMap(lhs), ivs));
          memref::StoreOp::create(b, loc, a, lhsTile, element);

          Value rhsK = arith::DivUIOp::create(b, loc, element, tile);
          Value rhsCol = arith::RemUIOp::create(b, loc, element, tile);
          ivs = ivsAt(
              zero,
              clamp(b, arith::AddIOp::create(b, loc, col0, rhsCol), lastCol),
              clamp(b, arith::AddIOp::create(b, loc, k0, rhsK), lastK));
          Value bValue = memref::LoadOp::create(
              b, loc, rhs->get(),
              applyMap(b, loc, op.getMatchingIndexingMap(rhs), ivs));
          memref::StoreOp::create(b, loc, bValue, rhsTile, element);
        }
        gpu::BarrierOp::create(b, loc);
        Value left = arith::SubIOp::create(b, loc, block.depth, k0);
        Value stageEnd = arith::MinUIOp::create(b, loc, left, step);
        auto inner = scf::ForOp::create(
            b, loc, zero, stageEnd, one, accumulators,
            [&](OpBuilder &b, Location, Value kk, ValueRange current) {
              SmallVector<Value> as, bs;
              for (int64_t i = 0; i < kPerThread; ++i) {
                Value localRow = arith::AddIOp::create(
                    b, loc, ty, constant(i * kThreadsPerRow));
                as.push_back(memref::LoadOp::create(
                    b, loc, lhsTile,
                    ValueRange{arith::AddIOp::create(
                        b, loc, arith::MulIOp::create(b, loc, localRow, step),
                        kk)}));
                Value localCol = arith::AddIOp::create(
                    b, loc, tx, constant(i * kThreadsPerRow));
                bs.push_back(memref::LoadOp::create(
                    b, loc, rhsTile,
                    ValueRange{arith::AddIOp::create(
                        b, loc, arith::MulIOp::create(b, loc, kk, tile),
                        localCol)}));
              }
              Value kIndex = arith::AddIOp::create(b, loc, k0, kk);
              SmallVector<Value> next;
              for (int64_t i = 0; i < kPerThread; ++i)
                for (int64_t j = 0; j < kPerThread; ++j) {
                  auto fromTile = [&](OpOperand &input, ArrayRef<Value>) {
                    return &input == lhs ? as[i] : bs[j];
                  };
                  next.push_back(
                      emitBody(b, op, ivsAt(rows[i], cols[j], kIndex),
                               current[i * kPerThread + j], fromTile)[0]);
                }
              scf::YieldOp::create(b, loc, next);
            });
        // The products and sums of float matmuls may contract into fused
        // multiply-adds (one FFMA each instead of a rounded mul.rn and
        // add.rn), as the CPU's vector contractions do: twice the work per
        // instruction, and one rounding per step instead of two.
        inner.getBody()->walk([&](Operation *bodyOp) {
          if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(bodyOp))
            return;
          auto math = cast<arith::ArithFastMathInterface>(bodyOp);
          math->setAttr(
              math.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(
                  b.getContext(), math.getFastMathFlagsAttr().getValue() |
                                      arith::FastMathFlags::contract));
        });
        // Nobody stages the next slices before everyone has used these.
        gpu::BarrierOp::create(b, loc);
        scf::YieldOp::create(b, loc, inner.getResults());
      });

  for (int64_t i = 0; i < kPerThread; ++i)
    for (int64_t j = 0; j < kPerThread; ++j) {
      Value inside = arith::AndIOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                rows[i], block.rows),
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                cols[j], block.cols));
      auto ifOp = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(
          rewriter, loc, kLoop.getResult(i * kPerThread + j), out.get(),
          applyMap(rewriter, loc, outMap, ivsAt(rows[i], cols[j], zero)));
    }
  rewriter.eraseOp(op);
  return success();
}

} // namespace maxgraph::gpu_kernels
