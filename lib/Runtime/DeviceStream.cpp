//===- DeviceStream.cpp - streams and events of a device ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/DeviceStream.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Support/Error.h"
#include <atomic>
#include <chrono>
#include <stdexcept>

using namespace maxgraph;

/// Throws "<what>: <error>" for a failed runtime call.
static void check(llvm::Error error, const std::string &what) {
  if (error)
    throw RuntimeError(what + ": " + llvm::toString(std::move(error)));
}

template <typename T>
static T check(llvm::Expected<T> value, const std::string &what) {
  if (!value)
    check(value.takeError(), what);
  return *value;
}

/// The runtime of a GPU device (null for a CPU), with the device made the
/// calling thread's current one: the runtimes' functions act on it.
static const detail::DeviceRuntime *
enter(Device device, const std::string &runtime, const std::string &what) {
  if (device.kind != Device::Kind::GPU)
    return nullptr;
  const detail::DeviceRuntime &rt = detail::deviceRuntime(runtime);
  check(rt.selectDevice(device.id), what);
  return &rt;
}

/// Destroys a stream or event of `device` with `destroy`; a destructor has
/// nobody to give an error to.
static void release(const detail::DeviceRuntime &rt, Device device,
                    llvm::Error (*destroy)(void *), void *handle) {
  if (llvm::Error error = rt.selectDevice(device.id))
    llvm::consumeError(std::move(error));
  else
    llvm::consumeError(destroy(handle));
}

//===----------------------------------------------------------------------===//
// DeviceEvent
//===----------------------------------------------------------------------===//

struct DeviceEvent::State {
  Device device;
  bool timed;
  const detail::DeviceRuntime *rt;
  /// The runtime's event; null on a CPU.
  void *handle = nullptr;
  std::atomic<bool> recorded = false;
  /// On a CPU: when the last record was made (its work was done by then),
  /// in steady-clock nanoseconds.
  std::atomic<int64_t> hostTime = 0;

  State(Device device, bool timed, const detail::DeviceRuntime *rt)
      : device(device), timed(timed), rt(rt) {}
  ~State() {
    if (handle)
      release(*rt, device, rt->destroyEvent, handle);
  }
  std::string label() const { return "DeviceEvent of " + device.str(); }
};

DeviceEvent::DeviceEvent(Device device, bool enableTiming,
                         const std::string &runtime) {
  std::string what = "DeviceEvent(" + device.str() + ")";
  const detail::DeviceRuntime *rt = enter(device, runtime, what);
  state_ = std::make_shared<State>(device, enableTiming, rt);
  if (rt)
    state_->handle = check(rt->createEvent(enableTiming), what);
}

Device DeviceEvent::device() const { return state_->device; }
bool DeviceEvent::timingEnabled() const { return state_->timed; }
bool DeviceEvent::isRecorded() const { return state_->recorded; }

void DeviceEvent::synchronize() const {
  if (!state_->handle || !state_->recorded)
    return;
  std::string what = state_->label() + ": synchronize";
  check(state_->rt->selectDevice(state_->device.id), what);
  check(state_->rt->synchronizeEvent(state_->handle), what);
}

bool DeviceEvent::isReady() const {
  if (!state_->handle || !state_->recorded)
    return true;
  std::string what = state_->label() + ": isReady";
  check(state_->rt->selectDevice(state_->device.id), what);
  return check(state_->rt->queryEvent(state_->handle), what);
}

float DeviceEvent::elapsedTime(const DeviceEvent &end) const {
  const State &from = *state_, &to = *end.state_;
  std::string what = from.label() + ": elapsedTime";
  for (const State *event : {&from, &to}) {
    const char *which = event == &from ? "the start event" : "the end event";
    if (!event->timed)
      throw std::invalid_argument(what + ": " + which +
                                  " was made without timing "
                                  "(DeviceEvent(device, enable_timing=True))");
    if (!event->recorded)
      throw std::invalid_argument(what + ": " + which +
                                  " was not recorded on a stream");
  }
  if (from.device != to.device || from.rt != to.rt)
    throw std::invalid_argument(what + ": the end event is of " +
                                to.device.str() + ", another device");
  if (!from.handle)
    return static_cast<float>(to.hostTime - from.hostTime) * 1e-6f;
  // The times are there once both records completed.
  synchronize();
  end.synchronize();
  check(from.rt->selectDevice(from.device.id), what);
  return check(from.rt->elapsedTime(from.handle, to.handle), what);
}

//===----------------------------------------------------------------------===//
// DeviceStream
//===----------------------------------------------------------------------===//

struct DeviceStream::State {
  Device device;
  const detail::DeviceRuntime *rt;
  /// The runtime's stream; null for a default stream and on a CPU.
  void *handle = nullptr;
  bool isDefault;

  State(Device device, const detail::DeviceRuntime *rt, bool isDefault)
      : device(device), rt(rt), isDefault(isDefault) {}
  ~State() {
    // The runtime releases it once its work is done.
    if (handle)
      release(*rt, device, rt->destroyStream, handle);
  }
  std::string label() const {
    return std::string(isDefault ? "the default stream" : "a stream") + " of " +
           device.str();
  }
};

DeviceStream::DeviceStream(Device device, const std::string &runtime) {
  std::string what = "DeviceStream(" + device.str() + ")";
  const detail::DeviceRuntime *rt = enter(device, runtime, what);
  state_ = std::make_shared<State>(device, rt, /*isDefault=*/false);
  if (rt)
    state_->handle = check(rt->createStream(), what);
}

DeviceStream DeviceStream::defaultStream(Device device,
                                         const std::string &runtime) {
  const detail::DeviceRuntime *rt = device.kind == Device::Kind::GPU
                                        ? &detail::deviceRuntime(runtime)
                                        : nullptr;
  return DeviceStream(std::make_shared<State>(device, rt, /*isDefault=*/true));
}

Device DeviceStream::device() const { return state_->device; }
bool DeviceStream::isDefault() const { return state_->isDefault; }
void *DeviceStream::handle() const { return state_->handle; }
const detail::DeviceRuntime *DeviceStream::runtime() const {
  return state_->rt;
}

uintptr_t DeviceStream::nativeHandle() const {
  if (!state_->rt)
    return 0;
  std::string what = state_->label() + ": nativeHandle";
  check(state_->rt->selectDevice(state_->device.id), what);
  return reinterpret_cast<uintptr_t>(
      check(state_->rt->nativeStream(state_->handle), what));
}

void DeviceStream::synchronize() const {
  if (!state_->rt)
    return;
  std::string what = state_->label() + ": synchronize";
  check(state_->rt->selectDevice(state_->device.id), what);
  check(state_->rt->synchronize(state_->handle), what);
}

void DeviceStream::recordEvent(DeviceEvent &event) const {
  DeviceEvent::State &recorded = *event.state_;
  std::string what = state_->label() + ": recordEvent";
  if (recorded.device != state_->device || recorded.rt != state_->rt)
    throw std::invalid_argument(what + ": the event is of " +
                                recorded.device.str() +
                                "; record it on a stream of its own device");
  if (!state_->rt) {
    // The work enqueued here so far is done.
    recorded.hostTime = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
  } else {
    check(state_->rt->selectDevice(state_->device.id), what);
    check(state_->rt->recordEvent(recorded.handle, state_->handle), what);
  }
  recorded.recorded = true;
}

DeviceEvent DeviceStream::recordEvent() const {
  DeviceEvent event(state_->device, /*enableTiming=*/false,
                    state_->rt ? state_->rt->name : "");
  recordEvent(event);
  return event;
}

void DeviceStream::waitFor(const DeviceEvent &event) const {
  const DeviceEvent::State &awaited = *event.state_;
  if (!awaited.recorded || !awaited.rt)
    return;
  if (!state_->rt) {
    // This stream's work runs on the host, after the call that enqueues it.
    event.synchronize();
    return;
  }
  std::string what = state_->label() + ": waitFor";
  if (awaited.rt != state_->rt)
    throw std::invalid_argument(what + ": the event is of " +
                                awaited.device.str() + " of the " +
                                awaited.rt->name + " runtime, this stream of " +
                                state_->rt->name + "'s");
  check(state_->rt->selectDevice(state_->device.id), what);
  check(state_->rt->waitEvent(state_->handle, awaited.handle), what);
}

void DeviceStream::waitFor(const DeviceStream &other) const {
  if (!other.state_->rt || other == *this)
    return;
  waitFor(other.recordEvent());
}
