"""Devices: ``CPU()`` is the host; ``CPU(1)`` and ``GPU(0)`` name others.

Several ``CPU(i)`` devices run in one process, so programs with collectives
can be tested on any machine.
"""

from ._core import CPU, GPU, Device

__all__ = ["CPU", "GPU", "Device"]
