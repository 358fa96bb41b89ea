"""Graphs staged on GPU(0) compile for a GPU runtime: through the OpenCL
runtime (PoCL's CPU device on machines without a GPU) they agree with numpy;
without a CUDA driver, compile() on the default runtime says so."""

import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.driver import CPU, GPU
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout


def _opencl_devices() -> int:
    try:
        library = ctypes.CDLL("libOpenCL.so.1")
    except OSError:
        return 0
    platforms = (ctypes.c_void_p * 16)()
    count = ctypes.c_uint32(0)
    if library.clGetPlatformIDs(16, platforms, ctypes.byref(count)) != 0:
        return 0
    devices = 0
    for platform in platforms[:count.value]:
        found = ctypes.c_uint32(0)
        if library.clGetDeviceIDs(ctypes.c_void_p(platform),
                                  ctypes.c_uint64(0xFFFFFFFF), 0, None,
                                  ctypes.byref(found)) == 0:
            devices += found.value
    return devices


needs_opencl = pytest.mark.skipif(
    _opencl_devices() == 0,
    reason="no OpenCL device (install pocl-opencl-icd)")


def softmax_mlp(x, w, b):
    return ops.softmax(ops.matmul(x, w) + b, axis=-1)


@needs_opencl
def test_opencl_runs_a_model_like_numpy(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    specs = (TensorLayout(DType.float32, ["batch", 8], GPU(0)),
             TensorLayout(DType.float32, [8, 16], GPU(0)),
             TensorLayout(DType.float32, [16], GPU(0)))
    run = compilation.compile(softmax_mlp)(*specs)
    rng = np.random.default_rng(0)
    for batch in (3, 17):
        x = rng.standard_normal((batch, 8), dtype=np.float32)
        w = rng.standard_normal((8, 16), dtype=np.float32)
        b = rng.standard_normal(16, dtype=np.float32)
        out = run(x, w, b)
        assert out.device == GPU(0)
        logits = x @ w + b
        expected = np.exp(logits - logits.max(-1, keepdims=True))
        expected /= expected.sum(-1, keepdims=True)
        np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-5,
                                   atol=1e-6)


@needs_opencl
def test_opencl_runs_a_convolution(monkeypatch):
    # maxgraph.conv2d as a generic kernel: one output element per workgroup
    # reducing over the taps and channels, after the padding's kernels.
    import maxgraph.functional as F
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 7, 6, 3), dtype=np.float32)
    w = rng.standard_normal((3, 3, 3, 5), dtype=np.float32)
    run = compilation.compile(
        lambda a, f: F.conv2d(a, f, stride=(2, 1), padding=(1, 1, 0, 2)))(
        TensorLayout(DType.float32, list(x.shape), GPU(0)),
        TensorLayout(DType.float32, list(w.shape), GPU(0)))
    out = run(x, w).to(CPU()).to_numpy()
    padded = np.pad(x.astype(np.float64), [(0, 0), (1, 1), (0, 2), (0, 0)])
    expected = np.zeros((2, 4, 6, 5))
    for i in range(4):
        for j in range(6):
            window = padded[:, 2 * i:2 * i + 3, j:j + 3, :]
            expected[:, i, j] = np.einsum("nrsc,rscf->nf", window, w)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


@needs_opencl
def test_opencl_stores_into_buffers(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")

    def accumulate(acc, x):
        acc.store(acc.load() + x)
        return x * 2

    run = compilation.compile(accumulate)(
        BufferLayout(DType.float32, [4], GPU(0)),
        TensorLayout(DType.float32, [4], GPU(0)))
    acc = np.ones(4, dtype=np.float32)
    x = np.arange(4, dtype=np.float32)
    doubled = run(acc, x)
    np.testing.assert_array_equal(acc, [1, 2, 3, 4])
    np.testing.assert_array_equal(doubled.to_numpy(), [0, 2, 4, 6])


def test_without_a_cuda_driver_compile_says_so(tmp_path):
    # CUDA is the default runtime. The driver is loaded once per process, so
    # the check runs in a fresh one, pointed at a driver that does not exist.
    missing = tmp_path / "libcuda.so.1"
    code = (
        "import maxgraph\n"
        "from maxgraph import compilation\n"
        "from maxgraph.driver import GPU\n"
        "from maxgraph.dtype import DType\n"
        "from maxgraph.sharding import TensorLayout\n"
        "spec = TensorLayout(DType.float32, [4], GPU(0))\n"
        "try:\n"
        "    compilation.compile(lambda x: -x)(spec)\n"
        "except maxgraph.RuntimeError as error:\n"
        "    print(error)\n")
    env = {key: value for key, value in os.environ.items()
           if key != "MAXGRAPH_GPU_RUNTIME"}
    env["MAXGRAPH_CUDA_DRIVER_LIBRARY"] = str(missing)
    result = subprocess.run([sys.executable, "-c", code], env=env,
                            capture_output=True, text=True, check=True)
    assert result.stdout.strip().endswith(
        f"no CUDA driver: {missing}: cannot open shared object file: "
        "No such file or directory"), result.stdout + result.stderr


@needs_opencl
def test_a_graph_over_two_gpus_runs_a_part_on_each(tmp_path):
    # PoCL shows two devices with POCL_DEVICES, read when OpenCL loads: a
    # fresh process. Without collectives the parts run on any runtime; with
    # them, compile() says they need NCCL (the cuda runtime).
    code = (
        "import numpy as np\n"
        "import maxgraph\n"
        "from maxgraph import compilation, ops\n"
        "from maxgraph.driver import GPU\n"
        "from maxgraph.dtype import DType\n"
        "from maxgraph.sharding import TensorLayout\n"
        "def two(x, y, w):\n"
        "    return ops.relu(x), ops.matmul(y, w)\n"
        "specs = (TensorLayout(DType.float32, ['n', 4], GPU(0)),\n"
        "         TensorLayout(DType.float32, ['n', 4], GPU(1)),\n"
        "         TensorLayout(DType.float32, [4, 3], GPU(1)))\n"
        "run = compilation.compile(two)(*specs)\n"
        "rng = np.random.default_rng(7)\n"
        "x = rng.standard_normal((5, 4), dtype=np.float32)\n"
        "y = rng.standard_normal((5, 4), dtype=np.float32)\n"
        "w = rng.standard_normal((4, 3), dtype=np.float32)\n"
        "r, m = run(x, y, w)\n"
        "print(r.device, m.device)\n"
        "np.testing.assert_allclose(r.to_numpy(), np.maximum(x, 0))\n"
        "np.testing.assert_allclose(m.to_numpy(), y @ w, rtol=1e-5,\n"
        "                           atol=1e-6)\n"
        "def summed(a, b):\n"
        "    return ops.allreduce_sum([a, b])\n"
        "try:\n"
        "    compilation.compile(summed)(\n"
        "        TensorLayout(DType.float32, [4], GPU(0)),\n"
        "        TensorLayout(DType.float32, [4], GPU(1)))\n"
        "except maxgraph.RuntimeError as error:\n"
        "    print(error)\n")
    env = dict(os.environ, MAXGRAPH_GPU_RUNTIME="opencl",
               POCL_DEVICES="pthread pthread")
    result = subprocess.run([sys.executable, "-c", code], env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "gpu:0 gpu:1", result.stdout
    assert lines[1].endswith(
        "has collectives between GPUs, which run in one process through NCCL "
        "on the cuda runtime, not on the opencl runtime (whose collectives "
        "are MPI's, between processes: max-run --spmd, "
        "maxgraph.distributed)"), result.stdout


@needs_opencl
def test_host_data_moved_to_the_gpu_in_the_graph_runs_there(monkeypatch):
    # MAX's pattern: host inputs, transfer_to(GPU) inside, the result moved
    # back: the graph runs on the GPU and the result is a host tensor.
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    from maxgraph import functional as F

    def on_gpu(x):
        y = ops.softmax(F.transfer_to(x, GPU(0)) * 2.0, axis=-1)
        return F.transfer_to(y, CPU())

    run = compilation.compile(on_gpu)(
        TensorLayout(DType.float32, ["n", 5], CPU()))
    x = np.random.default_rng(3).standard_normal((4, 5), dtype=np.float32)
    out = run(x)
    assert out.is_host and out.device == CPU()
    z = np.exp(2 * x - (2 * x).max(axis=-1, keepdims=True))
    np.testing.assert_allclose(out.to_numpy(), z / z.sum(-1, keepdims=True),
                               rtol=1e-5, atol=1e-6)


@needs_opencl
def test_pinned_tensors_are_ordinary_on_opencl(monkeypatch):
    # Page-locked memory is CUDA's; on OpenCL a pinned tensor is a host
    # tensor like any other, zero-filled, that moves to the GPU and back.
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    t = maxgraph.Tensor.pinned(DType.float32, [2, 3])
    assert t.is_host and not t.is_pinned
    array = t.to_numpy()
    np.testing.assert_array_equal(array, np.zeros((2, 3), np.float32))
    array[1, 2] = 4.0
    back = t.to(GPU(0)).to(CPU()).to_numpy()
    assert back[1, 2] == 4.0


@needs_opencl
def test_tensors_move_to_the_gpu_and_results_stay_there(monkeypatch):
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    x = maxgraph.Tensor.from_numpy(np.arange(4, dtype=np.float32))
    on_gpu = x.to(GPU(0))
    assert x.is_host
    assert not on_gpu.is_host and on_gpu.device == GPU(0)
    assert on_gpu.to(GPU(0)) is on_gpu
    # What needs host memory says so, or copies where it may.
    on_device = (r"the elements are in the memory of gpu:0 \(opencl\); copy "
                 r"them to the host with \.to\(CPU\(\)\)")
    with pytest.raises(BufferError, match="the buffer protocol: " + on_device):
        memoryview(on_gpu)
    with pytest.raises(BufferError, match="Tensor.__dlpack__: " + on_device):
        on_gpu.__dlpack__()
    assert on_gpu.__dlpack_device__() == (4, 0)  # kDLOpenCL, gpu:0
    with pytest.raises(ValueError, match="copy=False was passed"):
        on_gpu.__array__(copy=False)
    np.testing.assert_array_equal(on_gpu.to_numpy(), [0, 1, 2, 3])
    back = on_gpu.to(CPU())
    assert back.is_host and back.device == CPU()
    np.testing.assert_array_equal(back.to_numpy(), [0, 1, 2, 3])

    # A graph on the GPU takes tensors in its memory and leaves its results
    # there, for the next call.
    run = compilation.compile(lambda t: t * 2)(
        TensorLayout(DType.float32, [4], GPU(0)))
    doubled = run(on_gpu)
    assert not doubled.is_host
    again = run(doubled)
    assert not again.is_host
    np.testing.assert_array_equal(np.asarray(again), [0, 4, 8, 12])
    np.testing.assert_array_equal(run(np.ones(4, np.float32)).to_numpy(),
                                  [2, 2, 2, 2])


@needs_opencl
def test_opencl_graph_exports_and_runs_in_a_fresh_process(monkeypatch,
                                                          tmp_path):
    # The artifact holds the GPU image (host code with its kernels, the
    # results' dim formulas): another process, where MAXGRAPH_GPU_RUNTIME
    # names another runtime, loads it on the OpenCL runtime it was compiled
    # for and agrees with numpy.
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    specs = (TensorLayout(DType.float32, ["batch", 8], GPU(0)),
             TensorLayout(DType.float32, [8, 16], GPU(0)),
             TensorLayout(DType.float32, [16], GPU(0)))
    path = tmp_path / "mlp.mgart"
    compilation.compile(softmax_mlp)(*specs).export(path)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 8), dtype=np.float32)
    w = rng.standard_normal((8, 16), dtype=np.float32)
    b = rng.standard_normal(16, dtype=np.float32)
    np.savez(tmp_path / "inputs.npz", x=x, w=w, b=b)
    env = dict(os.environ, MAXGRAPH_GPU_RUNTIME="cuda", MAXGRAPH_CACHE="0")
    package_parent = os.path.dirname(os.path.dirname(maxgraph.__file__))
    env["PYTHONPATH"] = package_parent
    code = (
        "import numpy as np\n"
        "from maxgraph import compilation\n"
        f"data = np.load({str(tmp_path / 'inputs.npz')!r})\n"
        f"run = compilation.load({str(path)!r})\n"
        "out = run(data['x'], data['w'], data['b'])\n"
        "print(out.device)\n"
        f"np.save({str(tmp_path / 'out.npy')!r}, out.to_numpy())\n")
    result = subprocess.run([sys.executable, "-c", code], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "gpu:0"
    logits = x @ w + b
    expected = np.exp(logits - logits.max(-1, keepdims=True))
    expected /= expected.sum(-1, keepdims=True)
    np.testing.assert_allclose(np.load(tmp_path / "out.npy"), expected,
                               rtol=1e-5, atol=1e-6)


@needs_opencl
def test_opencl_scatters_apply_updates_in_order(monkeypatch):
    # A work item per element of the result walks the updates that can land
    # on it in row-major order: the last duplicate wins, reductions combine
    # in order, as on the CPU.
    import maxgraph.functional as F
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    updates = np.array([[10, 20, 30], [40, 50, 60]], np.float32)
    indices = np.array([[1, 1, 3], [1, 0, -1]], np.int64)
    specs = (TensorLayout(DType.float32, [4, 3], GPU(0)),
             TensorLayout(DType.float32, [2, 3], GPU(0)),
             TensorLayout(DType.int64, [2, 3], GPU(0)))
    last = compilation.compile(lambda a, u, i: F.scatter(a, u, i, axis=0))(
        *specs)
    added = compilation.compile(
        lambda a, u, i: F.scatter_add(a, u, i, axis=0))(*specs)
    expected_last, expected_added = x.copy(), x.copy()
    for r in range(2):
        for c in range(3):
            expected_last[indices[r, c], c] = updates[r, c]
            expected_added[indices[r, c], c] += updates[r, c]
    np.testing.assert_array_equal(
        last(x, updates, indices).to(CPU()).to_numpy(), expected_last)
    np.testing.assert_array_equal(
        added(x, updates, indices).to(CPU()).to_numpy(), expected_added)
    with pytest.raises(maxgraph.RuntimeError, match="maxgraph.scatter: an "
                       "index is out of range of the axis"):
        last(x, updates, np.array([[0, 4, 0], [0, 0, 0]], np.int64))
    rows = compilation.compile(F.scatter_nd)(
        TensorLayout(DType.float32, [4, 3], GPU(0)),
        TensorLayout(DType.float32, [3, 3], GPU(0)),
        TensorLayout(DType.int64, [3, 1], GPU(0)))
    slices = np.array([[1, 1, 1], [2, 2, 2], [3, 3, 3]], np.float32)
    expected = x.copy()
    expected[2] = slices[2]        # the last of the two writes of row 2
    expected[0] = slices[1]
    np.testing.assert_array_equal(
        rows(x, slices, np.array([[2], [0], [-2]], np.int64))
        .to(CPU()).to_numpy(), expected)


@needs_opencl
def test_opencl_argsort_is_stable_and_puts_nan_last(monkeypatch):
    import maxgraph.functional as F
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, (3, 257)).astype(np.float32)
    x[0, 7] = x[2, 100] = np.nan
    spec = TensorLayout(DType.float32, [3, 257], GPU(0))
    up = compilation.compile(F.argsort)(spec)
    down = compilation.compile(lambda t: F.argsort(t, ascending=False))(spec)
    np.testing.assert_array_equal(
        up(x).to(CPU()).to_numpy(), np.argsort(x, axis=-1, kind="stable"))
    # Descending: the reversed order (NaN, the largest, first), equal
    # elements still first-come.
    expected = np.stack([np.argsort(-row, kind="stable") for row in
                         np.where(np.isnan(x), np.inf, x)])
    np.testing.assert_array_equal(down(x).to(CPU()).to_numpy(), expected)
