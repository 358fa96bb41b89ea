//===- TensorCoreMatmulKernel.cpp - f16 matmuls on NVIDIA tensor cores ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// NVVM's matmul strategy for f16 or bf16 operands (results of their type or
// f32), and, with `allow-tf32`, f32 ones read as TF32 (m16n8k8, K in steps
// of 8, one element per register where 16-bit types pack two): a block of four
// warps computes a 64x64 tile of C, each warp a 32x32 quarter as 2 x 4 tiles of
// 16x8 accumulated in f32 by `nvgpu.mma.sync` (m16n8k16, PTX's
// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` or
// `.f32.bf16.bf16.f32`: f32 keeps a long K's sum as cuBLAS's COMPUTE_32F
// does), rounded to the result's type once, when stored. (LLVM 22 lowers
// nvgpu.mma.sync of f16 only; maxgraph-gpu-bf16-mma-sync-to-nvvm lowers
// the bf16 ones.) K advances in steps of 16: the
// block stages A's 64x16 and B's 16x64 slices in shared memory, zero where
// they pass the operands' ends (a zero product adds nothing), and each lane
// gathers its fragments from there in the layout PTX defines for this
// shape, with g = lane / 4 and t = lane % 4:
//   A (16x16, 4 registers of 2): row g + 8 (i % 2), column 2t + j + 8 (i / 2)
//   B (16x8, 2 registers of 2):  row 2t + j + 8 i, column g
//   C (16x8, 2 registers of 2):  row g + 8 i, column 2t + j
// OpenCL has no such instruction: there the op takes the shared-memory
// tiled kernel (TiledMatmulKernel.cpp), or, with `emulate-tensor-cores`,
// this kernel with its mma.sync emulated from PTX's fragment layout
// (maxgraph-gpu-emulate-mma-sync), which checks the gathers above by their
// results (test/Tools/max-run/gpu-opencl-tensor-cores.mlir).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {
namespace {
constexpr int64_t kTile = 64;     // rows and columns of C per block
constexpr int64_t kHalfStep = 16; // K per f16 or bf16 mma and stage
constexpr int64_t kTf32Step = 8;  // K per TF32 mma and stage
constexpr int64_t kWarpTile = 32; // rows and columns of C per warp
constexpr int64_t kThreads = 128; // four warps, 2 x 2 over the tile
constexpr int64_t kMmaRows = 16, kMmaCols = 8;
constexpr int64_t kRowTiles = kWarpTile / kMmaRows; // 2 per warp
constexpr int64_t kColTiles = kWarpTile / kMmaCols; // 4 per warp
} // namespace

bool isTensorCoreMatmul(linalg::GenericOp op, bool allowTf32) {
  if (!isTiledMatmul(op) || !linalg::isaContractionOpInterface(
                                cast<linalg::LinalgOp>(op.getOperation())))
    return false;
  auto element = [&](OpOperand *operand) {
    return getElementTypeOrSelf(operand->get().getType());
  };
  Type lhs = element(op.getDpsInputOperand(0));
  Type out = element(op.getDpsInitOperand(0));
  if (element(op.getDpsInputOperand(1)) != lhs)
    return false;
  if (lhs.isF32())
    return allowTf32 && out.isF32();
  return (lhs.isF16() || lhs.isBF16()) && (out == lhs || out.isF32());
}

LogicalResult mapToTensorCoreMatmul(RewriterBase &rewriter,
                                    linalg::GenericOp op,
                                    ArrayRef<Value> sizes) {
  Location loc = op.getLoc();
  OpOperand *lhs = op.getDpsInputOperand(0);
  OpOperand *rhs = op.getDpsInputOperand(1);
  OpOperand &out = *op.getDpsInitOperand(0);
  // f16, bf16 or f32 (TF32): the operands' type, which the fragments hold.
  Type half = getElementTypeOrSelf(lhs->get().getType());
  Type outElement = getElementTypeOrSelf(out.get().getType());
  Type f32 = rewriter.getF32Type();
  bool tf32 = half.isF32();
  int64_t kStep = tf32 ? kTf32Step : kHalfStep;
  MatmulBlock block = MatmulBlock::open(rewriter, op, sizes, kTile, kThreads,
                                        {workgroupBuffer(half, kTile * kStep),
                                         workgroupBuffer(half, kStep * kTile)});

  auto constant = [&](OpBuilder &b, int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  Value tile = constant(rewriter, kTile);
  Value lhsTile = block.launch.getWorkgroupAttributions()[0];
  Value rhsTile = block.launch.getWorkgroupAttributions()[1];
  Value thread = block.launch.getThreadIds().x;
  Value warpSize = constant(rewriter, 32);
  Value warp = arith::DivUIOp::create(rewriter, loc, thread, warpSize);
  Value lane = arith::RemUIOp::create(rewriter, loc, thread, warpSize);
  Value four = constant(rewriter, 4);
  Value two = constant(rewriter, 2);
  Value g = arith::DivUIOp::create(rewriter, loc, lane, four);
  Value t = arith::RemUIOp::create(rewriter, loc, lane, four);
  Value warpRow = arith::MulIOp::create(
      rewriter, loc, arith::DivUIOp::create(rewriter, loc, warp, two),
      constant(rewriter, kWarpTile));
  Value warpCol = arith::MulIOp::create(
      rewriter, loc, arith::RemUIOp::create(rewriter, loc, warp, two),
      constant(rewriter, kWarpTile));
  Value row0 = block.row0, col0 = block.col0, zero = block.zero;
  Value lastRow = block.lastRow, lastCol = block.lastCol, lastK = block.lastK;
  auto ivsAt = [&](Value row, Value col, Value kIndex) {
    return block.ivsAt(row, col, kIndex);
  };

  auto add = [&](OpBuilder &b, Value x, int64_t y) {
    return arith::AddIOp::create(b, loc, x, constant(b, y)).getResult();
  };
  auto below = [&](OpBuilder &b, Value x, Value bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, bound)
        .getResult();
  };
  // `operand` at (row, col, kIndex) where `inside`, else zero; the load
  // itself is clamped into the operand.
  auto loadOrZero = [&](OpBuilder &b, OpOperand *operand, Value inside,
                        Value row, Value col, Value kIndex) {
    SmallVector<Value> ivs =
        ivsAt(arith::MinUIOp::create(b, loc, row, lastRow),
              arith::MinUIOp::create(b, loc, col, lastCol),
              arith::MinUIOp::create(b, loc, kIndex, lastK));
    Type element = getElementTypeOrSelf(operand->get().getType());
    Value value = memref::LoadOp::create(
        b, loc, operand->get(),
        applyMap(b, loc, op.getMatchingIndexingMap(operand), ivs));
    Value none = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    return arith::SelectOp::create(b, loc, inside, value, none).getResult();
  };

  // C's points of accumulator (rowTile, colTile), register i, element j.
  auto accumulatorRow = [&](OpBuilder &b, int64_t rowTile, int64_t i) {
    return arith::AddIOp::create(b, loc,
                                 arith::AddIOp::create(b, loc, row0, warpRow),
                                 add(b, g, rowTile * kMmaRows + 8 * i))
        .getResult();
  };
  auto accumulatorCol = [&](OpBuilder &b, int64_t colTile, int64_t j) {
    return arith::AddIOp::create(
               b, loc, arith::AddIOp::create(b, loc, col0, warpCol),
               add(b, arith::MulIOp::create(b, loc, t, two), colTile * 8 + j))
        .getResult();
  };
  auto accumulatorType = VectorType::get({2, 2}, f32);
  SmallVector<Value> initial;
  for (int64_t rowTile = 0; rowTile < kRowTiles; ++rowTile)
    for (int64_t colTile = 0; colTile < kColTiles; ++colTile) {
      SmallVector<Value> elements;
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j) {
          Value row = accumulatorRow(rewriter, rowTile, i);
          Value col = accumulatorCol(rewriter, colTile, j);
          Value inside = arith::AndIOp::create(
              rewriter, loc, below(rewriter, row, block.rows),
              below(rewriter, col, block.cols));
          Value value = loadOrZero(rewriter, &out, inside, row, col, zero);
          if (outElement != f32)
            value = arith::ExtFOp::create(rewriter, loc, f32, value);
          elements.push_back(value);
        }
      initial.push_back(vector::FromElementsOp::create(
          rewriter, loc, accumulatorType, elements));
    }

  Value step = constant(rewriter, kStep);
  auto kLoop = scf::ForOp::create(
      rewriter, loc, zero, block.depth, step, initial,
      [&](OpBuilder &b, Location, Value k0, ValueRange accumulators) {
        // Stage A[row0 : +64, k0 : +16] and B[k0 : +16, col0 : +64].
        for (int64_t part = 0; part < kTile * kStep / kThreads; ++part) {
          Value element = add(b, thread, part * kThreads);
          Value lhsRow = arith::AddIOp::create(
              b, loc, row0, arith::DivUIOp::create(b, loc, element, step));
          Value lhsK = arith::AddIOp::create(
              b, loc, k0, arith::RemUIOp::create(b, loc, element, step));
          Value lhsInside =
              arith::AndIOp::create(b, loc, below(b, lhsRow, block.rows),
                                    below(b, lhsK, block.depth));
          memref::StoreOp::create(
              b, loc, loadOrZero(b, lhs, lhsInside, lhsRow, zero, lhsK),
              lhsTile, element);
          Value rhsK = arith::AddIOp::create(
              b, loc, k0, arith::DivUIOp::create(b, loc, element, tile));
          Value rhsCol = arith::AddIOp::create(
              b, loc, col0, arith::RemUIOp::create(b, loc, element, tile));
          Value rhsInside =
              arith::AndIOp::create(b, loc, below(b, rhsK, block.depth),
                                    below(b, rhsCol, block.cols));
          memref::StoreOp::create(
              b, loc, loadOrZero(b, rhs, rhsInside, zero, rhsCol, rhsK),
              rhsTile, element);
        }
        gpu::BarrierOp::create(b, loc);

        // A register holds two 16-bit elements, or one TF32 (PTX's
        // m16n8k8 .tf32: A's register i at row g + 8 (i % 2), column
        // t + 4 (i / 2); B's register i at row t + 4 i, column g).
        int64_t perRegister = tf32 ? 1 : 2;
        Value kBase = tf32 ? t : arith::MulIOp::create(b, loc, t, two);
        int64_t kHalf = kStep / 2;
        SmallVector<Value> lhsFragments, rhsFragments;
        for (int64_t rowTile = 0; rowTile < kRowTiles; ++rowTile) {
          SmallVector<Value> elements;
          for (int64_t i = 0; i < 4; ++i)
            for (int64_t j = 0; j < perRegister; ++j) {
              Value row = arith::AddIOp::create(
                  b, loc, warpRow, add(b, g, rowTile * kMmaRows + 8 * (i % 2)));
              Value col = add(b, kBase, j + kHalf * (i / 2));
              elements.push_back(memref::LoadOp::create(
                  b, loc, lhsTile,
                  ValueRange{arith::AddIOp::create(
                      b, loc, arith::MulIOp::create(b, loc, row, step), col)}));
            }
          lhsFragments.push_back(vector::FromElementsOp::create(
              b, loc, VectorType::get({4, perRegister}, half), elements));
        }
        for (int64_t colTile = 0; colTile < kColTiles; ++colTile) {
          SmallVector<Value> elements;
          for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < perRegister; ++j) {
              Value kIndex = add(b, kBase, j + kHalf * i);
              Value col = arith::AddIOp::create(b, loc, warpCol,
                                                add(b, g, colTile * kMmaCols));
              elements.push_back(memref::LoadOp::create(
                  b, loc, rhsTile,
                  ValueRange{arith::AddIOp::create(
                      b, loc, arith::MulIOp::create(b, loc, kIndex, tile),
                      col)}));
            }
          rhsFragments.push_back(vector::FromElementsOp::create(
              b, loc, VectorType::get({2, perRegister}, half), elements));
        }
        SmallVector<Value> next;
        for (int64_t rowTile = 0; rowTile < kRowTiles; ++rowTile)
          for (int64_t colTile = 0; colTile < kColTiles; ++colTile) {
            auto mma = nvgpu::MmaSyncOp::create(
                b, loc, lhsFragments[rowTile], rhsFragments[colTile],
                accumulators[rowTile * kColTiles + colTile],
                b.getI64ArrayAttr({kMmaRows, kMmaCols, kStep}));
            if (tf32)
              mma.setTf32EnabledAttr(b.getUnitAttr());
            next.push_back(mma);
          }
        // Nobody stages the next slices before everyone has used these.
        gpu::BarrierOp::create(b, loc);
        scf::YieldOp::create(b, loc, next);
      });

  AffineMap outMap = op.getMatchingIndexingMap(&out);
  for (int64_t rowTile = 0; rowTile < kRowTiles; ++rowTile)
    for (int64_t colTile = 0; colTile < kColTiles; ++colTile)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j) {
          Value row = accumulatorRow(rewriter, rowTile, i);
          Value col = accumulatorCol(rewriter, colTile, j);
          Value inside = arith::AndIOp::create(
              rewriter, loc, below(rewriter, row, block.rows),
              below(rewriter, col, block.cols));
          auto ifOp =
              scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(ifOp.thenBlock());
          Value value = vector::ExtractOp::create(
              rewriter, loc, kLoop.getResult(rowTile * kColTiles + colTile),
              ArrayRef<int64_t>{i, j});
          if (outElement != f32)
            value = arith::TruncFOp::create(rewriter, loc, outElement, value);
          memref::StoreOp::create(
              rewriter, loc, value, out.get(),
              applyMap(rewriter, loc, outMap, ivsAt(row, col, zero)));
        }
  rewriter.eraseOp(op);
  return success();
}

} // namespace maxgraph::gpu_kernels
