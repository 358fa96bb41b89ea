# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MaxGraph: stage tensor programs into the ``maxgraph`` MLIR dialect, without
running them, and compile them for the CPU.

    from maxgraph import compilation
    import maxgraph.functional as F    # MAX's functional names
    from maxgraph.dtype import DType
    from maxgraph.driver import CPU
    from maxgraph.sharding import TensorLayout
    from maxgraph.tensor import Tensor

Tracing, shape checks and IR building happen in MaxGraph's C++ staging
library (``maxgraph._core``); this package walks Python trees of specs and
results around it.
"""

import os as _os

from . import _core

# Op locations name the user's line: frames inside this package are skipped.
_core._set_package_directory(_os.path.dirname(__file__))

# The exceptions, as in C++ (MaxGraph/Support/Error.h), all ValueErrors:
# Error is the base; StagingError a mistake found while staging, located at
# the user's line; RuntimeError a failure while compiling or running a graph
# (inputs that do not fit, a lowering or JIT failure, an .npy file).
Error = _core.Error
StagingError = _core.StagingError
RuntimeError = _core.RuntimeError


def set_num_threads(count: int) -> None:
    """Runs compiled CPU code on ``count`` threads, from any Python thread
    that calls it; 0 goes back to OpenMP's default (``OMP_NUM_THREADS``, or
    every core). As ``torch.set_num_threads``; a negative count raises
    ``maxgraph.RuntimeError``."""
    _core.set_num_threads(count)


def get_num_threads() -> int:
    """The number of threads compiled CPU code runs on."""
    return _core.get_num_threads()


def set_spin_time(milliseconds: int) -> None:
    """How long OpenMP's threads wait spinning for more work after a
    parallel loop of compiled CPU code before they sleep (OpenMP's
    blocktime), for the whole process. The default is 1 ms unless
    ``KMP_BLOCKTIME`` is set: enough for one op's loops to follow the
    previous one's, too short for a call to leave threads spinning against
    the caller's own work or other libraries (libomp's own default is
    200 ms). A negative time raises ``maxgraph.RuntimeError``."""
    _core.set_spin_time(milliseconds)


def get_spin_time() -> int:
    """The spin time compiled CPU code runs with, in milliseconds."""
    return _core.get_spin_time()


from . import (  # noqa: E402
    compilation, distributed, driver, dtype, functional, ops, quantization,
    sharding, tensor, weights)
from .tensor import Tensor  # noqa: E402  (MAX's max.experimental.Tensor)

# RuntimeError is left out of `from maxgraph import *`: it would shadow the
# builtin RuntimeError there. Use it as `maxgraph.RuntimeError`.
__all__ = [
    "Error",
    "StagingError",
    "Tensor",
    "compilation",
    "distributed",
    "driver",
    "dtype",
    "functional",
    "get_num_threads",
    "get_spin_time",
    "ops",
    "quantization",
    "set_num_threads",
    "set_spin_time",
    "sharding",
    "tensor",
    "weights",
]
