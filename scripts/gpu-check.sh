#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The checks that need an NVIDIA GPU, in one command, for a machine that has
# one (scripts/gpu-check.sh; about 5 minutes on a 16-core machine with an
# H200):
#   1. builds only what they need (max-run, the CUDA executable tests' binary
#      and the GPU benchmark) into build-gpu/, with every core;
#   2. runs every lit test that REQUIRES: cuda-device (the execution tests'
#      kernels through the CUDA runtime against the interpreter, a device
#      graph) or cuda-devices-2 (a process per GPU under mpirun, NCCL across
#      processes; unsupported on one GPU) and the GoogleTest tests that need
#      a device;
#   2b. runs compute-sanitizer's memcheck and racecheck on a matmul, row and
#      narrow-float graph (unsupported where the toolkit has none);
#   3. runs the GPU benchmarks (maxgraph-gpu-benchmark; with two GPUs,
#      maxgraph-nccl-benchmark across processes);
#   4. prints a summary: `gpu-check: N passed, N failed, N unsupported`.
# On a machine without a CUDA device (no libcuda.so.1, no GPU, or one older
# than sm_90) it builds nothing, reports every such test as unsupported and
# exits 0. It installs nothing: the machine must have what scripts/setup.sh
# installs (it says what is missing), or, with MAXGRAPH_GPU_CHECK_BUNDLE
# naming the bundle scripts/device-bundle.sh packed on a machine that does
# (the lent device machines have CUDA but no LLVM 22 and no registry), it
# builds nothing and runs the bundle's programs:
#   here:  scripts/device-bundle.sh    # build-device/bundle.tar.xz, 47 MiB
#   there: MAXGRAPH_GPU_CHECK_BUNDLE=build-device/bundle.tar.xz \
#            scripts/gpu-check.sh     # with build-device carried
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MAXGRAPH_GPU_CHECK_BUILD:-$root/build-gpu}
cd "$root"

# The tests that need a device, by their REQUIRES line.
mapfile -t tests < <(grep -rl --include='*.mlir' --include='*.test' \
  -E '^// REQUIRES:.*\bcuda-device(s-2)?\b' test | sort)

# The driver's and the toolkit's versions first: a driver older than the
# toolkit that made the kernels refuses them (the module-load error says
# the driver's version too).
driver=$(python3 - <<'PY'
import ctypes
try:
    driver = ctypes.CDLL("libcuda.so.1")
except OSError:
    print("none")
    raise SystemExit
version = ctypes.c_int(0)
if driver.cuDriverGetVersion(ctypes.byref(version)) != 0:
    print("unknown")
else:
    print(f"CUDA {version.value // 1000}.{version.value % 1000 // 10}")
PY
)
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
echo "gpu-check: driver: $driver; toolkit: $("$ptxas" --version 2>/dev/null |
  sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/ptxas \2 (CUDA \1)/p' |
  grep . || echo "no ptxas")"

# What the driver shows, probed as lit's `cuda-device` feature is.
probe=$(python3 - <<'PY'
import ctypes
try:
    driver = ctypes.CDLL("libcuda.so.1")
except OSError as error:
    print(f"none: no CUDA driver ({error})")
    raise SystemExit
count = ctypes.c_int(0)
status = driver.cuInit(0)
if status != 0 or driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
    print(f"none: no CUDA device (cuInit returned {status})")
    raise SystemExit
names = []
for ordinal in range(count.value):
    device, major, minor = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
    name = ctypes.create_string_buffer(256)
    driver.cuDeviceGet(ctypes.byref(device), ordinal)
    driver.cuDeviceGetName(name, 255, device)
    driver.cuDeviceGetAttribute(ctypes.byref(major), 75, device)
    driver.cuDeviceGetAttribute(ctypes.byref(minor), 76, device)
    if major.value >= 9:
        names.append(f"gpu:{ordinal} {name.value.decode()} "
                     f"(sm_{major.value}{minor.value})")
print(f"{len(names)}: " + "; ".join(names) if names else
      f"none: {count.value} CUDA device(s), none of sm_90 or later")
PY
)
echo "gpu-check: $probe"
if [[ $probe == none:* ]]; then
  for test in "${tests[@]}"; do echo "UNSUPPORTED: $test (needs cuda-device)"; done
  echo "UNSUPPORTED: MaxGraphCUDAExecutableTests --gtest_filter='*CudaDevice*'"
  echo "gpu-check: 0 passed, 0 failed, $((${#tests[@]} + 1)) unsupported"
  exit 0
fi

# A machine without LLVM 22 (the lent device machines): the programs and
# LLVM's libraries come prebuilt in the bundle of scripts/device-bundle.sh.
bundle=${MAXGRAPH_GPU_CHECK_BUNDLE:-}
if [ -n "$bundle" ]; then
  unpack=$(mktemp -d)
  tar -C "$unpack" -xJf "$bundle" || { echo "gpu-check: cannot unpack $bundle"; exit 1; }
  mkdir -p /usr/lib/llvm-22 && cp -a "$unpack/root/usr/lib/llvm-22/." /usr/lib/llvm-22/
  mkdir -p /usr/local/lib/maxgraph-device
  for library in "$unpack"/root/usr/local/lib/maxgraph-device/*; do
    ldconfig -p | grep -qE "^[[:space:]]+$(basename "$library") " ||
      cp "$library" /usr/local/lib/maxgraph-device/
  done
  echo /usr/local/lib/maxgraph-device >/etc/ld.so.conf.d/maxgraph-device.conf
  ldconfig
  echo "gpu-check: from the bundle: $(ls /usr/local/lib/maxgraph-device | tr '\n' ' ')"
  cp -a "$unpack/repo/build" "$root/"
  origin=$(cat "$unpack/repo/origin") toolkit=$(cat "$unpack/repo/cuda-toolkit")
  # The build tree names its paths under its origin: run it from there.
  if [ "$origin" != "$root" ] && [ ! -e "$origin" ]; then
    mkdir -p "$(dirname "$origin")" && ln -s "$root" "$origin"
  fi
  build=$root/build
  [ "$(readlink -f "$origin")" = "$(readlink -f "$root")" ] && build=$origin/build
  if [ -n "$toolkit" ] && [ ! -e "$toolkit/bin/ptxas" ]; then
    here=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
    here=$(dirname "$(dirname "$(readlink -f "$here")")")
    [ -e "$toolkit" ] || { mkdir -p "$(dirname "$toolkit")" && ln -s "$here" "$toolkit"; }
  fi
  rm -rf "$unpack"
  if ldd "$build/bin/max-run" | grep -q "not found"; then
    ldd "$build/bin/max-run" | grep "not found"; exit 1
  fi
fi

missing=()
[ -n "$bundle" ] || for tool in cmake ninja clang++-22 /usr/lib/llvm-22/bin/lit \
    /usr/lib/llvm-22/bin/FileCheck; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ -n "$bundle" ] || [ -f /usr/lib/llvm-22/lib/cmake/mlir/MLIRConfig.cmake ] ||
  missing+=("libmlir-22-dev")
if ((${#missing[@]})); then
  echo "gpu-check: missing ${missing[*]} (scripts/setup.sh installs them)"
  exit 1
fi

start=$(date +%s)
[ -n "$bundle" ] || {
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
  -DMAXGRAPH_ENABLE_PYTHON=OFF >"$build.configure.log" 2>&1 ||
  { tail -30 "$build.configure.log"; exit 1; }
cmake --build "$build" --target max-run maxgraph-gpu-benchmark \
  maxgraph-nccl-benchmark MaxGraphCUDAExecutableTests -j "$(nproc)" \
  >"$build.build.log" 2>&1 ||
  { tail -40 "$build.build.log"; exit 1; }
echo "gpu-check: built in $(( $(date +%s) - start )) s"
}

status=0 passed=0 failed=0
log=$(mktemp)
python3 /usr/lib/llvm-22/bin/lit -v "${tests[@]/#/$build/}" 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
count() {
  local n
  n=$(sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -1)
  echo "${n:-0}"
}
passed=$(( passed + $(count Passed) ))
failed=$(( failed + $(count Failed) ))
# GoogleTest tests that need the device.
MAXGRAPH_TEST_CUDA_DEVICE=1 \
  "$build/unittests/Compiler/bin/MaxGraphCUDAExecutableTests" \
  --gtest_filter='*CudaDevice*' 2>&1 | tee "$log"
if [ "${PIPESTATUS[0]}" -eq 0 ]; then
  passed=$(( passed + $(sed -n 's/^\[  PASSED  \] \([0-9]*\).*/\1/p' "$log") ))
else
  status=1
  failed=$(( failed + $(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log") ))
fi
rm -f "$log"

# compute-sanitizer over graphs whose kernels a wrong index or a missing
# barrier would break quietly: memcheck (out-of-bounds and misaligned
# accesses) on the tiled and tensor-core matmuls, the row kernels (row
# groups, short rows, split reductions) and the narrow-float graph;
# racecheck (shared-memory hazards) on the kernels that share memory (the
# matmuls' tiles, the block reductions and row groups).
sanitizer=$(command -v compute-sanitizer || true)
[ -n "$sanitizer" ] || for dir in ${toolkit:-} /usr/local/cuda; do
  [ -x "$dir/bin/compute-sanitizer" ] && { sanitizer=$dir/bin/compute-sanitizer; break; }
done
sanitize() {
  local tool=$1 file=$2 graph=$3 dims=$4
  local what="compute-sanitizer --tool $tool: @$graph"
  if [ -z "$sanitizer" ]; then
    echo "UNSUPPORTED: $what (no compute-sanitizer in the CUDA toolkit)"
    unsupported=$((unsupported + 1))
    return
  fi
  if timeout 120 "$sanitizer" --tool "$tool" --error-exitcode 86 \
      "$build/bin/max-run" "test/Tools/max-run/$file" --graph="$graph" \
      --gpu-runtime=cuda --random-inputs --seed=1 --dims="$dims" \
      --output="$(mktemp -d)" >"$log" 2>&1; then
    echo "PASS: $what"
    passed=$((passed + 1))
  else
    echo "FAIL: $what"; tail -20 "$log"
    failed=$((failed + 1)) status=1
  fi
}
unsupported=0
log=$(mktemp)
echo "== compute-sanitizer =="
sanitize memcheck gpu-opencl-kernels.mlir matmuls batch=70
sanitize memcheck gpu-opencl-kernels.mlir rows batch=70,n=777
sanitize memcheck gpu-opencl-narrow-floats.mlir narrow batch=70
sanitize memcheck gpu-opencl-kernels.mlir fused_rows a=7,b=9,n=20
sanitize memcheck gpu-opencl-kernels.mlir split n=70001
sanitize racecheck gpu-opencl-kernels.mlir matmuls batch=70
sanitize racecheck gpu-opencl-kernels.mlir rows batch=70,n=777
sanitize racecheck gpu-opencl-kernels.mlir fused_rows a=3,b=5,n=700
sanitize racecheck gpu-opencl-narrow-floats.mlir narrow batch=70
rm -f "$log"

echo "== maxgraph-gpu-benchmark =="
timeout 150 "$build/bin/maxgraph-gpu-benchmark" || status=1
# Allreduce across processes, a GPU each, against NCCL called directly.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ "${gpus:-0}" -ge 2 ] && command -v mpiexec.hydra >/dev/null; then
  echo "== maxgraph-nccl-benchmark on $gpus processes =="
  timeout 150 mpiexec.hydra -np "$gpus" "$build/bin/maxgraph-nccl-benchmark" ||
    status=1
else
  echo "UNSUPPORTED: maxgraph-nccl-benchmark (needs two GPUs and mpiexec.hydra)"
  unsupported=$((unsupported + 1))
fi
echo "gpu-check: $passed passed, $failed failed, $unsupported unsupported"
exit $status
