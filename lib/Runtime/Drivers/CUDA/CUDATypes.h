//===- CUDATypes.h - the CUDA driver API's types and constants --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The types of the driver API and the constants the runtime and its test
// stand-in use, with the values of CUDA 13's cuda.h, so that nothing needs
// CUDA at build time. Standard headers only: the stand-in, a plain shared
// library, includes it too.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_CUDA_CUDATYPES_H
#define MAXGRAPH_LIB_RUNTIME_CUDA_CUDATYPES_H

#include <cstddef>

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

/// cuda.h's CUmemPoolProps_st (as for CUDA_MEMCPY2D_st): the allocation
/// type, handle types and location (type and id) are its enums, as ints.
struct CUmemPoolProps_st {
  int allocType;
  int handleTypes;
  struct {
    int type;
    int id;
  } location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
static_assert(sizeof(CUmemPoolProps_st) == 88, "the layout of cuda.h's");

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
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
inline constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
inline constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
inline constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_STATE = 401;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
inline constexpr CUresult CUDA_ERROR_LAUNCH_TIMEOUT = 702;
inline constexpr CUresult CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712;
inline constexpr CUresult CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713;
inline constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
inline constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900;
inline constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901;

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
/// CUmemAllocationType: CU_MEM_ALLOCATION_TYPE_PINNED.
inline constexpr int CU_MEM_ALLOCATION_TYPE_PINNED = 1;
/// CUmemLocationType: CU_MEM_LOCATION_TYPE_DEVICE.
inline constexpr int CU_MEM_LOCATION_TYPE_DEVICE = 1;
/// CUmemAttach_flags: CU_MEM_ATTACH_GLOBAL.
inline constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
/// CUmemorytype: CU_MEMORYTYPE_DEVICE.
inline constexpr int CU_MEMORYTYPE_DEVICE = 2;

/// CUDA_MEMCPY2D (CUDA_MEMCPY2D_v2), below.
using CUDA_MEMCPY2D = ::CUDA_MEMCPY2D_st;
/// CUmemPoolProps (CUmemPoolProps_v1), below.
using CUmemPoolProps = ::CUmemPoolProps_st;
} // namespace maxgraph::cuda

#endif // MAXGRAPH_LIB_RUNTIME_CUDA_CUDATYPES_H
