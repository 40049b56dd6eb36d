"""Fixtures for the later API (IDL 20.1.0) suites: Python bindings generated from
idl/cassandra-20.thrift at test time, a real ilion server (the release binary) per module
serving both APIs, and clients of the later listener over framed and buffered transports.
A separate directory (and pytest run) from tests/python, because both IDLs generate the
Python package `cassandra`."""

import os
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import ilion_harness  # noqa: E402

IDL20 = os.path.join(ilion_harness.ROOT, "idl", "cassandra-20.thrift")
_gen_dir = tempfile.mkdtemp(prefix="ilion-gen-py20-")
Cassandra, ttypes, constants = ilion_harness.generate_python_bindings(_gen_dir, IDL20)

from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402


def connect(address, framed=True):
    """A client of the later API at `address` (host, port); framed is the later default."""
    sock = TSocket.TSocket(*address)
    sock.setTimeout(10000)
    transport = TTransport.TFramedTransport(sock) if framed else TTransport.TBufferedTransport(sock)
    client = Cassandra.Client(TBinaryProtocol.TBinaryProtocol(transport))
    transport.open()
    return client, transport


@pytest.fixture(scope="module")
def server():
    with ilion_harness.Server(partitioner="RandomPartitioner") as s:
        yield s


@pytest.fixture(params=["framed", "buffered"])
def client(request, server):
    c, transport = connect(server.later, request.param == "framed")
    yield c
    transport.close()
