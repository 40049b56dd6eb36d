"""Declared exceptions through the bindings: validation (docs/api.md#validation),
consistency levels (#consistency), unknown methods (#wire) and SimpleAuthenticator login (#auth)."""

import struct

import pytest
from conftest import Cassandra, connect, ttypes
from thrift.protocol import TBinaryProtocol
from thrift.Thrift import TApplicationException, TMessageType
from thrift.transport import TSocket, TTransport

KS = "Keyspace1"
CL = ttypes.ConsistencyLevel


def path(cf, column=None, super_column=None):
    return ttypes.ColumnPath(column_family=cf, column=column, super_column=super_column)


def parent(cf, super_column=None):
    return ttypes.ColumnParent(column_family=cf, super_column=super_column)


def why(call):
    with pytest.raises(ttypes.InvalidRequestException) as e:
        call()
    return e.value.why


def test_validation_messages(client):
    ins = lambda ks, key, p: client.insert(ks, key, p, b"v", 1, CL.ONE)  # noqa: E731
    assert why(lambda: ins(KS, "", path("Standard1", b"c"))) == "Key may not be empty"
    assert why(lambda: ins("Nope", "k", path("Standard1", b"c"))) == "Keyspace Nope does not exist in this schema."
    assert why(lambda: ins(KS, "k", path("", b"c"))) == "non-empty columnfamily is required"
    assert why(lambda: ins(KS, "k", path("Nope", b"c"))) == "unconfigured columnfamily Nope"
    assert why(lambda: ins(KS, "k", path("Standard1", b"c", b"sc"))) == "supercolumn parameter is invalid for standard CF Standard1"
    assert why(lambda: ins(KS, "k", path("Standard1"))) == "column parameter is not optional for standard CF Standard1"
    assert why(lambda: ins(KS, "k", path("Super1", b"c"))) == "supercolumn parameter is not optional for super CF Super1"
    assert why(lambda: ins(KS, "k", path("Standard1", b""))) == "column name must not be empty"
    assert why(lambda: ins(KS, "k", path("StdLong", b"abc"))) == "A long is exactly 8 bytes"
    assert why(lambda: ins(KS, "k", path("StdLexical", b"abc"))) == "UUIDs must be exactly 16 bytes"
    assert why(lambda: ins(KS, "k", path("StdTime", b"abc"))) == "TimeUUID should be 16 or 0 bytes (3)"
    assert why(lambda: ins(KS, "k", path("StdTime", b"\x00" * 16))) == "Invalid version for TimeUUID type."
    assert why(lambda: ins(KS, "k", path("Standard2", b"\xc3\x28"))) == "invalid UTF8 bytes [-61, 40]"
    assert why(lambda: ins(KS, "k" * 65536, path("Standard1", b"c"))) == "Encoded key length of 65536 is longer than maximum of 65535"


def test_predicate_and_range_messages(client):
    sl = lambda pred: client.get_slice(KS, "k", parent("Standard1"), pred, CL.ONE)  # noqa: E731
    assert why(lambda: sl(ttypes.SlicePredicate())) == "predicate column_names and slice_range may not both be null"
    assert why(lambda: sl(ttypes.SlicePredicate(column_names=[b"a"], slice_range=ttypes.SliceRange(b"", b"", False, 1)))) == \
        "predicate column_names and slice_range may not both be present"
    assert why(lambda: sl(ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"b", b"a", False, 1)))) == \
        "range finish must come after start in the order of traversal"
    assert why(lambda: sl(ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, -1)))) == \
        "get_slice requires non-negative count"
    pred = ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, 10))
    rs = lambda rng: client.get_range_slices(KS, parent("Standard1"), pred, rng, CL.ONE)  # noqa: E731
    assert why(lambda: rs(ttypes.KeyRange(start_key="a", count=10))) == \
        "start key and end key must either both be non-null, or both be null"
    assert why(lambda: rs(ttypes.KeyRange(count=10))) == \
        "exactly one of {start key, end key} or {start token, end token} must be specified"
    assert why(lambda: rs(ttypes.KeyRange(start_key="b", end_key="a", count=10))) == \
        "start key must sort before (or equal to) finish key in your partitioner!"
    assert why(lambda: rs(ttypes.KeyRange(start_key="a", end_key="b", count=0))) == "maxRows must be positive"


def test_consistency_levels(client):
    get = lambda ks, cl: client.get_slice(ks, "k", parent("Standard1"), ttypes.SlicePredicate(column_names=[b"a"]), cl)  # noqa: E731
    assert why(lambda: get(KS, CL.ZERO)) == "Consistency level zero may not be applied to read operations"
    assert why(lambda: get(KS, CL.ANY)) == "Consistency level any may not be applied to read operations"
    assert get(KS, CL.QUORUM) == [] and get(KS, CL.ALL) == []
    with pytest.raises(ttypes.UnavailableException):
        get("Replicated", CL.QUORUM)
    # Writes succeed at every level on one node, even with ReplicationFactor 3.
    for cl in [CL.ZERO, CL.ONE, CL.QUORUM, CL.ALL, CL.ANY]:
        client.insert("Replicated", "k", path("Standard1", b"c"), b"v", 1, cl)


def raw_call(server, name, framed):
    sock = TSocket.TSocket(server.host, server.port)
    transport = TTransport.TFramedTransport(sock) if framed else TTransport.TBufferedTransport(sock)
    transport.open()
    proto = TBinaryProtocol.TBinaryProtocol(transport)
    proto.writeMessageBegin(name, TMessageType.CALL, 7)
    proto.writeStructBegin("args")
    proto.writeFieldStop()
    proto.writeStructEnd()
    proto.writeMessageEnd()
    transport.flush()
    fname, mtype, seqid = proto.readMessageBegin()
    err = TApplicationException()
    err.read(proto)
    proto.readMessageEnd()
    return transport, proto, (fname, mtype, seqid), err


@pytest.mark.parametrize("framed", [False, True])
def test_unknown_method_and_missing_required_field(server, framed):
    transport, proto, header, err = raw_call(server, "no_such_method", framed)
    assert header == ("no_such_method", TMessageType.EXCEPTION, 7)
    assert (err.type, err.message) == (TApplicationException.UNKNOWN_METHOD, "Invalid method name: 'no_such_method'")
    transport.close()
    transport, proto, header, err = raw_call(server, "get", framed)
    assert header[1] == TMessageType.EXCEPTION and err.type == TApplicationException.PROTOCOL_ERROR
    # The connection stays usable after either.
    client = Cassandra.Client(proto)
    assert client.describe_version() == "2.2.0"
    transport.close()


def test_simple_authenticator():
    import ilion_harness
    # The users and grants of tests/conf: Replicated is granted to jsmith only.
    with ilion_harness.Server(authenticator="org.apache.cassandra.auth.SimpleAuthenticator") as server:
        client, transport = connect(server, framed=False)
        pred = ttypes.SlicePredicate(column_names=[b"a"])
        assert why(lambda: client.get_slice(KS, "k", parent("Standard1"), pred, CL.ONE)) == \
            "Login is required before any other API calls"
        assert client.describe_version() == "2.2.0"  # describe_* never need a login
        bad = ttypes.AuthenticationRequest({"username": "jsmith", "password": "nope"})
        with pytest.raises(ttypes.AuthenticationException) as e:
            client.login(KS, bad)
        assert e.value.why == "Given password in password mode PLAIN could not be validated for user jsmith"
        with pytest.raises(ttypes.AuthorizationException):
            client.login("Replicated", ttypes.AuthenticationRequest({"username": "dilbert", "password": "nomoovertime"}))
        client.login(KS, ttypes.AuthenticationRequest({"username": "Elvis Presley", "password": "graceland4evar"}))
        assert client.get_slice(KS, "k", parent("Standard1"), pred, CL.ONE) == []
        transport.close()
        # Login state belongs to the connection.
        other, t2 = connect(server, framed=True)
        assert why(lambda: other.get_count(KS, "k", parent("Standard1"), CL.ONE)) == \
            "Login is required before any other API calls"
        t2.close()


def test_long_names_roundtrip_bytes(client):
    name = struct.pack(">q", -5)
    client.insert(KS, "long", path("StdLong", name), b"v", 1, CL.ONE)
    assert client.get(KS, "long", path("StdLong", name), CL.ONE).column.name == name
