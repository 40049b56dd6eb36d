#!/usr/bin/env python3
"""Turns recorded client connections into the fuzz targets' seed corpora.

    python3 fuzz/record/seeds.py RECORD_DIR

RECORD_DIR holds one file per connection with the bytes the client sent (from
fuzz/record/record.sh). Each stream is cut into Thrift messages (framed or not, versioned or
not, as the stream's first bytes say) and the corpora in fuzz/corpus/ are rewritten:

  dispatch  whole connections, the smallest one for each sequence of methods, cut to 16 KiB
  wire      the same streams cut to 4 KiB, behind the two bytes the target reads first
  codec     each call's method (IDL order), header style and argument bytes, deduplicated
  config    the repository's storage-conf.xml files and properties files
  store     one edit of each kind the store target knows

Files are named by the SHA-1 of their content, as libFuzzer names what it adds.
"""

import hashlib
import os
import re
import shutil
import struct
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
METHODS = [m for m in re.findall(r"^\s*(?:oneway\s+)?[\w<>, .]+?\s+(\w+)\s*\(",
                     re.sub(r"(?s).*?service\s+Cassandra\s*\{", "", open(
                         os.path.join(ROOT, "idl", "cassandra.thrift")).read(), count=1),
                     re.M) if m != "throws"]
# The wire target's first byte: 1 MiB messages and frames, nesting depth 15.
WIRE_LIMITS = 0x8E


class Short(Exception):
    pass


def skip(b, p, t, depth=0):
    """Offset after a value of type t at p."""
    if depth > 64:
        raise Short
    fixed = {2: 1, 3: 1, 4: 8, 6: 2, 8: 4, 10: 8}
    if t in fixed:
        p += fixed[t]
    elif t == 11:
        (n,) = struct.unpack_from(">i", b, p)
        p += 4 + n
    elif t == 12:
        while True:
            ft = b[p]
            p += 1
            if ft == 0:
                break
            p = skip(b, p + 2, ft, depth + 1)
    elif t == 13:
        kt, vt, n = b[p], b[p + 1], struct.unpack_from(">i", b, p + 2)[0]
        p += 6
        for _ in range(n):
            p = skip(b, skip(b, p, kt, depth + 1), vt, depth + 1)
    elif t in (14, 15):
        et, n = b[p], struct.unpack_from(">i", b, p + 1)[0]
        p += 5
        for _ in range(n):
            p = skip(b, p, et, depth + 1)
    else:
        raise Short
    if p > len(b):
        raise Short
    return p


def messages(stream):
    """(framed, strict, name, args bytes, bytes consumed) for each whole message."""
    out, p = [], 0
    if len(stream) < 5:
        return out
    framed = stream[4] in (0x00, 0x80) and stream[0] != 0x80
    try:
        while p < len(stream):
            start = p
            if framed:
                (n,) = struct.unpack_from(">i", stream, p)
                p += 4
                end = p + n
                if end > len(stream):
                    break
            (word,) = struct.unpack_from(">i", stream, p)
            if word < 0:
                (n,) = struct.unpack_from(">i", stream, p + 4)
                name = stream[p + 8:p + 8 + n]
                args = p + 8 + n + 4
            else:
                name = stream[p + 4:p + 4 + word]
                args = p + 4 + word + 5
            body_end = skip(stream, args, 12)
            if framed and body_end != end:
                break
            out.append((framed, word < 0, name.decode("latin-1"), stream[args:body_end],
                        body_end - start + 0))
            p = body_end
    except (Short, struct.error, IndexError):
        pass
    return out


def save(target, data, names):
    digest = hashlib.sha1(data).hexdigest()
    if digest not in names:
        names.add(digest)
        with open(os.path.join(CORPUS, target, digest), "wb") as f:
            f.write(data)


def cut(stream, msgs, limit):
    """The stream up to the last message that ends within `limit` bytes (at least one)."""
    end = 0
    for m in msgs:
        if end and end + m[4] > limit:
            break
        end += m[4]
    return stream[:max(end, min(len(stream), limit))] if not msgs else stream[:end]


def main(record_dir):
    for target in ("dispatch", "wire", "codec", "config", "store"):
        shutil.rmtree(os.path.join(CORPUS, target), ignore_errors=True)
        os.makedirs(os.path.join(CORPUS, target))
    streams = []
    for name in sorted(os.listdir(record_dir)):
        with open(os.path.join(record_dir, name), "rb") as f:
            data = f.read()
        if data:
            streams.append(data)

    by_shape, calls = {}, {}
    for stream in streams:
        msgs = messages(stream)
        shape = (len(msgs) and (msgs[0][0], msgs[0][1]), tuple(m[2] for m in msgs)[:12])
        kept = cut(stream, msgs, 16384)
        if shape not in by_shape or len(kept) < len(by_shape[shape]):
            by_shape[shape] = kept
        for framed, strict, name, args, _ in msgs:
            if name in METHODS and len(args) <= 4096:
                style = (0 if strict else 1) | (2 if framed else 0)
                calls.setdefault(name, set()).add(bytes([METHODS.index(name), style]) + args)

    dispatch, wire, codec = set(), set(), set()
    for stream in by_shape.values():
        save("dispatch", stream, dispatch)
        save("wire", bytes([WIRE_LIMITS, 0x31]) + stream[:4096], wire)
    for name, seeds in calls.items():
        for seed in sorted(seeds, key=len)[:40]:
            save("codec", seed, codec)

    configs = set()
    for dirpath, dirnames, files in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in ("target", ".git", "node_modules", "fuzz")]
        for f in files:
            path = os.path.join(dirpath, f)
            with open(path, "rb") as fh:
                text = fh.read()
            if f.endswith(".xml") and b"<Storage" in text:
                save("config", b"\x00" + text, configs)
            elif f.endswith(".properties"):
                save("config", b"\x01" + text, configs)
    conf = os.path.join(ROOT, "tests", "conf")
    for passwd in ("passwd.properties", "passwd-md5.properties"):
        with open(os.path.join(conf, passwd), "rb") as p, \
                open(os.path.join(conf, "access.properties"), "rb") as a:
            save("config", b"\x02" + p.read() + b"\xff" + a.read(), configs)

    # op, entry index, payload length, payload: see src/fuzzing/store.rs.
    store = set()
    save("store", b"", store)
    for op in range(9):
        for index in (0, 1, 7, 40):
            payload = {8: b"12345\n", 4: b"", 5: b""}.get(op, b"\x03\x01\xff\x00\x80")
            length = 2 if op in (4, 5) else len(payload)
            save("store", bytes([op, index, length]) + payload, store)

    total = sum(os.path.getsize(os.path.join(CORPUS, t, f))
                for t in os.listdir(CORPUS) for f in os.listdir(os.path.join(CORPUS, t)))
    print(f"seeds: {len(streams)} connections -> dispatch {len(dispatch)}, wire {len(wire)}, "
          f"codec {len(codec)} ({len(calls)} methods), config {len(configs)}, store {len(store)}; "
          f"{total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
