//===- CUDADriver.cpp - CUDA driver entry points, loaded at run time ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "CUDADriver.h"
#include "MaxGraph/Support/RuntimeLibrary.h"

using namespace maxgraph;
using namespace maxgraph::cuda;

using LoadedDriver = LoadedEntryPoints<CUDADriver>;

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
  RuntimeLibrarySpec spec{
      "no CUDA driver",
      "MAXGRAPH_CUDA_DRIVER_LIBRARY",
      "libcuda.so.1",
      "the runtime needs a driver of CUDA 12.0 or later",
      "maxgraphCudaStandIn",
      "MaxGraph's test stand-in of the CUDA driver, which runs no kernels"};
  return LoadedDriver::load(
      spec, [](const RuntimeLibrary &library, CUDADriver &cu) -> llvm::Error {
#define MAXGRAPH_CUDA_ENTRY_POINT(field, symbol, params)                       \
  if (llvm::Error error = library.require(#symbol, cu.field))                  \
    return error;
#include "CUDAEntryPoints.def"
        // cuInit's failure is the usual way to learn there is no GPU. Error
        // names need only the library, not an initialized driver.
        if (CUresult status = cu.Init(0); status != CUDA_SUCCESS)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "no CUDA device: " + formatError(cu, "cuInit", status) + " (" +
                  library.path() + ")");
        return llvm::Error::success();
      });
}

static const LoadedDriver &loadedDriver() {
  static const LoadedDriver loaded = load();
  return loaded;
}

llvm::Expected<const CUDADriver &> cuda::cudaDriver() {
  return loadedDriver().get();
}

std::string cuda::cuError(const llvm::Twine &call, CUresult code) {
  return formatError(loadedDriver().entryPoints, call, code);
}
