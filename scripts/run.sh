#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The main job: set up and build, stage the seed example with the C++ API
# (examples/seed/seed_example.cpp), print its MLIR, compile it for the CPU
# and run it; then check that max-opt verifies, folds and round-trips it;
# then the same example with the Python package (examples/seed/seed_example.py).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" default
echo "== stage(combine)({\"a\": spec, \"b\": spec}, 2.0), then compile and run =="
"$root/build/bin/seed-example"
"$root/build/bin/seed-example" --stage-only > "$root/build/seed.mlir"
echo "== max-opt --verify-roundtrip --canonicalize =="
"$root/build/bin/max-opt" --verify-roundtrip --canonicalize "$root/build/seed.mlir"
echo "== the same with the Python package (examples/seed/seed_example.py) =="
PYTHONPATH="$root/build/python" "$root/.venv/bin/python" \
  "$root/examples/seed/seed_example.py"
