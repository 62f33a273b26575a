#!/bin/sh
# device-kit.sh — the GPU benchmarks, packed here and run on a machine that has a
# GPU but none of our libraries and no network (a lent render node).
#
#   bench/device-kit.sh pack [DIR]   here, after `ninja -C build`: the benchmarks and
#                                    test-gpu, stripped, with the shared libraries
#                                    they load (not glibc's) and Debian's glvnd EGL/GL
#                                    loaders as .deb files, into DIR (default .devkit,
#                                    ignored by git; about 15 MiB)
#   bench/device-kit.sh run [DIR]    there, from the repository root: unpacks the loaders
#                                    when the machine has none, checks the EGL context,
#                                    then runs the benchmarks, each under 150 s, into
#                                    $OUT/device-bench.md (or DIR/device-bench.md),
#                                    then the GPU test programs, each case under 60 s, into
#                                    $OUT/device-tests.md: CPU/GPU parity on real hardware
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
# The test programs whose cases compare the GPU with the CPU (TESTS picks fewer).
tests=${TESTS:-"test-gpu test-backends test-wave-particles test-particle-emitter
test-particle-obstacles test-floating-body test-floating-current test-shade-hulls
test-shade-renderer test-surface-shade-gpu test-shading test-iwave test-ocean test-ripple
test-velocity test-query test-beauty test-image"}

pack() {
  [ -x build/bench/wg-bench-gpu ] || { echo "device-kit: build first (ninja -C build)" >&2; exit 2; }
  rm -rf "$kit"
  mkdir -p "$kit/bin" "$kit/lib" "$kit/gl"
  for b in $benches; do cp build/bench/$b "$kit/bin/"; done
  for t in $tests; do cp build/tests/$t "$kit/bin/"; done
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
  # Compressed: the working tree and a carried folder travel within 64 MiB.
  tar -C "$kit" -cJf "$kit/kit.tar.xz" bin lib
  rm -rf "$kit/bin" "$kit/lib"
  du -sh "$kit"
}

run() {
  [ -f "$kit/kit.tar.xz" ] || { echo "device-kit: no kit at $kit (pack it first)" >&2; exit 2; }
  kit=$(cd "$kit" && pwd)
  [ -d "$kit/bin" ] || tar -C "$kit" -xJf "$kit/kit.tar.xz"
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
  export LD_LIBRARY_PATH="$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
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
    { echo; echo "<!-- $b -->"; timeout 150 "$kit/bin/$b" 2>&1 || echo "($b: exit $?)"; } >> "$log"
  done
  echo "device-kit: $log" >&2
  tlog="$out/device-tests.md"
  # Each test case in a process of its own (a failed assertion ends the
  # process): which cases fail, and each one's last lines, the driver's
  # debug messages (WAVEGRAPH_GL_DEBUG=1) among them.
  # The cases that run the CLI fail here: it is not in the kit (FFmpeg's
  # libraries would take 45 MiB of it).
  export WAVEGRAPH_GL_DEBUG=1
  echo "# Wavegraph GPU tests (WAVEGRAPH_REQUIRE_GPU=1), $(date -u '+%Y-%m-%d %H:%M UTC')" > "$tlog"
  for t in $tests; do
    echo "== $t" >&2
    ok=0 bad=0
    for p in $(timeout 20 "$kit/bin/$t" -l 2>/dev/null | grep '^/'); do
      rc=0
      timeout 60 "$kit/bin/$t" -p "$p" > "$out/case.log" 2>&1 || rc=$?
      if [ $rc -eq 0 ]; then
        ok=$((ok + 1))
        grep -q '^wavegraph: GL' "$out/case.log" &&
          { echo "### $t $p: ok, with GL messages"; grep '^wavegraph: GL' "$out/case.log" | sort | uniq -c | head -8; } >> "$tlog"
      else
        bad=$((bad + 1))
        { echo "### $t $p: exit $rc"; grep -v '^ok\|^# Start\|^# End\|^1\.\.' "$out/case.log" | tail -25; } >> "$tlog"
      fi
    done
    echo "## $t: $ok passed, $bad failed" >> "$tlog"
  done
  rm -f "$out/case.log"
}

case "$cmd" in
  pack) pack ;;
  run) run ;;
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
