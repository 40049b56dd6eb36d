"""Column families with the later comparators (spec §4.5–4.10, §6.2, §6.7, §6.11), created
through system_add_column_family on a real server: names inserted out of order come back in
the type's order, forwards and reversed and between bounds; names that compare equal are one
column under the winning version's bytes; names and bounds are checked with the type's
texts; composite slices and range deletions follow the end-of-component rules; the types
are reported exactly and survive a restart."""

import struct
import uuid

import pytest

import ilion_harness
from conftest import connect, ttypes

CL = ttypes.ConsistencyLevel
ONE = CL.ONE
MARSHAL = "org.apache.cassandra.db.marshal."


@pytest.fixture
def ks(server):
    """A framed client in a fresh keyspace, dropped at the end."""
    c, transport = connect(server.later)
    name = "C" + uuid.uuid4().hex[:12]
    c.system_add_keyspace(ttypes.KsDef(name=name, strategy_class="SimpleStrategy",
                                       strategy_options={"replication_factor": "1"},
                                       cf_defs=[]))
    c.set_keyspace(name)
    c.ks_name = name
    yield c
    c.system_drop_keyspace(name)
    transport.close()


def add(ks, name, comparator, **fields):
    ks.system_add_column_family(ttypes.CfDef(keyspace=ks.ks_name, name=name,
                                             comparator_type=comparator, **fields))


def insert(ks, cf, names, key=b"k", ts=1, value=b"v"):
    for n in names:
        ks.insert(key, ttypes.ColumnParent(cf), ttypes.Column(n, value, ts), ONE)


def slice_names(ks, cf, start=b"", finish=b"", reversed=False, count=100, key=b"k"):
    pred = ttypes.SlicePredicate(slice_range=ttypes.SliceRange(start, finish, reversed, count))
    return [c.column.name for c in ks.get_slice(key, ttypes.ColumnParent(cf), pred, ONE)]


def why(call):
    with pytest.raises(ttypes.InvalidRequestException) as e:
        call()
    return e.value.why


def i32(v):
    return struct.pack(">i", v)


def i64(v):
    return struct.pack(">q", v)


def dbl(v):
    return struct.pack(">d", v)


def comp(*parts):
    """A composite name from (bytes, eoc) pairs or plain bytes (EOC 0)."""
    out = b""
    for p in parts:
        v, eoc = p if isinstance(p, tuple) else (p, 0)
        out += struct.pack(">H", len(v)) + v + bytes([eoc])
    return out


def test_fixed_width_numbers_slice_in_signed_order(ks):
    add(ks, "Ints", "Int32Type")
    values = [5, -1, -(2 ** 31), 0, 2 ** 31 - 1, 256]
    insert(ks, "Ints", [i32(v) for v in values])
    ordered = [i32(v) for v in sorted(values)]
    assert slice_names(ks, "Ints") == ordered
    assert slice_names(ks, "Ints", reversed=True) == ordered[::-1]
    assert slice_names(ks, "Ints", i32(-1), i32(5)) == [i32(-1), i32(0), i32(5)]
    assert slice_names(ks, "Ints", i32(256), i32(0), reversed=True) == [i32(256), i32(5), i32(0)]
    assert slice_names(ks, "Ints", count=2) == ordered[:2]
    assert why(lambda: slice_names(ks, "Ints", i32(5), i32(-1))) == \
        "range finish must come after start in the order of traversal"
    assert why(lambda: insert(ks, "Ints", [b"abc"])) == "Expected 4 or 0 byte int (3)"
    assert why(lambda: slice_names(ks, "Ints", b"ab")) == "Expected 4 or 0 byte int (2)"


def test_equal_integers_are_one_column_with_the_winners_bytes(ks):
    add(ks, "Big", "IntegerType")
    insert(ks, "Big", [b"\x01"], ts=1, value=b"one")
    insert(ks, "Big", [b"\x00\x01"], ts=2, value=b"padded")
    insert(ks, "Big", [b"\x00\x00\x01"], ts=0, value=b"old")
    insert(ks, "Big", [b"\xff", b"\x01\x00", b"\x80"])
    assert slice_names(ks, "Big") == [b"\x80", b"\xff", b"\x00\x01", b"\x01\x00"]
    got = ks.get(b"k", ttypes.ColumnPath("Big", column=b"\x00\x00\x00\x01"), ONE).column
    assert (got.name, got.value) == (b"\x00\x01", b"padded")
    assert ks.get_count(b"k", ttypes.ColumnParent("Big"),
                        ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, 100)),
                        ONE) == 4
    # A bound written with other bytes is the same bound.
    assert slice_names(ks, "Big", b"\x00\x00\x01", b"\x00\x01\x00") == [b"\x00\x01", b"\x01\x00"]
    pred = ttypes.SlicePredicate(column_names=[b"\x01", b"\x00\x01"])
    got = ks.get_slice(b"k", ttypes.ColumnParent("Big"), pred, ONE)
    assert [c.column.name for c in got] == [b"\x00\x01"]


def test_doubles_and_decimals_order_by_value(ks):
    add(ks, "D", "DoubleType")
    nan2 = struct.pack(">Q", 0x7FF0000000000001)
    insert(ks, "D", [dbl(1.0), dbl(0.0), dbl(float("nan")), dbl(-0.0), dbl(float("-inf"))])
    insert(ks, "D", [nan2], ts=2)
    assert slice_names(ks, "D") == [dbl(float("-inf")), dbl(-0.0), dbl(0.0), dbl(1.0), nan2]
    assert why(lambda: insert(ks, "D", [b"\x00"])) == \
        "Expected 8 or 0 byte value for a double (1)"
    add(ks, "Dec", "DecimalType")
    one, one_00, half = b"\x00\x00\x00\x01\x0a", b"\x00\x00\x00\x02\x64", b"\x00\x00\x00\x01\x05"
    insert(ks, "Dec", [one_00, half])
    insert(ks, "Dec", [one], ts=2)
    assert slice_names(ks, "Dec") == [half, one]


def test_uuids_sort_version_first(ks):
    add(ks, "U", "UUIDType")
    v4 = uuid.UUID("00000000-0000-4000-8000-000000000000").bytes
    late = uuid.UUID("ffffffff-ffff-1fff-8000-000000000000").bytes
    early = uuid.uuid1().bytes
    insert(ks, "U", [v4, late, early])
    assert slice_names(ks, "U") == [early, late, v4]
    assert why(lambda: insert(ks, "U", [b"short"])) == "UUID should be 16 or 0 bytes (5)"


def test_reversed_type_runs_backwards_with_empty_bounds_unbounded(ks):
    add(ks, "R", "ReversedType(LongType)")
    insert(ks, "R", [i64(1), i64(3), i64(2)])
    assert slice_names(ks, "R") == [i64(3), i64(2), i64(1)]
    assert slice_names(ks, "R", reversed=True) == [i64(1), i64(2), i64(3)]
    assert slice_names(ks, "R", i64(2)) == [i64(2), i64(1)]
    assert slice_names(ks, "R", b"", i64(2)) == [i64(3), i64(2)]
    assert slice_names(ks, "R", b"", i64(2), reversed=True) == [i64(1), i64(2)]
    assert why(lambda: slice_names(ks, "R", i64(1), i64(3))) == \
        "range finish must come after start in the order of traversal"


def test_composite_slices_follow_end_of_component_bytes(ks):
    add(ks, "Comp", "CompositeType(UTF8Type, ReversedType(LongType))")
    names = [comp(a, i64(n)) for a, n in [(b"b", 1), (b"a", 1), (b"b", 3), (b"a", 2), (b"c", 0)]]
    insert(ks, "Comp", names)
    ordered = [comp(a, i64(n)) for a, n in [(b"a", 2), (b"a", 1), (b"b", 3), (b"b", 1), (b"c", 0)]]
    assert slice_names(ks, "Comp") == ordered
    assert slice_names(ks, "Comp", comp(b"b"), comp((b"b", 1))) == ordered[2:4]
    assert slice_names(ks, "Comp", b"", comp((b"b", 0xFF))) == ordered[:2]
    assert slice_names(ks, "Comp", comp((b"b", 1))) == ordered[4:]
    assert slice_names(ks, "Comp", comp((b"b", 1)), comp(b"b"), reversed=True) == \
        ordered[2:4][::-1]
    assert why(lambda: insert(ks, "Comp", [comp(b"a", b"xyz")])) == \
        "Expected 8 or 0 byte long (3)"
    # Multi-slices come back in comparator order, merged.
    req = ttypes.MultiSliceRequest(key=b"k", column_parent=ttypes.ColumnParent("Comp"),
                                   column_slices=[ttypes.ColumnSlice(comp(b"c"), b""),
                                                  ttypes.ColumnSlice(comp(b"a"), comp((b"a", 1)))],
                                   count=100, consistency_level=ONE)
    assert [c.column.name for c in ks.get_multi_slice(req)] == ordered[:2] + ordered[4:]


def range_delete(ks, cf, start, finish):
    pred = ttypes.SlicePredicate(slice_range=ttypes.SliceRange(start, finish, False, 100))
    deletion = ttypes.Mutation(deletion=ttypes.Deletion(timestamp=10, predicate=pred))
    ks.batch_mutate({b"k": {cf: [deletion]}}, ONE)


def test_range_deletion_over_composite_bounds(ks):
    """dtest test_range_deletion and test_range_deletion_eoc_0."""
    for cf in ["Rd", "Rd0"]:
        add(ks, cf, "CompositeType(AsciiType, AsciiType)")
        insert(ks, cf, [comp(bytes([c]), bytes([c])) for c in b"0123456789"])
    kept = [comp(bytes([c]), bytes([c])) for c in b"0126789"]
    range_delete(ks, "Rd", comp((b"3", 0xFF)), comp(b"6", b"\x01"))
    assert slice_names(ks, "Rd") == kept
    range_delete(ks, "Rd0", comp(b"3"), comp(b"6"))
    assert slice_names(ks, "Rd0") == kept


def test_types_are_reported_exactly_and_kept_over_a_restart(tmp_path):
    t = ("CompositeType(UTF8Type, ReversedType(IntegerType), "
         "DynamicCompositeType(z=>UUIDType, a=>BytesType))")
    reported = (f"{MARSHAL}CompositeType({MARSHAL}UTF8Type,{MARSHAL}ReversedType("
                f"{MARSHAL}IntegerType),{MARSHAL}DynamicCompositeType(a=>{MARSHAL}BytesType,"
                f"z=>{MARSHAL}UUIDType))")
    with ilion_harness.Server(directory=str(tmp_path), partitioner="RandomPartitioner") as s:
        c, transport = connect(s.later)
        c.system_add_keyspace(ttypes.KsDef(name="Kept", strategy_class="SimpleStrategy",
                                           strategy_options={"replication_factor": "1"},
                                           cf_defs=[]))
        c.set_keyspace("Kept")
        c.system_add_column_family(ttypes.CfDef(keyspace="Kept", name="Deep", comparator_type=t))
        c.system_add_column_family(ttypes.CfDef(keyspace="Kept", name="Sup", column_type="Super",
                                                comparator_type="TimestampType",
                                                subcomparator_type="DecimalType"))
        name = comp(b"a", b"\x00\x07")
        c.insert(b"k", ttypes.ColumnParent("Deep"), ttypes.Column(name, b"v", 1), ONE)
        transport.close()
        s.stop()
        s.start()
        c, transport = connect(s.later)
        cfs = {cf.name: cf for cf in c.describe_keyspace("Kept").cf_defs}
        assert cfs["Deep"].comparator_type == reported
        assert (cfs["Sup"].comparator_type, cfs["Sup"].subcomparator_type) == \
            (MARSHAL + "TimestampType", MARSHAL + "DecimalType")
        c.set_keyspace("Kept")
        pred = ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, 10))
        got = c.get_slice(b"k", ttypes.ColumnParent("Deep"), pred, ONE)
        assert [x.column.name for x in got] == [name]
        transport.close()


def test_cql_only_types_and_bare_composites_are_refused(ks):
    assert why(lambda: add(ks, "X", "ShortType")) == "ShortType is not supported by ilion"
    assert why(lambda: add(ks, "X", "CompositeType")) == \
        "CompositeType requires at least one component type"
    assert why(lambda: add(ks, "X", "ReversedType(LongType, UTF8Type)")) == \
        "ReversedType takes exactly one argument, 2 given"
