# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""F.resize, resize_linear, resize_nearest and resize_bicubic (MAX's
names) against references that compute each output element from its
definition: PyTorch's bilinear and bicubic interpolation
(``align_corners=False``), ONNX's coordinate transforms and nearest
rounding."""

import math

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout


def run(fn, x, spec=None):
    spec = spec or TensorLayout(DType.float32, list(x.shape))
    out = compilation.compile(fn)(spec)(x).to_numpy()
    interpreted = compilation.stage(fn)(spec).interpret(x).to_numpy()
    np.testing.assert_allclose(out, interpreted, rtol=1e-6, atol=1e-6)
    return out


def coordinate(o, n_in, n_out, mode):
    if mode == 1:
        return 0.0 if n_out == 1 else o * (n_in - 1) / (n_out - 1)
    if mode == 2:
        return o * n_in / n_out
    if mode == 3 and n_out == 1:
        return 0.0
    return (o + 0.5) * n_in / n_out - 0.5


def linear_reference(x, size, mode):
    """Each output element as a weighted sum of its 2^k neighbours."""
    out = np.zeros(size)
    for index in np.ndindex(*size):
        total = 0.0
        corners = [[]]
        for axis, o in enumerate(index):
            n_in, n_out = x.shape[axis], size[axis]
            if n_in == n_out:
                corners = [c + [(o, 1.0)] for c in corners]
                continue
            src = max(coordinate(o, n_in, n_out, mode), 0.0)
            low = min(int(math.floor(src)), n_in - 1)
            frac = min(src - low, 1.0)
            high = min(low + 1, n_in - 1)
            corners = [c + [pair] for c in corners
                       for pair in ((low, 1 - frac), (high, frac))]
        for corner in corners:
            weight = np.prod([w for _, w in corner])
            total += weight * x[tuple(i for i, _ in corner)]
        out[index] = total
    return out


@pytest.mark.parametrize("mode", [0, 1, 2, 3])
@pytest.mark.parametrize("size", [(1, 2, 7, 9), (1, 2, 3, 2), (1, 2, 1, 8)])
def test_linear_matches_its_definition(mode, size, rng):
    x = rng.standard_normal((1, 2, 4, 5)).astype(np.float32)
    out = run(lambda t: F.resize_linear(t, list(size), mode), x)
    np.testing.assert_allclose(out, linear_reference(x, size, mode),
                               rtol=1e-5, atol=1e-5)


def test_linear_resizes_any_axis_and_keeps_symbolic_ones(rng):
    x = rng.standard_normal((3, 6)).astype(np.float32)
    spec = TensorLayout(DType.float32, ["n", 6])
    out = run(lambda t: F.resize_linear(t, ["n", 10]), x, spec)
    np.testing.assert_allclose(out, linear_reference(x, (3, 10), 0),
                               rtol=1e-5, atol=1e-5)


def nearest_reference(x, size, mode, rounding):
    rounders = [lambda v: math.ceil(v - 0.5), lambda v: math.floor(v + 0.5),
                math.floor, math.ceil]
    out = np.zeros(size, x.dtype)
    for index in np.ndindex(*size):
        source = []
        for axis, o in enumerate(index):
            n_in, n_out = x.shape[axis], size[axis]
            v = coordinate(o, n_in, n_out, mode)
            source.append(min(max(rounders[rounding](v), 0), n_in - 1))
        out[index] = x[tuple(source)]
    return out


@pytest.mark.parametrize("rounding", [0, 1, 2, 3])
@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_nearest_matches_its_definition_on_integers(mode, rounding, rng):
    x = rng.integers(-100, 100, (1, 1, 5, 4)).astype(np.int32)
    size = (1, 1, 8, 3)
    out = run(lambda t: F.resize_nearest(t, list(size), mode, rounding), x,
              TensorLayout(DType.int32, [1, 1, 5, 4]))
    np.testing.assert_array_equal(out,
                                  nearest_reference(x, size, mode, rounding))


def cubic(t, a=-0.75):
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    if t < 2:
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return 0.0


def bicubic_reference(x, size):
    """PyTorch's upsample_bicubic2d, align_corners=False: 4x4 taps with
    clamped indices."""
    n, c, h, w = x.shape
    _, _, oh, ow = size
    out = np.zeros(size)
    for i in range(oh):
        sy = (i + 0.5) * h / oh - 0.5
        y0 = math.floor(sy)
        for j in range(ow):
            sx = (j + 0.5) * w / ow - 0.5
            x0 = math.floor(sx)
            for a in range(-1, 3):
                for b in range(-1, 3):
                    weight = cubic(a - (sy - y0)) * cubic(b - (sx - x0))
                    yy = min(max(y0 + a, 0), h - 1)
                    xx = min(max(x0 + b, 0), w - 1)
                    out[:, :, i, j] += weight * x[:, :, yy, xx]
    return out


@pytest.mark.parametrize("size", [(2, 3, 9, 7), (2, 3, 2, 3)])
def test_bicubic_matches_pytorchs(size, rng):
    x = rng.standard_normal((2, 3, 5, 6)).astype(np.float32)
    out = run(lambda t: F.resize_bicubic(t, list(size)), x)
    np.testing.assert_allclose(out, bicubic_reference(x, size), rtol=1e-4,
                               atol=1e-5)


def test_resize_picks_the_interpolation(rng):
    x = rng.standard_normal((1, 1, 3, 3)).astype(np.float32)
    size = [1, 1, 6, 6]
    for mode, reference in [
            (F.InterpolationMode.NEAREST,
             nearest_reference(x, size, 0, 0)),
            (F.InterpolationMode.BILINEAR, linear_reference(x, size, 0)),
            (F.InterpolationMode.BICUBIC, bicubic_reference(x, size))]:
        out = run(lambda t: F.resize(t, size, mode), x)
        np.testing.assert_allclose(out, reference, rtol=1e-5, atol=1e-5)
    assert str(F.InterpolationMode.BICUBIC) == "bicubic"


def test_bad_arguments_are_refused():
    spec = TensorLayout(DType.float32, [1, 1, 4, "w"])
    with pytest.raises(ValueError, match="coordinate_transform_mode must be "
                       "0-3, got 4"):
        compilation.stage(lambda t: F.resize_linear(t, [1, 1, 2, "w"], 4))(
            spec)
    with pytest.raises(ValueError, match="size must have the same rank as "
                       "input \\(4\\), got 3"):
        compilation.stage(lambda t: F.resize_nearest(t, [1, 2, 2]))(spec)
    with pytest.raises(ValueError, match="dim 3 of the input \\(`w`\\) is "
                       "resized to 8, so it must be static"):
        compilation.stage(lambda t: F.resize_linear(t, [1, 1, 4, 8]))(spec)
    with pytest.raises(ValueError, match="antialias=True is not supported"):
        compilation.stage(lambda t: F.resize_linear(
            t, [1, 1, 2, "w"], antialias=True))(spec)
    with pytest.raises(TypeError, match="interpolation takes a "
                       "floating-point input, got int32"):
        compilation.stage(lambda t: F.resize_bicubic(t, [1, 1, 8, 8]))(
            TensorLayout(DType.int32, [1, 1, 4, 4]))
    with pytest.raises(ValueError, match="resize: input tensor must have "
                       "rank 4"):
        compilation.stage(lambda t: F.resize(t, [2, 2]))(
            TensorLayout(DType.float32, [4, 4]))
