#!/usr/bin/env bash
# Write <profile-dir>/vendors/fpgacl.icd pointing at the absolute path of
# <profile-dir>/libfpgacl.so, and print the vendors directory. Use it as
#   OCL_ICD_VENDORS=$(scripts/write-icd.sh) ./my_host
# Argument: a profile name (release, debug, ...) or a directory; default release.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR=$ROOT/$TARGET_DIR ;; esac

arg=${1:-release}
if [ -d "$arg" ] && [ "${arg#*/}" != "$arg" ]; then
    PROFILE_DIR=$(cd "$arg" && pwd)
else
    PROFILE_DIR=$TARGET_DIR/$arg
fi
LIB=$PROFILE_DIR/libfpgacl.so
if [ ! -f "$LIB" ]; then
    echo "write-icd: $LIB does not exist; build it first (cargo build --release -p fpgacl-icd)" >&2
    exit 1
fi
mkdir -p "$PROFILE_DIR/vendors"
tmp=$(mktemp "$PROFILE_DIR/vendors/.fpgacl.icd.XXXXXX")
printf '%s\n' "$LIB" > "$tmp"
mv -f "$tmp" "$PROFILE_DIR/vendors/fpgacl.icd"
echo "$PROFILE_DIR/vendors"
