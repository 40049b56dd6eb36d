#!/bin/sh
# Power-cut simulation (docs/powercut.md): records the real server under powercut/shim.c while
# a Thrift load writes, builds IMAGES_PER_MODE disk images a power cut could leave (default
# 200) for each sync mode (batch, periodic) on each engine in POWERCUT_ENGINES (default
# "sled,fjall"), starts the server on every image and checks it. Prints one line per engine and
# mode (images, served and correct, refused by message, lost, fabricated, torn, panics) and
# fails if any image lost an acknowledged write, served a value never written, tore a row
# mutation, made the server panic or failed a read.
#   scripts/powercut.sh [IMAGES_PER_MODE]      POWERCUT_SEED varies the run (default 1).
set -eu
cd "$(dirname "$0")/.."
images="${1:-200}"

# The shim is C, built by the test with the machine's compiler (the one Rust links with).
if ! command -v cc >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq gcc >/dev/null
    else sudo apt-get update -qq && sudo apt-get install -y -qq gcc >/dev/null; fi
fi
case "$(uname -m)" in
    x86_64) ;;
    *) echo "powercut: the shim supports x86_64 Linux only" >&2; exit 1 ;;
esac

# Failing images are kept as reproducers under target/powercut-failures (POWERCUT_KEEP).
POWERCUT_KEEP="${POWERCUT_KEEP:-$(pwd)/target/powercut-failures}" \
    POWERCUT_IMAGES="$images" POWERCUT_ENGINES="${POWERCUT_ENGINES:-sled,fjall}" \
    cargo test --release --test powercut -- --ignored long_campaign --nocapture
