#!/bin/sh
# Python client suite: generate the bindings with `thrift -gen py` into gen-py, then run
# the pytest suites (the smoke test through generated code with the accelerated and pure
# protocols, the old unversioned header and thriftpy2, each buffered and framed; and
# ilion_client's tests, once over each API, the later one with bindings in gen-py20) and the
# example, each against fresh release servers.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "clients/python: $*" >&2; exit 1; }

command -v thrift >/dev/null 2>&1 || fail "the Thrift compiler is missing (apt-get install thrift-compiler)"
python3 -c 'import thrift, thriftpy2, pytest' 2>/dev/null ||
    fail "Python packages missing: pip install -r tests/python/requirements.txt"
python3 -c 'from thrift.protocol import fastbinary' 2>/dev/null ||
    fail "thrift's C extension (fastbinary) is missing, so the accelerated protocol cannot be tested"

cd "$here"
rm -rf gen-py && mkdir gen-py
thrift -gen py -out gen-py "$root/idl/cassandra.thrift" >/dev/null
export ILION_GEN_PY="$here/gen-py"
rm -rf gen-py20 && mkdir gen-py20
thrift -gen py -out gen-py20 "$root/idl/cassandra-20.thrift" >/dev/null
export ILION_GEN_PY20="$here/gen-py20"

python3 -m pytest -q -p no:cacheprovider tests
ILION_TEST_API=later python3 -m pytest -q -p no:cacheprovider tests/test_ilion_client.py
python3 "$root/clients/serve.py" -- sh -c '
    python3 example.py "$ILION_HOST" "$ILION_PORT" &&
    python3 example.py "$ILION_HOST" "$ILION_PORT" --framed
'
