//===- CpuExecutable.h - a graph loaded for the host CPU --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_RUNTIME_CPUEXECUTABLE_H
#define MAXGRAPH_RUNTIME_CPUEXECUTABLE_H

#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace maxgraph {
class ObjectJIT;
namespace detail {
struct PackedArgument;
} // namespace detail

/// A CPU image (compiled with `maxgraph-lower-to-cpu` for the host CPU), its
/// object code loaded into a JIT. Running it checks the inputs like the
/// interpreter does and returns the results as HostTensors.
///
/// Nothing is copied on the way in or out: the code reads (and, for a
/// BufferLayout argument, stores into) the inputs' own storage, and each
/// result is the allocation the code returned it in, adopted by the
/// HostTensor (freed when its last handle goes). Results the code returns
/// in one allocation share it (one owner; sharesStorageWith tells). Two
/// cases copy, once, into new storage: a result that is not dense and
/// row-major, and a result in an input's memory (a graph that returns its
/// argument), so that results never alias the caller's inputs.
class CpuExecutable : public Executable {
public:
  /// Loads the object code of CPU image `image`: no MLIR, no pass, no LLVM
  /// optimization. Throws RuntimeError naming `source` when a symbol the
  /// code calls is undefined or the JIT refuses the object.
  static std::unique_ptr<CpuExecutable>
  load(std::shared_ptr<const ExecutableImage> image, llvm::StringRef source);
  ~CpuExecutable() override;

  /// Runs the compiled graph; throws RuntimeError for inputs that do not fit.
  /// The code works on the inputs' own storage: stores through a
  /// BufferLayout argument land in the HostTensor passed for it. Devices
  /// are not checked: the data stays in host memory.
  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs) const;

  /// The same with the caller's input checks, the only ones of the call:
  /// CompiledGraph and the Python executable check devices too, since their
  /// caller made the tensors. The messages are checkGraphInputs'.
  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs,
                              const InputCheckOptions &checks) const override;

  /// The graph's arguments, as the input checks see them.
  const GraphInputs &arguments() const override;

  /// Runs without the input checks (see Executable::runUnchecked).
  std::vector<HostTensor>
  runUnchecked(const std::vector<HostTensor> &inputs) const override;

  /// A weight in the layout the code reads it in: the packed panels of B
  /// for a weight that matmuls read as B (maxgraph-pack-weights), else the
  /// tensor itself. run() takes either form.
  HostTensor prepareBoundArgument(size_t index,
                                  const HostTensor &tensor) const override;

  std::shared_ptr<const ExecutableImage> image() const override {
    return loaded;
  }

  std::vector<ProfileEntry> profile() const override;
  void resetProfile() const override;

private:
  CpuExecutable() = default;

  std::shared_ptr<const ExecutableImage> loaded;
  std::unique_ptr<ObjectJIT> jit;
  /// The arguments the code reads in packed panels, from the object code.
  std::vector<detail::PackedArgument> packed;
  /// The entry's packed wrapper (`void (void **)`), looked up once.
  void (*entry)(void **) = nullptr;
  /// The loop nests' labels and their counters (nanoseconds and calls of
  /// each, in pairs), from the object code where it was compiled to
  /// profile them.
  std::vector<std::string> profileLabels;
  int64_t *profileCounters = nullptr;
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_CPUEXECUTABLE_H
