#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Packs what scripts/gpu-check.sh needs into build-device/bundle.tar.xz, for
# a GPU machine that has the CUDA toolkit and driver but no LLVM/MLIR 22 and
# no package registry (the lent device machines): the GPU check's programs
# from build/ (built here by scripts/setup.sh), libMLIR, libLLVM and libomp,
# lit and FileCheck, and the system libraries libLLVM needs that such a
# machine may lack. libz3 and libxml2 travel as stubs that only satisfy the
# loader: LLVM calls them for its static analyzer's solver and for Windows
# manifests, which MaxGraph never uses, and binding is lazy. The bundle stays
# under the device tool's 64 MiB.
#
#   scripts/device-bundle.sh            # here, after scripts/setup.sh
#   MAXGRAPH_GPU_CHECK_BUNDLE=build-device/bundle.tar.xz scripts/gpu-check.sh
#                                       # there, with build-device carried
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
out=$root/build-device
llvm=/usr/lib/llvm-22
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

programs=(bin/max-run bin/max-opt bin/maxgraph-gpu-benchmark
  unittests/Compiler/bin/MaxGraphCUDAExecutableTests test/lit.site.cfg.py
  benchmarks/GpuPeerKernels.ptx)
for program in "${programs[@]}"; do
  [ -e "$build/$program" ] ||
    { echo "device-bundle: no $build/$program (run scripts/setup.sh)"; exit 1; }
  mkdir -p "$stage/repo/build/$(dirname "$program")"
  cp "$build/$program" "$stage/repo/build/$program"
done

# LLVM's files at the paths the programs and lit.site.cfg.py name.
mkdir -p "$stage/root$llvm/lib" "$stage/root$llvm/bin" "$stage/root$llvm/utils"
for library in libMLIR.so.22.1 libLLVM.so.22.1 libomp.so.5; do
  cp -L "$llvm/lib/$library" "$stage/root$llvm/lib/$library"
done
for tool in FileCheck not count lit; do
  cp -L "$llvm/bin/$tool" "$stage/root$llvm/bin/$tool"
done
cp -r "$llvm/utils/lit" "$stage/root$llvm/utils/lit"

# The system libraries, installed there only where it lacks the soname.
deps=$stage/root/usr/local/lib/maxgraph-device
mkdir -p "$deps"
for library in libedit.so.2 libbsd.so.0 libmd.so.0 libffi.so.8 libtinfo.so.6 \
    libzstd.so.1 liblzma.so.5 libz.so.1; do
  cp -L "/lib/x86_64-linux-gnu/$library" "$deps/$library"
done
echo 'void maxgraphDeviceStub(void) {}' |
  clang-22 -shared -x c - -o "$deps/libz3.so.4" -Wl,-soname,libz3.so.4
# xmlFree is a variable, bound at load time; every other symbol is a
# function, bound on a first call that never comes.
printf 'LIBXML2_2.4.30 { global: xmlFree; local: *; };\nLIBXML2_2.6.0 { } LIBXML2_2.4.30;\n' \
  >"$stage/xml.map"
echo 'void *xmlFree = 0;' |
  clang-22 -shared -x c - -o "$deps/libxml2.so.2" -Wl,-soname,libxml2.so.2 \
    -Wl,--version-script="$stage/xml.map"

# Where this build tree and the CUDA toolkit it names lie here: the GPU check
# links them there when that machine keeps them elsewhere.
echo "$root" >"$stage/repo/origin"
sed -n 's/^config.cuda_toolkit = "\(.*\)"$/\1/p' "$build/test/lit.site.cfg.py" \
  >"$stage/repo/cuda-toolkit"

mkdir -p "$out"
tar -C "$stage" -cf - root repo | xz -T0 -7 >"$out/bundle.tar.xz"
echo "device-bundle: $out/bundle.tar.xz ($(du -m "$out/bundle.tar.xz" | cut -f1) MiB)"
