#!/bin/sh
# test-exports.sh LIBRARY HEADER — the shared library exports exactly the
# functions its public header declares: no internal helper leaks out (a game
# could come to depend on it), no declared function is missing.
set -eu
lib=$(realpath "$1")
header=$(realpath "$2")
command -v nm >/dev/null || { echo "test-exports: nm (Debian: binutils) is missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# OpenMP's named critical sections are global locks by design
# (.gomp_critical_user_NAME): not API.
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRB]$/ && $3 !~ /^\.gomp_critical_user_/ { print $3 }' |
  sort -u > exports.txt
python3 - "$header" > declared.txt <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)   # comments name functions too
text = re.sub(r'^\s*#.*$', '', text, flags=re.M)     # and macros use them
print('\n'.join(sorted(set(re.findall(r'\b(wg_[a-z0-9_]+)\s*\(', text)))))
PY
status=0
extra=$(comm -23 exports.txt declared.txt)
missing=$(comm -13 exports.txt declared.txt)
if [ -n "$extra" ]; then
  echo "exported but not in $header:"; echo "$extra" | sed 's/^/  /'; status=1
fi
if [ -n "$missing" ]; then
  echo "declared in $header but not exported:"; echo "$missing" | sed 's/^/  /'; status=1
fi
echo "$(wc -l < exports.txt) symbols exported, $(wc -l < declared.txt) declared"
exit $status
