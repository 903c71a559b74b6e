//! `aocl` (also `fpgacl aocl`): Intel's SDK utility, for the emulated device.
//!
//! | command | what it does here |
//! |---|---|
//! | `compile-config` | `-I<sdk>/host/include` (no trailing newline, as build systems paste it) |
//! | `link-config`, `ldflags`, `ldlibs` | link `libfpgacl.so` directly (every OpenCL and Intel extension function, `clGetProfileDataDeviceIntelFPGA` included), with an rpath |
//! | `list-devices` | the emulated device and its board |
//! | `diagnose` | where the ICD loader finds fpgacl, then a tiny kernel run through `libfpgacl.so` |
//! | `version` | versions |
//! | `profile`, `report` | `fpgacl profile`, `fpgacl report` |
//! | `library create` | a library of OpenCL C models for `aoc -l` |
//! | `help` | this list |
//!
//! Everything else (`install`, `program`, `flash`, `initialize`, ...) concerns a physical
//! board: a clear "not applicable to the emulator" message and exit status 0 for the
//! board-setup commands build scripts run, 1 for the rest.

use crate::{locate, sdk};
use std::ffi::{c_char, c_void, CString};
use std::path::Path;
use std::process::ExitCode;

const HELP: &str = "\
aocl (fpgacl): Intel FPGA SDK for OpenCL utility, for the emulated FPGA

  aocl compile-config      compiler flags for host programs (include folder)
  aocl link-config         linker flags and libraries (= ldflags + ldlibs)
  aocl ldflags             linker flags (-L<dir>, rpath)
  aocl ldlibs              libraries (-lfpgacl: OpenCL and the Intel extension functions)
  aocl list-devices        the emulated device and board
  aocl diagnose            check the ICD registration and run a tiny kernel
  aocl version             versions
  aocl profile [opts] <host> [args]   run a host with profiling on (fpgacl profile)
  aocl report [profile.mon]           open the profiler (fpgacl report)
  aocl library create -name <lib>.aoclib <files .cl/.aoco/.aoclib>
                           a library of OpenCL C models for aoc -l
  aocl help                this text

install, uninstall, program, flash, initialize, binedit, ... concern a physical board and are
not applicable to the emulator.
";

/// Commands that set up a physical board: not applicable, but harmless to skip (exit 0).
const BOARD_SETUP: &[&str] = &["install", "uninstall", "initialize", "setup"];

/// Runs `aocl` with its arguments (without the program name).
pub fn main(args: &[String]) -> ExitCode {
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => {
            crate::out(HELP);
            return ExitCode::SUCCESS;
        }
    };
    let result = match cmd {
        "help" | "-h" | "-help" | "--help" => {
            crate::out(HELP);
            Ok(ExitCode::SUCCESS)
        }
        "compile-config" => print_flags(compile_config()),
        "link-config" | "linkflags" => print_flags(link_config()),
        "ldflags" => print_flags(ldflags()),
        "ldlibs" => print_flags(Ok("-lfpgacl".to_string())),
        "list-devices" => list_devices(),
        "diagnose" => diagnose(),
        "version" | "-version" | "--version" => {
            crate::out(&format!(
                "aocl (fpgacl) {v}\nfpgacl {v}: OpenCL FPGA emulator and profiler (Intel FPGA SDK for OpenCL compatible commands)\n",
                v = env!("CARGO_PKG_VERSION")
            ));
            Ok(ExitCode::SUCCESS)
        }
        "profile" | "report" => {
            let mut a = vec!["fpgacl".to_string(), cmd.to_string()];
            a.extend(rest.iter().cloned());
            return crate::run_subcommand(a);
        }
        "library" => match rest.split_first() {
            Some((sub, r)) if sub == "create" => crate::aoc::library_create(r),
            Some((sub, _)) => Err(format!(
                "aocl library {sub}: not applicable to the emulator (fpgacl libraries are made \
                 from OpenCL C models: aocl library create -name <lib>.aoclib model.cl)"
            )),
            None => Err("aocl library: expected `create`".into()),
        },
        other if BOARD_SETUP.contains(&other) => {
            crate::err(&format!(
                "aocl {other}: not applicable to the emulator: fpgacl has no physical board to \
                 set up (the ICD is registered with scripts/install-icd.sh); nothing done\n"
            ));
            Ok(ExitCode::SUCCESS)
        }
        other => {
            crate::err(&format!(
                "aocl {other}: not applicable to the emulator (fpgacl emulates the FPGA; there \
                 is no board to program, flash or test). `aocl help` lists what fpgacl supports.\n"
            ));
            Ok(ExitCode::from(1))
        }
    };
    crate::finish(result)
}

/// Prints flags without a trailing newline (build systems paste `$(shell aocl ...)`).
fn print_flags(flags: Result<String, String>) -> Result<ExitCode, String> {
    crate::out(&flags?);
    Ok(ExitCode::SUCCESS)
}

fn compile_config() -> Result<String, String> {
    let root = sdk::ensure()?;
    Ok(format!("-I{}", root.join("host/include").display()))
}

fn ldflags() -> Result<String, String> {
    let root = sdk::ensure()?;
    let lib = root.join("host/linux64/lib");
    Ok(format!("-L{l} -Wl,-rpath,{l}", l = lib.display()))
}

fn link_config() -> Result<String, String> {
    Ok(format!("{} -lfpgacl", ldflags()?))
}

fn board() -> Result<fpgacl_device_model::Board, String> {
    let sel = std::env::var("FPGACL_BOARD").ok();
    fpgacl_device_model::BoardSet::select(sel.as_deref())
        .map_err(|e| format!("FPGACL_BOARD={}: {e}", sel.unwrap_or_default()))
}

fn list_devices() -> Result<ExitCode, String> {
    let b = board()?;
    crate::out(&format!(
        "--------------------------------------------------------------------\n\
         Device Name:\nacl0\n\n\
         Status:\nPassed (emulated by fpgacl)\n\n\
         Board:\n{} ({})\n\
         Kernel clock {} MHz, global memory {} MB/s over {} bank(s), PCIe {} MB/s\n\
         --------------------------------------------------------------------\n\
         Found 1 active device(s) installed on the host machine (emulated; select another \
         board with FPGACL_BOARD)\n",
        b.name,
        b.description,
        b.kernel_clock_mhz,
        b.global_bandwidth_mbps(),
        b.global_memory.iter().map(|g| g.count).sum::<u32>(),
        b.pcie_bandwidth_mbps
    ));
    Ok(ExitCode::SUCCESS)
}

/// The `.icd` files that name `libfpgacl.so` in `dir`.
fn icd_files_naming_fpgacl(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "icd"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.path()).ok()?;
            text.contains(locate::LIB_NAME)
                .then(|| format!("{} -> {}", e.path().display(), text.trim()))
        })
        .collect();
    found.sort();
    found
}

fn diagnose() -> Result<ExitCode, String> {
    let mut out = String::from("ICD System Diagnostics (fpgacl)\n--------------------------------------------------------------------\n");
    let lib_dir = locate::lib_dir()?;
    let lib = lib_dir.join(locate::LIB_NAME);
    out.push_str(&format!("Library: {}\n", lib.display()));
    let mut registered = Vec::new();
    if let Some(d) = std::env::var_os("OCL_ICD_VENDORS") {
        let d = Path::new(&d);
        if d.is_dir() {
            registered.extend(icd_files_naming_fpgacl(d));
        } else if std::fs::read_to_string(d).is_ok_and(|t| t.contains(locate::LIB_NAME)) {
            registered.push(format!("OCL_ICD_VENDORS={}", d.display()));
        }
    }
    registered.extend(icd_files_naming_fpgacl(Path::new("/etc/OpenCL/vendors")));
    if registered.is_empty() {
        let vendors = locate::vendors_dir(&lib_dir)?;
        out.push_str(&format!(
            "ICD registration: NOT FOUND in /etc/OpenCL/vendors or OCL_ICD_VENDORS.\n  \
             Hosts linked with -lOpenCL will not see fpgacl unless you run \
             scripts/install-icd.sh\n  or export OCL_ICD_VENDORS={} (fpgacl profile does this \
             itself; hosts linked with `aocl link-config` need neither).\n",
            vendors.display()
        ));
    } else {
        out.push_str("ICD registration: found\n");
        for r in &registered {
            out.push_str(&format!("  {r}\n"));
        }
    }
    crate::out(&out);
    let result = run_tiny_kernel(&lib);
    match &result {
        Ok(line) => crate::out(&format!(
            "Tiny kernel through {}: {line}\n\nDIAGNOSTIC_PASSED\n",
            locate::LIB_NAME
        )),
        Err(e) => crate::out(&format!(
            "Tiny kernel through {}: FAILED: {e}\n\nDIAGNOSTIC_FAILED\n",
            locate::LIB_NAME
        )),
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

type H = *mut c_void;

/// Builds and runs `o[i] = 3 * i + 1` over 64 work-items through the OpenCL entry points of
/// `lib` (loaded directly) and checks every element.
fn run_tiny_kernel(lib: &Path) -> Result<String, String> {
    const N: usize = 64;
    const SRC: &str =
        "__kernel void diag(__global int *o) { int i = get_global_id(0); o[i] = 3 * i + 1; }";
    // SAFETY: libfpgacl.so is fpgacl's own OpenCL library; every entry point is called with
    // the C types of the OpenCL 1.2 specification and valid pointers that outlive the calls.
    unsafe {
        let l = libloading::Library::new(lib).map_err(|e| format!("cannot load: {e}"))?;
        macro_rules! sym {
            ($name:literal, $t:ty) => {
                *l.get::<$t>($name)
                    .map_err(|e| format!("missing {}: {e}", String::from_utf8_lossy($name)))?
            };
        }
        let get_platforms = sym!(
            b"clGetPlatformIDs",
            unsafe extern "C" fn(u32, *mut H, *mut u32) -> i32
        );
        let get_devices = sym!(
            b"clGetDeviceIDs",
            unsafe extern "C" fn(H, u64, u32, *mut H, *mut u32) -> i32
        );
        let create_context = sym!(
            b"clCreateContext",
            unsafe extern "C" fn(
                *const isize,
                u32,
                *const H,
                *const c_void,
                *mut c_void,
                *mut i32,
            ) -> H
        );
        let create_queue = sym!(
            b"clCreateCommandQueue",
            unsafe extern "C" fn(H, H, u64, *mut i32) -> H
        );
        let create_program = sym!(
            b"clCreateProgramWithSource",
            unsafe extern "C" fn(H, u32, *const *const c_char, *const usize, *mut i32) -> H
        );
        let build = sym!(
            b"clBuildProgram",
            unsafe extern "C" fn(
                H,
                u32,
                *const H,
                *const c_char,
                *const c_void,
                *mut c_void,
            ) -> i32
        );
        let create_kernel = sym!(
            b"clCreateKernel",
            unsafe extern "C" fn(H, *const c_char, *mut i32) -> H
        );
        let create_buffer = sym!(
            b"clCreateBuffer",
            unsafe extern "C" fn(H, u64, usize, *mut c_void, *mut i32) -> H
        );
        let set_arg = sym!(
            b"clSetKernelArg",
            unsafe extern "C" fn(H, u32, usize, *const c_void) -> i32
        );
        let enqueue = sym!(
            b"clEnqueueNDRangeKernel",
            unsafe extern "C" fn(
                H,
                H,
                u32,
                *const usize,
                *const usize,
                *const usize,
                u32,
                *const H,
                *mut H,
            ) -> i32
        );
        let read = sym!(
            b"clEnqueueReadBuffer",
            unsafe extern "C" fn(
                H,
                H,
                u32,
                usize,
                usize,
                *mut c_void,
                u32,
                *const H,
                *mut H,
            ) -> i32
        );
        let release = [
            sym!(b"clReleaseMemObject", unsafe extern "C" fn(H) -> i32),
            sym!(b"clReleaseKernel", unsafe extern "C" fn(H) -> i32),
            sym!(b"clReleaseProgram", unsafe extern "C" fn(H) -> i32),
            sym!(b"clReleaseCommandQueue", unsafe extern "C" fn(H) -> i32),
            sym!(b"clReleaseContext", unsafe extern "C" fn(H) -> i32),
        ];
        let ok = |what: &str, code: i32| {
            if code == 0 {
                Ok(())
            } else {
                Err(format!("{what} returned {code}"))
            }
        };
        let mut platform: H = std::ptr::null_mut();
        ok(
            "clGetPlatformIDs",
            get_platforms(1, &mut platform, std::ptr::null_mut()),
        )?;
        let mut device: H = std::ptr::null_mut();
        ok(
            "clGetDeviceIDs",
            get_devices(platform, 0xFFFF_FFFF, 1, &mut device, std::ptr::null_mut()),
        )?;
        let mut err = 0i32;
        let ctx = create_context(
            std::ptr::null(),
            1,
            &device,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        );
        ok("clCreateContext", err)?;
        let q = create_queue(ctx, device, 0, &mut err);
        ok("clCreateCommandQueue", err)?;
        let src = CString::new(SRC).map_err(|e| e.to_string())?;
        let strings = [src.as_ptr()];
        let prog = create_program(ctx, 1, strings.as_ptr(), std::ptr::null(), &mut err);
        ok("clCreateProgramWithSource", err)?;
        ok(
            "clBuildProgram",
            build(
                prog,
                1,
                &device,
                std::ptr::null(),
                std::ptr::null(),
                std::ptr::null_mut(),
            ),
        )?;
        let name = CString::new("diag").map_err(|e| e.to_string())?;
        let k = create_kernel(prog, name.as_ptr(), &mut err);
        ok("clCreateKernel", err)?;
        let buf = create_buffer(ctx, 1 << 0, N * 4, std::ptr::null_mut(), &mut err);
        ok("clCreateBuffer", err)?;
        ok(
            "clSetKernelArg",
            set_arg(
                k,
                0,
                std::mem::size_of::<H>(),
                &buf as *const H as *const c_void,
            ),
        )?;
        let global = N;
        ok(
            "clEnqueueNDRangeKernel",
            enqueue(
                q,
                k,
                1,
                std::ptr::null(),
                &global,
                std::ptr::null(),
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            ),
        )?;
        let mut host = [0i32; N];
        ok(
            "clEnqueueReadBuffer",
            read(
                q,
                buf,
                1,
                0,
                N * 4,
                host.as_mut_ptr() as *mut c_void,
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            ),
        )?;
        for (f, h) in release.iter().zip([buf, k, prog, q, ctx]) {
            f(h);
        }
        // The runtime keeps threads of its own: never unload it from a live process.
        std::mem::forget(l);
        match host
            .iter()
            .enumerate()
            .find(|(i, v)| **v != 3 * *i as i32 + 1)
        {
            Some((i, v)) => Err(format!("o[{i}] = {v}, expected {}", 3 * i + 1)),
            None => Ok(format!("PASSED ({N} work-items computed o[i] = 3i + 1)")),
        }
    }
}
