//! Separate compilation: compiled objects (`clCompileProgram`) and linking by symbol
//! (`clLinkProgram`).
//!
//! [`compile`] preprocesses ONE compilation unit with its own options (`-D`, `-I`, `-cl-*`) and
//! its embedded headers (the `input_headers` of `clCompileProgram`, found by
//! `#include "name"`), parses and fully type-checks it, and keeps an [`Object`]: the unit's
//! preprocessed token stream (macros, options and headers already applied, every token with
//! its file:line:col) and the files it read. A call to a function the unit only declares is an
//! external symbol: it is checked against the prototype and left for the linker.
//!
//! [`link`] joins objects and libraries by symbol. Each unit is parsed from its own tokens;
//! `static` functions and program-scope variables stay unit-local (they are renamed per unit
//! when another unit uses the same name), and so do typedef names, enumerators and tags that
//! units declare differently (C gives them no linkage; identical declarations, typically from
//! a shared header, stay one type so that calls across units type-check); kernels and
//! non-static functions are global symbols,
//! and a symbol defined twice or referenced but defined nowhere fails the link with its name
//! and locations. The units' declarations are then merged into one program (type
//! declarations and identical program-scope objects that several units read from a common
//! header are kept once) and lowered to one [`ir::Module`], so that kernels inline helpers of
//! other units and every access site and loop keeps the file:line:col of its own unit.
//! `-create-library` makes a library: the units checked for duplicate symbols and kept for a
//! later link. Objects, libraries and linked executables keep their units, so that they can be
//! written into an `.aocx` and read back.

use crate::ast::{Declaration, Derived, FunctionDef, Item, Storage, TranslationUnit};
use crate::build::{
    add_main_file, finish_diagnostics, on_compiler_stack, preprocess_unit, render_log, BuildError,
};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::ir;
use crate::options::{split_words, BuildOptions};
use crate::preprocess::{FsResolver, IncludeResolver};
use crate::source::{FileId, Loc, SourceFile, SourceMap};
use crate::token::{Punct, Token, TokenKind};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One compilation unit of an object or library.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// The files the unit read: file 0 is its main file, then every included file.
    pub sources: SourceMap,
    /// The options given to `clCompileProgram` for this unit.
    pub options: String,
    /// The preprocessed tokens (ending with `Eof`), locations into [`Unit::sources`].
    pub tokens: Vec<Token>,
}

impl Unit {
    /// Whether the unit was compiled with option `opt` (for example `-cl-kernel-arg-info`).
    pub fn has_option(&self, opt: &str) -> bool {
        crate::options::has_option(&self.options, opt)
    }
}

/// What an [`Object`] is (`CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT` or `_LIBRARY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectKind {
    Object,
    Library,
}

/// A compiled object (one unit) or a library (the units of the objects it was made of).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Object {
    pub kind: ObjectKind,
    pub units: Vec<Unit>,
}

impl Object {
    /// Whether any unit was compiled with option `opt`.
    pub fn has_option(&self, opt: &str) -> bool {
        self.units.iter().any(|u| u.has_option(opt))
    }
}

/// Result of [`compile`].
#[derive(Clone, Debug)]
pub struct CompileOutput {
    /// The compiled object; `None` when the unit has errors.
    pub object: Option<Arc<Object>>,
    /// The build log (every diagnostic with file:line:col, source line and caret).
    pub log: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// Finds `#include`d files among the embedded headers of `clCompileProgram` (by the name given
/// in `header_include_names`, or that name relative to the including header's folder), then on
/// disk like [`FsResolver`] (the including file's folder, then the `-I` folders).
pub struct HeaderResolver<'a> {
    headers: &'a [SourceFile],
    fs: FsResolver,
}

impl<'a> HeaderResolver<'a> {
    pub fn new(headers: &'a [SourceFile], include_dirs: Vec<PathBuf>) -> Self {
        HeaderResolver {
            headers,
            fs: FsResolver::new(include_dirs),
        }
    }

    fn embedded(&self, name: &str) -> Option<(String, String)> {
        self.headers
            .iter()
            .find(|h| h.name == name)
            .map(|h| (h.name.clone(), h.text.clone()))
    }
}

impl IncludeResolver for HeaderResolver<'_> {
    fn resolve(
        &self,
        name: &str,
        from_dir: Option<&Path>,
        angled: bool,
    ) -> Option<(String, String)> {
        if !angled {
            if let Some(d) = from_dir.filter(|d| !d.as_os_str().is_empty()) {
                let rel = d.join(name);
                if let Some(found) = self.embedded(&rel.to_string_lossy()) {
                    return Some(found);
                }
            }
        }
        self.embedded(name)
            .or_else(|| self.fs.resolve(name, from_dir, angled))
    }
}

/// `clCompileProgram`: compiles one unit (the strings of `sources` form one unit) with its own
/// options and embedded headers. `Err` only for invalid options (`CL_INVALID_COMPILER_OPTIONS`).
pub fn compile(
    sources: &[SourceFile],
    options: &str,
    headers: &[SourceFile],
) -> Result<CompileOutput, BuildError> {
    let opts = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
    let resolver = HeaderResolver::new(headers, opts.include_dirs.clone());
    Ok(compile_parsed(sources, &opts, &resolver))
}

/// [`compile`] with parsed options and a caller-supplied include resolver.
pub fn compile_parsed(
    sources: &[SourceFile],
    opts: &BuildOptions,
    resolver: &dyn IncludeResolver,
) -> CompileOutput {
    let mut sm = SourceMap::default();
    let main = add_main_file(&mut sm, sources);
    let (sm, d_pp, tokens) = preprocess_unit(main, &sm, opts, resolver);
    let toks = &tokens;
    let work = move || {
        let mut d = d_pp;
        if !d.has_errors() {
            let mut tu = crate::parse::parse(toks, &mut d);
            if !d.has_errors() {
                add_external_stubs(&mut tu);
                let _ = crate::lower::lower(&tu, &mut d);
            }
        }
        d
    };
    let diags = on_compiler_stack(work).unwrap_or_else(|| {
        let mut d = Diagnostics::default();
        d.error(
            Loc::new(main, 1, 1),
            "internal compiler error: the compiler failed on this input (please report it)",
        );
        d
    });
    let list = finish_diagnostics(diags, opts.no_warnings, opts.werror);
    let failed = list.iter().any(|d| d.severity == Severity::Error);
    let log = render_log(&list, &sm, failed);
    let object = (!failed).then(|| {
        Arc::new(Object {
            kind: ObjectKind::Object,
            units: vec![Unit {
                sources: sm,
                options: opts.raw.clone(),
                tokens,
            }],
        })
    });
    CompileOutput {
        object,
        log,
        diagnostics: list,
    }
}

/// For the checks of a single unit: every function the unit declares at program scope but
/// does not define gets an empty body, so that calls to it are checked against its prototype
/// (argument count and conversions, result type) like calls to any helper.
fn add_external_stubs(tu: &mut TranslationUnit) {
    let mut defined: HashSet<String> = tu
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Function(f) => f.decl.name.clone(),
            _ => None,
        })
        .collect();
    let mut stubs = vec![];
    for d in declarations(tu) {
        if d.spec.storage == Storage::Typedef {
            continue;
        }
        for id in &d.decls {
            let is_fn = matches!(id.decl.derived.last(), Some(Derived::Function { .. }));
            let Some(name) = id.decl.name.clone().filter(|_| is_fn) else {
                continue;
            };
            if defined.insert(name) {
                let mut spec = d.spec.clone();
                spec.is_kernel = false;
                spec.storage = Storage::None;
                stubs.push(Item::Function(FunctionDef {
                    spec,
                    decl: id.decl.clone(),
                    body: crate::ast::Block {
                        stmts: vec![],
                        loc: id.decl.loc,
                        end: id.decl.loc,
                    },
                    loc: id.decl.loc,
                }));
            }
        }
    }
    tu.items.extend(stubs);
}

/// Every declaration of a unit: at program scope, then inside function bodies (a block-scope
/// prototype declares an external function too).
fn declarations(tu: &TranslationUnit) -> Vec<&Declaration> {
    let mut out = vec![];
    for item in &tu.items {
        if let Item::Decl(d) = item {
            out.push(d);
        }
    }
    for item in &tu.items {
        if let Item::Function(f) = item {
            block_declarations(&f.body, &mut out);
        }
    }
    out
}

fn block_declarations<'a>(b: &'a crate::ast::Block, out: &mut Vec<&'a Declaration>) {
    for s in &b.stmts {
        stmt_declarations(s, out);
    }
}

fn stmt_declarations<'a>(s: &'a crate::ast::Stmt, out: &mut Vec<&'a Declaration>) {
    use crate::ast::StmtKind as K;
    match &s.kind {
        K::Decl(d) => out.push(d),
        K::Block(b) => block_declarations(b, out),
        K::If { then, els, .. } => {
            stmt_declarations(then, out);
            if let Some(e) = els {
                stmt_declarations(e, out);
            }
        }
        K::While { body, .. } | K::DoWhile { body, .. } | K::Switch { body, .. } => {
            stmt_declarations(body, out)
        }
        K::For { init, body, .. } => {
            if let Some(i) = init {
                stmt_declarations(i, out);
            }
            stmt_declarations(body, out);
        }
        _ => {}
    }
}

/// Parsed `clLinkProgram` options (OpenCL 1.2, 5.6.5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkOptions {
    /// `-create-library`: the result is a library, linkable again.
    pub create_library: bool,
}

impl LinkOptions {
    /// Parses a link options string; anything else than the library and program linking
    /// options of the specification is an error (`CL_INVALID_LINKER_OPTIONS`). The math
    /// options are accepted and change nothing: the emulator computes exactly either way.
    pub fn parse(s: &str) -> Result<LinkOptions, String> {
        let mut o = LinkOptions::default();
        let mut enable_link_options = false;
        for w in split_words(s)? {
            match w.as_str() {
                "-create-library" => o.create_library = true,
                "-enable-link-options" => enable_link_options = true,
                "-cl-denorms-are-zero"
                | "-cl-no-signed-zeros"
                | "-cl-unsafe-math-optimizations"
                | "-cl-finite-math-only"
                | "-cl-fast-relaxed-math" => {}
                other => return Err(format!("unknown link option '{other}'")),
            }
        }
        if enable_link_options && !o.create_library {
            return Err("-enable-link-options must be given with -create-library".into());
        }
        Ok(o)
    }
}

/// A link that could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// Invalid link options (`CL_INVALID_LINKER_OPTIONS`).
    #[error("invalid link options: {0}")]
    InvalidOptions(String),
    /// No input object (`CL_INVALID_VALUE`).
    #[error("nothing to link")]
    NoInputs,
}

/// Result of [`link`].
#[derive(Clone, Debug)]
pub struct LinkOutput {
    /// The linked executable (`None` for a library or a failed link).
    pub module: Option<Arc<ir::Module>>,
    /// The units of the result, in link order: the library itself with `-create-library`,
    /// else what an `.aocx` of the executable keeps to link it again. `None` when the link
    /// failed.
    pub object: Option<Arc<Object>>,
    /// The link log.
    pub log: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// `clLinkProgram`: links objects and libraries by symbol into an executable, or into a
/// library with `-create-library`.
pub fn link(inputs: &[&Object], options: &str) -> Result<LinkOutput, LinkError> {
    let opts = LinkOptions::parse(options).map_err(LinkError::InvalidOptions)?;
    let units: Vec<&Unit> = inputs.iter().flat_map(|o| o.units.iter()).collect();
    if units.is_empty() {
        return Err(LinkError::NoInputs);
    }
    let executable = !opts.create_library;
    let (sm, parts) = merge_sources(&units);
    let smr = &sm;
    let work = move || link_units(smr, parts, executable);
    let (diags, module) = on_compiler_stack(work).unwrap_or_else(|| {
        let mut d = Diagnostics::default();
        d.error(
            Loc::new(FileId(0), 1, 1),
            "internal compiler error: the linker failed on this input (please report it)",
        );
        (d, None)
    });
    // Warnings were reported when the units were compiled.
    let mut list: Vec<Diagnostic> = finish_diagnostics(diags, true, false);
    for d in &mut list {
        d.message = demangle(&d.message);
    }
    let failed = list.iter().any(|d| d.severity == Severity::Error);
    let log = render_log(&list, &sm, failed);
    if failed {
        return Ok(LinkOutput {
            module: None,
            object: None,
            log,
            diagnostics: list,
        });
    }
    let object = Arc::new(Object {
        kind: if executable {
            ObjectKind::Object
        } else {
            ObjectKind::Library
        },
        units: units.into_iter().cloned().collect(),
    });
    let module = module.map(|mut m| {
        m.sources = sm;
        Arc::new(m)
    });
    Ok(LinkOutput {
        module,
        object: Some(object),
        log,
        diagnostics: list,
    })
}

/// The files of all units in one source map (a header several units included with the same
/// text is kept once; units whose main files have the same name are told apart by their
/// position), and each unit's tokens with locations into it.
fn merge_sources(units: &[&Unit]) -> (SourceMap, Vec<Vec<Token>>) {
    let mut sm = SourceMap::default();
    let mut mains: HashSet<u32> = HashSet::new();
    let mut parts = Vec::with_capacity(units.len());
    let main_name = |u: &Unit| {
        u.sources
            .files
            .first()
            .map_or_else(|| "<source>".to_string(), |f| f.name.clone())
    };
    let names: Vec<String> = units.iter().map(|u| main_name(u)).collect();
    for (k, u) in units.iter().enumerate() {
        let mut map: Vec<FileId> = Vec::with_capacity(u.sources.files.len().max(1));
        if u.sources.files.is_empty() {
            map.push(sm.add(names[k].clone(), ""));
        }
        for (i, f) in u.sources.files.iter().enumerate() {
            let id = if i == 0 {
                let name = if names.iter().filter(|n| **n == names[k]).count() > 1 {
                    unit_name(&names[k], k + 1)
                } else {
                    names[k].clone()
                };
                let id = sm.add(name, f.text.clone());
                mains.insert(id.0);
                id
            } else {
                match sm.files.iter().enumerate().position(|(j, g)| {
                    !mains.contains(&(j as u32)) && g.name == f.name && g.text == f.text
                }) {
                    Some(j) => FileId(j as u32),
                    None => sm.add(f.name.clone(), f.text.clone()),
                }
            };
            map.push(id);
        }
        let main = map[0];
        let tokens = u
            .tokens
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.loc.file = map.get(t.loc.file.0 as usize).copied().unwrap_or(main);
                t
            })
            .collect();
        parts.push(tokens);
    }
    (sm, parts)
}

/// The name of unit `k` (1-based) whose main file name `name` another unit has too.
fn unit_name(name: &str, k: usize) -> String {
    match name.strip_prefix('<').and_then(|n| n.strip_suffix('>')) {
        Some(inner) => format!("<{inner} of unit {k}>"),
        None => format!("{name} (unit {k})"),
    }
}

/// Suffix of a `static` symbol renamed for its unit (never valid in OpenCL C source).
const MANGLE: &str = "@unit";

fn mangle(name: &str, unit: usize) -> String {
    format!("{name}{MANGLE}{unit}")
}

/// Removes the unit suffix of renamed `static` symbols from a message.
fn demangle(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(i) = rest.find(MANGLE) {
        out.push_str(&rest[..i]);
        let after = &rest[i + MANGLE.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            out.push_str(MANGLE);
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// The symbols of one unit.
#[derive(Default)]
struct Symbols {
    /// Function definitions: name, location, static, kernel.
    functions: Vec<(String, Loc, bool, bool)>,
    /// Functions declared (prototypes) at program scope.
    declared: HashSet<String>,
    /// Program-scope variables (`__constant` data, channels): name, location, static, and the
    /// declaration's text (as parsed) to recognise the same declaration read by several units.
    variables: Vec<(String, Loc, bool, String)>,
    /// Calls in function bodies: callee, location.
    calls: Vec<(String, Loc)>,
}

fn symbols(tu: &TranslationUnit) -> Symbols {
    let mut s = Symbols::default();
    for d in declarations(tu) {
        for id in &d.decls {
            if let Some(n) = &id.decl.name {
                if d.spec.storage != Storage::Typedef
                    && matches!(id.decl.derived.last(), Some(Derived::Function { .. }))
                {
                    s.declared.insert(n.clone());
                }
            }
        }
    }
    for item in &tu.items {
        match item {
            Item::Function(f) => {
                if let Some(n) = &f.decl.name {
                    s.functions.push((
                        n.clone(),
                        f.decl.loc,
                        f.spec.storage == Storage::Static,
                        f.spec.is_kernel,
                    ));
                }
                crate::lower::collect_calls_block(&f.body, &mut s.calls);
            }
            Item::Decl(d) => {
                if d.spec.storage == Storage::Typedef {
                    continue;
                }
                for id in &d.decls {
                    let Some(n) = &id.decl.name else { continue };
                    if matches!(id.decl.derived.last(), Some(Derived::Function { .. })) {
                        s.declared.insert(n.clone());
                    } else if d.spec.storage == Storage::Extern && id.init.is_none() {
                        // A declaration of another unit's object, resolved after merging.
                    } else {
                        s.variables.push((
                            n.clone(),
                            id.decl.loc,
                            d.spec.storage == Storage::Static,
                            format!("{d:?}"),
                        ));
                    }
                }
            }
        }
    }
    s
}

/// Whether a program-scope declaration declares only types and functions (typedefs, struct,
/// union and enum definitions, prototypes): such declarations may appear in several units.
fn declares_types_only(d: &Declaration) -> bool {
    d.spec.storage == Storage::Typedef
        || d.decls
            .iter()
            .all(|id| matches!(id.decl.derived.last(), Some(Derived::Function { .. })))
}

/// `format!("{:?}")` of a declaration without its source locations: the same declaration
/// written in two units (or read from copies of a header) gives the same text.
fn without_locs(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(i) = rest.find("Loc { file: ") {
        out.push_str(&rest[..i]);
        match rest[i..].find(" }") {
            Some(j) => rest = &rest[i + j + 2..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn loc_text(sm: &SourceMap, l: Loc) -> String {
    format!("{}:{}:{}", sm.name(l.file), l.line, l.col)
}

/// Renames of one unit's names (old -> new).
#[derive(Default)]
struct Renames {
    /// `static` functions (renamed where they are called or declared: before `(`).
    fns: HashMap<String, String>,
    /// `static` program-scope variables, typedef names and enumerators.
    names: HashMap<String, String>,
    /// struct, union and enum tags (after the keyword).
    tags: HashMap<String, String>,
}

impl Renames {
    fn is_empty(&self) -> bool {
        self.fns.is_empty() && self.names.is_empty() && self.tags.is_empty()
    }
}

/// Names without linkage a unit declares at program scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum TypeNameKind {
    Typedef,
    Enumerator,
    Tag,
}

/// The typedef names, enumerators and struct/union/enum tags a unit defines at program scope,
/// each with the text (without locations) of the declaration that defines it.
fn type_decls(tu: &TranslationUnit) -> Vec<(TypeNameKind, String, String)> {
    use crate::ast::TypeSpec;
    let mut out = vec![];
    for item in &tu.items {
        let Item::Decl(d) = item else { continue };
        let text = std::cell::OnceCell::new();
        let text = || text.get_or_init(|| without_locs(&format!("{d:?}"))).clone();
        match &d.spec.ty {
            TypeSpec::Record(r) if r.fields.is_some() => {
                if let Some(t) = &r.tag {
                    out.push((TypeNameKind::Tag, t.clone(), text()));
                }
            }
            TypeSpec::Enum(e) => {
                if let Some(items) = &e.items {
                    if let Some(t) = &e.tag {
                        out.push((TypeNameKind::Tag, t.clone(), text()));
                    }
                    for (n, _, _) in items {
                        out.push((TypeNameKind::Enumerator, n.clone(), text()));
                    }
                }
            }
            _ => {}
        }
        if d.spec.storage == Storage::Typedef {
            for id in &d.decls {
                if let Some(n) = &id.decl.name {
                    out.push((TypeNameKind::Typedef, n.clone(), text()));
                }
            }
        }
    }
    out
}

/// Links the units' token streams: symbol rules, then (for an executable) one merged program
/// lowered to a module.
fn link_units(
    sm: &SourceMap,
    parts: Vec<Vec<Token>>,
    executable: bool,
) -> (Diagnostics, Option<ir::Module>) {
    let mut d = Diagnostics::default();
    let mut parts = parts;
    let mut tus: Vec<TranslationUnit> = parts
        .iter()
        .map(|t| crate::parse::parse(t, &mut d))
        .collect();
    if d.has_errors() {
        // Objects hold tokens that parsed when they were compiled: only a damaged binary
        // gets here.
        return (d, None);
    }
    // `static` symbols another unit also names are renamed for their unit.
    let idents: Vec<HashSet<&str>> = parts
        .iter()
        .map(|t| {
            t.iter()
                .filter_map(|t| match &t.kind {
                    TokenKind::Ident(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    // Type names, tags and enumerators have no linkage: units that declare one differently
    // keep their own (renamed per variant; units with the same declaration share it).
    let mut variants: HashMap<(TypeNameKind, String), Vec<(String, usize)>> = HashMap::new();
    let decls: Vec<Vec<(TypeNameKind, String, String)>> = tus.iter().map(type_decls).collect();
    for (k, list) in decls.iter().enumerate() {
        for (kind, name, text) in list {
            let v = variants.entry((*kind, name.clone())).or_default();
            if !v.iter().any(|(t, _)| t == text) {
                v.push((text.clone(), k));
            }
        }
    }
    let mut renames: Vec<Renames> = vec![];
    for (k, tu) in tus.iter().enumerate() {
        let mut r = Renames::default();
        for (kind, name, text) in &decls[k] {
            let v = &variants[&(*kind, name.clone())];
            let Some(pos) = v.iter().position(|(t, _)| t == text) else {
                continue;
            };
            if pos > 0 {
                let m = mangle(name, v[pos].1 + 1);
                match kind {
                    TypeNameKind::Tag => r.tags.insert(name.clone(), m),
                    _ => r.names.insert(name.clone(), m),
                };
            }
        }
        let s = symbols(tu);
        let clash = |n: &str| {
            idents
                .iter()
                .enumerate()
                .any(|(j, ids)| j != k && ids.contains(n))
        };
        for (n, _, is_static, is_kernel) in &s.functions {
            if *is_static && !*is_kernel && clash(n) {
                r.fns.insert(n.clone(), mangle(n, k + 1));
            }
        }
        for item in &tu.items {
            // Static prototypes name the same function.
            if let Item::Decl(dc) = item {
                if dc.spec.storage == Storage::Static {
                    for id in &dc.decls {
                        if let Some(n) = &id.decl.name {
                            let is_fn =
                                matches!(id.decl.derived.last(), Some(Derived::Function { .. }));
                            if is_fn && clash(n) {
                                r.fns.insert(n.clone(), mangle(n, k + 1));
                            }
                        }
                    }
                }
            }
        }
        for (n, _, is_static, _) in &s.variables {
            if *is_static && clash(n) {
                r.names.insert(n.clone(), mangle(n, k + 1));
            }
        }
        renames.push(r);
    }
    drop(idents);
    for (k, r) in renames.iter().enumerate() {
        if r.is_empty() {
            continue;
        }
        let toks = &mut parts[k];
        for i in 0..toks.len() {
            let TokenKind::Ident(name) = &toks[i].kind else {
                continue;
            };
            let next_paren = matches!(
                toks.get(i + 1).map(|t| &t.kind),
                Some(TokenKind::Punct(Punct::LParen))
            );
            let prev = (i > 0).then(|| &toks[i - 1].kind);
            let after_member = matches!(
                prev,
                Some(TokenKind::Punct(Punct::Dot) | TokenKind::Punct(Punct::Arrow))
            );
            let after_tag_keyword = matches!(
                prev,
                Some(TokenKind::Ident(kw)) if kw == "struct" || kw == "union" || kw == "enum"
            );
            let new = if after_tag_keyword {
                r.tags.get(name)
            } else if next_paren && r.fns.contains_key(name) {
                r.fns.get(name)
            } else if !after_member {
                r.names.get(name)
            } else {
                None
            };
            if let Some(m) = new {
                toks[i].kind = TokenKind::Ident(m.clone());
            }
        }
        tus[k] = crate::parse::parse(&parts[k], &mut d);
    }
    let syms: Vec<Symbols> = tus.iter().map(symbols).collect();
    // Global symbols: kernels and non-static functions, non-static program-scope variables.
    let mut global_fns: HashMap<&str, (Loc, bool)> = HashMap::new();
    let mut global_vars: HashMap<&str, (Loc, &str)> = HashMap::new();
    for s in &syms {
        for (n, loc, is_static, is_kernel) in &s.functions {
            if *is_static {
                continue;
            }
            match global_fns.get(n.as_str()) {
                Some((first, _)) => {
                    let what = if *is_kernel { "kernel" } else { "function" };
                    d.push(Diagnostic::error(
                        *loc,
                        format!(
                            "duplicate symbol: {what} '{n}' is defined in more than one linked unit (first definition at {})",
                            loc_text(sm, *first)
                        ),
                    ));
                    d.push(Diagnostic::note(
                        *first,
                        format!("first definition of '{n}' is here"),
                    ));
                }
                None => {
                    global_fns.insert(n, (*loc, *is_kernel));
                }
            }
        }
        for (n, loc, is_static, text) in &s.variables {
            if *is_static {
                continue;
            }
            match global_vars.get(n.as_str()) {
                // The same declaration read by several units from one header: one object.
                Some((_, t)) if *t == text.as_str() => {}
                Some((first, _)) => {
                    d.push(Diagnostic::error(
                        *loc,
                        format!(
                            "duplicate symbol: program scope variable '{n}' is defined differently in more than one linked unit (first definition at {})",
                            loc_text(sm, *first)
                        ),
                    ));
                    d.push(Diagnostic::note(
                        *first,
                        format!("first definition of '{n}' is here"),
                    ));
                }
                None => {
                    global_vars.insert(n, (*loc, text));
                }
            }
        }
    }
    if executable {
        for s in &syms {
            let local: HashSet<&str> = s.functions.iter().map(|f| f.0.as_str()).collect();
            let mut reported: HashSet<&str> = HashSet::new();
            for (callee, loc) in &s.calls {
                let c = callee.as_str();
                if local.contains(c) || global_fns.contains_key(c) {
                    continue;
                }
                // A declared function is the unit's external symbol, even when a builtin has
                // its name; calls of undeclared functions were errors of the unit itself.
                if s.declared.contains(c) && reported.insert(c) {
                    d.error(
                        *loc,
                        format!(
                            "undefined symbol: function '{c}' is called here but defined in none of the linked units"
                        ),
                    );
                }
            }
        }
    }
    if d.has_errors() || !executable {
        return (d, None);
    }
    // One program: the units' items in link order; type declarations and identical
    // program-scope objects repeated by several units are kept once.
    let mut merged = TranslationUnit::default();
    let mut seen_types: HashSet<String> = HashSet::new();
    let mut seen_objects: HashSet<String> = HashSet::new();
    for tu in tus {
        merged.pragmas.extend(tu.pragmas);
        for item in tu.items {
            match &item {
                Item::Function(_) => merged.items.push(item),
                Item::Decl(dc) => {
                    let text = format!("{dc:?}");
                    let keep = if declares_types_only(dc) {
                        seen_types.insert(without_locs(&text))
                    } else {
                        seen_objects.insert(text)
                    };
                    if keep {
                        merged.items.push(item);
                    }
                }
            }
        }
    }
    report_undefined_extern_vars(&merged, &mut d);
    if d.has_errors() {
        return (d, None);
    }
    let mut m = crate::lower::lower(&merged, &mut d);
    demangle_module(&mut m);
    (d, Some(m))
}

/// Reports every `extern` program-scope variable of a whole program that no unit defines.
pub(crate) fn report_undefined_extern_vars(tu: &TranslationUnit, d: &mut Diagnostics) {
    for (n, loc) in crate::lower::undefined_extern_vars(tu) {
        d.error(
            loc,
            format!(
                "undefined symbol: program scope variable '{n}' is declared 'extern' here but defined in none of the linked units"
            ),
        );
    }
}

/// Shows renamed `static` objects under their own names in the module (access site targets,
/// channels, named variables), as the profiler and the report print them.
fn demangle_module(m: &mut ir::Module) {
    let fix = |s: &mut String| {
        if s.contains(MANGLE) {
            *s = demangle(s);
        }
    };
    for site in &mut m.sites {
        fix(&mut site.target);
    }
    for c in &mut m.channels {
        fix(&mut c.name);
    }
    for k in &mut m.kernels {
        for a in &mut k.args {
            fix(&mut a.type_name);
        }
        for (_, _, n) in &mut k.reg_names {
            fix(n);
        }
        for v in &mut k.mem_vars {
            fix(&mut v.name);
        }
        for l in &mut k.loops {
            if let Some(a) = l.pragmas.ivdep.as_mut().and_then(|i| i.array.as_mut()) {
                fix(a);
            }
        }
    }
}
