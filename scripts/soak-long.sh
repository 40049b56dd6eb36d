#!/bin/sh
# The long soak (docs/faults.md#long): MINUTES of mixed load (reads, writes, deletes, range
# scans, super columns) with the tombstone purge under GCGraceSeconds 5, throughput and RSS
# sampled every minute, every row checked at the end and again after a restart.
#   scripts/soak-long.sh MINUTES [sled|fjall] [--sync batch] [--out FILE]
# Writes bench/SOAK.md unless --out says otherwise; exits 1 on any error or mismatch.
set -eu
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    echo "usage: $0 MINUTES [sled|fjall] [--sync batch|periodic] [--out FILE]" >&2
    exit 2
fi
minutes=$1
shift
engine=sled
case "${1:-}" in
    sled | fjall) engine=$1; shift ;;
esac
if [ -z "${ILION_BIN:-}" ]; then
    ILION_BIN="${CARGO_TARGET_DIR:-$(pwd)/target}/release/ilion"
    [ -x "$ILION_BIN" ] || cargo build --release --bin ilion
    export ILION_BIN
fi
exec python3 tests/faults/soak_long.py "$minutes" --engine "$engine" --out bench/SOAK.md "$@"
