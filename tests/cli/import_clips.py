#!/usr/bin/env python3
# Helpers of cli_import_clips.sh: a converted .glb's clips rewritten as real clients write them
# (Blender's 24 fps re-sampling and its dropped KHR_animation_pointer clips, gltf-transform's
# pointer channels without their pointer), and a reader of a model's key track for the checks.
import math
import struct
import sys

from import_gltf import read_glb, write_glb, nres_entries

POINTER = 'KHR_animation_pointer'


def floats(doc, binary, acc):
    a = doc['accessors'][acc]
    v = doc['bufferViews'][a['bufferView']]
    n = {'SCALAR': 1, 'VEC3': 3, 'VEC4': 4}[a['type']]
    at = v.get('byteOffset', 0) + a.get('byteOffset', 0)
    stride = v.get('byteStride', 4 * n)
    return [list(struct.unpack_from('<%df' % n, binary, at + k * stride)) for k in range(a['count'])]


def append(doc, binary, rows):
    """A new float accessor holding `rows` (lists of 1, 3 or 4 floats) at the end of the buffer."""
    binary.extend(b'\0' * (-len(binary) % 4))
    n = len(rows[0])
    at = len(binary)
    for r in rows:
        binary.extend(struct.pack('<%df' % n, *r))
    doc['bufferViews'].append({'buffer': 0, 'byteOffset': at, 'byteLength': 4 * n * len(rows)})
    acc = {'bufferView': len(doc['bufferViews']) - 1, 'componentType': 5126, 'count': len(rows),
           'type': {1: 'SCALAR', 3: 'VEC3', 4: 'VEC4'}[n]}
    if n == 1:
        acc['min'], acc['max'] = [rows[0][0]], [rows[-1][0]]
    doc['accessors'].append(acc)
    doc['buffers'][0]['byteLength'] = len(binary)
    return len(doc['accessors']) - 1


def blender_eval(times, values, t):
    """Blender's evaluation of a LINEAR curve: each component lerped, a quaternion normalised."""
    k = 0
    while k + 1 < len(times) and times[k + 1] <= t:
        k += 1
    if k + 1 == len(times) or t <= times[k]:
        v = list(values[k])
    else:
        a = (t - times[k]) / (times[k + 1] - times[k])
        v = [p + (q - p) * a for p, q in zip(values[k], values[k + 1])]
    if len(v) == 4:
        n = math.sqrt(sum(c * c for c in v))
        v = [c / n for c in v]
    return v


def blender(src, dst, rate):
    """What Blender 3.4 writes back: node channels sampled every 1/rate s up to the last whole
    sample, clips with KHR_animation_pointer channels dropped, extras gone."""
    doc, binary = read_glb(src)
    kept = []
    for an in doc.get('animations', []):
        if any(c['target'].get('path') == 'pointer' for c in an['channels']):
            continue
        an.pop('extras', None)
        for s in an['samplers']:
            times = [r[0] for r in floats(doc, binary, s['input'])]
            values = floats(doc, binary, s['output'])
            grid = [i / rate for i in range(int(math.floor(times[-1] * rate + 1e-3)) + 1)]
            s['input'] = append(doc, binary, [[t] for t in grid])
            s['output'] = append(doc, binary, [blender_eval(times, values, t) for t in grid])
        kept.append(an)
    doc['animations'] = kept
    doc['extensionsUsed'] = [e for e in doc.get('extensionsUsed', []) if e != POINTER]
    for n in doc['nodes']:
        n.pop('extras', None)
    write_glb(dst, doc, binary)


def strip_pointers(src, dst):
    """gltf-transform without the extension: pointer channels keep path "pointer", lose the pointer."""
    doc, binary = read_glb(src)
    for an in doc.get('animations', []):
        for c in an['channels']:
            c['target'].pop('extensions', None)
    write_glb(dst, doc, binary)


def move_sample(src, dst, node, key, dy):
    """Sample `key` of node `node`'s translation: y += dy."""
    doc, binary = read_glb(src)
    n = next(i for i, x in enumerate(doc['nodes']) if x.get('name') == node)
    an = doc['animations'][0]
    c = next(c for c in an['channels'] if c['target'].get('node') == n and c['target']['path'] == 'translation')
    acc = an['samplers'][c['sampler']]['output']
    v = doc['bufferViews'][doc['accessors'][acc]['bufferView']]
    at = v.get('byteOffset', 0) + doc['accessors'][acc].get('byteOffset', 0) + 12 * key + 4
    struct.pack_into('<f', binary, at, struct.unpack_from('<f', binary, at)[0] + float(dy))
    write_glb(dst, doc, binary)


def track(path, node):
    """Model node `node`'s keys as 'time:z' words (Res1 map start and fallback key, Res19, Res8)."""
    e = nres_entries(path)
    res1, keys, fmap = e[1], e[8], e[19]
    start, fallback = struct.unpack_from('<HH', res1, 38 * node + 4)
    first = struct.unpack_from('<H', fmap, 2 * start)[0] if start != 0xFFFF else fallback
    words = []
    for k in range(first, fallback + 1):
        x, y, z, time = struct.unpack_from('<4f', keys, 24 * k)
        words.append('%g:%.6f' % (time, z))
    print(' '.join(words))


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'blender':
        blender(args[0], args[1], float(args[2]))
    elif cmd == 'strip-pointers':
        strip_pointers(*args)
    elif cmd == 'move-sample':
        move_sample(args[0], args[1], args[2], int(args[3]), args[4])
    elif cmd == 'track':
        track(args[0], int(args[1]))
    else:
        sys.exit('unknown command ' + cmd)
