# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints the cosine similarities of the sentences given on the command
line, as all-MiniLM-L6-v2 embeds them; `--output=FILE.npy` writes the
normalized embeddings (float32, one row of 384 per sentence, in order).

    python -m examples.minilm "A man is eating food." "A man eats a meal."
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from .encoder import SentenceEncoder


def format_similarities(sentences: list[str], embeddings: np.ndarray) -> str:
    """The cosine similarity matrix, one row per sentence, labelled."""
    similarities = embeddings @ embeddings.T
    lines = ["cosine similarities:"]
    width = len(str(len(sentences)))
    lines.append(" " * (width + 2) + "".join(
        f"{f'[{j}]':>9}" for j in range(len(sentences))))
    for i, row in enumerate(similarities):
        lines.append(f"[{i:>{width}}]" + "".join(f"{v:9.4f}" for v in row)
                     + f"  {sentences[i]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m examples.minilm",
        description="Embeds sentences with all-MiniLM-L6-v2 through "
        "MaxGraph and prints their cosine similarities.")
    parser.add_argument("sentences", nargs="+", metavar="SENTENCE")
    parser.add_argument("--output", metavar="FILE.npy",
                        help="write the normalized embeddings (float32, "
                        "[sentences, 384]) to this .npy file")
    args = parser.parse_args(argv)
    embeddings = SentenceEncoder()(args.sentences)["embeddings"]
    print(format_similarities(args.sentences, embeddings))
    if args.output:
        np.save(args.output, embeddings.astype(np.float32))
        print(f"wrote {embeddings.shape[0]} embeddings to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
