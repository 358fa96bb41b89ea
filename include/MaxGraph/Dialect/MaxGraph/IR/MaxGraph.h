//===- MaxGraph.h - everything of the maxgraph dialect ----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPH_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPH_H

#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/SymbolicDims.h"

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPH_H
