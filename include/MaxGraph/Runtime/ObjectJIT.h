//===- ObjectJIT.h - host object code loaded into a JIT ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The loading half of host object code: an object file (or an archive of
// them) that the compiler emitted (Compiler/ObjectEmitter.h) or the compile
// cache kept, loaded into a JIT; and the host target it runs on.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_OBJECTJIT_H
#define MAXGRAPH_RUNTIME_OBJECTJIT_H

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
/// The functions an object runs its global constructors and destructors
/// with (the emitter makes them; ObjectJIT calls them).
inline constexpr llvm::StringLiteral kModuleInitSymbol =
    "__maxgraph_module_init";
inline constexpr llvm::StringLiteral kModuleFiniSymbol =
    "__maxgraph_module_fini";

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

#endif // MAXGRAPH_RUNTIME_OBJECTJIT_H
