#!/bin/sh
# test-harbor-game.sh BUILD_DIR — the sample game (examples/harbor-game),
# built with its own Makefile against a staged `meson install` as a game
# developer builds it, runs in test mode on a virtual X display (Xvfb,
# OpenGL from Mesa's llvmpipe): 120 scripted frames at 1/60 s with its
# --check of the boats' waterlines; then its screenshot (kept in
# BUILD_DIR/tests/artifacts/harbor-game.png) must show the harbour.
# Without Xvfb, SDL2, make or an OpenGL 4.3 context it is skipped (77) with
# the reason — or fails under WAVEGRAPH_REQUIRE_GPU=1 (CI), where it must run.
set -eu
build=$(realpath "$1")
here=$(dirname "$(realpath "$0")")

unavailable () {
  if [ "${WAVEGRAPH_REQUIRE_GPU:-}" = 1 ]; then
    echo "WAVEGRAPH_REQUIRE_GPU=1 but $1: the sample game cannot run"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}

missing=
command -v xvfb-run >/dev/null 2>&1 || missing="xvfb-run (Debian: xvfb xauth)"
command -v make >/dev/null 2>&1 || missing="${missing:+$missing, }make"
for package in sdl2:libsdl2-dev epoxy:libepoxy-dev libpng:libpng-dev; do
  pkg-config --exists "${package%%:*}" || missing="${missing:+$missing, }${package%%:*} (Debian: ${package#*:})"
done
[ -z "$missing" ] || unavailable "$missing not found"

. "$here/staged-install.sh"
stage_install "$build"
make -s -C "$here/../examples/harbor-game" O="$tmp/game" CFLAGS="-O2 -g -Werror"

artifacts=$build/tests/artifacts
mkdir -p "$artifacts"
shot=$artifacts/harbor-game.png
rm -f "$shot"
status=0
# The game finds the installed harbor.json through the staged .pc file.
# Displays from :199 up, apart from the editor's UI suite (from :99), which
# starts at the same moment (meson priority).
LD_LIBRARY_PATH=$libdir SDL_VIDEODRIVER=x11 LIBGL_ALWAYS_SOFTWARE=1 \
  xvfb-run -a -n 199 -s '-screen 0 1280x720x24' \
  "$tmp/game/harbor-game" --frames 120 --check --size 960x540 --screenshot "$shot" || status=$?
[ "$status" -ne 3 ] || unavailable "no OpenGL 4.3 core context on Xvfb"
[ "$status" -eq 0 ] || { echo "harbor-game failed (exit status $status)"; exit 1; }
python3 "$here/harbor-game-screenshot.py" "$shot"
