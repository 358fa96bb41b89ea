# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MAX's convolutions and pooling: conv2d an op of the dialect, the rest
staged from existing ops.

``conv2d`` is the dialect's ``maxgraph.conv2d`` (in NHWC and RSCF; other
layouts are transposed to them), which the CPU path runs as a direct
convolution. ``conv3d`` is an im2col: the padded input's strided windows,
one per filter tap, concatenated along the channels (``[N, Do, Ho, Wo,
Q*R*S*C]``), times the filter as a ``[Q*R*S*C, F]`` matrix (per group with
``groups``). ``conv2d_transpose`` is conv2d of the input with zeros between
its elements and the filter flipped. ``max_pool2d`` and ``avg_pool2d``
combine the windows elementwise, as the interpreter, the CPU and the GPU
lowerings run the slices and adds they are made of.
Layouts are MAX's: NHWC (NDHWC) inputs, NCHW (NCDHW) accepted; RSCF (QRSCF)
filters, FCRS (FCQRS) accepted.
"""

from __future__ import annotations

import itertools
from typing import Optional, Sequence, Union

from . import ops as _ops
from ._core import Tensor

IntPair = Union[int, Sequence[int]]


def _tuple(name: str, value: IntPair, n: int) -> tuple[int, ...]:
    """`value` as `n` ints: one int repeated, or a sequence of `n`."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    values = tuple(value)
    if len(values) != n or not all(isinstance(v, int) and
                                   not isinstance(v, bool) for v in values):
        many = "a pair of ints" if n == 2 else f"{n} ints"
        raise TypeError(f"{name} is an int or {many}, got {value!r}")
    return values


def _pair(name: str, value: IntPair) -> tuple[int, int]:
    return _tuple(name, value, 2)


def _layout_name(value) -> str:
    """`value`'s name: a string, or an enum member (MAX's ConvInputLayout
    and FilterLayout)."""
    name = getattr(value, "name", value)
    return str(getattr(value, "value", name) if not isinstance(value, str)
               else value).upper()


def _static(op: str, x: Tensor, dims: Sequence[int]) -> list[int]:
    sizes = []
    for d in dims:
        dim = x.shape[d]
        if not dim.is_static:
            raise ValueError(f"{op}: dim {d} of the input (`{dim}`) must be "
                             f"static")
        sizes.append(int(dim))
    return sizes


def _output_sizes(op: str, x: Tensor, kernel: Sequence[int],
                  stride: Sequence[int], dilation: Sequence[int],
                  padding: Sequence[int]) -> tuple[list[int], list[int]]:
    """The padded spatial sizes of channels-last `x` (``[N, *spatial, C]``)
    and the sizes of the windows' grid over them, or a ValueError naming
    what does not fit. `padding` is (before, after) per spatial dim."""
    n = len(kernel)
    if len(padding) != 2 * n or any(p < 0 for p in padding):
        names = ("(top, bottom, left, right)" if n == 2 else
                 f"(before, after) for each of the {n} spatial dims")
        raise ValueError(f"{op}: padding is {names}, non-negative, got "
                         f"{tuple(padding)!r}")
    if min(stride) < 1 or min(dilation) < 1:
        raise ValueError(f"{op}: stride and dilation must be at least 1, "
                         f"got {tuple(stride)} and {tuple(dilation)}")
    if x.rank != n + 2:
        raise ValueError(f"{op}: the input is {'NHWC' if n == 2 else 'NDHWC'}"
                         f", rank {n + 2}, got rank {x.rank}")
    sizes = _static(op, x, range(1, n + 1))
    padded = [size + padding[2 * d] + padding[2 * d + 1]
              for d, size in enumerate(sizes)]
    out = [(padded[d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1
           for d in range(n)]
    if min(out) < 1:
        raise ValueError(f"{op}: a {'x'.join(map(str, kernel))} window "
                         f"(dilation {tuple(dilation)}) does not fit the "
                         f"padded {'x'.join(map(str, padded))} input")
    return padded, out


def _windows(op: str, x: Tensor, kernel: Sequence[int],
             stride: Sequence[int], dilation: Sequence[int],
             padding: Sequence[int], pad_value: float) -> list[Tensor]:
    """The strided windows of channels-last `x` (``[N, *spatial, C]``), one
    per kernel tap in row-major order, each ``[N, *out_spatial, C]``.
    `padding` is (before, after) per spatial dim."""
    n = len(kernel)
    _, out = _output_sizes(op, x, kernel, stride, dilation, padding)
    if any(padding):
        x = _ops.pad(x, [0, 0] + list(padding) + [0, 0], "constant",
                     pad_value)
    windows = []
    for tap in itertools.product(*(range(k) for k in kernel)):
        ranges = [(0, None, 1)]
        for d in range(n):
            start = tap[d] * dilation[d]
            ranges.append((start, start + (out[d] - 1) * stride[d] + 1,
                           stride[d]))
        ranges.append((0, None, 1))
        windows.append(_ops.slice(x, ranges))
    return windows


def _convolution(op: str, x: Tensor, filter: Tensor, n: int,
                 stride: IntPair, dilation: IntPair, padding: Sequence[int],
                 groups: int, bias: Optional[Tensor], input_layout,
                 filter_layout) -> Tensor:
    """The `n`-D convolution of conv2d and conv3d: maxgraph.conv2d for
    two spatial dims, else an im2col of the windows times the filter as one
    ``[taps * C / groups, F / groups]`` matrix per group."""
    layout, filter_order = _layout_name(input_layout), \
        _layout_name(filter_layout)
    spatial = "DHW"[3 - n:]
    kernel_names = "QRS"[3 - n:]
    channels_last = "N" + spatial + "C"
    channels_first = "NC" + spatial
    filters = (kernel_names + "CF", "FC" + kernel_names)
    # MAX's enum says NHWC and NCHW for 3-D inputs too.
    if layout in ("NHWC", channels_last):
        layout = channels_last
    elif layout in ("NCHW", channels_first):
        layout = channels_first
    if layout not in (channels_last, channels_first) or \
            filter_order not in filters:
        raise ValueError(f"{op}: layouts are {channels_last} or "
                         f"{channels_first} and {filters[0]} or {filters[1]},"
                         f" got {layout} and {filter_order}")
    if x.rank != n + 2 or filter.rank != n + 2:
        raise ValueError(f"{op}: the input and the filter are rank {n + 2}, "
                         f"got ranks {x.rank} and {filter.rank}")
    if layout == channels_first:
        x = _ops.transpose(x, [0] + list(range(2, n + 2)) + [1])
    if filter_order == filters[1]:
        filter = _ops.transpose(filter, list(range(2, n + 2)) + [1, 0])
    *kernel, group_channels, features = _static(op, filter, range(n + 2))
    (channels,) = _static(op, x, [n + 1])
    if groups < 1 or channels != group_channels * groups or \
            features % groups:
        raise ValueError(
            f"{op}: {groups} groups of the filter's {group_channels} input "
            f"channels must make the input's {channels}, and divide its "
            f"{features} output channels")
    stride, dilation = _tuple("stride", stride, n), \
        _tuple("dilation", dilation, n)
    if n == 2:
        _output_sizes(op, x, kernel, stride, dilation, list(padding))
        result = _ops.conv2d(x, filter, list(stride), list(dilation),
                             list(padding), groups)
        return _finish(result, bias, layout == channels_first)
    windows = _windows(op, x, kernel, stride, dilation, list(padding), 0.0)
    batch, *out = windows[0].shape[:n + 1]
    rows = batch
    for size in out:
        rows = rows * size
    taps = len(windows)
    outputs = []
    per_group = features // groups
    for g in range(groups):
        group = windows
        if groups > 1:
            group = [_ops.slice(w, [(0, None, 1)] * (n + 1) + [
                (g * group_channels, (g + 1) * group_channels, 1)])
                for w in windows]
        columns = group[0] if taps == 1 else _ops.concat(group, n + 1)
        weights = filter
        if groups > 1:
            weights = _ops.slice(filter, [(0, None, 1)] * (n + 1) + [
                (g * per_group, (g + 1) * per_group, 1)])
        outputs.append(_ops.matmul(
            _ops.reshape(columns, [rows, taps * group_channels]),
            _ops.reshape(weights, [taps * group_channels, per_group])))
    result = outputs[0] if groups == 1 else _ops.concat(outputs, 1)
    result = _ops.reshape(result, [batch] + out + [features])
    return _finish(result, bias, layout == channels_first)


def _finish(result: Tensor, bias: Optional[Tensor],
            channels_first: bool) -> Tensor:
    """A channels-last convolution's `result` with `bias` added, in the
    input's layout."""
    if bias is not None:
        result = _ops.add(result, bias)
    if channels_first:
        n = result.rank - 2
        result = _ops.transpose(result, [0, n + 1] + list(range(1, n + 1)))
    return result


def conv2d(x: Tensor, filter: Tensor, stride: IntPair = (1, 1),
           dilation: IntPair = (1, 1),
           padding: Sequence[int] = (0, 0, 0, 0), groups: int = 1,
           bias: Optional[Tensor] = None, input_layout="NHWC",
           filter_layout="RSCF") -> Tensor:
    """The 2-D convolution of `x` (NHWC, or NCHW) with `filter` (RSCF:
    ``[R, S, C / groups, F]``, or FCRS), as MAX's: `stride` and `dilation`
    per spatial dim, `padding` ``(top, bottom, left, right)`` zeros,
    `groups` splitting channels, `bias` ``[F]`` added. The spatial dims and
    channels must be static; the batch may be symbolic."""
    return _convolution("conv2d", x, filter, 2, stride, dilation, padding,
                        groups, bias, input_layout, filter_layout)


def conv3d(x: Tensor, filter: Tensor, stride: IntPair = (1, 1, 1),
           dilation: IntPair = (1, 1, 1),
           padding: Sequence[int] = (0, 0, 0, 0, 0, 0), groups: int = 1,
           bias: Optional[Tensor] = None, input_layout="NHWC",
           filter_layout="QRSCF") -> Tensor:
    """The 3-D convolution of `x` (NDHWC; MAX's ``NHWC`` member names it
    too, and NCDHW or ``NCHW`` the channels-first form) with `filter`
    (QRSCF: ``[Q, R, S, C / groups, F]``, or FCQRS), as MAX's: `padding` is
    (before, after) for depth, height and width. As conv2d otherwise."""
    return _convolution("conv3d", x, filter, 3, stride, dilation, padding,
                        groups, bias, input_layout, filter_layout)


def conv2d_transpose(x: Tensor, filter: Tensor, stride: IntPair = (1, 1),
                     dilation: IntPair = (1, 1),
                     padding: Sequence[int] = (0, 0, 0, 0),
                     output_paddings: IntPair = (0, 0),
                     bias: Optional[Tensor] = None, input_layout="NHWC",
                     filter_layout="RSCF") -> Tensor:
    """The transposed 2-D convolution (the gradient of conv2d with respect
    to its input), as MAX's: `x` NHWC (or NCHW), `filter` RSCF ``[R, S,
    out_channels, in_channels]`` (or FCRS, PyTorch's ConvTranspose2d
    weight order), `padding` ``(top, bottom, left, right)`` taken off the
    output, `output_paddings` rows and columns added at its end (each below
    the stride). The output is ``(H - 1) * stride - top - bottom +
    dilation * (R - 1) + output_padding + 1`` high. Staged as conv2d of the
    input with ``stride - 1`` zeros between its elements, padded by
    ``dilation * (R - 1)`` less `padding`, with the filter flipped."""
    layout, filter_order = _layout_name(input_layout), \
        _layout_name(filter_layout)
    if layout not in ("NHWC", "NCHW") or filter_order not in ("RSCF",
                                                              "FCRS"):
        raise ValueError(f"conv2d_transpose: layouts are NHWC or NCHW and "
                         f"RSCF or FCRS, got {layout} and {filter_order}")
    if x.rank != 4 or filter.rank != 4:
        raise ValueError(f"conv2d_transpose: the input and the filter are "
                         f"rank 4, got ranks {x.rank} and {filter.rank}")
    stride, dilation = _pair("stride", stride), _pair("dilation", dilation)
    extra = _pair("output_paddings", output_paddings)
    if len(padding) != 4 or any(p < 0 for p in padding):
        raise ValueError(f"conv2d_transpose: padding is (top, bottom, left, "
                         f"right), non-negative, got {tuple(padding)!r}")
    if min(stride) < 1 or min(dilation) < 1:
        raise ValueError(f"conv2d_transpose: stride and dilation must be at "
                         f"least 1, got {stride} and {dilation}")
    if any(e < 0 or e >= max(s, d) for e, s, d in zip(extra, stride,
                                                      dilation)):
        raise ValueError(f"conv2d_transpose: output padding must be smaller "
                         f"than either stride or dilation, but got "
                         f"output_padding = {extra}")
    if layout == "NCHW":
        x = _ops.transpose(x, [0, 2, 3, 1])
    if filter_order == "FCRS":
        filter = _ops.transpose(filter, [2, 3, 1, 0])
    r, s, out_channels, in_channels = _static("conv2d_transpose", filter,
                                              range(4))
    height, width, channels = _static("conv2d_transpose", x, [1, 2, 3])
    if channels != in_channels:
        raise ValueError(f"conv2d_transpose: the filter takes "
                         f"{in_channels} input channels (its last dim), the "
                         f"input has {channels}")
    batch = x.shape[0]
    # stride - 1 zeros after each element: a unit dim padded to the stride,
    # then the zeros after the last element cut off.
    if stride != (1, 1):
        x = _ops.reshape(x, [batch, height, 1, width, 1, channels])
        x = _ops.pad(x, [0, 0, 0, 0, 0, stride[0] - 1, 0, 0, 0,
                         stride[1] - 1, 0, 0], "constant", 0.0)
        x = _ops.reshape(x, [batch, height * stride[0], width * stride[1],
                             channels])
        x = _ops.slice(x, [(0, None, 1), (0, (height - 1) * stride[0] + 1, 1),
                           (0, (width - 1) * stride[1] + 1, 1),
                           (0, None, 1)])
    # The full correlation's margins, less `padding`; a negative margin
    # crops.
    margins = []
    for k, d, (before, after), e in zip((r, s), dilation,
                                        (padding[:2], padding[2:]), extra):
        margins += [d * (k - 1) - before, d * (k - 1) - after + e]
    crop = [(max(0, -m)) for m in margins]
    if any(crop):
        size = x.shape[1:3]
        x = _ops.slice(x, [(0, None, 1),
                           (crop[0], int(size[0]) - crop[1], 1),
                           (crop[2], int(size[1]) - crop[3], 1),
                           (0, None, 1)])
    # The filter flipped in space, its channel dims swapped: RSCF with C the
    # input's channels.
    from . import functional
    flipped = filter
    for axis, k in ((0, r), (1, s)):
        if k > 1:
            flipped = _ops.gather(flipped, functional.constant(
                list(range(k - 1, -1, -1)), functional.DType.int64,
                filter.device), axis)
    flipped = _ops.transpose(flipped, [0, 1, 3, 2])
    result = _convolution("conv2d_transpose", x, flipped, 2, 1, dilation,
                          [max(0, m) for m in margins], 1, bias, "NHWC",
                          "RSCF")
    if layout == "NCHW":
        result = _ops.transpose(result, [0, 3, 1, 2])
    return result


def _pool(op: str, input: Tensor, kernel_size: IntPair, stride: IntPair,
          dilation: IntPair, padding: IntPair, ceil_mode: bool,
          pad_value: float) -> list[Tensor]:
    if ceil_mode:
        raise ValueError(f"{op}: ceil_mode=True is not supported; pad the "
                         f"bottom and right instead")
    ph, pw = _pair("padding", padding)
    return _windows(op, input, _pair("kernel_size", kernel_size),
                    _pair("stride", stride), _pair("dilation", dilation),
                    [ph, ph, pw, pw], pad_value)


def max_pool2d(input: Tensor, kernel_size: IntPair, stride: IntPair = 1,
               dilation: IntPair = 1, padding: IntPair = 0,
               ceil_mode: bool = False) -> Tensor:
    """The maximum over each window of NHWC `input`, as MAX's: padding
    counts as -inf."""
    windows = _pool("max_pool2d", input, kernel_size, stride, dilation,
                    padding, ceil_mode, float("-inf"))
    result = windows[0]
    for window in windows[1:]:
        result = _ops.max(result, window)
    return result


def avg_pool2d(input: Tensor, kernel_size: IntPair, stride: IntPair = 1,
               dilation: IntPair = 1, padding: IntPair = 0,
               ceil_mode: bool = False, count_boundary: bool = True) -> Tensor:
    """The mean over each window of NHWC `input`, as MAX's: padded zeros
    count in the divisor when `count_boundary`, else only the input's
    elements do."""
    windows = _pool("avg_pool2d", input, kernel_size, stride, dilation,
                    padding, ceil_mode, 0.0)
    total = windows[0]
    for window in windows[1:]:
        total = _ops.add(total, window)
    if count_boundary or not any(_pair("padding", padding)):
        return _ops.div(total, float(len(windows)))
    # The divisor per output position: the same windows over ones.
    from . import functional
    ones = functional.ones([1] + list(input.shape[1:3]) + [1],
                           dtype=input.dtype, device=input.device)
    counts = _pool("avg_pool2d", ones, kernel_size, stride, dilation,
                   padding, ceil_mode, 0.0)
    count = counts[0]
    for window in counts[1:]:
        count = _ops.add(count, window)
    return _ops.div(total, count)
