//===- GPUCheckLibdeviceCalls.cpp - math that needs libdevice -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// PTX made without the CUDA toolkit has no libdevice linked in: a kernel
// that calls one of its functions would fail when the driver loads it, far
// from the op that needed it. The call is reported at compile time instead.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUCHECKLIBDEVICECALLS
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct GPUCheckLibdeviceCalls
    : maxgraph::impl::GPUCheckLibdeviceCallsBase<GPUCheckLibdeviceCalls> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !callee->starts_with("__nv_"))
        return;
      call.emitError() << "calls " << *callee
                       << ", a function of the CUDA toolkit's libdevice, "
                          "which is not linked: no toolkit was found or "
                          "given (pass toolkit=DIR)";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
