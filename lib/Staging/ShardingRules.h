//===- ShardingRules.h - ops on distributed tensors -------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Staging. The staging function of an op with a sharding
// rule hands distributed operands here: the rule picks, per mesh axis, the
// placements its operands must have and the placement of its result
// (propagation), reshards the operands that do not have them at the least
// cost (Resharding.cpp), and stages the op once per device on the local
// shards by calling the op's own staging function back (`local`), so that
// what an op means is written once.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_STAGING_SHARDINGRULES_H
#define MAXGRAPH_LIB_STAGING_SHARDINGRULES_H

#include "MaxGraph/Staging/Ops.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace maxgraph::detail::sharded {
/// Whether any operand is a distributed tensor.
bool anyDistributed(llvm::ArrayRef<Tensor> tensors);
bool anyDistributed(llvm::ArrayRef<const Operand *> operands);

/// What an elementwise op does to a Partial (sum) operand.
enum class Linearity {
  /// Nothing survives: Partial operands are reduced first.
  None,
  /// add, sub: Partial when every operand is Partial.
  Additive,
  /// mul: Partial when one operand is and the others are Replicated.
  Scaling,
  /// div: Partial when the dividend is and the divisor is Replicated.
  Dividend,
  /// neg: Partial stays Partial.
  Negation,
};

/// An elementwise op with numpy broadcasting over `operands` (tensors or
/// numbers); `local` stages it on one device's operands.
Tensor elementwise(llvm::StringRef op, llvm::ArrayRef<const Operand *> operands,
                   Linearity linearity,
                   llvm::function_ref<Tensor(llvm::ArrayRef<Operand>)> local,
                   const SourceLoc &loc);

/// matmul: row, column and contracting (Partial) splits, batch splits.
Tensor matmul(const Tensor &lhs, const Tensor &rhs, const SourceLoc &loc);

/// How a reduction combines, for the Partial result of reducing a sharded
/// axis.
enum class Reduction { Sum, Mean, Max, Min, Prod };

/// A reduction over `axes`; a reduced axis that is sharded leaves a
/// Partial result (mean: a Partial sum of local sums, scaled).
Tensor reduce(llvm::StringRef op, const Tensor &x, std::vector<int64_t> axes,
              bool keepDims, Reduction reduction, const SourceLoc &loc);

/// An op that reads whole lines along `axis` (softmax, log_softmax,
/// argmax, argmin, cumsum): that axis is gathered if sharded; `dropsAxis`
/// says whether the result loses it.
Tensor alongAxis(llvm::StringRef op, const Tensor &x, int64_t axis,
                 bool dropsAxis,
                 llvm::function_ref<Tensor(const Tensor &)> local,
                 const SourceLoc &loc);

/// layer_norm, rms_norm: `x` normalized over its last axis (gathered if
/// sharded) with `params` (replicated) over that axis.
Tensor normalization(llvm::StringRef op, const Tensor &x,
                     llvm::ArrayRef<Tensor> params,
                     llvm::function_ref<Tensor(llvm::ArrayRef<Tensor>)> local,
                     const SourceLoc &loc);

/// conv2d of an NHWC image `x` with an RSCF `filter`: a batch sharded on
/// its axis 0 stays so (the filter replicated), else filters sharded on
/// their axis 3 shard the result's channels (the image replicated; one
/// group only), else both are replicated.
Tensor convolution(llvm::StringRef op, const Tensor &x, const Tensor &filter,
                   int64_t groups,
                   llvm::function_ref<Tensor(llvm::ArrayRef<Tensor>)> local,
                   const SourceLoc &loc);

/// Shape ops: a sharded axis follows the op where it survives (transpose;
/// reshape when the axis keeps its dim and its position in the element
/// order; concat and slice along other axes) and is gathered otherwise.
Tensor transpose(const Tensor &x, const std::vector<int64_t> &permutation,
                 const SourceLoc &loc);
Tensor reshape(const Tensor &x, const std::vector<Dim> &shape,
               const SourceLoc &loc);
/// broadcast_to: a split axis that is not broadcast stays split (numbered
/// in the result); a split axis of size 1 (broadcast) is gathered first.
Tensor broadcastTo(const Tensor &x, const std::vector<Dim> &shape,
                   const SourceLoc &loc);
/// gather: `x` split on an axis other than `axis` stays split (numbered in
/// the result), `indices` split on an axis splits the result there (an
/// embedding lookup of a split batch); the other operand is replicated.
Tensor gather(const Tensor &x, const Tensor &indices, int64_t axis,
              const SourceLoc &loc);
Tensor concat(const std::vector<Tensor> &inputs, int64_t axis,
              const SourceLoc &loc);
Tensor slice(const Tensor &x, const std::vector<ops::Range> &ranges,
             const SourceLoc &loc);
/// cast: Partial operands are reduced first (rounding is not linear).
Tensor cast(const Tensor &x, DType dtype, const SourceLoc &loc);

/// `x` with `mapping` (ops::reshard).
Tensor reshard(const Tensor &x, const sharding::DeviceMapping &mapping,
               const SourceLoc &loc);
} // namespace maxgraph::detail::sharded

#endif // MAXGRAPH_LIB_STAGING_SHARDINGRULES_H
