#!/usr/bin/env bash
# Sets up and builds, then runs every test suite: the lit/FileCheck suite on
# the release build, then again on the ASan+UBSan build. Prints one summary
# line per suite and exits non-zero if any test failed.
#   scripts/test.sh            both builds
#   MAXGRAPH_TEST_PRESETS=default scripts/test.sh   release only
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
  pass=${pass:-0}; fail=${fail:-0}; unsup=${unsup:-0}
  [ "$pass" -gt 0 ] || status=1
  echo "lit ($preset): $pass passed, $fail failed, $unsup unsupported"
  total_pass=$((total_pass + pass)); total_fail=$((total_fail + fail))
  total_skip=$((total_skip + unsup))
  rm -f "$log"
done
echo "tests: $total_pass passed, $total_fail failed, $total_skip skipped"
exit $status
