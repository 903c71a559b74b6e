//! Images and samplers end to end (issue 17 item 6): the `images` C host through the ICD
//! loader on fpgacl, the same host on PoCL (its expected values are hand-computed from the
//! specification, so passing on both checks fpgacl against an independent implementation),
//! and the profile of an image kernel (image accesses counted as global memory accesses at
//! their source line).

use fpgacl_tests::{example, run_example, Linkage};

#[test]
fn images_host_passes_through_the_icd_loader() {
    let out = run_example(example("images").expect("example"), &Linkage::IcdLoader);
    assert!(
        out.passed() && out.stdout.contains("PASS: images"),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.contains("UNORM_INT8 ok") && out.stdout.contains("7 sampler cases ok"),
        "{}",
        out.describe()
    );
}
