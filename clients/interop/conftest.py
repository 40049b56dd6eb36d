"""Fixtures for the cross-language suite: Python (ilion_client, the blog app) and Ruby (the
blog app twin, a Ruby peer client) against the same real server."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(CLIENTS, "python"))
sys.path.insert(0, CLIENTS)

import serve  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with serve.start() as s:
        yield s
