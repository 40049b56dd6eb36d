"""Schema changes through the later API (docs/api-later.md#schema, spec §5): the six system_*
calls, their check order and texts, what describe reports afterwards, schema versions, and a
restart keeping the stored schema. Each test cleans up after itself, as the module's server is
shared by the framed and buffered runs."""

import uuid

import pytest

import ilion_harness
from conftest import connect, ttypes

MARSHAL = "org.apache.cassandra.db.marshal."
SIMPLE = "org.apache.cassandra.locator.SimpleStrategy"
SIMPLE_AUTH = "org.apache.cassandra.auth.SimpleAuthenticator"
ONE = ttypes.ConsistencyLevel.ONE


def ks_def(name, cfs=(), strategy="SimpleStrategy", options=None):
    options = {"replication_factor": "1"} if options is None else options
    return ttypes.KsDef(name=name, strategy_class=strategy, strategy_options=options,
                        cf_defs=list(cfs))


def cf_def(ks, name, **fields):
    return ttypes.CfDef(keyspace=ks, name=name, **fields)


def why(call, *args):
    with pytest.raises(ttypes.InvalidRequestException) as e:
        call(*args)
    return e.value.why


def version(client):
    versions = client.describe_schema_versions()
    assert len(versions) == 1
    return next(iter(versions))


@pytest.fixture
def fresh(client):
    """A keyspace name not in use, dropped again at the end."""
    name = "S" + uuid.uuid4().hex[:12]
    yield name
    if name in [k.name for k in client.describe_keyspaces()]:
        client.system_drop_keyspace(name)


def column(name, value, ts=1, ttl=None):
    return ttypes.Column(name=name, value=value, timestamp=ts, ttl=ttl)


def test_create_use_describe_update_drop(client, fresh):
    before = version(client)
    v = client.system_add_keyspace(ks_def(fresh))
    assert v == version(client) != before
    assert str(uuid.UUID(v)) == v and uuid.UUID(v).version == 3
    client.set_keyspace(fresh)
    v = client.system_add_column_family(cf_def(fresh, "Cf", comparator_type="UTF8Type",
                                               comment="made here"))
    assert v == version(client)
    client.insert(b"k", ttypes.ColumnParent("Cf"), column(b"a", b"1"), ONE)
    got = client.get(b"k", ttypes.ColumnPath("Cf", column=b"a"), ONE)
    assert got.column.value == b"1"

    ks = client.describe_keyspace(fresh)
    assert ks.strategy_class == SIMPLE
    assert ks.strategy_options == {"replication_factor": "1"}
    assert ks.durable_writes is True
    assert ks in client.describe_keyspaces()
    (cf,) = ks.cf_defs
    assert (cf.keyspace, cf.name, cf.column_type) == (fresh, "Cf", "Standard")
    assert cf.comparator_type == MARSHAL + "UTF8Type"
    assert cf.subcomparator_type is None
    assert cf.default_validation_class == MARSHAL + "BytesType"
    assert cf.key_validation_class == MARSHAL + "BytesType"
    assert cf.comment == "made here"
    assert cf.gc_grace_seconds == 864000
    assert cf.compaction_strategy == ("org.apache.cassandra.db.compaction."
                                      "SizeTieredCompactionStrategy")
    assert cf.caching == "KEYS_ONLY"
    assert cf.id is None

    # An update replaces the definition: what is not sent reverts to its default.
    cf.comparator_type = "BytesType"
    cf.comment = None
    cf.default_time_to_live = 100
    cf.column_metadata = [ttypes.ColumnDef(b"n", "LongType")]
    v = client.system_update_column_family(cf)
    assert v == version(client)
    (cf,) = client.describe_keyspace(fresh).cf_defs
    assert cf.comparator_type == MARSHAL + "BytesType"
    assert cf.comment == ""
    assert cf.default_time_to_live == 100
    assert cf.column_metadata == [ttypes.ColumnDef(b"n", MARSHAL + "LongType")]
    assert client.get(b"k", ttypes.ColumnPath("Cf", column=b"a"), ONE).column.value == b"1"
    # An update that changes nothing keeps the version.
    assert client.system_update_column_family(cf) == v

    client.system_update_keyspace(ks_def(fresh, options={"replication_factor": "2"}))
    assert client.describe_keyspace(fresh).strategy_options == {"replication_factor": "2"}

    v = client.system_drop_column_family("Cf")
    assert v == version(client)
    assert why(client.get, b"k", ttypes.ColumnPath("Cf", column=b"a"), ONE) == \
        "unconfigured table Cf"
    # Re-created, it starts empty.
    client.system_add_column_family(cf_def(fresh, "Cf"))
    with pytest.raises(ttypes.NotFoundException):
        client.get(b"k", ttypes.ColumnPath("Cf", column=b"a"), ONE)
    v = client.system_drop_keyspace(fresh)
    assert v == version(client) == before
    assert why(client.get, b"k", ttypes.ColumnPath("Cf", column=b"a"), ONE) == \
        f"Keyspace {fresh} does not exist"


def test_a_keyspace_with_column_families_and_indexes(client, fresh):
    cfs = [
        cf_def(fresh, "Users", column_metadata=[
            ttypes.ColumnDef(b"birthdate", "LongType", ttypes.IndexType.KEYS),
            ttypes.ColumnDef(b"age", "IntegerType"),
        ]),
        cf_def(fresh, "Posts", column_type="Super", comparator_type="LongType",
               subcomparator_type="AsciiType"),
    ]
    client.system_add_keyspace(ks_def(fresh, cfs))
    ks = client.describe_keyspace(fresh)
    assert [c.name for c in ks.cf_defs] == ["Posts", "Users"]
    posts, users = ks.cf_defs
    assert posts.column_type == "Super"
    assert posts.subcomparator_type == MARSHAL + "AsciiType"
    # Sorted by the comparator's order; the index named after the CF and the name's hex.
    assert [c.name for c in users.column_metadata] == [b"age", b"birthdate"]
    indexed = users.column_metadata[1]
    assert indexed.index_type == ttypes.IndexType.KEYS
    assert indexed.index_name == "Users_626972746864617465_idx"
    assert users.column_metadata[0].validation_class == MARSHAL + "IntegerType"
    # Indexed reads and row filters compare values by the validator (LongType: signed).
    client.set_keyspace(fresh)
    long = lambda n: n.to_bytes(8, "big", signed=True)
    for key, born in ((b"neg", -1), (b"pos", 1), (b"big", 1)):
        client.insert(key, ttypes.ColumnParent("Users"), column(b"birthdate", long(born)), ONE)
    everything = ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, 10))
    eq = ttypes.IndexExpression(b"birthdate", ttypes.IndexOperator.EQ, long(1))
    rows = client.get_indexed_slices(ttypes.ColumnParent("Users"),
                                     ttypes.IndexClause([eq], b"", 10), everything, ONE)
    assert sorted(r.key for r in rows) == [b"big", b"pos"]
    gt = ttypes.IndexExpression(b"birthdate", ttypes.IndexOperator.GT, long(0))
    rows = client.get_range_slices(ttypes.ColumnParent("Users"), everything,
                                   ttypes.KeyRange(start_key=b"", end_key=b"", count=10,
                                                   row_filter=[gt]), ONE)
    assert sorted(r.key for r in rows) == [b"big", b"pos"]
    age = ttypes.IndexExpression(b"age", ttypes.IndexOperator.EQ, b"")
    assert why(client.get_indexed_slices, ttypes.ColumnParent("Users"),
               ttypes.IndexClause([age], b"", 10), everything, ONE) == \
        "No indexed columns present in index clause with operator EQ"
    short = ttypes.IndexExpression(b"birthdate", ttypes.IndexOperator.EQ, b"abc")
    assert why(client.get_indexed_slices, ttypes.ColumnParent("Users"),
               ttypes.IndexClause([short], b"", 10), everything, ONE) == \
        "[626972746864617465]=[616263] failed value validation (Expected 8 or 0 byte long (3))"

    # An indexed value must fit an index entry (spec §4.1 step 5); others may be larger.
    client.system_add_column_family(cf_def(fresh, "Notes", column_metadata=[
        ttypes.ColumnDef(b"tag", "BytesType", ttypes.IndexType.KEYS, "Notes_tag")]))
    assert why(client.insert, b"k", ttypes.ColumnParent("Notes"), column(b"tag", b"x" * 65536),
               ONE) == "Can't index column value of size 65536 for index Notes_tag in CF Notes of KS " + fresh
    client.insert(b"k", ttypes.ColumnParent("Notes"), column(b"tag", b"x" * 65535), ONE)
    client.insert(b"k", ttypes.ColumnParent("Notes"), column(b"other", b"x" * 65536), ONE)

    # The index keeps its name on update; another name is refused.
    users.column_metadata[1].index_name = "other"
    assert why(client.system_update_column_family, users) == \
        "Can't modify index name: was 'Users_626972746864617465_idx' changed to 'other'."


def test_keyspace_texts(client, fresh):
    assert why(client.system_add_keyspace, ks_def("SYSTEM")) == \
        "system keyspace is not user-modifiable"
    assert why(client.system_add_keyspace, ks_def("keyspace1")) == \
        'Keyspace names must be case-insensitively unique ("keyspace1" conflicts with "Keyspace1")'
    assert why(client.system_add_keyspace, ks_def(fresh, [cf_def("Other", "C")])) == \
        "CfDef (C) had a keyspace definition that did not match KsDef"
    assert why(client.system_add_keyspace, ks_def(fresh, strategy="Nope")) == \
        "Unable to find replication strategy class 'org.apache.cassandra.locator.Nope'"
    assert why(client.system_add_keyspace, ks_def(fresh, strategy="LocalStrategy")) == \
        "Unable to use given strategy class: LocalStrategy is reserved for internal use."
    assert why(client.system_add_keyspace, ks_def("in-valid")) == (
        "Keyspace name must not be empty, more than 48 characters long, or contain "
        'non-alphanumeric-underscore characters (got "in-valid")')
    assert why(client.system_add_keyspace, ks_def(fresh, options={"foo": "1"})) == \
        f"Unrecognized strategy option {{foo}} passed to SimpleStrategy for keyspace {fresh}"
    assert why(client.system_add_keyspace, ks_def(fresh, options={})) == \
        "SimpleStrategy requires a replication_factor strategy option."
    assert why(client.system_add_keyspace, ks_def(fresh, options={"replication_factor": "x"})) \
        == "Replication factor must be numeric; found x"
    assert why(client.system_add_keyspace, ks_def(fresh, options={"replication_factor": "-1"})) \
        == "Replication factor must be non-negative; found -1"
    nts = "NetworkTopologyStrategy"
    assert why(client.system_add_keyspace,
               ks_def(fresh, strategy=nts, options={"replication_factor": "1"})) == \
        "replication_factor is an option for SimpleStrategy, not NetworkTopologyStrategy"
    client.system_add_keyspace(ks_def(fresh, strategy=nts, options={"datacenter1": "1"}))
    ks = client.describe_keyspace(fresh)
    assert ks.strategy_class == "org.apache.cassandra.locator." + nts
    assert ks.strategy_options == {"datacenter1": "1"}
    assert why(client.system_update_keyspace, ks_def(fresh, [cf_def(fresh, "C")])) == \
        "Keyspace update must not contain any table definitions."
    assert why(client.system_update_keyspace, ks_def("Nowhere")) == \
        "Keyspace Nowhere does not exist"
    assert why(client.system_update_keyspace, ks_def("system")) == \
        "system keyspace is not user-modifiable"
    assert why(client.system_drop_keyspace, "Nowhere") == \
        "Cannot drop non existing keyspace 'Nowhere'."
    assert why(client.system_drop_keyspace, "System") == "system keyspace is not user-modifiable"


def test_column_family_texts(client, fresh):
    assert why(client.system_add_column_family, cf_def(fresh, "C")) == (
        "No keyspace has been specified. USE a keyspace, or explicitly specify "
        "keyspace.tablename")
    client.system_add_keyspace(ks_def(fresh, [cf_def(fresh, "Cf", comparator_type="AsciiType")]))
    client.set_keyspace(fresh)
    add = client.system_add_column_family
    assert why(add, cf_def("system", "C")) == "system keyspace is not user-modifiable."
    assert why(add, cf_def(fresh, "C", column_type="Wide")) == "Invalid column type Wide"
    assert why(add, cf_def(fresh, "C", comparator_type="Nope")) == \
        "Unable to find abstract-type class 'org.apache.cassandra.db.marshal.Nope'"
    assert why(add, cf_def(fresh, "in-valid")) == (
        "ColumnFamily name must not be empty, more than 48 characters long, or contain "
        'non-alphanumeric-underscore characters (got "in-valid")')
    assert why(add, cf_def(fresh, "C", comparator_type="CounterColumnType")) == \
        "CounterColumnType is not a valid comparator"
    assert why(add, cf_def(fresh, "C", key_validation_class="CounterColumnType")) == \
        "CounterColumnType is not a valid key validator"
    assert why(add, cf_def(fresh, "C", column_metadata=[
        ttypes.ColumnDef(b"c", "CounterColumnType")])) == \
        "Cannot add a counter column (63) in a non counter column family"
    assert why(add, cf_def(fresh, "C", comparator_type="LongType", column_metadata=[
        ttypes.ColumnDef(b"abc", "BytesType")])) == \
        "Column name 616263 is not valid for comparator " + MARSHAL + "LongType"
    assert why(add, cf_def(fresh, "C", column_metadata=[
        ttypes.ColumnDef(b"c", "BytesType", index_name="i")])) == \
        "Index name cannot be set without index type"
    assert why(add, cf_def(fresh, "C", column_type="Super", column_metadata=[
        ttypes.ColumnDef(b"c", "BytesType", ttypes.IndexType.KEYS)])) == \
        "Secondary indexes are not supported on super column families"
    assert why(add, cf_def(fresh, "C", column_metadata=[
        ttypes.ColumnDef(b"c", "BytesType", ttypes.IndexType.KEYS, "bad-name")])) == \
        "Illegal index name bad-name"
    assert why(add, cf_def(fresh, "C", min_compaction_threshold=1)) == \
        "Min compaction threshold cannot be less than 2 (got 1)."
    assert why(add, cf_def(fresh, "C", min_compaction_threshold=8,
                           max_compaction_threshold=4)) == \
        "Min compaction threshold (got 8) cannot be greater than max compaction threshold (got 4)"
    assert why(add, cf_def(fresh, "C", bloom_filter_fp_chance=0.0)) == (
        "Zero false positives is impossible; bloom filter false positive chance bffpc must be "
        "0 < bffpc <= 1")
    assert why(add, cf_def(fresh, "C", min_index_interval=0)) == \
        "Min index interval must be greater than 0 (got 0)."
    assert why(add, cf_def(fresh, "C", compaction_strategy="Nope")) == \
        "Unable to find compaction strategy class 'org.apache.cassandra.db.compaction.Nope'"
    assert why(add, cf_def(fresh, "C", speculative_retry="sometimes")) == \
        "invalid speculative_retry type: sometimes"
    assert why(add, cf_def(fresh, "C", gc_grace_seconds=-1)) == \
        "gc_grace_seconds must be non-negative"
    assert why(add, cf_def(fresh, "C", default_time_to_live=630720001)) == \
        "default_time_to_live must be between 0 and 630720000"
    assert why(add, cf_def(fresh, "C", comparator_type="ShortType")) == \
        "ShortType is not supported by ilion"
    assert why(add, cf_def(fresh, "C", comparator_type="CompositeType")) == \
        "CompositeType requires at least one component type"
    assert why(add, cf_def("Nowhere", "C")) == \
        "Cannot add table 'C' to non existing keyspace 'Nowhere'."
    assert why(add, cf_def(fresh, "Cf")) == \
        f'Cannot add already existing table "Cf" to keyspace "{fresh}"'
    assert why(client.system_drop_column_family, "Nope") == "unconfigured table Nope"

    update = client.system_update_column_family
    assert why(update, cf_def(fresh, "")) == "Keyspace and CF name must be set."
    assert why(update, cf_def("Nowhere", "Cf")) == "Keyspace Nowhere does not exist"
    assert why(update, cf_def(fresh, "Nope")) == "unconfigured table Nope"
    assert why(update, cf_def(fresh, "Cf", column_type="Super")) == \
        "Column family types do not match (found Super; expected Standard)."
    client.system_update_column_family(cf_def(fresh, "Cf", comparator_type="UTF8Type"))
    assert why(update, cf_def(fresh, "Cf", comparator_type="AsciiType")) == (
        "Column family comparators do not match or are not compatible "
        "(found AsciiType; expected UTF8Type).")
    client.system_update_column_family(cf_def(fresh, "Cf", comparator_type="BytesType"))


def test_validators_and_default_ttl(client, fresh):
    client.system_add_keyspace(ks_def(fresh, [
        cf_def(fresh, "V", comparator_type="UTF8Type", default_validation_class="LongType",
               key_validation_class="AsciiType", default_time_to_live=1000,
               column_metadata=[ttypes.ColumnDef(b"name", "UTF8Type")]),
    ]))
    client.set_keyspace(fresh)
    parent = ttypes.ColumnParent("V")
    assert why(client.insert, b"k", parent, column(b"n", b"short"), ONE) == \
        f"(Expected 8 or 0 byte long (5)) [{fresh}][V][n] failed validation"
    assert why(client.insert, b"k", parent, column(b"name", b"\xff"), ONE) == \
        f"(String didn't validate.) [{fresh}][V][name] failed validation"
    client.insert(b"k", parent, column(b"n", b"\0" * 8), ONE)
    client.insert(b"k", parent, column(b"name", "é".encode()), ONE)
    got = client.get(b"k", ttypes.ColumnPath("V", column=b"n"), ONE).column
    assert got.ttl == 1000, "the CF's default TTL applies to a column sent without one"
    client.insert(b"k", parent, column(b"m", b"\0" * 8, ttl=5), ONE)
    assert client.get(b"k", ttypes.ColumnPath("V", column=b"m"), ONE).column.ttl == 5
    assert why(client.insert, b"\xff", parent, column(b"n", b"\0" * 8), ONE).startswith(
        "Invalid byte for ascii: ")


@pytest.fixture(scope="module")
def auth_server():
    access = ("Keyspace1=jsmith,dilbert\n"
              "<modify-keyspaces>=jsmith\n")
    with ilion_harness.Server(authenticator=SIMPLE_AUTH,
                              extra_files={"access.properties": access}) as s:
        yield s


def test_keyspace_changes_need_modify_keyspaces(auth_server):
    c, t = connect(auth_server.later)
    try:
        assert why(c.system_add_keyspace, ks_def("Mine")) == "You have not logged in"
        c.login(ttypes.AuthenticationRequest({"username": "dilbert", "password": "nomoovertime"}))
        assert why(c.system_add_keyspace, ks_def("Mine")) == \
            "User dilbert could not be authorized to use keyspace Mine"
        assert why(c.system_drop_keyspace, "Keyspace1") == \
            "User dilbert could not be authorized to use keyspace Keyspace1"
        c.login(ttypes.AuthenticationRequest({"username": "jsmith", "password": "havebadpass"}))
        c.system_add_keyspace(ks_def("Mine"))
        c.system_drop_keyspace("Mine")
    finally:
        t.close()


def test_a_restart_keeps_the_schema(tmp_path):
    with ilion_harness.Server(directory=str(tmp_path), partitioner="RandomPartitioner") as s:
        c, t = connect(s.later)
        c.system_add_keyspace(ks_def("Kept", [cf_def("Kept", "Cf", comparator_type="LongType")]))
        c.system_drop_keyspace("Replicated")
        c.set_keyspace("Kept")
        c.insert(b"k", ttypes.ColumnParent("Cf"), column(b"\0" * 8, b"v"), ONE)
        v = c.describe_schema_versions()
        t.close()
        s.stop()
        s.start()
        c, t = connect(s.later)
        assert c.describe_schema_versions() == v
        names = [k.name for k in c.describe_keyspaces()]
        assert "Kept" in names and "Replicated" not in names, "dropped stays dropped"
        c.set_keyspace("Kept")
        got = c.get(b"k", ttypes.ColumnPath("Cf", column=b"\0" * 8), ONE).column
        assert got.value == b"v"
        t.close()
