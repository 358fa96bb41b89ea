# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""F.conv2d, F.max_pool2d and F.avg_pool2d (MAX's names, NHWC and RSCF)
against numpy references written loop by loop."""

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout


def layout(array):
    return TensorLayout(DType.float32, list(array.shape))


def conv_reference(x, w, stride, dilation, padding, groups, bias):
    """Direct convolution, NHWC x RSCF, in float64."""
    top, bottom, left, right = padding
    x = np.pad(x.astype(np.float64),
               [(0, 0), (top, bottom), (left, right), (0, 0)])
    n, h, wd, c = x.shape
    r, s, cg, f = w.shape
    oh = (h - dilation[0] * (r - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (s - 1) - 1) // stride[1] + 1
    out = np.zeros((n, oh, ow, f))
    fg = f // groups
    for i in range(oh):
        for j in range(ow):
            for g in range(groups):
                for a in range(r):
                    for b in range(s):
                        pixel = x[:, i * stride[0] + a * dilation[0],
                                  j * stride[1] + b * dilation[1],
                                  g * cg:(g + 1) * cg]
                        out[:, i, j, g * fg:(g + 1) * fg] += \
                            pixel @ w[a, b, :, g * fg:(g + 1) * fg]
    return out + (0 if bias is None else bias)


CASES = [
    # stride, dilation, padding, groups
    ((1, 1), (1, 1), (0, 0, 0, 0), 1),
    ((2, 2), (1, 1), (1, 1, 1, 1), 1),
    ((1, 2), (2, 1), (2, 0, 1, 3), 1),
    ((1, 1), (1, 1), (1, 1, 1, 1), 2),
    ((2, 1), (1, 1), (0, 1, 0, 1), 4),
]


@pytest.mark.parametrize("stride,dilation,padding,groups", CASES)
def test_conv2d_matches_direct_convolution(stride, dilation, padding, groups,
                                           rng):
    x = rng.standard_normal((2, 9, 8, 8)).astype(np.float32)
    w = rng.standard_normal((3, 3, 8 // groups, 12)).astype(np.float32)
    bias = rng.standard_normal(12).astype(np.float32)

    def conv(a, f, c):
        return F.conv2d(a, f, stride, dilation, padding, groups, c)

    specs = [layout(x), layout(w), layout(bias)]
    out = compilation.compile(conv)(*specs)(x, w, bias).to_numpy()
    expected = conv_reference(x, w, stride, dilation, padding, groups, bias)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
    # The interpreter agrees: the same ops, each with its meaning.
    interpreted = compilation.stage(conv)(*specs).interpret(x, w, bias)
    np.testing.assert_allclose(interpreted.to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)


def test_conv2d_nchw_fcrs_and_a_symbolic_batch(rng):
    x = rng.standard_normal((3, 4, 7, 7)).astype(np.float32)       # NCHW
    w = rng.standard_normal((5, 4, 2, 2)).astype(np.float32)       # FCRS
    run = compilation.compile(
        lambda a, f: F.conv2d(a, f, stride=2, input_layout="NCHW",
                              filter_layout="FCRS"))(
        TensorLayout(DType.float32, ["n", 4, 7, 7]), layout(w))
    out = run(x, w).to_numpy()
    expected = conv_reference(x.transpose(0, 2, 3, 1),
                              w.transpose(2, 3, 1, 0), (2, 2), (1, 1),
                              (0, 0, 0, 0), 1, None).transpose(0, 3, 1, 2)
    assert out.shape == (3, 5, 3, 3)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


def pool_reference(x, k, stride, padding, reduce, fill):
    p = padding
    x = np.pad(x.astype(np.float64), [(0, 0), (p, p), (p, p), (0, 0)],
               constant_values=fill)
    n, h, w, c = x.shape
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    out = np.empty((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            out[:, i, j] = reduce(x[:, i * stride:i * stride + k,
                                    j * stride:j * stride + k], axis=(1, 2))
    return out


@pytest.mark.parametrize("k,stride,padding", [(2, 2, 0), (3, 2, 1),
                                              (3, 1, 1)])
def test_pools_match_numpy(k, stride, padding, rng):
    x = rng.standard_normal((2, 7, 6, 3)).astype(np.float32)
    spec = [layout(x)]
    maxed = compilation.compile(
        lambda a: F.max_pool2d(a, k, stride, padding=padding))(*spec)(x)
    np.testing.assert_allclose(
        maxed.to_numpy(), pool_reference(x, k, stride, padding, np.max,
                                         -np.inf), rtol=1e-6)
    mean = compilation.compile(
        lambda a: F.avg_pool2d(a, k, stride, padding=padding))(*spec)(x)
    np.testing.assert_allclose(
        mean.to_numpy(), pool_reference(x, k, stride, padding, np.mean, 0),
        rtol=1e-5, atol=1e-6)
    # Without count_boundary the padding is not in the divisor.
    valid = compilation.compile(
        lambda a: F.avg_pool2d(a, k, stride, padding=padding,
                               count_boundary=False))(*spec)(x)
    sums = pool_reference(x, k, stride, padding, np.sum, 0)
    counts = pool_reference(np.ones_like(x[:1, ..., :1]), k, stride, padding,
                            np.sum, 0)
    np.testing.assert_allclose(valid.to_numpy(), sums / counts, rtol=1e-5,
                               atol=1e-6)


def test_bad_arguments_are_refused():
    x = TensorLayout(DType.float32, [1, 5, 5, 4])
    w = TensorLayout(DType.float32, [3, 3, 3, 8])
    with pytest.raises(ValueError, match="1 groups of the filter's 3 input "
                       "channels must make the input's 4"):
        compilation.stage(F.conv2d)(x, w)
    with pytest.raises(ValueError, match="the input and the filter are rank "
                       "4, got ranks 3 and 4"):
        compilation.stage(F.conv2d)(TensorLayout(DType.float32, [5, 5, 4]),
                                    w)
    with pytest.raises(ValueError, match="layouts are NHWC or NCHW and RSCF "
                       "or FCRS, got NHWC and HWIO"):
        compilation.stage(lambda a, f: F.conv2d(
            a, f, filter_layout="HWIO"))(x, w)
    with pytest.raises(ValueError, match=r"a 7x7 window \(dilation \(1, 1\)\)"
                       r" does not fit the padded 5x5 input"):
        compilation.stage(lambda a: F.max_pool2d(a, 7))(x)
    with pytest.raises(ValueError, match="ceil_mode=True is not supported"):
        compilation.stage(lambda a: F.avg_pool2d(a, 2, ceil_mode=True))(x)
    with pytest.raises(TypeError, match="stride is an int or a pair of ints"):
        compilation.stage(lambda a: F.max_pool2d(a, 2, (1, 2, 3)))(x)
