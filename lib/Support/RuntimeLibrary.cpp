//===- RuntimeLibrary.cpp - a runtime's shared library, opened at run time ===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/RuntimeLibrary.h"
#include <cstdlib>
#include <dlfcn.h>

using namespace maxgraph;

llvm::Expected<RuntimeLibrary>
RuntimeLibrary::open(const RuntimeLibrarySpec &spec) {
  auto fail = [&](const std::string &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   std::string(spec.missing) + ": " + message);
  };
  const char *override = std::getenv(spec.overrideVariable);
  std::string path = override && *override ? override : spec.defaultName;
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    // dlerror() usually starts with the path already.
    const char *error = dlerror();
    llvm::StringRef reason = error ? error : "cannot be loaded";
    return fail(reason.starts_with(path + ": ") ? reason.str()
                                                : path + ": " + reason.str());
  }
  if (spec.standInMarker && dlsym(handle, spec.standInMarker)) {
    const char *allowed = std::getenv("MAXGRAPH_CUDA_STANDIN");
    if (!allowed || llvm::StringRef(allowed) != "1")
      return fail(path + " is " + spec.standInDescription +
                  "; set MAXGRAPH_CUDA_STANDIN=1 to use it in a test");
  }
  return RuntimeLibrary(spec, handle, std::move(path));
}

llvm::Error RuntimeLibrary::missingSymbol(const char *name) const {
  std::string message =
      std::string(spec.missing) + ": " + path_ + " has no " + name;
  if (spec.requirement)
    message += std::string(" (") + spec.requirement + ")";
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void *RuntimeLibrary::symbol(const char *name) const {
  return dlsym(handle, name);
}
