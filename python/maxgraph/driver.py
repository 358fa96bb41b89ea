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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol, Sequence, runtime_checkable

from . import _core
from ._core import CPU, GPU, Device

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


def _runtime_detail() -> str:
    """The GPU runtime and what it found, or why it found nothing: the
    driver's error ("cuda: no CUDA driver: libcuda.so.1: ...")."""
    runtime, names, error = _core._gpu_devices()
    if names is None:
        return f"{runtime}: {error}"
    return f"{runtime}: {len(names)} device(s)"


__all__ = ["Accelerator", "CPU", "DLPackArray", "GPU", "Device", "DeviceSpec",
           "accelerator_api", "accelerator_count", "accelerator_names",
           "devices_exist", "load_device", "load_devices",
           "scan_available_devices"]
