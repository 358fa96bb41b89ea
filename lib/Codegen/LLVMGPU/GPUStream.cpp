//===- GPUStream.cpp - host functions enqueue their GPU work on a stream --===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// After kernel outlining, every host function takes a stream as its first
// argument (`!gpu.async.token`, which gpu-to-llvm lowers to the stream
// handle) and enqueues its work on it in program order: kernel launches, and
// the device buffers of its temporaries (`gpu.alloc async`, freed by
// `gpu.dealloc async` before each return; after
// buffer-results-to-out-params results are caller buffers, so no temporary
// outlives its function). Calls pass the stream on. The host does not wait,
// so that a call can be captured into a CUDA graph; the caller synchronizes.
//
// Buffers that kernels or callees use are device memory; constants among
// them are copied to the device at the function's start. The rest (shape
// operands of `memref.reshape`) stay host memory. The host cannot read or
// write device memory (checks on device data run on the device,
// GPUDeviceChecks.cpp). Allocations in `scf.if` branches are hoisted to the
// function's level with their sizes.
//
// Runtime entries that enqueue work themselves (declarations marked
// `maxgraph.enqueues`: the NCCL collectives) take the stream first too; the
// buffers whose pointers their calls list in `maxgraph.device_pointers` are
// device memory.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUSTREAM
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// The buffer `value` is a view of (through subviews, reshapes, casts).
Value rootOf(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  if (auto reshape = value.getDefiningOp<memref::ReshapeOp>())
    return rootOf(reshape.getSource());
  return value;
}

/// The buffer whose aligned pointer `value` is (an i64 or index of
/// memref.extract_aligned_pointer_as_index), or null.
Value pointedBuffer(Value value) {
  if (auto cast = value.getDefiningOp<arith::IndexCastOp>())
    value = cast.getIn();
  if (auto pointer =
          value.getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>())
    return rootOf(pointer.getSource());
  return nullptr;
}

/// The allocations and constants of `function` whose data kernels or
/// callees use: device buffers. Other allocations and constants (the shape
/// operands of `memref.reshape`, say) are host memory, which the host reads
/// and writes.
llvm::DenseSet<Value> deviceAllocations(func::FuncOp function) {
  llvm::DenseSet<Value> device;
  function.walk([&](Operation *op) {
    if (!isa<gpu::LaunchFuncOp, func::CallOp>(op))
      return;
    for (Value operand : op->getOperands())
      if (isa<BaseMemRefType>(operand.getType()))
        device.insert(rootOf(operand));
    if (auto pointers =
            op->getAttrOfType<DenseI64ArrayAttr>(maxgraph::kDevicePointersAttr))
      for (int64_t index : pointers.asArrayRef())
        if (index >= 0 && index < static_cast<int64_t>(op->getNumOperands()))
          if (Value buffer = pointedBuffer(op->getOperand(index)))
            device.insert(buffer);
  });
  return device;
}

/// The buffers whose data `op` reads or writes (not just their metadata,
/// and not as a whole allocation).
SmallVector<Value> touchedBuffers(Operation *op) {
  SmallVector<Value> touched;
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp, func::CallOp,
          gpu::LaunchFuncOp>(op))
    return touched;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return touched;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &e : instances)
    if ((isa<MemoryEffects::Read>(e.getEffect()) ||
         isa<MemoryEffects::Write>(e.getEffect())) &&
        e.getValue() && isa<BaseMemRefType>(e.getValue().getType()))
      touched.push_back(e.getValue());
  return touched;
}

/// Moves `op`, and the pure ops inside the branches that its operands come
/// from, before `anchor`; false (nothing moved past the first impure op) if
/// that cannot be done.
bool hoistBefore(Operation *op, Operation *anchor, DominanceInfo &dominance) {
  for (Value operand : op->getOperands()) {
    if (dominance.properlyDominates(operand, anchor))
      continue;
    Operation *definition = operand.getDefiningOp();
    if (!definition || definition->getNumRegions() ||
        !isMemoryEffectFree(definition) ||
        !hoistBefore(definition, anchor, dominance))
      return false;
  }
  op->moveBefore(anchor);
  return true;
}

/// Moves the allocations of `function` that are inside `scf.if` branches
/// (a run-time check's fresh tensor, say) to before the outermost `scf.if`,
/// with the size computations they need, so that they are allocated and
/// freed at the function's level. Allocations inside loops stay.
void hoistBranchAllocations(func::FuncOp function) {
  SmallVector<Operation *> allocations;
  function.walk([&](memref::AllocOp alloc) {
    if (alloc->getBlock() != &function.getBody().front())
      allocations.push_back(alloc);
  });
  for (Operation *alloc : allocations) {
    Operation *anchor = nullptr;
    bool onlyBranches = true;
    for (Operation *parent = alloc->getParentOp(); parent != function;
         parent = parent->getParentOp()) {
      onlyBranches &= isa<scf::IfOp>(parent);
      anchor = parent;
    }
    if (!onlyBranches || !anchor)
      continue;
    DominanceInfo dominance(function);
    (void)hoistBefore(alloc, anchor, dominance);
  }
}

struct GPUStreamPass : maxgraph::impl::GPUStreamBase<GPUStreamPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    Type token = gpu::AsyncTokenType::get(context);
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>())
      if (!function.isExternal())
        functions.push_back(function);

    // Which memory each function's buffers are in; the host touches only
    // its own.
    llvm::DenseMap<func::FuncOp, llvm::DenseSet<Value>> deviceBuffers;
    bool failed = false;
    for (func::FuncOp function : functions) {
      hoistBranchAllocations(function);
      llvm::DenseSet<Value> &device = deviceBuffers[function] =
          deviceAllocations(function);
      auto onDevice = [&](Value memref) {
        Value root = rootOf(memref);
        return isa<BlockArgument>(root) || device.contains(root);
      };
      function.walk([&](Operation *op) {
        if (!llvm::any_of(touchedBuffers(op), onDevice))
          return;
        op->emitError() << "'" << op->getName()
                        << "' reads or writes device buffer data on the host; "
                           "on a GPU only kernels can";
        failed = true;
      });
    }
    if (failed)
      return signalPassFailure();

    llvm::DenseSet<StringRef> streamed;
    for (func::FuncOp function : functions) {
      if (llvm::failed(function.insertArgument(0, token, DictionaryAttr(),
                                               function.getLoc())))
        return signalPassFailure();
      streamed.insert(function.getSymName());
    }
    // Runtime entries that enqueue on the stream they are given.
    for (auto function : module.getOps<func::FuncOp>()) {
      if (!function.isExternal() || !function->hasAttr(maxgraph::kEnqueuesAttr))
        continue;
      SmallVector<Type> inputs{token};
      llvm::append_range(inputs, function.getArgumentTypes());
      function.setType(
          FunctionType::get(context, inputs, function.getResultTypes()));
      streamed.insert(function.getSymName());
    }

    IRRewriter rewriter(context);
    for (func::FuncOp function : functions) {
      Value stream = function.getArgument(0);
      llvm::DenseSet<Value> &device = deviceBuffers[function];
      SmallVector<Value> temporaries, hostTemporaries;
      WalkResult walk = function.walk<WalkOrder::PreOrder>([&](Operation *op)
                                                               -> WalkResult {
        rewriter.setInsertionPoint(op);
        Location loc = op->getLoc();
        if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
            !device.contains(op->getResult(0))) {
          // Host memory; a heap allocation is freed at the return.
          if (isa<memref::AllocOp>(op)) {
            if (op->getBlock() != &function.getBody().front())
              return op->emitError()
                     << "a host buffer allocated inside control flow has no "
                        "GPU lowering yet";
            hostTemporaries.push_back(op->getResult(0));
          }
          return WalkResult::advance();
        }
        if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
          if (op->getBlock() != &function.getBody().front())
            return op->emitError()
                   << "a device buffer allocated inside control flow has no "
                      "GPU lowering yet";
          auto type = cast<MemRefType>(op->getResult(0).getType());
          auto alloc = gpu::AllocOp::create(
              rewriter, loc, type, token, ValueRange{stream}, op->getOperands(),
              ValueRange{}, /*hostShared=*/false);
          rewriter.replaceOp(op, alloc.getMemref());
          temporaries.push_back(alloc.getMemref());
          return WalkResult::skip();
        }
        auto global = dyn_cast<memref::GetGlobalOp>(op);
        if (global && device.contains(global.getResult())) {
          // A constant lives in host memory: kernels read a device copy,
          // made at the function's start.
          if (op->getBlock() != &function.getBody().front())
            return op->emitError()
                   << "a constant read inside control flow has no GPU "
                      "lowering yet";
          auto type = cast<MemRefType>(global.getType());
          auto copy = gpu::AllocOp::create(rewriter, loc, type, token,
                                           ValueRange{stream}, ValueRange{},
                                           ValueRange{}, /*hostShared=*/false);
          rewriter.replaceAllUsesWith(global.getResult(), copy.getMemref());
          rewriter.setInsertionPointAfter(op);
          gpu::MemcpyOp::create(rewriter, loc, token, ValueRange{stream},
                                copy.getMemref(), global.getResult());
          temporaries.push_back(copy.getMemref());
          return WalkResult::skip();
        }
        if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
          if (llvm::is_contained(hostTemporaries, dealloc.getMemref())) {
            llvm::erase(hostTemporaries, dealloc.getMemref());
            return WalkResult::advance();
          }
          gpu::DeallocOp::create(rewriter, loc, token, ValueRange{stream},
                                 dealloc.getMemref());
          llvm::erase(temporaries, dealloc.getMemref());
          rewriter.eraseOp(op);
          return WalkResult::skip();
        }
        if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
          if (!launch.getAsyncDependencies().empty() || launch.getAsyncToken())
            return WalkResult::advance();
          auto async = gpu::LaunchFuncOp::create(
              rewriter, loc, launch.getKernel(),
              launch.getGridSizeOperandValues(),
              launch.getBlockSizeOperandValues(),
              launch.getDynamicSharedMemorySize(), launch.getKernelOperands(),
              token, ValueRange{stream});
          async->setDiscardableAttrs(launch->getDiscardableAttrDictionary());
          rewriter.eraseOp(launch);
          return WalkResult::skip();
        }
        if (auto call = dyn_cast<func::CallOp>(op)) {
          if (!streamed.contains(call.getCallee()))
            return call.emitError()
                   << "calls '" << call.getCallee()
                   << "', which has no body to compile for the GPU";
          SmallVector<Value> operands{stream};
          llvm::append_range(operands, call.getOperands());
          auto streamedCall = func::CallOp::create(
              rewriter, loc, call.getCallee(), call.getResultTypes(), operands);
          streamedCall->setDiscardableAttrs(
              call->getDiscardableAttrDictionary());
          // Its operand indices no longer hold, and it has done its work.
          streamedCall->removeAttr(maxgraph::kDevicePointersAttr);
          rewriter.replaceOp(call, streamedCall.getResults());
          return WalkResult::skip();
        }
        if (auto ret = dyn_cast<func::ReturnOp>(op)) {
          for (Value result : ret.getOperands())
            if (isa<BaseMemRefType>(result.getType()))
              return ret.emitError()
                     << "a host function returns a buffer; the GPU lowering "
                        "needs results as arguments "
                        "(buffer-results-to-out-params)";
          for (Value temporary : temporaries)
            gpu::DeallocOp::create(rewriter, loc, token, ValueRange{stream},
                                   temporary);
          for (Value temporary : hostTemporaries)
            memref::DeallocOp::create(rewriter, loc, temporary);
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }
  }
};
} // namespace
