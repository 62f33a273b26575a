#!/usr/bin/env bash
# tools/beauty-sheet.sh [FRAME] — docs/beauty.png: frame FRAME (default 90)
# of every example graph's beauty output, 400 × 225 tiles in file-name order,
# six to a row. Needs build/runtime/wavegraph and ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
frame=${1:-90}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for g in graphs/*.json; do
  name=$(basename "$g" .json)
  # From frame 0: simulations step to the frame.
  ./build/runtime/wavegraph run "$g" --frames "0-$frame" --out "$tmp/$name" >/dev/null 2>&1
  png=$(find "$tmp/$name" -name "beauty.$(printf %04d "$frame").png" | head -n 1)
  [ -n "$png" ] || { echo "beauty-sheet: $g wrote no beauty.$frame.png" >&2; exit 1; }
  cp "$png" "$tmp/tile-$(printf %02d $n).png"
  n=$((n + 1))
done
cols=6
rows=$(( (n + cols - 1) / cols ))
ffmpeg -loglevel error -y -i "$tmp/tile-%02d.png" \
  -vf "scale=400:225:flags=area,tile=${cols}x${rows}" -frames:v 1 docs/beauty.png
echo "beauty-sheet: $n graphs, docs/beauty.png" >&2
