"""A two-layer Llama-style decoder with its KV caches in buffers, written
with the ops a decoder needs (buffer_store_slice at a run-time position,
slices at run-time bounds, shape_to_tensor, RoPE by split and concat, GQA by
reshape and broadcasting): one graph for prefill and decode (symbolic
sequence length), its logits checked at every step against numpy running
the whole sequence without a cache."""

import numpy as np

import maxgraph.functional as F
from maxgraph import compilation
from maxgraph.dtype import DType
from maxgraph.sharding import BufferLayout, TensorLayout

VOCAB, DIM, HEADS, KV_HEADS, HEAD, FFN, LAYERS, MAX_SEQ = 32, 16, 4, 2, 4, 24, 2, 12
EPS, THETA = 1e-5, 10000.0


def make_weights(seed=0):
    rng = np.random.default_rng(seed)

    def w(*shape):
        return (rng.standard_normal(shape) * 0.3).astype(np.float32)

    layers = [dict(attn_norm=1 + w(DIM) * 0.1, q=w(HEADS * HEAD, DIM),
                   k=w(KV_HEADS * HEAD, DIM), v=w(KV_HEADS * HEAD, DIM),
                   o=w(DIM, HEADS * HEAD), ffn_norm=1 + w(DIM) * 0.1,
                   gate=w(FFN, DIM), up=w(FFN, DIM), down=w(DIM, FFN))
              for _ in range(LAYERS)]
    return dict(embed=w(VOCAB, DIM), norm=1 + w(DIM) * 0.1, layers=layers)


def rope_tables():
    inv_freq = 1.0 / THETA ** (np.arange(0, HEAD, 2, dtype=np.float32) / HEAD)
    angles = np.arange(MAX_SEQ, dtype=np.float32)[:, None] * inv_freq[None]
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def reference_logits(weights, tokens):
    """The whole sequence at once, no cache (float64)."""
    cos, sin = (t.astype(np.float64) for t in rope_tables())
    seq = len(tokens)

    def rms(x, w):
        return x / np.sqrt((x * x).mean(-1, keepdims=True) + EPS) * w

    def rope(x):  # [seq, heads, HEAD], half split
        half = HEAD // 2
        x1, x2 = x[..., :half], x[..., half:]
        c, s = cos[:seq, None], sin[:seq, None]
        return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], -1)

    h = weights["embed"][tokens].astype(np.float64)
    for layer in weights["layers"]:
        x = rms(h, layer["attn_norm"])
        q = rope((x @ layer["q"].T).reshape(seq, HEADS, HEAD))
        k = rope((x @ layer["k"].T).reshape(seq, KV_HEADS, HEAD))
        v = (x @ layer["v"].T).reshape(seq, KV_HEADS, HEAD)
        k = np.repeat(k, HEADS // KV_HEADS, axis=1)
        v = np.repeat(v, HEADS // KV_HEADS, axis=1)
        scores = np.einsum("qhd,khd->hqk", q, k) / np.sqrt(HEAD)
        scores = np.where(np.tril(np.ones((seq, seq), bool)), scores, -np.inf)
        p = np.exp(scores - scores.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        attn = np.einsum("hqk,khd->qhd", p, v).reshape(seq, HEADS * HEAD)
        h = h + attn @ layer["o"].T
        x = rms(h, layer["ffn_norm"])
        gate = x @ layer["gate"].T
        h = h + ((gate / (1 + np.exp(-gate))) * (x @ layer["up"].T)) \
            @ layer["down"].T
    return rms(h, weights["norm"]) @ weights["embed"].T


def stage_step(weights):
    cos_table, sin_table = rope_tables()
    group = HEADS // KV_HEADS

    def rope(x, cos, sin):  # x [seq, heads, HEAD]; cos, sin [seq, HEAD/2]
        x1, x2 = F.split(x, [HEAD // 2, HEAD // 2], axis=-1)
        c, s = F.unsqueeze(cos, 1), F.unsqueeze(sin, 1)
        return F.concat([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)

    def step(tokens, pos, k_cache, v_cache):
        seq = tokens.shape[0]
        end = pos + seq
        c = lambda a: F.constant(a, DType.float32)
        h = F.gather(c(weights["embed"]), tokens, 0)
        cos = c(cos_table)[pos:end]
        sin = c(sin_table)[pos:end]
        # Key positions 0..end-1 against query positions pos..end-1.
        key_positions = F.arange(0, MAX_SEQ, dtype=DType.int64)[0:end]
        query_positions = F.arange(0, seq, dtype=DType.int64) + pos
        allowed = F.unsqueeze(key_positions, 0) <= \
            F.unsqueeze(query_positions, 1)
        for i, layer in enumerate(weights["layers"]):
            x = F.rms_norm(h, c(layer["attn_norm"]), EPS)
            q = rope(F.reshape(x @ F.transpose(c(layer["q"]), 0, 1),
                               [seq, HEADS, HEAD]), cos, sin)
            k = rope(F.reshape(x @ F.transpose(c(layer["k"]), 0, 1),
                               [seq, KV_HEADS, HEAD]), cos, sin)
            v = F.reshape(x @ F.transpose(c(layer["v"]), 0, 1),
                          [seq, KV_HEADS, HEAD])
            k_cache[i, pos:end] = k
            v_cache[i, pos:end] = v
            keys = k_cache[i, 0:end]          # [?, KV_HEADS, HEAD]
            values = v_cache[i, 0:end]
            # GQA: query heads grouped per key head, keys broadcast.
            qg = F.permute(F.reshape(q, [seq, KV_HEADS, group, HEAD]),
                           [1, 2, 0, 3])        # [KV, G, seq, HEAD]
            kt = F.unsqueeze(F.permute(keys, [1, 2, 0]), 1)  # [KV, 1, HEAD, ?]
            scores = (qg @ kt) * (1.0 / np.sqrt(HEAD))
            scores = F.where(allowed, scores, float("-inf"))
            p = F.softmax(scores, axis=-1)
            vg = F.unsqueeze(F.permute(values, [1, 0, 2]), 1)  # [KV, 1, ?, HEAD]
            attn = F.reshape(F.permute(p @ vg, [2, 0, 1, 3]),
                             [seq, HEADS * HEAD])
            h = h + attn @ F.transpose(c(layer["o"]), 0, 1)
            x = F.rms_norm(h, c(layer["ffn_norm"]), EPS)
            gate = x @ F.transpose(c(layer["gate"]), 0, 1)
            up = x @ F.transpose(c(layer["up"]), 0, 1)
            h = h + (F.silu(gate) * up) @ F.transpose(c(layer["down"]), 0, 1)
        x = F.rms_norm(h, c(weights["norm"]), EPS)
        return x @ F.transpose(c(weights["embed"]), 0, 1)

    cache = BufferLayout(DType.float32, [LAYERS, MAX_SEQ, KV_HEADS, HEAD])
    return compilation.compile(step)(TensorLayout(DType.int64, ["seq"]),
                                     TensorLayout(DType.int64, []),
                                     cache, cache)


def test_prefill_then_decode_matches_the_uncached_reference():
    weights = make_weights()
    step = stage_step(weights)
    k_cache = np.zeros((LAYERS, MAX_SEQ, KV_HEADS, HEAD), np.float32)
    v_cache = np.zeros_like(k_cache)
    rng = np.random.default_rng(1)
    tokens = list(rng.integers(0, VOCAB, 5))
    logits = step(np.array(tokens, np.int64), np.array(0, np.int64),
                  k_cache, v_cache).to_numpy()
    np.testing.assert_allclose(logits, reference_logits(weights, tokens),
                               rtol=1e-4, atol=1e-4)
    # Greedy decode, one token per call, each step against the reference
    # over the whole sequence so far.
    for _ in range(4):
        tokens.append(int(np.argmax(logits[-1])))
        logits = step(np.array(tokens[-1:], np.int64),
                      np.array(len(tokens) - 1, np.int64),
                      k_cache, v_cache).to_numpy()
        expected = reference_logits(weights, tokens)[-1:]
        np.testing.assert_allclose(logits, expected, rtol=1e-4, atol=1e-4)
