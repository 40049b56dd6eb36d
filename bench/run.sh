#!/bin/sh
# The performance bar (bench/README.md), in one go on this machine: builds the release binary, then
#   1. ilion, CommitLogSync periodic: insert, read, then open-loop reads and inserts at half
#      the closed-loop maximum just measured;
#   2. ilion, CommitLogSync batch (1.0 ms window): insert, then read;
#   3. the no-op floor (`ilion stress --serve-noop`): insert, read, and open loop at the same
#      rates as in 1;
#   4. the storage ceiling for the same inserts, in-process without the network
#      (benches/stress_ceiling.rs: cf's Db::apply, and raw sled apply_batch of the same keys);
# each closed loop with $CONNS connections over $KEYS keys, and writes bench/RESULTS.md
# (throughput, ratio to the floor, latency percentiles, server RSS, data-dir size, machine).
#
#   bench/run.sh                        # KEYS=200000 CONNS=50 OPEN_SECS=20
#   KEYS=20000 OPEN_SECS=5 bench/run.sh # a quick smoke run
#
# Servers are started on free ports (ThriftPort 0; the port is read from the server's
# "listening on HOST:PORT" line) with data in a temporary directory, and stopped with SIGTERM.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
KEYS=${KEYS:-200000}
CONNS=${CONNS:-50}
OPEN_SECS=${OPEN_SECS:-20}
OUT=${OUT:-bench/RESULTS.md}

cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-$root/target}/release/ilion"
work=$(mktemp -d "${TMPDIR:-/tmp}/ilion-bench.XXXXXX")
server_pid=""

cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# conf MODE DIR: a storage-conf.xml for CommitLogSync MODE with its directories under DIR.
conf() {
    mkdir -p "$2"
    case $1 in
    periodic) sync='<CommitLogSync>periodic</CommitLogSync><CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>' ;;
    batch) sync='<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>1.0</CommitLogSyncBatchWindowInMS>' ;;
    esac
    sed -e "s|<ThriftPort>9160</ThriftPort>|<ThriftPort>0</ThriftPort>|" \
        -e "s|<ThriftAddress>localhost</ThriftAddress>|<ThriftAddress>127.0.0.1</ThriftAddress>|" \
        -e "s|data/commitlog|$2/commitlog|; s|data/data|$2/data|; s|data/saved_caches|$2/saved_caches|" \
        -e "/^ *<CommitLogSyncPeriodInMS>10000<\/CommitLogSyncPeriodInMS>$/d" \
        -e "s|<CommitLogSync>periodic</CommitLogSync>|$sync|" \
        conf/storage-conf.xml >"$2/storage-conf.xml"
    # The sample must still have the lines edited here.
    grep -q "<ThriftPort>0</ThriftPort>" "$2/storage-conf.xml"
    grep -q "<CommitLogSync>$1</CommitLogSync>" "$2/storage-conf.xml"
    grep -q "$2/data" "$2/storage-conf.xml"
    echo "$2/storage-conf.xml"
}

# start NAME CMD...: runs a server in the background and waits for its port.
start() {
    name=$1
    shift
    "$@" 2>"$work/$name.log" &
    server_pid=$!
    i=0
    until port=$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$work/$name.log" | head -n 1) &&
        [ -n "$port" ]; do
        i=$((i + 1))
        if [ $i -gt 300 ] || ! kill -0 "$server_pid" 2>/dev/null; then
            echo "bench: $name did not start:" >&2
            cat "$work/$name.log" >&2
            exit 1
        fi
        sleep 0.1
    done
}

stop() {
    kill -TERM "$server_pid"
    wait "$server_pid" || true
    server_pid=""
}

# memory NAME: the server's resident and peak resident memory now, in KiB.
memory() {
    awk '/^VmRSS|^VmHWM/ { printf "%s=%s\n", substr($1, 1, length($1) - 1), $2 }' \
        "/proc/$server_pid/status" >"$work/$1.mem"
}

# stress NAME ARGS...: one run against the current server, summary to NAME.json.
stress() {
    name=$1
    shift
    cmd="ilion stress -h 127.0.0.1 -p PORT -t $CONNS -n $KEYS -i 5 $*"
    echo "$cmd" >"$work/$name.cmd"
    echo "== $name: $cmd" >&2
    "$bin" stress -h 127.0.0.1 -p "$port" -t "$CONNS" -n "$KEYS" -i 5 \
        --json "$work/$name.json" "$@" >"$work/$name.out" || {
        echo "bench: $name had errors (see below)" >&2
        tail -n 5 "$work/$name.out" >&2
    }
    tail -n 3 "$work/$name.out" >&2
}

# size NAME DIR: the data directory's size now, in KiB.
size() {
    du -sk "$2" | cut -f1 >"$work/$1.du"
}

ops_per_s() {
    sed -n 's/.*"ops_per_s": \([0-9.]*\).*/\1/p' "$work/$1.json"
}

# 1. ilion, periodic.
cfg=$(conf periodic "$work/periodic")
start periodic "$bin" serve --config "$cfg"
stress periodic-insert -o insert
memory periodic-insert
size periodic-insert "$work/periodic"
stress periodic-read -o read
memory periodic-read
read_rate=$(ops_per_s periodic-read | awk '{ printf "%d", $1 / 2 }')
insert_rate=$(ops_per_s periodic-insert | awk '{ printf "%d", $1 / 2 }')
# The bulk load's periodic sync (10 s period) writes ~100 MB in the background; let it
# finish so that the open loop measures steady-state latency, not the tail of the load.
sleep "${SETTLE_SECS:-12}"
stress periodic-open-read -o read --rate "$read_rate" --duration "$OPEN_SECS"
stress periodic-open-insert -o insert --rate "$insert_rate" --duration "$OPEN_SECS"
memory periodic-open
stop
size periodic-end "$work/periodic"

# 2. ilion, batch.
cfg=$(conf batch "$work/batch")
start batch "$bin" serve --config "$cfg"
stress batch-insert -o insert
memory batch-insert
size batch-insert "$work/batch"
stress batch-read -o read
memory batch-read
stop

# 3. The floor, closed loop, then open loop at the rates ilion was given: the latency the
#    machine itself allows at that load.
start noop "$bin" stress --serve-noop -h 127.0.0.1 -p 0
stress noop-insert -o insert
stress noop-read -o read
memory noop-read
stress noop-open-read -o read --rate "$read_rate" --duration "$OPEN_SECS"
stress noop-open-insert -o insert --rate "$insert_rate" --duration "$OPEN_SECS"
stop

# 4. The storage ceiling.
echo "== storage ceiling: cargo bench --bench stress_ceiling -- $KEYS" >&2
cargo bench --quiet --bench stress_ceiling -- "$KEYS" >"$work/ceiling.jsonl"
cat "$work/ceiling.jsonl" >&2

python3 bench/report.py "$work" "$KEYS" "$CONNS" "$OPEN_SECS" >"$OUT"
echo "bench: wrote $OUT" >&2
