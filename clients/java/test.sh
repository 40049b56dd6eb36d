#!/bin/sh
# Java client suite: generate the bindings with `thrift -gen java` from both IDLs (the 0.6
# API's and the later API's, idl/cassandra-20.thrift: the same Java package, so compiled
# apart), compile them with the example and the smoke tests against Debian's libthrift-java
# (no Maven), then run both smoke tests (buffered and framed) and the example against a fresh
# release server (clients/serve.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail() { echo "clients/java: $*" >&2; exit 1; }

command -v thrift >/dev/null 2>&1 || fail "the Thrift compiler is missing (apt-get install thrift-compiler)"
command -v javac >/dev/null 2>&1 || fail "javac is missing (apt-get install default-jdk-headless)"
command -v java >/dev/null 2>&1 || fail "java is missing (apt-get install default-jdk-headless)"
# libthrift-java's jar names its own dependencies (slf4j-api, ...) in its manifest;
# slf4j-nop keeps slf4j from warning that no logger is bound.
jars=""
for jar in thrift slf4j-api slf4j-nop; do
    [ -f "/usr/share/java/$jar.jar" ] || fail "/usr/share/java/$jar.jar is missing (apt-get install libthrift-java libslf4j-java)"
    jars="$jars:/usr/share/java/$jar.jar"
done

rm -rf "$here/gen-java" && mkdir "$here/gen-java"
thrift -gen java -out "$here/gen-java" "$root/idl/cassandra.thrift" >/dev/null
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
javac -nowarn -encoding UTF-8 -d "$build" -cp "$jars" \
    $(find "$here/gen-java" "$here/src" -name '*.java') 2>&1 | grep -v '^Note:' || true
[ -f "$build/ilion/example/SmokeTest.class" ] || fail "compilation failed"
rm -rf "$here/gen-java20" && mkdir "$here/gen-java20"
thrift -gen java -out "$here/gen-java20" "$root/idl/cassandra-20.thrift" >/dev/null
build20=$(mktemp -d)
trap 'rm -rf "$build" "$build20"' EXIT
javac -nowarn -encoding UTF-8 -d "$build20" -cp "$jars" \
    $(find "$here/gen-java20" "$here/src20" -name '*.java') 2>&1 | grep -v '^Note:' || true
[ -f "$build20/ilion/later/SmokeTest20.class" ] || fail "compilation of the later API's smoke test failed"

python3 "$root/clients/serve.py" -- sh -c '
    java -cp "$0" ilion.example.SmokeTest "$ILION_HOST" "$ILION_PORT" &&
    java -cp "$1" ilion.later.SmokeTest20 "$ILION_HOST" "$ILION_LATER_PORT" &&
    java -cp "$0" ilion.example.Example "$ILION_HOST" "$ILION_PORT" &&
    java -cp "$0" ilion.example.Example "$ILION_HOST" "$ILION_PORT" --framed
' "$build$jars" "$build20$jars"
