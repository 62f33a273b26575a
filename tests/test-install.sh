#!/bin/sh
# test-install.sh BUILD_DIR — `meson install` into a staging folder, then a
# program that includes only <wavegraph.h> is built against it with
# pkg-config (as a game is) and run on an installed example graph
# (share/wavegraph/graphs): headers, the pkg-config file, the library and the
# examples all arrive where a user's build looks for them.
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
