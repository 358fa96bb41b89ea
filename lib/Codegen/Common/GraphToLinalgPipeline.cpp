//===- GraphToLinalgPipeline.cpp - maxgraph-graph-to-linalg ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph level that maxgraph-lower-to-cpu and maxgraph-lower-to-gpu
// share, written once: what a graph means as linalg is the same on every
// target, and so is which elementwise ops fuse.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/Passes.h"
#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void maxgraph::buildGraphToLinalgPipeline(
    OpPassManager &pm, const GraphToLinalgPipelineOptions &options) {
  pm.addNestedPass<GraphOp>(createDecompose());
  pm.addPass(createLinkKernels());
  ConvertMaxGraphToLinalgOptions toLinalg;
  toLinalg.gpu = options.gpu;
  pm.addPass(createConvertMaxGraphToLinalg(toLinalg));
  if (options.gpu) {
    // One entry function: results of dynamic shape cannot become caller
    // buffers of a callee.
    pm.addPass(createInlinerPass());
    pm.addPass(createSymbolDCEPass());
  }
  // The conversion sizes each result by `tensor.dim` of its producer; folding
  // those leaves each producer with the one use that fusion asks for.
  pm.addPass(createCanonicalizerPass());
  FuseElementwiseOptions fusion;
  // A kernel's parameters may take 4352 bytes under PTX ISA 8.0; what is
  // left is room for the launch's sizes and other scalar arguments.
  if (options.gpu)
    fusion.maxKernelParameterBytes = 4096;
  pm.addNestedPass<func::FuncOp>(createFuseElementwise(fusion));
}
