# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MAX's ``max.experimental.functional`` names over maxgraph's ops.

    import maxgraph.functional as F

    def block(x, w):
        return F.softmax(F.matmul(x, F.transpose(w, 0, 1)), axis=-1)

Each function takes MAX's arguments and conventions and stages the
maxgraph op that does the work; none is an op of its own. Conventions that
differ from ``maxgraph.ops``:

- Reductions (``sum``, ``mean``, ``max``, ``min``, ``prod``, ``argmax``,
  ``argmin``) take one ``axis`` (default ``-1``) and keep it with size 1;
  ``axis=None`` reduces every element into a tensor of shape ``[1]``.
- ``max(x, y)`` and ``min(x, y)`` with two tensors are elementwise.
- ``permute(x, dims)`` reorders all axes; ``transpose(x, a, b)`` swaps two.
- ``where(condition, x, y)`` selects; ``negate`` is ``-x``.
- ``div`` is true division, as MAX's: two integer operands divide as
  float64 (``maxgraph.ops.div`` floors them; ``floor_div`` is ``//``).
- Collectives take a distributed Tensor and a mesh axis, as MAX's
  (``allreduce_sum(t, mesh_axis)`` turns ``Partial`` into ``Replicated``),
  or the list of per-device tensors (the ``max.graph.ops`` form).

``full``, ``ones``, ``zeros``, ``constant`` and ``range`` (``arange``)
outside a staged function make live host tensors, as MAX's do; inside, they
stage constants (``range``: ``maxgraph.arange``).
"""

from __future__ import annotations

import builtins
import collections
import functools
import operator
from typing import Any, Callable, Mapping, Optional, Sequence, Union

import numpy

from . import ops as _ops
from . import _core
from . import dtype as _dtype  # noqa: F401  (DType's is_float, ...)
from ._core import (CPU, Buffer, Device, DeviceMapping, DeviceMesh, DType,
                    NamedMapping, Partial, ReduceOp, Replicated, Sharded,
                    ShardingError, Tensor, TensorLayout)
from .compilation import _in_trace

Axis = Optional[int]


def _rank(x: Tensor) -> int:
    return x.rank


def _axis(x: Tensor, axis: int, what: str, extra: int = 0) -> int:
    """`axis` in [0, rank + extra), from a possibly negative one."""
    rank = _rank(x) + extra
    if not -rank <= axis < rank:
        raise IndexError(f"{what}: axis {axis} is out of range for a tensor "
                         f"of rank {_rank(x)}")
    return axis + rank if axis < 0 else axis


def _static(dim) -> Optional[int]:
    """A dim's size when it is static, else None."""
    if isinstance(dim, int):
        return dim
    return int(dim) if getattr(dim, "is_static", False) else None


def _elements(x: Tensor):
    """The number of elements of `x`: the product of its dims."""
    return functools.reduce(operator.mul, x.shape, 1)


# Elementwise ops: the same functions and argument order as maxgraph.ops.
abs = _ops.abs
add = _ops.add
sub = _ops.sub
mul = _ops.mul
mod = _ops.mod
pow = _ops.pow
negate = _ops.neg
exp = _ops.exp
log = _ops.log
log1p = _ops.log1p
sqrt = _ops.sqrt
rsqrt = _ops.rsqrt
sin = _ops.sin
cos = _ops.cos
tanh = _ops.tanh
erf = _ops.erf
acos = _ops.acos
atanh = _ops.atanh
floor = _ops.floor
ceil = _ops.ceil
round = _ops.round
sigmoid = _ops.sigmoid
relu = _ops.relu
gelu = _ops.gelu
silu = _ops.silu
is_nan = _ops.is_nan
is_inf = _ops.is_inf
logical_and = _ops.logical_and
logical_or = _ops.logical_or
logical_xor = _ops.logical_xor
logical_not = _ops.logical_not
equal = _ops.equal
not_equal = _ops.not_equal
greater = _ops.greater
greater_equal = _ops.greater_equal
elementwise_max = _ops.max
elementwise_min = _ops.min
cast = _ops.cast
matmul = _ops.matmul


def _integral(value) -> bool:
    """Whether `value` is an integer tensor (not bool) or a Python or numpy
    int (bools included: MAX promotes a Python bool as an int)."""
    if isinstance(value, Tensor):
        return value.dtype.is_integral()
    return isinstance(value, (int, numpy.integer, numpy.bool_))


def div(lhs, rhs) -> Tensor:
    """``lhs / rhs``, true division as Python's and MAX's: when both
    operands are integers (tensors or numbers) they are cast to float64
    first, so the result is float64 (``7 / 2 = 3.5``). Floats divide in
    their dtype. (``maxgraph.ops.div`` keeps integers and floors.)"""
    if _integral(lhs) and _integral(rhs):
        lhs, rhs = (_ops.cast(value, DType.float64)
                    if isinstance(value, Tensor) else value
                    for value in (lhs, rhs))
    return _ops.div(lhs, rhs)


def floor_div(lhs, rhs) -> Tensor:
    """``lhs // rhs``, rounded toward negative infinity (as Python's)."""
    quotient = _ops.div(lhs, rhs)
    # Integer division already floors; floats need the floor of the quotient.
    if quotient.dtype.name.startswith(("float", "bfloat")):
        return _ops.floor(quotient)
    return quotient


def trunc(x: Tensor) -> Tensor:
    """Rounds toward zero: the floor of positives, the ceiling of
    negatives."""
    return _ops.select(_ops.less(x, 0), _ops.ceil(x), _ops.floor(x))


def where(condition: Tensor, x, y) -> Tensor:
    """`x` where `condition` holds, else `y` (numbers take the other's
    dtype)."""
    return _ops.select(condition, x, y)


def clamp(x: Tensor, min=None, max=None) -> Tensor:
    """`x` limited to [min, max]; either bound may be None (unbounded)."""
    if min is not None:
        x = _ops.max(x, min)
    if max is not None:
        x = _ops.min(x, max)
    return x


clip = clamp


def _reduce(op, x: Tensor, axis: Axis) -> Tensor:
    if axis is None:
        # Every element into shape [1], as MAX's reshape([-1]) then axis 0.
        if _rank(x) == 0:
            return op(_ops.reshape(x, [1]), 0, keep_dims=True)
        return _ops.reshape(op(x, list(builtins.range(_rank(x))),
                               keep_dims=False), [1])
    return op(x, axis, keep_dims=True)


def sum(x: Tensor, axis: Axis = -1) -> Tensor:
    """Sums along `axis`, kept with size 1 (None: all elements, shape
    [1])."""
    return _reduce(_ops.reduce_sum, x, axis)


def mean(x: Tensor, axis: Axis = -1) -> Tensor:
    """The mean along `axis`, kept with size 1 (None: all elements)."""
    return _reduce(_ops.reduce_mean, x, axis)


def prod(x: Tensor, axis: Axis = -1) -> Tensor:
    """The product along `axis`, kept with size 1 (None: all elements)."""
    return _reduce(_ops.reduce_prod, x, axis)


def max(x: Tensor, y=None, /, axis: Axis = -1) -> Tensor:
    """The elementwise maximum of `x` and `y`, or without `y` the maximum
    along `axis`, kept with size 1 (None: all elements)."""
    if y is not None:
        return _ops.max(x, y)
    return _reduce(_ops.reduce_max, x, axis)


def min(x: Tensor, y=None, /, axis: Axis = -1) -> Tensor:
    """The elementwise minimum of `x` and `y`, or without `y` the minimum
    along `axis`, kept with size 1 (None: all elements)."""
    if y is not None:
        return _ops.min(x, y)
    return _reduce(_ops.reduce_min, x, axis)


def _arg(op, x: Tensor, axis: Axis) -> Tensor:
    if axis is None:
        x = _ops.reshape(x, [_elements(x)])
        axis = 0
    return op(x, axis, keep_dims=True)


def argmax(x: Tensor, axis: Axis = -1) -> Tensor:
    """The int64 index of the maximum along `axis`, kept with size 1
    (None: over all elements, flattened)."""
    return _arg(_ops.argmax, x, axis)


def argmin(x: Tensor, axis: Axis = -1) -> Tensor:
    """The int64 index of the minimum along `axis`, kept with size 1."""
    return _arg(_ops.argmin, x, axis)


def cumsum(x: Tensor, axis: int = -1, exclusive: bool = False,
           reverse: bool = False) -> Tensor:
    """The running sum along `axis`."""
    return _ops.cumsum(x, axis, exclusive, reverse)


def top_k(input: Tensor, k: int, axis: int = -1) -> tuple[Tensor, Tensor]:
    """The `k` largest elements along `axis` in descending order (NaN
    first, equal elements by ascending index) and their int64 indices."""
    return tuple(_ops.top_k(input, k, axis))


def bottom_k(input: Tensor, k: int, axis: int = -1) -> tuple[Tensor, Tensor]:
    """The `k` smallest elements along `axis` in ascending order (equal
    elements by ascending index; NaN first, as top_k's) and their int64
    indices: ``top_k`` of the input turned around, by negation for floats
    and by bitwise not for integers (``~x``, which cannot overflow as
    ``-x`` does at the minimum of a signed type or for unsigned types)."""
    dtype = input.dtype
    if dtype.is_float():
        flip = _ops.neg
    elif dtype.is_integral():
        flip = _ops.bitwise_not
    else:
        raise TypeError(f"bottom_k: takes a numeric (non-bool) tensor, as "
                        f"top_k does, got {dtype.name}")
    values, indices = _ops.top_k(flip(input), k, axis)
    return flip(values), indices


def softmax(value: Tensor, axis: int = -1) -> Tensor:
    return _ops.softmax(value, axis)


def logsoftmax(value: Tensor, axis: int = -1) -> Tensor:
    return _ops.log_softmax(value, axis)


def layer_norm(input: Tensor, gamma: Tensor, beta: Tensor,
               epsilon: float = 1e-5) -> Tensor:
    """Normalizes the last axis, then scales by `gamma` and adds `beta`."""
    return _ops.layer_norm(input, gamma, beta, epsilon)


def rms_norm(input: Tensor, weight: Tensor, epsilon: float = 1e-6,
             weight_offset: float = 0.0) -> Tensor:
    """Divides by the root mean square of the last axis, then scales by
    ``weight + weight_offset``."""
    if weight_offset:
        weight = _ops.add(weight, weight_offset)
    return _ops.rms_norm(input, weight, epsilon)


def group_norm(input: Tensor, gamma: Tensor, beta: Tensor, num_groups: int,
               epsilon: float) -> Tensor:
    """Group normalization of ``input`` (``[batch, channels, ...]``): the
    channels split into `num_groups` groups, each group normalized by its
    mean and (biased) variance over its channels and the remaining axes,
    then scaled by the per-channel `gamma` and shifted by `beta` (both
    ``[channels]``). float16 and bfloat16 are normalized in float32."""
    if _rank(input) < 2:
        raise ValueError(f"group_norm: expected an input with at least 2 "
                         f"dims ([batch, channels, ...]), got shape "
                         f"{list(input.shape)}")
    channels = _static(input.shape[1])
    if channels is None:
        raise ValueError(f"group_norm: the channel dim must be static, got "
                         f"{input.shape[1]}")
    if isinstance(num_groups, bool) or not isinstance(num_groups, int) \
            or num_groups <= 0 or channels % num_groups:
        raise ValueError(f"group_norm: num_groups must be a positive int "
                         f"that divides the {channels} channels, got "
                         f"{num_groups!r}")
    shape = list(input.shape)
    x = input
    if input.dtype in (DType.float16, DType.bfloat16):
        x = _ops.cast(x, DType.float32)
    group = functools.reduce(operator.mul, shape[2:], channels // num_groups)
    grouped = _ops.reshape(x, [shape[0], num_groups, group])
    mean = _ops.reduce_mean(grouped, 2, keep_dims=True)
    centered = _ops.sub(grouped, mean)
    variance = _ops.reduce_mean(_ops.mul(centered, centered), 2,
                                keep_dims=True)
    normalized = _ops.mul(centered,
                          _ops.rsqrt(_ops.add(variance, float(epsilon))))
    normalized = _ops.reshape(normalized, shape)
    if normalized.dtype != input.dtype:
        normalized = _ops.cast(normalized, input.dtype)
    per_channel = [channels] + [1] * (len(shape) - 2)
    return _ops.add(_ops.mul(normalized, _ops.reshape(gamma, per_channel)),
                    _ops.reshape(beta, per_channel))


def outer(lhs: Tensor, rhs: Tensor) -> Tensor:
    """The outer product of two vectors: shape [len(lhs), len(rhs)]."""
    for name, value in (("lhs", lhs), ("rhs", rhs)):
        if _rank(value) != 1:
            raise ValueError(f"outer: {name} must be a vector (rank 1), got "
                             f"rank {_rank(value)}")
    return _ops.mul(unsqueeze(lhs, 1), unsqueeze(rhs, 0))


def permute(x: Tensor, dims: Sequence[int]) -> Tensor:
    """`x` with its axes in the order `dims` (every axis once; negative
    ones count from the end)."""
    return _ops.transpose(x, [_axis(x, d, "permute") for d in dims])


def transpose(x: Tensor, axis_1: int, axis_2: int) -> Tensor:
    """`x` with two axes swapped (negative ones count from the end)."""
    order = list(builtins.range(_rank(x)))
    a, b = _axis(x, axis_1, "transpose"), _axis(x, axis_2, "transpose")
    order[a], order[b] = order[b], order[a]
    return _ops.transpose(x, order)


def reshape(x: Tensor, shape) -> Tensor:
    return _ops.reshape(x, shape)


def broadcast_to(x: Tensor, shape) -> Tensor:
    return _ops.broadcast_to(x, shape)


def squeeze(x: Tensor, axis: int) -> Tensor:
    """`x` without `axis`, which must have size 1."""
    at = _axis(x, axis, "squeeze")
    shape = list(x.shape)
    if shape[at] != 1:
        raise ValueError(f"squeeze: axis {axis} has size {shape[at]}, not 1")
    del shape[at]
    return _ops.reshape(x, shape)


def unsqueeze(x: Tensor, axis: int) -> Tensor:
    """`x` with a new axis of size 1 at `axis` (-1: last)."""
    at = _axis(x, axis, "unsqueeze", extra=1)
    shape = list(x.shape)
    shape.insert(at, 1)
    return _ops.reshape(x, shape)


def flatten(x: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """`x` with axes `start_dim` to `end_dim` (inclusive) merged into one."""
    if _rank(x) == 0:
        return _ops.reshape(x, [1])
    start = _axis(x, start_dim, "flatten")
    end = _axis(x, end_dim, "flatten")
    if start > end:
        raise ValueError(f"flatten: start_dim {start_dim} comes after "
                         f"end_dim {end_dim}")
    shape = list(x.shape)
    merged = functools.reduce(operator.mul, shape[start:end + 1], 1)
    return _ops.reshape(x, shape[:start] + [merged] + shape[end + 1:])


def concat(original_vals: Sequence[Tensor], axis: int = 0) -> Tensor:
    return _ops.concat(list(original_vals), axis)


from ._convolution import (avg_pool2d, conv2d, conv2d_transpose,  # noqa: E402,E501
                           conv3d, max_pool2d)
from ._resize import (InterpolationMode, resize, resize_bicubic,  # noqa: E402
                      resize_linear, resize_nearest)


# Complex numbers as MAX's rotary embeddings hold them: a last dim of 2,
# (real, imaginary).
def _shape_text(x: Tensor) -> str:
    return "[" + ", ".join(str(d) for d in x.shape) + "]"


def as_interleaved_complex(x: Tensor) -> Tensor:
    """`x`'s last dim, alternating (real, imaginary) values, as complex
    numbers: ``[..., 2n]`` becomes ``[..., n, 2]`` (a reshape, as MAX's).
    The last dim must be static and even."""
    last = x.shape[-1] if x.shape else None
    if last is None or not last.is_static:
        raise TypeError(f"as_interleaved_complex: the last dim must be "
                        f"static, got {_shape_text(x)}")
    if int(last) % 2:
        raise ValueError(f"as_interleaved_complex: the last dim must be "
                         f"even, got {int(last)}")
    return _ops.reshape(x, list(x.shape[:-1]) + [int(last) // 2, 2])


def complex_mul(lhs: Tensor, rhs: Tensor) -> Tensor:
    """The complex product of `lhs` and `rhs`, complex numbers in a last
    dim of 2 (real, imaginary), broadcast as other elementwise ops:
    ``(a + bi)(c + di) = (ac - bd) + (ad + bc)i``."""
    for name, value in (("lhs", lhs), ("rhs", rhs)):
        if not value.shape or not value.shape[-1].is_static or \
                int(value.shape[-1]) != 2:
            raise ValueError(f"complex_mul: {name} holds complex numbers in "
                             f"a last dim of 2, got shape "
                             f"{_shape_text(value)}")
    a, b = _ops.split(lhs, [1, 1], -1)
    c, d = _ops.split(rhs, [1, 1], -1)
    real = _ops.sub(_ops.mul(a, c), _ops.mul(b, d))
    imaginary = _ops.add(_ops.mul(a, d), _ops.mul(b, c))
    return _ops.concat([real, imaginary], -1)


def stack(values: Sequence[Tensor], axis: int = 0) -> Tensor:
    """The tensors joined along a new axis `axis`."""
    values = list(values)
    if not values:
        raise ValueError("stack: needs at least one tensor")
    at = _axis(values[0], axis, "stack", extra=1)
    return _ops.concat([unsqueeze(value, at) for value in values], at)


def split(x: Tensor, split_size_or_sections: Union[int, Sequence[int]],
          axis: int = 0) -> list[Tensor]:
    """An int: pieces of that size (the last may be smaller); a list: pieces
    of exactly those sizes."""
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        dim = _static(x.shape[_axis(x, axis, "split")])
        if dim is None:
            raise ValueError(f"split: splitting by a size needs a static "
                             f"dim, got {x.shape[axis]}; pass the sizes")
        if size <= 0:
            raise ValueError(f"split: the size must be positive, got {size}")
        sizes = [size] * (dim // size) + ([dim % size] if dim % size else [])
    else:
        sizes = list(split_size_or_sections)
    return _ops.split(x, sizes, axis)


def chunk(x: Tensor, chunks: int, axis: int = 0) -> list[Tensor]:
    """At most `chunks` pieces of equal size (the last may be smaller)."""
    dim = _static(x.shape[_axis(x, axis, "chunk")])
    if dim is None:
        raise ValueError(f"chunk: needs a static dim, got {x.shape[axis]}")
    if chunks <= 0:
        raise ValueError(f"chunk: chunks must be positive, got {chunks}")
    return split(x, builtins.max(1, -(-dim // chunks)), axis)


def tile(x: Tensor, repeats: Sequence[int]) -> Tensor:
    """`x` repeated `repeats[i]` times along each axis i."""
    repeats = list(repeats)
    if len(repeats) != _rank(x):
        raise ValueError(f"tile: {len(repeats)} repeats for a tensor of "
                         f"rank {_rank(x)}")
    for axis, count in enumerate(repeats):
        if count < 1:
            raise ValueError(f"tile: repeats[{axis}] must be at least 1, "
                             f"got {count}")
        if count > 1:
            x = _ops.concat([x] * count, axis)
    return x


def band_part(x: Tensor, num_lower: Optional[int] = None,
              num_upper: Optional[int] = None,
              exclude: bool = False) -> Tensor:
    """`x` with everything outside a band around the diagonal of its last
    two axes (each matrix) set to zero: `num_lower` diagonals below the
    main one and `num_upper` above (None or -1: the whole triangle).
    ``exclude=True`` zeroes the band instead. ``band_part(x, -1, 0)`` keeps
    the lower triangle (a causal mask)."""
    num_lower = -1 if num_lower is None else num_lower
    num_upper = -1 if num_upper is None else num_upper
    for name, count in (("num_lower", num_lower), ("num_upper", num_upper)):
        if isinstance(count, bool) or not isinstance(count, int) \
                or count < -1:
            raise ValueError(f"band_part: {name} must be None, -1 or a "
                             f"non-negative int, got {count!r}")
    if _rank(x) < 2:
        raise ValueError(f"band_part: the input must have at least 2 dims, "
                         f"got shape {list(x.shape)}")
    rows, cols = x.shape[-2], x.shape[-1]
    for name, count, dim in (("num_lower", num_lower, rows),
                             ("num_upper", num_upper, cols)):
        size = _static(dim)
        if size is not None and count >= size:
            raise ValueError(f"band_part: {name}={count} is out of bounds "
                             f"for dimension size {size}")
    row = _ops.reshape(_ops.arange(0.0, rows, 1.0, DType.int64, x.device),
                       [rows, 1])
    col = _ops.reshape(_ops.arange(0.0, cols, 1.0, DType.int64, x.device),
                       [1, cols])
    below = _ops.sub(row, col)  # i - j: how far below the diagonal.
    in_band = None
    if num_lower >= 0:
        in_band = _ops.less_equal(below, num_lower)
    if num_upper >= 0:
        above = _ops.greater_equal(below, -num_upper)
        in_band = above if in_band is None else _ops.logical_and(in_band,
                                                                 above)
    if in_band is None:  # The whole matrix is the band.
        return _ops.select(_ops.equal(below, below), 0, x) if exclude else x
    if exclude:
        in_band = _ops.logical_not(in_band)
    return _ops.select(in_band, x, 0)


def _check_count(function: str, name: str, value) -> None:
    """Raises unless `value` is a non-negative int (a count), naming
    `function`'s argument `name`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{function}: {name} must be an int, got "
                        f"{type(value).__name__}")
    if value < 0:
        raise ValueError(f"{function}: {name} must be non-negative, got "
                         f"{value}")


def repeat_interleave(x: Tensor, repeats: int, axis: Optional[int] = None,
                      out_dim=None) -> Tensor:
    """Each element of `x` repeated `repeats` times in a row along `axis`
    (None: of `x` flattened), as ``torch.repeat_interleave``: ``[a, b]``
    with 2 is ``[a, a, b, b]``. `repeats` is an int here (MAX also takes a
    tensor of per-element counts, whose total is data-dependent); `out_dim`,
    when given, must be the result's length along `axis`."""
    if isinstance(repeats, Tensor):
        raise TypeError("repeat_interleave: repeats must be an int: a "
                        "tensor of per-element repeats gives a length that "
                        "depends on its data, which maxgraph's shapes "
                        "cannot hold")
    _check_count("repeat_interleave", "repeats", repeats)
    if axis is None:
        x = _ops.reshape(x, [_elements(x)])
        axis = 0
    elif not -_rank(x) <= axis < _rank(x):
        raise ValueError(f"repeat_interleave: axis {axis} is out of range "
                         f"for a tensor of rank {_rank(x)}")
    axis = axis % _rank(x)
    shape = list(x.shape)
    length = shape[axis] * repeats
    if out_dim is not None and not length == out_dim:
        raise ValueError(f"repeat_interleave: the result has {length} "
                         f"elements along axis {axis}, but out_dim is "
                         f"{out_dim}")
    if repeats == 1:
        return x
    before, after = shape[:axis + 1], shape[axis + 1:]
    spread = _ops.broadcast_to(_ops.reshape(x, before + [1] + after),
                               before + [repeats] + after)
    return _ops.reshape(spread, shape[:axis] + [length] + after)


def slice_tensor(x: Tensor, indices: Sequence[Any]) -> Tensor:
    """``x[indices]``: ints (which drop their axis), slices and ``...``."""
    return x[tuple(indices)]


def gather(input: Tensor, indices: Tensor, axis: int = 0) -> Tensor:
    return _ops.gather(input, indices, axis)


def argsort(x: Tensor, ascending: bool = True) -> Tensor:
    """The int64 positions that sort `x` along its last axis (MAX's takes
    rank 1; more dims sort each row): ascending, or descending with
    ``ascending=False``; stable (equal elements keep their order), NaN
    above every number (last ascending, first descending)."""
    if not isinstance(ascending, bool):
        raise TypeError(f"argsort: ascending is a bool, got "
                        f"{type(ascending).__name__}")
    return _ops.argsort(x, -1, not ascending)


def nonzero(x: Tensor, out_dim=None) -> Tensor:
    """The int64 coordinates of the nonzero elements of `x` (a true bool,
    NaN included, -0.0 not), one row each in row-major order: shape
    ``[count, x.rank]``. The count is known only once the graph runs; MAX's
    `out_dim` names it (a name, or an int that the run asserts), else it is
    a ``?`` dim. Not on GPUs."""
    return _ops.nonzero(x, out_dim)


def masked_scatter(input: Tensor, mask, updates: Tensor,
                   out_dim=None) -> Tensor:
    """A copy of `input` with the elements of `updates`, in row-major
    order, written where `mask` (broadcast to `input`'s shape; any dtype,
    nonzero selects; a list or number becomes a bool tensor) selects, as
    MAX's: ``nonzero`` of the mask, then ``scatter_nd`` of the flattened
    updates, which must hold one element per selected position (a run-time
    error otherwise). `out_dim` is the count, as in `nonzero`."""
    if not isinstance(mask, Tensor):
        mask = constant(numpy.asarray(mask, dtype=bool), DType.bool,
                        input.device)
    return _ops.masked_scatter(input, mask, updates, out_dim)


def rebind(x: Tensor, shape, message: str = "", layout=None) -> Tensor:
    """`x` with the dims `shape` (ints, names, Dims), asserted when the
    graph runs, as MAX's: each static dim, or one that the call's inputs
    bind, must be `x`'s size there, else the run fails naming the dim and
    `message`. A name no input binds just names the dim (after
    ``nonzero``, say). `layout` (MAX's filter layout) is not taken."""
    if layout is not None:
        raise TypeError("rebind: layout (a filter layout) is not supported; "
                        "pass the dims only")
    return _ops.rebind(x, shape, message)


def print(value, label: str = "debug_tensor") -> None:
    """Prints when the graph runs, as MAX's: a string as it is, a tensor
    as ``label: f32[2, 3] [[...], [...]]`` (above 1000 elements each dim
    shows its first and last three entries). Compiled code prints through
    the runtime, to the process's standard output. Not on GPUs."""
    if isinstance(value, str):
        if not _in_trace():
            builtins.print(value, flush=True)
            return
        _ops.print(value, None)
    else:
        _ops.print(label, value)


def scatter(input: Tensor, updates: Tensor, indices: Tensor,
            axis: int = -1) -> Tensor:
    """A copy of `input` with `updates` written where `indices` say along
    `axis` (MAX's, ONNX's ScatterElements): ``updates`` and ``indices``
    share a shape of `input`'s rank, and update ``u`` at position ``p``
    lands at ``p`` with ``p[axis]`` replaced by ``indices[p]`` (negative
    indices count from the end). Among duplicate indices the last update in
    row-major order wins; an index out of range is a run-time error."""
    return _ops.scatter(input, updates, indices, axis, "none")


def _scatter_reducing(reduction: str, what: str):
    def scatter_reduce(input: Tensor, updates: Tensor, indices: Tensor,
                       axis: int = -1) -> Tensor:
        return _ops.scatter(input, updates, indices, axis, reduction)

    scatter_reduce.__name__ = f"scatter_{reduction}"
    scatter_reduce.__qualname__ = scatter_reduce.__name__
    scatter_reduce.__doc__ = (
        f"`scatter` that {what} every update into what is at its index, "
        f"duplicates included (MAX's scatter_{reduction}).")
    return scatter_reduce


scatter_add = _scatter_reducing("add", "adds")
scatter_max = _scatter_reducing("max", "takes the maximum of")
scatter_min = _scatter_reducing("min", "takes the minimum of")
scatter_mul = _scatter_reducing("mul", "multiplies")


def scatter_nd(input: Tensor, updates: Tensor, indices: Tensor) -> Tensor:
    """A copy of `input` with slices of `updates` written at index vectors
    (MAX's, ONNX's ScatterND): the last dim ``k`` of `indices` (static)
    indexes `input`'s first ``k`` dims, and `updates` has dims
    ``indices.shape[:-1] + input.shape[k:]``. The last duplicate wins; an
    index out of range is a run-time error."""
    return _ops.scatter_nd(input, updates, indices, "none")


def _scatter_nd_reducing(reduction: str, what: str):
    def scatter_nd_reduce(input: Tensor, updates: Tensor,
                          indices: Tensor) -> Tensor:
        return _ops.scatter_nd(input, updates, indices, reduction)

    scatter_nd_reduce.__name__ = f"scatter_nd_{reduction}"
    scatter_nd_reduce.__qualname__ = scatter_nd_reduce.__name__
    scatter_nd_reduce.__doc__ = (
        f"`scatter_nd` that {what} every slice into what is at its index "
        f"vector, duplicates included (MAX's scatter_nd_{reduction}).")
    return scatter_nd_reduce


scatter_nd_add = _scatter_nd_reducing("add", "adds")
scatter_nd_max = _scatter_nd_reducing("max", "takes the maximum of")
scatter_nd_min = _scatter_nd_reducing("min", "takes the minimum of")
scatter_nd_mul = _scatter_nd_reducing("mul", "multiplies")


def gather_nd(input: Tensor, indices: Tensor, batch_dims: int = 0) -> Tensor:
    """Elements of `input` chosen by index vectors, the last axis of
    `indices` (of static length k): each vector indexes the k axes of
    `input` after its first `batch_dims`, which `indices` shares. The result
    has shape ``input.shape[:batch_dims] + indices.shape[batch_dims:-1] +
    input.shape[batch_dims + k:]``. It is one ``gather`` of the flattened
    index over those axes flattened, so they must be static (the first may
    be symbolic when ``batch_dims`` is 0); each component is checked against
    its own axis, negative ones counting from its end."""
    if isinstance(batch_dims, bool) or not isinstance(batch_dims, int) \
            or batch_dims < 0:
        raise ValueError(f"gather_nd: batch_dims must be a non-negative "
                         f"int, got {batch_dims!r}")
    if not indices.dtype.is_integral():
        raise ValueError(f"gather_nd: indices must be an integer tensor, "
                         f"got {indices.dtype.name}")
    if _rank(indices) == 0:
        raise ValueError("gather_nd: indices must have at least one axis, "
                         "the index vectors")
    size = _static(indices.shape[-1])
    if size is None:
        raise ValueError(f"gather_nd: the last dim of indices (the index "
                         f"vector) must be static, got {indices.shape[-1]}")
    if batch_dims > _rank(indices) - 1:
        raise ValueError(f"gather_nd: batch_dims={batch_dims} leaves no "
                         f"gather dims in indices of rank {_rank(indices)}")
    if size == 0 or batch_dims + size > _rank(input):
        raise ValueError(f"gather_nd: index vectors of length {size} after "
                         f"{batch_dims} batch dims do not fit an input of "
                         f"rank {_rank(input)}")
    shape = list(input.shape)
    batch = shape[:batch_dims]
    if list(indices.shape[:batch_dims]) != batch:
        raise ValueError(f"gather_nd: input {shape} and indices "
                         f"{list(indices.shape)} must match in their first "
                         f"{batch_dims} dims")
    indexed, rest = (shape[batch_dims:batch_dims + size],
                     shape[batch_dims + size:])
    # The row-major stride of each indexed axis.
    strides, stride = [], 1
    for j in builtins.range(size - 1, -1, -1):
        strides.insert(0, stride)
        if j == 0 and batch_dims == 0:
            break
        dim = _static(indexed[j])
        if dim is None:
            raise ValueError(f"gather_nd: axis {batch_dims + j} of input "
                             f"must be static, got {indexed[j]}")
        stride *= dim
    if indices.dtype != DType.int64:
        indices = _ops.cast(indices, DType.int64)
    flat = None
    for j in builtins.range(size):
        # Each component is checked against its own axis (a negative one
        # counts from the end) by a gather of that axis's positions, so that
        # no out-of-range component lands on another element.
        positions = _ops.arange(0.0, indexed[j], 1.0, DType.int64,
                                input.device)
        term = _ops.gather(positions, indices[..., j], 0)
        if strides[j] != 1:
            term = _ops.mul(term, strides[j])
        flat = term if flat is None else _ops.add(flat, term)
    count = functools.reduce(operator.mul, indexed, 1)
    if batch_dims:
        # Batch b's rows start at b * count in the flattened input.
        batches = functools.reduce(operator.mul, batch, 1)
        start = _ops.mul(_ops.arange(0.0, batches, 1.0, DType.int64,
                                     input.device), count)
        ones = [1] * (_rank(indices) - 1 - batch_dims)
        flat = _ops.add(flat, _ops.reshape(start, batch + ones))
        count = batches * count
    return _ops.gather(_ops.reshape(input, [count] + rest), flat, 0)


def _encoding_name(op: str, encoding) -> str:
    from .quantization import QuantizationEncoding
    if isinstance(encoding, QuantizationEncoding):
        return encoding.value
    if isinstance(encoding, str):
        return encoding
    raise TypeError(f"{op}: the encoding is a QuantizationEncoding, got "
                    f"{type(encoding).__name__}")


def dequantize(encoding, quantized: Tensor) -> Tensor:
    """`quantized` (``uint8``), whose last dim holds whole blocks of
    `encoding` (a ``QuantizationEncoding``), decoded to ``float32``: each
    block of ``encoding.block_nbytes`` bytes becomes 32 values."""
    return _ops.dequantize(_encoding_name("dequantize", encoding), quantized)


def qmatmul(encoding, config, lhs: Tensor, *rhs: Tensor) -> Tensor:
    """``lhs @ dequantize(encoding, rhs).T`` without the decoded copy, as
    MAX's ``qmatmul``: `lhs` ``[..., m, k]`` (``float32``, not quantized)
    times `rhs`, ``n`` rows of ``k`` values in `encoding`'s blocks
    (``uint8 [n, k // 32 * encoding.block_nbytes]``). `config` is MAX's GPTQ
    configuration: ``None`` here."""
    if config is not None:
        raise ValueError("qmatmul: config describes GPTQ weights, which "
                         "maxgraph does not have; pass None")
    if len(rhs) != 1:
        raise ValueError(f"qmatmul: takes one quantized rhs, got {len(rhs)}")
    return _ops.qmatmul(_encoding_name("qmatmul", encoding), lhs, rhs[0])


def pad(input: Tensor, paddings: Sequence[int], mode: str = "constant",
        value=0) -> Tensor:
    """`input` padded by `paddings`, ``[before_0, after_0, before_1, ...]``
    (non-negative): with `value` (mode ``"constant"``), mirrored without the
    edge (``"reflect"``) or repeating the edge (``"edge"``)."""
    if isinstance(value, Tensor):
        raise TypeError("pad: the value is a number; maxgraph pads with a "
                        "constant known when staging")
    return _ops.pad(input, [int(p) for p in paddings], mode, float(value))


def _remember(key, compiled) -> None:
    """Keeps `compiled` under `key` in the eager cache, dropping the least
    recently used graph past _EAGER_CACHE_SIZE."""
    _EAGER_CACHE[key] = compiled
    if len(_EAGER_CACHE) > _EAGER_CACHE_SIZE:
        _EAGER_CACHE.popitem(last=False)


def _live_creation(fn, key):
    """The live tensor that `fn()`, which stages a creation op, makes: a
    graph of `fn` alone, compiled once per `key`, run with no inputs."""
    compiled = _EAGER_CACHE.get(key)
    if compiled is None:
        from . import compilation
        compiled = compilation.compile(fn)()
        _remember(key, compiled)
    else:
        _EAGER_CACHE.move_to_end(key)
    return compiled()


def range(start, stop, step=1, out_dim=None, *,
          dtype: Optional[DType] = None,
          device: Optional[Device] = None) -> Tensor:
    """`start, start + step, ...` below `stop` (float32 by default, as
    MAX's): ``ceil((stop - start) / step)`` values, none for an empty range.
    `stop` may be a dim (``x.shape[1]``, ``"seq"``) with an integer `start`
    and a positive integer `step`. `out_dim`, when given, must be the
    length. Outside a staged function the result is a live tensor."""
    dtype = DType.float32 if dtype is None else dtype
    device = CPU() if device is None else device
    for name, bound in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(bound, Tensor):
            raise TypeError(f"range: {name} is a number (stop may be a dim), "
                            f"not a Tensor: maxgraph's lengths are known "
                            f"when staging")
    if isinstance(stop, (int, float)) and not isinstance(stop, bool):
        stop = float(stop) if isinstance(stop, float) else stop

    def create():
        result = _ops.arange(float(start), stop, float(step), dtype, device)
        if out_dim is not None and result.shape[0] != out_dim:
            raise ValueError(f"range: the range has {result.shape[0]} "
                             f"elements but out_dim is {out_dim}")
        return result

    if _in_trace():
        return create()
    create.__name__ = "range"
    key = _call_key(("range", start, stop, step, out_dim, dtype, device))
    if key is None:
        from . import compilation
        return compilation.compile(create)()()
    return _live_creation(create, key)


# MAX's name for the same function.
arange = range

# The seed of live random tensors (made outside a staged function), which
# `random.set_seed` sets there; each call takes it and advances it.
_LIVE_SEED = [0]


def _shape_list(shape) -> list:
    if isinstance(shape, (int, str)) or not hasattr(shape, "__iter__"):
        return [shape]
    return list(shape)


def uniform(shape=(), range=(0, 1), *, dtype: Optional[DType] = None,
            device: Optional[Device] = None) -> Tensor:
    """Values uniform in ``[range[0], range[1])`` (float32 by default), a
    function of the graph's seed (``maxgraph.random.seed()``, which this
    advances) and each element's index alone: the same seed gives the same
    values on any thread count. Outside a staged function the result is a
    live tensor, seeded by the process's seed."""
    dtype = DType.float32 if dtype is None else dtype
    device = CPU() if device is None else device
    if not isinstance(range, (tuple, list)) or len(range) != 2:
        raise ValueError(f"uniform: range must be (low, high), got {range!r}")
    low, high = float(range[0]), float(range[1])
    if not low < high:
        raise ValueError(f"uniform: range ({low}, {high}) must have low "
                         f"below high")
    dims = _shape_list(shape)
    if _in_trace():
        return _ops.uniform(dims, low, high, dtype, device)
    return _live_random(
        ("uniform", tuple(dims), low, high, dtype, device), 1,
        lambda: uniform(dims, (low, high), dtype=dtype, device=device))


def _live_random(key, draws: int, create) -> Tensor:
    """The live tensor that `create()` stages from the graph's seed, which
    here is the process's live seed, advanced by the `draws` it takes: a
    graph compiled once per `key`, run with the seed as its input."""
    key = _call_key(key)
    compiled = _EAGER_CACHE.get(key) if key is not None else None
    if compiled is None:
        from . import compilation
        from .sharding import TensorLayout

        def seeded(seed):
            _ops.set_random_seed(seed)
            return create()

        compiled = compilation.compile(seeded)(TensorLayout(DType.int64, []))
        if key is not None:
            _remember(key, compiled)
    else:
        _EAGER_CACHE.move_to_end(key)
    seed = _LIVE_SEED[0]
    _LIVE_SEED[0] += draws
    return compiled(numpy.array(seed, numpy.int64))


def gaussian(shape=(), mean: float = 0.0, std: float = 1.0, *,
             dtype: Optional[DType] = None,
             device: Optional[Device] = None) -> Tensor:
    """Normal values of `mean` and `std` (float32 by default): Box-Muller
    of two uniform tensors (so it advances the seed twice), computed in
    float32 for narrower dtypes."""
    if not std > 0:
        raise ValueError(f"gaussian: std must be positive, got {std}")
    dtype = DType.float32 if dtype is None else dtype
    if not _in_trace():
        dims = _shape_list(shape)
        return _live_random(
            ("gaussian", tuple(dims), float(mean), float(std), dtype, device),
            2, lambda: gaussian(dims, mean, std, dtype=dtype, device=device))
    work = dtype if dtype in (DType.float32, DType.float64) else DType.float32
    radius = uniform(shape, dtype=work, device=device)
    angle = uniform(shape, dtype=work, device=device)
    # 1 - u is in (0, 1]: its log is finite.
    z = sqrt(log(1.0 - radius) * -2.0) * cos(angle * (2 * numpy.pi))
    z = z * std + mean
    return z if work == dtype else cast(z, dtype)


normal = gaussian


def _like_parts(op: str, like):
    if not isinstance(like, (Tensor, TensorLayout)):
        raise TypeError(f"{op}: like is a Tensor or TensorLayout, got "
                        f"{type(like).__name__}")
    return list(like.shape), like.dtype, like.device


def uniform_like(like, range=(0, 1)) -> Tensor:
    """`uniform` with the shape, dtype and device of `like` (a Tensor or a
    TensorLayout), as MAX's."""
    shape, dtype, device = _like_parts("uniform_like", like)
    return uniform(shape, range, dtype=dtype, device=device)


def gaussian_like(like, mean: float = 0.0, std: float = 1.0) -> Tensor:
    """`gaussian` with the shape, dtype and device of `like` (a Tensor or
    a TensorLayout), as MAX's."""
    shape, dtype, device = _like_parts("gaussian_like", like)
    return gaussian(shape, mean, std, dtype=dtype, device=device)


normal_like = gaussian_like


def hann_window(window_length: int, *, periodic: bool = True,
                dtype: Optional[DType] = None, device=None) -> Tensor:
    """A Hann window of `window_length` points (float32 by default):
    ``0.5 * (1 - cos(2 * pi * n / N))`` with ``N = window_length`` when
    `periodic` (for spectral analysis) and ``window_length - 1`` otherwise
    (symmetric); length 0 is empty and length 1 is ``[1]``. Outside a staged
    function the result is a live tensor. `device` may be a DeviceMapping,
    NamedMapping or DeviceMesh that shards no axis."""
    _check_count("hann_window", "window_length", window_length)
    if isinstance(device, _MAPPINGS):
        mapping = device
        placements = [] if isinstance(mapping, DeviceMesh) else (
            mapping.to_device_mapping() if isinstance(mapping, NamedMapping)
            else mapping).placements
        if any(isinstance(p, Sharded) for p in placements):
            raise ValueError(f"hann_window: cannot create with a sharded "
                             f"placement ({mapping}); create it Replicated "
                             f"and shard it after")
        return hann_window(window_length, periodic=periodic, dtype=dtype,
                           device=_first_device(mapping)).to(mapping)
    dtype = DType.float32 if dtype is None else dtype
    device = CPU() if device is None else device
    compute = dtype if dtype in (DType.float32, DType.float64) \
        else DType.float32

    def create():
        if window_length == 1:
            window = _ops.broadcast_to(_ops.constant(1.0, compute, device),
                                       [1])
        else:
            period = window_length if periodic else window_length - 1
            n = _ops.arange(0.0, window_length, 1.0, compute, device)
            angle = _ops.mul(n, 2 * numpy.pi / builtins.max(period, 1))
            window = _ops.sub(0.5, _ops.mul(_ops.cos(angle), 0.5))
        return window if compute == dtype else _ops.cast(window, dtype)

    if _in_trace():
        return create()
    create.__name__ = "hann_window"
    return _live_creation(create, ("hann_window", window_length, periodic,
                                   dtype, device))


def _dtype_of(value) -> DType:
    array = numpy.asarray(value)
    if array.dtype == numpy.float64 and not isinstance(value, numpy.ndarray):
        return DType.float32  # Python floats, as MAX.
    if array.dtype == numpy.int64 and not isinstance(value, numpy.ndarray):
        return DType.int64
    try:
        return getattr(DType, array.dtype.name)
    except AttributeError:
        raise TypeError(f"constant: no maxgraph dtype for numpy's "
                        f"{array.dtype}") from None


def constant(value, dtype: Optional[DType] = None,
             device: Optional[Device] = None) -> Tensor:
    """A constant: staged inside a staged function, a live host tensor
    outside. `dtype` defaults to the value's (Python floats: float32)."""
    dtype = _dtype_of(value) if dtype is None else dtype
    device = CPU() if device is None else device
    if not _in_trace():
        return Tensor.from_numpy(numpy.array(value,
                                             dtype=_numpy_dtype(dtype)),
                                 device)
    return _ops.constant(value, dtype, device)


def _numpy_dtype(dtype: DType):
    if dtype == DType.bfloat16:
        raise TypeError("live bfloat16 tensors cannot be made from numpy; "
                        "make float32 ones and cast in the graph")
    return numpy.dtype(dtype.name)


_MAPPINGS = (DeviceMapping, DeviceMesh, NamedMapping)


def _first_device(mapping) -> Device:
    """The first device of a DeviceMesh, DeviceMapping or NamedMapping."""
    mesh = mapping if isinstance(mapping, DeviceMesh) else mapping.mesh
    return mesh.devices[0]


def full(shape, value, *, dtype: Optional[DType] = None,
         device=None) -> Tensor:
    """A tensor of `shape` with every element `value` (float32 by
    default): live outside a staged function, staged inside. `device` may
    be a DeviceMapping, NamedMapping or DeviceMesh (replicated): the result
    is then distributed, `shape` being the global shape (each device holds
    its shard of the filled tensor; a Partial axis holds the value once in
    its sum, as ``Tensor.to`` lays it out)."""
    if isinstance(device, _MAPPINGS):
        return full(shape, value, dtype=dtype,
                    device=_first_device(device)).to(device)
    dtype = DType.float32 if dtype is None else dtype
    device = CPU() if device is None else device
    if not isinstance(device, Device):
        raise TypeError(f"full: device must be a Device, DeviceMapping, "
                        f"NamedMapping or DeviceMesh, got "
                        f"{type(device).__name__}")
    if not _in_trace():
        return Tensor.from_numpy(
            numpy.full(list(shape), value, dtype=_numpy_dtype(dtype)), device)
    return _ops.broadcast_to(_ops.constant(value, dtype, device), shape)


def ones(shape, *, dtype: Optional[DType] = None, device=None) -> Tensor:
    return full(shape, 1, dtype=dtype, device=device)


def zeros(shape, *, dtype: Optional[DType] = None, device=None) -> Tensor:
    return full(shape, 0, dtype=dtype, device=device)


def full_like(like: Tensor, value) -> Tensor:
    """A tensor of `like`'s shape, dtype and device (for a distributed
    `like`, its mapping) filled with `value`."""
    if like.is_distributed:
        return full(like.shape, value, dtype=like.dtype, device=like.mapping)
    if not like.is_live:
        return _ops.broadcast_to(
            _ops.constant(value, like.dtype, like.device), like.shape)
    return Tensor.from_numpy(
        numpy.full(like.shape, value, dtype=_numpy_dtype(like.dtype)),
        like.device)


def ones_like(like: Tensor) -> Tensor:
    return full_like(like, 1)


def zeros_like(like: Tensor) -> Tensor:
    return full_like(like, 0)


def transfer_to(x: Tensor, device: Any) -> Tensor:
    """`x` on `device` (the same tensor when it is already there), or laid
    out over a mesh when `device` is a DeviceMapping, NamedMapping or
    DeviceMesh (``ops.reshard``)."""
    if isinstance(device, (_core.DeviceMapping, _core.NamedMapping,
                           _core.DeviceMesh)):
        return _ops.reshard(x, device)
    return _ops.transfer(x, device)


def buffer_store(destination, source: Tensor) -> None:
    """Overwrites the traced Buffer `destination` with `source`."""
    destination.store(source)


def buffer_store_slice(destination, source: Tensor,
                       indices: Sequence[Any]) -> None:
    """Stores `source` into the window of the traced Buffer `destination`
    that `indices` select: ints, slices and ``...`` as in indexing, and
    rank-0 integer tensors as indices or slice bounds read when the graph
    runs (a KV cache written at its current length). ``destination[indices]
    = source`` is the same."""
    destination[tuple(indices)] = source


def shape_to_tensor(shape: Sequence[Any], device: Any = None) -> Tensor:
    """The sizes of `shape`'s dims (ints, names, Dims) when the graph runs,
    as a 1-D int64 tensor (on the CPU unless `device` says otherwise):
    ``cache[pos:pos + kv.shape[0]]`` adds one of them to a position."""
    return _ops.shape_to_tensor(list(shape),
                                CPU() if device is None else device)


def buffer_load(buffer) -> Tensor:
    """The traced Buffer's current contents: later stores do not change the
    tensor returned."""
    return buffer.load()


def while_loop(initial_values, predicate: Callable[..., Tensor],
               body: Callable[..., Any]) -> list[Tensor]:
    """Carries `initial_values` (one Tensor or a sequence of them) while
    ``predicate(*values)`` is true (a rank-0 bool tensor on the CPU), each
    round replacing them with ``body(*values)`` (a Tensor or a sequence of
    as many, of the same dtypes, shapes and devices); returns the last
    values. Both functions are traced once, into the loop's regions. Unlike
    MAX's, the body may read and store the graph's buffers, so a decoder
    can generate every token in one call."""
    if isinstance(initial_values, Tensor):
        initial_values = [initial_values]
    return _ops.while_loop(list(initial_values), predicate, body)


def cond(pred: Tensor, out_types: Optional[Sequence[TensorLayout]],
         then_fn: Callable[[], Any], else_fn: Callable[[], Any]
         ) -> list[Tensor]:
    """The results of ``then_fn()`` when `pred` (a rank-0 bool tensor on
    the CPU) holds, else of ``else_fn()``: each returns None, a Tensor or a
    sequence of them, the same number with the same layouts. `out_types`
    (MAX's) lists the result layouts, checked against the branches', or is
    None (for branches that only store into buffers, or to take the
    branches' own)."""
    results = _ops.cond(pred, then_fn, else_fn)
    if out_types is not None:
        expected = list(out_types)
        if len(expected) != len(results):
            raise TypeError(f"cond: out_types lists {len(expected)} results, "
                            f"the branches return {len(results)}")
        for index, (layout, result) in enumerate(zip(expected, results)):
            if layout.dtype != result.dtype or \
                    list(layout.shape) != list(result.shape):
                raise TypeError(f"cond: out_types[{index}] is {layout}, the "
                                f"branches return {result.layout}")
    return results


def custom(name: str, device: Device, values: Sequence[Any],
           out_types: Sequence[TensorLayout],
           parameters: Optional[Mapping[str, Any]] = None,
           custom_extensions=None) -> list[Tensor]:
    """Calls kernel `name` of the graph's custom extensions. maxgraph
    loads extensions per graph: pass them to ``stage``/``compile``."""
    if custom_extensions is not None:
        raise ValueError(
            "custom: maxgraph loads custom extensions per graph; pass "
            "custom_extensions to compilation.stage() or compile()")
    for i, out_type in enumerate(out_types):
        if out_type.device != device:
            raise ValueError(f"custom: out_types[{i}] is on "
                             f"{out_type.device}, not on the op's device "
                             f"{device}")
    params = {key: (value.name if isinstance(value, DType) else
                    str(value).lower() if isinstance(value, bool) else
                    str(value))
              for key, value in (parameters or {}).items()}
    return _ops.custom(name, list(values), list(out_types), params)


def inplace_custom(name: str, device: Device, values: Sequence[Any],
                   out_types: Optional[Sequence[TensorLayout]] = None,
                   parameters: Optional[Mapping[str, Any]] = None,
                   custom_extensions=None) -> list[Tensor]:
    """`custom` whose kernel writes into the Buffers among `values` (MAX's
    in-place form): the kernel takes each buffer as a memref and its writes
    are the buffer's new contents, in order with the graph's other buffer
    reads and writes. `out_types` defaults to none."""
    if not any(isinstance(value, Buffer) for value in values):
        raise ValueError(
            f"inplace_custom: no value of kernel {name!r} is a Buffer, so it "
            f"has nothing to write in place; use custom for a kernel that "
            f"only returns tensors")
    return custom(name, device, values, list(out_types or []), parameters,
                  custom_extensions)


def _allreduce_list(inputs: Sequence[Tensor]) -> list[Tensor]:
    return _ops.allreduce_sum(list(inputs))


def _allgather_list(inputs: Sequence[Tensor], axis: int) -> list[Tensor]:
    return _ops.allgather(list(inputs), axis)


def _reduce_scatter_list(inputs: Sequence[Tensor],
                         axis: int) -> list[Tensor]:
    return _ops.reduce_scatter_sum(list(inputs), axis)


def _sum_partial(placement) -> bool:
    return isinstance(placement, Partial) and \
        placement.reduce_op == ReduceOp.SUM


def _collective(t: Tensor, mesh_axis: int, what: str, takes, wants: str,
                target) -> Tensor:
    """`t` after collective `what` on its `mesh_axis`: the placement there,
    which must satisfy `takes` (described by `wants`), becomes `target` (a
    reshard, staged or run eagerly). A tensor on one device is a group of
    one and comes back as it is."""
    if not isinstance(t, Tensor):
        raise TypeError(f"{what}: takes a distributed Tensor, or the list "
                        f"of per-device tensors, got {type(t).__name__}")
    if isinstance(mesh_axis, bool) or not isinstance(mesh_axis, int):
        raise TypeError(f"{what}: mesh_axis must be an int, got "
                        f"{type(mesh_axis).__name__}")
    if not t.is_distributed:
        if mesh_axis not in (0, -1):
            raise IndexError(f"{what}: mesh_axis {mesh_axis} is out of "
                             f"range: the tensor is on one device "
                             f"({t.device}), a mesh of one axis")
        return t
    mesh = t.mesh
    if not -mesh.ndim <= mesh_axis < mesh.ndim:
        raise IndexError(f"{what}: mesh_axis {mesh_axis} is out of range "
                         f"for {mesh}, which has {mesh.ndim} axes")
    axis = mesh_axis % mesh.ndim
    placements = list(t.placements)
    if not takes(placements[axis]):
        raise ShardingError(
            f"{what}: mesh axis {axis} ('{mesh.axis_names[axis]}') of the "
            f"tensor is {placements[axis]!r}, but {what} takes {wants} "
            f"there; other changes of placement are t.to(mapping)")
    placements[axis] = target
    return transfer_to(t, DeviceMapping(mesh, placements))


def allreduce_sum(t, mesh_axis: int = 0):
    """The sum of a distributed tensor's partial values along `mesh_axis`,
    on every device of that axis (MAX's: ``Partial(SUM)`` there becomes
    ``Replicated``). Given the list of per-device tensors (the
    ``max.graph.ops`` form), the list of their sums."""
    if isinstance(t, (list, tuple)):
        return _allreduce_list(t)
    return _collective(t, mesh_axis, "allreduce_sum", _sum_partial,
                       "Partial(reduce_op='sum')", Replicated())


def allgather(t, tensor_axis: int = 0, mesh_axis: int = 0):
    """A distributed tensor's shards along `mesh_axis` joined along
    `tensor_axis`, on every device of that axis (MAX's: ``Sharded(
    tensor_axis)`` there becomes ``Replicated``). Given the list of
    per-device tensors, each device's copy of their concatenation."""
    if isinstance(t, (list, tuple)):
        return _allgather_list(t, tensor_axis)
    if isinstance(t, Tensor):
        tensor_axis = _axis(t, tensor_axis, "allgather")
    return _collective(t, mesh_axis, "allgather",
                       lambda p: p == Sharded(tensor_axis),
                       f"Sharded(axis={tensor_axis}) (tensor_axis)",
                       Replicated())


def reduce_scatter(t, scatter_axis: int = 0, mesh_axis: int = 0):
    """The sum of a distributed tensor's partial values along `mesh_axis`,
    split along `scatter_axis` among that axis' devices (MAX's:
    ``Partial(SUM)`` there becomes ``Sharded(scatter_axis)``). Given the
    list of per-device tensors, device i gets piece i of their sum."""
    if isinstance(t, (list, tuple)):
        return _reduce_scatter_list(t, scatter_axis)
    if isinstance(t, Tensor):
        scatter_axis = _axis(t, scatter_axis, "reduce_scatter")
    return _collective(t, mesh_axis, "reduce_scatter", _sum_partial,
                       "Partial(reduce_op='sum')", Sharded(scatter_axis))


def distributed_broadcast(t: Tensor, mesh: DeviceMesh) -> Tensor:
    """A tensor on one device replicated on every device of `mesh` (MAX's:
    ``Replicated`` on each mesh axis)."""
    if not isinstance(mesh, DeviceMesh):
        raise TypeError(f"distributed_broadcast: mesh must be a DeviceMesh, "
                        f"got {type(mesh).__name__}")
    if t.is_distributed and t.num_shards > 1:
        raise builtins.RuntimeError(
            f"distributed_broadcast: the source tensor must be on one "
            f"device, but it is distributed over {t.mesh}; use "
            f"t.to(mapping) to change its placements")
    return t.to(DeviceMapping(mesh, [Replicated()] * mesh.ndim))


__all__ = [
    "abs", "acos", "add", "allgather", "allreduce_sum", "arange", "argmax",
    "argmin", "argsort", "as_interleaved_complex", "atanh", "avg_pool2d",
    "band_part", "bottom_k", "broadcast_to", "buffer_load", "buffer_store",
    "buffer_store_slice", "cast", "ceil", "chunk", "clamp", "clip",
    "complex_mul", "concat", "cond", "constant", "conv2d",
    "conv2d_transpose", "conv3d", "cos", "cumsum",
    "custom", "dequantize", "distributed_broadcast", "div",
    "elementwise_max", "elementwise_min", "equal", "erf", "exp", "flatten",
    "floor", "floor_div", "full", "full_like", "gather", "gather_nd",
    "gaussian", "gaussian_like", "gelu", "greater", "greater_equal",
    "group_norm", "hann_window", "inplace_custom", "is_inf", "is_nan",
    "layer_norm", "log",
    "log1p", "logical_and", "logical_not", "logical_or", "logical_xor",
    "logsoftmax", "masked_scatter", "matmul", "max", "max_pool2d", "mean",
    "min", "mod", "mul", "negate", "nonzero", "normal", "normal_like",
    "not_equal", "ones", "ones_like", "outer", "pad", "permute", "pow",
    "print", "prod", "qmatmul", "range", "rebind", "reduce_scatter",
    "relu", "repeat_interleave", "reshape", "resize", "resize_bicubic",
    "resize_linear", "resize_nearest",
    "rms_norm", "round", "rsqrt", "scatter", "scatter_add", "scatter_max",
    "scatter_min", "scatter_mul", "scatter_nd", "scatter_nd_add",
    "scatter_nd_max", "scatter_nd_min", "scatter_nd_mul",
    "shape_to_tensor", "sigmoid", "silu", "sin", "slice_tensor", "softmax",
    "split", "sqrt", "squeeze", "stack", "sub", "sum", "tanh", "tile",
    "top_k", "transfer_to", "transpose", "trunc", "uniform",
    "uniform_like", "unsqueeze", "where", "while_loop", "zeros",
    "zeros_like",
]

def _is_live(value) -> bool:
    return isinstance(value, Tensor) and value.is_live


def _has_live(args, kwargs) -> bool:
    for value in (*args, *kwargs.values()):
        if _is_live(value) or (isinstance(value, (list, tuple)) and
                               builtins.any(_is_live(v) for v in value)):
            return True
    return False


def _as_specs(value):
    if _is_live(value):
        return value.layout
    if isinstance(value, (list, tuple)):
        return type(value)(_as_specs(v) for v in value)
    return value


def _call_key(value):
    """A hashable key of an eager call's argument: the layout of a live
    tensor, a static value with its type (1, 1.0 and True stage different
    graphs); None when the value cannot be a key."""
    if _is_live(value):
        return value.layout
    if isinstance(value, (list, tuple)):
        keys = tuple(_call_key(v) for v in value)
        return None if None in keys else (type(value), keys)
    if isinstance(value, slice):  # Unhashable before Python 3.12.
        return _call_key((slice, value.start, value.stop, value.step))
    try:
        hash(value)
    except TypeError:
        return None
    return (type(value), value)


# Compiled one-op graphs of eager calls in this process, by function and
# argument keys (the disk cache would still cost a staging and a lookup per
# call): least recently used first.
_EAGER_CACHE: "collections.OrderedDict" = collections.OrderedDict()
_EAGER_CACHE_SIZE = 256


def _eager(fn):
    """`fn`, which on live tensors outside a staged function runs eagerly,
    as MAX's functions do: a graph of `fn` alone is compiled for the
    tensors' layouts (kept for the next call with the same layouts and
    static values, and in the disk cache) and run on them."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        if _in_trace() or not _has_live(args, kwargs):
            return fn(*args, **kwargs)
        # A numpy scalar (np.float32(2)) is a static number, as in a trace,
        # not an array to pass as data.
        args = tuple(a.item() if isinstance(a, numpy.generic) else a
                     for a in args)
        kwargs = {name: value.item() if isinstance(value, numpy.generic)
                  else value for name, value in kwargs.items()}
        key = _call_key((fn, args, tuple(sorted(kwargs.items()))))
        compiled = _EAGER_CACHE.get(key) if key is not None else None
        if compiled is None:
            from . import compilation

            def graph(*inner_args, **inner_kwargs):
                return fn(*inner_args, **inner_kwargs)

            graph.__name__ = fn.__name__
            compiled = compilation.compile(graph)(
                *_as_specs(args),
                **{name: _as_specs(value) for name, value in kwargs.items()})
            if key is not None:
                _remember(key, compiled)
        else:
            _EAGER_CACHE.move_to_end(key)
        return compiled(*args, **kwargs)

    return call


# Creation functions (the random ones included) make live tensors
# themselves; custom and the buffer functions take what only a trace has;
# the collectives and
# distributed_broadcast go through transfer_to, Tensor.to and the list
# helpers, which run eagerly.
for _name in __all__:
    if _name not in ("constant", "full", "ones", "zeros", "full_like",
                     "ones_like", "zeros_like", "custom", "buffer_store",
                     "buffer_store_slice", "buffer_load", "shape_to_tensor",
                     "arange", "range", "hann_window", "allreduce_sum",
                     "inplace_custom",
                     "allgather", "reduce_scatter", "distributed_broadcast",
                     "uniform_like", "gaussian_like", "normal_like"):
        globals()[_name] = _eager(globals()[_name])
for _name in ("_allreduce_list", "_allgather_list", "_reduce_scatter_list"):
    globals()[_name] = _eager(globals()[_name])
del _name

# A weight declared by name, bound by compile(..., weights=) (MAX's
# F.constant_external without align/is_placeholder).
constant_external = _ops.constant_external
__all__.append("constant_external")
