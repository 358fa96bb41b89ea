//===- RowTiling.h - tiling any linalg op to vector rows --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every linalg op that is not blocked like a matmul is tiled to rows: tiles
// of one element in the outer dims and up to a vector length in the
// innermost dim, with the partial tiles peeled. A reduction over the
// innermost dim accumulates lane-wise into a partial vector and reduces it
// once per row.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_ROWTILING_H
#define MAXGRAPH_CODEGEN_COMMON_ROWTILING_H

#include "MaxGraph/Codegen/Common/ThreadTiling.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace maxgraph {
/// Tiles `op` under an `scf.forall` of `threads` (when it is large enough)
/// to rows of up to `vectorLength` elements in the innermost dim; an
/// innermost dim of static size up to `vectorLength` stays whole. The row
/// tiles (and a reduction's partial accumulators and merges) are marked for
/// `vectorizeMarkedTiles`.
void tileToVectorRows(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                      int64_t vectorLength, const ThreadTiling &threads);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_ROWTILING_H
