#!/usr/bin/env python3
# Writes the hostile DATs of hsd_shared_roots.sh into DIR: many roots naming one struct (a
# FigaTree, a joint array, a joint), lists two roots share, a padded single DAT, a long clip.
import struct
import sys


def dat(data, relocs, roots, strings):
    """A DAT (docs/formats/dat.md): header, data, relocations, roots (data_off, str_off), names."""
    body = bytes(data) + b"".join(struct.pack(">I", r) for r in relocs)
    body += b"".join(struct.pack(">II", a, b) for a, b in roots) + strings
    head = struct.pack(">IIIII", 32 + len(body), len(data), len(relocs), len(roots), 0) + bytes(12)
    return head + body


def shared_figatree(data_size, nroots):
    """nroots roots on one FigaTree whose count table ends only at the block's last byte."""
    d = bytearray(data_size)
    struct.pack_into(">IIfII", d, 0, 0, 0, 1.0, 0x20, 0)
    d[-1] = 0xFF
    return dat(d, [0x0C], [(0, 0)] * nroots, b"x_ACTION_Wait_figatree\0")


def shared_tracks(nroots):
    """nroots roots on one 3-joint FigaTree of 762 empty tracks (no key bytes to charge)."""
    d = bytearray(0x18 + 762 * 12)
    struct.pack_into(">IIfII", d, 0, 0, 0, 1.0, 0x14, 0x18)
    d[0x14:0x18] = bytes([254, 254, 254, 0xFF])
    for t in range(762):
        struct.pack_into(">HhBBBBI", d, 0x18 + 12 * t, 0, 0, 1 + t % 9, 0, 0, 0, 0)
    return dat(d, [0x0C, 0x10], [(0, 0)] * nroots, b"x_ACTION_W_figatree\0")


def shared_models(data_size, nroots):
    """nroots x_scene_models roots on one array whose slots all name the joint at 0x40."""
    d = bytearray(data_size)
    for at in range(0x80, data_size - 4, 4):
        struct.pack_into(">I", d, at, 0x40)
    return dat(d, [], [(0x80, 0)] * nroots, b"x_scene_models\0")


def joint_roots(k):
    """k a_joint roots on one joint, then k roots of no kind."""
    d = bytearray(0x40)
    struct.pack_into(">fff", d, 0x20, 1.0, 1.0, 1.0)
    return dat(d, [], [(0, 0)] * k + [(0, 8)] * k, b"a_joint\0zzz\0")


def shared_lights():
    """a_lights and b_lights on one LightSet array: [set, NULL]; set {LightDesc, NULL}."""
    d = bytearray(0x40)
    struct.pack_into(">II", d, 0, 0x10, 0)
    struct.pack_into(">II", d, 0x10, 0x20, 0)
    return dat(d, [0, 0x10], [(0, 0), (0, 9)], b"a_lights\0b_lights\0")


def shared_matanim():
    """Two matanim_joint roots on one MatAnimJoint tree."""
    d = bytearray(0x40)
    struct.pack_into(">III", d, 0, 0, 0, 0x10)
    return dat(d, [8], [(0, 0), (0, 16)], b"a_matanim_joint\0b_matanim_joint\0")


def long_track():
    """A FigaTree whose one track claims 0x100 key bytes at 0x30 of a 0x40-byte block."""
    d = bytearray(0x40)
    struct.pack_into(">IIfII", d, 0, 0, 0, 5.0, 0x14, 0x18)
    d[0x14:0x18] = bytes([1, 0xFF, 0, 0])
    struct.pack_into(">HhBBBBI", d, 0x18, 0x100, 0, 1, 0, 0, 0, 0x30)
    return dat(d, [0x0C, 0x10, 0x20], [(0, 0)], b"a_figatree\0")


def long_clip(pad):
    """One 3-joint clip of 1e6 frames (one constant key per track), `pad` bytes of room."""
    d = bytearray(0x100 + pad)
    struct.pack_into(">IIfII", d, 0, 0, 0, 1e6, 0x14, 0x18)
    d[0x14:0x18] = bytes([1, 1, 1, 0xFF])
    d[0x60:0x66] = bytes([0x01, 0, 0, 0x80, 0x3F, 0x00])  # CON, one key: float 1.0, wait 0
    relocs = [0x0C, 0x10]
    for t in range(3):
        struct.pack_into(">HhBBBBI", d, 0x18 + 12 * t, 6, 0, 5 + t, 0, 0, 0, 0x60)
        relocs.append(0x18 + 12 * t + 8)
    return dat(d, relocs, [(0, 0)], b"x_ACTION_Big_figatree\0")


def main(out):
    files = {
        "figa_shared.dat": shared_figatree(512 << 10, 65536),
        "tracks_shared.dat": shared_tracks(16384),
        "models_shared.dat": shared_models(512 << 10, 65536),
        "joint_roots.dat": joint_roots(65536),
        "shared_lights.dat": shared_lights(),
        "shared_matanim.dat": shared_matanim(),
        "figa_long.dat": long_track(),
        "long_clip.dat": long_clip(1 << 20),
    }
    for name, data in files.items():
        with open(f"{out}/{name}", "wb") as f:
            f.write(data)


main(sys.argv[1])
