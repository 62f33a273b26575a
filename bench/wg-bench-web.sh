#!/usr/bin/env bash
# wg-bench-web.sh — the export's web player's frame time in headless
# Chromium (software GL: SwiftShader's WebGL2), informational: ms per
# frame between requestAnimationFrame timestamps over 120 frames
# (WG_BENCH_FRAMES), each waited for, 960×540, graphs/ocean-calm.json
# exported at 256² (30 frames) and at 64².
#
#   bench/wg-bench-web.sh [BUILD_DIR]
#
# Needs what tests/test-web-player.sh installs under BUILD_DIR/npm/web (npm
# three and playwright-core: run that test once) and Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
prefix=$(realpath "$build/npm/web")
for m in three playwright-core; do
  [ -d "$prefix/node_modules/$m" ] || {
    echo "wg-bench-web: no $prefix/node_modules/$m: run meson test -C $build test-web-player first" >&2
    exit 1
  }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for res in 256 64; do
  "$build/runtime/wavegraph" export graphs/ocean-calm.json --frames 0-29 --resolution "$res" \
    --three "$prefix/node_modules/three" --out "$tmp/water-$res" 2>/dev/null
  node tests/web-player.mjs bench "$prefix" "$tmp/water-$res" 2>/dev/null | grep -v '^[0-9.]* s: '
  echo
done
