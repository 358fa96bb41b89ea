//===- CompilerHelpers.h - functions compiled code calls --------*- C++ -*-===//
//
// What LLVM-lowered code calls and the JIT's process need not define: MLIR
// runner library's `memrefCopy` and compiler-rt's bf16 truncations. Every
// executable's JIT resolves them here, the CPU's and the GPU's host code.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_COMPILERHELPERS_H
#define MAXGRAPH_LIB_RUNTIME_COMPILERHELPERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <utility>

namespace maxgraph::detail {
/// The helpers by the symbol names compiled code calls them by.
llvm::ArrayRef<std::pair<llvm::StringRef, void *>> compilerHelperSymbols();
} // namespace maxgraph::detail

#endif // MAXGRAPH_LIB_RUNTIME_COMPILERHELPERS_H
