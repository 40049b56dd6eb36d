"""Fixtures for the Python client suites: one real ilion server (the release binary, via
clients/serve.py and the server suite's harness) shared by the session, and the Python
bindings generated from the IDL (ILION_GEN_PY, or generated into a cache on first use)."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # clients/, for serve.py

import ilion_client  # noqa: E402
import serve  # noqa: E402


@pytest.fixture(scope="session")
def server():
    with serve.start() as s:
        yield s


@pytest.fixture(scope="session")
def gen():
    """The generated modules: gen.Cassandra, gen.ttypes, gen.constants."""
    return ilion_client.load_bindings()


@pytest.fixture(params=[False, True], ids=["buffered", "framed"])
def framed(request):
    return request.param


@pytest.fixture
def conn(server, framed):
    with ilion_client.connect(server.host, server.port, framed=framed) as c:
        yield c
