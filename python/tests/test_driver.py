# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Device discovery with MAX's names: counts from the GPU runtime that
graphs on GPU(n) use, checked against the drivers' own C APIs."""

import ctypes

import pytest

from maxgraph import driver
from maxgraph.driver import CPU, GPU, DeviceSpec

from test_gpu_opencl import _opencl_devices, needs_opencl


def _cuda_devices() -> int:
    """cuDeviceGetCount through libcuda itself: 0 without a driver."""
    try:
        library = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return 0
    if library.cuInit(0) != 0:
        return 0
    count = ctypes.c_int(0)
    if library.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


def test_cuda_is_counted_by_default(monkeypatch):
    monkeypatch.delenv("MAXGRAPH_GPU_RUNTIME", raising=False)
    count = _cuda_devices()
    assert driver.accelerator_count() == count
    assert driver.accelerator_api() == ("cuda" if count else "cpu")
    assert len(driver.accelerator_names()) == count
    if count == 0:
        # A CPU-only machine says 0 and scans to the host, as MAX does.
        assert driver.scan_available_devices() == [DeviceSpec.cpu()]
        assert not driver.devices_exist([DeviceSpec.accelerator(0)])
        with pytest.raises(ValueError, match=r"GPU 0 was requested but no "
                           r"devices were found \(cuda: "):
            driver.load_device(DeviceSpec.accelerator())


@needs_opencl
def test_opencl_devices_count_only_when_chosen(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    count = driver.accelerator_count()
    assert 1 <= count <= _opencl_devices()
    assert driver.accelerator_api() == "opencl"
    names = driver.accelerator_names()
    assert len(names) == count and all(isinstance(n, str) and n
                                       for n in names)
    assert driver.scan_available_devices() == [
        DeviceSpec.accelerator(i) for i in range(count)]
    assert driver.load_devices([DeviceSpec.accelerator(0),
                                DeviceSpec.cpu()]) == [GPU(0), CPU(0)]
    assert driver.devices_exist([DeviceSpec.accelerator(count - 1)])
    assert not driver.devices_exist([DeviceSpec.accelerator(count)])
    with pytest.raises(ValueError, match=rf"GPU {count} was requested but "
                       rf"only {count} were found \(opencl: {count} "):
        driver.load_device(DeviceSpec.accelerator(count))


def test_device_specs():
    assert DeviceSpec.cpu() == DeviceSpec(-1, "cpu")
    assert DeviceSpec.accelerator() == DeviceSpec(0, "gpu")
    assert driver.load_devices([DeviceSpec.cpu(), DeviceSpec.cpu(1)]) == [
        CPU(0), CPU(1)]
    assert driver.devices_exist([DeviceSpec.cpu(3)])
    with pytest.raises(ValueError, match="an accelerator's id is 0 or more, "
                       "got -1"):
        DeviceSpec(-1, "gpu")
    with pytest.raises(ValueError, match="device_type is 'cpu' or 'gpu', "
                       "got 'tpu'"):
        DeviceSpec(0, "tpu")


def test_an_unknown_runtime_is_named(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "metal")
    with pytest.raises(Exception, match="unknown GPU runtime 'metal', "
                       "expected opencl or cuda"):
        driver.accelerator_count()


def test_dlpack_array_is_a_protocol_of_the_two_methods():
    import numpy as np

    from maxgraph.driver import DLPackArray
    from maxgraph.tensor import Tensor

    array = np.arange(3, dtype=np.float32)
    assert isinstance(array, DLPackArray)
    tensor = Tensor.from_dlpack(array)
    assert isinstance(tensor, DLPackArray)
    assert not isinstance([1.0, 2.0], DLPackArray)
    assert not isinstance(memoryview(b"ab"), DLPackArray)
