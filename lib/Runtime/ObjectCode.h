//===- ObjectCode.h - host object code for a lowered module -----*- C++ -*-===//
//
// What CpuExecutable::compile does below MLIR: emit an object file for the
// host from a module lowered to the LLVM dialect (ObjectEmitter.cpp), and
// load one into a JIT (ObjectJIT.cpp). The object is what the compile cache
// keeps.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_OBJECTCODE_H
#define MAXGRAPH_LIB_RUNTIME_OBJECTCODE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace maxgraph {
/// The optimization level of the LLVM IR optimizer and of code generation;
/// part of the compile cache's key.
inline constexpr unsigned kObjectOptLevel = 3;

/// The functions an object runs its global constructors and destructors
/// with (emitHostObject makes them; ObjectJIT calls them).
inline constexpr llvm::StringLiteral kModuleInitSymbol =
    "__maxgraph_module_init";
inline constexpr llvm::StringLiteral kModuleFiniSymbol =
    "__maxgraph_module_fini";

/// Translates `module` (the LLVM dialect) to LLVM IR for the host CPU, adds
/// for every defined external C-interface function `f` (`_mlir_ciface_*`)
/// the packed wrapper `_mlir_f` (`void (void **)`, as MLIR's
/// ExecutionEngine does), optimizes it at `optLevel` and emits an ELF (or
/// the host's) object file, with its global constructors and destructors
/// behind kModuleInitSymbol and kModuleFiniSymbol. A module large enough
/// has its code generated in parts, on a thread each (one per CPU the
/// process may use, MAXGRAPH_COMPILE_THREADS at most): then the result is
/// an archive of the parts' objects, their local symbols made external.
llvm::Expected<llvm::SmallVector<char, 0>>
emitHostObject(mlir::ModuleOp module, unsigned optLevel = kObjectOptLevel);

/// Initializes LLVM's native target and its code generator, once.
void initializeHostTarget();

/// The host's target triple, CPU name and features, for the cache key.
std::string describeHostTarget();

/// An object file (or an archive of them, as emitHostObject makes) loaded
/// into an LLJIT, with the process's symbols, the libraries in `libraries`
/// and `symbols` (name, address) resolvable.
class ObjectJIT {
public:
  /// Loads `object` and runs its initializers (kModuleInitSymbol too);
  /// the destructor runs kModuleFiniSymbol.
  static llvm::Expected<std::unique_ptr<ObjectJIT>>
  load(llvm::MemoryBufferRef object, llvm::ArrayRef<std::string> libraries,
       llvm::ArrayRef<std::pair<llvm::StringRef, void *>> symbols);
  ~ObjectJIT();

  /// The address of symbol `name`; generates nothing (the code is final).
  llvm::Expected<void *> lookup(llvm::StringRef name);

private:
  ObjectJIT() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// Whether the object has kModuleFiniSymbol, run by the destructor.
  bool hasFini = false;
};

/// The symbols `object` needs from outside it (its undefined symbols; for
/// an archive, those no member defines).
llvm::Expected<std::vector<std::string>>
undefinedSymbols(llvm::MemoryBufferRef object);
} // namespace maxgraph

#endif // MAXGRAPH_LIB_RUNTIME_OBJECTCODE_H
