#!/usr/bin/env python3
# unearth tests — resolves every KHR_animation_pointer of a written glTF against its own JSON,
# independently of the library (the Khronos validator does not): each pointer must name an
# existing number or number array whose size is the sampler output's component count.
# Usage: gltf_pointers.py FILE.glb|FILE.gltf [--expect N | --none]
#   prints "pointers: N"; --expect N fails unless exactly N pointer channels resolve, --none
#   fails when any pointer channel (or the extension's declaration) is present.
import json, struct, sys

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}

def load(path):
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        n = struct.unpack_from("<I", data, 12)[0]
        return json.loads(data[20:20 + n])
    return json.loads(data)

def resolve(doc, pointer):
    if not pointer.startswith("/"):
        raise ValueError("does not start with '/'")
    node = doc
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            if not token.isdigit() or (len(token) > 1 and token[0] == "0") or int(token) >= len(node):
                raise ValueError("no element %r" % token)
            node = node[int(token)]
        elif isinstance(node, dict):
            if token not in node:
                raise ValueError("no member %r" % token)
            node = node[token]
        else:
            raise ValueError("%r below a value" % token)
    return node

def size_of(value):
    if isinstance(value, bool):
        return 1
    if isinstance(value, (int, float)):
        return 1
    if isinstance(value, list) and all(isinstance(v, (int, float)) for v in value):
        return len(value)
    raise ValueError("names no number or number array")

def main():
    doc = load(sys.argv[1])
    args = sys.argv[2:]
    count, errors = 0, []
    for a, anim in enumerate(doc.get("animations", [])):
        for c, ch in enumerate(anim["channels"]):
            target = ch["target"]
            if target.get("path") != "pointer":
                continue
            pointer = target["extensions"]["KHR_animation_pointer"]["pointer"]
            try:
                value = resolve(doc, pointer)
                sampler = anim["samplers"][ch["sampler"]]
                out = doc["accessors"][sampler["output"]]
                want = COMPONENTS[out["type"]]
                if size_of(value) != want:
                    raise ValueError("%d components, the sampler gives %d" % (size_of(value), want))
                count += 1
            except (ValueError, KeyError, IndexError) as e:
                errors.append("animations[%d].channels[%d] %s: %s" % (a, c, pointer, e))
    declared = "KHR_animation_pointer" in doc.get("extensionsUsed", [])
    if count and not declared:
        errors.append("pointer channels without KHR_animation_pointer in extensionsUsed")
    if "--none" in args and (count or declared):
        errors.append("pointer channels (%d) or the declaration present" % count)
    if "--expect" in args and count != int(args[args.index("--expect") + 1]):
        errors.append("%d pointers resolve, expected %s" % (count, args[args.index("--expect") + 1]))
    for e in errors:
        print("FAIL: " + e, file=sys.stderr)
    print("pointers: %d" % count)
    return 1 if errors else 0

sys.exit(main())
