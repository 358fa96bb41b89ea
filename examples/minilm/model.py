# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The BERT encoder of all-MiniLM-L6-v2 against the staging API.

`encode(input_ids, attention_mask)` is the staged function: the
embeddings (word + position + token type 0, LayerNorm), six encoder layers
through one shared `as_subgraph` body, then sentence-transformers' mean
pooling over the attention mask and L2 normalization. `input_ids` and
`attention_mask` are `[batch, seq]` int64 with symbolic dims, so one
compiled graph serves every batch size and length (up to the 512 positions
of the position table).

Every weight is an external weight (`ops.constant_external`), declared by
its name in `model.safetensors`: the IR holds names and layouts, and
`compile(weights=...)` binds the file's arrays. The layer body declares its
weights by their names under the layer's prefix (`encoder.layer.<i>.`), and
each of the six calls binds them under its own prefix, so that one body
serves every layer.
"""

from __future__ import annotations

import math
import numpy as np

from maxgraph import compilation, ops
from maxgraph.dtype import DType
from maxgraph.sharding import TensorLayout
from maxgraph.tensor import Tensor

HIDDEN = 384
HEADS = 12
HEAD_DIM = HIDDEN // HEADS
INTERMEDIATE = 1536
LAYERS = 6
LAYER_NORM_EPS = 1e-12
# transformers' additive attention mask: (1 - mask) * finfo(float32).min.
MASK_MIN = float(np.finfo(np.float32).min)

# The weights of one encoder layer, by their names under its prefix, with
# their dims (dense weights are [out, in], as torch.nn.Linear stores them).
LAYER_WEIGHTS = {
    "attention.self.query.weight": [HIDDEN, HIDDEN],
    "attention.self.query.bias": [HIDDEN],
    "attention.self.key.weight": [HIDDEN, HIDDEN],
    "attention.self.key.bias": [HIDDEN],
    "attention.self.value.weight": [HIDDEN, HIDDEN],
    "attention.self.value.bias": [HIDDEN],
    "attention.output.dense.weight": [HIDDEN, HIDDEN],
    "attention.output.dense.bias": [HIDDEN],
    "attention.output.LayerNorm.weight": [HIDDEN],
    "attention.output.LayerNorm.bias": [HIDDEN],
    "intermediate.dense.weight": [INTERMEDIATE, HIDDEN],
    "intermediate.dense.bias": [INTERMEDIATE],
    "output.dense.weight": [HIDDEN, INTERMEDIATE],
    "output.dense.bias": [HIDDEN],
    "output.LayerNorm.weight": [HIDDEN],
    "output.LayerNorm.bias": [HIDDEN],
}

EMBEDDING_WEIGHTS = {
    "embeddings.word_embeddings.weight": [30522, HIDDEN],
    "embeddings.position_embeddings.weight": [512, HIDDEN],
    "embeddings.token_type_embeddings.weight": [2, HIDDEN],
    "embeddings.LayerNorm.weight": [HIDDEN],
    "embeddings.LayerNorm.bias": [HIDDEN],
}


def layer_prefix(index: int) -> str:
    return f"encoder.layer.{index}."


def _weight(name: str) -> Tensor:
    """The weight `name` (its name in `model.safetensors`; in the layer body,
    its name under the layer's prefix)."""
    dims = EMBEDDING_WEIGHTS.get(name) or LAYER_WEIGHTS[name]
    return ops.constant_external(name, TensorLayout(DType.float32, dims))


def _linear(x: Tensor, name: str) -> Tensor:
    """torch.nn.Linear: `x @ weight.T + bias`."""
    weight = ops.transpose(_weight(name + ".weight"), [1, 0])
    return x @ weight + _weight(name + ".bias")


def _layer_norm(x: Tensor,
                name: str) -> Tensor:
    return ops.layer_norm(x, _weight(name + ".weight"),
                          _weight(name + ".bias"),
                          epsilon=LAYER_NORM_EPS)


def _split_heads(x: Tensor) -> Tensor:
    """[batch, seq, HIDDEN] -> [batch, HEADS, seq, HEAD_DIM]."""
    batch, seq = x.shape[0], x.shape[1]
    return ops.transpose(ops.reshape(x, [batch, seq, HEADS, HEAD_DIM]),
                         [0, 2, 1, 3])


def encoder_layer(x: Tensor, mask: Tensor) -> Tensor:
    """One BertLayer (post-layer-norm): self-attention, then the MLP.

    `x` is [batch, seq, HIDDEN], `mask` the additive mask [batch, 1, 1, seq];
    the weights are declared by their names under the layer's prefix."""
    batch, seq = x.shape[0], x.shape[1]
    query = _split_heads(_linear(x, "attention.self.query"))
    key = _split_heads(_linear(x, "attention.self.key"))
    value = _split_heads(_linear(x, "attention.self.value"))
    scores = query @ ops.transpose(key, [0, 1, 3, 2])
    scores = scores * (1.0 / math.sqrt(HEAD_DIM)) + mask
    context = ops.softmax(scores, axis=-1) @ value
    context = ops.reshape(ops.transpose(context, [0, 2, 1, 3]),
                          [batch, seq, HIDDEN])
    attention = _layer_norm(
        _linear(context, "attention.output.dense") + x,
        "attention.output.LayerNorm")
    hidden = ops.gelu(_linear(attention, "intermediate.dense"))
    return _layer_norm(
        _linear(hidden, "output.dense") + attention,
        "output.LayerNorm")


def embeddings(input_ids: Tensor) -> Tensor:
    """Word + position + token type 0 embeddings, then LayerNorm."""
    # Position ids 0 .. seq-1, the same for every row: their embeddings
    # ([seq, HIDDEN]) broadcast over the batch.
    positions = ops.arange(0, input_ids.shape[1], 1, DType.int64)
    token_type = ops.slice(
        _weight("embeddings.token_type_embeddings.weight"),
        [(0, 1, 1), (0, None, 1)])
    x = (ops.gather(_weight("embeddings.word_embeddings.weight"),
                    input_ids)
         + ops.gather(
             _weight("embeddings.position_embeddings.weight"),
             positions)
         + token_type)
    return _layer_norm(x, "embeddings.LayerNorm")


def encode(input_ids: Tensor, attention_mask: Tensor) -> dict:
    """The staged model: `embeddings` (the normalized sentence embeddings,
    [batch, HIDDEN]) and `last_hidden_state` ([batch, seq, HIDDEN])."""
    batch, seq = input_ids.shape[0], input_ids.shape[1]
    mask = ops.cast(attention_mask, DType.float32)
    additive = ops.reshape((1.0 - mask) * MASK_MIN, [batch, 1, 1, seq])
    x = embeddings(input_ids)
    for index in range(LAYERS):
        layer = compilation.as_subgraph(encoder_layer, name="encoder_layer",
                                        prefix=layer_prefix(index))
        x = layer(x, additive)
    # Mean pooling over the tokens the mask keeps (sentence-transformers:
    # the count clamped to 1e-9), then F.normalize (the norm clamped to
    # 1e-12).
    kept = ops.reshape(mask, [batch, seq, 1])
    summed = ops.reduce_sum(x * kept, axis=1)
    count = ops.max(ops.reduce_sum(kept, axis=1), 1e-9)
    pooled = summed / count
    norm = ops.sqrt(ops.reduce_sum(pooled * pooled, axis=-1, keep_dims=True))
    normalized = pooled / ops.max(norm, 1e-12)
    return {"embeddings": normalized, "last_hidden_state": x}


def input_layouts() -> tuple[TensorLayout, TensorLayout]:
    """The specs of `input_ids` and `attention_mask`: [batch, seq] int64."""
    spec = TensorLayout(DType.int64, ["batch", "seq"])
    return spec, spec


def stage(**options):
    """`encode` staged for symbolic batch and seq."""
    return compilation.stage(encode, name="minilm", **options)(
        *input_layouts())
