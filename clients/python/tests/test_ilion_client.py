"""ilion_client against a real server.

This module runs its own server with the test keyspaces of tests/conf (every comparator:
StdAscii, StdLong, StdLexical, SuperLong with LongType subcolumns, ...) under
RandomPartitioner, so names of every kind and MD5-ordered range paging are exercised. It runs
once per API (conftest.API): the handles behave the same; the server's texts differ.
"""

import datetime as dt
import hashlib
import os
import socket
import struct
import sys
import uuid

import pytest

import ilion_client
from conftest import API, port_of
from ilion_client import timeuuid

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "python"))
import ilion_harness  # noqa: E402

KS = "Keyspace1"
LATER = API == "later"


def connect(server, **options):
    return ilion_client.connect(server.host, port_of(server), api=API, **options)


@pytest.fixture(scope="module")
def server():
    with ilion_harness.Server(partitioner="RandomPartitioner") as s:
        yield s


@pytest.fixture
def ks(conn):
    return conn[KS]


@pytest.fixture
def key():
    return "row-" + uuid.uuid4().hex[:10]


def rp_token(key):
    """RandomPartitioner's token: |MD5 as a signed big-endian integer|
    (docs/api.md#random-partitioner)."""
    return abs(int.from_bytes(hashlib.md5(key.encode()).digest(), "big", signed=True))


def java_uuid_order(u):
    """LexicalUUIDType order: each 8-byte half as a signed integer."""
    hi, lo = struct.unpack(">qq", u.bytes)
    return hi, lo


def test_describe(conn, ks):
    assert conn.describe_version() == ("20.1.0" if LATER else "2.2.0")
    assert conn.describe_cluster_name() == "Test Cluster"
    assert {KS, "system"} <= conn.describe_keyspaces()
    assert conn.describe_partitioner() == "org.apache.cassandra.dht.RandomPartitioner"
    assert ks["StdLong"].names.kind == "LongType"
    assert ks["SuperLong"].is_super and ks["SuperLong"].subnames.kind == "LongType"
    assert repr(ks["SuperTimeBytes"]) == "<ColumnFamily Keyspace1.SuperTimeBytes (Super TimeUUIDType/BytesType)>"
    with pytest.raises(ilion_client.NotFound):
        conn.keyspace("NoSuchKeyspace")


CASES = {
    "Standard1": ([b"\xff", b"b", b"a", b"ab", b"\x00"], sorted),
    "Standard2": (["zebra", "Äpfel", "apple", "a", "日本"], lambda ns: sorted(ns, key=lambda s: s.encode())),
    "StdAscii": (["b", "A", "a", "ab"], sorted),
    "StdLong": ([5, -1, 2 ** 63 - 1, -(2 ** 63), 0, 300], sorted),
    "StdLexical": ([uuid.UUID(int=(1 << 127) + 5), uuid.uuid4(), uuid.UUID(int=3), uuid.uuid4()],
                        lambda ns: sorted(ns, key=java_uuid_order)),
    "StdTime": ([timeuuid.from_time(t) for t in (1_300_000_000, 5, 1_600_000_000.5, 1_000_000_000)],
                        lambda ns: sorted(ns, key=lambda u: u.time)),
}


@pytest.mark.parametrize("cf_name", sorted(CASES))
def test_names_come_back_as_python_values_in_comparator_order(ks, key, cf_name):
    names, order = CASES[cf_name]
    cf = ks[cf_name]
    for n in names:
        cf.insert(key, n, f"value of {n}")
    got = cf.get_slice(key)
    assert [c.name for c in got] == order(names)
    assert all(type(c.name) is type(names[0]) for c in got)
    assert [c.name for c in cf.get_slice(key, reversed=True, count=2)] == order(names)[::-1][:2]
    assert cf.get(key, names[1]).text == f"value of {names[1]}"
    assert cf.get_count(key) == len(names)


def test_slice_bounds_are_converted_too(ks, key):
    cf = ks["StdLong"]
    for n in range(-5, 6):
        cf.insert(key, n, b"")
    assert [c.name for c in cf.get_slice(key, start=-2, finish=2)] == [-2, -1, 0, 1, 2]
    assert [c.name for c in cf.get_slice(key, start=3, finish=-1, reversed=True)] == [3, 2, 1, 0, -1]
    assert [c.name for c in cf.get_slice(key, names=[4, 99, -4])] == [-4, 4]


def test_wrong_kind_of_name_is_a_type_error(ks, key):
    with pytest.raises(TypeError, match="LongType name must be int"):
        ks["StdLong"].insert(key, "five", b"")
    with pytest.raises(TypeError, match="TimeUUIDType name must be uuid.UUID"):
        ks["StdTime"].get_slice(key, start="yesterday")


def test_server_messages_reach_the_caller(ks, key):
    with pytest.raises(ilion_client.InvalidRequest) as e:
        ks["Nope"].get_slice(key)
    assert e.value.why == ("unconfigured table Nope" if LATER else "unconfigured columnfamily Nope")
    with pytest.raises(ilion_client.InvalidRequest, match=r"^Invalid version for TimeUUID type\.$"):
        ks["StdTime"].insert(key, uuid.uuid4(), b"not a time uuid")
    long_text = r"^Expected 8 or 0 byte long \(2\)$" if LATER else r"^A long is exactly 8 bytes$"
    with pytest.raises(ilion_client.InvalidRequest, match=long_text):
        ks["StdLong"].insert(key, b"\x01\x02", b"raw bytes pass through to the server")
    with pytest.raises(ilion_client.InvalidRequest, match="^Key may not be empty$"):
        ks["Standard1"].insert("", b"c", b"v")


def test_get_missing_is_not_found_and_a_key_error(ks, key):
    with pytest.raises(KeyError):
        ks["Standard2"].get(key, "nothing")
    with pytest.raises(ilion_client.NotFound, match="Standard2.*nothing"):
        ks["Standard2"].get(key, "nothing")


def test_super_columns(ks, key):
    cf = ks["SuperLong"]  # UTF8Type super columns holding LongType subcolumns
    cf.insert(key, 2, b"two", super_column="numbers")
    cf.insert(key, -7, b"minus seven", super_column="numbers")
    cf.insert(key, 1, b"one", super_column="alpha")
    sc = cf.get(key, super_column="numbers")
    assert isinstance(sc, ilion_client.SuperColumn)
    assert sc.name == "numbers" and [c.name for c in sc.columns] == [-7, 2]
    assert cf.get(key, 2, super_column="numbers").value == b"two"
    assert [s.name for s in cf.get_slice(key)] == ["alpha", "numbers"]
    assert cf.get_dict(key) == {"alpha": {1: b"one"}, "numbers": {-7: b"minus seven", 2: b"two"}}
    assert cf.get_dict(key, super_column="numbers") == {-7: b"minus seven", 2: b"two"}
    assert cf.get_count(key) == 2 and cf.get_count(key, super_column="numbers") == 2
    cf.remove(key, -7, super_column="numbers")
    assert cf.get_dict(key, super_column="numbers") == {2: b"two"}
    cf.remove(key, super_column="alpha")
    assert [s.name for s in cf.get_slice(key)] == ["numbers"]
    cf.remove(key)
    assert cf.get_slice(key) == []


def test_multiget_slice(ks, key):
    cf = ks["Standard2"]
    cf.insert(key + "a", "x", b"1")
    cf.insert(key + "b", "y", b"2")
    got = cf.multiget_slice([key + "a", key + "b", key + "none"])
    assert {k: [c.name for c in v] for k, v in got.items()} == {
        key + "a": ["x"], key + "b": ["y"], key + "none": []}


class CountingThrift:
    """Stands in for the generated client, counting the calls made through it."""

    def __init__(self, real):
        self.real, self.calls = real, []

    def __getattr__(self, name):
        self.calls.append(name)
        return getattr(self.real, name)


def test_batch_is_one_batch_mutate(conn, ks, key):
    ks["Standard2"].insert(key, "old", b"to be removed")
    counting = conn.thrift = CountingThrift(conn.thrift)
    with ks.batch() as b:
        b.insert("Standard2", key, "title", "Hello")
        b.insert(ks["Standard2"], key, "body", "World")
        b.remove("Standard2", key, "old")
        b.insert("SuperTimeBytes", key, "commenter", "Ann", super_column=timeuuid.from_time(10, 1, 1))
        b.insert("SuperTimeBytes", key, "email", "ann@example.com", super_column=timeuuid.from_time(10, 1, 1))
        b.insert("SuperTimeBytes", key, "commenter", "Bob", super_column=timeuuid.from_time(20))
        b.insert("SuperTimeBytes", key, "commenter", "Cy", super_column=timeuuid.from_time(10, 2, 2))
        # Three Standard2 mutations; subcolumns of one super column share one mutation.
        assert len(b) == 6
    assert counting.calls == ["batch_mutate"]
    conn.thrift = counting.real
    assert ks["Standard2"].get_dict(key) == {"body": b"World", "title": b"Hello"}
    comments = ks["SuperTimeBytes"].get_slice(key)
    assert [sc.as_dict() for sc in comments] == [
        {b"commenter": b"Ann", b"email": b"ann@example.com"}, {b"commenter": b"Cy"}, {b"commenter": b"Bob"}]
    assert [timeuuid.to_unix(sc.name) for sc in comments] == [10, 10, 20]


def test_batch_groups_subcolumns_and_sends_nothing_on_error(conn, ks, key):
    counting = conn.thrift = CountingThrift(conn.thrift)
    with pytest.raises(RuntimeError):
        with ks.batch() as b:
            b.insert("SuperLong", key, 1, b"a", super_column="sc")
            b.insert("SuperLong", key, 2, b"b", super_column="sc")
            assert len(b) == 1  # one SuperColumn mutation carrying both subcolumns
            raise RuntimeError("changed my mind")
    assert counting.calls == []
    conn.thrift = counting.real
    assert ks["SuperLong"].get_slice(key) == []


def test_batch_row_delete_and_error_message(ks, key):
    ks["Standard1"].insert(key, b"a", b"1")
    with ks.batch() as b:
        b.remove("Standard1", key)
    assert ks["Standard1"].get_count(key) == 0
    text = "^unconfigured table Nope$" if LATER else "^unconfigured columnfamily Nope$"
    with pytest.raises(ilion_client.InvalidRequest, match=text):
        with ks.batch() as b:
            b.insert("Nope", key, b"a", b"1")


def test_remove_then_insert_again_wins(ks, key):
    cf = ks["Standard2"]
    for _ in range(20):  # timestamps strictly increase, so no write ties with the delete
        cf.insert(key, "flip", b"on")
        cf.remove(key, "flip")
        cf.insert(key, "flip", b"back")
        assert cf.get(key, "flip").value == b"back"


def test_get_range_pages_through_every_row_once_in_token_order(ks):
    prefix = "range-" + uuid.uuid4().hex[:6]
    keys = [f"{prefix}-{i}" for i in range(23)]
    cf = ks["Super1"]
    for k in keys:
        cf.insert(k, b"c", k, super_column=b"sc")

    def ours(rows):  # the other transport's run of this test writes rows here too
        return [k for k, _ in rows if k.startswith(prefix)]

    rows = list(cf.get_range(page_size=4))
    all_keys = [k for k, _ in rows]
    assert len(all_keys) == len(set(all_keys)), "a row came back twice"
    assert all_keys == sorted(all_keys, key=rp_token)
    assert ours(rows) == sorted(keys, key=rp_token)
    assert all(cols[0].columns[0].text == k for k, cols in rows if k.startswith(prefix))
    # A start key is inclusive and keeps token order; an end key bounds the walk.
    by_token = sorted(keys, key=rp_token)
    assert ours(cf.get_range(start=by_token[5], page_size=3)) == by_token[5:]
    assert ours(cf.get_range(start=by_token[2], finish=by_token[9], page_size=2)) == by_token[2:10]
    # Per-row slicing inside a super column.
    rows = list(cf.get_range(page_size=50, super_column=b"sc", names=[b"c"]))
    assert len(ours(rows)) == 23 and all(cols[0].name == b"c" for _, cols in rows)
    with pytest.raises(ValueError):
        next(cf.get_range(page_size=1))


def test_get_range_skips_deleted_rows_unless_asked(ks):
    cf = ks["Standard2"]
    keys = ["gone-" + uuid.uuid4().hex[:6], "kept-" + uuid.uuid4().hex[:6]]
    for k in keys:
        cf.insert(k, "c", b"v")
    cf.remove(keys[0])
    seen = {k for k, _ in cf.get_range(page_size=7)}
    assert keys[1] in seen and keys[0] not in seen
    ghosts = {k: cols for k, cols in cf.get_range(page_size=7, include_empty=True)}
    assert ghosts[keys[0]] == []  # a range ghost (docs/api.md#range-ghosts)


def test_timeuuid_helpers_select_by_time(ks, key):
    cf = ks["StdTime"]
    base = dt.datetime(2010, 3, 1, 12, 0, tzinfo=dt.timezone.utc)
    times = [base + dt.timedelta(hours=h) for h in range(10)]
    for t in reversed(times):
        cf.insert(key, timeuuid.from_time(t), t.isoformat())
    start, finish = timeuuid.time_range(times[3], times[6])
    got = cf.get_slice(key, start=start, finish=finish)
    assert [timeuuid.to_datetime(c.name) for c in got] == times[3:7]
    newest_first = cf.get_slice(key, start=timeuuid.max_for(times[5]), reversed=True, count=3)
    assert [c.text for c in newest_first] == [t.isoformat() for t in (times[5], times[4], times[3])]
    # Just before an instant: everything strictly older.
    older = cf.get_slice(key, start=timeuuid.max_for(times[5] - dt.timedelta(microseconds=1)), reversed=True)
    assert len(older) == 5


def test_timeuuid_values():
    u = timeuuid.from_time(1_250_558_004)
    assert u.version == 1 and timeuuid.to_unix(u) == 1_250_558_004
    assert timeuuid.to_datetime(u) == dt.datetime(2009, 8, 18, 1, 13, 24, tzinfo=dt.timezone.utc)
    lo, hi = timeuuid.min_for(1_250_558_004), timeuuid.max_for(1_250_558_004)
    assert lo.time == hi.time == u.time and lo.bytes < u.bytes < hi.bytes
    assert timeuuid.to_unix(lo) == 1_250_558_004
    # A TimeUUID bounds at its exact 100 ns tick, finer than a datetime can say.
    fine = timeuuid.new()
    assert timeuuid.min_for(fine).time == timeuuid.max_for(fine).time == fine.time
    a, b = timeuuid.new(), timeuuid.new()
    assert a.time < b.time
    assert timeuuid.from_time(5, clock_seq=1, node=2) == timeuuid.from_time(5, clock_seq=1, node=2)
    with pytest.raises(ValueError):
        timeuuid.to_unix(uuid.uuid4())


def test_connection_failure_is_clear():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound but not listening: the connection is refused
        with pytest.raises(ilion_client.ConnectionFailed, match=f"cannot connect to 127.0.0.1:{port}"):
            ilion_client.connect("127.0.0.1", port, api=API)


PASSWD = "jsmith=havebadpass\n"
ACCESS = "Keyspace1=jsmith\n"


@pytest.fixture(scope="module")
def secured():
    with ilion_harness.Server(authenticator="org.apache.cassandra.auth.SimpleAuthenticator",
                              extra_files={"passwd.properties": PASSWD,
                                           "access.properties": ACCESS}) as s:
        yield s


def test_login(secured, framed):
    with connect(secured, framed=framed) as c:
        text = ("^You have not logged in$" if LATER
                else "^Login is required before any other API calls$")
        with pytest.raises(ilion_client.InvalidRequest, match=text):
            c[KS]["Standard1"].get_slice("k")
    with connect(secured, framed=framed, login=("jsmith", "havebadpass")) as c:
        c[KS]["Standard1"].insert("k", b"c", b"v")
        assert c[KS]["Standard1"].get("k", b"c").value == b"v"
    with connect(secured, login={"username": "jsmith", "password": "nope"}) as c:
        with pytest.raises(ilion_client.AuthenticationFailed) as e:
            c.keyspace(KS)
        assert e.value.why == "Given password in password mode PLAIN could not be validated for user jsmith"


@pytest.mark.skipif(not LATER, reason="TTLs and binary keys are the later API's")
def test_ttls_and_binary_keys(ks, key):
    cf = ks["Standard1"]
    binary = key.encode() + b"\xff"
    cf.insert(binary, b"c", b"v", ttl=3600)
    assert cf.get(binary, b"c").ttl == 3600
    with ks.batch() as b:
        b.insert("Standard1", binary, b"d", b"w", ttl=60)
        b.insert("Standard1", binary, b"e", b"x")
    assert [(c.name, c.ttl) for c in cf.get_slice(binary)] == [(b"c", 3600), (b"d", 60), (b"e", None)]
    assert cf.multiget_slice([binary, key])[key] == []
    rows = dict(cf.get_range(start=binary, finish=binary, page_size=5))
    assert list(rows) == [binary], "a key that is not UTF-8 comes back as bytes"


@pytest.mark.skipif(LATER, reason="the 0.6 API has no TTLs")
def test_a_ttl_needs_the_later_api(ks, key):
    with pytest.raises(ValueError, match="api='later'"):
        ks["Standard1"].insert(key, b"c", b"v", ttl=5)
