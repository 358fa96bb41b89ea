"""maxgraph.distributed: a graph laid out over cpu:0..N-1 run as N
processes under mpirun (MPICH), each passing and getting back its own
shards. Needs MPI's launcher; skipped (and reported so) without it."""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

MPIRUN = shutil.which("mpiexec.hydra") or shutil.which("mpirun")
needs_mpi = pytest.mark.skipif(
    MPIRUN is None or bool(os.environ.get("MAXGRAPH_TEST_NO_MPI")),
    reason="needs MPI's launcher (mpiexec.hydra, Debian's mpich)")
SCRIPT = os.path.join(os.path.dirname(__file__), "spmd_sharded_mlp.py")


def launch(ranks, devices, out):
    return subprocess.run(
        [MPIRUN, "-np", str(ranks), sys.executable, SCRIPT, str(out),
         str(devices)],
        capture_output=True, text=True, timeout=180,
        env=dict(os.environ, MAXGRAPH_MPI_TIMEOUT="60"))


@needs_mpi
@pytest.mark.parametrize("ranks", [2, 4])
def test_tensor_parallel_mlp_on_mpi_ranks_matches_numpy(tmp_path, ranks):
    result = launch(ranks, ranks, tmp_path)
    assert result.returncode == 0, result.stderr
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w1 = rng.standard_normal((8, 12)).astype(np.float32)
    w2 = rng.standard_normal((12, 5)).astype(np.float32)
    expected = np.maximum(x @ w1, 0) @ w2
    for rank in range(ranks):
        np.testing.assert_allclose(np.load(tmp_path / f"rank{rank}.npy"),
                                   expected, rtol=1e-4, atol=1e-4)


@needs_mpi
def test_a_wrong_rank_count_fails_on_every_rank(tmp_path):
    result = launch(3, 2, tmp_path)
    assert result.returncode != 0
    # Each rank says so.
    for rank in range(3):
        assert (f"rank {rank}: @mlp spans 2 devices (cpu:0..cpu:1) but the "
                f"run has 3 processes") in result.stderr, result.stderr
    assert not list(tmp_path.iterdir())


def test_distributed_names():
    from maxgraph import distributed
    for name in ("initialize", "rank", "world_size", "compile", "finalize"):
        assert callable(getattr(distributed, name))
