//===- Vectorization.h - vectorizing the marked tiles -----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

/// Tiles again each linalg op marked under `root` whose shape stays
/// dynamic (the remainder of a tiled loop whose size is known at run time,
/// such as a row of `seq` elements below a vector step of 64), so that most
/// of it vectorizes: a matmul tile with M dynamic to tiles of 4 rows and
/// its remainder to tiles of 1, when M's bound is known (the rows below a
/// register tile's) and at least 4, else to tiles of 1 row; with N dynamic
/// to `lanes` columns; any other op to `lanes` in a dynamic innermost dim
/// and 1 in its other dynamic dims. The new tiles are marked and their partial
/// iterations peeled: only what is left below those sizes stays scalar,
/// but for a matmul's last columns, which take `lanes` masked lanes. A
/// row of 16 then takes one vector of 16 lanes. Nothing is tiled when
/// `lanes` is below 2. Run after cleaning up, so that the remainders whose
/// size folds to a constant are static by then (and left as they are).
void tileDynamicTiles(mlir::RewriterBase &rewriter, mlir::Operation *root,
                      int64_t lanes);

/// Vectorizes the linalg ops marked under `root` and removes the marks. A
/// matmul tile whose M and N are static becomes a K loop of one step with a
/// `vector.contract` per step and the accumulator carried in registers, and
/// so does one whose N is the remainder below `lanes` columns, with the rhs
/// rows and the accumulator read and written through masks; any other tile
/// of static shape is vectorized as it is. Other tiles that stay dynamic,
/// and ops with `i1` (sub-byte) operands, stay scalar: LLVM packs
/// `vector<Nxi1>` into bits while an `i1` memref uses a byte per element.
void vectorizeMarkedTiles(mlir::RewriterBase &rewriter, mlir::Operation *root);

/// Moves loop-invariant code out of every `scf.for` under `root` and hoists
/// the subsets read and written at the same place in every iteration (an
/// accumulator) into loop-carried values: vectors in registers instead of a
/// load and a store per step.
void hoistLoopInvariantAccumulators(mlir::RewriterBase &rewriter,
                                    mlir::Operation *root);
/// Adds the pattern that replaces an in-bounds read of a tensor that a
/// splat vector was written over whole (through slices of it) by the splat:
/// a register tile that starts from zeros keeps them in registers.
void populateSplatReadForwardingPatterns(mlir::RewritePatternSet &patterns);

} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_VECTORIZATION_H
