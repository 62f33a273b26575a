#!/usr/bin/env python3
"""tools/mutate.py — a mutation pass: applies one-line mutations from a list,
rebuilds, runs the suites each names, and counts the mutations the suite
catches (a suite fails). Files are restored after each mutation, also when
interrupted.

  tools/mutate.py [tools/mutations.txt] [--build build]

List format, one mutation per line (# comments):
  FILE @@ ORIGINAL TEXT @@ MUTATED TEXT @@ SUITE[,SUITE...]
ORIGINAL must occur exactly once in FILE. A mutant that does not compile is
reported and left out of the score. Prints a table and
"mutation score: CAUGHT/TOTAL (P%)".
"""
import subprocess, sys, time, pathlib

def main():
    args = sys.argv[1:]
    build = "build"
    if "--build" in args:
        i = args.index("--build"); build = args[i + 1]; del args[i:i + 2]
    listing = pathlib.Path(args[0] if args else "tools/mutations.txt")
    root = pathlib.Path(__file__).resolve().parent.parent
    mutations = []
    for n, line in enumerate(listing.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" @@ ")]
        if len(parts) != 4:
            sys.exit(f"{listing}:{n}: expected FILE @@ ORIGINAL @@ MUTATED @@ SUITES")
        mutations.append((n, *parts))
    caught = total = stillborn = 0
    rows = []
    for n, file, old, new, suites in mutations:
        path = root / file
        text = path.read_text()
        if text.count(old) != 1:
            sys.exit(f"{listing}:{n}: {old!r} occurs {text.count(old)} times in {file}")
        try:
            path.write_text(text.replace(old, new))
            t0 = time.time()
            b = subprocess.run(["ninja", "-C", build], cwd=root, capture_output=True, text=True)
            if b.returncode != 0:
                stillborn += 1
                rows.append((n, file, "does not compile", 0))
                continue
            r = subprocess.run(["meson", "test", "-C", build, "--no-rebuild", "-q",
                                *suites.split(",")], cwd=root, capture_output=True, text=True)
            total += 1
            killed = r.returncode != 0
            caught += killed
            rows.append((n, file, "caught" if killed else "SURVIVED", time.time() - t0))
            print(f"{listing}:{n}: {file}: {'caught' if killed else 'SURVIVED'}: "
                  f"{old!r} -> {new!r}", flush=True)
        finally:
            path.write_text(text)
    subprocess.run(["ninja", "-C", build], cwd=root, capture_output=True)
    print()
    print("| line | file | result | seconds |")
    print("|---|---|---|---|")
    for n, file, result, secs in rows:
        print(f"| {n} | {file} | {result} | {secs:.0f} |")
    pct = 100.0 * caught / total if total else 0.0
    print(f"mutation score: {caught}/{total} ({pct:.0f}%), {stillborn} did not compile")
    return 0 if total and caught == total else 1

if __name__ == "__main__":
    sys.exit(main())
