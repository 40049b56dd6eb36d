"""Reads and writes through the generated Python bindings (docs/api.md#data-model,
#reads, #key-ranges)."""

import struct
import uuid

import pytest
from conftest import ttypes

KS = "Keyspace1"
ONE = ttypes.ConsistencyLevel.ONE


def path(cf, column=None, super_column=None):
    return ttypes.ColumnPath(column_family=cf, column=column, super_column=super_column)


def parent(cf, super_column=None):
    return ttypes.ColumnParent(column_family=cf, super_column=super_column)


def srange(start=b"", finish=b"", reversed=False, count=100):
    return ttypes.SlicePredicate(slice_range=ttypes.SliceRange(start, finish, reversed, count))


def names(*ns):
    return ttypes.SlicePredicate(column_names=list(ns))


def col_names(result):
    return [c.column.name for c in result]


def test_insert_get_remove(client, key):
    client.insert(KS, key, path("Standard1", b"c1"), b"v1", 10, ONE)
    got = client.get(KS, key, path("Standard1", b"c1"), ONE)
    assert (got.column.name, got.column.value, got.column.timestamp) == (b"c1", b"v1", 10)
    client.insert(KS, key, path("Standard1", b"c1"), b"old", 9, ONE)
    assert client.get(KS, key, path("Standard1", b"c1"), ONE).column.value == b"v1"
    client.remove(KS, key, path("Standard1", b"c1"), 11, ONE)
    with pytest.raises(ttypes.NotFoundException):
        client.get(KS, key, path("Standard1", b"c1"), ONE)
    # Hidden by the tombstone at 11, visible above it.
    client.insert(KS, key, path("Standard1", b"c1"), b"again", 11, ONE)
    with pytest.raises(ttypes.NotFoundException):
        client.get(KS, key, path("Standard1", b"c1"), ONE)
    client.insert(KS, key, path("Standard1", b"c1"), b"again", 12, ONE)
    assert client.get(KS, key, path("Standard1", b"c1"), ONE).column.value == b"again"


def test_slices_counts_and_multiget(client, key):
    for n in [b"c3", b"c1", b"c5", b"c2", b"c4"]:
        client.insert(KS, key, path("Standard1", n), n.upper(), 1, ONE)
    assert col_names(client.get_slice(KS, key, parent("Standard1"), srange(), ONE)) == [b"c1", b"c2", b"c3", b"c4", b"c5"]
    assert col_names(client.get_slice(KS, key, parent("Standard1"), srange(b"c4", b"c2", True, 2), ONE)) == [b"c4", b"c3"]
    assert col_names(client.get_slice(KS, key, parent("Standard1"), names(b"c5", b"zz", b"c1"), ONE)) == [b"c1", b"c5"]
    assert client.get_count(KS, key, parent("Standard1"), ONE) == 5
    got = client.multiget_slice(KS, [key, key + "-missing"], parent("Standard1"), srange(count=2), ONE)
    assert col_names(got[key]) == [b"c1", b"c2"] and got[key + "-missing"] == []
    got = client.multiget(KS, [key, key + "-missing"], path("Standard1", b"c3"), ONE)
    assert got[key].column.value == b"C3"
    assert got[key + "-missing"].column is None and got[key + "-missing"].super_column is None


def test_long_and_uuid_comparators(client, key):
    for v in [5, -1, 300, -(2 ** 63)]:
        client.insert(KS, key, path("StdLong", struct.pack(">q", v)), b"", 1, ONE)
    got = client.get_slice(KS, key, parent("StdLong"), srange(), ONE)
    assert [struct.unpack(">q", n)[0] for n in col_names(got)] == [-(2 ** 63), -1, 5, 300]
    early = uuid.uuid1()
    late = uuid.uuid1()  # Python keeps uuid1 timestamps increasing
    client.insert(KS, key, path("StdTime", late.bytes), b"late", 1, ONE)
    client.insert(KS, key, path("StdTime", early.bytes), b"early", 1, ONE)
    got = client.get_slice(KS, key, parent("StdTime"), srange(reversed=True), ONE)
    assert [c.column.value for c in got] == [b"late", b"early"]


def test_super_columns(client, key):
    client.insert(KS, key, path("Super1", b"a", b"sc1"), b"1", 1, ONE)
    client.insert(KS, key, path("Super1", b"b", b"sc1"), b"2", 1, ONE)
    client.insert(KS, key, path("Super1", b"a", b"sc2"), b"3", 1, ONE)
    got = client.get_slice(KS, key, parent("Super1"), srange(), ONE)
    assert [(s.super_column.name, [c.name for c in s.super_column.columns]) for s in got] == [
        (b"sc1", [b"a", b"b"]), (b"sc2", [b"a"])]
    sc = client.get(KS, key, path("Super1", super_column=b"sc1"), ONE).super_column
    assert [c.value for c in sc.columns] == [b"1", b"2"]
    assert client.get_count(KS, key, parent("Super1"), ONE) == 2
    assert client.get_count(KS, key, parent("Super1", b"sc1"), ONE) == 2
    client.remove(KS, key, path("Super1", super_column=b"sc1"), 2, ONE)
    assert client.get_count(KS, key, parent("Super1"), ONE) == 1
    with pytest.raises(ttypes.NotFoundException):
        client.get(KS, key, path("Super1", super_column=b"sc1"), ONE)


def test_batch_insert_and_batch_mutate(client, key):
    col = lambda n, v, ts=1: ttypes.Column(n, v, ts)  # noqa: E731
    cosc = lambda c: ttypes.ColumnOrSuperColumn(column=c)  # noqa: E731
    client.batch_insert(KS, key, {"Standard1": [cosc(col(b"a", b"1")), cosc(col(b"b", b"2"))],
                                  "Super1": [ttypes.ColumnOrSuperColumn(
                                      super_column=ttypes.SuperColumn(b"sc", [col(b"x", b"9")]))]}, ONE)
    assert client.get_count(KS, key, parent("Standard1"), ONE) == 2
    mutations = {key: {"Standard1": [
        ttypes.Mutation(column_or_supercolumn=cosc(col(b"c", b"3", 5))),
        ttypes.Mutation(deletion=ttypes.Deletion(5, predicate=names(b"a"))),
    ], "Super1": [ttypes.Mutation(deletion=ttypes.Deletion(5, super_column=b"sc"))]}}
    client.batch_mutate(KS, mutations, ONE)
    assert col_names(client.get_slice(KS, key, parent("Standard1"), srange(), ONE)) == [b"b", b"c"]
    assert client.get_slice(KS, key, parent("Super1"), srange(), ONE) == []
    # One bad mutation anywhere: nothing of the batch is applied.
    bad = {key: {"Standard1": [ttypes.Mutation(column_or_supercolumn=cosc(col(b"d", b"4", 6)))]},
           key + "x": {"Standard1": [ttypes.Mutation()]}}
    with pytest.raises(ttypes.InvalidRequestException) as e:
        client.batch_mutate(KS, bad, ONE)
    assert e.value.why == "Mutation must have one ColumnOrSuperColumn or one Deletion"
    assert client.get_count(KS, key, parent("Standard1"), ONE) == 2
    # A whole-row delete.
    client.batch_mutate(KS, {key: {"Standard1": [ttypes.Mutation(deletion=ttypes.Deletion(10))]}}, ONE)
    assert client.get_count(KS, key, parent("Standard1"), ONE) == 0


def test_range_slices_in_key_order_with_ghosts(client):
    prefix = "r-" + uuid.uuid4().hex[:6] + "-"
    keys = [prefix + k for k in ["a", "b", "c", "d"]]
    for k in keys:
        client.insert(KS, k, path("Standard2", b"name"), k.encode(), 1, ONE)
    client.remove(KS, keys[1], path("Standard2"), 2, ONE)
    rng = ttypes.KeyRange(start_key=keys[0], end_key=keys[3], count=10)
    rows = client.get_range_slices(KS, parent("Standard2"), srange(), rng, ONE)
    assert [r.key for r in rows] == keys
    assert [len(r.columns) for r in rows] == [1, 0, 1, 1]
    rows = client.get_range_slices(KS, parent("Standard2"), srange(), ttypes.KeyRange(start_key=keys[2], end_key=keys[3], count=1), ONE)
    assert [r.key for r in rows] == [keys[2]]
    old = client.get_range_slice(KS, parent("Standard2"), srange(), keys[1], keys[2], 10, ONE)
    assert [r.key for r in old] == keys[1:3]


def test_durability_across_sigterm_restart():
    import ilion_harness
    from conftest import connect
    with ilion_harness.Server(sync="batch") as server:
        c, t = connect(server, framed=True)
        for i in range(50):
            c.insert(KS, f"d{i}", path("Standard1", b"c"), str(i).encode(), 1, ONE)
        before = c.get_range_slices(KS, parent("Standard1"), srange(), ttypes.KeyRange(start_key="", end_key="", count=1000), ONE)
        t.close()
        assert server.stop() == 0
        server.start()
        c, t = connect(server, framed=False)
        after = c.get_range_slices(KS, parent("Standard1"), srange(), ttypes.KeyRange(start_key="", end_key="", count=1000), ONE)
        t.close()
        assert after == before and len(after) == 50
