//===- RunnerUtils.h - functions compiled code calls ------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What LLVM-lowered code calls and the JIT's process need not define: MLIR
// runner library's `memrefCopy`, compiler-rt's bf16 truncations, and
// `maxgraphPrint`, which `maxgraph.print` calls. Every
// executable's JIT resolves them here, the CPU's and the GPU's host code.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_RUNNERUTILS_H
#define MAXGRAPH_RUNTIME_RUNNERUTILS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <utility>

namespace maxgraph::detail {
/// The helpers by the symbol names compiled code calls them by.
llvm::ArrayRef<std::pair<llvm::StringRef, void *>> runnerUtilSymbols();
} // namespace maxgraph::detail

#endif // MAXGRAPH_RUNTIME_RUNNERUTILS_H
