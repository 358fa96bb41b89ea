"""SmolLM2-135M-Instruct (examples/smollm2) against the greedy tokens of
transformers from the same GGUF, dequantized to float32
(examples/smollm2/reference/, made by examples/smollm2/make_reference.py).

The prompt ids must be the reference's exactly. The generated ids must be
the reference's up to and including the first step where the reference's
top two logits are closer than LOW_GAP: past such a step, float rounding
may rightly pick the other token and the two continuations part. The
last prompt position's logits (last_logits_<i>.npy) are compared in
process, through the generator's compiled step (the JSON interface gives
no logits), within LOGITS_TOLERANCE."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest.importorskip(
    "examples.smollm2.generator",
    reason="needs the gguf, tokenizers and jinja2 packages")
from examples.smollm2.gguf_model import ModelFileError, packaged_gguf  # noqa

try:
    packaged_gguf()
except ModelFileError as error:
    pytest.skip(str(error), allow_module_level=True)

REFERENCE = json.loads((ROOT / "examples" / "smollm2" / "reference" /
                        "reference.json").read_text())
CASES = REFERENCE["cases"]
MAX_NEW_TOKENS = max(len(case["ids"]) for case in CASES)

# Top-1 minus top-2 logit below which the greedy choice is a near tie.
LOW_GAP = 0.05
# The largest difference allowed from the reference's logits.
LOGITS_TOLERANCE = 1e-3


def compared_steps(gaps: list[float]) -> int:
    """The steps to compare: up to and including the first near tie, all
    of them when there is none."""
    for step, gap in enumerate(gaps):
        if gap < LOW_GAP:
            return step + 1
    return len(gaps)


@pytest.fixture(scope="module", params=["f32", "q4"])
def results(request):
    """The example's JSON results for every reference prompt, from one
    run with `--weights <param>`."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.environ.get("PYTHONPATH", ""), str(ROOT)]))
    out = subprocess.run(
        [sys.executable, "-m", "examples.smollm2", "--json", "--greedy",
         "--max-new-tokens", str(MAX_NEW_TOKENS), "--max-seq", "128",
         "--weights", request.param] + [case["prompt"] for case in CASES],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == len(CASES), out.stdout
    return [json.loads(line) for line in lines]


def test_reference_is_the_known_answer():
    assert CASES[0]["prompt"] == "What is the capital of France?"
    assert CASES[0]["text"] == "The capital of France is Paris."


@pytest.mark.parametrize("index", range(len(CASES)))
def test_prompt_ids_match_the_reference(results, index):
    assert results[index]["prompt_ids"] == CASES[index]["prompt_ids"]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_greedy_ids_match_the_reference(results, index):
    case = CASES[index]
    actual = results[index]["ids"]
    steps = compared_steps(case["gaps"])
    for step in range(steps):
        assert step < len(actual), (
            f"{case['prompt']!r}: stopped after {len(actual)} tokens, the "
            f"reference goes on with {case['ids'][step]} at step {step}")
        assert actual[step] == case["ids"][step], (
            f"{case['prompt']!r}: step {step} chose {actual[step]}, the "
            f"reference {case['ids'][step]} (its top-2 gap "
            f"{case['gaps'][step]:.4f}); so far {actual[:step + 1]}")
    if steps == len(case["ids"]):
        assert actual == case["ids"]
        assert results[index]["text"] == case["text"]


@pytest.mark.parametrize("weights", ["q4", "f32"])
def test_last_prompt_logits_match_the_reference(weights):
    from examples.smollm2.generator import Generator

    generator = Generator(max_seq=128, weights=weights,
                          progress=lambda message: None)
    for index, case in enumerate(CASES):
        expected = np.load(ROOT / "examples" / "smollm2" / "reference" /
                           f"last_logits_{index}.npy")
        logits, _ = generator.step(np.array(case["prompt_ids"], np.int64),
                                   np.array(0, np.int64), generator.k_caches,
                                   generator.v_caches)
        logits = logits.to_numpy().reshape(-1)
        assert logits.shape == expected.shape
        worst = float(np.abs(logits - expected).max())
        assert worst < LOGITS_TOLERANCE, (case["prompt"], weights, worst)
