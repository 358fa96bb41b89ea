//===- HostInterface.h - what the mgpu host interfaces share ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each GPU runtime (Drivers/CUDA, Drivers/OpenCL) implements MLIR's mgpu
// host ABI over its driver. What does not depend on the driver is here:
// the pending error that makes later calls no-ops until it is taken, the
// call that holds the runtime's lock and names itself in its errors, the
// device selection, and the step from a pending error to an llvm::Error
// for the runtime's C++ functions. The mgpu functions' own checks are in
// CheckedFunctions.h. No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_DRIVERS_COMMON_HOSTINTERFACE_H
#define MAXGRAPH_RUNTIME_DRIVERS_COMMON_HOSTINTERFACE_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace maxgraph::drivers {
/// The state every runtime keeps behind its mutex: the error of the calling
/// thread (mgpu functions return no status, so the first failure is kept
/// and every later call is a no-op until it is taken) and the device that
/// its calls without a stream use. Both are per host thread, as CUDA's
/// current device is: a graph over several GPUs runs each GPU's part on a
/// thread of its own, and each takes the errors of its own calls.
/// `Derived` opens devices: it defines
/// `llvm::Expected<DeviceState *> device(int index)`.
template <typename Derived> class HostInterfaceState {
public:
  std::mutex mutex;

  /// Whether an error is pending: every mgpu call is a no-op until it is
  /// taken.
  bool failed() const { return pendingError.has_value(); }
  /// Keeps `message` unless an error is pending already.
  void fail(std::string message) {
    if (!pendingError)
      pendingError = std::move(message);
  }
  /// The pending error, which is then gone.
  std::optional<std::string> takeError() {
    return std::exchange(pendingError, std::nullopt);
  }

  /// The device of mgpuSetDefaultDevice / selectDevice (gpu:0 at first).
  auto currentDevice() { return static_cast<Derived *>(this)->device(current); }

  /// Makes gpu:`index` (opened now if it is not yet) the current device, or
  /// says why it cannot be.
  llvm::Error selectDevice(int index) {
    auto selected = static_cast<Derived *>(this)->device(index);
    if (!selected)
      return selected.takeError();
    current = index;
    return llvm::Error::success();
  }

private:
  static thread_local std::optional<std::string> pendingError;
  static thread_local int current;
};

template <typename Derived>
thread_local std::optional<std::string>
    HostInterfaceState<Derived>::pendingError;
template <typename Derived>
thread_local int HostInterfaceState<Derived>::current = 0;

/// The mgpu functions whose work does not depend on the driver, for a
/// runtime whose calls are `CallT`: selecting the default device, and those
/// that no kernel of maxgraph-lower-to-gpu calls (each records that the
/// runtime does not support it).
template <typename CallT> struct SharedFunctions {
  static void setDefaultDevice(int32_t index) {
    CallT call("mgpuSetDefaultDevice");
    if (call.skipped())
      return;
    if (llvm::Error error = call.state.selectDevice(index))
      call.fail(std::move(error));
  }
  static void launchClusterKernel(void *, intptr_t, intptr_t, intptr_t,
                                  intptr_t, intptr_t, intptr_t, intptr_t,
                                  intptr_t, intptr_t, int32_t, void *, void **,
                                  void **) {
    CallT("mgpuLaunchClusterKernel").unsupported("thread block clusters");
  }
  static void *tensorMapEncodeTiledMemref(int64_t, void *, int64_t, int64_t,
                                          int64_t, int64_t, int64_t,
                                          int64_t *) {
    CallT("mgpuTensorMapEncodeTiledMemref").unsupported("tensor maps (TMA)");
    return nullptr;
  }
};

/// `pointer` as the errors show a handle: `0x` and hex digits.
inline std::string hexAddress(const void *pointer) {
  return "0x" + llvm::utohexstr(reinterpret_cast<uintptr_t>(pointer));
}

/// One mgpu call of a runtime whose state is `State` (a HostInterfaceState
/// with a static `get()`): holds the runtime's lock, and records what fails
/// with the call's name in front.
template <typename State> class HostInterfaceCall {
public:
  explicit HostInterfaceCall(const char *name)
      : state(State::get()), lock(state.mutex), name(name) {}

  /// Whether a pending error makes the call a no-op.
  bool skipped() const { return state.failed(); }

  /// Records "<call>: <message>" (unless an error is pending); false.
  bool fail(const llvm::Twine &message) {
    state.fail((name + ": " + message).str());
    return false;
  }
  bool fail(llvm::Error error) {
    return fail(llvm::toString(std::move(error)));
  }
  /// Records "<call>: <what>: <error>", or "<call>: <error>" when `what` is
  /// empty (a driver call's failure, described); false.
  bool failIn(const llvm::Twine &what, const std::string &error) {
    if (what.isTriviallyEmpty())
      return fail(error);
    return fail(what + ": " + error);
  }

  /// What `expected` refers to, or none (its error recorded).
  template <typename T> T *valueOrFail(llvm::Expected<T &> expected) {
    if (expected)
      return &*expected;
    fail(expected.takeError());
    return nullptr;
  }
  template <typename T> T *valueOrFail(llvm::Expected<T *> expected) {
    if (expected)
      return *expected;
    fail(expected.takeError());
    return nullptr;
  }

  /// `handle` as a `T` that `handles` holds (what an mgpu function gave
  /// out and no other took back); none (recorded: "<handle> is not <what>")
  /// otherwise.
  template <typename T, typename Set>
  T *live(void *handle, const Set &handles, llvm::StringRef what) {
    auto *object = static_cast<T *>(handle);
    if (handle && handles.contains(object))
      return object;
    fail(hexAddress(handle) + " is not " + what);
    return nullptr;
  }

  /// Records (unless an error is pending) that the runtime does not do
  /// `what`: "<what> are not supported by <State::kUnsupportedBy>".
  void unsupported(llvm::StringRef what) {
    if (!skipped())
      fail(what + " are not supported by " + State::kUnsupportedBy);
  }

  /// Stream `handle` (a handle of mgpuStreamCreate) as a `StreamT`; none
  /// (recorded) for a handle that is not a live stream or is a stream of
  /// another device than `device` (any device when null).
  template <typename StreamT, typename DeviceT>
  StreamT *liveStream(void *handle, const DeviceT *device) {
    auto *stream =
        live<StreamT>(handle, state.streams, "a stream of mgpuStreamCreate");
    if (!stream)
      return nullptr;
    if (device && stream->device != device) {
      fail("a stream of " + stream->device->label + " used for " +
           device->label);
      return nullptr;
    }
    return stream;
  }

  /// Lets other threads in while this one waits for the device.
  void unlock() { lock.unlock(); }
  void relock() { lock.lock(); }

  State &state;

private:
  std::unique_lock<std::mutex> lock;
  llvm::StringRef name;
};

/// Why the sizes that a collective entry was given (named) cannot be: one
/// is negative, or their product does not fit in 64 bits; none when they
/// can.
inline std::optional<std::string>
sizeError(std::initializer_list<std::pair<const char *, int64_t>> values) {
  int64_t product = 1;
  for (auto [what, value] : values) {
    if (value < 0)
      return ("bad size: " + llvm::Twine(what) + " is " + llvm::Twine(value))
          .str();
    if (__builtin_mul_overflow(product, value, &product))
      return std::string("sizes too large: their product overflows 64 bits");
  }
  return std::nullopt;
}

/// `message` as an llvm::Error: how the drivers' C++ functions fail.
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A pending error (`message`, taken from the runtime) as an llvm::Error,
/// or success when there is none.
inline llvm::Error toError(std::optional<std::string> message) {
  if (message)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *message);
  return llvm::Error::success();
}
} // namespace maxgraph::drivers

#endif // MAXGRAPH_RUNTIME_DRIVERS_COMMON_HOSTINTERFACE_H
