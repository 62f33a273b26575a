#!/usr/bin/env python3
"""harbor-game-screenshot.py PNG — checks the sample game's screenshot shows
the harbour: not blank (the brightness varies), mostly water (darker blues,
not the paler sky), and the player's red boat in view. Standard library
only: the PNG (8-bit RGB, as the game writes it) is decoded here."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if (depth, colour, interlace) != (8, 2, 0):
                sys.exit(f'{path}: expected 8-bit RGB without interlacing')
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * 3
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        # Undo the row's filter (PNG spec, section 9.2); 3 bytes per pixel.
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, rows


def main():
    path = sys.argv[1]
    width, height, rows = read_png(path)
    n = width * height
    total = squares = water = red = 0
    for row in rows:
        for x in range(0, width * 3, 3):
            r, g, b = row[x], row[x + 1], row[x + 2]
            lum = (r + g + b) / 3
            total += lum
            squares += lum * lum
            # The sky is as blue but paler (mean over 180 at its darkest).
            if b > r + 20 and lum < 170:
                water += 1
            if r > g + 50 and r > b + 50:
                red += 1
    spread = (squares / n - (total / n) ** 2) ** 0.5
    print(f'{path}: {width}x{height}, brightness spread {spread:.1f}, '
          f'water {100 * water / n:.1f}%, red boat {100 * red / n:.2f}%')
    problems = []
    if spread < 15:
        problems.append(f'nearly uniform (brightness spread {spread:.1f} < 15): blank?')
    if water < n / 2:
        problems.append(f'water-coloured pixels are {100 * water / n:.1f}%, not most of the picture')
    if red < n / 2000:
        problems.append(f'the red boat covers {red} pixels: not in view?')
    if problems:
        sys.exit(f'{path}: ' + '; '.join(problems))


main()
