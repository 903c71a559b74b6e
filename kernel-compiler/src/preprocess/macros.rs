//! Macro definitions (`#define`) and macro expansion (C99 6.10.3).
//!
//! Expansion follows Prosser's algorithm: every token carries a *hide set* of macro names
//! that must not expand it again. An object-like macro's replacement gets the name's hide set
//! plus the name; a function-like macro's gets the intersection of the hide sets of the name
//! and the closing parenthesis, plus the name. Arguments are fully expanded before
//! substitution except next to `#` and `##`; the result is rescanned with the rest of the
//! input.

use super::engine::{PTok, Pp, Src, BUILTIN_FILE};
use crate::lexer::{self, PpKind};
use crate::source::Loc;
use crate::token::Punct;
use crate::Diagnostics;
use std::collections::VecDeque;
use std::rc::Rc;

/// Most tokens all macro expansions of one compilation may produce.
const MAX_EXPANDED_TOKENS: usize = 1_000_000;
/// Deepest nesting of argument pre-expansion.
const MAX_DEPTH: usize = 200;

/// A sorted set of interned macro names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct HideSet(Vec<u32>);

impl HideSet {
    fn contains(&self, id: u32) -> bool {
        self.0.binary_search(&id).is_ok()
    }
    fn insert(&mut self, id: u32) {
        if let Err(i) = self.0.binary_search(&id) {
            self.0.insert(i, id);
        }
    }
    fn intersect(&self, other: &HideSet) -> HideSet {
        HideSet(
            self.0
                .iter()
                .copied()
                .filter(|x| other.contains(*x))
                .collect(),
        )
    }
    fn union(&mut self, other: &HideSet) {
        for &x in &other.0 {
            self.insert(x);
        }
    }
}

/// Macros whose replacement the preprocessor computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dynamic {
    Line,
    File,
    Counter,
}

/// A defined macro.
#[derive(Debug)]
pub(crate) struct Macro {
    /// Parameter names of a function-like macro (`None` = object-like). A variadic macro's
    /// last parameter is `__VA_ARGS__` (or the GNU-style named one).
    pub params: Option<Vec<String>>,
    pub variadic: bool,
    /// Replacement list.
    pub body: Vec<PTok>,
    /// For each body token, the index of the parameter it names.
    pub param_at: Vec<Option<usize>>,
    pub def_loc: Loc,
    pub dynamic: Option<Dynamic>,
}

impl Macro {
    fn same_definition(&self, other: &Macro) -> bool {
        self.params == other.params
            && self.variadic == other.variadic
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| a.kind == b.kind && (i == 0 || a.space == b.space))
    }
}

impl Pp<'_> {
    /// Registers `__LINE__`, `__FILE__` and `__COUNTER__`.
    pub(super) fn define_dynamic(&mut self) {
        for (name, d) in [
            ("__LINE__", Dynamic::Line),
            ("__FILE__", Dynamic::File),
            ("__COUNTER__", Dynamic::Counter),
        ] {
            self.macros.insert(
                name.to_string(),
                Rc::new(Macro {
                    params: None,
                    variadic: false,
                    body: Vec::new(),
                    param_at: Vec::new(),
                    def_loc: Loc::new(BUILTIN_FILE, 1, 1),
                    dynamic: Some(d),
                }),
            );
        }
    }

    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.names.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.insert(name.to_string(), id);
        id
    }

    /// `#define` with the tokens after `define`.
    pub(super) fn define(&mut self, loc: Loc, rest: &[PTok]) {
        let Some(first) = rest.first() else {
            self.diags
                .error(loc, "no macro name given in #define directive");
            return;
        };
        let Some(name) = first.ident().map(str::to_string) else {
            self.diags
                .error(first.loc, "macro names must be identifiers");
            return;
        };
        if name == "defined" {
            self.diags
                .error(first.loc, "\"defined\" cannot be used as a macro name");
            return;
        }
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        if rest
            .get(1)
            .is_some_and(|t| t.is_punct(Punct::LParen) && !t.space)
        {
            let mut ps: Vec<String> = Vec::new();
            i = 2;
            loop {
                let Some(t) = rest.get(i) else {
                    self.diags
                        .error(first.loc, "missing ')' in macro parameter list");
                    return;
                };
                if ps.is_empty() && t.is_punct(Punct::RParen) {
                    i += 1;
                    break;
                }
                if t.is_punct(Punct::Ellipsis) {
                    ps.push("__VA_ARGS__".into());
                    variadic = true;
                    i += 1;
                } else if let Some(p) = t.ident() {
                    if ps.iter().any(|q| q == p) {
                        self.diags
                            .error(t.loc, format!("duplicate macro parameter \"{p}\""));
                        return;
                    }
                    if p == "__VA_ARGS__" {
                        self.diags.error(
                            t.loc,
                            "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                        );
                        return;
                    }
                    ps.push(p.to_string());
                    i += 1;
                    if rest.get(i).is_some_and(|t| t.is_punct(Punct::Ellipsis)) {
                        variadic = true;
                        i += 1;
                    }
                } else {
                    self.diags.error(
                        t.loc,
                        format!("expected parameter name, found \"{}\"", t.kind.spelling()),
                    );
                    return;
                }
                match rest.get(i) {
                    Some(t) if t.is_punct(Punct::RParen) => {
                        i += 1;
                        break;
                    }
                    Some(t) if t.is_punct(Punct::Comma) && !variadic => i += 1,
                    Some(t) => {
                        self.diags.error(
                            t.loc,
                            format!("expected ',' or ')', found \"{}\"", t.kind.spelling()),
                        );
                        return;
                    }
                    None => {
                        self.diags
                            .error(first.loc, "missing ')' in macro parameter list");
                        return;
                    }
                }
            }
            params = Some(ps);
        } else if rest.get(1).is_some_and(|t| !t.space) {
            self.diags
                .warning(rest[1].loc, "missing whitespace after the macro name");
        }
        let mut body: Vec<PTok> = rest[i..].to_vec();
        if let Some(b) = body.first_mut() {
            b.space = false;
        }
        let param_at: Vec<Option<usize>> = body
            .iter()
            .map(|t| {
                let ps = params.as_ref()?;
                let n = t.ident()?;
                ps.iter().position(|p| p == n)
            })
            .collect();
        if body.first().is_some_and(|t| t.is_punct(Punct::HashHash)) {
            self.diags.error(
                body[0].loc,
                "'##' cannot appear at either end of a macro expansion",
            );
            return;
        }
        if body.last().is_some_and(|t| t.is_punct(Punct::HashHash)) {
            self.diags.error(
                body[body.len() - 1].loc,
                "'##' cannot appear at either end of a macro expansion",
            );
            return;
        }
        if params.is_some() {
            for (k, t) in body.iter().enumerate() {
                if t.is_punct(Punct::Hash) && param_at.get(k + 1).copied().flatten().is_none() {
                    self.diags
                        .error(t.loc, "'#' is not followed by a macro parameter");
                    return;
                }
            }
        }
        let m = Macro {
            params,
            variadic,
            body,
            param_at,
            def_loc: first.loc,
            dynamic: None,
        };
        if let Some(old) = self.macros.get(&name) {
            if !old.same_definition(&m) {
                let old_loc = old.def_loc;
                self.diags
                    .warning(first.loc, format!("\"{name}\" redefined"));
                if old_loc.file != BUILTIN_FILE {
                    self.diags.push(crate::Diagnostic::note(
                        old_loc,
                        "this is the location of the previous definition",
                    ));
                }
            }
        }
        self.macros.insert(name, Rc::new(m));
    }

    /// The next fully macro-expanded token from `src`, or `None` at its end.
    pub(super) fn next_expanded(&mut self, src: &mut Src) -> Option<PTok> {
        loop {
            let t = self.next_raw(src)?;
            let Some(name) = t.ident() else {
                return Some(t);
            };
            let Some(m) = self.macros.get(name).cloned() else {
                return Some(t);
            };
            let id = self.intern(name);
            if t.hide.contains(id) || self.produced > MAX_EXPANDED_TOKENS {
                return Some(t);
            }
            if let Some(d) = m.dynamic {
                return Some(self.dynamic_token(d, &t));
            }
            let expansion = match &m.params {
                None => {
                    let mut hs = t.hide.clone();
                    hs.insert(id);
                    self.subst(&m, &[], &hs, &t)
                }
                Some(params) => {
                    if !self.peek_lparen(src) {
                        return Some(t);
                    }
                    let name = name.to_string();
                    let Some((args, rparen)) =
                        self.collect_args(src, &t, &name, params.len(), m.variadic)
                    else {
                        continue;
                    };
                    let mut hs = t.hide.intersect(&rparen.hide);
                    hs.insert(id);
                    self.subst(&m, &args, &hs, &t)
                }
            };
            self.produced += expansion.len();
            if self.produced > MAX_EXPANDED_TOKENS && !self.budget_reported {
                self.budget_reported = true;
                self.diags
                    .error(t.loc, "macro expansion produces too many tokens");
            }
            self.push_front(src, expansion);
        }
    }

    fn dynamic_token(&mut self, d: Dynamic, t: &PTok) -> PTok {
        let kind = match d {
            Dynamic::Line => PpKind::Number(t.loc.line.to_string()),
            Dynamic::File => {
                let name = if t.loc.file == BUILTIN_FILE {
                    "<built-in>"
                } else {
                    self.sources.name(t.loc.file)
                };
                let mut s = String::from("\"");
                for c in name.chars() {
                    if c == '\\' || c == '"' {
                        s.push('\\');
                    }
                    s.push(c);
                }
                s.push('"');
                PpKind::Str(s)
            }
            Dynamic::Counter => {
                self.counter += 1;
                PpKind::Number((self.counter - 1).to_string())
            }
        };
        PTok {
            kind,
            loc: t.loc,
            space: t.space,
            hide: t.hide.clone(),
            placemarker: false,
        }
    }

    /// Reads the arguments of a function-like macro invocation (the `(` is next).
    /// Returns the arguments and the closing parenthesis, or `None` after an error.
    fn collect_args(
        &mut self,
        src: &mut Src,
        name_tok: &PTok,
        name: &str,
        nparams: usize,
        variadic: bool,
    ) -> Option<(Vec<Vec<PTok>>, PTok)> {
        let _lparen = self.next_raw(src);
        let mut args: Vec<Vec<PTok>> = vec![Vec::new()];
        let mut depth = 0usize;
        let rparen = loop {
            let Some(t) = self.next_raw(src) else {
                self.diags.error(
                    name_tok.loc,
                    format!("unterminated argument list invoking macro \"{name}\""),
                );
                return None;
            };
            if t.is_punct(Punct::LParen) {
                depth += 1;
            } else if t.is_punct(Punct::RParen) {
                if depth == 0 {
                    break t;
                }
                depth -= 1;
            } else if t.is_punct(Punct::Comma) && depth == 0 && !(variadic && args.len() == nparams)
            {
                args.push(Vec::new());
                continue;
            }
            args.last_mut().expect("never empty").push(t);
        };
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if variadic && args.len() + 1 == nparams {
            args.push(Vec::new());
        }
        if args.len() != nparams {
            let msg = if args.len() < nparams {
                format!(
                    "macro \"{name}\" requires {nparams} arguments, but only {} given",
                    args.len()
                )
            } else {
                format!(
                    "macro \"{name}\" passed {} arguments, but takes just {nparams}",
                    args.len()
                )
            };
            self.diags.error(name_tok.loc, msg);
            return None;
        }
        Some((args, rparen))
    }

    /// Fully macro-expands an isolated token list.
    pub(super) fn expand_list(&mut self, toks: Vec<PTok>) -> Vec<PTok> {
        if self.depth >= MAX_DEPTH {
            if let Some(t) = toks.first() {
                if !self.budget_reported {
                    self.budget_reported = true;
                    self.diags.error(t.loc, "macro expansion nested too deeply");
                }
            }
            return toks;
        }
        self.depth += 1;
        let mut q: VecDeque<PTok> = toks.into();
        let mut out = Vec::with_capacity(q.len());
        while let Some(t) = self.next_expanded(&mut Src::List(&mut q)) {
            out.push(t);
        }
        self.depth -= 1;
        out
    }

    /// Substitutes arguments into a macro's replacement list (`#`, `##`, pre-expansion),
    /// giving every resulting token the hide set `hs` and body tokens the use's location.
    fn subst(&mut self, m: &Macro, args: &[Vec<PTok>], hs: &HideSet, use_tok: &PTok) -> Vec<PTok> {
        let body = &m.body;
        let at = |k: usize| m.param_at.get(k).copied().flatten();
        let mut os: Vec<PTok> = Vec::with_capacity(body.len());
        let mut k = 0;
        while k < body.len() {
            let bt = &body[k];
            // `# param`
            if m.params.is_some() && bt.is_punct(Punct::Hash) {
                if let Some(p) = at(k + 1) {
                    let mut s = stringize(&args[p]);
                    s.loc = use_tok.loc;
                    s.space = bt.space;
                    os.push(s);
                    k += 2;
                    continue;
                }
            }
            // `x ## y`
            if bt.is_punct(Punct::HashHash) && k + 1 < body.len() {
                let mut rhs: Vec<PTok> = match at(k + 1) {
                    Some(p) => {
                        // GNU `, ## __VA_ARGS__`: drops the comma when the argument is empty.
                        let va = m.variadic && p + 1 == args.len();
                        if va && os.last().is_some_and(|t| t.is_punct(Punct::Comma)) {
                            if args[p].is_empty() {
                                os.pop();
                            } else {
                                os.extend(args[p].iter().cloned());
                            }
                            k += 2;
                            continue;
                        }
                        args[p].clone()
                    }
                    None => {
                        let mut t = body[k + 1].clone();
                        t.loc = use_tok.loc;
                        vec![t]
                    }
                };
                if rhs.is_empty() {
                    rhs.push(placemarker(use_tok.loc));
                }
                let first = rhs.remove(0);
                match os.pop() {
                    Some(lhs) => {
                        let (a, b) = self.paste(lhs, first);
                        os.push(a);
                        os.extend(b);
                    }
                    None => os.push(first),
                }
                os.extend(rhs);
                k += 2;
                continue;
            }
            if let Some(p) = at(k) {
                let next_is_paste = body.get(k + 1).is_some_and(|t| t.is_punct(Punct::HashHash));
                let mut toks = if next_is_paste {
                    args[p].clone()
                } else {
                    self.expand_list(args[p].clone())
                };
                if toks.is_empty() {
                    if next_is_paste {
                        os.push(placemarker(use_tok.loc));
                    }
                } else {
                    toks[0].space = bt.space;
                    os.extend(toks);
                }
                k += 1;
                continue;
            }
            let mut t = bt.clone();
            t.loc = use_tok.loc;
            os.push(t);
            k += 1;
        }
        os.retain(|t| !t.placemarker);
        for t in &mut os {
            t.hide.union(hs);
        }
        if let Some(t) = os.first_mut() {
            t.space = use_tok.space;
        }
        os
    }

    /// `lhs ## rhs`. Returns the pasted token, or both tokens unchanged (after an error) when
    /// the result is not one preprocessing token.
    fn paste(&mut self, lhs: PTok, rhs: PTok) -> (PTok, Option<PTok>) {
        if lhs.placemarker {
            return (rhs, None);
        }
        if rhs.placemarker {
            return (lhs, None);
        }
        let text = format!("{}{}", lhs.kind.spelling(), rhs.kind.spelling());
        let mut scratch = Diagnostics::default();
        let toks = lexer::lex_pp(lhs.loc.file, &text, &mut scratch);
        let single = toks.len() == 1
            && scratch.list.is_empty()
            && !matches!(
                toks[0].kind,
                PpKind::Unterminated(_) | PpKind::HeaderName(_)
            )
            && toks[0].kind.spelling() == text;
        if single {
            let kind = toks.into_iter().next().map(|t| t.kind).expect("one token");
            let t = PTok {
                kind,
                loc: lhs.loc,
                space: lhs.space,
                hide: lhs.hide,
                placemarker: false,
            };
            return (t, None);
        }
        self.diags.error(
            lhs.loc,
            format!(
                "pasting \"{}\" and \"{}\" does not give a valid preprocessing token",
                lhs.kind.spelling(),
                rhs.kind.spelling()
            ),
        );
        (lhs, Some(rhs))
    }
}

fn placemarker(loc: Loc) -> PTok {
    PTok {
        kind: PpKind::Other(' '),
        loc,
        space: false,
        hide: HideSet::default(),
        placemarker: true,
    }
}

/// `# param`: the argument's spelling as a string literal (C99 6.10.3.2).
fn stringize(arg: &[PTok]) -> PTok {
    let mut s = String::with_capacity(arg.len() * 4 + 2);
    s.push('"');
    // Escape `"` and `\` inside string literals and character constants only.
    let mut first = true;
    for t in arg.iter().filter(|t| !t.placemarker) {
        if !first && t.space {
            s.push(' ');
        }
        first = false;
        let sp = t.kind.spelling();
        if matches!(
            t.kind,
            PpKind::Str(_) | PpKind::Char(_) | PpKind::Unterminated(_)
        ) {
            for c in sp.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&sp);
        }
    }
    s.push('"');
    PTok::new(
        PpKind::Str(s),
        arg.first().map_or(Loc::default(), |t| t.loc),
        false,
    )
}
