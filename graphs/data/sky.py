#!/usr/bin/env python3
"""Writes sky.exr (graphs/sky.json) to stdout: an equirectangular HDR sky,
128 x 64 pixels of half-float R, G, B, ZIP-compressed, drawn from a formula
(Python standard library only, no third-party image).

Column i is azimuth 360 * (i + 0.5) / 128 degrees, row j elevation
90 - 180 * (j + 0.5) / 64 degrees: row 0 is the zenith, the top of the
picture. Above the horizon a blue sky brightens towards a pale horizon and
around the sun (azimuth 120, elevation 25 degrees), whose disk (3 degrees
across) is 2000 times brighter than the sky, as HDR skies are; below it, a
dark grey-green ground. Values are linear.
"""
import math
import struct
import sys
import zlib

WIDTH, HEIGHT = 128, 64
LINES_PER_CHUNK = 16  # ZIP compression's block
SUN_AZIMUTH, SUN_ELEVATION, SUN_RADIUS = 120.0, 25.0, 1.5  # degrees


def direction(azimuth, elevation):
    a, e = math.radians(azimuth), math.radians(elevation)
    return (math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e))


SUN = direction(SUN_AZIMUTH, SUN_ELEVATION)


def radiance(azimuth, elevation):
    if elevation < 0:
        fade = math.exp(elevation / 10.0)
        return tuple(g + (h - g) * fade for g, h in zip((0.04, 0.05, 0.035), (0.3, 0.32, 0.3)))
    d = direction(azimuth, elevation)
    cos_sun = max(-1.0, min(1.0, sum(a * b for a, b in zip(d, SUN))))
    angle = math.degrees(math.acos(cos_sun))
    if angle <= SUN_RADIUS:
        return (2000.0, 1900.0, 1700.0)
    height = (elevation / 90.0) ** 0.5
    zenith, horizon = (0.10, 0.22, 0.60), (0.62, 0.72, 0.86)
    glow = 1.5 * math.exp(-angle / 8.0) + 0.25 * math.exp(-angle / 40.0)
    return tuple(h + (z - h) * height + glow * s
                 for z, h, s in zip(zenith, horizon, (1.0, 0.85, 0.6)))


def half(v):
    return struct.pack("<e", v)


def scanline(j):
    elevation = 90.0 - 180.0 * (j + 0.5) / HEIGHT
    pixels = [radiance(360.0 * (i + 0.5) / WIDTH, elevation) for i in range(WIDTH)]
    # Channels in alphabetical order, each a whole line of halves.
    return b"".join(b"".join(half(p[c]) for p in pixels) for c in (2, 1, 0))


def zip_chunk(raw):
    """OpenEXR's ZIP: bytes split into even and odd halves, a delta
    predictor, then zlib."""
    t = bytearray(raw[0::2] + raw[1::2])
    for k in range(len(t) - 1, 0, -1):
        t[k] = (t[k] - t[k - 1] + 128) & 0xFF
    return zlib.compress(bytes(t), 9)


def attribute(name, kind, value):
    return name.encode() + b"\0" + kind.encode() + b"\0" + struct.pack("<i", len(value)) + value


def main():
    channels = b"".join(c.encode() + b"\0" + struct.pack("<iB3xii", 1, 0, 1, 1)
                        for c in ("B", "G", "R")) + b"\0"
    box = struct.pack("<iiii", 0, 0, WIDTH - 1, HEIGHT - 1)
    header = (b"\x76\x2f\x31\x01" + struct.pack("<i", 2)
              + attribute("channels", "chlist", channels)
              + attribute("compression", "compression", b"\x03")
              + attribute("dataWindow", "box2i", box)
              + attribute("displayWindow", "box2i", box)
              + attribute("lineOrder", "lineOrder", b"\x00")
              + attribute("pixelAspectRatio", "float", struct.pack("<f", 1.0))
              + attribute("screenWindowCenter", "v2f", struct.pack("<ff", 0.0, 0.0))
              + attribute("screenWindowWidth", "float", struct.pack("<f", 1.0))
              + b"\0")
    chunks = []
    for y in range(0, HEIGHT, LINES_PER_CHUNK):
        data = zip_chunk(b"".join(scanline(j) for j in range(y, y + LINES_PER_CHUNK)))
        chunks.append(struct.pack("<ii", y, len(data)) + data)
    offset = len(header) + 8 * len(chunks)
    table = b""
    for chunk in chunks:
        table += struct.pack("<Q", offset)
        offset += len(chunk)
    sys.stdout.buffer.write(header + table + b"".join(chunks))


if __name__ == "__main__":
    main()
