#!/usr/bin/env python3
"""Checks of archive layout for the CLI tests, read straight from the bytes as the Parkan spec
(docs/formats/nres.md) lays them out, independently of unearth's reader.

  archive_layout.py nres-canonical FILE   prints "ok" when the NRes is in the canonical layout of
      docs/formats/nres.md#data-region (payloads in directory order from offset 16, each padded with zeros to 8 bytes, the
      directory right after them, the docs/formats/nres.md#sort-index), else what breaks it
  archive_layout.py nres-dir FILE         one line per directory entry: "index type name offset size"
  archive_layout.py nres-segments FILE    what the data region holds, in file order, on one line:
      each payload's name (with "@unaligned" when its offset is not a multiple of 8) and each run
      of bytes outside every payload that is not all zero as "region:HEX" (HEX without the zero
      padding that ends it)
  archive_layout.py rsli-order LISTJSON   "ok" when the `list --json` entries of an RsLi have packed
      ranges that follow each other in table order without overlap, else the first that does not
"""
import json
import struct
import sys


def nres_entries(data):
    magic, version, count, total = struct.unpack_from("<4sIII", data, 0)
    assert magic == b"NRes" and total == len(data), "not an NRes of its own size"
    dir_off = total - 64 * count
    out = []
    for i in range(count):
        at = dir_off + 64 * i
        type_id, a1, a2, size, a3 = struct.unpack_from("<5I", data, at)
        name = data[at + 20:at + 56].split(b"\0", 1)[0]
        offset, sort_index = struct.unpack_from("<II", data, at + 56)
        out.append(dict(type=type_id, name=name, size=size, offset=offset, sort=sort_index))
    return dir_off, out


def fold(name):
    return bytes(c + 32 if 65 <= c <= 90 else c for c in name)


def nres_canonical(path):
    data = open(path, "rb").read()
    dir_off, entries = nres_entries(data)
    pos = 16
    for i, e in enumerate(entries):
        if e["offset"] != pos:
            return "entry %d (%s) at %d, canonical %d" % (i, e["name"].decode("cp1251"), e["offset"], pos)
        end = pos + e["size"]
        pos = (end + 7) // 8 * 8
        if any(data[end:pos]):
            return "entry %d: padding is not zero" % i
    if pos != dir_off:
        return "directory at %d, canonical %d" % (dir_off, pos)
    order = sorted(range(len(entries)), key=lambda i: fold(entries[i]["name"]))
    if [e["sort"] for e in entries] != order:
        return "sort table %s, canonical %s" % ([e["sort"] for e in entries], order)
    return "ok"


def nres_segments(path):
    data = open(path, "rb").read()
    dir_off, entries = nres_entries(data)
    items = sorted((e["offset"], i) for i, e in enumerate(entries))
    out, pos = [], 16
    for offset, i in items + [(dir_off, None)]:
        run = data[pos:offset].rstrip(b"\0")
        if run:
            out.append("region:" + run.hex())
        if i is None:
            break
        e = entries[i]
        out.append(e["name"].decode("cp1251") + ("@unaligned" if offset % 8 else ""))
        pos = max(pos, offset + e["size"])
    return " ".join(out)


def rsli_order(path):
    entries = json.load(open(path))["entries"]
    end = 0
    for e in entries:
        if e["offset"] < end:
            return "entry %d (%s) at %d, before the end %d of the one above" % (e["index"], e["name"], e["offset"], end)
        end = e["offset"] + e["stored_size"]
    return "ok"


def main():
    what, path = sys.argv[1], sys.argv[2]
    if what == "nres-canonical":
        print(nres_canonical(path))
    elif what == "nres-dir":
        for i, e in enumerate(nres_entries(open(path, "rb").read())[1]):
            print(i, struct.pack("<I", e["type"]).decode("latin-1"), e["name"].decode("cp1251"), e["offset"], e["size"])
    elif what == "nres-segments":
        print(nres_segments(path))
    elif what == "rsli-order":
        print(rsli_order(path))
    else:
        sys.exit("unknown check " + what)


if __name__ == "__main__":
    main()
