//===- GPUDeviceChecks.cpp - run-time checks on device data, on the device ===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A run-time check on data (gather's indices against their axis) asserts
// on values that kernels computed in device memory. The host cannot read
// them without waiting for the stream, which a CUDA graph cannot capture,
// so the check runs on the device: its condition is computed by a
// one-thread kernel, which stores the address of the check's message into
// the device status word (the trailing `memref<1xi64>` argument of every
// entry point and of every function that checks or calls one that does)
// unless it holds one already. Kernels on one stream run in order, so the
// first failure wins. The runtime zeroes the word before a call and reads
// it after the call's one wait (GpuExecutable.cpp).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/StatusReporting.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUDEVICECHECKS
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kDeviceStatus = "maxgraph.device_status";

/// The ops of `assertion`'s block that its condition is computed from, in
/// block order, if they read device memory (a host `memref.load`: buffers
/// are device memory on this path) and are otherwise pure; else nothing.
/// What the ops take from elsewhere (buffer metadata included) the kernel
/// takes as values.
std::optional<SmallVector<Operation *>> deviceSlice(cf::AssertOp assertion) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> pending{assertion.getArg()};
  bool readsDevice = false;
  while (!pending.empty()) {
    Operation *op = pending.pop_back_val().getDefiningOp();
    if (!op || op->getBlock() != assertion->getBlock() || slice.contains(op))
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      // The kernel takes the buffer; its indices are computed.
      slice.insert(op);
      readsDevice = true;
      llvm::append_range(pending, load.getIndices());
      continue;
    }
    // Buffer metadata (a memref.dim) is the host's: the kernel takes the
    // value.
    if (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<BaseMemRefType>))
      continue;
    if (op->getNumRegions() || !isMemoryEffectFree(op))
      return std::nullopt;
    slice.insert(op);
    llvm::append_range(pending, op->getOperands());
  }
  if (!readsDevice)
    return std::nullopt;
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Replaces `assertion` by a one-thread kernel that computes its condition
/// from `slice` and, where it fails, stores the address of its message into
/// `status` unless that holds one.
void checkOnDevice(cf::AssertOp assertion, ArrayRef<Operation *> slice,
                   Value status, LLVM::GlobalOp message) {
  OpBuilder b(assertion);
  Location loc = assertion.getLoc();
  Value address = LLVM::AddressOfOp::create(b, loc, message);
  Value code = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), address);

  // The values the slice takes from the host. Kernel arguments cannot be
  // i1 (OpenCL has no bool arguments): those travel as i8.
  llvm::DenseSet<Operation *> inSlice(slice.begin(), slice.end());
  llvm::SetVector<Value> captured;
  for (Operation *op : slice)
    for (Value operand : op->getOperands())
      if (!inSlice.contains(operand.getDefiningOp()) &&
          operand.getType().isInteger(1))
        captured.insert(operand);
  IRMapping widened;
  for (Value value : captured)
    widened.map(value,
                arith::ExtUIOp::create(b, loc, b.getI8Type(), value).getOut());

  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  IRMapping mapping;
  for (Value value : captured)
    mapping.map(value, arith::TruncIOp::create(b, loc, b.getI1Type(),
                                               widened.lookup(value)));
  for (Operation *op : slice)
    b.clone(*op, mapping);
  Value ok = mapping.lookup(assertion.getArg());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value current = memref::LoadOp::create(b, loc, status, ValueRange{zero});
  Value clear = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, current,
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0));
  Value failed = arith::XOrIOp::create(
      b, loc, ok, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  Value first = arith::AndIOp::create(b, loc, failed, clear);
  auto ifFailed = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  b.setInsertionPointToStart(ifFailed.thenBlock());
  memref::StoreOp::create(b, loc, code, status, ValueRange{zero});
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);

  assertion.erase();
  for (Operation *op : llvm::reverse(slice))
    if (op->use_empty())
      op->erase();
}

struct GPUDeviceChecksPass
    : maxgraph::impl::GPUDeviceChecksBase<GPUDeviceChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // The checks on device data, per host function.
    llvm::MapVector<
        func::FuncOp,
        SmallVector<std::pair<cf::AssertOp, SmallVector<Operation *>>>>
        checks;
    for (auto func : module.getOps<func::FuncOp>()) {
      func.walk([&](cf::AssertOp assertion) {
        if (assertion->getParentOfType<gpu::LaunchOp>())
          return;
        if (std::optional<SmallVector<Operation *>> slice =
                deviceSlice(assertion))
          checks[func].emplace_back(assertion, std::move(*slice));
      });
    }

    // The functions that take the status word: entries, those that check,
    // and their callers.
    FailureOr<SmallVector<func::FuncOp>> reporting =
        maxgraph::threadStatusArgument(
            module, MemRefType::get({1}, IntegerType::get(context, 64)),
            kDeviceStatus,
            [&](func::FuncOp func) { return checks.contains(func); });
    if (failed(reporting))
      return signalPassFailure();

    maxgraph::StatusMessageGlobals messages(module);
    for (auto &[func, funcChecks] : checks) {
      Value status = func.getArgument(func.getNumArguments() - 1);
      for (auto &[assertion, slice] : funcChecks) {
        Location loc = assertion.getLoc();
        LLVM::GlobalOp message = messages.get(
            loc, maxgraph::statusMessage(loc, func, assertion.getMsg()));
        checkOnDevice(assertion, slice, status, message);
      }
    }
  }
};
} // namespace
