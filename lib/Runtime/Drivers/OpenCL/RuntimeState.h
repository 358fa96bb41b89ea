//===- RuntimeState.h - devices, handles and the pending error --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the OpenCL runtime keeps between calls: the devices (gpu:N is OpenCL
// device N over all platforms in order), one context and default queue per
// device that was used, the handles the mgpu functions gave out (modules,
// kernels, streams, events, allocations), and per host thread the current
// device and the first error that nobody took yet. One object for the process,
// never destroyed: compiled code may unload its modules from a global
// destructor after this library's statics are gone. Everything is guarded by
// `mutex`; the methods expect it held.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_OPENCL_RUNTIMESTATE_H
#define MAXGRAPH_LIB_RUNTIME_OPENCL_RUNTIMESTATE_H

#include "Common/HostInterface.h"
#include "MaxGraph/Support/GpuBinary.h"
#include "OpenCLLibrary.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace maxgraph::opencl {
/// A device in use: its context and the queue of the default stream.
struct DeviceState {
  int index = 0;
  /// "gpu:0 (pthread-skylake)": how messages name the device.
  std::string label;
  cl_device_id id = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  /// The flags of clSVMAlloc: fine-grained buffers where the device has
  /// them, else coarse-grained ones.
  cl_svm_mem_flags svmFlags = CL_MEM_READ_WRITE;
  bool fineGrained = false;
};

/// An mgpu stream: an in-order queue of one device.
struct Stream {
  DeviceState *device;
  cl_command_queue queue;
};

/// An mgpu event: the marker of the last mgpuEventRecord, or none yet.
struct Event {
  DeviceState *device;
  cl_event marker = nullptr;
};

struct Module;

/// An mgpu function: a kernel of a module and how its arguments are passed.
struct Function {
  Module *module;
  const GpuKernelInfo *info;
  cl_kernel kernel;
};

/// An mgpu module: a built program and its kernels by name.
struct Module {
  DeviceState *device;
  cl_program program = nullptr;
  std::vector<GpuKernelInfo> kernels;
  llvm::StringMap<std::unique_ptr<Function>> functions;
};

/// A block of mgpuMemAlloc.
struct Allocation {
  size_t bytes;
  DeviceState *device;
};

class RuntimeState : public drivers::HostInterfaceState<RuntimeState> {
public:
  /// The process's state.
  static RuntimeState &get();

  /// Who does not support what an mgpu function asks (Call::unsupported).
  static constexpr const char *kUnsupportedBy = "the OpenCL runtime";

  /// The OpenCL devices of all platforms, in order ("no OpenCL platform
  /// (...)" when there is no platform).
  llvm::Expected<llvm::ArrayRef<cl_device_id>> devices();
  /// Device `index`, opened (context and default queue) on first use.
  llvm::Expected<DeviceState *> device(int index);

  llvm::SmallPtrSet<Module *, 4> modules;
  llvm::SmallPtrSet<Function *, 16> functions;
  llvm::SmallPtrSet<Stream *, 4> streams;
  llvm::SmallPtrSet<Event *, 4> events;
  llvm::DenseMap<void *, Allocation> allocations;

private:
  RuntimeState() = default;

  std::optional<std::vector<cl_device_id>> deviceIds;
  std::vector<std::unique_ptr<DeviceState>> openDevices;
};
} // namespace maxgraph::opencl

#endif // MAXGRAPH_LIB_RUNTIME_OPENCL_RUNTIMESTATE_H
