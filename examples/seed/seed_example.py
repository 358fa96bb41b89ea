# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The seed example with the Python package: stage, print, compile, run."""

import numpy as np

from maxgraph.dtype import DType
from maxgraph import compilation
from maxgraph.sharding import TensorLayout, BufferLayout  # noqa: F401
from maxgraph.tensor import Tensor
from maxgraph.driver import CPU, GPU  # noqa: F401


def combine(kv: dict[str, Tensor], alpha: float) -> Tensor:
    return (kv["a"] + kv["b"]) * alpha


a = np.array([1.0, 2.0], dtype=np.float32)
b = np.array([3.0, 4.0], dtype=np.float32)

spec = TensorLayout(DType.float32, [2], CPU())
staged = compilation.stage(combine)({"a": spec, "b": spec}, 2.0)
print(staged)                                   # the whole module as MLIR
run = compilation.compile(combine)({"a": spec, "b": spec}, 2.0)
out = run({"a": Tensor.from_numpy(a), "b": Tensor.from_numpy(b)}, 2.0)
print(f"combine({{a: {a.tolist()}, b: {b.tolist()}}}, 2.0) = "
      f"{out.to_numpy().tolist()}")
