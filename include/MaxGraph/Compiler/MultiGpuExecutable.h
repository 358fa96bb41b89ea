//===- MultiGpuExecutable.h - a graph over several GPUs ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A graph whose tensors are on several GPUs (`gpu:0` .. `gpu:N-1`, values
// crossing between them only through collectives) runs as one part per GPU
// in one process: each part is the graph partitioned for its GPU
// (maxgraph-partition-by-device, kind=gpu), compiled as a GpuExecutable,
// with the collectives as NCCL calls on its stream.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_MULTIGPUEXECUTABLE_H
#define MAXGRAPH_COMPILER_MULTIGPUEXECUTABLE_H

#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/GpuExecutable.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace maxgraph {
namespace detail {
struct EntrySignature;
} // namespace detail

/// A graph over several GPUs, compiled as one GpuExecutable per GPU. A run
/// checks the inputs against the whole graph, gives each part its inputs
/// and returns the parts' results in the graph's order, each on its GPU.
///
/// With collectives (CUDA runtime only: they are NCCL calls), each part runs
/// on a host thread of its own, as NCCL's one-thread-per-GPU mode asks: a
/// part's collective waits for its peers on the device, never on the host.
/// Without collectives the parts run one after the other on the caller's
/// thread, on any runtime (several `gpu:N` of OpenCL may share one device).
///
/// Staging gives a graph over several GPUs one signal buffer per GPU, as its
/// trailing arguments (`signal_buffers[i]`), as MAX does. The runtime
/// supplies them: a run given the inputs without them appends buffers of
/// its own, zero-filled in each GPU's memory once per set of GPUs for the
/// process.
/// (NCCL needs no scratch of the caller's; they are passed along unused.)
class MultiGpuExecutable : public Executable {
public:
  /// Whether graph `name` of `module` has layouts on more than one GPU.
  static bool spansSeveralGpus(mlir::ModuleOp module, llvm::StringRef name);

  /// Partitions graph `name` of `module` by GPU and compiles each part for
  /// `runtime` ("cuda" or "opencl"). Throws RuntimeError when the graph does
  /// not partition (a value crossing GPUs without a collective, a host
  /// value), when it has collectives and the runtime is not CUDA, or when a
  /// part does not compile.
  static std::unique_ptr<MultiGpuExecutable>
  compile(mlir::ModuleOp module, llvm::StringRef name, llvm::StringRef runtime);

  ~MultiGpuExecutable() override;

  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs,
                              const InputCheckOptions &checks) const override;
  const GraphInputs &arguments() const override;
  /// Whether every GPU's image came from the compile cache.
  bool loadedFromCache() const override;

  /// The GPUs of the parts, ascending.
  std::vector<int> devices() const;

  /// Whether the parts run on threads of their own (the graph has
  /// collectives).
  bool threaded() const { return withCollectives; }

private:
  MultiGpuExecutable() = default;

  /// One GPU's part: its executable and where its arguments and results sit
  /// in the graph's.
  struct Part {
    int device = 0;
    std::unique_ptr<GpuExecutable> executable;
    std::vector<size_t> arguments;
    std::vector<size_t> results;
  };

  /// The runtime's signal buffers of this graph's GPUs, made at the first
  /// run that needs them (any graph's with the same GPUs and sizes).
  const std::vector<HostTensor> &signalBuffers() const;

  std::unique_ptr<detail::EntrySignature> signature;
  std::string runtimeName;
  /// The trailing `signal_buffers[i]` arguments: their GPUs and shapes.
  std::vector<std::pair<int, std::vector<int64_t>>> signalArguments;
  std::vector<Part> parts;
  size_t resultCount = 0;
  bool withCollectives = false;
  /// The lists of GPUs (in rank order) that the parts' collectives run
  /// over: their NCCL communicators are made before the parts run.
  std::set<std::vector<int>> communicatorLists;
};
} // namespace maxgraph

#endif // MAXGRAPH_COMPILER_MULTIGPUEXECUTABLE_H
