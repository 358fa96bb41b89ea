//===- InitAll.h - register everything MaxGraph provides --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Entry points for tools and compilers that embed MaxGraph.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_INITALL_H
#define MAXGRAPH_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace maxgraph {
/// Adds the maxgraph dialect and every dialect that MaxGraph's passes and
/// conversions create to `registry`, and the fast tensor-slice subset model
/// (registerSliceSubsetModels: call this before mlir::registerAllDialects).
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers MaxGraph's passes and pipelines with the global pass registry
/// (so that `--pass-pipeline` and pass flags find them).
void registerAllPasses();
} // namespace maxgraph

#endif // MAXGRAPH_INITALL_H
