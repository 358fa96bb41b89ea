//===- Passes.h - passes every target's pipeline runs -----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-fuse-elementwise` and `maxgraph-assertions-to-status`
// (Passes.td), and `maxgraph-graph-to-linalg`, the graph-level front: what
// the CPU pipeline (LLVMCPU) and the GPU pipeline (LLVMGPU) both run.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_PASSES_H
#define MAXGRAPH_CODEGEN_COMMON_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include <memory>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace maxgraph {
#define GEN_PASS_DECL
#include "MaxGraph/Codegen/Common/Passes.h.inc"

/// Options of `maxgraph-graph-to-linalg`.
struct GraphToLinalgPipelineOptions
    : mlir::PassPipelineOptions<GraphToLinalgPipelineOptions> {
  Option<bool> gpu{
      *this, "gpu",
      llvm::cl::desc("Graphs whose tensors are on one GPU, for "
                     "maxgraph-lower-to-gpu: subgraphs and custom kernels are "
                     "inlined into one entry function"),
      llvm::cl::init(false)};
};

/// `maxgraph-graph-to-linalg`: the graph level of every target's pipeline.
/// Composites are decomposed, custom kernels linked, graphs converted to
/// linalg on tensors (`maxgraph-convert-maxgraph-to-linalg`), and
/// elementwise ops fused into their consumers. For a GPU, subgraphs and
/// custom kernels are inlined first: results of dynamic shape cannot become
/// a callee's caller buffers.
void buildGraphToLinalgPipeline(mlir::OpPassManager &pm,
                                const GraphToLinalgPipelineOptions &options =
                                    GraphToLinalgPipelineOptions());

/// Registers the passes of Passes.td and `maxgraph-graph-to-linalg` with
/// MLIR's pass registry.
void registerCodegenCommonPasses();
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_PASSES_H
