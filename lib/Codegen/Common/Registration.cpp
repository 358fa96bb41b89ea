//===- Registration.cpp - registering the shared codegen passes -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace maxgraph {
#define GEN_PASS_REGISTRATION
#include "MaxGraph/Codegen/Common/Passes.h.inc"
} // namespace maxgraph

void maxgraph::registerCodegenCommonPasses() {
  registerMaxGraphCodegenCommonPasses();
  mlir::PassPipelineRegistration<GraphToLinalgPipelineOptions>(
      "maxgraph-graph-to-linalg",
      "The graph level of every target's pipeline: maxgraph graphs to fused "
      "linalg on tensors",
      [](mlir::OpPassManager &pm, const GraphToLinalgPipelineOptions &options) {
        buildGraphToLinalgPipeline(pm, options);
      });
}
