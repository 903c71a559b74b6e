//! A libFuzzer-free fuzz loop over `.aocx` loading, the path of `clCreateProgramWithBinary`
//! (`compiler::read_binary`: container, Intel-built ELF files, rebuild from the stored sources,
//! link of stored units). Seeds are built from the kernel compiler's corpus (executables from
//! source, compiled objects, linked executables) plus every file of an optional seed folder
//! (e.g. Intel-shaped ELF files). Each iteration picks one construction:
//!
//! * raw byte mutations of a seed (the header and checksum usually reject them);
//! * mutations of the payload with the header's length and CRC-32 fixed up, so the bytes reach
//!   the decoder;
//! * a decoded container whose source text, options or kind is mutated and written again, so the
//!   input reaches the rebuild or the linker.
//!
//! Every load must end with `Ok` or `Err(message)`: a panic is counted as a crash and its input
//! saved to `fuzz-aocx-crash-N.bin`; an input taking longer than 10 s is saved as
//! `fuzz-aocx-slow-N.bin`. Whatever `aocx::read` accepts must re-encode to the same bytes.
//!
//! `cargo run -p fpgacl-runtime --example fuzz_aocx -- SECONDS [SEED] [SEED_DIR]`

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use fpgacl_kernel_compiler::aocx::{self, BinaryKind};
use fpgacl_kernel_compiler::SourceFile;
use fpgacl_runtime::program::compiler;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ";",
    "#include \"x.h\"\n",
    "#pragma unroll 4294967295\n",
    "__attribute__((num_compute_units(4000)))",
    "__attribute__((autorun))",
    "channel int c __attribute__((depth(2000000000)));\n",
    "printf(\"%v4hd %s %\", 1);",
    "-D X=",
    " -I /nonexistent",
    " -cl-std=CL2.0",
    " -g",
    "\u{0}",
    "\u{7f}",
];

fn mutate_bytes(rng: &mut Rng, v: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(v.len() + 1);
        match rng.below(6) {
            0 if at < v.len() => v[at] ^= 1 << rng.below(8),
            1 if at < v.len() => v[at] = rng.next() as u8,
            2 => {
                let end = (at + rng.below(64)).min(v.len());
                v.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(64)).min(v.len());
                let chunk = v[at..end].to_vec();
                let to = rng.below(v.len() + 1);
                v.splice(to..to, chunk);
            }
            4 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(at..at, t.iter().copied());
            }
            _ => {
                // Interesting integers (lengths, counts, varints) at a random place.
                let vals: [u64; 6] = [0, 1, 0xfb, 0xfc, u64::MAX, 1 << 31];
                let x = vals[rng.below(vals.len())].to_le_bytes();
                let n = 1 + rng.below(8);
                for (i, b) in x.iter().take(n).enumerate() {
                    if at + i < v.len() {
                        v[at + i] = *b;
                    }
                }
            }
        }
    }
}

const HEADER_LEN: usize = 24;

/// The bytes with the header's payload length and CRC-32 recomputed.
fn fix_header(mut v: Vec<u8>) -> Vec<u8> {
    if v.len() < HEADER_LEN || !aocx::looks_like_aocx(&v) {
        return v;
    }
    let len = (v.len() - HEADER_LEN) as u64;
    let crc = crc32(&v[HEADER_LEN..]);
    v[12..20].copy_from_slice(&len.to_le_bytes());
    v[20..24].copy_from_slice(&crc.to_le_bytes());
    v
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for b in data {
        crc ^= u32::from(*b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn mutate_text(rng: &mut Rng, s: &str) -> String {
    let mut v = s.as_bytes().to_vec();
    mutate_bytes(rng, &mut v);
    String::from_utf8_lossy(&v).into_owned()
}

/// A decoded container with one field mutated, written again.
fn structural(rng: &mut Rng, seed: &[u8]) -> Option<Vec<u8>> {
    let mut a = aocx::read(seed).ok()?;
    match rng.below(5) {
        0 if !a.sources.files.is_empty() => {
            let i = rng.below(a.sources.files.len());
            let f = &mut a.sources.files[i];
            f.text = mutate_text(rng, &f.text);
        }
        1 => a.options = mutate_text(rng, &a.options),
        2 => {
            a.kind = [
                BinaryKind::Executable,
                BinaryKind::Object,
                BinaryKind::Library,
            ][rng.below(3)]
        }
        3 => {
            if rng.below(2) == 0 {
                a.units.clear();
            } else {
                a.main_files.clear();
            }
        }
        _ => a.board = mutate_text(rng, &a.board),
    }
    Some(aocx::write(&a))
}

fn seeds(extra: Option<&str>) -> Vec<Vec<u8>> {
    let corpus =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernel-compiler/tests/corpus/ok");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    let mut out = Vec::new();
    for p in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
    {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        let src = [SourceFile {
            name: p.file_name().unwrap().to_string_lossy().into_owned(),
            text,
        }];
        if let Ok(b) = compiler::build(&src, "") {
            if let Some(m) = b.module {
                out.push(compiler::write_binary(&m, "", "fpgacl_emu"));
            }
        }
        if let Ok(c) = compiler::compile(&src, "", &[]) {
            if let Some(o) = c.object {
                out.push(compiler::write_units_binary(&o, false, "", "fpgacl_emu"));
                out.push(compiler::write_units_binary(&o, true, "", "fpgacl_emu"));
            }
        }
    }
    if let Some(dir) = extra {
        if let Ok(rd) = std::fs::read_dir(dir) {
            let mut ps: Vec<_> = rd.flatten().map(|e| e.path()).collect();
            ps.sort();
            for p in ps {
                if let Ok(b) = std::fs::read(p) {
                    out.push(b);
                }
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(600);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0xa0c5);
    let seeds = seeds(args.get(3).map(String::as_str));
    assert!(!seeds.is_empty(), "no seeds");
    eprintln!("fuzz_aocx: {} seeds", seeds.len());
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let (mut runs, mut loaded, mut crashes, mut slow) = (0u64, 0u64, 0u64, 0u64);
    let mut longest = Duration::ZERO;
    let mut per_mode = [0u64; 3];
    while start.elapsed() < Duration::from_secs(secs) {
        let base = &seeds[rng.below(seeds.len())];
        let mode = rng.below(3);
        let input = match mode {
            0 => {
                let mut v = base.clone();
                mutate_bytes(&mut rng, &mut v);
                v
            }
            1 if aocx::looks_like_aocx(base) && base.len() > HEADER_LEN => {
                let mut v = base.clone();
                let mut payload = v.split_off(HEADER_LEN);
                mutate_bytes(&mut rng, &mut payload);
                v.extend_from_slice(&payload);
                fix_header(v)
            }
            _ => match structural(&mut rng, base) {
                Some(v) => v,
                None => {
                    let mut v = base.clone();
                    mutate_bytes(&mut rng, &mut v);
                    v
                }
            },
        };
        per_mode[mode] += 1;
        let t = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| {
            if let Ok(a) = aocx::read(&input) {
                // Compared as bytes: a stored float literal may be a NaN (NaN != NaN).
                let bytes = aocx::write(&a);
                let again = aocx::read(&bytes).expect("re-encoded container reads");
                assert!(aocx::write(&again) == bytes, "re-encoded container differs");
            }
            compiler::read_binary(&input).is_ok()
        }));
        let took = t.elapsed();
        longest = longest.max(took);
        runs += 1;
        match result {
            Ok(true) => loaded += 1,
            Ok(false) => {}
            Err(e) => {
                crashes += 1;
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                eprintln!("crash #{crashes}: {msg}");
                let _ = std::fs::write(format!("fuzz-aocx-crash-{crashes}.bin"), &input);
            }
        }
        if took > Duration::from_secs(10) {
            slow += 1;
            eprintln!("slow input #{slow}: {:.1}s", took.as_secs_f64());
            let _ = std::fs::write(format!("fuzz-aocx-slow-{slow}.bin"), &input);
        }
    }
    println!(
        "fuzz_aocx: {runs} runs in {:.0}s ({loaded} loaded, {} rejected with a message; \
         raw/payload/structural {}/{}/{}), {crashes} crashes, {slow} slower than 10 s \
         (longest {:.2}s), seed {seed}",
        start.elapsed().as_secs_f64(),
        runs - loaded - crashes,
        per_mode[0],
        per_mode[1],
        per_mode[2],
        longest.as_secs_f64()
    );
    if crashes > 0 || slow > 0 {
        std::process::exit(1);
    }
}
