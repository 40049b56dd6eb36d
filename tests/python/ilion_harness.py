"""Start and stop a real ilion server for tests, and generate Python bindings from the IDL.

The server is the release binary (ILION_BIN, default target/release/ilion) run in a temporary
directory on a copy of the suites' one test configuration, tests/conf/storage-conf.xml (with
its passwd.properties and access.properties), varied by conf_text: ThriftPort 0, so the kernel
picks a free port, which is read back from the server's "listening on HOST:PORT" log line.
"""

import hashlib
import importlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
IDL = os.path.join(ROOT, "idl", "cassandra.thrift")

CONF_DIR = os.path.join(ROOT, "tests", "conf")


def set_element(text, name, value):
    """Sets the top-level element <name> of a storage-conf.xml text to `value`: replaced where
    the text has it, otherwise added at the end of <Storage>."""
    element = f"<{name}>{value}</{name}>"
    pattern = re.compile(f"<{name}>.*?</{name}>", re.DOTALL)
    if pattern.search(text):
        return pattern.sub(lambda _: element, text, count=1)
    at = text.rindex("</Storage>")
    return text[:at] + f"  {element}\n" + text[at:]


def remove_element(text, name):
    """Removes the top-level element <name>, if the text has it."""
    return re.sub(f"<{name}>.*?</{name}>", "", text, count=1, flags=re.DOTALL)


def conf_text(partitioner="OrderPreservingPartitioner", sync="periodic", authenticator=None,
              keyspaces=None):
    """tests/conf/storage-conf.xml varied for the Python suites (the Python side's one helper
    for that): the partitioner, CommitLogSync `sync` (periodic every second, or batch with a
    1 ms window), an authenticator class, and optionally other <Keyspace> elements."""
    with open(os.path.join(CONF_DIR, "storage-conf.xml")) as f:
        text = f.read()
    text = set_element(text, "Partitioner", f"org.apache.cassandra.dht.{partitioner}")
    if sync == "periodic":
        text = remove_element(text, "CommitLogSyncBatchWindowInMS")
        text = set_element(text, "CommitLogSyncPeriodInMS", "1000")
    else:
        text = remove_element(text, "CommitLogSyncPeriodInMS")
        text = set_element(text, "CommitLogSyncBatchWindowInMS", "1.0")
    text = set_element(text, "CommitLogSync", sync)
    if authenticator is not None:
        text = set_element(text, "Authenticator", authenticator)
    if keyspaces is not None:
        text = set_element(text, "Keyspaces", keyspaces)
    return text


def on_redis_cluster(text, directory):
    """With ILION_TEST_ENGINE=redis-cluster, `text` set to keep its data in the Redis Cluster
    that ILION_TEST_REDIS lists (as scripts/redis-cluster.sh up prints it), in a namespace
    named after `directory`: a new server starts empty, a restarted one finds its data."""
    if os.environ.get("ILION_TEST_ENGINE") != "redis-cluster":
        return text
    seeds = [s for s in os.environ["ILION_TEST_REDIS"].replace(",", " ").split() if s]
    namespace = "py-" + hashlib.sha1(os.path.realpath(directory).encode()).hexdigest()[:16]
    element = "<RedisCluster>" + "".join(f"<Seed>{s}</Seed>" for s in seeds)
    element += f"<Namespace>{namespace}</Namespace></RedisCluster>"
    text = set_element(text, "StorageEngine", "redis-cluster")
    at = text.rindex("</Storage>")
    return text[:at] + f"  {element}\n" + text[at:]


def binary():
    path = os.environ.get("ILION_BIN", os.path.join(ROOT, "target", "release", "ilion"))
    if not os.path.exists(path):
        raise RuntimeError(f"ilion binary not found at {path}; run `cargo build --release`")
    return path


def wait_until_listening(proc, log, timeout_s):
    """Reads a started `ilion serve`'s stderr into `log` until it says "listening on", then
    keeps draining it on a thread (so the server never blocks on a full pipe); returns
    (host, port, later) where `later` is the later API's (host, port), logged before that
    line, or None when its listener is disabled. Raises with the log if the server exits or
    is not listening in time."""
    deadline = time.time() + timeout_s
    later = None
    while True:
        line = proc.stderr.readline()
        if not line:
            proc.wait()
            raise RuntimeError("ilion exited before listening:\n" + "".join(log))
        log.append(line)
        found = re.search(r"later API \(Thrift 20\.1\.0\) on (\S+):(\d+)", line)
        if found:
            later = (found.group(1), int(found.group(2)))
            continue
        match = re.search(r"listening on (\S+):(\d+)", line)
        if match:
            break
        if time.time() > deadline:
            raise RuntimeError("ilion did not start listening:\n" + "".join(log))

    def drain():
        for line in proc.stderr:
            log.append(line)

    threading.Thread(target=drain, daemon=True).start()
    return match.group(1), int(match.group(2)), later


class Server:
    """A running ilion process; use as a context manager or call stop()."""

    def __init__(self, directory=None, partitioner="OrderPreservingPartitioner", sync="periodic",
                 authenticator=None, keyspaces=None, extra_files=None, elements=None):
        """`keyspaces` replaces the test keyspaces (XML text of <Keyspace> elements);
        `extra_files` maps file names to text written over the copies beside the config;
        `elements` maps top-level element names to values set in the config."""
        self._tmp = None
        if directory is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="ilion-test-")
            directory = self._tmp.name
        self.directory = directory
        self.config_path = os.path.join(directory, "storage-conf.xml")
        text = conf_text(partitioner, sync, authenticator, keyspaces)
        for name, value in (elements or {}).items():
            text = set_element(text, name, value)
        with open(self.config_path, "w") as f:
            f.write(on_redis_cluster(text, directory))
        for name in ("passwd.properties", "access.properties"):
            shutil.copy(os.path.join(CONF_DIR, name), os.path.join(directory, name))
        for name, text in (extra_files or {}).items():
            with open(os.path.join(directory, name), "w") as f:
                f.write(text)
        self.start()

    def start(self):
        self.log = []
        # Started in its directory, where the config's relative directories resolve.
        self.proc = subprocess.Popen([binary(), "serve", "--config", self.config_path],
                                     cwd=self.directory,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.host, self.port, self.later = wait_until_listening(self.proc, self.log, 10)

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


def generate_python_bindings(out_dir, idl=IDL):
    """Generates `cassandra` from the IDL (the 0.6 one unless `idl` names another) with
    `thrift -gen py` and imports it."""
    subprocess.run(["thrift", "-gen", "py", "-out", out_dir, idl], check=True,
                   stderr=subprocess.PIPE)
    if out_dir not in sys.path:
        sys.path.insert(0, out_dir)
    cassandra = importlib.import_module("cassandra.Cassandra")
    ttypes = importlib.import_module("cassandra.ttypes")
    constants = importlib.import_module("cassandra.constants")
    return cassandra, ttypes, constants
