//===- ControlFlow.h - the predicate of while_loop and cond -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_CONTROLFLOW_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_CONTROLFLOW_H

#include "mlir/IR/Types.h"

namespace maxgraph::detail {
/// Whether `type` is what `while_loop` and `cond` branch on: a rank-0 i1
/// tensor on a host device, which the host reads each time.
bool isHostPredicate(mlir::Type type);
} // namespace maxgraph::detail

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_CONTROLFLOW_H
