# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""F.nonzero (maxgraph.nonzero, a result dim known only once it has run),
F.masked_scatter (MAX's nonzero + scatter_nd), F.rebind (a run-time dim
assertion) and F.print (an in-graph print through the runtime), against
numpy and the interpreter, staged and eager."""

import numpy as np
import pytest

import maxgraph
import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

DTYPES = {np.float32: DType.float32, np.float64: DType.float64,
          np.float16: DType.float16, np.int32: DType.int32,
          np.int64: DType.int64, np.uint8: DType.uint8, np.bool_: DType.bool}


def both(fn, *arrays, specs=None):
    """`fn` compiled and interpreted on `arrays` (numpy): the compiled
    results, after checking that the interpreter gives the same."""
    specs = specs or [TensorLayout(DTYPES[a.dtype.type], list(a.shape))
                      for a in arrays]
    compiled = compilation.compile(fn)(*specs)(*arrays)
    staged = compilation.stage(fn)(*specs)
    interpreted = staged.interpret(*arrays)
    if isinstance(compiled, (tuple, list)):
        compiled = [c.to_numpy() for c in compiled]
        for c, i in zip(compiled, interpreted):
            np.testing.assert_array_equal(c, i.to_numpy())
        return compiled
    compiled = compiled.to_numpy()
    np.testing.assert_array_equal(compiled, interpreted.to_numpy())
    return compiled


@pytest.mark.parametrize("dtype", sorted(DTYPES, key=str))
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (4, 0, 2)])
def test_nonzero_is_numpys_argwhere(dtype, shape, rng):
    x = rng.integers(-1, 2, shape).astype(dtype)
    if np.dtype(dtype).kind == "f" and x.size:
        flat = x.reshape(-1)
        flat[0], flat[-1] = np.nan, -0.0  # NaN is nonzero; -0.0 is not.
    out = both(F.nonzero, x)
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out, np.argwhere(x))


def test_nonzero_count_is_a_question_mark_dim():
    spec = TensorLayout(DType.float32, ["batch", 8])
    staged = compilation.stage(F.nonzero)(spec)
    assert "-> !maxgraph.tensor<[?, 2], si64>" in str(staged)
    # Symbolic input dims, two calls of one compiled graph with different
    # counts.
    fn = compilation.compile(F.nonzero)(spec)
    for rows in (1, 5):
        x = np.zeros((rows, 8), np.float32)
        x[:, 3] = 1
        np.testing.assert_array_equal(fn(x).to_numpy(), np.argwhere(x))


def test_nonzero_refuses_a_scalar():
    with pytest.raises(maxgraph.StagingError,
                       match=r"operand 0 has rank 0; nonzero lists "
                             r"coordinates"):
        compilation.stage(F.nonzero)(TensorLayout(DType.float32, []))


def test_nonzero_out_dim_names_or_asserts_the_count():
    spec = TensorLayout(DType.float32, [6])
    staged = compilation.stage(lambda x: F.nonzero(x, out_dim="count"))(spec)
    assert "!maxgraph.tensor<[count, 1], si64>" in str(staged)
    x = np.array([0, 1, 0, 2, 3, 0], np.float32)
    named = compilation.compile(lambda t: F.nonzero(t, out_dim="count"))(spec)
    np.testing.assert_array_equal(named(x).to_numpy(), [[1], [3], [4]])
    fixed = compilation.compile(lambda t: F.nonzero(t, out_dim=3))(spec)
    np.testing.assert_array_equal(fixed(x).to_numpy(), [[1], [3], [4]])
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"maxgraph.rebind: the input's sizes differ from "
                             r"the asserted dims 0 \(`3`\): the number of "
                             r"nonzero elements"):
        fixed(np.ones(6, np.float32))


def test_nonzero_runs_eagerly_on_a_live_tensor():
    x = np.array([[0, 2], [3, 0]], np.float32)
    out = F.nonzero(Tensor.from_numpy(x))
    np.testing.assert_array_equal(out.to_numpy(), [[0, 1], [1, 0]])


def numpy_masked_scatter(x, mask, updates):
    out = x.copy()
    selected = np.broadcast_to(mask, x.shape).astype(bool)
    out[selected] = updates.reshape(-1)
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_masked_scatter_matches_numpy(dtype, rng):
    x = rng.integers(0, 5, (3, 4)).astype(dtype)
    mask = np.array([True, False, True, True])  # broadcast over the rows
    updates = rng.integers(0, 9, (3, 3)).astype(dtype)
    out = both(F.masked_scatter, x, mask, updates)
    np.testing.assert_array_equal(out,
                                  numpy_masked_scatter(x, mask, updates))


def test_masked_scatter_takes_a_mask_of_any_dtype_or_a_list():
    x = np.arange(6, dtype=np.float32)
    updates = np.array([10, 20], np.float32)
    spec = TensorLayout(DType.float32, [6])
    numbers = np.array([0, 2.5, 0, 0, -1, 0], np.float32)  # nonzero selects
    out = both(F.masked_scatter, x, numbers, updates)
    np.testing.assert_array_equal(out, [0, 10, 2, 3, 20, 5])
    listed = compilation.compile(
        lambda t, u: F.masked_scatter(t, [0, 1, 0, 0, 1, 0], u))(
            spec, TensorLayout(DType.float32, [2]))
    np.testing.assert_array_equal(listed(x, updates).to_numpy(),
                                  [0, 10, 2, 3, 20, 5])


def test_masked_scatter_with_the_wrong_update_count_is_a_run_time_error():
    fn = compilation.compile(F.masked_scatter)(
        TensorLayout(DType.float32, [4]), TensorLayout(DType.bool, [4]),
        TensorLayout(DType.float32, [3]))
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"maxgraph.scatter_nd: the updates' dims differ "
                             r"from the indices'"):
        fn(np.zeros(4, np.float32), np.array([1, 1, 0, 0], bool),
           np.ones(3, np.float32))


def test_masked_scatter_eager_is_torchs_masked_scatter():
    x = np.zeros((2, 3), np.float32)
    mask = np.array([[True, False, True], [False, True, False]])
    source = np.array([1, 2, 3], np.float32)
    out = F.masked_scatter(Tensor.from_numpy(x), Tensor.from_numpy(mask),
                           Tensor.from_numpy(source))
    np.testing.assert_array_equal(out.to_numpy(),
                                  [[1, 0, 2], [0, 3, 0]])


def test_rebind_asserts_the_dims_when_the_graph_runs():
    specs = (TensorLayout(DType.float32, ["rows"]),
             TensorLayout(DType.float32, ["n"]))

    def fn(x, y):
        # x's nonzero count must be y's length.
        return F.rebind(F.nonzero(x), ["n", 1], message="one per y") , y

    compiled = compilation.compile(fn)(*specs)
    staged = compilation.stage(fn)(*specs)
    x = np.array([1, 0, 2], np.float32)
    indices, _ = compiled(x, np.zeros(2, np.float32))
    np.testing.assert_array_equal(indices.to_numpy(), [[0], [2]])
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"maxgraph.rebind: the input's sizes differ from "
                             r"the asserted dims 0 \(`n`\): one per y"):
        compiled(x, np.zeros(3, np.float32))
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"interpret: maxgraph.rebind: dim 0 is 2 but the "
                             r"rebind asserts `n` \(3\): one per y"):
        staged.interpret(x, np.zeros(3, np.float32))


def test_rebind_refuses_what_could_only_fail_and_layout():
    spec = TensorLayout(DType.float32, [4])
    with pytest.raises(maxgraph.StagingError,
                       match=r"result dim 0 is `5` but the input's is `4`, so "
                             r"the assertion would fail"):
        compilation.stage(lambda x: F.rebind(x, [5]))(spec)
    with pytest.raises(maxgraph.StagingError,
                       match=r"changes the rank from 1 to 2"):
        compilation.stage(lambda x: F.rebind(x, [4, 1]))(spec)
    with pytest.raises(TypeError, match=r"rebind: layout"):
        compilation.stage(lambda x: F.rebind(x, [4], layout="RSCF"))(spec)


def test_print_writes_when_the_compiled_graph_runs(capfd):
    def fn(x):
        F.print("start")
        F.print(x, label="x")
        y = x * 2
        F.print(y)  # MAX's default label
        return y

    spec = TensorLayout(DType.float32, [2, 2])
    compiled = compilation.compile(fn)(spec)
    capfd.readouterr()
    x = np.array([[1, -0.0], [np.nan, 4]], np.float32)
    compiled(x)
    lines = capfd.readouterr().out.splitlines()
    assert lines == ["start", "x: f32[2, 2] [[1, -0], [NaN, 4]]",
                     "debug_tensor: f32[2, 2] [[2, -0], [NaN, 8]]"]
    # Each run prints again; the interpreter prints the same lines.
    compiled(x)
    assert capfd.readouterr().out.splitlines() == lines
    compilation.stage(fn)(spec).interpret(x)
    assert capfd.readouterr().out.splitlines() == lines


def test_print_summarizes_large_tensors_as_numpy(capfd):
    x = np.arange(2000, dtype=np.int32).reshape(2, 1000)
    compiled = compilation.compile(lambda t: F.print(t, "big") or t)(
        TensorLayout(DType.int32, [2, 1000]))
    capfd.readouterr()
    compiled(x)
    assert capfd.readouterr().out.strip() == (
        "big: si32[2, 1000] [[0, 1, 2, ..., 997, 998, 999], "
        "[1000, 1001, 1002, ..., 1997, 1998, 1999]]")


def test_print_on_a_live_tensor_and_a_string_runs_now(capfd):
    F.print(Tensor.from_numpy(np.array([True, False])), label="flags")
    F.print("plain text")
    assert capfd.readouterr().out.splitlines() == [
        "flags: i1[2] [true, false]", "plain text"]


def test_inplace_custom_writes_into_a_buffer(tmp_path):
    # A kernel taking the buffer as a memref and doubling it in place.
    library = tmp_path / "kernels.mlir"
    library.write_text(
        "func.func @double_in_place(%b: memref<4xf32>) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c4 = arith.constant 4 : index\n"
        "  scf.for %i = %c0 to %c4 step %c1 {\n"
        "    %v = memref.load %b[%i] : memref<4xf32>\n"
        "    %d = arith.addf %v, %v : f32\n"
        "    memref.store %d, %b[%i] : memref<4xf32>\n"
        "  }\n"
        "  return\n}\n")
    from maxgraph.driver import CPU
    from maxgraph.sharding import BufferLayout

    def fn(buf, x):
        F.buffer_store(buf, x)
        F.inplace_custom("double_in_place", CPU(), [buf])
        return F.buffer_load(buf) + 1

    specs = (BufferLayout(DType.float32, [4]),
             TensorLayout(DType.float32, [4]))
    compiled = compilation.compile(fn, custom_extensions=[str(library)])(
        *specs)
    buf = Tensor.from_numpy(np.zeros(4, np.float32))
    x = np.array([1, 2, 3, 4], np.float32)
    np.testing.assert_array_equal(compiled(buf, x).to_numpy(), [3, 5, 7, 9])
    np.testing.assert_array_equal(buf.to_numpy(), [2, 4, 6, 8])
    with pytest.raises(ValueError, match=r"inplace_custom: no value of "
                       r"kernel 'double_in_place' is a Buffer"):
        compilation.stage(
            lambda t: F.inplace_custom("double_in_place", CPU(), [t]),
            custom_extensions=[str(library)])(specs[1])
