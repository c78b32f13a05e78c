#!/usr/bin/env python3
# unearth CLI tests — checks the animations of the sample creature's .glb against the clips of
# docs/hsd-animation.md ("Sample creature animations"), read straight from the glTF JSON/BIN.
# Usage: hsd_anim_glb.py FILE.glb COMMAND
#   names        the animation names, comma-separated
#   clips        the creature's clip rules (end times, animated joints, curve values, pointers)
#   damaged      what must survive when Animation_1's root track is damaged (tolerant mode)
import json, math, struct, sys

def load(path):
    data = open(path, "rb").read()
    assert data[:4] == b"glTF", "not a GLB"
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    at = 20 + n
    return doc, data[at + 8:at + 8 + struct.unpack_from("<I", data, at)[0]]

def accessor(doc, binary, index):
    a = doc["accessors"][index]
    v = doc["bufferViews"][a["bufferView"]]
    comps = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[a["type"]]
    assert a["componentType"] == 5126, "float accessors only"
    stride = v.get("byteStride", 4 * comps)
    base = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    return [struct.unpack_from("<%df" % comps, binary, base + i * stride) for i in range(a["count"])]

def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]

class Clip:
    def __init__(self, doc, binary, anim):
        self.doc, self.bin, self.anim = doc, binary, anim

    def channels(self):
        for c in self.anim["channels"]:
            yield c, self.anim["samplers"][c["sampler"]]

    def node_paths(self):
        return {(self.doc["nodes"][c["target"]["node"]]["name"], c["target"]["path"])
                for c, _ in self.channels() if "node" in c["target"]}

    def pointers(self):
        return {c["target"]["extensions"]["KHR_animation_pointer"]["pointer"]: s
                for c, s in self.channels() if c["target"].get("path") == "pointer"}

    def last_time(self):
        """The latest key time as float32: the accessors' max (9 digits round-trip a float32)
        and the stored times themselves must agree."""
        declared = f32(max(self.doc["accessors"][s["input"]]["max"][0] for _, s in self.channels()))
        stored = max(accessor(self.doc, self.bin, s["input"])[-1][0] for _, s in self.channels())
        assert declared == stored, (declared, stored)
        return declared

    def sample(self, sampler, t):
        times = [x[0] for x in accessor(self.doc, self.bin, sampler["input"])]
        values = accessor(self.doc, self.bin, sampler["output"])
        if t <= times[0]:
            return values[0]
        if t >= times[-1]:
            return values[-1]
        i = max(k for k in range(len(times)) if times[k] <= t)
        if sampler.get("interpolation") == "STEP":
            return values[i]
        u = (t - times[i]) / (times[i + 1] - times[i])
        return tuple(a + (b - a) * u for a, b in zip(values[i], values[i + 1]))

    def node(self, name, path, t):
        for c, s in self.channels():
            if "node" in c["target"] and c["target"]["path"] == path and \
                    self.doc["nodes"][c["target"]["node"]]["name"] == name:
                return self.sample(s, t)
        raise AssertionError("no %s channel on %s" % (path, name))

def material_index(doc, name):
    return [m["name"] for m in doc["materials"]].index(name)

def near(a, b, eps=1e-4):
    return all(abs(x - y) <= eps for x, y in zip(a, b))

def clips(doc, binary):
    anims = {a["name"]: Clip(doc, binary, a) for a in doc["animations"]}
    idle, attack = anims["Animation_0"], anims["Animation_1"]
    # exact ends: end_frame / 60 as a float, and no key past it (docs/formats/hsd-animation.md#conversion-rules)
    assert idle.last_time() == f32(60 / 60), idle.last_time()
    assert attack.last_time() == f32(40 / 60), attack.last_time()
    # TRS channels on the animated joints only: not the tail (no node), nor arm_l / root in idle
    # (nodes without an AObj), nor hips / tail in the attack
    joints = lambda c: {n for n, p in c.node_paths()}
    assert joints(idle) == {"hips", "chest", "head", "jaw", "arm_r"}, joints(idle)
    assert joints(attack) == {"root", "chest", "head", "jaw", "arm_l", "arm_r"}, joints(attack)
    for clip in (idle, attack):
        for n in joints(clip):
            assert (n, "rotation") in clip.node_paths() and (n, "translation") in clip.node_paths(), n
    # curve values by hand from the keys: hips bob 3 → 3.15 at frame 30; the chest's first key
    # (start frame −10) plays at frame 10, its second (0.3 rad about X) at frame 30
    assert near(idle.node("hips", "translation", 0.5), (0, 3.15, 0)), idle.node("hips", "translation", 0.5)
    q = idle.node("chest", "rotation", 0.5)  # R = Ry(0.3)·Rx(0.3): the bind yaw 0.3 is kept
    cx, sx, cy, sy = math.cos(0.15), math.sin(0.15), math.cos(0.15), math.sin(0.15)
    want = (sx * cy, cx * sy, -sx * sy, cx * cy)  # quaternion of Ry(0.3)·Rx(0.3), x y z w
    assert near(q, want) or near(q, tuple(-x for x in want)), (q, want)
    assert near(attack.node("root", "translation", 17 / 60), (0, 0, 1.5)), attack.node("root", "translation", 17 / 60)
    assert near(attack.node("head", "scale", 12 / 60), (1.75, 1.25, 0.9)), attack.node("head", "scale", 12 / 60)
    # the face, on Animation_0: base colours and texture transforms through KHR_animation_pointer
    ptr = idle.pointers()
    head, eye, mouth = (material_index(doc, n) for n in ("head_mat", "eye_mat", "mouth_mat"))
    colour = "/materials/%d/pbrMetallicRoughness/baseColorFactor"
    offset = "/materials/%d/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset"
    for p in (colour % head, colour % mouth, offset % eye, offset % mouth):
        assert p in ptr, (p, sorted(ptr))
    assert not attack.pointers(), "the attack has no material animation"
    # head_mat's diffuse G, B at frame 30: 0.75, stored by the runtime as (u8)(255·0.75) = 191
    # (docs/formats/hsd-animation.md#track-types), an sRGB byte that baseColorFactor holds linear
    lin = lambda c: c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    assert near(idle.sample(ptr[colour % head], 0.5), (1, lin(191 / 255), lin(191 / 255), 1)), \
        idle.sample(ptr[colour % head], 0.5)
    # the mouth's transparency track 0 → 0.4 at frame 30 → 0: alpha = 1 − v (docs/formats/hsd-animation.md#track-types)
    assert abs(idle.sample(ptr[colour % mouth], 0.5)[3] - 0.6) <= 1e-6, idle.sample(ptr[colour % mouth], 0.5)
    assert abs(idle.sample(ptr[colour % mouth], 15 / 60)[3] - 0.8) <= 1e-6, idle.sample(ptr[colour % mouth], 15 / 60)
    # blinking: stepped cells, open at 0 and 55, half at 41, closed at 45, half at 48
    eye_s = ptr[offset % eye]
    assert eye_s["interpolation"] == "STEP"
    cell = lambda f: idle.sample(eye_s, f / 60)
    assert cell(0) == cell(55) and cell(41) == cell(48), [cell(f) for f in (0, 41, 45, 48, 55)]
    assert len({cell(0), cell(41), cell(45)}) == 3
    # the mouth swap: images 0 1 2 1 0 every 15 frames, stepped
    mouth_s = ptr[offset % mouth]
    assert mouth_s["interpolation"] == "STEP"
    img = lambda f: idle.sample(mouth_s, f / 60)
    assert len({img(5), img(20), img(35)}) == 3 and img(50) == img(20) and img(60) == img(5)
    return "ok"

def damaged(doc, binary):
    anims = {a["name"]: Clip(doc, binary, a) for a in doc["animations"]}
    idle, attack = anims["Animation_0"], anims["Animation_1"]
    assert {n for n, p in idle.node_paths()} == {"hips", "chest", "head", "jaw", "arm_r"}
    assert len(idle.pointers()) >= 4
    # the attack's root track is gone; its other joints still play
    assert {n for n, p in attack.node_paths()} == {"chest", "head", "jaw", "arm_l", "arm_r"}
    assert attack.last_time() == f32(40 / 60)
    return "ok"

if __name__ == "__main__":
    doc, binary = load(sys.argv[1])
    cmd = sys.argv[2]
    if cmd == "names":
        print(",".join(a["name"] for a in doc.get("animations", [])))
    elif cmd == "clips":
        print(clips(doc, binary))
    elif cmd == "damaged":
        print(damaged(doc, binary))
    else:
        sys.exit("unknown command " + cmd)
