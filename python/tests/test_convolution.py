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


@pytest.mark.parametrize("dilation", [1, 2])
def test_conv2d_register_tiles_and_their_remainders(dilation, rng):
    # 29 output columns are two register tiles of 12 pixels and a remainder
    # of 5, 40 filters a tile of 32 and one of 8; 17 rows over the threads.
    x = rng.standard_normal((2, 17, 29, 16)).astype(np.float32)
    w = rng.standard_normal((3, 3, 16, 40)).astype(np.float32)
    pad = (dilation, dilation, dilation, dilation)
    out = compilation.compile(
        lambda a, f: F.conv2d(a, f, dilation=dilation, padding=pad))(
        layout(x), layout(w))(x, w).to_numpy()
    expected = conv_reference(x, w, (1, 1), (dilation, dilation), pad, 1,
                              None)
    assert out.shape == (2, 17, 29, 40)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("stride,dilation,padding,width,channels", [
    ((1, 1), (1, 1), (1, 1, 1, 1), 29, 48),   # tiles of 16 channels
    ((2, 2), (1, 1), (1, 1, 1, 1), 26, 64),   # strided; the last column unread
    ((1, 2), (2, 1), (2, 0, 1, 3), 14, 8),    # fewer channels than a vector
    ((2, 1), (1, 1), (0, 1, 0, 1), 7, 40),    # rows that 4 do not divide
])
def test_depthwise_conv2d_matches_direct_convolution(stride, dilation,
                                                     padding, width, channels,
                                                     rng):
    # A channel and a filter per group: its own kernel (blocks of output
    # rows, register tiles of pixels x channels, a multiply-add per tap).
    x = rng.standard_normal((2, 10, width, channels)).astype(np.float32)
    w = rng.standard_normal((3, 3, 1, channels)).astype(np.float32)
    run = compilation.compile(
        lambda a, f: F.conv2d(a, f, stride, dilation, padding, channels))(
        layout(x), layout(w))
    expected = conv_reference(x, w, stride, dilation, padding, channels, None)
    np.testing.assert_allclose(run(x, w).to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)
    # A channel multiplier of 2 (two filters per group) is grouped instead.
    w2 = rng.standard_normal((3, 3, 1, 2 * channels)).astype(np.float32)
    run2 = compilation.compile(
        lambda a, f: F.conv2d(a, f, stride, dilation, padding, channels))(
        layout(x), layout(w2))
    np.testing.assert_allclose(
        run2(x, w2).to_numpy(),
        conv_reference(x, w2, stride, dilation, padding, channels, None),
        rtol=1e-4, atol=1e-4)


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


def test_conv2d_is_one_op_of_the_dialect():
    # The convolution is maxgraph.conv2d (not slices and a matmul), with
    # the arguments in its attributes and the bias added after it.
    staged = compilation.stage(
        lambda a, f, c: F.conv2d(a, f, (2, 1), (1, 2), (1, 0, 2, 1),
                                 bias=c))(
        TensorLayout(DType.float32, ["n", 9, 8, 4]),
        TensorLayout(DType.float32, [3, 2, 4, 6]),
        TensorLayout(DType.float32, [6]))
    text = str(staged)
    assert text.count("maxgraph.conv2d") == 1
    assert ("strides = [2, 1] dilations = [1, 2] padding = [1, 0, 2, 1] "
            "groups = 1") in text
    assert "maxgraph.matmul" not in text and "maxgraph.slice" not in text
    # (9 + 1 - 3) // 2 + 1 rows, (8 + 3 - 2 - 1) // 1 + 1 columns.
    assert "!maxgraph.tensor<[n, 4, 9, 6], f32>" in text


@pytest.mark.parametrize("placement", ["batch", "filters"])
def test_conv2d_shards_the_batch_or_the_filters(placement, rng):
    from maxgraph.driver import CPU
    from maxgraph.sharding import (DeviceMapping, DeviceMesh, Replicated,
                                   Sharded)
    mesh = DeviceMesh([CPU(0), CPU(1)], (2,), ("tp",))
    x = rng.standard_normal((4, 6, 6, 3)).astype(np.float32)
    w = rng.standard_normal((3, 3, 3, 8)).astype(np.float32)
    on = {"batch": (Sharded(0), Replicated()),
          "filters": (Replicated(), Sharded(3))}[placement]
    specs = [TensorLayout(DType.float32, list(a.shape),
                          DeviceMapping(mesh, [p]))
             for a, p in zip((x, w), on)]
    out = compilation.compile(
        lambda a, f: F.conv2d(a, f, padding=(1, 1, 1, 1)))(*specs)(x, w)
    expected = conv_reference(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1, None)
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)
    axis = 0 if placement == "batch" else 3
    assert [list(s.shape)[axis] for s in out.local_shards] == \
        [x.shape[0] // 2 if axis == 0 else w.shape[3] // 2] * 2


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


def conv3d_reference(x, w, stride, dilation, padding, groups, bias):
    """Direct 3-D convolution, NDHWC x QRSCF, in float64."""
    x = np.pad(x.astype(np.float64),
               [(0, 0)] + [tuple(padding[2 * d:2 * d + 2]) for d in range(3)]
               + [(0, 0)])
    n, *spatial, c = x.shape
    *kernel, cg, f = w.shape
    out_shape = [(spatial[d] - dilation[d] * (kernel[d] - 1) - 1)
                 // stride[d] + 1 for d in range(3)]
    out = np.zeros([n] + out_shape + [f])
    fg = f // groups
    for o in np.ndindex(*out_shape):
        for tap in np.ndindex(*kernel):
            at = tuple(o[d] * stride[d] + tap[d] * dilation[d]
                       for d in range(3))
            for g in range(groups):
                out[(slice(None),) + o + (slice(g * fg, (g + 1) * fg),)] += \
                    x[(slice(None),) + at + (slice(g * cg, (g + 1) * cg),)] \
                    @ w[tap][:, g * fg:(g + 1) * fg]
    return out + (0 if bias is None else bias)


@pytest.mark.parametrize("stride,dilation,padding,groups", [
    ((1, 1, 1), (1, 1, 1), (0,) * 6, 1),
    ((2, 1, 2), (1, 2, 1), (1, 0, 0, 2, 1, 1), 1),
    ((1, 1, 1), (1, 1, 1), (1,) * 6, 2),
])
def test_conv3d_matches_direct_convolution(stride, dilation, padding, groups,
                                           rng):
    x = rng.standard_normal((2, 5, 6, 5, 4)).astype(np.float32)
    w = rng.standard_normal((2, 3, 2, 4 // groups, 6)).astype(np.float32)
    bias = rng.standard_normal(6).astype(np.float32)

    def conv(a, f, c):
        return F.conv3d(a, f, stride, dilation, padding, groups, c)

    specs = [layout(x), layout(w), layout(bias)]
    expected = conv3d_reference(x, w, stride, dilation, padding, groups,
                                bias)
    out = compilation.compile(conv)(*specs)(x, w, bias).to_numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
    interpreted = compilation.stage(conv)(*specs).interpret(x, w, bias)
    np.testing.assert_allclose(interpreted.to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)


def test_conv3d_channels_first():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 3, 4, 4, 4)).astype(np.float32)  # NCDHW
    w = rng.standard_normal((2, 3, 2, 2, 2)).astype(np.float32)  # FCQRS
    out = compilation.compile(lambda a, f: F.conv3d(
        a, f, input_layout="NCDHW", filter_layout="FCQRS"))(
        layout(x), layout(w))(x, w).to_numpy()
    expected = conv3d_reference(x.transpose(0, 2, 3, 4, 1),
                                w.transpose(2, 3, 4, 1, 0), (1,) * 3,
                                (1,) * 3, (0,) * 6, 1, None)
    np.testing.assert_allclose(out, expected.transpose(0, 4, 1, 2, 3),
                               rtol=1e-4, atol=1e-4)


def conv_transpose_reference(x, w, stride, dilation, padding, extra, bias):
    """The transposed convolution by its definition: each input pixel adds
    the filter, scaled, at its strided place (NHWC x RSCF with C the output
    channels), then `padding` comes off and `extra` rows and columns of
    the full result stay at the end."""
    n, h, wd, _ = x.shape
    r, s, f, _ = w.shape
    full_h = (h - 1) * stride[0] + dilation[0] * (r - 1) + 1 + extra[0]
    full_w = (wd - 1) * stride[1] + dilation[1] * (s - 1) + 1 + extra[1]
    full = np.zeros((n, full_h, full_w, f))
    for i in range(h):
        for j in range(wd):
            for a in range(r):
                for b in range(s):
                    full[:, i * stride[0] + a * dilation[0],
                         j * stride[1] + b * dilation[1]] += \
                        x[:, i, j].astype(np.float64) @ w[a, b].T
    top, bottom, left, right = padding
    out = full[:, top:full_h - bottom, left:full_w - right]
    return out + (0 if bias is None else bias)


@pytest.mark.parametrize("stride,dilation,padding,extra", [
    ((1, 1), (1, 1), (0, 0, 0, 0), (0, 0)),
    ((2, 2), (1, 1), (0, 0, 0, 0), (0, 0)),
    ((2, 3), (1, 1), (1, 1, 0, 2), (1, 2)),
    ((1, 2), (2, 1), (2, 1, 1, 0), (1, 0)),
    ((3, 1), (1, 1), (3, 3, 0, 0), (0, 0)),  # more padding than margin
])
def test_conv2d_transpose_matches_its_definition(stride, dilation, padding,
                                                 extra, rng):
    x = rng.standard_normal((2, 4, 5, 3)).astype(np.float32)
    w = rng.standard_normal((3, 2, 6, 3)).astype(np.float32)  # R S out in
    bias = rng.standard_normal(6).astype(np.float32)

    def deconv(a, f, c):
        return F.conv2d_transpose(a, f, stride, dilation, padding, extra, c)

    specs = [layout(x), layout(w), layout(bias)]
    expected = conv_transpose_reference(x, w, stride, dilation, padding,
                                        extra, bias)
    out = compilation.compile(deconv)(*specs)(x, w, bias).to_numpy()
    assert out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
    interpreted = compilation.stage(deconv)(*specs).interpret(x, w, bias)
    np.testing.assert_allclose(interpreted.to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)


def test_conv2d_transpose_nchw_fcrs_is_torchs_layout(rng):
    # PyTorch's ConvTranspose2d weight is [in, out, kH, kW]: FCRS here.
    x = rng.standard_normal((1, 3, 4, 4)).astype(np.float32)
    w = rng.standard_normal((3, 5, 3, 3)).astype(np.float32)
    out = compilation.compile(lambda a, f: F.conv2d_transpose(
        a, f, stride=2, padding=(1, 1, 1, 1), output_paddings=1,
        input_layout="NCHW", filter_layout="FCRS"))(
        layout(x), layout(w))(x, w).to_numpy()
    expected = conv_transpose_reference(
        x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), (2, 2), (1, 1),
        (1, 1, 1, 1), (1, 1), None).transpose(0, 3, 1, 2)
    assert out.shape == (1, 5, 8, 8)  # (4 - 1) * 2 - 2 + 2 + 1 + 1
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


def test_conv2d_transpose_refuses_bad_arguments():
    x = TensorLayout(DType.float32, [1, 4, 4, 3])
    w = TensorLayout(DType.float32, [3, 3, 2, 3])
    with pytest.raises(ValueError, match=r"output padding must be smaller "
                       r"than either stride or dilation"):
        compilation.stage(lambda a, f: F.conv2d_transpose(
            a, f, output_paddings=(1, 0)))(x, w)
    with pytest.raises(ValueError, match="the filter takes 2 input channels"
                       r" \(its last dim\), the input has 3"):
        compilation.stage(F.conv2d_transpose)(
            x, TensorLayout(DType.float32, [3, 3, 3, 2]))
