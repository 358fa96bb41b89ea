# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Devices: ``CPU()`` is the host; ``CPU(1)`` and ``GPU(0)`` name others.

Several ``CPU(i)`` devices run in one process, so programs with collectives
can be tested on any machine. ``Accelerator`` is MAX's name for ``GPU``.

Device discovery, with MAX's names: ``accelerator_count()`` counts the GPUs
of the runtime that graphs on ``GPU(n)`` use (CUDA's, or OpenCL's when
``MAXGRAPH_GPU_RUNTIME=opencl``), 0 where it has no driver or device;
``accelerator_api()`` names that runtime (``"cpu"`` without GPUs);
``scan_available_devices``, ``load_devices`` and ``devices_exist`` work on
``DeviceSpec``s.

Streams and events, as MAX's: ``DeviceStream(device)`` and
``device.default_stream`` order work (``Tensor.to(stream)`` copies on a
stream without making the host wait), ``DeviceEvent(device,
enable_timing=False)`` marks a point in a stream (``record_event``,
``wait_for``, ``synchronize``, ``is_ready``, ``elapsed_time``).
``DevicePinnedBuffer(dtype, shape, device)`` is page-locked host memory for
a GPU's copies. A tensor made by a copy on a stream waits for that copy
itself before anything reads it, so a missing synchronization is slower,
never wrong (MAX leaves pinned buffers to the caller to synchronize).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol, Sequence, runtime_checkable

from . import _core
from ._core import CPU, GPU, Device, DeviceEvent, DeviceStream

#: MAX's name for a GPU: ``Accelerator(i)`` is ``GPU(i)``.
Accelerator = GPU


@runtime_checkable
class DLPackArray(Protocol):
    """What exports its memory through DLPack, as MAX's ``DLPackArray``:
    ``__dlpack__`` and ``__dlpack_device__`` (numpy arrays, torch tensors,
    maxgraph Tensors). ``Tensor.from_dlpack`` and ``compile(weights=)``
    take one; ``isinstance(x, DLPackArray)`` checks for the two methods."""

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...

    def __dlpack_device__(self) -> tuple[int, int]: ...


def _gpu_devices() -> list[str]:
    _, names, _ = _core._gpu_devices()
    return names or []


def accelerator_count() -> int:
    """The number of GPUs that the GPU runtime finds (CUDA's, or OpenCL's
    when ``MAXGRAPH_GPU_RUNTIME=opencl``): 0 on a machine without its
    driver or devices, as MAX's."""
    return len(_gpu_devices())


def accelerator_api() -> str:
    """``"cuda"`` or ``"opencl"``, the runtime that programs the GPUs, when
    there are any; ``"cpu"`` otherwise, as MAX's."""
    runtime, names, _ = _core._gpu_devices()
    return runtime if names else "cpu"


def accelerator_names() -> list[str]:
    """The GPUs' names, gpu:0 first ("NVIDIA H100 80GB HBM3"); empty when
    there are none. (Not in MAX.)"""
    return _gpu_devices()


@dataclass(frozen=True)
class DeviceSpec:
    """A device by its id and type, as MAX's: ``DeviceSpec.cpu()``,
    ``DeviceSpec.accelerator(1)``."""

    id: int
    device_type: Literal["cpu", "gpu"] = "cpu"

    def __post_init__(self) -> None:
        if self.device_type not in ("cpu", "gpu"):
            raise ValueError(f"DeviceSpec: device_type is 'cpu' or 'gpu', "
                             f"got {self.device_type!r}")
        if self.device_type == "gpu" and self.id < 0:
            raise ValueError(f"DeviceSpec: an accelerator's id is 0 or "
                             f"more, got {self.id}")

    @staticmethod
    def cpu(id: int = -1) -> "DeviceSpec":
        """The host (id -1, the default, is ``CPU(0)``)."""
        return DeviceSpec(id, "cpu")

    @staticmethod
    def accelerator(id: int = 0) -> "DeviceSpec":
        """GPU `id`."""
        return DeviceSpec(id, "gpu")


def load_device(spec: DeviceSpec) -> Device:
    """The Device of `spec`; a ValueError for a GPU that is not there,
    saying how many there are."""
    if spec.device_type == "cpu":
        return CPU(max(spec.id, 0))
    count = accelerator_count()
    if spec.id >= count:
        reason = "no devices were found" if count == 0 else \
            f"only {count} were found"
        raise ValueError(f"GPU {spec.id} was requested but {reason} "
                         f"({_runtime_detail()})")
    return GPU(spec.id)


def load_devices(specs: Sequence[DeviceSpec]) -> list[Device]:
    """The Devices of `specs`, in order."""
    return [load_device(spec) for spec in specs]


def scan_available_devices() -> list[DeviceSpec]:
    """Every GPU's spec, or the host's alone where there is none, as
    MAX's."""
    count = accelerator_count()
    if count == 0:
        return [DeviceSpec.cpu()]
    return [DeviceSpec.accelerator(i) for i in range(count)]


def devices_exist(specs: Sequence[DeviceSpec]) -> bool:
    """Whether every GPU of `specs` is there (CPUs always are)."""
    count = accelerator_count()
    return all(spec.device_type == "cpu" or spec.id < count
               for spec in specs)


def _default_stream(self: Device) -> DeviceStream:
    """The device's default stream: the one ``Tensor.to(device)`` and the
    runtime's own copies use."""
    return DeviceStream._default(self)


def _synchronize(self: Device) -> None:
    """Blocks until the work enqueued on the device's default stream is
    done (MAX's ``Device.synchronize``)."""
    DeviceStream._default(self).synchronize()


Device.default_stream = property(_default_stream)
Device.synchronize = _synchronize


def DevicePinnedBuffer(dtype, shape: Sequence[int], device=None, *,
                       stream: DeviceStream | None = None):
    """A zero-filled tensor of `dtype` and `shape` in page-locked host
    memory tied to GPU `device` (or to `stream`'s device), as MAX's
    ``DevicePinnedBuffer``: its copies to and from that GPU are DMA
    transfers that do not make the host wait (``Tensor.to(stream)``). A
    ValueError for a CPU device, as MAX's. On a GPU runtime without
    page-locked memory (OpenCL) it is ordinary host memory.

    MaxGraph's Tensor is MAX's Buffer here: the result is a live
    ``Tensor`` with ``is_pinned`` set; ``.to_numpy()`` views its memory."""
    from .dtype import DType
    from .tensor import Tensor
    if stream is not None:
        if device is not None and device != stream.device:
            raise ValueError(f"DevicePinnedBuffer: device {device} and the "
                             f"stream's device {stream.device} differ")
        device = stream.device
    if not isinstance(device, Device):
        raise TypeError(f"DevicePinnedBuffer: takes a GPU device or a "
                        f"stream, got {device!r}")
    if device.kind != "gpu":
        raise ValueError(f"DevicePinnedBuffer: pinned memory is tied to an "
                         f"accelerator, and {device} is a CPU")
    if not isinstance(dtype, DType):
        raise TypeError(f"DevicePinnedBuffer: dtype is a DType, got "
                        f"{dtype!r}")
    dims = []
    for dim in shape:
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 0:
            raise ValueError(f"DevicePinnedBuffer: the shape is "
                             f"non-negative ints, got {list(shape)!r}")
        dims.append(dim)
    return Tensor.pinned(dtype, dims)


def _runtime_detail() -> str:
    """The GPU runtime and what it found, or why it found nothing: the
    driver's error ("cuda: no CUDA driver: libcuda.so.1: ...")."""
    runtime, names, error = _core._gpu_devices()
    if names is None:
        return f"{runtime}: {error}"
    return f"{runtime}: {len(names)} device(s)"


__all__ = ["Accelerator", "CPU", "DLPackArray", "GPU", "Device", "DeviceEvent",
           "DevicePinnedBuffer", "DeviceSpec", "DeviceStream",
           "accelerator_api", "accelerator_count", "accelerator_names",
           "devices_exist", "load_device", "load_devices",
           "scan_available_devices"]
