"""Layouts over device meshes, written against MAX's names
(``max.experimental.sharding`` -> ``maxgraph.sharding``): staging expands
them to one argument per device and propagates placements; compiled graphs
take global arrays (or distributed Tensors) and return distributed Tensors,
checked here against numpy on cpu:0..3."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation, ops
from maxgraph.driver import CPU
from maxgraph.dtype import DType
import warnings

from maxgraph.sharding import (ALL_TRANSITIONS, DEFAULT_TRANSITIONS,
                               DeviceMapping, DeviceMesh, NamedMapping,
                               Partial, Placement, ReduceOp, Replicated,
                               Sharded, ShardingError, TensorLayout, Unknown,
                               auto_reshard, visualize)
from maxgraph.tensor import Tensor

MESH2 = DeviceMesh([CPU(0), CPU(1)], (2,), ("tp",))
MESH4 = DeviceMesh([CPU(i) for i in range(4)], (4,), ("tp",))
GRID = DeviceMesh([CPU(i) for i in range(4)], (2, 2), ("dp", "tp"))


def layout(shape, mesh, *placements):
    return TensorLayout(DType.float32, list(shape),
                        DeviceMapping(mesh, list(placements)))


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(
        np.float32)


def replicated(mesh):
    return DeviceMapping(mesh, [Replicated()] * len(mesh.mesh_shape))


# Meshes and mappings --------------------------------------------------------

def test_mesh_and_placements():
    assert GRID.mesh_shape == [2, 2]
    assert GRID.axis_names == ["dp", "tp"]
    assert GRID.num_devices == 4
    assert Sharded(1) == Sharded(1) and Sharded(1) != Sharded(0)
    assert repr(Partial()) == "Partial(reduce_op='sum')"
    assert repr(Sharded(1)) == "Sharded(axis=1)"
    assert Partial(ReduceOp.MAX).reduce_op == ReduceOp.MAX
    mapping = DeviceMapping(GRID, [Sharded(0), Replicated()])
    assert mapping.placements == [Sharded(0), Replicated()]
    assert mapping.local_shape([5, 3], 2) == [2, 3]  # dp=1: the smaller piece
    named = NamedMapping(GRID, (None, "tp"), unreduced=("dp",))
    assert named.to_device_mapping().placements == [Partial(), Sharded(1)]


def test_bad_meshes_and_mappings_are_sharding_errors():
    with pytest.raises(ShardingError, match="holds 3 devices, but 2 are given"):
        DeviceMesh([CPU(0), CPU(1)], (3,), ("x",))
    with pytest.raises(ShardingError, match="is sharded by two mesh axes"):
        DeviceMapping(GRID, [Sharded(0), Sharded(0)])
    with pytest.raises(ShardingError, match="has no axis named 'pp'"):
        NamedMapping(GRID, ("pp",))
    with pytest.raises(ShardingError,
                       match=r"test_sharding.py:\d+:.*cannot be Sharded\(2\)"):
        layout([4, 4], MESH2, Sharded(2))
    with pytest.raises(TypeError, match="spec entries name one mesh axis"):
        NamedMapping(GRID, (("dp", "tp"),))


# Staging ---------------------------------------------------------------------

def tp_mlp(x, w1, w2):
    h = F.gelu(x @ w1)
    return (h @ w2).to(replicated(x.mesh))


def test_tensor_parallel_mlp_stages_one_allreduce():
    staged = compilation.stage(tp_mlp)(
        layout([4, 16], MESH2, Replicated()),
        layout([16, 32], MESH2, Sharded(1)),
        layout([32, 8], MESH2, Sharded(0)))
    text = repr(staged)
    assert text.count("maxgraph.allreduce sum") == 1
    assert "allgather" not in text and "reduce_scatter" not in text
    assert staged.argument_names == [
        "x._shard.0", "x._shard.1", "w1._shard.0", "w1._shard.1",
        "w2._shard.0", "w2._shard.1"]
    assert [str(l) for l in staged.input_layouts[2:4]] == [
        "!maxgraph.tensor<[16, 16], f32>",
        "!maxgraph.tensor<[16, 16], f32, cpu:1>"]
    assert len(staged.reshard_report) == 1
    assert "[P(sum)] over mesh[tp=2](cpu:0, cpu:1) -> [R]" in \
        staged.reshard_report[0]


def test_data_parallel_batch_needs_no_collective():
    def layer(x, w, b):
        return F.softmax(F.matmul(x, w) + b)
    staged = compilation.stage(layer)(
        layout(["batch", 16], MESH2, Sharded(0)),
        layout([16, 8], MESH2, Replicated()),
        layout([8], MESH2, Replicated()))
    text = repr(staged)
    for collective in ("allreduce", "allgather", "reduce_scatter"):
        assert collective not in text
    assert "!maxgraph.tensor<[batch_tp_1, 16], f32, cpu:1>" in text
    assert staged.reshard_report == []


def test_a_mismatch_moves_the_cheaper_operand():
    def add(x, y):
        return x + y
    # x [64, 128] row-split, y [64, 32] column-split: y moves.
    staged = compilation.stage(add)(
        layout([64, 32], MESH2, Sharded(0)),
        layout([64, 32], MESH2, Sharded(1)))
    [line] = staged.reshard_report
    assert "operand 1 of 'maxgraph.add'" in line
    assert "allgather on tp, local slice on tp, 4096 bytes per device" in line
    assert "chosen over tp=S(1): 4096; tp=R: 8192" in line


def test_reshard_report_on_stderr():
    code = textwrap.dedent("""
        import maxgraph.functional as F
        from maxgraph import compilation
        from maxgraph.driver import CPU
        from maxgraph.dtype import DType
        from maxgraph.sharding import (DeviceMapping, DeviceMesh, Sharded,
                                       TensorLayout)
        mesh = DeviceMesh([CPU(0), CPU(1)], (2,), ("tp",))
        spec = TensorLayout(DType.float32, [4, 6],
                            DeviceMapping(mesh, [Sharded(1)]))
        compilation.stage(lambda x: F.softmax(x))(spec)
        """)
    env = dict(os.environ, MAXGRAPH_RESHARD_REPORT="1")
    result = subprocess.run([sys.executable, "-c", code], env=env,
                            capture_output=True, text=True, check=True)
    assert "maxgraph reshard: <string>:11:" in result.stderr
    assert "operand 0 of 'maxgraph.softmax': [S(1)]" in result.stderr
    assert "allgather on tp" in result.stderr


def test_ops_without_a_rule_refuse_distributed_operands():
    def padded(x):
        return F.pad(x, [1, 1, 0, 0])
    with pytest.raises(ShardingError,
                       match=r"test_sharding.py:\d+:.*operand 0 of "
                             r"'maxgraph.pad' is distributed.*no sharding "
                             r"rule"):
        compilation.stage(padded)(layout([4, 6], MESH2, Sharded(1)))


def test_shared_tensor_parallel_layers_trace_once():
    @compilation.as_subgraph
    def block(x, w1, w2):
        return (F.relu(x @ w1) @ w2).to(replicated(x.mesh))

    def model(x, weights):
        for w1, w2 in weights:
            x = block(x, w1, w2)
        return x
    specs = (layout([4, 8], MESH2, Replicated()),
             [(layout([8, 16], MESH2, Sharded(1)),
               layout([16, 8], MESH2, Sharded(0)))] * 3)
    text = repr(compilation.stage(model)(*specs))
    # One body, holding the layer's one allreduce, called three times; its
    # arguments are the shards.
    assert text.count("maxgraph.graph") == 2
    assert text.count("maxgraph.call ") == 3
    assert text.count("maxgraph.allreduce") == 1
    assert "%w1._shard.1: !maxgraph.tensor<[8, 8], f32, cpu:1>" in text
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    weights = [(rng.standard_normal((8, 16)).astype(np.float32),
                rng.standard_normal((16, 8)).astype(np.float32))
               for _ in range(3)]
    result = compilation.compile(model)(*specs)(x, weights)
    expected = x
    for w1, w2 in weights:
        expected = np.maximum(expected @ w1, 0) @ w2
    np.testing.assert_allclose(result.to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)


def test_subgraph_bodies_keyed_by_placement():
    # Same local types, other placements (R and P): two bodies.
    @compilation.as_subgraph
    def double(x):
        return x * 2

    def both(a, b):
        return double(a), double(b)
    text = repr(compilation.stage(both)(layout([4], MESH2, Replicated()),
                                        layout([4], MESH2, Partial())))
    assert text.count("maxgraph.graph") == 3


def test_gathering_a_split_symbolic_dim_is_an_error_at_the_line():
    def normalize(x):
        return F.softmax(x, axis=0)
    with pytest.raises(ShardingError,
                       match=r"test_sharding.py:\d+:.*cannot gather axis 0 "
                             r"of dim `n`"):
        compilation.stage(normalize)(layout(["n", 4], MESH2, Sharded(0)))


# Numerics against numpy on cpu:0..3 ----------------------------------------

def test_tensor_parallel_mlp_on_four_devices_matches_numpy():
    x, w1, w2 = rand(5, 16, seed=1), rand(16, 12, seed=2), rand(12, 3, seed=3)
    run = compilation.compile(tp_mlp)(
        layout([5, 16], MESH4, Replicated()),
        layout([16, 12], MESH4, Sharded(1)),
        layout([12, 3], MESH4, Sharded(0)))
    result = run(x, w1, w2)
    assert result.is_distributed and result.placements == [Replicated()]
    h = x @ w1
    gelu = 0.5 * h * (1 + np.vectorize(__import__("math").erf)(h / np.sqrt(2)))
    np.testing.assert_allclose(result.to_numpy(), gelu @ w2, rtol=1e-4,
                               atol=1e-4)
    # Every device holds the whole replicated result.
    for shard in result.local_shards:
        np.testing.assert_allclose(shard.to_numpy(), result.to_numpy())
    # The same program unsharded gives the same result.
    plain = compilation.compile(lambda a, b, c: F.gelu(a @ b) @ c)(
        TensorLayout(DType.float32, [5, 16]),
        TensorLayout(DType.float32, [16, 12]),
        TensorLayout(DType.float32, [12, 3]))
    np.testing.assert_allclose(result.to_numpy(), plain(x, w1, w2).to_numpy(),
                               rtol=1e-5, atol=1e-5)


def test_two_axis_mesh_program_matches_numpy():
    def program(x, y):
        z = F.exp(x) * y - 1
        rows = F.sum(z, axis=1)
        return F.layer_norm(z / rows, F.ones([5]), F.zeros([5]), 1e-5)
    x, y = rand(6, 5, seed=4), rand(6, 5, seed=5)
    run = compilation.compile(program)(
        layout([6, 5], GRID, Sharded(0), Sharded(1)),
        layout([6, 5], GRID, Sharded(0), Replicated()))
    result = run(x, y)
    assert result.placements == [Sharded(0), Replicated()]
    z = np.exp(x) * y - 1
    z = z / z.sum(axis=1, keepdims=True)
    mean = z.mean(axis=1, keepdims=True)
    var = ((z - mean) ** 2).mean(axis=1, keepdims=True)
    np.testing.assert_allclose(result.to_numpy(),
                               (z - mean) / np.sqrt(var + 1e-5), rtol=1e-3,
                               atol=1e-3)
    # dp=1 holds rows 3..5, on cpu:2 and cpu:3.
    assert [s.shape for s in result.local_shards] == [[3, 5]] * 4
    assert str(result.local_shards[2].device) == "cpu:2"


def test_uneven_split_gathers_back():
    def transpose(x):
        return F.permute(x * 2, [1, 0]).to(replicated(x.mesh))
    x = rand(7, 3, seed=6)
    result = compilation.compile(transpose)(
        layout([7, 3], MESH4, Sharded(0)))(x)
    np.testing.assert_allclose(result.to_numpy(), (x * 2).T)
    assert "maxgraph.pad" in repr(compilation.stage(transpose)(
        layout([7, 3], MESH4, Sharded(0))))


def test_reduction_over_a_split_axis_is_partial_until_resharded():
    def total(x):
        return F.sum(x, axis=0)
    staged = compilation.stage(total)(layout([8, 2], MESH2, Sharded(0)))
    assert "allreduce" not in repr(staged)
    run = compilation.compile(total)(layout([8, 2], MESH2, Sharded(0)))
    result = run(rand(8, 2))
    assert result.placements == [Partial()]
    np.testing.assert_allclose(
        sum(shard.to_numpy() for shard in result.local_shards),
        rand(8, 2).sum(axis=0, keepdims=True), rtol=1e-5)
    # Read on the host, the Partial terms are added up (as MAX does).
    np.testing.assert_allclose(result.to_numpy(),
                               rand(8, 2).sum(axis=0, keepdims=True),
                               rtol=1e-5)


def test_broadcast_to_keeps_the_split():
    def widen(x):
        return F.broadcast_to(x, [3, 8, 4]).to(replicated(x.mesh))
    spec = layout([8, 4], MESH2, Sharded(0))
    staged = compilation.stage(widen)(spec)
    assert "!maxgraph.tensor<[3, 4, 4], f32, cpu:1>" in repr(staged)
    data = rand(8, 4, seed=12)
    result = compilation.compile(widen)(spec)(data)
    np.testing.assert_allclose(result.to_numpy(),
                               np.broadcast_to(data, (3, 8, 4)))


def test_embedding_lookup_of_a_split_batch_needs_no_collective():
    def embed(table, ids):
        return F.gather(table, ids, axis=0).to(replicated(ids.mesh))
    specs = (layout([10, 4], MESH2, Replicated()),
             TensorLayout(DType.int64, [6, 3],
                          DeviceMapping(MESH2, [Sharded(0)])))
    staged = compilation.stage(embed)(*specs)
    assert repr(staged).count("maxgraph.gather ") == 2
    assert repr(staged).count("maxgraph.allgather") == 1  # Only .to(R).
    table = rand(10, 4, seed=13)
    ids = np.random.default_rng(1).integers(0, 10, (6, 3))
    result = compilation.compile(embed)(*specs)(table, ids)
    np.testing.assert_allclose(result.to_numpy(), table[ids])
    # The table split by columns: each device looks up its columns.
    def by_columns(table, ids):
        return F.gather(table, ids, axis=0).to(replicated(table.mesh))
    specs = (layout([10, 4], MESH2, Sharded(1)),
             TensorLayout(DType.int64, [6, 3], MESH2))
    result = compilation.compile(by_columns)(*specs)(table, ids)
    np.testing.assert_allclose(result.to_numpy(), table[ids])


def test_distributed_inputs_from_tensor_to():
    def scale(x):
        return x * 3
    spec = layout([4, 6], MESH2, Sharded(1))
    run = compilation.compile(scale)(spec)
    data = rand(4, 6, seed=7)
    live = Tensor.from_numpy(data).to(spec.mapping)
    assert live.is_distributed and live.num_shards == 2
    assert [s.shape for s in live.local_shards] == [[4, 3], [4, 3]]
    np.testing.assert_allclose(run(live).to_numpy(), data * 3)
    other = Tensor.from_numpy(data).to(DeviceMapping(MESH2, [Sharded(0)]))
    with pytest.raises(ValueError, match="was staged as"):
        run(other)
    with pytest.raises(ValueError, match="has shape \\[4, 5\\]"):
        run(rand(4, 5))


def test_explicit_reshard_and_transfer_to():
    def gather(x):
        return F.transfer_to(x, replicated(x.mesh))
    staged = compilation.stage(gather)(layout([8, 4], MESH4, Sharded(0)))
    assert repr(staged).count("maxgraph.allgather") == 1
    data = rand(8, 4, seed=8)
    result = compilation.compile(gather)(layout([8, 4], MESH4, Sharded(0)))(
        data)
    for shard in result.local_shards:
        np.testing.assert_allclose(shard.to_numpy(), data)


def test_distributed_graphs_do_not_export(tmp_path):
    run = compilation.compile(lambda x: x + 1)(
        layout([4], MESH2, Sharded(0)))
    with pytest.raises(ValueError, match="laid out over a device mesh"):
        run.export(tmp_path / "model.mgart")


# auto_reshard, Unknown, visualize ------------------------------------------

def row_plus_column(x, y):
    return x + y


ROW_COL = (layout([8, 6], MESH2, Sharded(0)), layout([8, 6], MESH2, Sharded(1)))


def test_auto_reshard_modes():
    with auto_reshard(mode="raise"):
        with pytest.raises(ShardingError,
                           match=r"test_sharding.py:\d+:.*operand 1 of "
                                 r"'maxgraph.add' needs a resharding.*write "
                                 r"it as ops::reshard"):
            compilation.stage(row_plus_column)(*ROW_COL)
        # An explicit move is always allowed.
        explicit = compilation.stage(
            lambda x, y: x + y.to(x.mapping))(*ROW_COL)
        assert "allgather" in repr(explicit)
    with auto_reshard(mode="warn"):
        with pytest.warns(UserWarning, match="operand 1 of 'maxgraph.add'"):
            compilation.stage(row_plus_column)(*ROW_COL)
    # Silent, the default: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compilation.stage(row_plus_column)(*ROW_COL)


def test_auto_reshard_allowed_transitions():
    # Only allreduces: a row split meeting a column split cannot move.
    with auto_reshard({(Partial, Replicated)}):
        with pytest.raises(ShardingError,
                           match=r"does not allow \(auto_reshard\): "
                                 r"tp=S\(0\) needs \(Sharded, Sharded\)"):
            compilation.stage(row_plus_column)(*ROW_COL)

    # A partial sum meeting a split: allreduce by default, reduce-scatter
    # with ALL_TRANSITIONS.
    def partial_plus_split(x, w, y):
        return x @ w + y
    specs = (layout([8, 4], MESH2, Sharded(1)), layout([4, 8], MESH2,
                                                       Sharded(0)),
             layout([8, 8], MESH2, Sharded(0)))
    assert "allreduce" in repr(compilation.stage(partial_plus_split)(*specs))
    with auto_reshard(ALL_TRANSITIONS):
        text = repr(compilation.stage(partial_plus_split)(*specs))
    assert "reduce_scatter" in text and "allreduce" not in text
    assert DEFAULT_TRANSITIONS == ALL_TRANSITIONS - {(Partial, Sharded)}
    with pytest.raises(TypeError, match="auto_reshard takes"):
        auto_reshard({("a", "b")})
    with pytest.raises(ValueError, match="mode must be one of"):
        auto_reshard(mode="loud")


def test_auto_reshard_is_a_decorator_and_nests():
    @auto_reshard(mode="raise")
    def strict():
        with auto_reshard({(Sharded, Sharded)}):
            # The inner block keeps the outer mode.
            with pytest.raises(ShardingError, match="reshards nothing"):
                compilation.stage(row_plus_column)(*ROW_COL)
    strict()
    compilation.stage(row_plus_column)(*ROW_COL)  # Back to silent.


def test_unknown_placement_is_refused_in_layouts():
    assert isinstance(Unknown(), Placement)
    assert repr(Unknown()) == "Unknown()"
    with pytest.raises(ShardingError, match="Unknown\\(\\) on mesh axis 'tp'"):
        DeviceMapping(MESH2, [Unknown()])


def test_visualize():
    text = visualize(layout([8, 6], GRID, Sharded(0), Sharded(1)))
    assert text.splitlines() == [
        "[8, 6] on [S(0), S(1)] over mesh[dp=2, tp=2](cpu:0, cpu:1, cpu:2, "
        "cpu:3)",
        "  cpu:0  dp=0 tp=0  [0:4, 0:3]",
        "  cpu:1  dp=0 tp=1  [0:4, 3:6]",
        "  cpu:2  dp=1 tp=0  [4:8, 0:3]",
        "  cpu:3  dp=1 tp=1  [4:8, 3:6]"]
    partial = visualize(DeviceMapping(MESH2, [Partial()]), ["n", 3])
    assert "  cpu:1  tp=1  [:, :]  term 1 of sum over tp" in partial
    split = visualize(NamedMapping(MESH2, ("tp",)), ["n"])
    assert "cpu:1  tp=1  [n_tp_1]" in split
    live = Tensor.from_numpy(rand(5, 2)).to(DeviceMapping(MESH2, [Sharded(0)]))
    assert "cpu:1  tp=1  [3:5, :]" in visualize(live)


# Weights over a mesh ---------------------------------------------------------

W1 = layout([16, 12], MESH2, Sharded(1))
W2 = layout([12, 3], MESH2, Sharded(0))


def tp_mlp_weights(x):
    h = F.gelu(x @ F.constant_external("w1", W1))
    return (h @ F.constant_external("w2", W2)).to(replicated(x.mesh))


def test_a_weight_over_a_mesh_is_named_without_its_shards():
    names = {}

    def fn(x):
        w = F.constant_external("w1", W1)
        names.update(w=w.external_name,
                     shards=[s.external_name for s in w.local_shards],
                     product=(x @ w).external_name)
        return x @ w

    compilation.stage(fn)(layout([4, 16], MESH2, Replicated()))
    assert names == {"w": "w1", "shards": ["w1._shard.0", "w1._shard.1"],
                     "product": None}


def test_weights_over_a_mesh_bind_global_arrays_or_shards():
    x, w1, w2 = rand(4, 16, seed=9), rand(16, 12, seed=10), rand(12, 3,
                                                                  seed=11)
    spec = layout([4, 16], MESH2, Replicated())
    staged = compilation.stage(tp_mlp_weights)(spec)
    assert staged.weight_names == ["w1._shard.0", "w1._shard.1",
                                   "w2._shard.0", "w2._shard.1"]
    assert repr(staged).count("maxgraph.allreduce") == 1
    h = x @ w1
    gelu = 0.5 * h * (1 + np.vectorize(__import__("math").erf)(h / np.sqrt(2)))
    expected = gelu @ w2
    run = compilation.compile(tp_mlp_weights, weights={"w1": w1, "w2": w2})(
        spec)
    np.testing.assert_allclose(run(x).to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)
    # The shards by their own names (MAX's `name._shard.i`).
    shards = {"w1._shard.0": w1[:, :6].copy(), "w1._shard.1": w1[:, 6:].copy(),
              "w2._shard.0": w2[:6].copy(), "w2._shard.1": w2[6:].copy()}
    run = compilation.compile(tp_mlp_weights, weights=shards)(spec)
    np.testing.assert_allclose(run(x).to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)
    with pytest.raises(ValueError, match="weight 'w1' of compiled graph"
                                         ".*has shape \\[16, 11\\]"):
        compilation.compile(tp_mlp_weights,
                            weights={"w1": w1[:, :11], "w2": w2})(spec)
    with pytest.raises(ValueError, match="w2._shard.0"):
        compilation.compile(tp_mlp_weights, weights={"w1": w1})(spec)


def test_weights_over_a_mesh_declared_twice_must_match():
    def twice(x):
        a = F.constant_external("w", W1)
        b = F.constant_external("w", layout([16, 12], MESH2, Sharded(0)))
        return a + b
    with pytest.raises(ValueError, match="weight 'w' was declared as"):
        compilation.stage(twice)(layout([4, 16], MESH2, Replicated()))


@pytest.mark.parametrize("dtype,op", [(DType.float32, ReduceOp.PROD),
                                      (DType.float16, ReduceOp.PROD),
                                      (DType.int32, ReduceOp.PROD),
                                      (DType.int32, ReduceOp.SUM)])
def test_partial_inputs_hold_the_neutral_element_off_the_first_device(
        dtype, op):
    spec = TensorLayout(dtype, [3], DeviceMapping(MESH2, [Partial(op)]))
    run = compilation.compile(lambda x: x.to(replicated(x.mesh)))(spec)
    data = np.array([2, 3, 5], dtype=np.dtype(dtype.name))
    live = Tensor.from_numpy(data).to(spec.mapping)
    neutral = 1 if op == ReduceOp.PROD else 0
    np.testing.assert_array_equal(live.local_shards[1].to_numpy(),
                                  np.full(3, neutral, data.dtype))
    np.testing.assert_array_equal(run(live).to_numpy(), data)
