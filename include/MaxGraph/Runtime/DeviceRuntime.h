//===- DeviceRuntime.h - the GPU runtimes' memory functions -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What tensors in device memory (HostTensor::to(GPU(n))) and the GPU
// executable need of a GPU runtime, the same for CUDA and OpenCL: select a
// device, allocate, free, copy, wait, streams and events. No MLIR: the
// runtimes' C++ functions (CUDARuntime.h, OpenCLRuntime.h) behind one table
// each.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_DEVICERUNTIME_H
#define MAXGRAPH_RUNTIME_DEVICERUNTIME_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::detail {
/// A GPU runtime, the one table of its functions that the rest of the
/// runtime calls: its memory functions (a null stream is the current
/// device's default stream), its mgpu host interface and its graphs.
struct DeviceRuntime {
  /// "cuda" or "opencl", as MAXGRAPH_GPU_RUNTIME names it.
  const char *name;
  llvm::Error (*selectDevice)(int index);
  llvm::Expected<void *> (*allocate)(size_t bytes, void *stream);
  llvm::Error (*deallocate)(void *pointer, void *stream);
  llvm::Error (*copy)(void *destination, const void *source, size_t bytes,
                      void *stream);
  llvm::Error (*synchronize)(void *stream);
  /// Streams of the current device, and events (`timed` ones can be
  /// timed): what DeviceStream and DeviceEvent are made of.
  llvm::Expected<void *> (*createStream)();
  llvm::Error (*destroyStream)(void *stream);
  llvm::Expected<void *> (*createEvent)(bool timed);
  llvm::Error (*destroyEvent)(void *event);
  llvm::Error (*recordEvent)(void *event, void *stream);
  llvm::Error (*waitEvent)(void *stream, void *event);
  llvm::Error (*synchronizeEvent)(void *event);
  llvm::Expected<bool> (*queryEvent)(void *event);
  llvm::Expected<float> (*elapsedTime)(void *start, void *end);
  /// The driver's handle of a stream (a CUstream, a cl_command_queue).
  llvm::Expected<void *> (*nativeStream)(void *stream);
  /// The names of its devices, gpu:0 first, or why there are none (no
  /// driver, no platform).
  llvm::Expected<std::vector<std::string>> (*deviceNames)();
  /// Page-locked host memory and its free; null for a runtime without it
  /// (OpenCL), whose host tensors are ordinary memory.
  llvm::Expected<void *> (*allocatePinned)(size_t bytes) = nullptr;
  llvm::Error (*deallocatePinned)(void *pointer) = nullptr;
  /// The mgpu host interface that compiled host code calls: (name,
  /// address) of each function.
  std::vector<std::pair<const char *, void *>> (*hostInterfaceSymbols)() =
      nullptr;
  /// The first error its mgpu functions left (they cannot return one),
  /// taken.
  std::optional<std::string> (*takeError)() = nullptr;
  /// Stream capture into a replayable graph; null for a runtime without
  /// graphs (OpenCL), which runs a device graph's kernels one by one.
  llvm::Error (*beginCapture)(void *stream) = nullptr;
  llvm::Expected<void *> (*endCapture)(void *stream) = nullptr;
  llvm::Error (*launchGraph)(void *graph, void *stream) = nullptr;
  llvm::Error (*destroyGraph)(void *graph) = nullptr;
  /// Whether kernels for `chip` in `format` from toolkit `version` load on
  /// device `index` (cuda::checkKernels); null where kernels carry no such
  /// description (OpenCL's are SPIR-V for the device's own compiler).
  llvm::Error (*checkKernels)(int index, llvm::StringRef chip,
                              llvm::StringRef format,
                              llvm::StringRef version) = nullptr;
};

/// The runtime that graphs on gpu:N use unless told otherwise:
/// MAXGRAPH_GPU_RUNTIME, else "cuda".
std::string defaultGpuRuntimeName();

/// The runtime named `name` ("cuda" or "opencl"; empty for the default);
/// throws RuntimeError for another name, saying which there are.
const DeviceRuntime &deviceRuntime(llvm::StringRef name = "");
} // namespace maxgraph::detail

#endif // MAXGRAPH_RUNTIME_DEVICERUNTIME_H
