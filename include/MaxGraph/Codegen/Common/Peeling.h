//===- Peeling.h - peeling the partial tiles off tiled loops ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// After tiling, a loop whose trip count is not a multiple of its step ends
// in a partial tile. Peeling that last iteration off gives the main loop
// tiles of static shape (which vectorize) and leaves one remainder tile.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_PEELING_H
#define MAXGRAPH_CODEGEN_COMMON_PEELING_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/ArrayRef.h"

namespace maxgraph {
/// Peels the last partial iteration off every `scf.for` in `loops` (outermost
/// first, as tiling returns them), innermost loop first, so that the main
/// loops see full, static tiles. Loops of other kinds are left alone.
void peelPartialIterations(mlir::RewriterBase &rewriter,
                           llvm::ArrayRef<mlir::LoopLikeOpInterface> loops);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_PEELING_H
