"""A MAX user's code with its imports renamed: written against MAX's names
only (max.experimental.* -> maxgraph.*), checked against numpy."""

import re

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.driver import CPU
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor


def test_a_small_block_ported_from_max(rng):
    def block(x, w, gamma):
        h = F.matmul(x, F.transpose(w, 0, 1))
        h = F.rms_norm(h, gamma, 1e-6)
        return F.softmax(F.silu(h), axis=-1), F.sum(h, axis=0)

    x = rng.standard_normal((3, 4)).astype(np.float32)
    w = rng.standard_normal((5, 4)).astype(np.float32)
    gamma = np.ones(5, np.float32)
    run = compilation.compile(block)(
        TensorLayout(DType.float32, ["batch", 4], CPU()),
        TensorLayout(DType.float32, [5, 4], CPU()),
        TensorLayout(DType.float32, [5], CPU()))
    probabilities, total = run(x, w, gamma)
    h = x @ w.T
    h = h / np.sqrt((h * h).mean(-1, keepdims=True) + 1e-6)
    s = h / (1 + np.exp(-h))
    e = np.exp(s - s.max(-1, keepdims=True))
    np.testing.assert_allclose(probabilities.to_numpy(),
                               e / e.sum(-1, keepdims=True), rtol=1e-4)
    np.testing.assert_allclose(total.to_numpy(), h.sum(0, keepdims=True),
                               rtol=1e-4, atol=1e-5)


def test_permute_orders_every_axis_transpose_swaps_two(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)

    def fn(t):
        return F.permute(t, [1, 2, 0]), F.transpose(t, -1, 0), t.T

    permuted, swapped, t = compilation.compile(fn)(
        TensorLayout(DType.float32, [2, 3, 4], CPU()))(x)
    np.testing.assert_array_equal(permuted.to_numpy(),
                                  np.transpose(x, (1, 2, 0)))
    np.testing.assert_array_equal(swapped.to_numpy(), np.swapaxes(x, 0, 2))
    np.testing.assert_array_equal(t.to_numpy(), np.swapaxes(x, 1, 2))


def test_staged_graph_names():
    def fn(a, b):
        return {"sum": a + b}

    spec = TensorLayout(DType.float32, ["n", 2], CPU())
    staged = compilation.stage(fn)(spec, b=spec)
    # repr and str are the MLIR module, as MAX's; so is .graph.
    assert re.search(r"maxgraph\.graph @fn<n>\(", repr(staged)), repr(staged)
    assert str(staged) == repr(staged) == str(staged.graph)
    assert staged.in_layouts == [spec, spec]
    assert staged.out_layouts == [spec]
    assert staged.in_tree == ([spec], {"b": spec})
    assert staged.out_tree == {"sum": spec}
    compiled = staged.compile()
    assert isinstance(compiled, compilation.CompiledCallable)
    out = compiled(np.ones((3, 2), np.float32), b=np.ones((3, 2), np.float32))
    np.testing.assert_array_equal(out["sum"].to_numpy(), np.full((3, 2), 2))
    assert compilation.as_layout(spec) is spec


def test_as_subgraph_outside_a_trace_calls_the_function():
    calls = []

    @compilation.as_subgraph
    def double(x):
        calls.append(x)
        return x * 2

    assert double(21) == 42
    assert calls == [21]
    # Inside a trace, it is a call to one shared body.
    staged = compilation.stage(lambda t: double(double(t)))(
        TensorLayout(DType.float32, [2], CPU()))
    assert str(staged).count("maxgraph.call") == 2


def test_live_tensor_creation_and_methods():
    t = Tensor.full([2, 3], 1.5)
    assert t.dtype == DType.float32 and t.shape == [2, 3]
    assert t.rank == 2 and t.num_elements == 6
    np.testing.assert_array_equal(Tensor.zeros([2], dtype=DType.int32)
                                  .to_numpy(), [0, 0])
    assert Tensor.ones([1]).item() == 1.0
    with pytest.raises(ValueError, match="Tensor.item: the tensor has 6 "
                       "elements, not 1"):
        t.item()
    # Methods on live tensors run eagerly.
    x = Tensor.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(x.sum().to_numpy(), [[3], [12]])
    np.testing.assert_array_equal(x.max(axis=0).to_numpy(), [[3, 4, 5]])
    np.testing.assert_array_equal(x.T.to_numpy(), np.arange(6).reshape(2, 3).T)
    np.testing.assert_array_equal(x.permute([1, 0]).to_numpy(),
                                  x.transpose(0, 1).to_numpy())
    np.testing.assert_array_equal(x.reshape([3, 2]).to_numpy(),
                                  np.arange(6).reshape(3, 2))
    moved = x.to(CPU(1))
    assert moved.device == CPU(1) and x.to(CPU()) is x
    np.testing.assert_array_equal(moved.to_numpy(), x.to_numpy())


def test_traced_tensor_methods(rng):
    x = rng.standard_normal((2, 3)).astype(np.float32)

    def fn(t):
        assert t.num_elements == 6
        return t.mean(axis=0), t.reshape([3, 2]).transpose(0, 1), \
            t.unsqueeze(0).squeeze(0).cast(DType.float64)

    mean, reshaped, cast = compilation.compile(fn)(
        TensorLayout(DType.float32, [2, 3], CPU()))(x)
    np.testing.assert_allclose(mean.to_numpy(), x.mean(0, keepdims=True),
                               rtol=1e-6)
    np.testing.assert_array_equal(reshaped.to_numpy(), x.reshape(3, 2).T)
    assert cast.dtype == DType.float64
    with pytest.raises(TypeError, match="Tensor.item: this tensor is being "
                       "traced"):
        compilation.stage(lambda t: t.item())(
            TensorLayout(DType.float32, [1], CPU()))


def test_dims_are_values():
    seen = {}

    def fn(x):
        batch, four = x.shape
        seen["batch"], seen["four"] = batch, four
        assert batch == "batch" and four == 4 and four != 5
        assert str(batch * 4) == "batch * 4"      # not "batchbatchbatchbatch"
        assert batch * 4 == 4 * batch == "batch * 4"
        assert batch + 1 - 1 == batch and 2 + batch == batch + 2
        assert (batch * 6) // 3 == batch * 2
        assert four * 2 == 8 and int(four * 2) == 8 and hash(four) == hash(4)
        assert list(range(four)) == [0, 1, 2, 3]
        assert {batch: "b"}["batch"] == "b"
        with pytest.raises(TypeError, match="int\\(\\) of the dim batch, "
                           "which is not static"):
            int(batch)
        with pytest.raises(ValueError, match="Dim //: the divisor must be a "
                           "positive int or a static dim, got batch"):
            batch // batch
        flat = F.reshape(x, [-1])
        assert flat.shape == [batch * 4]
        assert x.reshape([batch, -1, 2]).shape == ["batch", 2, 2]
        assert F.reshape(x, [batch * 2, 2]).shape == ["batch * 2", 2]
        assert F.flatten(x).shape == ["batch * 4"]
        assert x.num_elements == batch * 4
        return flat

    staged = compilation.stage(fn)(
        TensorLayout(DType.float32, ["batch", 4], CPU()))
    assert "-> !maxgraph.tensor<[batch * 4], f32>" in repr(staged)
    assert "batchbatch" not in repr(staged)
    assert repr(seen["batch"]) == "Dim('batch')"
    assert repr(seen["four"]) == "Dim(4)"
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(staged.compile()(x).to_numpy(), x.ravel())


def test_reshape_infers_minus_one_or_says_why():
    def bad(shape):
        return lambda x: F.reshape(x, shape)

    spec = TensorLayout(DType.float32, ["batch", 6], CPU())
    with pytest.raises(ValueError, match=r"reshape: shape has more than one "
                       r"-1 \(at 0 and 1\)"):
        compilation.stage(bad([-1, -1]))(spec)
    with pytest.raises(ValueError, match=r"reshape: cannot infer the -1 of "
                       r"the shape for a tensor of shape \[batch, 6\]: "
                       r"batch \* 6 elements do not divide by 4"):
        compilation.stage(bad([4, -1]))(spec)
    with pytest.raises(ValueError, match=r"the other dims leave seq, which "
                       r"is not a static size"):
        compilation.stage(bad(["seq", -1]))(spec)
    staged = compilation.stage(bad(["batch", 3, -1]))(spec)
    assert staged.out_layouts == [
        TensorLayout(DType.float32, ["batch", 3, 2], CPU())]


def test_functional_on_live_tensors_runs_eagerly():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = Tensor.from_numpy(a)
    np.testing.assert_array_equal(F.add(x, x).to_numpy(), a + a)
    np.testing.assert_array_equal(F.mul(x, 2).to_numpy(), a * 2)
    np.testing.assert_array_equal(F.sum(x, axis=None).to_numpy(), [15])
    np.testing.assert_array_equal(F.concat([x, x], axis=1).to_numpy(),
                                  np.concatenate([a, a], axis=1))
    first, second = F.split(x, [1, 1], axis=0)
    assert first.is_live
    np.testing.assert_array_equal(second.to_numpy(), a[1:])
    np.testing.assert_array_equal(F.transpose(x, 0, 1).to_numpy(), a.T)


def test_eager_calls_reuse_their_compiled_graph_by_layouts_and_statics():
    cache = F._EAGER_CACHE
    cache.clear()
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x, y = Tensor.from_numpy(a), Tensor.from_numpy(a + 1)
    np.testing.assert_array_equal(F.add(x, y).to_numpy(), a + a + 1)
    assert len(cache) == 1
    compiled = next(iter(cache.values()))
    # Other tensors of the same layouts: the same graph, new data.
    np.testing.assert_array_equal(F.add(y, y).to_numpy(), 2 * (a + 1))
    assert len(cache) == 1 and next(iter(cache.values())) is compiled
    # Another shape, another static value, or the same value as another
    # type (1 and 1.0 stage different constants): each its own graph.
    z = Tensor.from_numpy(np.ones((3,), np.float32))
    np.testing.assert_array_equal(F.add(z, z).to_numpy(), [2, 2, 2])
    np.testing.assert_array_equal(F.mul(x, 2).to_numpy(), a * 2)
    np.testing.assert_array_equal(F.mul(x, 3).to_numpy(), a * 3)
    np.testing.assert_array_equal(F.sum(x, axis=0).to_numpy(), [a.sum(0)])
    np.testing.assert_array_equal(F.sum(x, axis=1).to_numpy(),
                                  a.sum(1, keepdims=True))
    assert len(cache) == 6
    np.testing.assert_array_equal(F.mul(x, 2.0).to_numpy(), a * 2)
    assert len(cache) == 7
    np.testing.assert_array_equal(F.mul(y, 2.0).to_numpy(), (a + 1) * 2)
    assert len(cache) == 7
