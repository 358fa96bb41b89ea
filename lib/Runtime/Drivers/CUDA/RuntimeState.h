//===- RuntimeState.h - devices, handles and the pending error --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the CUDA runtime keeps between calls: the devices in use (each with
// its retained primary context and default stream), the handles the mgpu
// functions gave out (modules and their functions, streams, events,
// allocations, graphs), and per host thread the current device and the first
// error that nobody took yet. One object
// for the process, never destroyed: compiled code may unload its modules from
// a global destructor after this library's statics are gone. Everything is
// guarded by `mutex`; the methods expect it held.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_CUDA_RUNTIMESTATE_H
#define MAXGRAPH_LIB_RUNTIME_CUDA_RUNTIMESTATE_H

#include "CUDADriver.h"
#include "Common/HostInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace maxgraph::cuda {
struct Stream;

/// A device in use.
struct DeviceState {
  int index = 0;
  /// "gpu:0 (NVIDIA H200)": how messages name the device.
  std::string label;
  CUdevice device = 0;
  CUcontext context = nullptr;
  /// The stream a null stream handle stands for.
  Stream *defaultStream = nullptr;
  /// The most dynamic shared memory a block may opt in to.
  int maxSharedMemory = 48 * 1024;
  /// The compute capability, major * 10 + minor (90 for 9.0).
  int computeCapability = 0;
  /// The runtime's own stream-ordered memory pool on the device, which
  /// keeps freed blocks for the next allocations (the device's default
  /// pool is left as other libraries of the process expect it).
  CUmemoryPool pool = nullptr;
};

/// "13.0" for cuDriverGetVersion's 13000.
std::string cudaVersionText(int version);

/// `bytes` of `stream`'s device memory, ordered on the stream: from the
/// runtime's pool, or, while the stream is captured, a graph allocation
/// (cuMemAllocAsync: a graph's memory is its own, whatever the pool). The
/// driver call's name goes to `call`.
CUresult allocateOnStream(const CUDADriver &cu, Stream &stream,
                          CUdeviceptr &pointer, size_t bytes,
                          const char *&call);

/// An mgpu stream of one device. `capturing` while its work is recorded
/// into a CUDA graph.
struct Stream {
  DeviceState *device;
  CUstream stream;
  bool capturing = false;
  /// Pinned copies of the host data that copies in the capture read (the
  /// graph's constants), kept until its graph is destroyed.
  std::vector<void *> stagedHostData;
};

/// An mgpu event.
struct Event {
  DeviceState *device;
  CUevent event;
};

struct Module;

/// An mgpu function: a kernel of a loaded module.
struct Function {
  Module *module;
  std::string name;
  CUfunction function;
  /// The dynamic shared memory the kernel was allowed so far.
  int sharedMemoryAllowed = 48 * 1024;
};

/// An mgpu module: a loaded cubin or PTX, and its functions by name (the
/// host code asks for a function before every launch).
struct Module {
  DeviceState *device;
  CUmodule module;
  llvm::StringMap<std::unique_ptr<Function>> functions;
};

/// A block of mgpuMemAlloc.
struct Allocation {
  size_t bytes;
  DeviceState *device;
  /// Host-shared (managed) memory, freed synchronously.
  bool managed = false;
};

/// An instantiated CUDA graph of endCapture.
struct Graph {
  DeviceState *device;
  CUgraphExec exec;
  /// The pinned host data its copies read (Stream::stagedHostData).
  std::vector<void *> stagedHostData;
};

class RuntimeState : public drivers::HostInterfaceState<RuntimeState> {
public:
  /// The process's state.
  static RuntimeState &get();

  /// Who does not support what an mgpu function asks (Call::unsupported).
  static constexpr const char *kUnsupportedBy =
      "MaxGraph's CUDA runtime (no kernel of maxgraph-lower-to-gpu uses them)";

  /// The number of CUDA devices, or why there are none.
  llvm::Expected<int> deviceCount();
  /// Device `index`, opened (primary context, memory pool, default stream)
  /// on first use.
  llvm::Expected<DeviceState *> device(int index);
  /// Makes the device's context current on the calling thread.
  llvm::Error makeCurrent(DeviceState &device);

  llvm::SmallPtrSet<Module *, 4> modules;
  llvm::SmallPtrSet<Function *, 16> functions;
  llvm::SmallPtrSet<Stream *, 4> streams;
  llvm::SmallPtrSet<Event *, 4> events;
  llvm::SmallPtrSet<Graph *, 4> graphs;
  llvm::DenseMap<void *, Allocation> allocations;

  /// Whether `pointer` points into a block of mgpuMemAlloc.
  bool isDeviceMemory(const void *pointer) const;

private:
  RuntimeState() = default;

  std::vector<std::unique_ptr<DeviceState>> openDevices;
};
} // namespace maxgraph::cuda

#endif // MAXGRAPH_LIB_RUNTIME_CUDA_RUNTIMESTATE_H
