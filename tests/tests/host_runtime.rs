//! Issue 2: every host-runtime C example passes against fpgacl, both through
//! the system ICD loader (`OCL_ICD_VENDORS` -> fpgacl.icd, `-lOpenCL`) and
//! linked directly (`-lfpgacl`). A failure shows the program's full output.

use fpgacl_tests::assert_example_passes;

macro_rules! both_linkages {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[test]
                fn through_icd_loader() {
                    super::assert_example_passes(stringify!($name), "icd");
                }

                #[test]
                fn linked_directly() {
                    super::assert_example_passes(stringify!($name), "direct");
                }
            }
        )*

        /// Every host-runtime example (no kernels needed) is covered above.
        #[test]
        fn every_host_runtime_example_is_tested() {
            let tested = [$(stringify!($name)),*];
            for e in fpgacl_tests::EXAMPLES.iter().filter(|e| !e.needs_kernels) {
                assert!(tested.contains(&e.name), "example {} has no test here", e.name);
            }
        }
    };
}

both_linkages!(
    platform_query,
    buffers,
    queues_events,
    pipes_objects,
    negative,
    stress_threads,
    buffer_rect_random
);
