# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MAX's 2-D convolution and pooling, staged from existing ops.

``conv2d`` is an im2col: the padded input's strided windows, one per filter
tap, concatenated along the channels (``[N, Ho, Wo, R*S*C]``), times the
filter as an ``[R*S*C, F]`` matrix: one ``maxgraph.matmul``, which the CPU
path runs with its packed GEMM kernel (per group with ``groups``).
``max_pool2d`` and ``avg_pool2d`` combine the same windows elementwise. No
op of the dialect is added: the interpreter, the CPU and the GPU lowerings
run them as they run the slices, matmuls and adds they are made of.
Layouts are MAX's: NHWC inputs (NCHW accepted for conv2d), RSCF filters
(FCRS accepted).
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

from . import ops as _ops
from ._core import Tensor

IntPair = Union[int, Sequence[int]]


def _pair(name: str, value: IntPair) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    values = tuple(value)
    if len(values) != 2 or not all(isinstance(v, int) and
                                   not isinstance(v, bool) for v in values):
        raise TypeError(f"{name} is an int or a pair of ints, got {value!r}")
    return values


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


def _windows(op: str, x: Tensor, kernel: tuple[int, int],
             stride: tuple[int, int], dilation: tuple[int, int],
             padding: Sequence[int], pad_value: float) -> list[Tensor]:
    """The strided windows of NHWC `x`, one per kernel tap in row-major
    order, each ``[N, Ho, Wo, C]``."""
    if len(padding) != 4 or any(p < 0 for p in padding):
        raise ValueError(f"{op}: padding is (top, bottom, left, right), "
                         f"non-negative, got {tuple(padding)!r}")
    if min(stride) < 1 or min(dilation) < 1:
        raise ValueError(f"{op}: stride and dilation must be at least 1, "
                         f"got {stride} and {dilation}")
    if x.rank != 4:
        raise ValueError(f"{op}: the input is NHWC, rank 4, got rank "
                         f"{x.rank}")
    height, width = _static(op, x, [1, 2])
    top, bottom, left, right = padding
    if any(padding):
        x = _ops.pad(x, [0, 0, top, bottom, left, right, 0, 0], "constant",
                     pad_value)
    out_h = (height + top + bottom - dilation[0] * (kernel[0] - 1) - 1) \
        // stride[0] + 1
    out_w = (width + left + right - dilation[1] * (kernel[1] - 1) - 1) \
        // stride[1] + 1
    if out_h < 1 or out_w < 1:
        raise ValueError(f"{op}: a {kernel[0]}x{kernel[1]} window (dilation "
                         f"{dilation}) does not fit the padded "
                         f"{height + top + bottom}x{width + left + right} "
                         f"input")
    windows = []
    for r in range(kernel[0]):
        for s in range(kernel[1]):
            h0, w0 = r * dilation[0], s * dilation[1]
            windows.append(_ops.slice(x, [
                (0, None, 1),
                (h0, h0 + (out_h - 1) * stride[0] + 1, stride[0]),
                (w0, w0 + (out_w - 1) * stride[1] + 1, stride[1]),
                (0, None, 1)]))
    return windows


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
    layout, filter_order = _layout_name(input_layout), \
        _layout_name(filter_layout)
    if layout not in ("NHWC", "NCHW") or filter_order not in ("RSCF",
                                                              "FCRS"):
        raise ValueError(f"conv2d: layouts are NHWC or NCHW and RSCF or "
                         f"FCRS, got {layout} and {filter_order}")
    if layout == "NCHW":
        x = _ops.transpose(x, [0, 2, 3, 1])
    if filter_order == "FCRS":
        filter = _ops.transpose(filter, [2, 3, 1, 0])
    if x.rank != 4 or filter.rank != 4:
        raise ValueError(f"conv2d: the input and the filter are rank 4, got "
                         f"ranks {x.rank} and {filter.rank}")
    r, s, group_channels, features = _static("conv2d", filter, [0, 1, 2, 3])
    (channels,) = _static("conv2d", x, [3])
    if groups < 1 or channels != group_channels * groups or \
            features % groups:
        raise ValueError(
            f"conv2d: {groups} groups of the filter's {group_channels} input "
            f"channels must make the input's {channels}, and divide its "
            f"{features} output channels")
    windows = _windows("conv2d", x, (r, s), _pair("stride", stride),
                       _pair("dilation", dilation), list(padding), 0.0)
    batch, out_h, out_w = windows[0].shape[:3]
    rows = batch * out_h * out_w
    outputs = []
    per_group = features // groups
    for g in range(groups):
        taps = windows
        if groups > 1:
            taps = [_ops.slice(w, [(0, None, 1)] * 3 + [
                (g * group_channels, (g + 1) * group_channels, 1)])
                for w in windows]
        columns = taps[0] if len(taps) == 1 else _ops.concat(taps, 3)
        weights = filter
        if groups > 1:
            weights = _ops.slice(filter, [(0, None, 1)] * 3 + [
                (g * per_group, (g + 1) * per_group, 1)])
        product = _ops.matmul(
            _ops.reshape(columns, [rows, r * s * group_channels]),
            _ops.reshape(weights, [r * s * group_channels, per_group]))
        outputs.append(product)
    result = outputs[0] if groups == 1 else _ops.concat(outputs, 1)
    result = _ops.reshape(result, [batch, out_h, out_w, features])
    if bias is not None:
        result = _ops.add(result, bias)
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
