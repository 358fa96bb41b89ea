"""``Tensor``: a traced value inside a staged function, or a live tensor.

Inside ``compilation.stage``/``compile``, operators on tensors stage ops
(``+ - * / % ** @``, comparisons, ``-x``, ``.T``, indexing with ints and
slices) and report mistakes at the line that wrote them. Outside, a live
tensor holds data: ``Tensor.from_numpy(array)``, ``t.to_numpy()``,
``numpy.asarray(t)``.
"""

from ._core import Buffer, Tensor


def _repr(self: Tensor) -> str:
    if not self.is_live:
        return f"Tensor(traced, {self.layout})"
    if self.dtype.name == "bfloat16":
        return f"Tensor(live, {self.layout})"
    return f"Tensor({self.to_numpy()!r}, dtype={self.dtype.name}, " \
           f"device={self.device!r})"


Tensor.__repr__ = _repr

__all__ = ["Buffer", "Tensor"]
