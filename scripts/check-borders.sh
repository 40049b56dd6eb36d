#!/bin/sh
# Keeps the module borders of ARCHITECTURE.md: sled and the redis client only under src/storage/, the XML crate
# only under src/config/, tokio's sockets and the HTTP stacks only under src/server/ and
# src/client*.
set -eu
cd "$(dirname "$0")/.."
fail=0
check() { # pattern, allowed path prefix (regex), what
    hits=$(grep -rlE "$1" src --include='*.rs' | grep -vE "^($2)" || true)
    if [ -n "$hits" ]; then
        echo "border: $3 outside its module:" >&2
        echo "$hits" | sed 's/^/  /' >&2
        fail=1
    fi
}
check '\bsled::' 'src/storage/' 'sled'
check '\bredis::' 'src/storage/' 'the redis client'
check '\bquick_xml::' 'src/config/' 'quick-xml'
check 'tokio::net' 'src/server/|src/client' 'tokio::net'
check '\bureq::|\baxum::' 'src/server/|src/client' 'HTTP sockets (axum, ureq)'
for f in $(find src -name '*.rs' ! -path 'src/protocol/generated.rs' ! -path 'src/protocol/v20/generated.rs'); do
    if ! head -n 1 "$f" | grep -q '^//!'; then
        echo "border: $f does not open with a //! paragraph" >&2
        fail=1
    fi
done
exit $fail
