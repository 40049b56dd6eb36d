#!/bin/sh
# Runs every test ilion has, installing what the tests need when it is missing:
#   apt:  thrift-compiler (0.17), ruby, ruby-thrift, libthrift-java, a JDK, tmux (tests/cli
#         drives the cli on a terminal), chromium (tests/admin renders the status page);
#         later, per step: gcc (power-cut shim), g++ (libFuzzer), redis-server (by
#         scripts/redis-cluster.sh), e2fsprogs (I/O-error tests)
#   pip:  thrift, thriftpy2, pytest
#   npm:  thrift (into clients/node)
# then: rustfmt, clippy, rustdoc with warnings denied, module borders, the check that
# src/protocol/generated.rs is the Thrift compiler's output (the one step that needs the
# compiler; `cargo test` does not), cargo tests (the wire suites a second time on the fjall
# engine), the power-cut short campaign on fjall, the fuzzing checks (the feature linted, the
# regression tests, every target for 12 s), the release build, the Python suites (the 0.6 API,
# then the later API) against the release binary, the suites over a local Redis Cluster (the
# redis-cluster engine), the fault checks (docs/faults.md: kill -9 cycles, I/O errors, an abuse
# smoke; these need root), a smoke run of bench/run.sh, and the client suites. A missing tool
# is an error, never a skipped test. .ci/run calls exactly this script.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)

step() { printf '\n=== %s\n' "$*"; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# --- tools -----------------------------------------------------------------------------------
need_apt=""
command -v thrift >/dev/null 2>&1 || need_apt="$need_apt thrift-compiler"
command -v ruby >/dev/null 2>&1 || need_apt="$need_apt ruby"
ruby -e 'require "thrift"' >/dev/null 2>&1 || need_apt="$need_apt ruby-thrift"
[ -f /usr/share/java/thrift.jar ] || need_apt="$need_apt libthrift-java"
# slf4j-nop keeps the Java suite's output free of slf4j's "no logger bound" warning.
[ -f /usr/share/java/slf4j-nop.jar ] || need_apt="$need_apt libslf4j-java"
command -v javac >/dev/null 2>&1 || need_apt="$need_apt default-jdk-headless"
command -v node >/dev/null 2>&1 || need_apt="$need_apt nodejs"
command -v npm >/dev/null 2>&1 || need_apt="$need_apt npm"
command -v python3 >/dev/null 2>&1 || need_apt="$need_apt python3 python3-pip"
# tests/cli drives `ilion cli` on a terminal inside tmux.
command -v tmux >/dev/null 2>&1 || need_apt="$need_apt tmux"
# tests/admin renders the status page in headless Chromium.
command -v chromium >/dev/null 2>&1 || need_apt="$need_apt chromium"
# tests/powercut (inside `cargo test`) builds its C shim with cc.
command -v cc >/dev/null 2>&1 || need_apt="$need_apt gcc"
# scripts/fuzz.sh counts each target's CPU time with GNU time.
[ -x /usr/bin/time ] || need_apt="$need_apt time"
if [ -n "$need_apt" ]; then
    step "installing apt packages:$need_apt"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq $need_apt >/dev/null
fi

have_pip_packages() {
    python3 - <<'PY'
import importlib.metadata as m, sys
want = {"thrift": "0.25.0", "thriftpy2": "0.7.1"}
try:
    for name, version in want.items():
        if m.version(name) != version:
            sys.exit(1)
    import pytest  # noqa: F401
except Exception:
    sys.exit(1)
PY
}
if ! have_pip_packages; then
    step "installing pip packages"
    python3 -m pip install -q -r tests/python/requirements.txt ||
        python3 -m pip install -q --break-system-packages -r tests/python/requirements.txt
fi

# --- Rust ------------------------------------------------------------------------------------
step "rustfmt"
cargo fmt --check
step "clippy"
cargo clippy --all-targets -- -D warnings
step "rustdoc (warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
step "module borders"
./scripts/check-borders.sh
step "generated code matches the IDL"
./scripts/gen-thrift.sh --check
step "cargo test (release)"
cargo test --release
# The unit, model and crash tests cover both engines in the run above; the wire suites run
# on sled there (ILION_TEST_ENGINE unset) and once more here on fjall.
step "wire suites on the fjall engine"
ILION_TEST_ENGINE=fjall cargo test --release --test e2e
ILION_TEST_ENGINE=fjall cargo test --release --test server -- durability_wire hostile_input

# --- power-cut simulation (docs/powercut.md) --------------------------------------------------
# tests/powercut builds its C shim with cc (installed above). Its short sled
# campaign and the planted-fault tests ran in `cargo test --release` above; the short campaign
# runs here once more on fjall (about 30 s). scripts/powercut.sh is the long run.
step "power-cut short campaign on the fjall engine"
ILION_TEST_ENGINE=fjall cargo test --release --test powercut -- short_campaign

# --- fuzzing (docs/fuzzing.md) ---------------------------------------------------------------
# The fuzzing entry points linted and the fuzz crate formatted, the crashes the fuzzers found
# replayed as tests, then every target for 12 s from its seed corpus. libFuzzer comes from
# the libfuzzer-sys crate, built by plain cargo on stable; it needs a C++ compiler. The smoke
# run uses fuzz/Cargo.toml's quicker-to-build `ci` profile.
if ! command -v c++ >/dev/null 2>&1; then
    step "installing apt packages: g++ (libFuzzer)"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq g++ >/dev/null
fi
step "fuzz: clippy with the fuzzing feature, rustfmt of fuzz/"
cargo clippy --all-targets --features fuzzing -- -D warnings
cargo fmt --check --manifest-path fuzz/Cargo.toml
step "fuzz: regression tests"
cargo test --release --features fuzzing --test fuzz_regressions
step "fuzz: every target for 12 s"
FUZZ_PROFILE=ci ./scripts/fuzz.sh all 12

step "release build"
cargo build --release

# The binary cargo just built (CARGO_TARGET_DIR moves it).
bin="${CARGO_TARGET_DIR:-$root/target}/release/ilion"

# --- the server through generated Python bindings ---------------------------------------------
step "pytest: the Thrift API through generated Python bindings"
ILION_BIN="$bin" python3 -m pytest -q tests/python
step "pytest: the later API (20.1.0) through generated Python bindings"
ILION_BIN="$bin" python3 -m pytest -q tests/python20

# --- the redis-cluster engine (docs/redis.md#tests) ------------------------------------------
# A local 6-node Redis Cluster (scripts/redis-cluster.sh installs redis-server when missing),
# then: the storage unit tests (engine suite, redis engine tests), the model-based cf test,
# the e2e API suite, the Python suite, and the front-end and failover tests (one at a time:
# the failover test kills a primary), all over that cluster; then it is stopped.
step "redis-cluster engine: storage, cf model, e2e, Python, front ends and failover"
redis_base=7400
ILION_TEST_REDIS=$(scripts/redis-cluster.sh up "$redis_base" | tr '\n' ',')
export ILION_TEST_REDIS
trap 'scripts/redis-cluster.sh down "$redis_base" >/dev/null 2>&1 || true' EXIT
cargo test --release --lib storage::
cargo test --release --test cf_model cf_matches_model_on_redis -- --include-ignored
ILION_TEST_ENGINE=redis-cluster cargo test --release --test e2e
ILION_TEST_ENGINE=redis-cluster ILION_BIN="$bin" python3 -m pytest -q tests/python
cargo test --release --test redis -- --include-ignored --test-threads=1
scripts/redis-cluster.sh down "$redis_base"
trap - EXIT
unset ILION_TEST_REDIS

# --- faults (docs/faults.md) ------------------------------------------------------------------
# A few kill -9 cycles per engine, the I/O-error tests (a full tmpfs and an aborted loop-mounted
# ext4 as the data directory: they need root, as CI is, and e2fsprogs), and a short network
# abuse run without timing judgements (its results page goes to a temporary file).
step "faults: kill -9 cycles, short soaks, I/O errors, network abuse smoke"
if ! command -v mkfs.ext4 >/dev/null 2>&1; then
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq e2fsprogs >/dev/null
fi
ILION_BIN="$bin" ./scripts/soak-kill.sh 5 sled
ILION_BIN="$bin" ./scripts/soak-kill.sh 5 fjall
# The long soak, 30 s per engine: errors and the final checks judged, not the drift.
soak_out=$(mktemp)
ILION_BIN="$bin" ./scripts/soak-long.sh 0.5 sled --out "$soak_out"
ILION_BIN="$bin" ./scripts/soak-long.sh 0.5 fjall --out "$soak_out"
rm -f "$soak_out"
as_root env ILION_BIN="$bin" python3 -m pytest -q tests/faults
abuse_out=$(mktemp)
OUT="$abuse_out" ILION_BIN="$bin" ./bench/abuse.sh --smoke
rm -f "$abuse_out"

# The performance bar's script end to end on tiny sizes (figures not judged): every phase runs
# without errors and the report has every table and both engines' targets.
step "bench/run.sh smoke"
bench_out=$(mktemp)
if ! KEYS=3000 GROWTH="5000 10000" GROWTH_READS=2000 RANGE_OPS=200 OPEN_SECS=1 SETTLE_SECS=0 \
    CEILING=0 OUT="$bench_out" ./bench/run.sh 2>"$bench_out.log" \
    || grep -q "had errors\|skipped" "$bench_out.log" || grep -q "(not run)" "$bench_out" \
    || [ "$(grep -c '^### \(sled\|fjall\)$' "$bench_out")" != 2 ]; then
    cat "$bench_out.log" "$bench_out" >&2
    echo "bench/run.sh smoke: a phase failed or the report is incomplete" >&2
    exit 1
fi
rm -f "$bench_out" "$bench_out.log"

for suite in clients/*/test.sh; do
    [ -f "$suite" ] || continue
    step "client suite: $suite"
    ILION_BIN="$bin" sh "$suite"
done

step "all tests passed"
