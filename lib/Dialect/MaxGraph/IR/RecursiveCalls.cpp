//===- RecursiveCalls.cpp - cycles in the call graph of graphs ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A depth-first walk over maxgraph.call edges that reports the first cycle
// with the calls that close it.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/RecursiveCalls.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>

using namespace mlir;
using namespace maxgraph;

LogicalResult maxgraph::checkNoRecursiveCalls(ModuleOp module,
                                              SymbolTable &symbols,
                                              StringRef consequence) {
  enum class State { Unvisited, Active, Done };
  DenseMap<GraphOp, State> states;
  SmallVector<CallOp> stack;
  std::function<LogicalResult(GraphOp)> visit = [&](GraphOp graph) {
    states[graph] = State::Active;
    WalkResult result = graph.walk([&](CallOp call) {
      auto callee = symbols.lookup<GraphOp>(call.getCallee());
      if (!callee)
        return WalkResult::advance();
      stack.push_back(call);
      State state = states.lookup(callee);
      if (state == State::Active) {
        InFlightDiagnostic diag = call.emitError()
                                  << "recursive call: @" << call.getCallee()
                                  << " calls itself through";
        for (CallOp link : stack)
          diag << " @" << link.getCallee();
        diag << "; " << consequence;
        return WalkResult::interrupt();
      }
      if (state == State::Unvisited && failed(visit(callee)))
        return WalkResult::interrupt();
      stack.pop_back();
      return WalkResult::advance();
    });
    states[graph] = State::Done;
    return failure(result.wasInterrupted());
  };
  for (GraphOp graph : module.getOps<GraphOp>())
    if (states.lookup(graph) == State::Unvisited && failed(visit(graph)))
      return failure();
  return success();
}
