#!/bin/sh
# Throughput and p99 latency of ilion over a Redis Cluster with 1, 2 and 3 front ends, beside
# one ilion on sled (docs/redis.md#scaling), with `ilion stress`:
#   1. sled: one server; load KEYS rows (insert), then a mixed load (half reads, half
#      inserts of random keys) for SECS seconds;
#   2. redis-cluster, F = 1, 2, 3 front ends on one namespace of a local 6-node cluster
#      (scripts/redis-cluster.sh, ports from BASEPORT): the same load, then the mixed load
#      run against every front end at once, CONNS connections each; throughput summed,
#      p99 the worst of the front ends';
#   3. batch mode (CommitLogSync batch): inserts through one front end, and on sled.
# Writes bench/REDIS.md. On a 2-core machine the cluster's processes and the front ends
# share the CPU: the figures show per-request cost, not scaling (see docs/redis.md).
#
#   bench/redis.sh                         # KEYS=20000 CONNS=16 SECS=15
#   KEYS=5000 SECS=5 bench/redis.sh        # a quick smoke run
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
KEYS=${KEYS:-20000}
CONNS=${CONNS:-16}
SECS=${SECS:-15}
BASEPORT=${BASEPORT:-7300}
OUT=${OUT:-bench/REDIS.md}

cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-$root/target}/release/ilion"
work=$(mktemp -d "${TMPDIR:-/tmp}/ilion-redis-bench.XXXXXX")
pids=""

cleanup() {
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    scripts/redis-cluster.sh down "$BASEPORT" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

seeds=$(scripts/redis-cluster.sh up "$BASEPORT" | tr '\n' ' ')
namespace="bench-$$"

# conf ENGINE MODE DIR: a storage-conf.xml (RandomPartitioner) under DIR.
conf() {
    mkdir -p "$3"
    case $2 in
    periodic) sync='<CommitLogSync>periodic</CommitLogSync><CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>' ;;
    batch) sync='<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>1.0</CommitLogSyncBatchWindowInMS>' ;;
    esac
    engine=""
    if [ "$1" = redis ]; then
        engine="<StorageEngine>redis-cluster</StorageEngine><RedisCluster>"
        for s in $seeds; do engine="$engine<Seed>$s</Seed>"; done
        engine="$engine<Namespace>$namespace-$2</Namespace></RedisCluster>"
    fi
    sed -e "s|<ThriftPort>9160</ThriftPort>|<ThriftPort>0</ThriftPort>|" \
        -e "s|<ThriftAddress>localhost</ThriftAddress>|<ThriftAddress>127.0.0.1</ThriftAddress>|" \
        -e "s|data/commitlog|$3/commitlog|; s|data/data|$3/data|; s|data/saved_caches|$3/saved_caches|" \
        -e "/^ *<CommitLogSyncPeriodInMS>10000<\/CommitLogSyncPeriodInMS>$/d" \
        -e "s|<CommitLogSync>periodic</CommitLogSync>|$sync|" \
        -e "s|</Storage>|$engine</Storage>|" \
        conf/storage-conf.xml >"$3/storage-conf.xml"
    grep -q "<ThriftPort>0</ThriftPort>" "$3/storage-conf.xml"
    echo "$3/storage-conf.xml"
}

# start NAME CONF: runs a server in the background; its port goes to $work/NAME.port.
start() {
    "$bin" serve --config "$2" 2>"$work/$1.log" &
    pids="$pids $!"
    i=0
    until port=$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$work/$1.log" | head -n 1) &&
        [ -n "$port" ]; do
        i=$((i + 1))
        if [ $i -gt 300 ]; then
            echo "bench: $1 did not start:" >&2
            cat "$work/$1.log" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "$port" >"$work/$1.port"
}

stop_all() {
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in $pids; do wait "$pid" 2>/dev/null || true; done
    pids=""
}

# stress NAME PORT ARGS...: one run, summary to NAME.json.
stress() {
    name=$1
    port=$2
    shift 2
    echo "== $name: ilion stress -p $port -t $CONNS $*" >&2
    "$bin" stress -h 127.0.0.1 -p "$port" -t "$CONNS" -i 5 --json "$work/$name.json" "$@" \
        >"$work/$name.out" 2>&1 || {
        echo "bench: $name had errors" >&2
        tail -n 5 "$work/$name.out" >&2
    }
    tail -n 2 "$work/$name.out" >&2
}

field() { sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$work/$1.json" | head -n 1; }

# mixed NAME PORT...: the mixed load on every PORT at once; one line of results.
mixed() {
    name=$1
    shift
    i=0
    loads=""
    for port in "$@"; do
        i=$((i + 1))
        stress "$name-$i" "$port" -o mixed --read-fraction 0.5 -r -n "$KEYS" \
            --duration "$SECS" --seed "$i" &
        loads="$loads $!"
    done
    # Only the loads: a bare `wait` would wait for the servers too.
    for load in $loads; do wait "$load" || true; done
    ops=0
    p99=0
    j=0
    while [ $j -lt $i ]; do
        j=$((j + 1))
        ops=$(awk -v a="$ops" -v b="$(field "$name-$j" ops_per_s)" 'BEGIN { printf "%.0f", a + b }')
        p99=$(awk -v a="$p99" -v b="$(field "$name-$j" p99_ms)" 'BEGIN { printf "%.2f", (b > a ? b : a) }')
    done
    echo "$name $ops $p99" >>"$work/results"
}

# insert NAME PORT: loads KEYS rows; one line of results.
insert() {
    stress "$1" "$2" -o insert -n "$KEYS"
    echo "$1 $(field "$1" ops_per_s | awk '{ printf "%.0f", $1 }') $(field "$1" p99_ms)" >>"$work/results"
}

: >"$work/results"
# 1. sled.
start sled "$(conf sled periodic "$work/sled")"
insert sled-insert "$(cat "$work/sled.port")"
mixed sled-mixed "$(cat "$work/sled.port")"
stop_all
# 2. redis-cluster with 1, 2, 3 front ends (one namespace: the data loaded once).
for f in 1 2 3; do start "fe$f" "$(conf redis periodic "$work/fe$f")"; done
insert redis-insert "$(cat "$work/fe1.port")"
mixed redis-mixed-1 "$(cat "$work/fe1.port")"
mixed redis-mixed-2 "$(cat "$work/fe1.port")" "$(cat "$work/fe2.port")"
mixed redis-mixed-3 "$(cat "$work/fe1.port")" "$(cat "$work/fe2.port")" "$(cat "$work/fe3.port")"
stop_all
# 3. batch mode.
start sled-batch "$(conf sled batch "$work/sled-batch")"
insert sled-batch-insert "$(cat "$work/sled-batch.port")"
stop_all
start redis-batch "$(conf redis batch "$work/redis-batch")"
insert redis-batch-insert "$(cat "$work/redis-batch.port")"
stop_all

get() { awk -v n="$1" '$1 == n { print $'"$2"' }' "$work/results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
base=$(get sled-mixed 2)
{
    echo "# ilion over a Redis Cluster: front ends beside sled"
    echo
    echo "Written by \`bench/redis.sh\` ($(date -u +%Y-%m-%d), KEYS=$KEYS, CONNS=$CONNS per front end,"
    echo "SECS=$SECS) on $(nproc) cores: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)."
    echo "The cluster is 6 local redis-server processes (3 primaries, 3 replicas, AOF with"
    echo "\`appendfsync always\`) sharing the same cores as the front ends and the load"
    echo "generators, so these figures are the per-request cost, not the scaling: see"
    echo "[docs/redis.md#scaling](../docs/redis.md#scaling) for the model of N machines."
    echo
    echo "Mixed load: half \`get_slice\` reads, half \`batch_insert\`s, random keys among $KEYS,"
    echo "CommitLogSync periodic; with several front ends, one \`ilion stress\` per front end at once"
    echo "(throughput summed, p99 the worst of them)."
    echo
    echo "| setup | ops/s | p99 ms | ops/s vs sled |"
    echo "|---|---:|---:|---:|"
    for n in sled-mixed redis-mixed-1 redis-mixed-2 redis-mixed-3; do
        echo "| $n | $(get $n 2) | $(get $n 3) | $(ratio "$(get $n 2)" "$base") |"
    done
    echo
    echo "Loading $KEYS rows (\`batch_insert\` of 5 columns, keys in order, $CONNS connections):"
    echo
    echo "| setup | ops/s | p99 ms | ops/s vs sled, same mode |"
    echo "|---|---:|---:|---:|"
    echo "| sled, periodic | $(get sled-insert 2) | $(get sled-insert 3) | 1.00 |"
    echo "| redis-cluster, periodic, 1 front end | $(get redis-insert 2) | $(get redis-insert 3) | $(ratio "$(get redis-insert 2)" "$(get sled-insert 2)") |"
    echo "| sled, batch | $(get sled-batch-insert 2) | $(get sled-batch-insert 3) | 1.00 |"
    echo "| redis-cluster, batch (\`WAIT 1\`), 1 front end | $(get redis-batch-insert 2) | $(get redis-batch-insert 3) | $(ratio "$(get redis-batch-insert 2)" "$(get sled-batch-insert 2)") |"
} >"$OUT"
cat "$OUT"
