#!/usr/bin/env bash
# THE test command: install what is missing, build, and run every test of the
# workspace (cargo nextest when installed, else cargo test; doc tests too).
#   scripts/test.sh [--lint] [extra args passed to the test runner]
# --lint also checks formatting (cargo fmt --check) and clippy -D warnings.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

lint=0
if [ "${1:-}" = "--lint" ]; then lint=1; shift; fi

# A one-shot build gains nothing from incremental caches (2.7 GB on a clean build);
# a caller may still set CARGO_INCREMENTAL itself.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}

step() { printf '\n==> %s\n' "$*"; }

step "system packages"
scripts/setup.sh

step "cargo build --workspace --all-targets"
cargo build --workspace --all-targets
# The end-to-end tests load libfpgacl.so as `cargo build -p fpgacl-icd --lib` builds it (its
# own feature set); build it here, once, rather than inside the first test that needs it.
step "cargo build -p fpgacl-icd --lib"
cargo build -p fpgacl-icd --lib

if [ $lint -eq 1 ]; then
    step "cargo fmt --all --check"
    cargo fmt --all --check
    step "cargo clippy --workspace --all-targets -- -D warnings"
    cargo clippy --workspace --all-targets -- -D warnings
fi

if cargo nextest --version >/dev/null 2>&1; then
    step "cargo nextest run --workspace"
    cargo nextest run --workspace --no-fail-fast "$@"
    step "cargo test --workspace --doc"
    cargo test --workspace --doc
else
    step "cargo test --workspace"
    cargo test --workspace --no-fail-fast "$@"
fi
step "all tests passed"
