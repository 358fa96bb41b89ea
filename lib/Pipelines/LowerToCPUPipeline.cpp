//===- LowerToCPUPipeline.cpp - maxgraph-lower-to-cpu ---------------------===//
//
// maxgraph to the LLVM dialect, ready for the JIT: decompose composites,
// convert to linalg on tensors, fuse elementwise ops, bufferize across
// function boundaries with identity layouts (so that entry points take
// plain memref descriptors), free temporaries, then lower loops and
// everything else to LLVM. This is the straightforward lowering; tiling and
// vectorization come on top of it.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Pipelines/Pipelines.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void maxgraph::buildLowerToCPUPipeline(OpPassManager &pm) {
  pm.addNestedPass<GraphOp>(createDecompose());
  pm.addPass(createConvertMaxGraphToLinalg());
  pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);

  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
