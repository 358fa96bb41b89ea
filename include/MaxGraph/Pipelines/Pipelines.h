//===- Pipelines.h - named maxgraph pipelines -------------------*- C++ -*-===//

#ifndef MAXGRAPH_PIPELINES_PIPELINES_H
#define MAXGRAPH_PIPELINES_PIPELINES_H

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

/// Registers the named pipelines with the global pass registry.
void registerPipelines();
} // namespace maxgraph

#endif // MAXGRAPH_PIPELINES_PIPELINES_H
