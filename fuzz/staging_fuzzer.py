# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Fuzzes the Python staging API with hypothesis.

Random programs (random specs: dtypes, shapes with 0, 1, symbolic, algebraic
and `?` dims, devices with wrong indices; then random sequences of op calls
on the traced tensors, with random axes, shapes and ranges and now and then
an argument of the wrong type, a tensor of a finished trace or a call
outside any trace; and numpy arrays of every numpy dtype, in both byte
orders and strided, through every way data enters: from_numpy, DLPack, the
buffer protocol, constants, number operands and a compiled graph's call)
are run inside `compilation.stage`. Every call must either succeed or raise
one of the package's documented errors (TypeError, or ValueError, of which
maxgraph.StagingError is one); any other exception, an error message that
leaks C++ (`std::`, `basic_string`), or a crash is a bug. Staged graphs are
printed.

    PYTHONPATH=build/python .venv/bin/python fuzz/staging_fuzzer.py \
        [--seconds S] [--examples N] [--seed S] [--replay FILE]

Runs batches of examples until S seconds (default 20) or N examples have
run, then prints `staging_fuzzer: N executions, ...`. Before each example
its program is written to $MAXGRAPH_FUZZ_WORKDIR/staging-last-example.txt
(default: the system temp directory) so that a crash (faulthandler prints
the Python stack) leaves its reproducer there; `--replay FILE` runs such a
file again. A failing example is shrunk by hypothesis and printed.
"""

import argparse
import faulthandler
import math
import os
import sys
import tempfile
import time
import traceback

import numpy
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

import maxgraph
from maxgraph import compilation, functional, ops
from maxgraph.tensor import Tensor
from maxgraph.driver import CPU, GPU
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout

DTYPES = ["float32", "float16", "bfloat16", "float64", "bool", "int8",
          "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
DIMS = [0, 1, 1, 2, 3, 4, "n", "m", "n", "?", "n + 1", "2 * n", -1, 2**40]
# Stand-ins for values that are not literals (programs stay literals, so
# that a reproducer file can be read back with ast.literal_eval).
WRONG = ["<none>", "<object>", "x", 1.5, [], [1, "a"], 2**70, -(2**70),
         "<nan>", "<dtype>", "<device>", "<layout>", "<stale>", True]

BINARY = ["add", "sub", "mul", "div", "mod", "pow", "max", "min",
          "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "equal", "not_equal", "less",
          "less_equal", "greater", "greater_equal"]
UNARY = ["neg", "abs", "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos",
         "tanh", "erf", "floor", "ceil", "round", "sigmoid", "relu", "gelu",
         "silu", "logical_not", "bitwise_not", "is_nan", "is_inf"]
REDUCE = ["reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
          "reduce_mean"]
AXIS_OPS = ["argmax", "argmin", "cumsum", "softmax", "log_softmax", "top_k",
            "pad"]
COLLECTIVES = ["allreduce_sum", "allreduce_max", "allreduce_min",
               "allreduce_prod", "allgather", "reduce_scatter_sum",
               "broadcast"]
OPERATORS = ["+", "-", "*", "/", "%", "**", "@", "<", "==", ">=", "neg",
             "invert", "T", "getitem"]
OTHER = ["select", "cast", "constant", "matmul", "layer_norm", "rms_norm",
         "reshape", "transpose", "broadcast_to", "concat", "split", "slice",
         "gather", "transfer", "custom", "store"]
# Ways numpy data enters: a live tensor, DLPack, the buffer protocol, a
# staged constant (two APIs), a number operand, a compiled graph's input.
IMPORTS = ["from_numpy", "from_dlpack", "memoryview", "F.constant",
           "ops.constant", "operand", "call"]
# Every numpy dtype (np.sctypeDict's), in both byte orders, and a structured
# one, as the strings numpy.dtype reads back.
NUMPY_DTYPES = sorted({f"{order}{numpy.dtype(t).str[1:]}"
                       for t in set(numpy.sctypeDict.values())
                       for order in "<>|"} |
                      {"<structured>", "<U3", ">U3", "|S3", "|V4",
                       "<M8[ns]", ">m8[s]"})
DEVICES = ["cpu:0", "cpu:0", "cpu:1", "gpu:0", "cpu:-1", "gpu:-1", "gpu:7",
           "gpu:2147483648", "cpu:18446744073709551616"]

# A finished trace's tensor, kept from one example to the next.
_stale = []


def leaks_cpp(message):
    return any(word in message for word in ("std::", "basic_string",
                                            "_M_", "__cxx11", "terminate"))


class Bug(Exception):
    """An outcome that no input may have."""


# Strategies: programs are nested tuples and lists of literals.

small_int = st.integers(-5, 5)
axis = st.one_of(small_int, small_int, st.sampled_from(WRONG),
                 st.lists(small_int, max_size=4))
dim = st.one_of(st.sampled_from(DIMS), st.integers(0, 6))
shape = st.lists(dim, max_size=4)
operand = st.integers(0, 1000)  # an index into the pool of tensors
scalar = st.one_of(st.integers(-3, 3), st.floats(allow_nan=False,
                                                 width=32),
                   st.sampled_from([0, 2**63 - 1, -(2**63), 2**64, "<nan>",
                                    True]))
value = st.one_of(operand.map(lambda i: ("t", i)), scalar.map(lambda v:
                                                                ("v", v)),
                  st.sampled_from(WRONG).map(lambda v: ("v", v)))
index_item = st.one_of(small_int, st.just("..."), st.just("<none>"),
                       st.tuples(st.one_of(small_int, st.none()),
                                 st.one_of(small_int, st.none()),
                                 st.one_of(st.integers(-2, 3), st.none())))
range_ = st.tuples(st.one_of(st.integers(-8, 8), st.none()),
                   st.one_of(st.integers(-8, 8), st.none()),
                   st.one_of(st.integers(-2, 3), st.none()))


@st.composite
def op_call(draw):
    kind = draw(st.sampled_from(["binary", "unary", "reduce", "axis", "other",
                                 "other", "operator", "collective",
                                 "import"]))
    if kind == "import":
        return ("import", [draw(value)],
                {"entry": draw(st.sampled_from(IMPORTS)),
                 "dtype": draw(st.sampled_from(NUMPY_DTYPES)),
                 "shape": draw(st.lists(st.integers(0, 3), max_size=3)),
                 "strided": draw(st.booleans())})
    if kind == "binary":
        return (draw(st.sampled_from(BINARY)), [draw(value), draw(value)], {})
    if kind == "unary":
        return (draw(st.sampled_from(UNARY)), [draw(value)], {})
    if kind == "reduce":
        return (draw(st.sampled_from(REDUCE)), [draw(value)],
                {"axis": draw(axis), "keep_dims": draw(st.booleans())})
    if kind == "axis":
        name = draw(st.sampled_from(AXIS_OPS))
        kwargs = {"axis": draw(axis)}
        if name == "cumsum":
            kwargs.update(exclusive=draw(st.booleans()),
                          reverse=draw(st.booleans()))
        elif name in ("argmax", "argmin"):
            kwargs["keep_dims"] = draw(st.booleans())
        elif name == "top_k":
            kwargs["k"] = draw(st.integers(-1, 5))
        elif name == "pad":
            # pad has no axis: paddings (some negative, some miscounted),
            # a mode (some unknown) and a value.
            del kwargs["axis"]
            kwargs.update(
                paddings=draw(st.lists(st.integers(-1, 3), max_size=8)),
                mode=draw(st.sampled_from(["constant", "reflect", "edge",
                                           "wrap"])),
                value=draw(st.sampled_from([0.0, 1.0, -2.5, 300.0])))
        return (name, [draw(value)], kwargs)
    if kind == "operator":
        name = draw(st.sampled_from(OPERATORS))
        if name == "getitem":
            return (name, [draw(value)],
                    {"index": draw(st.lists(index_item, max_size=4))})
        return (name, [draw(value), draw(value)], {})
    if kind == "collective":
        name = draw(st.sampled_from(COLLECTIVES))
        kwargs = {}
        if name in ("allgather", "reduce_scatter_sum"):
            kwargs["axis"] = draw(axis)
        elif name == "broadcast":
            kwargs["root"] = draw(st.integers(-1, 3))
        return (name, draw(st.lists(value, max_size=3)), kwargs)
    name = draw(st.sampled_from(OTHER))
    if name == "select":
        return (name, [draw(value), draw(value), draw(value)], {})
    if name == "cast":
        return (name, [draw(value)],
                {"dtype": draw(st.one_of(st.sampled_from(DTYPES),
                                         st.sampled_from(WRONG)))})
    if name == "constant":
        literal = st.one_of(scalar, st.lists(scalar, max_size=4),
                            st.lists(st.lists(scalar, max_size=3),
                                     max_size=3))
        return (name, [], {"value": draw(literal),
                           "dtype": draw(st.sampled_from(DTYPES))})
    if name in ("matmul", "gather"):
        kwargs = {"axis": draw(axis)} if name == "gather" else {}
        return (name, [draw(value), draw(value)], kwargs)
    if name == "layer_norm":
        return (name, [draw(value), draw(value), draw(value)],
                {"epsilon": draw(st.sampled_from([1e-5, 0.0, -1.0, "<nan>"]))})
    if name == "rms_norm":
        return (name, [draw(value), draw(value)], {})
    if name in ("reshape", "broadcast_to"):
        return (name, [draw(value)],
                {"shape": draw(st.one_of(shape, st.sampled_from(WRONG)))})
    if name == "transpose":
        return (name, [draw(value)],
                {"permutation": draw(st.lists(small_int, max_size=4))})
    if name == "concat":
        return (name, draw(st.lists(value, max_size=3)), {"axis": draw(axis)})
    if name == "split":
        return (name, [draw(value)],
                {"sizes": draw(st.one_of(st.lists(st.integers(-1, 4),
                                                  max_size=4),
                                         st.integers(-1, 4),
                                         st.sampled_from(WRONG))),
                 "axis": draw(axis)})
    if name == "slice":
        return (name, [draw(value)],
                {"ranges": draw(st.lists(st.one_of(range_, st.sampled_from(
                    WRONG)), max_size=4))})
    if name == "transfer":
        return (name, [draw(value)],
                {"device": draw(st.sampled_from(DEVICES + ["cpu:2",
                                                           "<none>"]))})
    if name == "store":
        return (name, [draw(value), draw(value)], {})
    return ("custom", [draw(value)],
            {"kernel": draw(st.sampled_from(["", "nope", "add"]))})


spec = st.tuples(st.sampled_from(DTYPES), shape,
                 st.sampled_from(["tensor", "tensor", "tensor", "buffer"]),
                 st.sampled_from(DEVICES))
program = st.fixed_dictionaries({
    "specs": st.lists(spec, max_size=4),
    "ops": st.lists(op_call(), max_size=12),
    "results": st.lists(operand, max_size=3),
    "outside_trace": st.booleans(),
})


# Running a program.

def device(text):
    kind, number = text.split(":")
    return CPU(int(number)) if kind == "cpu" else GPU(int(number))


def concrete(value, pool):
    """The Python value a literal of a program stands for."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "t":
        return pool[value[1] % len(pool)] if pool else None
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "v":
        value = value[1]
    if isinstance(value, list):
        return [concrete(v, pool) for v in value]
    if isinstance(value, tuple):
        return tuple(concrete(v, pool) for v in value)
    special = {"<none>": None, "<object>": object(), "<nan>": math.nan,
               "<dtype>": DType.int32, "<device>": CPU(),
               "<layout>": TensorLayout(DType.float32, [2]), "...": ...}
    if value == "<stale>":
        return _stale[-1] if _stale else None
    if isinstance(value, str) and value in special:
        return special[value]
    return value


def numpy_array(dtype, shape, strided):
    """An array of numpy's `dtype` (a NUMPY_DTYPES string), C-contiguous or
    every other element of a larger one."""
    if dtype == "<structured>":
        dtype = numpy.dtype([("a", numpy.int32), ("b", numpy.float32)])
    dtype = numpy.dtype(dtype)
    full = list(shape)
    if strided and full:
        full[-1] *= 2
    array = numpy.zeros(full, dtype)
    if dtype.kind in "biuf":
        array[...] = numpy.arange(array.size).reshape(full) % 3
    return array[..., ::2] if strided and full else array


_identity = []


def identity():
    """A compiled graph (x -> x over float32 [?]) for calls, made once."""
    if not _identity:
        _identity.append(compilation.compile(lambda x: x)(
            TensorLayout(DType.float32, ["?"])))
    return _identity[0]


def import_array(kwargs, pool):
    array = numpy_array(kwargs["dtype"], kwargs["shape"], kwargs["strided"])
    entry = kwargs["entry"]
    if entry == "from_numpy":
        return Tensor.from_numpy(array)
    if entry == "from_dlpack":
        return Tensor.from_dlpack(array)
    if entry == "memoryview":
        return Tensor.from_numpy(memoryview(array))
    if entry == "F.constant":
        return functional.constant(array)
    if entry == "ops.constant":
        return ops.constant(array, DType.float32)
    if entry == "operand":
        return pool[0] + (array.reshape(-1)[0] if array.size else array)
    result = identity()(array)
    if array.dtype == numpy.float32 and array.ndim == 1:
        if not numpy.array_equal(result.to_numpy(), array):
            raise Bug(f"call: {array!r} came back as {result.to_numpy()!r}")
    return None


def call(name, args, kwargs, pool=()):
    if name == "import":
        return import_array(kwargs, pool)
    if name in BINARY or name in UNARY or name in REDUCE or name in AXIS_OPS:
        return getattr(ops, name)(*args, **kwargs)
    if name in COLLECTIVES:
        return getattr(ops, name)(args, **kwargs)
    if name == "concat":
        return ops.concat(args, **kwargs)
    if name == "cast":
        dtype = kwargs["dtype"]
        return ops.cast(args[0], getattr(DType, dtype)
                        if isinstance(dtype, str) and hasattr(DType, dtype)
                        else dtype)
    if name == "constant":
        return ops.constant(kwargs["value"], getattr(DType, kwargs["dtype"]))
    if name == "transfer":
        target = kwargs["device"]
        return ops.transfer(args[0], device(target)
                            if isinstance(target, str) else target)
    if name == "store":
        if not isinstance(args[0], maxgraph.tensor.Buffer):
            raise TypeError("store needs a buffer")  # not the package's
        return args[0].store(args[1])
    if name == "custom":
        return ops.custom(kwargs["kernel"], args,
                          [TensorLayout(DType.float32, [2])])
    if name in ("select", "matmul", "gather", "layer_norm", "rms_norm",
                "reshape", "broadcast_to", "transpose", "split", "slice"):
        return getattr(ops, name)(*args, **kwargs)
    a = args[0]
    b = args[1] if len(args) > 1 else None
    if name == "getitem":
        return a[tuple(kwargs["index"])]
    if name == "neg":
        return -a
    if name == "invert":
        return ~a
    if name == "T":
        return a.T
    import operator
    return {"+": operator.add, "-": operator.sub, "*": operator.mul,
            "/": operator.truediv, "%": operator.mod, "**": operator.pow,
            "@": operator.matmul, "<": operator.lt, "==": operator.eq,
            ">=": operator.ge}[name](a, b)


def guarded(what, fn, allowed=(TypeError, ValueError)):
    """Runs fn(); a documented error is fine, anything else is a Bug."""
    try:
        return True, fn()
    except Bug:
        raise
    except allowed as error:
        if leaks_cpp(str(error)):
            raise Bug(f"{what}: {type(error).__name__} leaks C++: {error}")
        return False, error
    except BaseException as error:  # noqa: B902 - everything else is a bug
        raise Bug(f"{what}: undocumented {type(error).__module__}."
                  f"{type(error).__name__}: {error}\n"
                  + traceback.format_exc()) from error


def add_results(pool, result):
    if isinstance(result, maxgraph.tensor.Tensor):
        pool.append(result)
    elif isinstance(result, (list, tuple)):
        pool.extend(r for r in result
                    if isinstance(r, maxgraph.tensor.Tensor))


def run_program(prog):
    """Stages `prog`; raises Bug for an outcome no input may have."""
    specs = []
    for dtype, dims, kind, where in prog["specs"]:
        layout = BufferLayout if kind == "buffer" else TensorLayout
        ok, made = guarded(f"{layout.__name__}({dtype}, {dims})",
                           lambda: layout(getattr(DType, dtype),
                                          [concrete(d, []) for d in dims],
                                          device(where)))
        if ok:
            specs.append(made)

    def body(*inputs):
        pool = list(inputs)
        for value in inputs:
            if isinstance(value, maxgraph.tensor.Buffer):
                guarded("Buffer.load", lambda: add_results(pool,
                                                           value.load()))
        if not pool:
            add_results(pool, ops.constant(1.0))
        for name, operands, kwargs in prog["ops"]:
            args = [concrete(v, pool) for v in operands]
            # An operator on two Python numbers is Python's (3 ** 2**70
            # would run for ever): one side is a tensor.
            # Unary operators are Python's own on a non-tensor, too.
            if name in OPERATORS and args and (
                    name in ("neg", "invert", "T", "getitem")
                    or not any(isinstance(a, maxgraph.tensor.Tensor)
                               for a in args)) and not isinstance(
                                   args[0], maxgraph.tensor.Tensor):
                args[0] = pool[0]
            kw = {k: concrete(v, pool) for k, v in kwargs.items()}
            # Indexing raises IndexError too, as Python's sequences do.
            # and `.T` of a Buffer is an AttributeError.
            allowed = (TypeError, ValueError) + (
                (IndexError,) if name == "getitem" else ()) + (
                (AttributeError,) if name == "T" else ())
            # numpy refuses some buffers itself (memoryview of datetimes:
            # ValueError), and a dtype numpy has not (TypeError).
            ok, result = guarded(f"{name}({args}, {kw})",
                                 lambda: call(name, args, kw, pool), allowed)
            if ok:
                add_results(pool, result)
        if pool:
            _stale.append(pool[-1])
            del _stale[:-4]
        results = [pool[i % len(pool)] for i in prog["results"]]
        return results[0] if len(results) == 1 else results

    ok, staged = guarded("stage", lambda: compilation.stage(body)(*specs))
    if ok:
        guarded("print", lambda: str(staged))
        guarded("layouts", lambda: (staged.input_layouts,
                                    staged.output_layouts))
    # The graph goes: its tensors must not be read after it.
    del staged
    if prog["outside_trace"] and _stale:
        # Ops on a tensor whose trace has finished, outside any trace.
        guarded("op outside a trace", lambda: ops.add(_stale[-1], 1))
        guarded("print a stale tensor", lambda: repr(_stale[-1]))


executions = 0


def last_example_path():
    directory = os.environ.get("MAXGRAPH_FUZZ_WORKDIR",
                               tempfile.gettempdir())
    return os.path.join(directory, "staging-last-example.txt")


def make_test(examples, batch_seed):
    @seed(batch_seed)
    @settings(max_examples=examples, deadline=None, database=None,
              phases=[Phase.generate, Phase.shrink],
              suppress_health_check=list(HealthCheck))
    @given(program)
    def test(prog):
        global executions
        executions += 1
        with open(last_example_path(), "w") as f:
            f.write(repr(prog) + "\n")
        run_program(prog)

    return test


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--examples", type=int, default=0)
    parser.add_argument("--seed", type=int, default=None,
                        help="batch i runs with hypothesis seed SEED + i "
                        "(default: random)")
    parser.add_argument("--replay")
    options = parser.parse_args()
    faulthandler.enable()
    if options.replay:
        import ast
        with open(options.replay) as f:
            run_program(ast.literal_eval(f.read()))
        print("staging_fuzzer: replayed", options.replay)
        return 0
    start = time.monotonic()
    batch = 200
    first_seed = options.seed
    if first_seed is None:
        first_seed = int.from_bytes(os.urandom(4), "little")
    batch_seed = first_seed
    while time.monotonic() - start < options.seconds and (
            not options.examples or executions < options.examples):
        try:
            make_test(batch, batch_seed)()
            batch_seed += 1
        except Exception:  # the shrunk example is printed by hypothesis
            traceback.print_exc()
            print(f"staging_fuzzer: FAILED after {executions} executions "
                  f"in {time.monotonic() - start:.1f} s")
            return 1
    elapsed = time.monotonic() - start
    print(f"staging_fuzzer: {executions} executions in {elapsed:.1f} s "
          f"({executions / elapsed:.0f}/s), seeds {first_seed}.."
          f"{batch_seed}, no failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
