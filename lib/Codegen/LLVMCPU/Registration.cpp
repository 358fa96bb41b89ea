//===- Registration.cpp - register the CPU passes and pipeline ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace maxgraph {
#define GEN_PASS_REGISTRATION
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

void maxgraph::registerLLVMCPUPasses() {
  registerMaxGraphLLVMCPUPasses();
  mlir::PassPipelineRegistration<LowerToCPUPipelineOptions>(
      "maxgraph-lower-to-cpu",
      "Lower maxgraph to the LLVM dialect for the CPU JIT",
      [](mlir::OpPassManager &pm, const LowerToCPUPipelineOptions &options) {
        buildLowerToCPUPipeline(pm, options);
      });
}
