#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs MaxGraph's fuzzers (fuzz/, docs/Testing.md "Fuzzing"), each for a bounded
# time, after replaying the crash reproducers checked in under
# fuzz/regressions. Prints one line per fuzzer (executions, result) and
# `fuzz: N passed, N failed`; exits non-zero if any fuzzer found a crash or
# a mismatch.
#   scripts/fuzz.sh [--long SECONDS] [libfuzzer] [release]
# Sets: `libfuzzer` runs the libFuzzer targets of build-sanitizers (ASan +
# UBSan: parser and verifier, pass pipelines, the .npy reader); `release`
# runs the Python staging fuzzer and the differential fuzzer of compiled code
# against the interpreter on build/. Default: both. scripts/test.sh runs
# `libfuzzer` in its sanitizers stage and `release` after pytest.
# Bounded mode (default): about a minute in all (libFuzzer targets 12 s
# each, the staging fuzzer 10 s, the differential fuzzer 15 s), with fixed
# seeds. Long mode: `--long SECONDS` or MAXGRAPH_FUZZ_SECONDS=SECONDS runs
# each fuzzer that long from random seeds, keeping what libFuzzer learns in
# build-sanitizers/fuzz/corpus. Crash inputs are left in
# build-sanitizers/fuzz/crashes (libFuzzer) and build/fuzz (the rest); add
# them to fuzz/regressions/<fuzzer> to keep them replayed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
long=${MAXGRAPH_FUZZ_SECONDS:-}
sets=()
while (($#)); do
  case $1 in
    --long) long=$2; shift 2 ;;
    --long=*) long=${1#--long=}; shift ;;
    libfuzzer|release) sets+=("$1"); shift ;;
    *) echo "usage: scripts/fuzz.sh [--long SECONDS] [libfuzzer] [release]" >&2
       exit 2 ;;
  esac
done
((${#sets[@]})) || sets=(libfuzzer release)

if [ -n "$long" ]; then
  libfuzzer_seconds=$long staging_seconds=$long differential_seconds=$long
  seed_args=() staging_seed=() differential_seed=$RANDOM$RANDOM
else
  libfuzzer_seconds=12 staging_seconds=10 differential_seconds=15
  seed_args=(-seed=1) staging_seed=(--seed 0) differential_seed=0
fi

passed=0 failed=0
report() { # name executions result
  echo "fuzz: $1: $2, $3"
  if [ "$3" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

run_libfuzzer() { # target corpus-name dictionary
  local target=$1 name=$2 dict=$3
  local bin="$root/build-sanitizers/bin/$target"
  local work="$root/build-sanitizers/fuzz"
  if [ ! -x "$bin" ]; then
    report "$target" "not built" "FAILED (configure with MAXGRAPH_ENABLE_FUZZERS=ON)"
    return
  fi
  mkdir -p "$work/corpus/$name" "$work/crashes"
  local log="$work/$name.log"
  # allow_user_poisoning=0: llvm::BumpPtrAllocator's inline code poisons
  # its slabs in our ASan-built code but not in Debian's uninstrumented
  # libMLIR, which then writes to them: a false use-after-poison.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  # The checked-in reproducers first: each runs once.
  local regressions=("$root/fuzz/regressions/$name"/*)
  if [ -e "${regressions[0]}" ]; then
    if ! "$bin" -rss_limit_mb=4096 -timeout=60 "${regressions[@]}" \
        >"$log" 2>&1; then
      tail -40 "$log"
      report "$target" "regressions (${#regressions[@]})" "FAILED (see $log)"
      return
    fi
  fi
  "$bin" "-max_total_time=$libfuzzer_seconds" -timeout=20 -rss_limit_mb=4096 \
    -max_len=8192 "-dict=$root/fuzz/$dict" -print_final_stats=1 \
    "-artifact_prefix=$work/crashes/$name-" "${seed_args[@]}" \
    "$work/corpus/$name" "$work/seeds/$name" >"$log" 2>&1
  local rc=$?
  local runs rate
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  local line="${runs:-?} executions (${rate:-?}/s) in ${libfuzzer_seconds} s"
  if [ $rc -eq 0 ]; then
    report "$target" "$line" ok
  else
    grep -E "ERROR|maxgraph fuzzer|SUMMARY|Test unit written" "$log" | head -20
    report "$target" "$line" "FAILED (rc $rc, see $log)"
  fi
}

if [[ " ${sets[*]} " == *" libfuzzer "* ]]; then
  "$root/.venv/bin/python" "$root/fuzz/make-corpus.py" "$root" \
    "$root/build-sanitizers/fuzz/seeds" 2>/dev/null ||
    python3 "$root/fuzz/make-corpus.py" "$root" "$root/build-sanitizers/fuzz/seeds"
  run_libfuzzer maxgraph-parse-verify-fuzzer parse-verify maxgraph.dict
  run_libfuzzer maxgraph-pass-pipelines-fuzzer pass-pipelines maxgraph.dict
  run_libfuzzer maxgraph-npy-reader-fuzzer npy-reader npy.dict
fi

if [[ " ${sets[*]} " == *" release "* ]]; then
  work="$root/build/fuzz"
  mkdir -p "$work"
  # The staging fuzzer: checked-in reproducers, then new examples.
  log="$work/staging.log"
  export MAXGRAPH_FUZZ_WORKDIR=$work
  staging_ok=1
  for repro in "$root"/fuzz/regressions/staging/*.txt; do
    [ -e "$repro" ] || continue
    if ! PYTHONPATH="$root/build/python" "$root/.venv/bin/python" \
        "$root/fuzz/staging_fuzzer.py" --replay "$repro" >"$log" 2>&1; then
      tail -30 "$log"
      report staging_fuzzer "replaying $repro" "FAILED (see $log)"
      staging_ok=0
      break
    fi
  done
  if [ $staging_ok = 1 ]; then
    PYTHONPATH="$root/build/python" "$root/.venv/bin/python" \
      "$root/fuzz/staging_fuzzer.py" --seconds "$staging_seconds" \
      "${staging_seed[@]}" >"$log" 2>&1
    rc=$?
    line=$(grep -o "[0-9]* executions.*s)" "$log" | tail -1)
    if [ $rc -eq 0 ]; then
      report staging_fuzzer "${line:-? executions}" ok
    else
      tail -30 "$log"
      cp "$work/staging-last-example.txt" "$work/staging-crash.txt" 2>/dev/null
      report staging_fuzzer "${line:-crashed}" \
        "FAILED (rc $rc, see $log; the last example is $work/staging-crash.txt)"
    fi
  fi

  # The differential fuzzer: checked-in seeds, then new ones.
  log="$work/differential.log"
  bin="$root/build/bin/maxgraph-differential-fuzzer"
  differential_ok=1
  if [ -f "$root/fuzz/regressions/differential/seeds.txt" ]; then
    while read -r seed _; do
      case $seed in ''|'#'*) continue ;; esac
      if ! MAXGRAPH_CACHE=0 "$bin" "--seed=$seed" --runs=1 >"$log" 2>&1; then
        tail -40 "$log"
        report differential_fuzzer "replaying seed $seed" "FAILED (see $log)"
        differential_ok=0
        break
      fi
    done <"$root/fuzz/regressions/differential/seeds.txt"
  fi
  if [ $differential_ok = 1 ]; then
    MAXGRAPH_CACHE=0 "$bin" "--seconds=$differential_seconds" \
      "--seed=$differential_seed" >"$log" 2>&1
    rc=$?
    line=$(sed -n 's/^differential_fuzzer: //p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
      report differential_fuzzer "${line:-?}" ok
    else
      grep -A40 MISMATCH "$log" | head -60
      report differential_fuzzer "${line:-crashed}" "FAILED (rc $rc, see $log)"
    fi
  fi
fi

echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
