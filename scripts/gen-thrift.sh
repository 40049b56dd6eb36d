#!/bin/sh
# Regenerate the committed Rust code for the Cassandra Thrift IDL.
#
#   scripts/gen-thrift.sh            rewrite src/protocol/generated.rs
#   scripts/gen-thrift.sh OUT_FILE   write the generated code to OUT_FILE instead
#                                    (tests/generated_code.rs uses this to compare)
#
# The file is the compiler's output byte for byte: lint allowances live on the `mod`
# declaration in src/protocol/mod.rs, never in the file. Needs the Thrift compiler 0.17
# (Debian package `thrift-compiler`), the version the committed file was made with.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
idl="$root/idl/cassandra.thrift"
out=${1:-"$root/src/protocol/generated.rs"}
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
mv "$tmp/cassandra.rs" "$out"
