"""Element types: ``DType.float32``, ``DType.int64``, ``DType.bool``, ..."""

from ._core import DType

__all__ = ["DType"]
