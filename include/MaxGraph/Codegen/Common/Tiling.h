//===- Tiling.h - tiling through TilingInterface ----------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The step that every tiling recipe of Codegen repeats: tile one op with
// `scf::tileUsingSCF` and replace it by the loops' results.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_TILING_H
#define MAXGRAPH_CODEGEN_COMMON_TILING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/ArrayRef.h"

namespace maxgraph {
/// Tiles `op` with `options` and replaces it by the results of the generated
/// loops. The returned `tiledOps` hold the op inside the innermost loop.
llvm::FailureOr<mlir::scf::SCFTilingResult>
tileAndReplace(mlir::RewriterBase &rewriter, mlir::TilingInterface op,
               const mlir::scf::SCFTilingOptions &options);

/// Tiles `op` with one `scf.for` per nonzero entry of `tileSizes` (one entry
/// per loop of `op`; 0 leaves that loop untiled) and replaces it.
llvm::FailureOr<mlir::scf::SCFTilingResult>
tileWithForLoops(mlir::RewriterBase &rewriter, mlir::TilingInterface op,
                 llvm::ArrayRef<int64_t> tileSizes);
/// The tensor that `op` (one init) accumulates into zeros of, when its init
/// is a linalg.fill of 0 (float or integer) that `op` alone uses; null
/// otherwise. Tiling may then give `op` that tensor instead and start each
/// of its tiles from zeros, in registers and cache, rather than in a pass
/// of its own over the whole result.
mlir::Value zeroFilledInit(mlir::linalg::LinalgOp op);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_TILING_H
