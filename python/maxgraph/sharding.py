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

from ._core import (BufferLayout, DeviceMapping, DeviceMesh, Layout,
                    NamedMapping, Partial, ReduceOp, Replicated, Sharded,
                    ShardingError, TensorLayout)

#: Any of the placements.
Placement = (Replicated, Sharded, Partial)

__all__ = ["BufferLayout", "DeviceMapping", "DeviceMesh", "Layout",
           "NamedMapping", "Partial", "Placement", "ReduceOp", "Replicated",
           "Sharded", "ShardingError", "TensorLayout"]
