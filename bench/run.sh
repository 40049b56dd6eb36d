#!/bin/sh
# The performance bar (bench/README.md), in one go on this machine. Builds the release binary,
# then for each engine in $ENGINES (sled, fjall; `<StorageEngine>` in the generated config):
#   1. periodic mode (10 s sync), one store of $KEYS rows: closed-loop insert and read, a pause
#      for the load's sync, open-loop reads and inserts (of new rows) at half the closed-loop
#      maxima just measured, closed-loop inserts over the loaded rows (rewrite), a pause, open-
#      loop rewrites at half that maximum, range slices, and a Super CF workload (insert-super,
#      read-super);
#   2. batch mode (1.0 ms window), a new store: closed-loop insert;
#   3. growth, a new store grown in steps to each size in $GROWTH: the last rows loaded to reach
#      the size are timed, then $GROWTH_READS uniform random reads of the whole store, memory,
#      the data directory at rest, and start-up time on it (spawn until "listening on");
# then the no-op floor (`ilion stress --serve-noop`): the same closed loops, and the open loops
# at each engine's rates; then the in-process storage ceiling (benches/stress_ceiling.rs).
# Every phase records the server's CPU (utime+stime from /proc/PID/stat). bench/report.py
# turns the work directory into $OUT (bench/RESULTS.md).
#
#   bench/run.sh                                  # the full run (~15-45 min on 2 cores)
#   KEYS=5000 GROWTH="10000 20000 50000" OPEN_SECS=3 SETTLE_SECS=1 OUT=/tmp/r.md bench/run.sh
#
# Servers listen on free ports (ThriftPort 0; the port is read from the server's
# "listening on HOST:PORT" line), keep data in a temporary directory, and stop with SIGTERM.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
KEYS=${KEYS:-200000}
CONNS=${CONNS:-50}
OPEN_SECS=${OPEN_SECS:-20}
SETTLE_SECS=${SETTLE_SECS:-12}
ENGINES=${ENGINES:-sled fjall}
GROWTH=${GROWTH:-200000 1000000 5000000}
GROWTH_STEP=${GROWTH_STEP:-200000}
GROWTH_READS=${GROWTH_READS:-100000}
RANGE_OPS=${RANGE_OPS:-5000}
RANGE_ROWS=${RANGE_ROWS:-100}
SUPERS=${SUPERS:-2}
CEILING=${CEILING:-1}
OUT=${OUT:-bench/RESULTS.md}

for e in $ENGINES; do
    case $e in sled | fjall) ;; *) echo "bench: ENGINES: $e is not sled or fjall" >&2 && exit 2 ;; esac
done
prev=0
for s in $GROWTH; do
    [ "$s" -gt "$prev" ] || { echo "bench: GROWTH must be increasing sizes" >&2 && exit 2; }
    prev=$s
done
largest=$prev

# What the run will take at a pessimistic 20k inserts/s and 40k reads/s (range slices at
# 200k rows/s, super inserts at 10k/s); the machine's real rates decide.
n_engines=$(echo "$ENGINES" | wc -w)
n_sizes=$(echo "$GROWTH" | wc -w)
estimate=$(awk -v k="$KEYS" -v e="$n_engines" -v o="$OPEN_SECS" -v st="$SETTLE_SECS" \
    -v g="$largest" -v ns="$n_sizes" -v gr="$GROWTH_READS" -v ro="$RANGE_OPS" \
    -v rr="$RANGE_ROWS" -v c="$CEILING" 'BEGIN {
    per = 2 * k / 20000 + k / 40000 + 2 * st + 3 * o + ro * rr / 200000 + k / 10000 + k / 40000
    per += g / 20000 + ns * (gr / 40000 + 10) + 15
    floor = 2 * k / 100000 + 3 * e * o + ro * rr / 1000000 + k / 50000 + 5
    printf "%d", (e * per + floor + c * e * k / 40000 + 30) / 60 + 1 }')
echo "bench: engines [$ENGINES], $KEYS keys, $CONNS connections, growth to [$GROWTH];" \
    "estimated ~$estimate min (more if inserts run below 20k/s)" >&2

cargo build --release --quiet
if [ "$CEILING" = 1 ]; then cargo bench --quiet --no-run --bench stress_ceiling 2>/dev/null; fi
bin="${CARGO_TARGET_DIR:-$root/target}/release/ilion"
work=$(mktemp -d "${TMPDIR:-/tmp}/ilion-bench.XXXXXX")
server_pid=""
began=$(date +%s)
hz=$(getconf CLK_TCK)

cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    if [ "${KEEP_WORK:-0}" = 1 ]; then
        echo "bench: work directory kept: $work (python3 bench/report.py $work)" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT INT TERM

{
    echo "KEYS=$KEYS"
    echo "CONNS=$CONNS"
    echo "OPEN_SECS=$OPEN_SECS"
    echo "SETTLE_SECS=$SETTLE_SECS"
    echo "ENGINES=$ENGINES"
    echo "GROWTH=$GROWTH"
    echo "GROWTH_STEP=$GROWTH_STEP"
    echo "GROWTH_READS=$GROWTH_READS"
    echo "RANGE_OPS=$RANGE_OPS"
    echo "RANGE_ROWS=$RANGE_ROWS"
    echo "SUPERS=$SUPERS"
    echo "FS=$(df -T "$work" | awk 'NR == 2 { print $2 }')"
    # How busy the machine was before the run: rates and tails follow other work.
    echo "LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)"
} >"$work/meta"

# conf ENGINE MODE DIR: a storage-conf.xml for ENGINE and CommitLogSync MODE, directories under DIR.
conf() {
    mkdir -p "$3"
    case $2 in
    periodic) sync='<CommitLogSync>periodic</CommitLogSync><CommitLogSyncPeriodInMS>10000</CommitLogSyncPeriodInMS>' ;;
    batch) sync='<CommitLogSync>batch</CommitLogSync><CommitLogSyncBatchWindowInMS>1.0</CommitLogSyncBatchWindowInMS>' ;;
    esac
    sed -e "s|<ThriftPort>9160</ThriftPort>|<ThriftPort>0</ThriftPort>|" \
        -e "s|<ThriftAddress>localhost</ThriftAddress>|<ThriftAddress>127.0.0.1</ThriftAddress>|" \
        -e "s|data/commitlog|$3/commitlog|; s|data/data|$3/data|; s|data/saved_caches|$3/saved_caches|" \
        -e "/^ *<CommitLogSyncPeriodInMS>10000<\/CommitLogSyncPeriodInMS>$/d" \
        -e "s|<CommitLogSync>periodic</CommitLogSync>|$sync|" \
        -e "s|</Storage>|<StorageEngine>$1</StorageEngine></Storage>|" \
        conf/storage-conf.xml >"$3/storage-conf.xml"
    # The sample must still have the lines edited here. (It has StorageEngine only inside a
    # comment, so the element is added before </Storage>, and `serve` checks the engine the
    # server says it opened: an edit inside a comment once ran every fjall phase on sled.)
    grep -q "<ThriftPort>0</ThriftPort>" "$3/storage-conf.xml"
    grep -q "<CommitLogSync>$2</CommitLogSync>" "$3/storage-conf.xml"
    grep -q "$3/data" "$3/storage-conf.xml"
    echo "$3/storage-conf.xml"
}

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}

# start NAME CMD...: runs a server in the background and waits for its port; NAME.startup is
# the milliseconds from spawn to its "listening on" line (polled every 10 ms).
start() {
    name=$1
    shift
    : >"$work/$name.log"
    t0=$(now_ms)
    "$@" 2>"$work/$name.log" &
    server_pid=$!
    i=0
    until port=$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$work/$name.log" | head -n 1) &&
        [ -n "$port" ]; do
        i=$((i + 1))
        if [ $i -gt 60000 ] || ! kill -0 "$server_pid" 2>/dev/null; then
            echo "bench: $name did not start:" >&2
            cat "$work/$name.log" >&2
            exit 1
        fi
        sleep 0.01
    done
    echo $(($(now_ms) - t0)) >"$work/$name.startup"
}

# serve ENGINE NAME CONFIG: starts `ilion serve` as server NAME and fails the run unless it
# says it opened its store on ENGINE.
serve() {
    start "$2" "$bin" serve --config "$3"
    if ! grep -q "opened on the $1 engine" "$work/$2.log"; then
        echo "bench: $2 did not open its store on $1:" >&2
        cat "$work/$2.log" >&2
        exit 1
    fi
}

stop() {
    kill -TERM "$server_pid" 2>/dev/null || echo "bench: the server had already exited" >&2
    wait "$server_pid" || true
    server_pid=""
}

# memory NAME: the server's resident and peak resident memory now, in KiB.
memory() {
    awk '/^VmRSS|^VmHWM/ { printf "%s=%s\n", substr($1, 1, length($1) - 1), $2 }' \
        "/proc/$server_pid/status" >"$work/$1.mem" 2>/dev/null || true
}

# The server's CPU so far (utime + stime of all its threads), in clock ticks. Fields are
# counted after the command name's closing parenthesis: utime is the 12th, stime the 13th.
server_ticks() {
    { sed 's/.*) //' "/proc/$server_pid/stat" 2>/dev/null || true; } | awk '{ print $12 + $13 }'
}

# stress NAME ARGS...: one run against the current server: NAME.json (summary), NAME.cmd
# (the command), NAME.cpu (the server's CPU seconds over the run).
stress() {
    name=$1
    shift
    cmd="ilion stress -h 127.0.0.1 -p PORT -t $CONNS -i 10 $*"
    echo "$cmd" >"$work/$name.cmd"
    echo "== $name: $cmd" >&2
    before=$(server_ticks)
    "$bin" stress -h 127.0.0.1 -p "$port" -t "$CONNS" -i 10 \
        --json "$work/$name.json" "$@" >"$work/$name.out" || {
        echo "bench: $name had errors (see below)" >&2
        tail -n 5 "$work/$name.out" >&2
    }
    after=$(server_ticks)
    if [ -n "$before" ] && [ -n "$after" ]; then
        awk -v a="$after" -v b="$before" -v hz="$hz" 'BEGIN { printf "%.3f\n", (a - b) / hz }' \
            >"$work/$name.cpu"
    fi
    tail -n 4 "$work/$name.out" >&2
}

# size NAME DIR: the data directory's size now, in KiB.
size() {
    du -sk "$2" | cut -f1 >"$work/$1.du"
}

# half NAME: half the throughput of run NAME, as a whole rate ("" when it did not run).
half() {
    [ -f "$work/$1.json" ] || return 0
    sed -n 's/.*"ops_per_s": \([0-9.]*\).*/\1/p' "$work/$1.json" | awk '{ printf "%d", $1 / 2 }'
}

# new_keys RATE: the -n that gives an open loop at RATE keys of its own after the $KEYS loaded.
new_keys() {
    echo $((KEYS + ${1:-0} * OPEN_SECS))
}

# open_loop NAME RATE ARGS...: an open-loop run at RATE for OPEN_SECS, unless RATE is unknown.
open_loop() {
    name=$1
    rate=$2
    shift 2
    if [ -n "$rate" ] && [ "$rate" -gt 0 ]; then
        stress "$name" "$@" --rate "$rate" --duration "$OPEN_SECS"
    else
        echo "bench: $name skipped: no closed-loop rate to halve" >&2
    fi
}

# growth ENGINE: one store grown to each size of $GROWTH (see the top of this file).
growth() {
    e=$1
    dir="$work/$e-growth"
    cfg=$(conf "$e" periodic "$dir")
    width=$(($largest - 1))
    width=${#width}
    serve "$e" "$e-g0" "$cfg"
    have=0
    for s in $GROWTH; do
        timed_from=$((s - GROWTH_STEP))
        [ "$timed_from" -gt "$have" ] || timed_from=$have
        if [ "$timed_from" -gt "$have" ]; then
            stress "$e-g$s-fill" -n "$timed_from" --first-key "$have" --key-width "$width" -o insert
        fi
        stress "$e-g$s-insert" -n "$s" --first-key "$timed_from" --key-width "$width" -o insert
        stress "$e-g$s-read" -n "$s" --key-width "$width" -o read -r --ops "$GROWTH_READS"
        memory "$e-g$s"
        stop
        size "$e-g$s" "$dir"
        serve "$e" "$e-g$s-restart" "$cfg"
        have=$s
    done
    stop
    rm -rf "$dir"
}

for e in $ENGINES; do
    # 1. periodic
    dir="$work/$e"
    cfg=$(conf "$e" periodic "$dir")
    serve "$e" "$e" "$cfg"
    stress "$e-insert" -n "$KEYS" -o insert
    memory "$e-insert"
    size "$e-insert" "$dir"
    stress "$e-read" -n "$KEYS" -o read
    memory "$e-read"
    read_half=$(half "$e-read")
    insert_half=$(half "$e-insert")
    # The bulk load's periodic sync (10 s period) writes the load back in the background; let
    # it finish so that the open loop measures steady-state latency, not the tail of the load.
    sleep "$SETTLE_SECS"
    open_loop "$e-open-read" "$read_half" -n "$KEYS" -o read
    # Open-loop inserts write new rows, as the closed-loop inserts whose maximum set the rate.
    open_loop "$e-open-insert" "$insert_half" -n "$(new_keys "$insert_half")" \
        --first-key "$KEYS" -o insert
    # The inserts again over the loaded rows (each write reads its row first), closed loop,
    # then open loop at half that maximum after the same rest.
    stress "$e-rewrite" -n "$KEYS" -o insert
    rewrite_half=$(half "$e-rewrite")
    echo "${read_half:-0} ${insert_half:-0} ${rewrite_half:-0}" >"$work/$e.rates"
    sleep "$SETTLE_SECS"
    open_loop "$e-open-rewrite" "$rewrite_half" -n "$KEYS" -o insert
    stress "$e-range" -n "$KEYS" -o rangeslice -g "$RANGE_ROWS" --ops "$RANGE_OPS"
    stress "$e-super-insert" -n "$KEYS" -o insert-super -u "$SUPERS"
    stress "$e-super-read" -n "$KEYS" -o read-super -u "$SUPERS"
    memory "$e-end"
    stop
    size "$e-end" "$dir"
    rm -rf "$dir"

    # 2. batch
    dir="$work/$e-batch"
    cfg=$(conf "$e" batch "$dir")
    serve "$e" "$e-batch" "$cfg"
    stress "$e-batch-insert" -n "$KEYS" -o insert
    memory "$e-batch-insert"
    stop
    rm -rf "$dir"

    # 3. growth
    growth "$e"
done

# 4. The floor: the same closed loops, then the open loops at each engine's rates, which is
#    the latency the machine itself allows at that load.
start noop "$bin" stress --serve-noop -h 127.0.0.1 -p 0 -g "$RANGE_ROWS"
stress noop-insert -n "$KEYS" -o insert
stress noop-read -n "$KEYS" -o read
memory noop-read
for e in $ENGINES; do
    read -r read_rate insert_rate rewrite_rate <"$work/$e.rates" || true
    open_loop "noop-open-read-$e" "${read_rate:-}" -n "$KEYS" -o read
    open_loop "noop-open-insert-$e" "${insert_rate:-}" -n "$KEYS" -o insert
    open_loop "noop-open-rewrite-$e" "${rewrite_rate:-}" -n "$KEYS" -o insert
done
stress noop-range -n "$KEYS" -o rangeslice -g "$RANGE_ROWS" --ops "$RANGE_OPS"
stress noop-super-insert -n "$KEYS" -o insert-super -u "$SUPERS"
stop

# 5. The storage ceiling.
if [ "$CEILING" = 1 ]; then
    echo "== storage ceiling: ENGINES=\"$ENGINES\" cargo bench --bench stress_ceiling -- $KEYS" >&2
    ENGINES="$ENGINES" cargo bench --quiet --bench stress_ceiling -- "$KEYS" >"$work/ceiling.jsonl"
    cat "$work/ceiling.jsonl" >&2
fi

took=$(($(date +%s) - began))
echo "ELAPSED_S=$took" >>"$work/meta"
python3 bench/report.py "$work" >"$OUT"
echo "bench: wrote $OUT after $((took / 60)) min $((took % 60)) s" >&2
