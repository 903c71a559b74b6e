//! `clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_QUALIFIER)` of a `__constant` pointer includes
//! CL_KERNEL_ARG_TYPE_CONST even without a `const` keyword (qa: PoCL answered
//! CONST|RESTRICT for `__constant float *restrict coef`, fpgacl only RESTRICT).

use fpgacl_runtime::cl::*;
use fpgacl_runtime::info::InfoValue;
use fpgacl_runtime::program::Kernel;
use fpgacl_runtime::{platform, Context, Program};

fn qualifier(k: &Kernel, index: u32) -> u64 {
    match k.arg_info(index, CL_KERNEL_ARG_TYPE_QUALIFIER).unwrap() {
        InfoValue::Bytes(b) => u64::from_ne_bytes(b[..8].try_into().unwrap()),
        _ => panic!("not bytes"),
    }
}

#[test]
fn constant_pointers_are_const() {
    let c = Context::new(platform().devices.clone(), Vec::new(), None);
    let src = "__kernel void k(__constant float *restrict coef, __constant int *tab,\n\
               __global const int *g, __global int *restrict o, int n) { o[0] = g[0] + tab[0] + (int)coef[n]; }\n";
    let p = Program::with_source(&c, vec![src.to_string()]).unwrap();
    p.build("-cl-kernel-arg-info").unwrap();
    let k = Kernel::new(&p, "k").unwrap();
    assert_eq!(
        qualifier(&k, 0),
        CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT
    );
    assert_eq!(qualifier(&k, 1), CL_KERNEL_ARG_TYPE_CONST);
    assert_eq!(qualifier(&k, 2), CL_KERNEL_ARG_TYPE_CONST);
    assert_eq!(qualifier(&k, 3), CL_KERNEL_ARG_TYPE_RESTRICT);
    assert_eq!(qualifier(&k, 4), CL_KERNEL_ARG_TYPE_NONE);
}
