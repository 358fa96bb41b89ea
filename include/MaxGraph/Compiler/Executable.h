//===- Executable.h - a compiled graph, wherever it runs --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// compile() and max-run hold graphs compiled for the device their tensors
// are on: the host CPU (CpuExecutable) or a GPU (GpuExecutable), behind
// one interface.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_EXECUTABLE_H
#define MAXGRAPH_COMPILER_EXECUTABLE_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace maxgraph {
/// How Executable::compile compiles a graph.
struct ExecutableOptions {
  /// The runtime of graphs on `gpu:N`: "opencl" (the OpenCL runtime, e.g.
  /// PoCL on the CPU) or "cuda"; empty takes MAXGRAPH_GPU_RUNTIME from the
  /// environment, and "cuda" when that is unset.
  std::string gpuRuntime;
};

/// A graph compiled for its device, ready to run on HostTensors.
class Executable {
public:
  virtual ~Executable();

  /// Compiles graph `name` of `module` (the first non-subgraph graph when
  /// empty) for the device its tensors are on: a CpuExecutable for host
  /// graphs, a GpuExecutable for graphs on `gpu:N`, a MultiGpuExecutable for
  /// graphs over several GPUs. Throws RuntimeError.
  static std::unique_ptr<Executable>
  compile(mlir::ModuleOp module, llvm::StringRef name = {},
          const ExecutableOptions &options = ExecutableOptions());

  /// Runs the graph with the caller's input checks; throws RuntimeError for
  /// inputs that do not fit and for errors the code reports.
  virtual std::vector<HostTensor>
  run(const std::vector<HostTensor> &inputs,
      const InputCheckOptions &checks) const = 0;

  /// The graph's arguments, as the input checks see them.
  virtual const GraphInputs &arguments() const = 0;

  /// Runs the graph without the input checks, as MAX's `execute_raw`: the
  /// caller promises that `inputs` fit the arguments (count, dtype, rank,
  /// dims); inputs that do not are undefined behaviour. Errors the code
  /// reports still throw RuntimeError. Executables that cannot skip the
  /// checks make the device-less ones.
  virtual std::vector<HostTensor>
  runUnchecked(const std::vector<HostTensor> &inputs) const {
    return run(inputs, InputCheckOptions());
  }

  /// `tensor`, bound to argument `index` once for many calls (a weight), in
  /// the layout the code reads it in; run() and runUnchecked() take the
  /// result in that position (with InputCheckOptions::checkedWhenBound
  /// naming it), and also the tensor as it is. The CPU code reads weights
  /// that matmuls read as B in B's packed panels (maxgraph-pack-weights):
  /// packed here, once, instead of in every call. Others are returned as
  /// they are (shared storage, no copy).
  virtual HostTensor prepareBoundArgument(size_t index,
                                          const HostTensor &tensor) const {
    (void)index;
    return tensor;
  }

  /// Whether compile() loaded the code from the compile cache (no pass and
  /// no LLVM optimization ran).
  bool loadedFromCache() const { return fromCache; }

protected:
  bool fromCache = false;
};
} // namespace maxgraph

#endif // MAXGRAPH_COMPILER_EXECUTABLE_H
