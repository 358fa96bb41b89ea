//===- RecursiveCalls.h - cycles in the call graph of graphs ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Graphs may call subgraphs but not themselves, directly or through others:
// inlining cannot remove such a cycle and compiled code would recurse
// without end. The passes that need an acyclic call graph check it here.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_RECURSIVECALLS_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_RECURSIVECALLS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace maxgraph {
/// Fails with an error at the call that closes the first cycle of
/// maxgraph.call edges in `module` ("recursive call: @a calls itself through
/// @b @a; <consequence>").
llvm::LogicalResult checkNoRecursiveCalls(mlir::ModuleOp module,
                                          mlir::SymbolTable &symbols,
                                          llvm::StringRef consequence);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_RECURSIVECALLS_H
