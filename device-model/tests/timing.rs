//! Timing model tests: kernels compiled from OpenCL C, run, and evaluated against the guide's
//! profiler figures. Tolerances are stated per assertion.

mod timing_util;

use fpgacl_device_model::timing::Bound;
use fpgacl_device_model::*;
use timing_util::*;

const VECTOR_ADD: &str =
    "__kernel void vector_add(__global const int *x, __global const int *y, __global int *z) {\n\
    int i = get_global_id(0);\n\
    z[i] = x[i] + y[i];\n\
}\n";

/// The guide's "No Stalls, High Occupancy Percentage, and Low Bandwidth Efficiency" scenario:
/// (2 reads + 1 write) x 4 bytes x 294 MHz = 3528 MB/s, 14% of 25600 MB/s.
#[test]
fn vector_add_bandwidth_occupancy_no_stall() {
    let k = kit(VECTOR_ADD, 2);
    let n = 1 << 20;
    let x = buf(&vec![1i32; n]);
    let y = buf(&vec![2i32; n]);
    let z = buf(&vec![0i32; n]);
    let (_, t) = k.run(&LaunchSpec::ndrange_1d(
        k.index("vector_add"),
        n as u64,
        None,
        vec![
            ArgBinding::buffer(&x),
            ArgBinding::buffer(&y),
            ArgBinding::buffer(&z),
        ],
    ));
    eprintln!("{t:#?}");
    assert_eq!(t.bound, Bound::Compute);
    // One work-item per cycle plus the pipeline fill: within 1% of n cycles.
    near("cycles", t.cycles as f64, n as f64, 0.01);
    let total: f64 = t
        .sites
        .iter()
        .map(|s| s.bandwidth_mbps(294.0).unwrap())
        .sum();
    near("total bandwidth MB/s", total, 3528.0, 0.01);
    let share = fpgacl_profile_format::metrics::bandwidth_share_pct(total, 25600.0).unwrap();
    assert_eq!(share.round(), 14.0);
    for s in &t.sites {
        assert_eq!(s.stall_pct(), Some(0.0));
        assert!(s.occupancy_pct().unwrap() > 99.0, "{s:?}");
        assert_eq!(s.activity_pct(), s.occupancy_pct());
        assert_eq!(s.efficiency_pct(), Some(100.0));
    }
}
