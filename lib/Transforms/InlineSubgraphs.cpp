//===- InlineSubgraphs.cpp - inline maxgraph.call -------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"

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

struct InlineSubgraphsPass
    : public maxgraph::impl::InlineSubgraphsBase<InlineSubgraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
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
    size_t rounds = 0, maxRounds = module.getOps<GraphOp>().empty()
                                       ? 0
                                       : std::distance(
                                             module.getOps<GraphOp>().begin(),
                                             module.getOps<GraphOp>().end()) +
                                             1;
    bool changed = true;
    while (changed && rounds++ < maxRounds) {
      changed = false;
      SmallVector<CallOp> calls;
      module.walk([&](CallOp call) { calls.push_back(call); });
      for (CallOp call : calls) {
        auto callee = symbols.lookup<GraphOp>(call.getCallee());
        if (!callee || !isSmallEnough(callee))
          continue;
        if (failed(inlineCall(interface, cloneBody, call, callee,
                              &callee.getBody()))) {
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
