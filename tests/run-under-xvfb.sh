#!/bin/sh
# run-under-xvfb.sh XVFB_RUN TEST [ARGS…] — runs a GTK test on a virtual X
# display (Xvfb; OpenGL from Mesa's llvmpipe) inside its own D-Bus session.
# XVFB_RUN is the xvfb-run meson found, or empty. Without it the test is
# skipped with the reason — or fails when WAVEGRAPH_REQUIRE_GPU=1 (CI), where
# the UI tests must run.
xvfb_run=$1
shift
missing=
[ -n "$xvfb_run" ] && [ -x "$xvfb_run" ] || missing="xvfb-run (Debian: xvfb xauth)"
command -v dbus-run-session >/dev/null 2>&1 || missing="${missing:+$missing, }dbus-run-session (Debian: dbus-daemon)"
if [ -n "$missing" ]; then
  if [ "${WAVEGRAPH_REQUIRE_GPU:-}" = 1 ]; then
    echo "1..1"
    echo "not ok 1 - WAVEGRAPH_REQUIRE_GPU=1 but $missing is missing: the UI tests cannot run"
    exit 1
  fi
  echo "1..0 # SKIP $missing not found: install it to run the editor's UI tests"
  exit 0
fi
exec dbus-run-session -- "$xvfb_run" -a -s "-screen 0 1600x1000x24" "$@"
