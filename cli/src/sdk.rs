//! An Intel SDK-like folder for build systems that look for `$INTELFPGAOCLSDKROOT`:
//!
//! ```text
//! <root>/bin/aoc, bin/aocl            this binary under Intel's command names
//! <root>/host/include/CL/*.h          cl_ext_intelfpga.h, cl_ext_altera.h, fpgacl_intel_ext.h,
//!                                     and a CL/cl_ext.h that includes the system one, then Intel's
//! <root>/host/linux64/lib/            libfpgacl.so (link), libacl_emulator_kernel_rt.so (no-op)
//! <root>/board/<name>.json            the built-in boards, in the board JSON format
//! <root>/lib/pkgconfig/fpgacl.pc      for pkg-config
//! ```
//!
//! The folder is `<folder of libfpgacl.so>/fpgacl_sdk` (or `$FPGACL_SDK_ROOT`), made or
//! refreshed whenever `fpgacl sdk-root` or an `aocl` command that prints paths runs. A path
//! with `-l` in it is avoided (a common CMake helper splits `aocl link-config` on `-l`): then
//! the folder goes to the system temporary folder.

use crate::locate;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The headers of `host/include`, embedded so an installed binary carries them.
const HEADERS: &[(&str, &str)] = &[
    ("CL/cl_ext.h", include_str!("../../include/CL/cl_ext.h")),
    (
        "CL/cl_ext_intelfpga.h",
        include_str!("../../include/CL/cl_ext_intelfpga.h"),
    ),
    (
        "CL/cl_ext_altera.h",
        include_str!("../../include/CL/cl_ext_altera.h"),
    ),
    (
        "CL/fpgacl_intel_ext.h",
        include_str!("../../include/CL/fpgacl_intel_ext.h"),
    ),
];

/// Name of the no-op library Intel's emulation build lines link.
const KERNEL_RT: &str = "libacl_emulator_kernel_rt.so";

/// Writes `bytes` to `path` unless it already holds them (write to a temporary name, then
/// rename: processes running side by side never see half a file).
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if std::fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Makes `link` a symbolic link to `target` (replacing another one atomically).
fn symlink(target: &Path, link: &Path) -> Result<(), String> {
    if std::fs::read_link(link).ok().as_deref() == Some(target) {
        return Ok(());
    }
    let tmp = link.with_extension(format!("tmp{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp)
        .map_err(|e| format!("cannot link {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, link).map_err(|e| format!("cannot link {}: {e}", link.display()))
}

fn mkdir(p: &Path) -> Result<(), String> {
    std::fs::create_dir_all(p).map_err(|e| format!("cannot create {}: {e}", p.display()))
}

/// Where the SDK folder goes for the library folder `lib_dir`.
fn location(lib_dir: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("FPGACL_SDK_ROOT").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let lib_dir = lib_dir
        .canonicalize()
        .unwrap_or_else(|_| lib_dir.to_path_buf());
    let here = lib_dir.join("fpgacl_sdk");
    if !here.to_string_lossy().contains("-l") {
        return here;
    }
    // Named after the library folder, so several builds do not share one.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in lib_dir.to_string_lossy().bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    std::env::temp_dir().join(format!("fpgacl_sdk_{h:016x}"))
}

/// Compiles the no-op `libacl_emulator_kernel_rt.so` with the system C compiler (`$CC`, else
/// `cc`): Intel's emulation builds link it; fpgacl needs nothing from it.
fn make_kernel_rt(lib: &Path) -> Result<(), String> {
    if lib.is_file() {
        return Ok(());
    }
    let dir = lib.parent().unwrap_or(Path::new("."));
    let src = dir.join(format!("acl_emulator_kernel_rt.{}.c", std::process::id()));
    std::fs::write(
        &src,
        "/* fpgacl: Intel's emulation builds link -lacl_emulator_kernel_rt; fpgacl needs \
         nothing from it. */\nint fpgacl_acl_emulator_kernel_rt_noop(void) { return 0; }\n",
    )
    .map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    let tmp = lib.with_extension(format!("so.tmp{}", std::process::id()));
    let cc = std::env::var("CC")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| "cc".into());
    let status = std::process::Command::new(&cc)
        .args([
            "-shared",
            "-fPIC",
            "-Wl,-soname,libacl_emulator_kernel_rt.so",
            "-o",
        ])
        .arg(&tmp)
        .arg(&src)
        .status();
    let _ = std::fs::remove_file(&src);
    match status {
        Ok(s) if s.success() => {
            std::fs::rename(&tmp, lib).map_err(|e| format!("cannot write {}: {e}", lib.display()))
        }
        Ok(s) => Err(format!(
            "`{cc} -shared` failed ({s}) making {}",
            lib.display()
        )),
        Err(e) => Err(format!(
            "cannot run the C compiler `{cc}` to make {} ({e})",
            lib.display()
        )),
    }
}

/// The pkg-config file for the SDK at `root`.
fn pc_file(root: &Path) -> String {
    format!(
        "# fpgacl: OpenCL FPGA emulator and profiler (Intel FPGA SDK for OpenCL compatible)\n\
         prefix={}\n\
         includedir=${{prefix}}/host/include\n\
         libdir=${{prefix}}/host/linux64/lib\n\n\
         Name: fpgacl\n\
         Description: OpenCL runtime that emulates and profiles an Intel-style FPGA\n\
         Version: {}\n\
         Cflags: -I${{includedir}}\n\
         Libs: -L${{libdir}} -Wl,-rpath,${{libdir}} -lfpgacl\n",
        root.display(),
        env!("CARGO_PKG_VERSION")
    )
}

/// Makes (or refreshes) the SDK folder and returns its path.
pub fn ensure() -> Result<PathBuf, String> {
    let lib_dir = locate::lib_dir()?;
    let root = location(&lib_dir);
    let inc = root.join("host/include/CL");
    let lib = root.join("host/linux64/lib");
    let bin = root.join("bin");
    let board = root.join("board");
    let pc = root.join("lib/pkgconfig");
    for d in [&inc, &lib, &bin, &board, &pc] {
        mkdir(d)?;
    }
    for (name, text) in HEADERS {
        write_if_changed(&root.join("host/include").join(name), text.as_bytes())?;
    }
    let fpgacl_lib = lib_dir
        .join(locate::LIB_NAME)
        .canonicalize()
        .map_err(|e| format!("cannot resolve {}: {e}", locate::LIB_NAME))?;
    symlink(&fpgacl_lib, &lib.join(locate::LIB_NAME))?;
    if let Err(e) = make_kernel_rt(&lib.join(KERNEL_RT)) {
        crate::err(&format!(
            "fpgacl: note: {e}; builds that link -lacl_emulator_kernel_rt will fail\n"
        ));
    }
    let exe = std::env::current_exe()
        .and_then(|e| e.canonicalize())
        .map_err(|e| format!("cannot locate the fpgacl executable: {e}"))?;
    for name in ["aoc", "aocl", "fpgacl"] {
        symlink(&exe, &bin.join(name))?;
    }
    for b in fpgacl_device_model::BoardSet::default().boards {
        let json = serde_json::to_string_pretty(&b).map_err(|e| e.to_string())?;
        write_if_changed(
            &board.join(format!("{}.json", b.name)),
            format!("{json}\n").as_bytes(),
        )?;
    }
    write_if_changed(
        &board.join("README"),
        b"Boards fpgacl emulates, in its board JSON format (select one with aoc -board=<name>\n\
or -board=<file>.json, or FPGACL_BOARD at run time). See fpgacl's README.\n",
    )?;
    write_if_changed(&pc.join("fpgacl.pc"), pc_file(&root).as_bytes())?;
    Ok(root)
}

/// `fpgacl sdk-root`.
pub fn print_root() -> Result<ExitCode, String> {
    let root = ensure()?;
    crate::out(&format!("{}\n", root.display()));
    Ok(ExitCode::SUCCESS)
}
