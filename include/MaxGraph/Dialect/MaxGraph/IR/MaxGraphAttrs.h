//===- MaxGraphAttrs.h - maxgraph attributes --------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHATTRS_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHATTRS_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SetVector.h"

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h.inc"

namespace maxgraph {
/// Whether `predicate` holds for a comparison whose outcome is `order`
/// (negative: less, zero: equal, positive: greater).
bool evaluateCmpPredicate(CmpPredicate predicate, int order);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHATTRS_H
