//===- EntrySignature.cpp - what running a compiled entry needs -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/EntrySignature.h"
#include "MaxGraph/Runtime/RunnerUtils.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/DynamicLibrary.h"

using namespace maxgraph;

/// Graph symbols are renamed apart from C's in the compiled code.
static constexpr llvm::StringLiteral kJitSymbolPrefix = "__maxgraph_";

std::string detail::jitSymbol(llvm::StringRef name) {
  return (llvm::Twine(kJitSymbolPrefix) + name).str();
}

std::string detail::userSymbols(std::string text) {
  std::string renamed = ("@" + llvm::Twine(kJitSymbolPrefix)).str();
  for (size_t at = text.find(renamed); at != std::string::npos;
       at = text.find(renamed, at + 1))
    text.replace(at, renamed.size(), "@");
  return text;
}

void detail::checkResultDim(const EntrySignature &signature,
                            const EntrySignature::Param &param, int64_t size) {
  if (size < 0)
    throw RuntimeError("run @" + signature.name + ": " + param.label +
                       " of type " + param.type + " has a dim of " +
                       std::to_string(size) + " for these inputs");
}

std::string detail::describeFailure(const EntrySignature &signature,
                                    llvm::StringRef message) {
  auto [site, rest] = message.split(": ");
  if (site.starts_with("@") && site.contains('#') && !rest.empty()) {
    auto found = signature.siteLocations.find(site);
    if (found != signature.siteLocations.end())
      return found->second + ": " + userSymbols(rest.str());
  }
  return userSymbols(message.str());
}

void detail::checkDefined(llvm::StringRef symbol, llvm::StringRef graph,
                          llvm::ArrayRef<llvm::StringRef> provided) {
  // The linker's own symbols and the runtime's helpers.
  if (symbol == "_GLOBAL_OFFSET_TABLE_" ||
      symbol.starts_with("_mlir_memref_to_llvm_") ||
      symbol.starts_with("maxgraphMpi") ||
      llvm::any_of(
          runnerUtilSymbols(),
          [&](const auto &helper) { return helper.first == symbol; }) ||
      llvm::is_contained(provided, symbol))
    return;
  static bool loaded = [] {
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(MAXGRAPH_OPENMP_LIBRARY);
    return true;
  }();
  (void)loaded;
  if (!llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(symbol.str()))
    throw RuntimeError("compile: @" + graph.str() + " calls `" + symbol.str() +
                       "`, which no loaded library defines (a kernel "
                       "library's declaration without a definition?)");
}
