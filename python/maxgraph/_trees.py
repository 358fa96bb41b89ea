# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Walking trees of specs, tensors and static values.

Containers are walked in a fixed order that becomes the graph's argument
order: dicts in insertion order (paths ``p.key``, or ``p["key"]`` when the
key is not an identifier), lists and tuples by index (``p[i]``), named
tuples and dataclass instances by field (``p.field``). Every other value is
a static leaf, baked into the graph.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Callable, Iterator

import numpy

from ._core import Buffer, BufferLayout, Tensor, TensorLayout
from ._core import RuntimeError as _RuntimeError

LIVE_TENSOR_MESSAGE = (
    "a Tensor is a value, not a layout: taking its dims would fix every one "
    "of them. Pass a TensorLayout, or `t.layout` to fix its dims on purpose.")


def key_path(path: str, key: Any) -> str:
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}"
    if isinstance(key, str):
        return f'{path}["{key}"]'
    return f"{path}[{key!r}]"


def is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def is_dataclass_instance(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def is_array(value: Any) -> bool:
    return hasattr(value, "__array__") and not isinstance(
        value, (int, float, complex, bool, str, bytes))


def is_call_array(value: Any) -> bool:
    """Whether a compiled graph takes `value` for a tensor argument as it
    is: an array that exports its memory (numpy, anything with
    ``__dlpack__``, a memoryview)."""
    return hasattr(type(value), "__dlpack__") or isinstance(value, memoryview)


def _replace_fields(value: Any, fields: dict[str, Any]) -> Any:
    # Works for frozen dataclasses and fields with init=False alike.
    result = copy.copy(value)
    for name, field in fields.items():
        object.__setattr__(result, name, field)
    return result


def map_tree(value: Any, path: str, leaf: Callable[[Any, str], Any]) -> Any:
    """Rebuilds `value` with `leaf(x, path)` applied to every leaf, walking
    containers in the documented order."""
    if isinstance(value, dict):
        return type(value)(
            (key, map_tree(item, key_path(path, key), leaf))
            for key, item in value.items())
    if is_namedtuple(value):
        return type(value)._make(
            map_tree(getattr(value, name), f"{path}.{name}", leaf)
            for name in type(value)._fields)
    if isinstance(value, (list, tuple)):
        return type(value)(
            map_tree(item, f"{path}[{i}]", leaf)
            for i, item in enumerate(value))
    if is_dataclass_instance(value):
        return _replace_fields(value, {
            field.name: map_tree(getattr(value, field.name),
                                 f"{path}.{field.name}", leaf)
            for field in dataclasses.fields(value)
        })
    return leaf(value, path)


def trace_spec(visitor: Any, statics: list) -> Callable[[Any, str], Any]:
    """The leaf function that turns specs into traced arguments."""

    def leaf(value: Any, path: str) -> Any:
        if isinstance(value, TensorLayout):
            return visitor.visit_tensor_spec(value, path)
        if isinstance(value, BufferLayout):
            return visitor.visit_buffer_spec(value, path)
        if isinstance(value, Tensor):
            if value.is_live:
                raise TypeError(f"argument '{path}': {LIVE_TENSOR_MESSAGE}")
            return visitor.visit_tensor(value, path)
        if isinstance(value, Buffer):
            return visitor.visit_buffer(value, path)
        if is_array(value):
            raise TypeError(
                f"argument '{path}': an array is a value, not a layout; pass "
                f"a TensorLayout (or Tensor.from_numpy(a).layout to fix its "
                f"dims)")
        visitor.visit_static(path, repr(value))
        statics.append((path, value))
        return value

    return leaf


def collect_results(value: Any, visitor: Any, path: str = "output") -> None:
    """Hands the Tensor leaves of a result tree to `visitor`, in order."""

    def leaf(item: Any, item_path: str) -> Any:
        if isinstance(item, Tensor):
            if item.is_live:
                raise TypeError(
                    f"result '{item_path}' is a live tensor; a staged "
                    f"function returns the tensors it traced")
            visitor.collect(item_path, item)
        elif isinstance(item, Buffer):
            raise TypeError(
                f"result '{item_path}' is a Buffer; return `buffer.load()` "
                f"for its contents (stores already reach the caller)")
        return item

    map_tree(value, path, leaf)


class ArtifactLeaf:
    """Where a tensor leaf was, in the trees an exported artifact keeps
    (pickled): the index of its input or result. Specs and traced tensors
    do not pickle; load() puts the artifact's layouts (or the results) back
    in their places."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __reduce__(self) -> tuple:
        return (ArtifactLeaf, (self.index,))

    def __repr__(self) -> str:
        return f"ArtifactLeaf({self.index})"


def replace_tensors(value: Any, tensors: Iterator[Any]) -> Any:
    """`value` with its Tensor (or ArtifactLeaf) leaves replaced by
    `next(tensors)`, in order."""
    return map_tree(
        value, "output",
        lambda item, _: next(tensors)
        if isinstance(item, (Tensor, ArtifactLeaf)) else item)


def _same_static(staged: Any, given: Any) -> bool:
    if isinstance(staged, bool) or isinstance(given, bool):
        return type(staged) is type(given) and staged == given
    if isinstance(staged, (int, float)) and isinstance(given, (int, float)):
        return staged == given
    try:
        return type(staged) is type(given) and bool(staged == given)
    except Exception:
        return False


def flatten_call(spec: Any, arg: Any, path: str, inputs: list) -> None:
    """Checks a compiled graph's call argument `arg` against the staged
    `spec` tree and appends its tensors to `inputs`, in argument order."""
    if isinstance(spec, (TensorLayout, BufferLayout)):
        # A numpy scalar (numpy.int64(3)) is a rank-0 array for a read-only
        # argument; a buffer needs storage it can write.
        if isinstance(spec, TensorLayout) and isinstance(arg, numpy.generic):
            arg = numpy.asarray(arg)
        if not isinstance(arg, Tensor) and not is_call_array(arg):
            raise TypeError(
                f"argument '{path}' was staged as {spec!r}; call with a live "
                f"Tensor (Tensor.from_numpy) or a CPU array (numpy, "
                f"__dlpack__), got {type(arg).__name__}")
        inputs.append(arg)
        return
    if isinstance(spec, dict):
        if not isinstance(arg, dict):
            raise TypeError(f"argument '{path}' was staged as a dict, got "
                            f"{type(arg).__name__}")
        missing = [key for key in spec if key not in arg]
        extra = [key for key in arg if key not in spec]
        if missing or extra:
            raise TypeError(
                f"argument '{path}' was staged with keys {list(spec)}, got "
                f"{list(arg)}")
        for key, item in spec.items():
            flatten_call(item, arg[key], key_path(path, key), inputs)
        return
    if is_namedtuple(spec) or isinstance(spec, (list, tuple)):
        if not isinstance(arg, (list, tuple)) or len(arg) != len(spec):
            raise TypeError(
                f"argument '{path}' was staged as a {type(spec).__name__} of "
                f"{len(spec)}, got {type(arg).__name__}"
                + (f" of {len(arg)}" if isinstance(arg, (list, tuple)) else ""))
        names = type(spec)._fields if is_namedtuple(spec) else None
        for i, (item, given) in enumerate(zip(spec, arg)):
            flatten_call(item, given,
                         f"{path}.{names[i]}" if names else f"{path}[{i}]",
                         inputs)
        return
    if is_dataclass_instance(spec):
        if type(arg) is not type(spec):
            raise TypeError(
                f"argument '{path}' was staged as a {type(spec).__name__}, "
                f"got {type(arg).__name__}")
        for field in dataclasses.fields(spec):
            flatten_call(getattr(spec, field.name),
                         getattr(arg, field.name), f"{path}.{field.name}",
                         inputs)
        return
    if isinstance(arg, Tensor):
        raise TypeError(f"argument '{path}' is static (staged as {spec!r}); "
                        f"got a Tensor")
    if not _same_static(spec, arg):
        # maxgraph.RuntimeError (a ValueError), as the C++ runtime raises.
        raise _RuntimeError(f"static argument '{path}' was staged as "
                            f"{spec!r}, got {arg!r}; stage the function "
                            f"again for a new value")


class Uncacheable(Exception):
    """A call whose arguments give no cache key (a spec, a live tensor, an
    unhashable static): it is traced, as every call was before."""


class Identity:
    """Hashes and compares `value` by identity (and keeps it alive, so that
    its id is not reused while a key holds it)."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Identity) and other.value is self.value


_EXACT_STATICS = (int, bool, str, bytes, type(None))
TENSOR_LEAF = "T"
BUFFER_LEAF = "B"


def static_key(value: Any) -> Any:
    """A static leaf for a cache key: typed (1, 1.0 and True differ), by
    value where it hashes (floats by repr: 0.0 and -0.0 differ), else by
    identity."""
    kind = type(value)
    if kind in _EXACT_STATICS:
        return (kind, value)
    if kind is float or kind is complex:
        return (kind, repr(value))
    try:
        hash(value)
    except TypeError:
        return (kind, Identity(value))
    # Equal and printed alike: the C++ side bakes the printed value in.
    return (kind, value, repr(value))


def signature(value: Any, leaves: list) -> Any:
    """The structure of the argument tree `value` and its static leaves as a
    hashable key, walking as map_tree does; appends the Tensor and Buffer
    leaves to `leaves`. Raises Uncacheable for what tracing must refuse."""
    kind = type(value)
    if kind is Tensor:
        if value.is_live:
            raise Uncacheable()
        leaves.append(value)
        return TENSOR_LEAF
    if isinstance(value, dict):
        return (kind, tuple(((type(key), key), signature(item, leaves))
                            for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        # Named tuples too: their type tells them apart.
        return (kind, tuple(signature(item, leaves) for item in value))
    if isinstance(value, Tensor):
        if value.is_live:
            raise Uncacheable()
        leaves.append(value)
        return TENSOR_LEAF
    if isinstance(value, Buffer):
        leaves.append(value)
        return BUFFER_LEAF
    if is_dataclass_instance(value):
        return (kind, tuple(signature(getattr(value, field.name), leaves)
                            for field in dataclasses.fields(value)))
    if isinstance(value, (TensorLayout, BufferLayout)) or is_array(value):
        raise Uncacheable()
    return static_key(value)


class ResultLeaf:
    """Where a Tensor was in a cached body's result tree."""

    __slots__ = ()


RESULT_LEAF = ResultLeaf()


def result_template(value: Any) -> Any:
    """A result tree with its Tensor leaves marked, to rebuild later calls'
    results from (the body's Tensors end with its trace)."""
    if type(value) is Tensor:
        return RESULT_LEAF
    return map_tree(value, "output",
                    lambda item, _: RESULT_LEAF
                    if isinstance(item, Tensor) else item)


def rebuild_results(template: Any, tensors: list) -> Any:
    """`template` with its marked leaves replaced by `tensors`, in order."""
    if template is RESULT_LEAF:
        return tensors[0]
    it = iter(tensors)
    return map_tree(template, "output",
                    lambda item, _: next(it) if item is RESULT_LEAF else item)
