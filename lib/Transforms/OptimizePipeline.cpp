//===- OptimizePipeline.cpp - maxgraph-optimize ---------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The maxgraph-to-maxgraph pipeline: it is made of this library's passes
// and upstream cleanups only, so it lives with them.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void maxgraph::buildOptimizePipeline(OpPassManager &pm) {
  // Sharing first shrinks the work of every later pass; decomposing and
  // folding can make more bodies identical, so share again at the end.
  // Graph-level passes run on all graphs in parallel.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createShareSubgraphs());
  OpPassManager &graphs = pm.nest<GraphOp>();
  graphs.addPass(createDecompose());
  graphs.addPass(createCanonicalizerPass());
  graphs.addPass(createCSEPass());
  pm.addPass(createShareSubgraphs());
}

void maxgraph::registerMaxGraphTransformsPipelines() {
  PassPipelineRegistration<>(
      "maxgraph-optimize",
      "Fold, share identical subgraphs, decompose composites, clean up",
      buildOptimizePipeline);
}
