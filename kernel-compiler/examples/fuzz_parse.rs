//! A mutation fuzz loop over the whole front end (preprocessor, parser, type checker,
//! lowering), without external tooling: it mutates the corpus kernels (byte deletions,
//! duplications, token insertions, splices between files) with a seeded xorshift generator and
//! checks that every build ends with a module or with diagnostics, never with an internal
//! error. Crashing inputs are written to `fuzz-crash-N.cl`.
//!
//! Usage: `cargo run --release -p fpgacl-kernel-compiler --example fuzz_parse -- SECONDS [SEED]`

use fpgacl_kernel_compiler::{build, SourceFile};
use std::time::{Duration, Instant};

const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "*",
    "&",
    "=",
    "+",
    "<<",
    "?",
    ":",
    ".",
    "->",
    "#",
    "##",
    "\n#define X (",
    "\n#if 1\n",
    "\n#endif\n",
    "\n#pragma unroll\n",
    "__attribute__((",
    "float4",
    "int",
    "struct",
    "typedef",
    "__global",
    "__local",
    "channel",
    "pipe",
    "for",
    "while",
    "switch",
    "case 1:",
    "return",
    "goto",
    "sizeof",
    "vec_step",
    ".xyzw",
    ".s0123456789abcdef",
    "0x",
    "1e",
    "'",
    "\"",
    "\\",
    "/*",
    "*/",
    "//",
    "\u{0}",
    "é",
    "9999999999999999999999",
    "read_channel_intel(",
    "write_pipe(",
    "convert_int4_sat_rte(",
    "as_float(",
    "vload16(",
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn mutate(rng: &mut Rng, base: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(v.len() + 1);
        match rng.below(5) {
            0 => {
                let end = (at + rng.below(32)).min(v.len());
                v.drain(at..end);
            }
            1 => {
                let end = (at + rng.below(64)).min(v.len());
                let chunk = v[at..end].to_vec();
                let to = rng.below(v.len() + 1);
                v.splice(to..to, chunk);
            }
            2 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(at..at, t.iter().copied());
            }
            3 => {
                if !other.is_empty() {
                    let s = rng.below(other.len());
                    let e = (s + rng.below(200)).min(other.len());
                    v.splice(at..at, other[s..e].iter().copied());
                }
            }
            _ => {
                if at < v.len() {
                    v[at] = (rng.next() & 0x7f) as u8;
                }
            }
        }
    }
    v
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_f00d);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut corpus = vec![];
    for sub in ["ok", "bad"] {
        if let Ok(rd) = std::fs::read_dir(dir.join(sub)) {
            for e in rd.flatten() {
                if e.path().extension().is_some_and(|x| x == "cl") {
                    corpus.push(std::fs::read(e.path()).unwrap_or_default());
                }
            }
        }
    }
    corpus.sort();
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let (mut runs, mut ok, mut crashes) = (0u64, 0u64, 0u64);
    while start.elapsed() < Duration::from_secs(secs) {
        let a = &corpus[rng.below(corpus.len())];
        let b = &corpus[rng.below(corpus.len())];
        let input = mutate(&mut rng, a, b);
        let text = String::from_utf8_lossy(&input).into_owned();
        let out = build(
            &[SourceFile {
                name: "fuzz.cl".into(),
                text: text.clone(),
            }],
            "",
        )
        .expect("options");
        runs += 1;
        if out.module.is_some() {
            ok += 1;
        }
        let internal = out.log.contains("internal compiler error");
        let silent_failure = out.module.is_none() && out.diagnostics.is_empty();
        if internal || silent_failure {
            crashes += 1;
            let _ = std::fs::write(format!("fuzz-crash-{crashes}.cl"), &text);
            eprintln!("crash #{crashes} (internal={internal}):\n{}", out.log);
        }
    }
    println!(
        "fuzz_parse: {runs} runs in {:.0}s ({ok} compiled, {} rejected with diagnostics), {crashes} crashes, seed {seed}",
        start.elapsed().as_secs_f64(),
        runs - ok - crashes
    );
    if crashes > 0 {
        std::process::exit(1);
    }
}
