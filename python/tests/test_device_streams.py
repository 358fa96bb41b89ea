"""maxgraph.driver's streams and events, as MAX's DeviceStream and
DeviceEvent, and DevicePinnedBuffer: on the CPU (always idle), and through
the OpenCL runtime (PoCL's CPU device), where a copy on a stream runs on its
own command queue. What reaches the CUDA driver is checked over its stand-in
(unittests/Runtime/Drivers/DeviceStreamTest.cpp)."""

import time

import numpy as np
import pytest

from maxgraph import compilation, driver, ops
from maxgraph.driver import (CPU, GPU, DeviceEvent, DevicePinnedBuffer,
                             DeviceStream)
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor
from test_gpu_opencl import needs_opencl


def test_the_driver_exports_maxs_stream_names():
    for name in ("DeviceStream", "DeviceEvent", "DevicePinnedBuffer"):
        assert name in driver.__all__
        assert getattr(driver, name) is not None


def test_a_cpu_stream_is_idle_and_its_events_time_the_host():
    stream = DeviceStream(CPU())
    assert stream.device == CPU()
    assert not stream.is_default
    assert stream.native_stream_handle == 0     # none on a CPU, as MAX's
    assert CPU().default_stream.is_default
    assert CPU().default_stream == CPU().default_stream
    assert stream != CPU().default_stream
    start = DeviceEvent(CPU(), enable_timing=True)
    end = DeviceEvent(CPU(), enable_timing=True)
    assert start.is_ready()            # never recorded
    stream.record_event(start)
    time.sleep(0.02)
    stream.record_event(end)
    assert end.is_ready()
    assert 20 <= start.elapsed_time(end) < 5000
    event = stream.record_event()      # a new event, returned
    assert isinstance(event, DeviceEvent) and event.is_ready()
    stream.wait_for(event)
    stream.wait_for(CPU().default_stream)
    stream.synchronize()
    CPU().synchronize()


def test_timing_needs_timed_recorded_events():
    stream = DeviceStream(CPU())
    untimed, timed = DeviceEvent(CPU()), DeviceEvent(CPU(), True)
    stream.record_event(untimed)
    with pytest.raises(ValueError, match="the start event was made without "
                       r"timing \(DeviceEvent\(device, enable_timing=True\)"):
        untimed.elapsed_time(timed)
    stream.record_event(timed)
    with pytest.raises(ValueError, match="the end event was not recorded"):
        timed.elapsed_time(DeviceEvent(CPU(), True))
    with pytest.raises(ValueError, match="the event is of cpu:1; record it "
                       "on a stream of its own device"):
        stream.record_event(DeviceEvent(CPU(1)))
    with pytest.raises(TypeError, match="DeviceStream.wait_for: takes a "
                       "DeviceStream or a DeviceEvent, got <class 'int'>"):
        stream.wait_for(3)


def test_pinned_buffers_are_tied_to_an_accelerator():
    with pytest.raises(ValueError, match="pinned memory is tied to an "
                       "accelerator, and cpu:0 is a CPU"):
        DevicePinnedBuffer(DType.float32, [4], CPU())
    with pytest.raises(ValueError, match="the shape is non-negative ints"):
        DevicePinnedBuffer(DType.float32, [-1], GPU(0))
    with pytest.raises(TypeError, match="dtype is a DType"):
        DevicePinnedBuffer("float32", [4], GPU(0))
    with pytest.raises(ValueError, match="device gpu:1 and the stream's "
                       "device cpu:0 differ"):
        DevicePinnedBuffer(DType.float32, [4], GPU(1),
                           stream=DeviceStream(CPU()))


@needs_opencl
def test_opencl_copies_on_streams_land_before_they_are_read(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    gpu = GPU(0)
    first, second = DeviceStream(gpu), DeviceStream(gpu)
    assert first != second and first.device == gpu
    # Their command queues, one each, and the device's own for the default.
    handles = {first.native_stream_handle, second.native_stream_handle,
               gpu.default_stream.native_stream_handle}
    assert len(handles) == 3 and 0 not in handles
    values = np.arange(1 << 16, dtype=np.float32)
    pinned = DevicePinnedBuffer(DType.float32, [1 << 16], gpu)
    # OpenCL has no page-locked memory of its own: ordinary host memory.
    assert not pinned.is_pinned
    pinned.to_numpy()[:] = values
    on_first = pinned.to(first)
    on_second = Tensor.from_numpy(values * 2).to(second)
    assert not on_first.is_host and on_first.device == gpu
    # Read without a synchronization: each waits for its own copy.
    np.testing.assert_array_equal(on_second.to_numpy(), values * 2)
    np.testing.assert_array_equal(on_first.to_numpy(), values)
    # Already on the stream's device: the same elements, not copied.
    np.testing.assert_array_equal(on_first.to(second).to_numpy(), values)


@needs_opencl
def test_opencl_events_order_streams_and_time_copies(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    gpu = GPU(0)
    stream = DeviceStream(gpu)
    start = DeviceEvent(gpu, enable_timing=True)
    end = DeviceEvent(gpu, enable_timing=True)
    stream.record_event(start)
    copied = Tensor.from_numpy(np.ones(1 << 20, np.float32)).to(stream)
    stream.record_event(end)
    gpu.default_stream.wait_for(end)
    gpu.default_stream.wait_for(stream)
    end.synchronize()
    assert end.is_ready() and start.is_ready()
    assert 0 <= start.elapsed_time(end) < 10000
    stream.synchronize()
    gpu.synchronize()
    assert float(copied.to_numpy().sum()) == float(1 << 20)


@needs_opencl
def test_a_graph_reads_a_tensor_copied_on_a_stream(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    gpu = GPU(0)
    run = compilation.compile(lambda x: ops.exp(x) * 2)(
        TensorLayout(DType.float32, [4096], gpu))
    values = np.linspace(-2, 2, 4096, dtype=np.float32)
    x = Tensor.from_numpy(values).to(DeviceStream(gpu))
    out = run(x)
    np.testing.assert_allclose(out.to(CPU()).to_numpy(),
                               np.exp(values) * 2, rtol=1e-5)
