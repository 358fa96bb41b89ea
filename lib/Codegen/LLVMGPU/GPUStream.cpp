//===- GPUStream.cpp - host functions enqueue their GPU work on a stream --===//
//
// After kernel outlining, every host function takes a stream as its first
// argument (`!gpu.async.token`, which gpu-to-llvm lowers to the stream
// handle) and enqueues its work on it in program order: kernel launches, and
// the device buffers of its temporaries (`gpu.alloc async`, freed by
// `gpu.dealloc async` before each return; after
// buffer-results-to-out-params results are caller buffers, so no temporary
// outlives its function). Calls pass the stream on. The host never waits, so
// that a call can be captured into a CUDA graph; the caller synchronizes.
//
// Constants (`memref.get_global`, host memory) are copied to device buffers
// at the function's start. The host cannot touch device memory: an op that
// reads or writes buffer data outside a kernel is an error.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUSTREAM
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether `op` reads or writes the data of a buffer (not just its
/// metadata, and not as a whole allocation).
bool touchesBufferData(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp, func::CallOp,
          gpu::LaunchFuncOp>(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return (isa<MemoryEffects::Read>(e.getEffect()) ||
            isa<MemoryEffects::Write>(e.getEffect())) &&
           e.getValue() && isa<BaseMemRefType>(e.getValue().getType());
  });
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

    bool failed = false;
    for (func::FuncOp function : functions)
      function.walk([&](Operation *op) {
        if (!touchesBufferData(op))
          return;
        op->emitError() << "'" << op->getName()
                        << "' reads or writes buffer data on the host; on a "
                           "GPU only kernels can";
        failed = true;
      });
    if (failed)
      return signalPassFailure();

    llvm::DenseSet<StringRef> streamed;
    for (func::FuncOp function : functions) {
      if (llvm::failed(function.insertArgument(0, token, DictionaryAttr(),
                                               function.getLoc())))
        return signalPassFailure();
      streamed.insert(function.getSymName());
    }

    IRRewriter rewriter(context);
    for (func::FuncOp function : functions) {
      Value stream = function.getArgument(0);
      SmallVector<Value> temporaries;
      WalkResult walk = function.walk<WalkOrder::PreOrder>(
          [&](Operation *op) -> WalkResult {
        rewriter.setInsertionPoint(op);
        Location loc = op->getLoc();
        if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
          if (op->getBlock() != &function.getBody().front())
            return op->emitError()
                   << "a device buffer allocated inside control flow has no "
                      "GPU lowering yet";
          auto type = cast<MemRefType>(op->getResult(0).getType());
          auto alloc = gpu::AllocOp::create(
              rewriter, loc, type, token, ValueRange{stream},
              op->getOperands(), ValueRange{}, /*hostShared=*/false);
          rewriter.replaceOp(op, alloc.getMemref());
          temporaries.push_back(alloc.getMemref());
          return WalkResult::skip();
        }
        if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
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
          gpu::DeallocOp::create(rewriter, loc, token, ValueRange{stream},
                                 dealloc.getMemref());
          llvm::erase(temporaries, dealloc.getMemref());
          rewriter.eraseOp(op);
          return WalkResult::skip();
        }
        if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
          if (!launch.getAsyncDependencies().empty() ||
              launch.getAsyncToken())
            return WalkResult::advance();
          auto async = gpu::LaunchFuncOp::create(
              rewriter, loc, launch.getKernel(), launch.getGridSizeOperandValues(),
              launch.getBlockSizeOperandValues(),
              launch.getDynamicSharedMemorySize(),
              launch.getKernelOperands(), token, ValueRange{stream});
          async->setDiscardableAttrs(launch->getDiscardableAttrDictionary());
          rewriter.eraseOp(launch);
          return WalkResult::skip();
        }
        if (auto call = dyn_cast<func::CallOp>(op)) {
          if (!streamed.contains(call.getCallee()))
            return WalkResult::advance();
          SmallVector<Value> operands{stream};
          llvm::append_range(operands, call.getOperands());
          auto streamedCall = func::CallOp::create(
              rewriter, loc, call.getCallee(), call.getResultTypes(),
              operands);
          streamedCall->setDiscardableAttrs(
              call->getDiscardableAttrDictionary());
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
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }
  }
};
} // namespace
