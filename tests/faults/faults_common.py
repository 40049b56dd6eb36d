"""What the fault harnesses share (docs/faults.md): the generated Python bindings, a real
`ilion serve` process on a directory that outlives it, and clients on its port.

The configuration is the suites' one test file (tests/conf/storage-conf.xml) through
tests/python/ilion_harness.py's conf_text, varied here by engine, CommitLogSync mode,
GCGraceSeconds and any further top-level elements. Data lives in `data` and `commitlog`
under the node's directory, or wherever `data_dir` points (the I/O-error tests put it on a
small filesystem of their own).
"""

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import ilion_harness  # noqa: E402

_gen_dir = tempfile.mkdtemp(prefix="ilion-faults-py-")
atexit.register(shutil.rmtree, _gen_dir, True)
Cassandra, ttypes, constants = ilion_harness.generate_python_bindings(_gen_dir)

from thrift.protocol import TBinaryProtocol  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402

KS = "Keyspace1"
ONE = ttypes.ConsistencyLevel.ONE


def rss_kib(pid):
    """Resident set size of process `pid` in KiB (from /proc)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Node:
    """An `ilion serve` process on `directory`, restartable (start / kill / stop)."""

    def __init__(self, directory, engine="sled", sync="batch", data_dir=None, elements=None):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        text = ilion_harness.conf_text(sync=sync)
        text = ilion_harness.set_element(text, "StorageEngine", engine)
        if data_dir is not None:
            text = ilion_harness.set_element(
                text, "DataFileDirectories", f"<DataFileDirectory>{data_dir}</DataFileDirectory>")
            text = ilion_harness.set_element(
                text, "CommitLogDirectory", os.path.join(os.path.dirname(data_dir), "commitlog"))
        for name, value in (elements or {}).items():
            text = ilion_harness.set_element(text, name, value)
        self.config_path = os.path.join(directory, "storage-conf.xml")
        with open(self.config_path, "w") as f:
            f.write(text)
        for name in ("passwd.properties", "access.properties"):
            with open(os.path.join(ilion_harness.CONF_DIR, name)) as src:
                with open(os.path.join(directory, name), "w") as dst:
                    dst.write(src.read())
        self.proc = None
        self.log = []

    def start(self, timeout=20):
        """Starts the server and waits for "listening on"; raises with the log if it exits."""
        self.log = []
        self.proc = subprocess.Popen(
            [os.path.abspath(ilion_harness.binary()), "serve", "--config", self.config_path],
            cwd=self.directory, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.host, self.port, _ = ilion_harness.wait_until_listening(self.proc, self.log, timeout)
        return self

    def kill(self):
        """SIGKILL: no destructors, no final sync."""
        self.proc.kill()
        self.proc.wait()

    def stop(self, timeout=15):
        """SIGTERM and the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def rss_kib(self):
        return rss_kib(self.proc.pid)

    def connect(self, framed=False, timeout_s=20):
        return connect(self.host, self.port, framed, timeout_s)


class Client:
    """A Thrift client with its transport, closable."""

    def __init__(self, client, transport):
        self.c = client
        self.transport = transport

    def close(self):
        try:
            self.transport.close()
        except Exception:
            pass


def connect(host, port, framed=False, timeout_s=20):
    sock = TSocket.TSocket(host, port)
    sock.setTimeout(int(timeout_s * 1000))
    transport = TTransport.TFramedTransport(sock) if framed else TTransport.TBufferedTransport(sock)
    client = Cassandra.Client(TBinaryProtocol.TBinaryProtocolAccelerated(transport))
    transport.open()
    return Client(client, transport)


def col(name, value, ts):
    return ttypes.Column(name=name, value=value, timestamp=ts)


def path(cf, column=None, super_column=None):
    return ttypes.ColumnPath(column_family=cf, column=column, super_column=super_column)


def parent(cf, super_column=None):
    return ttypes.ColumnParent(column_family=cf, super_column=super_column)


def everything(count=100000):
    return ttypes.SlicePredicate(slice_range=ttypes.SliceRange(b"", b"", False, count))


def names(*ns):
    return ttypes.SlicePredicate(column_names=list(ns))


def flatten(cf, result):
    """A get_slice result as {(super_column or None, name): value}."""
    out = {}
    for cosc in result:
        if cosc.super_column is not None:
            for c in cosc.super_column.columns:
                out[(cosc.super_column.name, c.name)] = c.value
        elif cosc.column is not None:
            out[(None, cosc.column.name)] = cosc.column.value
    return out
