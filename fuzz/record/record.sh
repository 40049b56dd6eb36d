#!/bin/sh
# Records real client traffic and turns it into the fuzz targets' seed corpora
# (docs/fuzzing.md, "Seed corpora"):
#
#   fuzz/record/record.sh [RECORD_DIR]
#
# Runs the server suite in tests/python and every client suite (clients/*/test.sh: Python,
# Ruby, Java, Node, and clients/interop with the blog apps) with ILION_BIN pointing at
# fuzz/record/ilion-recording, which relays each connection to the real release binary and
# keeps the bytes the client sent (RECORD_DIR, default a temporary directory). A failing
# suite does not stop the recording. Then fuzz/record/seeds.py replaces fuzz/corpus/ with
# seeds cut from the recordings, plus the configuration and properties files and the store
# edits it makes itself.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
cargo build --release
out=${1:-$(mktemp -d /tmp/ilion-recording.XXXXXX)}
mkdir -p "$out"
export ILION_REAL_BIN="${CARGO_TARGET_DIR:-$root/target}/release/ilion"
export ILION_BIN="$root/fuzz/record/ilion-recording"
export ILION_RECORD_DIR="$out"
python3 -m pytest -q -p no:cacheprovider tests/python || echo "record: tests/python failed (recording kept)" >&2
for suite in clients/*/test.sh; do
    sh "$suite" || echo "record: $suite failed (recording kept)" >&2
done
echo "record: $(ls "$out" | wc -l) connections in $out" >&2
python3 fuzz/record/seeds.py "$out"
