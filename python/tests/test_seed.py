"""The seed example of the issue, verbatim but for the imports."""

import re

import numpy as np

from maxgraph.dtype import DType
from maxgraph import compilation
from maxgraph.sharding import TensorLayout, BufferLayout  # noqa: F401
from maxgraph.tensor import Tensor
from maxgraph.driver import CPU, GPU  # noqa: F401


def combine(kv: dict[str, Tensor], alpha: float) -> Tensor:
    return (kv["a"] + kv["b"]) * alpha


def test_seed_example_prints_and_runs(capsys):
    a = np.array([1.0, 2.0], dtype=np.float32)
    b = np.array([3.0, 4.0], dtype=np.float32)

    spec = TensorLayout(DType.float32, [2], CPU())
    staged = compilation.stage(combine)({"a": spec, "b": spec}, 2.0)
    print(staged)                                   # the whole module as MLIR
    run = compilation.compile(combine)({"a": spec, "b": spec}, 2.0)
    out = run({"a": Tensor.from_numpy(a), "b": Tensor.from_numpy(b)}, 2.0)

    printed = capsys.readouterr().out
    # One graph named after the function, arguments named by tree path.
    assert printed.count("maxgraph.graph") == 1
    assert re.search(
        r"maxgraph\.graph @combine\(%kv\.a: !maxgraph\.tensor<\[2\], f32>, "
        r"%kv\.b: !maxgraph\.tensor<\[2\], f32>\) -> "
        r"!maxgraph\.tensor<\[2\], f32>", printed)
    assert 'argument_names = ["kv.a", "kv.b"]' in printed
    assert 'result_names = ["output"]' in printed
    # alpha is static: baked in as a constant, not an argument.
    assert re.search(r"maxgraph\.constant dense<2\.0+e\+00> : "
                     r"!maxgraph\.tensor<\[\], f32>", printed)
    ops = re.findall(r"= (maxgraph\.\w+)", printed)
    assert ops == ["maxgraph.add", "maxgraph.constant", "maxgraph.mul"]

    assert isinstance(out, Tensor) and out.is_live
    assert out.dtype == DType.float32 and out.shape == [2]
    np.testing.assert_array_equal(out.to_numpy(), (a + b) * 2)
    np.testing.assert_array_equal(np.asarray(out), [8.0, 12.0])


def test_staged_graph_attributes(tmp_path):
    spec = TensorLayout(DType.float32, [2], CPU())
    staged = compilation.stage(combine)({"a": spec, "b": spec}, 2.0)
    assert staged.name == "combine"
    assert staged.argument_names == ["kv.a", "kv.b"]
    assert staged.input_layouts == [spec, spec]
    assert staged.result_names == ["output"]
    assert staged.output_layouts == [spec]
    assert staged.static_arguments == {"alpha": 2.0}
    assert staged.output_tree == spec
    assert str(staged) == staged.module
    path = tmp_path / "combine.mlirbc"
    staged.write_bytecode(path)
    assert path.read_bytes()[:4] == b"ML\xefR"
    # StagedGraph.compile() runs the same graph.
    run = staged.compile()
    out = run({"a": Tensor.from_numpy(np.ones(2, np.float32)),
               "b": Tensor.from_numpy(np.ones(2, np.float32))}, 2.0)
    np.testing.assert_array_equal(out.to_numpy(), [4.0, 4.0])
