//===- InlineSubgraphs.cpp - inline maxgraph.call -------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/RecursiveCalls.h"
#include "MaxGraph/Dialect/MaxGraph/IR/SymbolicDims.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"
#include <functional>

namespace maxgraph {
#define GEN_PASS_DEF_INLINESUBGRAPHS
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
/// Moves or clones the callee body in front of the call's continuation.
void cloneBody(OpBuilder &, Region *src, Block *, Block *postBlock,
               IRMapping &mapper, bool shouldCloneInlinedRegion) {
  Region *insertRegion = postBlock->getParent();
  if (shouldCloneInlinedRegion) {
    src->cloneInto(insertRegion, postBlock->getIterator(), mapper);
    return;
  }
  insertRegion->getBlocks().splice(postBlock->getIterator(), src->getBlocks(),
                                   src->begin(), src->end());
}

/// Inlines `call`. A callee generic over symbolic dims is first copied and
/// specialized to the dims the call binds, so the inlined ops get the
/// caller's types (`n` in the body becomes the caller's `batch`).
LogicalResult inlineSpecialized(InlinerInterface &interface, CallOp call,
                                GraphOp callee) {
  DenseMap<StringAttr, DimAttr> bindings;
  for (auto [param, arg] :
       llvm::zip_equal(callee.getArgumentTypes(), call.getOperandTypes()))
    if (failed(maxgraph::detail::bindSymbolicDims(
            cast<LayoutType>(param), cast<LayoutType>(arg), "operand", bindings,
            [&] { return call.emitOpError(); })))
      return failure();
  bool isGeneric = llvm::any_of(bindings, [](auto &binding) {
    return binding.second != DimAttr::getSymbol(binding.first.getContext(),
                                                binding.first.getValue());
  });
  if (!isGeneric)
    return inlineCall(interface, cloneBody, call, callee, &callee.getBody());
  auto specialized = cast<GraphOp>(callee->clone());
  auto lookup = [&](StringAttr name) { return bindings.lookup(name); };
  substituteDims(specialized.getBody(), lookup);
  auto substitute = [&](Type type) { return substituteDims(type, lookup); };
  specialized.setFunctionType(FunctionType::get(
      call.getContext(),
      llvm::map_to_vector(specialized.getArgumentTypes(), substitute),
      llvm::map_to_vector(specialized.getResultTypes(), substitute)));
  LogicalResult result =
      inlineCall(interface, cloneBody, call, specialized,
                 &specialized.getBody(), /*shouldCloneInlinedRegion=*/false);
  specialized->erase();
  return result;
}

struct InlineSubgraphsPass
    : public maxgraph::impl::InlineSubgraphsBase<InlineSubgraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    if (failed(checkNoRecursiveCalls(module, symbols,
                                     "recursive subgraphs cannot be inlined")))
      return signalPassFailure();
    InlinerInterface interface(&getContext());
    DenseMap<GraphOp, int64_t> bodySizes;
    auto isSmallEnough = [&](GraphOp callee) {
      if (maxBodyOps < 0)
        return true;
      auto [it, inserted] = bodySizes.try_emplace(callee, 0);
      if (inserted)
        callee.getBody().walk([&](Operation *) { ++it->second; });
      // The walk counts the terminator, which inlining drops.
      return it->second - 1 < maxBodyOps;
    };

    // Inlining may expose calls nested in bodies; iterate to a fixpoint
    // bounded by the number of graphs (a deeper chain would be a cycle).
    auto graphs = module.getOps<GraphOp>();
    size_t rounds = 0;
    size_t maxRounds = std::distance(graphs.begin(), graphs.end()) + 1;
    bool changed = true;
    while (changed && rounds++ < maxRounds) {
      changed = false;
      SmallVector<CallOp> calls;
      module.walk([&](CallOp call) { calls.push_back(call); });
      for (CallOp call : calls) {
        auto callee = symbols.lookup<GraphOp>(call.getCallee());
        if (!callee || !isSmallEnough(callee))
          continue;
        if (failed(inlineSpecialized(interface, call, callee))) {
          call.emitError() << "could not inline the call to @"
                           << call.getCallee();
          return signalPassFailure();
        }
        call.erase();
        changed = true;
      }
    }

    for (GraphOp graph : llvm::make_early_inc_range(module.getOps<GraphOp>()))
      if (graph.getIsSubgraph() &&
          SymbolTable::symbolKnownUseEmpty(graph, module))
        graph.erase();
  }
};
} // namespace
