#!/bin/sh
# Node.js client suite: install the npm `thrift` package into node_modules when missing
# (exact versions from package-lock.json), generate the bindings with `thrift -gen js:node`
# from both IDLs (the 0.6 API's and the later API's, idl/cassandra-20.thrift), then run both
# smoke tests (buffered and framed) and the example against a fresh release server
# (clients/serve.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "clients/node: $*" >&2; exit 1; }

command -v thrift >/dev/null 2>&1 || fail "the Thrift compiler is missing (apt-get install thrift-compiler)"
command -v node >/dev/null 2>&1 || fail "node is missing (apt-get install nodejs)"
command -v npm >/dev/null 2>&1 || fail "npm is missing (apt-get install npm)"
cd "$here"
if [ ! -f node_modules/thrift/package.json ]; then
    npm ci --no-audit --no-fund --loglevel=error || fail "npm ci failed"
fi

rm -rf gen-nodejs && mkdir gen-nodejs
thrift -gen js:node -out gen-nodejs "$root/idl/cassandra.thrift" >/dev/null
rm -rf gen-nodejs20 && mkdir gen-nodejs20
thrift -gen js:node -out gen-nodejs20 "$root/idl/cassandra-20.thrift" >/dev/null
export ILION_GEN_NODE20="$here/gen-nodejs20"

# --no-deprecation: the thrift 0.17 library still calls `new Buffer`, which Node warns about.
python3 "$root/clients/serve.py" -- sh -c '
    node --no-deprecation smoke_test.js &&
    node --no-deprecation smoke_test20.js &&
    node --no-deprecation example.js "$ILION_HOST" "$ILION_PORT" &&
    node --no-deprecation example.js "$ILION_HOST" "$ILION_PORT" --framed
'
