# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Specs, and layouts over device meshes (MAX's ``max.experimental.sharding``).

``TensorLayout(dtype, shape, device)`` is a read-only tensor;
``BufferLayout(dtype, shape, device)`` is storage the graph may also store
through, and the store reaches the caller's tensor. Shapes mix ints and
symbolic names: ``["batch", 4]``.

A TensorLayout's device may also be a ``DeviceMesh`` (replicated on every
device), a ``DeviceMapping(mesh, placements)`` with one placement per mesh
axis (``Replicated()``, ``Sharded(axis)``, ``Partial(ReduceOp.SUM)``), or a
``NamedMapping(mesh, spec, unreduced=...)``. The shape is then global: the
staged graph takes one argument per device (``x._shard.0``, ...), holding
that device's piece (numpy's ``array_split``), and ops on distributed
tensors stage one op per device plus the collectives their placements
need, choosing the cheapest by a ring cost model.
``StagedGraph.reshard_report`` lists what was chosen
(``MAXGRAPH_RESHARD_REPORT=1`` prints it while staging).
"""

import contextlib
import functools
from typing import Any, Iterable, Iterator, Optional

from . import _core
from ._core import (BufferLayout, DeviceMapping, DeviceMesh, Layout,
                    NamedMapping, Partial, ReduceOp, Replicated, Sharded,
                    ShardingError, TensorLayout, Unknown)

#: Any of the placements (for ``isinstance`` and ``issubclass``).
Placement = (Replicated, Sharded, Partial, Unknown)

#: MAX's error for a mapping that cannot be converted (``NamedMapping``
#: naming a mesh axis twice). maxgraph raises ``ShardingError`` there, so
#: this is that class: ``except ConversionError`` catches it (and every
#: other ShardingError).
ConversionError = ShardingError

#: A change of placement on one mesh axis, as ``(from, to)`` placement
#: types: ``(Partial, Replicated)`` is an allreduce, ``(Sharded,
#: Replicated)`` an allgather, ``(Replicated, Sharded)`` a local slice,
#: ``(Sharded, Sharded)`` a split moved to another axis, ``(Partial,
#: Sharded)`` a reduce-scatter.
Transition = tuple

#: Every transition ops may plan with.
ALL_TRANSITIONS = frozenset({
    (Replicated, Sharded), (Sharded, Replicated), (Sharded, Sharded),
    (Partial, Replicated), (Partial, Sharded)})
#: All but ``(Partial, Sharded)``: partial sums resolve to Replicated by
#: allreduce. What ops may use outside any ``auto_reshard`` block.
DEFAULT_TRANSITIONS = ALL_TRANSITIONS - {(Partial, Sharded)}

_KINDS = {Replicated: _core._PlacementKind.Replicated,
          Sharded: _core._PlacementKind.Sharded,
          Partial: _core._PlacementKind.Partial}


class _AutoReshard(contextlib.ContextDecorator):
    def __init__(self, allowed: Optional[list], mode: Optional[Any]):
        self._allowed = allowed
        self._mode = mode

    def __enter__(self) -> "_AutoReshard":
        _core._push_reshard_policy(self._allowed, self._mode)
        return self

    def __exit__(self, *exc: Any) -> None:
        _core._pop_reshard_policy()


def auto_reshard(allowed_transitions: Optional[Iterable[tuple]] = None, *,
                 mode: Optional[str] = None) -> _AutoReshard:
    """Sets how the ops staged in this block may change the placements of
    their inputs (MAX's ``auto_reshard``; a context manager and a
    decorator). On each mesh axis an op takes the cheapest choice whose
    transitions are all in ``allowed_transitions``; ``mode`` says what a
    move does: ``"silent"`` moves (and records it in the staged graph's
    ``reshard_report``), ``"warn"`` also emits a ``UserWarning``, ``"raise"``
    refuses with a ``ShardingError`` naming the move, to be written as
    ``Tensor.to(mapping)`` / ``F.transfer_to``. Outside any block ops may use
    ``DEFAULT_TRANSITIONS``, silently; what a block leaves out keeps the
    enclosing block's setting."""
    allowed = None
    if allowed_transitions is not None:
        allowed = []
        for transition in allowed_transitions:
            if not (isinstance(transition, tuple) and len(transition) == 2
                    and all(t in _KINDS for t in transition)):
                raise TypeError(
                    "auto_reshard takes (from, to) pairs of the placement "
                    "types Replicated, Sharded and Partial, got "
                    f"{transition!r}")
            allowed.append((_KINDS[transition[0]], _KINDS[transition[1]]))
    modes = {"silent": _core._ReshardMode.silent,
             "warn": _core._ReshardMode.warn,
             "raise": _core._ReshardMode.raise_}
    if mode is not None and mode not in modes:
        raise ValueError(f"auto_reshard mode must be one of "
                         f"{tuple(modes)}, got {mode!r}")
    return _AutoReshard(allowed, None if mode is None else modes[mode])


def visualize(x: Any, shape: Optional[Iterable] = None) -> str:
    """Which device holds which piece, one line per device, for a
    distributed Tensor, a TensorLayout over a mesh, or a mapping (or mesh)
    with ``shape``. Returns the text (print it)."""
    if isinstance(x, _core.Tensor):
        x = x.layout
    return _core.visualize(x, None if shape is None else list(shape))


__all__ = ["ALL_TRANSITIONS", "BufferLayout", "ConversionError",
           "DEFAULT_TRANSITIONS", "DeviceMapping", "DeviceMesh", "Layout",
           "NamedMapping", "Partial", "Placement", "ReduceOp", "Replicated",
           "Sharded", "ShardingError", "TensorLayout", "Transition",
           "Unknown", "auto_reshard", "visualize"]
