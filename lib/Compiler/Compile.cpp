//===- Compile.cpp - graphs compiled into executable images ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver: which target a graph compiles for (the host CPU, one GPU,
// several GPUs), the transfers at a GPU graph's edges turned into the
// runtime's moves, and the image loaded.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Compiler/MultiGpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/GraphInputs.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Transforms/Passes.h"
#include "TargetCompiler.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// The device of layout `type`.
Device deviceOf(Type type) {
  DeviceAttr device = cast<LayoutType>(type).getDevice();
  int id = static_cast<int>(device.getId());
  return device.isGpu() ? GPU(id) : CPU(id);
}

/// The runtime that `options` name for GPU graphs.
std::string gpuRuntimeOf(const ExecutableOptions &options) {
  return options.gpuRuntime.empty() ? defaultGpuRuntimeName()
                                    : options.gpuRuntime;
}

/// A GPU graph after maxgraph-absorb-boundary-transfers: the module to
/// compile and the moves at its edges (none when nothing moved).
struct OnGpu {
  OwningOpRef<ModuleOp> absorbed;
  std::optional<ExecutableImage::Boundary> moves;
};

/// Transfers between the host and a GPU at the edges of `graph` become the
/// runtime's copies.
OnGpu absorbBoundaryTransfers(ModuleOp module, GraphOp graph) {
  OnGpu result;
  result.absorbed = module.clone();
  GraphOp absorbed = findEntryGraph(*result.absorbed, graph.getSymName());
  PassManager pm(result.absorbed->getContext(), GraphOp::getOperationName());
  pm.addPass(createAbsorbBoundaryTransfers());
  if (failed(pm.run(absorbed)))
    throw RuntimeError("compile: @" + graph.getSymName().str() +
                       ": moving the transfers at its edges failed");
  if (absorbed.getFunctionType() == graph.getFunctionType())
    return result;
  ExecutableImage::Boundary moves;
  moves.staged = describeGraphInputs(graph);
  for (auto [before, after] :
       llvm::zip_equal(graph.getArgumentTypes(), absorbed.getArgumentTypes()))
    moves.argumentDevices.push_back(deviceOf(before) != deviceOf(after)
                                        ? std::optional(deviceOf(after))
                                        : std::nullopt);
  for (auto [before, after] :
       llvm::zip_equal(graph.getResultTypes(), absorbed.getResultTypes()))
    moves.resultDevices.push_back(deviceOf(before) != deviceOf(after)
                                      ? std::optional(deviceOf(before))
                                      : std::nullopt);
  result.moves = std::move(moves);
  return result;
}

/// Throws the compile error for a GPU runtime that cannot run `graph`.
void checkAvailable(StringRef runtime, GraphOp graph) {
  std::set<int64_t> gpus = devicesOf(graph, DeviceKind::gpu);
  for (int64_t gpu : gpus) {
    std::string why = GpuExecutable::unavailable(runtime, static_cast<int>(gpu),
                                                 graph.getSymName());
    if (!why.empty())
      throw RuntimeError("compile: " + why);
  }
}
} // namespace

/// Whether environment variable `name` is set to anything but "" or "0".
static bool flagSet(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && StringRef(value) != "0";
}

bool maxgraph::profileRequested() { return flagSet("MAXGRAPH_PROFILE"); }

bool maxgraph::compileTimingRequested() {
  return flagSet("MAXGRAPH_COMPILE_TIMING");
}

bool maxgraph::verifyEachPassRequested() {
  return flagSet("MAXGRAPH_VERIFY_EACH_PASS");
}

ExecutableImage maxgraph::compileImage(ModuleOp module, StringRef name,
                                       const ExecutableOptions &options) {
  GraphOp graph = findEntryGraph(module, name);
  if (devicesOf(graph, DeviceKind::gpu).empty())
    return compileCpuImage(module, graph);
  if (MultiGpuExecutable::spansSeveralGpus(module, graph.getSymName()))
    throw RuntimeError(
        "compile: @" + graph.getSymName().str() +
        " runs on several GPUs, and an executable image holds the code of "
        "one device; compileExecutable runs it as one image per GPU");
  OnGpu onGpu = absorbBoundaryTransfers(module, graph);
  ExecutableImage image = compileGpuImage(
      *onGpu.absorbed, findEntryGraph(*onGpu.absorbed, graph.getSymName()),
      gpuRuntimeOf(options), options.gpuPipelineOptions);
  image.boundary = std::move(onGpu.moves);
  return image;
}

void maxgraph::partitionForDevice(ModuleOp module, StringRef name,
                                  DeviceKind kind, int64_t id) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(
      module.getContext(), [&](Diagnostic &diagnostic) {
        llvm::raw_string_ostream os(diagnostics);
        os << "\n";
        if (auto at = dyn_cast<FileLineColLoc>(diagnostic.getLocation()))
          os << at.getFilename().getValue() << ":" << at.getLine() << ":"
             << at.getColumn() << ": ";
        os << diagnostic.str();
        return success();
      });
  // Subgraphs inlined, then the entry graph alone partitioned: the module's
  // other graphs are not this run's.
  PassManager inliner(module.getContext());
  inliner.addPass(createInlineSubgraphs());
  PassManager partitioner(module.getContext(), GraphOp::getOperationName());
  PartitionByDeviceOptions options;
  options.kind = stringifyDeviceKind(kind).str();
  options.rank = id;
  partitioner.addPass(createPartitionByDevice(options));
  std::string device =
      stringifyDeviceKind(kind).str() + ":" + std::to_string(id);
  if (failed(inliner.run(module)) ||
      failed(partitioner.run(findEntryGraph(module, name))))
    throw RuntimeError("compile: partitioning @" + name.str() + " for " +
                       device + " failed:" + diagnostics);
}

std::unique_ptr<Executable>
maxgraph::compileExecutable(ModuleOp module, StringRef name,
                            const ExecutableOptions &options) {
  if (options.spmdRank) {
    // This rank's part, compiled as a graph of its own.
    OwningOpRef<ModuleOp> part = module.clone();
    StringRef graphName = findEntryGraph(module, name).getSymName();
    partitionForDevice(*part, graphName, DeviceKind::cpu, *options.spmdRank);
    ExecutableOptions whole = options;
    whole.spmdRank.reset();
    return compileExecutable(*part, graphName, whole);
  }
  GraphOp graph = findEntryGraph(module, name);
  if (!devicesOf(graph, DeviceKind::gpu).empty()) {
    std::string runtime = gpuRuntimeOf(options);
    // Several GPUs: MultiGpuExecutable checks what it runs with first, and
    // each GPU's runtime before its part is compiled.
    if (MultiGpuExecutable::spansSeveralGpus(module, graph.getSymName())) {
      OnGpu onGpu = absorbBoundaryTransfers(module, graph);
      std::unique_ptr<Executable> parts = MultiGpuExecutable::compile(
          *onGpu.absorbed, graph.getSymName(), runtime);
      if (!onGpu.moves)
        return parts;
      return withBoundaryMoves(std::move(parts), std::move(*onGpu.moves));
    }
    if (runtime == "opencl" || runtime == "cuda")
      checkAvailable(runtime, graph);
  }
  auto image = std::make_shared<ExecutableImage>(
      compileImage(module, graph.getSymName(), options));
  return Executable::load(std::move(image), "compile");
}

std::unique_ptr<CpuExecutable> maxgraph::compileForCpu(ModuleOp module,
                                                       StringRef name) {
  GraphOp graph = findEntryGraph(module, name);
  return CpuExecutable::load(
      std::make_shared<ExecutableImage>(compileCpuImage(module, graph)),
      "compile");
}

std::unique_ptr<GpuExecutable>
maxgraph::compileForGpu(ModuleOp module, StringRef name, StringRef runtime) {
  GraphOp graph = findEntryGraph(module, name);
  if (runtime == "opencl" || runtime == "cuda")
    checkAvailable(runtime, graph);
  return GpuExecutable::load(std::make_shared<ExecutableImage>(
                                 compileGpuImage(module, graph, runtime)),
                             "compile");
}
