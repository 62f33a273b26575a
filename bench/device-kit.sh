#!/bin/sh
# device-kit.sh — the GPU benchmarks, packed here and run on a machine that has a
# GPU but none of our libraries and no network (a lent render node).
#
#   bench/device-kit.sh pack [DIR]   here, after `ninja -C build`: the benchmarks and
#                                    test-gpu, stripped, with the shared libraries
#                                    they load (not glibc's) and Debian's glvnd EGL/GL
#                                    loaders as .deb files, into DIR (default .devkit,
#                                    ignored by git; about 36 MiB)
#   bench/device-kit.sh run [DIR]    there, from the repository root: unpacks the loaders
#                                    when the machine has none, checks the EGL context,
#                                    then runs the benchmarks, each under 90 s, into
#                                    $OUT/device-bench.md (or DIR/device-bench.md)
#
# The kit travels as an ignored folder (a device call carries .devkit and runs
# `bench/device-kit.sh run`). The benchmarks look for graphs/ where this checkout was built
# (WG_SOURCE_DIR); `run` links that path to the checkout it runs in when it is missing there.
set -eu

cmd=${1:-}
kit=${2:-.devkit}
# About 250 s here with llvmpipe for the GPU rows; BENCHES picks fewer.
benches=${BENCHES:-"wg-bench-gpu wg-bench-particles wg-bench-ripple wg-bench-gerstner
wg-bench-iwave wg-bench-shade wg-bench-floating"}

pack() {
  [ -x build/bench/wg-bench-gpu ] || { echo "device-kit: build first (ninja -C build)" >&2; exit 2; }
  rm -rf "$kit"
  mkdir -p "$kit/bin" "$kit/lib" "$kit/gl"
  for b in $benches; do cp build/bench/$b "$kit/bin/"; done
  cp build/tests/test-gpu "$kit/bin/"
  strip --strip-debug "$kit"/bin/*
  # The libraries the programs load, except glibc's own and the GL/EGL dispatch
  # libraries (the machine's driver needs its own glvnd, or the .debs below).
  for f in "$kit"/bin/*; do ldd "$f"; done |
    awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libEGL|libGL|libGLX|libGLdispatch|libOpenGL|libGLESv2)\.so' |
    while read -r lib; do cp -L "$lib" "$kit/lib/"; done
  strip --strip-debug "$kit"/lib/*.so* 2>/dev/null || true
  # glvnd, as the device's README says: downloaded here, unpacked there.
  (cd "$kit/gl" && apt-get download libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)
  echo "$(cd "$(dirname "$0")/.." && pwd)" > "$kit/source-dir"
  du -sh "$kit"
}

run() {
  [ -d "$kit/bin" ] || { echo "device-kit: no kit at $kit (pack it first)" >&2; exit 2; }
  out=${OUT:-$kit}
  log="$out/device-bench.md"
  # The driver's EGL needs glvnd's loader; a machine with one keeps its own.
  if ! ldconfig -p | grep -q 'libEGL.so.1 '; then
    for f in "$kit"/gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  if [ -d /usr/local/nvidia/share/glvnd/egl_vendor.d ] && [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  fi
  src=$(cat "$kit/source-dir")
  if [ ! -e "$src/graphs" ]; then
    mkdir -p "$(dirname "$src")"
    ln -sfn "$(pwd)" "$src"
  fi
  export LD_LIBRARY_PATH="$(pwd)/$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export WAVEGRAPH_REQUIRE_GPU=1 OMP_WAIT_POLICY=passive
  {
    echo "# Wavegraph GPU benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo '```'
    nvidia-smi -L 2>&1 || echo "(no nvidia-smi)"
    nproc
    timeout 120 "$kit/bin/test-gpu" --verbose -p /gpu/context/headless -p /gpu/context/egl-device 2>&1 |
      grep -E '^(ok|not ok|# renderer|Bail)' || true
    echo '```'
  } > "$log" 2>&1
  for b in $benches; do
    echo "== $b" >&2
    { echo; echo "<!-- $b -->"; timeout 90 "$kit/bin/$b" 2>&1 || echo "($b: exit $?)"; } >> "$log"
  done
  echo "device-kit: $log" >&2
}

case "$cmd" in
  pack) pack ;;
  run) run ;;
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
