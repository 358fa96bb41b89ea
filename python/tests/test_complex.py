# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MAX's complex helpers for rotary embeddings against numpy's complex
numbers."""

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor


def test_rotary_embedding_by_complex_multiplication(rng):
    # A rotary embedding as MAX's models write it: pairs of a head's
    # features rotated by position-dependent angles.
    seq, heads, dim = 5, 3, 8
    x = rng.standard_normal((seq, heads, dim)).astype(np.float32)
    angles = np.arange(seq)[:, None] * (1e4 ** (-np.arange(dim // 2) /
                                                 (dim // 2)))
    freqs = np.stack([np.cos(angles), np.sin(angles)], -1).astype(np.float32)

    def rope(x, freqs):
        pairs = F.as_interleaved_complex(x)             # [seq, heads, 4, 2]
        rotated = F.complex_mul(pairs, F.unsqueeze(freqs, 1))
        return F.reshape(rotated, x.shape)

    out = compilation.compile(rope)(
        TensorLayout(DType.float32, [seq, heads, dim]),
        TensorLayout(DType.float32, [seq, dim // 2, 2]))(x, freqs).to_numpy()
    z = x[..., 0::2] + 1j * x[..., 1::2]
    w = np.exp(1j * angles)[:, None, :]
    expected = np.stack([(z * w).real, (z * w).imag], -1).reshape(x.shape)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_as_interleaved_complex_pairs_neighbours():
    x = Tensor.from_numpy(np.arange(12, dtype=np.float32).reshape(2, 6))
    pairs = F.as_interleaved_complex(x).to_numpy()
    assert pairs.shape == (2, 3, 2)
    np.testing.assert_array_equal(pairs[1, 2], [10, 11])


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="the last dim must be even, got 5"):
        F.as_interleaved_complex(Tensor.from_numpy(np.zeros(5, np.float32)))
    with pytest.raises(ValueError, match=r"complex_mul: rhs holds complex "
                       r"numbers in a last dim of 2, got shape \[3\]"):
        F.complex_mul(Tensor.from_numpy(np.zeros((3, 2), np.float32)),
                      Tensor.from_numpy(np.zeros(3, np.float32)))

    def symbolic(x):
        return F.as_interleaved_complex(x)

    with pytest.raises(TypeError, match="the last dim must be static"):
        compilation.stage(symbolic)(TensorLayout(DType.float32, [2, "n"]))
