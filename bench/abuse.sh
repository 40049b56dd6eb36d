#!/bin/sh
# Network abuse under load (docs/faults.md#abuse): `ilion stress` at half its closed-loop
# maximum, clean and then while bench/abuser.py sends garbage, slowloris headers, silent and
# half-closed sockets, non-reading pipelines, oversized frames and connection floods past
# ThriftMaxConnections. Writes bench/ABUSE.md (OUT=... elsewhere); exit 1 when the server
# stopped serving, p99 went past 2x the clean run's, RSS past its budget, or other work took
# more than 10% of the machine's CPU during a measured run (the timings would measure that).
#   bench/abuse.sh            # 20 s calibration, 60 s clean, 60 s abused
#   bench/abuse.sh --smoke    # a few seconds each, functional checks only (CI)
set -eu
cd "$(dirname "$0")/.."
if [ -z "${ILION_BIN:-}" ]; then
    ILION_BIN="${CARGO_TARGET_DIR:-$(pwd)/target}/release/ilion"
    [ -x "$ILION_BIN" ] || cargo build --release --bin ilion
    export ILION_BIN
fi
exec python3 bench/abuse.py ${OUT:+--out "$OUT"} "$@"
