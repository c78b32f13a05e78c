#!/usr/bin/env python3
# Helpers of cli_import.sh: edits of a .glb as a modder's tool would make them (a moved vertex,
# a re-parented node, an oversized primitive), hand-written bad .gltf files in the style of
# Blender's exporter, and independent readers of MSH resources and glTF summaries for the checks.
import base64
import os
import urllib.parse
import json
import struct
import sys


# ---- GLB framing (glTF 2.0, section 4.4) --------------------------------------------------------

def read_glb(path):
    b = open(path, 'rb').read()
    magic, version, total = struct.unpack_from('<III', b, 0)
    assert magic == 0x46546C67 and version == 2 and total == len(b)
    jlen, jtype = struct.unpack_from('<II', b, 12)
    doc = json.loads(b[20:20 + jlen])
    at = 20 + jlen
    blen, _ = struct.unpack_from('<II', b, at)
    return doc, bytearray(b[at + 8:at + 8 + blen])


def write_glb(path, doc, binary):
    j = json.dumps(doc, separators=(',', ':')).encode()
    j += b' ' * (-len(j) % 4)
    binary = bytes(binary) + b'\0' * (-len(binary) % 4)
    doc_len = 12 + 8 + len(j) + 8 + len(binary)
    out = struct.pack('<III', 0x46546C67, 2, doc_len) + struct.pack('<II', len(j), 0x4E4F534A) + j
    out += struct.pack('<II', len(binary), 0x004E4942) + binary
    open(path, 'wb').write(out)


def node_named(doc, name):
    return next(i for i, n in enumerate(doc['nodes']) if n.get('name') == name)


def accessor_base(doc, acc):
    a = doc['accessors'][acc]
    v = doc['bufferViews'][a['bufferView']]
    return v.get('byteOffset', 0) + a.get('byteOffset', 0), v.get('byteStride', 12)


def move_vertex(src, dst, name, dx):
    """x of vertex 0 of the first primitive of node `name` += dx; min/max kept true."""
    doc, binary = read_glb(src)
    mesh = doc['meshes'][doc['nodes'][node_named(doc, name)]['mesh']]
    acc = mesh['primitives'][0]['attributes']['POSITION']
    at, _ = accessor_base(doc, acc)
    x = struct.unpack_from('<f', binary, at)[0] + float(dx)
    struct.pack_into('<f', binary, at, x)
    a = doc['accessors'][acc]
    x = struct.unpack_from('<f', binary, at)[0]
    a['min'][0] = min(a['min'][0], x)
    a['max'][0] = max(a['max'][0], x)
    write_glb(dst, doc, binary)


def reparent(src, dst, child, parent):
    doc, binary = read_glb(src)
    c, p = node_named(doc, child), node_named(doc, parent)
    for n in doc['nodes']:
        if c in n.get('children', []):
            n['children'].remove(c)
    doc['nodes'][p].setdefault('children', []).append(c)
    write_glb(dst, doc, binary)


def set_node(src, dst, index, key, value):
    """nodes[index][key] = value (JSON), as an editor's transform field would set it."""
    doc, binary = read_glb(src)
    doc['nodes'][int(index)][key] = json.loads(value)
    write_glb(dst, doc, binary)


def oversize(src, dst, name, count):
    """Node `name`'s first primitive becomes `count` vertices and one u32 triangle."""
    doc, binary = read_glb(src)
    count = int(count)
    prim = doc['meshes'][doc['nodes'][node_named(doc, name)]['mesh']]['primitives'][0]
    start = len(binary) + (-len(binary) % 4)
    binary += b'\0' * (start - len(binary))
    binary += struct.pack('<3f', 1, 0, 0) + b'\0' * (12 * (count - 1))
    uv = len(binary)
    binary += b'\0' * (8 * count)
    ind = len(binary)
    binary += struct.pack('<3I', 0, 1, count - 1)
    views = doc['bufferViews']
    views.append({'buffer': 0, 'byteOffset': start, 'byteLength': 12 * count, 'target': 34962})
    views.append({'buffer': 0, 'byteOffset': uv, 'byteLength': 8 * count, 'target': 34962})
    views.append({'buffer': 0, 'byteOffset': ind, 'byteLength': 12, 'target': 34963})
    accs = doc['accessors']
    accs.append({'bufferView': len(views) - 3, 'componentType': 5126, 'count': count, 'type': 'VEC3',
                 'min': [0, 0, 0], 'max': [1, 0, 0]})
    accs.append({'bufferView': len(views) - 2, 'componentType': 5126, 'count': count, 'type': 'VEC2'})
    accs.append({'bufferView': len(views) - 1, 'componentType': 5125, 'count': 3, 'type': 'SCALAR'})
    prim['attributes'] = {'POSITION': len(accs) - 3, 'TEXCOORD_0': len(accs) - 2}
    prim['indices'] = len(accs) - 1
    doc['buffers'][0]['byteLength'] = len(binary) + (-len(binary) % 4)
    write_glb(dst, doc, binary)


# ---- hand-written .gltf files, Blender style, one bad-input class each ----------------------------

def blender_triangle():
    pos = struct.pack('<9f', 0, 0, 0, 1, 0, 0, 0, 1, 0)
    nrm = struct.pack('<9f', 0, 0, 1, 0, 0, 1, 0, 0, 1)
    uv = struct.pack('<6f', 0, 0, 1, 0, 0, 1)
    idx = struct.pack('<3H', 0, 1, 2) + b'\0\0'
    blob = pos + nrm + uv + idx
    doc = {
        'asset': {'generator': 'Khronos glTF Blender I/O v3.6.27', 'version': '2.0'},
        'scene': 0,
        'scenes': [{'name': 'Scene', 'nodes': [0]}],
        'nodes': [{'mesh': 0, 'name': 'Plate'}],
        'materials': [{'doubleSided': True, 'name': 'Material',
                       'pbrMetallicRoughness': {'baseColorFactor': [0.8, 0.8, 0.8, 1], 'metallicFactor': 0,
                                                'roughnessFactor': 0.5}}],
        'meshes': [{'name': 'Plate', 'primitives': [
            {'attributes': {'POSITION': 0, 'NORMAL': 1, 'TEXCOORD_0': 2}, 'indices': 3, 'material': 0}]}],
        'accessors': [
            {'bufferView': 0, 'componentType': 5126, 'count': 3, 'max': [1, 1, 0], 'min': [0, 0, 0], 'type': 'VEC3'},
            {'bufferView': 1, 'componentType': 5126, 'count': 3, 'type': 'VEC3'},
            {'bufferView': 2, 'componentType': 5126, 'count': 3, 'type': 'VEC2'},
            {'bufferView': 3, 'componentType': 5123, 'count': 3, 'type': 'SCALAR'}],
        'bufferViews': [
            {'buffer': 0, 'byteLength': 36, 'byteOffset': 0, 'target': 34962},
            {'buffer': 0, 'byteLength': 36, 'byteOffset': 36, 'target': 34962},
            {'buffer': 0, 'byteLength': 24, 'byteOffset': 72, 'target': 34962},
            {'buffer': 0, 'byteLength': 6, 'byteOffset': 96, 'target': 34963}],
        'buffers': [{'byteLength': len(blob)}],
    }
    return doc, bytearray(blob)


def external_image(gltf, index, name):
    """Moves image `index` of a .gltf out of its buffer into the file `name` beside it."""
    doc = json.load(open(gltf))
    folder = gltf.rsplit('/', 1)[0]
    img = doc['images'][int(index)]
    if 'uri' in img:  # a PNG file of its own already (convert's .gltf): renamed
        os.rename(folder + '/' + urllib.parse.unquote(img['uri']), folder + '/' + name)
        img['uri'] = name
        json.dump(doc, open(gltf, 'w'))
        return
    view = doc['bufferViews'][img.pop('bufferView')]
    blob = open(folder + '/' + doc['buffers'][view['buffer']]['uri'], 'rb').read()
    at = view.get('byteOffset', 0)
    open(folder + '/' + name, 'wb').write(blob[at:at + view['byteLength']])
    img['uri'] = name
    json.dump(doc, open(gltf, 'w'))


def data_uri(blob):
    return 'data:application/octet-stream;base64,' + base64.b64encode(bytes(blob)).decode()


def bad(kind, dst):
    doc, blob = blender_triangle()
    if kind == 'json':
        open(dst, 'w').write('{"asset": {"version": "2.0"}, "nodes": [{"name": "Plate",}]')
        return
    if kind == 'short-buffer':  # the buffer holds fewer bytes than its views claim
        blob = blob[:64]
    elif kind == 'accessor-range':
        doc['accessors'][0]['count'] = 30
    elif kind == 'index-range':
        struct.pack_into('<H', blob, 96 + 4, 7)
    elif kind == 'mode':
        doc['meshes'][0]['primitives'][0]['mode'] = 1  # LINES
    elif kind == 'nan':
        struct.pack_into('<f', blob, 4, float('nan'))
    elif kind == 'good':
        pass
    else:
        raise SystemExit('unknown kind ' + kind)
    doc['buffers'][0]['byteLength'] = len(blob) if kind != 'short-buffer' else 104
    doc['buffers'][0]['uri'] = data_uri(blob)
    json.dump(doc, open(dst, 'w'), indent=2)


# ---- independent readers for the checks -----------------------------------------------------------

def nres_entries(path):
    """{type_id: payload} of an NRes (header 16 bytes, directory of 64-byte rows at the end)."""
    b = open(path, 'rb').read()
    assert b[:4] == b'NRes'
    count, total = struct.unpack_from('<II', b, 8)
    out = {}
    for i in range(count):
        e = total - 64 * (count - i)
        t, _, _, size = struct.unpack_from('<IIII', b, e)
        off = struct.unpack_from('<I', b, e + 56)[0]
        out[t] = b[off:off + size]
    return out


def msh_diff(a, b):
    ea, eb = nres_entries(a), nres_entries(b)
    print(' '.join(str(t) for t in sorted(set(ea) | set(eb)) if ea.get(t) != eb.get(t)))


def moved_vertices(a, b):
    """Vertices whose Res3 position differs: index and delta."""
    pa, pb = nres_entries(a)[3], nres_entries(b)[3]
    out = []
    for v in range(min(len(pa), len(pb)) // 12):
        x = struct.unpack_from('<3f', pa, 12 * v)
        y = struct.unpack_from('<3f', pb, 12 * v)
        if x != y:
            out.append((v, [round(y[k] - x[k], 6) for k in range(3)]))
    print(out)


def summary(path):
    """Node names (sorted, the wrapper root left out) and triangles per node mesh."""
    doc, _ = read_glb(path)
    rows = []
    for n in doc['nodes']:
        tris = 0
        if 'mesh' in n:
            for p in doc['meshes'][n['mesh']]['primitives']:
                acc = p.get('indices')
                tris += (doc['accessors'][acc]['count'] if acc is not None else 0) // 3
        rows.append((n.get('name', ''), tris))
    print(json.dumps(sorted(rows[1:])))


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    {'move-vertex': move_vertex, 'reparent': reparent, 'set-node': set_node, 'oversize': oversize, 'bad': bad,
     'external-image': external_image, 'msh-diff': msh_diff, 'moved-vertices': moved_vertices, 'summary': summary}[cmd](*args)
