# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A Llama saved by transformers (`save_pretrained`: config.json and
model.safetensors) under the GGUF names the decoder reads.

transformers rotates the two halves of each head (rotate_half); the decoder
rotates adjacent pairs, as llama.cpp does, for which GGUF converters reorder
the rows of the query and key projections: the same reordering is made here
when they are read. The weights are float32 (read from the memory-mapped
file by maxgraph.weights.load_safetensors).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from maxgraph.weights import SafetensorsError, load_safetensors

from .gguf_model import OUTPUT, LlamaConfig, ModelFileError

# GGUF name within a layer -> transformers' name within `model.layers.<i>.`.
LAYER_NAMES = {
    "attn_norm.weight": "input_layernorm.weight",
    "attn_q.weight": "self_attn.q_proj.weight",
    "attn_k.weight": "self_attn.k_proj.weight",
    "attn_v.weight": "self_attn.v_proj.weight",
    "attn_output.weight": "self_attn.o_proj.weight",
    "ffn_norm.weight": "post_attention_layernorm.weight",
    "ffn_gate.weight": "mlp.gate_proj.weight",
    "ffn_up.weight": "mlp.up_proj.weight",
    "ffn_down.weight": "mlp.down_proj.weight",
}
GLOBAL_NAMES = {
    "token_embd.weight": "model.embed_tokens.weight",
    "output_norm.weight": "model.norm.weight",
    OUTPUT: "lm_head.weight",
}


def interleave_heads(weight: np.ndarray, heads: int) -> np.ndarray:
    """The rows of a query or key projection ([heads * head_dim, hidden])
    reordered from halves (rotate_half) to adjacent pairs: in each head, row
    i of the first half and row i of the second become rows 2i and 2i + 1."""
    rows, columns = weight.shape
    half = rows // heads // 2
    return np.ascontiguousarray(
        weight.reshape(heads, 2, half, columns).swapaxes(1, 2)
        .reshape(rows, columns))


class LlamaSafetensors:
    """The config and weights of `directory`, by GGUF name; no tokenizer
    (ids in, ids out). Bad files raise ModelFileError naming what is
    wrong."""

    def __init__(self, directory: os.PathLike):
        self.path = Path(directory)
        try:
            raw = json.loads((self.path / "config.json").read_text())
            self.tensors = load_safetensors(self.path / "model.safetensors")
        except (OSError, ValueError, SafetensorsError) as error:
            raise ModelFileError(f"{self.path}: {error}") from None
        if raw.get("model_type") != "llama":
            raise ModelFileError(f"{self.path}: model_type "
                                 f"`{raw.get('model_type')}` is not `llama`")
        rope = raw.get("rope_parameters") or {}
        heads = int(raw["num_attention_heads"])
        hidden = int(raw["hidden_size"])
        self.config = LlamaConfig(
            layers=int(raw["num_hidden_layers"]), hidden=hidden,
            ffn=int(raw["intermediate_size"]), heads=heads,
            kv_heads=int(raw.get("num_key_value_heads", heads)),
            head_dim=int(raw.get("head_dim") or hidden // heads),
            vocab=int(raw["vocab_size"]),
            rope_theta=float(rope.get("rope_theta",
                                      raw.get("rope_theta", 10000.0))),
            rms_eps=float(raw["rms_norm_eps"]),
            context=int(raw["max_position_embeddings"]),
            bos_id=int(raw.get("bos_token_id") or 0),
            eos_id=int(raw.get("eos_token_id") or 0),
            tied=bool(raw.get("tie_word_embeddings", True)))

    def _source(self, name: str) -> str:
        if name in GLOBAL_NAMES:
            return GLOBAL_NAMES[name]
        parts = name.split(".", 2)
        if len(parts) == 3 and parts[0] == "blk" and parts[2] in LAYER_NAMES:
            return f"model.layers.{parts[1]}.{LAYER_NAMES[parts[2]]}"
        raise ModelFileError(f"{self.path}: no tensor for `{name}`")

    def weight(self, name: str, transposed: bool = False) -> np.ndarray:
        """Tensor `name` (a GGUF name) as float32; with `transposed`, the
        transpose of a 2-D one, contiguous."""
        weight = self._weight(name)
        return np.ascontiguousarray(weight.T) if transposed else weight

    def _weight(self, name: str) -> np.ndarray:
        source = self._source(name)
        if source not in self.tensors:
            raise ModelFileError(f"{self.path}: the file has no tensor "
                                 f"`{source}` (for `{name}`)")
        weight = np.asarray(self.tensors[source], np.float32)
        c = self.config
        if name.endswith("attn_q.weight"):
            return interleave_heads(weight, c.heads)
        if name.endswith("attn_k.weight"):
            return interleave_heads(weight, c.kv_heads)
        return weight

    def encoding(self, name: str):
        """None: every weight is float32."""
        return None
