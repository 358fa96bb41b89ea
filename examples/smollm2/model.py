# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The Llama decoder against the staging API.

`step(tokens, pos, k_caches, v_caches)` is the staged function: the new
tokens (`[seq]`, symbolic, so one graph serves prefill and decode) at
positions `pos .. pos + seq - 1`, and one key and one value cache per layer
(BufferLayouts of `Decoder.cache_shapes()`: values `[kv_heads, max_seq,
head_dim]`, keys transposed, `[kv_heads, head_dim, max_seq]`, so that both
attention products read them as stored, with the cache positions along
their vectors). Each layer writes its keys
and values at `pos` and attends to the cache up to `pos + seq`. It returns
the last position's logits and the greedy next token; `sampled_step`
draws it instead (`sample`: top-k, temperature, top-p, from the graph's
seed). `generate` runs the decoder in a while_loop, one token at a time
until the end-of-sequence token or a limit: the graph of `--in-graph-loop`.

Weights are external weights (`ops.constant_external`) named as in the
GGUF; the layers share one `as_subgraph` body whose weight names are
relative to `blk.<i>.`. Linear weights are read in their file's block
encoding by `F.qmatmul` (q4 weights) or as float32 transposes. RoPE rotates adjacent pairs (llama.cpp's
convention, for which GGUF files store the query and key rows), and grouped
query heads read their key head by reshape and broadcasting, without copies.
"""

from __future__ import annotations

from typing import Mapping, Optional

import numpy as np

import maxgraph.functional as F
from maxgraph import compilation, ops, random
from maxgraph.dtype import DType
from maxgraph.quantization import QuantizationEncoding
from maxgraph.sharding import BufferLayout, TensorLayout

from .gguf_model import OUTPUT, LlamaConfig


def rope_tables(config: LlamaConfig, max_seq: int) -> tuple[np.ndarray,
                                                            np.ndarray]:
    """cos and sin of position * theta^(-2i / head_dim), [max_seq,
    head_dim / 2], computed in float64 and rounded once."""
    half = config.head_dim // 2
    inv_freq = config.rope_theta ** (-np.arange(half, dtype=np.float64) * 2
                                     / config.head_dim)
    angles = np.arange(max_seq, dtype=np.float64)[:, None] * inv_freq[None]
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def layer_prefix(index: int) -> str:
    return f"blk.{index}."


TRANSPOSED = ".T"
EMBEDDING = "token_embd.weight"
# The linear weights of a layer, by their names within it.
LINEAR_WEIGHTS = ("attn_q.weight", "attn_k.weight", "attn_v.weight",
                  "attn_output.weight", "ffn_gate.weight", "ffn_up.weight",
                  "ffn_down.weight")


def transposed_name(name: str) -> str:
    """The name the model declares for the transpose of GGUF tensor
    `name`."""
    return name + TRANSPOSED


class Decoder:
    """The staged model for `config` with caches of `max_seq` positions."""

    def __init__(self, config: LlamaConfig, max_seq: int,
                 encodings: Optional[Mapping[str, QuantizationEncoding]]
                 = None, top_k: Optional[int] = None):
        """`encodings` names the weights read in their file's block
        encoding (a layer's by its name relative to `blk.<i>.`); the others
        are float32. With `top_k`, the graphs draw each token from that many
        candidates (`sample`) instead of taking the likeliest."""
        self.config = config
        self.top_k = top_k
        self.max_seq = max_seq
        self.encodings = dict(encodings or {})
        self.cos_table, self.sin_table = rope_tables(config, max_seq)

    def _weight(self, name: str, dims) -> "F.Tensor":
        return ops.constant_external(name, TensorLayout(DType.float32, dims))

    def _blocks(self, name: str, rows: int, columns: int):
        """Weight `name` as its file's blocks: uint8 [rows, bytes]."""
        encoding = self.encodings[name]
        row_bytes = columns // encoding.block_size * encoding.block_nbytes
        return ops.constant_external(
            name, TensorLayout(DType.uint8, [rows, row_bytes]))

    def _linear(self, x, name: str, out: int, inputs: int):
        """`x @ weight.T` for the file's weight [out, in]: on its blocks
        (qmatmul takes them as stored, rows of `in` values) or, in float32,
        on the [in, out] transpose bound at load as `<name>.T` (a transpose
        in the graph would be made on every call: the compiler does not
        fold it into the matmul yet)."""
        encoding = self.encodings.get(name)
        if encoding is not None:
            return F.qmatmul(encoding, None, x,
                             self._blocks(name, out, inputs))
        return x @ self._weight(transposed_name(name), [inputs, out])

    def _rope(self, x, cos, sin, heads: int):
        """Rotates adjacent pairs of `x` ([seq, heads, head_dim]) by the
        angles of its positions (`cos`, `sin`: [seq, head_dim / 2])."""
        c = self.config
        seq = x.shape[0]
        pairs = F.reshape(x, [seq, heads, c.head_dim // 2, 2])
        even, odd = F.split(pairs, [1, 1], axis=-1)
        cos = F.reshape(cos, [seq, 1, c.head_dim // 2, 1])
        sin = F.reshape(sin, [seq, 1, c.head_dim // 2, 1])
        rotated = F.concat([even * cos - odd * sin, even * sin + odd * cos],
                           axis=-1)
        return F.reshape(rotated, [seq, heads, c.head_dim])

    def layer(self, h, pos, cos, sin, allowed, k_cache, v_cache):
        """One decoder layer on `h` ([seq, hidden]); weights relative to
        the layer's prefix."""
        c = self.config
        seq = h.shape[0]
        end = pos + seq
        group = c.heads // c.kv_heads
        x = F.rms_norm(h, self._weight("attn_norm.weight", [c.hidden]),
                       c.rms_eps)
        q = F.reshape(self._linear(x, "attn_q.weight", c.heads * c.head_dim,
                                   c.hidden), [seq, c.heads, c.head_dim])
        k = F.reshape(self._linear(x, "attn_k.weight",
                                   c.kv_heads * c.head_dim, c.hidden),
                      [seq, c.kv_heads, c.head_dim])
        v = F.reshape(self._linear(x, "attn_v.weight",
                                   c.kv_heads * c.head_dim, c.hidden),
                      [seq, c.kv_heads, c.head_dim])
        q = self._rope(q, cos, sin, c.heads)
        k = self._rope(k, cos, sin, c.kv_heads)
        # Keys [kv_heads, head_dim, max_seq], values [kv_heads, max_seq,
        # head_dim]: both products below are plain batched matmuls over
        # the key heads whose columns run along the cache (the positions
        # for the scores, head_dim for the output), however few the queries.
        k_cache[:, :, pos:end] = F.permute(k, [1, 2, 0])
        v_cache[:, pos:end] = F.permute(v, [1, 0, 2])
        keys = k_cache[:, :, 0:end]           # [kv, head_dim, ?]
        values = v_cache[:, 0:end]            # [kv, ?, head_dim]
        # The query heads of a key head as rows, position-major:
        # [kv, seq * group, head_dim].
        queries = F.reshape(
            F.permute(F.reshape(q, [seq, c.kv_heads, group, c.head_dim]),
                      [1, 0, 2, 3]), [c.kv_heads, seq * group, c.head_dim])
        # [kv, seq * group, ?]: a row per (position, query head).
        scores = (queries @ keys) * (1.0 / np.sqrt(c.head_dim))
        # The query at position pos + i, in row i * group + g of each key
        # head, sees the keys at 0 .. pos + i.
        rows = F.repeat_interleave(allowed, group, axis=0)
        probs = F.softmax(F.where(rows, scores, float("-inf")), axis=-1)
        attn = F.reshape(probs @ values, [c.kv_heads, seq, group, c.head_dim])
        attn = F.reshape(F.permute(attn, [1, 0, 2, 3]),
                         [seq, c.heads * c.head_dim])
        h = h + self._linear(attn, "attn_output.weight", c.hidden,
                             c.heads * c.head_dim)
        x = F.rms_norm(h, self._weight("ffn_norm.weight", [c.hidden]),
                       c.rms_eps)
        gate = self._linear(x, "ffn_gate.weight", c.ffn, c.hidden)
        up = self._linear(x, "ffn_up.weight", c.ffn, c.hidden)
        return h + self._linear(F.silu(gate) * up, "ffn_down.weight",
                                c.hidden, c.ffn)

    def step(self, tokens, pos, k_caches, v_caches):
        """Logits of the last new position ([1, vocab]) and the greedy next
        token ([1] int64)."""
        logits = self.logits(tokens, pos, k_caches, v_caches)
        return logits, F.argmax(logits, axis=-1)

    def sampled_step(self, tokens, pos, temperature, top_p, seed, k_caches,
                     v_caches):
        """`step` with the next token drawn by `sample` from the graph's
        seed `seed`."""
        logits = self.logits(tokens, pos, k_caches, v_caches)
        random.set_seed(seed)
        return logits, self.sample(logits, temperature, top_p)

    def sample(self, logits, temperature, top_p):
        """A token ([1] int64) drawn from the `top_k` largest logits
        ([1, vocab]) divided by `temperature`, among the fewest of them
        whose probabilities reach `top_p` (the likeliest always), by one
        uniform draw: top-p over the top-k candidates, no full sort."""
        values, indices = F.top_k(logits, self.top_k, axis=-1)    # [1, k]
        probs = F.softmax(values / temperature, axis=-1)
        before = F.cumsum(probs, axis=-1) - probs
        kept = F.where(before < top_p, probs, 0.0)
        running = F.cumsum(kept, axis=-1)
        draw = F.uniform((1, 1)) * running[:, -1:]
        # The first candidate whose running sum passes the draw.
        chosen = F.sum(F.cast(running <= draw, DType.int64), axis=-1)
        chosen = F.min(chosen, self.top_k - 1)
        return F.gather(F.reshape(indices, [self.top_k]),
                        F.reshape(chosen, [1]), 0)

    def logits(self, tokens, pos, k_caches, v_caches):
        """Logits of the last new position ([1, vocab])."""
        c = self.config
        seq = tokens.shape[0]
        end = pos + seq
        quantized = self.encodings.get(EMBEDDING)
        if quantized is not None:
            table = self._blocks(EMBEDDING, c.vocab, c.hidden)
            h = F.dequantize(quantized, F.gather(table, tokens, 0))
        else:
            h = F.gather(self._weight(EMBEDDING, [c.vocab, c.hidden]),
                         tokens, 0)
        cos = F.constant(self.cos_table, DType.float32)[pos:end]
        sin = F.constant(self.sin_table, DType.float32)[pos:end]
        # A query at position pos + i sees the keys at 0 .. pos + i.
        key_positions = F.arange(0, self.max_seq, dtype=DType.int64)[0:end]
        query_positions = F.arange(0, seq, dtype=DType.int64) + pos
        allowed = F.unsqueeze(key_positions, 0) <= \
            F.unsqueeze(query_positions, 1)
        for index in range(c.layers):
            layer = compilation.as_subgraph(self.layer, name="decoder_layer",
                                            prefix=layer_prefix(index))
            h = layer(h, pos, cos, sin, allowed, k_caches[index],
                      v_caches[index])
        last = F.rms_norm(h[-1:],
                          self._weight("output_norm.weight", [c.hidden]),
                          c.rms_eps)
        # A tied model's output projection is its embedding.
        return self._linear(last, EMBEDDING if c.tied else OUTPUT, c.vocab,
                            c.hidden)

    def generate(self, token, pos, limit, k_caches, v_caches, ids):
        """Greedy tokens after `token` ([1], at position `pos`) in one
        call: a while_loop runs the decoder on each new token until it
        generates the end-of-sequence token or `limit` tokens, storing them
        in `ids` ([max_seq] int64); returns how many it stored."""
        return self._loop(token, pos, limit, k_caches, v_caches, ids,
                          lambda logits, count: F.argmax(logits, axis=-1))

    def generate_sampled(self, token, pos, limit, temperature, top_p, seed,
                         k_caches, v_caches, ids):
        """`generate` with each token drawn by `sample`, the one after
        `count` stored ones from seed `seed + count`."""
        def choose(logits, count):
            random.set_seed(seed + count)
            return self.sample(logits, temperature, top_p)

        return self._loop(token, pos, limit, k_caches, v_caches, ids, choose)

    def _loop(self, token, pos, limit, k_caches, v_caches, ids, choose):
        c = self.config

        def more(count, token, pos):
            return F.logical_and(count < limit,
                                 F.reshape(token, []) != c.eos_id)

        def next_token(count, token, pos):
            logits = self.logits(token, pos, k_caches, v_caches)
            chosen = F.reshape(choose(logits, count), [1])
            ids[count:count + 1] = chosen
            return count + 1, chosen, pos + 1

        zero = F.constant(np.array(0, np.int64), DType.int64)
        count, _, _ = F.while_loop([zero, token, pos], more, next_token)
        return count

    def cache_shapes(self):
        """The shapes of one layer's key and value caches: keys
        `[kv_heads, head_dim, max_seq]`, values `[kv_heads, max_seq,
        head_dim]`."""
        c = self.config
        return ((c.kv_heads, c.head_dim, self.max_seq),
                (c.kv_heads, self.max_seq, c.head_dim))

    def _caches(self):
        keys, values = (BufferLayout(DType.float32, list(shape))
                        for shape in self.cache_shapes())
        return [keys] * self.config.layers, [values] * self.config.layers

    def specs(self):
        return (TensorLayout(DType.int64, ["seq"]),
                TensorLayout(DType.int64, []), *self._caches())

    def step_name(self) -> str:
        """The name of `stage()`'s graph: `top_k` is in the code of a
        sampled step, so it is in its name (an exported step says which
        it is)."""
        if self.top_k is None:
            return "smollm2"
        return f"smollm2_sampled_top{self.top_k}"

    def stage(self):
        """The graph of `step`, or with `top_k`, of `sampled_step`."""
        if self.top_k is None:
            return compilation.stage(self.step, name=self.step_name())(
                *self.specs())
        tokens, pos, k_caches, v_caches = self.specs()
        return compilation.stage(self.sampled_step, name=self.step_name())(
            tokens, pos, *self._sampling(), k_caches, v_caches)

    def stage_loop(self):
        """The graph of `generate`, or with `top_k`, of
        `generate_sampled`."""
        scalar = TensorLayout(DType.int64, [])
        token = TensorLayout(DType.int64, [1])
        ids = BufferLayout(DType.int64, [self.max_seq])
        if self.top_k is None:
            return compilation.stage(self.generate, name="smollm2_loop")(
                token, scalar, scalar, *self._caches(), ids)
        return compilation.stage(self.generate_sampled,
                                 name="smollm2_sampled_loop")(
            token, scalar, scalar, *self._sampling(), *self._caches(), ids)

    @staticmethod
    def _sampling():
        """temperature, top_p and seed."""
        return (TensorLayout(DType.float32, []),
                TensorLayout(DType.float32, []),
                TensorLayout(DType.int64, []))
