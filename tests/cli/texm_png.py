#!/usr/bin/env python3
# Writes the PNGs the Texm CLI test feeds to `unearth texm`, built here with zlib alone (not by
# unearth): python3 texm_png.py KIND OUT, KIND one of rgba16, grey8, pal8, interlaced, deep.
import struct
import sys
import zlib


def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))


def png(w, h, ctype, rows, depth=8, interlace=0, extra=b''):
    raw = b''.join(b'\x00' + bytes(r) for r in rows)
    ihdr = struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, interlace)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + extra +
            chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == 'rgba16':    # pixel (x, y) = (16x, 16y, 77, 255 - x)
        rows = [[c for x in range(16) for c in (16 * x, 16 * y, 77, 255 - x)] for y in range(16)]
        data = png(16, 16, 6, rows)
    elif kind == 'grey8':   # every pixel grey 128
        data = png(8, 8, 0, [[128] * 8 for _ in range(8)])
    elif kind == 'pal8':    # left half entry 0 (10, 20, 30), right half entry 1 (250, 5, 9)
        plte = chunk(b'PLTE', bytes([10, 20, 30, 250, 5, 9]))
        data = png(8, 8, 3, [[0] * 4 + [1] * 4 for _ in range(8)], extra=plte)
    elif kind == 'interlaced':
        data = png(8, 8, 0, [[0] * 8 for _ in range(8)], interlace=1)
    elif kind == 'deep':    # 16 bits per channel
        data = png(2, 2, 0, [[0] * 4 for _ in range(2)], depth=16)
    else:
        sys.exit('unknown kind ' + kind)
    open(out, 'wb').write(data)


if __name__ == '__main__':
    main()
