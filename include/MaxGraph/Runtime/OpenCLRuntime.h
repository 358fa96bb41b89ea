//===- OpenCLRuntime.h - MLIR's mgpu host ABI over OpenCL -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Host code lowered by MLIR's `gpu-to-llvm` calls `mgpuModuleLoad`,
// `mgpuLaunchKernel`, `mgpuMemAlloc` and the rest of the mgpu functions
// (those of MLIR's CudaRuntimeWrappers.cpp). This runtime implements them over
// OpenCL, so that the same compiled host code runs its kernels on any OpenCL
// 2.0 device, PoCL's CPU device included. The functions are not exported
// under their mgpu names (a CUDA runtime defines the same ABI): a JIT binds
// them by address, from `hostInterfaceSymbols()`.
//
// OpenCL is loaded with dlopen (`libOpenCL.so.1`, or the library that the
// environment variable MAXGRAPH_OPENCL_LIBRARY names) at first use; nothing
// of it is needed to build or to link.
//
//  * Devices: gpu:N is OpenCL device N over all platforms in order; each
//    device that is used gets one context and a default stream.
//  * Streams are in-order command queues; a null stream is the default
//    stream. Everything is enqueued: copies, fills and launches return before
//    they run; mgpuStreamSynchronize waits (clFinish).
//  * Modules are blobs of MaxGraph/Support/GpuBinary.h: SPIR 1.2 bitcode
//    (built with `-x spir -spir-std=1.2`) or OpenCL C source, with the table
//    of kernels and argument kinds that the launch needs. Kernels take one
//    pointer per memref (`kernel-bare-ptr-calling-convention`) and by-value
//    scalars.
//  * Memory is shared virtual memory (clSVMAlloc), fine-grained where the
//    device has it; the pointers are what kernels and copies take.
//
// Errors: the mgpu functions are called from compiled code and cannot
// throw. On a failure a function records a message that names it and what
// failed ("mgpuModuleLoad: clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11):
// <build log>"), returns null or nothing, and every later mgpu call is a
// no-op until `takeError()` returns the message. The C++ functions below
// return the pending error instead (theirs, or that of an earlier mgpu call),
// which takes it. Thread-safe: one lock over all of it, let go while a call
// waits for the device; a kernel's arguments are set and its launch
// enqueued under the lock.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_OPENCLRUNTIME_H
#define MAXGRAPH_RUNTIME_OPENCLRUNTIME_H

#include "llvm/Support/Error.h"
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::opencl {
/// The mgpu functions that compiled host code calls, by symbol name
/// ("mgpuModuleLoad", ...), with the addresses of their OpenCL
/// implementations, for a JIT to bind. Functions of the ABI that OpenCL
/// cannot do (mgpuLaunchClusterKernel, mgpuMemHostRegisterMemRef,
/// mgpuTensorMapEncodeTiledMemref, ...) are there too and record an error.
std::vector<std::pair<const char *, void *>> hostInterfaceSymbols();

/// The pending error of the mgpu functions (the first since the last take),
/// which is then gone; none when every call since succeeded.
std::optional<std::string> takeError();

/// The names of the OpenCL devices, gpu:0 first ("pthread-skylake"), or why
/// there are none to list: "no OpenCL runtime: libOpenCL.so.1: <dlerror>",
/// "no OpenCL platform (clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR
/// (-1001))".
llvm::Expected<std::vector<std::string>> deviceNames();

/// Makes gpu:`index` the device of later modules, streams and allocations
/// (what mgpuSetDefaultDevice does), opening it if it is not yet; the error
/// says why it cannot be: "gpu:3: no OpenCL device 3 (2 found)", a device
/// without shared virtual memory, or one of deviceNames()'s errors.
llvm::Error selectDevice(int index);

/// `bytes` of device memory on the stream's device (mgpuMemAlloc; the
/// current device for the default stream). Zero bytes give a valid, distinct
/// pointer too.
llvm::Expected<void *> allocate(size_t bytes, void *stream = nullptr);

/// Frees memory of `allocate` once the stream's earlier work is done
/// (mgpuMemFree). Null is ignored.
llvm::Error deallocate(void *pointer, void *stream = nullptr);

/// Enqueues a copy of `bytes` from `source` to `destination`, either of
/// which may be host memory (mgpuMemcpy); `synchronize` waits for it.
llvm::Error copy(void *destination, const void *source, size_t bytes,
                 void *stream = nullptr);

/// Waits until the stream's work is done (mgpuStreamSynchronize).
llvm::Error synchronize(void *stream = nullptr);

/// A new stream of the current device (mgpuStreamCreate).
llvm::Expected<void *> createStream();

/// Releases a stream of `createStream` once its work is done
/// (mgpuStreamDestroy).
llvm::Error destroyStream(void *stream);

/// The driver's own handle (a cl_command_queue) of a stream of `createStream`
/// (or of the current device's default stream for null), for code outside the
/// runtime that orders its work against it.
llvm::Expected<void *> nativeStream(void *stream);

// Events (createEvent, recordEvent, ...): the functions every runtime has.
#include "MaxGraph/Runtime/EventFunctions.inc"
} // namespace maxgraph::opencl

#endif // MAXGRAPH_RUNTIME_OPENCLRUNTIME_H
