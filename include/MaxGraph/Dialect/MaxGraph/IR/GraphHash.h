//===- GraphHash.h - a structural hash of a graph's body --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Graphs whose bodies are alike (the same ops on the same values, whatever
// the locations and SSA names) hash alike, so that sharing bodies (staging's
// as_subgraph, maxgraph-share-subgraphs) compares only bodies of equal
// hash, with OperationEquivalence, instead of printing them.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_GRAPHHASH_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_GRAPHHASH_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "llvm/ADT/Hashing.h"

namespace maxgraph {
/// `seed` (the caller's hash of the graph's signature) combined with each op
/// of `graph`'s body in order, values numbered by their definition and
/// locations ignored.
llvm::hash_code hashGraphBody(GraphOp graph, llvm::hash_code seed);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_GRAPHHASH_H
