#!/usr/bin/env python3
# Every damaged-file recipe of the CLI tests in one place: builds each file from the demo pack
# and prints one line per file, "NAME FORMAT DROPS", for the scripts that check the verdicts.
#
# Usage: damaged_files.py DEMO_DIR OUT_DIR
# FORMAT is what detection by magic must still name; DROPS says whether --tolerant loses
# something the input declares (an entry, a model part: "drop") or only repairs and warns
# ("keep"), which decides its exit code (1 or 0).
import struct
import sys

demo, out = sys.argv[1], sys.argv[2]


def load(rel):
    return bytearray(open(demo + '/' + rel, 'rb').read())


def save(name, fmt, drops, data):
    open(out + '/' + name, 'wb').write(data)
    print(name, fmt, drops)


def nres_dir(d):
    count = struct.unpack_from('<i', d, 8)[0]
    return count, len(d) - 64 * count


# ---- NRes (parkan/objects.rlb) -----------------------------------------------------------
A = load('parkan/objects.rlb')
save('nres_trunc.rlb', 'nres', 'drop', A[:100])                 # directory cut off
d = bytearray(A); _, dir_off = nres_dir(d)
struct.pack_into('<I', d, dir_off + 64 * 1 + 12, 0x7FFFFFF0)     # entry 1: absurd size
save('nres_size.rlb', 'nres', 'drop', d)
d = bytearray(A)
struct.pack_into('<I', d, 12, len(d) + 8)                        # total_size disagrees with the file
save('nres_total.rlb', 'nres', 'keep', d)
d = bytearray(A); count, dir_off = nres_dir(d)
for i in range(count):                                           # the nested textures_inner.lib:
    if d[dir_off + 64 * i + 20:dir_off + 64 * i + 38].startswith(b'textures_inner.lib'):
        inner = struct.unpack_from('<I', d, dir_off + 64 * i + 56)[0]
        struct.pack_into('<i', d, inner + 8, 0x7FFF)             # its entry count cannot fit
save('nres_nested.rlb', 'nres', 'drop', d)                       # the outer archive is intact

# ---- RsLi (parkan/sprites_demo.lib) ------------------------------------------------------
L = load('parkan/sprites_demo.lib')
save('rsli_trunc.lib', 'rsli', 'drop', L[:0x300])               # payloads from LZSS.TXT on cut off
d = bytearray(L)
for i in range(0x60d + 2, 0x60d + 40):                           # DEFLATE.TXT's stream garbled
    d[i] = 0xFF
save('rsli_deflate.lib', 'rsli', 'drop', d)

# ---- FSYS (gamecube/demo_colo.fsys) ------------------------------------------------------
F = load('gamecube/demo_colo.fsys')
list_ofs = struct.unpack_from('>I', F, 0x40)[0]
rec0 = struct.unpack_from('>I', F, list_ofs)[0]
pay0 = struct.unpack_from('>I', F, rec0 + 4)[0]
d = bytearray(F); d[0:4] = b'XXXX'
save('fsys_magic.fsys', 'unknown', 'drop', d)                    # not recognisable any more
d = bytearray(F); struct.pack_into('>I', d, list_ofs, len(d) + 64)
save('fsys_ptr.fsys', 'fsys', 'drop', d)
d = bytearray(F); struct.pack_into('>I', d, rec0 + 0x14, len(d))
save('fsys_payload.fsys', 'fsys', 'drop', d)
d = bytearray(F); struct.pack_into('>I', d, rec0 + 0x24, len(d) + 5)
save('fsys_name.fsys', 'fsys', 'drop', d)                        # the name is lost (fallback name)
d = bytearray(F); struct.pack_into('>I', d, rec0 + 8, struct.unpack_from('>I', F, rec0 + 8)[0] + 1)
save('fsys_recsize.fsys', 'fsys', 'keep', d)                     # record size off; LZSS header rules
d = bytearray(F); d[pay0:pay0 + 4] = b'ZZSS'
save('fsys_nolzss.fsys', 'fsys', 'drop', d)
d = bytearray(F); d[pay0 + 16:pay0 + 19] = b'\0\0\0'
save('fsys_backref.fsys', 'fsys', 'drop', d)
d = bytearray(F); struct.pack_into('>I', d, pay0 + 4, 5200); struct.pack_into('>I', d, rec0 + 8, 5200)
save('fsys_bigsize.fsys', 'fsys', 'drop', d)
save('fsys_cut1.fsys', 'fsys', 'keep', F[:-1])                   # one byte short: only the footer lost
save('fsys_trunc.fsys', 'fsys', 'drop', F[:40])                  # header cut short

# ---- PKX and GameCube LZSS ---------------------------------------------------------------
P = load('gamecube/demo_xd.pkx')
struct.pack_into('>I', P, 0, 0x7FFFFFF0); struct.pack_into('>I', P, 0xE60, 0x7FFFFFF0)
save('pkx_size.pkx', 'pkx', 'drop', P)
Z = load('gamecube/demo_model.lzss')
struct.pack_into('>I', Z, 4, 5000)                               # declared size disagrees
save('lzss_size.lzss', 'lzss', 'drop', Z)

# ---- MSH (parkan/robot.msh): batch 0's base vertex points past the vertex stream ----------
d = load('parkan/robot.msh')
n, dir_off = nres_dir(d)
for i in range(n):
    t = struct.unpack_from('<I', d, dir_off + 64 * i)[0]
    off = struct.unpack_from('<I', d, dir_off + 64 * i + 56)[0]
    if t == 13:
        struct.pack_into('<I', d, off + 16, 60000)
save('msh_batch.msh', 'nres', 'drop', d)
