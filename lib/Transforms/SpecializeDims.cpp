//===- SpecializeDims.cpp - bind symbolic dims to sizes -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/SymbolicDims.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/MapVector.h"

namespace maxgraph {
#define GEN_PASS_DEF_SPECIALIZEDIMS
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
struct SpecializeDimsPass
    : public maxgraph::impl::SpecializeDimsBase<SpecializeDimsPass> {
  using Base::Base;

  /// Parses `dims` into name -> static dim.
  LogicalResult parseBindings(llvm::MapVector<StringAttr, DimAttr> &bindings) {
    MLIRContext *context = &getContext();
    for (const std::string &binding : dims) {
      auto [name, size] = StringRef(binding).split('=');
      int64_t value;
      if (name.trim().empty() || size.trim().getAsInteger(10, value) ||
          value < 0)
        return getOperation().emitError()
               << "maxgraph-specialize-dims: expected NAME=SIZE with a "
                  "non-negative size, got '"
               << binding << "'";
      StringAttr key = StringAttr::get(context, name.trim());
      if (!bindings.try_emplace(key, DimAttr::getStatic(context, value)).second)
        return getOperation().emitError()
               << "maxgraph-specialize-dims: '" << key.getValue()
               << "' is bound twice";
    }
    return success();
  }

  void runOnOperation() override {
    llvm::MapVector<StringAttr, DimAttr> bindings;
    if (failed(parseBindings(bindings)))
      return signalPassFailure();
    if (bindings.empty())
      return markAllAnalysesPreserved();

    // Only entry graphs (those no `maxgraph.call` targets) are specialized.
    // A callee keeps its signature: its calls bind its dims from the
    // caller's new operand types, so they verify as before, whereas
    // binding a callee's own dim would break every call that passes it a
    // different size (`@f<n>` called on `[batch]` and on `[batch * 2]`).
    llvm::SmallDenseSet<StringAttr> callees;
    getOperation().walk(
        [&](CallOp call) { callees.insert(call.getCalleeAttr().getAttr()); });

    llvm::SmallDenseSet<StringAttr> used;
    DenseMap<StringAttr, GraphOp> declaredByCallee;
    for (GraphOp graph : getOperation().getOps<GraphOp>()) {
      if (callees.contains(graph.getSymNameAttr())) {
        for (StringAttr name : graph.getSymbolicDimNames())
          declaredByCallee.try_emplace(name, graph);
        continue;
      }
      SmallVector<Attribute> remaining;
      bool specializes = false;
      for (StringAttr name : graph.getSymbolicDimNames()) {
        if (bindings.count(name)) {
          specializes = true;
          used.insert(name);
        } else {
          remaining.push_back(name);
        }
      }
      if (!specializes)
        continue;
      auto lookup = [&](StringAttr name) { return bindings.lookup(name); };
      auto substitute = [&](Type type) { return substituteDims(type, lookup); };
      graph.setFunctionType(FunctionType::get(
          &getContext(),
          llvm::map_to_vector(graph.getArgumentTypes(), substitute),
          llvm::map_to_vector(graph.getResultTypes(), substitute)));
      substituteDims(graph.getBody(), lookup);
      if (remaining.empty())
        graph.removeSymbolicDimsAttr();
      else
        graph.setSymbolicDimsAttr(ArrayAttr::get(&getContext(), remaining));
      // Ops re-check their operands: a static dim that contradicts a
      // binding is reported at its op.
      if (failed(mlir::verify(graph))) {
        graph.emitError() << "binding the symbolic dims of @"
                          << graph.getSymName()
                          << " contradicts the static dims reported above";
        return signalPassFailure();
      }
    }
    for (auto &[name, dim] : bindings) {
      if (used.contains(name))
        continue;
      if (GraphOp callee = declaredByCallee.lookup(name))
        callee.emitWarning()
            << "maxgraph-specialize-dims: no entry graph declares symbolic "
               "dim '"
            << name.getValue() << "'; @" << callee.getSymName()
            << " declares it but stays generic, as maxgraph.call targets it";
      else
        getOperation().emitWarning()
            << "maxgraph-specialize-dims: no graph declares symbolic dim '"
            << name.getValue() << "'";
    }
  }
};
} // namespace
