//===- HostInterface.cpp - the mgpu functions over the CUDA driver --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The functions compiled host code calls (hostInterfaceSymbols), and the
// C++ functions of CUDARuntime.h that do the same for the executable. As in
// the OpenCL runtime, the mgpu functions have internal linkage, so that both
// runtimes of the one ABI live in a process.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "Common/CheckedFunctions.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "RuntimeState.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

using namespace maxgraph;
using namespace maxgraph::cuda;

namespace {
/// One mgpu call: holds the runtime's lock, and records what fails with the
/// call's name in front.
class Call : public drivers::HostInterfaceCall<RuntimeState> {
public:
  using HostInterfaceCall::HostInterfaceCall;

  /// True for CUDA_SUCCESS; records "<call>: <what>: <cuCall>: <error>"
  /// otherwise.
  bool check(CUresult status, const char *cuCall,
             const llvm::Twine &what = "") {
    return status == CUDA_SUCCESS || failIn(what, cuError(cuCall, status));
  }

  /// Runs `driverCall`, a driver call that may wait for the device (a copy
  /// to or from pageable host memory waits for the stream to drain, a
  /// launch for room in a full queue), without the runtime's lock: a part
  /// of a graph over several GPUs that waits here for a collective must not
  /// keep the thread of another part, which the collective waits for, from
  /// launching its own. `driverCall` uses only what it captured by value.
  template <typename DriverCall> CUresult whileUnlocked(DriverCall driverCall) {
    unlock();
    CUresult status = driverCall();
    relock();
    return status;
  }

  /// The driver's entry points; none (recorded) without a driver.
  const CUDADriver *driver() { return valueOrFail(cudaDriver()); }

  /// Makes `device`'s context current; false (recorded) if it cannot be.
  bool enter(DeviceState &device) {
    if (llvm::Error error = state.makeCurrent(device))
      return fail(std::move(error));
    return true;
  }

  /// The current device, opened and made current; none (recorded) if it
  /// cannot be.
  DeviceState *currentDevice() {
    DeviceState *device = valueOrFail(state.currentDevice());
    return device && enter(*device) ? device : nullptr;
  }

  /// The stream that `handle` is (the default stream of `device`, or of the
  /// current device, for null), its device made current; none (recorded)
  /// for a handle that is not a live stream or is a stream of another device
  /// than `device`.
  Stream *stream(void *handle, DeviceState *device = nullptr) {
    if (!handle) {
      if (!device && !(device = currentDevice()))
        return nullptr;
      return enter(*device) ? device->defaultStream : nullptr;
    }
    Stream *stream = liveStream<Stream>(handle, device);
    return stream && enter(*stream->device) ? stream : nullptr;
  }
};
} // namespace

static CUdeviceptr devicePointer(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

//===----------------------------------------------------------------------===//
// The driver's part of the shared mgpu functions
//===----------------------------------------------------------------------===//

/// The device-graph contract: what would wait for the host, or change
/// memory outside the stream's order, is not captured.
static bool refuseWhileCapturing(Call &call, const Stream &stream,
                                 const llvm::Twine &what) {
  if (!stream.capturing)
    return false;
  call.fail(what + " while the stream of " + stream.device->label +
            " is captured into a device graph (a device graph must not "
            "wait for the host or allocate outside the stream's order)");
  return true;
}

/// refuseWhileCapturing for every stream of `device`: what is not ordered
/// on a stream would break whichever capture is under way.
static bool refuseWhileDeviceCaptures(Call &call, const DeviceState &device,
                                      const llvm::Twine &what) {
  for (Stream *stream : call.state.streams)
    if (stream->device == &device && refuseWhileCapturing(call, *stream, what))
      return true;
  return false;
}

/// What in `launch` passes CUDA's limits (the same on every GPU of compute
/// capability 3.0 and later), said with the limit; none if nothing does.
/// The driver would answer a bare CUDA_ERROR_INVALID_VALUE.
static std::optional<std::string>
launchLimitProblem(const drivers::Launch &launch) {
  constexpr unsigned kMaxGrid[3] = {2147483647u, 65535u, 65535u};
  constexpr unsigned kMaxBlock[3] = {1024u, 1024u, 64u};
  constexpr uint64_t kMaxThreadsPerBlock = 1024;
  static constexpr char kAxes[] = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (launch.grid[i] > kMaxGrid[i])
      return "a grid of " + std::to_string(launch.grid[i]) + " blocks in " +
             kAxes[i] + " passes CUDA's limit of " +
             std::to_string(kMaxGrid[i]);
    if (launch.block[i] > kMaxBlock[i])
      return "a block of " + std::to_string(launch.block[i]) + " threads in " +
             kAxes[i] + " passes CUDA's limit of " +
             std::to_string(kMaxBlock[i]);
  }
  uint64_t threads =
      uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  if (threads > kMaxThreadsPerBlock)
    return "a block of " + std::to_string(threads) +
           " threads passes CUDA's limit of " +
           std::to_string(kMaxThreadsPerBlock);
  return std::nullopt;
}

namespace {
/// The driver's part of the module, stream, event and memory functions
/// (Common/CheckedFunctions.h checks their arguments first). What a stream
/// capture cannot hold is refused here.
struct Backend : drivers::BackendTypes<Call, Module, Function, Stream, Event,
                                       DeviceState> {
  /// Loads the kernels of `data` (`size` bytes, not empty) on `device`.
  static Module *loadModule(Call &call, DeviceState *device, void *data,
                            size_t size) {
    const CUDADriver *cu = call.driver();
    // A cubin is an ELF image and a fatbin starts with its magic; PTX is
    // text, which the driver reads up to a NUL that `gpu.binary` need not
    // have.
    llvm::StringRef blob(static_cast<const char *>(data), size);
    std::string text;
    const void *image = data;
    if (!blob.starts_with("\x7f"
                          "ELF") &&
        !blob.starts_with("\x50\xed\x55\xba") && blob.back() != '\0') {
      text = blob.str();
      image = text.c_str();
    }
    CUmodule module = nullptr;
    if (CUresult status = cu->ModuleLoadData(&module, image);
        status != CUDA_SUCCESS) {
      // What a driver refuses depends on its version (kernels of a newer
      // toolkit, PTX of a newer ISA): say it.
      int version = 0;
      std::string driver =
          cu->DriverGetVersion(&version) == CUDA_SUCCESS
              ? " (a driver for CUDA " + cudaVersionText(version) + ")"
              : "";
      call.check(status, "cuModuleLoadData",
                 "loading the kernels on " + device->label + driver);
      return nullptr;
    }
    return new Module{device, module, {}};
  }

  static void unloadModule(Call &call, Module *module) {
    for (auto &entry : module->functions)
      call.state.functions.erase(entry.second.get());
    // Unloading is cleanup, after an error too: what fails is not recorded.
    if (llvm::Expected<const CUDADriver &> cu = cudaDriver()) {
      if (llvm::Error error = call.state.makeCurrent(*module->device))
        llvm::consumeError(std::move(error));
      else
        (void)cu->ModuleUnload(module->module);
    } else {
      llvm::consumeError(cu.takeError());
    }
    delete module;
  }

  static DeviceState *deviceOf(Function &function) {
    return function.module->device;
  }
  static llvm::StringRef nameOf(Function &function) { return function.name; }

  static void launch(Call &call, Function &function, Stream &stream,
                     const drivers::Launch &launch) {
    const CUDADriver *cu = call.driver();
    DeviceState &device = *stream.device;
    if (std::optional<std::string> problem = launchLimitProblem(launch)) {
      call.fail("kernel '" + launch.name + "' on " + device.label + ": " +
                *problem);
      return;
    }
    // At most INT32_MAX: the ABI passes an int32_t.
    int sharedMemory = static_cast<int>(launch.dynamicSharedMemory);
    if (sharedMemory > device.maxSharedMemory) {
      call.fail("kernel '" + launch.name + "': " + llvm::Twine(sharedMemory) +
                " bytes of dynamic shared memory asked, " + device.label +
                " allows " + llvm::Twine(device.maxSharedMemory));
      return;
    }
    // Past the default 48 KB a kernel must opt in to more.
    if (sharedMemory > function.sharedMemoryAllowed) {
      if (!call.check(cu->FuncSetAttribute(
                          function.function,
                          CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          sharedMemory),
                      "cuFuncSetAttribute", "kernel '" + launch.name + "'"))
        return;
      function.sharedMemoryAllowed = sharedMemory;
    }
    call.check(call.whileUnlocked([cu, kernel = function.function, launch,
                                   raw = stream.stream] {
      return cu->LaunchKernel(kernel, launch.grid[0], launch.grid[1],
                              launch.grid[2], launch.block[0], launch.block[1],
                              launch.block[2], launch.dynamicSharedMemory, raw,
                              launch.params, launch.extra);
    }),
               "cuLaunchKernel",
               "kernel '" + launch.name + "' on " + device.label);
  }

  static void *getFunction(Call &call, Module &module, const char *name) {
    // The host code asks before every launch: the first answer is kept.
    std::unique_ptr<Function> &slot = module.functions[name];
    if (slot)
      return slot.get();
    const CUDADriver *cu = call.driver();
    if (!cu || !call.enter(*module.device))
      return nullptr;
    CUfunction function = nullptr;
    if (!call.check(cu->ModuleGetFunction(&function, module.module, name),
                    "cuModuleGetFunction",
                    "kernel '" + llvm::Twine(name) + "'")) {
      module.functions.erase(name);
      return nullptr;
    }
    slot = std::make_unique<Function>(Function{&module, name, function});
    call.state.functions.insert(slot.get());
    return slot.get();
  }

  static bool ready(Call &call) { return call.driver() != nullptr; }

  static Stream *createStream(Call &call, DeviceState &device) {
    CUstream stream = nullptr;
    if (!call.check(
            call.driver()->StreamCreate(&stream, CU_STREAM_NON_BLOCKING),
            "cuStreamCreate", device.label))
      return nullptr;
    return new Stream{&device, stream, false, {}};
  }

  static bool destroyStream(Call &call, Stream &stream) {
    // A device's default stream is no stream of mgpuStreamCreate.
    if (&stream == stream.device->defaultStream)
      return call.fail(drivers::hexAddress(&stream) +
                       " is not a stream of mgpuStreamCreate");
    if (refuseWhileCapturing(call, stream, "destroying the stream") ||
        !call.enter(*stream.device))
      return false;
    call.check(call.driver()->StreamDestroy(stream.stream), "cuStreamDestroy");
    return true;
  }

  static void synchronizeStream(Call &call, Stream &stream) {
    if (refuseWhileCapturing(call, stream, "a host synchronization"))
      return;
    const CUDADriver *cu = call.driver();
    std::string label = stream.device->label;
    CUresult status = call.whileUnlocked(
        [cu, waited = stream.stream] { return cu->StreamSynchronize(waited); });
    call.check(status, "cuStreamSynchronize", label);
  }

  static Event *createEvent(Call &call, DeviceState &device, bool timed) {
    CUevent event = nullptr;
    if (!call.check(call.driver()->EventCreate(
                        &event, timed ? 0 : CU_EVENT_DISABLE_TIMING),
                    "cuEventCreate", device.label))
      return nullptr;
    return new Event{&device, event};
  }

  static bool destroyEvent(Call &call, Event &event) {
    if (!call.enter(*event.device))
      return false;
    call.check(call.driver()->EventDestroy(event.event), "cuEventDestroy");
    return true;
  }

  /// An event is recorded on a stream of its own device.
  static DeviceState *recordingDevice(Event &event) { return event.device; }

  static void recordEvent(Call &call, Event &event, Stream &stream) {
    call.check(call.driver()->EventRecord(event.event, stream.stream),
               "cuEventRecord");
  }

  static void synchronizeEvent(Call &call, Event &event) {
    if (!call.enter(*event.device) ||
        refuseWhileDeviceCaptures(call, *event.device,
                                  "a host wait for an event"))
      return;
    const CUDADriver *cu = call.driver();
    CUresult status = call.whileUnlocked(
        [cu, waited = event.event] { return cu->EventSynchronize(waited); });
    call.check(status, "cuEventSynchronize");
  }

  static void waitEvent(Call &call, Stream &stream, Event &event) {
    call.check(call.driver()->StreamWaitEvent(stream.stream, event.event, 0),
               "cuStreamWaitEvent");
  }

  static bool queryEvent(Call &call, Event &event) {
    CUresult status = call.driver()->EventQuery(event.event);
    return status != CUDA_ERROR_NOT_READY &&
           call.check(status, "cuEventQuery", event.device->label);
  }

  static float elapsedTime(Call &call, Event &start, Event &end) {
    float milliseconds = 0;
    call.check(
        call.driver()->EventElapsedTime(&milliseconds, start.event, end.event),
        "cuEventElapsedTime", start.device->label);
    return milliseconds;
  }

  static void *allocate(Call &call, Stream &stream, uint64_t bytes,
                        bool hostShared) {
    const CUDADriver *cu = call.driver();
    DeviceState *device = stream.device;
    std::string what = llvm::Twine(bytes).str() + " bytes on " + device->label;
    // Zero bytes get a block of their own too: one pointer per allocation.
    size_t size = std::max<uint64_t>(bytes, 1);
    CUdeviceptr pointer = 0;
    if (hostShared) {
      if (refuseWhileDeviceCaptures(call, *device,
                                    "a host-shared allocation") ||
          !call.check(cu->MemAllocManaged(&pointer, size, CU_MEM_ATTACH_GLOBAL),
                      "cuMemAllocManaged", what))
        return nullptr;
    } else {
      const char *driverCall = nullptr;
      CUresult status =
          allocateOnStream(*cu, stream, pointer, size, driverCall);
      if (!call.check(status, driverCall, what))
        return nullptr;
    }
    void *address = reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
    call.state.allocations[address] = {static_cast<size_t>(bytes), device,
                                       hostShared};
    return address;
  }

  static void free(Call &call, Stream &stream, void *pointer) {
    Allocation allocation = call.state.allocations.at(pointer);
    if (allocation.managed &&
        refuseWhileDeviceCaptures(call, *stream.device,
                                  "freeing host-shared memory"))
      return;
    const CUDADriver *cu = call.driver();
    // Forgotten only once the driver has it back.
    CUresult status =
        allocation.managed
            ? cu->MemFree(devicePointer(pointer))
            : cu->MemFreeAsync(devicePointer(pointer), stream.stream);
    if (call.check(status, allocation.managed ? "cuMemFree" : "cuMemFreeAsync"))
      call.state.allocations.erase(pointer);
  }

  static void copy(Call &call, Stream &stream, void *destination, void *source,
                   size_t bytes) {
    const CUDADriver *cu = call.driver();
    if (stream.capturing) {
      // A graph's copies from the host read its constants: a pinned
      // snapshot taken now is what every replay copies (a capture cannot
      // read pageable memory). Copies to the host would make it wait.
      if (!call.state.isDeviceMemory(destination)) {
        refuseWhileCapturing(call, stream, "a copy to host memory");
        return;
      }
      if (!call.state.isDeviceMemory(source)) {
        void *staged = nullptr;
        if (!call.check(cu->MemAllocHost(&staged, bytes), "cuMemAllocHost",
                        llvm::Twine(bytes) + " bytes of pinned host memory"))
          return;
        std::memcpy(staged, source, bytes);
        stream.stagedHostData.push_back(staged);
        source = staged;
      }
    }
    // Unified addressing: either side may be host memory, and then the
    // copy may wait for the stream (into pageable memory it always does).
    auto driverCall = [cu, to = devicePointer(destination),
                       from = devicePointer(source), bytes,
                       raw = stream.stream] {
      return cu->MemcpyAsync(to, from, bytes, raw);
    };
    bool mayWait =
        !stream.capturing && (!call.state.isDeviceMemory(destination) ||
                              !call.state.isDeviceMemory(source));
    call.check(mayWait ? call.whileUnlocked(driverCall) : driverCall(),
               "cuMemcpyAsync",
               llvm::Twine(bytes) + " bytes from " +
                   drivers::hexAddress(source) + " to " +
                   drivers::hexAddress(destination));
  }

  template <typename T>
  static void fill(Call &call, Stream &stream, void *destination, T value,
                   size_t count) {
    const CUDADriver *cu = call.driver();
    CUresult status;
    const char *cuCall;
    if constexpr (sizeof(T) == 4) {
      status = cu->MemsetD32Async(devicePointer(destination), value, count,
                                  stream.stream);
      cuCall = "cuMemsetD32Async";
    } else {
      static_assert(sizeof(T) == 2, "mgpuMemset32 and mgpuMemset16 only");
      status = cu->MemsetD16Async(devicePointer(destination), value, count,
                                  stream.stream);
      cuCall = "cuMemsetD16Async";
    }
    call.check(status, cuCall,
               llvm::Twine(count) + " values at " +
                   drivers::hexAddress(destination));
  }
};
using Checked = drivers::CheckedFunctions<Backend>;
} // namespace

/// The bytes a memref descriptor {allocated, aligned, offset, sizes...,
/// strides...} spans from its first element, and that element's address.
static std::pair<char *, size_t> span(int64_t rank, void *descriptor,
                                      int64_t elementBytes) {
  auto *words = static_cast<int64_t *>(descriptor);
  char *aligned;
  std::memcpy(&aligned, &words[1], sizeof aligned);
  int64_t last = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (words[3 + d] == 0)
      return {aligned + words[2] * elementBytes, 0};
    last += (words[3 + d] - 1) * words[3 + rank + d];
  }
  return {aligned + words[2] * elementBytes,
          static_cast<size_t>((last + 1) * elementBytes)};
}

/// mgpuMemHostRegisterMemRef and mgpuMemHostUnregisterMemRef: pins (or
/// unpins) the host memory a memref descriptor spans.
static void registerHostMemory(const char *name, bool pin, int64_t rank,
                               void *descriptor, int64_t elementBytes) {
  Call call(name);
  if (call.skipped())
    return;
  const CUDADriver *cu = call.driver();
  DeviceState *device = cu ? call.currentDevice() : nullptr;
  if (!device ||
      refuseWhileDeviceCaptures(call, *device, "a host registration"))
    return;
  auto [start, bytes] = span(rank, descriptor, elementBytes);
  if (!bytes)
    return;
  if (pin)
    call.check(cu->MemHostRegister(start, bytes, 0), "cuMemHostRegister");
  else
    call.check(cu->MemHostUnregister(start), "cuMemHostUnregister");
}

static void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                      int64_t elementBytes) {
  registerHostMemory("mgpuMemHostRegisterMemRef", /*pin=*/true, rank,
                     descriptor, elementBytes);
}

static void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                        int64_t elementBytes) {
  registerHostMemory("mgpuMemHostUnregisterMemRef", /*pin=*/false, rank,
                     descriptor, elementBytes);
}

//===----------------------------------------------------------------------===//
// The C++ functions of CUDARuntime.h
//===----------------------------------------------------------------------===//

// The mgpu names of the shared bodies (Checked, SharedFunctions).
#include "Common/SharedFunctionNames.inc"

std::vector<std::pair<const char *, void *>> cuda::hostInterfaceSymbols() {
#define MAXGRAPH_MGPU_FUNCTION(name) {#name, reinterpret_cast<void *>(name)},
  std::vector<std::pair<const char *, void *>> symbols = {
#include "Common/HostInterfaceFunctions.def"
  };
  // The NCCL collectives of the SPMD ops on gpu devices.
  for (auto symbol : collectiveSymbols())
    symbols.push_back(symbol);
  return symbols;
}

// allocate, deallocate, copy, synchronize, createStream, destroyStream.
#define MAXGRAPH_RUNTIME cuda
#include "Common/RuntimeFunctions.inc"

llvm::Expected<void *> cuda::nativeStream(void *handle) {
  void *native = nullptr;
  {
    Call call("nativeStream");
    if (!call.skipped() && call.driver())
      if (Stream *stream = call.stream(handle))
        native = stream->stream;
  }
  if (llvm::Error error = pendingError())
    return std::move(error);
  return native;
}

llvm::Expected<void *> cuda::allocatePinned(size_t bytes) {
  void *pointer = nullptr;
  {
    Call call("allocatePinned");
    const CUDADriver *cu = call.driver();
    if (!call.skipped() && cu && call.currentDevice())
      call.check(cu->MemAllocHost(&pointer, std::max<size_t>(bytes, 1)),
                 "cuMemAllocHost",
                 llvm::Twine(bytes) + " bytes of pinned host memory");
  }
  if (llvm::Error error = pendingError())
    return std::move(error);
  return pointer;
}

llvm::Error cuda::deallocatePinned(void *pointer) {
  {
    Call call("deallocatePinned");
    const CUDADriver *cu = pointer ? call.driver() : nullptr;
    if (!call.skipped() && cu)
      call.check(cu->MemFreeHost(pointer), "cuMemFreeHost");
  }
  return pendingError();
}

llvm::Error cuda::beginCapture(void *handle) {
  {
    Call call("beginCapture");
    const CUDADriver *cu = call.skipped() ? nullptr : call.driver();
    if (Stream *stream = cu ? call.stream(handle) : nullptr) {
      if (stream->capturing)
        call.fail("the stream of " + stream->device->label +
                  " is being captured already");
      else if (call.check(cu->StreamBeginCapture(
                              stream->stream, CU_STREAM_CAPTURE_MODE_RELAXED),
                          "cuStreamBeginCapture", stream->device->label))
        stream->capturing = true;
    }
  }
  return pendingError();
}

llvm::Expected<void *> cuda::endCapture(void *handle) {
  Graph *made = nullptr;
  {
    // Runs even with an error pending: the stream must not stay captured.
    Call call("endCapture");
    const CUDADriver *cu = call.driver();
    if (Stream *stream = cu ? call.stream(handle) : nullptr) {
      if (!stream->capturing) {
        call.fail("the stream of " + stream->device->label +
                  " is not being captured");
      } else {
        stream->capturing = false;
        CUgraph graph = nullptr;
        bool ended = call.check(cu->StreamEndCapture(stream->stream, &graph),
                                "cuStreamEndCapture", stream->device->label);
        std::vector<void *> staged = std::move(stream->stagedHostData);
        stream->stagedHostData.clear();
        if (ended && !call.skipped()) {
          CUgraphExec exec = nullptr;
          if (call.check(cu->GraphInstantiateWithFlags(&exec, graph, 0),
                         "cuGraphInstantiate", stream->device->label)) {
            made = new Graph{stream->device, exec, std::move(staged)};
            call.state.graphs.insert(made);
          }
        }
        for (void *data : staged)
          (void)cu->MemFreeHost(data);
        if (graph)
          (void)cu->GraphDestroy(graph);
      }
    }
  }
  if (llvm::Error error = pendingError()) {
    if (made)
      llvm::consumeError(destroyGraph(made));
    return std::move(error);
  }
  return made;
}

llvm::Error cuda::launchGraph(void *handle, void *streamHandle) {
  {
    Call call("launchGraph");
    auto *graph = static_cast<Graph *>(handle);
    if (call.skipped()) {
    } else if (!handle || !call.state.graphs.contains(graph)) {
      call.fail(drivers::hexAddress(handle) + " is not a graph of endCapture");
    } else if (const CUDADriver *cu = call.driver()) {
      if (Stream *stream = call.stream(streamHandle, graph->device))
        call.check(
            call.whileUnlocked([cu, exec = graph->exec, raw = stream->stream] {
              return cu->GraphLaunch(exec, raw);
            }),
            "cuGraphLaunch", graph->device->label);
    }
  }
  return pendingError();
}

llvm::Error cuda::destroyGraph(void *handle) {
  if (!handle)
    return llvm::Error::success();
  {
    Call call("destroyGraph");
    auto *graph = static_cast<Graph *>(handle);
    if (!call.state.graphs.contains(graph)) {
      call.fail(drivers::hexAddress(handle) + " is not a graph of endCapture");
    } else if (const CUDADriver *cu = call.driver()) {
      call.state.graphs.erase(graph);
      if (call.enter(*graph->device)) {
        call.check(cu->GraphExecDestroy(graph->exec), "cuGraphExecDestroy");
        for (void *data : graph->stagedHostData)
          call.check(cu->MemFreeHost(data), "cuMemFreeHost");
      }
      delete graph;
    }
  }
  return pendingError();
}
