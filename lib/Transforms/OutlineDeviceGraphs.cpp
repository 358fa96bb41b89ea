//===- OutlineDeviceGraphs.cpp - move device work into device graphs ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Splits the device work of a graph into `is_device_graph` subgraphs: every
// maximal contiguous run of ops that compute on one non-host device becomes
// a graph of its own, called from the parent through `maxgraph.call`, while
// transfers, host ops and ops with effects stay in the parent. Device graphs
// that exist already are checked against the device-graph contract.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/SymbolicDims.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"

namespace maxgraph {
#define GEN_PASS_DEF_OUTLINEDEVICEGRAPHS
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
/// The non-host device `op` computes on when it may join a device graph: a
/// side-effect-free op without regions whose operands and results are all
/// tensors on that one device with no `?` dim (device graphs are recorded for
/// fixed shapes). Transfers, calls (their callee is not inspected), custom
/// kernels and collectives are never moved, whatever their types say.
std::optional<DeviceAttr> getOutlinableDevice(Operation &op) {
  if (op.getNumRegions() != 0 || op.getNumResults() == 0 ||
      op.hasTrait<OpTrait::IsTerminator>() ||
      isa<TransferOp, CallOp, CustomOp, AllReduceOp, AllGatherOp,
          ReduceScatterOp, BroadcastOp>(op) ||
      !isMemoryEffectFree(&op))
    return std::nullopt;
  DeviceAttr device;
  auto isOnDevice = [&](Type type) {
    auto tensor = dyn_cast<TensorLayoutType>(type);
    if (!tensor || (device && tensor.getDevice() != device) ||
        llvm::any_of(tensor.getDims(),
                     [](DimAttr dim) { return dim.getUnknown(); }))
      return false;
    device = tensor.getDevice();
    return true;
  };
  if (!llvm::all_of(op.getOperandTypes(), isOnDevice) ||
      !llvm::all_of(op.getResultTypes(), isOnDevice) || device.isHost())
    return std::nullopt;
  return device;
}

/// Collects the symbolic names `type` mentions.
void collectSymbols(Type type, llvm::SetVector<StringAttr> &symbols) {
  if (auto layout = dyn_cast<LayoutType>(type))
    for (DimAttr dim : layout.getDims())
      dim.collectSymbols(symbols);
}

/// Outlines the device runs of one graph at a time.
class Outliner {
public:
  Outliner(SymbolTable &symbols, int64_t minOps)
      : symbols(symbols), minOps(std::max<int64_t>(minOps, 1)) {}

  void outlineGraph(GraphOp graph) {
    parent = graph;
    insertPoint = std::next(graph->getIterator());
    SmallVector<SmallVector<Operation *>> runs;
    DeviceAttr runDevice;
    for (Operation &op : graph.getBody().front().without_terminator()) {
      std::optional<DeviceAttr> device = getOutlinableDevice(op);
      if (!device) {
        runDevice = {};
        continue;
      }
      if (*device != runDevice)
        runs.emplace_back();
      runs.back().push_back(&op);
      runDevice = *device;
    }
    for (ArrayRef<Operation *> run : runs)
      if (static_cast<int64_t>(run.size()) >= minOps)
        outlineRun(run);
  }

private:
  /// `<graph>_device_graph`, then `<graph>_device_graph_1`, ...
  std::string uniqueName() {
    std::string base = (parent.getSymName() + "_device_graph").str();
    std::string name = base;
    for (unsigned suffix = 1; symbols.lookup(name); ++suffix)
      name = base + "_" + std::to_string(suffix);
    return name;
  }

  /// Moves `run` into a new device graph and calls it in its place. Leaves
  /// the run alone when it computes nothing used after it, or when the
  /// outlined body would not verify (see buildGraph).
  void outlineRun(ArrayRef<Operation *> run) {
    llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
    llvm::SetVector<Value> inputs;
    SmallVector<Value> outputs;
    for (Operation *op : run) {
      for (Value operand : op->getOperands())
        if (!inRun.contains(operand.getDefiningOp()))
          inputs.insert(operand);
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !inRun.contains(user);
            }))
          outputs.push_back(result);
    }
    if (outputs.empty())
      return;

    SmallVector<Location> locations =
        llvm::map_to_vector(run, [](Operation *op) { return op->getLoc(); });
    Location loc = FusedLoc::get(parent.getContext(), locations);
    GraphOp graph = buildGraph(run, inputs.getArrayRef(), outputs, loc);
    if (!graph)
      return;
    symbols.insert(graph, insertPoint);
    insertPoint = std::next(graph->getIterator());

    OpBuilder builder(run.back()->getContext());
    builder.setInsertionPointAfter(run.back());
    SmallVector<Type> resultTypes = llvm::map_to_vector(
        outputs, [](Value value) { return value.getType(); });
    auto call = CallOp::create(builder, loc, resultTypes, graph.getSymName(),
                               inputs.getArrayRef(), ArrayAttr(), ArrayAttr());
    for (auto [output, result] : llvm::zip_equal(outputs, call.getResults()))
      output.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !inRun.contains(use.getOwner());
      });
    for (Operation *op : llvm::reverse(run)) {
      assert(op->use_empty() && "a value of the run is still used");
      op->erase();
    }
  }

  /// Builds the detached device graph for `run`: `inputs` become its
  /// arguments, `outputs` its results. Graph arguments cannot have algebraic
  /// dims, so each algebraic dim of an input (`batch * 2`) becomes a fresh
  /// symbol `__dN` that the call binds to it; ops in the body are retyped in
  /// terms of those symbols. Returns null (leaving the IR as it was) when the
  /// body does not verify that way or its results do not map back to the
  /// outputs' types.
  GraphOp buildGraph(ArrayRef<Operation *> run, ArrayRef<Value> inputs,
                     ArrayRef<Value> outputs, Location loc) {
    MLIRContext *context = parent.getContext();
    llvm::SetVector<StringAttr> taken;
    for (Operation *op : run) {
      for (Type type : op->getOperandTypes())
        collectSymbols(type, taken);
      for (Type type : op->getResultTypes())
        collectSymbols(type, taken);
    }

    DenseMap<DimAttr, DimAttr> freshFor;
    DenseMap<StringAttr, DimAttr> bindings;
    unsigned next = 0;
    auto freshen = [&](DimAttr dim) {
      if (!dim.isAlgebraic())
        return dim;
      auto [it, inserted] = freshFor.try_emplace(dim);
      if (inserted) {
        StringAttr name;
        do
          name = StringAttr::get(context, "__d" + std::to_string(next++));
        while (taken.contains(name));
        it->second = DimAttr::getSymbol(context, name.getValue());
        bindings[name] = dim;
      }
      return it->second;
    };
    auto freshenType = [&](Type type) -> Type {
      auto layout = dyn_cast<LayoutType>(type);
      if (!layout)
        return type;
      SmallVector<DimAttr> dims =
          llvm::map_to_vector(layout.getDims(), freshen);
      return layout.cloneLayout(dims, layout.getElementType(),
                                layout.getDevice());
    };

    SmallVector<Type> argumentTypes;
    SmallVector<Location> argumentLocs;
    llvm::SetVector<StringAttr> declared;
    for (Value input : inputs) {
      argumentTypes.push_back(freshenType(input.getType()));
      argumentLocs.push_back(input.getLoc());
      collectSymbols(argumentTypes.back(), declared);
    }
    // Within the body, an algebraic dim is known only as its symbol.
    auto renamed = [&](Type type) -> Type {
      auto layout = dyn_cast<LayoutType>(type);
      if (!layout)
        return type;
      SmallVector<DimAttr> dims =
          llvm::map_to_vector(layout.getDims(), [&](DimAttr dim) {
            return freshFor.lookup(dim) ? freshFor.lookup(dim) : dim;
          });
      return layout.cloneLayout(dims, layout.getElementType(),
                                layout.getDevice());
    };

    OpBuilder builder(context);
    auto graph =
        GraphOp::create(builder, loc, uniqueName(),
                        FunctionType::get(context, argumentTypes, TypeRange()));
    graph.setIsSubgraph(true);
    graph.setIsDeviceGraph(true);
    if (!declared.empty())
      graph.setSymbolicDimsAttr(builder.getArrayAttr(
          SmallVector<Attribute>(declared.begin(), declared.end())));
    Block *body =
        builder.createBlock(&graph.getBody(), {}, argumentTypes, argumentLocs);
    IRMapping mapping;
    mapping.map(inputs, body->getArguments());
    bool retyped = true;
    for (Operation *op : run) {
      Operation *clone = builder.clone(*op, mapping);
      if (freshFor.empty())
        continue;
      SmallVector<Type> types;
      if (auto infer = dyn_cast<InferTypeOpInterface>(clone)) {
        retyped &= succeeded(infer.inferReturnTypes(
            context, std::nullopt, clone->getOperands(),
            clone->getRawDictionaryAttrs(), clone->getPropertiesStorage(),
            clone->getRegions(), types));
      } else {
        types = llvm::map_to_vector(clone->getResultTypes(), renamed);
      }
      retyped &= types.size() == clone->getNumResults();
      if (!retyped)
        break;
      for (auto [result, type] : llvm::zip_equal(clone->getResults(), types))
        result.setType(type);
    }
    if (!retyped) {
      graph->erase();
      return {};
    }
    SmallVector<Value> results = llvm::map_to_vector(
        outputs, [&](Value output) { return mapping.lookup(output); });
    OutputOp::create(builder, loc, results);
    SmallVector<Type> resultTypes = llvm::map_to_vector(
        results, [](Value result) { return result.getType(); });
    graph.setFunctionType(
        FunctionType::get(context, argumentTypes, resultTypes));

    // The call binds each `__dN` back to its dim; the results must then have
    // exactly the types the parent's users expect.
    auto lookup = [&](StringAttr name) { return bindings.lookup(name); };
    bool bindsBack =
        llvm::all_of(llvm::zip_equal(resultTypes, outputs), [&](auto pair) {
          return substituteDims(std::get<0>(pair), lookup) ==
                 std::get<1>(pair).getType();
        });
    bool verifies = false;
    if (bindsBack) {
      ScopedDiagnosticHandler silence(context,
                                      [](Diagnostic &) { return success(); });
      verifies = succeeded(mlir::verify(graph));
    }
    if (!verifies) {
      graph->erase();
      return {};
    }
    return graph;
  }

  SymbolTable &symbols;
  int64_t minOps;
  GraphOp parent;
  Block::iterator insertPoint;
};

struct OutlineDeviceGraphsPass
    : public maxgraph::impl::OutlineDeviceGraphsBase<OutlineDeviceGraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    Outliner outliner(symbols, minOps);
    // Snapshot first: the graphs created are device graphs, never split.
    SmallVector<GraphOp> graphs =
        llvm::filter_to_vector(module.getOps<GraphOp>(), [](GraphOp graph) {
          return !graph.getIsDeviceGraph() && !graph.getBody().empty();
        });
    for (GraphOp graph : graphs)
      outliner.outlineGraph(graph);

    // Check the device graphs that were there, and (as a self-check) the new
    // ones, with the contract of maxgraph-verify-device-graphs.
    OpPassManager verify(ModuleOp::getOperationName());
    verify.addNestedPass<GraphOp>(createVerifyDeviceGraphs());
    if (failed(runPipeline(verify, module)))
      signalPassFailure();
  }
};
} // namespace
