//===- CUDADriver.h - the CUDA driver entry points (dlopen) -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA runtime needs no CUDA at build time: the driver API's types and
// the few constants it uses are declared here (values as in CUDA 13's
// cuda.h), and the entry points come from `libcuda.so.1`, opened with dlopen
// on first use, all in this one table (IREE's manner). A machine without a
// driver gets an error, not a link failure.
//
// MAXGRAPH_CUDA_DRIVER_LIBRARY names another library to open instead. The
// test stand-in of the driver (unittests/Runtime/Drivers/CUDAStandIn) exports
// `maxgraphCudaStandIn`; a library that does is refused unless
// MAXGRAPH_CUDA_STANDIN=1 says that a test means it, so that a stand-in that
// runs no kernels is never taken for a driver by accident.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_CUDA_CUDADRIVER_H
#define MAXGRAPH_LIB_RUNTIME_CUDA_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <cstdint>
#include <string>

// The driver's handle types are pointers to these global structs, as in
// cuda.h, so that calls through the table have the C functions' exact types.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;
struct CUmemPoolHandle_st;

/// CUDA_MEMCPY2D (CUDA_MEMCPY2D_v2), global as in cuda.h (the function
/// check compares types by name): a copy of `Height` rows of
/// `WidthInBytes`, each side with its own pitch. Arrays are not used (their
/// handles are declared as void pointers, of the same size).
struct CUDA_MEMCPY2D_st {
  size_t srcXInBytes;
  size_t srcY;
  int srcMemoryType;
  const void *srcHost;
  unsigned long long srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  int dstMemoryType;
  void *dstHost;
  unsigned long long dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
};
static_assert(sizeof(CUDA_MEMCPY2D_st) == 128, "the layout of cuda.h's");

namespace maxgraph::cuda {
//===----------------------------------------------------------------------===//
// Types and constants of cuda.h
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = ::CUctx_st *;
using CUmodule = ::CUmod_st *;
using CUfunction = ::CUfunc_st *;
using CUstream = ::CUstream_st *;
using CUevent = ::CUevent_st *;
using CUgraph = ::CUgraph_st *;
using CUgraphExec = ::CUgraphExec_st *;
using CUmemoryPool = ::CUmemPoolHandle_st *;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900;

/// CUdevice_attribute values.
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;
/// CUfunction_attribute: CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
/// CUstream_flags: CU_STREAM_NON_BLOCKING.
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
/// CUevent_flags: CU_EVENT_DISABLE_TIMING.
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
/// CUstreamCaptureMode: CU_STREAM_CAPTURE_MODE_RELAXED.
inline constexpr int CU_STREAM_CAPTURE_MODE_RELAXED = 2;
/// CUstreamCaptureStatus: CU_STREAM_CAPTURE_STATUS_NONE.
inline constexpr int CU_STREAM_CAPTURE_STATUS_NONE = 0;
/// CUmemPool_attribute: CU_MEMPOOL_ATTR_RELEASE_THRESHOLD.
inline constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
/// CUmemAttach_flags: CU_MEM_ATTACH_GLOBAL.
inline constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
/// CUmemorytype: CU_MEMORYTYPE_DEVICE.
inline constexpr int CU_MEMORYTYPE_DEVICE = 2;

/// CUDA_MEMCPY2D (CUDA_MEMCPY2D_v2), below.
using CUDA_MEMCPY2D = ::CUDA_MEMCPY2D_st;

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

/// The driver functions the runtime calls, resolved from the driver library
/// (the versioned symbols where the driver has several: `cuStreamDestroy_v2`,
/// ...). Asynchronous work takes an explicit stream, so that a compiled
/// entry's work can be captured into a CUDA graph.
struct CUDADriver {
  CUresult (*Init)(unsigned flags);
  CUresult (*DriverGetVersion)(int *version);
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int ordinal);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, int attribute, CUdevice);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*DevicePrimaryCtxRelease)(CUdevice);
  CUresult (*DeviceGetDefaultMemPool)(CUmemoryPool *, CUdevice);
  CUresult (*MemPoolSetAttribute)(CUmemoryPool, int attribute, void *value);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*ModuleLoadData)(CUmodule *, const void *image);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncSetAttribute)(CUfunction, int attribute, int value);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned sharedBytes, CUstream,
                           void **params, void **extra);
  CUresult (*StreamCreate)(CUstream *, unsigned flags);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*StreamWaitEvent)(CUstream, CUevent, unsigned flags);
  CUresult (*StreamBeginCapture)(CUstream, int mode);
  CUresult (*StreamEndCapture)(CUstream, CUgraph *);
  CUresult (*StreamIsCapturing)(CUstream, int *status);
  CUresult (*EventCreate)(CUevent *, unsigned flags);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*MemAllocAsync)(CUdeviceptr *, size_t, CUstream);
  CUresult (*MemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*MemAllocManaged)(CUdeviceptr *, size_t, unsigned flags);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemAllocHost)(void **, size_t);
  CUresult (*MemFreeHost)(void *);
  CUresult (*MemHostRegister)(void *, size_t, unsigned flags);
  CUresult (*MemHostUnregister)(void *);
  CUresult (*MemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*Memcpy2DAsync)(const CUDA_MEMCPY2D *, CUstream);
  CUresult (*MemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*MemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*GraphInstantiateWithFlags)(CUgraphExec *, CUgraph,
                                        unsigned long long flags);
  CUresult (*GraphLaunch)(CUgraphExec, CUstream);
  CUresult (*GraphExecDestroy)(CUgraphExec);
  CUresult (*GraphDestroy)(CUgraph);
};

/// The driver's entry points, loaded and initialized (cuInit) on the first
/// call; later calls return the same table, or the same error: "no CUDA
/// driver: libcuda.so.1: cannot open shared object file: ...".
llvm::Expected<const CUDADriver &> cudaDriver();

/// "`call`: CUDA_ERROR_OUT_OF_MEMORY: out of memory" (the driver's name and
/// description of `code`, or its number where the driver has neither).
std::string cuError(const llvm::Twine &call, CUresult code);
} // namespace maxgraph::cuda

#endif // MAXGRAPH_LIB_RUNTIME_CUDA_CUDADRIVER_H
