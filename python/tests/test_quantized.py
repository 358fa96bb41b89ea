"""F.dequantize and F.qmatmul on GGUF blocks, compiled, against the `gguf`
package's own decoding (gguf.quants.dequantize) and a float64 matmul."""

import numpy as np
import pytest

import maxgraph.functional as F
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.quantization import QuantizationEncoding
from maxgraph.sharding import TensorLayout

gguf = pytest.importorskip("gguf")

ENCODINGS = [QuantizationEncoding.Q4_0, QuantizationEncoding.Q4_1,
             QuantizationEncoding.Q8_0]


def random_blocks(encoding, rows, values, seed=0):
    """uint8 [rows, bytes]: finite f16 scales (and minimums), random codes."""
    rng = np.random.default_rng(seed)
    blocks = values // 32
    out = rng.integers(0, 256, (rows, blocks, encoding.block_nbytes),
                       dtype=np.uint8)
    halves = 2 if encoding is QuantizationEncoding.Q4_1 else 1
    scales = rng.uniform(-0.1, 0.1, (rows, blocks, halves)).astype(np.float16)
    out[:, :, :2 * halves] = scales.view(np.uint8).reshape(rows, blocks, -1)
    return out.reshape(rows, blocks * encoding.block_nbytes)


def gguf_decoded(encoding, blocks):
    kind = getattr(gguf.GGMLQuantizationType, encoding.name)
    return gguf.quants.dequantize(blocks, kind).astype(np.float32)


@pytest.mark.parametrize("encoding", ENCODINGS, ids=str)
@pytest.mark.parametrize("shape", [(5,), (3, 5), (37,)],
                         ids=["rows", "batch of rows", "more rows than a tile"])
def test_dequantize_matches_gguf(encoding, shape):
    # Rows decode in vectors, in tiles of rows spread over the threads; a
    # batch of them in one generic.
    rows = int(np.prod(shape))
    blocks = random_blocks(encoding, rows, 96).reshape(*shape, -1)
    compiled = compilation.compile(lambda q: F.dequantize(encoding, q))(
        TensorLayout(DType.uint8, list(blocks.shape)))
    got = compiled(blocks).to_numpy()
    assert got.shape == (*shape, 96)
    # The same f32 operations (the f16 scale widened, one multiply, one
    # add): the values are equal, not close.
    expected = gguf_decoded(encoding, blocks.reshape(rows, -1))
    np.testing.assert_array_equal(got.reshape(rows, 96), expected)


@pytest.mark.parametrize("encoding", ENCODINGS, ids=str)
@pytest.mark.parametrize("rows", [1, 3, 8, 9, 40])
def test_qmatmul_matches_a_float64_matmul(encoding, rows):
    # Up to 8 rows take the CPU's register kernel, more a decoded temporary;
    # 37 weight rows leave a partial tile of the kernel's threads.
    k, n = 128, 37
    blocks = random_blocks(encoding, n, k, seed=rows)
    x = np.random.default_rng(1).standard_normal((rows, k)).astype(np.float32)
    compiled = compilation.compile(
        lambda x, q: F.qmatmul(encoding, None, x, q))(
            TensorLayout(DType.float32, ["rows", k]),
            TensorLayout(DType.uint8, list(blocks.shape)))
    got = compiled(x, blocks).to_numpy()
    expected = x.astype(np.float64) @ \
        gguf_decoded(encoding, blocks).astype(np.float64).T
    # f32 sums of k products: errors scale with the largest result.
    np.testing.assert_allclose(got, expected, rtol=1e-5,
                               atol=1e-6 * np.abs(expected).max())


def test_qmatmul_keeps_the_lhs_batch_dims_and_reads_external_weights():
    encoding = QuantizationEncoding.Q4_1
    blocks = random_blocks(encoding, 16, 64)
    x = np.random.default_rng(2).standard_normal((2, 3, 64)).astype(
        np.float32)

    def fn(x):
        w = ops.constant_external("w", TensorLayout(DType.uint8,
                                                    list(blocks.shape)))
        return F.qmatmul(encoding, None, x, w)

    staged = compilation.stage(fn)(TensorLayout(DType.float32, [2, 3, 64]))
    assert "maxgraph.qmatmul q4_1" in str(staged)
    # A read-only array (a memory-mapped file) binds as it is.
    blocks.setflags(write=False)
    got = staged.compile({"w": blocks})(x).to_numpy()
    expected = x.astype(np.float64) @ \
        gguf_decoded(encoding, blocks).astype(np.float64).T
    assert got.shape == (2, 3, 16)
    # f32 sums of k products: errors scale with the largest result.
    np.testing.assert_allclose(got, expected, rtol=1e-5,
                               atol=1e-6 * np.abs(expected).max())


def stage_error(fn, *specs):
    with pytest.raises(ValueError) as error:
        compilation.stage(fn)(*specs)
    return str(error.value)


def test_bad_operands_are_named():
    x = TensorLayout(DType.float32, [2, 64])
    q41 = TensorLayout(DType.uint8, [4, 40])
    message = stage_error(
        lambda x, q: F.qmatmul(QuantizationEncoding.Q4_1, None, x, q), x,
        TensorLayout(DType.uint8, [4, 41]))
    assert "last dim `41` of operand 1 is not a whole number of q4_1 " \
        "blocks (20 bytes each" in message
    message = stage_error(
        lambda x, q: F.qmatmul(QuantizationEncoding.Q4_1, None, x, q), x,
        TensorLayout(DType.float32, [4, 40]))
    assert "operand 1 has element type 'f32' but holds q4_1 blocks, which " \
        "are ui8 bytes" in message
    message = stage_error(
        lambda x, q: F.qmatmul(QuantizationEncoding.Q4_1, None, x, q),
        TensorLayout(DType.float16, [2, 64]), q41)
    assert "operand 0 has element type 'f16' but qmatmul multiplies f32" \
        in message
    message = stage_error(
        lambda x, q: F.qmatmul(QuantizationEncoding.Q4_1, None, x, q),
        TensorLayout(DType.float32, [2, 32]), q41)
    assert "contracting dims differ: dim 1 of operand 0 is `32` but the " \
        "rows of operand 1 hold 64 values" in message
    message = stage_error(lambda q: F.dequantize("q5_k", q), q41)
    assert "'maxgraph.dequantize' has no encoding 'q5_k'; expected " \
        "'q4_0', 'q4_1' or 'q8_0'" in message
    with pytest.raises(ValueError, match="GPTQ"):
        compilation.stage(
            lambda x, q: F.qmatmul(QuantizationEncoding.Q4_1, object(), x,
                                   q))(x, q41)
