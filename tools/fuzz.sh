#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/) with clang, ASan and UBSan, and
# runs each on a copy of its committed seed corpus.
#   tools/fuzz.sh [SECONDS | -runs=N] [HARNESS...]
# SECONDS per harness (default 30), or a fixed number of executions. New
# inputs go to build-fuzz/corpus/<name>; a crash leaves its input as
# build-fuzz/crash-<name>-* and the script fails. Ends with
# "fuzz: N harnesses, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

budget="${1:-30}"
shift || true
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang meson setup build-fuzz -Dfuzz=true -Deditor=false -Dwerror=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 \
    -Dc_args=-fno-sanitize-recover=undefined >/dev/null
fi
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(graph ndbc png exr state params)
# The harnesses and what they link, not the tests and benchmarks (most of
# a whole build's compile time under the sanitizers).
ninja -C build-fuzz "${harnesses[@]/#/fuzz/fuzz-}" >/dev/null
case "$budget" in
  -runs=*) limit=("$budget") ;;
  *) limit=("-max_total_time=$budget") ;;
esac

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
failed=0
for h in "${harnesses[@]}"; do
  work="build-fuzz/corpus/$h"
  mkdir -p "$work"
  cp -n fuzz/corpus/"$h"/* "$work"/ 2>/dev/null || true
  log="build-fuzz/fuzz-$h.log"
  run_harness() {
    build-fuzz/fuzz/fuzz-"$h" "${limit[@]}" -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/crash-$h-" "$work" >"$log" 2>&1
  }
  ok=0
  run_harness && ok=1
  # LeakSanitizer needs ptrace, which some containers refuse: there the run
  # dies at exit whatever the input; rerun without leak checks, and say so.
  if [ $ok -eq 0 ] && grep -q 'LeakSanitizer has encountered a fatal error' "$log"; then
    echo "fuzz-$h: leak checks unavailable here (no ptrace); running without them"
    ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" run_harness && ok=1
  fi
  if [ $ok -eq 1 ]; then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')
    echo "fuzz-$h: ok, $runs executions, corpus $(ls "$work" | wc -l) inputs"
  else
    failed=$((failed + 1))
    echo "fuzz-$h: FAILED (log: $log)"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -5 || true
  fi
done
echo "fuzz: ${#harnesses[@]} harnesses, $failed failed"
[ "$failed" -eq 0 ]
