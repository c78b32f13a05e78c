#!/usr/bin/env python3
# Hand-built HSD .dat files for the root kinds and multi-root models of docs/hsd.md, written
# straight from docs/formats/dat.md, docs/formats/hsd-model.md, docs/formats/hsd-animation.md (fighter data and fog as HSDLib lays them out), not by
# unearth's writer. `hsd_roots_dat.py DIR` writes roots.dat (one root of every non-model kind),
# bad_roots.dat (a camera and a fog whose values no runtime takes), bad_reloc.dat (roots.dat with
# a misaligned relocation) and multi.dat (two models, each bound to its sibling animation roots).
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hsd_anim_dat import Dat, be32, bef, lef, joint, image, fobj, aobj  # noqa: E402
from hsd_tex_dat import tobj  # noqa: E402


def wobj(b, x, y, z):
    w = b.alloc(0x14)
    b.put(w + 4, bef(x) + bef(y) + bef(z))
    return w


def con_track(b, track_type, value):
    """One constant key (CON, float): the value from frame 0 on."""
    return fobj(b, track_type, bytes([0x01]) + lef(value) + bytes([0]))


def lin_track(b, track_type, v0, v1, frames):
    """Two linear keys: v0 at frame 0, v1 at `frames`."""
    return fobj(b, track_type, bytes([0x12]) + lef(v0) + bytes([frames]) + lef(v1) + bytes([0]))


def camera(b, projection):
    c = b.alloc(0x40)
    b.ptr(c, b.alloc(4))                                   # class name "" (a NUL)
    b.put(c + 6, struct.pack('>H', projection))            # 1 perspective
    b.ptr(c + 0x18, wobj(b, 0, 10, 20))                    # eye
    b.ptr(c + 0x1C, wobj(b, 0, 0, 0))                      # interest
    b.put(c + 0x28, bef(1.0) + bef(1000.0) + bef(45.0) + bef(4 / 3))  # near, far, fovy, aspect
    return c


def lights(b):
    lobj = b.alloc(0x1C)
    b.put(lobj + 8, struct.pack('>HH', 1 | 4, 0) + bytes([255, 240, 200, 255]))  # INFINITE|DIFFUSE
    b.ptr(lobj + 0x10, wobj(b, 1, 1, 1))
    lset = b.alloc(8)
    b.ptr(lset, lobj)
    array = b.alloc(8)                                     # {LightSet*, NULL}
    b.ptr(array, lset)
    return array


def fog(b, fog_type):
    f = b.alloc(0x14)
    b.put(f, be32(fog_type) + be32(0) + bef(10.0) + bef(100.0) + bytes([128, 128, 160, 255]))
    return f


def figatree(b):
    """3 joints in DFS order with 2, 0 and 1 tracks, 20 frames."""
    counts = b.alloc(4)
    b.put(counts, bytes([2, 0, 1, 0xFF]))
    tracks = b.alloc(3 * 0x0C)
    for i, (track_type, value) in enumerate([(5, 1.0), (6, 2.0), (1, 0.5)]):
        keys = bytes([0x01]) + lef(value) + bytes([0])
        data = b.alloc(len(keys))
        b.put(data, keys)
        at = tracks + 0x0C * i
        b.put(at, struct.pack('>HhBBBB', len(keys), 0, track_type, 0, 0, 0))
        b.ptr(at + 8, data)
    f = b.alloc(0x14)
    b.put(f + 8, bef(20.0))
    b.ptr(f + 0x0C, counts)
    b.ptr(f + 0x10, tracks)
    return f


def fighter_data(b):
    ft = b.alloc(0x60)
    b.ptr(ft, b.alloc(0x10))                               # attributes
    b.ptr(ft + 0x5C, joint(b))                             # shadow model
    return ft


def shapeanim_joint(b):
    sa = b.alloc(8)
    b.ptr(sa + 4, aobj(b, 10.0, [con_track(b, 1, 0.5)]))   # blend parameter
    sd = b.alloc(8)
    b.ptr(sd + 4, sa)
    node = b.alloc(0x0C)
    b.ptr(node + 8, sd)
    return node


def make_roots(fail=False, misaligned=False):
    b = Dat()
    roots = [(camera(b, 1), 't_camera'), (lights(b), 't_lights'), (fog(b, 2), 't_fog'),
             (figatree(b), 'PlyTest_ACTION_Wait1_figatree'), (fighter_data(b), 'ftDataTest'),
             (shapeanim_joint(b), 't_shapeanim_joint'), (b.alloc(0x10), 'mystery')]
    if fail:
        roots = [(camera(b, 9), 'b_camera'), (fog(b, 3), 'b_fog')]
    if misaligned:
        b.relocs.append(2)
    return b.file(roots)


# ---- a multi-root model ---------------------------------------------------------------------

def triangle(b):
    """A PObj with one triangle: POS and TEX0 direct float (docs/formats/hsd-model.md#vertex-descriptor, docs/formats/hsd-model.md#display-lists)."""
    desc = b.alloc(3 * 0x18)
    b.put(desc, be32(9) + be32(1) + be32(1) + be32(4) + bytes([0, 0]) + struct.pack('>H', 12))
    b.put(desc + 0x18, be32(13) + be32(1) + be32(1) + be32(4) + bytes([0, 0]) + struct.pack('>H', 8))
    b.put(desc + 0x30, be32(0xFF) + be32(2) + be32(0) + be32(4))     # terminator
    verts = [((0, 0, 0), (0, 0)), ((1, 0, 0), (1, 0)), ((0, 1, 0), (0, 1))]
    stream = bytes([0x90]) + struct.pack('>H', 3)
    for (x, y, z), (s, t) in verts:
        stream += bef(x) + bef(y) + bef(z) + bef(s) + bef(t)
    dl = b.alloc(64, 32)
    b.put(dl, stream)
    p = b.alloc(0x18)
    b.ptr(p + 8, desc)
    b.put(p + 0x0E, struct.pack('>H', 2))
    b.ptr(p + 0x10, dl)
    return p


def mesh(b, textured):
    """A DObj → MObj (diffuse white) [→ TObj id 0 with an 8×8 image] → one triangle."""
    mat = b.alloc(0x14)
    b.put(mat, bytes([0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255]) + bef(1.0) + bef(50.0))
    m = b.alloc(0x18)
    b.put(m + 4, be32(0x1 | 0x4 | (0x10 if textured else 0)))
    b.ptr(m + 0x0C, mat)
    if textured:
        t = b.alloc(0x5C)
        b.put(t, tobj(0, 0, 0, 0))
        b.ptr(t + 0x4C, image(b))
        b.ptr(m + 8, t)
    d = b.alloc(0x10)
    b.ptr(d + 8, m)
    b.ptr(d + 0x0C, triangle(b))
    return d


def matanim_joint(b, ma):
    node = b.alloc(0x0C)
    b.ptr(node + 8, ma)
    return node


def make_multi():
    b = Dat()
    # model n: one joint with an untextured mesh; n_matanim_joint sets its diffuse G to 0.5
    n0 = joint(b)
    b.ptr(n0 + 0x10, mesh(b, False))
    n_ma = b.alloc(0x10)
    b.ptr(n_ma + 4, aobj(b, 10.0, [con_track(b, 5, 0.5)]))
    # model m: J0 (textured mesh) with child J1
    m0, m1 = joint(b), joint(b)
    b.ptr(m0 + 8, m1)
    b.ptr(m0 + 0x10, mesh(b, True))
    # m_animjoint: J0 ROTZ 0 → 1.5 over 30 frames; J1 without an AObj
    aj0, aj1 = b.alloc(0x14), b.alloc(0x14)
    b.ptr(aj0, aj1)
    b.ptr(aj0 + 8, aobj(b, 30.0, [lin_track(b, 3, 0.0, 1.5, 30)]))
    # m_matanim_joint: J0's DObj diffuse R 0 → 1 over 40 frames, its TObj 0 TRAU 0 → 0.5
    ta = b.alloc(0x18)
    b.ptr(ta + 8, aobj(b, 40.0, [lin_track(b, 2, 0.0, 0.5, 40)]))
    m_ma = b.alloc(0x10)
    b.ptr(m_ma + 4, aobj(b, 40.0, [lin_track(b, 4, 0.0, 1.0, 40)]))
    b.ptr(m_ma + 8, ta)
    # n's joint comes first: the first *_joint set is n, so a binding by order would give m's
    # animations to n
    return b.file([(n0, 'n_joint'), (m0, 'm_joint'), (aj0, 'm_animjoint'),
                   (matanim_joint(b, m_ma), 'm_matanim_joint'), (shapeanim_joint(b), 'm_shapeanim_joint'),
                   (matanim_joint(b, n_ma), 'n_matanim_joint')])


if __name__ == '__main__':
    out = sys.argv[1]
    for name, data in [('roots.dat', make_roots()), ('bad_roots.dat', make_roots(fail=True)),
                       ('bad_reloc.dat', make_roots(misaligned=True)), ('multi.dat', make_multi())]:
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
