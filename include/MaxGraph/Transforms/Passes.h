//===- Passes.h - maxgraph-to-maxgraph passes -------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_TRANSFORMS_PASSES_H
#define MAXGRAPH_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace maxgraph {
#define GEN_PASS_DECL
#include "MaxGraph/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "MaxGraph/Transforms/Passes.h.inc"

/// `maxgraph-optimize`: fold, share identical subgraph bodies, decompose
/// composites into primitives, clean up (canonicalize and CSE), and share
/// the bodies that decomposing made identical.
void buildOptimizePipeline(mlir::OpPassManager &pm);

/// Registers `maxgraph-optimize` with the global pass registry (the passes
/// themselves: registerMaxGraphTransformsPasses).
void registerMaxGraphTransformsPipelines();
} // namespace maxgraph

#endif // MAXGRAPH_TRANSFORMS_PASSES_H
