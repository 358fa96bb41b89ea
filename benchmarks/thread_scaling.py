# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Whether a second thread ever slows a graph down: per-call times of a
small transformer-style model on 1 and 2 threads, through the compiled
callable with numpy-backed inputs, as a user calls it.

    PYTHONPATH=build/python .venv/bin/python benchmarks/thread_scaling.py
    ... thread_scaling.py --quick           # fewer repetitions

The model: width 64, 16 tokens, per layer rms_norm, single-head attention
and a relu MLP of width 256, residuals; the layers shared with
``as_subgraph`` (1, 8 and 32 of them; 1 also inlined). Then the
all-MiniLM-L6-v2 encoder of examples/minilm (one graph of symbolic batch
and length) at batch x length 1x16, 1x128, 8x16 and 8x128, where its model
package is installed (scripts/setup.sh installs it). The thread count is
chosen with ``maxgraph.set_num_threads`` in one process and the counts
alternate round by round, so that both see the same machine; best of the
rounds. Prints per row the 1- and 2-thread milliseconds and 2-thread /
1-thread (at most 1.05 is the goal: a graph never runs slower on two
threads than on one), with the CPU and the load.
"""

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

WIDTH, TOKENS, HIDDEN = 64, 16, 256
SHAPES = [(WIDTH, WIDTH)] * 4 + [(WIDTH, HIDDEN), (HIDDEN, WIDTH)]


def layer(x, wq, wk, wv, wo, w1, w2, gamma):
    h = ops.rms_norm(x, gamma, 1e-6)
    q, k, v = ops.matmul(h, wq), ops.matmul(h, wk), ops.matmul(h, wv)
    scores = ops.softmax(ops.matmul(q, ops.transpose(k, [1, 0])) * 0.125)
    x = x + ops.matmul(ops.matmul(scores, v), wo)
    h = ops.rms_norm(x, gamma, 1e-6)
    return x + ops.matmul(ops.relu(ops.matmul(h, w1)), w2)


def compiled_model(layers, shared):
    def model(x, weights, gamma):
        body = compilation.as_subgraph(layer, name="layer") if shared else layer
        for i in range(layers):
            x = body(x, *weights[6 * i:6 * i + 6], gamma)
        return x

    spec = lambda shape: TensorLayout(DType.float32, list(shape))
    staged = compilation.stage(model, name="model")(
        spec((TOKENS, WIDTH)), [spec(s) for s in SHAPES] * layers,
        spec((WIDTH,)))
    rng = np.random.default_rng(0)
    weights = [Tensor.from_numpy(
        (0.1 * rng.standard_normal(s)).astype(np.float32))
        for _ in range(layers) for s in SHAPES]
    x = Tensor.from_numpy(rng.standard_normal((TOKENS, WIDTH), np.float32))
    gamma = Tensor.from_numpy(np.ones(WIDTH, np.float32))
    run = staged.compile()
    return lambda: run(x, weights, gamma)


def minilm_calls():
    """(name, call) for the MiniLM encoder at each benchmark shape, or a
    reason it is not there."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    try:
        from examples.minilm import encoder as minilm
        model = minilm.SentenceEncoder()
    except ImportError as error:
        return f"all-MiniLM-L6-v2 skipped: {error}"
    rng = np.random.default_rng(0)
    calls = []
    for batch, length in [(1, 16), (1, 128), (8, 16), (8, 128)]:
        ids = rng.integers(1000, 20000, (batch, length)).astype(np.int64)
        ids[:, 0], ids[:, -1] = 101, 102
        mask = np.ones_like(ids)
        calls.append((f"MiniLM {batch}x{length}",
                      lambda ids=ids, mask=mask: model.run(ids, mask)))
    return calls


def compare(name, call, calls, rounds):
    """Prints one row: the best per-call time on 1 and 2 threads."""
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(rounds):
        for threads in (1, 2):
            maxgraph.set_num_threads(threads)
            call()
            best[threads] = min(best[threads], per_call_ms(call, calls))
    maxgraph.set_num_threads(0)
    ratio = best[2] / best[1]
    print(f"{name:28s} {best[1]:12.3f} {best[2]:13.3f} {ratio:7.2f}"
          f"{'  SLOWER on 2 threads' if ratio > 1.05 else ''}", flush=True)


def per_call_ms(call, calls):
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - start) / calls * 1e3


def cpu_name():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 5 if args.quick else 9
    print(f"thread_scaling: {cpu_name()}, {os.cpu_count()} cores, load "
          f"average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{'model':28s} {'1 thread ms':>12s} {'2 threads ms':>13s} "
          f"{'2t/1t':>7s}")
    for layers, shared in [(1, False), (1, True), (8, True), (32, True)]:
        name = f"{layers} layer{'s' if layers > 1 else ''}, " + (
            "shared" if shared else "inlined")
        compare(name, compiled_model(layers, shared), max(10, 400 // layers),
                rounds)
    encoders = minilm_calls()
    if isinstance(encoders, str):
        print(encoders)
        return
    for name, call in encoders:
        compare(name, call, 4 if "8x128" in name else 20, max(3, rounds // 2))


if __name__ == "__main__":
    main()
