#!/usr/bin/env bash
# The main job: set up and build, then take the seed example through
# max-opt (parse, verify, fold) and print its MLIR.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh" default
example="$root/examples/seed/combine.mlir"
echo "== $example, verified and round-tripped by max-opt =="
"$root/build/bin/max-opt" --verify-roundtrip "$example"
echo "== after maxgraph-inline-subgraphs and canonicalize =="
"$root/build/bin/max-opt" "$example" \
  --pass-pipeline='builtin.module(maxgraph-inline-subgraphs, canonicalize)'
