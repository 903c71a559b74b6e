//! Invalid build/compile options are argument errors: `clBuildProgram` and
//! `clCompileProgram` return `CL_INVALID_BUILD_OPTIONS` / `CL_INVALID_COMPILER_OPTIONS`
//! and the program keeps its executable or compiled object (as PoCL does), so a later
//! `clCreateKernel` or `clLinkProgram` still works. Found by the qa host `qa_api.c`.

use std::sync::Arc;

use fpgacl_runtime::cl::*;
use fpgacl_runtime::program::Kernel;
use fpgacl_runtime::{platform, Context, Program};

fn context() -> Arc<Context> {
    Context::new(platform().devices.clone(), Vec::new(), None)
}

const KERNEL: &str = "__kernel void k(__global int *d) { d[0] = helper(); }\nint helper(void);\n";
const HELPER: &str = "int helper(void) { return 7; }\n";
const WHOLE: &str = "__kernel void k(__global int *d) { d[0] = 7; }\n";

#[test]
fn invalid_build_options_keep_the_executable() {
    let c = context();
    let p = Program::with_source(&c, vec![WHOLE.to_string()]).unwrap();
    p.build("-DX=1").unwrap();
    assert_eq!(
        p.build("-cl-fast-relaxed-mat"),
        Err(CL_INVALID_BUILD_OPTIONS)
    );
    let st = p.state();
    assert_eq!(st.status, CL_BUILD_SUCCESS);
    assert_eq!(st.options, "-DX=1");
    assert!(st.log.contains("-cl-fast-relaxed-mat"), "log: {}", st.log);
    assert!(p.module().is_some());
    assert!(Kernel::new(&p, "k").is_ok());
}

#[test]
fn invalid_build_options_on_a_fresh_program_leave_it_unbuilt() {
    let c = context();
    let p = Program::with_source(&c, vec![WHOLE.to_string()]).unwrap();
    assert_eq!(p.build("-I"), Err(CL_INVALID_BUILD_OPTIONS));
    assert_eq!(p.state().status, CL_BUILD_NONE);
    assert_eq!(
        Kernel::new(&p, "k").err(),
        Some(CL_INVALID_PROGRAM_EXECUTABLE)
    );
}

#[test]
fn invalid_compile_options_keep_the_compiled_object() {
    let c = context();
    let devices = platform().devices.clone();
    let a = Program::with_source(&c, vec![KERNEL.to_string()]).unwrap();
    let b = Program::with_source(&c, vec![HELPER.to_string()]).unwrap();
    a.compile("", Vec::new()).unwrap();
    b.compile("", Vec::new()).unwrap();
    assert_eq!(
        a.compile("-cl-no-such-option", Vec::new()),
        Err(CL_INVALID_COMPILER_OPTIONS)
    );
    assert_eq!(a.state().status, CL_BUILD_SUCCESS);
    assert_eq!(
        a.state().binary_type,
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
    );
    let (linked, result) = Program::link(&c, devices, "", &[a.clone(), b.clone()]).unwrap();
    assert_eq!(result, Ok(()));
    assert!(Kernel::new(&linked, "k").is_ok());
}
