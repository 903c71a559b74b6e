//! Tokens produced by the preprocessor and consumed by the parser.
//!
//! The preprocessor hands the parser a flat `Vec<Token>` that ends with [`TokenKind::Eof`]:
//! macros are expanded, directives are gone, `#pragma` lines become [`TokenKind::Pragma`] tokens
//! placed where they stood (so the parser can attach `#pragma unroll` to the loop that follows),
//! and each token keeps the location of the text the user wrote (for a macro expansion, the
//! location of the macro use).

use crate::source::Loc;
use serde::{Deserialize, Serialize};

/// A token with its location.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Token {
    pub kind: TokenKind,
    pub loc: Loc,
    /// True when whitespace or a line break preceded this token (needed for `#` stringizing
    /// and for pretty-printing; the parser ignores it).
    pub space_before: bool,
}

/// What a token is. Keywords are identifiers; the parser recognises them by text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TokenKind {
    Ident(String),
    /// An integer literal: its value and suffix flags (`u`/`U`, `l`/`L`), and whether it was
    /// written in decimal (which changes the type rules of C99 6.4.4.1).
    Int {
        value: u64,
        unsigned: bool,
        long: bool,
        decimal: bool,
    },
    /// A floating literal: its value and suffix (`f`/`F` = float, `h`/`H` = half, none = double).
    Float {
        value: f64,
        suffix: FloatSuffix,
    },
    /// A character constant, already decoded (`'a'`, `'\n'`, `'\x41'`).
    Char(i64),
    /// A string literal, already decoded (adjacent literals are concatenated by the parser).
    Str(String),
    Punct(Punct),
    /// A `#pragma` line: the words after `pragma`, macro-expanded where C allows, joined by one
    /// space (for example `unroll 4`, `ivdep array(A) safelen(8)`, `OPENCL EXTENSION cl_intel_channels : enable`).
    Pragma(String),
    Eof,
}

/// The suffix of a floating literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FloatSuffix {
    None,
    F,
    H,
}

/// Punctuators of C99 (6.4.6) used by OpenCL C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Punct {
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
    Lt,
    Gt,
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
    Hash,
    HashHash,
}

impl Punct {
    /// The spelling of the punctuator.
    pub fn as_str(self) -> &'static str {
        use Punct::*;
        match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Assign => "=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            PlusAssign => "+=",
            MinusAssign => "-=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            CaretAssign => "^=",
            PipeAssign => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}
