//===- OpenCLLibrary.h - OpenCL entry points loaded at run time -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//-*-===//
//
// The OpenCL runtime needs no OpenCL at build time: the few types and
// constants it uses are declared here (values as in Khronos' CL/cl.h, OpenCL
// 3.0), and the entry points come from `libOpenCL.so.1` (the ICD loader),
// opened with dlopen on first use. A machine without it gets an error, not a
// link failure.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_OPENCL_OPENCLLIBRARY_H
#define MAXGRAPH_LIB_RUNTIME_OPENCL_OPENCLLIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <cstdint>
#include <string>

namespace maxgraph::opencl {
//===----------------------------------------------------------------------===//
// Types and constants of CL/cl.h
//===----------------------------------------------------------------------===//

using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using cl_bool = cl_uint;
using cl_bitfield = cl_ulong;
using cl_device_type = cl_bitfield;
using cl_device_svm_capabilities = cl_bitfield;
using cl_svm_mem_flags = cl_bitfield;
using cl_queue_properties = cl_ulong;
using cl_context_properties = intptr_t;
using cl_platform_info = cl_uint;
using cl_device_info = cl_uint;
using cl_program_build_info = cl_uint;
using cl_kernel_info = cl_uint;
using cl_event_info = cl_uint;
using cl_profiling_info = cl_uint;

using cl_platform_id = struct _cl_platform_id *;
using cl_device_id = struct _cl_device_id *;
using cl_context = struct _cl_context *;
using cl_command_queue = struct _cl_command_queue *;
using cl_program = struct _cl_program *;
using cl_kernel = struct _cl_kernel *;
using cl_event = struct _cl_event *;

inline constexpr cl_int CL_SUCCESS = 0;
inline constexpr cl_int CL_DEVICE_NOT_FOUND = -1;
inline constexpr cl_int CL_BUILD_PROGRAM_FAILURE = -11;
inline constexpr cl_int CL_PLATFORM_NOT_FOUND_KHR = -1001;
inline constexpr cl_bool CL_FALSE = 0;
inline constexpr cl_bool CL_TRUE = 1;
inline constexpr cl_device_type CL_DEVICE_TYPE_ALL = 0xFFFFFFFF;
inline constexpr cl_platform_info CL_PLATFORM_NAME = 0x0902;
inline constexpr cl_device_info CL_DEVICE_NAME = 0x102B;
inline constexpr cl_device_info CL_DEVICE_SVM_CAPABILITIES = 0x1053;
inline constexpr cl_device_svm_capabilities CL_DEVICE_SVM_COARSE_GRAIN_BUFFER =
    1 << 0;
inline constexpr cl_device_svm_capabilities CL_DEVICE_SVM_FINE_GRAIN_BUFFER =
    1 << 1;
inline constexpr cl_svm_mem_flags CL_MEM_READ_WRITE = 1 << 0;
inline constexpr cl_svm_mem_flags CL_MEM_SVM_FINE_GRAIN_BUFFER = 1 << 10;
inline constexpr cl_program_build_info CL_PROGRAM_BUILD_LOG = 0x1183;
inline constexpr cl_kernel_info CL_KERNEL_NUM_ARGS = 0x1191;
inline constexpr cl_queue_properties CL_QUEUE_PROPERTIES = 0x1093;
inline constexpr cl_queue_properties CL_QUEUE_PROFILING_ENABLE = 1 << 1;
inline constexpr cl_event_info CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3;
inline constexpr cl_int CL_COMPLETE = 0;
inline constexpr cl_profiling_info CL_PROFILING_COMMAND_END = 0x1283;

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

/// The OpenCL functions the runtime calls, resolved from the ICD loader.
struct OpenCLLibrary {
  cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
  cl_int (*GetPlatformInfo)(cl_platform_id, cl_platform_info, size_t, void *,
                            size_t *);
  cl_int (*GetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint,
                         cl_device_id *, cl_uint *);
  cl_int (*GetDeviceInfo)(cl_device_id, cl_device_info, size_t, void *,
                          size_t *);
  cl_context (*CreateContext)(
      const cl_context_properties *, cl_uint, const cl_device_id *,
      void (*)(const char *, const void *, size_t, void *), void *, cl_int *);
  cl_int (*ReleaseContext)(cl_context);
  cl_command_queue (*CreateCommandQueueWithProperties)(
      cl_context, cl_device_id, const cl_queue_properties *, cl_int *);
  cl_int (*ReleaseCommandQueue)(cl_command_queue);
  cl_int (*Flush)(cl_command_queue);
  cl_int (*Finish)(cl_command_queue);
  cl_program (*CreateProgramWithSource)(cl_context, cl_uint, const char **,
                                        const size_t *, cl_int *);
  cl_program (*CreateProgramWithBinary)(cl_context, cl_uint,
                                        const cl_device_id *, const size_t *,
                                        const unsigned char **, cl_int *,
                                        cl_int *);
  cl_int (*BuildProgram)(cl_program, cl_uint, const cl_device_id *,
                         const char *, void (*)(cl_program, void *), void *);
  cl_int (*GetProgramBuildInfo)(cl_program, cl_device_id, cl_program_build_info,
                                size_t, void *, size_t *);
  cl_int (*ReleaseProgram)(cl_program);
  cl_kernel (*CreateKernel)(cl_program, const char *, cl_int *);
  cl_int (*GetKernelInfo)(cl_kernel, cl_kernel_info, size_t, void *, size_t *);
  cl_int (*ReleaseKernel)(cl_kernel);
  cl_int (*SetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
  cl_int (*SetKernelArgSVMPointer)(cl_kernel, cl_uint, const void *);
  cl_int (*EnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint,
                                 const size_t *, const size_t *, const size_t *,
                                 cl_uint, const cl_event *, cl_event *);
  void *(*SVMAlloc)(cl_context, cl_svm_mem_flags, size_t, cl_uint);
  void (*SVMFree)(cl_context, void *);
  cl_int (*EnqueueSVMFree)(cl_command_queue, cl_uint, void *[],
                           void (*)(cl_command_queue, cl_uint, void *[],
                                    void *),
                           void *, cl_uint, const cl_event *, cl_event *);
  cl_int (*EnqueueSVMMemcpy)(cl_command_queue, cl_bool, void *, const void *,
                             size_t, cl_uint, const cl_event *, cl_event *);
  cl_int (*EnqueueSVMMemFill)(cl_command_queue, void *, const void *, size_t,
                              size_t, cl_uint, const cl_event *, cl_event *);
  cl_int (*EnqueueMarkerWithWaitList)(cl_command_queue, cl_uint,
                                      const cl_event *, cl_event *);
  cl_int (*EnqueueBarrierWithWaitList)(cl_command_queue, cl_uint,
                                       const cl_event *, cl_event *);
  cl_int (*WaitForEvents)(cl_uint, const cl_event *);
  cl_int (*ReleaseEvent)(cl_event);
  cl_int (*GetEventInfo)(cl_event, cl_event_info, size_t, void *, size_t *);
  cl_int (*GetEventProfilingInfo)(cl_event, cl_profiling_info, size_t, void *,
                                  size_t *);
};

/// The properties of every command queue the runtime makes: profiled, so
/// that timed events (elapsedTime) can read when their markers completed.
inline constexpr cl_queue_properties kQueueProperties[] = {
    CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};

/// The entry points of `libOpenCL.so.1` (or of the library that the
/// environment variable MAXGRAPH_OPENCL_LIBRARY names), loaded on the first
/// call; later calls return the same table, or the same error: "no OpenCL
/// runtime: libOpenCL.so.1: <dlerror>".
llvm::Expected<const OpenCLLibrary &> openCLLibrary();

/// The name of an OpenCL error code ("CL_INVALID_VALUE"), or "unknown OpenCL
/// error" for a code that OpenCL 3.0 does not define.
llvm::StringRef clErrorName(cl_int code);

/// "`call`: CL_INVALID_VALUE (-30)".
std::string clError(const llvm::Twine &call, cl_int code);
} // namespace maxgraph::opencl

#endif // MAXGRAPH_LIB_RUNTIME_OPENCL_OPENCLLIBRARY_H
