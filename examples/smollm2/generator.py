# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The driver: loads the GGUF, compiles the decoder once (disk-cached by
the compile cache), and generates with a host loop, one call per token
after the prompt's, or with `in_graph_loop` one call of a while_loop graph
for them all; the KV caches stay in the caller's arrays, and `chat` keeps a
conversation in them. Tokens are the likeliest, or drawn in the graph with
`Sampling`."""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import maxgraph
import numpy as np
from maxgraph import compilation
from maxgraph.sharding import BufferLayout

from .gguf_model import LlamaGGUF, ModelFileError
from .model import EMBEDDING, LINEAR_WEIGHTS, TRANSPOSED, Decoder, \
    layer_prefix

DEFAULT_MAX_SEQ = 2048
# q4 keeps the file's Q4_0, Q4_1 and Q8_0 blocks; f32 dequantizes them.
WEIGHT_MODES = ("q4", "f32")


def _relative(name: str) -> str:
    """A weight's name within its layer (`blk.<i>.` dropped)."""
    if name.startswith("blk."):
        return name.split(".", 2)[2]
    return name


def _quantized(model: LlamaGGUF) -> dict:
    """The weights the model reads as their file's blocks: the embedding
    and each layer weight whose encoding every layer shares (the layers
    share one staged body), when it is one MaxGraph reads."""
    encodings = {}
    embedding = model.encoding(EMBEDDING)
    if embedding is not None:
        encodings[EMBEDDING] = embedding
    for name in LINEAR_WEIGHTS:
        found = {model.encoding(f"{layer_prefix(i)}{name}")
                 for i in range(model.config.layers)}
        if len(found) == 1 and None not in found:
            encodings[name] = found.pop()
    return encodings


def weight_arrays(model, names: list[str], encodings: dict) -> dict:
    """The arrays that bind a staged decoder's weights `names`, read from
    `model` (a LlamaGGUF, or any object with its `weight` and `blocks`):
    the blocks of those in `encodings` as stored, the others in float32
    (`<name>.T`, the transpose of the file's `<name>`)."""
    arrays = {}
    for name in names:
        if _relative(name) in encodings:
            arrays[name] = model.blocks(name)
        elif name.endswith(TRANSPOSED):
            arrays[name] = model.weight(name[:-len(TRANSPOSED)],
                                        transposed=True)
        else:
            arrays[name] = model.weight(name)
    return arrays


def _load_step(path: os.PathLike, model: LlamaGGUF, decoder: Decoder,
               weights: str):
    """The step compiled into the artifact at `path`, its weights read from
    `model`; a ModelFileError when the artifact is not `decoder`'s step
    (another weight mode, sampling or cache size)."""
    try:
        names = list(compilation.artifact_weights(path))
        exported = "f32" if any(n.endswith(TRANSPOSED) for n in names) \
            else "q4"
        if exported != weights:
            raise ModelFileError(
                f"{path}: the decoder was exported with --weights "
                f"{exported}, not {weights}")
        step = compilation.load(path, weights=weight_arrays(
            model, names, decoder.encodings))
    except maxgraph.RuntimeError as error:
        # A missing, truncated or foreign file, named by the runtime.
        raise ModelFileError(str(error)) from None
    if step.name != decoder.step_name():
        raise ModelFileError(
            f"{path}: the artifact holds graph `{step.name}`, not "
            f"`{decoder.step_name()}` (exported with other sampling "
            f"options: greedy, or --top-k, must match)")
    keys, _ = decoder.cache_shapes()
    caches = [layout for layout in step.input_layouts
              if isinstance(layout, BufferLayout)]
    held = [int(d) for d in caches[0].shape] if caches else None
    if held != list(keys):
        raise ModelFileError(
            f"{path}: the artifact's key caches are {held}, not "
            f"{list(keys)} (exported with another --max-seq, or for "
            f"another model)")
    return step


@dataclass
class Sampling:
    """Each token drawn from the `top_k` likeliest, their logits divided by
    `temperature`, among the fewest whose probabilities reach `top_p`; the
    token after t generated ones from seed `seed + t`, so a seed gives the
    same text in both loop modes."""
    temperature: float = 0.7
    top_k: int = 40
    top_p: float = 0.9
    seed: int = 0

    def check(self, vocab: int) -> None:
        if not self.temperature > 0:
            raise ModelFileError(f"--temperature must be above 0, got "
                                 f"{self.temperature} (--greedy takes the "
                                 f"likeliest token)")
        if not 1 <= self.top_k <= vocab:
            raise ModelFileError(f"--top-k must be from 1 to the vocabulary's "
                                 f"{vocab}, got {self.top_k}")
        if not 0 < self.top_p <= 1:
            raise ModelFileError(f"--top-p must be in (0, 1], got "
                                 f"{self.top_p}")


@dataclass
class Generation:
    prompt_ids: list[int]
    ids: list[int] = field(default_factory=list)
    # The prompt's first ids, whose keys and values the caches held from
    # earlier turns (not computed again).
    reused: int = 0
    text: str = ""
    prefill_tokens_per_s: float = 0.0
    decode_tokens_per_s: float = 0.0


class _InBackground:
    """`work(*args)` on a thread of its own; `result()` waits for it and
    returns what it returned or raises what it raised. (A thread rather
    than concurrent.futures, whose import, with logging's, is 15 ms of a
    start-up.)"""

    def __init__(self, work: Callable, *args):
        self._value = self._error = None
        self._thread = threading.Thread(target=self._run, args=(work, args),
                                        name="smollm2-compile")
        self._thread.start()

    def _run(self, work: Callable, args: tuple) -> None:
        try:
            self._value = work(*args)
        except BaseException as error:  # Raised again by result().
            self._error = error

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Generator:
    """A Llama-architecture GGUF compiled for the CPU: with `weights`
    "q4", the linear weights and the embedding in their file's block
    encodings, read from the memory-mapped file; with "f32", dequantized
    when loaded."""

    def __init__(self, gguf: Optional[os.PathLike] = None,
                 max_seq: int = DEFAULT_MAX_SEQ, weights: str = "q4",
                 progress: Callable[[str], None] = _progress,
                 in_graph_loop: bool = False,
                 sampling: Optional[Sampling] = None,
                 artifact: Optional[os.PathLike] = None):
        """`artifact`: the file `export` wrote, whose compiled step is
        loaded instead of staging and compiling the decoder (with the same
        weight mode, sampling's `top_k` and `max_seq`)."""
        if weights not in WEIGHT_MODES:
            raise ModelFileError(
                f"--weights {weights}: expected one of "
                f"{', '.join(WEIGHT_MODES)}")
        start = time.perf_counter()
        self.model = LlamaGGUF(gguf)
        self.config = self.model.config
        self.max_seq = max_seq
        self.sampling = sampling
        if sampling is not None:
            sampling.check(self.config.vocab)
        encodings = _quantized(self.model) if weights == "q4" else {}
        decoder = Decoder(self.config, max_seq, encodings,
                          sampling.top_k if sampling else None)
        self.loop = None
        if artifact is not None and in_graph_loop:
            raise ModelFileError(
                f"{artifact}: an exported decoder is its step graph; "
                f"the in-graph loop is compiled, not loaded (leave out "
                f"--in-graph-loop or --artifact)")
        # The step is compiled (or loaded) on a thread of its own, which
        # leaves Python while the tokenizer and chat template are built on
        # this one: a cold start's compile() takes seconds.
        if artifact is not None:
            loading = _InBackground(_load_step, artifact, self.model,
                                    decoder, weights)
            self._build_text_side()
            self.step = loading.result()
            self._finish(decoder)
            return
        staged = decoder.stage()
        looped = decoder.stage_loop() if in_graph_loop else None
        staging_done = time.perf_counter()
        compiling = _InBackground(self._compile, staged, looped, encodings)
        self._build_text_side()
        self.step, self.loop, decoded, bound, loaded = compiling.result()
        done = time.perf_counter()
        if done - start > 1.0:
            progress(f"read {self.model.path.name} and staged the model "
                     f"({staging_done - start:.1f} s), bound {bound} "
                     f"weights, {decoded} of them dequantized "
                     f"({loaded - staging_done:.1f} s), compiled the "
                     f"decoder{' and its loop' if looped else ''} "
                     f"({done - loaded:.1f} s)")
        self._finish(decoder)

    def _build_text_side(self) -> None:
        """The tokenizer, and the chat template parsed where there is one
        (a file without one fails when a prompt needs it)."""
        self.tokenizer = self.model.tokenizer()
        if self.model.fields.get("tokenizer.chat_template") is not None:
            self.model.chat_template()

    def _compile(self, staged, looped, encodings: dict):
        """Binds the staged step's (and loop's) weights and compiles them:
        (step, loop or None, weights dequantized, weights bound, when the
        weights were bound)."""
        arrays = weight_arrays(self.model, staged.weight_names, encodings)
        decoded = len(arrays) - sum(_relative(name) in encodings
                                    for name in arrays)
        loaded = time.perf_counter()
        step = staged.compile(arrays)
        loop = looped.compile(arrays) if looped is not None else None
        return step, loop, decoded, len(arrays), loaded

    def _finish(self, decoder: Decoder) -> None:
        """An empty conversation and zeroed caches."""
        self.reset()
        keys, values = decoder.cache_shapes()
        self.k_caches = [np.zeros(keys, np.float32)
                         for _ in range(self.config.layers)]
        self.v_caches = [np.zeros(values, np.float32)
                         for _ in range(self.config.layers)]

    def export(self, path: os.PathLike) -> None:
        """Writes the compiled step (the code, not the weights) to `path`,
        which `Generator(artifact=path)` loads in another process without
        staging or compiling."""
        self.step.export(path)

    def prompt_ids(self, prompt: str) -> list[int]:
        """The ids of the chat template applied to one user message, with
        the generation prompt."""
        return self.conversation_ids([{"role": "user", "content": prompt}])

    def conversation_ids(self, messages: list[dict]) -> list[int]:
        """The ids of the chat template applied to `messages`, with the
        generation prompt."""
        text = self.model.chat_prompt(messages)
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def _call(self, tokens: list[int], pos: int, generated: int = 0) -> int:
        """The token after `tokens` at `pos`, the `generated`-th (which
        picks a sampled token's seed)."""
        inputs = [np.array(tokens, np.int64), np.array(pos, np.int64)]
        inputs += self._sampling_inputs(generated)
        _, next_token = self.step(*inputs, self.k_caches, self.v_caches)
        return int(next_token.to_numpy().reshape(-1)[0])

    def _sampling_inputs(self, generated: int) -> list:
        """temperature, top_p and the seed of the `generated`-th token."""
        s = self.sampling
        if s is None:
            return []
        return [np.array(s.temperature, np.float32),
                np.array(s.top_p, np.float32),
                np.array(s.seed + generated, np.int64)]

    def generate(self, prompt: str, max_new_tokens: int,
                 on_token: Optional[Callable[[str], None]] = None
                 ) -> Generation:
        """Generation after `prompt`, up to `max_new_tokens` or the
        end-of-sequence token (included in `ids` when reached); `on_token`
        gets the text as it grows."""
        return self.generate_ids(self.prompt_ids(prompt), max_new_tokens,
                                 on_token)

    def generate_ids(self, ids: list[int], max_new_tokens: int,
                     on_token: Optional[Callable[[str], None]] = None
                     ) -> Generation:
        """`generate` after prompt ids, all computed from position 0."""
        return self._generate(ids, 0, max_new_tokens, on_token)

    def chat(self, message: str, max_new_tokens: int,
             on_token: Optional[Callable[[str], None]] = None
             ) -> Generation:
        """The answer to `message` in the conversation so far, which the
        caches hold: only the template's ids past what the caches already
        hold are computed (the new message, and the end of the last answer
        as the template writes it). `reset` starts a new conversation."""
        messages = self.messages + [{"role": "user", "content": message}]
        ids = self.conversation_ids(messages)
        held = 0
        while held < min(len(ids), len(self.held)) and \
                ids[held] == self.held[held]:
            held += 1
        # At least one token is computed: the last one gives the logits.
        held = min(held, len(ids) - 1)
        if len(ids) >= self.max_seq:
            raise ModelFileError(
                f"the conversation's {len(ids)} tokens fill the cache of "
                f"{self.max_seq} positions (--max-seq)")
        # An answer ends where the cache does.
        max_new_tokens = min(max_new_tokens, self.max_seq - len(ids))
        result = self._generate(ids, held, max_new_tokens, on_token)
        self.messages = messages + [{"role": "assistant",
                                     "content": result.text}]
        return result

    def _generate(self, ids: list[int], held: int, max_new_tokens: int,
                  on_token: Optional[Callable[[str], None]]) -> Generation:
        """Generation after `ids`, of which the caches hold the first
        `held` already."""
        if max_new_tokens < 1:
            raise ModelFileError(
                f"--max-new-tokens must be at least 1, got {max_new_tokens}")
        result = Generation(ids, reused=held)
        if len(ids) + max_new_tokens > self.max_seq:
            raise ModelFileError(
                f"the prompt's {len(ids)} tokens and {max_new_tokens} new "
                f"ones exceed the cache of {self.max_seq} positions "
                f"(--max-seq)")
        start = time.perf_counter()
        token = self._call(ids[held:], held, 0)
        prefill = time.perf_counter()
        result.prefill_tokens_per_s = (len(ids) - held) / (prefill - start)
        try:
            if self.loop is not None:
                return self._generate_in_graph(result, token, max_new_tokens,
                                               prefill, on_token)
            return self._generate_on_host(result, token, max_new_tokens,
                                          prefill, on_token)
        finally:
            # What the caches hold: every token but the last generated one.
            self.held = ids + result.ids[:-1]

    def _generate_on_host(self, result: Generation, token: int,
                          max_new_tokens: int, prefill: float,
                          on_token: Optional[Callable[[str], None]]
                          ) -> Generation:
        """The tokens after the prompt's first one, one call each."""
        ids = result.prompt_ids
        shown = ""
        while True:
            result.ids.append(token)
            if on_token is not None:
                text = self.tokenizer.decode(result.ids,
                                             skip_special_tokens=True)
                # Whole characters only: a byte-level piece may end mid-way.
                if not text.endswith("\ufffd"):
                    on_token(text[len(shown):])
                    shown = text
            if token == self.config.eos_id or \
                    len(result.ids) >= max_new_tokens:
                break
            token = self._call([token], len(ids) + len(result.ids) - 1,
                               len(result.ids))
        end = time.perf_counter()
        decoded = len(result.ids) - 1
        if decoded:
            result.decode_tokens_per_s = decoded / (end - prefill)
        result.text = self.tokenizer.decode(result.ids,
                                            skip_special_tokens=True)
        return result

    def _generate_in_graph(self, result: Generation, token: int,
                           max_new_tokens: int, prefill: float,
                           on_token: Optional[Callable[[str], None]]
                           ) -> Generation:
        """The tokens after the prompt's first one in one call of the
        while_loop graph; they are shown when it returns."""
        result.ids.append(token)
        if token != self.config.eos_id and max_new_tokens > 1:
            generated = np.zeros(self.max_seq, np.int64)
            count = self.loop(np.array([token], np.int64),
                              np.array(len(result.prompt_ids), np.int64),
                              np.array(max_new_tokens - 1, np.int64),
                              *self._sampling_inputs(1), self.k_caches,
                              self.v_caches, generated)
            count = int(count.to_numpy())
            result.ids.extend(int(i) for i in generated[:count])
            if count:
                result.decode_tokens_per_s = \
                    count / (time.perf_counter() - prefill)
        result.text = self.tokenizer.decode(result.ids,
                                            skip_special_tokens=True)
        if on_token is not None:
            on_token(result.text)
        return result

    def reset(self) -> None:
        """Forgets the conversation: the next prompt starts at position 0
        (the caches are overwritten as it goes, so they need no clearing)."""
        self.messages = []
        self.held = []
