//===- CpuExecutable.h - a graph compiled for the host CPU ------*- C++ -*-===//

#ifndef MAXGRAPH_RUNTIME_CPUEXECUTABLE_H
#define MAXGRAPH_RUNTIME_CPUEXECUTABLE_H

#include "MaxGraph/Runtime/HostTensor.h"
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

/// One graph of a module, lowered with `maxgraph-lower-to-cpu` and compiled
/// for the host CPU, its object code loaded into a JIT. The object code is
/// kept in the compile cache (see CompileCache) for later processes. Running it
/// checks the inputs like the interpreter does and returns the results as
/// HostTensors.
class CpuExecutable {
public:
  /// Compiles graph `name` of `module` (the first non-subgraph graph when
  /// empty); the module is copied, not changed. All machine code is
  /// generated before it returns: the first run costs what every run costs.
  /// Throws RuntimeError when a pass or the JIT fails, with the diagnostics.
  /// With the compile cache on (see CompileCache::fromEnvironment), code
  /// compiled before for the same module, entry and host is loaded from it.
  static std::unique_ptr<CpuExecutable> compile(mlir::ModuleOp module,
                                                llvm::StringRef name = {});
  ~CpuExecutable();

  /// Runs the compiled graph; throws RuntimeError for inputs that do not fit.
  /// The code works on the inputs' own storage: stores through a
  /// BufferLayout argument land in the HostTensor passed for it.
  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs) const;

  /// Whether compile() loaded the code from the compile cache (no pass and
  /// no LLVM optimization ran).
  bool loadedFromCache() const { return fromCache; }

  /// What `run` checks and unpacks: the graph's name and layouts.
  struct Signature;

private:
  CpuExecutable() = default;
  std::unique_ptr<Signature> signature;
  /// Loads `object` and looks the entry up.
  llvm::Error load(llvm::MemoryBufferRef object);

  std::unique_ptr<ObjectJIT> jit;
  bool fromCache = false;
  /// The entry's packed wrapper (`void (void **)`), looked up once.
  void (*entry)(void **) = nullptr;
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_CPUEXECUTABLE_H
