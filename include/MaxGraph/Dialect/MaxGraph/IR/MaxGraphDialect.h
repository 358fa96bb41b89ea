//===- MaxGraphDialect.h - maxgraph dialect ---------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h.inc"

namespace maxgraph::detail {
/// Makes maxgraph ops inlinable (defined with the inliner interface).
void addInlinerInterface(MaxGraphDialect *dialect);
} // namespace maxgraph::detail

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_H
