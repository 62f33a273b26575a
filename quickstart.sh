#!/usr/bin/env bash
# Wavegraph quick start on Debian 12.
#   ./quickstart.sh bake   install what is missing, build, bake graphs/ocean.json to out/
#   ./quickstart.sh test   install what is missing, build, run the whole test suite
# Both build the editor too (build/app/wavegraph-editor); its UI tests run on
# a virtual X display (Xvfb). The test command ends with "N passed, N failed".
# test also builds and tests build-clang-kissfft/: the other compiler and the
# BSD-licensed FFT a closed-source game links (meson -Dfft=kissfft).
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  build-essential meson ninja-build pkg-config python3
  libglib2.0-dev libjson-glib-dev libfftw3-dev libkissfft-dev libopenexr-dev libpng-dev libdeflate-dev
  libepoxy-dev libegl-dev libegl1 libegl-mesa0 libgl1-mesa-dri
  libgtk-4-dev libcairo2-dev adwaita-icon-theme xvfb xauth dbus-daemon
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libassimp-dev
)
# The tests also build the fuzz harnesses with clang and libFuzzer, and run
# farm bakes on a single-node Slurm they start themselves; the editor's UI
# tests type keys through the X server with xdotool; the sample game
# (examples/harbor-game) is built with SDL2; ffprobe and ffmpeg (package
# ffmpeg) read back the movies of `run --preview`; node and npm install and
# run the Khronos glTF Validator on the export's water.glb.
# Node and npm may come from elsewhere (NodeSource's nodejs bundles npm and
# conflicts with Debian's npm package): Debian's only where they are missing.
node_packages=()
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  node_packages=(nodejs npm)
fi
test_packages=(clang libclang-rt-14-dev libomp-dev slurm-wlm munge xdotool libsdl2-dev ffmpeg glslang-tools chromium
  "${node_packages[@]}")

install_packages() {
  local missing=()
  for p in "${packages[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "quickstart: installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

build() {
  if [ ! -f build/build.ninja ]; then
    meson setup build -Dwerror=true -Deditor=true
  elif ! meson configure build | grep -E '^ *editor +true' >/dev/null; then
    meson configure build -Deditor=true
  fi
  ninja -C build
}

# The second build of the test command: clang, kissfft, no editor.
build_clang_kissfft() {
  if [ ! -f build-clang-kissfft/build.ninja ]; then
    CC=clang meson setup build-clang-kissfft -Dwerror=true -Dfft=kissfft || return 1
  fi
  ninja -C build-clang-kissfft
}

# "N passed, N failed" from meson's own summaries (one per build folder),
# after a line naming each failure: CI keeps only the log's tail.
summary() {
  awk '/^Ok:/ {ok += $2} /^Expected Fail:/ {ok += $3}
       /^Fail:/ {bad += $2} /^Unexpected Pass:/ {bad += $3} /^Timeout:/ {bad += $2}
       /^Summary of Failures:/ {listed = 1} /^Ok:/ {listed = 0; run++}
       /^ *[0-9]+\/[0-9]+ .* (FAIL|ERROR|TIMEOUT|UNEXPECTEDPASS) / && !listed {
         sub(/^ *[0-9]+\/[0-9]+ +/, "")
         names = names "failed in " (run ? "build-clang-kissfft" : "build") ": " $0 "\n" }
       /^▶ / && !listed {sub(/ +$/, ""); names = names "  (" $0 ")\n"}
       /^build-[a-z-]+: FAILED to build/ {bad++; names = names $0 "\n"}
       /^fuzz-[a-z]+: ok/ {ok++} /^fuzz-[a-z]+: FAILED/ {bad++; names = names $0 "\n"}
       END {printf "%s%d passed, %d failed\n", names, ok, bad}' "$1"
}

case "${1:-}" in
  bake)
    install_packages
    build
    ./build/runtime/wavegraph run graphs/ocean.json --out out --preview out/ocean.mp4
    echo "quickstart: frames in out/ocean/, contact sheet out/contact-sheet.png, movie out/ocean.mp4" >&2
    ;;
  test)
    install_packages "${test_packages[@]}"
    if ! build; then
      echo "0 passed, 1 failed"
      exit 1
    fi
    log=$(mktemp)
    status=0
    meson test -C build --print-errorlogs 2>&1 | tee "$log" || status=$?
    # Every suite again with clang and kissfft (but the Slurm farm's, the
    # CLI's whole-graph bakes, the example graphs' backend parity runs and
    # the export's outside clients — glTF validator, Chromium — which
    # neither changes): the library a closed-source game ships must build
    # warning-free and pass them too.
    if build_clang_kissfft; then
      meson test -C build-clang-kissfft --no-suite slurm --no-suite cli-bakes \
        --no-suite examples --no-suite export-clients --print-errorlogs 2>&1 |
        tee -a "$log" || status=1
    else
      echo "build-clang-kissfft: FAILED to build" | tee -a "$log"
      status=1
    fi
    # The parsers of untrusted files under libFuzzer (clang, ASan+UBSan),
    # each for a while on its committed corpus: one more test apiece.
    tools/fuzz.sh "${WAVEGRAPH_FUZZ_SECONDS:-10}" 2>&1 | tee -a "$log" || status=1
    summary "$log"
    rm -f "$log"
    exit $status
    ;;
  *)
    echo "usage: $0 bake|test" >&2
    exit 2
    ;;
esac
