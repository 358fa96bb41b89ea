"""Time to first result of an N-layer transformer-style model, through the
Python package as a user gets it: `compile()` (all code generation included)
plus the first call on numpy inputs, with the layers shared through
`as_subgraph` and inlined (the peer), for N = 1, 2, 4, ..., 64.

    PYTHONPATH=build/python .venv/bin/python benchmarks/compile_scaling.py

Prints, per N, compile() and first-call seconds both ways, the shared time
against one layer's, and inlined/shared. Best of `--repeats` (default 2).
"""

import argparse
import time

import numpy as np

from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor


def block(x, wq, wk, wv, wo, gamma, beta):
    q, k, v = ops.matmul(x, wq), ops.matmul(x, wk), ops.matmul(x, wv)
    scores = ops.softmax(ops.matmul(q, ops.transpose(k, [1, 0])) * 0.125)
    attended = ops.matmul(ops.matmul(scores, v), wo)
    h = ops.layer_norm(x + attended, gamma, beta)
    return ops.layer_norm(h + ops.gelu(h), gamma, beta)


def stage(layers, shared):
    def model(x, weights, gamma, beta):
        layer = compilation.as_subgraph(block, name="layer") if shared else block
        h = x
        for i in range(layers):
            h = layer(h, *weights[4 * i:4 * i + 4], gamma, beta)
        return h

    x = TensorLayout(DType.float32, [128, 256])
    matrix = TensorLayout(DType.float32, [256, 256])
    vector = TensorLayout(DType.float32, [256])
    return compilation.stage(model, name="model")(
        x, [matrix] * (4 * layers), vector, vector)


def time_to_first_result(layers, shared, repeats):
    rng = np.random.default_rng(0)
    inputs = [Tensor.from_numpy(rng.standard_normal((128, 256), np.float32)),
              [Tensor.from_numpy(0.05 * rng.standard_normal((256, 256),
                                                            np.float32))
               for _ in range(4 * layers)],
              Tensor.from_numpy(np.ones(256, np.float32)),
              Tensor.from_numpy(np.zeros(256, np.float32))]
    best = None
    for _ in range(repeats):
        staged = stage(layers, shared)
        start = time.perf_counter()
        compiled = staged.compile()
        compiled_at = time.perf_counter()
        compiled(*inputs)
        done = time.perf_counter()
        times = (compiled_at - start, done - compiled_at)
        if best is None or sum(times) < sum(best):
            best = times
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--layers", type=int, nargs="*",
                        default=[1, 2, 4, 8, 16, 32, 64])
    args = parser.parse_args()
    print(f"{'layers':>6} {'shared compile':>15} {'first call':>11} "
          f"{'inlined compile':>16} {'first call':>11} {'shared/1 layer':>15} "
          f"{'inlined/shared':>15}")
    one = None
    for layers in args.layers:
        shared = time_to_first_result(layers, True, args.repeats)
        inlined = time_to_first_result(layers, False, args.repeats)
        one = one or sum(shared)
        print(f"{layers:>6} {shared[0]:>14.3f}s {shared[1]:>10.3f}s "
              f"{inlined[0]:>15.3f}s {inlined[1]:>10.3f}s "
              f"{sum(shared) / one:>14.2f}x {sum(inlined) / sum(shared):>14.1f}x")


if __name__ == "__main__":
    main()
