#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Sets up and builds, then runs every test suite: the lit/FileCheck suite on
# the release build, the pytest suite of the Python package on the release
# build, `pip install ./python` into a fresh virtual environment (then the
# seed example from outside the repository), the bounded fuzzers of the
# release build (scripts/fuzz.sh release: the Python staging fuzzer and the
# differential fuzzer), the lit suite again on the ASan+UBSan build and the
# libFuzzer targets under ASan+UBSan (scripts/fuzz.sh libfuzzer, about 40 s).
# Prints one summary line per suite and exits non-zero if any test failed.
#   scripts/test.sh            everything
#   MAXGRAPH_TEST_PRESETS=default scripts/test.sh   release build only
#   MAXGRAPH_TEST_PIP_INSTALL=0 scripts/test.sh      skip the pip install check
#   MAXGRAPH_TEST_FUZZ=0 scripts/test.sh             skip the fuzzers
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
presets=${MAXGRAPH_TEST_PRESETS:-"default sanitizers"}
lit=/usr/lib/llvm-22/bin/lit
status=0
total_pass=0 total_fail=0 total_skip=0
for preset in $presets; do
  "$root/scripts/setup.sh" "$preset" || exit 1
  case $preset in
    default) dir=build ;;
    *) dir=build-$preset ;;
  esac
  log=$(mktemp)
  "$lit" -v "$root/$dir/test" "$root/$dir/unittests" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -1; }
  pass=$(count Passed); fail=$(count Failed); unsup=$(count Unsupported)
  skipped=$(count Skipped)
  pass=${pass:-0}; fail=${fail:-0}; unsup=$(( ${unsup:-0} + ${skipped:-0} ))
  [ "$pass" -gt 0 ] || status=1
  echo "lit ($preset): $pass passed, $fail failed, $unsup unsupported or skipped"
  total_pass=$((total_pass + pass)); total_fail=$((total_fail + fail))
  total_skip=$((total_skip + unsup))
  rm -f "$log"

  # The fuzzers, bounded (scripts/fuzz.sh): the libFuzzer targets on the
  # sanitizers build, the Python and differential fuzzers after pytest.
  run_fuzzers() { # set
    if [ "${MAXGRAPH_TEST_FUZZ:-1}" = 0 ]; then return; fi
    local flog
    flog=$(mktemp)
    "$root/scripts/fuzz.sh" "$1" 2>&1 | tee "$flog"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    local fpass ffail
    fpass=$(sed -n 's/^fuzz: \([0-9]*\) passed.*/\1/p' "$flog" | tail -1)
    ffail=$(sed -n 's/^fuzz: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$flog" |
            tail -1)
    fpass=${fpass:-0}; ffail=${ffail:-1}
    echo "fuzzers ($1): $fpass passed, $ffail failed"
    total_pass=$((total_pass + fpass)); total_fail=$((total_fail + ffail))
    rm -f "$flog"
  }
  if [ "$preset" = sanitizers ]; then
    run_fuzzers libfuzzer
  fi

  if [ "$preset" = default ]; then
    # pytest's exit code 5 means it collected nothing: a failure here.
    log=$(mktemp)
    # Compiled code is cached under the build tree, not in the user's cache.
    MAXGRAPH_CACHE_DIR="$root/build/python-tests-compile-cache" \
    PYTHONPATH="$root/build/python" "$root/.venv/bin/python" -m pytest \
      -p no:cacheprovider -q -rfEs "$root/python/tests" 2>&1 | tee "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    summary=$(tail -1 "$log")
    pcount() { echo "$summary" | grep -oE "[0-9]+ $1" | grep -oE "[0-9]+"; }
    pass=$(pcount passed); fail=$(pcount failed); skip=$(pcount skipped)
    errors=$(pcount error)
    pass=${pass:-0}; fail=$(( ${fail:-0} + ${errors:-0} )); skip=${skip:-0}
    [ "$pass" -gt 0 ] || status=1
    echo "pytest: $pass passed, $fail failed, $skip skipped"
    total_pass=$((total_pass + pass)); total_fail=$((total_fail + fail))
    total_skip=$((total_skip + skip))
    rm -f "$log"
    run_fuzzers release

    if [ "${MAXGRAPH_TEST_PIP_INSTALL:-1}" != 0 ]; then
      if "$root/scripts/test-pip-install.sh"; then
        echo "pip install ./python: 1 passed, 0 failed"
        total_pass=$((total_pass + 1))
      else
        echo "pip install ./python: 0 passed, 1 failed"
        total_fail=$((total_fail + 1)); status=1
      fi
    fi
  fi
done
echo "tests: $total_pass passed, $total_fail failed, $total_skip skipped"
exit $status
