//===- CheckedFunctions.h - the mgpu functions' checks, once ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MLIR's mgpu ABI returns no status and trusts its handles. Every runtime
// checks the same things before its driver sees a call: a pending error
// (the call is a no-op), a driver that is there, handles that a create
// call gave out and nothing took back, a stream of the right device,
// pointers that are not null, sizes that do not overflow. Those checks are
// here, once; a runtime's `Backend` does the driver's part of each call:
//
//   using Call, Module, Function, Stream, Event, DeviceState;
//                                          (BackendTypes)
//   static bool ready(Call &);             // the driver is there
//   static Module *loadModule(Call &, DeviceState *, void *data, size_t);
//   static void unloadModule(Call &, Module *);  // forgets and frees it
//   static void *getFunction(Call &, Module &, const char *name);
//   static DeviceState *deviceOf(Function &);
//   static llvm::StringRef nameOf(Function &);
//   static void launch(Call &, Function &, Stream &, const Launch &);
//   static Stream *createStream(Call &, DeviceState &);
//   static bool destroyStream(Call &, Stream &);      // false: refused
//   static void synchronizeStream(Call &, Stream &);
//   static Event *createEvent(Call &, DeviceState &, bool timed);
//   static bool destroyEvent(Call &, Event &);        // false: refused
//   static DeviceState *recordingDevice(Event &);     // null: any
//   static void recordEvent(Call &, Event &, Stream &);
//   static void synchronizeEvent(Call &, Event &);
//   static void waitEvent(Call &, Stream &, Event &);
//   static bool queryEvent(Call &, Event &);          // complete yet
//   static float elapsedTime(Call &, Event &start, Event &end);  // in ms
//   static void *allocate(Call &, Stream &, uint64_t bytes, bool hostShared);
//   static void free(Call &, Stream &, void *pointer);  // forgets it
//   static void copy(Call &, Stream &, void *to, void *from, size_t bytes);
//   template <typename T>
//   static void fill(Call &, Stream &, void *to, T value, size_t count);
//
// A Backend's Call is a HostInterfaceCall with `currentDevice()` and
// `stream(handle, device)` (a null handle being the device's default
// stream). The messages name the call (`mgpuMemcpy: null pointer ...`).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_DRIVERS_COMMON_CHECKEDFUNCTIONS_H
#define MAXGRAPH_RUNTIME_DRIVERS_COMMON_CHECKEDFUNCTIONS_H

#include "HostInterface.h"
#include "llvm/ADT/Twine.h"
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace maxgraph::drivers {
/// The types a Backend names: `struct Backend : BackendTypes<Call, Module,
/// Function, Stream, Event, DeviceState> { ... }`.
template <typename CallT, typename ModuleT, typename FunctionT,
          typename StreamT, typename EventT, typename DeviceT>
struct BackendTypes {
  using Call = CallT;
  using Module = ModuleT;
  using Function = FunctionT;
  using Stream = StreamT;
  using Event = EventT;
  using DeviceState = DeviceT;
};

/// A kernel launch as checked: the grid and block sizes, each in
/// [1, 2^32) (so that their products fit a size_t), dynamic shared memory
/// that is not negative, and the parameters as the host code passed them.
struct Launch {
  /// The kernel's name, for messages (built only when one is written: a
  /// launch is on the hot path).
  llvm::StringRef name;
  unsigned grid[3];
  unsigned block[3];
  unsigned dynamicSharedMemory;
  void **params;
  void **extra;
  size_t paramCount;
};

template <typename Backend> struct CheckedFunctions {
  using Call = typename Backend::Call;
  using Module = typename Backend::Module;
  using Function = typename Backend::Function;
  using Stream = typename Backend::Stream;
  using Event = typename Backend::Event;
  using DeviceState = typename Backend::DeviceState;

  //===--------------------------------------------------------------------===//
  // Modules
  //===--------------------------------------------------------------------===//

  static void *moduleLoad(void *data, size_t size) {
    Call call("mgpuModuleLoad");
    DeviceState *device = readyDevice(call);
    if (!device)
      return nullptr;
    if (!data || size == 0) {
      call.fail("empty module");
      return nullptr;
    }
    Module *module = Backend::loadModule(call, device, data, size);
    if (module)
      call.state.modules.insert(module);
    return module;
  }

  static void *moduleGetFunction(void *handle, const char *name) {
    Call call("mgpuModuleGetFunction");
    if (call.skipped())
      return nullptr;
    auto *module = call.template live<Module>(handle, call.state.modules,
                                              "a module of mgpuModuleLoad");
    if (!module)
      return nullptr;
    if (!name) {
      call.fail("null kernel name");
      return nullptr;
    }
    return Backend::getFunction(call, *module, name);
  }

  /// Unloads even with an error pending: nothing else frees the module.
  static void moduleUnload(void *handle) {
    Call call("mgpuModuleUnload");
    // Null: the module of a load that failed.
    if (!handle)
      return;
    auto *module = static_cast<Module *>(handle);
    if (!call.state.modules.erase(module)) {
      if (!call.skipped())
        call.fail(hexAddress(handle) + " is not a module of mgpuModuleLoad");
      return;
    }
    Backend::unloadModule(call, module);
  }

  static void launchKernel(void *handle, intptr_t gridX, intptr_t gridY,
                           intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                           intptr_t blockZ, int32_t dynamicSharedMemory,
                           void *streamHandle, void **params, void **extra,
                           size_t paramCount) {
    Call call("mgpuLaunchKernel");
    if (call.skipped())
      return;
    auto *function = call.template live<Function>(
        handle, call.state.functions, "a function of mgpuModuleGetFunction");
    if (!function)
      return;
    Launch launch;
    launch.name = Backend::nameOf(*function);
    const intptr_t sizes[6] = {gridX, gridY, gridZ, blockX, blockY, blockZ};
    for (int i = 0; i < 6; ++i) {
      if (sizes[i] < 1 || sizes[i] > std::numeric_limits<unsigned>::max()) {
        call.fail("kernel '" + launch.name + "': bad launch size: grid (" +
                  llvm::Twine(gridX) + ", " + llvm::Twine(gridY) + ", " +
                  llvm::Twine(gridZ) + "), block (" + llvm::Twine(blockX) +
                  ", " + llvm::Twine(blockY) + ", " + llvm::Twine(blockZ) +
                  ")");
        return;
      }
      (i < 3 ? launch.grid[i] : launch.block[i - 3]) =
          static_cast<unsigned>(sizes[i]);
    }
    if (dynamicSharedMemory < 0) {
      call.fail("kernel '" + launch.name +
                "': " + llvm::Twine(dynamicSharedMemory) +
                " bytes of dynamic shared memory asked");
      return;
    }
    launch.dynamicSharedMemory = static_cast<unsigned>(dynamicSharedMemory);
    launch.params = params;
    launch.extra = extra;
    launch.paramCount = paramCount;
    auto *stream = Backend::ready(call)
                       ? call.stream(streamHandle, Backend::deviceOf(*function))
                       : nullptr;
    if (stream)
      Backend::launch(call, *function, *stream, launch);
  }

  //===--------------------------------------------------------------------===//
  // Streams and events
  //===--------------------------------------------------------------------===//

  static void *streamCreate() {
    Call call("mgpuStreamCreate");
    DeviceState *device = readyDevice(call);
    if (!device)
      return nullptr;
    Stream *stream = Backend::createStream(call, *device);
    if (stream)
      call.state.streams.insert(stream);
    return stream;
  }

  static void streamDestroy(void *handle) {
    Call call("mgpuStreamDestroy");
    if (call.skipped() || !handle)
      return;
    auto *stream = call.template live<Stream>(handle, call.state.streams,
                                              "a stream of mgpuStreamCreate");
    if (!stream || !Backend::ready(call) ||
        !Backend::destroyStream(call, *stream))
      return;
    call.state.streams.erase(stream);
    delete stream;
  }

  static void streamSynchronize(void *handle) {
    Call call("mgpuStreamSynchronize");
    if (auto *stream = readyStream(call, handle))
      Backend::synchronizeStream(call, *stream);
  }

  static void *eventCreate() { return createEvent("mgpuEventCreate", false); }

  /// An event whose records can be timed (eventElapsed); mgpuEventCreate's
  /// cannot, which makes them cheaper. Not in the mgpu ABI: the runtime's
  /// DeviceEvent makes these.
  static void *timedEventCreate() {
    return createEvent("timedEventCreate", true);
  }

  static void eventDestroy(void *handle) {
    Call call("mgpuEventDestroy");
    Event *event = readyEvent(call, handle);
    if (!event || !Backend::destroyEvent(call, *event))
      return;
    call.state.events.erase(event);
    delete event;
  }

  static void eventRecord(void *eventHandle, void *streamHandle) {
    Call call("mgpuEventRecord");
    Event *event = readyEvent(call, eventHandle);
    auto *stream =
        event ? call.stream(streamHandle, Backend::recordingDevice(*event))
              : nullptr;
    if (stream)
      Backend::recordEvent(call, *event, *stream);
  }

  static void eventSynchronize(void *handle) {
    Call call("mgpuEventSynchronize");
    if (Event *event = readyEvent(call, handle))
      Backend::synchronizeEvent(call, *event);
  }

  /// Whether the work before the event's last record is done (an event
  /// never recorded is); false with an error recorded when the driver
  /// fails. Not in the mgpu ABI, as the two below.
  static bool eventQuery(void *handle) {
    Call call("eventQuery");
    Event *event = readyEvent(call, handle);
    return event && Backend::queryEvent(call, *event);
  }

  /// The milliseconds between two recorded, completed timed events.
  static float eventElapsed(void *startHandle, void *endHandle) {
    Call call("eventElapsed");
    Event *start = readyEvent(call, startHandle);
    Event *end = start ? readyEvent(call, endHandle) : nullptr;
    return end ? Backend::elapsedTime(call, *start, *end) : 0.0f;
  }

  static void streamWaitEvent(void *streamHandle, void *eventHandle) {
    Call call("mgpuStreamWaitEvent");
    Event *event = readyEvent(call, eventHandle);
    auto *stream = event ? call.stream(streamHandle) : nullptr;
    if (stream)
      Backend::waitEvent(call, *stream, *event);
  }

  //===--------------------------------------------------------------------===//
  // Memory
  //===--------------------------------------------------------------------===//

  static void *memAlloc(uint64_t bytes, void *streamHandle,
                        uint8_t hostShared) {
    Call call("mgpuMemAlloc");
    auto *stream = readyStream(call, streamHandle);
    if (!stream)
      return nullptr;
    return Backend::allocate(call, *stream, bytes, hostShared != 0);
  }

  static void memFree(void *pointer, void *streamHandle) {
    Call call("mgpuMemFree");
    if (call.skipped() || !pointer)
      return;
    auto found = call.state.allocations.find(pointer);
    if (found == call.state.allocations.end()) {
      call.fail(hexAddress(pointer) + " is not a block of mgpuMemAlloc");
      return;
    }
    // On the stream of the device the block is on.
    auto *stream = Backend::ready(call)
                       ? call.stream(streamHandle, found->second.device)
                       : nullptr;
    if (stream)
      Backend::free(call, *stream, pointer);
  }

  static void memcpy(void *destination, void *source, size_t bytes,
                     void *streamHandle) {
    Call call("mgpuMemcpy");
    auto *stream = readyStream(call, streamHandle);
    if (!stream || bytes == 0)
      return;
    if (!destination || !source) {
      call.fail("null pointer (copy of " + llvm::Twine(bytes) + " bytes from " +
                hexAddress(source) + " to " + hexAddress(destination) + ")");
      return;
    }
    Backend::copy(call, *stream, destination, source, bytes);
  }

  static void memset32(void *destination, uint32_t value, size_t count,
                       void *streamHandle) {
    fill("mgpuMemset32", destination, value, count, streamHandle);
  }

  static void memset16(void *destination, uint16_t value, size_t count,
                       void *streamHandle) {
    fill("mgpuMemset16", destination, value, count, streamHandle);
  }

private:
  static void *createEvent(const char *name, bool timed) {
    Call call(name);
    DeviceState *device = readyDevice(call);
    if (!device)
      return nullptr;
    Event *event = Backend::createEvent(call, *device, timed);
    if (event)
      call.state.events.insert(event);
    return event;
  }

  /// The current device, with the driver there; none (recorded) otherwise.
  static DeviceState *readyDevice(Call &call) {
    if (call.skipped() || !Backend::ready(call))
      return nullptr;
    return call.currentDevice();
  }

  /// The stream `handle` is, with the driver there; none (recorded)
  /// otherwise.
  static auto readyStream(Call &call, void *handle)
      -> decltype(call.stream(handle)) {
    if (call.skipped() || !Backend::ready(call))
      return nullptr;
    return call.stream(handle);
  }

  /// The live event `handle` is, with the driver there; none (recorded)
  /// otherwise.
  static Event *readyEvent(Call &call, void *handle) {
    if (call.skipped())
      return nullptr;
    auto *event = call.template live<Event>(handle, call.state.events,
                                            "an event of mgpuEventCreate");
    return event && Backend::ready(call) ? event : nullptr;
  }

  /// `count` copies of `value` at `destination`.
  template <typename T>
  static void fill(const char *name, void *destination, T value, size_t count,
                   void *streamHandle) {
    Call call(name);
    auto *stream = readyStream(call, streamHandle);
    if (!stream || count == 0)
      return;
    size_t bytes;
    if (!destination || __builtin_mul_overflow(count, sizeof(T), &bytes)) {
      call.fail("bad fill of " + llvm::Twine(count) + " values at " +
                hexAddress(destination));
      return;
    }
    Backend::fill(call, *stream, destination, value, count);
  }
};
} // namespace maxgraph::drivers

#endif // MAXGRAPH_RUNTIME_DRIVERS_COMMON_CHECKEDFUNCTIONS_H
