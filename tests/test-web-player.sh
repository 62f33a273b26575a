#!/bin/sh
# test-web-player.sh BUILD_DIR EXR_DUMP — the export's web player works in
# headless Chromium (tests/web-player.mjs check): no console errors, a
# picture, and its height debug view equal to the EXR frames. npm three (for
# the exporter's --three) and playwright-core are installed once under
# BUILD_DIR/npm/web, not vendored; Chromium is Debian's. Without node, npm,
# chromium or python3, or when the npm registry cannot be reached, it is
# skipped (77) with the reason — or fails under WAVEGRAPH_REQUIRE_GPU=1 (CI).
set -eu
build=$(realpath "$1")
exr_dump=$2
here=$(dirname "$(realpath "$0")")
three=three@0.187.0
playwright=playwright-core@1.65.1

unavailable () {
  if [ "${WAVEGRAPH_REQUIRE_GPU:-}" = 1 ]; then
    echo "WAVEGRAPH_REQUIRE_GPU=1 but $1: the web player cannot be tested"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}

for tool in node npm python3; do
  command -v "$tool" >/dev/null 2>&1 || unavailable "$tool not found (Debian: nodejs npm python3)"
done
[ -x "${WAVEGRAPH_CHROMIUM:-/usr/bin/chromium}" ] ||
  unavailable "${WAVEGRAPH_CHROMIUM:-/usr/bin/chromium} not found (Debian: chromium)"
# Its own prefix, apart from test-gltf.sh's (see there).
prefix=$build/npm/web
for want in $three $playwright; do
  name=${want%@*}
  installed=$(node -p "require('$prefix/node_modules/$name/package.json').version" 2>/dev/null || true)
  if [ "$name@$installed" != "$want" ]; then
    npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$want" ||
      unavailable "npm install $want failed"
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Four frames at 32² (a box average of the 256² grid), as test-gltf.sh.
"$WAVEGRAPH_BIN" export "$here/../graphs/ocean-calm.json" --frames 0-3 --resolution 32 \
  --three "$prefix/node_modules/three" --out "$tmp/water"
node "$here/web-player.mjs" check "$prefix" "$tmp/water" "$exr_dump"
