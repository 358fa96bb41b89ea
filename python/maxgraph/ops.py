# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One function per maxgraph op.

Each stages its op in the graph being traced, at the caller's line, and
raises ``ValueError`` (``maxgraph.StagingError``) there when the operands do
not fit, naming the op and the operand types.
"""

from ._core import ops as _ops

__all__ = [name for name in dir(_ops) if not name.startswith("_")]
globals().update({name: getattr(_ops, name) for name in __all__})
