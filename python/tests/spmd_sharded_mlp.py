"""Run under `mpirun -np N python spmd_sharded_mlp.py OUT_DIR N [KIND]`:
the tensor-parallel MLP of test_distributed.py over N cpu devices (KIND
"cpu", the default) or N gpu devices ("gpu"), each rank passing its shards
and saving what it gets back to OUT_DIR/rank<r>.npy. With KIND "gather" the
graph is only the allgather of a sharded input (no kernels: what the CUDA
stand-in can run), over gpu devices.

A rank that fails prints its error and finalizes MPI before it exits: the
launcher ends the other ranks as soon as one exits with an error, and a
rank still on its way to the same error would never report it (on a
loaded machine, a test that every rank reports its error saw one)."""

import sys
import traceback

import numpy as np

import maxgraph
import maxgraph.functional as F
from maxgraph import distributed
from maxgraph.driver import CPU, GPU
from maxgraph.dtype import DType
from maxgraph.sharding import (DeviceMapping, DeviceMesh, Replicated, Sharded,
                               TensorLayout)

distributed.initialize()
rank, size = distributed.rank(), distributed.world_size()
kind = sys.argv[3] if len(sys.argv) > 3 else "cpu"
device = CPU if kind == "cpu" else GPU
mesh = DeviceMesh([device(i) for i in range(int(sys.argv[2]))], None, ["tp"])


def mlp(x, w1, w2):
    return (F.relu(x @ w1) @ w2).to(DeviceMapping(mesh, [Replicated()]))


def gather(x):
    return x.to(DeviceMapping(mesh, [Replicated()]))


def run_case():
    """Compiles and runs this rank's part; saves what it gets back."""
    rng = np.random.default_rng(0)
    n = mesh.num_devices
    if kind == "gather":
        whole = rng.standard_normal((4 * n, 3)).astype(np.float32)
        run = distributed.compile(gather)(
            TensorLayout(DType.float32, [4 * n, 3],
                         DeviceMapping(mesh, [Sharded(0)])))
        y = run(whole[4 * rank:4 * (rank + 1)])
        assert str(y.device) == str(run.device), (y.device, run.device)
        np.save(f"{sys.argv[1]}/rank{rank}.npy", y.to_numpy())
        distributed.finalize()
        sys.exit(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w1 = rng.standard_normal((8, 12)).astype(np.float32)
    w2 = rng.standard_normal((12, 5)).astype(np.float32)
    run = distributed.compile(mlp)(
        TensorLayout(DType.float32, [4, 8], mesh),
        TensorLayout(DType.float32, [8, 12],
                     DeviceMapping(mesh, [Sharded(1)])),
        TensorLayout(DType.float32, [12, 5],
                     DeviceMapping(mesh, [Sharded(0)])))
    cols = np.array_split(np.arange(12), n)[rank]
    shards = [x, w1[:, cols], w2[cols]]
    if kind == "gpu":
        # Live tensors already on this rank's GPU, as a model's weights are.
        shards = [maxgraph.Tensor.from_numpy(np.ascontiguousarray(a)).to(
            run.device) for a in shards]
    y = run(*shards)
    # A GPU part's results are in its GPU's memory.
    if kind != "cpu":
        assert str(y.device) == str(run.device), (y.device, run.device)
    np.save(f"{sys.argv[1]}/rank{rank}.npy", y.to_numpy())
    distributed.finalize()


try:
    run_case()
except Exception:
    traceback.print_exc()
    sys.stderr.flush()
    distributed.finalize()
    sys.exit(1)
