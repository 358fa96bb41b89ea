# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Random tensors with MAX's names (``max.experimental.random``).

Inside a staged function the seed is the graph's: 0 until ``set_seed``,
and every ``uniform`` (``gaussian`` takes two) uses it and advances it by
one, so one graph's calls differ and the graph stays a function of its
inputs (pass a seed in as a rank-0 int64 tensor to vary it per call).
Values are counter-based: a function of the seed and each element's index,
the same on any number of threads. Inside a ``while_loop`` body, set the
seed from a carried counter, or every round draws the same values.
Outside a staged function the seed is the process's and the tensors are
live.
"""

from __future__ import annotations

import numpy

from . import ops as _ops
from .dtype import DType
from .functional import _LIVE_SEED, _in_trace, gaussian, normal, uniform
from .tensor import Tensor

__all__ = ["gaussian", "normal", "seed", "set_seed", "uniform"]


def seed():
    """The seed the next random tensor takes: the graph's (a rank-0 int64
    Tensor) inside a staged function, the process's (an int) outside."""
    if _in_trace():
        return _ops.random_seed()
    return _LIVE_SEED[0]


def set_seed(value) -> None:
    """Sets the seed: an int, or inside a staged function a rank-0 integer
    Tensor (an input, so that each call draws other values)."""
    if isinstance(value, Tensor) and not value.is_live:
        _ops.set_random_seed(value)
        return
    if isinstance(value, bool) or not isinstance(value, (int, numpy.integer)):
        raise TypeError(f"set_seed: the seed must be an int or a traced "
                        f"rank-0 integer Tensor, got {type(value)}")
    if not -2**63 <= int(value) < 2**64:
        raise ValueError(f"set_seed: {value} does not fit in 64 bits")
    if _in_trace():
        from .functional import constant
        _ops.set_random_seed(constant(
            numpy.array(int(value) if value < 2**63 else int(value) - 2**64,
                        numpy.int64), DType.int64))
    else:
        _LIVE_SEED[0] = int(value)
