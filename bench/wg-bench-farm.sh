#!/usr/bin/env bash
# wg-bench-farm.sh — what a farm bake costs beside one process, on a
# single-node Slurm started here (tests/slurm-local.sh; root, slurm-wlm and
# munge needed). Prints tables; asserts nothing.
#   WAVEGRAPH_BIN=build/runtime/wavegraph bench/wg-bench-farm.sh
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${WAVEGRAPH_BIN:-$src/build/runtime/wavegraph}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wavegraph-bench-farm.XXXXXX")
trap '"$src/tests/slurm-local.sh" stop "$tmp/slurm" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
eval "$("$src/tests/slurm-local.sh" start "$tmp/slurm")"
cd "$tmp"
g=$src/graphs

now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
timed() { # timed COMMAND...: seconds of wall time
  local t0
  t0=$(now)
  "$@" >/dev/null 2>&1
  secs "$t0" "$(now)"
}

echo "## Array: ocean-calm.json (no state, 256²), frames 0-479, on $(nproc) cores"
echo
echo "| how | wall (s) |"
echo "|---|---|"
echo "| one process, all cores | $(timed "$bin" run "$g/ocean-calm.json" --frames 0-479 --out one --no-contact-sheet) |"
echo "| farm, local scheduler, 8 chunks | $(timed "$bin" farm submit "$g/ocean-calm.json" --frames 0-479 --chunk 60 --out local --scheduler local) |"
echo "| farm, Slurm array of 8 chunks (submit → last file, --wait) | $(timed "$bin" farm submit "$g/ocean-calm.json" --frames 0-479 --chunk 60 --out slurm --scheduler slurm --wait) |"
echo

echo "## Overhead per chunk: pool.json (iWave state, 256²), a chain of 8 one-frame chunks"
echo
one=$(timed "$bin" run "$g/pool.json" --frames 0-0 --out single --no-contact-sheet)
t0=$(now)
"$bin" farm submit "$g/pool.json" --frames 0-7 --chunk 1 --out chain --scheduler slurm >/dev/null
# Submission to the first frame on disk: queueing, job start, plan, one frame.
for _ in $(seq 600); do [ -f chain/pool/height.0000.exr ] && break; sleep 0.05; done
first=$(secs "$t0" "$(now)")
"$bin" farm repair chain --wait >/dev/null 2>&1 || true
while squeue -h -t PENDING,RUNNING,COMPLETING -o %i | grep -q .; do sleep 0.2; done
chain=$(secs "$t0" "$(now)")
echo "| measurement | s |"
echo "|---|---|"
echo "| \`wavegraph run\` of one frame (process, plan, frame) | $one |"
echo "| Slurm: submission to chunk 0's frame on disk | $first |"
echo "| Slurm: chain of 8 one-frame chunks, submission to the contact sheet | $chain |"
awk -v c="$chain" -v o="$one" 'BEGIN { printf "| per chained chunk, beyond the run itself | %.2f |\n", c / 8 - o }'
