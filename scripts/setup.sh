#!/usr/bin/env bash
# Install the system packages fpgacl needs, on Debian/Ubuntu. Idempotent:
# installs only what is missing, and runs `apt-get update` only then.
# Works as root or through sudo. Rust (cargo) must already be installed.
#   scripts/setup.sh              required packages
#   scripts/setup.sh --optional   also optional tools (hyperfine, for scripts/bench.sh --hyperfine)
set -euo pipefail

OPTIONAL=(hyperfine)                     # benchmark timing (scripts/bench.sh --hyperfine)
with_optional=0
if [ "${1:-}" = "--optional" ]; then with_optional=1; fi

PACKAGES=(
    gcc libc6-dev make binutils          # compile and inspect the C host examples
    ocl-icd-opencl-dev opencl-headers    # ICD loader (libOpenCL.so) and CL/cl.h
    clinfo                               # ICD smoke test
    oclgrind pocl-opencl-icd             # reference implementations (tests, benchmarks)
    tmux                                 # terminal profiler screen tests
)

log() { printf 'setup: %s\n' "$*"; }

if ! command -v cargo >/dev/null 2>&1; then
    log "cargo not found. Install Rust first: https://rustup.rs (curl https://sh.rustup.rs -sSf | sh)"
    exit 1
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    log "this is not a Debian-like system; install these packages (or equivalents) yourself:"
    log "  ${PACKAGES[*]}"
    exit 1
fi

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for p in "${PACKAGES[@]}"; do
    installed "$p" || missing+=("$p")
done
for p in "${OPTIONAL[@]}"; do
    if ! installed "$p"; then
        if [ $with_optional -eq 1 ]; then
            missing+=("$p")
        else
            log "optional package $p not installed (scripts/setup.sh --optional installs it)"
        fi
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    log "all system packages present"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    log "need root to install: ${missing[*]} (run as root, or install sudo)"
    exit 1
fi

log "installing: ${missing[*]}"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"

for p in "${missing[@]}"; do
    installed "$p" || { log "package $p is still not installed"; exit 1; }
done
log "done"
