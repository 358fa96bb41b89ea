# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""``Tensor``: a traced value inside a staged function, or a live tensor.

Inside ``compilation.stage``/``compile``, operators on tensors stage ops
(``+ - * / % ** @``, comparisons, ``-x``, ``.T``, indexing with ints and
slices) and report mistakes at the line that wrote them. Their other
operand may be a Python or numpy number on either side (``x * 2``,
``numpy.float32(2) + x``), which takes the tensor's dtype; a numpy array is
a TypeError (make it a tensor with ``ops.constant`` first). Outside, a live
tensor holds data: ``Tensor.from_numpy(array)``, ``Tensor.from_dlpack(x)``,
``t.to_numpy()``, ``numpy.asarray(t)``, ``numpy.from_dlpack(t)``,
``memoryview(t)``; its operators and methods run eagerly (a one-op graph,
compiled once per layout), and a distributed one reads as the whole, its
Partial terms reduced.

Data crosses without copies: ``from_numpy`` shares a C-contiguous,
writable, aligned array of a maxgraph dtype (and keeps it alive), and every
export shares the tensor's memory (and keeps it alive). ``from_numpy``
copies, into a new row-major tensor, arrays that are not C-contiguous,
read-only (the tensor may become a buffer argument, which is stored into),
misaligned or not in native byte order; complex and other dtypes that
maxgraph lacks are a TypeError. ``numpy.asarray(t, dtype=...)`` of another
dtype, ``numpy.array(t)`` and ``t.to_numpy().copy()`` copy.
"""

import inspect

import numpy

from . import _core
from ._core import Buffer, Tensor


_traced_repr = Tensor.__repr__


def _repr(self: Tensor) -> str:
    if not self.is_live:
        # Never an error: names the trace of a tensor whose trace has ended.
        return _traced_repr(self)
    if self.dtype.name == "bfloat16":
        return f"Tensor(live, {self.layout})"
    return f"Tensor({self.to_numpy()!r}, dtype={self.dtype.name}, " \
           f"device={self.device!r})"


Tensor.__repr__ = _repr

# numpy operators and ufuncs with a Tensor operand come here. The ufuncs of
# Tensor's operators with a numpy scalar run those operators
# (`numpy.float32(2) + x` is `x.__radd__(numpy.float32(2))`, with a Python
# number's dtype rules), staged or eagerly. Other ufuncs on traced tensors
# are a TypeError; on live tensors they read the tensors as arrays.
_OPERATORS = {
    numpy.add: ("__add__", "__radd__", "+"),
    numpy.subtract: ("__sub__", "__rsub__", "-"),
    numpy.multiply: ("__mul__", "__rmul__", "*"),
    numpy.true_divide: ("__truediv__", "__rtruediv__", "/"),
    numpy.remainder: ("__mod__", "__rmod__", "%"),
    numpy.power: ("__pow__", "__rpow__", "**"),
    numpy.bitwise_and: ("__and__", "__rand__", "&"),
    numpy.bitwise_or: ("__or__", "__ror__", "|"),
    numpy.bitwise_xor: ("__xor__", "__rxor__", "^"),
    numpy.matmul: ("__matmul__", "__rmatmul__", "@"),
    # Comparisons reflect to the swapped comparison.
    numpy.equal: ("__eq__", "__eq__", "=="),
    numpy.not_equal: ("__ne__", "__ne__", "!="),
    numpy.less: ("__lt__", "__gt__", "<"),
    numpy.less_equal: ("__le__", "__ge__", "<="),
    numpy.greater: ("__gt__", "__lt__", ">"),
    numpy.greater_equal: ("__ge__", "__le__", ">="),
}


def _is_traced(value) -> bool:
    return isinstance(value, Tensor) and not value.is_live


def _is_scalar(value) -> bool:
    return numpy.isscalar(value) or (isinstance(value, numpy.ndarray)
                                     and value.ndim == 0)


def _array_ufunc(self: Tensor, ufunc, method: str, *inputs, **kwargs):
    out = kwargs.get("out", ())
    # An operator between a numpy scalar and a live tensor is the tensor's
    # operator (`numpy.float32(2) * t` is `t * 2`), as on traced tensors.
    number_operator = (ufunc in _OPERATORS and method == "__call__" and
                       len(inputs) == 2 and not kwargs and
                       any(_is_scalar(value) for value in inputs))
    if not number_operator and \
            not any(_is_traced(value) for value in inputs + tuple(out)):
        def data(value):
            return numpy.asarray(value) if isinstance(value, Tensor) else value

        if out:
            kwargs["out"] = tuple(data(value) for value in out)
        return getattr(ufunc, method)(*(data(value) for value in inputs),
                                      **kwargs)
    operator = _OPERATORS.get(ufunc)
    if operator is None or method != "__call__" or len(inputs) != 2 \
            or kwargs:
        raise TypeError(
            f"numpy.{ufunc.__name__}"
            f"{'' if method == '__call__' else '.' + method} cannot take a "
            f"traced Tensor: numpy computes on data, which a traced tensor "
            f"does not have; use the maxgraph.ops function, which stages "
            f"an op")
    name, reflected, symbol = operator
    # numpy hands some scalars over as 0-d arrays (`numpy.float32(2) < x`).
    lhs, rhs = (value[()] if isinstance(value, numpy.ndarray)
                and value.ndim == 0 else value for value in inputs)
    for value in (lhs, rhs):
        if not isinstance(value, Tensor) and not numpy.isscalar(value):
            raise TypeError(
                f"{symbol}: got an array operand ({type(value)}); only "
                f"numbers combine with a traced Tensor: make the array a "
                f"tensor with ops.constant(array, dtype) first")
    if isinstance(lhs, Tensor):
        return getattr(Tensor, name)(lhs, rhs)
    return getattr(Tensor, reflected)(rhs, lhs)


Tensor.__array_ufunc__ = _array_ufunc


def _setitem(self: Tensor, key, value) -> None:
    if self.is_live:
        raise TypeError(
            "Tensor does not support item assignment: write a live tensor "
            "through numpy.asarray(t), which shares its memory")
    raise TypeError(
        "cannot mutate a tensor argument that was staged as a tensor: "
        "stage it with a BufferLayout spec to store into it "
        "(buffer[key] = value)")


Tensor.__setitem__ = _setitem


def _iter(self: Tensor):
    """A traced tensor iterates over its first dim when that is static (one
    `self[i]` each), as numpy does."""
    if self.is_live:
        raise TypeError("a live Tensor does not iterate: iterate over "
                        "t.to_numpy(), which shares its memory")
    shape = self.shape
    if not shape:
        raise TypeError("iteration over a rank-0 tensor")
    if not shape[0].is_static:
        raise TypeError(f"iteration over dim 0 of size `{shape[0]}`: its "
                        f"size is known only when the graph runs")
    return (self[i] for i in range(int(shape[0])))


Tensor.__iter__ = _iter


# A buffer used as a value reads its current contents (`buffer_load`), as
# in MAX: `buf + x`, `-buf`, `buf[1:]`. Equality keeps its
# identity meaning so that buffers stay hashable.
def _reads_contents(name: str):
    operator = getattr(Tensor, name)

    def method(self: Buffer, *args):
        return operator(self.load(), *args)

    method.__name__ = name
    method.__doc__ = f"``{name}`` of the buffer's current contents."
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
              "__rmul__", "__truediv__", "__rtruediv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__matmul__",
              "__rmatmul__", "__and__", "__rand__", "__or__", "__ror__",
              "__xor__", "__rxor__", "__neg__", "__abs__", "__invert__",
              "__lt__", "__le__", "__gt__", "__ge__", "__getitem__"):
    if hasattr(Tensor, _name):
        setattr(Buffer, _name, _reads_contents(_name))
del _name

__all__ = ["Buffer", "Tensor"]


# Operators on live tensors run eagerly, as MAX's do: `a * 2`, `a + b`,
# `-a`, `a[1:]`, `a @ b` compile a graph of the one operator for the
# operands' layouts (and static values), kept in maxgraph.functional's
# eager cache with F's calls, and run it. A numpy array beside a live
# tensor becomes a live tensor too. Inside a staged function, operators
# stage ops as before (a live operand there is refused: pass it as an
# argument).
def _cached_eager(fn):
    """`fn` run on live tensors through maxgraph.functional's eager cache
    (wrapped at the first call: functional imports this module)."""
    eager = None

    def run(*args, **kwargs):
        nonlocal eager
        if eager is None:
            from . import functional
            eager = functional._eager(fn)
        return eager(*args, **kwargs)

    return run


def _live_operator(name: str):
    traced = getattr(Tensor, name)

    def operator(*args):
        return traced(*args)

    operator.__name__ = name
    eager = _cached_eager(operator)

    def method(self: Tensor, *args):
        if not self.is_live or any(_is_traced(value) for value in args):
            return traced(self, *args)
        args = tuple(Tensor.from_numpy(value)
                     if isinstance(value, numpy.ndarray) and value.ndim
                     else value for value in args)
        return eager(self, *args)

    method.__name__ = name
    method.__doc__ = traced.__doc__
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
              "__rmul__", "__truediv__", "__rtruediv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__matmul__",
              "__rmatmul__", "__and__", "__rand__", "__or__", "__ror__",
              "__xor__", "__rxor__", "__neg__", "__abs__", "__invert__",
              "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
              "__getitem__"):
    setattr(Tensor, _name, _live_operator(_name))
del _name
# Comparisons define __eq__, which would make tensors hashable by identity.
Tensor.__hash__ = None

_traced_bool = Tensor.__bool__


def _bool(self: Tensor) -> bool:
    """A live tensor of one element is true when that element is, as
    numpy's; a traced tensor has no truth value."""
    if not self.is_live:
        return _traced_bool(self)
    array = self.to_numpy()
    if array.size != 1:
        raise ValueError(
            f"the truth value of a tensor of {array.size} elements is "
            f"ambiguous: reduce it first (F.max, F.sum) or read it with "
            f".to_numpy()")
    return bool(array.item())


Tensor.__bool__ = _bool


# MAX's Tensor methods. On a traced tensor each stages its maxgraph.functional
# function; on a live one it runs eagerly through the eager cache of F's
# calls and Tensor's operators (one compiled graph per layout and static
# arguments). numpy's
# functions call the methods of the same names (numpy.sum(t) is
# t.sum(axis=None, dtype=None, out=None)): those calls, told apart by numpy's
# keywords, compute with numpy on the tensor's data, as before.
_NUMPY_KEYWORDS = {"out", "dtype", "keepdims", "initial", "where"}


def _eager(fn, name: str):
    eager = _cached_eager(fn)

    def method(self: Tensor, *args, **kwargs):
        if not self.is_live:
            return fn(self, *args, **kwargs)
        if _NUMPY_KEYWORDS & kwargs.keys():
            return getattr(self.to_numpy(), name)(*args, **kwargs)
        return eager(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = fn.__doc__
    method.__wrapped__ = fn  # inspect.signature shows fn's parameters.
    return method


def _reduction(method, name: str, elementwise: str):
    """MAX's ``Tensor.max``/``min(axis=-1)`` over the eager `method`: a
    reduction only. An axis that is a tensor, or a number other than an
    int, is a TypeError that points to the elementwise function."""
    def reduction(self: Tensor, axis=-1, **numpy_keywords):
        if not numpy_keywords and axis is not None and (
                isinstance(axis, bool) or not isinstance(axis, int)):
            raise TypeError(
                f"Tensor.{name}: axis must be an int or None, got "
                f"{type(axis).__name__}: Tensor.{name} reduces along one "
                f"axis, as MAX's does; for the elementwise {elementwise} of "
                f"two tensors use F.{name}(x, y)")
        return method(self, axis=axis, **numpy_keywords)

    reduction.__name__ = name
    reduction.__doc__ = (f"The {elementwise} along `axis`, kept with size 1 "
                         f"(None: of all elements, shape [1]).")
    # MAX's parameters; numpy's keywords (numpy.max(t)) are taken too.
    reduction.__signature__ = inspect.Signature([
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("axis", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          default=-1)])
    return reduction


def _define_methods() -> None:
    from . import functional as F

    methods = {
        "permute": F.permute, "transpose": F.transpose, "reshape": F.reshape,
        "broadcast_to": F.broadcast_to, "cast": F.cast, "clip": F.clip,
        "squeeze": F.squeeze, "unsqueeze": F.unsqueeze, "split": F.split,
        "sum": F.sum, "mean": F.mean, "prod": F.prod, "argmax": F.argmax,
        "argmin": F.argmin,
    }
    for name, fn in methods.items():
        setattr(Tensor, name, _eager(fn, name))
    # Reductions only, as MAX's Tensor.max(axis=-1) and min.
    Tensor.max = _reduction(
        _eager(lambda x, axis=-1: F.max(x, axis=axis), "max"), "max",
        "maximum")
    Tensor.min = _reduction(
        _eager(lambda x, axis=-1: F.min(x, axis=axis), "min"), "min",
        "minimum")
    traced_t = Tensor.T
    Tensor.T = property(_eager(lambda x: traced_t.fget(x), "T"),
                        doc="The tensor with its last two dims swapped.")

    def full(shape, value, *, dtype=None, device=None) -> Tensor:
        """A live host tensor of `shape` filled with `value` (float32 by
        default)."""
        return F.full(shape, value, dtype=dtype, device=device)

    def ones(shape, *, dtype=None, device=None) -> Tensor:
        return F.full(shape, 1, dtype=dtype, device=device)

    def zeros(shape, *, dtype=None, device=None) -> Tensor:
        return F.full(shape, 0, dtype=dtype, device=device)

    def full_like(input: Tensor, value) -> Tensor:
        """A tensor of `input`'s shape, dtype and device (or mapping)
        filled with `value`."""
        return F.full_like(input, value)

    def ones_like(input: Tensor) -> Tensor:
        return F.full_like(input, 1)

    def zeros_like(input: Tensor) -> Tensor:
        return F.full_like(input, 0)

    def arange(start=0, stop=None, step=1, out_dim=None, *, dtype=None,
               device=None) -> Tensor:
        """`start, start + step, ...` below `stop`, as ``F.arange``; with
        one bound, ``Tensor.arange(n)`` counts from 0 to n (MAX's)."""
        if stop is None:
            start, stop = 0, start
        return F.arange(start, stop, step, out_dim, dtype=dtype,
                        device=device)

    Tensor.full = staticmethod(full)
    Tensor.ones = staticmethod(ones)
    Tensor.zeros = staticmethod(zeros)
    Tensor.full_like = staticmethod(full_like)
    Tensor.ones_like = staticmethod(ones_like)
    Tensor.zeros_like = staticmethod(zeros_like)
    Tensor.constant = staticmethod(F.constant)
    Tensor.arange = staticmethod(arange)


_define_methods()


def _to(self: Tensor, device) -> Tensor:
    """`self` on `device`: a transfer when traced. When live: for a GPU, its
    elements copied into the GPU's memory (through MAXGRAPH_GPU_RUNTIME's
    runtime, else CUDA), where a graph compiled for that GPU takes them
    without a copy; for a CPU, copied to host memory; itself when already
    there. A DeviceStream (MAX's ``Buffer.to(stream)``) copies it to the
    stream's device in order on that stream, without making the host wait;
    the result waits for that copy itself before it is read. A DeviceMesh,
    DeviceMapping or NamedMapping lays it out over a mesh: a reshard when
    traced, its data cut into one shard per device when live."""
    if isinstance(device, (_core.DeviceMesh, _core.DeviceMapping,
                           _core.NamedMapping)):
        return _core_to(self, device)
    if isinstance(device, _core.DeviceStream):
        if not self.is_live:
            return _ops_transfer(self, device.device)
        if _is_distributed(self):
            return _to(self, device.device)
        return self._move_to_stream(device)
    if not self.is_live:
        return _ops_transfer(self, device)
    if _is_distributed(self):
        # The whole tensor, its Partial terms reduced, on one device.
        host = Tensor.from_numpy(_to_numpy(self))
        return host if device == _core.CPU() else host.to(device)
    on_gpu = isinstance(device, _core.Device) and device.kind == "gpu"
    if on_gpu or not self.is_host:
        if self.device == device and self.is_host != on_gpu:
            return self
        return self._move_to(device)
    if self.device == device:
        return self
    return Tensor.from_numpy(self.to_numpy().copy(), device)


def _item(self: Tensor):
    """The one element of a live tensor, as a Python number."""
    if not self.is_live:
        raise TypeError("Tensor.item: this tensor is being traced and has "
                        "no data yet; return it from the staged function "
                        "and read the result")
    array = self.to_numpy()
    if array.size != 1:
        raise ValueError(f"Tensor.item: the tensor has {array.size} "
                         f"elements, not 1")
    return array.item()


def _num_elements(self: Tensor):
    """The number of elements: an int, or a dim expression when some dim
    is symbolic."""
    count = 1
    for dim in self.shape:
        count = count * dim
    return count


def _is_distributed(self: Tensor) -> bool:
    return self.is_live and self.placements is not None


def _reduced(self: Tensor) -> Tensor:
    """A live distributed tensor with its Partial placements reduced to
    Replicated by a compiled reshard (the collectives of the mesh's
    devices, as a graph's allreduce), so that its shards join into the
    whole."""
    placements = self.placements
    if not any(isinstance(p, _core.Partial) for p in placements):
        return self
    mapping = _core.DeviceMapping(
        self.mesh, [_core.Replicated() if isinstance(p, _core.Partial)
                    else p for p in placements])
    return _reshard(self, mapping)


def _reshard_graph(x: Tensor, mapping) -> Tensor:
    return x.to(mapping)


_reshard = None


def _reading(name: str):
    """Tensor's `name`, which reads the data, reading a distributed tensor
    as the whole: its shards joined, its Partial terms reduced (MAX reads
    them as their sum)."""
    read = getattr(Tensor, name)

    def method(self: Tensor, *args, **kwargs):
        # A traced tensor's reader raises its own error below.
        if self.placements is None or not self.is_live:
            return read(self, *args, **kwargs)
        if name == "__dlpack_device__":
            return (1, 0)  # The whole is exported from host memory.
        whole = _core_to_numpy(_reduced(self))
        if name == "to_numpy":
            return whole
        return read(Tensor.from_numpy(whole), *args, **kwargs)

    method.__name__ = name
    method.__doc__ = read.__doc__
    return method


_core_to_numpy = Tensor.to_numpy


def _define_readers() -> None:
    global _reshard
    from . import functional
    _reshard = functional._eager(_reshard_graph)
    for name in ("to_numpy", "__array__", "__dlpack__", "__dlpack_device__"):
        setattr(Tensor, name, _reading(name))


_define_readers()
_to_numpy = Tensor.to_numpy

from .ops import transfer as _ops_transfer  # noqa: E402

_core_to = Tensor.to
Tensor.to = _to
Tensor.item = _item
Tensor.num_elements = property(_num_elements)
