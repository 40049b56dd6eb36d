"""The long soak (docs/faults.md#long): MINUTES of mixed load with the tombstone purge
running under a short GCGraceSeconds, throughput and RSS sampled every minute, the data
checked all along and in full at the end.

WORKERS processes, each with its own connection and its own keys (`w<p>-<k>`), so each
keeps an exact model of its rows and every read it makes must match it exactly:
  inserts and removes of Standard1 columns, inserts of Super1 subcolumns, batch_mutate over
  both CFs with deletions, removal of whole rows and super columns, get_slice of a row,
  get_range_slices over the worker's keys, and get_count. Timestamps only grow, so a purge
  of old tombstones (GCGraceSeconds 5: the purge runs every 5 s) must never change what a
  read returns.
At the end every key of every worker is read back, the server is stopped with SIGTERM and
restarted, and everything is read back again. Writes the results page (markdown) and
exits 1 on any error or mismatch.
"""

import argparse
import multiprocessing as mp
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faults_common import (KS, ONE, Node, col, connect, everything, flatten,  # noqa: E402
                           names, parent, path, ttypes)

WORKERS = 4
KEYS = 1500
NAMES = [f"c{i:02d}".encode() for i in range(24)]
SUPERS = [f"s{i}".encode() for i in range(4)]
OPS = ["insert", "super", "batch", "remove", "remove_row", "read", "scan", "count"]
GC_GRACE = 5


class Worker:
    def __init__(self, p, host, port, seed):
        self.p, self.rng = p, random.Random(seed)
        self.host, self.port = host, port
        self.std = {}  # key -> {name: value}
        self.sup = {}  # key -> {sc: {name: value}}
        self.ts = 0
        self.serial = 0
        self.c = None

    def key(self, k=None):
        return f"w{self.p}-{self.rng.randrange(KEYS) if k is None else k:05d}"

    def stamp(self):
        self.ts = max(self.ts + 1, time.time_ns() // 1000)
        return self.ts

    def value(self):
        self.serial += 1
        return f"{self.p}.{self.serial}.{self.rng.getrandbits(24):06x}".encode() * \
            self.rng.choice((1, 1, 4, 16))

    def expect(self, key):
        """The model's view of `key`: ({(None, name): v}, {(sc, name): v})."""
        std = {(None, n): v for n, v in self.std.get(key, {}).items()}
        sup = {(sc, n): v for sc, cols in self.sup.get(key, {}).items() for n, v in cols.items()}
        return std, sup

    def op(self, kind):
        c, key = self.c, self.key()
        if kind == "insert":
            n, v = self.rng.choice(NAMES), self.value()
            c.insert(KS, key, path("Standard1", n), v, self.stamp(), ONE)
            self.std.setdefault(key, {})[n] = v
        elif kind == "super":
            sc, n, v = self.rng.choice(SUPERS), self.rng.choice(NAMES), self.value()
            c.insert(KS, key, path("Super1", n, sc), v, self.stamp(), ONE)
            self.sup.setdefault(key, {}).setdefault(sc, {})[n] = v
        elif kind == "batch":
            self.batch(key)
        elif kind == "remove":
            if self.rng.random() < 0.5:
                n = self.rng.choice(NAMES)
                c.remove(KS, key, path("Standard1", n), self.stamp(), ONE)
                self.std.get(key, {}).pop(n, None)
            else:
                sc = self.rng.choice(SUPERS)
                c.remove(KS, key, path("Super1", None, sc), self.stamp(), ONE)
                self.sup.get(key, {}).pop(sc, None)
        elif kind == "remove_row":
            c.remove(KS, key, path("Standard1"), self.stamp(), ONE)
            self.std.pop(key, None)
        elif kind == "read":
            self.check(key)
        elif kind == "scan":
            start = self.rng.randrange(KEYS)
            self.scan(self.key(start), count=20)
        elif kind == "count":
            got = c.get_count(KS, key, parent("Standard1"), ONE)
            if got != len(self.std.get(key, {})):
                raise Mismatch(f"get_count {key}: {got}, model {len(self.std.get(key, {}))}")

    def batch(self, key):
        ts = self.stamp()
        std_muts, sup_muts = [], []
        for n in self.rng.sample(NAMES, 3):
            v = self.value()
            std_muts.append(ttypes.Mutation(
                column_or_supercolumn=ttypes.ColumnOrSuperColumn(column=col(n, v, ts))))
            self.std.setdefault(key, {})[n] = v
        sc = self.rng.choice(SUPERS)
        cols = [(n, self.value()) for n in self.rng.sample(NAMES, 2)]
        sup_muts.append(ttypes.Mutation(column_or_supercolumn=ttypes.ColumnOrSuperColumn(
            super_column=ttypes.SuperColumn(name=sc, columns=[col(n, v, ts) for n, v in cols]))))
        self.sup.setdefault(key, {}).setdefault(sc, {}).update(cols)
        written = {m.column_or_supercolumn.column.name for m in std_muts}
        gone = [n for n in self.rng.sample(NAMES, 2) if n not in written]
        if gone:
            std_muts.append(ttypes.Mutation(deletion=ttypes.Deletion(
                timestamp=ts, predicate=names(*gone))))
            for n in gone:
                self.std.get(key, {}).pop(n, None)
        self.c.batch_mutate(KS, {key: {"Standard1": std_muts, "Super1": sup_muts}}, ONE)

    def check(self, key):
        std, sup = self.expect(key)
        got_std = flatten("Standard1", self.c.get_slice(KS, key, parent("Standard1"),
                                                        everything(), ONE))
        got_sup = flatten("Super1", self.c.get_slice(KS, key, parent("Super1"), everything(), ONE))
        if got_std != std or got_sup != sup:
            raise Mismatch(f"get_slice {key}: {len(got_std)}+{len(got_sup)} columns read, "
                           f"model {len(std)}+{len(sup)}")

    def scan(self, start, count):
        """get_range_slices of Standard1 from `start` within this worker's keys."""
        end = self.key(KEYS - 1)
        rng = ttypes.KeyRange(start_key=start, end_key=end, count=count)
        page = self.c.get_range_slices(KS, parent("Standard1"), everything(), rng, ONE)
        seen = []
        for ks in page:
            got = flatten("Standard1", ks.columns)
            if got:  # rows with only tombstones come back empty (range ghosts)
                seen.append(ks.key)
                if got != self.expect(ks.key)[0]:
                    raise Mismatch(f"range slice row {ks.key} differs from the model")
        if len(page) < count:  # reached the end: every live row must have been seen
            want = sorted(k for k, cols in self.std.items() if cols and start <= k <= end)
            if seen != want:
                raise Mismatch(f"range slice from {start}: {len(seen)} rows, model {len(want)}")
        return page

    def verify_all(self):
        """Every key of this worker, by get_slice, and the whole range page by page."""
        for k in range(KEYS):
            self.check(self.key(k))
        start = self.key(0)
        while True:
            page = self.scan(start, count=200)
            if len(page) < 200:
                break
            start = page[-1].key


class Mismatch(Exception):
    pass


def work(p, host, port, seed, stop_at, counts, errors, log, models):
    """One worker process: load until `stop_at`, then hand its model to the main process."""
    w = Worker(p, host, port, seed)
    w.c = connect(host, port).c
    weights = [30, 12, 10, 10, 2, 25, 8, 3]
    while time.time() < stop_at:
        kind = w.rng.choices(OPS, weights)[0]
        try:
            w.op(kind)
            with counts.get_lock():
                counts[OPS.index(kind)] += 1
        except Exception as e:  # a failed call or a wrong read: both are soak failures
            with errors.get_lock():
                errors.value += 1
            log.put(f"worker {p} {kind}: {e!r}")
            try:
                w.c = connect(host, port).c
            except Exception:
                time.sleep(1)
    models.put((p, w.std, w.sup))


def verify(node, models):
    """Every key of every worker against its model; returns the problems found."""
    problems = []
    client = node.connect()
    for p, std, sup in models:
        w = Worker(p, node.host, node.port, 0)
        w.std, w.sup, w.c = std, sup, client.c
        try:
            w.verify_all()
        except Exception as e:
            problems.append(f"worker {p}: {e!r}")
    client.close()
    return problems


def dir_mib(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total / 2**20


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("minutes", type=float)
    ap.add_argument("--engine", default="sled", choices=["sled", "fjall"])
    ap.add_argument("--sync", default="periodic", choices=["batch", "periodic"])
    ap.add_argument("--interval", type=float, default=60, help="seconds between samples")
    ap.add_argument("--out", default=None, help="results page (markdown)")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    # How busy the machine was before the soak's own load: its figures follow it.
    args.load_before = os.getloadavg()[0]
    tmp = tempfile.TemporaryDirectory(prefix="ilion-soak-long-")
    node = Node(tmp.name, engine=args.engine, sync=args.sync,
                elements={"GCGraceSeconds": str(GC_GRACE)}).start()
    counts = mp.Array("q", len(OPS))
    errors = mp.Value("q", 0)
    log, models = mp.Queue(), mp.Queue()
    began = time.time()
    stop_at = began + args.minutes * 60
    procs = [mp.Process(target=work, args=(p, node.host, node.port, seed * 31 + p, stop_at,
                                            counts, errors, log, models))
             for p in range(WORKERS)]
    samples, messages, problems = [], [], []
    try:
        for pr in procs:
            pr.start()
        last_ops, last_t, last_cpu = [0] * len(OPS), began, cpu_seconds(node.proc.pid)
        while time.time() < stop_at - 1:
            time.sleep(max(min(args.interval, stop_at - time.time()), 0.5))
            now = time.time()
            with counts.get_lock():
                ops = list(counts)
            delta = [a - b for a, b in zip(ops, last_ops)]
            cpu = cpu_seconds(node.proc.pid)
            samples.append({
                "minute": (now - began) / 60,
                "ops_s": sum(delta) / (now - last_t),
                "by_kind": delta,
                "errors": errors.value,
                "rss_mib": node.rss_kib() / 1024,
                # The server's own CPU per operation: unlike ops/s, it does not follow the
                # load other work puts on a shared machine.
                "cpu_us": (cpu - last_cpu) * 1e6 / max(sum(delta), 1),
                "disk_mib": dir_mib(os.path.join(tmp.name, "data")),
            })
            s = samples[-1]
            print(f"  {s['minute']:5.1f} min: {s['ops_s']:7.0f} ops/s, "
                  f"{s['cpu_us']:.0f} us CPU/op, rss {s['rss_mib']:.0f} MiB, "
                  f"disk {s['disk_mib']:.0f} MiB, errors {s['errors']}", flush=True)
            last_ops, last_t, last_cpu = ops, now, cpu
        got = [models.get(timeout=120) for _ in procs]
        for pr in procs:
            pr.join(timeout=60)
        while not log.empty():
            messages.append(log.get())
        problems += [f"before restart: {x}" for x in verify(node, got)]
        status = node.stop()
        purges = [int(m.group(1)) for m in
                  (re.search(r"purged (\d+) expired tombstones", line) for line in node.log) if m]
        if not purges and args.minutes >= 1:  # a shorter run may end before the first pass
            problems.append("the tombstone purge never ran")
        if status != 0:
            problems.append(f"SIGTERM exited with {status}")
        node.start()
        problems += [f"after restart: {x}" for x in verify(node, got)]
        node.stop()
    finally:
        for pr in procs:
            if pr.is_alive():
                pr.kill()
        if node.proc.poll() is None:
            node.kill()
    total_ops = sum(counts)
    page = report(args, seed, samples, total_ops, list(counts), errors.value, messages,
                  problems, time.time() - began, purges)
    if args.out:
        with open(args.out, "w") as f:
            f.write(page)
    print(page)
    tmp.cleanup()
    sys.exit(1 if errors.value or problems else 0)


def cpu_seconds(pid):
    """User plus system CPU seconds of process `pid` so far (from /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def window(samples, first):
    """The samples of the first (or last) five minutes, or a third of a shorter run."""
    n = max(1, min(5, len(samples) // 3)) if len(samples) < 15 else 5
    return samples[:n] if first else samples[-n:]


def mean(xs):
    return sum(xs) / max(len(xs), 1)


def report(args, seed, samples, total_ops, by_kind, errors, messages, problems, elapsed,
           purges):
    first, last = window(samples, True), window(samples, False)
    f_ops, l_ops = mean([s["ops_s"] for s in first]), mean([s["ops_s"] for s in last])
    f_rss, l_rss = mean([s["rss_mib"] for s in first]), mean([s["rss_mib"] for s in last])
    f_cpu, l_cpu = mean([s["cpu_us"] for s in first]), mean([s["cpu_us"] for s in last])
    lines = [
        "# Long soak",
        "",
        f"Generated by `scripts/soak-long.sh {args.minutes:g}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} ({os.cpu_count()} cores, shared "
        f"with the clients; load average {args.load_before:.2f} before the run), engine {args.engine}, CommitLogSync {args.sync}, GCGraceSeconds "
        f"{GC_GRACE} (the purge runs every {GC_GRACE} s), {WORKERS} client processes over "
        f"{WORKERS * KEYS} rows, seed {seed}. Method: "
        "[docs/faults.md#long](../docs/faults.md#long). Regenerated, never edited.",
        "",
        f"* Operations: {total_ops} in {elapsed / 60:.1f} min — "
        + ", ".join(f"{k} {n}" for k, n in zip(OPS, by_kind)) + ".",
        f"* Errors (failed calls or reads that differed from the model): **{errors}**.",
        f"* Tombstone purge: {len(purges)} passes, {sum(purges)} tombstones purged.",
        f"* Final check of every row, before and after a SIGTERM restart: "
        + ("**all rows as the model**" if not problems else f"**{len(problems)} problems**")
        + ".",
        f"* Throughput, first vs last {len(first)} samples: {f_ops:.0f} vs {l_ops:.0f} ops/s "
        f"(**{l_ops / max(f_ops, 1e-9):.2f}x**).",
        f"* Server CPU per operation, first vs last {len(first)} samples: {f_cpu:.0f} vs "
        f"{l_cpu:.0f} µs (**{l_cpu / max(f_cpu, 1e-9):.2f}x**).",
        f"* Server RSS, first vs last {len(first)} samples: {f_rss:.0f} vs {l_rss:.0f} MiB "
        f"(**{l_rss / max(f_rss, 1e-9):.2f}x**).",
        "",
        "| minute | ops/s | server CPU µs/op | errors so far | RSS MiB | data dir MiB |",
        "|---|---|---|---|---|---|",
    ]
    lines += [f"| {s['minute']:.1f} | {s['ops_s']:.0f} | {s['cpu_us']:.0f} | {s['errors']} | "
              f"{s['rss_mib']:.0f} | {s['disk_mib']:.0f} |" for s in samples]
    if messages or problems:
        lines += ["", "Problems (first 20):", ""]
        lines += [f"* {m}" for m in (messages + problems)[:20]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
