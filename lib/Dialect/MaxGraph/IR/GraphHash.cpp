//===- GraphHash.cpp - a structural hash of a graph's body ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/GraphHash.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

llvm::hash_code maxgraph::hashGraphBody(GraphOp graph, llvm::hash_code seed) {
  DenseMap<Value, unsigned> numbers;
  auto number = [&](Value value) -> llvm::hash_code {
    return numbers.lookup(value);
  };
  llvm::hash_code hash = seed;
  graph.getBody().walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      numbers[arg] = numbers.size();
    for (Operation &op : *block) {
      hash = llvm::hash_combine(
          hash, OperationEquivalence::computeHash(
                    &op, number, OperationEquivalence::ignoreHashValue,
                    OperationEquivalence::IgnoreLocations));
      for (Value result : op.getResults())
        numbers[result] = numbers.size();
    }
  });
  return hash;
}
