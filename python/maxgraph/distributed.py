# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One graph as N processes under ``mpirun`` (MPICH): process r runs what
the graph places on cpu:r, and MPI does the collectives; or what it places
on gpu:r, on a GPU of its own (its local rank on the node, or
``MAXGRAPH_SPMD_GPU``), and NCCL does them (MPI on the OpenCL runtime).

    from maxgraph import distributed
    distributed.initialize()
    run = distributed.compile(mlp)(x_spec, w1_spec, w2_spec)
    y = run(x_local, w1_local, w2_local)     # this rank's shards in and out

Specs are those of ``compilation.compile`` (layouts over a mesh of
cpu:0..N-1 or gpu:0..N-1, or on one device each); N must be the number of
processes. The callable takes, for each tensor argument, this rank's part:
the local shard of a layout over a mesh, the tensor itself when it is on
this rank's device, and ``None`` when it is on another device: numpy arrays,
or live Tensors (on this rank's GPU for a graph over GPUs). It returns the
result tree with this rank's shard (a live Tensor, in its GPU's memory for
a graph over GPUs) at each result leaf that has one here, and ``None`` at
the others. Every rank must call it alike. At start-up the ranks
check the world size against the graph's devices and that they all run the
same graph and binary (an error on every rank, not a hang);
``MAXGRAPH_MPI_TIMEOUT`` bounds each collective.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from . import _core, _trees
from . import compilation as _compilation
from ._core import BufferLayout, TensorLayout


def initialize() -> None:
    """Opens MPI (``libmpi.so.12``, or ``MAXGRAPH_MPI_LIBRARY``) and joins
    the run; a RuntimeError when MPI is missing."""
    _core.mpi_initialize()


def is_initialized() -> bool:
    return _core.mpi_initialized()


def finalize() -> None:
    _core.mpi_finalize()


def rank() -> int:
    """This process's rank (initializing MPI if needed)."""
    if not _core.mpi_initialized():
        initialize()
    return _core.mpi_rank()


def world_size() -> int:
    """The number of processes (initializing MPI if needed)."""
    if not _core.mpi_initialized():
        initialize()
    return _core.mpi_size()


def _leaves(tree: Any, root: str) -> list:
    leaves: list = []
    _trees.map_tree(tree, root, lambda item, path: leaves.append((item, path)))
    return leaves


class RankCallable:
    """A staged graph compiled for this rank's part (``distributed.compile``)."""

    def __init__(self, staged: _compilation.StagedGraph,
                 gpu_runtime: str = ""):
        self._staged = staged
        self._graph = _core.RankGraph(staged._core, gpu_runtime)
        self._local_inputs = set(self._graph.local_inputs)
        self._local_results = list(self._graph.local_results)
        self._shards_in = {first: layout.mapping.mesh.num_devices
                           for _, layout, first in
                           staged._core.distributed_inputs}
        self._shards_out = {first: layout.mapping.mesh.num_devices
                            for _, layout, first in
                            staged._core.distributed_outputs}

    @property
    def rank(self) -> int:
        return self._graph.rank

    @property
    def world_size(self) -> int:
        return self._graph.world_size

    @property
    def device(self):
        """The device this rank's part runs on: cpu:rank, or its GPU (whose
        memory its results are in)."""
        return self._graph.device

    @property
    def staged(self) -> _compilation.StagedGraph:
        return self._staged

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        staged = self._staged
        if len(args) != len(staged._args) or set(kwargs) != set(
                staged._kwargs):
            raise TypeError(
                f"graph '{staged.name}' was staged with {len(staged._args)} "
                f"positional arguments and keywords {sorted(staged._kwargs)}")
        specs, given = [], []
        for spec, arg, root in zip(staged._args, args, staged._roots):
            specs += _leaves(spec, root)
            given += _leaves(arg, root)
        for key, spec in staged._kwargs.items():
            specs += _leaves(spec, key)
            given += _leaves(kwargs[key], key)
        if len(specs) != len(given):
            raise TypeError(f"graph '{staged.name}': the arguments do not "
                            f"have the staged trees' leaves")
        here = self._graph.device
        inputs, index = [], 0
        for (spec, path), (arg, _) in zip(specs, given):
            if not isinstance(spec, (TensorLayout, BufferLayout)):
                continue
            count = self._shards_in.get(index, 1)
            local = [i for i in range(index, index + count)
                     if i in self._local_inputs]
            index += count
            if local:
                if arg is None:
                    raise TypeError(
                        f"argument '{path}' has a part on {here} (rank "
                        f"{self.rank}); pass it, not None")
                inputs.append(arg)
            elif arg is not None:
                raise TypeError(
                    f"argument '{path}' has no part on {here} (rank "
                    f"{self.rank}); pass None for it")
        outputs = self._graph.run(inputs, [here] * len(inputs))
        by_index = dict(zip(self._local_results, outputs))
        values, index = [], 0
        for _ in range(len(staged._core.output_layouts)):
            if index >= len(staged._core.output_layouts):
                break
            count = self._shards_out.get(index, 1)
            found = [by_index[i] for i in range(index, index + count)
                     if i in by_index]
            values.append(found[0] if found else None)
            index += count
        return _trees.replace_tensors(staged._result, iter(values))


def compile(fn: Callable, *, name: Optional[str] = None,
            allow_subgraphs: bool = True,
            gpu_runtime: str = "") -> Callable[..., RankCallable]:
    """Stages `fn` with the given specs and compiles this rank's part:
    ``compile(fn)(*specs)(*local_tensors)``. `gpu_runtime` ("cuda" or
    "opencl"; empty: ``MAXGRAPH_GPU_RUNTIME``, else "cuda") runs a part on a
    GPU."""
    staging = _compilation.stage(fn, name=name,
                                 allow_subgraphs=allow_subgraphs)

    def compiling(*args: Any, **kwargs: Any) -> RankCallable:
        return RankCallable(staging(*args, **kwargs), gpu_runtime)

    return compiling


__all__ = ["RankCallable", "compile", "finalize", "initialize",
           "is_initialized", "rank", "world_size"]
