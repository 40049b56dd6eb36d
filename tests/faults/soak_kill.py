"""The kill -9 soak (docs/faults.md#kill): N cycles of writers killed at random moments.

Each cycle starts `ilion serve` in batch mode on the same directory, first checks the rows
the previous cycle wrote, then runs WRITERS client threads (buffered and framed) doing
inserts, super-column inserts, batch_mutate (two rows, a Standard and a Super CF, sometimes
with deletions) and removes, and kills the server with SIGKILL after a random time. Every
value is unique, and each writer records an operation as *tried* before sending it and as
*acknowledged* when the reply arrives. After the restart, for every column:

* an acknowledged insert (not later deleted) must be there with its value;
* an acknowledged delete must have removed it;
* a tried but unacknowledged insert or delete may have happened or not;
* anything read back that no writer sent, or with another value, is fabricated.

At the end a range scan over both CFs compares the whole store with the model, so a row or
column from any cycle that went missing or appeared is caught too. Prints one summary line;
exit 1 on any loss or fabrication.
"""

import argparse
import os
import random
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faults_common import (KS, ONE, Node, col, everything, flatten, names, parent,  # noqa: E402
                           path, ttypes)
from thrift.transport.TTransport import TTransportException  # noqa: E402

WRITERS = 4
STD, SUP = "Standard1", "Super1"

TRIED, ACKED, DEL_TRIED, DEL_ACKED = "tried", "acked", "del-tried", "del-acked"


class Model:
    """Every column a writer sent, by row: (cf, key) -> {(super, name): [value, state]}.
    Rows already checked after a restart are *settled*: what was read back is then the only
    right content, kept as a digest so a 1,000-cycle run stays small."""

    def __init__(self):
        self.rows = {}
        self.settled = {}
        self.lock = threading.Lock()
        self.acked_ops = 0
        self.acked_deletes = 0
        self.columns = 0

    def set(self, entries, state):
        with self.lock:
            for (cf, key, sc, name), value in entries:
                row = self.rows.setdefault((cf, key), {})
                if state == TRIED:
                    self.columns += 1
                if state in (TRIED, ACKED):
                    row[(sc, name)] = [value, state]
                else:
                    row[(sc, name)][1] = state

    def settle(self, rows, read):
        """Replaces the model of `rows` by the digest of their content as read back."""
        with self.lock:
            for row in rows:
                self.rows.pop(row, None)
                content = read(row)
                if content:
                    self.settled[row] = digest(content)


def digest(content):
    return hash(frozenset(content.items()))


class Writer(threading.Thread):
    def __init__(self, node, model, cycle, w, rng):
        super().__init__(daemon=True)
        self.node, self.model, self.cycle, self.w, self.rng = node, model, cycle, w, rng
        self.seq = 0
        self.live = []  # acknowledged, not yet deleted: (cf, key, super, name)
        self.keys = set()
        self.ts = 0
        self.error = None

    def stamp(self):
        self.ts = max(self.ts + 1, time.time_ns() // 1000)
        return self.ts

    def fresh(self, cf, row):
        """A new unique column of row `row` of this writer: (entry, value)."""
        self.seq += 1
        key = f"c{self.cycle:06d}w{self.w}r{row:03d}"
        self.keys.add(key)
        tag = f"{self.cycle}.{self.w}.{self.seq}.{self.rng.getrandbits(32):08x}"
        sc = f"s{self.seq % 3}".encode() if cf == SUP else None
        return (cf, key, sc, f"n{self.seq:06d}".encode()), f"v{tag}".encode()

    def run(self):
        try:
            client = self.node.connect(framed=self.w % 2 == 1)
        except Exception:
            return  # killed before this writer connected
        try:
            while True:
                self.one(client.c)
        except (TTransportException, OSError, EOFError):
            pass  # the kill
        except Exception as e:  # any other error is a server fault
            if self.node.proc.poll() is None:
                self.error = repr(e)
        finally:
            client.close()

    def one(self, c):
        row = self.seq // 12
        r = self.rng.random()
        if r < 0.3 or (r >= 0.75 and not self.live):
            cf = STD if r < 0.18 else SUP
            e, v = self.fresh(cf, row)
            self.model.set([(e, v)], TRIED)
            c.insert(KS, e[1], path(cf, e[3], e[2]), v, self.stamp(), ONE)
            self.ack([(e, v)])
        elif r < 0.75:
            self.batch(c, row)
        else:
            e = self.live.pop(self.rng.randrange(len(self.live)))
            self.model.set([(e, None)], DEL_TRIED)
            c.remove(KS, e[1], path(e[0], e[3], e[2]), self.stamp(), ONE)
            self.model.set([(e, None)], DEL_ACKED)
            with self.model.lock:
                self.model.acked_ops += 1
                self.model.acked_deletes += 1

    def batch(self, c, row):
        """batch_mutate over two rows, each in both CFs, sometimes deleting a live column."""
        ts = self.stamp()
        writes, deletes, mutation_map = [], [], {}
        for r in (row, row + 500):
            per_cf = {STD: [], SUP: []}
            for _ in range(2):
                e, v = self.fresh(STD, r)
                writes.append((e, v))
                per_cf[STD].append(ttypes.Mutation(
                    column_or_supercolumn=ttypes.ColumnOrSuperColumn(column=col(e[3], v, ts))))
            e1, v1 = self.fresh(SUP, r)
            e2, v2 = self.fresh(SUP, r)
            e2 = (e2[0], e2[1], e1[2], e2[3])  # both subcolumns in one super column
            writes += [(e1, v1), (e2, v2)]
            sc = ttypes.SuperColumn(name=e1[2], columns=[col(e1[3], v1, ts), col(e2[3], v2, ts)])
            per_cf[SUP].append(ttypes.Mutation(
                column_or_supercolumn=ttypes.ColumnOrSuperColumn(super_column=sc)))
            mutation_map[e1[1]] = per_cf
        if self.live and self.rng.random() < 0.5:
            d = self.live.pop(self.rng.randrange(len(self.live)))
            deletes.append((d, None))
            deletion = ttypes.Deletion(timestamp=ts, super_column=d[2], predicate=names(d[3]))
            mutation_map.setdefault(d[1], {}).setdefault(d[0], []).append(
                ttypes.Mutation(deletion=deletion))
        self.model.set(writes, TRIED)
        self.model.set(deletes, DEL_TRIED)
        c.batch_mutate(KS, mutation_map, ONE)
        self.ack(writes)
        self.model.set(deletes, DEL_ACKED)
        with self.model.lock:
            self.model.acked_deletes += len(deletes)

    def ack(self, entries):
        self.model.set(entries, ACKED)
        self.live += [e for e, _ in entries]
        with self.model.lock:
            self.model.acked_ops += 1


def check(model, rows, read):
    """Compares the store with the model for `rows` ({(cf, key)}), `read` giving each row's
    {(super, name): value}. Returns (losses, fabrications) as lists of descriptions."""
    losses, fabricated = [], []
    for row in rows:
        got = read(row)
        with model.lock:
            want = dict(model.rows.get(row, {}))
            settled = model.settled.get(row)
        if settled is not None:
            if digest(got) != settled:
                losses.append(f"{row}: a settled row changed: now {len(got)} columns")
            continue
        for name, value in got.items():
            if name not in want or want[name][0] != value:
                fabricated.append(f"{row} {name}={value!r}")
            elif want[name][1] == DEL_ACKED:
                losses.append(f"{row} {name}: acknowledged delete undone")
        for name, (value, state) in want.items():
            if state == ACKED and name not in got:
                losses.append(f"{row} {name}: acknowledged write missing")
    return losses, fabricated


def read_rows(client, rows):
    """Reads `rows` ({(cf, key)}) with multiget_slice, 100 keys at a time."""
    out = {}
    for cf in (STD, SUP):
        keys = sorted(k for c, k in rows if c == cf)
        for i in range(0, len(keys), 100):
            got = client.multiget_slice(KS, keys[i:i + 100], parent(cf), everything(), ONE)
            for k, result in got.items():
                out[(cf, k)] = flatten(cf, result)
    return lambda row: out.get(row, {})


def scan_all(client):
    """Every row of both CFs by get_range_slices (rows with only deletions come back empty)."""
    out = {}
    for cf in (STD, SUP):
        start = ""
        while True:
            rng = ttypes.KeyRange(start_key=start, end_key="", count=500)
            page = client.get_range_slices(KS, parent(cf), everything(), rng, ONE)
            for ks in page:
                if ks.key != start or start == "":
                    cols = flatten(cf, ks.columns)
                    if cols:
                        out[(cf, ks.key)] = cols
            if len(page) < 500:
                break
            start = page[-1].key
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cycles", type=int)
    p.add_argument("--engine", default="sled", choices=["sled", "fjall"])
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--sync", default="batch", choices=["batch", "periodic"],
                   help="periodic (1 s) only to show that the soak catches lost writes")
    p.add_argument("--max-run", type=float, default=1.5,
                   help="longest time writers run before the kill, seconds")
    p.add_argument("--dir", default=None, help="data directory (default: a temporary one)")
    args = p.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    tmp = None
    directory = args.dir
    if directory is None:
        tmp = tempfile.TemporaryDirectory(prefix="ilion-soak-kill-")
        directory = tmp.name
    node = Node(directory, engine=args.engine, sync=args.sync)
    model = Model()
    losses, fabricated, errors = [], [], []
    started = time.time()
    try:
        previous = set()
        for cycle in range(args.cycles + 1):
            node.start()
            client = node.connect()
            read = read_rows(client.c, previous)
            client.close()
            lost, fab = check(model, previous, read)
            model.settle(previous, read)
            losses += [f"cycle {cycle}: {x}" for x in lost]
            fabricated += [f"cycle {cycle}: {x}" for x in fab]
            if cycle == args.cycles:
                break
            writers = [Writer(node, model, cycle, w, random.Random(rng.getrandbits(64)))
                       for w in range(WRITERS)]
            for w in writers:
                w.start()
            time.sleep(rng.uniform(0.02, args.max_run))
            node.kill()
            for w in writers:
                w.join(timeout=30)
                if w.error:
                    errors.append(f"cycle {cycle} writer {w.w}: {w.error}")
            previous = {(cf, k) for w in writers for k in w.keys for cf in (STD, SUP)}
            if (cycle + 1) % 50 == 0:
                print(f"  cycle {cycle + 1}/{args.cycles}: {model.acked_ops} acknowledged, "
                      f"{len(losses)} lost, {len(fabricated)} fabricated, {len(errors)} errors, "
                      f"{time.time() - started:.0f} s", flush=True)
        # The whole store against the model: every row the model holds and every row scanned.
        client = node.connect()
        stored = scan_all(client.c)
        client.close()
        with model.lock:
            all_rows = set(model.rows) | set(model.settled)
        lost, fab = check(model, all_rows | set(stored), lambda row: stored.get(row, {}))
        losses += [f"final scan: {x}" for x in lost]
        fabricated += [f"final scan: {x}" for x in fab]
        status = node.stop()
        if status != 0:
            errors.append(f"clean shutdown exited with {status}")
    finally:
        if node.proc is not None and node.proc.poll() is None:
            node.kill()
    for line in (losses + fabricated + errors)[:20]:
        print("  " + line)
    elapsed = time.time() - started
    print(f"soak-kill: engine={args.engine} sync={args.sync} seed={seed} cycles={args.cycles} "
          f"acknowledged_ops={model.acked_ops} acknowledged_deletes={model.acked_deletes} "
          f"columns={model.columns} losses={len(losses)} fabricated={len(fabricated)} "
          f"errors={len(errors)} seconds={elapsed:.0f} "
          f"per_cycle_s={elapsed / max(args.cycles, 1):.2f}")
    if tmp is not None:
        tmp.cleanup()
    sys.exit(1 if losses or fabricated or errors else 0)


if __name__ == "__main__":
    main()
