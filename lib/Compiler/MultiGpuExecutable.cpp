//===- MultiGpuExecutable.cpp - a graph over several GPUs -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each GPU's part is the graph partitioned for it, as an SPMD process's part
// is for its cpu:N (Spmd.cpp); here the parts are threads of one process and
// their collectives go through NCCL (the CUDA runtime's maxgraphGpu*
// entries, which the GPU lowering of maxgraph.spmd_* calls).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/MultiGpuExecutable.h"
#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTraits.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// The GPU of `type`, or -1.
int gpuOf(Type type) {
  return static_cast<int>(deviceIdOf(type, DeviceKind::gpu));
}

/// The GPU and shape of each of `graph`'s trailing signal buffers (the
/// arguments that staging names `signal_buffers[i]`).
std::vector<std::pair<int, std::vector<int64_t>>>
trailingSignalBuffers(GraphOp graph) {
  std::vector<std::pair<int, std::vector<int64_t>>> found;
  for (size_t index : signalBufferArguments(graph)) {
    Type type = graph.getArgumentTypes()[index];
    ArrayRef<int64_t> shape = cast<ShapedType>(type).getShape();
    found.emplace_back(gpuOf(type),
                       std::vector<int64_t>(shape.begin(), shape.end()));
  }
  return found;
}

/// Whether `module` has a collective between GPUs (one whose operands are
/// all on one GPU is kernels on that GPU) or a transfer between GPUs (an
/// NCCL broadcast, maxgraph-partition-by-device).
bool hasCollectives(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (!isCollective(op) && !isa<TransferOp>(op))
      return;
    std::set<int> gpus;
    for (Type type :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (int gpu = gpuOf(type); gpu >= 0)
        gpus.insert(gpu);
    found |= gpus.size() > 1;
  });
  return found;
}
} // namespace

bool MultiGpuExecutable::spansSeveralGpus(ModuleOp module, StringRef name) {
  return devicesOf(findEntryGraph(module, name), DeviceKind::gpu).size() > 1;
}

MultiGpuExecutable::~MultiGpuExecutable() = default;

std::unique_ptr<MultiGpuExecutable>
MultiGpuExecutable::compile(ModuleOp module, StringRef name,
                            StringRef runtime) {
  GraphOp graph = findEntryGraph(module, name);
  auto executable =
      std::unique_ptr<MultiGpuExecutable>(new MultiGpuExecutable());
  executable->signature = std::make_unique<EntrySignature>();
  EntrySignature &signature = *executable->signature;
  describeEntry(module, graph, signature);
  executable->resultCount = graph.getNumResults();
  executable->runtimeName = runtime.str();
  std::string graphName = graph.getSymName().str();
  executable->signalArguments = trailingSignalBuffers(graph);

  // Only the graph and the subgraphs it reaches: a collective elsewhere in
  // the module is not this graph's.
  OwningOpRef<ModuleOp> reached = prepareForLowering(module, graph);
  executable->withCollectives = hasCollectives(*reached);
  if (executable->withCollectives && runtime != "cuda")
    throw RuntimeError("compile: @" + signature.name +
                       " has collectives between GPUs, which run in one "
                       "process through NCCL on the cuda runtime, not on the " +
                       runtime.str() +
                       " runtime (whose collectives are MPI's, between "
                       "processes: max-run --spmd, maxgraph.distributed)");

  for (int64_t gpu : devicesOf(graph, DeviceKind::gpu)) {
    Part part;
    part.device = static_cast<int>(gpu);
    for (auto [index, type] : llvm::enumerate(graph.getArgumentTypes()))
      if (gpuOf(type) == gpu)
        part.arguments.push_back(index);
    for (auto [index, type] : llvm::enumerate(graph.getResultTypes()))
      if (gpuOf(type) == gpu)
        part.results.push_back(index);

    OwningOpRef<ModuleOp> partModule = module.clone();
    partitionForDevice(*partModule, graphName, DeviceKind::gpu, gpu);
    executable->communicatorLists.merge(collectiveDeviceLists(*partModule));
    part.executable = compileForGpu(*partModule, graphName, runtime);
    executable->parts.push_back(std::move(part));
  }
  return executable;
}

bool MultiGpuExecutable::loadedFromCache() const {
  return llvm::all_of(parts, [](const Part &part) {
    return part.executable->loadedFromCache();
  });
}

const GraphInputs &MultiGpuExecutable::arguments() const {
  return signature->arguments;
}

std::vector<int> MultiGpuExecutable::devices() const {
  std::vector<int> gpus;
  for (const Part &part : parts)
    gpus.push_back(part.device);
  return gpus;
}

const std::vector<HostTensor> &MultiGpuExecutable::signalBuffers() const {
  // One set per runtime and list of GPUs (and sizes) for the process, as
  // MAX allocates them once per device set; never destroyed, since freeing
  // device memory from a static destructor would run after the driver may
  // be gone.
  using Key =
      std::pair<std::string, std::vector<std::pair<int, std::vector<int64_t>>>>;
  static std::mutex mutex;
  static auto &sets = *new std::map<Key, std::vector<HostTensor>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<HostTensor> &set = sets[Key(runtimeName, signalArguments)];
  if (set.empty())
    for (const auto &[gpu, shape] : signalArguments)
      set.push_back(HostTensor(DType::UInt8, shape).to(GPU(gpu), runtimeName));
  return set;
}

std::vector<HostTensor>
MultiGpuExecutable::run(const std::vector<HostTensor> &given,
                        const InputCheckOptions &checks) const {
  // The signal buffers are the runtime's unless the caller passes them.
  std::vector<HostTensor> withSignals;
  size_t total = signature->arguments.arguments.size();
  if (!signalArguments.empty() &&
      given.size() + signalArguments.size() == total) {
    withSignals = given;
    llvm::append_range(withSignals, signalBuffers());
  }
  const std::vector<HostTensor> &inputs =
      withSignals.empty() ? given : withSignals;
  // The whole graph's checks, once: those of the parts see only their own
  // arguments (a symbol bound on two GPUs must agree).
  checkGraphInputs(signature->arguments, inputs, checks);
  std::vector<std::vector<HostTensor>> partInputs(parts.size());
  for (auto [part, given] : llvm::zip_equal(parts, partInputs))
    for (size_t index : part.arguments)
      given.push_back(inputs[index]);

  std::vector<std::vector<HostTensor>> partResults(parts.size());
  std::vector<std::exception_ptr> failures(parts.size());
  auto runPart = [&](size_t index) {
    try {
      partResults[index] =
          parts[index].executable->run(partInputs[index], InputCheckOptions());
    } catch (...) {
      failures[index] = std::current_exception();
    }
  };
  if (withCollectives) {
    // NCCL's communicators before the parts' threads: making them allocates
    // and synchronizes on every GPU of a list, which no part's capture of a
    // device graph may hold.
    for (const std::vector<int> &devices : communicatorLists)
      if (llvm::Error error = cuda::prepareCollectives(devices))
        throw RuntimeError("run @" + signature->name + ": " +
                           llvm::toString(std::move(error)));
    std::vector<std::thread> threads;
    threads.reserve(parts.size());
    for (size_t index = 0; index < parts.size(); ++index)
      threads.emplace_back(runPart, index);
    for (std::thread &thread : threads)
      thread.join();
  } else {
    for (size_t index = 0; index < parts.size(); ++index)
      runPart(index);
  }
  // The first GPU's failure, as the user would look for it first.
  for (const std::exception_ptr &failure : failures)
    if (failure)
      std::rethrow_exception(failure);

  std::vector<std::optional<HostTensor>> placed(resultCount);
  for (auto [part, produced] : llvm::zip_equal(parts, partResults))
    for (auto [index, tensor] : llvm::zip_equal(part.results, produced))
      placed[index] = std::move(tensor);
  std::vector<HostTensor> results;
  results.reserve(resultCount);
  for (std::optional<HostTensor> &result : placed)
    results.push_back(std::move(*result));
  return results;
}
