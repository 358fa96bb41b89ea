//===- ShareSubgraphs.cpp - merge identical subgraph bodies ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Bodies are bucketed by a hash that sees ops, attributes, types and
// dataflow (operands as positions in the body) but not symbol names,
// argument names or locations; within a bucket each body is compared with
// the bucket's representatives by OperationEquivalence, so hash collisions
// cost a comparison, never a wrong merge.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/GraphHash.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

namespace maxgraph {
#define GEN_PASS_DEF_SHARESUBGRAPHS
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
/// The parts of a graph, besides its body, that must match for two bodies
/// to be interchangeable.
bool haveSameSignature(GraphOp lhs, GraphOp rhs) {
  return lhs.getFunctionType() == rhs.getFunctionType() &&
         lhs.getSymbolicDimsAttr() == rhs.getSymbolicDimsAttr() &&
         lhs.getIsDeviceGraph() == rhs.getIsDeviceGraph() &&
         lhs.getKernelLibrariesAttr() == rhs.getKernelLibrariesAttr() &&
         lhs.getArgAttrsAttr() == rhs.getArgAttrsAttr() &&
         lhs.getResAttrsAttr() == rhs.getResAttrsAttr();
}

/// A hash of `graph` that ignores its name, argument names and locations.
llvm::hash_code hashBody(GraphOp graph) {
  return hashGraphBody(
      graph, llvm::hash_combine(
                 graph.getFunctionType(), graph.getSymbolicDimsAttr(),
                 graph.getIsDeviceGraph(), graph.getKernelLibrariesAttr()));
}

struct ShareSubgraphsPass
    : public maxgraph::impl::ShareSubgraphsBase<ShareSubgraphsPass> {
  void runOnOperation() override {
    // Merging callees can make their callers identical: repeat until a round
    // merges nothing (at most once per level of call nesting).
    bool mergedAny = false;
    while (true) {
      FailureOr<bool> merged = mergeOnce();
      if (failed(merged))
        return signalPassFailure();
      if (!*merged)
        break;
      mergedAny = true;
    }
    if (!mergedAny)
      markAllAnalysesPreserved();
  }

  /// One round of merging; returns whether anything merged.
  FailureOr<bool> mergeOnce() {
    ModuleOp module = getOperation();
    DenseMap<llvm::hash_code, SmallVector<GraphOp, 1>> buckets;
    // Duplicate name -> kept name.
    SmallVector<std::pair<GraphOp, StringAttr>> merges;
    for (GraphOp graph : module.getOps<GraphOp>()) {
      if (!graph.getIsSubgraph() || graph.getBody().empty())
        continue;
      SmallVector<GraphOp, 1> &bucket = buckets[hashBody(graph)];
      GraphOp *kept = llvm::find_if(bucket, [&](GraphOp candidate) {
        return haveSameSignature(candidate, graph) &&
               OperationEquivalence::isRegionEquivalentTo(
                   &candidate.getBody(), &graph.getBody(),
                   OperationEquivalence::IgnoreLocations);
      });
      if (kept == bucket.end()) {
        bucket.push_back(graph);
        continue;
      }
      merges.emplace_back(graph, kept->getSymNameAttr());
    }
    if (merges.empty())
      return false;

    // One walk over the calls rewrites every merged callee.
    DenseMap<StringAttr, StringAttr> replacement;
    for (auto [duplicate, kept] : merges)
      replacement[duplicate.getSymNameAttr()] = kept;
    module.walk([&](CallOp call) {
      if (StringAttr kept = replacement.lookup(call.getCalleeAttr().getAttr()))
        call.setCalleeAttr(FlatSymbolRefAttr::get(kept));
    });
    // Anything else still naming a duplicate (one walk for all of them).
    llvm::DenseSet<StringAttr> stillUsed;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *uses)
        stillUsed.insert(use.getSymbolRef().getRootReference());
    for (auto [duplicate, kept] : merges) {
      if (stillUsed.contains(duplicate.getSymNameAttr())) {
        duplicate.emitError() << "@" << duplicate.getSymName()
                              << " is identical to @" << kept.getValue()
                              << " but is referenced by something other "
                                 "than maxgraph.call; it was kept";
        return failure();
      }
      duplicate.erase();
    }
    return true;
  }
};
} // namespace
