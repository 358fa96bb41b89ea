//===- GpuExecutable.h - a graph compiled for a GPU -------------*- C++ -*-===//
//
// A graph whose tensors are on `gpu:N`, lowered with `maxgraph-lower-to-gpu`:
// host code in a JIT that enqueues the graph's kernels on a stream of a GPU
// runtime. The runtime is the OpenCL one (MaxGraph/Runtime/OpenCLRuntime.h),
// which runs the kernels on any OpenCL device, PoCL's CPU device included;
// the CUDA runtime is the next step.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_GPUEXECUTABLE_H
#define MAXGRAPH_RUNTIME_GPUEXECUTABLE_H

#include "MaxGraph/Runtime/Executable.h"
#include <memory>
#include <mutex>
#include <vector>

namespace maxgraph {
class ObjectJIT;
namespace detail {
struct EntrySignature;
struct GpuRuntime;
struct DimFormula;
} // namespace detail

/// One graph on `gpu:N`, compiled for a GPU runtime. HostTensors hold their
/// data in host memory: a run copies the inputs to device buffers,
/// allocates the results there, enqueues the graph on the executable's
/// stream, copies the results (and what the graph stored into buffer
/// arguments) back and waits for the stream.
class GpuExecutable : public Executable {
public:
  /// Compiles graph `name` of `module` (the first non-subgraph graph when
  /// empty) for `runtime` ("opencl"; "cuda" is not built yet) and loads
  /// its host code and kernels. Throws RuntimeError when a pass fails, when
  /// the runtime is unknown or unavailable (no OpenCL library, platform or
  /// device N), or when the kernels do not load.
  static std::unique_ptr<GpuExecutable>
  compile(mlir::ModuleOp module, llvm::StringRef name, llvm::StringRef runtime);
  ~GpuExecutable() override;

  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs,
                              const InputCheckOptions &checks) const override;
  const GraphInputs &arguments() const override;

  /// The GPU index N of the graph's `gpu:N`.
  int device() const { return deviceIndex; }

private:
  GpuExecutable() = default;
  std::unique_ptr<detail::EntrySignature> signature;
  /// Per result, its dims as functions of the symbols the inputs bind.
  std::vector<std::vector<detail::DimFormula>> resultDims;
  const detail::GpuRuntime *runtime = nullptr;
  std::unique_ptr<ObjectJIT> jit;
  void (*entry)(void **) = nullptr;
  int deviceIndex = 0;
  /// The stream the graph runs on, made at the first run.
  mutable void *stream = nullptr;
  /// Runs are one at a time: they share the stream and the runtime's error.
  mutable std::mutex running;
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_GPUEXECUTABLE_H
