//! Issue 4: the kernel host examples pass on fpgacl through the ICD loader
//! (and, for a few, also linked directly). Multi-kernel designs that talk
//! through channels and pipes need kernels on different queues to run
//! concurrently, so these fail on an implementation that serialises them.

use fpgacl_tests::assert_example_passes;

macro_rules! through_icd {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                assert_example_passes(stringify!($name), "icd");
            }
        )*

        /// Every kernel example is covered above.
        #[test]
        fn every_kernel_example_is_tested() {
            let tested = [$(stringify!($name)),*];
            // Examples with their own test file (arguments, expected lines, several linkages).
            let elsewhere = [
                "program_build",
                "nb_channels",
                "concurrent_bandwidth",
                // memory_banks.rs
                "memory_banks",
                // dram_streams.rs
                "dram_streams",
                // customer_programs.rs
                "customer_mix",
                "stream_pipeline",
                "api_errors",
                // enqueue_scaling.rs and bench_script.rs (benchmark programs)
                "enqueue_scaling",
                "compute_bench",
                // conformance_api.rs
                "conformance_api",
                // channel_load.rs
                "channel_pair",
                // determinism.rs
                "determinism",
                // unrolled_helper.rs
                "unrolled_helper",
                // out_of_bounds.rs, events_hangs.rs, limits.rs, watchdog.rs
                "out_of_bounds",
                "events_hangs",
                "limits",
                "watchdog",
                // images.rs
                "images",
                // build_limits.rs, printf_stream.rs, autorun_idle.rs
                "build_log",
                "private_limit",
                "printf_stream",
                "autorun_idle",
                // host_gaps.rs
                "host_gaps",
            ];
            for e in fpgacl_tests::EXAMPLES
                .iter()
                .filter(|e| e.needs_kernels && !elsewhere.contains(&e.name))
            {
                assert!(tested.contains(&e.name), "example {} has no test here", e.name);
            }
        }
    };
}

through_icd!(
    vector_add,
    accumulators,
    task_loop,
    grid_stride,
    local_reduction,
    channel_producer_consumer,
    pipe_producer_consumer,
    feed_forward,
    autorun,
    profile_autorun,
    profile_snapshot,
    profile_stream,
    profile_host_pipes,
);

#[test]
fn vector_add_linked_directly() {
    assert_example_passes("vector_add", "direct");
}

#[test]
fn channel_producer_consumer_linked_directly() {
    assert_example_passes("channel_producer_consumer", "direct");
}
