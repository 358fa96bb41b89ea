#!/usr/bin/env bash
# The main job: set up and build, stage the seed example with the C++ API
# (examples/seed/seed_example.cpp), print its MLIR, and check that max-opt
# verifies, folds and round-trips it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" default
echo "== stage(combine)({\"a\": spec, \"b\": spec}, 2.0): the staged MLIR =="
"$root/build/bin/seed-example" | tee "$root/build/seed.mlir"
echo "== max-opt --verify-roundtrip --canonicalize =="
"$root/build/bin/max-opt" --verify-roundtrip --canonicalize "$root/build/seed.mlir"
