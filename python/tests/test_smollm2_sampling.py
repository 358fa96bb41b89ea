"""The sampler of examples/smollm2 (Decoder.sample, staged in the graph):
top-k, then temperature, then top-p over the candidates, one uniform draw
from the graph's seed. Checked on small made-up logits against the
distribution it must draw from, without the model file."""

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest.importorskip("examples.smollm2.model",
                    reason="needs the gguf, tokenizers and jinja2 packages")
from examples.smollm2.gguf_model import LlamaConfig  # noqa: E402
from examples.smollm2.model import Decoder  # noqa: E402

from maxgraph import compilation, random  # noqa: E402
from maxgraph.dtype import DType  # noqa: E402
from maxgraph.sharding import TensorLayout  # noqa: E402

VOCAB = 8
CONFIG = LlamaConfig(layers=1, hidden=8, ffn=8, heads=1, kv_heads=1,
                     head_dim=8, vocab=VOCAB, rope_theta=1e4, rms_eps=1e-5,
                     context=16, bos_id=0, eos_id=1)
LOGITS = np.array([[1.0, 3.0, 0.5, 2.5, -1.0, 2.0, 0.0, 1.5]], np.float32)


def sampler(top_k):
    decoder = Decoder(CONFIG, 16, top_k=top_k)

    def draw(logits, temperature, top_p, seed):
        random.set_seed(seed)
        return decoder.sample(logits, temperature, top_p)

    scalar = TensorLayout(DType.float32, [])
    return compilation.compile(draw)(
        TensorLayout(DType.float32, [1, VOCAB]), scalar, scalar,
        TensorLayout(DType.int64, []))


def expected_distribution(top_k, temperature, top_p):
    """Probabilities over the vocabulary: the top_k logits, softened, the
    fewest of them (likeliest first) whose probabilities reach top_p,
    renormalized."""
    order = np.argsort(-LOGITS[0], kind="stable")[:top_k]
    scaled = LOGITS[0, order] / temperature
    probs = np.exp(scaled - scaled.max())
    probs /= probs.sum()
    keep = (np.cumsum(probs) - probs) < top_p
    out = np.zeros(VOCAB)
    out[order[keep]] = probs[keep] / probs[keep].sum()
    return out


@pytest.mark.parametrize("top_k,temperature,top_p", [
    (8, 1.0, 1.0), (4, 0.7, 1.0), (5, 1.3, 0.8), (8, 1.0, 0.5)])
def test_draws_follow_the_top_k_top_p_distribution(top_k, temperature, top_p):
    draw = sampler(top_k)
    draws = 3000
    counts = np.zeros(VOCAB)
    for seed in range(draws):
        token = draw(LOGITS, np.array(temperature, np.float32),
                     np.array(top_p, np.float32), np.array(seed, np.int64))
        counts[int(token.to_numpy()[0])] += 1
    want = expected_distribution(top_k, temperature, top_p)
    assert (counts[want == 0] == 0).all(), counts
    # Within 4.5 binomial standard deviations of each expected count.
    sigma = np.sqrt(draws * want * (1 - want))
    assert (np.abs(counts - draws * want) <= 4.5 * sigma + 1).all(), (
        counts / draws, want)


def test_one_candidate_or_a_small_top_p_is_the_likeliest_token():
    for top_k, top_p in [(1, 1.0), (8, 0.05)]:
        draw = sampler(top_k)
        for seed in range(20):
            token = draw(LOGITS, np.array(1.0, np.float32),
                         np.array(top_p, np.float32),
                         np.array(seed, np.int64))
            assert int(token.to_numpy()[0]) == 1


def test_the_same_seed_draws_the_same_token():
    draw = sampler(8)
    args = (LOGITS, np.array(1.0, np.float32), np.array(1.0, np.float32))
    first = [int(draw(*args, np.array(s, np.int64)).to_numpy()[0])
             for s in range(50)]
    again = [int(draw(*args, np.array(s, np.int64)).to_numpy()[0])
             for s in range(50)]
    assert first == again
    assert len(set(first)) > 3
