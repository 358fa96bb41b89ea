"""MaxGraph: stage tensor programs into the ``maxgraph`` MLIR dialect, without
running them, and compile them for the CPU.

    from maxgraph import compilation
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

StagingError = _core.StagingError

from . import compilation, driver, dtype, ops, sharding, tensor  # noqa: E402

__all__ = [
    "StagingError",
    "compilation",
    "driver",
    "dtype",
    "ops",
    "sharding",
    "tensor",
]
