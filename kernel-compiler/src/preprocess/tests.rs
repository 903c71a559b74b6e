use super::*;
use crate::lexer::lex;
use crate::token::TokenKind;
use std::collections::BTreeMap;

fn run_with(
    src: &str,
    files: &[(&str, &str)],
    opts: &PpOptions,
) -> (Vec<Token>, Diagnostics, SourceMap) {
    let mut sm = SourceMap::default();
    let main = sm.add("main.cl", src);
    let resolver = MapResolver {
        files: files
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect::<BTreeMap<_, _>>(),
        include_dirs: opts.include_dirs.clone(),
    };
    let mut d = Diagnostics::default();
    let toks = preprocess(main, &mut sm, opts, &resolver, &mut d);
    (toks, d, sm)
}

fn run(src: &str) -> (Vec<Token>, Diagnostics) {
    let (t, d, _) = run_with(src, &[], &PpOptions::default());
    (t, d)
}

fn kinds(t: &[Token]) -> Vec<TokenKind> {
    t.iter().map(|t| t.kind.clone()).collect()
}

/// Preprocessing `src` gives the same tokens as lexing `want`.
fn same(src: &str, want: &str) {
    let (got, d) = run(src);
    assert!(!d.has_errors(), "{src}\n{:?}", d.list);
    let mut d2 = Diagnostics::default();
    let want = lex(FileId(0), want, &mut d2);
    assert_eq!(kinds(&got), kinds(&want), "\nsource:\n{src}");
}

fn errors(src: &str) -> Vec<String> {
    let (_, d, sm) = run_with(src, &[], &PpOptions::default());
    d.list
        .iter()
        .map(|x| {
            let r = x.render(&sm);
            r.lines().next().unwrap_or("").to_string()
        })
        .collect()
}

#[test]
fn c99_example_3() {
    same(
        "#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
",
        "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { \"hello\", \"\" };",
    );
}

#[test]
fn c99_example_4_stringize_and_paste() {
    same(
        r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#,
        r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n", s);
"vers2.h"
"hello";
"hello" ", world""#,
    );
}

#[test]
fn c99_example_5_placemarkers() {
    same(
        "#define t(x,y,z) x ## y ## z
int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),
 t(10,,), t(,11,), t(,,12), t(,,) };",
        "int j[] = { 123, 45, 67, 89, 10, 11, 12, };",
    );
}

#[test]
fn c99_example_7_variadic() {
    same(
        r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#,
        r#"fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#,
    );
}

#[test]
fn gnu_comma_paste_and_named_variadic() {
    same(
        "#define P(fmt, ...) printf(fmt, ## __VA_ARGS__)
#define Q(fmt, args...) printf(fmt, args)
P(\"a\"); P(\"b\", 1, 2); Q(\"c\", 3, 4);",
        "printf(\"a\"); printf(\"b\", 1, 2); printf(\"c\", 3, 4);",
    );
}

#[test]
fn recursion_is_blocked_by_hide_sets() {
    same(
        "#define foo foo
#define a b
#define b a
#define f(x) x + f(x)
#define g(x) h(x)
#define h(x) g(x) + 1
foo a b f(2) g(3)",
        "foo a b 2 + f(2) g(3) + 1",
    );
    // The classic case where the closing parenthesis comes from outside the expansion.
    same(
        "#define f(a) a*g
#define g(a) f(a)
f(2)(9)",
        "2*9*g",
    );
}

#[test]
fn function_like_name_without_parens_is_not_expanded() {
    same("#define f(x) x\nint f; f\n(1) f", "int f; 1 f");
}

#[test]
fn conditionals() {
    same(
        "#define A 1
#define B 0
#if A && !B
yes1
#elif 1
no
#else
no
#endif
#ifdef A
yes2
#endif
#ifndef C
yes3
#else
no
#endif
#if B
no
#elif defined(A) && defined B
yes4
#elif 1/0
no
#endif
#if 0
#if 1
no
#else
no
#endif
don't care about ' here
#error not reached
#else
yes5
#endif
#if (2 + 3 * 4 == 14) && (-1 < 0) && (-1 > 0u) && (0x10 >> 2 == 4) && ('a' == 97)
yes6
#endif
#if (1 ? 2 : (1/0)) == 2 && (0 && 1/0) == 0 && (1 || 1/0) && ~0 == -1 && 7 % 3 == 1
yes7
#endif
#if UNDEFINED_NAME == 0 && 18446744073709551615u == -1 && (1 << 63) < 0
yes8
#endif",
        "yes1 yes2 yes3 yes4 yes5 yes6 yes7 yes8",
    );
}

#[test]
fn predefined_macros_have_values() {
    same(
        "__OPENCL_VERSION__ CL_VERSION_1_2 __OPENCL_C_VERSION__ __ENDIAN_LITTLE__ FP_FAST_FMAF
#ifdef __IMAGE_SUPPORT__
bad
#endif
#if defined(INTELFPGA_CL) && __INTELFPGA_COMPILER__ >= 1700
intel
#endif
CHAR_BIT INT_MAX INT_MIN UINT_MAX FLT_MAX M_PI_F INFINITY",
        "120 120 120 1 1 intel 8 2147483647 (-2147483647-1) 0xffffffffU 0x1.fffffep127f
         3.14159265358979323846264338327950288f __builtin_inff()",
    );
}

#[test]
fn options_defines_board_and_version() {
    let opts = PpOptions {
        defines: vec![
            ("N".into(), Some("16".into())),
            ("FLAG".into(), None),
            ("F(x)".into(), Some("(x*2)".into())),
        ],
        undefines: vec!["FP_FAST_FMA".into()],
        board: Some("a10gx".into()),
        cl_c_version: 200,
        fast_relaxed_math: true,
        ..PpOptions::default()
    };
    let (t, d, _) = run_with(
        "N FLAG F(3) __OPENCL_C_VERSION__ AOCL_BOARD_a10gx ACL_BOARD_a10gx __FAST_RELAXED_MATH__ __FINITE_MATH_ONLY__
#ifdef FP_FAST_FMA
bad
#endif",
        &[],
        &opts,
    );
    assert!(d.list.is_empty(), "{:?}", d.list);
    let mut d2 = Diagnostics::default();
    let want = lex(FileId(0), "16 1 (3*2) 200 1 1 1 1", &mut d2);
    assert_eq!(kinds(&t), kinds(&want));
}

#[test]
fn line_and_file_macros_and_locations() {
    let (t, d, sm) = run_with(
        "#define L __LINE__\nint a = __LINE__;\n  L __FILE__\n#line 100 \"gen.cl\"\nx __LINE__\n__FILE__",
        &[],
        &PpOptions::default(),
    );
    assert!(d.list.is_empty());
    let k = kinds(&t);
    assert_eq!(
        k[3],
        TokenKind::Int {
            value: 2,
            unsigned: false,
            long: false,
            decimal: true
        }
    );
    // `L` on line 3 expands with the location of the use.
    assert_eq!((t[5].loc.line, t[5].loc.col), (3, 3));
    assert_eq!(k[6], TokenKind::Str("main.cl".into()));
    assert_eq!(t[7].loc.line, 100);
    assert_eq!(sm.name(t[7].loc.file), "gen.cl");
    assert_eq!(
        k[8],
        TokenKind::Int {
            value: 100,
            unsigned: false,
            long: false,
            decimal: true
        }
    );
    assert_eq!(k[9], TokenKind::Str("gen.cl".into()));
}

#[test]
fn includes_relative_then_dirs() {
    let opts = PpOptions {
        include_dirs: vec!["inc".into()],
        ..PpOptions::default()
    };
    let mut sm = SourceMap::default();
    let main = sm.add(
        "src/main.cl",
        "#include \"a.h\"\n#include <b.h>\n#include \"b.h\"\nend",
    );
    let resolver = MapResolver {
        files: [
            ("src/a.h", "#pragma once\n#include \"sub/c.h\"\nA"),
            ("src/sub/c.h", "C __FILE__ __LINE__"),
            ("inc/b.h", "B\n#include \"a.h\""),
            ("inc/a.h", "wrong"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect(),
        include_dirs: opts.include_dirs.clone(),
    };
    let mut d = Diagnostics::default();
    let t = preprocess(main, &mut sm, &opts, &resolver, &mut d);
    assert!(d.list.is_empty(), "{:?}", d.list);
    let shown: Vec<String> = t
        .iter()
        .map(|t| match &t.kind {
            TokenKind::Ident(s) => format!("{s}@{}:{}", sm.name(t.loc.file), t.loc.line),
            k => format!("{k:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "C@src/sub/c.h:1",
            "Str(\"src/sub/c.h\")",
            "Int { value: 1, unsigned: false, long: false, decimal: true }",
            "A@src/a.h:3",
            "B@inc/b.h:1",
            // inc/b.h includes "a.h" relative to inc/: a different file.
            "wrong@inc/a.h:1",
            // "b.h" again (quoted, from src/: not found there, found in inc/).
            "B@inc/b.h:1",
            "wrong@inc/a.h:1",
            "end@src/main.cl:4",
            "Eof"
        ]
    );
    // Each file is stored once in the source map.
    let names: Vec<&str> = sm.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "src/main.cl",
            "src/a.h",
            "src/sub/c.h",
            "inc/b.h",
            "inc/a.h"
        ]
    );
}

#[test]
fn pragmas_are_kept_and_normalised() {
    let (t, d) = run("#define N 4
#define UNROLL _Pragma(\"unroll 8\")
#pragma unroll
#pragma unroll N*2
#pragma  ivdep   array( A ) safelen(N+1)
#pragma ivdep array(S->X[2][3].A)
#pragma loop_coalesce 2
#pragma ii (N)
#pragma max_concurrency 1
#pragma disable_loop_pipelining
#pragma OPENCL EXTENSION cl_intel_channels:enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
x UNROLL y");
    assert!(d.list.is_empty(), "{:?}", d.list);
    let texts: Vec<String> = t
        .iter()
        .map(|t| match &t.kind {
            TokenKind::Pragma(p) => format!("#{p}@{}", t.loc.line),
            TokenKind::Ident(s) => s.clone(),
            k => format!("{k:?}"),
        })
        .collect();
    assert_eq!(
        texts,
        [
            "#unroll@3",
            "#unroll 8@4",
            "#ivdep array(A) safelen(5)@5",
            "#ivdep array(S->X[2][3].A)@6",
            "#loop_coalesce 2@7",
            "#ii 4@8",
            "#max_concurrency 1@9",
            "#disable_loop_pipelining@10",
            "#OPENCL EXTENSION cl_intel_channels : enable@11",
            "#OPENCL EXTENSION cl_khr_fp64 : enable@12",
            "x",
            "#unroll 8@13",
            "y",
            "Eof"
        ]
    );
}

#[test]
fn error_diagnostics() {
    assert_eq!(
        errors("int x;\n  #error stop here  now\n"),
        ["main.cl:2:4: error: #error stop here now"]
    );
    assert_eq!(
        errors("#warning careful"),
        ["main.cl:1:2: warning: #warning careful"]
    );
    assert_eq!(
        errors("#if 1\nx\n"),
        ["main.cl:1:1: error: unterminated #if"]
    );
    assert_eq!(errors("#endif"), ["main.cl:1:2: error: #endif without #if"]);
    assert_eq!(
        errors("#else\n#elif 1\n"),
        [
            "main.cl:1:2: error: #else without #if",
            "main.cl:2:2: error: #elif without #if"
        ]
    );
    assert_eq!(
        errors("#if 1\n#else\n#else\n#endif"),
        ["main.cl:3:2: error: #else after #else"]
    );
    assert_eq!(
        errors("#include \"nope.h\""),
        ["main.cl:1:10: error: 'nope.h' file not found"]
    );
    assert_eq!(
        errors("#define f(a,b) a\nf(1)\nf(1,2,3)"),
        [
            "main.cl:2:1: error: macro \"f\" requires 2 arguments, but only 1 given",
            "main.cl:3:1: error: macro \"f\" passed 3 arguments, but takes just 2"
        ]
    );
    assert_eq!(
        errors("#define f(a) a\nf(1,\n"),
        ["main.cl:2:1: error: unterminated argument list invoking macro \"f\""]
    );
    assert_eq!(
        errors("#define 3 x\n#define f(a,a) a\n#define g(a) #b\n#define h ## x"),
        [
            "main.cl:1:9: error: macro names must be identifiers",
            "main.cl:2:13: error: duplicate macro parameter \"a\"",
            "main.cl:3:14: error: '#' is not followed by a macro parameter",
            "main.cl:4:11: error: '##' cannot appear at either end of a macro expansion"
        ]
    );
    assert_eq!(
        errors("#define P(a,b) a##b\nP(+,/)"),
        ["main.cl:2:3: error: pasting \"+\" and \"/\" does not give a valid preprocessing token"]
    );
    assert_eq!(
        errors("#if 1 +\n#endif\n#if (2\n#endif\n#if 1/0\n#endif\n#if 1.0\n#endif\n#if 1 2\n#endif\n#if\n#endif"),
        [
            "main.cl:1:7: error: #if expression ends unexpectedly",
            "main.cl:3:6: error: missing ')' in expression",
            "main.cl:5:6: error: division by zero in #if",
            "main.cl:7:5: error: floating constant in preprocessor expression",
            "main.cl:9:7: error: missing binary operator before token \"2\"",
            "main.cl:11:2: error: #if with no expression"
        ]
    );
    assert_eq!(
        errors("#foo\n#define A 1\n#define A 2"),
        [
            "main.cl:1:2: error: invalid preprocessing directive #foo",
            "main.cl:3:9: warning: \"A\" redefined",
            "main.cl:2:9: note: this is the location of the previous definition"
        ]
    );
    assert_eq!(
        errors("x = 'a;\n@"),
        [
            "main.cl:1:5: error: missing terminating ' character",
            "main.cl:2:1: error: stray '@' in program"
        ]
    );
    assert_eq!(
        errors("#line 50\n#error here"),
        ["main.cl:50:2: error: #error here"]
    );
}

#[test]
fn rendered_diagnostic_has_caret() {
    let (_, d, sm) = run_with(
        "kernel void k() {\n\t#error bad\n}",
        &[],
        &PpOptions::default(),
    );
    assert_eq!(
        d.render(&sm),
        "main.cl:2:3: error: #error bad\n\t#error bad\n\t ^\n"
    );
}

#[test]
fn exponential_macros_are_bounded() {
    let mut src = String::from("#define A0 x x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("A39\n");
    let (_, d) = run(&src);
    assert!(d
        .list
        .iter()
        .any(|x| x.message == "macro expansion produces too many tokens"));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut src = String::from("#define f(x) x\n");
    for _ in 0..5000 {
        src.push_str("f(");
    }
    src.push('1');
    for _ in 0..5000 {
        src.push(')');
    }
    let (_, d) = run(&src);
    assert!(d.has_errors());
    let mut src = String::from("#if ");
    for _ in 0..100_000 {
        src.push('(');
    }
    let _ = run(&src);
}

#[test]
fn fs_resolver_reads_files() {
    let dir = std::env::temp_dir().join(format!("fpgacl-pp-{}", std::process::id()));
    let inc = dir.join("inc");
    std::fs::create_dir_all(&inc).unwrap();
    std::fs::write(dir.join("k.h"), "K").unwrap();
    std::fs::write(inc.join("i.h"), "I").unwrap();
    let r = FsResolver::new(vec![inc.clone()]);
    let (name, text) = r.resolve("k.h", Some(&dir), false).unwrap();
    assert_eq!(
        (name, text),
        (
            dir.join("k.h").to_string_lossy().into_owned(),
            "K".to_string()
        )
    );
    assert_eq!(r.resolve("i.h", Some(&dir), true).unwrap().1, "I");
    assert!(r.resolve("k.h", Some(&dir), true).is_none());
    assert!(r.resolve("none.h", Some(&dir), false).is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn define_values_cannot_swallow_following_defines() {
    let opts = PpOptions {
        defines: vec![
            ("A".into(), Some("x\\".into())),
            ("B".into(), Some("/* y".into())),
            ("C".into(), Some("3".into())),
        ],
        ..PpOptions::default()
    };
    let (t, _, _) = run_with("C", &[], &opts);
    assert_eq!(
        t[0].kind,
        TokenKind::Int {
            value: 3,
            unsigned: false,
            long: false,
            decimal: true
        }
    );
}

#[test]
fn defined_operator_errors() {
    assert_eq!(
        errors("#if defined\n#endif\n#if defined(X\n#endif\n#if defined(1)\n#endif"),
        [
            "main.cl:1:5: error: operator \"defined\" requires an identifier",
            "main.cl:3:5: error: missing ')' after \"defined\"",
            "main.cl:5:5: error: operator \"defined\" requires an identifier"
        ]
    );
}

#[test]
fn self_including_headers_are_bounded() {
    let (_, d, _) = run_with(
        "#include \"a.h\"\nend",
        &[("a.h", "#include \"a.h\"\n#include \"a.h\"\nx")],
        &PpOptions::default(),
    );
    let msgs: Vec<&str> = d.list.iter().map(|x| x.message.as_str()).collect();
    assert!(msgs.contains(&"#include nested too deeply"), "{msgs:?}");
    assert!(msgs.contains(&"too many #include directives (is a header missing a guard?)"));
    assert!(msgs.len() < 300, "{}", msgs.len());
}

#[test]
fn error_floods_stop_preprocessing() {
    let src = "@\n".repeat(10_000);
    let (t, d) = run(&src);
    assert!(d.list.len() <= 2_001, "{}", d.list.len());
    assert_eq!(
        d.list.last().map(|x| x.message.as_str()),
        Some("too many errors; preprocessing stopped")
    );
    assert!(matches!(t.last().map(|t| &t.kind), Some(TokenKind::Eof)));
}

#[test]
fn unterminated_header_name_reported_once_and_not_when_skipped() {
    assert_eq!(
        errors("#include <foo.h\n#if 0\n#include \"bar\n#endif"),
        ["main.cl:1:10: error: missing terminating > character"]
    );
}

#[test]
fn forced_includes_come_first_in_order_and_keep_main_lines() {
    let opts = PpOptions {
        forced_includes: vec!["a.h".into(), "b.h".into()],
        ..PpOptions::default()
    };
    let (t, d, sm) = run_with(
        "A B __LINE__",
        &[("a.h", "#define A 7\n"), ("b.h", "#define B (A + 1)\n")],
        &opts,
    );
    assert!(d.list.is_empty(), "{:?}", d.list);
    let mut d2 = Diagnostics::default();
    let want = lex(FileId(0), "7 (7 + 1) 1", &mut d2);
    assert_eq!(kinds(&t), kinds(&want));
    assert!(sm.files.iter().any(|f| f.name == "b.h"));
    let missing = PpOptions {
        forced_includes: vec!["nope.h".into()],
        ..PpOptions::default()
    };
    let (_, d, _) = run_with("x", &[], &missing);
    assert!(
        d.list
            .iter()
            .any(|e| e.message.contains("-include: 'nope.h' file not found")),
        "{:?}",
        d.list
    );
}
