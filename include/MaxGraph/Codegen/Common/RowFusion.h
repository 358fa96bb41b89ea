//===- RowFusion.h - reductions fused with consumers, row by row *- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A row group is a chain of linalg ops that reduce over the innermost dim
// and consume those reductions row by row, as softmax, log_softmax,
// layer_norm and rms_norm decompose to: each row's reductions and the
// elementwise ops that use them are computed together, one row after the
// other, so that a row is read from memory once and stays in L1 between the
// passes over it. The rows are spread over threads.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_ROWFUSION_H
#define MAXGRAPH_CODEGEN_COMMON_ROWFUSION_H

#include "MaxGraph/Codegen/Common/ThreadTiling.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallVector.h"

namespace maxgraph {
/// Whether `op` computes its `loops` loops row by row: a linalg.generic or
/// linalg.reduce on tensors with `loops` loops whose leading `loops - 1` are
/// parallel, every operand indexed in loop order (a projected permutation with
/// increasing results) either by all leading loops (a row-aligned operand) or
/// by none (a row-invariant one, such as layer_norm's gamma), and whose results
/// are row-aligned: the whole iteration space when the innermost loop is
/// parallel, the leading loops (one element per row) when it is a
/// reduction.
bool isRowOp(mlir::linalg::LinalgOp op, unsigned loops);

/// Finds the row groups of `function` and tiles each to rows: the group's
/// last op, an elementwise row op that consumes a row reduction (directly
/// or through other row ops), is tiled to one row per iteration and its
/// row-op producers (and the fills of their accumulators) are fused into
/// that iteration. The row loop is an `scf.forall` (one row per iteration,
/// for the threads) when the group's work together (estimateWork) is at
/// least `threads.minWork`, an `scf.for` otherwise. Each op of the row is then
/// tiled to vector rows of `vectorLength` (tileToVectorRows, without threads).
/// Returns the row loops: the ops inside them are tiled.
llvm::SmallVector<mlir::Operation *> tileRowGroups(mlir::RewriterBase &rewriter,
                                                   mlir::func::FuncOp function,
                                                   int64_t vectorLength,
                                                   const ThreadTiling &threads);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_ROWFUSION_H
