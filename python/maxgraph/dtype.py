# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Element types: ``DType.float32``, ``DType.int64``, ``DType.bool``, ...

``DType`` has MAX's helpers: ``size_in_bytes`` and ``align`` (properties),
``is_float()``, ``is_integral()`` (signed and unsigned integers, not bool),
``to_numpy()`` and ``DType.from_numpy(dtype)``; ``finfo(dtype)`` gives a
float type's limits. numpy has no bfloat16, so ``DType.bfloat16.to_numpy()``
is a ValueError (``finfo`` knows its limits all the same). The 8-bit
floats ``float8_e4m3fn`` and ``float8_e5m2`` are numpy dtypes through the
``ml_dtypes`` package (which the set-up scripts install), as in JAX.
"""

from __future__ import annotations

import numpy

from ._core import DType

_FLOATS = frozenset({DType.float16, DType.bfloat16, DType.float32,
                     DType.float64, DType.float8_e4m3fn, DType.float8_e5m2})
_FLOAT8 = frozenset({DType.float8_e4m3fn, DType.float8_e5m2})
_INTEGRALS = frozenset({DType.int8, DType.int16, DType.int32, DType.int64,
                        DType.uint8, DType.uint16, DType.uint32,
                        DType.uint64})
_SIZES = {DType.bool: 1, DType.int8: 1, DType.uint8: 1, DType.int16: 2,
          DType.uint16: 2, DType.float16: 2, DType.bfloat16: 2,
          DType.int32: 4, DType.uint32: 4, DType.float32: 4, DType.int64: 8,
          DType.uint64: 8, DType.float64: 8, DType.float8_e4m3fn: 1,
          DType.float8_e5m2: 1}


def _size_in_bytes(self: DType) -> int:
    """The size of one element in bytes."""
    return _SIZES[self]


def _align(self: DType) -> int:
    """The alignment of one element in bytes (its size: every maxgraph
    dtype is a scalar of a power-of-two size)."""
    return _SIZES[self]


def _is_float(self: DType) -> bool:
    """Whether this is a floating-point type (bfloat16 included)."""
    return self in _FLOATS


def _is_integral(self: DType) -> bool:
    """Whether this is a signed or unsigned integer type (bool is not)."""
    return self in _INTEGRALS


def _to_numpy(self: DType) -> numpy.dtype:
    """The numpy dtype of this type; a ValueError for bfloat16, which numpy
    does not have."""
    if self == DType.bfloat16:
        raise ValueError(
            "DType.bfloat16.to_numpy(): numpy has no bfloat16 type; hold the "
            "data as float32 and cast in the graph, or as uint16 bits "
            "(maxgraph.weights.load_safetensors does so)")
    if self in _FLOAT8:
        return numpy.dtype(getattr(_ml_dtypes(f"DType.{self.name}."
                                              f"to_numpy()"), self.name))
    return numpy.dtype(self.name)


def _ml_dtypes(what: str):
    """The ml_dtypes module, which gives numpy its 8-bit floats."""
    try:
        import ml_dtypes
    except ImportError:
        raise ValueError(f"{what}: numpy has 8-bit floats only through the "
                         f"ml_dtypes package, which is not installed (pip "
                         f"install ml_dtypes)") from None
    return ml_dtypes


def _from_numpy(dtype) -> DType:
    """The DType of a numpy dtype (or anything ``numpy.dtype`` takes, such
    as ``numpy.float32``); a ValueError for types maxgraph lacks."""
    try:
        name = numpy.dtype(dtype).name
    except TypeError as error:
        raise ValueError(f"DType.from_numpy: {dtype!r} is not a numpy "
                         f"dtype: {error}") from None
    member = DType.__members__.get(name)
    if member is None:
        raise ValueError(f"DType.from_numpy: maxgraph has no dtype for "
                         f"numpy's {name}")
    return member


DType.size_in_bytes = property(_size_in_bytes)
DType.align = property(_align)
DType.is_float = _is_float
DType.is_integral = _is_integral
DType.to_numpy = _to_numpy
DType.from_numpy = staticmethod(_from_numpy)


class finfo:
    """The limits of a floating-point DType (MAX's ``finfo``, after
    ``torch.finfo``): ``bits``, ``eps``, ``max``, ``min``, ``tiny``
    (``smallest_normal``) and ``dtype``. A TypeError for other types."""

    bits: int
    eps: float
    max: float
    min: float
    tiny: float
    dtype: DType

    def __init__(self, dtype: DType):
        if not isinstance(dtype, DType) or not dtype.is_float():
            name = getattr(dtype, "name", repr(dtype))
            raise TypeError(f"finfo only supports floating-point types, "
                            f"got {name}")
        if dtype in _FLOAT8:
            info = _ml_dtypes("finfo").finfo(dtype.to_numpy())
            self.bits = 8
            self.eps = float(info.eps)
            self.max = float(info.max)
            self.min = float(info.min)
            self.tiny = float(info.tiny)
        elif dtype == DType.bfloat16:
            # 8 exponent bits and 7 mantissa bits (float32's exponent).
            self.bits = 16
            self.eps = 2.0 ** -7
            self.max = (2 - 2.0 ** -7) * 2.0 ** 127
            self.min = -self.max
            self.tiny = 2.0 ** -126
        else:
            info = numpy.finfo(dtype.to_numpy())
            self.bits = int(info.bits)
            self.eps = float(info.eps)
            self.max = float(info.max)
            self.min = float(info.min)
            self.tiny = float(info.tiny)
        self.dtype = dtype

    @property
    def smallest_normal(self) -> float:
        """The smallest positive normal number: ``tiny``."""
        return self.tiny

    def __repr__(self) -> str:
        return (f"finfo(dtype={self.dtype.name}, bits={self.bits}, "
                f"eps={self.eps}, max={self.max}, min={self.min}, "
                f"tiny={self.tiny})")


DType.finfo = finfo

__all__ = ["DType", "finfo"]
