//===- ThreadTiling.h - the outer scf.forall that spreads work --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Large ops get an outer `scf.forall` over their leading parallel dim; the
// CPU pipeline turns it into an OpenMP parallel loop. How large is large,
// and how many chunks to cut, is the target's choice (ThreadTiling).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_THREADTILING_H
#define MAXGRAPH_CODEGEN_COMMON_THREADTILING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>

namespace maxgraph {
/// When and how an op is spread over threads.
struct ThreadTiling {
  /// Ops with less work than this (estimateWork) stay on one thread: a
  /// fork and join of the threads costs more than splitting such an op
  /// saves. A dynamic loop counts as this much work, so that ops of unknown
  /// size are spread.
  int64_t minWork = 0;
  /// The number of chunks the leading dim is cut into when no tile sizes
  /// are given.
  int64_t numChunks = 1;

  /// Spreads nothing, whatever the sizes (work inside a thread's tile).
  static ThreadTiling none() {
    ThreadTiling tiling;
    tiling.minWork = kNever;
    return tiling;
  }
  bool spreadsNothing() const { return minWork == kNever; }

  /// Whether an op whose work is `work` (estimateWork) is spread.
  bool spreads(int64_t work) const {
    return !spreadsNothing() && work >= minWork;
  }

private:
  static constexpr int64_t kNever = INT64_MAX;
};

/// What a math function counts for in estimateWork: the operations of its
/// polynomial once lowered (exp, tanh, erf).
constexpr int64_t kMathFunctionWork = 8;

/// The work of `op` on one thread, in scalar operations: its iterations
/// (the product of its static loop ranges) times the operations of its
/// body, a math function counting as kMathFunctionWork and anything else as
/// one, at least one per iteration (a copy); capped at 2^40. A dynamic loop
/// range makes it `dynamicWork`.
int64_t estimateWork(mlir::linalg::LinalgOp op, int64_t dynamicWork);

/// Wraps `op` in an `scf.forall` whose tiles have sizes `tileSizes` (one per
/// loop, 0 for untiled) or, with `tileSizes` empty, that cuts the leading
/// dim into `tiling.numChunks` chunks (a symbolic leading dim followed by a
/// parallel one: each of its iterations into numChunks / its size chunks of
/// the second, so that a batch of one is still shared); `interchange`, when
/// given, orders the `scf.forall`'s dims (threads take its iterations in
/// that order, the last dim fastest). An op of symbolic size cut into chunks is
/// cut into `tiling.numChunks` where its work at run time (as estimateWork
/// counts it) reaches `tiling.minWork`, else into one, so that a small op does
/// not wake the threads (maxgraph-fork-only-for-several-iterations runs a
/// parallel loop of one iteration without a fork). Nothing is tiled under
/// ThreadTiling::none(). Ops with less work than
/// `tiling.minWork` (estimateWork), ops whose leading loop is a
/// reduction, and (without `tileSizes`) ops whose static leading dim is
/// below 2 are returned untiled. Returns the op inside the `scf.forall`.
llvm::FailureOr<mlir::TilingInterface>
tileForThreads(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
               const ThreadTiling &tiling, llvm::ArrayRef<int64_t> tileSizes,
               llvm::ArrayRef<int64_t> interchange = {});
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_THREADTILING_H
