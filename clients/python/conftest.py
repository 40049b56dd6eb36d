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


#: The API the ilion_client suite runs against: "0.6" (the default) or "later"
#: (ILION_TEST_API=later, with the later bindings in ILION_GEN_PY20 or the cache). One
#: process holds one API's bindings, so test.sh runs the suite once per API.
API = os.environ.get("ILION_TEST_API", "0.6")


def port_of(server):
    """The port of `server`'s listener for API."""
    return server.later[1] if API == "later" else server.port


@pytest.fixture(scope="session")
def gen():
    """The generated modules: gen.Cassandra, gen.ttypes, gen.constants."""
    return ilion_client.load_bindings(api=API)


@pytest.fixture(params=[False, True], ids=["buffered", "framed"])
def framed(request):
    return request.param


@pytest.fixture
def conn(server, framed):
    with ilion_client.connect(server.host, port_of(server), framed=framed, api=API) as c:
        yield c
