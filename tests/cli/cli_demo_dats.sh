#!/usr/bin/env bash
# The sample pack's bare DATs (gamecube/dat/, src/samples/gamecube_dats.c): the creature's model,
# its animation bank and a DAT of non-model roots validate strictly and round-trip byte for byte;
# the bank's layout is read off the bytes by an independent reader (each DAT 32-aligned, 0xFF
# between) and is what the fighter data's action table records, list/extract/pack give it back whole, info lists the clips built (names, frames,
# joints); convert --anims gives those clips, validator-clean, with poses at key frames worked out
# from the keys by hand; convert -r converts the model and skips the other two.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_demo_dats
. "$HERE/cli_lib.sh"
expect_rc 0 "$UE" demo -o "$T/demo"
D="$T/demo/gamecube/dat"
M="$D/creature.dat" B="$D/creature_anims.dat" F="$D/creature_data.dat"

expect_rc 0 "$UE" validate --strict "$M" "$B" "$F"
grep -q "creature_anims.dat: valid (datbank, 3 entries, 0 errors, 0 warnings)" "$T/out" && ok || bad "validate bank: $(cat "$T/out")"
grep -q "creature_data.dat: valid (hsd_data, 0 errors, 0 warnings)" "$T/out" && ok || bad "validate data: $(cat "$T/out")"
expect_rc 0 "$UE" roundtrip "$M" "$B" "$F"
for f in "$M" "$B" "$F"; do grep -q "$f: identical" "$T/out" && ok || bad "roundtrip $f: $(cat "$T/out")"; done

# The bank's layout from its bytes alone: DAT headers chained by file_size, each at a multiple of
# 32, the gaps and the tail 0xFF and shorter than 32, and each DAT's one root name.
layout="$(python3 - "$B" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
at, out = 0, []
while at < len(b):
    size, data, nreloc, nroot = struct.unpack_from('>IIII', b, at)
    assert at % 32 == 0, 'DAT at %d' % at
    strings = at + 0x20 + data + 4 * nreloc + 8 * nroot
    name = b[strings:b.index(b'\0', strings)].decode()
    end = at + size
    nxt = (end + 31) // 32 * 32
    assert set(b[end:nxt]) <= {0xFF} and nxt - end < 32, 'gap after %s' % name
    out.append('%d:%s' % (at, name))
    at = nxt
assert at == len(b)
print(' '.join(out))
PY
)"
check "bank layout" "$layout" \
  "0:PlyCreature_Share_ACTION_Wait1_figatree 256:PlyCreature_Share_ACTION_Wave_figatree 480:PlyCreature_Share_ACTION_Jump_figatree"
# The fighter data's action table (ftData +0x0C, 0x18-byte records: name, offset, size) names each
# clip's DAT where the bank holds it, as the game finds them.
check "action table" "$(python3 - "$F" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
size, data, nreloc, nroot = struct.unpack_from('>IIII', b, 0)
roots = 0x20 + data + 4 * nreloc
strings = roots + 8 * nroot
ft = next(off for off, name in (struct.unpack_from('>II', b, roots + 8 * i) for i in range(nroot))
          if b[strings + name:].startswith(b'ftDataCreature\0'))
actions = struct.unpack_from('>I', b, 0x20 + ft + 0x0C)[0]
out = []
for i in range(3):
    name, offset, size = struct.unpack_from('>III', b, 0x20 + actions + 0x18 * i)
    out.append('%d:%s' % (offset, b[0x20 + name:b.index(b'\0', 0x20 + name)].decode()))
print(' '.join(out))
PY
)" "$layout"
expect_rc 0 "$UE" list --json "$B"
check "list: names and offsets" "$(python3 -c 'import json,sys; print(" ".join("%d:%s" % (e["offset"], e["name"]) for e in json.load(open(sys.argv[1]))["entries"]))' "$T/out")" \
  "0:PlyCreature_Share_ACTION_Wait1_figatree.dat 256:PlyCreature_Share_ACTION_Wave_figatree.dat 480:PlyCreature_Share_ACTION_Jump_figatree.dat"
expect_rc 0 "$UE" extract "$B" -o "$T/x"
expect_rc 0 "$UE" pack "$T/x" -o "$T/again.dat"
cmp -s "$B" "$T/again.dat" && ok || bad "extract → pack of the bank is not byte-exact"

# info: the clips as built in gamecube_dats.c, and the non-model roots with their kinds
expect_rc 0 "$UE" info "$B"
for row in "0] entry 0, clip Wait1, frames 60" "1] entry 1, clip Wave, frames 30" "2] entry 2, clip Jump, frames 40"; do
  grep -q "^    \[$row, joints 8, root PlyCreature_Share_ACTION_" "$T/out" && ok || bad "info bank: no [$row: $(cat "$T/out")"
done
expect_rc 0 "$UE" info "$F"
for root in "0: ftDataCreature (fighter_data)" "1: creature_camera (camera)" "2: creature_lights (lights)" "3: creature_fog (fog)"; do
  grep -q "^  root $root @" "$T/out" && ok || bad "info data: no root $root: $(cat "$T/out")"
done

# convert --anims: the model's own clips, then the bank's three; end frames exact
expect_rc 0 "$UE" convert "$M" --anims "$B" -o "$T/c.glb"
if node "$HERE/../gltf_validate.mjs" "$T/c.glb" >"$T/val" 2>&1; then ok; else bad "gltf-validator"; cat "$T/val" >&2; fi
# Poses from the keys (60 frames per second): Wait1 frame 30 hips at y 3.2; Wave frame 15 arm_r
# turned 2 rad about Z (q = (0, 0, sin 1, cos 1)); Jump frame 20 root at y 2 and arm_l at −1.5 rad
# about Z (s16 keys with 12 fraction bits: exact); Jump frame 10, linear: tail −0.8 + 0.6·10/20 = −0.5
# about X. Sampled as a viewer does between the keys the channel kept (slerp for rotations).
check "clips and poses" "$(python3 - "$T/c.glb" <<'PY'
import json, math, struct, sys
d = open(sys.argv[1], 'rb').read()
n = struct.unpack_from('<I', d, 12)[0]
g = json.loads(d[20:20 + n])
binary = d[20 + n + 8:]
def floats(acc):
    a = g['accessors'][acc]; v = g['bufferViews'][a['bufferView']]
    k = {'SCALAR': 1, 'VEC3': 3, 'VEC4': 4}[a['type']]
    start = v.get('byteOffset', 0) + a.get('byteOffset', 0)
    return [struct.unpack_from('<%df' % k, binary, start + 4 * k * i) for i in range(a['count'])]
def sample(anim, joint, path, frame):
    a = next(x for x in g['animations'] if x['name'] == anim)
    for c in a['channels']:
        t = c['target']
        if 'node' in t and g['nodes'][t['node']].get('name') == joint and t['path'] == path:
            s = a['samplers'][c['sampler']]
            ts = [x[0] for x in floats(s['input'])]; vs = floats(s['output'])
            time = frame / 60.0
            i = max(j for j in range(len(ts)) if ts[j] <= time + 1e-6)
            if i + 1 == len(ts) or abs(ts[i] - time) < 1e-6: return vs[i]
            u = (time - ts[i]) / (ts[i + 1] - ts[i])
            p, q = vs[i], vs[i + 1]
            if path == 'rotation':  # glTF's LINEAR rotation is a slerp
                th = math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(p, q)))))
                if th > 1e-6:
                    wa, wb = math.sin((1 - u) * th) / math.sin(th), math.sin(u * th) / math.sin(th)
                    return tuple(wa * x + wb * y for x, y in zip(p, q))
            return tuple(x + u * (y - x) for x, y in zip(p, q))
    raise SystemExit('no %s %s channel in %s' % (joint, path, anim))
def near(a, b, eps=1e-3): return all(abs(x - y) < eps for x, y in zip(a, b))
names = ['%s@%g' % (a['name'], round(60 * max(g['accessors'][s['input']]['max'][0] for s in a['samplers']), 3)) for a in g['animations']]
rz = lambda r: (0, 0, math.sin(r / 2), math.cos(r / 2))
rx = lambda r: (math.sin(r / 2), 0, 0, math.cos(r / 2))
poses = [near(sample('Wait1', 'hips', 'translation', 30), (0, 3.2, 0)),
         near(sample('Wave', 'arm_r', 'rotation', 15), rz(2)),
         near(sample('Jump', 'root', 'translation', 20), (0, 2, 0)),
         near(sample('Jump', 'arm_l', 'rotation', 20), rz(-1.5)),
         near(sample('Jump', 'tail', 'rotation', 10), rx(-0.5))]
print(' '.join(names), poses)
PY
)" "Animation_0@60 Animation_1@40 Wait1@60 Wave@30 Jump@40 [True, True, True, True, True]"

# convert -r of the pack: the model converts, the bank and the data DAT hold no model
expect_rc 0 "$UE" convert -r "$T/demo" -o "$T/all" --report "$T/r.json"
[ -s "$T/all/gamecube/dat/creature.glb" ] && ok || bad "convert -r: no gamecube/dat/creature.glb"
check "convert -r: the other two" "$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["records"]
print(sorted((x["input"].rsplit("/", 1)[1], x["status"]) for x in r if "/gamecube/dat/creature_" in x["input"]))' "$T/r.json")" \
  "[('creature_anims.dat', 'skipped'), ('creature_data.dat', 'skipped')]"
finish
