"""Counter column families through the later API (docs/api-later.md#counters, spec §6.9):
made with system_add_column_family, incremented with add and batch_mutate, read back as
counter_column / counter_super_column, deleted for good with remove_counter and Deletions,
and every refusal text — the kind refusals both ways, the counter consistency levels, atomic
batches, and the schema checks of §5.3 and G19."""

import uuid

import pytest

import ilion_harness
from conftest import connect, ttypes

CL = ttypes.ConsistencyLevel
ONE = CL.ONE
MARSHAL = "org.apache.cassandra.db.marshal."


@pytest.fixture
def client(server):
    c, transport = connect(server.later)
    yield c
    transport.close()


@pytest.fixture
def ks(client):
    """A fresh keyspace with a Standard counter CF `Counters`, a Super one `SuperCounters`
    and a plain CF `Plain`, dropped at the end."""
    name = "C" + uuid.uuid4().hex[:12]
    client.system_add_keyspace(ttypes.KsDef(
        name=name, strategy_class="SimpleStrategy",
        strategy_options={"replication_factor": "1"}, cf_defs=[]))
    client.set_keyspace(name)
    client.system_add_column_family(ttypes.CfDef(
        keyspace=name, name="Counters", default_validation_class="CounterColumnType"))
    client.system_add_column_family(ttypes.CfDef(
        keyspace=name, name="SuperCounters", column_type="Super",
        default_validation_class="CounterColumnType"))
    client.system_add_column_family(ttypes.CfDef(keyspace=name, name="Plain"))
    client.ks_name = name
    yield client
    client.system_drop_keyspace(name)


def parent(cf, sc=None):
    return ttypes.ColumnParent(column_family=cf, super_column=sc)


def path(cf, sc=None, column=None):
    return ttypes.ColumnPath(column_family=cf, super_column=sc, column=column)


def srange(count=100):
    return ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, count))


def cc(name, value):
    return ttypes.CounterColumn(name=name, value=value)


def why(call):
    with pytest.raises(ttypes.InvalidRequestException) as e:
        call()
    return e.value.why


def value(client, key, name, cf="Counters"):
    return client.get(key, path(cf, column=name), ONE).counter_column.value


def incr_batch(key, cf, *coscs):
    return {key: {cf: [ttypes.Mutation(column_or_supercolumn=c) for c in coscs]}}


def test_describe_reports_a_counter_family(ks):
    cfs = {cf.name: cf for cf in ks.describe_keyspace(ks.ks_name).cf_defs}
    assert cfs["Counters"].default_validation_class == MARSHAL + "CounterColumnType"
    assert cfs["SuperCounters"].column_type == "Super"
    assert ks.ks_name in [k.name for k in ks.describe_keyspaces()]


def test_incr_decr_standard_batch_add(ks):
    # dtest: two increments of one counter in one batch add up.
    cosc = lambda v: ttypes.ColumnOrSuperColumn(counter_column=cc(b"c1", v))  # noqa: E731
    ks.batch_mutate(incr_batch(b"key1", "Counters", cosc(12), cosc(-21)), ONE)
    assert value(ks, b"key1", b"c1") == -9


def test_add_get_remove_and_readd(ks):
    ks.add(b"k", parent("Counters"), cc(b"c", 5), ONE)
    ks.add(b"k", parent("Counters"), cc(b"c", 0), ONE)
    ks.add(b"k", parent("Counters"), cc(b"d", -2), ONE)
    got = ks.get(b"k", path("Counters", column=b"c"), ONE)
    assert got.counter_column == cc(b"c", 5)
    assert got.column is None and got.counter_super_column is None
    ks.add(b"k", parent("Counters"), cc(b"big", 2**63 - 1), ONE)
    ks.add(b"k", parent("Counters"), cc(b"big", 1), ONE)
    assert value(ks, b"k", b"big") == -2**63, "wraps at 64 bits"
    row = ks.get_slice(b"k", parent("Counters"), srange(), ONE)
    assert [c.counter_column for c in row] == [cc(b"big", -2**63), cc(b"c", 5), cc(b"d", -2)]
    assert ks.get_count(b"k", parent("Counters"), srange(), ONE) == 3
    assert ks.get_count(b"k", parent("Counters"), srange(2), ONE) == 2

    ks.remove_counter(b"k", path("Counters", column=b"c"), ONE)
    with pytest.raises(ttypes.NotFoundException):
        ks.get(b"k", path("Counters", column=b"c"), ONE)
    # Deletion is final: a later increment stays invisible (G12).
    ks.add(b"k", parent("Counters"), cc(b"c", 7), ONE)
    with pytest.raises(ttypes.NotFoundException):
        ks.get(b"k", path("Counters", column=b"c"), ONE)
    assert value(ks, b"k", b"d") == -2
    # A whole-row delete hides every counter of the row, and later increments too.
    ks.remove_counter(b"k", path("Counters"), ONE)
    ks.add(b"k", parent("Counters"), cc(b"d", 1), ONE)
    assert ks.get_slice(b"k", parent("Counters"), srange(), ONE) == []


def test_super_counters(ks):
    ks.add(b"s", parent("SuperCounters", b"sc1"), cc(b"a", 1), ONE)
    sc = ttypes.CounterSuperColumn(name=b"sc1", columns=[cc(b"a", 2), cc(b"b", 3)])
    ks.batch_mutate(incr_batch(b"s", "SuperCounters",
                               ttypes.ColumnOrSuperColumn(counter_super_column=sc)), ONE)
    got = ks.get(b"s", path("SuperCounters", sc=b"sc1"), ONE).counter_super_column
    assert got == ttypes.CounterSuperColumn(name=b"sc1", columns=[cc(b"a", 3), cc(b"b", 3)])
    got = ks.get(b"s", path("SuperCounters", sc=b"sc1", column=b"b"), ONE)
    assert got.counter_column == cc(b"b", 3)
    assert ks.get_count(b"s", parent("SuperCounters"), srange(), ONE) == 1
    ks.remove_counter(b"s", path("SuperCounters", sc=b"sc1", column=b"a"), ONE)
    row = ks.get_slice(b"s", parent("SuperCounters", b"sc1"), srange(), ONE)
    assert [c.counter_column for c in row] == [cc(b"b", 3)]
    ks.remove_counter(b"s", path("SuperCounters", sc=b"sc1"), ONE)
    ks.add(b"s", parent("SuperCounters", b"sc1"), cc(b"b", 1), ONE)
    assert ks.get_slice(b"s", parent("SuperCounters"), srange(), ONE) == []


def test_deletions_in_a_batch_take_no_timestamp(ks):
    ks.add(b"d", parent("Counters"), cc(b"a", 1), ONE)
    ks.add(b"d", parent("Counters"), cc(b"b", 2), ONE)
    ks.add(b"d", parent("Counters"), cc(b"c", 3), ONE)
    deletion = ttypes.Deletion(predicate=ttypes.SlicePredicate(column_names=[b"a"]))
    by_range = ttypes.Deletion(timestamp=-5, predicate=ttypes.SlicePredicate(
        slice_range=ttypes.SliceRange(b"b", b"b", False, 1)))
    ks.batch_mutate({b"d": {"Counters": [ttypes.Mutation(deletion=deletion),
                                         ttypes.Mutation(deletion=by_range)]}}, ONE)
    row = ks.get_slice(b"d", parent("Counters"), srange(), ONE)
    assert [c.counter_column for c in row] == [cc(b"c", 3)]
    ks.add(b"d", parent("Counters"), cc(b"b", 10), ONE)
    row = ks.get_slice(b"d", parent("Counters"), srange(), ONE)
    assert [c.counter_column for c in row] == [cc(b"c", 3)], "a range delete is final too"


def test_multiget_and_range_reads_return_counters(ks):
    for key, v in [(b"r1", 1), (b"r2", 2), (b"r3", 3)]:
        ks.add(key, parent("Counters"), cc(b"n", v), ONE)
    got = ks.multiget_slice([b"r1", b"r3", b"none"], parent("Counters"), srange(), ONE)
    assert {k: [c.counter_column for c in v] for k, v in got.items()} == {
        b"r1": [cc(b"n", 1)], b"r3": [cc(b"n", 3)], b"none": []}
    assert ks.multiget_count([b"r1", b"none"], parent("Counters"), srange(), ONE) == {
        b"r1": 1, b"none": 0}
    rows = ks.get_range_slices(parent("Counters"), srange(),
                               ttypes.KeyRange(start_key=b"", end_key=b"", count=100), ONE)
    found = {r.key: [c.counter_column.value for c in r.columns] for r in rows}
    assert found == {b"r1": [1], b"r2": [2], b"r3": [3]}
    paged = ks.get_paged_slice("Counters", ttypes.KeyRange(start_key=b"", end_key=b"", count=2),
                               b"", ONE)
    assert sum(len(r.columns) for r in paged) == 2
    assert all(c.counter_column is not None for r in paged for c in r.columns)
    multi = ks.get_multi_slice(ttypes.MultiSliceRequest(
        key=b"r2", column_parent=parent("Counters"),
        column_slices=[ttypes.ColumnSlice(b"a", b"z")]))
    assert [c.counter_column for c in multi] == [cc(b"n", 2)]
    expr = ttypes.IndexExpression(b"n", ttypes.IndexOperator.EQ, b"\0" * 8)
    assert why(lambda: ks.get_range_slices(
        parent("Counters"), srange(),
        ttypes.KeyRange(start_key=b"", end_key=b"", count=10, row_filter=[expr]), ONE)) == \
        "row filters on counter column families are not supported by ilion"


def test_truncate_empties_a_counter_family(ks):
    ks.add(b"t", parent("Counters"), cc(b"a", 4), ONE)
    ks.remove_counter(b"u", path("Counters"), ONE)
    ks.truncate("Counters")
    assert ks.get_slice(b"t", parent("Counters"), srange(), ONE) == []
    ks.add(b"u", parent("Counters"), cc(b"a", 1), ONE)
    assert value(ks, b"u", b"a") == 1, "truncate removes the tombstone too"


def test_kind_refusals(ks):
    commutative = "invalid operation for commutative table Counters"
    plain = "invalid operation for non commutative table Plain"
    column = ttypes.Column(name=b"a", value=b"v", timestamp=1)
    assert why(lambda: ks.insert(b"k", parent("Counters"), column, ONE)) == commutative
    assert why(lambda: ks.remove(b"k", path("Counters", column=b"a"), 1, ONE)) == commutative
    assert why(lambda: ks.cas(b"k", "Counters", [], [column], CL.SERIAL, CL.QUORUM)) == \
        commutative
    clause = ttypes.IndexClause([], b"", 10)
    assert why(lambda: ks.get_indexed_slices(parent("Counters"), clause, srange(), ONE)) == \
        commutative
    batch = incr_batch(b"k", "Counters", ttypes.ColumnOrSuperColumn(column=column))
    assert why(lambda: ks.batch_mutate(batch, ONE)) == commutative
    sc = ttypes.SuperColumn(name=b"s", columns=[column])
    batch = incr_batch(b"k", "SuperCounters", ttypes.ColumnOrSuperColumn(super_column=sc))
    assert why(lambda: ks.batch_mutate(batch, ONE)) == \
        "invalid operation for commutative table SuperCounters"

    assert why(lambda: ks.add(b"k", parent("Plain"), cc(b"a", 1), ONE)) == plain
    assert why(lambda: ks.remove_counter(b"k", path("Plain", column=b"a"), ONE)) == plain
    batch = incr_batch(b"k", "Plain", ttypes.ColumnOrSuperColumn(counter_column=cc(b"a", 1)))
    assert why(lambda: ks.batch_mutate(batch, ONE)) == plain
    # A plain CF's Deletion still needs its timestamp; a counter CF's does not.
    deletion = ttypes.Mutation(deletion=ttypes.Deletion())
    assert why(lambda: ks.batch_mutate({b"k": {"Plain": [deletion]}}, ONE)) == \
        "Deletion timestamp is not optional for non commutative table Plain"
    ks.batch_mutate({b"k": {"Counters": [deletion]}}, ONE)


def test_add_checks_in_order(ks):
    assert why(lambda: ks.add(b"", parent("Counters"), cc(b"a", 1), CL.ANY)) == \
        "Key may not be empty"
    assert why(lambda: ks.add(b"k", parent("Counters"), cc(b"a", 1), CL.ANY)) == \
        "Consistency level ANY is not yet supported for counter table Counters"
    for level in (CL.SERIAL, CL.LOCAL_SERIAL):
        assert why(lambda: ks.add(b"k", parent("Counters"), cc(b"a", 1), level)) == \
            "Counter operations are inherently non-serializable"
        assert why(lambda: ks.remove_counter(b"k", path("Counters", column=b"a"), level)) == \
            "Counter operations are inherently non-serializable"
    assert why(lambda: ks.remove_counter(b"k", path("Counters", column=b"a"), CL.ANY)) == \
        "Consistency level ANY is not yet supported for counter table Counters"
    assert why(lambda: ks.add(b"k", parent("SuperCounters"), cc(b"a", 1), ONE)) == \
        "missing mandatory super column name for super CF SuperCounters"
    assert why(lambda: ks.add(b"k", parent("Counters"), cc(b"", 1), ONE)) == \
        "column name must not be empty"
    with pytest.raises(ttypes.UnavailableException):
        ks.add(b"k", parent("Counters"), cc(b"a", 1), CL.TWO)
    # Batches: the counter levels per counter CF, before its mutations.
    batch = incr_batch(b"k", "Counters", ttypes.ColumnOrSuperColumn(counter_column=cc(b"", 1)))
    assert why(lambda: ks.batch_mutate(batch, CL.ANY)) == \
        "Consistency level ANY is not yet supported for counter table Counters"
    assert why(lambda: ks.batch_mutate(batch, CL.SERIAL)) == \
        "Counter operations are inherently non-serializable"


def test_atomic_batches_refuse_counters(ks):
    batch = incr_batch(b"k", "Counters", ttypes.ColumnOrSuperColumn(counter_column=cc(b"a", 1)))
    assert why(lambda: ks.atomic_batch_mutate(batch, ONE)) == \
        "Counter mutations are not allowed in atomic batches"
    # Checked after the row's CFs are validated: a bad mutation's text comes first.
    bad = incr_batch(b"k", "Counters", ttypes.ColumnOrSuperColumn(counter_column=cc(b"", 1)))
    assert why(lambda: ks.atomic_batch_mutate(bad, ONE)) == "column name must not be empty"
    with pytest.raises(ttypes.NotFoundException):
        ks.get(b"k", path("Counters", column=b"a"), ONE)


def test_schema_checks(ks):
    ks_name = ks.ks_name
    meta = lambda v: [ttypes.ColumnDef(name=b"c1", validation_class=v)]  # noqa: E731
    assert why(lambda: ks.system_add_column_family(ttypes.CfDef(
        keyspace=ks_name, name="Bad", default_validation_class="CounterColumnType",
        column_metadata=meta("BytesType")))) == \
        "Cannot add a non counter column (6331) in a counter column family"
    assert why(lambda: ks.system_add_column_family(ttypes.CfDef(
        keyspace=ks_name, name="Bad", column_metadata=meta("CounterColumnType")))) == \
        "Cannot add a counter column (6331) in a non counter column family"
    assert why(lambda: ks.system_add_column_family(ttypes.CfDef(
        keyspace=ks_name, name="Bad", comparator_type="CounterColumnType"))) == \
        "CounterColumnType is not a valid comparator"
    assert why(lambda: ks.system_add_column_family(ttypes.CfDef(
        keyspace=ks_name, name="Bad", key_validation_class="CounterColumnType"))) == \
        "CounterColumnType is not a valid key validator"
    for cf, to in [("Counters", "BytesType"), ("Plain", "CounterColumnType")]:
        assert why(lambda: ks.system_update_column_family(ttypes.CfDef(
            keyspace=ks_name, name=cf, default_validation_class=to))) == \
            "Cannot change a column family between counter and non-counter"


def test_counters_and_their_deletions_survive_a_restart(tmp_path):
    with ilion_harness.Server(directory=str(tmp_path), partitioner="RandomPartitioner") as s:
        c, t = connect(s.later)
        c.system_add_keyspace(ttypes.KsDef(
            name="Kept", strategy_class="SimpleStrategy",
            strategy_options={"replication_factor": "1"}, cf_defs=[ttypes.CfDef(
                keyspace="Kept", name="Counters",
                default_validation_class="CounterColumnType")]))
        c.set_keyspace("Kept")
        c.add(b"k", parent("Counters"), cc(b"a", 40), ONE)
        c.add(b"k", parent("Counters"), cc(b"a", 2), ONE)
        c.add(b"k", parent("Counters"), cc(b"gone", 1), ONE)
        c.remove_counter(b"k", path("Counters", column=b"gone"), ONE)
        t.close()
        s.stop()
        s.start()
        c, t = connect(s.later)
        c.set_keyspace("Kept")
        assert value(c, b"k", b"a") == 42
        c.add(b"k", parent("Counters"), cc(b"gone", 5), ONE)
        row = c.get_slice(b"k", parent("Counters"), srange(), ONE)
        assert [x.counter_column for x in row] == [cc(b"a", 42)], "still deleted after a restart"
        t.close()
