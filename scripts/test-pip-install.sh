#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks the Python package as users get it: `pip install ./python` into a
# fresh virtual environment (the wheel build reuses build-wheel-*/ between
# runs, and ccache the default build's objects), then runs the seed example from outside the repository and checks
# its result.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/build-wheel-venv"
rm -rf "$venv"
python3 -m venv "$venv"
echo "== pip install ./python =="
start=$SECONDS
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$root/python"
echo "pip install ./python: built and installed in $((SECONDS - start)) s"
cd "$(mktemp -d)"
output=$("$venv/bin/python" "$root/examples/seed/seed_example.py")
echo "$output" | tail -1
echo "$output" | grep -q "^combine({a: \[1.0, 2.0\], b: \[3.0, 4.0\]}, 2.0) = \[8.0, 12.0\]$"
echo "$output" | grep -q "maxgraph.graph @combine("
# The installed package carries its type stubs.
"$venv/bin/python" - <<'PY'
import pathlib, maxgraph
package = pathlib.Path(maxgraph.__file__).parent
assert "site-packages" in str(package), package
stubs = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.pyi"))
assert "_core/__init__.pyi" in stubs and "_core/ops.pyi" in stubs, stubs
assert "def matmul(" in (package / "_core/ops.pyi").read_text()
print("installed at", package, "with stubs", stubs)
PY
