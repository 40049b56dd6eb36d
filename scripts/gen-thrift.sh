#!/bin/sh
# Regenerate the committed Rust code for the two Cassandra Thrift IDLs, or check it.
#
#   idl/cassandra.thrift     (0.6, API 2.2.0)     -> src/protocol/generated.rs
#   idl/cassandra-20.thrift  (later, API 20.1.0)  -> src/protocol/v20/generated.rs
#
#   scripts/gen-thrift.sh                  rewrite both committed files
#   scripts/gen-thrift.sh OUT [OUT_20]     write the 0.6 code to OUT (and the 20.1.0 code to
#                                          OUT_20) instead
#   scripts/gen-thrift.sh --check          fail unless both committed files are exactly what the
#                                          compiler makes of their IDL (test-all.sh runs this;
#                                          `cargo test` does not need the compiler)
#
# Each file is the compiler's output byte for byte: lint allowances live on the `mod`
# declarations (src/protocol/mod.rs, src/protocol/v20/mod.rs), never in the files. Needs the
# Thrift compiler 0.17 (Debian package `thrift-compiler`), the version the committed files
# were made with; without it every mode fails, the check included.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
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

# gen IDL COMMITTED [OUT]: generate from idl/IDL; check against src/protocol/COMMITTED, or
# write it there (or to OUT).
gen() {
    idl="$root/idl/$1"
    committed="$root/src/protocol/$2"
    out="$tmp/$(basename "$1" .thrift)"
    mkdir "$out"
    # The namespace lines for other languages draw warnings (e.g. no csharp generator in
    # 0.17); only errors matter, and `set -e` stops on those.
    thrift -gen rs -out "$out" "$idl"
    made="$out/$(basename "$1" .thrift).rs"
    if [ "$mode" = check ]; then
        if ! cmp -s "$made" "$committed"; then
            echo "gen-thrift: src/protocol/$2 is not the compiler's output for" \
                "idl/$1; run scripts/gen-thrift.sh and commit the result" >&2
            diff -u "$committed" "$made" | head -n 40 >&2 || true
            return 1
        fi
        echo "gen-thrift: src/protocol/$2 matches idl/$1"
    else
        mv "$made" "${3:-$committed}"
    fi
}

if [ "${1:-}" = "--check" ]; then
    mode=check
    status=0
    gen cassandra.thrift generated.rs || status=1
    gen cassandra-20.thrift v20/generated.rs || status=1
    exit $status
fi
mode=write
gen cassandra.thrift generated.rs "${1:-}"
gen cassandra-20.thrift v20/generated.rs "${2:-}"
