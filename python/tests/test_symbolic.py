"""Symbolic dims: one compiled graph for every size, one size per name."""

import re

import numpy as np
import pytest

from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor


def test_symbolic_and_algebraic_dims():
    def fn(x, y):
        joined = ops.concat([x, y], axis=0)
        assert joined.shape == ["batch + 1", 4]
        return joined[1:] * 2

    staged = compilation.stage(fn)(TensorLayout(DType.float32, ["batch", 4]),
                                   TensorLayout(DType.float32, [1, 4]))
    text = str(staged)
    assert re.search(r"maxgraph\.graph @fn<batch>\(", text), text
    assert "!maxgraph.tensor<[batch + 1, 4], f32>" in text
    assert staged.output_layouts == [TensorLayout(DType.float32, ["batch", 4])]
    run = staged.compile()
    for batch in (1, 3, 7):
        x = np.arange(batch * 4, dtype=np.float32).reshape(batch, 4)
        y = np.full((1, 4), -1, np.float32)
        out = run(Tensor.from_numpy(x), Tensor.from_numpy(y))
        np.testing.assert_array_equal(out.to_numpy(),
                                      np.concatenate([x, y])[1:] * 2)


def test_one_name_means_one_size():
    spec = TensorLayout(DType.float32, ["n"])
    run = compilation.compile(lambda a, b: a + b)(spec, spec)
    with pytest.raises(ValueError, match=r"`n` is already 2 from argument 0 "
                       r"\(`a`\)"):
        run(Tensor.from_numpy(np.ones(2, np.float32)),
            Tensor.from_numpy(np.ones(3, np.float32)))


def test_symbolic_dims_only_broadcast_with_themselves():
    def fn(a, b):
        return a + b

    with pytest.raises(ValueError, match="dim 0 of operand 0 is `n` but dim 0 "
                       "of operand 1 is `m`"):
        compilation.stage(fn)(TensorLayout(DType.float32, ["n"]),
                              TensorLayout(DType.float32, ["m"]))
