//===- Passes.h - passes every target's pipeline runs -----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-fuse-elementwise` and `maxgraph-assertions-to-status`
// (Passes.td): what the CPU pipeline (LLVMCPU) and the GPU pipeline
// (LLVMGPU) both run.
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
#include <memory>

namespace maxgraph {
#define GEN_PASS_DECL
#include "MaxGraph/Codegen/Common/Passes.h.inc"

/// Registers the passes of Passes.td with MLIR's pass registry.
void registerCodegenCommonPasses();
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_PASSES_H
