//! `conformance_api`: the OpenCL 1.2 API and language points the Khronos conformance suite
//! failed on (issue 14 item 3), through the ICD loader: kernel attributes string, kernel
//! argument info, NULL buffer arguments, rect copies, `__local` alignment, extern variables
//! across compiled units, extension and predefined macros, vector printf.

use fpgacl_host_examples::Linkage;
use fpgacl_tests::{example, run_example};

#[test]
fn conformance_api_points_pass_through_the_icd_loader() {
    let out = run_example(
        example("conformance_api").expect("known example"),
        &Linkage::IcdLoader,
    );
    assert!(
        out.passed() && out.stdout.contains("PASS: conformance_api"),
        "{}",
        out.describe()
    );
    // Vector printf: lanes joined by commas, each converted by the element conversion.
    for line in [
        "v4hd 1,-2,3,-32768",
        "v2hhd 5,-6",
        "v8hlf 0.500000,1.000000,1.500000,2.000000,-0.250000,3.000000,4.000000,5.000000",
        "v3hld 7,8,9",
        "v2hlx dead,beef",
        "v4hhu 250,0,1,255",
        // Flags, width and precision apply to each lane.
        "flags 1.00,2.00,3.00,4.00|0xfa,0xfb|0x1234,0x8765|0x12345678,0x87654321|12345678,98765432",
        "sci 1.23e+03,9.88e+05,5.00e-04|0x1.0p-2,0x1.0p-1,0x1.0p+0,0x1.8p+0",
    ] {
        assert!(
            out.stdout.lines().any(|l| l == line),
            "missing printf line '{line}' in\n{}",
            out.describe()
        );
    }
    // Integer division by zero is reported once, and the kernel goes on.
    assert!(
        out.stderr.contains("integer division by zero"),
        "{}",
        out.describe()
    );
}
