//===- Registration.cpp - register the named pipelines --------------------===//

#include "MaxGraph/Pipelines/Pipelines.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace maxgraph {
#define GEN_PASS_REGISTRATION
#include "MaxGraph/Pipelines/Passes.h.inc"
} // namespace maxgraph

void maxgraph::registerPipelines() {
  registerMaxGraphPipelinesPasses();
  mlir::PassPipelineRegistration<>(
      "maxgraph-optimize",
      "Fold, share identical subgraphs, decompose composites, clean up",
      buildOptimizePipeline);
  mlir::PassPipelineRegistration<>(
      "maxgraph-lower-to-cpu",
      "Lower maxgraph to the LLVM dialect for the CPU JIT",
      buildLowerToCPUPipeline);
}
