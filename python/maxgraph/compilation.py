# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""``stage()`` and ``compile()``: trace a function into a graph, run it.

    staged = compilation.stage(combine)({"a": spec, "b": spec}, 2.0)
    print(staged)                      # the whole module as MLIR
    run = compilation.compile(combine)({"a": spec, "b": spec}, 2.0)
    out = run({"a": Tensor.from_numpy(a), "b": Tensor.from_numpy(b)}, 2.0)
    out = run({"a": a, "b": b}, 2.0)   # numpy arrays directly, no copies
    run.export("combine.mgart")        # the compiled code, to a file
    run = compilation.load("combine.mgart")   # any process: no compiling

The second call takes one spec (TensorLayout or BufferLayout) per tensor
leaf of the arguments; every other leaf is static and baked into the graph.
"""

from __future__ import annotations

import functools
import inspect
import os
import pickle
import re
import threading
import types
import weakref
from typing import (Any, Callable, Iterable, Iterator, NamedTuple, Optional,
                    Sequence, Union)

from . import _core, _trees
from ._core import Buffer, BufferLayout, Device, Layout, Tensor, TensorLayout

__all__ = [
    "CompiledCallable",
    "CompiledGraph",
    "StagedGraph",
    "artifact_weights",
    "as_layout",
    "as_subgraph",
    "compile",
    "load",
    "stage",
]


class _TraceDepth(threading.local):
    depth = 0

    def __init__(self) -> None:
        # One _BodyCache per stage() call being traced, innermost last.
        self.caches: list[_BodyCache] = []


class _BodyCache:
    """The as_subgraph bodies of one stage() call: Python's half of the
    cache (the C++ session holds the bodies). `slots` numbers the call
    identities (callable, argument tree, static values); `results` holds
    the result tree of each cached body, by its index in the staging."""

    __slots__ = ("slots", "results")

    def __init__(self) -> None:
        self.slots: dict = {}
        self.results: dict = {}


_trace_depth = _TraceDepth()


def _in_trace() -> bool:
    """Whether a stage()/compile() of this thread is tracing a function."""
    return _trace_depth.depth > 0


def _default_name(fn: Callable) -> str:
    name = getattr(fn, "__name__", type(fn).__name__)
    name = re.sub(r"\W", "_", name)
    name = re.sub(r"_+", "_", name).strip("_")
    if not name or name[0].isdigit():
        name = "graph_" + name
    return name


# The root paths of each function by argument count: inspect.signature is
# slow, and as_subgraph bodies and stage() functions are called again and
# again. Weak keys: the cache keeps no function (or its closure) alive.
_root_paths_cache: "weakref.WeakKeyDictionary[Any, dict[int, list[str]]]" = \
    weakref.WeakKeyDictionary()


def _root_paths(fn: Callable, count: int) -> list[str]:
    """The path of each positional argument: its parameter's name."""
    try:
        known = _root_paths_cache.get(fn)
    except TypeError:  # Not weakly referable, or not hashable.
        return _compute_root_paths(fn, count)
    if known is None:
        known = {}
        try:
            _root_paths_cache[fn] = known
        except TypeError:
            return _compute_root_paths(fn, count)
    paths = known.get(count)
    if paths is None:
        paths = known[count] = _compute_root_paths(fn, count)
    return list(paths)


def _compute_root_paths(fn: Callable, count: int) -> list[str]:
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    paths = []
    for i in range(count):
        if i < len(parameters) and parameters[i].kind in (
                inspect.Parameter.POSITIONAL_ONLY,
                inspect.Parameter.POSITIONAL_OR_KEYWORD):
            paths.append(parameters[i].name)
            continue
        variadic = [p for p in parameters
                    if p.kind == inspect.Parameter.VAR_POSITIONAL]
        if variadic:
            first = parameters.index(variadic[0])
            paths.append(f"{variadic[0].name}[{i - first}]")
        else:
            paths.append(f"arg{i}")
    return paths


def _trace_arguments(fn: Callable, visitor: Any, args: tuple, kwargs: dict,
                     statics: list) -> tuple[list, dict]:
    leaf = _trees.trace_spec(visitor, statics)
    paths = _root_paths(fn, len(args))
    traced_args = [_trees.map_tree(arg, path, leaf)
                   for arg, path in zip(args, paths)]
    traced_kwargs = {key: _trees.map_tree(value, key, leaf)
                     for key, value in kwargs.items()}
    return traced_args, traced_kwargs


def as_layout(value: Any) -> Layout:
    """`value` as a spec: a TensorLayout or BufferLayout is returned as is.

    A live Tensor is refused: it is a value, and taking its dims would fix
    every one of them; pass ``t.layout`` to do that on purpose."""
    if isinstance(value, (TensorLayout, BufferLayout)):
        return value
    if isinstance(value, Tensor):
        raise TypeError(_trees.LIVE_TENSOR_MESSAGE)
    raise TypeError(f"expected a TensorLayout or BufferLayout, got "
                    f"{type(value).__name__}")


class StagedGraph:
    """A staged program: the MLIR module holding the graph and the
    subgraphs it calls. ``str()`` and ``repr()`` print the whole module, as
    MAX's do; MAX's names ``graph``, ``in_layouts``, ``out_layouts``,
    ``in_tree`` and ``out_tree`` are here too."""

    def __init__(self, core: _core.StagedGraph, args: list, roots: list[str],
                 kwargs: dict, result: Any, statics: list):
        self._core = core
        self._args = args
        self._roots = roots
        self._kwargs = kwargs
        self._result = result
        self._statics = statics
        self._compiled: Optional[CompiledGraph] = None

    def __str__(self) -> str:
        return str(self._core)

    def __repr__(self) -> str:
        return str(self._core)

    def format(self, debug_info: bool = False) -> str:
        """The module as MLIR; with `debug_info`, every op's location (the
        Python file:line:column that staged it)."""
        return self._core.format(debug_info)

    @property
    def name(self) -> str:
        """The graph's symbol name."""
        return self._core.name

    @property
    def module(self) -> str:
        """The whole module as MLIR text (same as ``str()``)."""
        return str(self._core)

    @property
    def graph(self) -> str:
        """The whole module as MLIR text (MAX's name for it)."""
        return str(self._core)

    @property
    def input_layouts(self) -> list[Layout]:
        """The specs of the graph's inputs, in argument order."""
        return self._core.input_layouts

    @property
    def argument_names(self) -> list[str]:
        """The tree path of each input (``kv.a``), in argument order."""
        return list(self._core.input_paths)

    @property
    def output_layouts(self) -> list[TensorLayout]:
        """The layouts of the graph's results, in result order."""
        return self._core.output_layouts

    @property
    def result_names(self) -> list[str]:
        """The tree path of each result (``output[0]``), in result order."""
        return list(self._core.output_paths)

    @property
    def weight_names(self) -> list[str]:
        """The full name of each external weight (``constant_external``),
        in argument order. Calls do not pass them: compile binds them."""
        return list(self._core.weight_names)

    @property
    def weight_layouts(self) -> list[TensorLayout]:
        """The layout of each external weight, in the same order."""
        return self._core.weight_layouts

    @property
    def static_arguments(self) -> dict[str, Any]:
        """The static (baked-in) arguments by path."""
        return dict(self._statics)

    @property
    def reshard_report(self) -> list[str]:
        """The changes of mapping staging made, one line each: where, for
        which operand, from and to which placements, with which collectives,
        the bytes per device they cost and the alternatives they beat (the
        report of MAX's ``auto_reshard``)."""
        return list(self._core.reshard_report)

    @property
    def input_tree(self) -> tuple[list, dict]:
        """The positional and keyword argument trees, specs at the leaves."""
        return self._args, self._kwargs

    @property
    def output_tree(self) -> Any:
        """The result tree, with the layout of each result at its leaf."""
        # The traced results belong to a trace that has ended: their
        # layouts come from the graph, in result order.
        return _trees.replace_tensors(self._result,
                                      iter(self._core.output_layouts))

    # MAX's names.
    in_layouts = input_layouts
    out_layouts = output_layouts
    in_tree = input_tree
    out_tree = output_tree

    def write_bytecode(self, path: str) -> None:
        """Writes the module as MLIR bytecode."""
        self._core.write_bytecode(str(path))

    def interpret(self, *args: Any, weights: Optional[dict] = None,
                  **kwargs: Any) -> Any:
        """Runs the graph in the reference interpreter (slow, computed in
        double and rounded once per op: the oracle the compilers are tested
        against), on arguments as a compiled graph takes them and the
        external weights by full name; returns the result tree."""
        if len(args) != len(self._args) or set(kwargs) != set(self._kwargs):
            raise TypeError(f"interpret: graph '{self.name}' was staged with "
                            f"{len(self._args)} positional arguments and "
                            f"keyword arguments {sorted(self._kwargs)}")
        inputs: list = []
        for spec, arg, path in zip(self._args, args, self._roots):
            _trees.flatten_call(spec, arg, path, inputs)
        for key, spec in self._kwargs.items():
            _trees.flatten_call(spec, kwargs[key], key, inputs)
        weights = dict(weights or {})
        missing = [n for n in self.weight_names if n not in weights]
        unknown = sorted(set(weights) - set(self.weight_names))
        if missing or unknown:
            raise ValueError(f"interpret: graph '{self.name}' needs the "
                             f"weights {missing} (unknown: {unknown})")
        inputs += [weights[name] for name in self.weight_names]
        outputs = self._core.interpret(inputs)
        return _trees.replace_tensors(self._result, iter(outputs))

    def compile(self, weights: Optional[dict] = None) -> "CompiledGraph":
        """Compiles the graph for the CPU (cached by the module's content),
        binding its external weights: ``{name: array or Tensor}``."""
        if weights is not None or self.weight_names:
            return CompiledGraph(self, weights)
        if self._compiled is None:
            self._compiled = CompiledGraph(self)
        return self._compiled


class _Signature(NamedTuple):
    """A compiled callable's layouts and names, from its staged graph or,
    loaded, from its artifact (which holds them as (name, layout) pairs)."""
    input_layouts: list
    argument_names: list
    output_layouts: list
    result_names: list
    weight_names: list
    weight_layouts: list

    @staticmethod
    def of_staged(staged: "StagedGraph") -> "_Signature":
        return _Signature(staged.input_layouts, staged.argument_names,
                          staged.output_layouts, staged.result_names,
                          staged.weight_names, staged.weight_layouts)

    @staticmethod
    def of_artifact(artifact: "_core.Artifact") -> "_Signature":
        def unzip(pairs):
            return [a for a, _ in pairs], [b for _, b in pairs]
        argument_names, input_layouts = unzip(artifact.inputs)
        result_names, output_layouts = unzip(artifact.results)
        weight_names, weight_layouts = unzip(artifact.weights)
        return _Signature(input_layouts, argument_names, output_layouts,
                          result_names, weight_names, weight_layouts)


class CompiledCallable:
    """A staged graph compiled for the CPU. Call it with the argument tree
    of the staged function, live Tensors in place of specs and the same
    static values; it returns the function's result tree with live Tensors
    in place of traced ones. BufferLayout arguments are updated in place.

    A numpy array (or any CPU array with ``__dlpack__``, or a memoryview)
    may stand for a live Tensor and is used where it is, without a copy,
    tagged with its argument's device. Arrays for TensorLayout arguments are
    only read: read-only ones are fine, non-C-contiguous ones are copied
    first. An array for a BufferLayout argument is stored into, so it must
    be writable, C-contiguous and aligned, else the call raises TypeError
    (a copy would lose the stores). Results are fresh memory, never an
    input's: ``to_numpy()`` on them is a view, without a copy.

    `weights` binds the graph's external weights by full name, each checked
    once here (a missing, unknown, mis-typed or mis-shaped weight raises
    maxgraph.RuntimeError naming it). Arrays are used where they are, like
    inputs: the graph reads a C-contiguous array's memory at every call, so
    storing into it later changes the results.

    ``export(path)`` writes the compiled code to a file that ``load(path)``
    runs in any process without staging or compiling; a loaded callable
    has no ``staged`` (it is None) but the same trees, layouts and names."""

    def __init__(self, staged: StagedGraph, weights: Optional[dict] = None):
        self.staged: Optional[StagedGraph] = staged
        self._executable = _core.Executable(staged._core, dict(weights or {}))
        self._name = staged.name
        self._args = staged._args
        self._roots = staged._roots
        self._kwargs = staged._kwargs
        self._result = staged._result
        self._statics = staged._statics
        self._artifact: Optional[_core.Artifact] = None
        self._signature = _Signature.of_staged(staged)

    @property
    def name(self) -> str:
        """The graph's symbol name."""
        return self._name

    @property
    def input_layouts(self) -> list[Layout]:
        """The specs of the graph's inputs, in argument order."""
        return list(self._signature.input_layouts)

    @property
    def argument_names(self) -> list[str]:
        """The tree path of each input (``kv.a``), in argument order."""
        return list(self._signature.argument_names)

    @property
    def output_layouts(self) -> list[TensorLayout]:
        """The layouts of the graph's results, in result order."""
        return list(self._signature.output_layouts)

    @property
    def result_names(self) -> list[str]:
        """The tree path of each result (``output[0]``), in result order."""
        return list(self._signature.result_names)

    @property
    def weight_names(self) -> list[str]:
        """The full name of each external weight, in argument order."""
        return list(self._signature.weight_names)

    @property
    def weight_layouts(self) -> list[TensorLayout]:
        """The layout of each external weight, in the same order."""
        return list(self._signature.weight_layouts)

    @property
    def static_arguments(self) -> dict[str, Any]:
        """The static (baked-in) arguments by path."""
        return dict(self._statics)

    @property
    def input_tree(self) -> tuple[list, dict]:
        """The positional and keyword argument trees, specs at the leaves."""
        return self._args, self._kwargs

    @property
    def output_tree(self) -> Any:
        """The result tree, with the layout of each result at its leaf."""
        return _trees.replace_tensors(self._result,
                                      iter(self.output_layouts))

    # MAX's names.
    in_layouts = input_layouts
    out_layouts = output_layouts
    in_tree = input_tree
    out_tree = output_tree

    @property
    def weights(self) -> dict[str, Any]:
        """The bound weights by name: read-only numpy views of their memory
        (live Tensors for bfloat16 weights, which numpy cannot show)."""
        views: dict[str, Any] = {}
        for name, tensor in self._executable.weights.items():
            if tensor.dtype.name == "bfloat16":
                views[name] = tensor
                continue
            view = tensor.to_numpy().view()
            view.flags.writeable = False
            views[name] = view
        return views

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) != len(self._args):
            raise TypeError(
                f"compiled graph '{self._name}' was staged with "
                f"{len(self._args)} positional arguments, got {len(args)}")
        if set(kwargs) != set(self._kwargs):
            raise TypeError(
                f"compiled graph '{self._name}' was staged with keyword "
                f"arguments {sorted(self._kwargs)}, got {sorted(kwargs)}")
        inputs: list = []
        try:
            for spec, arg, path in zip(self._args, args, self._roots):
                _trees.flatten_call(spec, arg, path, inputs)
            for key, spec in self._kwargs.items():
                _trees.flatten_call(spec, kwargs[key], key, inputs)
        except TypeError as error:
            # Name the graph, as the C++ input checks do.
            raise TypeError(
                f"compiled graph '{self._name}': {error}") from None
        outputs = self._executable.run(inputs)
        return _trees.replace_tensors(self._result, iter(outputs))

    def execute_raw(self, *buffers: Any) -> list[Tensor]:
        """Runs on one live Tensor (or CPU array) per input, in argument
        order, without any check, as MAX's ``execute_raw``; returns the
        results as a flat list in result order. Only the number of inputs
        is checked: a tensor whose dtype, rank, dims or device does not fit
        its argument is undefined behaviour (wrong results or a crash), as
        in MAX. The weights are the bound ones."""
        return self._executable.run_raw(list(buffers))

    def profile(self) -> list[tuple[str, int, float]]:
        """Where the calls spent their time since the code was loaded or
        :meth:`reset_profile`: ``(label, calls, seconds)`` for each loop
        nest of the code (one op of the graph, or several fused), in the
        code's order. A label is the ``file:line:col`` that staged the op,
        then the function (the graph, or a subgraph) it is in. Empty unless
        the graph was compiled with ``MAXGRAPH_PROFILE=1`` in the
        environment (CPU code only; each loop nest then reads a clock twice
        and adds to two atomic counters per call)."""
        return self._executable.profile()

    def reset_profile(self) -> None:
        """Sets the counters of :meth:`profile` back to zero."""
        self._executable.reset_profile()

    def export(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the compiled code and the signature (layouts, trees,
        statics, weight names) to `path`, for ``load(path)`` in any
        process; the code is not compiled again. The weights are not in
        the file: pass them to load(). MAX's ``export_mef``.

        The argument and result trees are pickled: their static values and
        container types (dataclasses, named tuples) must pickle, and the
        types must be importable where the artifact is loaded."""
        path = os.fspath(path)
        if self._artifact is not None:
            self._executable.export(path, b"")
            return
        counter = iter(range(1 << 62))

        def mark(value: Any, _path: str) -> Any:
            if isinstance(value, (TensorLayout, BufferLayout, Tensor, Buffer)):
                return _trees.ArtifactLeaf(next(counter))
            return value

        args = [_trees.map_tree(arg, root, mark)
                for arg, root in zip(self._args, self._roots)]
        kwargs = {key: _trees.map_tree(value, key, mark)
                  for key, value in self._kwargs.items()}
        results = iter(range(1 << 62))
        result = _trees.replace_tensors(
            self._result, (_trees.ArtifactLeaf(i) for i in results))
        try:
            frontend = pickle.dumps({
                "version": _FRONTEND_VERSION, "args": args,
                "roots": list(self._roots), "kwargs": kwargs,
                "result": result, "statics": list(self._statics)})
        except Exception as error:
            raise _core.RuntimeError(
                f"export '{self._name}': the argument and result trees must "
                f"pickle to be rebuilt at load: {error}") from None
        self._executable.export(path, frontend)

    export_mef = export


# The version of the frontend's section of an artifact (the pickled trees).
_FRONTEND_VERSION = 1


def artifact_weights(
        path: Union[str, "os.PathLike[str]"]) -> dict[str, TensorLayout]:
    """The external weights the artifact at `path` needs, name to layout,
    in argument order: what to pick out of a checkpoint for ``load()``.
    Reads and verifies the file as load() does."""
    artifact = _core.Artifact.read(os.fspath(path))
    return dict(artifact.weights)


def load(path: Union[str, "os.PathLike[str]"],
         weights: Optional[dict] = None) -> CompiledCallable:
    """Loads an artifact that ``CompiledCallable.export`` wrote and returns
    a CompiledCallable that runs its code: no staging, no MLIR, no
    compiling, in any process. `weights` binds the external weights by full
    name, checked as compile() checks them.

    Raises maxgraph.RuntimeError naming the file for a missing file, one
    that is not an artifact, one of another format version, a truncated or
    corrupt one (checksum), one compiled for another CPU or MaxGraph
    version, and for missing, unknown or mis-shaped weights; and when a type
    of the pickled trees cannot be imported. Load only files you trust: the
    trees are unpickled."""
    path = os.fspath(path)
    artifact = _core.Artifact.read(path)
    executable = _core.Executable(artifact, dict(weights or {}))
    layouts = [layout for _, layout in artifact.inputs]
    if artifact.frontend:
        try:
            frontend = pickle.loads(artifact.frontend)
        except (ImportError, AttributeError) as error:
            raise _core.RuntimeError(
                f"{path}: the artifact's argument or result trees need a "
                f"type that cannot be imported here ({error}); import the "
                f"module that defines it before load()") from None
        if (not isinstance(frontend, dict)
                or frontend.get("version") != _FRONTEND_VERSION):
            raise _core.RuntimeError(
                f"{path}: the artifact's Python trees are of another "
                f"version; export it again")

        def unmark(value: Any, _path: str) -> Any:
            if isinstance(value, _trees.ArtifactLeaf):
                return layouts[value.index]
            return value

        roots = frontend["roots"]
        args = [_trees.map_tree(arg, root, unmark)
                for arg, root in zip(frontend["args"], roots)]
        kwargs = {key: _trees.map_tree(value, key, unmark)
                  for key, value in frontend["kwargs"].items()}
        result = frontend["result"]
        statics = frontend["statics"]
    else:
        # Written from C++: flat inputs and results.
        roots = [path for path, _ in artifact.inputs]
        args, kwargs = layouts, {}
        result = [_trees.ArtifactLeaf(i) for i in range(len(artifact.results))]
        statics = list(artifact.statics)
    loaded = CompiledCallable.__new__(CompiledCallable)
    loaded.staged = None
    loaded._executable = executable
    loaded._name = artifact.name
    loaded._args = args
    loaded._roots = roots
    loaded._kwargs = kwargs
    loaded._result = result
    loaded._statics = statics
    loaded._artifact = artifact
    loaded._signature = _Signature.of_artifact(artifact)
    return loaded


# The name before MAX's: kept for existing code.
CompiledGraph = CompiledCallable


class _Staging:
    """The callable that stage() returns."""

    def __init__(self, fn: Callable, name: Optional[str],
                 custom_extensions: Sequence[str], allow_subgraphs: bool,
                 signal_devices: Sequence[Device], is_device_graph: bool):
        self.fn = fn
        self.name = name
        self.custom_extensions = [str(path) for path in custom_extensions]
        self.allow_subgraphs = allow_subgraphs
        self.signal_devices = list(signal_devices)
        self.is_device_graph = is_device_graph

    def __call__(self, *args: Any, **kwargs: Any) -> StagedGraph:
        session = _core.StageSession(
            self.name or "", _default_name(self.fn), self.custom_extensions,
            self.allow_subgraphs, self.signal_devices, self.is_device_graph)
        try:
            statics: list = []
            traced_args, traced_kwargs = _trace_arguments(
                self.fn, session, args, kwargs, statics)
            session.start_body()
            _trace_depth.depth += 1
            _trace_depth.caches.append(_BodyCache())
            try:
                result = self.fn(*traced_args, **traced_kwargs)
            finally:
                _trace_depth.caches.pop()
                _trace_depth.depth -= 1
            _trees.collect_results(result, session)
            core = session.finish()
        finally:
            session.close()
        return StagedGraph(core, list(args), _root_paths(self.fn, len(args)),
                           dict(kwargs), result, statics)


def stage(fn: Callable, *, name: Optional[str] = None,
          custom_extensions: Iterable[str] = (),
          allow_subgraphs: bool = True,
          signal_devices: Iterable[Device] = (),
          is_device_graph: bool = False) -> Callable[..., StagedGraph]:
    """Traces `fn` into a graph without running it, like MAX's ``stage()``.

    The returned callable takes one spec per tensor leaf of `fn`'s arguments
    (containers are walked; other leaves are static) and returns a
    StagedGraph. Mistakes in ops raise ValueError at the line of the op."""
    return _Staging(fn, name, list(custom_extensions), allow_subgraphs,
                    list(signal_devices), is_device_graph)


def compile(fn: Callable, *, name: Optional[str] = None,
            custom_extensions: Iterable[str] = (),
            allow_subgraphs: bool = True,
            signal_devices: Iterable[Device] = (),
            is_device_graph: bool = False,
            weights: Optional[dict] = None) -> Callable[..., CompiledGraph]:
    """Stages `fn` with the given specs and compiles it for the CPU, like
    MAX's ``compile()``: ``compile(fn)(*specs)(*tensors)``. `weights` binds
    the external weights (``ops.constant_external``) by full name."""
    staging = stage(fn, name=name, custom_extensions=custom_extensions,
                    allow_subgraphs=allow_subgraphs,
                    signal_devices=signal_devices,
                    is_device_graph=is_device_graph)

    def compiling(*args: Any, **kwargs: Any) -> CompiledGraph:
        return staging(*args, **kwargs).compile(weights)

    return compiling


def _results(session: _core.SubgraphSession) -> Iterator[Tensor]:
    while True:
        yield session.next()


_TENSOR_LEAF = _trees.TENSOR_LEAF


def _cell_key(cell: Any) -> Any:
    try:
        value = cell.cell_contents
    except ValueError:  # An empty cell.
        return None
    if type(value) in (int, bool, str, bytes, type(None)):
        return (type(value), value)
    if type(value) in (float, complex):
        return (type(value), repr(value))
    return _trees.Identity(value)


def _code_identity(fn: Any) -> Any:
    """What `fn` runs, whatever it is bound to or captured: its code."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is not None:
        return code
    if inspect.isbuiltin(fn) or isinstance(fn, type):
        return _trees.Identity(fn)
    return type(fn)  # A callable object: its class's __call__ runs.


def _callable_identity(fn: Any, key: Optional[str]) -> tuple[Any, tuple]:
    """The part of a call's cache identity that `fn` decides, and the
    closure cells whose contents are read at each call.

    Without a key: the function object itself (a bound method: its object
    and function), and the contents of its closure cells, so closures over
    other values, and a function whose captured variable was rebound, trace
    again. With a key: the key and `fn`'s code, so that closures and bound
    methods of one code under one key reuse one body whatever they capture
    or are bound to (the key says that does not matter)."""
    if key is not None:
        return ("key", key, _code_identity(fn)), ()
    if isinstance(fn, types.MethodType):
        identity: Any = (_trees.Identity(fn.__self__), fn.__func__)
        cells = getattr(fn.__func__, "__closure__", None)
    elif inspect.isfunction(fn):
        identity = fn  # Functions hash and compare by identity.
        cells = fn.__closure__
    else:
        identity = _trees.Identity(fn)
        cells = None
    return identity, tuple(cells or ())


def as_subgraph(fn: Callable, *, name: Optional[str] = None,
                key: Optional[str] = None,
                prefix: Optional[str] = None) -> Callable:
    """Makes `fn` a shared subgraph: each call inside a trace emits a
    ``maxgraph.call`` to one body instead of inlining `fn`'s ops.

    The body is traced once per staging for each identity of the callable,
    argument tree (containers, their types and keys), static argument
    values (typed: ``1``, ``1.0`` and ``True`` differ) and operand types
    (dtypes, dims, devices); later such calls emit a call to it without
    running `fn`. The identity is `fn` itself (a bound method: its object
    and function) and the values in its closure cells, so distinct
    closures trace apart; with a `key`, it is the key and `fn`'s code, so
    closures of one code under one key reuse one body whatever they
    captured. State that `fn` reads otherwise (globals, attributes, a
    mutated list) is not looked at: the body traced first is reused.

    Bodies traced apart are still shared when they have the same `key`
    (and operand types), or without a key when they trace to the same IR.
    Calls nested in a body are inlined; ``stage(..., allow_subgraphs=False)``
    inlines every call. The body's weight names (``constant_external``) are
    relative: `prefix` (``"layers.3."``) is put in front of them in the
    caller, so one body serves every layer; the prefix is not part of the
    identity."""
    body_name = name or _default_name(fn)
    base_identity, cells = _callable_identity(fn, key)
    prefix = prefix or ""
    signature = _trees.signature
    reuse_cached = _core.SubgraphSession.reuse_cached
    rebuild = _trees.rebuild_results
    result_leaf = _trees.RESULT_LEAF
    state = _trace_depth

    def call(*args: Any, **kwargs: Any) -> Any:
        if not state.depth:
            return fn(*args, **kwargs)  # Outside a trace, as MAX: a call.
        cache = state.caches[-1]
        leaves: Any = args
        identity = None
        try:
            call_key: Any = None
            if not kwargs and not cells:
                # The common call: tensors only, keyed by their count (the
                # general keys are 4-tuples: no clash). A live one is a
                # TypeError of reuse_cached() or of session.reuse(), and is
                # then traced, which reports it.
                for arg in args:
                    if type(arg) is not Tensor:
                        break
                else:
                    call_key = (base_identity, len(args))
            if call_key is None:
                leaves = []
                tree = tuple([signature(arg, leaves) for arg in args])
                call_key = (base_identity,
                            tuple(map(_cell_key, cells)) if cells else None,
                            tree,
                            tuple([(keyword, signature(value, leaves))
                                   for keyword, value in kwargs.items()])
                            if kwargs else None)
            identity = cache.slots.get(call_key)
            if identity is None:
                identity = cache.slots[call_key] = f"py:{len(cache.slots)}"
                reused = None
            else:
                reused = reuse_cached(identity, leaves, key, prefix)
        except (_trees.Uncacheable, TypeError):
            identity = reused = None  # Traced; tracing reports what is wrong.
        if reused is not None:
            # The call is emitted: rebuild the first call's result tree.
            template = cache.results[reused[0]]
            if template is result_leaf:
                return reused[1][0]
            return rebuild(template, reused[1])
        session = _core.SubgraphSession(body_name, key, prefix)
        try:
            try:
                if session.reuse(identity, leaves) is not None:
                    raise AssertionError("as_subgraph: a body cached twice")
            except TypeError:
                if identity is None:
                    raise
                session.close()  # A live tensor: traced, which reports it.
                session = _core.SubgraphSession(body_name, key, prefix)
                session.reuse(None, ())
            statics: list = []
            inner_args, inner_kwargs = _trace_arguments(
                fn, session, args, kwargs, statics)
            session.start_body()
            result = fn(*inner_args, **inner_kwargs)
            _trees.collect_results(result, session)
            index = session.finish()
            if index is not None:
                cache.results[index] = _trees.result_template(result)
            return _trees.replace_tensors(result, _results(session))
        finally:
            session.close()

    call.__name__ = getattr(fn, "__name__", "subgraph")
    call.__doc__ = getattr(fn, "__doc__", None)
    return call
