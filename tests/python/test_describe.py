"""describe_* and the string properties (docs/api.md#describe)."""

import json

import pytest
from conftest import constants, ttypes


def test_version_matches_the_idl(client):
    assert client.describe_version() == constants.VERSION == "2.2.0"
    assert client.get_string_property("version") == "2.2.0"


def test_cluster_keyspaces_partitioner(client):
    assert client.describe_cluster_name() == "Test Cluster"
    assert client.get_string_property("cluster name") == "Test Cluster"
    assert {"system", "Keyspace1", "Replicated"} <= set(client.describe_keyspaces())
    assert set(client.get_string_list_property("keyspaces")) == set(client.describe_keyspaces())
    assert client.get_string_list_property("nothing") == []
    assert client.describe_partitioner() == "org.apache.cassandra.dht.OrderPreservingPartitioner"
    assert client.get_string_property("no such property") == "?"
    assert "<Storage>" in client.get_string_property("config file")


def test_describe_keyspace(client):
    ks = client.describe_keyspace("Keyspace1")
    assert ks["Standard2"]["Type"] == "Standard"
    assert ks["Standard2"]["CompareWith"] == "org.apache.cassandra.db.marshal.UTF8Type"
    assert "CompareSubcolumnsWith" not in ks["Standard2"]
    assert ks["SuperLong"]["Type"] == "Super"
    assert ks["SuperLong"]["CompareSubcolumnsWith"] == "org.apache.cassandra.db.marshal.LongType"
    assert set(ks["SuperLong"]) == {"Type", "CompareWith", "CompareSubcolumnsWith", "Desc"}
    system = client.describe_keyspace("system")
    assert system["LocationInfo"]["Desc"] == "persistent metadata for the local node"
    with pytest.raises(ttypes.NotFoundException):
        client.describe_keyspace("NoSuchKeyspace")


def test_ring_and_token_map(client, server):
    ring = client.describe_ring("Keyspace1")
    assert len(ring) == 1
    assert ring[0].start_token == ring[0].end_token
    assert ring[0].endpoints == ["127.0.0.1"]
    tokens = json.loads(client.get_string_property("token map"))
    assert list(tokens.values()) == ["127.0.0.1"]
    for bad in ["system", "NoSuchKeyspace"]:
        with pytest.raises(ttypes.InvalidRequestException) as e:
            client.describe_ring(bad)
        assert e.value.why == f"There is no ring for the keyspace: {bad}"
    splits = client.describe_splits(ring[0].start_token, ring[0].end_token, 128)
    assert splits[0] == ring[0].start_token and splits[-1] == ring[0].end_token
