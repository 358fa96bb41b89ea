"""as_subgraph: one shared body and N calls, with the C++ semantics."""

import re

import numpy as np

from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

X = TensorLayout(DType.float32, [2, 4])
W = TensorLayout(DType.float32, [4, 4])


def layer(x, w):
    return ops.relu(x @ w) + x


def graphs(text):
    return re.findall(r"maxgraph\.graph @(\w+)", text)


def model(layers):
    shared = compilation.as_subgraph(layer)

    def fn(x, ws):
        for w in ws:
            x = shared(x, w)
        return x

    return fn


def reference(x, ws):
    for w in ws:
        x = np.maximum(x @ w, 0) + x
    return x


def test_four_calls_share_one_body(rng):
    staged = compilation.stage(model(4), name="mlp")(X, [W] * 4)
    text = str(staged)
    assert graphs(text) == ["layer", "mlp"]
    assert len(re.findall(r"maxgraph\.call @layer\(", text)) == 4
    assert text.count("maxgraph.matmul") == 1
    x = rng.standard_normal((2, 4)).astype(np.float32)
    ws = [rng.standard_normal((4, 4)).astype(np.float32) for _ in range(4)]
    out = staged.compile()(Tensor.from_numpy(x),
                           [Tensor.from_numpy(w) for w in ws])
    np.testing.assert_allclose(out.to_numpy(), reference(x, ws), rtol=1e-5,
                               atol=1e-5)


def test_allow_subgraphs_false_inlines():
    staged = compilation.stage(model(3), name="mlp",
                               allow_subgraphs=False)(X, [W] * 3)
    text = str(staged)
    assert graphs(text) == ["mlp"]
    assert "maxgraph.call" not in text
    assert text.count("maxgraph.matmul") == 3


def test_sharing_by_ir_and_by_key():
    def fn(x):
        first = compilation.as_subgraph(lambda a: a * 2, name="double")
        second = compilation.as_subgraph(lambda a: a * 2, name="twice")
        third = compilation.as_subgraph(lambda a: a + 1, name="inc",
                                        key="k")
        fourth = compilation.as_subgraph(lambda a: a - 1, name="dec",
                                         key="k")
        return first(x) + second(x) + third(x) + fourth(x)

    text = str(compilation.stage(fn)(X))
    # Same IR: one body whatever it is called. Same key: the first body
    # traced under it, even though the second function differs.
    assert graphs(text) == ["double", "inc", "fn"]
    assert len(re.findall(r"maxgraph\.call @double\(", text)) == 2
    assert len(re.findall(r"maxgraph\.call @inc\(", text)) == 2
    assert "maxgraph.sub" not in text


def test_nested_calls_are_inlined():
    inner = compilation.as_subgraph(lambda a: ops.exp(a), name="inner")
    outer = compilation.as_subgraph(lambda a: inner(a) * 3, name="outer")
    text = str(compilation.stage(lambda x: outer(x) + outer(x))(X))
    assert graphs(text) == ["outer", "lambda"]
    assert text.count("maxgraph.exp") == 1
    assert len(re.findall(r"maxgraph\.call @outer\(", text)) == 2


def test_subgraph_results_tree_and_statics():
    def body(a, scale):
        return {"scaled": a * scale, "pair": (a, a + 1)}

    shared = compilation.as_subgraph(body)

    def fn(x):
        one = shared(x, 2.0)
        two = shared(x, 2.0)
        three = shared(x, 5.0)
        return one["scaled"] + two["pair"][1] + three["scaled"]

    staged = compilation.stage(fn)(X)
    text = str(staged)
    # A static baked in splits the bodies: 2.0 and 5.0 give two.
    assert graphs(text) == ["body", "body_1", "fn"]
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    out = staged.compile()(Tensor.from_numpy(x))
    np.testing.assert_allclose(out.to_numpy(), x * 2 + (x + 1) + x * 5)
