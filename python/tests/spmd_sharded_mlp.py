"""Run under `mpirun -np N python spmd_sharded_mlp.py OUT_DIR`: the
tensor-parallel MLP of test_distributed.py, each rank passing its shards
and saving what it gets back to OUT_DIR/rank<r>.npy."""

import sys

import numpy as np

import maxgraph.functional as F
from maxgraph import distributed
from maxgraph.driver import CPU
from maxgraph.dtype import DType
from maxgraph.sharding import (DeviceMapping, DeviceMesh, Replicated, Sharded,
                               TensorLayout)

distributed.initialize()
rank, size = distributed.rank(), distributed.world_size()
mesh = DeviceMesh([CPU(i) for i in range(int(sys.argv[2]))], None, ["tp"])


def mlp(x, w1, w2):
    return (F.relu(x @ w1) @ w2).to(DeviceMapping(mesh, [Replicated()]))


rng = np.random.default_rng(0)
x = rng.standard_normal((4, 8)).astype(np.float32)
w1 = rng.standard_normal((8, 12)).astype(np.float32)
w2 = rng.standard_normal((12, 5)).astype(np.float32)
run = distributed.compile(mlp)(
    TensorLayout(DType.float32, [4, 8], mesh),
    TensorLayout(DType.float32, [8, 12], DeviceMapping(mesh, [Sharded(1)])),
    TensorLayout(DType.float32, [12, 5], DeviceMapping(mesh, [Sharded(0)])))
n = mesh.num_devices
cols = np.array_split(np.arange(12), n)[rank]
y = run(x, w1[:, cols], w2[cols])
np.save(f"{sys.argv[1]}/rank{rank}.npy", y.to_numpy())
distributed.finalize()
