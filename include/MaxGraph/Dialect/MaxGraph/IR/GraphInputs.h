//===- GraphInputs.h - a graph's arguments for the input checks -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A graph's signature as the runtime checks inputs against it
// (MaxGraph/Support/GraphInputs.h): read once from the IR by whatever runs
// the graph (the compiler, the interpreter), and kept without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_GRAPHINPUTS_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_GRAPHINPUTS_H

#include "MaxGraph/Support/GraphInputs.h"

namespace maxgraph {
class GraphOp;

/// Describes the arguments of `graph`; throws RuntimeError for an argument
/// whose element type has no DType.
GraphInputs describeGraphInputs(GraphOp graph);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_GRAPHINPUTS_H
