#!/usr/bin/env bash
# wg-bench-fft.sh — the CPU ocean chain (wg-bench-ocean chain: evolve, fft,
# choppy, normals, foam) with each build's FFT library, in one table.
#
#   bench/wg-bench-fft.sh [--quick] [BUILD_DIR ...]
#
# Default folders: build (gcc, FFTW) and build-clang-kissfft (clang, kissfft,
# as quickstart.sh test makes it); a missing one is configured from its name
# (*clang* → CC=clang, *kissfft* → -Dfft=kissfft), and the bench is built.
# The builds take turns, twice, and each cell is the better of its two
# medians: the machine may be shared. The compiler is named with the FFT
# because the rest of the chain is compiled code too.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=
if [ "${1:-}" = --quick ]; then
  quick=--quick
  shift
fi
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(build build-clang-kissfft)

for d in "${dirs[@]}"; do
  if [ ! -f "$d/build.ninja" ]; then
    opts=(-Dwerror=true)
    [[ $d == *kissfft* ]] && opts+=(-Dfft=kissfft)
    if [[ $d == *clang* ]]; then
      CC=clang meson setup "$d" "${opts[@]}" >/dev/null
    else
      meson setup "$d" "${opts[@]}" >/dev/null
    fi
  fi
  ninja -C "$d" bench/wg-bench-ocean >/dev/null
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for round in 1 2; do
  for k in "${!dirs[@]}"; do
    echo "wg-bench-fft: ${dirs[$k]}, run $round of 2" >&2
    "${dirs[$k]}/bench/wg-bench-ocean" ${quick:+"$quick"} chain > "$tmp/$k.$round"
  done
done

echo "| FFT (compiler) | threads | 256² | 512² | 1024² (ms/frame) |"
echo "|---|---|---|---|---|"
for k in "${!dirs[@]}"; do
  # "## Ocean chain, CPU, FFT: kissfft 131.1.0, clang 14.0.6 (2 cores available)",
  # then rows "| 256² | 1 | 0.59 | …": grid, threads, chain ms/frame.
  awk -F'|' '
    /^## Ocean chain, CPU, FFT: / {
      sub(/^## Ocean chain, CPU, FFT: /, ""); sub(/ *\(.*/, "")
      split($0, part, ", "); fft = part[1]; compiler = part[2]
    }
    /^\| [0-9]+² \| [0-9] \|/ {
      key = $3 + 0 SUBSEP $2; v = $4 + 0
      if (!(key in best) || v < best[key]) best[key] = v
    }
    END {
      for (t = 1; t <= 2; t++)
        printf "| %s (%s) | %d | %.2f | %.2f | %.2f |\n", fft, compiler, t,
          best[t SUBSEP " 256² "], best[t SUBSEP " 512² "], best[t SUBSEP " 1024² "]
    }' "$tmp/$k.1" "$tmp/$k.2"
done
