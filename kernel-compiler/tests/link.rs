//! Separate compilation: `link::compile` (one unit, its own options and embedded headers,
//! external functions allowed) and `link::link` (by symbol: per-unit macros, static functions
//! unit-local, duplicate and undefined symbols, libraries, locations kept in the linked IR).

use fpgacl_kernel_compiler::analysis::{analyze, BoardParams};
use fpgacl_kernel_compiler::ir::{Module, SiteKind};
use fpgacl_kernel_compiler::link::{compile, link, LinkError, LinkOptions, Object, ObjectKind};
use fpgacl_kernel_compiler::{dump, BuildError, SourceFile};
use std::sync::Arc;

fn src(name: &str, text: &str) -> SourceFile {
    SourceFile {
        name: name.into(),
        text: text.into(),
    }
}

/// Compiles one unit that must compile.
fn obj(name: &str, text: &str, opts: &str, headers: &[SourceFile]) -> Arc<Object> {
    let out = compile(&[src(name, text)], opts, headers).unwrap();
    out.object
        .unwrap_or_else(|| panic!("{name} does not compile:\n{}", out.log))
}

/// Links objects into an executable that must link.
fn exe(objs: &[&Arc<Object>], opts: &str) -> Arc<Module> {
    let inputs: Vec<&Object> = objs.iter().map(|o| o.as_ref()).collect();
    let out = link(&inputs, opts).unwrap();
    assert!(out.object.is_some());
    out.module
        .unwrap_or_else(|| panic!("link failed:\n{}", out.log))
}

/// Links objects, which must fail; returns the log.
fn link_fails(objs: &[&Arc<Object>], opts: &str) -> String {
    let inputs: Vec<&Object> = objs.iter().map(|o| o.as_ref()).collect();
    let out = link(&inputs, opts).unwrap();
    assert!(
        out.module.is_none() && out.object.is_none(),
        "link should fail"
    );
    assert!(out.log.contains("error generated") || out.log.contains("errors generated"));
    out.log
}

const HEADER: &str = "#define BIAS 100\nint add_bias(int x);\n";

fn common() -> Vec<SourceFile> {
    vec![src("link/common.h", HEADER)]
}

const HELPER: &str =
    "#include \"link/common.h\"\nint add_bias(int x)\n{\n    return x + BIAS;\n}\n";
const KERNEL: &str = "#include \"link/common.h\"\n__kernel void k(__global const int *in, __global int *out)\n{\n    size_t i = get_global_id(0);\n    out[i] = add_bias(in[i]);\n}\n";

#[test]
fn kernel_calls_a_function_of_another_unit() {
    let h = obj("helper.cl", HELPER, "", &common());
    let k = obj("kernel.cl", KERNEL, "", &common());
    assert_eq!(k.kind, ObjectKind::Object);
    // The embedded header is part of the object.
    assert!(k.units[0]
        .sources
        .files
        .iter()
        .any(|f| f.name == "link/common.h"));
    let m = exe(&[&k, &h], "");
    assert_eq!(m.kernels.len(), 1);
    assert_eq!(m.kernels[0].name, "k");
    // The helper's addition is in the kernel (inlined from the other unit).
    let d = dump::dump_module(&m);
    assert!(d.contains("const 100"), "{d}");
    // Sites keep their own unit's file and line.
    let store = m
        .sites
        .iter()
        .find(|s| s.kind == SiteKind::Store)
        .expect("store site");
    assert_eq!(m.sources.name(store.loc.file), "kernel.cl");
    assert_eq!(store.loc.line, 5);
    // One copy of the shared header.
    assert_eq!(
        m.sources
            .files
            .iter()
            .filter(|f| f.name == "link/common.h")
            .count(),
        1
    );
    // Link order does not matter.
    let m2 = exe(&[&h, &k], "");
    assert_eq!(m2.kernels[0].name, "k");
    // The static analysis runs on the linked program.
    let r = analyze(&m, &BoardParams::default());
    assert_eq!(r.kernels.len(), 1);
}

#[test]
fn each_unit_keeps_its_own_macros_and_options() {
    let scaled = "#include \"link/common.h\"\n#ifndef FACTOR\n#error \"FACTOR must be given with -D\"\n#endif\n__kernel void scaled(__global int *out) { out[0] = add_bias(7) * FACTOR; }\n";
    // Without -D the unit does not compile (and the log says why).
    let out = compile(&[src("scaled.cl", scaled)], "", &common()).unwrap();
    assert!(out.object.is_none());
    assert!(
        out.log
            .contains("scaled.cl:3:2: error: #error \"FACTOR must be given with -D\""),
        "{}",
        out.log
    );
    let s = obj("scaled.cl", scaled, "-D FACTOR=37", &common());
    // The helper unit defines FACTOR differently: each unit keeps its own.
    let h = obj(
        "helper.cl",
        "#include \"link/common.h\"\n#define FACTOR 5\nint add_bias(int x) { return x + BIAS * FACTOR; }\n",
        "",
        &common(),
    );
    let m = exe(&[&s, &h], "");
    let d = dump::dump_module(&m);
    assert!(d.contains("const 37"), "{d}");
    assert!(d.contains("const 500") || d.contains("const 5 "), "{d}");
    // The options of the units are kept in the object for binaries.
    assert_eq!(s.units[0].options, "-D FACTOR=37");
    assert!(!s.has_option("-cl-kernel-arg-info"));
    let a = obj(
        "a.cl",
        "kernel void a(global int *p) { *p = 1; }",
        "-cl-kernel-arg-info",
        &[],
    );
    assert!(a.has_option("-cl-kernel-arg-info"));
}

#[test]
fn single_precision_constant_is_per_unit() {
    let a = obj(
        "a.cl",
        "float half_of(float x) { return x * 0.5; }",
        "-cl-single-precision-constant",
        &[],
    );
    let k = obj(
        "k.cl",
        "float half_of(float x);\nkernel void k(global float *p) { p[0] = half_of(p[0]); p[1] = p[1] * 0.25; }",
        "",
        &[],
    );
    let m = exe(&[&k, &a], "");
    let d = dump::dump_module(&m);
    // 0.5 from the unit compiled with the option is a float; 0.25 is a double.
    assert!(d.contains("f64"), "{d}");
}

#[test]
fn static_functions_are_unit_local() {
    let a = obj(
        "a.cl",
        "static int step(int x) { return x + 11; }\nkernel void ka(global int *p) { p[0] = step(p[0]); }\n",
        "",
        &[],
    );
    let b = obj(
        "b.cl",
        "static int step(int x) { return x * 13; }\nkernel void kb(global int *p) { p[0] = step(p[0]); }\n",
        "",
        &[],
    );
    let m = exe(&[&a, &b], "");
    let names: Vec<&str> = m.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["ka", "kb"]);
    let ka = dump::dump_module(&Module {
        kernels: vec![m.kernels[0].clone()],
        ..(*m).clone()
    });
    let kb = dump::dump_module(&Module {
        kernels: vec![m.kernels[1].clone()],
        ..(*m).clone()
    });
    assert!(ka.contains("const 11") && !ka.contains("const 13"), "{ka}");
    assert!(kb.contains("const 13") && !kb.contains("const 11"), "{kb}");
    // A static function is not visible to another unit.
    let c = obj(
        "c.cl",
        "int step(int x);\nkernel void kc(global int *p) { p[0] = step(p[0]); }\n",
        "",
        &[],
    );
    let log = link_fails(&[&a, &c], "");
    assert!(
        log.contains("c.cl:2:40: error: undefined symbol: function 'step'"),
        "{log}"
    );
    // A non-static definition in a third unit is found, and the statics stay apart.
    let d = obj("d.cl", "int step(int x) { return x - 17; }\n", "", &[]);
    let m = exe(&[&a, &c, &d, &b], "");
    let kc = m.kernel("kc").unwrap();
    let one = Module {
        kernels: vec![kc.clone()],
        ..(*m).clone()
    };
    let t = dump::dump_module(&one);
    assert!(
        t.contains("const 17") && !t.contains("const 11") && !t.contains("const 13"),
        "{t}"
    );
}

#[test]
fn duplicate_symbols_fail_with_both_locations() {
    let h1 = obj("h1.cl", HELPER, "", &common());
    let h2 = obj(
        "h2.cl",
        "#include \"link/common.h\"\n\nint add_bias(int x) { return x; }\n",
        "",
        &common(),
    );
    let log = link_fails(&[&h1, &h2], "");
    assert!(
        log.contains("h2.cl:3:5: error: duplicate symbol: function 'add_bias' is defined in more than one linked unit (first definition at h1.cl:2:5)"),
        "{log}"
    );
    assert!(
        log.contains("h1.cl:2:5: note: first definition of 'add_bias' is here"),
        "{log}"
    );
    // Kernels too, and a library with a duplicate is refused as well.
    let k1 = obj("k1.cl", "kernel void k(global int *p) { *p = 1; }", "", &[]);
    let k2 = obj("k2.cl", "kernel void k(global int *p) { *p = 2; }", "", &[]);
    let log = link_fails(&[&k1, &k2], "");
    assert!(
        log.contains("k2.cl:1:13: error: duplicate symbol: kernel 'k'"),
        "{log}"
    );
    let log = link_fails(&[&k1, &k2], "-create-library");
    assert!(log.contains("duplicate symbol: kernel 'k'"), "{log}");
    // The same source compiled twice: the units are told apart in the log.
    let log = link_fails(&[&k1, &k1], "");
    assert!(
        log.contains("k1.cl (unit 2):1:13: error: duplicate symbol: kernel 'k' is defined in more than one linked unit (first definition at k1.cl (unit 1):1:13)"),
        "{log}"
    );
}

#[test]
fn undefined_function_fails_the_link() {
    let k = obj("kernel.cl", KERNEL, "", &common());
    let log = link_fails(&[&k], "");
    assert!(
        log.contains("kernel.cl:5:14: error: undefined symbol: function 'add_bias' is called here but defined in none of the linked units"),
        "{log}"
    );
    // A library may leave it open.
    let out = link(&[k.as_ref()], "-create-library").unwrap();
    let lib = out.object.expect("library");
    assert_eq!(lib.kind, ObjectKind::Library);
    assert!(out.module.is_none());
}

#[test]
fn libraries_link_again() {
    let h = obj("helper.cl", HELPER, "", &common());
    let k = obj("kernel.cl", KERNEL, "", &common());
    let out = link(&[h.as_ref()], "-create-library -enable-link-options").unwrap();
    let lib = out.object.expect("library");
    assert_eq!(lib.kind, ObjectKind::Library);
    let m = exe(&[&k, &lib], "-cl-fast-relaxed-math -cl-denorms-are-zero");
    assert_eq!(m.kernels[0].name, "k");
    // A library of libraries.
    let lib2 = link(&[lib.as_ref(), k.as_ref()], "-create-library")
        .unwrap()
        .object
        .unwrap();
    assert_eq!(lib2.units.len(), 2);
    let m = exe(&[&lib2], "");
    assert_eq!(m.kernels[0].name, "k");
}

#[test]
fn link_options() {
    for ok in [
        "",
        "-create-library",
        "-create-library -enable-link-options -cl-finite-math-only",
        "-cl-denorms-are-zero -cl-no-signed-zeros -cl-unsafe-math-optimizations -cl-finite-math-only -cl-fast-relaxed-math",
    ] {
        LinkOptions::parse(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    for bad in [
        "-cl-no-such-option",
        "-enable-link-options",
        "-D X=1",
        "-cl-kernel-arg-info",
        "-I inc",
    ] {
        assert!(LinkOptions::parse(bad).is_err(), "{bad}");
    }
    let k = obj("k.cl", "kernel void k(global int *p) { *p = 1; }", "", &[]);
    assert!(matches!(
        link(&[k.as_ref()], "-cl-no-such-option"),
        Err(LinkError::InvalidOptions(_))
    ));
    assert!(matches!(link(&[], ""), Err(LinkError::NoInputs)));
}

#[test]
fn compile_checks_the_unit_against_prototypes() {
    // External calls are checked against the prototype.
    let out = compile(
        &[src(
            "k.cl",
            "int ext(int a, int b);\nkernel void k(global int *p) { p[0] = ext(1); }\n",
        )],
        "",
        &[],
    )
    .unwrap();
    assert!(out.object.is_none());
    assert!(
        out.log
            .contains("k.cl:2:39: error: too few arguments to function call, expected 2, have 1"),
        "{}",
        out.log
    );
    // A call of an undeclared function is still an error of the unit.
    let out = compile(
        &[src(
            "k.cl",
            "kernel void k(global int *p) { p[0] = nope(1); }\n",
        )],
        "",
        &[],
    )
    .unwrap();
    assert!(
        out.log.contains("implicit declaration of function 'nope'"),
        "{}",
        out.log
    );
    // Type errors are found at compile time.
    let out = compile(
        &[src(
            "k.cl",
            "kernel void k(global int *p) { float4 v = 1; p[0] = v; }\n",
        )],
        "",
        &[],
    )
    .unwrap();
    assert!(out.object.is_none(), "{}", out.log);
    // Invalid compiler options.
    assert!(matches!(
        compile(&[src("k.cl", "")], "-cl-no-such-option", &[]),
        Err(BuildError::InvalidOptions(_))
    ));
    // A missing embedded header is named.
    let out = compile(&[src("k.cl", "#include \"link/common.h\"\n")], "", &[]).unwrap();
    assert!(out.log.contains("link/common.h"), "{}", out.log);
    assert!(out.object.is_none());
}

#[test]
fn embedded_headers_include_each_other() {
    let headers = vec![
        src("inc/a.h", "#include \"b.h\"\n#define A (B + 1)\n"),
        src("inc/b.h", "#define B 41\n"),
    ];
    let k = obj(
        "k.cl",
        "#include \"inc/a.h\"\nkernel void k(global int *p) { *p = A; }\n",
        "",
        &headers,
    );
    let m = exe(&[&k], "");
    assert!(dump::dump_module(&m).contains("const 41"));
}

#[test]
fn channels_and_constants_shared_through_a_header() {
    let header = vec![src(
        "chan.h",
        "#pragma OPENCL EXTENSION cl_intel_channels : enable\nchannel int c __attribute__((depth(8)));\n__constant int table[4] = {3, 5, 7, 9};\n",
    )];
    let p = obj(
        "producer.cl",
        "#include \"chan.h\"\nkernel void producer(global const int *in) { for (int i = 0; i < 4; i++) write_channel_intel(c, in[i] * table[i]); }\n",
        "",
        &header,
    );
    let q = obj(
        "consumer.cl",
        "#include \"chan.h\"\nkernel void consumer(global int *out) { for (int i = 0; i < 4; i++) out[i] = read_channel_intel(c); }\n",
        "",
        &header,
    );
    let m = exe(&[&p, &q], "");
    assert_eq!(m.channels.len(), 1, "one channel shared by both units");
    assert_eq!(m.kernels.len(), 2);
    // Loops keep their unit's location.
    let lp = &m.kernel("consumer").unwrap().loops[0];
    assert_eq!(m.sources.name(lp.loc.file), "consumer.cl");
    assert_eq!((lp.loc.line, lp.loc.col), (2, 41));
    // Different definitions of a non-static object are a duplicate symbol.
    let r = obj(
        "other.cl",
        "__constant int table[4] = {1, 2, 3, 4};\nkernel void o(global int *p) { *p = table[1]; }\n",
        "",
        &[],
    );
    let log = link_fails(&[&p, &r], "");
    assert!(
        log.contains("other.cl:1:16: error: duplicate symbol: program scope variable 'table'"),
        "{log}"
    );
    // Static ones are per unit.
    let s = obj(
        "s.cl",
        "static __constant int table[4] = {1, 2, 3, 4};\nkernel void s(global int *p) { *p = table[1]; }\n",
        "",
        &[],
    );
    let m = exe(&[&p, &q, &s], "");
    assert_eq!(m.kernels.len(), 3);
    // The static table of s.cl (renamed inside the linker) keeps its name in the sites.
    let si = m.kernels.iter().position(|k| k.name == "s").unwrap() as u32;
    let site = m.sites.iter().find(|x| x.kernel == si).expect("site of s");
    assert_eq!(site.target, "table");
    assert_eq!(m.sources.name(site.loc.file), "s.cl");
    assert!(m.sites.iter().all(|x| !x.target.contains('@')));
    // The data of each table: both are in the constant data.
    let words: Vec<i32> = m
        .constant_data
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(words.windows(4).any(|w| w == [3, 5, 7, 9]), "{words:?}");
    assert!(words.windows(4).any(|w| w == [1, 2, 3, 4]), "{words:?}");
}

#[test]
fn types_shared_by_units() {
    let h = vec![src(
        "t.h",
        "typedef struct { int a; float b; } pair_t;\nfloat sum(pair_t p);\n",
    )];
    let a = obj(
        "a.cl",
        "#include \"t.h\"\nfloat sum(pair_t p) { return p.a + p.b; }\n",
        "",
        &h,
    );
    // The same struct written again in another unit (not from the header) is accepted too.
    let k = obj(
        "k.cl",
        "typedef struct { int a; float b; } pair_t;\nfloat sum(pair_t p);\nkernel void k(global float *o) { pair_t p = {1, 2.0f}; o[0] = sum(p); }\n",
        "",
        &[],
    );
    let m = exe(&[&k, &a], "");
    assert_eq!(m.kernels[0].name, "k");
}

#[test]
fn objects_serialize() {
    let k = obj("kernel.cl", KERNEL, "-D X=1", &common());
    let bytes = bincode::serde::encode_to_vec(k.as_ref(), bincode::config::standard()).unwrap();
    let (back, _): (Object, usize) =
        bincode::serde::decode_from_slice(&bytes, bincode::config::standard()).unwrap();
    assert_eq!(&back, k.as_ref());
}

#[test]
fn recursion_across_units_fails_at_link_with_plain_names() {
    let a = obj(
        "a.cl",
        "int g(int x);\nstatic int h(int x) { return g(x); }\nint k(int x) { return h(x); }\nkernel void ka(global int *p) { *p = k(1); }\n",
        "",
        &[],
    );
    let b = obj(
        "b.cl",
        "static int h(int x) { return x; }\nint k(int x);\nint g(int x) { return k(x) + h(x); }\n",
        "",
        &[],
    );
    let log = link_fails(&[&a, &b], "");
    assert!(
        log.contains(
            "a.cl:3:23: error: recursive call cycle h -> g -> k -> h: recursion is not allowed in OpenCL C"
        ),
        "{log}"
    );
}

#[test]
fn conflicting_unit_local_types_are_not_mixed_up() {
    // Two units with their own `value_t` and enumerator: each keeps its own, or the link
    // fails naming the conflict; never silently the other unit's type.
    let a = obj(
        "a.cl",
        "typedef float value_t;\nenum { MODE = 1 };\nkernel void ka(global value_t *p) { p[0] = (value_t)MODE / 2; }\n",
        "",
        &[],
    );
    let b = obj(
        "b.cl",
        "typedef int value_t;\nenum { MODE = 2 };\nkernel void kb(global value_t *p) { p[0] = (value_t)MODE / 2; }\n",
        "",
        &[],
    );
    let inputs = [a.as_ref(), b.as_ref()];
    let out = link(&inputs, "").unwrap();
    let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
    let one = |name: &str| {
        dump::dump_module(&Module {
            kernels: vec![m.kernel(name).unwrap().clone()],
            ..(*m).clone()
        })
    };
    let (ka, kb) = (one("ka"), one("kb"));
    assert!(
        ka.contains("store.global:f32") && ka.contains("const 1.0"),
        "{ka}"
    );
    assert!(
        kb.contains("store.global:i32") && !kb.contains("const 1"),
        "{kb}"
    );
    for k in &m.kernels {
        assert_eq!(k.args[0].type_name, "value_t*");
    }
    // Struct tags too.
    let c = obj(
        "c.cl",
        "struct P { int a; };\nkernel void kc(global int *p) { p[0] = sizeof(struct P) * 1000; }\n",
        "",
        &[],
    );
    let d = obj(
        "d.cl",
        "struct P { long a; long b; };\nkernel void kd(global int *p) { p[0] = sizeof(struct P) * 1000; }\n",
        "",
        &[],
    );
    let m = exe(&[&c, &d], "");
    let one = |name: &str| {
        dump::dump_module(&Module {
            kernels: vec![m.kernel(name).unwrap().clone()],
            ..(*m).clone()
        })
    };
    // sizeof(struct P) of each unit.
    assert!(one("kc").contains("u64 = const 4 "), "{}", one("kc"));
    assert!(one("kd").contains("u64 = const 16 "), "{}", one("kd"));
}

/// Every kernel of the corpus compiled as one object and linked alone gives exactly the module
/// `build()` gives (same IR, sites, loops, constant data), and two corpus files linked
/// together give the kernels of both with their own files' locations.
#[test]
fn corpus_kernels_link_to_the_same_module_as_a_build() {
    use fpgacl_kernel_compiler::build;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ok");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 30);
    let mut objects = vec![];
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        let built = build(&[src(&name, &text)], "").unwrap().module.unwrap();
        let o = obj(&name, &text, "", &[]);
        let linked = exe(&[&o], "");
        assert_eq!(
            dump::dump_module(&linked),
            dump::dump_module(&built),
            "{name}: linked alone differs from a build"
        );
        assert_eq!(linked.sources, built.sources, "{name}");
        objects.push((name, o, built));
    }
    // Neighbouring pairs without a common kernel, channel or function name link together.
    let mut pairs = 0;
    for w in objects.windows(2) {
        let [(na, a, ma), (nb, b, mb)] = w else {
            unreachable!()
        };
        let inputs = [a.as_ref(), b.as_ref()];
        let out = link(&inputs, "").unwrap();
        let Some(m) = out.module else {
            // A duplicate symbol: the log names it.
            assert!(
                out.log.contains("duplicate symbol"),
                "{na} + {nb}:\n{}",
                out.log
            );
            continue;
        };
        pairs += 1;
        assert_eq!(m.kernels.len(), ma.kernels.len() + mb.kernels.len());
        for s in &m.sites {
            let k = &m.kernels[s.kernel as usize];
            let file = m.sources.name(s.loc.file);
            if ma.kernel(&k.name).is_some() && k.loc.file == s.loc.file {
                assert!(file == na || !file.ends_with(".cl"), "{file} {na}");
            }
        }
    }
    assert!(pairs >= 10, "only {pairs} pairs linked");
}

/// Damaged objects (as a corrupted binary could hold: tokens dropped, repeated or renamed,
/// locations out of range) never panic the linker: it links or fails with a log.
#[test]
fn damaged_objects_never_panic_the_linker() {
    let h = obj("helper.cl", HELPER, "", &common());
    let k = obj("kernel.cl", KERNEL, "", &common());
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let (mut linked, mut failed) = (0, 0);
    for round in 0..300 {
        let mut bad = (*k).clone();
        let toks = &mut bad.units[0].tokens;
        for _ in 0..1 + round % 4 {
            let n = toks.len() - 1; // keep Eof last
            let i = next(n);
            match next(5) {
                0 => {
                    toks.remove(i);
                }
                1 => {
                    let t = toks[i].clone();
                    toks.insert(i, t);
                }
                2 => {
                    let j = next(n);
                    toks.swap(i, j);
                }
                3 => toks[i].loc.file = fpgacl_kernel_compiler::FileId(next(9) as u32),
                _ => {
                    toks[i].kind = fpgacl_kernel_compiler::token::TokenKind::Ident(
                        ["add_bias", "k", "static", "kernel", "int", "x"][next(6)].into(),
                    )
                }
            }
        }
        let out = link(&[&bad, h.as_ref()], "").unwrap();
        match out.module {
            Some(_) => linked += 1,
            None => {
                assert!(out.log.contains("generated."), "{}", out.log);
                assert!(!out.log.contains("internal compiler error"), "{}", out.log);
                failed += 1;
            }
        }
    }
    assert!(failed > 100, "{linked} linked, {failed} failed");
}

#[test]
fn block_scope_prototypes_declare_external_functions() {
    let k = obj(
        "k.cl",
        "kernel void k(global int *p)\n{\n    int add_bias(int x);\n    p[0] = add_bias(p[0]);\n}\n",
        "",
        &[],
    );
    let log = link_fails(&[&k], "");
    assert!(
        log.contains("k.cl:4:12: error: undefined symbol: function 'add_bias'"),
        "{log}"
    );
    let h = obj("helper.cl", HELPER, "", &common());
    let m = exe(&[&k, &h], "");
    assert!(dump::dump_module(&m).contains("const 100"));
    // Still checked against the prototype at compile time.
    let out = compile(
        &[src(
            "k.cl",
            "kernel void k(global int *p) { int f(int a, int b); p[0] = f(1); }\n",
        )],
        "",
        &[],
    )
    .unwrap();
    assert!(out.object.is_none());
    assert!(out.log.contains("too few arguments"), "{}", out.log);
}

#[test]
fn extern_constant_variables_resolve_across_units() {
    // Declarations alone compile (the objects are another unit's), even of an incomplete
    // struct type; uses are checked against the declared type.
    obj("decl.cl", "extern constant float foo;\n", "", &[]);
    obj(
        "decl_struct.cl",
        "extern constant struct bar bart;\n",
        "",
        &[],
    );
    let def = obj(
        "def.cl",
        "constant float foo = 4.0f;\nconstant int table[3] = {7, 8, 9};\n\
         float get_foo(void);\n__kernel void k(__global float *o) { o[0] = get_foo(); }\n",
        "",
        &[],
    );
    let user = obj(
        "user.cl",
        "extern constant float foo;\nextern constant int table[3];\n\
         float get_foo(void) { return foo + table[2]; }\n",
        "",
        &[],
    );
    let m = exe(&[&def, &user], "");
    // One copy of each object in the constant data: foo (4 bytes) and table (12 bytes).
    assert_eq!(m.constant_data.len(), 16, "{:?}", m.constant_data);
    // Either order links.
    exe(&[&user, &def], "");
    // The using unit alone: foo and table are defined nowhere.
    let log = link_fails(&[&user], "");
    assert!(
        log.contains("undefined symbol: program scope variable 'foo'") && log.contains("'table'"),
        "{log}"
    );
}
