# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Python staging throughput: ops staged per second through the maxgraph
package (every op crosses into the C++ staging library, which checks shapes
and builds IR).

    PYTHONPATH=build/python .venv/bin/python benchmarks/python_staging.py

Prints ops/s for a 10k-op elementwise chain, 1000 permutes (the case MAX's
users measured: 1000 permutes in 0.3 s, about 3.3k ops/s) and a 48-layer
MLP, inline and with as_subgraph, and the ratio to MAX's published figure;
then the MLP's inline/as_subgraph time ratio (above 1: as_subgraph stages
faster, since its body is traced once and the other 47 calls reuse it).
"""

import time

from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout

MAX_PUBLISHED_OPS_PER_SECOND = 1000 / 0.3


def best_of(repeats, fn):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def chain(n):
    def fn(x):
        for i in range(n // 2):
            x = x + 1.0 if i % 2 else x * x
            x = ops.relu(x)
        return x
    return fn


def permutes(n):
    def fn(x):
        for _ in range(n):
            x = ops.transpose(x, [1, 0, 2])
        return x
    return fn


def mlp(layers, shared):
    def layer(x, w, b):
        return ops.relu(x @ w + b)

    body = compilation.as_subgraph(layer) if shared else layer

    def fn(x, ws, bs):
        for w, b in zip(ws, bs):
            x = body(x, w, b)
        return x
    return fn


def main():
    x = TensorLayout(DType.float32, ["batch", 64])
    rows = []

    ops_count = 10_000
    seconds = best_of(3, lambda: compilation.stage(chain(ops_count))(x))
    rows.append(("10k-op elementwise chain", ops_count, seconds))

    cube = TensorLayout(DType.float32, [8, 16, 32])
    seconds = best_of(3, lambda: compilation.stage(permutes(1000))(cube))
    rows.append(("1000 permutes (MAX: 0.3 s)", 1000, seconds))

    w = TensorLayout(DType.float32, [64, 64])
    b = TensorLayout(DType.float32, [64])
    mlp_seconds = {}
    for shared in (False, True):
        # Best of many short runs: one staging takes about a millisecond.
        seconds = best_of(50, lambda: compilation.stage(mlp(48, shared))(
            x, [w] * 48, [b] * 48))
        mlp_seconds[shared] = seconds
        name = "48-layer MLP, " + ("as_subgraph" if shared else "inline")
        rows.append((name, 48 * 3, seconds))

    print(f"{'case':34} {'ops':>6} {'time':>10} {'ops/s':>10} {'vs MAX':>8}")
    for name, count, seconds in rows:
        rate = count / seconds
        print(f"{name:34} {count:6d} {seconds * 1e3:8.2f}ms {rate:10.0f} "
              f"{rate / MAX_PUBLISHED_OPS_PER_SECOND:7.1f}x")
    inline, shared = mlp_seconds[False], mlp_seconds[True]
    print(f"48-layer MLP: inline {inline * 1e3:.3f} ms, as_subgraph "
          f"{shared * 1e3:.3f} ms (inline/as_subgraph {inline / shared:.2f}x)")


if __name__ == "__main__":
    main()
