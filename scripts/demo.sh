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

# (The lead extends the demo here: a kernel example run under
#  `fpgacl profile`, ending in `fpgacl report profile.mon`.)
step "demo finished"
