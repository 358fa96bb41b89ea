"""Compiled artifacts: CompiledCallable.export (MAX's export_mef),
compilation.load in this process and in a fresh one, and execute_raw."""

import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

import artifact_model
from artifact_model import Pair

HERE = Path(__file__).resolve().parent


def weights(rng):
    return {"w": rng.standard_normal((3, 3)).astype(np.float32),
            "b": rng.standard_normal(3).astype(np.float32)}


@pytest.fixture
def compiled(rng):
    args, kwargs = artifact_model.specs()
    w = weights(rng)
    return compilation.compile(artifact_model.model, weights=w)(
        *args, **kwargs), w


def call(run, x, y, shift):
    out = run(Pair(x, y), 2.0, shift=shift)
    return out["h"].to_numpy(), out["both"].x.to_numpy(), out["both"].y


def inputs(rng, n):
    return (rng.standard_normal((n, 3)).astype(np.float32),
            rng.standard_normal((n, 3)).astype(np.float32),
            rng.standard_normal(3).astype(np.float32))


def test_round_trip_keeps_trees_layouts_and_numbers(compiled, rng, tmp_path):
    run, w = compiled
    path = tmp_path / "model.mgart"
    run.export(path)
    loaded = compilation.load(path, weights=w)
    assert loaded.staged is None
    assert loaded.name == run.name
    assert loaded.in_layouts == run.in_layouts
    assert loaded.out_layouts == run.out_layouts
    assert loaded.argument_names == run.argument_names
    assert loaded.result_names == run.result_names
    assert loaded.weight_names == ["w", "b"]
    assert loaded.weight_layouts == run.staged.weight_layouts
    assert loaded.static_arguments == {"scale": 2.0}
    assert loaded.in_tree == run.in_tree
    assert loaded.out_tree == run.out_tree
    # Symbolic dims stay symbolic, algebraic ones algebraic.
    assert loaded.in_layouts[0].shape == ["n", 3]
    assert [str(d) for d in loaded.out_layouts[1].shape] == ["n * 2", "3"]
    for n in (1, 5):
        x, y, shift = inputs(rng, n)
        h, both, tag = call(loaded, x, y, shift)
        expected = call(run, x, y, shift)
        np.testing.assert_array_equal(h, expected[0])
        np.testing.assert_array_equal(both, expected[1])
        assert tag == "tag"
        np.testing.assert_allclose(h, x @ w["w"] * 2 + w["b"], rtol=1e-5,
                                   atol=1e-5)
    # The static is checked as a compiled graph checks it.
    with pytest.raises(maxgraph.RuntimeError,
                       match="static argument 'scale' was staged as 2.0"):
        loaded(Pair(x, y), 3.0, shift=shift)
    # Export of a loaded callable writes the same artifact.
    again = tmp_path / "again.mgart"
    loaded.export_mef(again)
    assert again.read_bytes() == path.read_bytes()


def test_weights_are_bound_at_load(compiled, tmp_path):
    run, w = compiled
    path = tmp_path / "model.mgart"
    run.export(path)
    loaded = compilation.load(path, weights=w)
    assert set(loaded.weights) == {"w", "b"}
    np.testing.assert_array_equal(loaded.weights["w"], w["w"])
    # Bound without a copy, as compile() binds them.
    assert np.shares_memory(loaded.weights["w"], w["w"])
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"compiled graph 'model': weight 'w' "
                             r"\(!maxgraph.tensor<\[3, 3\], f32>\) is not "
                             r"bound"):
        compilation.load(path)
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"weight 'b' has shape \[4\] but the graph "
                             r"expects \[3\]"):
        compilation.load(path, weights=dict(w, b=np.zeros(4, np.float32)))
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"weight 'c' is not a weight of the graph \(its "
                             r"weights: 'w', 'b'\)"):
        compilation.load(path, weights=dict(w, c=w["b"]))


def fresh_process(code, *path, cache=None):
    env = dict(os.environ)
    if cache is not None:
        env["MAXGRAPH_CACHE_DIR"] = str(cache)
    package_parent = str(Path(maxgraph.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_parent, *map(str, path)])
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_fresh_process_loads_and_runs_it(compiled, rng, tmp_path):
    run, w = compiled
    path = tmp_path / "model.mgart"
    run.export(path)
    x, y, shift = inputs(rng, 4)
    np.savez(tmp_path / "inputs.npz", x=x, y=y, shift=shift, **w)
    result = fresh_process(f"""
        import sys
        import numpy as np
        from maxgraph import compilation
        data = np.load({str(tmp_path / "inputs.npz")!r})
        loaded = compilation.load({str(path)!r},
                                  weights={{"w": data["w"], "b": data["b"]}})
        print(loaded.in_layouts[0].shape, loaded.out_layouts[1])
        out = loaded(type(loaded.in_tree[0][0])(data["x"], data["y"]), 2.0,
                     shift=data["shift"])
        np.savez({str(tmp_path / "outputs.npz")!r}, h=out["h"].to_numpy(),
                 both=out["both"].x.to_numpy())
        print(type(out["both"]).__module__, out["both"].y)
        """, HERE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "['n', 3] !maxgraph.tensor<[n * 2, 3], f32>"
    assert lines[1] == "artifact_model tag"
    outputs = np.load(tmp_path / "outputs.npz")
    expected = call(run, x, y, shift)
    np.testing.assert_array_equal(outputs["h"], expected[0])
    np.testing.assert_array_equal(outputs["both"], expected[1])


def test_a_tree_type_that_cannot_be_imported_is_named(rng, tmp_path):
    module = tmp_path / "gone" / "vanishing_trees.py"
    module.parent.mkdir()
    module.write_text(textwrap.dedent("""
        import dataclasses

        @dataclasses.dataclass
        class Box:
            value: object
        """))
    sys.path.insert(0, str(module.parent))
    try:
        import vanishing_trees
        run = compilation.compile(lambda box: box.value * 2)(
            vanishing_trees.Box(TensorLayout(DType.float32, [2])))
        path = tmp_path / "box.mgart"
        run.export(path)
        assert run(vanishing_trees.Box(np.ones(2, np.float32))) \
            .to_numpy().tolist() == [2, 2]
    finally:
        sys.path.remove(str(module.parent))
        sys.modules.pop("vanishing_trees", None)
    result = fresh_process(f"""
        from maxgraph import compilation
        compilation.load({str(path)!r})
        """)
    assert result.returncode != 0
    assert (f"{path}: the artifact's argument or result trees need a type "
            f"that cannot be imported here (No module named "
            f"'vanishing_trees'); import the module that defines it before "
            f"load()") in result.stderr, result.stderr


def test_trees_that_do_not_pickle_are_refused_at_export(tmp_path):
    class Local:
        def __init__(self, value):
            self.value = value

        def __eq__(self, other):
            return isinstance(other, Local)

    run = compilation.compile(lambda x, tag: x + 1)(
        TensorLayout(DType.float32, [2]), Local(1))
    with pytest.raises(maxgraph.RuntimeError,
                       match="export 'lambda': the argument and result "
                             "trees must pickle to be rebuilt at load"):
        run.export(tmp_path / "local.mgart")


def test_execute_raw_equals_the_checked_call(compiled, rng, tmp_path):
    run, w = compiled
    path = tmp_path / "model.mgart"
    run.export(path)
    loaded = compilation.load(path, weights=w)
    x, y, shift = inputs(rng, 3)
    expected = call(run, x, y, shift)
    for each in (run, loaded):
        raw = each.execute_raw(Tensor.from_numpy(x), y, shift)
        assert len(raw) == 2
        np.testing.assert_array_equal(raw[0].to_numpy(), expected[0])
        np.testing.assert_array_equal(raw[1].to_numpy(), expected[1])
        with pytest.raises(maxgraph.RuntimeError,
                           match="@model takes 3 inputs but got 2"):
            each.execute_raw(x, y)


def test_loaded_calls_check_their_inputs(compiled, tmp_path):
    run, w = compiled
    path = tmp_path / "model.mgart"
    run.export(path)
    loaded = compilation.load(path, weights=w)
    x = np.ones((2, 3), np.float32)
    with pytest.raises(maxgraph.RuntimeError, match=r"pair\.y"):
        loaded(Pair(x, np.ones((3, 3), np.float32)), 2.0,
               shift=np.ones(3, np.float32))
    with pytest.raises(maxgraph.RuntimeError, match="si32|int32"):
        loaded(Pair(x, x.astype(np.int32)), 2.0, shift=np.ones(3, np.float32))


@pytest.fixture
def exported(compiled, tmp_path):
    run, _ = compiled
    path = tmp_path / "model.mgart"
    run.export(path)
    return path


def test_bad_files_are_refused(exported, tmp_path):
    good = exported.read_bytes()
    missing = tmp_path / "missing.mgart"
    with pytest.raises(maxgraph.RuntimeError,
                       match=f"{missing}: cannot read the artifact"):
        compilation.load(missing)
    text = tmp_path / "text.mgart"
    text.write_text("module {}\n")
    with pytest.raises(maxgraph.RuntimeError,
                       match=f"{text}: not a MaxGraph artifact"):
        compilation.load(text)
    other = tmp_path / "other.mgart"
    other.write_bytes(good[:8] + struct.pack("<I", 7) + good[12:])
    with pytest.raises(maxgraph.RuntimeError,
                       match=f"{other}: the artifact was written by format "
                             f"version 7, this build reads 2"):
        compilation.load(other)
    corrupt = tmp_path / "corrupt.mgart"
    middle = len(good) // 2
    corrupt.write_bytes(good[:middle] + bytes([good[middle] ^ 1])
                        + good[middle + 1:])
    with pytest.raises(maxgraph.RuntimeError,
                       match=f"{corrupt}: corrupt artifact: the checksum of "
                             f"its content does not match"):
        compilation.load(corrupt)
    truncated = tmp_path / "truncated.mgart"
    truncated.write_bytes(good[:-1])
    with pytest.raises(maxgraph.RuntimeError,
                       match=f"{truncated}: truncated artifact: "
                             f"{len(good) - 33} bytes of content, its header "
                             f"says {len(good) - 32}"):
        compilation.load(truncated)


def accumulate(state, x):
    state.store(state.load() + x)
    return x * 2


def test_buffer_arguments_are_stored_into_after_load(tmp_path):
    from maxgraph.sharding import BufferLayout

    run = compilation.compile(accumulate)(
        BufferLayout(DType.float32, [3]), TensorLayout(DType.float32, [3]))
    path = tmp_path / "accumulate.mgart"
    run.export(path)
    loaded = compilation.load(path)
    assert loaded.in_layouts == run.in_layouts
    assert isinstance(loaded.in_layouts[0], BufferLayout)
    state = np.zeros(3, np.float32)
    x = np.array([1, 2, 3], np.float32)
    np.testing.assert_array_equal(loaded(state, x).to_numpy(), [2, 4, 6])
    loaded(state, x)
    np.testing.assert_array_equal(state, [2, 4, 6])


def test_a_bfloat16_weight_binds_from_its_bits_after_load(tmp_path):
    from maxgraph import ops

    layout = TensorLayout(DType.bfloat16, [2])
    bits = np.array([0x3F80, 0xC000], np.uint16)  # bfloat16 1.0, -2.0

    def fn(x):
        return x + ops.cast(ops.constant_external("bf", layout),
                            DType.float32)

    run = compilation.compile(fn, weights={"bf": bits})(
        TensorLayout(DType.float32, [2]))
    path = tmp_path / "bf16.mgart"
    run.export(path)
    assert compilation.artifact_weights(path) == {"bf": layout}
    loaded = compilation.load(path, weights={"bf": bits})
    out = loaded(np.zeros(2, np.float32)).to_numpy()
    np.testing.assert_array_equal(out, [1.0, -2.0])
