//! A libFuzzer-free fuzz loop for the reader: for the given number of seconds (default 600),
//! builds candidate files from random inputs and from mutations of earlier inputs (the same
//! constructions as the cargo-fuzz target, see `fuzzing.rs`), reads each and runs every export
//! over what reads. A panic aborts with the offending input saved to `fuzz_loop_crash.bin`.
//!
//! `cargo run --release -p fpgacl-profile-format --example fuzz_loop -- 600`

use std::time::{Duration, Instant};

use fpgacl_profile_format::fuzzing;

/// xorshift64*: deterministic for a given seed.
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

fn mutate(rng: &mut Rng, input: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        match rng.below(6) {
            0 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] ^= 1 << rng.below(8);
            }
            1 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] = rng.next() as u8;
            }
            2 => {
                let i = rng.below(input.len() + 1);
                input.insert(i, rng.next() as u8);
            }
            3 if !input.is_empty() => {
                let i = rng.below(input.len());
                input.remove(i);
            }
            4 if !input.is_empty() => {
                let i = rng.below(input.len());
                // interesting values: varint markers and boundary bytes
                input[i] = [0, 1, 250, 251, 252, 253, 254, 255][rng.below(8)];
            }
            _ => {
                let n = rng.below(input.len() + 1);
                input.truncate(n);
            }
        }
    }
}

fn main() {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15);
    let mut rng = Rng(seed | 1);
    let deadline = Instant::now() + Duration::from_secs(secs);
    // Pool of inputs: seeds for each construction mode, then kept mutants that were accepted.
    let sample = fuzzing::sample_file(8);
    let mut pool: Vec<Vec<u8>> = (0u8..5)
        .map(|m| {
            let mut v = vec![m];
            v.extend_from_slice(&sample[..sample.len().min(600)]);
            v
        })
        .collect();
    let mut full = vec![0u8];
    full.extend_from_slice(&sample);
    pool.push(full);
    let (mut runs, mut accepted) = (0u64, 0u64);
    let start = Instant::now();
    let mut last_report = Instant::now();
    while Instant::now() < deadline {
        for _ in 0..256 {
            let mut input = pool[rng.below(pool.len())].clone();
            mutate(&mut rng, &mut input);
            let file = fuzzing::file_from_input(&input);
            let res = std::panic::catch_unwind(|| fuzzing::exercise(&file));
            runs += 1;
            match res {
                Ok(true) => {
                    accepted += 1;
                    if pool.len() < 4096 && rng.below(64) == 0 {
                        pool.push(input);
                    }
                }
                Ok(false) => {}
                Err(_) => {
                    let _ = std::fs::write("fuzz_loop_crash.bin", &input);
                    eprintln!(
                        "fuzz_loop: PANIC after {runs} runs; input saved to fuzz_loop_crash.bin"
                    );
                    std::process::exit(1);
                }
            }
        }
        if last_report.elapsed() > Duration::from_secs(60) {
            last_report = Instant::now();
            println!(
                "fuzz_loop: {runs} runs ({accepted} accepted) in {:.0?}",
                start.elapsed()
            );
        }
    }
    println!(
        "fuzz_loop: done, {runs} runs ({accepted} files accepted by the reader), no panic, in {:.0?}",
        start.elapsed()
    );
}
