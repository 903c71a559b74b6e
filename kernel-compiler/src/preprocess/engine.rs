//! The preprocessor's driver: the stack of open files, directives, conditional groups,
//! `#include`, `#line`, `#pragma` / `_Pragma`, and the conversion to parser tokens.

use super::macros::{HideSet, Macro};
use super::{IncludeResolver, PpOptions};
use crate::diag::Diagnostics;
use crate::lexer::{self, PpKind, PpToken};
use crate::source::{FileId, Loc, SourceMap};
use crate::token::{Punct, Token, TokenKind};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;

/// File id of the built-in text (predefined macros and `-D`); not in the source map.
pub(super) const BUILTIN_FILE: FileId = FileId(u32::MAX);
/// Deepest `#include` nesting accepted.
const MAX_INCLUDE_DEPTH: usize = 200;
/// Most files one compilation may enter (bounds self-including files without guards).
const MAX_INCLUDES: usize = 2_000;
/// Diagnostics after which preprocessing stops (a runaway input cannot flood the build log).
const MAX_DIAGNOSTICS: usize = 2_000;

/// A token inside the preprocessor: a preprocessing token plus its hide set.
#[derive(Clone, Debug)]
pub(super) struct PTok {
    pub kind: PpKind,
    pub loc: Loc,
    pub space: bool,
    pub hide: HideSet,
    /// Marks the empty result of an empty macro argument next to `##` (C99 6.10.3.3).
    pub placemarker: bool,
}

impl PTok {
    pub(super) fn new(kind: PpKind, loc: Loc, space: bool) -> Self {
        PTok {
            kind,
            loc,
            space,
            hide: HideSet::default(),
            placemarker: false,
        }
    }
    pub(super) fn is_punct(&self, p: Punct) -> bool {
        !self.placemarker && self.kind == PpKind::Punct(p)
    }
    pub(super) fn ident(&self) -> Option<&str> {
        match &self.kind {
            PpKind::Ident(s) if !self.placemarker => Some(s),
            _ => None,
        }
    }
}

/// One conditional group (`#if` ... `#endif`) of a file.
struct Cond {
    /// Tokens of the current branch are kept.
    active: bool,
    /// A branch of this group has been (or, when the enclosing group is skipped, counts as)
    /// taken: later `#elif`/`#else` branches are skipped.
    taken: bool,
    seen_else: bool,
    /// The directive that opened the group, for "unterminated" errors.
    loc: Loc,
    name: &'static str,
}

/// An open file being read.
struct Frame {
    file: FileId,
    toks: Vec<PpToken>,
    pos: usize,
    conds: Vec<Cond>,
    /// `#line` adjustment: added to physical line numbers.
    line_delta: i64,
    /// `#line N "name"`: the file name tokens of this file are reported against.
    file_override: Option<FileId>,
    /// Folder of the file (quoted includes look here first).
    dir: Option<PathBuf>,
    display: String,
}

impl Frame {
    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }
    fn map_loc(&self, loc: Loc) -> Loc {
        let line = (loc.line as i64 + self.line_delta).clamp(1, u32::MAX as i64) as u32;
        Loc::new(self.file_override.unwrap_or(loc.file), line, loc.col)
    }
}

/// Where the expander reads tokens from.
pub(super) enum Src<'q> {
    /// The open files (with `pushback` in front).
    File,
    /// An isolated list (a macro argument, a directive's operands).
    List(&'q mut VecDeque<PTok>),
}

/// The preprocessor state.
pub(crate) struct Pp<'a> {
    pub(super) sources: &'a mut SourceMap,
    opts: &'a PpOptions,
    resolver: &'a dyn IncludeResolver,
    pub(super) diags: &'a mut Diagnostics,
    pub(super) macros: HashMap<String, Rc<Macro>>,
    pub(super) names: HashMap<String, u32>,
    files: Vec<Frame>,
    pub(super) pushback: VecDeque<PTok>,
    out: Vec<Token>,
    once: HashSet<String>,
    file_ids: HashMap<String, FileId>,
    pub(super) counter: u64,
    /// Nesting of argument pre-expansion (bounded to keep the stack small).
    pub(super) depth: usize,
    /// Tokens produced by macro expansion so far (bounded against exponential blow-up).
    pub(super) produced: usize,
    pub(super) budget_reported: bool,
    /// Files entered through `#include` so far.
    includes_done: usize,
    depth_reported: bool,
    /// Diagnostics already in `diags` when preprocessing started.
    diags_at_start: usize,
}

impl<'a> Pp<'a> {
    pub(crate) fn new(
        sources: &'a mut SourceMap,
        opts: &'a PpOptions,
        resolver: &'a dyn IncludeResolver,
        diags: &'a mut Diagnostics,
    ) -> Self {
        let mut pp = Pp {
            sources,
            opts,
            resolver,
            diags,
            macros: HashMap::new(),
            names: HashMap::new(),
            files: Vec::new(),
            pushback: VecDeque::new(),
            out: Vec::new(),
            once: HashSet::new(),
            file_ids: HashMap::new(),
            counter: 0,
            depth: 0,
            produced: 0,
            budget_reported: false,
            includes_done: 0,
            depth_reported: false,
            diags_at_start: 0,
        };
        pp.diags_at_start = pp.diags.list.len();
        pp.define_dynamic();
        pp
    }

    /// Preprocesses `main` and returns the parser tokens (ending with `Eof`).
    pub(crate) fn run(mut self, main: FileId) -> Vec<Token> {
        // Built-in macros and -D/-U, one directive per line. Each line is lexed on its own so
        // that a `-D` value ending in `\\` or holding `/*` cannot reach into the next one.
        let builtin = super::predefined_macros(self.opts);
        for (i, line) in builtin.lines().enumerate() {
            let mut toks = lexer::lex_pp(BUILTIN_FILE, line, self.diags);
            for t in &mut toks {
                t.loc.line = i as u32 + 1;
            }
            self.files.push(Frame {
                file: BUILTIN_FILE,
                toks,
                pos: 0,
                conds: Vec::new(),
                line_delta: 0,
                file_override: None,
                dir: None,
                display: "<built-in>".into(),
            });
            while self.next_expanded(&mut Src::File).is_some() {}
        }

        let (name, text) = match self.sources.file(main) {
            Some(f) => (f.name.clone(), f.text.clone()),
            None => (String::new(), String::new()),
        };
        let end = lexer::end_loc(main, &text);
        self.file_ids.insert(name.clone(), main);
        self.push_file(main, name, &text);
        // `-include FILE`: as if `#include "FILE"` were the first lines of the main file (the
        // last one pushed is read first, so they are pushed in reverse order).
        let main_dir = self.files.last().and_then(|f| f.dir.clone());
        let opts = self.opts;
        for inc in opts.forced_includes.iter().rev() {
            let at = Loc::new(main, 1, 1);
            self.enter_include(inc, false, at, main_dir.clone(), "-include: ");
        }
        while let Some(t) = self.next_expanded(&mut Src::File) {
            if t.ident() == Some("_Pragma") {
                self.pragma_operator(t);
                continue;
            }
            let pp = PpToken {
                kind: t.kind,
                loc: t.loc,
                space_before: t.space,
                line_start: false,
            };
            if let Some(tok) = lexer::convert(&pp, self.diags) {
                self.out.push(tok);
            }
        }
        self.out.push(Token {
            kind: TokenKind::Eof,
            loc: end,
            space_before: true,
        });
        self.out
    }

    fn push_file(&mut self, file: FileId, display: String, text: &str) {
        let toks = lexer::lex_pp(file, text, self.diags);
        let dir = std::path::Path::new(&display)
            .parent()
            .map(|p| p.to_path_buf());
        self.files.push(Frame {
            file,
            toks,
            pos: 0,
            conds: Vec::new(),
            line_delta: 0,
            file_override: None,
            dir,
            display,
        });
    }

    /// The next token before macro expansion: from the pushback, else from the open files
    /// (running directives and skipping inactive groups on the way).
    pub(super) fn next_raw(&mut self, src: &mut Src) -> Option<PTok> {
        match src {
            Src::List(q) => q.pop_front(),
            Src::File => {
                if let Some(t) = self.pushback.pop_front() {
                    return Some(t);
                }
                self.read_file_token()
            }
        }
    }

    /// Puts tokens back in front of the input (the result of a macro expansion, rescanned).
    pub(super) fn push_front(&mut self, src: &mut Src, toks: Vec<PTok>) {
        let q: &mut VecDeque<PTok> = match src {
            Src::List(q) => q,
            Src::File => &mut self.pushback,
        };
        for t in toks.into_iter().rev() {
            q.push_front(t);
        }
    }

    /// Whether the next input token is `(` (without running any directive).
    pub(super) fn peek_lparen(&self, src: &Src) -> bool {
        match src {
            Src::List(q) => q.front().is_some_and(|t| t.is_punct(Punct::LParen)),
            Src::File => {
                if let Some(t) = self.pushback.front() {
                    return t.is_punct(Punct::LParen);
                }
                let Some(f) = self.files.last() else {
                    return false;
                };
                match f.toks.get(f.pos) {
                    Some(t) => {
                        t.kind == PpKind::Punct(Punct::LParen)
                            && !(t.line_start && t.kind == PpKind::Punct(Punct::Hash))
                    }
                    None => false,
                }
            }
        }
    }

    fn read_file_token(&mut self) -> Option<PTok> {
        loop {
            if self.files.is_empty() {
                return None;
            }
            if self.diags.list.len().saturating_sub(self.diags_at_start) >= MAX_DIAGNOSTICS {
                let loc = self.diags.list.last().map_or(Loc::default(), |d| d.loc);
                self.diags
                    .error(loc, "too many errors; preprocessing stopped");
                self.files.clear();
                self.pushback.clear();
                return None;
            }
            let frame = self.files.last_mut()?;
            if frame.pos >= frame.toks.len() {
                let frame = self.files.pop()?;
                for c in frame.conds.iter().rev() {
                    self.diags.error(c.loc, format!("unterminated #{}", c.name));
                }
                if self.files.is_empty() || frame.file == BUILTIN_FILE {
                    return None;
                }
                continue;
            }
            let t = &frame.toks[frame.pos];
            if t.line_start && t.kind == PpKind::Punct(Punct::Hash) {
                self.directive();
                continue;
            }
            frame.pos += 1;
            if !frame.active() {
                continue;
            }
            let loc = frame.map_loc(t.loc);
            return Some(PTok::new(t.kind.clone(), loc, t.space_before));
        }
    }

    /// Takes the current directive line (after the `#`) out of the top file.
    fn take_line(&mut self) -> (Loc, Vec<PTok>) {
        let frame = self.files.last_mut().expect("directive without file");
        let hash_loc = frame.map_loc(frame.toks[frame.pos].loc);
        frame.pos += 1;
        let mut line = Vec::new();
        while let Some(t) = frame.toks.get(frame.pos) {
            if t.line_start {
                break;
            }
            line.push(PTok::new(
                t.kind.clone(),
                frame.map_loc(t.loc),
                t.space_before,
            ));
            frame.pos += 1;
        }
        (hash_loc, line)
    }

    /// Runs the directive at the current position of the top file.
    fn directive(&mut self) {
        let (hash_loc, line) = self.take_line();
        let active = self.files.last().is_some_and(|f| f.active());
        let Some(first) = line.first() else {
            return; // null directive
        };
        let name_loc = first.loc;
        let name = match &first.kind {
            PpKind::Ident(s) => s.clone(),
            PpKind::Number(_) if active => {
                // GNU line marker `# 33 "file"`.
                self.line_directive(hash_loc, &line);
                return;
            }
            _ if !active => return,
            k => {
                let sp = k.spelling().into_owned();
                self.diags
                    .error(name_loc, format!("invalid preprocessing directive #{sp}"));
                return;
            }
        };
        let rest = &line[1..];
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let kw: &'static str = match name.as_str() {
                    "if" => "if",
                    "ifdef" => "ifdef",
                    _ => "ifndef",
                };
                let value = active && self.condition(kw, name_loc, rest);
                self.cur().conds.push(Cond {
                    active: value,
                    taken: value || !active,
                    seen_else: false,
                    loc: hash_loc,
                    name: kw,
                });
            }
            "elif" => {
                let Some((seen_else, taken)) =
                    self.cur().conds.last().map(|c| (c.seen_else, c.taken))
                else {
                    self.diags.error(name_loc, "#elif without #if");
                    return;
                };
                if seen_else {
                    self.diags.error(name_loc, "#elif after #else");
                }
                let value = !taken && self.condition("elif", name_loc, rest);
                if let Some(c) = self.cur().conds.last_mut() {
                    c.active = value;
                    c.taken |= value;
                }
            }
            "else" => {
                let Some(c) = self.cur().conds.last_mut() else {
                    self.diags.error(name_loc, "#else without #if");
                    return;
                };
                let dup = c.seen_else;
                c.active = !c.taken;
                c.taken = true;
                c.seen_else = true;
                if dup {
                    self.diags.error(name_loc, "#else after #else");
                }
                self.extra_tokens(rest, "else");
            }
            "endif" => {
                if self.cur().conds.pop().is_none() {
                    self.diags.error(name_loc, "#endif without #if");
                }
                self.extra_tokens(rest, "endif");
            }
            _ if !active => {}
            "define" => self.define(name_loc, rest),
            "undef" => {
                match rest.first().and_then(|t| t.ident()) {
                    Some(n) => {
                        if n == "defined" {
                            self.diags
                                .error(rest[0].loc, "\"defined\" cannot be used as a macro name");
                        }
                        self.macros.remove(n);
                    }
                    None => {
                        let loc = rest.first().map_or(name_loc, |t| t.loc);
                        self.diags.error(loc, "macro names must be identifiers");
                        return;
                    }
                }
                self.extra_tokens(&rest[1..], "undef");
            }
            "include" => self.include(name_loc, rest),
            "line" => self.line_directive(name_loc, rest),
            "error" => {
                let msg = join_spellings(rest);
                self.diags
                    .error(name_loc, format!("#error {msg}").trim_end().to_string());
            }
            "warning" => {
                let msg = join_spellings(rest);
                self.diags
                    .warning(name_loc, format!("#warning {msg}").trim_end().to_string());
            }
            "pragma" => self.pragma(hash_loc, rest.to_vec()),
            "ident" | "sccs" => {}
            _ => {
                self.diags
                    .error(name_loc, format!("invalid preprocessing directive #{name}"));
            }
        }
    }

    fn cur(&mut self) -> &mut Frame {
        self.files.last_mut().expect("directive without file")
    }

    fn extra_tokens(&mut self, rest: &[PTok], directive: &str) {
        if let Some(t) = rest.first() {
            self.diags.warning(
                t.loc,
                format!("extra tokens at end of #{directive} directive"),
            );
        }
    }

    /// Evaluates the condition of `#if`/`#elif` (or the name test of `#ifdef`/`#ifndef`).
    fn condition(&mut self, kw: &str, loc: Loc, rest: &[PTok]) -> bool {
        if kw == "ifdef" || kw == "ifndef" {
            let Some(t) = rest.first() else {
                self.diags
                    .error(loc, format!("no macro name given in #{kw} directive"));
                return false;
            };
            let Some(n) = t.ident() else {
                self.diags.error(t.loc, "macro names must be identifiers");
                return false;
            };
            let defined = self.macros.contains_key(n);
            self.extra_tokens(&rest[1..], kw);
            return if kw == "ifdef" { defined } else { !defined };
        }
        if rest.is_empty() {
            self.diags.error(loc, format!("#{kw} with no expression"));
            return false;
        }
        let replaced = self.replace_defined(rest.to_vec());
        let expanded = self.expand_list(replaced);
        let expanded = self.replace_defined(expanded);
        super::expr::evaluate(&expanded, loc, self.diags).unwrap_or(0) != 0
    }

    /// Replaces `defined X` and `defined(X)` by `1` or `0`.
    fn replace_defined(&mut self, toks: Vec<PTok>) -> Vec<PTok> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if t.ident() != Some("defined") {
                out.push(t.clone());
                i += 1;
                continue;
            }
            let mut reported = false;
            let (name, next) = if toks.get(i + 1).is_some_and(|t| t.is_punct(Punct::LParen)) {
                match (toks.get(i + 2).and_then(|t| t.ident()), toks.get(i + 3)) {
                    (Some(n), Some(c)) if c.is_punct(Punct::RParen) => (Some(n), i + 4),
                    (Some(_), _) => {
                        self.diags.error(t.loc, "missing ')' after \"defined\"");
                        reported = true;
                        (None, toks.len())
                    }
                    _ => (None, toks.len()),
                }
            } else {
                (toks.get(i + 1).and_then(|t| t.ident()), i + 2)
            };
            let Some(name) = name else {
                if !reported {
                    self.diags
                        .error(t.loc, "operator \"defined\" requires an identifier");
                }
                out.push(PTok::new(PpKind::Number("0".into()), t.loc, t.space));
                return out;
            };
            let v = if self.macros.contains_key(name) {
                "1"
            } else {
                "0"
            };
            out.push(PTok::new(PpKind::Number(v.into()), t.loc, t.space));
            i = next;
        }
        out
    }

    fn include(&mut self, loc: Loc, rest: &[PTok]) {
        let (name, angled, name_loc) = match rest.first().map(|t| &t.kind) {
            Some(PpKind::HeaderName(h)) => {
                let angled = h.starts_with('<');
                let close = if angled { '>' } else { '"' };
                if h.len() < 2 || !h.ends_with(close) {
                    self.diags.error(
                        rest[0].loc,
                        format!("missing terminating {close} character"),
                    );
                    return;
                }
                self.extra_tokens(&rest[1..], "include");
                (h[1..h.len() - 1].to_string(), angled, rest[0].loc)
            }
            Some(_) => {
                let t = self.expand_list(rest.to_vec());
                let first_loc = t.first().map_or(loc, |t| t.loc);
                match t.first().map(|t| &t.kind) {
                    Some(PpKind::Str(s)) if s.len() >= 2 && s.starts_with('"') => {
                        (s[1..s.len() - 1].to_string(), false, first_loc)
                    }
                    Some(PpKind::Punct(Punct::Lt)) => {
                        let Some(end) = t.iter().position(|x| x.is_punct(Punct::Gt)) else {
                            self.diags
                                .error(first_loc, "missing terminating > character");
                            return;
                        };
                        (join_spellings(&t[1..end]), true, first_loc)
                    }
                    _ => {
                        self.diags
                            .error(first_loc, "#include expects \"FILENAME\" or <FILENAME>");
                        return;
                    }
                }
            }
            None => {
                self.diags
                    .error(loc, "#include expects \"FILENAME\" or <FILENAME>");
                return;
            }
        };
        if name.is_empty() {
            self.diags.error(name_loc, "empty filename in #include");
            return;
        }
        if self.files.len() > MAX_INCLUDE_DEPTH {
            if !self.depth_reported {
                self.depth_reported = true;
                self.diags.error(name_loc, "#include nested too deeply");
            }
            return;
        }
        if self.includes_done >= MAX_INCLUDES {
            if self.includes_done == MAX_INCLUDES {
                self.diags.error(
                    name_loc,
                    "too many #include directives (is a header missing a guard?)",
                );
            }
            self.includes_done = MAX_INCLUDES + 1;
            return;
        }
        let from_dir = self.files.last().and_then(|f| f.dir.clone());
        self.enter_include(&name, angled, name_loc, from_dir, "");
    }

    /// Opens included file `name` (searched from `from_dir` for a quoted name) on top of the
    /// file stack; `what` prefixes the not-found message (for `-include`).
    fn enter_include(
        &mut self,
        name: &str,
        angled: bool,
        name_loc: Loc,
        from_dir: Option<std::path::PathBuf>,
        what: &str,
    ) {
        let Some((display, text)) = self.resolver.resolve(name, from_dir.as_deref(), angled) else {
            self.diags
                .error(name_loc, format!("{what}'{name}' file not found"));
            return;
        };
        if self.once.contains(&display) {
            return;
        }
        self.includes_done += 1;
        let id = match self.file_ids.get(&display) {
            Some(&id) if self.sources.file(id).is_some_and(|f| f.text == text) => id,
            _ => {
                let id = self.sources.add(display.clone(), text.clone());
                self.file_ids.insert(display.clone(), id);
                id
            }
        };
        self.push_file(id, display, &text);
    }

    fn line_directive(&mut self, loc: Loc, rest: &[PTok]) {
        let toks = self.expand_list(rest.to_vec());
        let Some(PpKind::Number(n)) = toks.first().map(|t| &t.kind) else {
            let l = toks.first().map_or(loc, |t| t.loc);
            self.diags
                .error(l, "#line directive requires a simple digit sequence");
            return;
        };
        let Some(line) = n
            .parse::<u32>()
            .ok()
            .filter(|_| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            self.diags.error(
                toks[0].loc,
                format!("\"{n}\" after #line is not a positive integer"),
            );
            return;
        };
        let name = match toks.get(1).map(|t| &t.kind) {
            Some(PpKind::Str(s)) => Some(super::super::lexer::decode_string(
                s,
                toks[1].loc,
                self.diags,
            )),
            Some(_) => {
                self.diags.error(
                    toks[1].loc,
                    format!("invalid filename \"{}\" in #line", toks[1].kind.spelling()),
                );
                return;
            }
            None => None,
        };
        let override_id = name.map(|n| match self.file_ids.get(&n) {
            Some(&id) => id,
            None => {
                let id = self.sources.add(n.clone(), String::new());
                self.file_ids.insert(n, id);
                id
            }
        });
        let last = rest.last().map_or(loc.line, |t| t.loc.line) as i64;
        let frame = self.cur();
        // The line after the directive gets number `line`.
        let last_phys = last - frame.line_delta;
        frame.line_delta = line as i64 - (last_phys + 1);
        if let Some(id) = override_id {
            frame.file_override = Some(id);
        }
    }

    /// `#pragma ...`: `once` is handled here; every other pragma becomes a `Pragma` token.
    fn pragma(&mut self, loc: Loc, rest: Vec<PTok>) {
        let Some(first) = rest.first() else {
            return;
        };
        let word = first.ident().unwrap_or("").to_string();
        if word == "once" {
            let d = self
                .files
                .last()
                .map(|f| f.display.clone())
                .unwrap_or_default();
            self.once.insert(d);
            return;
        }
        const LOOP_WITH_COUNT: &[&str] = &[
            "unroll",
            "loop_coalesce",
            "ii",
            "max_concurrency",
            "max_interleaving",
            "speculated_iterations",
        ];
        let expandable = LOOP_WITH_COUNT.contains(&word.as_str())
            || word == "ivdep"
            || word == "disable_loop_pipelining"
            || word == "nofusion";
        let mut toks = rest;
        if expandable && toks.len() > 1 {
            let tail = toks.split_off(1);
            let mut expanded = self.expand_list(tail);
            if LOOP_WITH_COUNT.contains(&word.as_str()) {
                let mut scratch = Diagnostics::default();
                if let Some(v) = super::expr::evaluate(&expanded, loc, &mut scratch) {
                    if !scratch.has_errors() {
                        expanded = vec![PTok::new(PpKind::Number(v.to_string()), loc, true)];
                    }
                }
            } else if word == "ivdep" {
                expanded = self.fold_safelen(expanded, loc);
            }
            toks.extend(expanded);
        }
        let text = normalize_pragma(&toks);
        self.out.push(Token {
            kind: TokenKind::Pragma(text),
            loc,
            space_before: true,
        });
    }

    /// In `ivdep ... safelen(expr)`, replaces `expr` by its value when it is constant.
    fn fold_safelen(&mut self, toks: Vec<PTok>, loc: Loc) -> Vec<PTok> {
        let Some(i) = toks.iter().position(|t| t.ident() == Some("safelen")) else {
            return toks;
        };
        if !toks.get(i + 1).is_some_and(|t| t.is_punct(Punct::LParen)) {
            return toks;
        }
        let mut depth = 0;
        let mut end = None;
        for (j, t) in toks.iter().enumerate().skip(i + 1) {
            if t.is_punct(Punct::LParen) {
                depth += 1;
            } else if t.is_punct(Punct::RParen) {
                depth -= 1;
                if depth == 0 {
                    end = Some(j);
                    break;
                }
            }
        }
        let Some(end) = end else { return toks };
        let mut scratch = Diagnostics::default();
        match super::expr::evaluate(&toks[i + 2..end], loc, &mut scratch) {
            Some(v) if !scratch.has_errors() => {
                let mut out = toks[..i + 2].to_vec();
                out.push(PTok::new(PpKind::Number(v.to_string()), loc, false));
                out.extend_from_slice(&toks[end..]);
                out
            }
            _ => toks,
        }
    }

    /// `_Pragma("text")`: destringizes the operand and runs it as a `#pragma` line.
    fn pragma_operator(&mut self, t: PTok) {
        let lp = self.next_expanded(&mut Src::File);
        let s = self.next_expanded(&mut Src::File);
        let rp = self.next_expanded(&mut Src::File);
        let ok = lp.as_ref().is_some_and(|x| x.is_punct(Punct::LParen))
            && rp.as_ref().is_some_and(|x| x.is_punct(Punct::RParen));
        let text = match s.as_ref().map(|x| &x.kind) {
            Some(PpKind::Str(s)) if ok && s.starts_with('"') => {
                let body = &s[1..s.len().saturating_sub(1).max(1)];
                body.replace("\\\"", "\"").replace("\\\\", "\\")
            }
            _ => {
                self.diags
                    .error(t.loc, "_Pragma takes a parenthesized string literal");
                return;
            }
        };
        let mut scratch = Diagnostics::default();
        let toks: Vec<PTok> = lexer::lex_pp(t.loc.file, &text, &mut scratch)
            .into_iter()
            .map(|p| PTok::new(p.kind, t.loc, p.space_before))
            .collect();
        self.pragma(t.loc, toks);
    }
}

/// Spellings of tokens joined with one space where the source had white space.
pub(super) fn join_spellings(toks: &[PTok]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if t.placemarker {
            continue;
        }
        if i > 0 && t.space && !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&t.kind.spelling());
    }
    s
}

/// The canonical text of a pragma: words separated by one space, no space inside
/// parentheses or before `(`, `)`, `[`, `]`, `,`, `.`, `->`, and spaces around `:`.
fn normalize_pragma(toks: &[PTok]) -> String {
    let mut s = String::new();
    let mut prev: Option<&PpKind> = None;
    for (i, t) in toks.iter().enumerate() {
        let k = &t.kind;
        if let Some(p) = prev {
            let tight_after = matches!(
                p,
                PpKind::Punct(Punct::LParen | Punct::LBracket | Punct::Dot | Punct::Arrow)
            );
            let tight_before = matches!(
                k,
                PpKind::Punct(
                    Punct::LParen
                        | Punct::RParen
                        | Punct::LBracket
                        | Punct::RBracket
                        | Punct::Comma
                        | Punct::Dot
                        | Punct::Arrow
                )
            );
            let colon = matches!(k, PpKind::Punct(Punct::Colon))
                || matches!(p, PpKind::Punct(Punct::Colon));
            let space = if i == 1 || colon {
                true
            } else if tight_after || tight_before {
                false
            } else {
                t.space || matches!(p, PpKind::Punct(Punct::Comma))
            };
            if space {
                s.push(' ');
            }
        }
        s.push_str(&k.spelling());
        prev = Some(k);
    }
    s
}
