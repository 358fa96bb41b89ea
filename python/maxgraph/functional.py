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
- Collectives take the list of per-device tensors (MAX's
  ``max.graph.ops`` form): maxgraph has no distributed Tensor.

``full``, ``ones``, ``zeros``, ``constant`` and ``range`` (``arange``)
outside a staged function make live host tensors, as MAX's do; inside, they
stage constants (``range``: ``maxgraph.arange``).
"""

from __future__ import annotations

import builtins
import collections
import functools
import operator
from typing import Any, Mapping, Optional, Sequence, Union

import numpy

from . import ops as _ops
from . import _core
from ._core import CPU, Device, DType, Tensor, TensorLayout
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
div = _ops.div
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


def slice_tensor(x: Tensor, indices: Sequence[Any]) -> Tensor:
    """``x[indices]``: ints (which drop their axis), slices and ``...``."""
    return x[tuple(indices)]


def gather(input: Tensor, indices: Tensor, axis: int = 0) -> Tensor:
    return _ops.gather(input, indices, axis)


def pad(input: Tensor, paddings: Sequence[int], mode: str = "constant",
        value=0) -> Tensor:
    """`input` padded by `paddings`, ``[before_0, after_0, before_1, ...]``
    (non-negative): with `value` (mode ``"constant"``), mirrored without the
    edge (``"reflect"``) or repeating the edge (``"edge"``)."""
    if isinstance(value, Tensor):
        raise TypeError("pad: the value is a number; maxgraph pads with a "
                        "constant known when staging")
    return _ops.pad(input, [int(p) for p in paddings], mode, float(value))


def _live_creation(fn, key):
    """The live tensor that `fn()`, which stages a creation op, makes: a
    graph of `fn` alone, compiled once per `key`, run with no inputs."""
    compiled = _EAGER_CACHE.get(key)
    if compiled is None:
        from . import compilation
        compiled = compilation.compile(fn)()
        _EAGER_CACHE[key] = compiled
        if len(_EAGER_CACHE) > _EAGER_CACHE_SIZE:
            _EAGER_CACHE.popitem(last=False)
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


def full(shape, value, *, dtype: Optional[DType] = None,
         device: Optional[Device] = None) -> Tensor:
    """A tensor of `shape` with every element `value` (float32 by
    default): live outside a staged function, staged inside."""
    dtype = DType.float32 if dtype is None else dtype
    device = CPU() if device is None else device
    if not _in_trace():
        return Tensor.from_numpy(
            numpy.full(list(shape), value, dtype=_numpy_dtype(dtype)), device)
    return _ops.broadcast_to(_ops.constant(value, dtype, device), shape)


def ones(shape, *, dtype: Optional[DType] = None,
         device: Optional[Device] = None) -> Tensor:
    return full(shape, 1, dtype=dtype, device=device)


def zeros(shape, *, dtype: Optional[DType] = None,
          device: Optional[Device] = None) -> Tensor:
    return full(shape, 0, dtype=dtype, device=device)


def full_like(like: Tensor, value) -> Tensor:
    """A tensor of `like`'s shape, dtype and device filled with `value`."""
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


def allreduce_sum(inputs: Sequence[Tensor]) -> list[Tensor]:
    """The sum of the per-device `inputs`, on every device."""
    return _ops.allreduce_sum(list(inputs))


def allgather(inputs: Sequence[Tensor], axis: int = 0) -> list[Tensor]:
    """The per-device `inputs` concatenated along `axis`, on every
    device."""
    return _ops.allgather(list(inputs), axis)


def reduce_scatter(inputs: Sequence[Tensor], axis: int = 0) -> list[Tensor]:
    """The sum of the per-device `inputs`, split along `axis`: device i
    gets piece i."""
    return _ops.reduce_scatter_sum(list(inputs), axis)


__all__ = [
    "abs", "add", "allgather", "allreduce_sum", "arange", "argmax", "argmin",
    "broadcast_to", "buffer_store", "cast", "ceil", "chunk", "clamp", "clip",
    "concat", "constant", "cos", "cumsum", "custom", "div",
    "elementwise_max", "elementwise_min", "equal", "erf", "exp", "flatten",
    "floor", "floor_div", "full", "full_like", "gather", "gelu", "greater",
    "greater_equal", "is_inf", "is_nan", "layer_norm", "log", "log1p",
    "logical_and", "logical_not", "logical_or", "logical_xor", "logsoftmax",
    "matmul", "max", "mean", "min", "mod", "mul", "negate", "not_equal",
    "ones", "ones_like", "outer", "pad", "permute", "pow", "prod", "range",
    "reduce_scatter",
    "relu", "reshape", "rms_norm", "round", "rsqrt", "sigmoid", "silu",
    "sin", "slice_tensor", "softmax", "split", "sqrt", "squeeze", "stack",
    "sub", "sum", "tanh", "tile", "top_k", "transfer_to", "transpose", "trunc",
    "unsqueeze", "where", "zeros", "zeros_like",
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
                _EAGER_CACHE[key] = compiled
                if len(_EAGER_CACHE) > _EAGER_CACHE_SIZE:
                    _EAGER_CACHE.popitem(last=False)
        else:
            _EAGER_CACHE.move_to_end(key)
        return compiled(*args, **kwargs)

    return call


# Creation functions make live tensors themselves; custom and buffer_store
# take what only a trace has.
for _name in __all__:
    if _name not in ("constant", "full", "ones", "zeros", "full_like",
                     "ones_like", "zeros_like", "custom", "buffer_store",
                     "arange", "range"):
        globals()[_name] = _eager(globals()[_name])
del _name

# A weight declared by name, bound by compile(..., weights=) (MAX's
# F.constant_external without align/is_placeholder).
constant_external = _ops.constant_external
__all__.append("constant_external")
