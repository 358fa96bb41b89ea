//===- Executable.cpp - compile a graph for the device it is on -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Compiler/Executable.h"
#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Compiler/GpuExecutable.h"
#include "MaxGraph/Compiler/MultiGpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/GraphInputs.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include <cstdlib>

using namespace mlir;
using namespace maxgraph;

Executable::~Executable() = default;

namespace {
/// A graph whose host inputs move to a GPU and whose results move back, by
/// transfers at its edges that maxgraph-absorb-boundary-transfers moved into
/// the signature of the GPU graph it runs: the inputs are checked against
/// the staged signature (on the host), and the results that it puts on the
/// host are copied there.
class BoundaryTransfers : public Executable {
public:
  BoundaryTransfers(std::unique_ptr<Executable> onGpu, GraphOp staged,
                    GraphOp absorbed)
      : onGpu(std::move(onGpu)), staged(describeGraphInputs(staged)) {
    fromCache = this->onGpu->loadedFromCache();
    for (auto [before, after] : llvm::zip_equal(staged.getArgumentTypes(),
                                                absorbed.getArgumentTypes()))
      argumentDevices.push_back(deviceOf(before) != deviceOf(after)
                                    ? std::optional(deviceOf(after))
                                    : std::nullopt);
    for (auto [before, after] :
         llvm::zip_equal(staged.getResultTypes(), absorbed.getResultTypes()))
      resultDevices.push_back(deviceOf(before) != deviceOf(after)
                                  ? std::optional(deviceOf(before))
                                  : std::nullopt);
  }

  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs,
                              const InputCheckOptions &checks) const override {
    checkGraphInputs(staged, inputs, checks);
    std::vector<HostTensor> moved;
    moved.reserve(inputs.size());
    for (auto [input, device] : llvm::zip_equal(inputs, argumentDevices))
      moved.push_back(device && !input.isOnDevice() ? input.withDevice(*device)
                                                    : input);
    std::vector<HostTensor> results = onGpu->run(moved, InputCheckOptions());
    for (auto [result, device] : llvm::zip_equal(results, resultDevices))
      if (device)
        result = result.to(CPU()).withDevice(*device);
    return results;
  }

  const GraphInputs &arguments() const override { return staged; }

private:
  static Device deviceOf(Type type) {
    DeviceAttr device = cast<LayoutType>(type).getDevice();
    int id = static_cast<int>(device.getId());
    return device.isGpu() ? GPU(id) : CPU(id);
  }

  std::unique_ptr<Executable> onGpu;
  GraphInputs staged;
  /// Per argument, the GPU it moved to; per result, the host device it
  /// moves back to.
  std::vector<std::optional<Device>> argumentDevices, resultDevices;
};

} // namespace

std::unique_ptr<Executable>
Executable::compile(ModuleOp module, StringRef name,
                    const ExecutableOptions &options) {
  GraphOp graph = detail::findEntryGraph(module, name);
  if (detail::devicesOf(graph, DeviceKind::gpu).empty())
    return CpuExecutable::compile(module, graph.getSymName());
  std::string runtime = options.gpuRuntime;
  if (runtime.empty()) {
    const char *fromEnvironment = std::getenv("MAXGRAPH_GPU_RUNTIME");
    runtime = fromEnvironment && *fromEnvironment ? fromEnvironment : "cuda";
  }
  auto compileOnGpu = [&](ModuleOp on) -> std::unique_ptr<Executable> {
    if (MultiGpuExecutable::spansSeveralGpus(on, graph.getSymName()))
      return MultiGpuExecutable::compile(on, graph.getSymName(), runtime);
    return GpuExecutable::compile(on, graph.getSymName(), runtime);
  };
  // Transfers between the host and a GPU at the graph's edges are the
  // runtime's copies.
  OwningOpRef<ModuleOp> absorbed = module.clone();
  GraphOp absorbedGraph = detail::findEntryGraph(*absorbed, graph.getSymName());
  PassManager pm(absorbed->getContext(), GraphOp::getOperationName());
  pm.addPass(createAbsorbBoundaryTransfers());
  if (failed(pm.run(absorbedGraph)))
    throw RuntimeError("compile: @" + graph.getSymName().str() +
                       ": moving the transfers at its edges failed");
  if (absorbedGraph.getFunctionType() == graph.getFunctionType())
    return compileOnGpu(module);
  return std::make_unique<BoundaryTransfers>(compileOnGpu(*absorbed), graph,
                                             absorbedGraph);
}
