# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Makes tiny_llama/: a 2-layer Llama with random weights, saved by
transformers as safetensors, and its outputs from transformers, the
reference that python/tests/test_tiny_llama.py checks the example's decoder
against (through the interpreter and the CPU) without the SmolLM2 file.

Not run by the tests (PyTorch is not a test dependency); run it by hand in
an environment with torch and transformers:

    python examples/smollm2/make_tiny_llama.py

The model: LlamaConfig with vocabulary 256, hidden 64, 4 query and 2
key-value heads of 16, SwiGLU 172, RoPE theta 10000, RMSNorm eps 1e-5,
untied output, weights from torch.manual_seed(SEED) at initializer_range
0.05, eager attention, float32. Writes `model.safetensors` and
`config.json` (save_pretrained), and `reference.json`: the versions, and
per prompt (random ids of lengths 1, 7 and 33) its `prompt_ids`, the greedy
`ids` (MAX_NEW_TOKENS, no end-of-sequence token) and each step's top-1
minus top-2 logit (`gaps`), and `logits_<i>.npy` (float32 [steps, vocab]):
the logits that chose each generated token, the first from the prompt's
last position. A seed whose greedy steps come closer than MIN_GAP to a tie
is skipped for the next, so that token equality is a stable test.
"""

import json
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import LlamaConfig, LlamaForCausalLM

OUT = Path(__file__).resolve().parent / "tiny_llama"
PROMPT_LENGTHS = [1, 7, 33]
MAX_NEW_TOKENS = 16
MIN_GAP = 1e-2


def config() -> LlamaConfig:
    return LlamaConfig(
        vocab_size=256, hidden_size=64, intermediate_size=172,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=128, rms_norm_eps=1e-5, rope_theta=10000.0,
        tie_word_embeddings=False, initializer_range=0.05,
        attn_implementation="eager", bos_token_id=0, eos_token_id=1,
        dtype=torch.float32)


def greedy(model, prompt: list[int]):
    """The greedy ids and the logits that chose each, one step at a time
    through the model's KV cache."""
    ids, rows = [], []
    with torch.no_grad():
        out = model(torch.tensor([prompt]), use_cache=True)
        for _ in range(MAX_NEW_TOKENS):
            logits = out.logits[0, -1].to(torch.float32)
            rows.append(logits.numpy().copy())
            token = int(torch.argmax(logits))
            ids.append(token)
            out = model(torch.tensor([[token]]),
                        past_key_values=out.past_key_values, use_cache=True)
    return ids, np.stack(rows)


def main() -> None:
    for seed in range(100):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(config()).eval()
        rng = np.random.default_rng(seed)
        prompts = [rng.integers(2, 256, n).tolist() for n in PROMPT_LENGTHS]
        cases, logits = [], []
        for prompt in prompts:
            ids, rows = greedy(model, prompt)
            top = np.sort(rows, axis=-1)
            gaps = (top[:, -1] - top[:, -2]).tolist()
            cases.append({"prompt_ids": prompt, "ids": ids, "gaps": gaps})
            logits.append(rows)
        if min(min(case["gaps"]) for case in cases) >= MIN_GAP:
            break
    else:
        raise SystemExit("no seed below 100 keeps every step clear of ties")
    OUT.mkdir(exist_ok=True)
    model.save_pretrained(OUT, safe_serialization=True)
    for name in OUT.glob("generation_config.json"):
        name.unlink()
    for index, rows in enumerate(logits):
        np.save(OUT / f"logits_{index}.npy", rows.astype(np.float32))
    (OUT / "reference.json").write_text(json.dumps({
        "transformers": transformers.__version__,
        "torch": torch.__version__, "seed": seed, "min_gap": MIN_GAP,
        "cases": cases}, indent=1) + "\n")
    print(f"seed {seed}: wrote {OUT}")


if __name__ == "__main__":
    main()
