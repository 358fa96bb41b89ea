//===- CUDADriver.cpp - CUDA driver entry points, loaded at run time ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "CUDADriver.h"
#include "MaxGraph/Support/RuntimeLibrary.h"

using namespace maxgraph;
using namespace maxgraph::cuda;

namespace {
/// The outcome of loading the driver, kept for the life of the process.
struct LoadedDriver {
  CUDADriver entryPoints{};
  std::string error;
};
} // namespace

/// Resolves `name` into `slot`; false (with `error` set) when the library
/// does not have it.
template <typename F>
static bool resolve(const RuntimeLibrary &library, const char *name, F &slot,
                    std::string &error) {
  if (library.resolve(name, slot))
    return true;
  error = "no CUDA driver: " + library.path() + " has no " + name +
          " (the runtime needs a driver of CUDA 12.0 or later)";
  return false;
}

/// "`call`: NAME: description" from the table's error functions.
static std::string formatError(const CUDADriver &cu, const llvm::Twine &call,
                               CUresult code) {
  const char *name = nullptr;
  const char *description = nullptr;
  if (cu.GetErrorName && cu.GetErrorName(code, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (cu.GetErrorString &&
      cu.GetErrorString(code, &description) != CUDA_SUCCESS)
    description = nullptr;
  std::string text = call.str() + ": ";
  text += name ? name : "CUDA error " + std::to_string(code);
  if (description)
    text += std::string(": ") + description;
  return text;
}

static LoadedDriver load() {
  LoadedDriver loaded;
  llvm::Expected<RuntimeLibrary> library = RuntimeLibrary::open(
      {"no CUDA driver", "MAXGRAPH_CUDA_DRIVER_LIBRARY", "libcuda.so.1",
       "maxgraphCudaStandIn",
       "MaxGraph's test stand-in of the CUDA driver, which runs no kernels"});
  if (!library) {
    loaded.error = llvm::toString(library.takeError());
    return loaded;
  }
  CUDADriver &cu = loaded.entryPoints;
  std::string &error = loaded.error;
#define MAXGRAPH_RESOLVE(field, symbol)                                        \
  if (!resolve(*library, symbol, cu.field, error))                             \
    return loaded;
#define MAXGRAPH_CUDA_ENTRY_POINT(field, symbol, params)                       \
  MAXGRAPH_RESOLVE(field, #symbol)
#include "CUDAEntryPoints.def"
#undef MAXGRAPH_RESOLVE
  if (CUresult status = cu.Init(0); status != CUDA_SUCCESS) {
    // cuInit's failure is the usual way to learn there is no GPU.
    // Error names need only the library, not an initialized driver.
    loaded.error = "no CUDA device: " + formatError(cu, "cuInit", status) +
                   " (" + library->path() + ")";
  }
  return loaded;
}

static const LoadedDriver &loadedDriver() {
  static const LoadedDriver loaded = load();
  return loaded;
}

llvm::Expected<const CUDADriver &> cuda::cudaDriver() {
  const LoadedDriver &loaded = loadedDriver();
  if (!loaded.error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   loaded.error);
  return loaded.entryPoints;
}

std::string cuda::cuError(const llvm::Twine &call, CUresult code) {
  return formatError(loadedDriver().entryPoints, call, code);
}
