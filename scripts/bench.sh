#!/usr/bin/env bash
# Benchmark: the same unmodified C host programs on fpgacl, Oclgrind and PoCL,
# side by side, with time ratios. Not a test: it prints a table and exits 0
# when every run passed its own result checks.
#
#   scripts/bench.sh [--runs N] [--impls fpgacl,fpgacl-jit,oclgrind,pocl] [--no-build] [--hyperfine]
#                    [--only kernels,compute,enqueue,threads,channels]
#
# Programs (host-examples/c, each checks its results):
#   vector_add  NDRange vector addition of VECTOR_N floats (default 2^20 work-items)
#   task_loop   a single work-item loop of LOOP_N iterations (default 2^20), clEnqueueTask
#   compute_bench (bench_compute): naive matmul MATMUL_N^2 (default 128), mandelbrot
#               MANDEL_N^2 pixels (default 256), n-body NBODY_N bodies (default 512),
#               tiled matmul (16 x 16 local tiles, barriers) MATMUL_N^2
#   enqueue_scaling (bench_enqueue): ENQ_SIZES (default "2000 20000 100000") tiny kernels
#               enqueued before one clFinish, profiling off and on; fpgacl and PoCL only
#               (Oclgrind is not a target for launch rates); fpgacl also under a profiling
#               session (ACL_RUNTIME_PROFILING_ACTIVE=1, as `fpgacl profile` runs a host)
#   thread scaling (bench_threads): matmul and mandelbrot on fpgacl with FPGACL_THREADS=1
#               and 2, interpreter and JIT: kernel wall time, process CPU time, speed-up,
#               parallel efficiency, CPU ratio (THREADS_MATMUL_N, THREADS_MANDEL_N: sizes)
#
# Per program and implementation it runs the program N times (default 3,
# BENCH_RUNS) and reports medians of
#   kernel  the host wall time around the kernel enqueue + blocking read, as the
#           program prints it ("host wall X ms"): the execution engine's speed;
#   process the whole process wall time (platform set-up and kernel compilation
#           included) and its CPU time (user + system; less sensitive to a loaded
#           machine than wall time).
# Ratios are fpgacl / other (below 1 = fpgacl faster; "Nx faster" says how much).
# fpgacl runs with FPGACL_BACKEND=interp (the reference interpreter); fpgacl-jit is the
# same library with FPGACL_BACKEND=jit (the default backend: kernels compiled to native code
# with Cranelift); its ratios to the others follow fpgacl's.
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
impls="fpgacl,fpgacl-jit,oclgrind,pocl"
build=1
use_hyperfine=0
only="kernels,compute,enqueue,threads,channels"
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift ;;
        --impls) impls=${2:?--impls needs a list}; shift ;;
        --no-build) build=0 ;;
        --hyperfine) use_hyperfine=1 ;;
        --only) only=${2:?--only needs a list}; shift ;;
        -h|--help) sed -n '2,37p' "$0"; exit 0 ;;
        *) echo "bench: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
case "$runs" in ''|*[!0-9]*|0) echo "bench: --runs must be a positive number" >&2; exit 2 ;; esac

export VECTOR_N=${VECTOR_N:-1048576}
export LOOP_N=${LOOP_N:-1048576}
MATMUL_N=${MATMUL_N:-128}
MANDEL_N=${MANDEL_N:-256}
NBODY_N=${NBODY_N:-512}
ENQ_SIZES=${ENQ_SIZES:-2000 20000 100000}
wants() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

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
        fpgacl-jit)
            # The same library as fpgacl (listed after it) with FPGACL_BACKEND=jit.
            if [ -z "${VENDORS[fpgacl]:-}" ]; then
                log "fpgacl-jit needs fpgacl before it in --impls: skipped"; continue
            fi
            VENDORS[fpgacl-jit]=${VENDORS[fpgacl]}
            PLATFORM[fpgacl-jit]=""
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
        *) echo "bench: unknown implementation $imp (fpgacl, fpgacl-jit, oclgrind, pocl)" >&2; exit 2 ;;
    esac
    IMPLS+=("$imp")
done
[ ${#IMPLS[@]} -gt 0 ] || { echo "bench: no implementation available" >&2; exit 1; }

# --- the host programs, compiled against the ICD loader ---
PROGRAMS=(vector_add task_loop)
wants kernels || PROGRAMS=()
HOST_PROGRAMS=("${PROGRAMS[@]}")
for p in "${PROGRAMS[@]}" compute_bench enqueue_scaling; do
    gcc -std=gnu11 -O2 -Wall -pthread -I host-examples/c \
        -DFPGACL_KERNELS_DIR="\"$ROOT/host-examples/c/kernels\"" \
        "host-examples/c/$p.c" -o "$OUT/$p" -lOpenCL -lm
done

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# run_one PROGRAM IMPL [TAG] -> appends "kernel_ms wall_s cpu_s" to $OUT/TAG.IMPL.times
# (TAG defaults to PROGRAM; the variables in RUN_ENV, an array, are added to its environment)
RUN_ENV=()
run_one() {
    local prog=$1 imp=$2 tag=${3:-$1} t
    local log_file="$OUT/$tag.$imp.log"
    local -a envs=(env -u HOST_PLATFORM -u EXAMPLE_SKIP_CHECKS "OCL_ICD_VENDORS=${VENDORS[$imp]}" "${RUN_ENV[@]}")
    [ -n "${PLATFORM[$imp]}" ] && envs+=("HOST_PLATFORM=${PLATFORM[$imp]}")
    if [ "$imp" = fpgacl-jit ]; then envs+=("FPGACL_BACKEND=jit"); else envs+=("FPGACL_BACKEND=interp"); fi
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
    echo "${kernel_ms:-nan} $wall $(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" >> "$OUT/$tag.$imp.times"
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

# measure TAG PROGRAM: runs PROGRAM (with RUN_ENV) $runs times per implementation into the
# KMS/WALL/CPU medians of TAG.
measure() {
    local tag=$1 prog=$2 imp
    for imp in "${IMPLS[@]}"; do
        rm -f "$OUT/$tag.$imp.times"
        log "$tag on $imp: $runs run(s)"
        for _ in $(seq "$runs"); do
            run_one "$prog" "$imp" "$tag" || { failed=1; break; }
        done
        if [ -s "$OUT/$tag.$imp.times" ]; then
            KMS[$tag.$imp]=$(awk '{print $1}' "$OUT/$tag.$imp.times" | median)
            WALL[$tag.$imp]=$(awk '{print $2}' "$OUT/$tag.$imp.times" | median)
            CPU[$tag.$imp]=$(awk '{print $3}' "$OUT/$tag.$imp.times" | median)
        fi
    done
}

# bench_compute: matmul, mandelbrot, n-body and the tiled matmul (local memory and barriers;
# compute_bench.c) on every implementation.
COMPUTE=()
bench_compute() {
    wants compute || return 0
    local k n
    for k in matmul mandelbrot nbody tiled_matmul; do
        case $k in matmul | tiled_matmul) n=$MATMUL_N ;; mandelbrot) n=$MANDEL_N ;; nbody) n=$NBODY_N ;; esac
        RUN_ENV=("BENCH_KERNEL=$k" "BENCH_N=$n")
        measure "$k" compute_bench
        COMPUTE+=("$k")
    done
    RUN_ENV=()
}
bench_compute

echo
echo "fpgacl benchmark: VECTOR_N=$VECTOR_N, LOOP_N=$LOOP_N, MATMUL_N=$MATMUL_N, MANDEL_N=$MANDEL_N, NBODY_N=$NBODY_N, median of $runs run(s), $(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-11s %-9s %12s %12s %10s\n' program impl "kernel ms" "process s" "cpu s"
PROGRAMS+=("${COMPUTE[@]}")
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
if [ -n "${VENDORS[fpgacl-jit]:-}" ]; then
    echo
    echo "ratios fpgacl-jit / other (kernel ms | process s | cpu s):"
    for p in "${PROGRAMS[@]}"; do
        for imp in "${IMPLS[@]}"; do
            case $imp in fpgacl|fpgacl-jit) continue ;; esac
            printf '  %-11s fpgacl-jit/%-9s %s | %s | %s\n' "$p" "$imp" \
                "$(ratio "${KMS[$p.fpgacl-jit]:-}" "${KMS[$p.$imp]:-}")" \
                "$(ratio "${WALL[$p.fpgacl-jit]:-}" "${WALL[$p.$imp]:-}")" \
                "$(ratio "${CPU[$p.fpgacl-jit]:-}" "${CPU[$p.$imp]:-}")"
        done
    done
fi

# bench_enqueue: ENQ_SIZES tiny kernels before one clFinish, profiling off and on, on fpgacl
# and PoCL: host wall ms of the batch (median), microseconds per launch, ratio fpgacl/PoCL,
# and the process CPU time (both batches, start-up included). On fpgacl also under a
# profiling session as `fpgacl profile` runs a host (ACL_RUNTIME_PROFILING_ACTIVE=1: every
# launch followed to its KernelRun record; profiling queue, ENQ_PROFILING=1).
bench_enqueue() {
    wants enqueue || return 0
    local imp n mode line
    declare -A EQ EQCPU
    for n in $ENQ_SIZES; do
        for imp in "${IMPLS[@]}"; do
            case $imp in oclgrind|fpgacl-jit) continue ;; esac
            rm -f "$OUT/enq.$n.$imp.off" "$OUT/enq.$n.$imp.on" "$OUT/enq.$n.$imp.session" \
                "$OUT/enq.$n.$imp.times" "$OUT/enqp.$n.$imp.times"
            log "enqueue_scaling ENQ_N=$n on $imp: $runs run(s)"
            for _ in $(seq "$runs"); do
                RUN_ENV=("ENQ_N=$n")
                run_one enqueue_scaling "$imp" "enq.$n" || { failed=1; break; }
                for mode in off on; do
                    line=$(grep "profiling $mode:" "$OUT/enq.$n.$imp.log" | head -n1)
                    sed -n 's/.*host wall \([0-9.]*\) ms.*/\1/p' <<< "$line" >> "$OUT/enq.$n.$imp.$mode"
                done
                [ "$imp" = fpgacl ] || continue
                RUN_ENV=("ENQ_N=$n" "ENQ_PROFILING=1" "ACL_RUNTIME_PROFILING_ACTIVE=1"
                         "FPGACL_PROFILE_OUT=$OUT/enq.$n.mon")
                run_one enqueue_scaling "$imp" "enqp.$n" || { failed=1; break; }
                line=$(grep "profiling on:" "$OUT/enqp.$n.$imp.log" | head -n1)
                sed -n 's/.*host wall \([0-9.]*\) ms.*/\1/p' <<< "$line" >> "$OUT/enq.$n.$imp.session"
            done
            for mode in off on session; do
                [ -s "$OUT/enq.$n.$imp.$mode" ] && EQ[$n.$imp.$mode]=$(median < "$OUT/enq.$n.$imp.$mode")
            done
            [ -s "$OUT/enq.$n.$imp.times" ] &&
                EQCPU[$n.$imp]=$(awk '{print $3}' "$OUT/enq.$n.$imp.times" | median)
        done
    done
    RUN_ENV=()
    echo
    echo "enqueue scaling: N tiny kernels on one in-order queue, then one clFinish (host wall ms, median;"
    echo "session: fpgacl under a profiling session; cpu s: the process, both batches; load $(cut -d' ' -f1-3 /proc/loadavg))"
    printf '%-8s %-9s %12s %10s %12s %10s %12s %10s %8s\n' launches impl "prof off ms" "us/launch" \
        "prof on ms" "us/launch" "session ms" "us/launch" "cpu s"
    per() { awk -v t="$1" -v n="$2" 'BEGIN{if (t=="") print "-"; else printf "%.2f", t*1000/n}'; }
    for n in $ENQ_SIZES; do
        for imp in "${IMPLS[@]}"; do
            case $imp in oclgrind|fpgacl-jit) continue ;; esac
            local off=${EQ[$n.$imp.off]:-} on=${EQ[$n.$imp.on]:-} ses=${EQ[$n.$imp.session]:-}
            [ "$imp" = fpgacl ] || ses=-
            printf '%-8s %-9s %12s %10s %12s %10s %12s %10s %8s\n' "$n" "$imp" "${off:-FAILED}" \
                "$(per "$off" "$n")" "${on:-FAILED}" "$(per "$on" "$n")" "${ses:-FAILED}" \
                "$( [ "$ses" = - ] && echo - || per "$ses" "$n")" "${EQCPU[$n.$imp]:--}"
        done
        if [ -n "${EQ[$n.fpgacl.off]:-}" ] && [ -n "${EQ[$n.pocl.off]:-}" ]; then
            printf '  enqueue %-8s fpgacl/pocl profiling off %s | on %s | session/pocl on %s\n' "$n" \
                "$(ratio "${EQ[$n.fpgacl.off]}" "${EQ[$n.pocl.off]}")" \
                "$(ratio "${EQ[$n.fpgacl.on]:-}" "${EQ[$n.pocl.on]:-}")" \
                "$(ratio "${EQ[$n.fpgacl.session]:-}" "${EQ[$n.pocl.on]:-}")"
        fi
    done
}
bench_enqueue

# bench_threads: fpgacl only, FPGACL_THREADS=1 vs 2 on matmul and mandelbrot, on both backends
# (interp and jit): kernel wall ms, process CPU s, speed-up (wall 1 / wall 2), parallel
# efficiency (speed-up / 2) and the CPU ratio (CPU 2 / CPU 1: about 1 when the workers do not
# contend; above 1 is contention or parallel overhead). On a loaded machine the wall-time
# speed-up understates the scaling; the CPU times show the work done. THREADS_MATMUL_N and
# THREADS_MANDEL_N (default MATMUL_N and MANDEL_N) size the runs.
bench_threads() {
    wants threads || return 0
    [ -n "${VENDORS[fpgacl]:-}" ] || return 0
    local saved=("${IMPLS[@]}") had_jit=${VENDORS[fpgacl-jit]:-} k n t imp
    VENDORS[fpgacl-jit]=${VENDORS[fpgacl]}
    PLATFORM[fpgacl-jit]=""
    IMPLS=(fpgacl fpgacl-jit)
    declare -A TK TC
    for k in matmul mandelbrot; do
        case $k in matmul) n=${THREADS_MATMUL_N:-$MATMUL_N} ;; mandelbrot) n=${THREADS_MANDEL_N:-$MANDEL_N} ;; esac
        for t in 1 2; do
            RUN_ENV=("BENCH_KERNEL=$k" "BENCH_N=$n" "FPGACL_THREADS=$t")
            measure "threads$t.$k" compute_bench
            for imp in "${IMPLS[@]}"; do
                TK[$k.$imp.$t]=${KMS[threads$t.$k.$imp]:-}
                TC[$k.$imp.$t]=${CPU[threads$t.$k.$imp]:-}
            done
        done
    done
    RUN_ENV=()
    IMPLS=("${saved[@]}")
    [ -n "$had_jit" ] || unset 'VENDORS[fpgacl-jit]'
    echo
    echo "thread scaling on fpgacl (FPGACL_THREADS=1 vs 2; $(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg))"
    printf '%-18s %-7s %12s %12s %9s %9s %9s %11s %9s\n' kernel backend "1 thread ms" "2 threads ms" "1 cpu s" "2 cpu s" speed-up efficiency "cpu 2/1"
    for k in matmul mandelbrot; do
        for imp in fpgacl fpgacl-jit; do
            local a=${TK[$k.$imp.1]:-} b=${TK[$k.$imp.2]:-} c1=${TC[$k.$imp.1]:-} c2=${TC[$k.$imp.2]:-}
            printf '%-18s %-7s %12s %12s %9s %9s %9s %11s %9s\n' "threads-$k" \
                "$([ "$imp" = fpgacl ] && echo interp || echo jit)" \
                "${a:-FAILED}" "${b:-FAILED}" "${c1:-FAILED}" "${c2:-FAILED}" \
                "$(awk -v a="$a" -v b="$b" 'BEGIN{if (a==""||b==""||a=="nan"||b=="nan"||b<=0) print "n/a"; else printf "%.2fx", a/b}')" \
                "$(awk -v a="$a" -v b="$b" 'BEGIN{if (a==""||b==""||a=="nan"||b=="nan"||b<=0) print "n/a"; else printf "%.0f%%", 50*a/b}')" \
                "$(awk -v a="$c1" -v b="$c2" 'BEGIN{if (a==""||b==""||a<=0) print "n/a"; else printf "%.2f", b/a}')"
        done
    done
}
bench_threads

if [ $use_hyperfine -eq 1 ]; then
    if command -v hyperfine >/dev/null 2>&1; then
        for p in "${HOST_PROGRAMS[@]}"; do
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
# (host wall, best of --runs) at depths CHPAIR_DEPTHS (default 1 16 64 1024), CHPAIR_N
# values (default 2^20), with the process's CPU time and context switches (all runs) and
# the load average.
channel_throughput() {
    wants channels || return 0
    [ -n "${VENDORS[fpgacl]:-}" ] || return 0
    gcc -std=gnu11 -O2 -Wall -pthread -I host-examples/c \
        -DFPGACL_KERNELS_DIR="\"$ROOT/host-examples/c/kernels\"" \
        host-examples/c/channel_pair.c -o "$OUT/channel_pair" -lOpenCL -lm
    echo
    echo "channel throughput on fpgacl (CHPAIR_N=${CHPAIR_N:-1048576}, best of $runs run(s);" \
        "$(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg)):"
    printf '  %-6s %14s %10s %12s\n' depth 'values/s' 'cpu s' 'ctx switches'
    local d log_file tv
    local -a timer=()
    for d in ${CHPAIR_DEPTHS:-1 16 64 1024}; do
        log_file="$OUT/channel_pair.$d.log"
        tv="$OUT/channel_pair.$d.time"
        echo "n/a n/a" > "$tv"
        # GNU time (Debian package `time`) for CPU time and context switches, if installed.
        [ -x /usr/bin/time ] && timer=(/usr/bin/time -o "$tv" -f '%U+%S %w+%c')
        if env -u HOST_PLATFORM "OCL_ICD_VENDORS=${VENDORS[fpgacl]}" CHPAIR_DEPTH=$d \
            CHPAIR_RUNS="$runs" "${timer[@]}" "$OUT/channel_pair" > "$log_file" 2>&1; then
            printf '  %-6s %14s %10s %12s\n' "$d" \
                "$(sed -n 's/.*best \([0-9]*\) values\/s.*/\1/p' "$log_file")" \
                "$(awk '{print $1}' "$tv" | sed 's/^\([0-9.]*\)+\([0-9.]*\)$/\1 \2/' |
                    awk 'NF == 2 {printf "%.2f", $1 + $2; next} {print}')" \
                "$(awk '{print $2}' "$tv" | awk -F+ 'NF == 2 {print $1 + $2; next} {print}')"
        else
            log "channel_pair depth $d FAILED (see $log_file)"
            failed=1
        fi
    done
}
channel_throughput
exit $failed
