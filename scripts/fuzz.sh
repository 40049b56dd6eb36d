#!/bin/sh
# Coverage-guided fuzzing of ilion (docs/fuzzing.md), on the stable toolchain: libFuzzer comes
# from the libfuzzer-sys crate and plain cargo builds the targets with LLVM's sanitizer-coverage
# pass (no -Z flags, no sanitizer, no cargo-fuzz needed; only a C++ compiler for libFuzzer).
#
#   scripts/fuzz.sh build                    build every target
#   scripts/fuzz.sh TARGET DURATION [ARGS]   fuzz one target; DURATION is 90, 90s, 20m or 8h;
#                                            ARGS go to libFuzzer (e.g. -jobs=2)
#   scripts/fuzz.sh all DURATION             every target in turn, DURATION each
#   scripts/fuzz.sh replay TARGET FILE...    run inputs once (a crash, a corpus file)
#   scripts/fuzz.sh list                     the target names
#
# Targets: wire, codec, dispatch, config, store. A run starts from the committed seeds in
# fuzz/corpus/TARGET and keeps what it finds in fuzz/corpus-run/TARGET (not committed); a
# crashing input lands in fuzz/artifacts/TARGET/ and the script fails. The run is niced and
# single-process; its last line is a summary: CPU seconds, executions, coverage, corpus size.
# FUZZ_PROFILE=ci builds with fuzz/Cargo.toml's quicker `ci` profile (CI's short run).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)

targets="wire codec dispatch config store"
host=$(rustc -vV | sed -n 's/^host: //p')
# Apart from the main build's directory, so the instrumented flags never invalidate it.
target_dir="${CARGO_TARGET_DIR:-$root/target}/fuzz"
profile="${FUZZ_PROFILE:-release}"
bin_dir="$target_dir/$host/$profile"

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

build() {
    command -v c++ >/dev/null 2>&1 || {
        echo "fuzz: libFuzzer needs a C++ compiler (apt-get install g++)" >&2
        exit 1
    }
    # The flags cargo-fuzz passes with --sanitizer none, all of them stable: inline 8-bit
    # edge counters and the PC table for libFuzzer's coverage, compare tracing for its
    # value profile, and debug assertions and overflow checks so arithmetic bugs trap.
    # `--target` keeps them off build scripts and proc macros, which libFuzzer does not link.
    RUSTFLAGS="-Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares \
--cfg fuzzing -Cdebug-assertions -Coverflow-checks" \
        cargo build --profile "$profile" --locked --manifest-path fuzz/Cargo.toml \
        --target "$host" --target-dir "$target_dir" --bins
}

seconds() { # 90 | 90s | 20m | 8h -> seconds
    case "$1" in
    *h) echo $((${1%h} * 3600)) ;;
    *m) echo $((${1%m} * 60)) ;;
    *s) echo "${1%s}" ;;
    *[!0-9]* | "") echo "fuzz: bad duration '$1'" >&2 && exit 2 ;;
    *) echo "$1" ;;
    esac
}

known() {
    for t in $targets; do [ "$t" = "$1" ] && return 0; done
    echo "fuzz: unknown target '$1' (one of: $targets)" >&2
    exit 2
}

run() { # target seconds [libFuzzer args]
    t=$1 secs=$2
    shift 2
    mkdir -p "fuzz/corpus-run/$t" "fuzz/corpus/$t" "fuzz/artifacts/$t"
    log="fuzz/artifacts/$t/last-run.log"
    echo "=== fuzz $t for ${secs}s" >&2
    # -timeout: an input running 10 s counts as a hang (a decoder in a loop);
    # -rss_limit_mb: the dispatch target's own allocation check is far tighter.
    status=0
    /usr/bin/time -f "%U %S" -o "fuzz/artifacts/$t/cpu" \
        nice -n 10 "$bin_dir/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" "$@" \
        "fuzz/corpus-run/$t" "fuzz/corpus/$t" >"$log" 2>&1 || status=$?
    cpu=$(awk '{ printf "%.0f", $1 + $2 }' "fuzz/artifacts/$t/cpu")
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    last=$(grep -E '#[0-9]+.*cov: ' "$log" | tail -n 1 | sed 's/.*\(cov: [0-9]* ft: [0-9]*\).*\(corp: [0-9]*\/[^ ]*\).*/\1 \2/')
    echo "fuzz $t: cpu ${cpu}s, execs ${execs:-?}, ${last:-no coverage line}" >&2
    if [ "$status" != 0 ]; then
        tail -n 40 "$log" >&2
        echo "fuzz $t: FAILED (exit $status); the input is in fuzz/artifacts/$t/, the log in $log" >&2
        return 1
    fi
}

[ $# -ge 1 ] || usage
case "$1" in
list) echo "$targets" ;;
build) build ;;
replay)
    [ $# -ge 3 ] || usage
    known "$2"
    build
    t=$2
    shift 2
    "$bin_dir/$t" "$@"
    ;;
all)
    [ $# -eq 2 ] || usage
    secs=$(seconds "$2")
    build
    failed=""
    for t in $targets; do run "$t" "$secs" || failed="$failed $t"; done
    [ -z "$failed" ] || {
        echo "fuzz: crashes in:$failed" >&2
        exit 1
    }
    ;;
*)
    [ $# -ge 2 ] || usage
    known "$1"
    t=$1
    secs=$(seconds "$2")
    shift 2
    build
    run "$t" "$secs" "$@"
    ;;
esac
