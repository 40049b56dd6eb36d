#!/bin/sh
# The kill -9 soak (docs/faults.md#kill): N cycles of writers killed with SIGKILL at random
# moments in batch mode, each restart checking every acknowledged write and delete.
#   scripts/soak-kill.sh N [ENGINE] [more options of tests/faults/soak_kill.py]
# ENGINE is sled (default) or fjall. Uses the release binary (ILION_BIN, default
# target/release/ilion; built here when missing). Prints one summary line; exits 1 on any
# loss, fabricated value or server error.
set -eu
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    echo "usage: $0 N [sled|fjall] [--seed S] [--max-run SECONDS]" >&2
    exit 2
fi
cycles=$1
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
exec python3 tests/faults/soak_kill.py "$cycles" --engine "$engine" "$@"
