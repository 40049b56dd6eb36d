"""A small Python client for ilion over the plain generated bindings (no helper library).

    python3 example.py [HOST [PORT]] [--framed]

Expects the `cassandra` package made by `thrift -gen py -out gen-py idl/cassandra.thrift`
in ./gen-py (or in the directory named by ILION_GEN_PY). Writes a user's profile into
Keyspace1/Standard2 (UTF8Type names) with one batch_mutate and reads it back.
"""

import os
import sys
import time

sys.path.insert(0, os.environ.get("ILION_GEN_PY", os.path.join(os.path.dirname(__file__), "gen-py")))

from cassandra import Cassandra  # noqa: E402
from cassandra.ttypes import (Column, ColumnOrSuperColumn, ColumnParent, ColumnPath,  # noqa: E402
                              ConsistencyLevel, Mutation, NotFoundException, SlicePredicate,
                              SliceRange)
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402


def main(argv):
    framed = "--framed" in argv
    args = [a for a in argv if not a.startswith("--")]
    host = args[0] if args else "localhost"
    port = int(args[1]) if len(args) > 1 else 9160

    socket = TSocket.TSocket(host, port)
    socket.setTimeout(10_000)
    transport = (TTransport.TFramedTransport if framed else TTransport.TBufferedTransport)(socket)
    client = Cassandra.Client(TBinaryProtocol.TBinaryProtocolAccelerated(transport))
    transport.open()
    try:
        one = ConsistencyLevel.ONE
        print(f"Connected to {client.describe_cluster_name()} (API {client.describe_version()})")

        now = time.time_ns() // 1000  # microseconds, the usual timestamp unit
        profile = {"name": "Jane Smith", "email": "jsmith@example.com", "city": "Kraków"}
        mutations = [Mutation(column_or_supercolumn=ColumnOrSuperColumn(
            column=Column(name=k.encode(), value=v.encode(), timestamp=now))) for k, v in profile.items()]
        client.batch_mutate("Keyspace1", {"jsmith": {"Standard2": mutations}}, one)

        everything = SlicePredicate(slice_range=SliceRange(start=b"", finish=b"", count=100))
        for cosc in client.get_slice("Keyspace1", "jsmith", ColumnParent("Standard2"), everything, one):
            print(f"  {cosc.column.name.decode()} = {cosc.column.value.decode()}")

        try:
            client.get("Keyspace1", "jsmith", ColumnPath("Standard2", column=b"phone"), one)
        except NotFoundException:
            print("  (no phone number on file)")
    finally:
        transport.close()


if __name__ == "__main__":
    main(sys.argv[1:])
