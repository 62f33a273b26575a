#!/usr/bin/env bash
# Makes the editor screenshots in docs/ that the README shows: runs
# wavegraph-editor on a virtual X display (Xvfb, Mesa's OpenGL), opens an
# example graph, plays a second of it, saves the window as a PNG through GTK
# (--screenshot) and quits. Needs the build (./quickstart.sh test builds it).
set -euo pipefail
cd "$(dirname "$0")/.."

editor=build/app/wavegraph-editor
if [ ! -x "$editor" ]; then
  echo "docs-screenshots: $editor is missing; build it first (./quickstart.sh test)" >&2
  exit 1
fi
for tool in xvfb-run dbus-run-session; do
  command -v "$tool" >/dev/null || { echo "docs-screenshots: $tool is missing (Debian: xvfb, dbus-daemon)" >&2; exit 1; }
done

# A throwaway home: no recovery offers, recent files or caches from the user's.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/state" "$home/data" "$home/config" "$home/cache"

shot() {
  local png=$1
  shift
  XDG_STATE_HOME=$home/state XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config \
  XDG_CACHE_HOME=$home/cache GDK_BACKEND=x11 \
    dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$editor" --screenshot "$png" "$@" 2>/dev/null
  echo "docs-screenshots: wrote $png" >&2
}

shot docs/editor.png --frames 24 --select spectrum graphs/ocean.json
WAVEGRAPH_EDITOR_BACKEND=gpu shot docs/editor-gpu.png --frames 24 --select choppy graphs/ocean-calm.json
shot docs/editor-harbor.png --frames 24 --select boat graphs/harbor.json
