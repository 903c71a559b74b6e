//! Hosts that used to hang (conformance `events waitlists`, `event_release_before_done`,
//! `api retain_mem_object_set_kernel_arg`) and a 100,000-link user-event callback chain that
//! overflowed the stack: the `events_hangs` C host through the ICD loader must pass within
//! the harness's timeout.

use fpgacl_tests::{example, run_example, Linkage};

#[test]
fn event_chains_waitlists_and_releases_do_not_hang() {
    let out = run_example(
        example("events_hangs").expect("example"),
        &Linkage::IcdLoader,
    );
    assert!(
        out.passed() && out.stdout.contains("PASS: events_hangs"),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.contains("chain: 100000 of 100000 callbacks ran"),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout
            .contains("release_mem_set_as_arg: destructor callback ran"),
        "{}",
        out.describe()
    );
}
