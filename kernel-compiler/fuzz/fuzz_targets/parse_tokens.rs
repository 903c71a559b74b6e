//! Structure-aware variant of `parse`: the same uncaught front end, with a mutator that edits
//! valid kernels token by token (delete, duplicate, move or swap token runs, insert OpenCL
//! tokens, replace an identifier by another one of the input) so that mutants stay close to
//! real code and reach the type checker and lowering, not just the parser's error paths.
//! Half of the mutations still go through libFuzzer's byte-level mutator.
#![no_main]
use libfuzzer_sys::{fuzz_mutator, fuzz_target};

#[path = "common/pipeline.rs"]
mod pipeline;

fuzz_target!(|data: &[u8]| pipeline::run(data));

/// Tokens worth inserting: keywords, qualifiers, punctuators and common builtins.
const INSERT: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "=",
    "*",
    "&",
    ".",
    "->",
    "?",
    ":",
    "...",
    "+",
    "-",
    "<<",
    ">>=",
    "++",
    "--",
    "!",
    "~",
    "sizeof",
    "vec_step",
    "int",
    "uint",
    "float",
    "float4",
    "double",
    "half",
    "char16",
    "ulong8",
    "bool",
    "void",
    "size_t",
    "struct",
    "union",
    "enum",
    "typedef",
    "const",
    "volatile",
    "restrict",
    "static",
    "inline",
    "__kernel",
    "kernel",
    "__global",
    "__local",
    "__constant",
    "__private",
    "read_only",
    "write_only",
    "pipe",
    "channel",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "goto",
    "__attribute__((",
    "reqd_work_group_size(1,1,1)",
    "depth(4)",
    "))",
    "#pragma unroll",
    "\n",
    "0",
    "1",
    "-1",
    "0x7fffffff",
    "2147483648",
    "1e308",
    "1.0f",
    "'a'",
    "\"s\"",
    ".xyzw",
    ".s0123456789abcdef",
    ".lo",
    ".hi",
    ".even",
    ".odd",
    "get_global_id(0)",
    "barrier",
    "read_channel_intel",
    "write_channel_intel",
    "read_pipe",
    "write_pipe",
    "convert_int4_sat",
    "as_float",
    "vload4",
    "vstore_half",
    "atomic_add",
    "printf",
    "async_work_group_copy",
    "__fpga_reg",
    "mem_fence(CLK_CHANNEL_MEM_FENCE)",
];

/// Splits text into tokens (identifier/number runs, single punctuation, whitespace runs).
fn tokens(s: &[u8]) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_' || s[i] == b'.') {
                i += 1;
            }
        } else if c.is_ascii_whitespace() {
            while i < s.len() && s[i].is_ascii_whitespace() {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// xorshift64*: deterministic per seed, as libFuzzer requires.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn token_mutate(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let toks = tokens(input);
    let n = toks.len();
    let piece = |a: usize, b: usize| -> &[u8] {
        if a >= b {
            &[]
        } else {
            &input[toks[a].0..toks[b - 1].1]
        }
    };
    let a = rng.below(n + 1);
    let len = 1 + rng.below(8.min(n.max(1)));
    let b = (a + len).min(n);
    let mut out = Vec::with_capacity(input.len() + 64);
    match rng.below(6) {
        0 => {
            // delete a run
            out.extend_from_slice(piece(0, a));
            out.extend_from_slice(piece(b, n));
        }
        1 => {
            // duplicate a run
            out.extend_from_slice(piece(0, b));
            out.extend_from_slice(piece(a, b));
            out.extend_from_slice(piece(b, n));
        }
        2 => {
            // move a run elsewhere
            let run = piece(a, b).to_vec();
            let mut rest = piece(0, a).to_vec();
            rest.extend_from_slice(piece(b, n));
            let rt = tokens(&rest);
            let at = if rt.is_empty() {
                0
            } else {
                rt[rng.below(rt.len())].0
            };
            out.extend_from_slice(&rest[..at]);
            out.extend_from_slice(&run);
            out.push(b' ');
            out.extend_from_slice(&rest[at..]);
        }
        3 => {
            // insert a token
            out.extend_from_slice(piece(0, a));
            out.push(b' ');
            out.extend_from_slice(INSERT[rng.below(INSERT.len())].as_bytes());
            out.push(b' ');
            out.extend_from_slice(piece(a, n));
        }
        4 => {
            // replace a token by another token of the input
            if n == 0 {
                return input.to_vec();
            }
            let at = rng.below(n);
            let from = toks[rng.below(n)];
            out.extend_from_slice(piece(0, at));
            out.extend_from_slice(&input[from.0..from.1]);
            out.extend_from_slice(piece(at + 1, n));
        }
        _ => {
            // swap two single tokens
            if n < 2 {
                return input.to_vec();
            }
            let (mut x, mut y) = (rng.below(n), rng.below(n));
            if x > y {
                std::mem::swap(&mut x, &mut y);
            }
            if x == y {
                return input.to_vec();
            }
            out.extend_from_slice(piece(0, x));
            out.extend_from_slice(piece(y, y + 1));
            out.extend_from_slice(piece(x + 1, y));
            out.extend_from_slice(piece(x, x + 1));
            out.extend_from_slice(piece(y + 1, n));
        }
    }
    out
}

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng(u64::from(seed) | 1 << 40);
    if rng.below(2) == 0 {
        return libfuzzer_sys::fuzzer_mutate(data, size, max_size);
    }
    let mut out = data[..size].to_vec();
    for _ in 0..1 + rng.below(3) {
        out = token_mutate(&out, &mut rng);
    }
    if out.len() > max_size {
        out.truncate(max_size);
    }
    data[..out.len()].copy_from_slice(&out);
    out.len()
});
