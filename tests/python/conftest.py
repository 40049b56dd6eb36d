"""Fixtures: Python bindings generated from idl/cassandra.thrift at test time, a real ilion
server (the release binary) per module, and a client per transport (buffered and framed)."""

import os
import sys
import tempfile
import uuid

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import ilion_harness  # noqa: E402

_gen_dir = tempfile.mkdtemp(prefix="ilion-gen-py-")
Cassandra, ttypes, constants = ilion_harness.generate_python_bindings(_gen_dir)

from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402


def connect(server, framed):
    sock = TSocket.TSocket(server.host, server.port)
    sock.setTimeout(10000)
    transport = TTransport.TFramedTransport(sock) if framed else TTransport.TBufferedTransport(sock)
    client = Cassandra.Client(TBinaryProtocol.TBinaryProtocol(transport))
    transport.open()
    return client, transport


@pytest.fixture(scope="module")
def server():
    with ilion_harness.Server() as s:
        yield s


@pytest.fixture(params=["buffered", "framed"])
def client(request, server):
    c, transport = connect(server, request.param == "framed")
    yield c
    transport.close()


@pytest.fixture
def key():
    """A row key no other test uses."""
    return "k-" + uuid.uuid4().hex[:12]
