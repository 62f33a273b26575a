#!/usr/bin/env bash
# test-farm.sh — `wavegraph farm` on a real Slurm: a single-node cluster on
# localhost (tests/slurm-local.sh: munged, slurmctld and slurmd started here,
# stopped by PID at the end), then
#   - harbor.json 0-299 as 6 chained chunks, the third chunk scancel'ed while
#     it runs, repaired, and every file compared with a single-process bake;
#   - a frame file corrupted: status finds it, repair re-runs that chunk only;
#   - ocean.json (foam carries state), its first 160 frames as 8 chained
#     chunks, byte for byte;
#   - ocean-calm.json (no state) as an array of 8 chunks, byte for byte;
#   - a 3-value wedge equal to three separate bakes, and its contact sheet;
#   - farm cancel of queued jobs, then repair.
# TAP output. Without root or Slurm it is skipped with the reason, except
# under WAVEGRAPH_REQUIRE_SLURM=1 (CI), where that fails.
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
bin=${WAVEGRAPH_BIN:-$src/build/runtime/wavegraph}
missing=
[ "$(id -u)" = 0 ] || missing="root (slurmd runs jobs as their owner)"
for tool in sbatch squeue scancel slurmctld slurmd munged; do
  command -v "$tool" >/dev/null 2>&1 || missing="${missing:+$missing, }$tool"
done
if [ -n "$missing" ]; then
  if [ "${WAVEGRAPH_REQUIRE_SLURM:-}" = 1 ]; then
    echo "1..1"
    echo "not ok 1 - WAVEGRAPH_REQUIRE_SLURM=1 but the farm tests lack: $missing (Debian: slurm-wlm munge)"
    exit 1
  fi
  echo "1..0 # SKIP no $missing: install slurm-wlm and munge, as root, to run the farm tests"
  exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wavegraph-farm.XXXXXX")
cleanup() {
  "$src/tests/slurm-local.sh" stop "$tmp/slurm" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { # check NAME COMMAND...
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name" "$(echo "$out" | tail -n 15)"; fi
}
# same A B: every file of A is in B with the same bytes, and B has no others.
same() { diff -rq "$1" "$2"; }
job_of() { # job_of DIR WEDGE/CHUNK: the job id farm.json records
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/farm.json"))["jobs"].get(sys.argv[2], ""))' "$1" "$2"
}
wait_for() { # wait_for SECONDS COMMAND...: polls until COMMAND succeeds
  local limit=$1
  shift
  for _ in $(seq $((limit * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

t0=$(date +%s%N)
if ! env=$("$src/tests/slurm-local.sh" start "$tmp/slurm" 2>&1); then
  echo "1..1"
  echo "not ok 1 - a single-node Slurm starts"
  echo "$env" | sed 's/^/# /'
  exit 1
fi
eval "$env"
ok "a single-node Slurm starts ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
cd "$tmp"
g=$src/graphs
# The examples' beauty passes at 64 × 36: still baked and compared, but the
# farm's bookkeeping, not shading, is what this test times.
small=(--set shade.width=64 --set shade.height=36)

# Reference bakes, one process each.
"$bin" run "$g/harbor.json" "${small[@]}" --out ref-harbor --no-contact-sheet --no-fsync 2>/dev/null
"$bin" run "$g/ocean.json" "${small[@]}" --frames 0-159 --out ref-ocean --no-contact-sheet \
  --no-fsync 2>/dev/null
"$bin" run "$g/ocean-calm.json" "${small[@]}" --out ref-calm --no-contact-sheet --no-fsync 2>/dev/null
for s in 3 6 9; do
  "$bin" run "$g/ocean-calm.json" "${small[@]}" --out "ref-calm-$s" --set spectrum.wind_speed=$s \
    --no-contact-sheet --no-fsync 2>/dev/null
done

# 1. A chain of 6, its third chunk cancelled mid-way, then repaired.
"$bin" farm submit "$g/harbor.json" "${small[@]}" --frames 0-299 --chunk 50 --checkpoint-every 10 \
  --out harbor > harbor-submit.log 2>&1
check "harbor: 6 chained jobs queued" grep -q "queued 6 jobs" harbor-submit.log
job2=$(job_of harbor 0/2)
if wait_for 300 test -f harbor/.farm/_/chunk-0002.ckpt.json; then
  scancel "$job2"
  # The later chunks stay pending (their dependency can never be met).
  wait_for 60 sh -c "! squeue -h -j $job2 -t RUNNING,COMPLETING -o %i | grep -q ."
  "$bin" farm status harbor > harbor-status.log 2>&1
  check "harbor: status shows chunk 2 cancelled with frames kept, later chunks blocked" \
    sh -c "grep -E 'chunk +2 .*failed \(CANCELLED\), whole through frame 1[0-9][0-9]' harbor-status.log &&
           grep -E 'chunk +3 .*blocked' harbor-status.log && grep -E 'chunk +1 .*done' harbor-status.log"
  "$bin" farm repair harbor --wait > harbor-repair.log 2>&1
  check "harbor: repair resubmits chunks 2-5 and finishes" \
    sh -c "grep -q 'resubmitting 4 chunks' harbor-repair.log && grep -q '6 done' harbor-repair.log"
  check "harbor: chunk 2 resumed from its checkpoint" \
    grep -q "resumes at frame 1[1-4][0-9] from its checkpoint" harbor/.farm/logs/0-2-*.log
else
  not_ok "harbor: chunk 2 reached a checkpoint" "$(tail -n 5 harbor/.farm/logs/* 2>&1)"
fi
check "harbor: 900 files identical to one process" same ref-harbor/harbor harbor/harbor

# 2. A damaged frame: found, and only its chunk runs again.
before=$(for c in 0 1 2 3 4 5; do job_of harbor 0/$c; done)
printf 'x' | dd of=harbor/harbor/height.0123.exr bs=1 seek=4000 conv=notrunc status=none
"$bin" farm status harbor > corrupt-status.log 2>&1
check "corrupt: status names the file" grep -qE "chunk +2 .*corrupt: harbor/height.0123.exr differs" corrupt-status.log
"$bin" farm repair harbor --wait > corrupt-repair.log 2>&1
after=$(for c in 0 1 2 3 4 5; do job_of harbor 0/$c; done)
changed=$(diff <(echo "$before") <(echo "$after") | grep -c '^>')
check "corrupt: one chunk resubmitted, the others untouched" \
  sh -c "grep -q 'resubmitting 1 chunks' corrupt-repair.log && [ $changed = 1 ] &&
         [ \"$(job_of harbor 0/1)\" = \"$(echo "$before" | sed -n 2p)\" ]"
check "corrupt: files identical to one process again" same ref-harbor/harbor harbor/harbor

# 3. ocean.json: foam carries state, so 8 chained chunks (of its first 160
# frames: a 512² grid, and the chain's hand-over, not its length, is tested).
"$bin" farm submit "$g/ocean.json" "${small[@]}" --frames 0-159 --chunk 20 --out ocean --wait \
  > ocean.log 2>&1
check "ocean: 8 chained chunks done" grep -q "8 chunks: 8 done" ocean.log
check "ocean: 640 files identical to one process" same ref-ocean/ocean ocean/ocean

# 4. ocean-calm.json has no state: an array of 8.
"$bin" farm submit "$g/ocean-calm.json" "${small[@]}" --chunk 12 --out calm --wait > calm.log 2>&1
check "calm: a job array of 8 tasks" sh -c "grep -q 'all in parallel' calm.log &&
  [ \"$(job_of calm 0/7 | sed 's/.*_//')\" = 7 ] && grep -q '8 chunks: 8 done' calm.log"
check "calm: files identical to one process" same ref-calm/calm calm/calm

# 5. Wedges: one bake per value, side by side in the contact sheet.
"$bin" farm submit "$g/ocean-calm.json" "${small[@]}" --chunk 30 --out wedge --wedge spectrum.wind_speed=3,6,9 \
  --wait > wedge.log 2>&1
for s in 3 6 9; do
  check "wedge wind_speed=$s: identical to its own bake" same "ref-calm-$s/calm" "wedge/spectrum.wind_speed-$s/calm"
done
check "wedge: a contact sheet with a row per wedge" python3 - wedge/contact-sheet.png <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
w, h = struct.unpack('>II', d[16:24])
# 8 columns of 128 px thumbnails, 3 rows, 2 px gaps
assert (w, h) == (8 * 128 + 9 * 2, 3 * 128 + 4 * 2), (w, h)
# labelled (frames, wedge names): rewritten by cairo as 8-bit RGB(A)
assert d[24] == 8 and d[25] in (2, 6), (d[24], d[25])
EOF

# 6. Cancel: queued jobs go, nothing is lost, repair finishes the bake.
"$bin" farm submit "$g/pool.json" "${small[@]}" --chunk 30 --out pool > pool.log 2>&1
"$bin" farm cancel pool > cancel.log 2>&1
check "cancel: jobs cancelled" grep -q "cancelled [1-9]" cancel.log
wait_for 60 sh -c "! squeue -h -t PENDING,RUNNING,COMPLETING -o %i | grep -q ."
"$bin" farm repair pool --wait > pool-repair.log 2>&1
"$bin" run "$g/pool.json" "${small[@]}" --out ref-pool --no-contact-sheet --no-fsync 2>/dev/null
check "cancel: repaired bake identical to one process" same ref-pool/pool pool/pool

echo "1..$n"
exit $((failed > 0))
