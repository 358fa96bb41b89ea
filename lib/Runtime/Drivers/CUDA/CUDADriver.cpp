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
  MAXGRAPH_RESOLVE(Init, "cuInit")
  MAXGRAPH_RESOLVE(DriverGetVersion, "cuDriverGetVersion")
  MAXGRAPH_RESOLVE(GetErrorName, "cuGetErrorName")
  MAXGRAPH_RESOLVE(GetErrorString, "cuGetErrorString")
  MAXGRAPH_RESOLVE(DeviceGetCount, "cuDeviceGetCount")
  MAXGRAPH_RESOLVE(DeviceGet, "cuDeviceGet")
  MAXGRAPH_RESOLVE(DeviceGetName, "cuDeviceGetName")
  MAXGRAPH_RESOLVE(DeviceGetAttribute, "cuDeviceGetAttribute")
  MAXGRAPH_RESOLVE(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
  MAXGRAPH_RESOLVE(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")
  MAXGRAPH_RESOLVE(DeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool")
  MAXGRAPH_RESOLVE(MemPoolSetAttribute, "cuMemPoolSetAttribute")
  MAXGRAPH_RESOLVE(CtxSetCurrent, "cuCtxSetCurrent")
  MAXGRAPH_RESOLVE(ModuleLoadData, "cuModuleLoadData")
  MAXGRAPH_RESOLVE(ModuleUnload, "cuModuleUnload")
  MAXGRAPH_RESOLVE(ModuleGetFunction, "cuModuleGetFunction")
  MAXGRAPH_RESOLVE(FuncSetAttribute, "cuFuncSetAttribute")
  MAXGRAPH_RESOLVE(LaunchKernel, "cuLaunchKernel")
  MAXGRAPH_RESOLVE(StreamCreate, "cuStreamCreate")
  MAXGRAPH_RESOLVE(StreamDestroy, "cuStreamDestroy_v2")
  MAXGRAPH_RESOLVE(StreamSynchronize, "cuStreamSynchronize")
  MAXGRAPH_RESOLVE(StreamWaitEvent, "cuStreamWaitEvent")
  MAXGRAPH_RESOLVE(StreamBeginCapture, "cuStreamBeginCapture_v2")
  MAXGRAPH_RESOLVE(StreamEndCapture, "cuStreamEndCapture")
  MAXGRAPH_RESOLVE(StreamIsCapturing, "cuStreamIsCapturing")
  MAXGRAPH_RESOLVE(EventCreate, "cuEventCreate")
  MAXGRAPH_RESOLVE(EventRecord, "cuEventRecord")
  MAXGRAPH_RESOLVE(EventSynchronize, "cuEventSynchronize")
  MAXGRAPH_RESOLVE(EventDestroy, "cuEventDestroy_v2")
  MAXGRAPH_RESOLVE(MemAllocAsync, "cuMemAllocAsync")
  MAXGRAPH_RESOLVE(MemFreeAsync, "cuMemFreeAsync")
  MAXGRAPH_RESOLVE(MemAllocManaged, "cuMemAllocManaged")
  MAXGRAPH_RESOLVE(MemFree, "cuMemFree_v2")
  MAXGRAPH_RESOLVE(MemAllocHost, "cuMemAllocHost_v2")
  MAXGRAPH_RESOLVE(MemFreeHost, "cuMemFreeHost")
  MAXGRAPH_RESOLVE(MemHostRegister, "cuMemHostRegister_v2")
  MAXGRAPH_RESOLVE(MemHostUnregister, "cuMemHostUnregister")
  MAXGRAPH_RESOLVE(MemcpyAsync, "cuMemcpyAsync")
  MAXGRAPH_RESOLVE(Memcpy2DAsync, "cuMemcpy2DAsync_v2")
  MAXGRAPH_RESOLVE(MemsetD32Async, "cuMemsetD32Async")
  MAXGRAPH_RESOLVE(MemsetD16Async, "cuMemsetD16Async")
  MAXGRAPH_RESOLVE(GraphInstantiateWithFlags, "cuGraphInstantiateWithFlags")
  MAXGRAPH_RESOLVE(GraphLaunch, "cuGraphLaunch")
  MAXGRAPH_RESOLVE(GraphExecDestroy, "cuGraphExecDestroy")
  MAXGRAPH_RESOLVE(GraphDestroy, "cuGraphDestroy")
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
