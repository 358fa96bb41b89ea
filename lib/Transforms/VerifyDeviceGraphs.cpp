//===- VerifyDeviceGraphs.cpp - check the device-graph contract -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A graph marked `is_device_graph` is recorded once and replayed as one unit
// on its device. That only works when every value lives on that one device,
// no data crosses to the host or another device inside it, every shape is
// known when it is recorded, and no kernel in it runs on the host. This pass
// reports every breach of that contract at the op that commits it.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"

namespace maxgraph {
#define GEN_PASS_DEF_VERIFYDEVICEGRAPHS
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
/// `gpu:0` for a device, without the attribute wrapper.
std::string formatDevice(DeviceAttr device) {
  std::string text;
  llvm::raw_string_ostream os(text);
  device.printBare(os);
  return text;
}

bool hasUnknownDim(LayoutType layout) {
  return llvm::any_of(layout.getDims(),
                      [](DimAttr dim) { return dim.getUnknown(); });
}

/// Checks one device graph, reporting each violation; fails if any was found.
class DeviceGraphChecker {
public:
  explicit DeviceGraphChecker(GraphOp graph) : graph(graph) {}

  LogicalResult check() {
    findDevice();
    Block &body = graph.getBody().front();
    for (BlockArgument arg : body.getArguments())
      checkArgument(arg);
    for (Operation &op : body.without_terminator())
      checkOp(op);
    return failure(foundViolation);
  }

private:
  /// The graph's device is the device of its first layout value: an argument,
  /// else an op result. Messages name that value so that a wrong first value
  /// is easy to spot.
  void findDevice() {
    Block &body = graph.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      if (auto layout = dyn_cast<LayoutType>(arg.getType())) {
        device = layout.getDevice();
        deviceSource = "argument " + std::to_string(arg.getArgNumber());
        return;
      }
    }
    for (Operation &op : body.without_terminator()) {
      for (OpResult result : op.getResults()) {
        if (auto layout = dyn_cast<LayoutType>(result.getType())) {
          device = layout.getDevice();
          deviceSource = "the first op result, of '" +
                         op.getName().getStringRef().str() + "'";
          return;
        }
      }
    }
  }

  InFlightDiagnostic report(Operation *op) {
    foundViolation = true;
    return op->emitError() << "device graph @" << graph.getSymName() << ": ";
  }

  std::string describeDevice() const {
    return formatDevice(device) + " (the device of " + deviceSource + ")";
  }

  void checkArgument(BlockArgument arg) {
    auto layout = dyn_cast<LayoutType>(arg.getType());
    if (!layout)
      return;
    if (layout.getDevice() != device)
      report(graph) << "argument " << arg.getArgNumber() << " is on "
                    << formatDevice(layout.getDevice())
                    << " but the graph runs on " << describeDevice()
                    << "; a device graph runs on one device";
    if (hasUnknownDim(layout))
      report(graph) << "argument " << arg.getArgNumber() << " has type "
                    << layout
                    << " with an unknown '?' dim; a device graph is recorded "
                       "once for fixed shapes (symbolic dims are fine)";
  }

  void checkOp(Operation &op) {
    if (isa<TransferOp>(op)) {
      report(&op) << "'maxgraph.transfer' inside a device graph; a device "
                     "graph cannot exchange data with the host or other "
                     "devices, so transfer before calling it or after it "
                     "returns";
      return;
    }
    if (auto custom = dyn_cast<CustomOp>(op)) {
      auto isOnHost = [](Type type) {
        auto layout = dyn_cast<LayoutType>(type);
        return layout && layout.getDevice().isHost();
      };
      if (llvm::any_of(custom->getOperandTypes(), isOnHost) ||
          llvm::any_of(custom->getResultTypes(), isOnHost)) {
        report(&op) << "custom kernel '" << custom.getKernel()
                    << "' runs on the host cpu:0; a device graph cannot "
                       "replay host kernels, so call it outside the graph";
        return;
      }
    }
    // One report per kind and op, naming the first offending result.
    for (OpResult result : op.getResults()) {
      auto layout = dyn_cast<LayoutType>(result.getType());
      if (!layout || layout.getDevice() == device)
        continue;
      report(&op) << "result " << result.getResultNumber() << " of '"
                  << op.getName() << "' is on "
                  << formatDevice(layout.getDevice())
                  << " but the graph runs on " << describeDevice()
                  << "; a device graph runs on one device";
      break;
    }
    for (OpResult result : op.getResults()) {
      auto layout = dyn_cast<LayoutType>(result.getType());
      if (!layout || !hasUnknownDim(layout))
        continue;
      report(&op) << "result " << result.getResultNumber() << " of '"
                  << op.getName() << "' has type " << layout
                  << " with an unknown '?' dim; a device graph is recorded "
                     "once for fixed shapes (symbolic dims are fine)";
      break;
    }
  }

  GraphOp graph;
  DeviceAttr device;
  std::string deviceSource;
  bool foundViolation = false;
};

struct VerifyDeviceGraphsPass
    : public maxgraph::impl::VerifyDeviceGraphsBase<VerifyDeviceGraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    GraphOp graph = getOperation();
    markAllAnalysesPreserved();
    if (!graph.getIsDeviceGraph() || graph.getBody().empty())
      return;
    if (failed(DeviceGraphChecker(graph).check()))
      signalPassFailure();
  }
};
} // namespace
