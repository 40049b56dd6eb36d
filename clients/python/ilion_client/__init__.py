"""ilion_client: a small Python client for ilion and other Cassandra 0.6 Thrift servers.

    import ilion_client

    with ilion_client.connect("localhost", 9160) as conn:
        users = conn["Keyspace1"]["Standard2"]          # a UTF8Type column family
        users.insert("jsmith", "email", "jsmith@example.com")
        print(users.get("jsmith", "email").text)
        for column in users.get_slice("jsmith", count=10):
            print(column.name, column.value)

Names are Python values chosen by each column family's comparator (str, int, uuid.UUID,
bytes; see ilion_client.names). The Thrift bindings are generated from the repository's
IDL on first use (see ilion_client.bindings).
"""

from . import timeuuid
from .bindings import BindingsError, load as load_bindings
from .client import (Batch, Column, ColumnFamily, Connection, Keyspace, SuperColumn, connect,
                     timestamp)
from .errors import (AuthenticationFailed, AuthorizationFailed, ConnectionFailed, IlionError,
                     InvalidRequest, NotFound, ServerError, TimedOut, Unavailable)
from .names import NameCodec

__all__ = [
    "connect", "Connection", "Keyspace", "ColumnFamily", "Batch", "Column", "SuperColumn",
    "timestamp", "timeuuid", "NameCodec", "load_bindings", "BindingsError", "IlionError",
    "InvalidRequest", "NotFound", "Unavailable", "TimedOut", "AuthenticationFailed",
    "AuthorizationFailed", "ServerError", "ConnectionFailed",
]
