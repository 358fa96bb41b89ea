# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Operators on live tensors run eagerly, as MAX's do, and a distributed
live tensor reads as the whole: shards joined, Partial terms reduced."""

import operator

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.driver import CPU
from maxgraph.dtype import DType
from maxgraph.sharding import (DeviceMapping, DeviceMesh, Partial,
                               Replicated, Sharded, TensorLayout)
from maxgraph.tensor import Tensor

MESH2 = DeviceMesh([CPU(0), CPU(1)], (2,), ("tp",))
MESH22 = DeviceMesh([CPU(i) for i in range(4)], (2, 2), ("dp", "tp"))


def live(array):
    return Tensor.from_numpy(np.ascontiguousarray(array))


@pytest.fixture
def data():
    rng = np.random.default_rng(7)
    return (rng.standard_normal((3, 4)).astype(np.float32),
            rng.uniform(0.5, 2.0, (3, 4)).astype(np.float32))


BINARY = [operator.add, operator.sub, operator.mul, operator.truediv,
          operator.pow, operator.lt, operator.le, operator.gt, operator.ge,
          operator.eq, operator.ne]


@pytest.mark.parametrize("op", BINARY, ids=lambda op: op.__name__)
def test_binary_operators_on_two_live_tensors(op, data):
    x, y = data
    if op is operator.pow:
        x = np.abs(x)  # No NaNs from negative bases.
    result = op(live(x), live(y))
    assert isinstance(result, Tensor) and result.is_live
    np.testing.assert_allclose(result.to_numpy(), op(x, y), rtol=1e-6)


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul,
                                operator.truediv, operator.lt],
                         ids=lambda op: op.__name__)
def test_numbers_on_either_side(op, data):
    x, _ = data
    np.testing.assert_allclose(op(live(x), 2).to_numpy(), op(x, 2),
                               rtol=1e-6)
    np.testing.assert_allclose(op(3, live(x)).to_numpy(), op(3, x),
                               rtol=1e-6)
    # A numpy scalar is a number too, on either side.
    left = op(np.float32(3), live(x))
    assert isinstance(left, Tensor)
    np.testing.assert_allclose(left.to_numpy(), op(np.float32(3), x),
                               rtol=1e-6)
    assert op(live(x), np.float32(3)).to_numpy().dtype == \
        op(x, np.float32(3)).dtype


def test_integer_and_unary_operators():
    a = np.array([[5, -7, 12], [0, 3, -1]], np.int32)
    b = np.array([[3, 2, 5], [4, 1, 6]], np.int32)
    np.testing.assert_array_equal((live(a) % live(b)).to_numpy(),
                                  np.mod(a, b))
    np.testing.assert_array_equal((live(a) & live(b)).to_numpy(), a & b)
    np.testing.assert_array_equal((live(a) | 8).to_numpy(), a | 8)
    np.testing.assert_array_equal((live(a) ^ live(b)).to_numpy(), a ^ b)
    np.testing.assert_array_equal((~live(a)).to_numpy(), ~a)
    np.testing.assert_array_equal((-live(a)).to_numpy(), -a)
    np.testing.assert_array_equal(abs(live(a)).to_numpy(), np.abs(a))


def test_matmul_indexing_and_chains(data):
    x, y = data
    a, b = live(x), live(y)
    np.testing.assert_allclose((a @ b.T).to_numpy(), x @ y.T, rtol=1e-5)
    np.testing.assert_array_equal(a[1].to_numpy(), x[1])
    np.testing.assert_array_equal(a[:, 1:3].to_numpy(), x[:, 1:3])
    np.testing.assert_array_equal(a[-1, ::2].to_numpy(), x[-1, ::2])
    assert a[2, 3].item() == x[2, 3]
    # The example: F's functions and operators mix.
    v = live(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose((F.exp(v) + v * 2).to_numpy(),
                               np.exp([1.0, 2.0, 3.0]) + [2.0, 4.0, 6.0],
                               rtol=1e-6)
    # A numpy array beside a live tensor is data too.
    np.testing.assert_array_equal((a + np.ones(4, np.float32)).to_numpy(),
                                  x + 1)


def test_eager_operators_share_functionals_cache(data):
    x, y = data
    a, b = live(x), live(y)
    a * b
    cached = len(F._EAGER_CACHE)
    # Same layouts: the compiled graph is reused, nothing new is compiled.
    np.testing.assert_allclose((live(y) * live(x)).to_numpy(), x * y)
    assert len(F._EAGER_CACHE) == cached
    a[0:2]
    cached = len(F._EAGER_CACHE)
    a[0:2]
    assert len(F._EAGER_CACHE) == cached
    # Another static number is another graph.
    a * 5
    assert len(F._EAGER_CACHE) == cached + 1


def test_truth_value_of_live_tensors():
    assert live(np.array([2.0], np.float32)) == 2.0
    assert not bool(live(np.array(0, np.int32)))
    with pytest.raises(ValueError, match="the truth value of a tensor of 3 "
                       "elements is ambiguous"):
        bool(live(np.ones(3, np.float32)))


def test_operator_errors_name_the_line(data):
    x, _ = data
    with pytest.raises(Exception, match=r"test_live_operators.py:\d+.*"
                       r"'maxgraph.add' op operand 1 has element type 'f64' "
                       r"but operand 0 has 'f32'"):
        live(x) + np.ones(4)
    with pytest.raises(Exception, match="'maxgraph.matmul'"):
        live(x) @ live(x)


def mapping(mesh, *placements):
    return DeviceMapping(mesh, list(placements))


def layout(shape, mesh, *placements):
    return TensorLayout(DType.float32, list(shape), mapping(mesh, *placements))


def test_partial_tensor_parallel_mlp_reads_back_as_its_sum():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w1 = rng.standard_normal((8, 16)).astype(np.float32)
    w2 = rng.standard_normal((16, 8)).astype(np.float32)

    def mlp(x, w1, w2):
        return F.relu(x @ w1) @ w2

    run = compilation.compile(mlp)(layout(x.shape, MESH2, Replicated()),
                                   layout(w1.shape, MESH2, Sharded(1)),
                                   layout(w2.shape, MESH2, Sharded(0)))
    out = run(live(x).to(mapping(MESH2, Replicated())),
              live(w1).to(mapping(MESH2, Sharded(1))),
              live(w2).to(mapping(MESH2, Sharded(0))))
    assert out.placements == [Partial()]
    expected = np.maximum(x @ w1, 0) @ w2
    # No term alone is the result.
    assert not np.allclose(out.local_shards[0].to_numpy(), expected,
                           atol=1e-3)
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)
    host = out.to(CPU())
    assert host.placements is None and host.device == CPU()
    np.testing.assert_allclose(host.to_numpy(), expected, rtol=1e-4,
                               atol=1e-4)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-4,
                               atol=1e-4)
    assert out.__dlpack_device__() == (1, 0)  # kDLCPU: read on the host.
    np.testing.assert_allclose(np.from_dlpack(out), expected, rtol=1e-4,
                               atol=1e-4)
    # The live result feeds eager operators after reading.
    np.testing.assert_allclose((out.to(CPU()) * 2).to_numpy(), expected * 2,
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("reduction", ["sum", "max", "min"])
def test_partial_over_one_axis_of_a_2d_mesh(reduction):
    # Sharded over dp and tp; reducing the tp-sharded axis leaves each tp
    # device one term: Partial over tp, still Sharded over dp.
    x = np.random.default_rng(5).standard_normal((4, 8)).astype(np.float32)
    spec = layout(x.shape, MESH22, Sharded(0), Sharded(1))
    run = compilation.compile(
        lambda t: getattr(F, reduction)(t, axis=1))(spec)
    result = run(live(x).to(spec.mapping))
    assert result.placements[0] == Sharded(0)
    assert isinstance(result.placements[1], Partial)
    expected = getattr(np, reduction)(x, axis=1, keepdims=True)
    # No single tp term is the whole reduction.
    assert not np.allclose(result.local_shards[0].to_numpy(), expected[:2])
    np.testing.assert_allclose(result.to_numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(result.to(CPU())), expected,
                               rtol=1e-5)
