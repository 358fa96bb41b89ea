"""maxgraph.distributed: a graph laid out over cpu:0..N-1 (or gpu:0..N-1)
run as N processes under mpirun (MPICH), each passing and getting back its
own shards. Needs MPI's launcher; skipped (and reported so) without it. The
GPU runs need an OpenCL device (PoCL: kernels and MPI-staged collectives)
or the build tree's CUDA stand-in (NCCL across processes, no kernels)."""

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


def _build_file(*parts):
    """A file of the build tree that this maxgraph package is in, or None
    (an installed package)."""
    import maxgraph
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(maxgraph.__file__)))), *parts)
    return path if os.path.exists(path) else None


STANDIN = _build_file("unittests", "Runtime", "Drivers", "CUDAStandIn",
                      "libMaxGraphCUDAStandIn.so")
needs_standin = pytest.mark.skipif(
    STANDIN is None, reason="needs the build tree's CUDA stand-in")


def _has_opencl():
    from test_gpu_opencl import _opencl_devices
    return _opencl_devices() > 0


needs_opencl = pytest.mark.skipif(
    not _has_opencl(), reason="no OpenCL device (install pocl-opencl-icd)")


def launch(ranks, devices, out, kind="cpu", **env):
    return subprocess.run(
        [MPIRUN, "-np", str(ranks), sys.executable, SCRIPT, str(out),
         str(devices), kind],
        capture_output=True, text=True, timeout=180,
        env=dict(os.environ, MAXGRAPH_MPI_TIMEOUT="60", TMPDIR=str(out),
                 **env))


def mlp_expected():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w1 = rng.standard_normal((8, 12)).astype(np.float32)
    w2 = rng.standard_normal((12, 5)).astype(np.float32)
    return np.maximum(x @ w1, 0) @ w2


@needs_mpi
@pytest.mark.parametrize("ranks", [2, 4])
def test_tensor_parallel_mlp_on_mpi_ranks_matches_numpy(tmp_path, ranks):
    result = launch(ranks, ranks, tmp_path)
    assert result.returncode == 0, result.stderr
    expected = mlp_expected()
    for rank in range(ranks):
        np.testing.assert_allclose(np.load(tmp_path / f"rank{rank}.npy"),
                                   expected, rtol=1e-4, atol=1e-4)


@needs_mpi
@needs_opencl
def test_tensor_parallel_mlp_on_gpu_ranks_matches_numpy(tmp_path):
    # Each rank's part on its own OpenCL device (PoCL's, gpu:0 of each
    # process), the allreduce through MPI; the results stay on the GPU.
    result = launch(2, 2, tmp_path, "gpu", MAXGRAPH_GPU_RUNTIME="opencl",
                    POCL_DEVICES="pthread", MAXGRAPH_SPMD_GPU="0")
    assert result.returncode == 0, result.stderr
    expected = mlp_expected()
    for rank in range(2):
        np.testing.assert_allclose(np.load(tmp_path / f"rank{rank}.npy"),
                                   expected, rtol=1e-4, atol=1e-4)


@needs_mpi
@needs_standin
def test_gpu_ranks_gather_through_nccl_across_processes(tmp_path):
    # The CUDA runtime on the driver and NCCL stand-ins, two devices per
    # process, rank r on gpu:r: the gather of the ranks' shards is exact.
    log = tmp_path / "standin.log"
    result = launch(2, 2, tmp_path, "gather", MAXGRAPH_GPU_RUNTIME="cuda",
                    MAXGRAPH_CUDA_DRIVER_LIBRARY=STANDIN,
                    MAXGRAPH_NCCL_LIBRARY=STANDIN, MAXGRAPH_CUDA_STANDIN="1",
                    MAXGRAPH_CUDA_STANDIN_DEVICES="2",
                    MAXGRAPH_CUDA_STANDIN_LOG=str(log))
    assert result.returncode == 0, result.stderr
    whole = np.random.default_rng(0).standard_normal((8, 3)).astype(
        np.float32)
    for rank in range(2):
        np.testing.assert_array_equal(np.load(tmp_path / f"rank{rank}.npy"),
                                      whole)
    lines = log.read_text().splitlines()
    assert "ncclCommInitRank nranks=2 rank=0 device=0 -> N1" in lines
    assert "ncclCommInitRank nranks=2 rank=1 device=1 -> N1" in lines
    assert not any(line.startswith("ncclCommInitAll") for line in lines)


@needs_mpi
@needs_standin
def test_a_gpu_rank_without_nccl_fails_on_every_rank(tmp_path):
    result = launch(2, 2, tmp_path, "gather", MAXGRAPH_GPU_RUNTIME="cuda",
                    MAXGRAPH_CUDA_DRIVER_LIBRARY=STANDIN,
                    MAXGRAPH_NCCL_LIBRARY="/nonexistent/libnccl.so.2",
                    MAXGRAPH_CUDA_STANDIN="1",
                    MAXGRAPH_CUDA_STANDIN_DEVICES="2")
    assert result.returncode != 0
    for rank in range(2):
        assert (f"rank {rank}: no NCCL: /nonexistent/libnccl.so.2"
                in result.stderr), result.stderr
    assert not list(tmp_path.glob("*.npy"))


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
