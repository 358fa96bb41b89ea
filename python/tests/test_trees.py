"""Trees of specs in arguments and of tensors in results: dicts (insertion
order), lists, tuples, named tuples and dataclasses."""

import dataclasses
from typing import NamedTuple

import numpy as np

from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

F32 = TensorLayout(DType.float32, [3])


def live(values):
    return Tensor.from_numpy(np.asarray(values, np.float32))


class Pair(NamedTuple):
    first: object
    second: object


@dataclasses.dataclass
class Params:
    weight: object
    bias: object
    scale: float = 1.0


def test_dict_walks_in_insertion_order():
    staged = compilation.stage(lambda kv: kv["b"] - kv["a"])(
        {"b": F32, "a": F32, "my key": F32})
    assert staged.argument_names == ["kv.b", "kv.a", 'kv["my key"]']


def test_lists_tuples_namedtuples_dataclasses():
    def fn(xs, pair, params):
        return xs[0] * params.weight + xs[1] + pair.first - pair.second \
            + params.bias * params.scale

    staged = compilation.stage(fn)([F32, F32], Pair(F32, F32),
                                   Params(F32, F32, 2.0))
    assert staged.argument_names == [
        "xs[0]", "xs[1]", "pair.first", "pair.second", "params.weight",
        "params.bias"]
    assert staged.static_arguments == {"params.scale": 2.0}
    run = staged.compile()
    out = run([live([1, 2, 3]), live([10, 10, 10])],
              Pair(live([1, 1, 1]), live([2, 2, 2])),
              Params(live([2, 2, 2]), live([1, 2, 3]), 2.0))
    # [1,2,3]*2 + 10 + (1 - 2) + [1,2,3]*2
    np.testing.assert_allclose(out.to_numpy(), [13, 17, 21])


def test_result_trees_are_rebuilt_with_live_tensors():
    def fn(x):
        return {"sum": x + x, "parts": [x * 2, (x, x - 1)],
                "pair": Pair(x, None), "params": Params(x, x * 3, 0.5)}

    staged = compilation.stage(fn)(F32)
    assert staged.result_names == [
        "output.sum", "output.parts[0]", "output.parts[1][0]",
        "output.parts[1][1]", "output.pair.first", "output.params.weight",
        "output.params.bias"]
    tree = staged.output_tree
    assert tree["sum"] == F32 and tree["pair"].second is None
    out = staged.compile()(live([1, 2, 3]))
    assert list(out) == ["sum", "parts", "pair", "params"]
    np.testing.assert_array_equal(out["sum"].to_numpy(), [2, 4, 6])
    np.testing.assert_array_equal(out["parts"][0].to_numpy(), [2, 4, 6])
    assert isinstance(out["parts"][1], tuple)
    np.testing.assert_array_equal(out["parts"][1][0].to_numpy(), [1, 2, 3])
    np.testing.assert_array_equal(out["parts"][1][1].to_numpy(), [0, 1, 2])
    assert isinstance(out["pair"], Pair) and out["pair"].second is None
    np.testing.assert_array_equal(out["pair"].first.to_numpy(), [1, 2, 3])
    assert isinstance(out["params"], Params) and out["params"].scale == 0.5
    np.testing.assert_array_equal(out["params"].bias.to_numpy(), [3, 6, 9])


def test_same_tensor_returned_twice_gives_two_outputs():
    staged = compilation.stage(lambda x: (x, x))(F32)
    assert staged.result_names == ["output[0]", "output[1]"]
    first, second = staged.compile()(live([4, 5, 6]))
    np.testing.assert_array_equal(first.to_numpy(), second.to_numpy())


def test_keyword_arguments_and_varargs():
    def fn(*xs, scale):
        return (xs[0] + xs[1]) * scale

    staged = compilation.stage(fn)(F32, F32, scale=F32)
    assert staged.argument_names == ["xs[0]", "xs[1]", "scale"]
    out = staged.compile()(live([1, 2, 3]), live([1, 1, 1]),
                           scale=live([2, 2, 2]))
    np.testing.assert_array_equal(out.to_numpy(), [4, 6, 8])


def test_graph_names():
    def my_fn(x):
        return x

    assert compilation.stage(my_fn)(F32).name == "my_fn"
    assert compilation.stage(lambda x: x)(F32).name == "lambda"
    assert compilation.stage(my_fn, name="custom")(F32).name == "custom"
