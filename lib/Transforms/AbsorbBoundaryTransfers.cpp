//===- AbsorbBoundaryTransfers.cpp - host-GPU transfers at a graph's edges ===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A GPU graph's host inputs are copied to the device by the runtime, and a
// result comes back where its layout says: a transfer between the host and
// a GPU at the graph's edge is that copy, so it moves into the signature
// and the graph is left on one GPU, as the GPU lowering needs.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"

namespace maxgraph {
#define GEN_PASS_DEF_ABSORBBOUNDARYTRANSFERS
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
DeviceAttr deviceOf(Type type) {
  auto layout = dyn_cast<LayoutType>(type);
  return layout ? layout.getDevice() : DeviceAttr();
}

bool onHost(Type type) {
  DeviceAttr device = deviceOf(type);
  return device && device.getKind() == DeviceKind::cpu;
}

bool onGpu(Type type) {
  DeviceAttr device = deviceOf(type);
  return device && device.isGpu();
}

struct AbsorbBoundaryTransfers
    : maxgraph::impl::AbsorbBoundaryTransfersBase<AbsorbBoundaryTransfers> {
  void runOnOperation() override {
    GraphOp graph = getOperation();
    if (graph.getBody().empty() || graph.getIsSubgraph())
      return;
    Block &body = graph.getBody().front();
    SmallVector<Type> argumentTypes(graph.getArgumentTypes());
    SmallVector<Type> resultTypes(graph.getResultTypes());

    // Arguments: every use a transfer of the host data to one GPU.
    for (BlockArgument argument : body.getArguments()) {
      if (!onHost(argument.getType()) ||
          !isa<TensorLayoutType>(argument.getType()) || argument.use_empty())
        continue;
      Type target;
      bool absorbable = llvm::all_of(argument.getUsers(), [&](Operation *op) {
        auto transfer = dyn_cast<TransferOp>(op);
        if (!transfer || !onGpu(transfer.getType()) ||
            (target && transfer.getType() != target))
          return false;
        target = transfer.getType();
        return true;
      });
      if (!absorbable)
        continue;
      argument.setType(target);
      argumentTypes[argument.getArgNumber()] = target;
      for (Operation *user : llvm::make_early_inc_range(argument.getUsers())) {
        user->getResult(0).replaceAllUsesWith(argument);
        user->erase();
      }
    }

    // Results: made by a transfer from a GPU to the host.
    auto output = cast<OutputOp>(body.getTerminator());
    for (OpOperand &operand : output->getOpOperands()) {
      auto transfer = operand.get().getDefiningOp<TransferOp>();
      if (!transfer || !onHost(transfer.getType()) ||
          !onGpu(transfer.getInput().getType()))
        continue;
      operand.set(transfer.getInput());
      resultTypes[operand.getOperandNumber()] = transfer.getInput().getType();
      if (transfer->use_empty())
        transfer->erase();
    }

    graph.setFunctionType(
        FunctionType::get(&getContext(), argumentTypes, resultTypes));
  }
};
} // namespace
