"""The later API's listener, sessions and cluster calls, through bindings generated from
idl/cassandra-20.thrift (docs/api-later.md): describe_*, set_keyspace, login under both
authenticators, trace_next_query, the CQL answers, and the 0.6 listener serving beside it."""

import uuid

import pytest
from thrift.Thrift import TApplicationException

import ilion_harness
from conftest import Cassandra, connect, ttypes

BYTES = "org.apache.cassandra.db.marshal.BytesType"
SIMPLE = "org.apache.cassandra.auth.SimpleAuthenticator"


def test_version_names_and_snitch(client):
    assert client.describe_version() == "20.1.0"
    assert client.describe_cluster_name() == "Test Cluster"
    assert client.describe_partitioner() == "org.apache.cassandra.dht.RandomPartitioner"
    assert client.describe_snitch() == "org.apache.cassandra.locator.SimpleSnitch"


def test_keyspaces_are_described_as_the_later_api_sees_them(client):
    keyspaces = client.describe_keyspaces()
    assert [k.name for k in keyspaces] == ["Keyspace1", "Replicated", "system"]
    system = keyspaces[2]
    assert system.strategy_class == "org.apache.cassandra.locator.LocalStrategy"
    assert system.cf_defs == []
    ks = client.describe_keyspace("Keyspace1")
    assert ks == keyspaces[0]
    assert ks.strategy_class == "org.apache.cassandra.locator.SimpleStrategy"
    assert ks.strategy_options == {"replication_factor": "1"}
    assert ks.durable_writes is True
    cfs = {cf.name: cf for cf in ks.cf_defs}
    assert sorted(cfs) == [cf.name for cf in ks.cf_defs], "CFs sorted by name"
    standard2 = cfs["Standard2"]
    assert standard2.keyspace == "Keyspace1"
    assert standard2.column_type == "Standard"
    assert standard2.comparator_type == "org.apache.cassandra.db.marshal.UTF8Type"
    assert standard2.subcomparator_type is None
    assert standard2.comment == "UTF-8 names"
    assert standard2.default_validation_class == BYTES
    assert standard2.key_validation_class == BYTES
    assert standard2.key_alias == b"key"
    assert standard2.column_metadata == []
    assert standard2.default_time_to_live == 0
    assert standard2.id is None
    super_long = cfs["SuperLong"]
    assert super_long.column_type == "Super"
    assert super_long.comparator_type == "org.apache.cassandra.db.marshal.UTF8Type"
    assert super_long.subcomparator_type == "org.apache.cassandra.db.marshal.LongType"
    assert cfs["StdTime"].comparator_type == "org.apache.cassandra.db.marshal.TimeUUIDType"
    assert cfs["Standard1"].comment == ""


def test_an_unknown_keyspace_is_not_found(client):
    with pytest.raises(ttypes.NotFoundException):
        client.describe_keyspace("keyspace1")


def test_the_ring_is_this_node(client):
    ring = client.describe_ring("Keyspace1")
    assert len(ring) == 1
    r = ring[0]
    assert r.start_token == r.end_token
    assert int(r.start_token) >= 0
    assert r.endpoints == ["127.0.0.1"]
    assert r.rpc_endpoints == ["127.0.0.1"]
    details = r.endpoint_details[0]
    assert (details.host, details.datacenter, details.rack) == ("127.0.0.1", "datacenter1", "rack1")
    assert client.describe_local_ring("Keyspace1") == ring
    assert client.describe_token_map() == {r.start_token: "127.0.0.1"}
    with pytest.raises(ttypes.InvalidRequestException) as e:
        client.describe_ring("system")
    assert e.value.why == "There is no ring for the keyspace: system"
    with pytest.raises(ttypes.InvalidRequestException) as e:
        client.describe_ring("Nowhere")
    assert e.value.why == "No such keyspace: Nowhere"


def test_one_schema_version_held_by_this_node(client):
    versions = client.describe_schema_versions()
    assert len(versions) == 1
    (version, nodes), = versions.items()
    assert nodes == ["127.0.0.1"]
    assert uuid.UUID(version).version == 3
    assert client.describe_schema_versions() == versions


def test_set_keyspace_checks_the_name_case_sensitively(client):
    client.set_keyspace("Keyspace1")
    client.set_keyspace("system")
    with pytest.raises(ttypes.InvalidRequestException) as e:
        client.set_keyspace("KEYSPACE1")
    assert e.value.why == "Keyspace 'KEYSPACE1' does not exist"


def test_trace_next_query_gives_a_fresh_time_uuid(client):
    first = uuid.UUID(bytes=client.trace_next_query())
    second = uuid.UUID(bytes=client.trace_next_query())
    assert first.version == 1 and second.version == 1
    assert first != second


def test_cql_answers(client):
    with pytest.raises(ttypes.InvalidRequestException) as e:
        client.execute_cql_query(b"SELECT * FROM Standard1", ttypes.Compression.NONE)
    assert e.value.why == "CQL2 has been removed in Cassandra 2.2. Please use CQL3 instead"
    with pytest.raises(ttypes.InvalidRequestException) as e:
        client.execute_cql3_query(b"SELECT * FROM Standard1", ttypes.Compression.NONE,
                                  ttypes.ConsistencyLevel.ONE)
    assert e.value.why == "CQL is not supported yet"
    with pytest.raises(ttypes.InvalidRequestException) as e:
        client.prepare_cql3_query(b"SELECT * FROM Standard1", ttypes.Compression.NONE)
    assert e.value.why == "CQL is not supported yet"
    client.set_cql_version("3.0.0")


def test_the_0_6_listener_serves_beside_it(server, client):
    # describe_version has the same shape in both APIs, so this client can ask the 0.6
    # listener too: each port answers its own API's VERSION, over one store.
    assert server.port != server.later[1]
    old, transport = connect((server.host, server.port))
    try:
        assert old.describe_version() == "2.2.0"
    finally:
        transport.close()
    assert client.describe_version() == "20.1.0"


def test_a_0_6_call_on_the_later_port_is_an_unknown_method(client):
    # get_string_property exists only in the 0.6 API.
    with pytest.raises(TApplicationException) as e:
        client._oprot.writeMessageBegin("get_string_property", 1, 0)
        args = Cassandra.describe_version_args()
        args.write(client._oprot)
        client._oprot.writeMessageEnd()
        client._oprot.trans.flush()
        client.recv_describe_version()
    assert e.value.type == TApplicationException.UNKNOWN_METHOD
    assert "get_string_property" in e.value.message
    assert client.describe_version() == "20.1.0"


def test_version_override_and_disabled_listeners():
    with ilion_harness.Server(elements={"Thrift20Version": "19.36.2"}) as s:
        c, t = connect(s.later)
        try:
            assert c.describe_version() == "19.36.2"
        finally:
            t.close()
    with ilion_harness.Server(elements={"Thrift20Enabled": "false"}) as s:
        assert s.later is None
        assert not any("later API" in line for line in s.log)


def test_later_clients_alone(tmp_path):
    # A site with only later-API clients: the 0.6 listener off, the later one on a free port.
    with ilion_harness.Server(elements={"ThriftEnabled": "false"}) as s:
        assert s.later is not None
        assert (s.host, s.port) == s.later
        c, t = connect(s.later)
        try:
            assert c.describe_version() == "20.1.0"
        finally:
            t.close()


@pytest.fixture(scope="module")
def auth_server():
    with ilion_harness.Server(authenticator=SIMPLE) as s:
        yield s


def test_login_then_keyspace_access(auth_server):
    c, t = connect(auth_server.later)
    try:
        # No login needed for these.
        assert c.describe_version() == "20.1.0"
        assert len(c.describe_schema_versions()) == 1
        c.describe_ring("Keyspace1")
        # Before a login any keyspace name is taken; later calls check it.
        c.set_keyspace("NoSuchKeyspace")
        with pytest.raises(ttypes.InvalidRequestException) as e:
            c.describe_keyspaces()
        assert e.value.why == "You have not logged in"
        with pytest.raises(ttypes.InvalidRequestException) as e:
            c.describe_keyspace("Keyspace1")
        assert e.value.why == "You have not logged in"
        with pytest.raises(ttypes.AuthenticationException) as e:
            c.login(ttypes.AuthenticationRequest({"username": "jsmith", "password": "wrong"}))
        assert e.value.why == ("Given password in password mode PLAIN could not be validated "
                               "for user jsmith")
        with pytest.raises(ttypes.AuthenticationException) as e:
            c.login(ttypes.AuthenticationRequest({"username": "jsmith"}))
        assert e.value.why == "Authentication request was missing the required key 'password'"
        c.login(ttypes.AuthenticationRequest({"username": "dilbert", "password": "nomoovertime"}))
        assert [k.name for k in c.describe_keyspaces()] == ["Keyspace1", "Replicated", "system"]
        with pytest.raises(ttypes.InvalidRequestException) as e:
            c.set_keyspace("NoSuchKeyspace")
        assert e.value.why == "Keyspace 'NoSuchKeyspace' does not exist"
        # A failed login keeps the user logged in before it.
        with pytest.raises(ttypes.AuthenticationException):
            c.login(ttypes.AuthenticationRequest({"username": "dilbert", "password": "x"}))
        assert c.describe_keyspace("Replicated").name == "Replicated"
    finally:
        t.close()


NO_KEYSPACE = ("No keyspace has been specified. USE a keyspace, or explicitly specify "
               "keyspace.tablename")


def parent(cf):
    return ttypes.ColumnParent(column_family=cf)


def everything():
    return ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, 100))


def why(call):
    with pytest.raises(ttypes.InvalidRequestException) as e:
        call()
    return e.value.why


def test_data_calls_check_the_session_in_order(client):
    one = ttypes.ConsistencyLevel.ONE
    slice_ = lambda cf: (lambda: client.get_slice(b"k", parent(cf), everything(), one))  # noqa: E731
    assert why(slice_("Standard1")) == NO_KEYSPACE
    assert why(lambda: client.truncate("Standard1")) == NO_KEYSPACE
    assert why(lambda: client.batch_mutate({}, one)) == NO_KEYSPACE
    client.set_keyspace("Keyspace1")
    assert why(slice_("")) == "non-empty table is required"
    assert why(slice_("Nope")) == "unconfigured table Nope"
    assert why(lambda: client.describe_splits_ex("Nope", "0", "0", 10)) == "unconfigured table Nope"
    # Every session check passed: the call is served.
    assert client.get_slice(b"k", parent("Standard1"), everything(), one) == []


def test_under_simple_auth_the_table_is_checked_before_the_login(auth_server):
    c, t = connect(auth_server.later)
    one = ttypes.ConsistencyLevel.ONE
    try:
        c.set_keyspace("Keyspace1")
        get = lambda cf: (lambda: c.get_count(b"k", parent(cf), everything(), one))  # noqa: E731
        assert why(get("Nope")) == "unconfigured table Nope"
        assert why(get("Standard1")) == "You have not logged in"
        c.login(ttypes.AuthenticationRequest({"username": "dilbert", "password": "nomoovertime"}))
        assert get("Standard1")() == 0
        # dilbert is listed for Keyspace1 but not for Replicated in access.properties.
        c.set_keyspace("Replicated")
        assert why(get("Standard1")) == (
            "User dilbert could not be authorized to use keyspace Replicated")
        # A keyspace that disappeared after set_keyspace: not possible with a static
        # schema, so a name set before login stands in for it.
        c2, t2 = connect(auth_server.later)
        try:
            c2.set_keyspace("Gone")
            assert why(lambda: c2.get_count(b"k", parent("Standard1"), everything(), one)) == (
                "Keyspace Gone does not exist")
        finally:
            t2.close()
    finally:
        t.close()
