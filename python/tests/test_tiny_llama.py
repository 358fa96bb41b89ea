"""examples/smollm2's decoder on a 2-layer Llama with random weights saved
by transformers (examples/smollm2/tiny_llama/, made with its reference by
examples/smollm2/make_tiny_llama.py): the safetensors loader (GGUF names,
query and key rows reordered for adjacent-pair RoPE), an untied output
head, grouped-query attention, and the logits of every greedy step against
transformers', compiled (host loop and while_loop) and interpreted. The
reference's steps are all at least 1e-2 from a tie, so token equality is
stable."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest.importorskip("examples.smollm2.model",
                    reason="needs the gguf, tokenizers and jinja2 packages")
from examples.smollm2.generator import weight_arrays  # noqa: E402
from examples.smollm2.gguf_model import ModelFileError  # noqa: E402
from examples.smollm2.model import Decoder  # noqa: E402
from examples.smollm2.safetensors_model import (  # noqa: E402
    LlamaSafetensors, interleave_heads)

TINY = ROOT / "examples" / "smollm2" / "tiny_llama"
REFERENCE = json.loads((TINY / "reference.json").read_text())
MAX_SEQ = 64
# Measured differences are about 1e-6 (logits of magnitude about 1).
TOLERANCE = 1e-4


@pytest.fixture(scope="module")
def tiny():
    model = LlamaSafetensors(TINY)
    decoder = Decoder(model.config, MAX_SEQ)
    staged = decoder.stage()
    arrays = weight_arrays(model, staged.weight_names, {})
    return model, decoder, staged, arrays


def caches(decoder):
    keys, values = decoder.cache_shapes()
    layers = decoder.config.layers
    return ([np.zeros(keys, np.float32) for _ in range(layers)],
            [np.zeros(values, np.float32) for _ in range(layers)])


def test_the_config_is_the_saved_one(tiny):
    c = tiny[0].config
    assert (c.layers, c.hidden, c.heads, c.kv_heads, c.head_dim, c.vocab,
            c.ffn, c.tied) == (2, 64, 4, 2, 16, 256, 172, False)


def test_query_rows_become_adjacent_pairs():
    # Head 0 of a 2-head projection with head_dim 4: rows h0 h1 | h2 h3
    # (halves) become h0 h2 h1 h3 (pairs).
    weight = np.arange(8, dtype=np.float32)[:, None]
    assert interleave_heads(weight, 2)[:, 0].tolist() == \
        [0, 2, 1, 3, 4, 6, 5, 7]


@pytest.mark.parametrize("index", range(len(REFERENCE["cases"])))
def test_every_greedy_step_matches_transformers(tiny, index):
    _, decoder, staged, arrays = tiny
    step = staged.compile(arrays)
    case = REFERENCE["cases"][index]
    expected = np.load(TINY / f"logits_{index}.npy")
    k, v = caches(decoder)
    tokens, pos, ids = case["prompt_ids"], 0, []
    for row in expected:
        logits, token = step(np.array(tokens, np.int64),
                             np.array(pos, np.int64), k, v)
        worst = float(np.abs(logits.to_numpy()[0] - row).max())
        assert worst < TOLERANCE, (index, len(ids), worst)
        pos += len(tokens)
        tokens = [int(token.to_numpy().reshape(-1)[0])]
        ids += tokens
    assert ids == case["ids"]


def test_the_while_loop_generates_the_same_ids(tiny):
    _, decoder, staged, arrays = tiny
    step = staged.compile(arrays)
    loop = decoder.stage_loop().compile(arrays)
    for case in REFERENCE["cases"]:
        k, v = caches(decoder)
        prompt = case["prompt_ids"]
        _, first = step(np.array(prompt, np.int64), np.array(0, np.int64),
                        k, v)
        first = int(first.to_numpy().reshape(-1)[0])
        generated = np.zeros(MAX_SEQ, np.int64)
        count = loop(np.array([first], np.int64),
                     np.array(len(prompt), np.int64),
                     np.array(len(case["ids"]) - 1, np.int64), k, v,
                     generated)
        assert [first] + generated[:int(count.to_numpy())].tolist() == \
            case["ids"]


def test_the_interpreter_matches_transformers(tiny):
    # The reference interpreter (double precision, one rounding per op):
    # the prompt of 7 and two decode steps, through the caches.
    _, decoder, staged, arrays = tiny
    case = REFERENCE["cases"][1]
    expected = np.load(TINY / "logits_1.npy")
    k, v = caches(decoder)
    tokens, pos = case["prompt_ids"], 0
    for step in range(3):
        logits, token = staged.interpret(
            np.array(tokens, np.int64), np.array(pos, np.int64), k, v,
            weights=arrays)
        worst = float(np.abs(logits.to_numpy()[0] - expected[step]).max())
        assert worst < TOLERANCE, (step, worst)
        assert int(token.to_numpy().reshape(-1)[0]) == case["ids"][step]
        pos += len(tokens)
        tokens = [case["ids"][step]]


def test_bad_directories_are_named(tmp_path):
    with pytest.raises(ModelFileError, match="config.json"):
        LlamaSafetensors(tmp_path)
    (tmp_path / "config.json").write_text(
        json.dumps({"model_type": "gpt2"}))
    (tmp_path / "model.safetensors").write_bytes(
        (TINY / "model.safetensors").read_bytes())
    with pytest.raises(ModelFileError, match="model_type `gpt2` is not "
                       "`llama`"):
        LlamaSafetensors(tmp_path)
    with pytest.raises(ModelFileError, match="no tensor for `blk.0.nope`"):
        LlamaSafetensors(TINY).weight("blk.0.nope")
