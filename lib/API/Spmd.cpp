//===- Spmd.cpp - one rank's part of a graph over cpu:0..N-1 --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/API/Spmd.h"
#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Staging/Stage.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <cstdlib>
#include <set>

using namespace mlir;
using namespace maxgraph;

namespace {
/// FNV-1a over `bytes`, continuing from `hash`.
uint64_t fnv1a(llvm::StringRef bytes, uint64_t hash = 14695981039346656037ull) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

/// Joins this process, MPI rank `rank` on CUDA device `localGpu`, to the
/// NCCL communicator of each of `lists` it is in (spmd::joinCollectives).
void joinLists(const std::set<std::vector<int>> &lists, llvm::StringRef name,
               int rank, int localGpu) {
  for (const std::vector<int> &devices : lists) {
    auto place = llvm::find(devices, rank);
    if (place == devices.end())
      continue;
    cuda::CollectiveId id{};
    if (place == devices.begin()) {
      llvm::Expected<cuda::CollectiveId> made = cuda::makeCollectiveId();
      if (!made)
        throw RuntimeError("@" + name.str() + ": rank " + std::to_string(rank) +
                           ": " + llvm::toString(made.takeError()));
      id = *made;
    }
    mpi::broadcast(id.data(), static_cast<int64_t>(id.size()), /*root=*/0,
                   devices);
    llvm::Error error = llvm::Error::success();
    {
      mpi::WatchedWait watch("ncclCommInitRank");
      error = cuda::joinCollectives(
          devices, static_cast<int>(place - devices.begin()), localGpu, id);
    }
    if (error)
      throw RuntimeError("@" + name.str() + ": rank " + std::to_string(rank) +
                         ": " + llvm::toString(std::move(error)));
  }
}
} // namespace

int64_t spmd::deviceId(Type type, DeviceKind kind) {
  return detail::deviceIdOf(type, kind);
}

int64_t spmd::cpuId(Type type) { return deviceId(type, DeviceKind::cpu); }

DeviceKind spmd::deviceKind(GraphOp graph) {
  std::set<int64_t> gpus = detail::devicesOf(graph, DeviceKind::gpu);
  if (gpus.empty())
    return DeviceKind::cpu;
  std::set<int64_t> cpus = detail::devicesOf(graph, DeviceKind::cpu);
  // Values without a device are the host's: cpu:0 too.
  if (!cpus.empty())
    throw RuntimeError(
        "@" + graph.getSymName().str() +
        " places values on cpu:" + std::to_string(*cpus.begin()) +
        " and on gpu:" + std::to_string(*gpus.begin()) +
        "; a graph run across processes places them all on gpu:0..N-1 "
        "(a GPU per process) or all on cpu:0..N-1");
  return DeviceKind::gpu;
}

int64_t spmd::deviceCount(GraphOp graph) {
  std::set<int64_t> ids = detail::devicesOf(graph, deviceKind(graph));
  return ids.empty() ? 1 : *ids.rbegin() + 1;
}

int spmd::localGpu() {
  if (const char *given = std::getenv("MAXGRAPH_SPMD_GPU")) {
    int gpu = -1;
    if (llvm::StringRef(given).getAsInteger(10, gpu) || gpu < 0)
      throw RuntimeError("MAXGRAPH_SPMD_GPU is '" + std::string(given) +
                         "'; it takes the number of a CUDA device (0, 1, ...)");
    return gpu;
  }
  for (const char *name :
       {"MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"})
    if (const char *text = std::getenv(name)) {
      int rank = -1;
      if (!llvm::StringRef(text).getAsInteger(10, rank) && rank >= 0)
        return rank;
    }
  return 0;
}

uint64_t spmd::hash(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  uint64_t hash = fnv1a(text);
  if (auto binary = llvm::MemoryBuffer::getFile("/proc/self/exe"))
    hash = fnv1a((*binary)->getBuffer(), hash);
  return hash;
}

void spmd::partition(ModuleOp module, llvm::StringRef name, int rank) {
  partitionForDevice(module, name, DeviceKind::cpu, rank);
}

void spmd::partition(ModuleOp module, llvm::StringRef name, DeviceKind kind,
                     int rank, int localGpu) {
  partitionForDevice(module, name, kind, rank);
  if (kind != DeviceKind::gpu || localGpu == rank)
    return;
  // What the part places on gpu:rank goes to this process's GPU; the
  // collectives' device lists are attributes of integers, and stay.
  MLIRContext *context = module.getContext();
  auto from = DeviceAttr::get(context, DeviceKind::gpu, rank);
  auto to = DeviceAttr::get(context, DeviceKind::gpu, localGpu);
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](DeviceAttr device) -> std::optional<Attribute> {
    return device == from ? Attribute(to) : Attribute(device);
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

void spmd::joinCollectives(ModuleOp part, llvm::StringRef name, int rank,
                           int localGpu) {
  joinLists(detail::collectiveDeviceLists(part), name, rank, localGpu);
}

std::unique_ptr<Executable>
spmd::compilePart(ModuleOp part, llvm::StringRef name, DeviceKind kind,
                  int rank, int localGpu, const ExecutableOptions &options) {
  std::unique_ptr<Executable> executable;
  std::string failure;
  // On CUDA the collectives are NCCL's; the OpenCL runtime's are MPI's.
  std::set<std::vector<int>> ncclLists;
  try {
    if (kind == DeviceKind::gpu) {
      const detail::DeviceRuntime &runtime =
          detail::deviceRuntime(options.gpuRuntime);
      llvm::Expected<std::vector<std::string>> devices = runtime.deviceNames();
      if (devices && static_cast<size_t>(localGpu) >= devices->size())
        throw RuntimeError(
            "its part runs on gpu:" + std::to_string(localGpu) +
            " (its local rank; MAXGRAPH_SPMD_GPU chooses another), and the " +
            runtime.name + " runtime has " + std::to_string(devices->size()) +
            (devices->size() == 1 ? " device" : " devices"));
      if (!devices)
        llvm::consumeError(devices.takeError());
    }
    executable = compileExecutable(part, name, options);
    if (kind == DeviceKind::gpu &&
        llvm::StringRef(detail::deviceRuntime(options.gpuRuntime).name) ==
            "cuda")
      ncclLists = detail::collectiveDeviceLists(part);
    // NCCL opened on every rank before any waits for the others in it.
    if (!ncclLists.empty())
      if (llvm::Expected<std::string> version = cuda::ncclVersion(); !version)
        failure = llvm::toString(version.takeError());
  } catch (const Error &error) {
    failure = error.what();
  }
  mpi::checkAllSucceeded(failure);
  joinLists(ncclLists, name, rank, localGpu);
  return executable;
}

spmd::RankGraph::RankGraph(const StagedGraph &staged, std::string gpuRuntime) {
  if (!staged.weightNames().empty())
    throw RuntimeError("@" + staged.name() +
                       ": graphs with external weights do not run across "
                       "processes yet; pass the weights as inputs");
  GraphOp graph = staged.getGraph();
  std::string name = staged.name();
  mpi::initialize();
  rank_ = mpi::rank();
  worldSize_ = mpi::size();
  OwningOpRef<ModuleOp> module = staged.getModule().clone();
  try {
    kind_ = spmd::deviceKind(graph);
    if (kind_ == DeviceKind::gpu)
      localGpu_ = localGpu();
    mpi::checkWorldSize(deviceCount(graph), "@" + name,
                        stringifyDeviceKind(kind_).str());
    mpi::checkSameHash(hash(*module), "graph @" + name + " or binary");
  } catch (const Error &error) {
    // Every rank fails these checks alike: each says so before any of them
    // ends (MPI_Finalize waits for all), or the launcher, seeing the first
    // exit, would kill the others before they speak.
    std::fprintf(stderr, "maxgraph: %s\n", error.what());
    std::fflush(stderr);
    mpi::finalize();
    throw;
  }
  // Staging appends a signal buffer per GPU to the inputs of a graph over
  // GPUs (MAX's): this rank's is its own, allocated below, not the caller's.
  std::vector<size_t> signals = detail::signalBufferArguments(graph);
  std::vector<size_t> signalArguments;
  for (auto [index, type] : llvm::enumerate(graph.getArgumentTypes()))
    if (deviceId(type, kind_) == rank_ && index < staged.inputLayouts().size())
      (llvm::is_contained(signals, index) ? signalArguments : localInputs_)
          .push_back(index);
  for (auto [index, type] : llvm::enumerate(graph.getResultTypes()))
    if (deviceId(type, kind_) == rank_)
      localResults_.push_back(index);
  ExecutableOptions options;
  options.gpuRuntime = std::move(gpuRuntime);
  std::string failure;
  try {
    partition(*module, name, kind_, rank_, localGpu_);
  } catch (const Error &error) {
    failure = error.what();
  }
  mpi::checkAllSucceeded(failure);
  executable = compilePart(*module, name, kind_, rank_, localGpu_, options);
  // Zeroed on this rank's GPU once, as MAX allocates them once per device.
  for (size_t index : signalArguments) {
    auto shaped = cast<ShapedType>(graph.getArgumentTypes()[index]);
    signalBuffers.push_back(
        HostTensor(DType::UInt8, std::vector<int64_t>(shaped.getShape().begin(),
                                                      shaped.getShape().end()))
            .to(device(), detail::deviceRuntime(options.gpuRuntime).name));
  }
}

Device spmd::RankGraph::device() const {
  return kind_ == DeviceKind::gpu ? GPU(localGpu_) : CPU(rank_);
}

std::vector<HostTensor>
spmd::RankGraph::run(std::vector<HostTensor> inputs) const {
  // As in max-run: host data is moved to the part's device by the part.
  llvm::append_range(inputs, signalBuffers);
  return executable->run(std::move(inputs), InputCheckOptions());
}
