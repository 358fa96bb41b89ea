"""External weights: ops.constant_external, compile(..., weights=), prefixes
of as_subgraph bodies, and maxgraph.weights.load_safetensors."""

import json
import re
import struct

import numpy as np
import pytest

import maxgraph
from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.weights import SafetensorsError, load_safetensors

X = TensorLayout(DType.float32, [2, 4])
W = TensorLayout(DType.float32, [4, 4])
B = TensorLayout(DType.float32, [4])


def linear(x):
    return x @ ops.constant_external("w", W) + ops.constant_external("b", B)


def test_weights_are_names_and_layouts_not_bytes(rng):
    staged = compilation.stage(linear)(X)
    text = str(staged)
    assert staged.weight_names == ["w", "b"]
    assert [str(layout) for layout in staged.weight_layouts] == \
        [str(W), str(B)]
    assert staged.argument_names == ["x"]
    assert re.search(r'%w: !maxgraph\.tensor<\[4, 4\], f32> '
                     r'\{maxgraph\.weight = "w"\}', text), text
    assert 'maxgraph.weight = "b"' in text
    assert "dense" not in text


def test_large_weight_prints_small():
    big = TensorLayout(DType.float32, [4096, 4096])  # 64 MiB of data
    staged = compilation.stage(
        lambda x: x @ ops.constant_external("big", big))(
            TensorLayout(DType.float32, [1, 4096]))
    assert len(str(staged)) < 2000


def test_compile_with_numpy_weights(rng):
    w = rng.standard_normal((4, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    run = compilation.compile(linear, weights={"w": w, "b": b})(X)
    np.testing.assert_allclose(run(x).to_numpy(), x @ w + b, rtol=1e-5)
    # The call takes the function's arguments only.
    with pytest.raises(TypeError, match="1 positional arguments, got 2"):
        run(x, w)


def test_weights_are_bound_without_copies(rng):
    w = rng.standard_normal((4, 4)).astype(np.float32)
    b = np.zeros(4, np.float32)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    run = compilation.compile(linear, weights={"w": w, "b": b})(X)
    view = run.weights["w"]
    assert np.shares_memory(view, w)
    assert not view.flags.writeable
    np.testing.assert_array_equal(run.weights["b"], b)
    # The graph reads the array's memory: a store into it shows.
    b[:] = 10
    np.testing.assert_allclose(run(x).to_numpy(), x @ w + 10, rtol=1e-5)


def test_read_only_weights_are_shared(rng):
    w = rng.standard_normal((4, 4)).astype(np.float32)
    w.flags.writeable = False
    b = np.ones(4, np.float32)
    run = compilation.compile(linear, weights={"w": w, "b": b})(X)
    assert np.shares_memory(run.weights["w"], w)


def test_binding_errors_name_the_weight(rng):
    w = np.zeros((4, 4), np.float32)
    b = np.zeros(4, np.float32)
    staged = compilation.stage(linear)(X)
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"weight 'b' \(!maxgraph.tensor<\[4\], f32>\) "
                             r"is not bound"):
        staged.compile(weights={"w": w})
    with pytest.raises(maxgraph.RuntimeError, match="weight 'w' .* not bound"):
        staged.compile()
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"weight 'c' is not a weight of the graph "
                             r"\(its weights: 'w', 'b'\)"):
        staged.compile(weights={"w": w, "b": b, "c": b})
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"weight 'w' has shape \[4, 3\] but the graph "
                             r"expects \[4, 4\]"):
        staged.compile(weights={"w": np.zeros((4, 3), np.float32), "b": b})
    with pytest.raises(maxgraph.RuntimeError,
                       match=r"weight 'b' has dtype f64 but the graph "
                             r"expects f32"):
        staged.compile(weights={"w": w, "b": np.zeros(4)})
    with pytest.raises(TypeError, match="weight 'w' of compiled graph"):
        staged.compile(weights={"w": None, "b": b})


def test_staging_errors_name_the_weight():
    def twice(x):
        ops.constant_external("w", W)
        return x @ ops.constant_external("w", TensorLayout(DType.float32,
                                                           [4, 2]))

    with pytest.raises(maxgraph.StagingError,
                       match=r"weight 'w' was declared as "
                             r"!maxgraph.tensor<\[4, 4\], f32> and is "
                             r"declared here as "
                             r"!maxgraph.tensor<\[4, 2\], f32>"):
        compilation.stage(twice)(X)

    def symbolic(x):
        return ops.constant_external(
            "s", TensorLayout(DType.float32, ["batch"]))

    with pytest.raises(maxgraph.StagingError,
                       match="weight 's' has dim `batch`.*static shapes"):
        compilation.stage(symbolic)(X)


def test_same_name_is_one_weight(rng):
    def fn(x):
        w = ops.constant_external("w", W)
        return x @ w @ ops.constant_external("w", W)

    staged = compilation.stage(fn)(X)
    assert staged.weight_names == ["w"]
    w = rng.standard_normal((4, 4)).astype(np.float32)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    out = staged.compile(weights={"w": w})(x).to_numpy()
    np.testing.assert_allclose(out, x @ w @ w, rtol=1e-4)


def test_a_weight_tensor_knows_its_name(rng):
    # MAX's Tensor.external_name: the name a weight loads under; None for
    # every other tensor, those computed from a weight included.
    names = {}

    def fn(x):
        w = ops.constant_external("w", W)
        y = x @ w
        names.update(w=w.external_name, again=ops.constant_external(
            "w", W).external_name, x=x.external_name, y=y.external_name,
            same=(w + 0).external_name)
        return y

    compilation.stage(fn)(X)
    assert names == {"w": "w", "again": "w", "x": None, "y": None,
                     "same": None}
    assert maxgraph.Tensor.from_numpy(
        rng.standard_normal(3).astype(np.float32)).external_name is None
    kept = []
    compilation.stage(lambda x: kept.append(
        ops.constant_external("w", W)) or x)(X)
    with pytest.raises(maxgraph.StagingError, match="has ended"):
        kept[0].external_name


def block(x):
    return ops.relu(x @ ops.constant_external("w", W)) + x


def two_layers(x):
    for i in range(2):
        x = compilation.as_subgraph(block, name="block",
                                    prefix=f"layers.{i}.")(x)
    return x


def test_prefixes_share_one_body(rng):
    staged = compilation.stage(two_layers)(X)
    text = str(staged)
    assert staged.weight_names == ["layers.0.w", "layers.1.w"]
    assert re.findall(r"maxgraph\.graph @(\w+)", text) == ["block",
                                                           "two_layers"]
    assert len(re.findall(r"maxgraph\.call @block", text)) == 2
    ws = [rng.standard_normal((4, 4)).astype(np.float32) for _ in range(2)]
    x = rng.standard_normal((2, 4)).astype(np.float32)
    run = staged.compile(weights={"layers.0.w": ws[0], "layers.1.w": ws[1]})
    expected = x
    for w in ws:
        expected = np.maximum(expected @ w, 0) + expected
    np.testing.assert_allclose(run(x).to_numpy(), expected, rtol=1e-4)


def test_prefixes_when_subgraphs_are_inlined(rng):
    staged = compilation.stage(two_layers, allow_subgraphs=False)(X)
    assert staged.weight_names == ["layers.0.w", "layers.1.w"]
    assert "maxgraph.call" not in str(staged)


def test_a_body_weight_is_named_as_declared():
    # In an as_subgraph body, external_name is the declared name, relative
    # to the call's prefix, whether the body is shared or inlined.
    for allow in (True, False):
        names = []

        def named_block(x):
            w = ops.constant_external("w", W)
            names.append(w.external_name)
            return x @ w

        def model(x):
            for i in range(2):
                x = compilation.as_subgraph(named_block, name="named",
                                            prefix=f"layers.{i}.")(x)
            return x

        staged = compilation.stage(model, allow_subgraphs=allow)(X)
        assert staged.weight_names == ["layers.0.w", "layers.1.w"]
        assert set(names) == {"w"}, allow


def test_nested_prefixes_compose(rng):
    def outer(x):
        inner = compilation.as_subgraph(block, prefix="attn.")
        return inner(x) + x @ ops.constant_external("proj", W)

    def fn(x):
        for i in range(2):
            x = compilation.as_subgraph(outer, prefix=f"layers.{i}.")(x)
        return x

    staged = compilation.stage(fn)(X)
    assert staged.weight_names == ["layers.0.attn.w", "layers.0.proj",
                                   "layers.1.attn.w", "layers.1.proj"]
    assert len(re.findall(r"maxgraph\.graph @outer", str(staged))) == 1
    ws = {name: rng.standard_normal((4, 4)).astype(np.float32)
          for name in staged.weight_names}
    x = rng.standard_normal((2, 4)).astype(np.float32)
    expected = x
    for i in range(2):
        attn = ws[f"layers.{i}.attn.w"]
        expected = (np.maximum(expected @ attn, 0) + expected
                    + expected @ ws[f"layers.{i}.proj"])
    out = staged.compile(weights=ws)(x).to_numpy()
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def write_safetensors(path, tensors, metadata=None):
    """A safetensors file written by hand: header length, JSON, bytes."""
    header = {}
    blobs = []
    offset = 0
    for name, (dtype, array) in tensors.items():
        data = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    if metadata is not None:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def test_load_safetensors(tmp_path, rng):
    w = rng.standard_normal((4, 4)).astype(np.float32)
    h = rng.standard_normal(3).astype(np.float16)
    i = np.arange(6, dtype=np.int64).reshape(2, 3)
    bf = np.array([0x3F80, 0xC000], np.uint16)  # bfloat16 1.0, -2.0
    path = tmp_path / "model.safetensors"
    write_safetensors(path, {"w": ("F32", w), "h": ("F16", h),
                             "i": ("I64", i), "bf": ("BF16", bf)},
                      metadata={"format": "pt"})
    loaded = load_safetensors(path)
    assert list(loaded) == ["w", "h", "i", "bf"]
    np.testing.assert_array_equal(loaded["w"], w)
    np.testing.assert_array_equal(loaded["h"], h)
    np.testing.assert_array_equal(loaded["i"], i)
    np.testing.assert_array_equal(loaded["bf"], bf)
    assert loaded["w"].dtype == np.float32 and loaded["i"].dtype == np.int64
    assert not loaded["w"].flags.writeable


def test_safetensors_weights_run(tmp_path, rng):
    w = rng.standard_normal((4, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    path = tmp_path / "linear.safetensors"
    write_safetensors(path, {"w": ("F32", w), "b": ("F32", b)})
    weights = load_safetensors(path)
    run = compilation.compile(linear, weights=weights)(X)
    assert np.shares_memory(run.weights["w"], weights["w"])
    np.testing.assert_allclose(run(x).to_numpy(), x @ w + b, rtol=1e-5)


def test_bfloat16_weight_takes_bits(tmp_path):
    layout = TensorLayout(DType.bfloat16, [2])

    def fn(x):
        return x + ops.cast(ops.constant_external("bf", layout),
                            DType.float32)

    path = tmp_path / "bf.safetensors"
    write_safetensors(path, {"bf": ("BF16",
                                    np.array([0x3F80, 0xC000], np.uint16))})
    run = compilation.compile(fn, weights=load_safetensors(path))(
        TensorLayout(DType.float32, [2]))
    out = run(np.zeros(2, np.float32)).to_numpy()
    np.testing.assert_array_equal(out, [1.0, -2.0])


def test_safetensors_errors_name_the_file(tmp_path):
    short = tmp_path / "short.safetensors"
    short.write_bytes(b"\x01\x02")
    with pytest.raises(SafetensorsError,
                       match=r"short\.safetensors: truncated"):
        load_safetensors(short)
    long_header = tmp_path / "long.safetensors"
    long_header.write_bytes(struct.pack("<Q", 1000) + b"{}")
    with pytest.raises(SafetensorsError,
                       match=r"long\.safetensors: the header length 1000 "
                             r"does not fit the file of 10 bytes"):
        load_safetensors(long_header)
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(struct.pack("<Q", 3) + b"{x}")
    with pytest.raises(SafetensorsError, match="bad.safetensors: the header "
                                               "is not JSON"):
        load_safetensors(bad)
    cut = tmp_path / "cut.safetensors"
    write_safetensors(cut, {"w": ("F32", np.zeros((4, 4), np.float32))})
    cut.write_bytes(cut.read_bytes()[:-4])
    with pytest.raises(SafetensorsError,
                       match=r"cut\.safetensors: tensor 'w' has data_offsets "
                             r"\[0, 64\], outside the 60 bytes of data"):
        load_safetensors(cut)
    odd = tmp_path / "odd.safetensors"
    write_safetensors(odd, {"w": ("C64", np.zeros(2, np.complex64))})
    with pytest.raises(SafetensorsError, match="tensor 'w' has dtype 'C64'"):
        load_safetensors(odd)


def test_safetensors_package_agrees(tmp_path, rng):
    numpy_api = pytest.importorskip("safetensors.numpy")
    w = rng.standard_normal((3, 5)).astype(np.float32)
    i = np.arange(4, dtype=np.int32)
    path = tmp_path / "ref.safetensors"
    numpy_api.save_file({"w": w, "i": i}, str(path))
    loaded = load_safetensors(path)
    np.testing.assert_array_equal(loaded["w"], w)
    np.testing.assert_array_equal(loaded["i"], i)


@pytest.mark.parametrize("rows", [1, 3, 8, 13])
def test_matmuls_of_few_rows_read_packed_weights(rows, rng):
    # A weight is packed into panels when bound, whatever the rows of A
    # (maxgraph-pack-weights): as B and as torch.nn.Linear's W^T, static
    # rows below, at and above one register tile's.
    k, n = 96, 128
    w = rng.standard_normal((k, n)).astype(np.float32)
    wt = rng.standard_normal((n, k)).astype(np.float32)
    x = rng.standard_normal((rows, k)).astype(np.float32)

    def fn(a):
        b = ops.constant_external("b", TensorLayout(DType.float32, [k, n]))
        t = ops.constant_external("t", TensorLayout(DType.float32, [n, k]))
        return a @ b, a @ ops.transpose(t, [1, 0])

    run = compilation.compile(fn, weights={"b": w, "t": wt})(
        TensorLayout(DType.float32, [rows, k]))
    first, second = run(x)
    np.testing.assert_allclose(first.to_numpy(), x @ w, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(second.to_numpy(), x @ wt.T, rtol=1e-5,
                               atol=1e-4)
