//===- SymbolicDims.h - binding symbolic dims in IR -------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Replacing symbolic dims by other dims throughout types and regions: the
// step that specializes a generic graph to one binding of its dims (when a
// call is inlined, or dims are fixed).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_SYMBOLICDIMS_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_SYMBOLICDIMS_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.h"
#include "mlir/IR/Region.h"

namespace maxgraph {
/// Maps a symbolic name to the dim it stands for, or null to keep it.
using DimLookup = llvm::function_ref<DimAttr(mlir::StringAttr)>;

/// `type` with every symbolic dim replaced through `lookup`; other types are
/// returned unchanged.
mlir::Type substituteDims(mlir::Type type, DimLookup lookup);

/// Rewrites the type of every block argument and op result in `region`.
void substituteDims(mlir::Region &region, DimLookup lookup);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_SYMBOLICDIMS_H
