//===- GpuExecutable.h - a graph loaded for a GPU ---------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A GPU image (a graph whose tensors are on `gpu:N`, lowered with
// `maxgraph-lower-to-gpu`): host code in a JIT that enqueues the graph's
// kernels on a stream of a GPU runtime: the CUDA one
// (MaxGraph/Runtime/CUDARuntime.h: NVIDIA GPUs, NVVM kernels) or the OpenCL one
// (MaxGraph/Runtime/OpenCLRuntime.h: SPIR kernels on any OpenCL device, PoCL's
// CPU device included).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_GPUEXECUTABLE_H
#define MAXGRAPH_RUNTIME_GPUEXECUTABLE_H

#include "MaxGraph/Runtime/Executable.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace maxgraph {
class ObjectJIT;
namespace detail {
struct GpuRuntime;
struct EntryArguments;
struct DeviceGraphRecording;
} // namespace detail

/// One graph on `gpu:N`, compiled for a GPU runtime. A run takes inputs in
/// this runtime's memory of the GPU as they are and copies those in host
/// memory to device buffers, allocates the results in device memory (where
/// they stay: HostTensor::to(CPU()) copies them to the host), enqueues the
/// graph on the executable's stream, copies what the graph stored into
/// buffer arguments in host memory back, and waits for the stream once.
///
/// A graph marked `is_device_graph` is recorded once and replayed: on a
/// runtime with graphs (CUDA), the first run with a binding of the symbolic
/// dims runs as any graph's does (what happens once, such as loading
/// kernels and connecting NCCL, is not captured), the second allocates the
/// buffers of its inputs and results and captures the entry's work on the
/// stream into a graph, and from then on each run copies its inputs into
/// those buffers, replays the graph and copies the results back. An input
/// in device memory at the same address in every run of the binding
/// (weights, caches) is read where it is, not copied; one that moves is
/// copied from then on (the graph is recorded again, once). What
/// breaks the contract while it is captured (a host synchronization, a
/// host-shared allocation) fails the run, and is not recorded again. On the
/// OpenCL runtime, which has no graphs, the kernels run one by one.
class GpuExecutable : public Executable {
public:
  /// Loads GPU image `image`: selects its GPU on its runtime and loads its
  /// host code, whose constructors load the kernels. Throws RuntimeError
  /// naming `source` when the runtime is unknown or unavailable (no OpenCL
  /// library, platform or device N; no CUDA driver), or when the code or
  /// the kernels do not load.
  static std::unique_ptr<GpuExecutable>
  load(std::shared_ptr<const ExecutableImage> image, llvm::StringRef source);

  /// Why graph `graph` cannot run on GPU `device` through runtime
  /// `runtime` in this process, or "" when it can: an unknown runtime, or
  /// one that is missing (no OpenCL library or platform, no CUDA driver) or
  /// has no such device. Selects the device when it can.
  static std::string unavailable(llvm::StringRef runtime, int device,
                                 llvm::StringRef graph);
  ~GpuExecutable() override;

  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs,
                              const InputCheckOptions &checks) const override;
  const GraphInputs &arguments() const override;
  std::shared_ptr<const ExecutableImage> image() const override {
    return loaded;
  }

  /// The GPU index N of the graph's `gpu:N`.
  int device() const { return deviceIndex; }

  /// How many device graphs runs recorded so far (one per binding of the
  /// symbolic dims; none for a graph that is not a device graph).
  size_t recordedGraphs() const;

  /// How many inputs the recorded device graphs read in place, in device
  /// memory, instead of copying them, summed over the recordings.
  size_t inputsReadInPlace() const;

private:
  GpuExecutable() = default;
  /// The sizes bound to the symbolic dims, in the symbols' order: what
  /// tells a device graph's recordings apart.
  static std::vector<int64_t>
  recordingKey(const llvm::StringMap<int64_t> &bindings);
  /// A run of a device graph: `recording`, the graph of this binding
  /// (recorded here when there is none yet, or again when an input read in
  /// place has moved), replayed.
  std::vector<HostTensor> replay(const std::vector<HostTensor> &inputs,
                                 std::vector<HostTensor> outputs,
                                 detail::DeviceGraphRecording &recording) const;
  /// Allocates the buffers of `recording` (but for the inputs it reads in
  /// place) and captures the entry's work into its graph; throws
  /// RuntimeError when that fails.
  void record(const std::vector<HostTensor> &inputs,
              const std::vector<HostTensor> &outputs,
              detail::DeviceGraphRecording &recording) const;
  /// Enqueues the copies of what the graph stored into buffer arguments
  /// from the device buffers back to the callers' tensors.
  void copyBack(const detail::GpuRuntime &rt,
                const std::vector<HostTensor> &inputs,
                llvm::ArrayRef<void *> devicePointers) const;
  std::shared_ptr<const ExecutableImage> loaded;
  const detail::GpuRuntime *runtime = nullptr;
  std::unique_ptr<ObjectJIT> jit;
  void (*entry)(void **) = nullptr;
  int deviceIndex = 0;
  /// Whether the graph is marked `is_device_graph`.
  bool deviceGraph = false;
  /// The device graphs, by the sizes bound to the symbols (in the symbols'
  /// order); made at a binding's first run, uncaptured, and recorded at its
  /// next.
  mutable std::map<std::vector<int64_t>,
                   std::unique_ptr<detail::DeviceGraphRecording>>
      recordings;
  /// The stream the graph runs on, made at the first run.
  mutable void *stream = nullptr;
  /// Runs are one at a time: they share the stream and the runtime's error.
  mutable std::mutex running;
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_GPUEXECUTABLE_H
