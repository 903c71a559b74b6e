//! Property tests of the lexer and preprocessor (a stable-toolchain complement to the
//! cargo-fuzz targets in `fuzz/`): random text and random mutations of the golden corpus
//! never panic, always end with `Eof`, and every token and diagnostic points into a file of
//! the source map.

use fpgacl_kernel_compiler::lexer::lex;
use fpgacl_kernel_compiler::options::BuildOptions;
use fpgacl_kernel_compiler::preprocess::{preprocess, MapResolver, PpOptions};
use fpgacl_kernel_compiler::token::TokenKind;
use fpgacl_kernel_compiler::{aocx, Diagnostics, FileId, SourceMap};
use proptest::prelude::*;

/// Fragments that steer mutations towards the preprocessor's corners.
const DICT: &[&str] = &[
    "#define ",
    "#undef ",
    "#if ",
    "#ifdef ",
    "#ifndef ",
    "#elif ",
    "#else\n",
    "#endif\n",
    "#include \"a.h\"\n",
    "#include <b.h>\n",
    "#include",
    "#line 5 \"x.cl\"\n",
    "#pragma unroll ",
    "#pragma ivdep array(A) safelen(",
    "_Pragma(\"unroll 2\")",
    "#error e\n",
    "#warning w\n",
    "defined",
    "defined(",
    "__VA_ARGS__",
    "...",
    "##",
    "#",
    "(",
    ")",
    ",",
    "\\\n",
    "\"",
    "'",
    "/*",
    "*/",
    "//",
    "\n",
    " ",
    "F(",
    "F",
    "G(x)",
    "0x1p-3f",
    "1e",
    "'\\x",
    "__LINE__",
    "__FILE__",
    "__COUNTER__",
    "1/0",
    "?",
    ":",
    "<<",
    "@",
    "\0",
];

const CORPUS: &[&str] = &[
    include_str!("corpus/pp/macros.cl"),
    include_str!("corpus/pp/stringize_paste.cl"),
    include_str!("corpus/pp/variadic.cl"),
    include_str!("corpus/pp/conditionals.cl"),
    include_str!("corpus/pp/pragmas.cl"),
    include_str!("corpus/pp/predefined.cl"),
    include_str!("corpus/pp/errors_macros.cl"),
    include_str!("corpus/pp/errors_if.cl"),
    include_str!("corpus/pp/guide_optimized.cl"),
];

/// Runs the preprocessor on `text` (split at NUL into the main file and `a.h`, `b.h`, ...)
/// and checks the invariants.
fn check_preprocess(text: &str) {
    let mut parts = text.split('\0');
    let main_text = parts.next().unwrap_or("");
    let mut resolver = MapResolver::default();
    for (i, p) in parts.take(8).enumerate() {
        resolver
            .files
            .insert(format!("{}.h", (b'a' + i as u8) as char), p.to_string());
    }
    let mut sm = SourceMap::default();
    let main = sm.add("fuzz.cl", main_text);
    let mut d = Diagnostics::default();
    let toks = preprocess(main, &mut sm, &PpOptions::default(), &resolver, &mut d);
    assert!(matches!(toks.last().map(|t| &t.kind), Some(TokenKind::Eof)));
    let n = sm.files.len();
    for t in &toks {
        assert!((t.loc.file.0 as usize) < n && t.loc.line >= 1 && t.loc.col >= 1);
    }
    for x in &d.list {
        assert!((x.loc.file.0 as usize) < n, "{x:?}");
    }
    let _ = d.render(&sm);
}

#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, usize),
    Delete(usize, usize),
    Duplicate(usize, usize),
    Byte(usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 0..DICT.len()).prop_map(|(p, d)| Edit::Insert(p, d)),
        (any::<usize>(), 1usize..40).prop_map(|(p, n)| Edit::Delete(p, n)),
        (any::<usize>(), 1usize..60).prop_map(|(p, n)| Edit::Duplicate(p, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Byte(p, b)),
    ]
}

/// Applies edits to the bytes of a corpus file.
fn mutate(base: &str, edits: &[Edit]) -> String {
    let mut b = base.as_bytes().to_vec();
    for e in edits {
        let len = b.len().max(1);
        match *e {
            Edit::Insert(p, d) => {
                let p = p % (b.len() + 1);
                b.splice(p..p, DICT[d].bytes());
            }
            Edit::Delete(p, n) => {
                let p = p % len;
                let end = (p + n).min(b.len());
                if p < end {
                    b.drain(p..end);
                }
            }
            Edit::Duplicate(p, n) => {
                let p = p % len;
                let end = (p + n).min(b.len());
                if p < end {
                    let chunk = b[p..end].to_vec();
                    b.splice(end..end, chunk);
                }
            }
            Edit::Byte(p, v) => {
                if !b.is_empty() {
                    let p = p % b.len();
                    b[p] = v;
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(s in "\\PC{0,300}") {
        let mut d = Diagnostics::default();
        let toks = lex(FileId(0), &s, &mut d);
        prop_assert!(matches!(toks.last().map(|t| &t.kind), Some(TokenKind::Eof)));
        check_preprocess(&s);
        let _ = BuildOptions::parse(&s);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_preprocess(&String::from_utf8_lossy(&bytes));
        let _ = aocx::read(&bytes);
    }

    #[test]
    fn mutated_corpus_never_panics(
        which in 0..CORPUS.len(),
        edits in proptest::collection::vec(edit(), 1..12),
    ) {
        check_preprocess(&mutate(CORPUS[which], &edits));
    }
}
