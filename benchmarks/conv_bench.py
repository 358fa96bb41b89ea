# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""2-D convolution on ResNet-like shapes and MobileNet-like depthwise ones:
F.conv2d through compile()'s callable (numpy inputs, NHWC x RSCF) against
PyTorch's conv2d at its best layout (contiguous NCHW or channels_last, the
faster of the two), at 1 and 2 threads, in one run.

    PYTHONPATH=build/python VENV/bin/python benchmarks/conv_bench.py
    ... conv_bench.py --runs 3 --threads 1

VENV needs numpy and, for the peer, torch (scripts/bench.sh's venv has
both). Each (engine, shape, thread count) runs in its own child process
pinned with os.sched_setaffinity to the first N CPUs, with
OMP_NUM_THREADS=N, so that no two thread pools share the cores. Times are
the best of --runs batches of calls, after a warm-up call; MaxGraph's
compile time (staging and all code generation, from an empty compile
cache) is printed beside it. Prints the CPU model and the load average.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# (name, batch, height, width, in channels, kernel, stride, padding, out,
#  groups, bias): the bias rows are an inference ResNet's, whose
#  BatchNorm is folded into each convolution's filters and bias.
SHAPES = [
    ("resnet 3x3, 56x56x64", 8, 56, 56, 64, 3, 1, 1, 64, 1, False),
    ("resnet 3x3 + bias, 56x56x64", 8, 56, 56, 64, 3, 1, 1, 64, 1, True),
    ("resnet stem 7x7/2, 224x224x3", 8, 224, 224, 3, 7, 2, 3, 64, 1, False),
    ("resnet stem 7x7/2 + bias", 8, 224, 224, 3, 7, 2, 3, 64, 1, True),
    ("depthwise 3x3, 112x112x32", 8, 112, 112, 32, 3, 1, 1, 32, 32, False),
    ("depthwise 3x3/2, 112x112x64", 8, 112, 112, 64, 3, 2, 1, 64, 64, False),
    ("depthwise 3x3, 14x14x512", 8, 14, 14, 512, 3, 1, 1, 512, 512, False),
]


def best_of(call, runs, calls):
    call()
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def child(engine, shape_index, threads, runs):
    import numpy as np
    name, n, h, w, c, k, stride, pad, f, groups, biased = SHAPES[shape_index]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, h, w, c)).astype(np.float32)
    weights = rng.standard_normal((k, k, c // groups, f)).astype(np.float32)
    bias = rng.standard_normal(f).astype(np.float32)
    result = {}
    if engine == "maxgraph":
        import maxgraph
        import maxgraph.functional as F
        from maxgraph import compilation
        from maxgraph.dtype import DType
        from maxgraph.sharding import TensorLayout
        maxgraph.set_num_threads(threads)
        start = time.perf_counter()
        run = compilation.compile(
            lambda a, b, c: F.conv2d(a, b, stride=stride,
                                     padding=(pad, pad, pad, pad),
                                     groups=groups,
                                     bias=c if biased else None))(
            TensorLayout(DType.float32, list(x.shape)),
            TensorLayout(DType.float32, list(weights.shape)),
            TensorLayout(DType.float32, [f]))
        run(x, weights, bias)
        result["compile_s"] = time.perf_counter() - start
        result["s"] = best_of(lambda: run(x, weights, bias), runs, 3)
    else:
        import torch
        torch.set_num_threads(threads)
        xt = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()
        wt = torch.from_numpy(weights).permute(3, 2, 0, 1).contiguous()
        bt = torch.from_numpy(bias) if biased else None
        times = {}
        with torch.no_grad():
            for layout in ("nchw", "channels_last"):
                a, b = xt, wt
                if layout == "channels_last":
                    a = a.to(memory_format=torch.channels_last)
                    b = b.to(memory_format=torch.channels_last)
                times[layout] = best_of(
                    lambda: torch.nn.functional.conv2d(
                        a, b, bt, stride=stride, padding=pad, groups=groups),
                    runs, 3)
        layout = min(times, key=times.get)
        result.update(s=times[layout], layout=layout,
                      version=torch.__version__)
    print("RESULT " + json.dumps(result))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        engine, shape, threads = args.child
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:int(threads)])
        child(engine, int(shape), int(threads), args.runs)
        return
    cpu = next((line.split(":", 1)[1].strip() for line in subprocess.run(
        ["lscpu"], capture_output=True, text=True).stdout.splitlines()
        if line.startswith("Model name")), "unknown")
    print(f"CPU: {cpu}; load average at start: {os.getloadavg()[0]:.2f}")
    cache = tempfile.mkdtemp(prefix="conv-bench-cache-")
    print(f"{'shape':32} {'thr':>3} {'maxgraph ms':>12} {'compile s':>10} "
          f"{'torch ms':>9} {'torch layout':>13} {'ratio':>6}")
    for index, shape in enumerate(SHAPES):
        for threads in args.threads:
            results = {}
            for engine in ("maxgraph", "torch"):
                env = dict(os.environ, OMP_NUM_THREADS=str(threads),
                           MAXGRAPH_CACHE_DIR=cache)
                out = subprocess.run(
                    [sys.executable, __file__, "--runs", str(args.runs),
                     "--child", engine, str(index), str(threads)],
                    capture_output=True, text=True, env=env)
                lines = [line for line in out.stdout.splitlines()
                         if line.startswith("RESULT ")]
                if out.returncode or not lines:
                    message = (out.stderr.strip().splitlines() or ["?"])[-1]
                    print(f"  {engine}: failed: {message}")
                    continue
                results[engine] = json.loads(lines[-1][len("RESULT "):])
            if len(results) < 2:
                continue
            ours, peer = results["maxgraph"], results["torch"]
            print(f"{shape[0]:32} {threads:>3} {ours['s'] * 1e3:>12.2f} "
                  f"{ours['compile_s']:>10.2f} {peer['s'] * 1e3:>9.2f} "
                  f"{peer['layout']:>13} {peer['s'] / ours['s']:>5.2f}x")
    print(f"load average at end: {os.getloadavg()[0]:.2f}; ratio = torch "
          f"time / maxgraph time (above 1: maxgraph faster)")


if __name__ == "__main__":
    main()
