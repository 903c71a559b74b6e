//! OpenCL C 1.2 operator and built-in families over every integer type (char .. ulong) and
//! vector width (1, 2, 3, 4, 8, 16), compiled from OpenCL C and run through the device model,
//! each result checked lane by lane against a reference computed here from the specification
//! (issue 14 item 3: integer division and compound assignment, abs/abs_diff/add_sat/sub_sat/
//! hadd/rhadd/mad_hi/mul_hi/rotate/clz, geometric functions without overflow, shuffle/shuffle2,
//! as_type, swizzles and hi/lo/even/odd).

mod timing_util;

use fpgacl_device_model::*;
use std::sync::Arc;
use timing_util::compile;

/// An element type: OpenCL C name, size in bytes, signedness (floats are compared as bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ty {
    name: &'static str,
    bytes: usize,
    signed: bool,
    float: bool,
}

const fn int(name: &'static str, bytes: usize, signed: bool) -> Ty {
    Ty {
        name,
        bytes,
        signed,
        float: false,
    }
}

const INTS: [Ty; 8] = [
    int("char", 1, true),
    int("uchar", 1, false),
    int("short", 2, true),
    int("ushort", 2, false),
    int("int", 4, true),
    int("uint", 4, false),
    int("long", 8, true),
    int("ulong", 8, false),
];
const FLOAT: Ty = Ty {
    name: "float",
    bytes: 4,
    signed: true,
    float: true,
};
const DOUBLE: Ty = Ty {
    name: "double",
    bytes: 8,
    signed: true,
    float: true,
};
const WIDTHS: [usize; 6] = [1, 2, 3, 4, 8, 16];

impl Ty {
    fn bits(self) -> u32 {
        self.bytes as u32 * 8
    }
    /// Wraps `v` to the type (two's complement).
    fn wrap(self, v: i128) -> i128 {
        let m = 1i128 << self.bits();
        let x = v.rem_euclid(m);
        if self.signed && x >= m / 2 {
            x - m
        } else {
            x
        }
    }
    fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }
    fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }
    fn unsigned(self) -> Ty {
        INTS.iter()
            .copied()
            .find(|t| t.bytes == self.bytes && !t.signed)
            .unwrap()
    }
    fn put(self, v: i128, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.wrap(v) as u128).to_le_bytes()[..self.bytes]);
    }
    fn get(self, b: &[u8]) -> i128 {
        let mut w = [0u8; 16];
        w[..self.bytes].copy_from_slice(&b[..self.bytes]);
        self.wrap(u128::from_le_bytes(w) as i128)
    }
    fn vec(self, w: usize) -> String {
        if w == 1 {
            self.name.to_string()
        } else {
            format!("{}{w}", self.name)
        }
    }
}

/// Deterministic pseudo-random numbers (64-bit LCG, high bits).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = self.0;
        (x >> 32) ^ (x << 32) ^ (x >> 17)
    }
    /// A lane value: special values (0, 1, -1, MIN, MAX, ...) a quarter of the time.
    fn lane(&mut self, t: Ty) -> i128 {
        let r = self.next();
        let special = [0, 1, -1, 2, t.min(), t.max(), t.min() + 1, t.max() - 1];
        if r.is_multiple_of(4) {
            t.wrap(special[(r >> 8) as usize % special.len()])
        } else {
            t.wrap(self.next() as i128)
        }
    }
}

const N: usize = 64;

/// Runs kernel `name` of `src` over `N` work-items with the given buffers (bytes), returning
/// every buffer's bytes afterwards.
fn run(src: &str, name: &str, bufs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let module = compile(src);
    let k = module
        .kernels
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no kernel {name}")) as u32;
    let inst = ProgramInstance::new(module, &Board::default_board(), ExecConfig::default())
        .expect("decodes");
    run_on(&inst, k, bufs)
}

fn run_on(inst: &ProgramInstance, k: u32, bufs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mems: Vec<Arc<DeviceMemory>> = bufs
        .iter()
        .map(|b| {
            let m = DeviceMemory::new(b.len().max(1)).unwrap();
            m.write(0, b).unwrap();
            Arc::new(m)
        })
        .collect();
    let args = mems.iter().map(ArgBinding::buffer).collect();
    inst.run(&LaunchSpec::ndrange_1d(k, N as u64, Some(16), args))
        .unwrap_or_else(|e| panic!("kernel {k} faulted: {e}"));
    mems.iter()
        .zip(bufs)
        .map(|(m, b)| {
            let mut v = vec![0u8; b.len()];
            m.read(0, &mut v).unwrap();
            v
        })
        .collect()
}

fn kernel_index(inst: &ProgramInstance, name: &str) -> u32 {
    inst.module()
        .kernels
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no kernel {name}")) as u32
}

/// `T x = P[i];` for a buffer of `w`-lane values of `t` (`vload3` for 3 lanes, packed).
fn load(w: usize, p: &str) -> String {
    if w == 3 {
        format!("vload3(i, {p})")
    } else {
        format!("{p}[i]")
    }
}

/// Stores `v` as the `i`-th `w`-lane value of `p`.
fn store(w: usize, p: &str, v: &str) -> String {
    if w == 3 {
        format!("vstore3({v}, i, {p});")
    } else {
        format!("{p}[i] = {v};")
    }
}

/// The pointer parameter type of a buffer of `w`-lane values (scalar pointer for 3 lanes).
fn ptr(t: Ty, w: usize) -> String {
    if w == 3 {
        t.name.to_string()
    } else {
        t.vec(w)
    }
}

type IntRef = fn(Ty, i128, i128, i128) -> Option<i128>;

/// Operators and compound assignments: (kernel suffix, statement computing `r` from a, b;
/// `M` stands for the output element in memory), reference per lane (None: unspecified).
fn arith_ops(w: usize) -> Vec<(&'static str, String, IntRef)> {
    // Shift counts use the low log2(N) bits, N the width of the promoted left operand (a
    // scalar char or short is promoted to int, OpenCL C 1.2 6.3 j).
    let mut v: Vec<(&'static str, String, IntRef)> = vec![
        ("add", "r = a + b;".into(), |t, a, b, _| Some(t.wrap(a + b))),
        ("sub", "r = a - b;".into(), |t, a, b, _| Some(t.wrap(a - b))),
        ("mul", "r = a * b;".into(), |t, a, b, _| {
            Some(t.wrap(a.wrapping_mul(b)))
        }),
        ("div", "r = a / b;".into(), div_ref),
        ("rem", "r = a % b;".into(), rem_ref),
        ("and", "r = a & b;".into(), |_, a, b, _| Some(a & b)),
        ("or", "r = a | b;".into(), |_, a, b, _| Some(a | b)),
        ("xor", "r = a ^ b;".into(), |_, a, b, _| Some(a ^ b)),
        ("divassign", "r = a; r /= b;".into(), div_ref),
        ("remassign", "r = a; r %= b;".into(), rem_ref),
        ("mulassign", "r = a; r *= b;".into(), |t, a, b, _| {
            Some(t.wrap(a.wrapping_mul(b)))
        }),
        ("subassign", "r = a; r -= b;".into(), |t, a, b, _| {
            Some(t.wrap(a - b))
        }),
        ("not", "r = ~a;".into(), |t, a, _, _| Some(t.wrap(!a))),
        ("neg", "r = -a;".into(), |t, a, _, _| Some(t.wrap(-a))),
    ];
    if w == 1 {
        v.push(("shl", "r = a << b;".into(), |t, a, b, _| {
            let n = t.bits().max(32) as i128;
            Some(t.wrap(a << (b.rem_euclid(1 << 64) % n)))
        }));
        v.push(("shr", "r = a >> b;".into(), |t, a, b, _| {
            let n = t.bits().max(32) as i128;
            Some(t.wrap(a >> (b.rem_euclid(1 << 64) % n)))
        }));
    } else {
        v.push(("shl", "r = a << b;".into(), |t, a, b, _| {
            Some(t.wrap(a << (b.rem_euclid(1 << 64) % t.bits() as i128)))
        }));
        v.push(("shr", "r = a >> b;".into(), |t, a, b, _| {
            Some(t.wrap(a >> (b.rem_euclid(1 << 64) % t.bits() as i128)))
        }));
    }
    if w != 3 {
        // Compound assignment to an element in global memory.
        v.push(("memdiv", "O[i] = a; O[i] /= b; r = O[i];".into(), div_ref));
        v.push(("memrem", "O[i] = a; O[i] %= b; r = O[i];".into(), rem_ref));
    }
    v
}

/// The high half of the full product (floor division by 2^bits, exact in 128 bits).
fn mul_hi(t: Ty, a: i128, b: i128) -> i128 {
    if t.signed {
        t.wrap((a * b) >> t.bits())
    } else {
        t.wrap(((a as u128).wrapping_mul(b as u128) >> t.bits()) as i128)
    }
}

fn div_ref(t: Ty, a: i128, b: i128, _: i128) -> Option<i128> {
    (b != 0 && !(t.signed && a == t.min() && b == -1)).then(|| t.wrap(a / b))
}

fn rem_ref(t: Ty, a: i128, b: i128, _: i128) -> Option<i128> {
    (b != 0 && !(t.signed && a == t.min() && b == -1)).then(|| t.wrap(a % b))
}

/// Integer built-ins (OpenCL C 1.2 6.12.3): (name, call, result unsigned?, reference).
fn int_fns() -> Vec<(&'static str, &'static str, bool, IntRef)> {
    vec![
        ("abs", "abs(a)", true, |t, a, _, _| {
            Some(t.unsigned().wrap(a.abs()))
        }),
        ("abs_diff", "abs_diff(a, b)", true, |t, a, b, _| {
            Some(t.unsigned().wrap((a - b).abs()))
        }),
        ("add_sat", "add_sat(a, b)", false, |t, a, b, _| {
            Some((a + b).clamp(t.min(), t.max()))
        }),
        ("sub_sat", "sub_sat(a, b)", false, |t, a, b, _| {
            Some((a - b).clamp(t.min(), t.max()))
        }),
        ("hadd", "hadd(a, b)", false, |_, a, b, _| Some((a + b) >> 1)),
        ("rhadd", "rhadd(a, b)", false, |_, a, b, _| {
            Some((a + b + 1) >> 1)
        }),
        ("mul_hi", "mul_hi(a, b)", false, |t, a, b, _| {
            Some(mul_hi(t, a, b))
        }),
        ("mad_hi", "mad_hi(a, b, c)", false, |t, a, b, c| {
            Some(t.wrap(mul_hi(t, a, b) + c))
        }),
        ("rotate", "rotate(a, b)", false, |t, a, b, _| {
            let bits = t.bits();
            let s = (b.rem_euclid(1i128 << 64) % bits as i128) as u32;
            let u = t.unsigned().wrap(a) as u128;
            let mask = if bits == 128 {
                u128::MAX
            } else {
                (1u128 << bits) - 1
            };
            let r = if s == 0 {
                u
            } else {
                ((u << s) | (u >> (bits - s))) & mask
            };
            Some(t.wrap(r as i128))
        }),
        ("clz", "clz(a)", false, |t, a, _, _| {
            let u = t.unsigned().wrap(a) as u128;
            Some((u.leading_zeros() - (128 - t.bits())) as i128)
        }),
        ("popcount", "popcount(a)", false, |t, a, _, _| {
            Some((t.unsigned().wrap(a) as u128).count_ones() as i128)
        }),
        ("max", "max(a, b)", false, |_, a, b, _| Some(a.max(b))),
        ("min", "min(a, b)", false, |_, a, b, _| Some(a.min(b))),
    ]
}

/// Inputs a, b, c of one (type, width): random lanes; b gets zeros and -1 so divisions by zero
/// and MIN / -1 occur in the same launch as ordinary lanes.
fn inputs(t: Ty, w: usize, seed: u64) -> [Vec<i128>; 3] {
    let mut r = Rng(seed ^ (t.bytes as u64) << 8 ^ w as u64);
    let n = N * w;
    let a: Vec<i128> = (0..n).map(|_| r.lane(t)).collect();
    let mut b: Vec<i128> = (0..n).map(|_| r.lane(t)).collect();
    let c: Vec<i128> = (0..n).map(|_| r.lane(t)).collect();
    for (k, x) in b.iter_mut().enumerate() {
        match k % 11 {
            3 => *x = 0,
            7 => *x = t.wrap(-1),
            _ => {}
        }
    }
    // 0xff..f / 0xff..f and 1 / 1 (the conformance suite's failing elements).
    b[5] = t.wrap(-1);
    let mut a = a;
    a[5] = t.wrap(-1);
    a[6] = 1;
    b[6] = 1;
    [a, b, c]
}

fn bytes_of(t: Ty, v: &[i128]) -> Vec<u8> {
    let mut out = vec![];
    for x in v {
        t.put(*x, &mut out);
    }
    out
}

#[test]
fn integer_operators_and_functions_over_all_types_and_widths() {
    let mut failures = vec![];
    let mut checked = 0usize;
    for t in INTS {
        for w in WIDTHS {
            let tv = t.vec(w);
            let ut = t.unsigned();
            let mut src = String::new();
            let ops = arith_ops(w);
            for (name, stmt, _) in &ops {
                let p = ptr(t, w);
                src += &format!(
                    "__kernel void op_{name}(__global {p} *A, __global {p} *B, __global {p} *C, __global {p} *O) {{\n\
                     int i = get_global_id(0);\n {tv} a = {}, b = {}, c = {}; {tv} r;\n {stmt}\n {}\n}}\n",
                    load(w, "A"),
                    load(w, "B"),
                    load(w, "C"),
                    store(w, "O", "r"),
                );
            }
            let fns = int_fns();
            for (name, call, uns, _) in &fns {
                let p = ptr(t, w);
                let (rt, op) = if *uns {
                    (ut.vec(w), ptr(ut, w))
                } else {
                    (tv.clone(), p.clone())
                };
                // clz and popcount return the argument type.
                src += &format!(
                    "__kernel void fn_{name}(__global {p} *A, __global {p} *B, __global {p} *C, __global {op} *O) {{\n\
                     int i = get_global_id(0);\n {tv} a = {}, b = {}, c = {};\n {rt} r = {call};\n {}\n}}\n",
                    load(w, "A"),
                    load(w, "B"),
                    load(w, "C"),
                    store(w, "O", "r"),
                );
            }
            let module = compile(&src);
            let inst = ProgramInstance::new(module, &Board::default_board(), ExecConfig::default())
                .expect("decodes");
            let [a, b, c] = inputs(t, w, 0x5eed);
            let bufs = vec![
                bytes_of(t, &a),
                bytes_of(t, &b),
                bytes_of(t, &c),
                vec![0u8; N * w * t.bytes],
            ];
            let mut check = |kname: String, rt: Ty, f: IntRef| {
                let k = kernel_index(&inst, &kname);
                let out = run_on(&inst, k, &bufs);
                for l in 0..N * w {
                    let got = rt.get(&out[3][l * rt.bytes..]);
                    if let Some(want) = f(t, a[l], b[l], c[l]) {
                        checked += 1;
                        if rt.wrap(want) != got && failures.len() < 40 {
                            failures.push(format!(
                                "{tv} {kname} lane {l}: a={:#x} b={:#x} c={:#x}: want {:#x} got {:#x}",
                                a[l],
                                b[l],
                                c[l],
                                rt.wrap(want),
                                got
                            ));
                        }
                    }
                }
            };
            for (name, _, f) in &ops {
                check(format!("op_{name}"), t, *f);
            }
            for (name, _, uns, f) in &fns {
                check(format!("fn_{name}"), if *uns { ut } else { t }, *f);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 8 types x 6 widths x 64 items x ~29 functions, minus the unspecified divisions.
    assert!(checked > 8 * 21 * N * 25, "only {checked} lanes checked");
}

/// `sqrt(sum v[i]^2)` in double without overflow or underflow: the lanes scaled exactly by a
/// power of two near the largest, a repeated hypot, the result scaled back (one rounding).
fn ref_length(v: &[f64]) -> f64 {
    let (s, inv) = ref_scale(v);
    v.iter().fold(0f64, |acc, x| acc.hypot(x * s * s)) * inv * inv
}

/// `normalize` from the same exactly scaled lanes.
fn ref_normalize(v: &[f64]) -> Vec<f64> {
    let (s, _) = ref_scale(v);
    let w: Vec<f64> = v.iter().map(|x| x * s * s).collect();
    let l = w.iter().fold(0f64, |acc, x| acc.hypot(*x));
    w.iter()
        .map(|x| if l == 0.0 { *x } else { x / l })
        .collect()
}

/// (s, 1/s) with s * s * max|v| in [1, 2) (s a power of two, applied twice so it stays finite).
fn ref_scale(v: &[f64]) -> (f64, f64) {
    let m = v.iter().fold(0f64, |m, x| m.max(x.abs()));
    if m == 0.0 || !m.is_finite() {
        return (1.0, 1.0);
    }
    let e = m.log2().floor() as i32;
    (2f64.powi(-e / 2 - e % 2), 2f64.powi(e / 2 + e % 2))
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want.is_infinite() || want == 0.0 {
        return got == want;
    }
    ((got - want) / want).abs() <= rel
}

#[test]
fn geometric_functions_do_not_overflow_or_underflow() {
    // (element type, its relative tolerance, a huge and a tiny magnitude)
    let cases = [
        (FLOAT, 4e-7, 2f64.powi(100), f32::from_bits(1) as f64),
        (DOUBLE, 2e-15, 2f64.powi(512), f64::from_bits(1)),
    ];
    let mut failures = vec![];
    for (t, rel, huge, tiny) in cases {
        for w in [1usize, 2, 3, 4] {
            let tv = t.vec(w);
            let p = ptr(t, w);
            let src = format!(
                "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
                 __kernel void geo(__global {p} *A, __global {p} *B, __global {n} *L, __global {n} *D, __global {p} *U) {{\n\
                 int i = get_global_id(0);\n {tv} a = {}, b = {};\n\
                 L[i] = length(a); D[i] = distance(a, b);\n {}\n}}\n",
                load(w, "A"),
                load(w, "B"),
                store(w, "U", "normalize(a)"),
                n = t.name
            );
            let mut r = Rng(99 + w as u64);
            let mut a = vec![0f64; N * w];
            let mut b = vec![0f64; N * w];
            for i in 0..N {
                for l in 0..w {
                    let u = (r.next() % 2001) as f64 / 1000.0 - 1.0;
                    let v = (r.next() % 2001) as f64 / 1000.0 - 1.0;
                    // item kinds: huge, tiny, ordinary, one huge lane, zero
                    let (x, y) = match i % 5 {
                        0 => (u * huge, v * huge),
                        1 => (((l + 1) as f64) * tiny, tiny),
                        2 => (u, v),
                        3 => (if l == 0 { huge } else { u }, -huge * 0.5),
                        _ => (0.0, 0.0),
                    };
                    a[i * w + l] = x;
                    b[i * w + l] = y;
                }
            }
            let enc = |v: &[f64]| -> Vec<u8> {
                let mut out = vec![];
                for x in v {
                    if t.float && t.bytes == 4 {
                        out.extend_from_slice(&(*x as f32).to_le_bytes());
                    } else {
                        out.extend_from_slice(&x.to_le_bytes());
                    }
                }
                out
            };
            let dec = |b: &[u8], i: usize| -> f64 {
                if t.bytes == 4 {
                    f32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap()) as f64
                } else {
                    f64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap())
                }
            };
            // The inputs as the device sees them (rounded to float).
            let a: Vec<f64> = (0..a.len()).map(|i| dec(&enc(&a), i)).collect();
            let b: Vec<f64> = (0..b.len()).map(|i| dec(&enc(&b), i)).collect();
            let out = run(
                &src,
                "geo",
                &[
                    enc(&a),
                    enc(&b),
                    vec![0; N * t.bytes],
                    vec![0; N * t.bytes],
                    vec![0; N * w * t.bytes],
                ],
            );
            let fit = |x: f64| if t.bytes == 4 { x as f32 as f64 } else { x };
            for i in 0..N {
                let av = &a[i * w..i * w + w];
                let dv: Vec<f64> = (0..w).map(|l| fit(av[l] - b[i * w + l])).collect();
                let len = fit(ref_length(av));
                let dist = fit(ref_length(&dv));
                if !close(dec(&out[2], i), len, rel) {
                    failures.push(format!(
                        "{tv} length({av:?}) = {} want {len}",
                        dec(&out[2], i)
                    ));
                }
                if !close(dec(&out[3], i), dist, rel) {
                    failures.push(format!(
                        "{tv} distance item {i} = {} want {dist}",
                        dec(&out[3], i)
                    ));
                }
                let un = ref_normalize(av);
                for (k, x) in un.iter().enumerate() {
                    let want = fit(*x);
                    let got = dec(&out[4], i * w + k);
                    let ok = if want.abs() < 1e-30 {
                        got.abs() < 1e-6
                    } else {
                        close(got, want, rel * 4.0)
                    };
                    if !ok {
                        failures.push(format!("{tv} normalize({av:?})[{k}] = {got} want {want}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// All element types for the data-movement families (compared as bytes).
fn all_types() -> Vec<Ty> {
    let mut v = INTS.to_vec();
    v.push(FLOAT);
    v.push(DOUBLE);
    v
}

/// `n` random elements of `t` as bytes (finite values for floats).
fn random_elems(t: Ty, n: usize, r: &mut Rng) -> Vec<u8> {
    let mut out = vec![];
    for _ in 0..n {
        let x = r.next();
        if t.float && t.bytes == 4 {
            out.extend_from_slice(&((x % 100_000) as f32 / 7.0 - 5000.0).to_le_bytes());
        } else if t.float {
            out.extend_from_slice(&((x % 1_000_000) as f64 / 7.0 - 5e4).to_le_bytes());
        } else {
            out.extend_from_slice(&x.to_le_bytes()[..t.bytes]);
        }
    }
    out
}

#[test]
fn shuffle_and_shuffle2_over_all_types_and_widths() {
    let ws = [2usize, 4, 8, 16];
    let mut failures = vec![];
    for t in all_types() {
        let ut = t.unsigned_for_mask();
        let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        for m in ws {
            for n in ws {
                let (x, mk, o) = (t.vec(m), ut.vec(n), t.vec(n));
                src += &format!(
                    "__kernel void s_{m}_{n}(__global {x} *X, __global {x} *Y, __global {mk} *M, __global {o} *O) {{\n\
                     int i = get_global_id(0); O[i] = shuffle(X[i], M[i]);\n}}\n\
                     __kernel void d_{m}_{n}(__global {x} *X, __global {x} *Y, __global {mk} *M, __global {o} *O) {{\n\
                     int i = get_global_id(0); O[i] = shuffle2(X[i], Y[i], M[i]);\n}}\n"
                );
            }
        }
        let module = compile(&src);
        let inst = ProgramInstance::new(module, &Board::default_board(), ExecConfig::default())
            .expect("decodes");
        let mut r = Rng(7 + t.bytes as u64);
        for m in ws {
            for n in ws {
                let x = random_elems(t, N * m, &mut r);
                let y = random_elems(t, N * m, &mut r);
                // Full-range mask values: only the low bits select (OpenCL C 1.2 6.12.12).
                let mask = random_elems(ut, N * n, &mut r);
                for two in [false, true] {
                    let name = format!("{}_{m}_{n}", if two { "d" } else { "s" });
                    let k = kernel_index(&inst, &name);
                    let out = run_on(
                        &inst,
                        k,
                        &[x.clone(), y.clone(), mask.clone(), vec![0; N * n * t.bytes]],
                    );
                    let es = t.bytes;
                    for i in 0..N {
                        for l in 0..n {
                            let mv = ut.get(&mask[(i * n + l) * es..]) as u128 as usize;
                            let sel = mv % if two { 2 * m } else { m };
                            let want = if sel < m {
                                &x[(i * m + sel) * es..(i * m + sel + 1) * es]
                            } else {
                                &y[(i * m + sel - m) * es..(i * m + sel - m + 1) * es]
                            };
                            let got = &out[3][(i * n + l) * es..(i * n + l + 1) * es];
                            if want != got && failures.len() < 20 {
                                failures.push(format!(
                                    "{name} {} item {i} lane {l}: mask {mv} want {want:?} got {got:?}",
                                    t.name
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

impl Ty {
    /// The unsigned integer type of the same size (the mask type of shuffle).
    fn unsigned_for_mask(self) -> Ty {
        INTS.iter()
            .copied()
            .find(|u| u.bytes == self.bytes && !u.signed)
            .unwrap()
    }
}

#[test]
fn as_type_reinterprets_bytes_including_3_and_4_lanes() {
    let mut failures = vec![];
    let mut pairs = 0;
    let size = |t: Ty, w: usize| t.bytes * if w == 3 { 4 } else { w };
    for from in all_types() {
        let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
        let mut list = vec![];
        for fw in WIDTHS {
            for to in all_types() {
                for tw in WIDTHS {
                    if size(from, fw) != size(to, tw) || (from == to && fw == tw) {
                        continue;
                    }
                    let name = format!("as_{}{fw}_{}{tw}", from.name, to.name);
                    src += &format!(
                        "__kernel void {name}(__global {} *A, __global {} *O) {{\n\
                         int i = get_global_id(0); {} r = as_{}({});\n {}\n}}\n",
                        ptr(from, fw),
                        ptr(to, tw),
                        to.vec(tw),
                        to.vec(tw),
                        load(fw, "A"),
                        store(tw, "O", "r")
                    );
                    list.push((name, fw, to, tw));
                }
            }
        }
        let module = compile(&src);
        let inst = ProgramInstance::new(module, &Board::default_board(), ExecConfig::default())
            .expect("decodes");
        let mut r = Rng(31 + from.bytes as u64);
        for (name, fw, to, tw) in list {
            pairs += 1;
            let a = random_elems(from, N * fw, &mut r);
            let out = run_on(
                &inst,
                kernel_index(&inst, &name),
                &[a.clone(), vec![0; N * tw * to.bytes]],
            );
            // The bytes both sides hold (a 3-lane side holds 3 elements, packed).
            let (fb, tb) = (fw * from.bytes, tw * to.bytes);
            let cmp = fb.min(tb);
            for i in 0..N {
                if a[i * fb..i * fb + cmp] != out[1][i * tb..i * tb + cmp] {
                    failures.push(format!("{name} item {i}"));
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(pairs > 300, "{pairs} pairs");
}

/// Lane names of `.sN` notation (mixed case, as both are valid).
fn s_name(l: usize, upper: bool) -> char {
    let c = char::from_digit(l as u32, 16).unwrap();
    if upper {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

#[test]
fn swizzles_and_hi_lo_even_odd_as_rvalues_and_lvalues() {
    let mut failures = vec![];
    for t in all_types() {
        for w in [2usize, 3, 4, 8, 16] {
            let tv = t.vec(w);
            let half = if w == 3 { 2 } else { w / 2 };
            let hv = t.vec(half);
            let mut r = Rng(1000 + w as u64 * 17 + t.bytes as u64);
            // A random permutation of the lanes.
            let mut perm: Vec<usize> = (0..w).collect();
            for k in (1..w).rev() {
                perm.swap(k, r.next() as usize % (k + 1));
            }
            let sw: String = perm
                .iter()
                .enumerate()
                .map(|(k, &l)| s_name(l, k % 2 == 1))
                .collect();
            let xyzw = if w <= 4 {
                let names = ['x', 'y', 'z', 'w'];
                perm.iter().map(|&l| names[l]).collect::<String>()
            } else {
                String::new()
            };
            // Output layout per item (elements): perm(w) | hi lo even odd (4 x half) |
            // lvalue perm (w) | lvalue hi/odd (w) | xyzw or perm again (w)
            let per = 4 * w + 4 * half;
            let st = |v: &str, n: usize, off: usize| -> String {
                if n == 1 {
                    format!("o[i * {per} + {off}] = {v};")
                } else {
                    format!("vstore{n}({v}, 0, o + i * {per} + {off});")
                }
            };
            let mut body = String::new();
            body += &st(&format!("a.s{sw}"), w, 0);
            for (k, f) in ["hi", "lo", "even", "odd"].iter().enumerate() {
                body += &format!("{{ {hv} h = a.{f}; {} }}\n", st("h", half, w + k * half));
            }
            // lvalues: t.s<perm> = a; u.hi = a.lo; u.odd = b.even (b = a reversed)
            body += &format!(
                "{{ {tv} t = ({tv})(0); t.s{sw} = a; {} }}\n",
                st("t", w, w + 4 * half)
            );
            // (a 3-lane vector's .hi and .odd name its undefined 4th lane: not assigned here)
            let assign = if w == 3 {
                "u.even = a.lo; u.s1 = u.s0;"
            } else {
                "u.hi = a.lo; u.odd = u.even;"
            };
            body += &format!(
                "{{ {tv} u = a; {assign} {} }}\n",
                st("u", w, 2 * w + 4 * half)
            );
            let third = if xyzw.is_empty() {
                format!("a.S{}", sw.to_ascii_uppercase())
            } else {
                format!("a.{xyzw}")
            };
            body += &st(&third, w, 3 * w + 4 * half);
            let src = format!(
                "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
                 __kernel void sw(__global {} *A, __global {} *o) {{\n int i = get_global_id(0);\n {tv} a = {};\n{body}}}\n",
                ptr(t, w),
                t.name,
                load(w, "A")
            );
            let a = random_elems(t, N * w, &mut r);
            let out = run(&src, "sw", &[a.clone(), vec![0; N * per * t.bytes]]);
            let es = t.bytes;
            let el = |buf: &[u8], k: usize| buf[k * es..(k + 1) * es].to_vec();
            for i in 0..N {
                let av: Vec<Vec<u8>> = (0..w).map(|l| el(&a, i * w + l)).collect();
                let zero = vec![0u8; es];
                let mut want: Vec<Option<Vec<u8>>> = vec![];
                want.extend(perm.iter().map(|&l| Some(av[l].clone())));
                // hi, lo, even, odd of a 3-lane vector: its 4th lane is undefined.
                let lane = |l: usize| (l < w).then(|| av[l].clone());
                let wide = if w == 3 { 4 } else { w };
                want.extend((0..half).map(|k| lane(wide / 2 + k)));
                want.extend((0..half).map(&lane));
                want.extend((0..half).map(|k| lane(2 * k)));
                want.extend((0..half).map(|k| lane(2 * k + 1)));
                let mut t_l = vec![zero.clone(); w];
                for (k, &l) in perm.iter().enumerate() {
                    t_l[l] = av[k].clone();
                }
                want.extend(t_l.into_iter().map(Some));
                // u = a; u.hi = a.lo; u.odd = u.even
                let mut u: Vec<Option<Vec<u8>>> = av.iter().cloned().map(Some).collect();
                if w == 3 {
                    // u.even = a.lo: s0 = a.s0, s2 = a.s1; then s1 = s0
                    u[2] = Some(av[1].clone());
                    u[1] = u[0].clone();
                } else {
                    for k in 0..half {
                        u[half + k] = Some(av[k].clone());
                    }
                    for k in 0..half {
                        u[2 * k + 1] = u[2 * k].clone();
                    }
                }
                want.extend(u);
                want.extend(perm.iter().map(|&l| Some(av[l].clone())));
                for (k, wv) in want.iter().enumerate() {
                    let got = el(&out[1], i * per + k);
                    if let Some(wv) = wv {
                        if *wv != got && failures.len() < 20 {
                            failures.push(format!(
                                "{tv} item {i} element {k}: want {wv:?} got {got:?}\n{src}"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
