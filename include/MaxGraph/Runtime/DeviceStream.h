//===- DeviceStream.h - streams and events of a device ----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Streams of execution and events, as MAX's driver.DeviceStream and
// driver.DeviceEvent: work enqueued on one stream runs in order, work on
// two streams of a GPU may overlap, and events order streams against each
// other and against the host. Over the GPU runtimes' own streams and
// events (CUDA streams, OpenCL command queues and markers). On a CPU every
// operation is done when its call returns, so a CPU stream is always idle:
// its waits return at once and its events complete when recorded.
// No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_DEVICESTREAM_H
#define MAXGRAPH_RUNTIME_DEVICESTREAM_H

#include "MaxGraph/Support/Device.h"
#include <cstdint>
#include <memory>
#include <string>

namespace maxgraph {
namespace detail {
struct DeviceRuntime;
} // namespace detail

class DeviceStream;

/// A point in a stream's work: recorded on a stream, it completes when the
/// work enqueued there before the record has. Copies share the event.
class DeviceEvent {
public:
  /// An event of `device` (for a GPU, of the GPU runtime `runtime`, as
  /// HostTensor::to names it). With `enableTiming`, elapsedTime() can
  /// measure between two of its kind. Throws RuntimeError when the runtime
  /// cannot make one (no driver, no such device).
  explicit DeviceEvent(Device device, bool enableTiming = false,
                       const std::string &runtime = "");

  Device device() const;
  bool timingEnabled() const;
  /// Whether it was recorded on a stream yet.
  bool isRecorded() const;

  /// Blocks the host until the work before the last record is done (at
  /// once for an event never recorded).
  void synchronize() const;
  /// Whether that work is done, without waiting.
  bool isReady() const;
  /// The milliseconds from this event's last record to `end`'s, both timed
  /// events of one device, recorded and complete. Throws
  /// std::invalid_argument naming what is missing.
  float elapsedTime(const DeviceEvent &end) const;

private:
  friend class DeviceStream;
  struct State;
  std::shared_ptr<State> state_;
};

/// A stream of execution of one device. Copies share the stream, which the
/// runtime releases (once its work is done) with the last of them.
class DeviceStream {
public:
  /// A new stream of `device` (of `runtime` for a GPU, as for DeviceEvent).
  /// Throws RuntimeError when the runtime cannot make one.
  explicit DeviceStream(Device device, const std::string &runtime = "");

  /// The device's default stream: the one that HostTensor::to, frees and
  /// the runtime's own copies use.
  static DeviceStream defaultStream(Device device,
                                    const std::string &runtime = "");

  Device device() const;
  bool isDefault() const;
  /// The GPU runtime's stream handle (null for a default stream and on a
  /// CPU); the runtime's functions take it.
  void *handle() const;
  /// The driver's handle of the stream (a CUstream, a cl_command_queue) as
  /// an integer, for code outside MaxGraph that orders its own work
  /// against it; 0 on a CPU, whose streams have none (MAX's
  /// native_stream_handle). Throws RuntimeError when the runtime cannot.
  uintptr_t nativeHandle() const;
  /// The GPU runtime of the stream; null on a CPU.
  const detail::DeviceRuntime *runtime() const;

  /// Blocks the host until the work enqueued so far is done.
  void synchronize() const;
  /// Records `event` here; it completes when the work enqueued here so far
  /// does. The event must belong to this stream's device.
  void recordEvent(DeviceEvent &event) const;
  /// A new event recorded here.
  DeviceEvent recordEvent() const;
  /// Makes the work enqueued here from now on wait for `event`'s last
  /// record, without making the host wait (a CPU stream's work runs on the
  /// host: it waits for the event there).
  void waitFor(const DeviceEvent &event) const;
  /// Makes the work enqueued here from now on wait for the work enqueued on
  /// `other` so far.
  void waitFor(const DeviceStream &other) const;

  bool operator==(const DeviceStream &other) const {
    return state_ == other.state_ ||
           (isDefault() && other.isDefault() && device() == other.device() &&
            runtime() == other.runtime());
  }

private:
  struct State;
  explicit DeviceStream(std::shared_ptr<State> state)
      : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_DEVICESTREAM_H
