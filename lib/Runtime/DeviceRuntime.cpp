//===- DeviceRuntime.cpp - the memory functions of the GPU runtimes -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "MaxGraph/Support/Error.h"
#include <cstdlib>

using namespace maxgraph;
using namespace maxgraph::detail;

std::string detail::defaultGpuRuntimeName() {
  const char *fromEnvironment = std::getenv("MAXGRAPH_GPU_RUNTIME");
  return fromEnvironment && *fromEnvironment ? fromEnvironment : "cuda";
}

const DeviceRuntime &detail::deviceRuntime(llvm::StringRef name) {
#define MAXGRAPH_COMMON_FUNCTIONS(ns)                                          \
  .selectDevice = &ns::selectDevice, .allocate = &ns::allocate,                \
  .deallocate = &ns::deallocate, .copy = &ns::copy,                            \
  .synchronize = &ns::synchronize, .createStream = &ns::createStream,          \
  .destroyStream = &ns::destroyStream, .createEvent = &ns::createEvent,        \
  .destroyEvent = &ns::destroyEvent, .recordEvent = &ns::recordEvent,          \
  .waitEvent = &ns::waitEvent, .synchronizeEvent = &ns::synchronizeEvent,      \
  .queryEvent = &ns::queryEvent, .elapsedTime = &ns::elapsedTime,              \
  .nativeStream = &ns::nativeStream, .deviceNames = &ns::deviceNames
  static const DeviceRuntime cudaRuntime{
      .name = "cuda",
      MAXGRAPH_COMMON_FUNCTIONS(cuda),
      .allocatePinned = &cuda::allocatePinned,
      .deallocatePinned = &cuda::deallocatePinned,
      .hostInterfaceSymbols = &cuda::hostInterfaceSymbols,
      .takeError = &cuda::takeError,
      .beginCapture = &cuda::beginCapture,
      .endCapture = &cuda::endCapture,
      .launchGraph = &cuda::launchGraph,
      .destroyGraph = &cuda::destroyGraph,
      .checkKernels = &cuda::checkKernels};
  static const DeviceRuntime openCLRuntime{.name = "opencl",
                                           MAXGRAPH_COMMON_FUNCTIONS(opencl),
                                           .hostInterfaceSymbols =
                                               &opencl::hostInterfaceSymbols,
                                           .takeError = &opencl::takeError};
#undef MAXGRAPH_COMMON_FUNCTIONS
  std::string chosen = name.empty() ? defaultGpuRuntimeName() : name.str();
  if (chosen == "cuda")
    return cudaRuntime;
  if (chosen == "opencl")
    return openCLRuntime;
  throw RuntimeError("unknown GPU runtime '" + chosen +
                     "', expected opencl or cuda");
}
