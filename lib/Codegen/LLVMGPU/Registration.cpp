//===- Registration.cpp - register the GPU passes and pipeline ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace maxgraph {
#define GEN_PASS_REGISTRATION
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

void maxgraph::registerLLVMGPUPasses() {
  registerMaxGraphLLVMGPUPasses();
  mlir::PassPipelineRegistration<LowerToGPUPipelineOptions>(
      "maxgraph-lower-to-gpu",
      "Lower maxgraph graphs on a GPU to host code in the LLVM dialect with "
      "the kernels in gpu.binary ops (NVVM: PTX or a cubin; OpenCL: SPIR)",
      [](mlir::OpPassManager &pm, const LowerToGPUPipelineOptions &options) {
        buildLowerToGPUPipeline(pm, options);
      });
}
