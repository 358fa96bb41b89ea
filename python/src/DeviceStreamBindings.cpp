//===- DeviceStreamBindings.cpp - streams and events of a device ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MAX's driver.DeviceStream and driver.DeviceEvent over the runtime's
// (Runtime/DeviceStream.h). What waits releases the GIL.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Runtime/DeviceStream.h"
#include <nanobind/stl/string.h>

namespace nb = nanobind;
using namespace maxgraph;

void maxgraph::python::bindDeviceStreams(nb::module_ &m) {
  using Release = nb::call_guard<nb::gil_scoped_release>;

  nb::class_<DeviceEvent>(
      m, "DeviceEvent",
      "A point in a stream's work, as MAX's driver.DeviceEvent: recorded on "
      "a stream (DeviceStream.record_event), it completes when the work "
      "enqueued there before it has.")
      .def(nb::init<Device, bool>(), nb::arg("device"),
           nb::arg("enable_timing") = false,
           "An event of `device`; with `enable_timing`, `elapsed_time` "
           "measures between two such events.")
      .def_prop_ro("device", &DeviceEvent::device)
      .def("synchronize", &DeviceEvent::synchronize, Release(),
           "Blocks until the work before the event's last record is done "
           "(at once for an event never recorded).")
      .def("is_ready", &DeviceEvent::isReady, Release(),
           "Whether that work is done, without waiting.")
      .def("elapsed_time", &DeviceEvent::elapsedTime, nb::arg("end_event"),
           Release(),
           "The milliseconds from this event's record to `end_event`'s "
           "(both made with enable_timing=True and recorded on one device); "
           "waits for both records first.")
      .def("__repr__", [](const DeviceEvent &event) {
        return "DeviceEvent(" + event.device().str() +
               (event.timingEnabled() ? ", enable_timing=True)" : ")");
      });

  nb::class_<DeviceStream>(
      m, "DeviceStream",
      "A stream of execution on a device, as MAX's driver.DeviceStream: "
      "work enqueued on it runs in order; work on two streams of a GPU may "
      "overlap. A CPU's work is done when its call returns, so a CPU stream "
      "is always idle.")
      .def(nb::init<Device>(), nb::arg("device"),
           "A new stream of `device` (of the GPU runtime that "
           "MAXGRAPH_GPU_RUNTIME names, else CUDA, for a GPU).")
      .def_static(
          "_default",
          [](Device device) { return DeviceStream::defaultStream(device); },
          nb::arg("device"))
      .def_prop_ro("device", &DeviceStream::device)
      .def("synchronize", &DeviceStream::synchronize, Release(),
           "Blocks until the work enqueued so far is done.")
      .def(
          "record_event",
          [](const DeviceStream &stream, DeviceEvent *event) -> nb::object {
            if (!event)
              return nb::cast(stream.recordEvent());
            stream.recordEvent(*event);
            return nb::none();
          },
          nb::arg("event").none() = nb::none(),
          "Records `event` here, or a new event when none is given (and "
          "returns it): it completes when the work enqueued here so far "
          "does.")
      .def(
          "wait_for",
          [](const DeviceStream &stream, nb::handle awaited) {
            if (nb::isinstance<DeviceEvent>(awaited)) {
              const DeviceEvent &event = nb::cast<const DeviceEvent &>(awaited);
              nb::gil_scoped_release release;
              stream.waitFor(event);
            } else if (nb::isinstance<DeviceStream>(awaited)) {
              const DeviceStream &other =
                  nb::cast<const DeviceStream &>(awaited);
              nb::gil_scoped_release release;
              stream.waitFor(other);
            } else {
              throw nb::type_error(
                  ("DeviceStream.wait_for: takes a DeviceStream or a "
                   "DeviceEvent, got " +
                   python::typeName(awaited))
                      .c_str());
            }
          },
          nb::arg("stream_or_event"),
          "Makes the work enqueued here from now on wait for an event's "
          "last record, or for the work enqueued on another stream so far, "
          "without making the host wait.")
      .def_prop_ro("is_default", &DeviceStream::isDefault)
      .def_prop_ro("native_stream_handle", &DeviceStream::nativeHandle,
                   "The driver's handle of the stream (a CUstream, a "
                   "cl_command_queue) as an integer, or 0 where there is "
                   "none (a CPU), as MAX's: native code outside MaxGraph "
                   "orders its own work against it.")
      .def(
          "__eq__",
          [](const DeviceStream &a, nb::handle b) {
            return nb::isinstance<DeviceStream>(b) &&
                   a == nb::cast<const DeviceStream &>(b);
          },
          nb::arg("other").none())
      .def("__hash__",
           [](const DeviceStream &stream) {
             return nb::hash(nb::str(stream.device().str().c_str()));
           })
      .def("__repr__", [](const DeviceStream &stream) {
        return std::string(stream.isDefault() ? "DeviceStream(default, "
                                              : "DeviceStream(") +
               stream.device().str() + ")";
      });
}
