#!/usr/bin/env python3
"""Draws harbor-mask.png, the breakwater and quays of graphs/harbor.json.

512 x 512 pixels over the graph's 256 m x 256 m (0.5 m per pixel); white is
water, black is solid. Row 0 of the image is y = 0 (the open sea's side).
Standard library only: python3 harbor-mask.py > harbor-mask.png
"""
import struct
import sys
import zlib

SIZE = 512
CELL = 256.0 / SIZE


def solid(x, y):
    # Quay along the far (north) side, with a pier sticking out of it.
    if y > 236.0:
        return True
    if 60.0 < x < 72.0 and y > 196.0:
        return True
    # Breakwater: a 6 m mole across the bay at y = 96-102 m, open at its
    # east end (x > 176 m), with a rounded head.
    if y >= 96.0 and y <= 102.0 and x <= 176.0:
        return True
    if (x - 176.0) ** 2 + (y - 99.0) ** 2 <= 3.0 ** 2:
        return True
    # A rock outcrop on the sea side.
    if (x - 40.0) ** 2 + ((y - 50.0) / 0.6) ** 2 <= 9.0 ** 2:
        return True
    return False


def png(rows):
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


rows = []
for j in range(SIZE):
    y = (j + 0.5) * CELL
    rows.append([0 if solid((i + 0.5) * CELL, y) else 255 for i in range(SIZE)])
sys.stdout.buffer.write(png(rows))
