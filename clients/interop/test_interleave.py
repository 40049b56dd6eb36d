"""A Ruby client and a Python client take turns on the same rows and must agree.

The Ruby side is ruby_peer.rb, a separate process with its own connection that runs one
command at a time; the Python side is ilion_client. Each step's result is compared as
(name, value, timestamp) bytes, so both must see exactly the same columns. One side uses
the framed transport, the other the buffered one, and then the other way round.
"""

import json
import os
import subprocess
import uuid

import pytest

import ilion_client
from ilion_client import timeuuid

PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ruby_peer.rb")


class PeerError(Exception):
    def __init__(self, kind, why):
        super().__init__(f"{kind}: {why}")
        self.kind, self.why = kind, why


class RubyPeer:
    """Drives ruby_peer.rb: one JSON command out, one JSON answer back."""

    def __init__(self, server, framed):
        args = ["ruby", PEER, server.host, str(server.port)] + (["--framed"] if framed else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def __call__(self, op, **fields):
        self.proc.stdin.write(json.dumps(dict(fields, op=op)) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"the Ruby peer died (status {self.proc.poll()})"
        answer = json.loads(line)
        if "error" in answer:
            raise PeerError(answer["error"], answer["why"])
        return answer["ok"]

    def close(self):
        self.proc.stdin.close()
        assert self.proc.wait(timeout=10) == 0


def h(data):
    return data.hex() if isinstance(data, (bytes, bytearray)) else data.bytes.hex()


def as_json(columns):
    """ilion_client results in the peer's form: hex names and values."""
    out = []
    for c in columns:
        if isinstance(c, ilion_client.SuperColumn):
            out.append({"name": h(c.name), "columns": as_json(c.columns)})
        else:
            out.append({"name": h(c.name), "value": c.value.hex(), "ts": c.timestamp})
    return out


@pytest.fixture(params=[(True, False), (False, True)], ids=["py-framed/rb-buffered", "py-buffered/rb-framed"])
def pair(request, server):
    py_framed, rb_framed = request.param
    conn = ilion_client.connect(server.host, server.port, framed=py_framed)
    ruby = RubyPeer(server, rb_framed)
    yield conn["Keyspace1"], ruby
    ruby.close()
    conn.close()


def test_standard_rows(pair):
    ks, ruby = pair
    cf = ks["Standard1"]
    key = "interleave-" + uuid.uuid4().hex[:8]
    t = ilion_client.timestamp()

    for name, value in ((b"a", b"1"), (b"b", b"2"), (b"c", b"3")):
        cf.insert(key, name, value, timestamp=t)
    assert ruby("slice", cf="Standard1", key=key) == as_json(cf.get_slice(key))

    # Ruby updates one column, adds one and deletes one, all newer than Python's writes.
    ruby("insert", cf="Standard1", key=key, name=h(b"b"), value=h(b"20"), ts=t + 10)
    ruby("insert", cf="Standard1", key=key, name=h(b"d"), value=h(b"4"), ts=t + 10)
    ruby("remove", cf="Standard1", key=key, name=h(b"a"), ts=t + 10)
    assert cf.get(key, b"b").value == b"20"
    assert [(c.name, c.value) for c in cf.get_slice(key)] == [(b"b", b"20"), (b"c", b"3"), (b"d", b"4")]
    assert ruby("slice", cf="Standard1", key=key) == as_json(cf.get_slice(key))
    assert ruby("slice", cf="Standard1", key=key, reversed=True, count=2) == as_json(cf.get_slice(key, reversed=True, count=2))

    # An older write from Ruby loses to Python's newer one, for both readers.
    ruby("insert", cf="Standard1", key=key, name=h(b"c"), value=h(b"stale"), ts=t - 5)
    assert cf.get(key, b"c").value == b"3"
    assert ruby("get", cf="Standard1", key=key, name=h(b"c"))["value"] == h(b"3")

    # Python deletes the row; Ruby sees nothing left.
    cf.remove(key, timestamp=t + 20)
    assert ruby("count", cf="Standard1", key=key) == 0
    with pytest.raises(PeerError) as e:
        ruby("get", cf="Standard1", key=key, name=h(b"b"))
    assert e.value.kind == "NotFoundException"


def test_timeuuid_names_from_both_sides_sort_by_time(pair):
    ks, ruby = pair
    cf = ks["StandardByUUID1"]
    key = "interleave-uuid-" + uuid.uuid4().hex[:8]
    made = []
    for turn in range(3):  # Python, Ruby, Python, Ruby, ...: each name newer than the last
        mine = timeuuid.new()
        cf.insert(key, mine, f"python {turn}")
        theirs = uuid.UUID(ruby("timeuuid"))
        assert theirs.version == 1 and theirs.time >= mine.time
        ruby("insert", cf="StandardByUUID1", key=key, name=theirs.hex, value=h(f"ruby {turn}".encode()),
             ts=ilion_client.timestamp())
        made += [mine, theirs]
    got = cf.get_slice(key)
    assert [c.name for c in got] == made
    assert [c.text for c in got] == ["python 0", "ruby 0", "python 1", "ruby 1", "python 2", "ruby 2"]
    assert ruby("slice", cf="StandardByUUID1", key=key, reversed=True) == as_json(cf.get_slice(key, reversed=True))

    # A time window, computed in Python, selects the same columns for both.
    start, finish = timeuuid.time_range(made[1], made[3])
    window = cf.get_slice(key, start=start, finish=finish)
    assert [c.name for c in window] == made[1:4]
    assert ruby("slice", cf="StandardByUUID1", key=key, start=start.hex, finish=finish.hex) == as_json(window)


def test_super_columns(pair):
    ks, ruby = pair
    cf = ks["Super1"]
    key = "interleave-super-" + uuid.uuid4().hex[:8]
    t = ilion_client.timestamp()
    ruby("batch", mutations=[
        {"cf": "Super1", "key": key, "super_column": h(b"sc1"), "name": h(b"y"), "value": h(b"Y"), "ts": t},
        {"cf": "Super1", "key": key, "super_column": h(b"sc1"), "name": h(b"x"), "value": h(b"X"), "ts": t},
        {"cf": "Super1", "key": key, "super_column": h(b"sc2"), "name": h(b"z"), "value": h(b"Z"), "ts": t},
    ])
    sc1 = cf.get(key, super_column=b"sc1")
    assert sc1.as_dict() == {b"x": b"X", b"y": b"Y"}
    cf.insert(key, b"w", b"W", super_column=b"sc1")
    assert ruby("slice", cf="Super1", key=key, super_column=h(b"sc1")) == as_json(cf.get_slice(key, super_column=b"sc1"))
    assert [c["name"] for c in ruby("slice", cf="Super1", key=key, super_column=h(b"sc1"))] == [h(b"w"), h(b"x"), h(b"y")]
    assert ruby("count", cf="Super1", key=key) == 2
    cf.remove(key, super_column=b"sc2")
    assert ruby("slice", cf="Super1", key=key) == as_json(cf.get_slice(key))
    assert [s["name"] for s in ruby("slice", cf="Super1", key=key)] == [h(b"sc1")]
    ruby("remove", cf="Super1", key=key, super_column=h(b"sc1"), name=h(b"x"), ts=ilion_client.timestamp())
    assert cf.get_dict(key, super_column=b"sc1") == {b"w": b"W", b"y": b"Y"}
