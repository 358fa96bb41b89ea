"""``Tensor``: a traced value inside a staged function, or a live tensor.

Inside ``compilation.stage``/``compile``, operators on tensors stage ops
(``+ - * / % ** @``, comparisons, ``-x``, ``.T``, indexing with ints and
slices) and report mistakes at the line that wrote them. Outside, a live
tensor holds data: ``Tensor.from_numpy(array)``, ``Tensor.from_dlpack(x)``,
``t.to_numpy()``, ``numpy.asarray(t)``, ``numpy.from_dlpack(t)``,
``memoryview(t)``.

Data crosses without copies: ``from_numpy`` shares a C-contiguous,
writable, aligned array of a maxgraph dtype (and keeps it alive), and every
export shares the tensor's memory (and keeps it alive). ``from_numpy``
copies, into a new row-major tensor, arrays that are not C-contiguous,
read-only (the tensor may become a buffer argument, which is stored into),
misaligned or not in native byte order; complex and other dtypes that
maxgraph lacks are a TypeError. ``numpy.asarray(t, dtype=...)`` of another
dtype, ``numpy.array(t)`` and ``t.to_numpy().copy()`` copy.
"""

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

__all__ = ["Buffer", "Tensor"]
