//! Recursive-descent parser: preprocessed tokens -> [`ast::TranslationUnit`].
//!
//! The parser tracks typedef names per scope (C's declaration/expression ambiguity needs them),
//! attaches `#pragma` tokens that precede a loop to that loop, and recovers from errors at the
//! next `;` or `}` so that one build reports several errors. It never panics: nesting depth is
//! bounded and every token access is checked.

mod decl;
mod expr;
mod pragma;
mod stmt;

use crate::ast::*;
use crate::diag::Diagnostics;
use crate::source::Loc;
use crate::token::{Punct, Token, TokenKind};
use std::collections::HashMap;

pub(crate) use decl::vector_name_parts;
pub use pragma::{apply_loop_attribute, parse_loop_pragma};

/// Maximum nesting of expressions, statements and declarators.
const MAX_DEPTH: u32 = 1000;
/// Parsing stops after this many errors.
const MAX_ERRORS: usize = 50;

/// Marker for a parse error already reported to the diagnostics.
#[derive(Debug)]
pub(crate) struct Reported;

pub(crate) type PResult<T> = Result<T, Reported>;

/// Parses a token stream (ending in `Eof`) into a translation unit.
pub fn parse(tokens: &[Token], diags: &mut Diagnostics) -> TranslationUnit {
    let mut p = Parser::new(tokens, diags);
    p.translation_unit()
}

pub(crate) struct Parser<'a> {
    toks: Vec<Token>,
    /// Pragmas that stood before token `i` (token indices after pragma removal).
    pragmas: HashMap<usize, Vec<(String, Loc)>>,
    pos: usize,
    pub(crate) diags: &'a mut Diagnostics,
    /// Scopes of names: true = typedef name, false = ordinary identifier (shadows a typedef).
    scopes: Vec<HashMap<String, bool>>,
    depth: u32,
    errors_at_start: usize,
    eof_loc: Loc,
}

impl<'a> Parser<'a> {
    fn new(tokens: &[Token], diags: &'a mut Diagnostics) -> Self {
        let mut toks = Vec::with_capacity(tokens.len() + 1);
        let mut pragmas: HashMap<usize, Vec<(String, Loc)>> = HashMap::new();
        let mut eof_loc = Loc::default();
        for t in tokens {
            match &t.kind {
                TokenKind::Pragma(s) => pragmas
                    .entry(toks.len())
                    .or_default()
                    .push((s.clone(), t.loc)),
                TokenKind::Eof => {
                    eof_loc = t.loc;
                    break;
                }
                _ => toks.push(t.clone()),
            }
        }
        if eof_loc == Loc::default() {
            if let Some(last) = toks.last() {
                eof_loc = last.loc;
            }
        }
        toks.push(Token {
            kind: TokenKind::Eof,
            loc: eof_loc,
            space_before: true,
        });
        let errors_at_start = diags.list.len();
        Parser {
            toks,
            pragmas,
            pos: 0,
            diags,
            scopes: vec![HashMap::new()],
            depth: 0,
            errors_at_start,
            eof_loc,
        }
    }

    // ---- token access -------------------------------------------------------------------

    pub(crate) fn peek(&self) -> &TokenKind {
        &self.toks[self.pos.min(self.toks.len() - 1)].kind
    }
    pub(crate) fn peek_at(&self, n: usize) -> &TokenKind {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].kind
    }
    pub(crate) fn loc(&self) -> Loc {
        self.toks[self.pos.min(self.toks.len() - 1)].loc
    }
    pub(crate) fn prev_loc(&self) -> Loc {
        if self.pos == 0 {
            self.loc()
        } else {
            self.toks[(self.pos - 1).min(self.toks.len() - 1)].loc
        }
    }
    pub(crate) fn bump(&mut self) {
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
    }
    pub(crate) fn at_eof(&self) -> bool {
        matches!(self.peek(), TokenKind::Eof)
    }
    pub(crate) fn is_punct(&self, p: Punct) -> bool {
        matches!(self.peek(), TokenKind::Punct(q) if *q == p)
    }
    pub(crate) fn is_punct_at(&self, n: usize, p: Punct) -> bool {
        matches!(self.peek_at(n), TokenKind::Punct(q) if *q == p)
    }
    pub(crate) fn eat(&mut self, p: Punct) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub(crate) fn ident(&self) -> Option<&str> {
        match self.peek() {
            TokenKind::Ident(s) => Some(s.as_str()),
            _ => None,
        }
    }
    pub(crate) fn ident_at(&self, n: usize) -> Option<&str> {
        match self.peek_at(n) {
            TokenKind::Ident(s) => Some(s.as_str()),
            _ => None,
        }
    }
    pub(crate) fn is_kw(&self, kw: &str) -> bool {
        self.ident() == Some(kw)
    }
    /// Takes the pragmas written before the current token.
    pub(crate) fn take_pragmas(&mut self) -> Vec<(String, Loc)> {
        self.pragmas.remove(&self.pos).unwrap_or_default()
    }

    /// A readable description of the current token for messages.
    pub(crate) fn describe(&self) -> String {
        match self.peek() {
            TokenKind::Ident(s) => format!("'{s}'"),
            TokenKind::Punct(p) => format!("'{}'", p.as_str()),
            TokenKind::Int { .. } | TokenKind::Float { .. } | TokenKind::Char(_) => {
                "numeric constant".into()
            }
            TokenKind::Str(_) => "string literal".into(),
            TokenKind::Pragma(_) => "#pragma".into(),
            TokenKind::Eof => "end of file".into(),
        }
    }

    // ---- errors -------------------------------------------------------------------------

    pub(crate) fn error(&mut self, loc: Loc, msg: impl Into<String>) -> Reported {
        self.diags.error(loc, msg);
        Reported
    }
    pub(crate) fn warn(&mut self, loc: Loc, msg: impl Into<String>) {
        self.diags.warning(loc, msg);
    }
    pub(crate) fn error_here(&mut self, msg: impl Into<String>) -> Reported {
        let loc = self.loc();
        self.error(loc, msg)
    }
    /// Expects punctuator `p`; reports "expected 'p' <context>".
    pub(crate) fn expect(&mut self, p: Punct, context: &str) -> PResult<()> {
        if self.eat(p) {
            return Ok(());
        }
        // For a missing ';' or ')' C compilers point just after the previous token.
        let loc = if matches!(p, Punct::Semi) && self.pos > 0 {
            let prev = &self.toks[self.pos - 1];
            let len = token_len(&prev.kind);
            Loc::new(
                prev.loc.file,
                prev.loc.line,
                prev.loc.col.saturating_add(len),
            )
        } else {
            self.loc()
        };
        let msg = if context.is_empty() {
            format!("expected '{}'", p.as_str())
        } else {
            format!("expected '{}' {context}", p.as_str())
        };
        Err(self.error(loc, msg))
    }
    fn too_many_errors(&self) -> bool {
        self.diags.list.len().saturating_sub(self.errors_at_start) >= MAX_ERRORS
    }
    pub(crate) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let loc = self.loc();
            self.depth -= 1;
            return Err(self.error(loc, "nesting too deep (bracket nesting level exceeded)"));
        }
        Ok(())
    }
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips to just after the next `;` at this nesting level, or to a `}` closing the level.
    pub(crate) fn recover_stmt(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek() {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::Semi) if depth <= 0 => {
                    self.bump();
                    return;
                }
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RBrace) => {
                    if depth <= 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        // A closed block ends a statement unless a ';' follows.
                        self.eat(Punct::Semi);
                        return;
                    }
                }
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => depth -= 1,
                _ => {}
            }
            self.bump();
        }
    }

    // ---- scopes -------------------------------------------------------------------------

    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }
    pub(crate) fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }
    pub(crate) fn declare(&mut self, name: &str, is_typedef: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), is_typedef);
        }
    }
    pub(crate) fn is_typedef_name(&self, name: &str) -> bool {
        for s in self.scopes.iter().rev() {
            if let Some(t) = s.get(name) {
                return *t;
            }
        }
        false
    }

    // ---- translation unit ---------------------------------------------------------------

    fn translation_unit(&mut self) -> TranslationUnit {
        let mut items = Vec::new();
        let mut pragmas = Vec::new();
        while !self.at_eof() {
            if self.too_many_errors() {
                let loc = self.loc();
                self.diags
                    .error(loc, "too many errors emitted, stopping now");
                break;
            }
            pragmas.extend(self.take_pragmas());
            if self.eat(Punct::Semi) {
                continue;
            }
            let start = self.pos;
            match self.external_decl() {
                Ok(Some(item)) => items.push(item),
                Ok(None) => {}
                Err(Reported) => {
                    self.recover_stmt();
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
        pragmas.extend(self.take_pragmas());
        let _ = self.eof_loc;
        TranslationUnit { items, pragmas }
    }

    fn external_decl(&mut self) -> PResult<Option<Item>> {
        let loc = self.loc();
        if !self.starts_decl_spec() {
            if let Some(name) = self.ident() {
                let name = name.to_string();
                return Err(self.error(loc, format!("unknown type name '{name}'")));
            }
            return Err(self.error(
                loc,
                format!("expected external declaration before {}", self.describe()),
            ));
        }
        let spec = self.decl_spec()?;
        if self.eat(Punct::Semi) {
            return Ok(Some(Item::Decl(Declaration {
                spec,
                decls: vec![],
                loc,
            })));
        }
        let d = self.declarator(false)?;
        if matches!(d.derived.last(), Some(Derived::Function { .. }))
            && self.is_punct(Punct::LBrace)
        {
            if let Some(n) = &d.name {
                self.declare(&n.clone(), false);
            }
            // Parameters are visible in the body.
            self.push_scope();
            if let Some(Derived::Function { params, .. }) = d.derived.last() {
                let names: Vec<String> =
                    params.iter().filter_map(|p| p.decl.name.clone()).collect();
                for n in names {
                    self.declare(&n, false);
                }
            }
            let body = self.block_after_scope();
            self.pop_scope();
            let body = body?;
            return Ok(Some(Item::Function(FunctionDef {
                spec,
                decl: d,
                body,
                loc,
            })));
        }
        let decl = self.rest_of_declaration(spec, d, loc)?;
        Ok(Some(Item::Decl(decl)))
    }
}

/// Length in columns of a token as written (approximate for literals), used to place
/// "expected ';'" just after the previous token.
fn token_len(k: &TokenKind) -> u32 {
    match k {
        TokenKind::Ident(s) => s.chars().count() as u32,
        TokenKind::Punct(p) => p.as_str().len() as u32,
        TokenKind::Int { value, .. } => value.to_string().len() as u32,
        TokenKind::Str(s) => s.chars().count() as u32 + 2,
        TokenKind::Char(_) => 3,
        _ => 1,
    }
}

/// Parses a token stream of a single expression (used by tests and attribute evaluation).
pub fn parse_expression(tokens: &[Token], diags: &mut Diagnostics) -> Option<Expr> {
    let mut p = Parser::new(tokens, diags);
    p.expr().ok()
}
