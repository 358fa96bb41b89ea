# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Devices: ``CPU()`` is the host; ``CPU(1)`` and ``GPU(0)`` name others.

Several ``CPU(i)`` devices run in one process, so programs with collectives
can be tested on any machine. ``Accelerator`` is MAX's name for ``GPU``.
"""

from ._core import CPU, GPU, Device

#: MAX's name for a GPU: ``Accelerator(i)`` is ``GPU(i)``.
Accelerator = GPU

__all__ = ["Accelerator", "CPU", "GPU", "Device"]
