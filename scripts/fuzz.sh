#!/usr/bin/env bash
# Builds the fuzz preset (clang, libFuzzer, ASan, UBSan) and runs every fuzz target for SECONDS
# each, starting from the committed seed corpus in tests/fuzz/corpus/<target>/. Inputs the
# fuzzer finds are kept in build/fuzz/corpus/<target>/ (never in the source tree), crashes in
# build/fuzz/artifacts/<target>/. Prints each target's executions; fails if any target fails.
# With FUZZ_FRESH=1 (make test) each run starts from the seeds alone in a scratch corpus, so a
# short run stays short however much earlier long runs found.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 600 protocol match
set -euo pipefail

seconds=${1:-600}
shift || true
cd "$(dirname "$0")/.."

all_targets=(protocol match websocket deflate pinocchio naked-gibbon fib-fibonacci spider-monkey tricky-tribes)
targets=("$@")
if ((${#targets[@]} == 0)); then targets=("${all_targets[@]}"); fi

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

bin=build/fuzz/tests/fuzz
mkdir -p build/fuzz/logs
summary=build/fuzz/summary.txt
: >"$summary"
failed=()
total=0
for t in "${targets[@]}"; do
  work=build/fuzz/corpus/$t
  if [[ ${FUZZ_FRESH:-0} == 1 ]]; then
    work=build/fuzz/fresh-corpus/$t
    rm -rf "$work"
  fi
  artifacts=build/fuzz/artifacts/$t
  log=build/fuzz/logs/$t.log
  mkdir -p "$work" "$artifacts"
  args=(-max_total_time="$seconds" -max_len=4096 -timeout=30 -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$artifacts/")
  if [[ -f tests/fuzz/$t.dict ]]; then args+=(-dict="tests/fuzz/$t.dict"); fi
  status=ok
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin/fuzz_$t" "${args[@]}" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1 || status=FAILED
  execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
  corpus=$(find "$work" -type f | wc -l)
  line=$(printf 'fuzz_%-14s %10s executions in %ss, %s inputs in the corpus: %s' \
         "$t" "${execs:-0}" "$seconds" "$corpus" "$status")
  echo "$line" | tee -a "$summary"
  total=$((total + ${execs:-0}))
  if [[ $status != ok ]]; then
    failed+=("$t")
    grep -B5 -A40 -m1 -E 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|invariant failed|runtime error' "$log" || tail -60 "$log"
  fi
done
echo "fuzzing: $total executions over ${#targets[@]} targets" | tee -a "$summary"
if ((${#failed[@]} > 0)); then
  echo "fuzz targets that failed: ${failed[*]} (inputs in build/fuzz/artifacts/, logs in build/fuzz/logs/)"
  exit 1
fi
