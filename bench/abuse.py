"""Network abuse under load (docs/faults.md#abuse), run by bench/abuse.sh.

One server (periodic mode, ThriftMaxConnections 128, the other wire limits at their
defaults), one run, in order:
  1. preload: `ilion stress -o insert` of KEYS rows;
  2. calibrate: `ilion stress -o mixed` closed loop for CAL seconds: the maximum;
  3. warm-up, then clean: open loop (`--rate`) at half that maximum for SECS seconds;
  4. abused: the same open loop while bench/abuser.py runs every kind of hostile
     connection (garbage, slowloris, silent, half-closed, non-reading, oversized, floods);
  5. after: one more new connection must be served, and SIGTERM must exit 0.
The abuser runs under SCHED_IDLE (docs/faults.md#abuse says why): whatever the server
spends on the abuse stays in the server, at normal priority; only the attacker's own work of
producing the traffic, which a real attacker does on other machines, yields to everything.
Each measured run reports the CPU seconds of the server, of `ilion stress`, of the abuser and of everything else on the
machine, so a reader sees who used the cores.
The server's RSS is sampled every half second. Writes the results page (bench/ABUSE.md by
default). The legitimate p99 must stay within 2x of the clean run's, no legitimate call may
fail, the RSS must stay within the clean run's peak plus a budget, and other work must have
left the machine alone (at most 10% of its CPU during each measured run); exit 1 otherwise.
With --smoke (CI) the phases are a few seconds and only the functional checks count.
"""

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "faults"))
from faults_common import Node, ilion_harness, rss_kib  # noqa: E402

MAX_CONNECTIONS = 128
RSS_BUDGET_MIB = 64
# Other work on the machine, as a share of its CPU during a measured run, past which the
# timings measure that work rather than the abuse: such a run cannot pass.
OTHER_WORK_LIMIT = 0.10
# The smoke run shortens the read timeout so slow senders and non-readers are cut quickly.
SMOKE_READ_TIMEOUT = 5
THREADS = 16
# /proc times are in USER_HZ, 100 on every Linux architecture.
USER_HZ = os.sysconf("SC_CLK_TCK")
PRIORITIES = {
    # Preempted by any normal thread that wakes, runs on what the others leave idle; on a
    # busy machine it is starved and sends less (docs/faults.md#abuse).
    "idle": lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)),
    "nice10": lambda: os.nice(10),
    "normal": None,
}
PRIORITY_NAMES = {"idle": "under SCHED_IDLE", "nice10": "at nice 10", "normal": "at normal priority"}


def proc_cpu(pid):
    """CPU seconds process `pid` has used so far (user + system, all threads)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / USER_HZ


def cpu_now(server_pid, abuser_pid=None):
    """CPU seconds so far: the server's, the abuser's, this script's, and the whole machine's
    busy and niced time (from /proc/stat, steal and idle left out)."""
    server = proc_cpu(server_pid)
    abuser = proc_cpu(abuser_pid) if abuser_pid else 0.0
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq = map(int, f.readline().split()[1:8])
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {"server": server, "abuser": abuser, "driver": own.ru_utime + own.ru_stime,
            "busy": (user + nice + system + irq + softirq) / USER_HZ, "niced": nice / USER_HZ}


def cpu_used(before, after, stress_s):
    """What each used between two `cpu_now`s; `stress_s` is the stress run's own figure."""
    used = {k: after[k] - before[k] for k in before}
    used["stress"] = stress_s
    mine = used["server"] + used["abuser"] + used["driver"] + stress_s
    used["other"] = max(used["busy"] - mine, 0)
    return used


class RssSampler(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.samples, self.running = pid, [], True

    def run(self):
        while self.running:
            try:
                self.samples.append(rss_kib(self.pid))
            except OSError:
                return
            time.sleep(0.5)

    def stop(self):
        self.running = False
        self.join()
        return max(self.samples, default=0) / 1024


def stress(node, work, name, *args):
    out = os.path.join(work, name + ".json")
    cmd = [ilion_harness.binary(), "stress", "-h", node.host, "-p", str(node.port),
           "-i", "1000", "--json", out] + [str(a) for a in args]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1) or not os.path.exists(out):
        raise RuntimeError(f"stress {name} could not run: {run.stderr}")
    with open(out) as f:
        return json.load(f)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smoke", action="store_true", help="short phases, functional checks only")
    p.add_argument("--out", default=os.path.join(HERE, "ABUSE.md"))
    p.add_argument("--secs", type=int, default=60)
    p.add_argument("--cal", type=int, default=20)
    p.add_argument("--keys", type=int, default=50000)
    p.add_argument("--warmup", type=int, default=30, help="seconds of load before measuring")
    p.add_argument("--abuser-priority", choices=sorted(PRIORITIES), default=None,
                   help="CPU priority of the abuser process (idle: SCHED_IDLE, the default; "
                   "nice10 with --smoke, whose checks want the whole attack, not timings)")
    args = p.parse_args()
    if args.smoke:
        args.secs, args.cal, args.keys, args.warmup = 6, 3, 2000, 2
    if args.abuser_priority is None:
        args.abuser_priority = "nice10" if args.smoke else "idle"
    work = tempfile.mkdtemp(prefix="ilion-abuse-")
    elements = {"ThriftMaxConnections": str(MAX_CONNECTIONS)}
    if args.smoke:
        elements["ThriftReadTimeoutInSeconds"] = str(SMOKE_READ_TIMEOUT)
    node = Node(work, sync="periodic", elements=elements).start()
    failures = []
    load_before = open("/proc/loadavg").read().split()[:3]
    try:
        stress(node, work, "preload", "-o", "insert", "-n", args.keys, "-t", THREADS)
        common = ["-o", "mixed", "-r", "-n", args.keys, "-t", THREADS]
        cal = stress(node, work, "calibrate", *common, "--duration", args.cal)
        rate = max(int(cal["ops_per_s"] / 2), 10)

        # Settle: the calibration leaves the engine busy writing back; measure steady state.
        stress(node, work, "warmup", *common, "--duration", args.warmup, "--rate", rate)
        sampler = RssSampler(node.proc.pid)
        sampler.start()
        before = cpu_now(node.proc.pid)
        clean = stress(node, work, "clean", *common, "--duration", args.secs, "--rate", rate)
        clean_cpu = cpu_used(before, cpu_now(node.proc.pid), clean.get("client_cpu_s") or 0)
        clean_rss = sampler.stop()

        sampler = RssSampler(node.proc.pid)
        sampler.start()
        # The load first (its connections open), the abuse a second later until its end.
        result = {}
        before = cpu_now(node.proc.pid)
        load = threading.Thread(target=lambda: result.update(abused=stress(
            node, work, "abused", *common, "--duration", args.secs, "--rate", rate)))
        load.start()
        time.sleep(1)
        abuser = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "abuser.py"), "--host", node.host,
             "--port", str(node.port), "--seconds", str(args.secs - 1)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=PRIORITIES[args.abuser_priority])
        load.join()
        # Read while the abuser still runs: its last held connections outlast the load.
        after = cpu_now(node.proc.pid, abuser.pid)
        abused = result["abused"]
        out, err = abuser.communicate(timeout=args.secs + 180)
        abused_rss = sampler.stop()
        if abuser.returncode != 0:
            raise RuntimeError(f"abuser failed: {err}")
        seen = json.loads(out.strip().splitlines()[-1])
        abused_cpu = cpu_used(before, after, abused.get("client_cpu_s") or 0)
        abused_cpu["abuser_total"] = seen.pop("abuser_cpu_s", 0)
        after_rss = node.rss_kib() / 1024

        client = node.connect()
        after_ok = client.c.describe_version() is not None
        client.close()
        status = node.stop()
    finally:
        if node.proc.poll() is None:
            node.kill()
        shutil.rmtree(work, ignore_errors=True)
    load_after = open("/proc/loadavg").read().split()[:3]

    ratio = abused["latency"]["p99_ms"] / max(clean["latency"]["p99_ms"], 1e-6)
    # What must hold in every run, smoke included.
    if clean["errors"] or abused["errors"]:
        failures.append(f"legitimate calls failed: clean {clean['errors']}, "
                        f"abused {abused['errors']}")
    if not after_ok:
        failures.append("a new connection after the abuse was not served")
    if status != 0:
        failures.append(f"SIGTERM after the abuse exited with {status}")
    for kind in ("garbage", "oversized_claim", "halfclose"):
        if seen.get(kind + "_kept_open"):
            failures.append(f"{kind}: {seen[kind + '_kept_open']} connections never closed")
    if not seen.get("garbage_closed") or not seen.get("oversized_claim_closed"):
        failures.append("the abuser's garbage or oversized connections never got through")
    if seen.get("slowloris_never_closed"):
        failures.append("slowloris connections were never closed")
    if seen.get("nonreader_still_open_at_end"):
        failures.append("non-reading connections were never closed")
    if not seen.get("newlegit_ok"):
        failures.append("no new connection was served during the abuse")
    if not args.smoke:
        for name, used in (("clean", clean_cpu), ("abused", abused_cpu)):
            share = used["other"] / (os.cpu_count() * args.secs)
            if share > OTHER_WORK_LIMIT:
                failures.append(f"the machine was busy: other work used {share:.0%} of its CPU "
                                f"during the {name} run (limit {OTHER_WORK_LIMIT:.0%}), so the "
                                "latencies measure that work, not the abuse")
        if ratio > 2.0:
            failures.append(f"abused p99 is {ratio:.2f}x the clean run's (limit 2x)")
        if abused_rss > clean_rss + RSS_BUDGET_MIB:
            failures.append(f"RSS {abused_rss:.0f} MiB under abuse, over the clean peak "
                            f"{clean_rss:.0f} + {RSS_BUDGET_MIB} MiB")
    machine = {"load_before": load_before, "load_after": load_after,
               "clean": clean_cpu, "abused": abused_cpu}
    page = report(args, cal, rate, clean, abused, ratio, clean_rss, abused_rss, after_rss,
                  seen, machine, failures)
    with open(args.out, "w") as f:
        f.write(page)
    print(page)
    sys.exit(1 if failures else 0)


def row(name, s):
    lat = s["latency"]
    return (f"| {name} | {s['ops_per_s']:.0f} | {s['errors']} | {lat['p50_ms']:.2f} | "
            f"{lat['p99_ms']:.2f} | {lat['p999_ms']:.2f} | {lat['max_ms']:.1f} |")


def cpu_row(name, u):
    return (f"| {name} | {u['server']:.1f} | {u['stress']:.1f} | {u['abuser']:.1f} | "
            f"{u['driver']:.1f} | {u['other']:.1f} ({u['niced']:.1f} niced) |")


def report(args, cal, rate, clean, abused, ratio, clean_rss, abused_rss, after_rss, seen,
           machine, failures):
    mode = "smoke run (short phases; timings not judged)" if args.smoke else "full run"
    lines = [
        "# Network abuse under load",
        "",
        f"Generated by `bench/abuse.sh` ({mode}) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{platform.machine()}, {os.cpu_count()} cores shared by the server, `ilion stress` and the "
        "abuser. Method: [docs/faults.md#abuse](../docs/faults.md#abuse). Regenerated, never edited.",
        "",
        f"Server: periodic mode, ThriftMaxConnections {MAX_CONNECTIONS}, the other wire limits at "
        f"their defaults (read timeout {SMOKE_READ_TIMEOUT if args.smoke else 30} s, idle timeout "
        "3600 s, frames up to 15 MiB). "
        f"Load: `ilion stress -o mixed -r -n {args.keys} -t {THREADS}`; the closed-loop maximum was "
        f"{cal['ops_per_s']:.0f} ops/s; after {args.warmup} s of warm-up at half of it, both "
        f"measured runs are open loop at that rate ({rate} ops/s) for {args.secs} s.",
        "",
        "| run | ops/s | errors | p50 ms | p99 ms | p99.9 ms | max ms |",
        "|---|---|---|---|---|---|---|",
        row("clean", clean),
        row("abused", abused),
        "",
        f"* **p99 abused / clean: {ratio:.2f}** (limit 2).",
        f"* Server RSS: peak {clean_rss:.0f} MiB in the clean run, {abused_rss:.0f} MiB under "
        f"abuse (budget: clean peak + {RSS_BUDGET_MIB} MiB), {after_rss:.0f} MiB after it.",
        "",
        f"CPU seconds used during each measured run ({os.cpu_count()} cores, so "
        f"{os.cpu_count() * args.secs} available). The abuser ran "
        f"{PRIORITY_NAMES[args.abuser_priority]} and used "
        f"{machine['abused']['abuser_total']:.1f} s in all, its last held connections outlasting "
        "the load. *Other* is the rest of the machine's busy time (other people's work "
        "included; *niced* is the part at a lower priority).",
        "",
        "| run | server | `ilion stress` | abuser | this script | other |",
        "|---|---|---|---|---|---|",
        cpu_row("clean", machine["clean"]),
        cpu_row("abused", machine["abused"]),
        "",
        f"Load average (1, 5, 15 min) before the run: {', '.join(machine['load_before'])}; "
        f"after it: {', '.join(machine['load_after'])}.",
        "",
        "What the abuser saw (counts of connections; `_s` are seconds):",
        "",
        "| what | value |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v} |" for k, v in sorted(seen.items())]
    lines += ["", "Verdict: " + ("**pass**" if not failures else "**FAIL**")]
    lines += [f"* {f}" for f in failures]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
