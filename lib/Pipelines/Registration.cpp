//===- Registration.cpp - register the named pipelines --------------------===//

#include "MaxGraph/Pipelines/Pipelines.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

void maxgraph::registerPipelines() {
  mlir::PassPipelineRegistration<>(
      "maxgraph-optimize",
      "Fold, share identical subgraphs, decompose composites, clean up",
      buildOptimizePipeline);
  mlir::PassPipelineRegistration<>(
      "maxgraph-lower-to-cpu",
      "Lower maxgraph to the LLVM dialect for the CPU JIT",
      buildLowerToCPUPipeline);
}
