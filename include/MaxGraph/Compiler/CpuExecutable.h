//===- CpuExecutable.h - a graph compiled for the host CPU ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_COMPILER_CPUEXECUTABLE_H
#define MAXGRAPH_COMPILER_CPUEXECUTABLE_H

#include "MaxGraph/Compiler/Executable.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <vector>

namespace llvm {
class Error;
class MemoryBufferRef;
} // namespace llvm

namespace maxgraph {
class ObjectJIT;
namespace detail {
struct EntrySignature;
struct PackedArgument;
} // namespace detail

/// One graph of a module, lowered with `maxgraph-lower-to-cpu` and compiled
/// for the host CPU, its object code loaded into a JIT. The object code is
/// kept in the compile cache (see CompileCache) for later processes. Running it
/// checks the inputs like the interpreter does and returns the results as
/// HostTensors.
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
  /// Compiles graph `name` of `module` (the first non-subgraph graph when
  /// empty); the module is copied, not changed. All machine code is
  /// generated before it returns: the first run costs what every run costs.
  /// Throws RuntimeError when a pass or the JIT fails, with the diagnostics.
  /// With the compile cache on (see CompileCache::fromEnvironment), code
  /// compiled before for the same module, entry and host is loaded from it.
  static std::unique_ptr<CpuExecutable> compile(mlir::ModuleOp module,
                                                llvm::StringRef name = {});
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

  /// Loads object code that compile() generated for the entry `signature`
  /// describes (an exported artifact's, see Artifact.h): no MLIR, no pass,
  /// no LLVM optimization. Throws RuntimeError naming `source` when a
  /// symbol the code calls is undefined or the JIT refuses the object.
  static std::unique_ptr<CpuExecutable>
  load(const detail::EntrySignature &signature, llvm::StringRef object,
       llvm::StringRef source);

  /// The object code this executable runs: the bytes the compile cache
  /// keeps, which an artifact holds (kept in memory for export).
  llvm::StringRef objectCode() const;

  /// What run() checks and unpacks, for an artifact.
  const detail::EntrySignature &entrySignature() const;

  /// What `run` checks and unpacks: the graph's name and layouts.
  struct Signature;

private:
  CpuExecutable() = default;
  std::unique_ptr<Signature> signature;
  /// Loads `object` and looks the entry up.
  llvm::Error load(llvm::MemoryBufferRef object);

  std::unique_ptr<ObjectJIT> jit;
  /// The object code loaded into `jit`.
  std::string object;
  /// The arguments the code reads in packed panels, from the object code.
  std::vector<detail::PackedArgument> packed;
  /// The entry's packed wrapper (`void (void **)`), looked up once.
  void (*entry)(void **) = nullptr;
};
} // namespace maxgraph

#endif // MAXGRAPH_COMPILER_CPUEXECUTABLE_H
