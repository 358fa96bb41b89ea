//===- RuntimeLibrary.h - a runtime library opened at run time --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA driver, NCCL and the OpenCL ICD loader are opened with dlopen when
// first used, so that nothing of them is needed to build or to run on the
// CPU. This is the opening they share: the path from an environment
// variable or the usual soname, the error that says what is missing, and the
// refusal of MaxGraph's test stand-ins outside the tests that ask for them.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_RUNTIMELIBRARY_H
#define MAXGRAPH_SUPPORT_RUNTIMELIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>

namespace maxgraph {
/// What to open and how to say it is missing.
struct RuntimeLibrarySpec {
  /// The start of every error: "no CUDA driver".
  const char *missing;
  /// The environment variable that names another library, and the library
  /// opened otherwise.
  const char *overrideVariable;
  const char *defaultName;
  /// What the runtime needs of the library, said where a symbol is missing
  /// ("the runtime needs OpenCL 2.0 or later"); none where that says nothing.
  const char *requirement = nullptr;
  /// The symbol that MaxGraph's test stand-in of this library exports, and
  /// what it is ("MaxGraph's test stand-in of NCCL, which computes on host
  /// memory"); none for a library without a stand-in. A stand-in is refused
  /// unless MAXGRAPH_CUDA_STANDIN=1 says a test means it.
  const char *standInMarker = nullptr;
  const char *standInDescription = nullptr;
};

/// A shared library opened for a runtime. Never closed: the handles it
/// gives out (modules, streams, communicators) may outlive any owner.
class RuntimeLibrary {
public:
  /// Opens the library of `spec`; the error reads "<missing>: <path>:
  /// <dlerror>", or says that the library is a stand-in nobody asked for.
  static llvm::Expected<RuntimeLibrary> open(const RuntimeLibrarySpec &spec);

  /// The address of `name`, or null when the library does not have it.
  void *symbol(const char *name) const;

  /// Sets `slot` to the function `name`; false when the library lacks it.
  template <typename Function>
  bool resolve(const char *name, Function &slot) const {
    slot = reinterpret_cast<Function>(symbol(name));
    return slot != nullptr;
  }

  /// Sets `slot` to the function `name`; an error "<missing>: <path> has no
  /// <name> (<requirement>)" when the library lacks it.
  template <typename Function>
  llvm::Error require(const char *name, Function &slot) const {
    if (resolve(name, slot))
      return llvm::Error::success();
    return missingSymbol(name);
  }

  /// The path it was opened by.
  const std::string &path() const { return path_; }

private:
  RuntimeLibrary(const RuntimeLibrarySpec &spec, void *handle, std::string path)
      : spec(spec), handle(handle), path_(std::move(path)) {}

  llvm::Error missingSymbol(const char *name) const;

  RuntimeLibrarySpec spec;
  void *handle;
  std::string path_;
};

/// A library's table of entry points (a struct of function pointers),
/// loaded once for the life of a process, or the error that says why not.
/// The table is kept as far as it was filled even then (error names may
/// need it).
template <typename Table> struct LoadedEntryPoints {
  Table entryPoints{};
  std::string error;

  /// Opens the library of `spec` and fills the table with
  /// `fill(const RuntimeLibrary &, Table &) -> llvm::Error`, which resolves
  /// each entry point with RuntimeLibrary::require.
  template <typename Fill>
  static LoadedEntryPoints load(const RuntimeLibrarySpec &spec, Fill fill) {
    LoadedEntryPoints loaded;
    llvm::Expected<RuntimeLibrary> library = RuntimeLibrary::open(spec);
    if (!library)
      loaded.error = llvm::toString(library.takeError());
    else if (llvm::Error error = fill(*library, loaded.entryPoints))
      loaded.error = llvm::toString(std::move(error));
    return loaded;
  }

  /// The table, or the error of its loading.
  llvm::Expected<const Table &> get() const {
    if (!error.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(), error);
    return entryPoints;
  }
};
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_RUNTIMELIBRARY_H
