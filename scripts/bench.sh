#!/usr/bin/env bash
# Benchmark: the same unmodified C host programs on fpgacl, Oclgrind and PoCL,
# side by side, with time ratios. Not a test: it prints a table and exits 0
# when every run passed its own result checks.
#
#   scripts/bench.sh [--runs N] [--impls fpgacl,oclgrind,pocl] [--no-build] [--hyperfine]
#
# Programs (host-examples/c, each checks its results):
#   vector_add  NDRange vector addition of VECTOR_N floats (default 2^20 work-items)
#   task_loop   a single work-item loop of LOOP_N iterations (default 2^20), clEnqueueTask
#
# Per program and implementation it runs the program N times (default 3,
# BENCH_RUNS) and reports medians of
#   kernel  the host wall time around the kernel enqueue + blocking read, as the
#           program prints it ("host wall X ms"): the execution engine's speed;
#   process the whole process wall time (platform set-up and kernel compilation
#           included) and its CPU time (user + system; less sensitive to a loaded
#           machine than wall time).
# Ratios are fpgacl / other (below 1 = fpgacl faster; "Nx faster" says how much).
# With --hyperfine (and hyperfine installed: scripts/setup.sh --optional) the
# whole-process times are also measured by hyperfine.
#
# fpgacl is the release build (cargo build --release -p fpgacl-icd), reached
# through the ICD loader like the others; FPGACL_BENCH_LIB_DIR=<dir holding
# libfpgacl.so> uses a prebuilt library instead.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

runs=${BENCH_RUNS:-3}
impls="fpgacl,oclgrind,pocl"
build=1
use_hyperfine=0
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift ;;
        --impls) impls=${2:?--impls needs a list}; shift ;;
        --no-build) build=0 ;;
        --hyperfine) use_hyperfine=1 ;;
        -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
        *) echo "bench: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
case "$runs" in ''|*[!0-9]*|0) echo "bench: --runs must be a positive number" >&2; exit 2 ;; esac

export VECTOR_N=${VECTOR_N:-1048576}
export LOOP_N=${LOOP_N:-1048576}

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR=$ROOT/$TARGET_DIR ;; esac
OUT=$TARGET_DIR/release/bench
mkdir -p "$OUT"

log() { printf 'bench: %s\n' "$*" >&2; }

# --- implementations: the OCL_ICD_VENDORS value and HOST_PLATFORM of each ---
declare -A VENDORS PLATFORM
declare -a IMPLS=()
for imp in ${impls//,/ }; do
    case "$imp" in
        fpgacl)
            if [ -n "${FPGACL_BENCH_LIB_DIR:-}" ]; then
                vend=$(scripts/write-icd.sh "$(cd "$FPGACL_BENCH_LIB_DIR" && pwd)")
            else
                if [ $build -eq 1 ]; then
                    log "cargo build --release -p fpgacl-icd"
                    cargo build --release -p fpgacl-icd >&2
                fi
                vend=$(scripts/write-icd.sh release)
            fi
            VENDORS[fpgacl]=$vend
            PLATFORM[fpgacl]=""   # the host programs' default: the Intel FPGA platform name
            ;;
        pocl)
            icd=$(grep -l pocl /etc/OpenCL/vendors/*.icd 2>/dev/null | head -n1 || true)
            if [ -z "$icd" ]; then log "PoCL not installed (pocl-opencl-icd): skipped"; continue; fi
            VENDORS[pocl]=$icd
            PLATFORM[pocl]="Portable Computing Language"
            ;;
        oclgrind)
            lib=""
            for cand in /usr/lib/oclgrind/liboclgrind-rt-icd.so \
                        /usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so \
                        /usr/local/lib/liboclgrind-rt-icd.so; do
                [ -f "$cand" ] && { lib=$cand; break; }
            done
            if [ -z "$lib" ]; then log "Oclgrind not installed (oclgrind): skipped"; continue; fi
            mkdir -p "$OUT/oclgrind-vendors"
            printf '%s\n' "$lib" > "$OUT/oclgrind-vendors/oclgrind.icd"
            VENDORS[oclgrind]=$OUT/oclgrind-vendors
            PLATFORM[oclgrind]="Oclgrind"
            ;;
        *) echo "bench: unknown implementation $imp (fpgacl, oclgrind, pocl)" >&2; exit 2 ;;
    esac
    IMPLS+=("$imp")
done
[ ${#IMPLS[@]} -gt 0 ] || { echo "bench: no implementation available" >&2; exit 1; }

# --- the host programs, compiled against the ICD loader ---
PROGRAMS=(vector_add task_loop)
for p in "${PROGRAMS[@]}"; do
    gcc -std=gnu11 -O2 -Wall -pthread -I host-examples/c \
        -DFPGACL_KERNELS_DIR="\"$ROOT/host-examples/c/kernels\"" \
        "host-examples/c/$p.c" -o "$OUT/$p" -lOpenCL -lm
done

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# run_one PROGRAM IMPL -> appends "kernel_ms wall_s cpu_s" to $OUT/PROGRAM.IMPL.times
run_one() {
    local prog=$1 imp=$2 log_file="$OUT/$1.$2.log" t
    local -a envs=(env -u HOST_PLATFORM -u EXAMPLE_SKIP_CHECKS "OCL_ICD_VENDORS=${VENDORS[$imp]}")
    [ -n "${PLATFORM[$imp]}" ] && envs+=("HOST_PLATFORM=${PLATFORM[$imp]}")
    local TIMEFORMAT='%R %U %S'
    if ! t=$( { time "${envs[@]}" "$OUT/$prog" > "$log_file" 2>&1; } 2>&1 ); then
        log "$prog on $imp FAILED (see $log_file):"
        tail -n 5 "$log_file" >&2
        return 1
    fi
    grep -q '^PASS: ' "$log_file" || { log "$prog on $imp printed no PASS line ($log_file)"; return 1; }
    local kernel_ms
    kernel_ms=$(sed -n 's/.*host wall \([0-9.]*\) ms.*/\1/p' "$log_file" | head -n1)
    read -r wall user sys <<< "$t"
    echo "${kernel_ms:-nan} $wall $(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" >> "$OUT/$prog.$imp.times"
}

failed=0
declare -A KMS WALL CPU
for p in "${PROGRAMS[@]}"; do
    for imp in "${IMPLS[@]}"; do
        rm -f "$OUT/$p.$imp.times"
        log "$p on $imp: $runs run(s)"
        for _ in $(seq "$runs"); do
            run_one "$p" "$imp" || { failed=1; break; }
        done
        if [ -s "$OUT/$p.$imp.times" ]; then
            KMS[$p.$imp]=$(awk '{print $1}' "$OUT/$p.$imp.times" | median)
            WALL[$p.$imp]=$(awk '{print $2}' "$OUT/$p.$imp.times" | median)
            CPU[$p.$imp]=$(awk '{print $3}' "$OUT/$p.$imp.times" | median)
        fi
    done
done

echo
echo "fpgacl benchmark: VECTOR_N=$VECTOR_N, LOOP_N=$LOOP_N, median of $runs run(s), $(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-11s %-9s %12s %12s %10s\n' program impl "kernel ms" "process s" "cpu s"
for p in "${PROGRAMS[@]}"; do
    for imp in "${IMPLS[@]}"; do
        printf '%-11s %-9s %12s %12s %10s\n' "$p" "$imp" "${KMS[$p.$imp]:-FAILED}" \
            "${WALL[$p.$imp]:-FAILED}" "${CPU[$p.$imp]:-FAILED}"
    done
done

ratio() { # fpgacl other -> "0.05 (20.0x faster)"
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a == "" || b == "" || a == "nan" || b == "nan" || a <= 0 || b <= 0) { print "n/a"; exit }
        r = a / b
        if (r <= 1) printf "%.3g (%.1fx faster)", r, 1 / r; else printf "%.3g (%.1fx slower)", r, r }'
}
if [ -n "${VENDORS[fpgacl]:-}" ]; then
    echo
    echo "ratios fpgacl / other (kernel ms | process s | cpu s):"
    for p in "${PROGRAMS[@]}"; do
        for imp in "${IMPLS[@]}"; do
            [ "$imp" = fpgacl ] && continue
            printf '  %-11s fpgacl/%-9s %s | %s | %s\n' "$p" "$imp" \
                "$(ratio "${KMS[$p.fpgacl]:-}" "${KMS[$p.$imp]:-}")" \
                "$(ratio "${WALL[$p.fpgacl]:-}" "${WALL[$p.$imp]:-}")" \
                "$(ratio "${CPU[$p.fpgacl]:-}" "${CPU[$p.$imp]:-}")"
        done
    done
fi

if [ $use_hyperfine -eq 1 ]; then
    if command -v hyperfine >/dev/null 2>&1; then
        for p in "${PROGRAMS[@]}"; do
            cmds=()
            for imp in "${IMPLS[@]}"; do
                pre="OCL_ICD_VENDORS=${VENDORS[$imp]}"
                [ -n "${PLATFORM[$imp]}" ] && pre="$pre HOST_PLATFORM='${PLATFORM[$imp]}'"
                cmds+=(-n "$p/$imp" "env -u HOST_PLATFORM $pre $OUT/$p")
            done
            echo
            hyperfine --runs "$runs" --style basic "${cmds[@]}"
        done
    else
        log "hyperfine not installed (scripts/setup.sh --optional): skipped"
    fi
fi
# --- channel throughput (fpgacl only: PoCL has no channels, Oclgrind cannot run a pair) ---
# channel_pair.c: a producer and a consumer on two queues joined by one channel; values/s
# (host wall) at depth 1, 16 and 1024, CHPAIR_N values (default 2^20), best of --runs.
channel_throughput() {
    [ -n "${VENDORS[fpgacl]:-}" ] || return 0
    gcc -std=gnu11 -O2 -Wall -pthread -I host-examples/c \
        -DFPGACL_KERNELS_DIR="\"$ROOT/host-examples/c/kernels\"" \
        host-examples/c/channel_pair.c -o "$OUT/channel_pair" -lOpenCL -lm
    echo
    echo "channel throughput on fpgacl (CHPAIR_N=${CHPAIR_N:-1048576}, best of $runs run(s)):"
    local d log_file
    for d in 1 16 1024; do
        log_file="$OUT/channel_pair.$d.log"
        if env -u HOST_PLATFORM "OCL_ICD_VENDORS=${VENDORS[fpgacl]}" CHPAIR_DEPTH=$d \
            CHPAIR_RUNS="$runs" "$OUT/channel_pair" > "$log_file" 2>&1; then
            printf '  depth %-5s %s values/s\n' "$d" \
                "$(sed -n 's/.*best \([0-9]*\) values\/s.*/\1/p' "$log_file")"
        else
            log "channel_pair depth $d FAILED (see $log_file)"
            failed=1
        fi
    done
}
channel_throughput
exit $failed
