//===- Passes.h - the CPU strategy's passes and pipeline --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-tile-and-vectorize`, `maxgraph-lower-vector-ops` and the other
// CPU passes (Passes.td) and the pipeline that ends in
// the LLVM dialect for the CPU JIT, `maxgraph-lower-to-cpu`. Every pass and the
// pipeline take the target CPU as options (CPUTarget.h); a target option of 0
// means the host's value.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_LLVMCPU_PASSES_H
#define MAXGRAPH_CODEGEN_LLVMCPU_PASSES_H

#include "MaxGraph/Codegen/LLVMCPU/CPUTarget.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include <memory>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace maxgraph {
#define GEN_PASS_DECL
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"

/// The options of `maxgraph-lower-to-cpu`: the target CPU, passed on to
/// `maxgraph-tile-and-vectorize` (same names and meaning).
struct LowerToCPUPipelineOptions
    : mlir::PassPipelineOptions<LowerToCPUPipelineOptions> {
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Width of a vector register in bits (0: the host's)"),
      llvm::cl::init(0)};
  Option<unsigned> vectorRegisters{
      *this, "vector-registers",
      llvm::cl::desc("Number of vector registers (0: the host's)"),
      llvm::cl::init(0)};
  Option<uint64_t> l1CacheBytes{
      *this, "l1-cache-bytes",
      llvm::cl::desc("Size of a core's L1 data cache in bytes (0: the host's)"),
      llvm::cl::init(0)};
  Option<uint64_t> l2CacheBytes{
      *this, "l2-cache-bytes",
      llvm::cl::desc("Size of a core's L2 cache in bytes (0: the host's)"),
      llvm::cl::init(0)};
  Option<unsigned> cores{
      *this, "cores",
      llvm::cl::desc(
          "Number of cores to spread large ops over (0: the host's)"),
      llvm::cl::init(0)};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Time each loop nest for the runtime's profile "
                     "(maxgraph-profile-loop-nests)"),
      llvm::cl::init(false)};
};

/// `maxgraph-lower-to-cpu`: maxgraph to the LLVM dialect for the JIT, tiled
/// for the CPU that `options` describe (by default the host). Non-subgraph
/// graphs become entry points with a C interface (`_mlir_ciface_<name>`)
/// taking and returning memref descriptors, and a trailing status slot
/// (`maxgraph-assertions-to-status`).
void buildLowerToCPUPipeline(
    mlir::OpPassManager &pm,
    const LowerToCPUPipelineOptions &options = LowerToCPUPipelineOptions());

/// Registers the passes above and `maxgraph-lower-to-cpu` with the global
/// pass registry.
void registerLLVMCPUPasses();
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_LLVMCPU_PASSES_H
