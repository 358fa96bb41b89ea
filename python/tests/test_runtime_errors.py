"""Errors that compiled code finds as it runs: a maxgraph.RuntimeError that
names the op and the user's line, raised by the compiled callable; the
callable stays usable. Semantics in docs/Spec.md, "Run-time errors"."""

import inspect
import re

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout


def line_of(marker):
    """`file:line` of the line of this file that holds `marker`."""
    source, start = inspect.getsourcelines(inspect.getmodule(line_of))
    for number, text in enumerate(source, start or 1):
        if marker in text and "line_of(" not in text:
            return f"{re.escape(__file__)}:{number}:"
    raise AssertionError(marker)


def test_gather_index_out_of_range_is_an_error_at_the_op():
    def fn(table, indices):
        return ops.gather(table, indices, 0)  # the gather

    run = compilation.compile(fn)(TensorLayout(DType.float32, [5]),
                                  TensorLayout(DType.int64, ["k"]))
    table = np.arange(5, dtype=np.float32)
    for bad in ([5], [0, -6], [2**40]):
        with pytest.raises(maxgraph.RuntimeError) as info:
            run(table, np.array(bad, np.int64))
        message = str(info.value)
        assert re.search(line_of("# the gather") + r"\d+: maxgraph.gather: an "
                         "index is out of range of the axis", message), message
    # The same callable runs again, and the edges of the axis are in range.
    np.testing.assert_array_equal(
        run(table, np.array([-5, 4, -1], np.int64)).to_numpy(), [0, 4, 4])


@pytest.mark.parametrize("op", ["reduce_max", "reduce_min", "argmax",
                                "argmin"])
def test_reductions_without_identity_refuse_empty_axes(op):
    def fn(x):
        if op.startswith("reduce"):
            return getattr(ops, op)(x, 1)
        return getattr(ops, op)(x, 1)

    run = compilation.compile(fn)(TensorLayout(DType.float32, ["m", "n"]))
    x = np.array([[3, 1, 2], [0, 5, 4]], np.float32)
    expected = {"reduce_max": [3, 5], "reduce_min": [1, 0], "argmax": [0, 1],
                "argmin": [1, 0]}[op]
    np.testing.assert_array_equal(run(x).to_numpy().reshape(-1), expected)
    with pytest.raises(maxgraph.RuntimeError,
                       match=f"maxgraph.{op}: reduces an empty axis"):
        run(np.zeros((2, 0), np.float32))
    # Nothing to produce from nothing is fine.
    assert run(np.zeros((0, 0), np.float32)).to_numpy().size == 0


def test_unknown_dims_broadcast_like_numpy_at_run_time():
    run = compilation.compile(lambda a, b: a * b)(
        TensorLayout(DType.float32, ["?", 3]),
        TensorLayout(DType.float32, [4, 3]))
    b = np.arange(12, dtype=np.float32).reshape(4, 3)
    for a in (np.full((1, 3), 2, np.float32),
              np.arange(12, dtype=np.float32).reshape(4, 3)):
        np.testing.assert_array_equal(run(a, b).to_numpy(), a * b)
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"maxgraph.mul: dim 0 \(`\?`\) of operand 0 is "
                       "neither 1 nor the size of result dim 0"):
        run(np.ones((2, 3), np.float32), b)


def test_slices_of_symbolic_dims_check_the_bounds_they_assumed():
    def fn(x):
        return x[2:5]

    run = compilation.compile(fn)(TensorLayout(DType.float32, ["seq"]))
    np.testing.assert_array_equal(run(np.arange(6, dtype=np.float32))
                                  .to_numpy(), [2, 3, 4])
    with pytest.raises(maxgraph.RuntimeError,
                       match="maxgraph.slice: the range of dim 0 selects "
                       "another number of elements than result dim `3`"):
        run(np.arange(4, dtype=np.float32))
