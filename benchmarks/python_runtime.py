# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Python runtime overheads: what a call and the numpy boundary cost.

    PYTHONPATH=build/python .venv/bin/python benchmarks/python_runtime.py
    ... python_runtime.py --quick          # smaller and fewer repetitions

Prints, each against a peer in the same run (ratio = peer time / our time;
above 1 means maxgraph is faster):
  call       a 1-op graph on 16 floats through the compiled callable, with a
             Tensor and with a numpy array as input, against numpy's own
             ``x + 1`` (microseconds per call);
  boundary   Tensor.from_numpy, .to_numpy(), np.from_dlpack(t) of 64 MB
             against ``a.copy()`` of the same bytes (they share memory, so
             their time does not grow with the size);
  chain      five elementwise ops over 16M float32 end to end through the
             compiled callable with a numpy input, against memcpy of the
             same bytes (``np.copyto`` into a buffer allocated once) and
             against numpy's five passes; on 1 and 2 OpenMP threads (each
             count runs in a child process with OMP_NUM_THREADS set), once
             with malloc's defaults (what a user's process has) and once
             with malloc told (mallopt through ctypes) to keep freed blocks,
             numpy's best case: with the defaults every 64 MB temporary of
             numpy's is mapped and page-faulted in anew. Compiled code does
             not depend on it: its allocator keeps large blocks for the
             next call (MaxGraph/Runtime/TensorAllocator.h).
  rows       softmax and layer_norm over [4096, 4096] float32 end to end
             through the compiled callable with numpy inputs, against
             numpy's softmax (x - max, exp, sum, divide) and layer_norm, and
             against memcpy of the input's bytes; on 1 and 2 threads (in
             the same child processes as chain).
"""

import ctypes
import os
import subprocess
import sys
import time

import numpy as np

QUICK = "--quick" in sys.argv
TUNE_MALLOC = "--tune-malloc" in sys.argv


def tune_malloc():
    libc = ctypes.CDLL(None)
    m_trim_threshold, m_mmap_max = -1, -4
    libc.mallopt(m_mmap_max, 0)
    libc.mallopt(m_trim_threshold, 1 << 30)


def median_time(fn, repeats):
    fn()  # Warm up caches, pages and thread pools.
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def per_call(fn, batch, repeats):
    def many():
        for _ in range(batch):
            fn()
    return median_time(many, repeats) / batch


def row(name, ours, peer_name, peer, extra=""):
    print(f"{name:38} maxgraph {ours * 1e3:10.4f} ms  {peer_name:14} "
          f"{peer * 1e3:10.4f} ms  ratio {peer / ours:8.2f}x  {extra}",
          flush=True)


def bench_call():
    from maxgraph import compilation
    from maxgraph.dtype import DType
    from maxgraph.sharding import TensorLayout
    from maxgraph.tensor import Tensor

    run = compilation.compile(lambda x: x + 1.0)(
        TensorLayout(DType.float32, [16]))
    array = np.ones(16, np.float32)
    tensor = Tensor.from_numpy(array)
    batch, repeats = (200, 5) if QUICK else (2000, 15)
    with_tensor = per_call(lambda: run(tensor), batch, repeats)
    with_array = per_call(lambda: run(array), batch, repeats)
    numpy_add = per_call(lambda: array + 1.0, batch, repeats)
    core = run._executable
    bare = per_call(lambda: core.run([tensor]), batch, repeats)
    row("call 1-op [16], Tensor input", with_tensor, "numpy x + 1",
        numpy_add, f"({with_tensor * 1e6:.2f} us per call)")
    row("call 1-op [16], numpy input", with_array, "numpy x + 1", numpy_add,
        f"({with_array * 1e6:.2f} us per call)")
    row("call 1-op [16], Executable.run", bare, "numpy x + 1", numpy_add,
        f"({bare * 1e6:.2f} us per call, no tree walk)")


def bench_boundary():
    from maxgraph.tensor import Tensor

    count = (1 << 22) if QUICK else (1 << 24)
    array = np.random.default_rng(1).random(count, dtype=np.float32)
    repeats = 5 if QUICK else 15
    copy = median_time(lambda: array.copy(), repeats)
    from_numpy = median_time(lambda: Tensor.from_numpy(array), repeats)
    tensor = Tensor.from_numpy(array)
    to_numpy = median_time(lambda: tensor.to_numpy(), repeats)
    dlpack = median_time(lambda: np.from_dlpack(tensor), repeats)
    size = f"{count * 4 >> 20} MB"
    row(f"Tensor.from_numpy {size}", from_numpy, "a.copy()", copy)
    row(f"Tensor.to_numpy {size}", to_numpy, "a.copy()", copy)
    row(f"np.from_dlpack(tensor) {size}", dlpack, "a.copy()", copy)


def bench_chain(threads):
    from maxgraph import compilation, ops
    from maxgraph.dtype import DType
    from maxgraph.sharding import TensorLayout

    def chain(x):
        return ops.max(x * 1.5 + 0.25, 0.0) * 0.5 - 1.0

    count = (1 << 22) if QUICK else (1 << 24)
    run = compilation.compile(chain)(TensorLayout(DType.float32, [count]))
    x = np.random.default_rng(2).standard_normal(count, dtype=np.float32)
    repeats = 5 if QUICK else 15
    ours = median_time(lambda: run(x), repeats)
    target = np.empty_like(x)
    memcpy = median_time(lambda: np.copyto(target, x), repeats)
    eager = median_time(
        lambda: np.maximum(x * 1.5 + 0.25, 0.0) * 0.5 - 1.0, repeats)
    expected = np.maximum(x * np.float32(1.5) + np.float32(0.25),
                          np.float32(0)) * np.float32(0.5) - np.float32(1)
    error = float(np.max(np.abs(run(x).to_numpy() - expected)))
    gbs = 2 * count * 4 / 1e9
    name = (f"chain5 {count} {threads}t, numpy input"
            f"{', mallopt' if TUNE_MALLOC else ''}")
    row(name, ours, "memcpy", memcpy,
        f"({gbs / ours:.1f} vs {gbs / memcpy:.1f} GB/s, max |diff| "
        f"{error:.1e})")
    row(name, ours, "numpy 5 ops", eager)


def bench_rows(threads):
    from maxgraph import compilation, ops
    from maxgraph.dtype import DType
    from maxgraph.sharding import TensorLayout

    n = 1024 if QUICK else 4096
    rng = np.random.default_rng(3)
    x = rng.standard_normal((n, n), dtype=np.float32)
    gamma = rng.standard_normal(n, dtype=np.float32)
    beta = rng.standard_normal(n, dtype=np.float32)
    layout = TensorLayout(DType.float32, [n, n])
    row_layout = TensorLayout(DType.float32, [n])
    softmax = compilation.compile(ops.softmax)(layout)
    layer_norm = compilation.compile(ops.layer_norm)(layout, row_layout,
                                                     row_layout)
    repeats = 5 if QUICK else 11
    target = np.empty_like(x)
    memcpy = median_time(lambda: np.copyto(target, x), repeats)

    def np_softmax():
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    def np_layer_norm():
        mean = x.mean(-1, keepdims=True)
        var = x.var(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + np.float32(1e-5)) * gamma + beta

    for name, run, peer, args in (
            ("softmax", softmax, np_softmax, (x,)),
            ("layer_norm", layer_norm, np_layer_norm, (x, gamma, beta))):
        ours = median_time(lambda: run(*args), repeats)
        numpy_time = median_time(peer, repeats)
        error = float(np.max(np.abs(run(*args).to_numpy() - peer())))
        label = f"{name} {n}x{n} {threads}t, numpy input"
        row(label, ours, "memcpy", memcpy, f"(max |diff| {error:.1e})")
        row(label, ours, "numpy", numpy_time)


def main():
    if "--chain-child" in sys.argv:
        if TUNE_MALLOC:
            tune_malloc()
        bench_chain(int(os.environ["OMP_NUM_THREADS"]))
        if not TUNE_MALLOC:
            bench_rows(int(os.environ["OMP_NUM_THREADS"]))
        return
    print(f"load average: {os.getloadavg()[0]:.2f} "
          f"({os.cpu_count()} cores)")
    bench_call()
    bench_boundary()
    quick = ["--quick"] if QUICK else []
    for tune in ([], ["--tune-malloc"]):
        for threads in (1, 2):
            env = dict(os.environ, OMP_NUM_THREADS=str(threads))
            subprocess.run([sys.executable, __file__, "--chain-child", *quick,
                            *tune], env=env, check=True)


if __name__ == "__main__":
    main()
