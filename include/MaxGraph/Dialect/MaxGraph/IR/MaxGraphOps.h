//===- MaxGraphOps.h - maxgraph operations ----------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHOPS_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHOPS_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphInterfaces.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTraits.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/ShapeInference.h"
#include "MaxGraph/Dialect/MaxGraph/IR/SliceRanges.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h.inc"

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHOPS_H
