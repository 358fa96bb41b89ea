//===- GPUBf16MmaSyncToNVVM.cpp - maxgraph-gpu-bf16-mma-sync-to-nvvm ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// nvgpu.mma.sync of bf16 operands as nvvm.mma.sync, which upstream's
// convert-nvgpu-to-nvvm does not do (it deduces no PTX type for bf16). PTX
// takes bf16 fragments as 32-bit registers of two elements, the first in
// the low half; the f32 accumulator is four registers, c0 c1 of row g and
// c2 c3 of row g + 8, the order of nvgpu's vector<2x2xf32>.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUBF16MMASYNCTONVVM
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether `op` multiplies bf16 fragments.
bool isBf16(nvgpu::MmaSyncOp op) {
  return cast<VectorType>(op.getMatrixA().getType()).getElementType().isBF16();
}

/// The registers of `fragment` (vector<Rx2xbf16>) as PTX takes them: an i32
/// of two elements each.
SmallVector<Value> packedRegisters(RewriterBase &rewriter, Location loc,
                                   Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  auto word = VectorType::get({1}, rewriter.getI32Type());
  SmallVector<Value> registers;
  for (int64_t i = 0; i < type.getDimSize(0); ++i) {
    Value two = vector::ExtractOp::create(rewriter, loc, fragment,
                                          ArrayRef<int64_t>{i});
    Value packed = vector::BitCastOp::create(rewriter, loc, word, two);
    registers.push_back(
        vector::ExtractOp::create(rewriter, loc, packed, ArrayRef<int64_t>{0}));
  }
  return registers;
}

struct GPUBf16MmaSyncToNVVM
    : maxgraph::impl::GPUBf16MmaSyncToNVVMBase<GPUBf16MmaSyncToNVVM> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<nvgpu::MmaSyncOp> ops;
    getOperation().walk([&](nvgpu::MmaSyncOp op) {
      if (isBf16(op))
        ops.push_back(op);
    });
    for (nvgpu::MmaSyncOp op : ops) {
      auto accumulator = cast<VectorType>(op.getMatrixC().getType());
      SmallVector<int64_t> shape = llvm::to_vector(op.getMmaShapeAsArray());
      if (shape != SmallVector<int64_t>{16, 8, 16} ||
          !accumulator.getElementType().isF32() ||
          accumulator.getShape() != ArrayRef<int64_t>{2, 2}) {
        op.emitOpError() << "of bf16 is lowered only as m16n8k16 with an f32 "
                            "accumulator";
        return signalPassFailure();
      }
      Location loc = op.getLoc();
      rewriter.setInsertionPoint(op);
      SmallVector<Value> c;
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 2; ++j)
          c.push_back(vector::ExtractOp::create(rewriter, loc, op.getMatrixC(),
                                                ArrayRef<int64_t>{i, j}));
      Type f32 = rewriter.getF32Type();
      auto result =
          LLVM::LLVMStructType::getLiteral(&getContext(), {f32, f32, f32, f32});
      auto mma = NVVM::MmaOp::create(
          rewriter, loc, result,
          packedRegisters(rewriter, loc, op.getMatrixA()),
          packedRegisters(rewriter, loc, op.getMatrixB()), c, shape,
          /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                        NVVM::MMATypes::bf16},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      SmallVector<Value> d;
      for (int64_t index = 0; index < 4; ++index)
        d.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma, index));
      rewriter.replaceOp(
          op, vector::FromElementsOp::create(rewriter, loc, accumulator, d));
    }
  }
};
} // namespace
