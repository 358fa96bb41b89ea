//===- RowBias.h - a bias its consumer adds to each row ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A matmul's `x @ w + b`, and a convolution's bias: the consumer of the
// product adds a vector along its last dim. The register tiles of the
// product can start from the bias instead of zeros, and the consumer no
// longer add it: one pass over the result less.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_ROWBIAS_H
#define MAXGRAPH_CODEGEN_COMMON_ROWBIAS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace maxgraph {

/// A bias that the only consumer of an op's result adds to each of its rows
/// (along its last dim).
struct RowBias {
  /// The bias, [N]; null when there is none.
  mlir::Value bias;
  /// The addition in the consumer's body, and its operand that is the
  /// bias's element.
  mlir::arith::AddFOp add;
  mlir::Value biasElement;

  explicit operator bool() const { return bias != nullptr; }
  /// Makes the consumer pass the product's element on without adding the
  /// bias: for when every register tile of the product starts from it.
  void dropAdd(mlir::RewriterBase &rewriter) const;
};

/// The `width` columns of `bias` ([N]) from `offset`: those a register
/// tile of the product starts from.
mlir::Value biasColumnsAt(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value bias, mlir::OpFoldResult offset,
                          int64_t width);

/// The bias that `producer`'s result ([..., N], on tensors) has added along
/// its last dim by its only consumer: an elementwise linalg.generic (reached
/// through a tensor.reshape of the rows, as a batch of tokens is) whose
/// body adds the result's element, used nowhere else, to the element of a
/// [N] input at the last loop, where N is static and a multiple of
/// `columns` (the register tiles' width) and the bias is defined before
/// `producer` (the tiles read it there). Empty otherwise.
RowBias rowBiasOf(mlir::Operation *producer, int64_t columns);

} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_ROWBIAS_H
