# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The 8-bit floats float8_e4m3fn and float8_e5m2: DType members, numpy
arrays through ml_dtypes (bit-exact both ways), casts from and to every
float and integer width compiled and interpreted against ml_dtypes'
rounding, arithmetic computed in f32 and rounded once, data movement."""

import numpy as np
import pytest

ml_dtypes = pytest.importorskip("ml_dtypes")

import maxgraph.functional as F  # noqa: E402
from maxgraph import compilation  # noqa: E402
from maxgraph.dtype import DType, finfo  # noqa: E402
from maxgraph.sharding import TensorLayout  # noqa: E402
from maxgraph.tensor import Tensor  # noqa: E402

FLOAT8 = {DType.float8_e4m3fn: ml_dtypes.float8_e4m3fn,
          DType.float8_e5m2: ml_dtypes.float8_e5m2}


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def both(fn, *arrays, specs):
    """`fn` compiled and interpreted: the compiled results, after checking
    the interpreter gives the same bits."""
    compiled = compilation.compile(fn)(*specs)(*arrays).to_numpy()
    interpreted = compilation.stage(fn)(*specs).interpret(*arrays).to_numpy()
    same_bits(compiled, interpreted)
    return compiled


def edge_values(dtype):
    """Normals, subnormals, ties between neighbours, values just past the
    largest finite number, zeros of both signs, infinities and NaN."""
    info = ml_dtypes.finfo(FLOAT8[dtype])
    top = float(info.max)
    tiny = float(info.smallest_subnormal)
    values = [0.0, -0.0, 1.0, -1.5, 0.1, 3.14159, -100.0, top, -top,
              top * 1.03, top * 1.2, 1e9, tiny, tiny / 2, tiny * 1.5,
              tiny * 2.5, -tiny / 3, float(info.smallest_normal) * 0.99,
              np.inf, -np.inf, np.nan]
    # Every tie between neighbouring representable numbers of [1, 16).
    grid = np.arange(256, dtype=np.uint8).view(FLOAT8[dtype])
    finite = np.sort(grid[np.isfinite(grid)].astype(np.float64))
    finite = finite[(finite >= 1) & (finite < 16)]
    values += list((finite[:-1] + finite[1:]) / 2)
    return np.array(values, np.float64)


@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_dtype_members_and_numpy(dtype):
    assert dtype.size_in_bytes == 1 and dtype.is_float()
    assert not dtype.is_integral()
    assert dtype.to_numpy() == np.dtype(FLOAT8[dtype])
    assert DType.from_numpy(FLOAT8[dtype]) == dtype
    info = finfo(dtype)
    assert info.bits == 8
    assert info.max == float(ml_dtypes.finfo(FLOAT8[dtype]).max)
    assert info.max == {DType.float8_e4m3fn: 448.0,
                        DType.float8_e5m2: 57344.0}[dtype]


@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_arrays_round_trip_bit_exact(dtype):
    bits = np.arange(256, dtype=np.uint8).reshape(16, 16)
    array = bits.view(FLOAT8[dtype])
    tensor = Tensor.from_numpy(array)
    assert tensor.dtype == dtype
    same_bits(tensor.to_numpy(), array)
    # A strided view is copied in row-major order.
    same_bits(Tensor.from_numpy(array[:, ::3]).to_numpy(), array[:, ::3])


@pytest.mark.parametrize("source", [np.float64, np.float32, np.float16])
@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_casts_to_float8_round_as_ml_dtypes(dtype, source):
    with np.errstate(over="ignore"):  # 1e9 is infinity in float16
        values = edge_values(dtype).astype(source)
    spec = TensorLayout(DType.from_numpy(source), [len(values)])
    out = both(lambda x: F.cast(x, dtype), values, specs=[spec])
    expected = values.astype(FLOAT8[dtype])
    if source == np.float16 or source == np.float32:
        # ml_dtypes converts through float32; so does one rounding here.
        expected = values.astype(np.float32).astype(FLOAT8[dtype])
    same_bits(out, expected)


@pytest.mark.parametrize("target", [np.float64, np.float32, np.float16,
                                    np.int32, np.int8])
@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_casts_from_float8_are_exact(dtype, target):
    every = np.arange(256, dtype=np.uint8).view(FLOAT8[dtype])
    if np.dtype(target).kind == "i":
        # Integers take the values that fit them (truncated toward zero).
        wide = every.astype(np.float64)
        info = np.iinfo(target)
        every = every[np.isfinite(wide) & (wide > info.min - 1) &
                      (wide < info.max + 1)]
    spec = TensorLayout(dtype, [len(every)])
    out = both(lambda x: F.cast(x, DType.from_numpy(target)), every,
               specs=[spec])
    expected = every.astype(np.float64).astype(target)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_integers_to_float8(dtype):
    values = np.array([0, 1, -3, 17, 100, 447, 449, 460, 470, 1000, 60000,
                       -70000, 2 ** 30], np.int32)
    out = both(lambda x: F.cast(x, dtype), values,
               specs=[TensorLayout(DType.int32, [len(values)])])
    same_bits(out, values.astype(np.float64).astype(FLOAT8[dtype]))


@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_arithmetic_computes_in_f32_and_rounds_once(dtype, rng):
    kind = FLOAT8[dtype]
    a = rng.standard_normal((4, 9)).astype(np.float32).astype(kind)
    b = (rng.standard_normal((4, 9)) * 4).astype(np.float32).astype(kind)
    specs = [TensorLayout(dtype, [4, 9])] * 2

    def fn(x, y):
        return F.max(x * y + x, y)

    out = both(fn, a, b, specs=specs)
    wide_a, wide_b = a.astype(np.float32), b.astype(np.float32)
    product = (wide_a * wide_b).astype(kind).astype(np.float32)
    expected = np.maximum((product + wide_a).astype(kind).astype(np.float32),
                          wide_b).astype(kind)
    same_bits(out, expected)


@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_data_movement_keeps_the_bits(dtype):
    every = np.arange(256, dtype=np.uint8).view(FLOAT8[dtype]).reshape(16, 16)

    def fn(x):
        moved = F.transpose(x, 0, 1)[2:9]
        return F.concat([moved, F.reshape(x, [1, 256])[:, :16]], 0)

    out = both(fn, every, specs=[TensorLayout(dtype, [16, 16])])
    same_bits(out, np.concatenate([every.T[2:9], every.reshape(1, -1)[:, :16]]))


def test_float8_weights_in_a_graph_that_computes_in_f32(rng):
    # The common use: weights stored in 8 bits, widened for the matmul.
    w = rng.standard_normal((16, 8)).astype(np.float32)
    w8 = w.astype(ml_dtypes.float8_e4m3fn)
    x = rng.standard_normal((3, 16)).astype(np.float32)
    out = compilation.compile(lambda a, b: a @ F.cast(b, DType.float32))(
        TensorLayout(DType.float32, [3, 16]),
        TensorLayout(DType.float8_e4m3fn, [16, 8]))(x, w8).to_numpy()
    np.testing.assert_allclose(out, x @ w8.astype(np.float32), rtol=1e-5,
                               atol=1e-5)


def test_safetensors_float8_weights_load_as_ml_dtypes(tmp_path):
    import json
    import struct

    from maxgraph.weights import load_safetensors

    values = np.array([[1.0, -2.5], [0.0625, 448.0]], np.float32)
    data = values.astype(ml_dtypes.float8_e4m3fn).tobytes() + \
        values.astype(ml_dtypes.float8_e5m2).tobytes()
    header = json.dumps({
        "a": {"dtype": "F8_E4M3", "shape": [2, 2], "data_offsets": [0, 4]},
        "b": {"dtype": "F8_E5M2", "shape": [2, 2], "data_offsets": [4, 8]},
    }).encode()
    path = tmp_path / "w.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)
    loaded = load_safetensors(path)
    same_bits(loaded["a"], values.astype(ml_dtypes.float8_e4m3fn))
    same_bits(loaded["b"], values.astype(ml_dtypes.float8_e5m2))
    # They are weights of a compiled graph as they are.
    layout = TensorLayout(DType.float8_e4m3fn, [2, 2])
    run = compilation.compile(
        lambda x: x * F.cast(F.constant_external("w", layout),
                             DType.float32),
        weights={"w": loaded["a"]})(TensorLayout(DType.float32, [2, 2]))
    out = run(np.ones((2, 2), np.float32)).to_numpy()
    np.testing.assert_array_equal(out, [[1.0, -2.5], [0.0625, 448.0]])


# On a GPU: OpenCL's kernels hold 8-bit floats as i8 and compute in f32
# (maxgraph-gpu-emulate-narrow-floats), the same rounding as on the CPU.

@pytest.mark.parametrize("dtype", list(FLOAT8), ids=lambda d: d.name)
def test_opencl_casts_and_arithmetic_give_the_cpu_bits(dtype, rng,
                                                       monkeypatch):
    from maxgraph.driver import CPU, GPU
    from test_gpu_opencl import needs_opencl

    if needs_opencl.args[0]:
        pytest.skip(needs_opencl.kwargs["reason"])
    monkeypatch.setenv("MAXGRAPH_GPU_RUNTIME", "opencl")
    kind = FLOAT8[dtype]
    values = edge_values(dtype).astype(np.float32)
    every = np.arange(256, dtype=np.uint8).view(kind)
    a = rng.standard_normal((4, 9)).astype(np.float32).astype(kind)
    b = (rng.standard_normal((4, 9)) * 4).astype(np.float32).astype(kind)

    def fn(v, e, x, y):
        # Casts both ways, arithmetic rounded after each op, a reduction,
        # data movement.
        return (F.cast(v, dtype), F.cast(e, DType.float32),
                F.max(x * y + x, y), F.sum(x, axis=1),
                F.transpose(y, 0, 1))

    def specs(device):
        return (TensorLayout(DType.float32, [len(values)], device),
                TensorLayout(dtype, [256], device),
                TensorLayout(dtype, [4, 9], device),
                TensorLayout(dtype, [4, 9], device))

    arrays = (values, every, a, b)
    on_gpu = [t.to(CPU()).to_numpy()
              for t in compilation.compile(fn)(*specs(GPU(0)))(*arrays)]
    on_cpu = [t.to_numpy()
              for t in compilation.compile(fn)(*specs(CPU()))(*arrays)]
    for index in (0, 1, 2, 4):
        same_bits(on_gpu[index], on_cpu[index])
    # A sum accumulates in the element type in any order (docs/Spec.md):
    # each rounding of its 9 steps within half an ulp of a partial sum.
    exact = a.astype(np.float64).sum(axis=1)
    bound = 9 * float(ml_dtypes.finfo(kind).eps) * \
        np.abs(a.astype(np.float64)).sum(axis=1)
    for sums in (on_gpu[3], on_cpu[3]):
        assert sums.dtype == kind
        assert np.all(np.abs(sums.astype(np.float64) - exact) <= bound)
    # The casts as ml_dtypes rounds them, and exact back.
    same_bits(on_gpu[0], values.astype(kind))
    np.testing.assert_array_equal(on_gpu[1], every.astype(np.float32))
