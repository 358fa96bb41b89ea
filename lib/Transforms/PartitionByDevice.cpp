//===- PartitionByDevice.cpp - one device's part of a multi-device graph --===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Keeps what device <kind>:<rank> runs (a process of an SPMD run on cpu:N,
// or a host thread of a graph over several GPUs): its arguments, ops and
// results, and its operand and result of each collective in the one-operand
// SPMD form.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

namespace maxgraph {
#define GEN_PASS_DEF_PARTITIONBYDEVICE
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
std::string deviceText(DeviceAttr device) {
  std::string text;
  llvm::raw_string_ostream os(text);
  device.printBare(os);
  return text;
}

DeviceAttr deviceOf(Type type) {
  auto layout = dyn_cast<LayoutType>(type);
  return layout ? layout.getDevice() : DeviceAttr();
}

/// The SPMD form of collective `op` for its operand `index`.
Operation *createSpmd(OpBuilder &b, Operation *op, unsigned index,
                      ArrayRef<int64_t> devices) {
  Location loc = op->getLoc();
  Value input = op->getOperand(index);
  if (auto c = dyn_cast<AllReduceOp>(op))
    return SpmdAllReduceOp::create(b, loc, input, c.getKind(), devices);
  if (auto c = dyn_cast<AllGatherOp>(op))
    return SpmdAllGatherOp::create(b, loc, input, c.getAxis(), devices);
  if (auto c = dyn_cast<ReduceScatterOp>(op))
    return SpmdReduceScatterOp::create(b, loc, input, c.getKind(), c.getAxis(),
                                       devices);
  auto c = cast<BroadcastOp>(op);
  return SpmdBroadcastOp::create(b, loc, input, c.getRoot(), devices);
}

struct PartitionByDevice
    : maxgraph::impl::PartitionByDeviceBase<PartitionByDevice> {
  using Base::Base;

  void runOnOperation() override {
    GraphOp graph = getOperation();
    std::optional<DeviceKind> parsed = symbolizeDeviceKind(kind);
    if (!parsed) {
      graph.emitError() << "maxgraph-partition-by-device: kind '" << kind
                        << "' is neither cpu nor gpu";
      return signalPassFailure();
    }
    deviceKind = *parsed;
    if (graph.getBody().empty())
      return;
    if (failed(partition(graph)))
      signalPassFailure();
  }

  /// The device whose part is kept, as messages name it.
  std::string keptDevice() const {
    return (stringifyDeviceKind(deviceKind) + ":" + llvm::Twine(rank)).str();
  }

  bool onRank(Type type) const {
    DeviceAttr device = deviceOf(type);
    return device && device.getKind() == deviceKind && device.getId() == rank;
  }

  LogicalResult checkDevice(Operation *op, Type type) const {
    DeviceAttr device = deviceOf(type);
    if (!device || device.getKind() == deviceKind)
      return success();
    if (deviceKind == DeviceKind::cpu)
      return op->emitOpError() << "has a value on " << deviceText(device)
                               << "; an SPMD partition runs cpu:N devices "
                                  "only, one process each";
    return op->emitOpError() << "has a value on " << deviceText(device)
                             << "; a graph over several GPUs keeps all its "
                                "values on GPUs (host data comes in as "
                                "arguments)";
  }

  DeviceKind deviceKind = DeviceKind::cpu;

  /// A transfer between two GPUs is a broadcast from the first to both:
  /// the sender's part broadcasts the value (and drops the result), the
  /// receiver's broadcasts zeros of its type, which the broadcast does not
  /// read, and takes the result. Symbolic dims must be bound by the
  /// receiver's arguments, as for any of its results.
  LogicalResult partitionTransfer(OpBuilder &builder, TransferOp transfer,
                                  DeviceAttr from, DeviceAttr to) {
    bool sends = from.getId() == rank, receives = to.getId() == rank;
    if (!sends && !receives)
      return success();
    auto type = cast<TensorLayoutType>(transfer.getType());
    // The receiver must know the size: static, or symbols its part binds
    // (the lowering says so when it does not).
    if (llvm::any_of(type.getDims(),
                     [](DimAttr dim) { return dim.getUnknown(); }))
      return transfer.emitOpError()
             << "moves a value with a dim of unknown size from "
             << deviceText(from) << " to " << deviceText(to)
             << "; the receiving GPU must know the size";
    if (receives) {
      // Its symbols come from the receiver's own arguments.
      llvm::SetVector<StringAttr> bound, needed;
      auto graph = transfer->getParentOfType<GraphOp>();
      for (Type argument : graph.getArgumentTypes())
        if (onRank(argument))
          for (DimAttr dim : cast<LayoutType>(argument).getDims())
            dim.collectSymbols(bound);
      for (DimAttr dim : type.getDims())
        dim.collectSymbols(needed);
      for (StringAttr symbol : needed)
        if (!bound.contains(symbol))
          return transfer.emitOpError()
                 << "moves a value of type " << type << " from "
                 << deviceText(from) << " to " << deviceText(to)
                 << ", and no argument on " << deviceText(to) << " binds '"
                 << symbol.getValue()
                 << "'; the receiving GPU must know the size";
    }
    SmallVector<int64_t> devices = {from.getId(), to.getId()};
    builder.setInsertionPoint(transfer);
    Location loc = transfer.getLoc();
    if (sends) {
      SpmdBroadcastOp::create(builder, loc, transfer.getInput(), /*root=*/0,
                              devices);
      return success();
    }
    // Zeros of the type: a constant, broadcast to the dims when they are
    // symbolic.
    bool isStatic = cast<ShapedType>(type).hasStaticShape();
    auto zerosType = isStatic ? type
                              : TensorLayoutType::get(ArrayRef<DimAttr>(),
                                                      type.getElementType(),
                                                      type.getDevice());
    auto zeros =
        DenseElementsAttr::get(cast<ShapedType>(zerosType),
                               builder.getZeroAttr(type.getElementType()));
    Value unread = ConstantOp::create(builder, loc, cast<ElementsAttr>(zeros));
    if (!isStatic)
      unread = BroadcastToOp::create(builder, loc, type, unread);
    auto received =
        SpmdBroadcastOp::create(builder, loc, unread, /*root=*/0, devices);
    transfer.getResult().replaceAllUsesWith(received.getResult());
    return success();
  }

  LogicalResult partition(GraphOp graph) {
    Block &body = graph.getBody().front();
    OpBuilder builder(graph.getContext());
    llvm::SetVector<Operation *> dropped;
    for (Operation &op : body) {
      if (isa<OutputOp>(op))
        continue;
      for (Type type : op.getResultTypes())
        if (failed(checkDevice(&op, type)))
          return failure();
      if (isa<CallOp>(op))
        return op.emitOpError()
               << "calls a subgraph; inline subgraphs "
                  "(maxgraph-inline-subgraphs) before partitioning by device";
      if (auto transfer = dyn_cast<TransferOp>(op)) {
        DeviceAttr from = deviceOf(transfer.getInput().getType());
        DeviceAttr to = deviceOf(transfer.getType());
        if (from != to && deviceKind == DeviceKind::gpu && from.isGpu() &&
            to.isGpu()) {
          if (failed(partitionTransfer(builder, transfer, from, to)))
            return failure();
          dropped.insert(&op);
          continue;
        }
        if (from != to)
          return op.emitOpError()
                 << "moves a value from " << deviceText(from) << " to "
                 << deviceText(to)
                 << "; between the parts of a graph over several devices "
                    "values cross only through collectives";
      }
      if (isCollective(&op)) {
        unsigned inputs = op.getNumResults();
        SmallVector<int64_t> devices;
        std::optional<unsigned> local;
        for (unsigned i = 0; i < inputs; ++i) {
          DeviceAttr device = deviceOf(op.getOperand(i).getType());
          devices.push_back(device.getId());
          if (onRank(op.getOperand(i).getType()))
            local = i;
        }
        dropped.insert(&op);
        if (!local)
          continue;
        builder.setInsertionPoint(&op);
        Operation *spmd = createSpmd(builder, &op, *local, devices);
        op.getResult(*local).replaceAllUsesWith(spmd->getResult(0));
        continue;
      }
      bool keep = op.getNumResults()
                      ? llvm::any_of(op.getResultTypes(),
                                     [&](Type type) { return onRank(type); })
                      : llvm::any_of(op.getOperandTypes(),
                                     [&](Type type) { return onRank(type); });
      if (!keep)
        dropped.insert(&op);
    }

    // The results on the device, in order.
    auto output = cast<OutputOp>(body.getTerminator());
    llvm::BitVector droppedResults(output.getNumOperands());
    SmallVector<Value> kept;
    for (auto [index, value] : llvm::enumerate(output.getOperands())) {
      if (onRank(value.getType()))
        kept.push_back(value);
      else
        droppedResults.set(index);
    }
    output->setOperands(kept);

    for (Operation *op : llvm::reverse(dropped)) {
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          if (!dropped.contains(user))
            return user->emitOpError()
                   << "uses a value of another device than " << keptDevice()
                   << " without a collective";
      op->dropAllUses();
      op->erase();
    }

    llvm::BitVector droppedArgs(graph.getNumArguments());
    for (BlockArgument argument : body.getArguments()) {
      if (onRank(argument.getType()))
        continue;
      for (Operation *user : argument.getUsers())
        return user->emitOpError()
               << "uses argument " << argument.getArgNumber()
               << " of another device than " << keptDevice()
               << " without a collective";
      droppedArgs.set(argument.getArgNumber());
    }
    auto filter = [&](std::optional<ArrayAttr> names,
                      const llvm::BitVector &drop) -> ArrayAttr {
      if (!names)
        return nullptr;
      SmallVector<Attribute> left;
      for (auto [index, name] : llvm::enumerate(*names))
        if (!drop.test(index))
          left.push_back(name);
      return ArrayAttr::get(graph.getContext(), left);
    };
    ArrayAttr argumentNames = filter(graph.getArgumentNames(), droppedArgs);
    ArrayAttr resultNames = filter(graph.getResultNames(), droppedResults);
    if (failed(graph.eraseArguments(droppedArgs)) ||
        failed(graph.eraseResults(droppedResults)))
      return graph.emitOpError() << "cannot drop the other devices' arguments";
    if (argumentNames)
      graph.setArgumentNamesAttr(argumentNames);
    if (resultNames)
      graph.setResultNamesAttr(resultNames);
    return success();
  }
};
} // namespace
