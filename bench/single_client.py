"""One-client figures for the release binary (README.md, *Benchmarks*): start-up time to the
"listening" line, resident memory at idle, and insert / get calls per second from ONE Python
client (generated bindings, accelerated protocol) for each framing.

    cargo build --release && python3 bench/single_client.py [seconds-per-run]
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "python"))
import ilion_harness  # noqa: E402

Cassandra, ttypes, _ = ilion_harness.generate_python_bindings(tempfile.mkdtemp(prefix="ilion-gen-"))
from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
ONE = ttypes.ConsistencyLevel.ONE


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024


def rate(call):
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        call(n)
        n += 1
    return n / (time.perf_counter() - start)


def main():
    starts = []
    for _ in range(5):
        t0 = time.perf_counter()
        server = ilion_harness.Server(partitioner="RandomPartitioner")
        starts.append(time.perf_counter() - t0)
        server.close()
    server = ilion_harness.Server(partitioner="RandomPartitioner")
    time.sleep(1)
    print(f"start-up to listening: median {sorted(starts)[2] * 1000:.0f} ms over 5 starts")
    print(f"RSS at idle: {rss_mib(server.proc.pid):.1f} MiB")
    for framed in (False, True):
        sock = TSocket.TSocket(server.host, server.port)
        transport = TTransport.TFramedTransport(sock) if framed else TTransport.TBufferedTransport(sock)
        client = Cassandra.Client(TBinaryProtocol.TBinaryProtocolAccelerated(transport))
        transport.open()
        path = ttypes.ColumnPath(column_family="Standard1", column=b"C0")
        ins = rate(lambda n: client.insert("Keyspace1", f"key{n}", path, b"v" * 34, n, ONE))
        get = rate(lambda n: client.get("Keyspace1", f"key{n % 1000}", path, ONE))
        print(f"python, {'framed' if framed else 'unframed'}: insert {ins:,.0f}/s, get {get:,.0f}/s")
        transport.close()
    print(f"RSS after the runs: {rss_mib(server.proc.pid):.1f} MiB")
    server.close()


if __name__ == "__main__":
    main()
