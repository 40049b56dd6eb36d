"""Start and stop a real ilion server for tests, and generate Python bindings from the IDL.

The server is the release binary (ILION_BIN, default target/release/ilion) run with a
config written into a temporary directory: ThriftPort 0, so the kernel picks a free port,
which is read back from the server's "listening on HOST:PORT" log line.
"""

import importlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
IDL = os.path.join(ROOT, "idl", "cassandra.thrift")

# Column families covering every comparator, Standard and Super.
TEST_KEYSPACES = """
    <Keyspace Name="Keyspace1">
      <ColumnFamily Name="Standard1" CompareWith="BytesType"/>
      <ColumnFamily Name="Standard2" CompareWith="UTF8Type"/>
      <ColumnFamily Name="StandardAscii" CompareWith="AsciiType"/>
      <ColumnFamily Name="StandardLong" CompareWith="LongType"/>
      <ColumnFamily Name="StandardLexical" CompareWith="LexicalUUIDType"/>
      <ColumnFamily Name="StandardByUUID1" CompareWith="TimeUUIDType"/>
      <ColumnFamily Name="Super1" ColumnType="Super" CompareWith="BytesType" CompareSubcolumnsWith="BytesType"/>
      <ColumnFamily Name="Super2" ColumnType="Super" CompareWith="UTF8Type" CompareSubcolumnsWith="LongType"/>
      <ColumnFamily Name="SuperTime" ColumnType="Super" CompareWith="TimeUUIDType" CompareSubcolumnsWith="BytesType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
    <Keyspace Name="Replicated">
      <ColumnFamily Name="Standard1"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>3</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
"""

CONFIG = """<Storage>
  <ClusterName>{cluster}</ClusterName>
  <Keyspaces>{keyspaces}</Keyspaces>
  <Authenticator>{authenticator}</Authenticator>
  <Partitioner>org.apache.cassandra.dht.{partitioner}</Partitioner>
  <CommitLogDirectory>{dir}/commitlog</CommitLogDirectory>
  <DataFileDirectories><DataFileDirectory>{dir}/data</DataFileDirectory></DataFileDirectories>
  <SavedCachesDirectory>{dir}/saved_caches</SavedCachesDirectory>
  <Seeds><Seed>127.0.0.1</Seed></Seeds>
  <ListenAddress>127.0.0.1</ListenAddress>
  <ThriftAddress>127.0.0.1</ThriftAddress>
  <ThriftPort>0</ThriftPort>
  <CommitLogSync>{sync}</CommitLogSync>
  {sync_setting}
</Storage>
"""


def binary():
    path = os.environ.get("ILION_BIN", os.path.join(ROOT, "target", "release", "ilion"))
    if not os.path.exists(path):
        raise RuntimeError(f"ilion binary not found at {path}; run `cargo build --release`")
    return path


class Server:
    """A running ilion process; use as a context manager or call stop()."""

    def __init__(self, directory=None, partitioner="OrderPreservingPartitioner", sync="periodic",
                 authenticator="org.apache.cassandra.auth.AllowAllAuthenticator",
                 keyspaces=TEST_KEYSPACES, cluster="Test Cluster", extra_files=None):
        self._tmp = None
        if directory is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="ilion-test-")
            directory = self._tmp.name
        self.directory = directory
        sync_setting = ("<CommitLogSyncPeriodInMS>1000</CommitLogSyncPeriodInMS>" if sync == "periodic"
                        else "<CommitLogSyncBatchWindowInMS>1.0</CommitLogSyncBatchWindowInMS>")
        self.config_path = os.path.join(directory, "storage-conf.xml")
        with open(self.config_path, "w") as f:
            f.write(CONFIG.format(cluster=cluster, keyspaces=keyspaces, authenticator=authenticator,
                                  partitioner=partitioner, dir=directory, sync=sync,
                                  sync_setting=sync_setting))
        for name, text in (extra_files or {}).items():
            with open(os.path.join(directory, name), "w") as f:
                f.write(text)
        self.start()

    def start(self):
        self.log = []
        self.proc = subprocess.Popen([binary(), "serve", "--config", self.config_path],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 10
        while True:
            line = self.proc.stderr.readline()
            if not line:
                raise RuntimeError("ilion exited before listening:\n" + "".join(self.log))
            self.log.append(line)
            match = re.search(r"listening on (\S+):(\d+)", line)
            if match:
                self.host, self.port = match.group(1), int(match.group(2))
                break
            if time.time() > deadline:
                raise RuntimeError("ilion did not start listening:\n" + "".join(self.log))
        # Keep draining stderr so the server never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line)

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Stops the server with `sig` and returns its exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(timeout=timeout)

    def close(self):
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def generate_python_bindings(out_dir):
    """Generates `cassandra` from the IDL with `thrift -gen py` and imports it."""
    subprocess.run(["thrift", "-gen", "py", "-out", out_dir, IDL], check=True,
                   stderr=subprocess.PIPE)
    if out_dir not in sys.path:
        sys.path.insert(0, out_dir)
    cassandra = importlib.import_module("cassandra.Cassandra")
    ttypes = importlib.import_module("cassandra.ttypes")
    constants = importlib.import_module("cassandra.constants")
    return cassandra, ttypes, constants
