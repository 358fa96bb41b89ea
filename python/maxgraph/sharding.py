"""Specs: what a staged function's tensor arguments are.

``TensorLayout(dtype, shape, device)`` is a read-only tensor;
``BufferLayout(dtype, shape, device)`` is storage the graph may also store
through, and the store reaches the caller's tensor. Shapes mix ints and
symbolic names: ``["batch", 4]``.
"""

from ._core import BufferLayout, Layout, TensorLayout

__all__ = ["BufferLayout", "Layout", "TensorLayout"]
