#!/usr/bin/env python3
# A hand-built HSD .dat with two textures, written straight from docs/formats/dat.md, docs/formats/hsd-model.md, docs/formats/hsd-materials.md#gx-texel-formats (not by
# unearth's writer), and a small PNG reader for the `textures` test: `make OUT [max_lod]`, `png F`.
import struct
import sys
import zlib

def be32(v): return struct.pack('>I', v)
def bef(v): return struct.pack('>f', v)

def tobj(next_ptr, tex_id, image, tlut):
    t = be32(0) + be32(next_ptr) + be32(tex_id) + be32(4)          # name, next, id, src = TEX0
    t += bef(0) * 3 + bef(1) * 3 + bef(0) * 3                      # rotation, scale, translation
    t += be32(1) + be32(1) + bytes([1, 1]) + b'\0\0'               # REPEAT both, repeat 1 × 1
    t += be32((4 << 16) | 0x10) + bef(1.0) + be32(1)               # MODULATE, DIFFUSE map; LINEAR
    t += be32(image) + be32(tlut) + be32(0) + be32(0)
    assert len(t) == 0x5C
    return t

def make(max_lod=2.0):
    d = bytearray(0x2A0)
    def put(off, b): d[off:off + len(b)] = b
    relocs = []
    def ptr(off, target):
        put(off, be32(target)); relocs.append(off)
    # 0x000 JObj: no flags, DObj at 0x40, unit scale
    put(0x14, bef(0) * 3 + bef(1) * 3 + bef(0) * 3)
    ptr(0x10, 0x40)
    # 0x040 DObj → MObj 0x60, no PObj
    ptr(0x48, 0x60)
    # 0x060 MObj: render mode MAT | DIFFUSE | TEX0 | TEX1, TObj chain 0x80, Material 0x140
    put(0x64, be32(0x1 | 0x4 | 0x10 | 0x20))
    ptr(0x68, 0x80); ptr(0x6C, 0x140)
    # 0x080 TObj 0: C4 image 0x160 with palette 0x1A0; next TObj 0x0E0 (RGB5A3 with mips, 0x180)
    put(0x80, tobj(0, 0, 0, 0)); ptr(0x84, 0xE0); ptr(0xCC, 0x160); ptr(0xD0, 0x1A0)
    put(0xE0, tobj(0, 1, 0, 0)); ptr(0xE0 + 0x4C, 0x180)
    # 0x140 Material: diffuse white, alpha 1
    put(0x140, bytes([0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255]) + bef(1.0) + bef(50.0))
    # 0x160 Image 0: 8×8 C4, no mips; 0x180 Image 1: 4×4 RGB5A3, mipmapped, maxLOD → 3 levels
    put(0x164, struct.pack('>HHI', 8, 8, 0x8) + be32(0) + bef(0) + bef(0)); ptr(0x160, 0x200)
    put(0x184, struct.pack('>HHI', 4, 4, 0x5) + be32(1) + bef(0) + bef(max_lod)); ptr(0x180, 0x220)
    # 0x1A0 TLUT: RGB565, 4 entries at 0x280
    put(0x1A4, be32(1) + be32(0) + struct.pack('>H', 4)); ptr(0x1A0, 0x280)
    # 0x200 C4 8×8, one block: texel (x, y) = index (x + y) & 3, high nibble left
    for y in range(8):
        for x in range(0, 8, 2):
            d[0x200 + y * 4 + x // 2] = (((x + y) & 3) << 4) | ((x + 1 + y) & 3)
    # 0x220 RGB5A3 level 0 (4×4): even texels opaque blue 0x801F, odd A3RGB4 0x3F00
    for k in range(16):
        put(0x220 + 2 * k, struct.pack('>H', 0x801F if k % 2 == 0 else 0x3F00))
    for k in range(16):
        put(0x240 + 2 * k, struct.pack('>H', 0x83E0))   # level 1: green
        put(0x260 + 2 * k, struct.pack('>H', 0xFFFF))   # level 2: white
    # 0x280 palette: red, green, blue, white (RGB565)
    put(0x280, struct.pack('>4H', 0xF800, 0x07E0, 0x001F, 0xFFFF))
    strings = b'tex_joint\0'
    body = bytes(d) + b''.join(be32(r) for r in sorted(relocs)) + be32(0) + be32(0) + strings
    size = 0x20 + len(body)
    header = be32(size) + be32(len(d)) + be32(len(relocs)) + be32(1) + be32(0) + bytes(12)
    return header + body

def read_png(path):
    """(width, height, rows of RGBA tuples, tEXt chunks) of an 8-bit RGB/RGBA PNG."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
    pos, idat, texts = 8, b'', []
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body)
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6)
        elif kind == b'IDAT':
            idat += body
        elif kind == b'tEXt':
            texts.append(body)
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytes(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][f]
            line[i] = (line[i] + pred) & 255
        prev = bytes(line)
        rows.append([tuple(line[x * bpp:(x + 1) * bpp]) + ((255,) if bpp == 3 else ()) for x in range(w)])
    return w, h, rows, texts

if __name__ == '__main__':
    if sys.argv[1] == 'make':
        open(sys.argv[2], 'wb').write(make(float(sys.argv[3]) if len(sys.argv) > 3 else 2.0))
    elif sys.argv[1] == 'png':  # prints "W H" then one line per row: r,g,b,a r,g,b,a …
        w, h, rows, texts = read_png(sys.argv[2])
        print(w, h)
        for row in rows:
            print(' '.join(','.join(map(str, px)) for px in row))
        for t in texts:
            print('tEXt', t.replace(b'\0', b'=').decode('latin-1'))
