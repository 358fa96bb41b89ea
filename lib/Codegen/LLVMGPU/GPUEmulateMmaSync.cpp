//===- GPUEmulateMmaSync.cpp - maxgraph-gpu-emulate-mma-sync --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// nvgpu.mma.sync m16n8k16 (f16 or bf16 products, f32 sums) as plain loads,
// stores and barriers, so that the tensor-core kernels run, and their fragment
// layouts are checked by their results, where there are no tensor cores. The
// fragments' places are PTX's (the ISA's "Matrix Fragments for mma.m16n8k16
// with floating point type"), written here on their own: the kernel that
// gathers them is what is tested.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUEMULATEMMASYNC
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
constexpr int64_t kWarp = 32;
constexpr int64_t kRows = 16, kCols = 8, kDepth = 16, kTf32Depth = 8;
/// A warp's part of the exchange buffer: A's 16x16, then B's 16x8, in f32.
constexpr int64_t kWarpFloats = kRows * kDepth + kDepth * kCols;

/// Whether `op` is one of the shapes and types that the emulation knows:
/// m16n8k16 of f16 or bf16, or m16n8k8 of TF32, into f32.
bool isEmulated(nvgpu::MmaSyncOp op) {
  auto shape = op.getMmaShapeAsArray();
  auto element = [](Value value) {
    return cast<VectorType>(value.getType()).getElementType();
  };
  Type operands = element(op.getMatrixA());
  if (shape.size() != 3 || shape[0] != kRows || shape[1] != kCols ||
      element(op.getMatrixB()) != operands || !element(op.getMatrixC()).isF32())
    return false;
  if (op.getTf32EnabledAttr())
    return shape[2] == kTf32Depth && operands.isF32();
  return shape[2] == kDepth && (operands.isF16() || operands.isBF16());
}

/// `value` as a TF32 reads it: the f32 with its 13 low mantissa bits
/// dropped.
Value truncateToTf32(OpBuilder &b, Location loc, Value value) {
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, value);
  Value mask = arith::ConstantIntOp::create(b, loc, i32, 0xFFFFE000);
  return arith::BitcastOp::create(b, loc, b.getF32Type(),
                                  arith::AndIOp::create(b, loc, bits, mask));
}

/// Replaces `op` by its emulation over `buffer` (the kernel's exchange
/// buffer, kWarpFloats per warp).
void emulate(RewriterBase &rewriter, nvgpu::MmaSyncOp op, Value buffer) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value).getResult();
  };
  auto plus = [&](Value a, Value b) {
    return arith::AddIOp::create(rewriter, loc, a, b).getResult();
  };
  auto times = [&](Value a, int64_t b) {
    return arith::MulIOp::create(rewriter, loc, a, index(b)).getResult();
  };
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(rewriter, loc, thread, index(kWarp));
  Value warp = arith::DivUIOp::create(rewriter, loc, thread, index(kWarp));
  Value g = arith::DivUIOp::create(rewriter, loc, lane, index(4));
  Value t = arith::RemUIOp::create(rewriter, loc, lane, index(4));
  // 16-bit operands: two per register, K of 16; TF32: one, K of 8.
  bool tf32 = static_cast<bool>(op.getTf32EnabledAttr());
  int64_t depth = tf32 ? kTf32Depth : kDepth;
  int64_t perRegister = tf32 ? 1 : 2;
  int64_t half = depth / 2;
  Value kBase = tf32 ? t : times(t, 2);
  Value twoT = times(t, 2);
  Value aBase = times(warp, kWarpFloats);
  Value bBase = plus(aBase, index(kRows * depth));
  auto aAt = [&](Value row, Value column) {
    return plus(aBase, plus(times(row, depth), column));
  };
  auto bAt = [&](Value k, Value column) {
    return plus(bBase, plus(times(k, kCols), column));
  };
  Type f32 = rewriter.getF32Type();
  auto element = [&](Value fragment, int64_t i, int64_t j) {
    Value value = vector::ExtractOp::create(rewriter, loc, fragment,
                                            ArrayRef<int64_t>{i, j});
    return tf32 ? truncateToTf32(rewriter, loc, value)
                : arith::ExtFOp::create(rewriter, loc, f32, value).getResult();
  };

  // A: register i holds row g + 8 (i % 2), columns k0 + half (i / 2) + j
  // (16-bit: k0 = 2t, half = 8; TF32: k0 = t, half = 4, j = 0).
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < perRegister; ++j) {
      Value row = plus(g, index(8 * (i % 2)));
      Value column = plus(kBase, index(j + half * (i / 2)));
      memref::StoreOp::create(rewriter, loc, element(op.getMatrixA(), i, j),
                              buffer, ValueRange{aAt(row, column)});
    }
  // B: register i holds rows k0 + half i + j of column g.
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < perRegister; ++j) {
      Value k = plus(kBase, index(j + half * i));
      memref::StoreOp::create(rewriter, loc, element(op.getMatrixB(), i, j),
                              buffer, ValueRange{bAt(k, g)});
    }
  gpu::BarrierOp::create(rewriter, loc);

  // C: register i holds row g + 8 i, columns 2t + {0, 1}.
  SmallVector<Value> results;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      Value row = plus(g, index(8 * i));
      Value column = plus(twoT, index(j));
      Value sum = vector::ExtractOp::create(rewriter, loc, op.getMatrixC(),
                                            ArrayRef<int64_t>{i, j});
      for (int64_t k = 0; k < depth; ++k) {
        Value a = memref::LoadOp::create(rewriter, loc, buffer,
                                         ValueRange{aAt(row, index(k))});
        Value b = memref::LoadOp::create(rewriter, loc, buffer,
                                         ValueRange{bAt(index(k), column)});
        sum = arith::AddFOp::create(rewriter, loc, sum,
                                    arith::MulFOp::create(rewriter, loc, a, b));
      }
      results.push_back(sum);
    }
  // Nobody writes the next fragments before everyone has read these.
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.replaceOp(op, vector::FromElementsOp::create(
                             rewriter, loc, op.getRes().getType(), results));
}

/// Flattens the n-D vectors of `kernel` into 1-D ones.
LogicalResult linearize(gpu::GPUFuncOp kernel) {
  MLIRContext *context = kernel.getContext();
  TypeConverter converter;
  RewritePatternSet patterns(context);
  ConversionTarget target(*context);
  vector::populateForVectorLinearize(converter, target);
  vector::populateVectorLinearizeBasePatterns(converter, target, patterns);
  vector::populateVectorLinearizeShuffleLikeOpsPatterns(converter, target,
                                                        patterns);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  return applyPartialConversion(kernel, target, std::move(patterns));
}

struct GPUEmulateMmaSync
    : maxgraph::impl::GPUEmulateMmaSyncBase<GPUEmulateMmaSync> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    WalkResult walked = getOperation().walk([&](gpu::GPUFuncOp kernel) {
      SmallVector<nvgpu::MmaSyncOp> ops;
      kernel.walk([&](nvgpu::MmaSyncOp op) { ops.push_back(op); });
      if (ops.empty())
        return WalkResult::advance();
      for (nvgpu::MmaSyncOp op : ops)
        if (!isEmulated(op)) {
          op.emitOpError() << "is emulated only for m16n8k16 with f16 or "
                              "bf16 operands, or m16n8k8 with TF32 ones, and "
                              "an f32 accumulator";
          return WalkResult::interrupt();
        }
      std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
      if (!block || (*block)[0] % kWarp != 0 || (*block)[1] != 1 ||
          (*block)[2] != 1) {
        kernel.emitOpError() << "has nvgpu.mma.sync and no known "
                                "one-dimensional block of whole warps";
        return WalkResult::interrupt();
      }
      int64_t warps = (*block)[0] / kWarp;
      MemRefType type =
          MemRefType::get({warps * kWarpFloats}, rewriter.getF32Type(),
                          MemRefLayoutAttrInterface(),
                          gpu::AddressSpaceAttr::get(
                              &getContext(), gpu::AddressSpace::Workgroup));
      Value buffer = kernel.addWorkgroupAttribution(type, kernel.getLoc());
      for (nvgpu::MmaSyncOp op : ops)
        emulate(rewriter, op, buffer);
      // The fragments' elements straight from where the kernel made them.
      RewritePatternSet folding(&getContext());
      vector::ExtractOp::getCanonicalizationPatterns(folding, &getContext());
      vector::FromElementsOp::getCanonicalizationPatterns(folding,
                                                          &getContext());
      if (failed(applyPatternsGreedily(kernel, std::move(folding))) ||
          failed(linearize(kernel))) {
        kernel.emitOpError() << "could not flatten its vectors";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
