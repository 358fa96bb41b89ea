//===- Vectorization.h - vectorizing the marked tiles -----------*- C++ -*-===//
//
// Tiling marks the innermost tiles it wants vectorized; cleaning up in
// between (which folds the peeled tiles' sizes into their types) keeps the
// mark. Vectorizing then turns every marked tile of static shape into
// vector ops, and hoisting keeps accumulators in registers.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_VECTORIZATION_H
#define MAXGRAPH_CODEGEN_COMMON_VECTORIZATION_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace maxgraph {
/// Marks `op` (a linalg op) as a tile for `vectorizeMarkedTiles`.
void markForVectorization(mlir::Operation *op);

/// Vectorizes the linalg ops marked under `root` and removes the marks. A
/// matmul tile whose M and N are static becomes a K loop of one step with a
/// `vector.contract` per step and the accumulator carried in registers; any
/// other tile of static shape is vectorized as it is. Tiles that stay
/// dynamic, and ops with `i1` (sub-byte) operands, stay scalar: LLVM packs
/// `vector<Nxi1>` into bits while an `i1` memref uses a byte per element.
void vectorizeMarkedTiles(mlir::RewriterBase &rewriter, mlir::Operation *root);

/// Moves loop-invariant code out of every `scf.for` under `root` and hoists
/// the subsets read and written at the same place in every iteration (an
/// accumulator) into loop-carried values: vectors in registers instead of a
/// load and a store per step.
void hoistLoopInvariantAccumulators(mlir::RewriterBase &rewriter,
                                    mlir::Operation *root);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_VECTORIZATION_H
