use super::*;
use crate::token::FloatSuffix;

fn kinds(src: &str) -> (Vec<TokenKind>, Diagnostics) {
    let mut d = Diagnostics::default();
    let toks = lex(FileId(0), src, &mut d);
    (toks.into_iter().map(|t| t.kind).collect(), d)
}

fn one(src: &str) -> TokenKind {
    let (k, d) = kinds(src);
    assert!(!d.has_errors(), "{src}: {:?}", d.list);
    assert_eq!(k.len(), 2, "{src}: {k:?}");
    k[0].clone()
}

fn int(value: u64, unsigned: bool, long: bool, decimal: bool) -> TokenKind {
    TokenKind::Int {
        value,
        unsigned,
        long,
        decimal,
    }
}

fn float(src: &str) -> (f64, FloatSuffix) {
    match one(src) {
        TokenKind::Float { value, suffix } => (value, suffix),
        k => panic!("{src}: {k:?}"),
    }
}

fn err(src: &str) -> String {
    let (_, d) = kinds(src);
    assert!(d.has_errors(), "{src} should fail");
    d.list[0].message.clone()
}

#[test]
fn integers() {
    assert_eq!(one("0"), int(0, false, false, true));
    assert_eq!(one("42"), int(42, false, false, true));
    assert_eq!(one("0x1F"), int(31, false, false, false));
    assert_eq!(one("0X1fu"), int(31, true, false, false));
    assert_eq!(one("017"), int(15, false, false, false));
    assert_eq!(one("10UL"), int(10, true, true, true));
    assert_eq!(one("10lu"), int(10, true, true, true));
    assert_eq!(one("10ll"), int(10, false, true, true));
    assert_eq!(one("10LLU"), int(10, true, true, true));
    assert_eq!(one("10l"), int(10, false, true, true));
    assert_eq!(
        one("18446744073709551615u"),
        int(u64::MAX, true, false, true)
    );
    assert_eq!(
        one("0xffffffffffffffff"),
        int(u64::MAX, false, false, false)
    );
}

#[test]
fn bad_integers() {
    assert_eq!(err("08"), "invalid digit \"8\" in octal constant");
    assert_eq!(err("10f"), "invalid suffix \"f\" on integer constant");
    assert_eq!(err("10lL"), "invalid suffix \"lL\" on integer constant");
    assert_eq!(err("1uu"), "invalid suffix \"uu\" on integer constant");
    assert_eq!(err("0x"), "invalid suffix \"\" on integer constant");
    assert!(err("18446744073709551616").contains("too large"));
}

#[test]
fn floats() {
    assert_eq!(float("1.5"), (1.5, FloatSuffix::None));
    assert_eq!(float("1."), (1.0, FloatSuffix::None));
    assert_eq!(float(".25f"), (0.25, FloatSuffix::F));
    assert_eq!(float("1e3"), (1000.0, FloatSuffix::None));
    assert_eq!(float("1.5E-2F"), (0.015f32 as f64, FloatSuffix::F));
    assert_eq!(float("2.5h"), (2.5, FloatSuffix::H));
    assert_eq!(float("0x1p4"), (16.0, FloatSuffix::None));
    assert_eq!(float("0x1.8p1"), (3.0, FloatSuffix::None));
    assert_eq!(float("0X.8P0f"), (0.5, FloatSuffix::F));
    assert_eq!(float("0x1p-2"), (0.25, FloatSuffix::None));
    assert_eq!(float("0x1.fffffep127f"), (f32::MAX as f64, FloatSuffix::F));
    assert_eq!(
        float("0x1.fffffffffffffp1023"),
        (f64::MAX, FloatSuffix::None)
    );
    assert_eq!(
        float("0x0.0000000000000000001p76"),
        (1.0, FloatSuffix::None)
    );
    assert_eq!(float("0.1f"), (0.1f32 as f64, FloatSuffix::F));
    assert_eq!(float("3.4028235e38f").0, f32::MAX as f64);
}

#[test]
fn bad_floats() {
    assert_eq!(err("1e"), "exponent has no digits");
    assert_eq!(err("1.5x"), "invalid suffix \"x\" on floating constant");
    assert_eq!(err("1.5l"), "invalid suffix \"l\" on floating constant");
    assert_eq!(
        err("0x1.5"),
        "hexadecimal floating constant requires an exponent"
    );
    assert_eq!(err("1.2.3"), "invalid suffix \".3\" on floating constant");
    let (_, d) = kinds("1e999f");
    assert_eq!(
        d.list[0].message,
        "floating constant exceeds range of 'float'"
    );
    assert!(!d.has_errors());
}

#[test]
fn chars_and_strings() {
    assert_eq!(one("'a'"), TokenKind::Char(97));
    assert_eq!(one("'\\n'"), TokenKind::Char(10));
    assert_eq!(one("'\\x41'"), TokenKind::Char(65));
    assert_eq!(one("'\\101'"), TokenKind::Char(65));
    assert_eq!(one("'\\0'"), TokenKind::Char(0));
    assert_eq!(one("'\\xff'"), TokenKind::Char(-1));
    assert_eq!(one("'\\''"), TokenKind::Char(39));
    assert_eq!(one("L'\\x1234'"), TokenKind::Char(0x1234));
    assert_eq!(one("\"a\\tb\\\"c\""), TokenKind::Str("a\tb\"c".into()));
    assert_eq!(one("\"\\x41\\102C\""), TokenKind::Str("ABC".into()));
    assert_eq!(one("\"h\u{e9}\""), TokenKind::Str("h\u{e9}".into()));
    let (k, d) = kinds("'ab'");
    assert_eq!(k[0], TokenKind::Char(0x6162));
    assert_eq!(d.list[0].message, "multi-character character constant");
    assert_eq!(err("''"), "empty character constant");
    assert_eq!(err("\"abc\nx"), "missing terminating \" character");
    assert_eq!(err("'a"), "missing terminating ' character");
    assert_eq!(err("'\\x100'"), "hex escape sequence out of range");
}

#[test]
fn punctuators_longest_match() {
    use Punct::*;
    let src = "[](){}.->++--&*+-~!/%<<>><=>===!=^|&&||?:;...=*=/=%=+=-=<<=>>=&=^=|=,###";
    let (k, d) = kinds(src);
    assert!(!d.has_errors());
    let want = [
        LBracket,
        RBracket,
        LParen,
        RParen,
        LBrace,
        RBrace,
        Dot,
        Arrow,
        PlusPlus,
        MinusMinus,
        Amp,
        Star,
        Plus,
        Minus,
        Tilde,
        Bang,
        Slash,
        Percent,
        Shl,
        Shr,
        Le,
        Ge,
        EqEq,
        Ne,
        Caret,
        Pipe,
        AmpAmp,
        PipePipe,
        Question,
        Colon,
        Semi,
        Ellipsis,
        Assign,
        StarAssign,
        SlashAssign,
        PercentAssign,
        PlusAssign,
        MinusAssign,
        ShlAssign,
        ShrAssign,
        AmpAssign,
        CaretAssign,
        PipeAssign,
        Comma,
        HashHash,
        Hash,
    ];
    let got: Vec<Punct> = k
        .iter()
        .filter_map(|k| match k {
            TokenKind::Punct(p) => Some(*p),
            _ => None,
        })
        .collect();
    assert_eq!(got, want);
    let (k, _) = kinds("a+++++b");
    assert_eq!(k.len(), 6); // a ++ ++ + b Eof
    let (k, _) = kinds("<: :> <% %> %: %:%:");
    assert_eq!(
        k[..6],
        [
            TokenKind::Punct(LBracket),
            TokenKind::Punct(RBracket),
            TokenKind::Punct(LBrace),
            TokenKind::Punct(RBrace),
            TokenKind::Punct(Hash),
            TokenKind::Punct(HashHash)
        ]
    );
}

#[test]
fn locations_comments_and_splices() {
    let src = "int a; // c\n  /* multi\n line */ b\tc\\\nd \\\n e\r\nf";
    let mut d = Diagnostics::default();
    let toks = lex(FileId(3), src, &mut d);
    assert!(!d.has_errors());
    let got: Vec<(String, u32, u32, bool)> = toks
        .iter()
        .map(|t| {
            let s = match &t.kind {
                TokenKind::Ident(s) => s.clone(),
                TokenKind::Punct(p) => p.as_str().to_string(),
                TokenKind::Eof => "EOF".into(),
                k => format!("{k:?}"),
            };
            (s, t.loc.line, t.loc.col, t.space_before)
        })
        .collect();
    let want = [
        ("int", 1, 1, false),
        ("a", 1, 5, true),
        (";", 1, 6, false),
        ("b", 3, 10, true),
        ("cd", 3, 12, true),
        ("e", 5, 2, true),
        ("f", 6, 1, true),
        ("EOF", 6, 2, true),
    ];
    let want: Vec<(String, u32, u32, bool)> = want
        .iter()
        .map(|(s, l, c, sp)| (s.to_string(), *l, *c, *sp))
        .collect();
    assert_eq!(got, want);
    assert!(toks.iter().all(|t| t.loc.file == FileId(3)));
}

#[test]
fn unterminated_comment_and_stray() {
    assert_eq!(err("a /* x"), "unterminated /* comment");
    let (k, d) = kinds("a @ b");
    assert_eq!(k.len(), 3);
    assert_eq!(d.list[0].message, "stray '@' in program");
    assert_eq!(d.list[0].loc, Loc::new(FileId(0), 1, 3));
}

#[test]
fn pp_tokens() {
    let mut d = Diagnostics::default();
    let t = lex_pp(
        FileId(0),
        "#include <a/b c.h>\n  # include \"x.h\"\nx < y > z\n1..e+5 .5 0x1p-3f",
        &mut d,
    );
    let sp: Vec<String> = t.iter().map(|t| t.kind.spelling().into_owned()).collect();
    assert_eq!(
        sp,
        [
            "#",
            "include",
            "<a/b c.h>",
            "#",
            "include",
            "\"x.h\"",
            "x",
            "<",
            "y",
            ">",
            "z",
            "1..e+5",
            ".5",
            "0x1p-3f"
        ]
    );
    assert!(matches!(t[2].kind, PpKind::HeaderName(_)));
    assert!(matches!(t[5].kind, PpKind::HeaderName(_)));
    assert!(t[0].line_start && t[3].line_start && t[6].line_start && !t[7].line_start);
    assert_eq!(t[3].loc, Loc::new(FileId(0), 2, 3));
}

#[test]
fn never_panics_on_odd_input() {
    for src in [
        "\\",
        "\\\n",
        "'",
        "\"",
        "'\\",
        "\"\\",
        "0x.p",
        "0x1p",
        "0x1p+",
        ".",
        "..",
        "%:%",
        "\r",
        "0e+",
        "1e-f",
        "0x1.p99999999999999999999999",
        "0x.000000000000000000000000001p-99999",
        "\u{0}",
        "é",
        "L'",
        "u8\"x\"",
        "#include",
        "#include <",
        "#include \"a",
    ] {
        let mut d = Diagnostics::default();
        let _ = lex(FileId(0), src, &mut d);
    }
}
