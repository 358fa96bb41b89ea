//===- GPUEmulateShuffles.cpp - maxgraph-gpu-emulate-shuffles -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `gpu.shuffle xor` through workgroup memory, so that the warp-shuffle
// reductions run, and are checked by their results, on OpenCL devices
// without warps (PoCL on the CPU).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUEMULATESHUFFLES
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Replaces `op` by an exchange through `buffer` (a word per thread).
void emulate(RewriterBase &rewriter, gpu::ShuffleOp op, Value buffer) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type i32 = rewriter.getI32Type();
  Type type = op.getValue().getType();
  Value word = type.isF32()
                   ? arith::BitcastOp::create(rewriter, loc, i32, op.getValue())
                         .getResult()
                   : op.getValue();
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  memref::StoreOp::create(rewriter, loc, word, buffer, thread);
  gpu::BarrierOp::create(rewriter, loc);
  // Lane k of a group of `width` reads lane k ^ offset of the same group:
  // with `offset < width`, both powers of two, that is thread ^ offset.
  Value offset = arith::IndexCastUIOp::create(
      rewriter, loc, rewriter.getIndexType(), op.getOffset());
  Value partner = arith::XOrIOp::create(rewriter, loc, thread, offset);
  Value read = memref::LoadOp::create(rewriter, loc, buffer, partner);
  // Nobody writes the next value before everyone has read this one.
  gpu::BarrierOp::create(rewriter, loc);
  Value result =
      type.isF32()
          ? arith::BitcastOp::create(rewriter, loc, type, read).getResult()
          : read;
  Value valid = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
  rewriter.replaceOp(op, {result, valid});
}

/// Whether the shuffle's offset and width are constants the emulation
/// reads as `thread ^ offset`: powers of two with offset < width.
bool isEmulated(gpu::ShuffleOp op) {
  Type type = op.getValue().getType();
  if (op.getMode() != gpu::ShuffleMode::XOR ||
      !(type.isF32() || type.isInteger(32)))
    return false;
  llvm::APInt offset, width;
  if (!matchPattern(op.getOffset(), m_ConstantInt(&offset)) ||
      !matchPattern(op.getWidth(), m_ConstantInt(&width)))
    return false;
  return offset.isPowerOf2() && width.isPowerOf2() && offset.ult(width);
}

struct GPUEmulateShuffles
    : maxgraph::impl::GPUEmulateShufflesBase<GPUEmulateShuffles> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    WalkResult walked =
        getOperation().walk([&](gpu::GPUFuncOp kernel) {
          SmallVector<gpu::ShuffleOp> ops;
          kernel.walk([&](gpu::ShuffleOp op) { ops.push_back(op); });
          if (ops.empty())
            return WalkResult::advance();
          for (gpu::ShuffleOp op : ops)
            if (!isEmulated(op)) {
              op.emitOpError()
                  << "is emulated only in xor mode, for i32 and f32 values, "
                     "with constant power-of-two offsets below the width";
              return WalkResult::interrupt();
            }
          std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
          if (!block || (*block)[1] != 1 || (*block)[2] != 1) {
            kernel.emitOpError()
                << "has gpu.shuffle and no known one-dimensional block";
            return WalkResult::interrupt();
          }
          MemRefType type = MemRefType::get(
              {(*block)[0]}, rewriter.getI32Type(), MemRefLayoutAttrInterface(),
              gpu::AddressSpaceAttr::get(&getContext(),
                                         gpu::AddressSpace::Workgroup));
          Value buffer = kernel.addWorkgroupAttribution(type, kernel.getLoc());
          for (gpu::ShuffleOp op : ops)
            emulate(rewriter, op, buffer);
          return WalkResult::advance();
        });
    if (walked.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
