"""Graphs staged on GPU(0) compile for a GPU runtime: through the OpenCL
runtime (PoCL's CPU device on machines without a GPU) they agree with numpy;
without a runtime to run them, compile() says so."""

import ctypes

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.driver import GPU
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


def test_without_a_gpu_runtime_compile_says_which_is_missing(monkeypatch):
    monkeypatch.delenv("MAXGRAPH_GPU_RUNTIME", raising=False)
    spec = TensorLayout(DType.float32, [4], GPU(0))
    with pytest.raises(maxgraph.RuntimeError, match="the CUDA runtime is not built "
                       "yet; set MAXGRAPH_GPU_RUNTIME=opencl"):
        compilation.compile(lambda x: -x)(spec)
