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
  static const DeviceRuntime cudaRuntime{"cuda",
                                         &cuda::selectDevice,
                                         &cuda::allocate,
                                         &cuda::deallocate,
                                         &cuda::copy,
                                         &cuda::synchronize,
                                         &cuda::deviceNames,
                                         &cuda::allocatePinned,
                                         &cuda::deallocatePinned,
                                         &cuda::hostInterfaceSymbols,
                                         &cuda::takeError,
                                         &cuda::beginCapture,
                                         &cuda::endCapture,
                                         &cuda::launchGraph,
                                         &cuda::destroyGraph,
                                         &cuda::checkKernels};
  static const DeviceRuntime openCLRuntime{"opencl",
                                           &opencl::selectDevice,
                                           &opencl::allocate,
                                           &opencl::deallocate,
                                           &opencl::copy,
                                           &opencl::synchronize,
                                           &opencl::deviceNames,
                                           nullptr,
                                           nullptr,
                                           &opencl::hostInterfaceSymbols,
                                           &opencl::takeError};
  std::string chosen = name.empty() ? defaultGpuRuntimeName() : name.str();
  if (chosen == "cuda")
    return cudaRuntime;
  if (chosen == "opencl")
    return openCLRuntime;
  throw RuntimeError("unknown GPU runtime '" + chosen +
                     "', expected opencl or cuda");
}
