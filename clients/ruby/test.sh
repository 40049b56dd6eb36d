#!/bin/sh
# Ruby client suite: generate the bindings with `thrift -gen rb` into gen-rb (0.6 API) and
# gen-rb20 (the later API, idl/cassandra-20.thrift), then run both smoke tests (buffered and
# framed, minitest) and the example against a fresh release server.
# The Ruby blog app is tested with the Python one in clients/interop.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "clients/ruby: $*" >&2; exit 1; }

command -v thrift >/dev/null 2>&1 || fail "the Thrift compiler is missing (apt-get install thrift-compiler)"
command -v ruby >/dev/null 2>&1 || fail "ruby is missing (apt-get install ruby)"
ruby -e 'require "thrift"' 2>/dev/null || fail "the Ruby thrift library is missing (apt-get install ruby-thrift)"

cd "$here"
rm -rf gen-rb && mkdir gen-rb
thrift -gen rb -out gen-rb "$root/idl/cassandra.thrift" >/dev/null
export ILION_GEN_RB="$here/gen-rb"
rm -rf gen-rb20 && mkdir gen-rb20
thrift -gen rb -out gen-rb20 "$root/idl/cassandra-20.thrift" >/dev/null
export ILION_GEN_RB20="$here/gen-rb20"

python3 "$root/clients/serve.py" -- sh -c '
    ruby smoke_test.rb &&
    ruby smoke_test20.rb &&
    ruby example.rb "$ILION_HOST" "$ILION_PORT" &&
    ruby example.rb "$ILION_HOST" "$ILION_PORT" --framed
'
