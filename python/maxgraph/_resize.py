# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MAX's resize family, staged from existing ops.

Each axis whose size changes is resized on its own (the filters are
separable): the input sample positions and weights of every output position
are worked out here, when the graph is staged, from the static sizes, and
the graph holds one ``gather`` of constant indices per filter tap, scaled by
constant weights and summed. The coordinate mapping and rounding modes are
ONNX's (MAX's ``coordinate_transform_mode`` and ``round_mode``); the cubic
filter is PyTorch's (Keys, ``a = -0.75``).
"""

from __future__ import annotations

import enum
from typing import Sequence

import numpy

from . import ops as _ops
from ._core import Tensor


class InterpolationMode(enum.Enum):
    """The interpolation of ``resize``, as MAX's."""

    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"

    def __str__(self) -> str:
        return self.value


_TRANSFORMS = ("half_pixel", "align_corners", "asymmetric", "half_pixel_1D")


def _source(out: int, size: int, mode: int) -> numpy.ndarray:
    """The input coordinate of each of `out` positions resized from `size`
    under coordinate transform `mode` (ONNX's)."""
    o = numpy.arange(out, dtype=numpy.float64)
    if mode == 1:  # align_corners
        return o * ((size - 1) / (out - 1)) if out > 1 else o * 0
    if mode == 2:  # asymmetric
        return o * (size / out)
    if mode == 3 and out == 1:  # half_pixel_1D
        return o * 0
    return (o + 0.5) * (size / out) - 0.5


def _sizes(op: str, x: Tensor, size: Sequence) -> list[tuple[int, int, int]]:
    """The (axis, input size, output size) of each axis that changes, after
    checking `size` against `x`."""
    size = list(size)
    if len(size) != x.rank:
        raise ValueError(f"{op}: size must have the same rank as input "
                         f"({x.rank}), got {len(size)}")
    changes = []
    for axis, (dim, target) in enumerate(zip(x.shape, size)):
        if not isinstance(target, int) and getattr(target, "is_static",
                                                   False):
            target = int(target)
        if str(target) == str(dim):  # the same size, static or symbolic
            continue
        if not isinstance(target, int) or target < 1:
            raise ValueError(f"{op}: size[{axis}] must be a positive int "
                             f"where the axis is resized, got {target!r}")
        if not dim.is_static:
            raise ValueError(f"{op}: dim {axis} of the input (`{dim}`) is "
                             f"resized to {target}, so it must be static")
        changes.append((axis, int(dim), target))
    return changes


def _taps(x: Tensor, axis: int, indices: numpy.ndarray,
          weights: numpy.ndarray) -> Tensor:
    """Sum over the taps t of ``gather(x, indices[t], axis) * weights[t]``
    (indices and weights ``[taps, out]``; weights None: one tap, no
    scaling)."""
    from . import functional

    shape = [1] * x.rank
    shape[axis] = indices.shape[1]
    total = None
    for t in range(indices.shape[0]):
        picked = _ops.gather(x, functional.constant(
            indices[t].astype(numpy.int64), functional.DType.int64,
            x.device), axis)
        if weights is not None:
            picked = _ops.mul(picked, functional.constant(
                weights[t].reshape(shape), x.dtype, x.device))
        total = picked if total is None else _ops.add(total, picked)
    return total


def _check_float(op: str, x: Tensor) -> None:
    if not x.dtype.is_float():
        raise TypeError(f"{op}: interpolation takes a floating-point input, "
                        f"got {x.dtype.name}")


def resize_linear(input: Tensor, size: Sequence,
                  coordinate_transform_mode: int = 0,
                  antialias: bool = False) -> Tensor:
    """`input` resized to the shape `size` (any rank: every axis whose size
    changes) by linear interpolation along each such axis, as MAX's:
    `coordinate_transform_mode` 0 half_pixel (the default, PyTorch's
    ``align_corners=False``), 1 align_corners, 2 asymmetric, 3
    half_pixel_1D; samples past the edges take the edge's value. Resized
    axes must be static. `antialias` (a widened filter when downscaling) is
    not supported."""
    if coordinate_transform_mode not in (0, 1, 2, 3):
        raise ValueError(f"resize_linear: coordinate_transform_mode must be "
                         f"0-3, got {coordinate_transform_mode}")
    if antialias:
        raise ValueError("resize_linear: antialias=True is not supported")
    _check_float("resize_linear", input)
    for axis, size_in, size_out in _sizes("resize_linear", input, size):
        x = numpy.maximum(_source(size_out, size_in,
                                  coordinate_transform_mode), 0)
        low = numpy.minimum(numpy.floor(x).astype(numpy.int64), size_in - 1)
        high = numpy.minimum(low + 1, size_in - 1)
        fraction = numpy.minimum(x - low, 1.0)
        input = _taps(input, axis, numpy.stack([low, high]),
                      numpy.stack([1 - fraction, fraction]))
    return input


def resize_nearest(input: Tensor, size: Sequence,
                   coordinate_transform_mode: int = 0,
                   round_mode: int = 0) -> Tensor:
    """`input` resized to the shape `size` by picking, along each axis that
    changes, the input sample nearest the mapped coordinate, as MAX's:
    `coordinate_transform_mode` as in ``resize_linear``; `round_mode` 0
    HalfDown ``ceil(x - 0.5)`` (the default), 1 HalfUp ``floor(x + 0.5)``,
    2 floor, 3 ceil; clamped to the axis. Any dtype."""
    if coordinate_transform_mode not in (0, 1, 2, 3):
        raise ValueError(f"resize_nearest: coordinate_transform_mode must be "
                         f"0-3, got {coordinate_transform_mode}")
    if round_mode not in (0, 1, 2, 3):
        raise ValueError(f"resize_nearest: round_mode must be 0-3, got "
                         f"{round_mode}")
    rounding = (lambda v: numpy.ceil(v - 0.5), lambda v: numpy.floor(v + 0.5),
                numpy.floor, numpy.ceil)[round_mode]
    for axis, size_in, size_out in _sizes("resize_nearest", input, size):
        x = _source(size_out, size_in, coordinate_transform_mode)
        picked = numpy.clip(rounding(x), 0, size_in - 1).astype(numpy.int64)
        input = _taps(input, axis, picked[None], None)
    return input


def _cubic(t: numpy.ndarray, a: float = -0.75) -> numpy.ndarray:
    """Keys' cubic convolution kernel at distance `t`."""
    t = numpy.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return numpy.where(t <= 1, near, numpy.where(t < 2, far, 0.0))


def resize_bicubic(input: Tensor, size: Sequence) -> Tensor:
    """The NCHW `input` resized to `size` (4 sizes) by bicubic interpolation
    with half-pixel coordinates, as MAX's and PyTorch's (Keys' kernel with
    ``a = -0.75``, ``align_corners=False``): four taps per output along each
    resized axis, clamped to the edges."""
    if input.rank != 4:
        raise ValueError(f"resize_bicubic requires rank-4 (NCHW) input, got "
                         f"rank {input.rank}")
    if len(list(size)) != 4:
        raise ValueError(f"resize_bicubic: size must have 4 elements for "
                         f"NCHW format, got {len(list(size))}")
    _check_float("resize_bicubic", input)
    for axis, size_in, size_out in _sizes("resize_bicubic", input, size):
        x = _source(size_out, size_in, 0)
        base = numpy.floor(x)
        fraction = x - base
        offsets = numpy.arange(-1, 3)[:, None]
        indices = numpy.clip(base[None] + offsets, 0,
                             size_in - 1).astype(numpy.int64)
        weights = _cubic(offsets - fraction[None])
        input = _taps(input, axis, indices, weights)
    return input


def resize(input: Tensor, shape: Sequence,
           interpolation: InterpolationMode = InterpolationMode.BILINEAR
           ) -> Tensor:
    """The NCHW `input` resized to `shape` (4 sizes) by `interpolation`
    (an InterpolationMode: NEAREST, BILINEAR, the default, or BICUBIC), as
    MAX's ``resize``: ``resize_nearest``, ``resize_linear`` or
    ``resize_bicubic`` with their default modes."""
    if input.rank != 4:
        raise ValueError(f"resize: input tensor must have rank 4 (NCHW "
                         f"format), but got rank {input.rank}")
    if len(list(shape)) != 4:
        raise ValueError(f"resize: shape must have 4 elements for NCHW "
                         f"format (batch, channels, height, width), but got "
                         f"{len(list(shape))} elements")
    mode = InterpolationMode(getattr(interpolation, "value", interpolation))
    if mode == InterpolationMode.NEAREST:
        return resize_nearest(input, shape)
    if mode == InterpolationMode.BILINEAR:
        return resize_linear(input, shape)
    return resize_bicubic(input, shape)

