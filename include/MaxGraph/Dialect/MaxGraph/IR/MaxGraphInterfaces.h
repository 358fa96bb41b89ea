//===- MaxGraphInterfaces.h - op interfaces of the dialect ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The interfaces of MaxGraphInterfaces.td and the element-type predicates
// of MaxGraphConstraints.td (`isFloatElementType`, ...).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHINTERFACES_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHINTERFACES_H

#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "mlir/IR/OpDefinition.h"

namespace maxgraph {
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphConstraints.h.inc"
} // namespace maxgraph

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphInterfaces.h.inc"

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHINTERFACES_H
