#!/usr/bin/env python3
"""Writes dinghy.obj, the hull of the small boat in graphs/floating-boxes.json.

A closed triangle mesh, +x forward (stern at x = 0, bow at x = 1), +z up,
faces wound counter-clockwise seen from outside: 24 stations, each a convex
pentagon (deck edges, chines, keel), the transom and the bow closed by fans.
The graph scales it to its body's size (its bounding box), so the units are
arbitrary. Standard library only: python3 dinghy.py > dinghy.obj
"""
import math
import sys

STATIONS = 24


def station(u):
    """The pentagon at u in [0, 1]: (x, y, z) from port deck round to starboard deck."""
    x = 1 - (1 - u) ** 1.5  # closer stations towards the bow, where the hull narrows
    half = max(0.03, 0.5 * math.sqrt(max(0.0, 1 - ((x - 0.35) / 0.65) ** 2)))
    keel = 0.5 * ((x - 0.6) / 0.4) ** 2 if x > 0.6 else 0.0
    deck = 1.0 + 0.1 * x * x  # the sheer rises to the bow
    chine = keel + 0.35 * (deck - keel)
    return [(x, -half, deck), (x, -0.9 * half, chine), (x, 0.0, keel),
            (x, 0.9 * half, chine), (x, half, deck)]


def main():
    out = sys.stdout
    out.write("# dinghy.obj: written by dinghy.py (graphs/data)\n")
    sections = [station(k / (STATIONS - 1)) for k in range(STATIONS)]
    for s in sections:
        for p in s:
            out.write("v %.5f %.5f %.5f\n" % p)
    n = len(sections[0])

    def index(k, i):
        return k * n + i % n + 1

    # Looking forward (+x) the pentagon runs counter-clockwise (port deck,
    # down to the keel, up to starboard), so seen from outside a quad between
    # stations k and k + 1 runs (k, i), (k, i + 1), (k + 1, i + 1), (k + 1, i).
    faces = []
    for k in range(STATIONS - 1):
        for i in range(n):
            a, b = index(k, i), index(k, i + 1)
            c, d = index(k + 1, i + 1), index(k + 1, i)
            faces += [(a, b, c), (a, c, d)]
    last = STATIONS - 1
    for i in range(1, n - 1):
        # The transom faces −x, the bow +x.
        faces.append((index(0, 0), index(0, i + 1), index(0, i)))
        faces.append((index(last, 0), index(last, i), index(last, i + 1)))
    check(sections, faces)
    for f in faces:
        out.write("f %d %d %d\n" % f)


def check(sections, faces):
    """Closed and outward: every edge once each way, a positive volume."""
    v = [p for s in sections for p in s]
    edges = set()
    volume = 0.0
    for f in faces:
        a, b, c = (v[i - 1] for i in f)
        volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                   + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6
        for e in ((f[0], f[1]), (f[1], f[2]), (f[2], f[0])):
            assert e not in edges, "edge %s twice the same way" % (e,)
            edges.add(e)
    assert all((b, a) in edges for a, b in edges), "an open edge"
    assert volume > 0, "faces wound inward"


if __name__ == "__main__":
    main()
