"""Network abuse under load (docs/faults.md#abuse), run by bench/abuse.sh.

One server (periodic mode, ThriftMaxConnections 128, the other wire limits at their
defaults), one run, in order:
  1. preload: `ilion stress -o insert` of KEYS rows;
  2. calibrate: `ilion stress -o mixed` closed loop for CAL seconds: the maximum;
  3. warm-up, then clean: open loop (`--rate`) at half that maximum for SECS seconds;
  4. abused: the same open loop while bench/abuser.py runs every kind of hostile
     connection (garbage, slowloris, silent, half-closed, non-reading, oversized, floods);
  5. after: one more new connection must be served, and SIGTERM must exit 0.
The server's RSS is sampled every half second. Writes the results page (bench/ABUSE.md by
default). The legitimate p99 must stay within 2x of the clean run's, no legitimate call may
fail, and the RSS must stay within the clean run's peak plus a budget; exit 1 otherwise.
With --smoke (CI) the phases are a few seconds and only the functional checks count.
"""

import argparse
import json
import os
import platform
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
# The smoke run shortens the read timeout so slow senders and non-readers are cut quickly.
SMOKE_READ_TIMEOUT = 5
THREADS = 16


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
    if run.returncode not in (0, 1):
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
    args = p.parse_args()
    if args.smoke:
        args.secs, args.cal, args.keys, args.warmup = 6, 3, 2000, 2
    work = tempfile.mkdtemp(prefix="ilion-abuse-")
    elements = {"ThriftMaxConnections": str(MAX_CONNECTIONS)}
    if args.smoke:
        elements["ThriftReadTimeoutInSeconds"] = str(SMOKE_READ_TIMEOUT)
    node = Node(work, sync="periodic", elements=elements).start()
    failures = []
    try:
        stress(node, work, "preload", "-o", "insert", "-n", args.keys, "-t", THREADS)
        common = ["-o", "mixed", "-r", "-n", args.keys, "-t", THREADS]
        cal = stress(node, work, "calibrate", *common, "--duration", args.cal)
        rate = max(int(cal["ops_per_s"] / 2), 10)

        # Settle: the calibration leaves the engine busy writing back; measure steady state.
        stress(node, work, "warmup", *common, "--duration", args.warmup, "--rate", rate)
        sampler = RssSampler(node.proc.pid)
        sampler.start()
        clean = stress(node, work, "clean", *common, "--duration", args.secs, "--rate", rate)
        clean_rss = sampler.stop()

        sampler = RssSampler(node.proc.pid)
        sampler.start()
        # The load first (its connections open), the abuse a second later until its end.
        result = {}
        load = threading.Thread(target=lambda: result.update(abused=stress(
            node, work, "abused", *common, "--duration", args.secs, "--rate", rate)))
        load.start()
        time.sleep(1)
        # Niced: a real attacker's own CPU is on other machines; only what it sends counts.
        abuser = subprocess.Popen(
            ["nice", "-n", "10", sys.executable, os.path.join(HERE, "abuser.py"), "--host", node.host,
             "--port", str(node.port), "--seconds", str(args.secs - 1)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        load.join()
        abused = result["abused"]
        out, err = abuser.communicate(timeout=args.secs + 180)
        abused_rss = sampler.stop()
        if abuser.returncode != 0:
            raise RuntimeError(f"abuser failed: {err}")
        seen = json.loads(out.strip().splitlines()[-1])
        after_rss = node.rss_kib() / 1024

        client = node.connect()
        after_ok = client.c.describe_version() is not None
        client.close()
        status = node.stop()
    finally:
        if node.proc.poll() is None:
            node.kill()
        shutil.rmtree(work, ignore_errors=True)

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
        if ratio > 2.0:
            failures.append(f"abused p99 is {ratio:.2f}x the clean run's (limit 2x)")
        if abused_rss > clean_rss + RSS_BUDGET_MIB:
            failures.append(f"RSS {abused_rss:.0f} MiB under abuse, over the clean peak "
                            f"{clean_rss:.0f} + {RSS_BUDGET_MIB} MiB")
    page = report(args, cal, rate, clean, abused, ratio, clean_rss, abused_rss, after_rss,
                  seen, failures)
    with open(args.out, "w") as f:
        f.write(page)
    print(page)
    sys.exit(1 if failures else 0)


def row(name, s):
    lat = s["latency"]
    return (f"| {name} | {s['ops_per_s']:.0f} | {s['errors']} | {lat['p50_ms']:.2f} | "
            f"{lat['p99_ms']:.2f} | {lat['p999_ms']:.2f} | {lat['max_ms']:.1f} |")


def report(args, cal, rate, clean, abused, ratio, clean_rss, abused_rss, after_rss, seen,
           failures):
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
