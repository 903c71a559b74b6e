//! Compiles an OpenCL C file and prints the build log and the IR dump.
//! Usage: `cargo run -p fpgacl-kernel-compiler --example dump_ir -- file.cl [options]`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: dump_ir FILE.cl [OPTIONS]");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let opts = args.get(2).cloned().unwrap_or_default();
    let src = fpgacl_kernel_compiler::SourceFile {
        name: path.clone(),
        text,
    };
    match fpgacl_kernel_compiler::build(&[src], &opts) {
        Ok(out) => {
            eprint!("{}", out.log);
            match out.module {
                Some(m) => print!("{}", fpgacl_kernel_compiler::dump::dump_module(&m)),
                None => std::process::exit(1),
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
