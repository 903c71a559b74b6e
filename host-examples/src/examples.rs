//! The catalogue of C host examples and where their files are.

use std::path::PathBuf;

/// One C host program (and the kernel sources it loads, if any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// Short name; also the name of the compiled binary.
    pub name: &'static str,
    /// File name of the C source inside [`c_dir`].
    pub source: &'static str,
    /// File names of the OpenCL C sources (inside [`kernels_dir`]) the program loads.
    pub kernels: &'static [&'static str],
    /// True when the program needs kernel execution (compiler + device model).
    pub needs_kernels: bool,
    /// What the program checks, in one line.
    pub description: &'static str,
}

impl Example {
    /// Absolute path of the C source.
    pub fn source_path(&self) -> PathBuf {
        c_dir().join(self.source)
    }

    /// Absolute paths of the kernel sources the program loads.
    pub fn kernel_paths(&self) -> Vec<PathBuf> {
        self.kernels.iter().map(|k| kernels_dir().join(k)).collect()
    }
}

/// Every example, host-runtime programs first, then kernel programs.
pub const EXAMPLES: &[Example] = &[
    Example {
        name: "platform_query",
        source: "platform_query.c",
        kernels: &[],
        needs_kernels: false,
        description: "every 1.2 platform/device query, spec minimums, contexts by list and type, \
                      queue info, FPGA naming conventions",
    },
    Example {
        name: "buffers",
        source: "buffers.c",
        kernels: &[],
        needs_kernels: false,
        description:
            "every CL_MEM_* flag with host-pointer semantics and errors, sub-buffers, \
                      read/write/copy/fill, Rect variants, map/unmap, migrate, destructor callbacks",
    },
    Example {
        name: "queues_events",
        source: "queues_events.c",
        kernels: &[],
        needs_kernels: false,
        description: "in-order and out-of-order queues, user events across queues, callbacks, \
                      markers/barriers with wait lists, clWaitForEvents, profiling order",
    },
    Example {
        name: "pipes_objects",
        source: "pipes_objects.c",
        kernels: &[],
        needs_kernels: false,
        description: "clCreateCommandQueueWithProperties, clCreatePipe/clGetPipeInfo, \
                      retain/release counts and object lifetimes",
    },
    Example {
        name: "negative",
        source: "negative.c",
        kernels: &[],
        needs_kernels: false,
        description: "NULL, wrong-type and released handles, bad sizes/flags/pointers/wait lists \
                      return the specification's error codes without crashing",
    },
    Example {
        name: "stress_threads",
        source: "stress_threads.c",
        kernels: &[],
        needs_kernels: false,
        description: "8 host threads creating, enqueuing and releasing at once; data checked",
    },
    Example {
        name: "vector_add",
        source: "vector_add.c",
        kernels: &["vector_add.cl"],
        needs_kernels: true,
        description: "NDRange vector addition of VECTOR_N (default 2^20) floats, timed by events",
    },
    Example {
        name: "accumulators",
        source: "accumulators.c",
        kernels: &["accumulators.cl"],
        needs_kernels: true,
        description: "the guide's accumulators: single work-item (task and NDRange (1,1,1)), \
                      NDRange, nested loops, float running sum",
    },
    Example {
        name: "task_loop",
        source: "task_loop.c",
        kernels: &["task_loop.cl"],
        needs_kernels: true,
        description: "single work-item loop of LOOP_N (default 2^20) iterations with \
                      loop-carried sum, squares and hash, launched with clEnqueueTask",
    },
    Example {
        name: "enqueue_scaling",
        source: "enqueue_scaling.c",
        kernels: &["enqueue_scaling.cl"],
        needs_kernels: true,
        description: "ENQ_N (default 100000) tiny kernels enqueued on one in-order queue \
                      before one clFinish, with and without profiling; the final counter \
                      checks every launch ran once, in order (benchmark)",
    },
    Example {
        name: "compute_bench",
        source: "compute_bench.c",
        kernels: &["compute_bench.cl"],
        needs_kernels: true,
        description: "BENCH_KERNEL=matmul|mandelbrot|nbody at BENCH_N, checked against the \
                      host (benchmark)",
    },
    Example {
        name: "unrolled_helper",
        source: "unrolled_helper.c",
        kernels: &["unrolled_helper.cl"],
        needs_kernels: true,
        description: "a 64-deep shift register in a helper unrolled after inlining \
                      (UH_COUNT iterations, default 65536): II 1, one cycle per iteration",
    },
    Example {
        name: "grid_stride",
        source: "grid_stride.c",
        kernels: &["grid_stride.cl"],
        needs_kernels: true,
        description: "plain copy vs grid-stride copy vs grid-stride gather (GS_N ints, \
                      GS_ITEMS work-items): results and device times; burst counters \
                      in profile.mon",
    },
    Example {
        name: "memory_banks",
        source: "memory_banks.c",
        kernels: &["memory_banks.cl"],
        needs_kernels: true,
        description: "memory-bound copy (BK_N floats) built with -no-interleaving=default: \
                      read and write buffers in one bank vs in two banks \
                      (CL_CHANNEL_n_INTELFPGA), and built interleaved",
    },
    Example {
        name: "dram_streams",
        source: "dram_streams.c",
        kernels: &["dram_streams.cl"],
        needs_kernels: true,
        description: "1, 2 and 5 memory streams over the interleaved DRAM banks (DS_N \
                      float16 work-items, build options DS_OPTIONS, e.g. -clock=<MHz>): \
                      device times; the options travel in the binary",
    },
    Example {
        name: "local_reduction",
        source: "local_reduction.c",
        kernels: &["local_reduction.cl"],
        needs_kernels: true,
        description: "barrier + local-memory tree reductions (__local argument and array, \
                      reqd_work_group_size)",
    },
    Example {
        name: "channel_producer_consumer",
        source: "channel_producer_consumer.c",
        kernels: &["channels.cl"],
        needs_kernels: true,
        description: "producer/consumer through channels, consumer enqueued first on its own \
                      queue; depth 0 and buffered, non-blocking reads, *_altera names",
    },
    Example {
        name: "channel_pair",
        source: "channel_pair.c",
        kernels: &["channel_pair.cl"],
        needs_kernels: true,
        description: "producer/consumer single work-item kernels on two queues joined by one \
                      channel of CHPAIR_DEPTH (default 16): CHPAIR_N values, checked, with \
                      the throughput in values/s",
    },
    Example {
        name: "nb_channels",
        source: "nb_channels.c",
        kernels: &["nb_channels.cl"],
        needs_kernels: true,
        description: "non-blocking channel reads and writes decided in simulated time: counts \
                      of empty/full polls identical across runs and host pauses",
    },
    Example {
        name: "pipe_producer_consumer",
        source: "pipe_producer_consumer.c",
        kernels: &["pipes.cl"],
        needs_kernels: true,
        description: "producer/consumer through clCreatePipe pipes with blocking accesses, \
                      consumer enqueued first on its own queue",
    },
    Example {
        name: "feed_forward",
        source: "feed_forward.c",
        kernels: &["feed_forward_baseline.cl", "feed_forward_split.cl"],
        needs_kernels: true,
        description: "the paper's feed-forward split: baseline vs memory + compute kernels \
                      through channels, with data-dependent loops",
    },
    Example {
        name: "concurrent_bandwidth",
        source: "concurrent_bandwidth.c",
        kernels: &["concurrent_bandwidth.cl"],
        needs_kernels: true,
        description: "two memory-bound copies on two queues at once share the global memory \
                      bandwidth (each about twice as long as alone); a compute-bound kernel \
                      slows a copy only by what it uses; times from event profiling",
    },
    Example {
        name: "autorun",
        source: "autorun.c",
        kernels: &["autorun.cl"],
        needs_kernels: true,
        description: "an autorun kernel over two compute units fed and drained by enqueued \
                      kernels, twice; the process exits after release",
    },
    Example {
        name: "profile_autorun",
        source: "profile_autorun.c",
        kernels: &["autorun.cl"],
        needs_kernels: true,
        description: "clGetProfileDataDeviceIntelFPGA four times around autorun traffic, \
                      with and without clear-after-readback (captures in profile.mon)",
    },
    Example {
        name: "determinism",
        source: "determinism.c",
        kernels: &["determinism.cl"],
        needs_kernels: true,
        description: "producer -> autorun scaler -> consumer over channels, a single \
                      work-item and an NDRange kernel, DET_ROUNDS rounds; prints every \
                      event's profiling timestamps (issue 16's determinism design)",
    },
    Example {
        name: "profile_snapshot",
        source: "profile_snapshot.c",
        kernels: &["profile_snapshot.cl"],
        needs_kernels: true,
        description: "clGetProfileInfoIntelFPGA on a running consumer kernel (snapshot) and \
                      CL_INVALID_EVENT on queued, finished and non-kernel commands",
    },
    Example {
        name: "profile_stream",
        source: "profile_stream.c",
        kernels: &["profile_stream.cl"],
        needs_kernels: true,
        description: "PROFILE_ROUNDS (default 20, 0 = forever) rounds of write, NDRange \
                      kernel, read and check: many profile records",
    },
    Example {
        name: "host_gaps",
        source: "host_gaps.c",
        kernels: &["profile_stream.cl", "concurrent_bandwidth.cl"],
        needs_kernels: true,
        description: "two kernel runs with HOSTGAP_SLEEP_MS of host sleep between them (host \
                      gaps; HOSTGAP_MODE=overlap: on two queues, sharing the bandwidth); \
                      HOSTGAP_MODE=sigint: SIGINT after a run held behind a blocked one",
    },
    Example {
        name: "profile_host_pipes",
        source: "profile_host_pipes.c",
        kernels: &["profile_host_pipes.cl"],
        needs_kernels: true,
        description: "Intel host pipes (clWritePipeIntelFPGA / clReadPipeIntelFPGA) feeding \
                      and draining a running kernel; clCreateBufferWithPropertiesINTEL",
    },
    Example {
        name: "program_build",
        source: "program_build.c",
        kernels: &[
            "program_build.cl",
            "program_build_inc/params.h",
            "program_build_bad.cl",
            "program_build_link.h",
            "program_build_link_kernel.cl",
            "program_build_link_options.cl",
            "program_build_link_helper.cl",
            "program_build_link_static_a.cl",
            "program_build_link_static_b.cl",
            "program_build_link_dup.cl",
        ],
        needs_kernels: true,
        description: "builds from source with -D/-I, kernel argument info, failing builds and \
                      their logs, the .aocx from `fpgacl aoc` (argv[1]) and program binaries, \
                      clCompileProgram + clLinkProgram",
    },
    Example {
        name: "customer_mix",
        source: "customer_mix.c",
        kernels: &["customer_mix.cl"],
        needs_kernels: true,
        description: "FIR shift register, local histogram with atomics, tiled matmul with \
                      barriers, float4 + struct arguments, long prefix sum, vector printf; \
                      each checked against the host (also passes on PoCL)",
    },
    Example {
        name: "stream_pipeline",
        source: "stream_pipeline.c",
        kernels: &["stream_pipeline.cl"],
        needs_kernels: true,
        description: "reader -> autorun x2 -> shift-register filter -> writer over struct \
                      channels with a non-blocking status poll; an out-of-bounds store and a \
                      deadlocked read are reported and the context runs on",
    },
    Example {
        name: "api_errors",
        source: "api_errors.c",
        kernels: &[
            "api_errors.cl",
            "api_errors_unit_a.cl",
            "api_errors_unit_b.cl",
        ],
        needs_kernels: true,
        description: "clCompileProgram with an embedded header + clLinkProgram, bad \
                      build/compile/link options (object kept), bad arguments, NDRange \
                      shapes, buffers and released objects, integer division traps",
    },
    Example {
        name: "conformance_api",
        source: "conformance_api.c",
        kernels: &[],
        needs_kernels: true,
        description: "OpenCL 1.2 conformance points: CL_KERNEL_ATTRIBUTES, clGetKernelArgInfo, \
                      NULL buffer arguments, rect copies, __local alignment, extern variables \
                      across units, extension and predefined macros, vector printf",
    },
    Example {
        name: "out_of_bounds",
        source: "out_of_bounds.c",
        kernels: &["out_of_bounds.cl"],
        needs_kernels: true,
        description: "stencils reading a[i-1]/a[i+1] before the border test in local and global \
                      memory and a store past the end: reported, not fatal (reads give 0, stores \
                      are dropped); FPGACL_OOB=fault makes each kernel fail",
    },
    Example {
        name: "events_hangs",
        source: "events_hangs.c",
        kernels: &["events_hangs.cl"],
        needs_kernels: true,
        description: "100,000 chained user-event callbacks, wait lists on an out-of-order queue \
                      and across queues with a user event, events released before their \
                      kernels end, a buffer released while set as a kernel argument",
    },
    Example {
        name: "limits",
        source: "limits.c",
        kernels: &["limits.cl"],
        needs_kernels: true,
        description: "Intel-style device limits: work-groups of 4096 and 32768 (reqd and \
                      free), the 256 default with barriers, 80,000 bytes of local memory, an \
                      overflowing global size",
    },
    Example {
        name: "images",
        source: "images.c",
        kernels: &["images.cl"],
        needs_kernels: true,
        description: "images and samplers: a 3x3 blur reading an image2d_t through a \
                      program-scope sampler, a copy through a host sampler, a format conversion \
                      table, normalized/repeat/linear sampling, 3D image queries, fill/copy/map \
                      commands and the specification's error codes",
    },
    Example {
        name: "watchdog",
        source: "watchdog.c",
        kernels: &["watchdog.cl"],
        needs_kernels: true,
        description: "with FPGACL_KERNEL_TIMEOUT_S, an endless compute loop and an endless \
                      printf loop end with an error status and the host goes on",
    },
    Example {
        name: "build_log",
        source: "build_log.c",
        kernels: &[],
        needs_kernels: true,
        description: "builds the OpenCL C files given as arguments with clBuildProgram and \
                      prints status, build time and build log of each",
    },
    Example {
        name: "private_limit",
        source: "private_limit.c",
        kernels: &["private_limit.cl"],
        needs_kernels: true,
        description: "a work-group whose private memory is over the emulator's limit is \
                      refused at clEnqueueNDRangeKernel with CL_OUT_OF_RESOURCES; the build \
                      log warns; small groups run",
    },
    Example {
        name: "buffer_rect_random",
        source: "buffer_rect_random.c",
        kernels: &[],
        needs_kernels: false,
        description: "the conformance suite's bufferreadwriterect procedure: random rect \
                      copies, reads and writes over 8 CL_MEM_USE_HOST_PTR buffers mirrored on \
                      the host, every buffer mapped and compared at the end",
    },
    Example {
        name: "autorun_idle",
        source: "autorun_idle.c",
        kernels: &["autorun_idle.cl"],
        needs_kernels: true,
        description: "200 autorun compute units polling with non-blocking reads cost no CPU \
                      while the host sleeps (idle_cpu_s), and still answer an enqueued kernel",
    },
    Example {
        name: "printf_stream",
        source: "printf_stream.c",
        kernels: &["printf_stream.cl"],
        needs_kernels: true,
        description: "printf in endless loops (stopped by FPGACL_KERNEL_TIMEOUT_S) streams \
                      line by line while the kernel runs, with bounded memory",
    },
];

/// The example with this name, if any.
pub fn example(name: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.name == name)
}

/// Absolute path of `host-examples/c` (C sources and `common.h`).
pub fn c_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("c")
}

/// Absolute path of `host-examples/c/kernels` (OpenCL C sources of the kernel examples).
pub fn kernels_dir() -> PathBuf {
    c_dir().join("kernels")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_listed_file_exists() {
        for e in EXAMPLES {
            assert!(
                e.source_path().is_file(),
                "{}: missing {}",
                e.name,
                e.source_path().display()
            );
            for k in e.kernel_paths() {
                assert!(k.is_file(), "{}: missing kernel {}", e.name, k.display());
            }
        }
    }

    #[test]
    fn every_c_file_is_listed_once() {
        let listed: BTreeSet<&str> = EXAMPLES.iter().map(|e| e.source).collect();
        assert_eq!(
            listed.len(),
            EXAMPLES.len(),
            "an example source is listed twice"
        );
        let names: BTreeSet<&str> = EXAMPLES.iter().map(|e| e.name).collect();
        assert_eq!(names.len(), EXAMPLES.len(), "an example name is used twice");
        for entry in std::fs::read_dir(c_dir()).expect("read c dir") {
            let path = entry.expect("dir entry").path();
            if path.extension().is_some_and(|x| x == "c") {
                let file = path
                    .file_name()
                    .and_then(|f| f.to_str())
                    .expect("utf-8 name");
                assert!(
                    listed.contains(file) || crate::TOOL_SOURCES.contains(&file),
                    "{file} is not listed in EXAMPLES or TOOL_SOURCES"
                );
            }
        }
    }

    #[test]
    fn lookup_by_name() {
        assert_eq!(example("buffers").map(|e| e.source), Some("buffers.c"));
        assert!(example("no_such_example").is_none());
    }
}
