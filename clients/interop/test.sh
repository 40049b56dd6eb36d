#!/bin/sh
# Cross-language suite: both blog apps (Python and Ruby, and the Python one over the later
# API) seeded, listed, paged, commented and reading each other's rows, and a Ruby client interleaving reads and writes with a
# Python one on the same rows. Needs what the Python and Ruby suites need.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "clients/interop: $*" >&2; exit 1; }

command -v thrift >/dev/null 2>&1 || fail "the Thrift compiler is missing (apt-get install thrift-compiler)"
command -v ruby >/dev/null 2>&1 || fail "ruby is missing (apt-get install ruby)"
ruby -e 'require "thrift"' 2>/dev/null || fail "the Ruby thrift library is missing (apt-get install ruby-thrift)"
python3 -c 'import thrift, pytest' 2>/dev/null ||
    fail "Python packages missing: pip install -r tests/python/requirements.txt"

gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
mkdir "$gen/py" "$gen/rb" "$gen/py20"
thrift -gen py -out "$gen/py" "$root/idl/cassandra.thrift" >/dev/null
thrift -gen rb -out "$gen/rb" "$root/idl/cassandra.thrift" >/dev/null
thrift -gen py -out "$gen/py20" "$root/idl/cassandra-20.thrift" >/dev/null
export ILION_GEN_PY="$gen/py" ILION_GEN_RB="$gen/rb" ILION_GEN_PY20="$gen/py20"

cd "$here"
python3 -m pytest -q -p no:cacheprovider .
