#!/bin/sh
# test-install.sh BUILD_DIR — `meson install` into a staging folder, then
# programs that include only <wavegraph.h> are built against it with
# pkg-config (as a game is): one runs an installed example graph
# (share/wavegraph/graphs), so headers, the pkg-config file, the library and
# the examples all arrive where a user's build looks for them; one
# registers a node type of its own (install/custom-node.c) and runs it in a
# graph with a built-in node; one is docs/embedding.md's minimal program.
set -eu
here=$(dirname "$(realpath "$0")")
. "$here/staged-install.sh"
stage_install "$(realpath "$1")"
graph=$(pkg-config --variable=graphsdir wavegraph)/ocean-calm.json
[ -f "$graph" ] || { echo "the example graphs were not installed where the .pc says ($graph)"; exit 1; }
flags=$(pkg-config --cflags --libs wavegraph)
# shellcheck disable=SC2086 # the flags are words
cc -std=c11 -Wall -Werror -o "$tmp/embed" "$here/install/embed.c" $flags -lm
out=$(LD_LIBRARY_PATH=$libdir "$tmp/embed" "$graph")
echo "$out"
# ocean-calm: a 4 m/s wind sea (Hs of a fully developed one, 0.21 U²/g, is
# 0.34 m; the runtime's own physics tests check the spectrum against the fits):
# here only that the installed library computed a real sea, not zeros or NaN.
echo "$out" | python3 -c '
import sys
words = sys.stdin.read().split()
hs = float(words[words.index("Hs") + 1])
assert 0.1 < hs < 0.6, hs
assert words[1] == "cpu", words
'

# A node type written outside the library, with the project's strict
# warnings: the "Writing nodes" API is all it needs.
# shellcheck disable=SC2086 # the flags are words
cc -std=c11 -Wall -Wextra -Wno-unused-parameter -Wshadow -Wmissing-prototypes \
  -Wstrict-prototypes -Werror -o "$tmp/custom" "$here/install/custom.c" \
  "$here/install/custom-node.c" $flags -lm
LD_LIBRARY_PATH=$(dirname "$lib") "$tmp/custom"

# docs/embedding.md's minimal program, as printed there, run from the
# installed examples' folder (it opens graphs/ocean-calm.json): the page
# stays true. Three buoys on a 4 m/s sea: heights of decimetres at most,
# unit normals leaning a little.
awk '/^```c$/ { n++; next } /^```$/ { if (n == 1) exit } n == 1' "$here/../docs/embedding.md" \
  > "$tmp/buoys.c"
grep -q 'wg_plan_query' "$tmp/buoys.c" || { echo "docs/embedding.md lost its minimal program"; exit 1; }
# shellcheck disable=SC2086 # the flags are words
cc -std=c11 -Wall -Werror -o "$tmp/buoys" "$tmp/buoys.c" $flags -lm
out=$(cd "$(dirname "$graph")/.." && LD_LIBRARY_PATH=$(dirname "$lib") "$tmp/buoys")
echo "$out"
echo "$out" | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
assert len(lines) == 3, lines
for line in lines:
    m = re.match(r"buoy \d: z = ([-+.0-9]+) m, normal \(([-.0-9]+), ([-.0-9]+), ([-.0-9]+)\)", line)
    assert m, line
    z, nx, ny, nz = map(float, m.groups())
    assert abs(z) < 0.5 and z != 0, line
    assert abs(nx * nx + ny * ny + nz * nz - 1) < 0.02 and nz > 0.8, line
'
