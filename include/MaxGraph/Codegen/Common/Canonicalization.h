//===- Canonicalization.h - every canonicalization pattern ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Codegen passes clean up between their steps with the same patterns as
// `canonicalize`, built once per pass instance.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_CANONICALIZATION_H
#define MAXGRAPH_CODEGEN_COMMON_CANONICALIZATION_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace maxgraph {
/// The canonicalization patterns of every dialect loaded in `context` and
/// of every op registered in it.
mlir::FrozenRewritePatternSet
collectCanonicalizationPatterns(mlir::MLIRContext *context);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_CANONICALIZATION_H
