//! Link options of libfpgacl.so.
//!
//! `-Bsymbolic`: the dispatch table must point at fpgacl's own functions. Without it, the
//! references to the exported `cl*` names would be bound to the first definition in the
//! process, which is the ICD loader's (libOpenCL), and every dispatched call would loop back
//! into the loader.
//! `-soname`: the library is found as `libfpgacl.so` by the .icd file and by `-lfpgacl`.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libfpgacl.so");
    println!("cargo:rerun-if-changed=build.rs");
}
