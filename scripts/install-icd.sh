#!/usr/bin/env bash
# Register fpgacl with the system ICD loader: /etc/OpenCL/vendors/fpgacl.icd.
#
#   scripts/install-icd.sh               build release, point the .icd at target/release/libfpgacl.so
#   scripts/install-icd.sh --lib-dir D   also copy libfpgacl.so to D (e.g. /usr/local/lib) and point there
#   scripts/install-icd.sh --no-build    use the existing release build
#   scripts/install-icd.sh --uninstall   remove /etc/OpenCL/vendors/fpgacl.icd
#
# Afterwards every OpenCL program sees the fpgacl platform (clinfo -l lists it).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENDORS=${FPGACL_VENDORS_DIR:-/etc/OpenCL/vendors}
ICD=$VENDORS/fpgacl.icd

build=1
lib_dir=""
uninstall=0
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=0 ;;
        --lib-dir) lib_dir=${2:?--lib-dir needs a directory}; shift ;;
        --uninstall) uninstall=1 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "install-icd: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ $uninstall -eq 1 ]; then
    as_root rm -f "$ICD"
    echo "install-icd: removed $ICD"
    exit 0
fi

if [ $build -eq 1 ]; then
    (cd "$ROOT" && cargo build --release -p fpgacl-icd)
fi
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR=$ROOT/$TARGET_DIR ;; esac
LIB=$TARGET_DIR/release/libfpgacl.so
[ -f "$LIB" ] || { echo "install-icd: $LIB missing (build with cargo build --release -p fpgacl-icd)" >&2; exit 1; }

if [ -n "$lib_dir" ]; then
    as_root mkdir -p "$lib_dir"
    as_root install -m 0755 "$LIB" "$lib_dir/libfpgacl.so"
    LIB=$(cd "$lib_dir" && pwd)/libfpgacl.so
fi

tmp=$(mktemp)
printf '%s\n' "$LIB" > "$tmp"
as_root mkdir -p "$VENDORS"
as_root install -m 0644 "$tmp" "$ICD"
rm -f "$tmp"
echo "install-icd: $ICD -> $LIB"
