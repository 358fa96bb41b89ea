//===- Pipelines.h - named maxgraph pipelines -------------------*- C++ -*-===//

#ifndef MAXGRAPH_PIPELINES_PIPELINES_H
#define MAXGRAPH_PIPELINES_PIPELINES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace maxgraph {
/// `maxgraph-optimize`: fold, share identical subgraph bodies, decompose
/// composites into primitives, clean up (canonicalize and CSE), and share
/// the bodies that decomposing made identical.
void buildOptimizePipeline(mlir::OpPassManager &pm);

/// `maxgraph-lower-to-cpu`: maxgraph to the LLVM dialect for the JIT.
/// Non-subgraph graphs become entry points with a C interface
/// (`_mlir_ciface_<name>`) taking and returning memref descriptors.
void buildLowerToCPUPipeline(mlir::OpPassManager &pm);

#define GEN_PASS_DECL
#include "MaxGraph/Pipelines/Passes.h.inc"

/// Registers the named pipelines and the passes above with the global pass
/// registry.
void registerPipelines();
} // namespace maxgraph

#endif // MAXGRAPH_PIPELINES_PIPELINES_H
