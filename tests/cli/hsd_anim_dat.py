#!/usr/bin/env python3
# A hand-built HSD .dat with one skeletal and one material animation, written straight from
# docs/formats/dat.md, docs/formats/hsd-model.md#scene-data, docs/formats/hsd-animation.md (not by unearth's writer), for the `info` test: `hsd_anim_dat.py OUT`.
import struct
import sys


def be32(v): return struct.pack('>I', v)
def bef(v): return struct.pack('>f', v)
def lef(v): return struct.pack('<f', v)   # key values are little-endian (docs/formats/hsd-animation.md#key-streams)


class Dat:
    def __init__(self):
        self.d = bytearray()
        self.relocs = []

    def alloc(self, size, align=4):
        at = (len(self.d) + align - 1) // align * align
        self.d.extend(b'\0' * (at + size - len(self.d)))
        return at

    def put(self, off, b): self.d[off:off + len(b)] = b

    def ptr(self, field, target):
        self.put(field, be32(target))
        self.relocs.append(field)

    def file(self, roots):
        data = bytes(self.d) + b'\0' * (-len(self.d) % 4)
        strings, table = b'', b''
        for off, name in roots:
            table += be32(off) + be32(len(strings))
            strings += name.encode() + b'\0'
        body = data + b''.join(be32(r) for r in sorted(self.relocs)) + table + strings
        n = 0x20 + len(body)
        head = be32(n) + be32(len(data)) + be32(len(self.relocs)) + be32(len(roots)) + be32(0)
        return head + b'\0' * 12 + body


def joint(b):
    j = b.alloc(0x40)
    b.put(j + 0x20, bef(1) * 3)                     # unit scale
    return j


def image(b):
    px = b.alloc(32, 32)                             # 8×8 I4: 32 bytes
    im = b.alloc(0x18)
    b.ptr(im, px)
    b.put(im + 4, struct.pack('>HHI', 8, 8, 0))      # 8 × 8, GX_TF_I4
    return im


def fobj(b, track_type, keys):
    data = b.alloc(len(keys))
    b.put(data, keys)
    f = b.alloc(0x14)
    b.put(f + 4, be32(len(keys)))
    b.put(f + 0x0C, bytes([track_type, 0, 0]))       # float values and slopes
    b.ptr(f + 0x10, data)
    return f


def aobj(b, end, tracks):
    for a, c in zip(tracks, tracks[1:]):
        b.ptr(a, c)                                  # FObjDesc next at +0
    o = b.alloc(0x10)
    b.put(o, be32(0x20000000))                       # LOOP
    b.put(o + 4, bef(end))
    b.ptr(o + 8, tracks[0])
    return o


def make():
    b = Dat()
    j0, j1 = joint(b), joint(b)
    b.ptr(j0 + 8, j1)
    img0, img1 = image(b), image(b)
    t0 = b.alloc(0x5C)
    b.ptr(t0 + 0x4C, img0)                           # id 0, image 0
    mat = b.alloc(0x14)
    b.put(mat, bytes([0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255]) + bef(1.0) + bef(50.0))
    m0 = b.alloc(0x18)
    b.put(m0 + 4, be32(0x1 | 0x4 | 0x10))
    b.ptr(m0 + 8, t0)
    b.ptr(m0 + 0x0C, mat)
    d0 = b.alloc(0x10)
    b.ptr(d0 + 8, m0)
    b.ptr(j0 + 0x10, d0)
    # anims[0]: AnimJoint on J0 (ROTZ LIN 0 → 1.5 over 30 frames, TRAX CON 2), J1's node bare
    rotz = fobj(b, 3, bytes([0x12]) + lef(0) + bytes([30]) + lef(1.5) + bytes([0]))
    trax = fobj(b, 5, bytes([0x01]) + lef(2.0) + bytes([0]))
    aj0, aj1 = b.alloc(0x14), b.alloc(0x14)
    b.ptr(aj0, aj1)
    b.ptr(aj0 + 8, aobj(b, 30.0, [rotz, trax]))
    # matanims[0]: MatAnim on J0's DObj (DIFFUSE_R, ALPHA) with a TexAnim (TIMG swap, TRAU)
    diff = fobj(b, 4, bytes([0x12]) + lef(0) + bytes([40]) + lef(1) + bytes([0]))
    alpha = fobj(b, 10, bytes([0x01]) + lef(0.5) + bytes([0]))
    timg = fobj(b, 1, bytes([0x16]) + lef(0) + bytes([20]) + lef(1) + bytes([0]))
    trau = fobj(b, 2, bytes([0x12]) + lef(0) + bytes([40]) + lef(0.5) + bytes([0]))
    table = b.alloc(8)
    b.ptr(table, img0)
    b.ptr(table + 4, img1)
    ta = b.alloc(0x18)
    b.ptr(ta + 8, aobj(b, 40.0, [timg, trau]))
    b.ptr(ta + 0x0C, table)
    b.put(ta + 0x14, struct.pack('>HH', 2, 0))
    ma = b.alloc(0x10)
    b.ptr(ma + 4, aobj(b, 40.0, [diff, alpha]))
    b.ptr(ma + 8, ta)
    mj0 = b.alloc(0x0C)
    b.ptr(mj0 + 8, ma)
    # scene_data → SceneDesc → [ModelSet {J0, [AJ0], [MJ0], NULL}]
    anims, matanims = b.alloc(8), b.alloc(8)
    b.ptr(anims, aj0)
    b.ptr(matanims, mj0)
    ms = b.alloc(0x10)
    b.ptr(ms, j0)
    b.ptr(ms + 4, anims)
    b.ptr(ms + 8, matanims)
    models = b.alloc(8)
    b.ptr(models, ms)
    scene = b.alloc(0x10)
    b.ptr(scene, models)
    return b.file([(scene, 'scene_data')])


if __name__ == '__main__':
    with open(sys.argv[1], 'wb') as f:
        f.write(make())
