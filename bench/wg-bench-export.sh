#!/usr/bin/env bash
# wg-bench-export.sh — `wavegraph export` of graphs/ocean.json (512², a 20 s
# loop at 24 fps = 480 frames): wall, user and system time, and the
# package's size per top-level entry (per-frame textures, atlases,
# water.glb, and whatever else an export writes), in one table.
#
#   bench/wg-bench-export.sh [BUILD_DIR] [-- EXTRA EXPORT OPTIONS]
#
# graphs/ocean.json is refused as it is (its foam node keeps state), so the
# bench exports a copy without that node and with spectrum-evolve's
# loop_period set to 20 s. BUILD_DIR (default: build) must hold
# runtime/wavegraph (`ninja -C build runtime/wavegraph`); the web player's
# three.js is the one tests/test-web-player.sh installs in BUILD_DIR/npm/web
# when there is one ($WAVEGRAPH_THREE otherwise; without it, no web/). On a shared
# machine wall time depends on the neighbours: user + system time is the
# work done.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
if [ $# -gt 0 ] && [ "$1" != -- ]; then
  build=$1
  shift
fi
[ "${1:-}" = -- ] && shift
bin=$build/runtime/wavegraph
[ -x "$bin" ] || { echo "wg-bench-export: $bin not found: ninja -C $build runtime/wavegraph" >&2; exit 1; }

[ -z "${WAVEGRAPH_THREE:-}" ] && [ -d "$build/npm/web/node_modules/three" ] &&
  export WAVEGRAPH_THREE=$build/npm/web/node_modules/three
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - graphs/ocean.json "$tmp/ocean-loop.json" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))
g["nodes"] = [n for n in g["nodes"] if n["id"] not in ("foam", "foam_out")]
g["links"] = [l for l in g["links"] if not (l["from"] + l["to"]).count("foam:")]
g["outputs"].pop("foam", None)
for n in g["nodes"]:
    if n["type"] == "spectrum-evolve":
        n.setdefault("params", {})["loop_period"] = 20
json.dump(g, open(sys.argv[2], "w"), indent=2)
EOF

out=$tmp/package
log=$tmp/export.log
TIMEFORMAT='%R %U %S'
times=$( { time "$bin" export "$tmp/ocean-loop.json" --out "$out" "$@" 2>"$log" >/dev/null; } 2>&1 ) || {
  cat "$log" >&2
  exit 1
}
read -r wall user sys <<<"$times"
grep warning "$log" >&2 || true
frames=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["frame_count"])' "$out/manifest.json")

echo "## wavegraph export graphs/ocean.json (no foam, loop_period 20 s): $frames frames $*"
echo "$(nproc) cores; $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo
echo "| wall (s) | user (s) | sys (s) | target |"
echo "|---|---|---|---|"
echo "| $wall | $user | $sys | ≤ 30 s wall |"
echo
echo "| package entry | files | size (MB) |"
echo "|---|---|---|"
total=0
for entry in "$out"/*; do
  name=$(basename "$entry")
  [ -d "$entry" ] && name=$name/
  bytes=$(du -sb "$entry" | cut -f1)
  files=$(find "$entry" -type f | wc -l)
  total=$((total + bytes))
  printf '| %s | %d | %.3f |\n' "$name" "$files" "$(echo "$bytes / 1000000" | bc -l)"
done
printf '| **total** | %d | %.3f |\n' "$(find "$out" -type f | wc -l)" "$(echo "$total / 1000000" | bc -l)"
