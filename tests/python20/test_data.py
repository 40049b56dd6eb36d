"""The later API's data calls over a real server (docs/api-later.md#reads, #writes,
#validation, #consistency): writes and reads of binary keys, the later validation texts in
their order, consistency levels and availability, batches (range tombstones among their
deletions), truncate, paging and multi-slices."""

import time

import pytest

from conftest import connect, ttypes

CL = ttypes.ConsistencyLevel
ONE = CL.ONE


@pytest.fixture
def client(server):
    """One framed client per test: the tests share the module's server and write distinct
    rows, so each runs once (test_sessions covers both transports)."""
    c, transport = connect(server.later)
    yield c
    transport.close()


@pytest.fixture
def ks(client):
    client.set_keyspace("Keyspace1")
    return client


def col(name, value=b"v", ts=1, ttl=None):
    return ttypes.Column(name=name, value=value, timestamp=ts, ttl=ttl)


def parent(cf, sc=None):
    return ttypes.ColumnParent(column_family=cf, super_column=sc)


def path(cf, sc=None, column=None):
    return ttypes.ColumnPath(column_family=cf, super_column=sc, column=column)


def names(*ns):
    return ttypes.SlicePredicate(column_names=list(ns))


def srange(start=b"", finish=b"", reversed=False, count=100):
    return ttypes.SlicePredicate(slice_range=ttypes.SliceRange(start, finish, reversed, count))


def why(call):
    with pytest.raises(ttypes.InvalidRequestException) as e:
        call()
    return e.value.why


def row_names(items):
    """The names of read results: ColumnOrSuperColumns, or the Columns of a super column."""
    def name(c):
        if isinstance(c, ttypes.Column):
            return c.name
        return c.column.name if c.column else c.super_column.name
    return [name(c) for c in items]


def cosc(column):
    return ttypes.ColumnOrSuperColumn(column=column)


def put(key, column):
    return ttypes.Mutation(column_or_supercolumn=cosc(column))


def delete(ts=None, sc=None, predicate=None):
    return ttypes.Mutation(deletion=ttypes.Deletion(timestamp=ts, super_column=sc,
                                                     predicate=predicate))


def test_insert_then_read_back_with_binary_keys(ks):
    key = b"\xff\x00binary"
    ks.insert(key, parent("Standard1"), col(b"c1", b"v1", 5), ONE)
    got = ks.get(key, path("Standard1", column=b"c1"), ONE)
    assert got.column == ttypes.Column(b"c1", b"v1", 5, None)
    assert ks.get_slice(key, parent("Standard1"), srange(), ONE) == [got]
    with pytest.raises(ttypes.NotFoundException):
        ks.get(key, path("Standard1", column=b"nope"), ONE)
    # Higher timestamp wins, lower is ignored.
    ks.insert(key, parent("Standard1"), col(b"c1", b"old", 4), ONE)
    ks.insert(key, parent("Standard1"), col(b"c1", b"new", 6), ONE)
    assert ks.get(key, path("Standard1", column=b"c1"), ONE).column.value == b"new"


def test_super_columns_are_written_and_read(ks):
    sc = b"sc1"
    ks.insert(b"s", parent("Super1", sc), col(b"a", b"1"), ONE)
    ks.insert(b"s", parent("Super1", sc), col(b"b", b"2"), ONE)
    whole = ks.get(b"s", path("Super1", sc), ONE).super_column
    assert [c.name for c in whole.columns] == [b"a", b"b"]
    sub = ks.get(b"s", path("Super1", sc, b"b"), ONE).column
    assert sub.value == b"2"
    assert why(lambda: ks.insert(b"s", parent("Super1"), col(b"a"), ONE)) == (
        "missing mandatory super column name for super CF Super1")
    assert ks.get_count(b"s", parent("Super1", sc), srange(), ONE) == 2
    assert ks.get_count(b"s", parent("Super1"), srange(), ONE) == 1


def test_key_checks_come_in_the_later_order(ks):
    assert why(lambda: ks.insert(b"", parent("Standard1"), col(b"c"), ONE)) == (
        "Key may not be empty")
    long_key = b"k" * 65536
    assert why(lambda: ks.get(long_key, path("Standard1", column=b"c"), ONE)) == (
        "Key length of 65536 is longer than maximum of 65535")
    # The path is checked before the key by get.
    assert why(lambda: ks.get(b"", path("Standard1"), ONE)) == (
        "column parameter is not optional for standard CF Standard1")
    # insert checks the key before the parent.
    assert why(lambda: ks.insert(b"", parent("Standard1", b"x"), col(b"c"), ONE)) == (
        "Key may not be empty")


def test_paths_and_names_use_the_later_texts(ks):
    assert why(lambda: ks.get(b"k", path("Standard1", b"sc", b"c"), ONE)) == (
        "supercolumn parameter is invalid for standard CF Standard1")
    assert why(lambda: ks.get(b"k", path("Super1", None, b"c"), ONE)) == (
        "supercolumn parameter is not optional for super CF Super1")
    assert why(lambda: ks.get_slice(b"k", parent("Standard1", b"x"), srange(), ONE)) == (
        "table alone is required for standard CF Standard1")
    assert why(lambda: ks.get(b"k", path("Standard1", column=b""), ONE)) == (
        "column name must not be empty")
    assert why(lambda: ks.insert(b"k", parent("StdLong"), col(b"abc"), ONE)) == (
        "Expected 8 or 0 byte long (3)")
    assert why(lambda: ks.insert(b"k", parent("StdAscii"), col(b"\xc3"), ONE)) == (
        "Invalid byte for ascii: -61")
    assert why(lambda: ks.remove(b"k", path("Standard1", b"sc"), 1, ONE)) == (
        "supercolumn may not be specified for standard CF Standard1")
    assert why(lambda: ks.remove(b"k", path("Super1", None, b"c"), 1, ONE)) == (
        "A column cannot be specified without specifying a super column for removal on "
        "super CF Super1")


def test_column_data_checks(ks):
    insert = lambda c: (lambda: ks.insert(b"k", parent("Standard1"), c, ONE))  # noqa: E731
    assert why(insert(col(b"c", ttl=0))) == "ttl must be positive"
    assert why(insert(col(b"c", ttl=630720001))) == (
        "ttl is too large. requested (630720001) maximum (630720000)")
    assert why(insert(ttypes.Column(b"c", None, 1))) == "Column value is required"
    assert why(insert(ttypes.Column(b"c", b"v", None))) == "Column timestamp is required"
    # TTL comes before the value.
    assert why(insert(ttypes.Column(b"c", None, 1, -5))) == "ttl must be positive"


def test_slice_ranges_and_predicates(ks):
    for i in range(5):
        ks.insert(b"r", parent("Standard2"), col(b"c%d" % i), ONE)
    assert row_names(ks.get_slice(b"r", parent("Standard2"), srange(b"c1", b"c3"), ONE)) == [
        b"c1", b"c2", b"c3"]
    assert row_names(ks.get_slice(b"r", parent("Standard2"), srange(reversed=True, count=2),
                                  ONE)) == [b"c4", b"c3"]
    assert row_names(ks.get_slice(b"r", parent("Standard2"), names(b"c4", b"zz", b"c0"),
                                  ONE)) == [b"c0", b"c4"]
    get = lambda p: (lambda: ks.get_slice(b"r", parent("Standard2"), p, ONE))  # noqa: E731
    assert why(get(ttypes.SlicePredicate())) == (
        "predicate column_names and slice_range may not both be null")
    assert why(get(srange(b"c3", b"c1"))) == (
        "range finish must come after start in the order of traversal")
    assert why(get(srange(b"c1", b"c3", reversed=True))) == (
        "range finish must come after start in the order of traversal")
    # The count is checked before the bounds.
    assert why(get(srange(b"\xff", b"", count=-1))) == "get_slice requires non-negative count"
    assert why(get(srange(b"x" * 65536))) == "range start length cannot be larger than 65535"
    assert why(get(srange(b"\xff"))) == "String didn't validate."
    assert ks.get_count(b"r", parent("Standard2"), srange(count=3), ONE) == 3
    assert ks.get_count(b"r", parent("Standard2"), names(b"c1", b"x"), ONE) == 1
    # get_count validates its predicate as get_slice does.
    assert why(lambda: ks.get_count(b"r", parent("Standard2"), ttypes.SlicePredicate(),
                                    ONE)) == (
        "predicate column_names and slice_range may not both be null")


def test_multiget_gives_one_entry_per_distinct_key(ks):
    ks.insert(b"m1", parent("Standard1"), col(b"a"), ONE)
    ks.insert(b"m2", parent("Standard1"), col(b"a"), ONE)
    ks.insert(b"m2", parent("Standard1"), col(b"b"), ONE)
    keys = [b"m1", b"m2", b"m1", b"none"]
    got = ks.multiget_slice(keys, parent("Standard1"), srange(), ONE)
    assert sorted(got) == [b"m1", b"m2", b"none"]
    assert row_names(got[b"m2"]) == [b"a", b"b"] and got[b"none"] == []
    counts = ks.multiget_count(keys, parent("Standard1"), srange(), ONE)
    assert counts == {b"m1": 1, b"m2": 2, b"none": 0}
    assert ks.multiget_slice([], parent("Standard1"), srange(), ONE) == {}
    assert why(lambda: ks.multiget_slice([b"m1", b"m2"], parent("Standard1"), srange(),
                                         CL.SERIAL)) == (
        "SERIAL/LOCAL_SERIAL consistency may only be requested for one row at a time")
    assert len(ks.multiget_slice([b"m1", b"m1"], parent("Standard1"), srange(), CL.SERIAL)) == 1


def test_levels_and_availability(client):
    client.set_keyspace("Keyspace1")
    read = lambda cl: client.get_slice(b"k", parent("Standard1"), srange(), cl)  # noqa: E731
    write = lambda cl: client.insert(b"k", parent("Standard1"), col(b"c"), cl)  # noqa: E731
    assert why(lambda: read(CL.ANY)) == "ANY ConsistencyLevel is only supported for writes"
    assert why(lambda: read(CL.EACH_QUORUM)) == (
        "EACH_QUORUM ConsistencyLevel is only supported for writes")
    assert why(lambda: write(CL.SERIAL)) == (
        "You must use conditional updates for serializable writes")
    for level in (CL.ONE, CL.QUORUM, CL.ALL, CL.LOCAL_ONE, CL.LOCAL_QUORUM, CL.SERIAL):
        read(level)
    for level in (CL.ONE, CL.QUORUM, CL.ALL, CL.ANY, CL.EACH_QUORUM):
        write(level)
    for level in (CL.TWO, CL.THREE):
        with pytest.raises(ttypes.UnavailableException):
            read(level)
        with pytest.raises(ttypes.UnavailableException):
            write(level)
    # Replicated has a replication factor of 3: QUORUM needs 2 replicas of one.
    client.set_keyspace("Replicated")
    with pytest.raises(ttypes.UnavailableException):
        client.insert(b"k", parent("Standard1"), col(b"c"), CL.QUORUM)
    with pytest.raises(ttypes.UnavailableException):
        client.get_slice(b"k", parent("Standard1"), srange(), CL.ALL)
    client.insert(b"k", parent("Standard1"), col(b"c"), CL.ANY)
    assert len(client.get_slice(b"k", parent("Standard1"), srange(), CL.ONE)) == 1
    # Nothing to read: no availability check.
    assert client.multiget_slice([], parent("Standard1"), srange(), CL.ALL) == {}
    # The level is checked after validation.
    assert why(lambda: client.insert(b"", parent("Standard1"), col(b"c"), CL.QUORUM)) == (
        "Key may not be empty")


def test_remove_at_every_level(ks):
    ks.insert(b"d", parent("Super1", b"s1"), col(b"a", ts=5), ONE)
    ks.insert(b"d", parent("Super1", b"s1"), col(b"b", ts=5), ONE)
    ks.insert(b"d", parent("Super1", b"s2"), col(b"a", ts=5), ONE)
    ks.remove(b"d", path("Super1", b"s1", b"a"), 6, ONE)
    assert row_names(ks.get(b"d", path("Super1", b"s1"), ONE).super_column.columns) == [b"b"]
    ks.remove(b"d", path("Super1", b"s1"), 6, ONE)
    assert row_names(ks.get_slice(b"d", parent("Super1"), srange(), ONE)) == [b"s2"]
    # An older timestamp than the tombstone stays hidden.
    ks.insert(b"d", parent("Super1", b"s1"), col(b"a", ts=6), ONE)
    assert row_names(ks.get_slice(b"d", parent("Super1"), srange(), ONE)) == [b"s2"]
    ks.remove(b"d", path("Super1"), 10, ONE)
    assert ks.get_slice(b"d", parent("Super1"), srange(), ONE) == []


def test_batch_mutate_validates_everything_before_writing(ks):
    good = put(b"x", col(b"ok"))
    bad = put(b"x", col(b"c", ttl=-1))
    batch = {b"b1": {"Standard1": [good]}, b"b2": {"Standard1": [bad]}}
    assert why(lambda: ks.batch_mutate(batch, ONE)) == "ttl must be positive"
    assert ks.get_slice(b"b1", parent("Standard1"), srange(), ONE) == []
    shapes = [
        (ttypes.Mutation(), "mutation must have one and only one of column_or_supercolumn or "
                            "deletion"),
        (ttypes.Mutation(column_or_supercolumn=ttypes.ColumnOrSuperColumn()),
         "ColumnOrSuperColumn must have one (and only one) of column, super_column, counter "
         "and counter_super_column"),
        (ttypes.Mutation(column_or_supercolumn=ttypes.ColumnOrSuperColumn(
            counter_column=ttypes.CounterColumn(b"c", 1))),
         "invalid operation for non commutative table Standard1"),
        (delete(), "Deletion timestamp is not optional for non commutative table Standard1"),
        (delete(1, predicate=ttypes.SlicePredicate()),
         "A SlicePredicate must be given a list of Columns, a SliceRange, or both"),
    ]
    for mutation, text in shapes:
        assert why(lambda: ks.batch_mutate({b"b1": {"Standard1": [mutation]}}, ONE)) == text
    text = why(lambda: ks.batch_mutate({b"b1": {"Standard1": [delete(1, sc=b"s")]}}, ONE))
    assert text.startswith("Deletion of super columns is not possible on a standard table "
                           "(KeySpace=Keyspace1 Table=Standard1 Deletion=")
    assert why(lambda: ks.batch_mutate({b"b1": {"Nope": [good]}}, ONE)) == "unconfigured table Nope"
    assert why(lambda: ks.batch_mutate({b"": {"Standard1": [good]}}, ONE)) == (
        "Key may not be empty")


def test_batch_mutate_applies_inserts_and_deletions(ks):
    ks.batch_mutate({
        b"b3": {"Standard1": [put(b"b3", col(b"a", ts=1)), put(b"b3", col(b"b", ts=1)),
                              put(b"b3", col(b"c", ts=1))],
                "Super1": [ttypes.Mutation(column_or_supercolumn=ttypes.ColumnOrSuperColumn(
                    super_column=ttypes.SuperColumn(b"sc", [col(b"x"), col(b"y")])))]},
        b"b4": {"Standard1": [put(b"b4", col(b"a"))]},
    }, ONE)
    assert row_names(ks.get_slice(b"b3", parent("Standard1"), srange(), ONE)) == [
        b"a", b"b", b"c"]
    assert row_names(ks.get(b"b3", path("Super1", b"sc"), ONE).super_column.columns) == [
        b"x", b"y"]
    # A delete and an insert of one column at one timestamp in one batch: deleted.
    ks.batch_mutate({b"b3": {"Standard1": [
        put(b"b3", col(b"a", ts=2)), delete(2, predicate=names(b"a", b"b"))]}}, ONE)
    assert row_names(ks.get_slice(b"b3", parent("Standard1"), srange(), ONE)) == [b"c"]
    ks.batch_mutate({b"b3": {"Super1": [delete(5, sc=b"sc", predicate=names(b"x"))]}}, ONE)
    assert row_names(ks.get(b"b3", path("Super1", b"sc"), ONE).super_column.columns) == [b"y"]
    ks.atomic_batch_mutate({b"b4": {"Standard1": [delete(9)]},
                            b"b5": {"Standard1": [put(b"b5", col(b"z"))]}}, ONE)
    assert ks.get_slice(b"b4", parent("Standard1"), srange(), ONE) == []
    assert row_names(ks.get_slice(b"b5", parent("Standard1"), srange(), ONE)) == [b"z"]
    # An empty batch writes nothing and is not unavailable even where writes would be.
    ks.batch_mutate({}, CL.THREE)


def test_counter_calls_are_refused_on_ordinary_tables(ks):
    text = "invalid operation for non commutative table Standard1"
    assert why(lambda: ks.add(b"k", parent("Standard1"), ttypes.CounterColumn(b"c", 1),
                              ONE)) == text
    assert why(lambda: ks.remove_counter(b"k", path("Standard1", column=b"c"), ONE)) == text


def test_indexed_slices_find_no_index(ks):
    clause = lambda exprs, count=10: ttypes.IndexClause(exprs, b"", count)  # noqa: E731
    eq = ttypes.IndexExpression(b"c", ttypes.IndexOperator.EQ, b"v")
    call = lambda c: (lambda: ks.get_indexed_slices(parent("Standard1"), c, srange(),  # noqa
                                                    ONE))
    assert why(call(clause([]))) == "index clause list may not be empty"
    assert why(call(clause([eq]))) == (
        "No indexed columns present in index clause with operator EQ")
    long_name = ttypes.IndexExpression(b"abc", ttypes.IndexOperator.EQ, b"v")
    assert why(lambda: ks.get_indexed_slices(parent("StdLong"), clause([long_name]), srange(),
                                             ONE)) == (
        "[616263]=[76] failed name validation (Expected 8 or 0 byte long (3))")


def test_truncate_removes_rows_and_is_no_tombstone(ks):
    ks.insert(b"t1", parent("Standard2"), col(b"a", ts=100), ONE)
    ks.insert(b"t2", parent("Standard2"), col(b"a", ts=100), ONE)
    ks.insert(b"t1", parent("Standard1"), col(b"a", ts=100), ONE)
    ks.truncate("Standard2")
    assert ks.get_slice(b"t1", parent("Standard2"), srange(), ONE) == []
    assert len(ks.get_slice(b"t1", parent("Standard1"), srange(), ONE)) == 1
    ks.insert(b"t1", parent("Standard2"), col(b"a", ts=1), ONE)
    assert ks.get(b"t1", path("Standard2", column=b"a"), ONE).column.timestamp == 1
    assert why(lambda: ks.truncate("Nope")) == "unconfigured table Nope"


def test_multi_slices_merge_in_order(ks):
    for c in b"abcdefghijklmn":
        ks.insert(b"ms", parent("Standard2"), col(bytes([c])), ONE)

    def multi(slices, reversed=False, count=None):
        req = ttypes.MultiSliceRequest(key=b"ms", column_parent=parent("Standard2"),
                                       column_slices=[ttypes.ColumnSlice(s, f) for s, f in slices],
                                       reversed=reversed, count=count, consistency_level=ONE)
        return b"".join(c.column.name for c in ks.get_multi_slice(req))

    assert multi([(b"a", b"e"), (b"i", b"n")]) == b"abcdeijklmn"
    assert multi([(b"a", b"e"), (b"d", b"g")]) == b"abcdefg"
    assert multi([(b"e", b"a"), (b"g", b"d")], reversed=True) == b"gfedcba"
    assert multi([(b"a", b"e"), (b"d", b"g")], count=6) == b"abcdef"
    assert multi([(b"e", b"a"), (b"g", b"d")], reversed=True, count=6) == b"gfedcb"
    assert multi([(None, None)]) == b"abcdefghijklmn"
    assert why(lambda: multi([(b"a", b"b"), (b"e", b"a")])) == (
        "Column slice at index 1 had start greater than finish")
    assert why(lambda: multi([(b"a", b"e")], reversed=True)) == (
        "Reversed column slice at index 0 had start less than finish")
    assert why(lambda: ks.get_multi_slice(ttypes.MultiSliceRequest(
        key=b"ms", column_parent=parent("Super1")))) == (
        "get_multi_slice does not support super columns")
    assert why(lambda: ks.get_multi_slice(ttypes.MultiSliceRequest(key=b"ms"))) == (
        "column_parent is required")
    assert why(lambda: ks.get_multi_slice(ttypes.MultiSliceRequest(
        column_parent=parent("Standard2")))) == "Key may not be empty"


def test_key_range_checks(ks):
    def rs(**kw):
        kw.setdefault("count", 10)
        return lambda: ks.get_range_slices(parent("Standard1"), srange(),
                                           ttypes.KeyRange(**kw), ONE)
    both = "exactly one each of {start key, start token} and {end key, end token} must be specified"
    assert why(rs(start_key=b"a")) == both
    assert why(rs(start_key=b"a", start_token="1", end_key=b"b")) == both
    assert why(rs(start_token="1", end_key=b"b")) == (
        "start token + end key is not a supported key range")
    assert why(rs(start_key=b"", end_key=b"", count=0)) == "maxRows must be positive"
    assert why(rs(start_token="x", end_token="1")) == (
        "Invalid token 'x': RandomPartitioner tokens are decimal integers")
    # Under RandomPartitioner the token of "b" is greater than that of "a".
    assert why(rs(start_key=b"b", end_key=b"a")) == (
        "start key's token sorts after end key's token.  this is not allowed; you probably "
        "should not specify end key at all except with an ordered partitioner")
    assert why(rs(start_key=b"b", end_token="0")) == "Start key's token sorts after end token"
    assert why(lambda: ks.get_range_slices(parent("Super1"), srange(), ttypes.KeyRange(
        start_key=b"", end_key=b"", count=5,
        row_filter=[ttypes.IndexExpression(b"c", ttypes.IndexOperator.EQ, b"v")]), ONE)) == (
        "super columns are not supported for indexing")


def test_splits_count_the_rows_of_the_table(ks):
    for i in range(10):
        ks.insert(b"split%d" % i, parent("StdLexical"), col(b"\x00" * 16), ONE)
    splits = ks.describe_splits_ex("StdLexical", "0", "0", 3)
    assert len(splits) == 3
    assert sum(s.row_count for s in splits) == 10
    assert splits[0].start_token == "0" and splits[-1].end_token == "0"
    assert [s.start_token for s in splits[1:]] == [s.end_token for s in splits[:-1]]
    bounds = ks.describe_splits("StdLexical", "0", "0", 3)
    assert bounds == ["0"] + [s.end_token for s in splits]
    # Cut points are row tokens, in ring order from the start.
    cuts = [int(t) for t in bounds[1:-1]]
    assert cuts == sorted(cuts)
    assert ks.describe_splits_ex("StdLexical", "0", "0", 100)[0].row_count == 10
    assert why(lambda: ks.describe_splits_ex("StdLexical", "0", "0", 0)) == (
        "keys_per_split must be positive")
    assert why(lambda: ks.describe_splits_ex("Nope", "0", "0", 1)) == "unconfigured table Nope"
    assert why(lambda: ks.describe_splits("StdLexical", "x", "0", 1)) == (
        "Invalid token 'x': RandomPartitioner tokens are decimal integers")


def test_row_filters_select_rows_by_their_values(ks):
    for i, state in enumerate([b"CA", b"NY", b"CA", b"TX", b"CA"]):
        ks.batch_mutate({b"rf%d" % i: {"Standard1": [
            put(None, col(b"rf_state", state)), put(None, col(b"rf_n", bytes([i])))]}}, ONE)
    ks.remove(b"rf4", path("Standard1", column=b"rf_state"), 2, ONE)
    op = ttypes.IndexOperator

    def scan(*exprs, count=100):
        rng = ttypes.KeyRange(start_key=b"", end_key=b"", count=count, row_filter=[
            ttypes.IndexExpression(name, o, value) for name, o, value in exprs])
        return ks.get_range_slices(parent("Standard1"), names(b"rf_n"), rng, ONE)

    rows = scan((b"rf_state", op.EQ, b"CA"))
    assert sorted(r.key for r in rows) == [b"rf0", b"rf2"], "rf4's state was removed"
    assert all(row_names(r.columns) == [b"rf_n"] for r in rows), "the predicate selects"
    assert sorted(r.key for r in scan((b"rf_state", op.GT, b"CA"))) == [b"rf1", b"rf3"]
    both = scan((b"rf_state", op.GTE, b"CA"), (b"rf_n", op.LT, b"\x02"))
    assert sorted(r.key for r in both) == [b"rf0", b"rf1"]
    assert len(scan((b"rf_state", op.LTE, b"NY"), count=1)) == 1
    assert scan((b"rf_nope", op.EQ, b"")) == []


def test_cas_writes_only_when_the_row_matches(ks):
    """As dtest's test_cas (spec §6.14)."""
    c1, c2 = col(b"c1", b"a"), col(b"c2", b"b")
    serial, quorum = CL.SERIAL, CL.QUORUM
    miss = ks.cas(b"cas", "Standard1", [c1, c2], [c1, c2], serial, quorum)
    assert not miss.success and miss.current_values == []
    made = ks.cas(b"cas", "Standard1", [], [c1, c2], serial, quorum)
    assert made.success and made.current_values is None
    again = ks.cas(b"cas", "Standard1", [], [c1, c2], serial, quorum)
    assert not again.success
    assert [(c.name, c.value) for c in again.current_values] == [(b"c1", b"a")]
    assert ks.get(b"cas", path("Standard1", column=b"c1"), CL.SERIAL).column.value == b"a"
    updated = [col(b"c1", b"a2"), col(b"c2", b"b2")]
    assert ks.cas(b"cas", "Standard1", [c1, c2], updated, serial, quorum).success
    assert not ks.cas(b"cas", "Standard1", [c1, c2], updated, serial, quorum).success
    stored = ks.get(b"cas", path("Standard1", column=b"c1"), ONE).column
    assert stored.value == b"a2" and stored.timestamp > 10 ** 15, "server microseconds"
    cas = lambda *a: (lambda: ks.cas(b"cas", *a))  # noqa: E731
    assert why(cas("Super1", [], [c1], serial, quorum)) == "CAS does not support supercolumns"
    assert why(cas("Standard1", [], [c1], CL.QUORUM, quorum)) == (
        "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL")
    assert why(cas("Standard1", [], [c1], serial, CL.LOCAL_SERIAL)) == (
        "LOCAL_SERIAL is not supported as conditional update commit consistency. Use ANY if "
        "you mean \"make sure it is accepted but I don't care how many replicas commit it for "
        "non-SERIAL reads\"")
    assert why(cas("Standard1", [], [c1], serial, CL.EACH_QUORUM)) == (
        "consistency level EACH_QUORUM not compatible with replication strategy "
        "(org.apache.cassandra.locator.SimpleStrategy)")
    assert why(cas("Standard1", [], [ttypes.Column(b"c", None, 1)], serial, quorum)) == (
        "Column value is required")
    assert why(cas("Standard1", [ttypes.Column(b"c")], [], serial, quorum)) == (
        "Column value is required")
    assert why(cas("Standard1", [col(b"")], [], serial, quorum)) == "column name must not be empty"
    with pytest.raises(ttypes.UnavailableException):
        ks.cas(b"cas", "Standard1", [], [c1], serial, CL.THREE)


def test_key_ranges_and_paging_walk_rows_in_ring_order(ks):
    """Under RandomPartitioner rows come in token order; key bounds cut at rows, both ends
    included (spec §3.3); get_paged_slice counts columns across rows (§6.5)."""
    for i in range(6):
        ks.batch_mutate({b"pg%d" % i: {"StdAscii": [
            put(None, col(b"a")), put(None, col(b"b")), put(None, col(b"c"))]}}, ONE)
    everything = ttypes.KeyRange(start_key=b"", end_key=b"", count=100)
    ring = [r.key for r in ks.get_range_slices(parent("StdAscii"), srange(), everything, ONE)]
    assert sorted(ring) == [b"pg%d" % i for i in range(6)]
    # From the second row to the fourth, both included.
    span = ttypes.KeyRange(start_key=ring[1], end_key=ring[3], count=100)
    assert [r.key for r in ks.get_range_slices(parent("StdAscii"), srange(), span, ONE)] == ring[1:4]
    # count limits rows; a key+token range runs to the end of the ring at the minimum token.
    rest = ttypes.KeyRange(start_key=ring[2], end_token="-1", count=2)
    assert [r.key for r in ks.get_range_slices(parent("StdAscii"), srange(), rest, ONE)] == ring[2:4]
    # Paging: 7 columns from the middle of the second row.
    page = ks.get_paged_slice("StdAscii", ttypes.KeyRange(start_key=ring[1], end_key=b"",
                                                          count=7), b"b", ONE)
    assert [(r.key, row_names(r.columns)) for r in page] == [
        (ring[1], [b"b", b"c"]), (ring[2], [b"a", b"b", b"c"]), (ring[3], [b"a", b"b"])]
    assert why(lambda: ks.get_paged_slice("StdAscii", ttypes.KeyRange(
        start_key=b"", end_key=b"", count=5,
        row_filter=[ttypes.IndexExpression(b"a", ttypes.IndexOperator.EQ, b"v")]), b"", ONE)) == (
        "Cross-row paging is not supported along with index clauses")


def test_expiring_columns_read_back_with_their_ttl_then_vanish(ks):
    ks.insert(b"ttl", parent("Standard1"), col(b"short", b"v", 5, ttl=1), ONE)
    ks.insert(b"ttl", parent("Standard1"), col(b"long", b"v", 5, ttl=3600), ONE)
    ks.insert(b"ttl", parent("Standard1"), col(b"plain", b"v", 5), ONE)
    ks.batch_mutate({b"ttl": {"Super1": [ttypes.Mutation(column_or_supercolumn=ttypes.ColumnOrSuperColumn(
        super_column=ttypes.SuperColumn(b"sc", [col(b"s", b"v", 5, ttl=1)])))]}}, ONE)
    assert ks.get(b"ttl", path("Standard1", column=b"long"), ONE).column.ttl == 3600
    assert ks.get(b"ttl", path("Standard1", column=b"plain"), ONE).column.ttl is None
    # A TTL of 1 second lives less than a second past its write's whole second.
    time.sleep(2.1)
    assert row_names(ks.get_slice(b"ttl", parent("Standard1"), srange(), ONE)) == [b"long", b"plain"]
    with pytest.raises(ttypes.NotFoundException):
        ks.get(b"ttl", path("Standard1", column=b"short"), ONE)
    assert ks.get_slice(b"ttl", parent("Super1"), srange(), ONE) == []
    # The expired column still hides an older write, and a newer one shows.
    ks.insert(b"ttl", parent("Standard1"), col(b"short", b"old", 4), ONE)
    assert ks.get_count(b"ttl", parent("Standard1"), srange(), ONE) == 2
    ks.insert(b"ttl", parent("Standard1"), col(b"short", b"new", 6), ONE)
    assert ks.get(b"ttl", path("Standard1", column=b"short"), ONE).column.value == b"new"


def test_deletion_by_slice_range_is_a_range_tombstone(ks):
    """spec §6.11 and F11: a Deletion with a slice_range deletes the names in [start, finish]
    (reversed: [finish, start]; empty bounds unbounded; count ignored), in Standard rows, over
    a Super row's super columns and inside one super column; later writes above its
    timestamp are seen, those at or below it stay hidden."""
    nine = [put(b"r1", col(str(i).encode(), ts=1)) for i in range(1, 10)]
    ks.batch_mutate({b"r1": {"Standard1": nine}}, ONE)
    ks.batch_mutate({b"r1": {"Standard1": [delete(5, predicate=srange(b"3", b"6", count=1))]}},
                    ONE)
    live = [b"1", b"2", b"7", b"8", b"9"]
    assert row_names(ks.get_slice(b"r1", parent("Standard1"), srange(), ONE)) == live
    assert row_names(ks.get_slice(b"r1", parent("Standard1"), srange(count=3), ONE)) == [
        b"1", b"2", b"7"]
    assert row_names(ks.get_slice(b"r1", parent("Standard1"),
                                  srange(b"8", b"2", True, 3), ONE)) == [b"8", b"7", b"2"]
    assert ks.get_count(b"r1", parent("Standard1"), srange(), ONE) == 5
    with pytest.raises(ttypes.NotFoundException):
        ks.get(b"r1", path("Standard1", column=b"4"), ONE)
    ks.insert(b"r1", parent("Standard1"), col(b"4", b"old", ts=5), ONE)
    assert ks.get_count(b"r1", parent("Standard1"), srange(), ONE) == 5
    ks.insert(b"r1", parent("Standard1"), col(b"4", b"new", ts=6), ONE)
    assert ks.get(b"r1", path("Standard1", column=b"4"), ONE).column.value == b"new"
    # Reversed: [finish, start]; an empty finish of a reversed slice reaches the first name.
    ks.batch_mutate({b"r1": {"Standard1": [delete(7, predicate=srange(b"8", b"7", True))]}},
                    ONE)
    ks.batch_mutate({b"r1": {"Standard1": [delete(7, predicate=srange(b"1", b"", True))]}},
                    ONE)
    assert row_names(ks.get_slice(b"r1", parent("Standard1"), srange(), ONE)) == [
        b"2", b"4", b"9"]
    # A row holding only range-deleted data is a range ghost.
    ks.batch_mutate({b"r2": {"Standard1": [put(b"r2", col(b"a"))]}}, ONE)
    ks.batch_mutate({b"r2": {"Standard1": [delete(2, predicate=srange())]}}, ONE)
    assert ks.get_slice(b"r2", parent("Standard1"), srange(), ONE) == []

    # Super CF, no super column: the super columns in the range go, as a super-column
    # delete of each would (an empty start is unbounded, F11).
    subs = [ttypes.Mutation(column_or_supercolumn=ttypes.ColumnOrSuperColumn(
        super_column=ttypes.SuperColumn(sc, [col(b"x"), col(b"y")]))) for sc in (b"a", b"b", b"c")]
    ks.batch_mutate({b"r3": {"Super1": subs}}, ONE)
    ks.batch_mutate({b"r3": {"Super1": [delete(3, predicate=srange(b"", b"b"))]}}, ONE)
    assert row_names(ks.get_slice(b"r3", parent("Super1"), srange(), ONE)) == [b"c"]
    ks.insert(b"r3", parent("Super1", b"a"), col(b"z", ts=3), ONE)
    assert row_names(ks.get_slice(b"r3", parent("Super1"), srange(), ONE)) == [b"c"]
    ks.insert(b"r3", parent("Super1", b"a"), col(b"z", ts=4), ONE)
    assert row_names(ks.get_slice(b"r3", parent("Super1"), srange(), ONE)) == [b"a", b"c"]
    # A super column given: a range over its subcolumns, reversed here.
    ks.batch_mutate({b"r3": {"Super1": [delete(3, sc=b"c", predicate=srange(b"y", b"x", True))]}},
                    ONE)
    assert ks.get_slice(b"r3", parent("Super1", b"c"), srange(), ONE) == []
    assert row_names(ks.get_slice(b"r3", parent("Super1"), srange(), ONE)) == [b"a"]
    # Range slices over the rows see the same.
    rows = ks.get_range_slices(parent("Standard1"), srange(),
                               ttypes.KeyRange(start_key=b"r2", end_key=b"r2", count=10), ONE)
    assert [(r.key, r.columns) for r in rows] == [(b"r2", [])]
