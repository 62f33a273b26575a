# staged-install.sh — sourced by the tests that build a program against the
# installed library, as a game's or a tool's build would see it.
# `stage_install BUILD_DIR` runs `meson install` into a staging folder and
# sets:
#   tmp              a temporary folder, removed on exit (the staging root is
#                    $tmp/root)
#   libdir           the folder of the installed libwavegraph.so.0
#   PKG_CONFIG_PATH  (exported) a folder whose wavegraph.pc is the installed
#                    one with its prefix moved under the staging root (glib's
#                    and json-glib's stay the system's)
# and fails the test when the headers' .pc file or the library is missing.
stage_install () {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  meson install -C "$1" --destdir "$tmp/root" --no-rebuild --quiet >/dev/null
  pc=$(find "$tmp/root" -name wavegraph.pc | head -n 1)
  [ -n "$pc" ] || { echo "wavegraph.pc was not installed"; exit 1; }
  lib=$(find "$tmp/root" -name 'libwavegraph.so.0' | head -n 1)
  [ -n "$lib" ] || { echo "libwavegraph.so.0 was not installed"; exit 1; }
  libdir=$(dirname "$lib")
  mkdir "$tmp/pc"
  sed "s|^prefix=|prefix=$tmp/root|" "$pc" > "$tmp/pc/wavegraph.pc"
  PKG_CONFIG_PATH=$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export PKG_CONFIG_PATH
}
