#!/usr/bin/env bash
# One command from a fresh Debian machine with Rust to a running demo:
# install what is missing, build the release workspace, register fpgacl's
# ICD for this shell only (OCL_ICD_VENDORS), and run unmodified C host
# programs through the system ICD loader.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

step() { printf '\n==> %s\n' "$*"; }

step "system packages"
scripts/setup.sh

step "cargo build --release --workspace"
cargo build --release --workspace

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR=$ROOT/$TARGET_DIR ;; esac
VENDORS=$(scripts/write-icd.sh "$TARGET_DIR/release")
export OCL_ICD_VENDORS=$VENDORS
step "ICD file: $VENDORS/fpgacl.icd -> $(cat "$VENDORS/fpgacl.icd")"

step "clinfo -l (through the ICD loader)"
clinfo -l

BIN=$TARGET_DIR/release/host-examples/icd
mkdir -p "$BIN"
for ex in platform_query queues_events; do
    step "host program $ex.c: gcc ... -lOpenCL, run through the ICD loader"
    gcc -std=gnu11 -O1 -Wall -pthread -I host-examples/c \
        "host-examples/c/$ex.c" -o "$BIN/$ex" -lOpenCL -lm
    "$BIN/$ex"
done

FPGACL=$TARGET_DIR/release/fpgacl
DEMO=$TARGET_DIR/release/demo
mkdir -p "$DEMO"
K=host-examples/c/kernels

step "fpgacl aoc: compile the paper's feed-forward kernels and print the static report"
"$FPGACL" aoc -march=emulator -report "$K/feed_forward_baseline.cl" -o "$DEMO/feed_forward_baseline.aocx"
"$FPGACL" aoc -march=emulator "$K/feed_forward_split.cl" -o "$DEMO/feed_forward_split.aocx"

step "fpgacl profile: run the unmodified host (baseline kernel, then memory + compute kernels joined by channels)"
gcc -std=gnu11 -O1 -Wall -pthread -I host-examples/c host-examples/c/feed_forward.c \
    -o "$DEMO/feed_forward" -lOpenCL -lm
"$FPGACL" profile --timer -o "$DEMO/profile.mon" -- \
    "$DEMO/feed_forward" "$DEMO/feed_forward_baseline.aocx" "$DEMO/feed_forward_split.aocx"

if [ -t 0 ] && [ -t 1 ] && [ -z "${CI:-}" ]; then
    step "fpgacl report: the terminal profiler (q quits, ? shows the keys)"
    "$FPGACL" report "$DEMO/profile.mon"
else
    step "fpgacl report --text (no terminal: the same report headless)"
    "$FPGACL" report --text "$DEMO/profile.mon"
fi
step "demo finished (profile: $DEMO/profile.mon)"
