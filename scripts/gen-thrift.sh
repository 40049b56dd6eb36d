#!/bin/sh
# Regenerate the committed Rust code for the Cassandra Thrift IDL, or check it.
#
#   scripts/gen-thrift.sh            rewrite src/protocol/generated.rs
#   scripts/gen-thrift.sh OUT_FILE   write the generated code to OUT_FILE instead
#   scripts/gen-thrift.sh --check    fail unless src/protocol/generated.rs is exactly what the
#                                    compiler makes of idl/cassandra.thrift (test-all.sh runs
#                                    this; `cargo test` does not need the compiler)
#
# The file is the compiler's output byte for byte: lint allowances live on the `mod`
# declaration in src/protocol/mod.rs, never in the file. Needs the Thrift compiler 0.17
# (Debian package `thrift-compiler`), the version the committed file was made with; without
# it every mode fails, the check included.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
idl="$root/idl/cassandra.thrift"
committed="$root/src/protocol/generated.rs"
want="0.17.0"

if ! command -v thrift >/dev/null 2>&1; then
    echo "gen-thrift: the Thrift compiler is missing; install the Debian package thrift-compiler ($want)" >&2
    exit 2
fi
have=$(thrift --version | sed -n 's/^Thrift version //p')
if [ "$have" != "$want" ]; then
    echo "gen-thrift: thrift $have found, but the committed code comes from thrift $want" >&2
    exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The namespace lines for other languages draw warnings (e.g. no csharp generator in 0.17);
# only errors matter, and `set -e` stops on those.
thrift -gen rs -out "$tmp" "$idl"

if [ "${1:-}" = "--check" ]; then
    if ! cmp -s "$tmp/cassandra.rs" "$committed"; then
        echo "gen-thrift: src/protocol/generated.rs is not the compiler's output for" \
            "idl/cassandra.thrift; run scripts/gen-thrift.sh and commit the result" >&2
        diff -u "$committed" "$tmp/cassandra.rs" | head -n 40 >&2 || true
        exit 1
    fi
    echo "gen-thrift: src/protocol/generated.rs matches idl/cassandra.thrift"
    exit 0
fi
mv "$tmp/cassandra.rs" "${1:-$committed}"
