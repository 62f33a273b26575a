#!/bin/sh
# test-gltf.sh BUILD_DIR — the package's water.glb passes the Khronos glTF
# Validator (npm gltf-validator, installed once under BUILD_DIR/npm/gltf, not
# vendored) with no errors and no warnings, and agrees with manifest.json
# (tests/gltf-validate.mjs). Without node or npm, or when the npm registry
# cannot be reached, it is skipped (77) with the reason — or fails under
# WAVEGRAPH_REQUIRE_GPU=1 (CI), where every tool must be there.
set -eu
build=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
validator=gltf-validator@2.0.0-dev.3.10

unavailable () {
  if [ "${WAVEGRAPH_REQUIRE_GPU:-}" = 1 ]; then
    echo "WAVEGRAPH_REQUIRE_GPU=1 but $1: water.glb cannot be validated"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}

for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || unavailable "$tool not found (Debian: nodejs npm)"
done
# A prefix of its own: npm install prunes what its package.json does not
# list, so test-web-player installing beside it removed the validator.
prefix=$build/npm/gltf
installed=$(node -p "require('$prefix/node_modules/gltf-validator/package.json').version" 2>/dev/null || true)
if [ "gltf-validator@$installed" != "$validator" ]; then
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$validator" ||
    unavailable "npm install $validator failed"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Four frames at 32² (a box average of the 256² grid): a quick export.
"$WAVEGRAPH_BIN" export "$here/../graphs/ocean-calm.json" --frames 0-3 --resolution 32 \
  --out "$tmp/water"
node "$here/gltf-validate.mjs" "$prefix" "$tmp/water"
