//! Property tests: no input makes the compiler fail internally. Random token soups and
//! mutated corpus kernels go through the whole pipeline (preprocessor, parser, type checker,
//! lowering); every build ends with a module or with diagnostics, never with an internal error.

use fpgacl_kernel_compiler::{build, SourceFile};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "__kernel",
    "kernel",
    "void",
    "int",
    "uint",
    "float",
    "float4",
    "int2",
    "char",
    "double",
    "half",
    "struct",
    "union",
    "enum",
    "typedef",
    "__global",
    "__local",
    "__constant",
    "const",
    "restrict",
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
    "sizeof",
    "vec_step",
    "channel",
    "pipe",
    "read_only",
    "write_only",
    "__attribute__",
    "reqd_work_group_size",
    "autorun",
    "depth",
    "get_global_id",
    "barrier",
    "read_channel_intel",
    "write_channel_intel",
    "read_pipe",
    "convert_int4",
    "as_float",
    "vload4",
    "atomic_add",
    "printf",
    "x",
    "y",
    "a",
    "b",
    "p",
    "s",
    ".xyzw",
    ".s01",
    ".lo",
    "->",
    ".",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "=",
    "+=",
    "<<=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "&&",
    "||",
    "!",
    "~",
    "?",
    ":",
    "<",
    ">",
    "==",
    "!=",
    "++",
    "--",
    "0",
    "1",
    "42",
    "0x10",
    "1.5f",
    "2.0",
    "'a'",
    "\"s\"",
    "\n#pragma unroll\n",
    "\n#define M 3\n",
    "M",
    "...",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..120).prop_map(|w| w.join(" "))
}

fn check(text: String) {
    let out = build(
        &[SourceFile {
            name: "fuzz.cl".into(),
            text,
        }],
        "",
    )
    .expect("options");
    assert!(!out.log.contains("internal compiler error"), "{}", out.log);
    if out.module.is_none() {
        assert!(
            !out.diagnostics.is_empty(),
            "failed build without diagnostics"
        );
    }
}

fn corpus() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ok");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "cl"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_breaks_the_compiler(text in soup()) {
        check(text);
    }

    #[test]
    fn wrapped_soup_in_a_kernel_body(body in soup()) {
        check(format!("__kernel void k(__global int *a, __global float4 *v) {{ {body} }}"));
    }

    #[test]
    fn mutated_corpus_kernels(which in 0usize..1000, cuts in prop::collection::vec((0usize..10_000, 0usize..40, prop::sample::select(WORDS)), 1..6)) {
        let files = corpus();
        let mut text = files[which % files.len()].clone();
        for (at, len, ins) in cuts {
            let at = at % (text.len() + 1);
            let end = (at + len).min(text.len());
            if text.is_char_boundary(at) && text.is_char_boundary(end) {
                text.replace_range(at..end, ins);
            }
        }
        check(text);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep_parens = format!(
        "__kernel void k(__global int *a) {{ a[0] = {}1{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    check(deep_parens);
    let long_chain = format!(
        "__kernel void k(__global int *a) {{ a[0] = 1{}; }}",
        " + 1".repeat(20000)
    );
    check(long_chain);
    let nested_blocks = format!(
        "__kernel void k(__global int *a) {{ {} a[0] = 1; {} }}",
        "{".repeat(3000),
        "}".repeat(3000)
    );
    check(nested_blocks);
    let else_ifs = format!(
        "__kernel void k(__global int *a) {{ if (a[0] == 0) a[1] = 0; {} }}",
        (1..900)
            .map(|i| format!("else if (a[0] == {i}) a[1] = {i};"))
            .collect::<String>()
    );
    let out = build(
        &[SourceFile {
            name: "e.cl".into(),
            text: else_ifs,
        }],
        "",
    )
    .unwrap();
    assert!(
        out.module.is_some(),
        "900 else-ifs must compile:\n{}",
        out.log
    );
}
