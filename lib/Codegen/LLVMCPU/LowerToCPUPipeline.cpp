//===- LowerToCPUPipeline.cpp - maxgraph-lower-to-cpu ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph to the LLVM dialect, ready for the JIT: decompose composites,
// convert to linalg on tensors, fuse elementwise ops, bufferize across
// function boundaries with identity layouts (so that entry points take
// plain memref descriptors), free temporaries, then lower loops and
// everything else to LLVM. Before bufferizing, linalg ops are tiled for
// the target's threads, caches and registers and their static tiles
// vectorized (TileAndVectorize.cpp); large ops' outer tiles become OpenMP
// loops.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/Passes.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

/// The CPU target options of a pass, as the pipeline's `options` set them.
template <typename PassOptions>
static PassOptions
targetOptions(const maxgraph::LowerToCPUPipelineOptions &options) {
  PassOptions target;
  target.vectorBits = options.vectorBits;
  target.vectorRegisters = options.vectorRegisters;
  target.l1CacheBytes = options.l1CacheBytes;
  target.l2CacheBytes = options.l2CacheBytes;
  target.cores = options.cores;
  return target;
}

void maxgraph::buildLowerToCPUPipeline(
    OpPassManager &pm, const LowerToCPUPipelineOptions &options) {
  buildGraphToLinalgPipeline(pm);
  // Reductions and their consumers meet without reshapes between them, which
  // the row groups of the tiling need.
  pm.addNestedPass<func::FuncOp>(createFoldUnitDims());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createPackWeights(targetOptions<PackWeightsOptions>(options)));
  pm.addNestedPass<func::FuncOp>(
      createTileAndVectorize(targetOptions<TileAndVectorizeOptions>(options)));

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A while_loop's body yields new tensors each round (the deallocation
  // pipeline frees the previous round's).
  bufferize.allowReturnAllocsFromLoops = true;
  // A slice that several calls take is copied once, not at each call.
  pm.addNestedPass<func::FuncOp>(createCopyCallSlicesOnce());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Upstream's deallocation pipeline (buildBufferDeallocationPipeline),
  // with call results freed apart before the deallocs are lowered.
  pm.addPass(memref::createExpandReallocPass({/*emitDeallocs=*/false}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(createSplitCallResultDeallocs());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());

  // Tiles write into slices of their destination: CSE makes those slices
  // one value, and canonicalizing drops the self-copies between them.
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // Results that alias a function argument are returned as clones.
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Buffers freed after their last use, not at their block's end.
  pm.addNestedPass<func::FuncOp>(createFreeBuffersEarly());
  // Copies between strided views as loops, not the runtime's generic copy.
  pm.addNestedPass<func::FuncOp>(createExpandStridedCopies());
  // B's rows ahead of a register tile's reads, across page boundaries.
  pm.addNestedPass<func::FuncOp>(createPrefetchMatmulRows());
  if (options.profile)
    pm.addPass(createProfileLoopNests());
  // Large results go to memory past the caches (x86's non-temporal stores,
  // ordered below).
  bool x86 = llvm::Triple(llvm::sys::getProcessTriple()).isX86();
  if (x86)
    pm.addNestedPass<func::FuncOp>(createStreamResultStores());
  // Failed run-time checks are reported through a status, not a trap.
  pm.addPass(createAssertionsToStatus());
  // bf16 computed in f32 (LLVM would round each lane by a call), before
  // math and reductions are lowered, so that they are lowered in f32.
  pm.addNestedPass<func::FuncOp>(createEmulateNarrowFloats());
  pm.addNestedPass<func::FuncOp>(createLowerVectorOps());
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll();
  transfers.enableLowerTensors(false);
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(transfers));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Thread-level tiles run as OpenMP parallel loops.
  pm.addPass(createForallToParallelLoopPass());
  pm.addPass(createConvertSCFToOpenMPPass());
  // Drops the memref.alloca_scope that wraps each parallel body (there are
  // no allocas in it); scf-to-cf would give it several blocks.
  pm.addPass(createCanonicalizerPass());
  // A row's temporaries once per thread, not once per row.
  pm.addNestedPass<func::FuncOp>(createHoistLoopAllocations());
  // One synchronization per parallel loop (the region's end), not two.
  pm.addNestedPass<func::FuncOp>(createOmitLoopBarriers());
  // A parallel loop of one iteration (an op of symbolic size whose work
  // was too small for threads) runs without a fork.
  pm.addNestedPass<func::FuncOp>(createForkOnlyForSeveralIterations());
  // Each thread's share of a loop from its number, not from libomp's
  // scheduling call.
  pm.addPass(createPartitionLoopsStatically());
  if (x86)
    pm.addNestedPass<func::FuncOp>(createFenceStreamingStores());
  // One parallel region per function: translating OpenMP to LLVM IR scans
  // the function around each region (quadratic in an inlined model).
  pm.addPass(createOutlineParallelRegions());
  // Function by function from here until the conversions that need the
  // module (symbol declarations, the functions themselves): the outlined
  // regions are lowered on the context's threads.
  pm.addNestedPass<func::FuncOp>(createLowerAffinePass());
  pm.addNestedPass<func::FuncOp>(createSCFToControlFlowPass());
  pm.addNestedPass<func::FuncOp>(memref::createExpandStridedMetadataPass());
  pm.addNestedPass<func::FuncOp>(createLowerAffinePass());
  // Allocations call the runtime's allocator (`_mlir_memref_to_llvm_alloc`,
  // MaxGraph/Runtime/TensorAllocator.h), which keeps large freed blocks for
  // the next call, not malloc.
  FinalizeMemRefToLLVMConversionPassOptions memrefs;
  memrefs.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefs));
  // Register tiles' contractions become broadcast-and-FMA outer products;
  // reductions may reassociate (a tree instead of a sequential chain).
  ConvertVectorToLLVMPassOptions vectors;
  vectors.vectorContractLowering = vector::VectorContractLowering::OuterProduct;
  vectors.reassociateFPReductions = true;
  // The 16 x 16 squares of packing B from a weight (MatmulTiling.cpp) in
  // AVX-512's unpack and permute sequence; other sizes as one shuffle.
  vectors.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle16x16;
  pm.addNestedPass<func::FuncOp>(createConvertVectorToLLVMPass(vectors));
  // Math with an LLVM intrinsic (the fma and floor of the exp polynomial)
  // stays vector code; only the rest becomes libm calls.
  pm.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Parallel regions capture the descriptor fields they read, not whole
  // descriptors.
  pm.addNestedPass<LLVM::LLVMFuncOp>(createHoistParallelCaptures());
}
