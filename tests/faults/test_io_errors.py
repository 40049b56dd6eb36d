"""I/O errors under a running server, on both engines (docs/faults.md#io-errors).

* A full disk: the data directory is a small tmpfs. Rows of 200 KiB (of 1,500 bytes in
  the sled-log case) are written in batch mode until a write fails; that write and every
  later one must fail with a clear error to the client (TApplicationException
  INTERNAL_ERROR, or the connection closed without a reply when the failure hit a write
  waiting for its sync), never hang; every acknowledged row must still read back. Then the space returns (the tmpfs grows): the running server
  reopens its store by itself, and writes succeed again within a generous bound (polled),
  every acknowledged row reads back, SIGTERM exits 0, and a restart serves every
  acknowledged row, those written after the recovery too. Where sled 0.34 cannot close its
  failed store (docs/faults.md#recovery) writes stay refused with the reason in the log,
  SIGTERM exits 1 and the restart is the way back.
* Concurrent writers: four writers keep going while the disk fills, space returns and
  the store is reopened under them; every acknowledged row reads back, after the
  recovery and after a restart.
* A read-only data directory: Linux will not make a filesystem read-only under open files
  (`mount -o remount,ro` is EBUSY), so the directory is a loop-mounted ext4 that is
  *aborted* (`mount -o remount,abort`), which turns it read-only at once as an ext4 error
  would. Writes must then fail with a clear error, the server's recovery must leave the
  store failed (its trial write fails too), reads keep working, and after fsck and
  a remount a restart serves every acknowledged row. A server started on a read-only
  directory refuses to start and names the cause.

These need root (mount, losetup) and e2fsprogs; scripts/test-all.sh installs e2fsprogs and
CI runs as root. Missing either is a failure, not a skip.
"""

import contextlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faults_common import KS, ONE, Node, path  # noqa: E402
from thrift.Thrift import TApplicationException  # noqa: E402
from thrift.transport.TTransport import TTransportException  # noqa: E402

VALUE_BYTES = 200 * 1024
# Rows numbered from SMALL_BASE on hold small values instead: sled keeps them in its log,
# where a failed write ends differently from a failed write of a blob file (large values).
SMALL_BASE = 10_000_000
SMALL_BYTES = 1500
# Large enough for each engine to start (fjall pre-allocates its journal), small enough to
# fill in a few seconds.
TMPFS_MB = {"sled": 32, "fjall": 96}
ENGINES = ["sled", "fjall"]
# The full-disk cases: engine, tmpfs size, first row, and whether the running server must
# recover by itself once space returns. sled 0.34 cannot close a store after a failed write
# of a blob file (its flush never returns, docs/faults.md#recovery); ilion's stores keep
# large values out of blob files, so every case must recover.
FULL_DISK = {
    "fjall": ("fjall", 96, 0, True),
    "sled-log": ("sled", 16, SMALL_BASE, True),
    "sled-large": ("sled", 32, 0, True),
}


def run(*cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def require_root_tools():
    assert os.geteuid() == 0, "the I/O-error tests mount filesystems and need root"
    for tool in ("mount", "umount", "mkfs.ext4", "e2fsck"):
        assert shutil.which(tool), f"{tool} is missing (apt-get install e2fsprogs mount)"


@contextlib.contextmanager
def tmpfs(mb):
    require_root_tools()
    mnt = tempfile.mkdtemp(prefix="ilion-full-")
    run("mount", "-t", "tmpfs", "-o", f"size={mb}m", "tmpfs", mnt)
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", mnt])
        os.rmdir(mnt)


def value(i):
    """Row i's value: incompressible (fjall compresses), and different for every row."""
    return random.Random(i).randbytes(VALUE_BYTES if i < SMALL_BASE else SMALL_BYTES)


def insert(c, i):
    c.c.insert(KS, f"k{i:05d}", path("Standard1", b"c"), value(i), i + 1, ONE)


def write(node, i, timeout_s=20):
    c = node.connect(timeout_s=timeout_s)
    try:
        insert(c, i)
    finally:
        c.close()


def assert_write_refused(node, i):
    """A write must fail with a clear error: INTERNAL_ERROR, or no reply and a closed
    connection. A hang (the client's timeout) is a failure."""
    try:
        write(node, i)
    except TApplicationException as e:
        assert e.type == TApplicationException.INTERNAL_ERROR, e
        return "INTERNAL_ERROR"
    except TTransportException as e:
        assert "timed out" not in str(e) and "timeout" not in str(e), f"write hung: {e}"
        return "connection closed"
    raise AssertionError(f"write {i} was acknowledged on a full or read-only disk")


def read_back(node, acked):
    """Reads every acknowledged row; returns (rows read back right, rows refused with
    INTERNAL_ERROR). A wrong value, a hang or any other error fails the test."""
    ok = refused = 0
    c = node.connect()
    try:
        for i in acked:
            try:
                got = c.c.get(KS, f"k{i:05d}", path("Standard1", b"c"), ONE).column.value
                assert got == value(i), f"row {i} read back wrong"
                ok += 1
            except TApplicationException as e:
                assert e.type == TApplicationException.INTERNAL_ERROR, e
                refused += 1
    finally:
        c.close()
    return ok, refused


def assert_reads_after_failure(node, engine, acked):
    """fjall serves every row after a failed write; sled 0.34 refuses the reads its page
    cache cannot answer once a write has failed (docs/faults.md#io-errors)."""
    ok, refused = read_back(node, acked)
    if engine == "fjall":
        assert refused == 0, f"fjall refused {refused} reads after a failed write"
    return ok, refused


def assert_reads(node, acked):
    c = node.connect()
    try:
        for i in acked:
            got = c.c.get(KS, f"k{i:05d}", path("Standard1", b"c"), ONE).column.value
            assert got == value(i), f"row {i} read back wrong"
    finally:
        c.close()


def restart_serves(node, acked):
    """Starts the stopped server again: every acknowledged row reads back, a new write is
    taken, and SIGTERM exits 0."""
    node.start()
    assert_reads(node, acked)
    write(node, 99999)
    assert_reads(node, [99999])
    assert node.stop(timeout=30) == 0


def logged(node, text, wait_s=10):
    """Whether the server's log shows `text` (it may be written just after the reply)."""
    for _ in range(wait_s * 10):
        if text in "".join(node.log):
            return True
        time.sleep(0.1)
    return False


def fill(node, start, limit):
    """Writes rows from `start` on (over one connection) until one fails; returns
    (acknowledged rows, the failure's kind)."""
    acked = []
    c = node.connect()
    try:
        for i in range(start, limit):
            try:
                insert(c, i)
            except (TApplicationException, TTransportException) as e:
                assert not (isinstance(e, TTransportException) and "timeout" in str(e)), \
                    f"write {i} hung on a full disk: {e}"
                return acked, type(e).__name__
            acked.append(i)
    finally:
        c.close()
    raise AssertionError(f"{limit - start} rows fitted on a small disk")


# How long the running server may take to reopen its store once space returns: it looks
# once a second; this only bounds a hang.
RECOVERY_GIVE_UP_S = 60


# What the log says when the failed store will not be reopened in place (sled's stuck flush):
# from then on it never is.
STUCK = "cannot be reopened in place"


def wait_for_recovery(node, first, acked, may_stay_failed):
    """Writes rows from `first` on until one is acknowledged, giving up after
    RECOVERY_GIVE_UP_S (or, when `may_stay_failed`, as soon as the log says the store will
    not be reopened in place); returns the number of writes refused meanwhile, or None if
    the store never took a write. Refusals must be clear errors, never hangs."""
    deadline = time.monotonic() + RECOVERY_GIVE_UP_S
    i = first
    while time.monotonic() < deadline:
        if may_stay_failed and STUCK in "".join(node.log):
            return None
        try:
            write(node, i)
        except (TApplicationException, TTransportException) as e:
            assert not (isinstance(e, TTransportException) and "timeout" in str(e)), \
                f"write {i} hung while the store recovers: {e}"
            i += 1
            time.sleep(0.2)
            continue
        acked.append(i)
        return i - first
    return None


@pytest.mark.parametrize("case", FULL_DISK)
def test_full_disk(case):
    engine, mb, start, must_recover = FULL_DISK[case]
    with tmpfs(mb) as mnt, tempfile.TemporaryDirectory() as home:
        node = Node(home, engine=engine, sync="batch", data_dir=os.path.join(mnt, "data"))
        node.start()
        try:
            limit = start + mb * 1024 * 1024 // len(value(start)) + 50
            acked, first = fill(node, start, limit)
            assert len(acked) > 10, "the disk filled before anything was written"
            assert logged(node, "No space left on device")
            later = {assert_write_refused(node, i) for i in range(limit, limit + 3)}
            read_ok, read_refused = assert_reads_after_failure(node, engine, acked)
            # Space returns: the running server reopens its store and takes writes again.
            run("mount", "-o", f"remount,size={mb * 8}m", mnt)
            before = len(acked)
            refused = wait_for_recovery(node, limit + 10, acked, not must_recover)
            if refused is None:
                # sled 0.34 with a flush that never returns: refused until a restart, and
                # the log says why.
                assert not must_recover, f"{case}: never took a write after space returned"
                assert logged(node, STUCK)
                assert_write_refused(node, limit + 500)
                assert_reads_after_failure(node, engine, acked)
                assert node.stop(timeout=30) == 1, "SIGTERM on a failed store must exit 1"
                outcome = "not recovered in place (sled's flush stuck)"
            else:
                assert logged(node, "store reopened after a failure")
                assert_reads(node, acked)
                more = list(range(limit + 1000, limit + 1010))
                for i in more:
                    write(node, i)
                acked += more
                assert_reads(node, acked)
                assert node.stop(timeout=30) == 0, "SIGTERM after the recovery must exit 0"
                outcome = f"recovered in place after {refused} refused writes"
            print(f"\n{case} full disk: {before} rows acknowledged, first failure "
                  f"{first}, later writes {sorted(later)}, reads {read_ok} right and {read_refused} "
                  f"refused; space returned: {outcome}")
            restart_serves(node, acked)
        finally:
            if node.proc.poll() is None:
                node.kill()


@contextlib.contextmanager
def ext4(mb):
    require_root_tools()
    work = tempfile.mkdtemp(prefix="ilion-ro-")
    image, mnt = os.path.join(work, "disk.img"), os.path.join(work, "mnt")
    os.mkdir(mnt)
    with open(image, "wb") as f:
        f.truncate(mb * 1024 * 1024)
    run("mkfs.ext4", "-q", "-F", image)
    run("mount", "-o", "loop", image, mnt)
    try:
        yield image, mnt
    finally:
        subprocess.run(["umount", mnt])
        shutil.rmtree(work)


@pytest.mark.parametrize("engine", ENGINES)
def test_read_only_data_dir(engine):
    with ext4(256) as (image, mnt), tempfile.TemporaryDirectory() as home:
        node = Node(home, engine=engine, sync="batch", data_dir=os.path.join(mnt, "data"))
        node.start()
        try:
            acked = list(range(40))
            for i in acked:
                write(node, i)
            # Linux refuses a plain read-only remount under open files ...
            busy = subprocess.run(["mount", "-o", "remount,ro", mnt], capture_output=True)
            assert busy.returncode != 0, "remount,ro under a running server succeeded"
            # ... so abort the filesystem: read-only at once, as after an ext4 error.
            run("mount", "-o", "remount,abort", mnt)
            kinds = {assert_write_refused(node, 1000 + i) for i in range(3)}
            # The recovery looks, finds the disk still refusing its trial write (or, for
            # sled, a flush that never returns), and leaves the failed store serving reads.
            assert logged(node, "not reopened yet") or STUCK in "".join(node.log)
            assert_write_refused(node, 1010)
            read_ok, read_refused = assert_reads_after_failure(node, engine, acked)
            status = node.stop(timeout=30)
            assert status in (0, 1), f"SIGTERM on a read-only disk exited with {status}"
            print(f"\n{engine} read-only: writes {sorted(kinds)}, reads {read_ok} right and "
                  f"{read_refused} refused, SIGTERM exit {status}")
            # The operator's way back: unmount, check, mount read-only first.
            run("umount", mnt)
            subprocess.run(["e2fsck", "-fy", image], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
            run("mount", "-o", "loop,ro", image, mnt)
            with pytest.raises(RuntimeError, match="Read-only file system"):
                node.start()
            run("umount", mnt)
            run("mount", "-o", "loop", image, mnt)
            restart_serves(node, acked)
        finally:
            if node.proc is not None and node.proc.poll() is None:
                node.kill()


class Writers:
    """Four writer threads, each on its own connection, writing rows of `size` bytes until
    stopped; a row counts as acknowledged only once its reply arrived."""

    def __init__(self, node, size):
        self.node, self.size = node, size
        self.acked, self.refused, self.stop = [], 0, threading.Event()
        # An assertion in a thread would not fail the test: hangs are collected instead.
        self.hung = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(w,)) for w in range(4)]

    def value(self, w, n):
        return random.Random(w * 10**7 + n).randbytes(self.size)

    def run(self, w):
        n, c = 0, None
        while not self.stop.is_set():
            try:
                if c is None:
                    c = self.node.connect()
                c.c.insert(KS, f"w{w}-{n}", path("Standard1", b"c"), self.value(w, n), 1, ONE)
                with self.lock:
                    self.acked.append((w, n))
            except (TApplicationException, TTransportException) as e:
                if isinstance(e, TTransportException) and "timeout" in str(e):
                    self.hung.append(f"write w{w}-{n} hung: {e}")
                    return
                with self.lock:
                    self.refused += 1
                if c is not None:
                    c.close()
                c = None
                time.sleep(0.05)
            n += 1

    def check(self):
        """Every acknowledged row reads back with its value (a missing row raises)."""
        c = self.node.connect()
        try:
            for w, n in self.acked:
                got = c.c.get(KS, f"w{w}-{n}", path("Standard1", b"c"), ONE).column.value
                assert got == self.value(w, n), f"row w{w}-{n} read back wrong"
        finally:
            c.close()


@pytest.mark.parametrize("case", ["fjall", "sled-log"])
def test_full_disk_recovery_under_concurrent_writers(case):
    """Writers keep going while the disk fills, space returns and the store is reopened
    under them: no acknowledged row is lost or changed, across the swap and a restart."""
    engine, mb, size = {
        "fjall": ("fjall", 96, 20_000),
        "sled-log": ("sled", 16, SMALL_BYTES),
    }[case]
    with tmpfs(mb) as mnt, tempfile.TemporaryDirectory() as home:
        node = Node(home, engine=engine, sync="batch", data_dir=os.path.join(mnt, "data"))
        node.start()
        writers = Writers(node, size)
        try:
            for thread in writers.threads:
                thread.start()
            assert logged(node, "No space left on device", wait_s=120), "the disk never filled"
            time.sleep(1)
            run("mount", "-o", f"remount,size={mb * 8}m", mnt)
            assert logged(node, "store reopened after a failure", wait_s=RECOVERY_GIVE_UP_S)
            at_recovery = len(writers.acked)
            deadline = time.monotonic() + RECOVERY_GIVE_UP_S
            while len(writers.acked) < at_recovery + 100 and time.monotonic() < deadline:
                time.sleep(0.1)
            writers.stop.set()
            for thread in writers.threads:
                thread.join()
            assert not writers.hung, writers.hung
            assert len(writers.acked) >= at_recovery + 100, "writes did not resume"
            writers.check()
            assert node.stop(timeout=30) == 0
            print(f"\n{case} concurrent: {len(writers.acked)} rows acknowledged "
                  f"({at_recovery} before the recovery), {writers.refused} writes refused")
            node.start()
            writers.check()
            assert node.stop(timeout=30) == 0
        finally:
            writers.stop.set()
            if node.proc.poll() is None:
                node.kill()
