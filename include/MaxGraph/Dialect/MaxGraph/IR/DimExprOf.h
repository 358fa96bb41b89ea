//===- DimExprOf.h - a DimAttr as a DimExpr ---------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_DIMEXPROF_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_DIMEXPROF_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include "MaxGraph/Support/DimExpr.h"

namespace maxgraph {
/// `dim` as the MLIR-free expression that prints, evaluates and is kept in
/// executable images: the one decoding of DimAttr's canonical form.
DimExpr dimExprOf(DimAttr dim);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_DIMEXPROF_H
