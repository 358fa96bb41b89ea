//===- OpenCLLibrary.cpp - OpenCL entry points, loaded at run time --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "OpenCLLibrary.h"
#include "MaxGraph/Support/RuntimeLibrary.h"
#include <utility>

using namespace maxgraph;
using namespace maxgraph::opencl;

static LoadedEntryPoints<OpenCLLibrary> load() {
  RuntimeLibrarySpec spec{"no OpenCL runtime", "MAXGRAPH_OPENCL_LIBRARY",
                          "libOpenCL.so.1",
                          "the runtime needs OpenCL 2.0 or later"};
  return LoadedEntryPoints<OpenCLLibrary>::load(
      spec,
      [](const RuntimeLibrary &library, OpenCLLibrary &cl) -> llvm::Error {
#define MAXGRAPH_RESOLVE(name)                                                 \
  if (llvm::Error error = library.require("cl" #name, cl.name))                \
    return error;
        MAXGRAPH_RESOLVE(GetPlatformIDs)
        MAXGRAPH_RESOLVE(GetPlatformInfo)
        MAXGRAPH_RESOLVE(GetDeviceIDs)
        MAXGRAPH_RESOLVE(GetDeviceInfo)
        MAXGRAPH_RESOLVE(CreateContext)
        MAXGRAPH_RESOLVE(ReleaseContext)
        MAXGRAPH_RESOLVE(CreateCommandQueueWithProperties)
        MAXGRAPH_RESOLVE(ReleaseCommandQueue)
        MAXGRAPH_RESOLVE(Flush)
        MAXGRAPH_RESOLVE(Finish)
        MAXGRAPH_RESOLVE(CreateProgramWithSource)
        MAXGRAPH_RESOLVE(CreateProgramWithBinary)
        MAXGRAPH_RESOLVE(BuildProgram)
        MAXGRAPH_RESOLVE(GetProgramBuildInfo)
        MAXGRAPH_RESOLVE(ReleaseProgram)
        MAXGRAPH_RESOLVE(CreateKernel)
        MAXGRAPH_RESOLVE(GetKernelInfo)
        MAXGRAPH_RESOLVE(ReleaseKernel)
        MAXGRAPH_RESOLVE(SetKernelArg)
        MAXGRAPH_RESOLVE(SetKernelArgSVMPointer)
        MAXGRAPH_RESOLVE(EnqueueNDRangeKernel)
        MAXGRAPH_RESOLVE(SVMAlloc)
        MAXGRAPH_RESOLVE(SVMFree)
        MAXGRAPH_RESOLVE(EnqueueSVMFree)
        MAXGRAPH_RESOLVE(EnqueueSVMMemcpy)
        MAXGRAPH_RESOLVE(EnqueueSVMMemFill)
        MAXGRAPH_RESOLVE(EnqueueMarkerWithWaitList)
        MAXGRAPH_RESOLVE(EnqueueBarrierWithWaitList)
        MAXGRAPH_RESOLVE(WaitForEvents)
        MAXGRAPH_RESOLVE(ReleaseEvent)
        MAXGRAPH_RESOLVE(GetEventInfo)
        MAXGRAPH_RESOLVE(GetEventProfilingInfo)
#undef MAXGRAPH_RESOLVE
        return llvm::Error::success();
      });
}

llvm::Expected<const OpenCLLibrary &> opencl::openCLLibrary() {
  static const LoadedEntryPoints<OpenCLLibrary> loaded = load();
  return loaded.get();
}

llvm::StringRef opencl::clErrorName(cl_int code) {
  static constexpr std::pair<cl_int, const char *> names[] = {
      {0, "CL_SUCCESS"},
      {-1, "CL_DEVICE_NOT_FOUND"},
      {-2, "CL_DEVICE_NOT_AVAILABLE"},
      {-3, "CL_COMPILER_NOT_AVAILABLE"},
      {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
      {-5, "CL_OUT_OF_RESOURCES"},
      {-6, "CL_OUT_OF_HOST_MEMORY"},
      {-7, "CL_PROFILING_INFO_NOT_AVAILABLE"},
      {-8, "CL_MEM_COPY_OVERLAP"},
      {-9, "CL_IMAGE_FORMAT_MISMATCH"},
      {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
      {-11, "CL_BUILD_PROGRAM_FAILURE"},
      {-12, "CL_MAP_FAILURE"},
      {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
      {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
      {-15, "CL_COMPILE_PROGRAM_FAILURE"},
      {-16, "CL_LINKER_NOT_AVAILABLE"},
      {-17, "CL_LINK_PROGRAM_FAILURE"},
      {-18, "CL_DEVICE_PARTITION_FAILED"},
      {-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
      {-30, "CL_INVALID_VALUE"},
      {-31, "CL_INVALID_DEVICE_TYPE"},
      {-32, "CL_INVALID_PLATFORM"},
      {-33, "CL_INVALID_DEVICE"},
      {-34, "CL_INVALID_CONTEXT"},
      {-35, "CL_INVALID_QUEUE_PROPERTIES"},
      {-36, "CL_INVALID_COMMAND_QUEUE"},
      {-37, "CL_INVALID_HOST_PTR"},
      {-38, "CL_INVALID_MEM_OBJECT"},
      {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
      {-40, "CL_INVALID_IMAGE_SIZE"},
      {-41, "CL_INVALID_SAMPLER"},
      {-42, "CL_INVALID_BINARY"},
      {-43, "CL_INVALID_BUILD_OPTIONS"},
      {-44, "CL_INVALID_PROGRAM"},
      {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
      {-46, "CL_INVALID_KERNEL_NAME"},
      {-47, "CL_INVALID_KERNEL_DEFINITION"},
      {-48, "CL_INVALID_KERNEL"},
      {-49, "CL_INVALID_ARG_INDEX"},
      {-50, "CL_INVALID_ARG_VALUE"},
      {-51, "CL_INVALID_ARG_SIZE"},
      {-52, "CL_INVALID_KERNEL_ARGS"},
      {-53, "CL_INVALID_WORK_DIMENSION"},
      {-54, "CL_INVALID_WORK_GROUP_SIZE"},
      {-55, "CL_INVALID_WORK_ITEM_SIZE"},
      {-56, "CL_INVALID_GLOBAL_OFFSET"},
      {-57, "CL_INVALID_EVENT_WAIT_LIST"},
      {-58, "CL_INVALID_EVENT"},
      {-59, "CL_INVALID_OPERATION"},
      {-60, "CL_INVALID_GL_OBJECT"},
      {-61, "CL_INVALID_BUFFER_SIZE"},
      {-62, "CL_INVALID_MIP_LEVEL"},
      {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
      {-64, "CL_INVALID_PROPERTY"},
      {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
      {-66, "CL_INVALID_COMPILER_OPTIONS"},
      {-67, "CL_INVALID_LINKER_OPTIONS"},
      {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"},
      {-69, "CL_INVALID_PIPE_SIZE"},
      {-70, "CL_INVALID_DEVICE_QUEUE"},
      {-71, "CL_INVALID_SPEC_ID"},
      {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
      {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
  };
  for (auto [known, name] : names)
    if (known == code)
      return name;
  return "unknown OpenCL error";
}

std::string opencl::clError(const llvm::Twine &call, cl_int code) {
  return (call + ": " + clErrorName(code) + " (" + llvm::Twine(code) + ")")
      .str();
}
