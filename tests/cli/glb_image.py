#!/usr/bin/env python3
# Texture edits for the import test, done here with zlib alone (not by unearth):
#   glb_image.py set IN.glb OUT.glb IMAGE PATTERN [--size W H] [--blender] [--factor MATERIAL R G B A]
#     replaces image IMAGE's PNG by PATTERN (its own size unless --size), sets a material's
#     baseColorFactor; --blender then rewrites the file as Blender's exporter would name it:
#     every "extras" dropped, texture names dropped, image names without their extension, the
#     images in reverse order.
#   glb_image.py expect TEXM PATTERN [--factor R G B A] [--level N]
#     checks a Texm file (decoded here from docs/formats/texm.md) against PATTERN, within what the Texm's
#     own format can store; prints "FORMAT MIPS" and exits 1 on a mismatch.
#   glb_image.py pixels IN.glb IMAGE OUT.rgba: the image's pixels, decoded here.
import json
import struct
import sys
import zlib


def pattern(name, w, h):
    """RGBA rows of the named test picture."""
    if name == 'grad':      # every texel distinct (a 16 x 16 image has 256 colours at most)
        return [[(16 * x + y) & 255, (16 * y + x) & 255, (x * y * 5 + 40) & 255, 255 - 4 * x - y]
                for y in range(h) for x in range(w)]
    if name == 'checker':   # two colours, opaque
        return [[200, 30, 60, 255] if (x // 4 + y // 4) % 2 else [20, 180, 90, 255]
                for y in range(h) for x in range(w)]
    if name.startswith('fill:'):  # one texel everywhere: fill:R,G,B,A
        return [[int(c) for c in name[5:].split(',')] for _ in range(w * h)]
    sys.exit('unknown pattern ' + name)


def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))


def png_bytes(w, h, texels):
    raw = b''.join(b'\x00' + bytes(c for t in texels[y * w:(y + 1) * w] for c in t) for y in range(h))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def png_decode(data):
    """RGBA texels of an 8-bit RGB or RGBA PNG, not interlaced (what convert writes)."""
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, = struct.unpack('>I', data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 4 if ctype == 6 else 3
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break  # a client may pad the image's buffer view after it
        pos += 12 + n
    raw, out, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (w * bpp + 1)], bytearray(raw[y * (w * bpp + 1) + 1:(y + 1) * (w * bpp + 1)])
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        out += [list(line[x * bpp:x * bpp + bpp]) + ([] if bpp == 4 else [255]) for x in range(w)]
    return w, h, out


def read_glb(path):
    d = open(path, 'rb').read()
    n, = struct.unpack('<I', d[12:16])
    doc = json.loads(d[20:20 + n])
    m, = struct.unpack('<I', d[20 + n:24 + n])
    return doc, bytearray(d[28 + n:28 + n + m])


def write_glb(path, doc, binary):
    while len(binary) % 4: binary.append(0)
    js = json.dumps(doc).encode()
    js += b' ' * (-len(js) % 4)
    body = struct.pack('<I', len(js)) + b'JSON' + js + struct.pack('<I', len(binary)) + b'BIN\0' + bytes(binary)
    open(path, 'wb').write(b'glTF' + struct.pack('<II', 2, 12 + len(body)) + body)


def image_bytes(doc, binary, index):
    v = doc['bufferViews'][doc['images'][index]['bufferView']]
    return bytes(binary[v.get('byteOffset', 0):v.get('byteOffset', 0) + v['byteLength']])


def image_index(doc, name):
    return [i for i, im in enumerate(doc['images']) if im.get('name') == name][0]


def like_blender(doc):
    def strip(o):
        if isinstance(o, dict):
            o.pop('extras', None)
            for v in o.values(): strip(v)
        elif isinstance(o, list):
            for v in o: strip(v)
    strip(doc)
    for t in doc['textures']:
        t.pop('name', None)
    count = len(doc['images'])
    doc['images'].reverse()
    for t in doc['textures']:
        t['source'] = count - 1 - t['source']
    for im in doc['images']:
        stem = im['name'].rsplit('.', 1)[0] if '.' in im['name'][1:] else im['name']
        im['name'] = stem


def cmd_set(args):
    src, dst, name, pat = args[:4]
    doc, binary = read_glb(src)
    i = image_index(doc, name)
    w, h, _ = png_decode(image_bytes(doc, binary, i))
    rest = args[4:]
    if '--size' in rest:
        k = rest.index('--size')
        w, h = int(rest[k + 1]), int(rest[k + 2])
    png = png_bytes(w, h, pattern(pat, w, h)) if pat != 'same' else image_bytes(doc, binary, i)
    while len(binary) % 4: binary.append(0)
    doc['bufferViews'].append({'buffer': 0, 'byteOffset': len(binary), 'byteLength': len(png)})
    binary += png
    doc['images'][i]['bufferView'] = len(doc['bufferViews']) - 1
    doc['buffers'][0]['byteLength'] = len(binary)
    if '--factor' in rest:
        k = rest.index('--factor')
        mat = [m for m in doc['materials'] if m['name'] == rest[k + 1]][0]
        mat['pbrMetallicRoughness']['baseColorFactor'] = [float(v) for v in rest[k + 2:k + 6]]
    if '--blender' in rest:
        like_blender(doc)
    write_glb(dst, doc, binary)


# ---- Texm, decoded from docs/formats/texm.md ----

def widen(v, bits):
    return {5: (v * 255 + 15) // 31, 6: (v * 255 + 31) // 63, 4: v * 17}[bits]


def decode_texel(fmt, b, palette):
    if fmt == 0:
        e = palette[4 * b[0]:4 * b[0] + 4]
        return [e[2], e[1], e[0], 255]
    if fmt in (565, 4444):
        v = b[0] | b[1] << 8
        if fmt == 565: return [widen(v >> 11, 5), widen(v >> 5 & 63, 6), widen(v & 31, 5), 255]
        return [widen(v >> 8 & 15, 4), widen(v >> 4 & 15, 4), widen(v & 15, 4), widen(v >> 12, 4)]
    if fmt == 888: return [b[0], b[1], b[2], 255]
    return [b[1], b[2], b[3], b[0]]  # 8888


def read_texm(path):
    d = open(path, 'rb').read()
    magic, w, h, mips, f4, f5, u6, fmt = struct.unpack('<4s7I', d[:32])
    assert magic == b'Texm'
    bpp = {0: 1, 565: 2, 4444: 2, 888: 4, 8888: 4}[fmt]
    pos, palette = 32, None
    if fmt == 0: palette, pos = d[32:32 + 1024], 32 + 1024
    levels = []
    for i in range(mips):
        lw, lh = max(1, w >> i), max(1, h >> i)
        levels.append((lw, lh, [decode_texel(fmt, d[pos + bpp * k:pos + bpp * k + bpp], palette)
                                for k in range(lw * lh)]))
        pos += lw * lh * bpp
    return fmt, mips, levels


def stored_error(fmt):
    """The largest distance of a value 0..255 from the nearest value the format stores, per channel."""
    def worst(bits):
        vals = [widen(v, bits) for v in range(1 << bits)]
        return max(min(abs(c - v) for v in vals) for c in range(256))
    if fmt == 565: return [worst(5), worst(6), worst(5), 0]
    if fmt == 4444: return [worst(4)] * 4
    return [0, 0, 0, 0]


def srgb_times(c, f):
    lin = c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
    lin *= f
    s = lin * 12.92 if lin <= 0.0031308 else 1.055 * lin ** (1 / 2.4) - 0.055
    return round(min(max(s, 0), 1) * 255)


def cmd_expect(args):
    fmt, mips, levels = read_texm(args[0])
    print(fmt, mips)
    w, h, got = levels[0]
    want = pattern(args[1], w, h) if args[1] != 'file' else None
    if want is None:
        raw = open(args[2], 'rb').read()
        want = [list(raw[4 * k:4 * k + 4]) for k in range(w * h)]
    if '--factor' in args:
        k = args.index('--factor')
        f = [float(v) for v in args[k + 1:k + 5]]
        want = [[srgb_times(t[0], f[0]), srgb_times(t[1], f[1]), srgb_times(t[2], f[2]), round(t[3] * f[3])]
                for t in want]
    slack = [1, 1, 1, 1] if '--factor' in args else [0, 0, 0, 0]  # float rounding of the tint
    bound = [a + b for a, b in zip(stored_error(fmt), slack)]
    bad = 0
    for k, (g, t) in enumerate(zip(got, want)):
        t = t if fmt in (4444, 8888) else t[:3] + [255]  # no alpha stored
        if any(abs(g[c] - t[c]) > bound[c] for c in range(4)):
            if bad < 5: print('texel', k, 'got', g, 'want', t, 'within', bound, file=sys.stderr)
            bad += 1
    if '--level' in args:  # level 1 is the 2 x 2 box filter of the wanted level 0 (8888: exact)
        lw, lh, got1 = levels[1]
        for y in range(lh):
            for x in range(lw):
                box = [want[(2 * y + dy) * w + 2 * x + dx] for dy in (0, 1) for dx in (0, 1)]
                t = [(sum(b[c] for b in box) + 2) // 4 for c in range(4)]
                if got1[y * lw + x] != t:
                    if bad < 5: print('level 1 texel', x, y, got1[y * lw + x], t, file=sys.stderr)
                    bad += 1
    sys.exit(1 if bad else 0)


def cmd_pixels(args):
    doc, binary = read_glb(args[0])
    w, h, texels = png_decode(image_bytes(doc, binary, image_index(doc, args[1])))
    open(args[2], 'wb').write(bytes(c for t in texels for c in t))


if __name__ == '__main__':
    {'set': cmd_set, 'expect': cmd_expect, 'pixels': cmd_pixels}[sys.argv[1]](sys.argv[2:])
