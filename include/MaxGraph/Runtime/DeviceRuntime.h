//===- DeviceRuntime.h - the GPU runtimes' memory functions -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What tensors in device memory (HostTensor::to(GPU(n))) and the GPU
// executable need of a GPU runtime, the same for CUDA and OpenCL: select a
// device, allocate, free, copy, wait. No MLIR: the runtimes' C++ functions
// (CUDARuntime.h, OpenCLRuntime.h) behind one table each.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_DEVICERUNTIME_H
#define MAXGRAPH_RUNTIME_DEVICERUNTIME_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <string>

namespace maxgraph::detail {
/// A GPU runtime's memory functions (a null stream is the current device's
/// default stream).
struct DeviceRuntime {
  /// "cuda" or "opencl", as MAXGRAPH_GPU_RUNTIME names it.
  const char *name;
  llvm::Error (*selectDevice)(int index);
  llvm::Expected<void *> (*allocate)(size_t bytes, void *stream);
  llvm::Error (*deallocate)(void *pointer, void *stream);
  llvm::Error (*copy)(void *destination, const void *source, size_t bytes,
                      void *stream);
  llvm::Error (*synchronize)(void *stream);
  /// Page-locked host memory and its free; null for a runtime without it
  /// (OpenCL), whose host tensors are ordinary memory.
  llvm::Expected<void *> (*allocatePinned)(size_t bytes) = nullptr;
  llvm::Error (*deallocatePinned)(void *pointer) = nullptr;
};

/// The runtime that graphs on gpu:N use unless told otherwise:
/// MAXGRAPH_GPU_RUNTIME, else "cuda".
std::string defaultGpuRuntimeName();

/// The runtime named `name` ("cuda" or "opencl"; empty for the default);
/// throws RuntimeError for another name, saying which there are.
const DeviceRuntime &deviceRuntime(llvm::StringRef name = "");
} // namespace maxgraph::detail

#endif // MAXGRAPH_RUNTIME_DEVICERUNTIME_H
