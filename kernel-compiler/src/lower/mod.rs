//! Lowering: the checked AST -> [`ir::Module`].
//!
//! [`Program`] holds what is visible at program scope (records, typedefs, enumerators,
//! `__constant` data, channels, functions). Each kernel is lowered by a [`func::FnLower`] that
//! type-checks expressions as it translates them, inlines helper functions (rejecting recursion),
//! records loops with their pragmas and trip counts, and creates an access site for every
//! global/constant/local memory and channel/pipe operation.

mod builtins;
mod check;
mod expr;
mod func;
mod image;
mod init;
mod kernel;
mod printf_check;
mod stmt;
pub mod verify;

use crate::ast::*;
use crate::diag::Diagnostics;
use crate::ir::{self, AddrSpace, ChannelId, Scalar};
use crate::sema::attrs;
use crate::sema::consteval::{self, CVal};
use crate::sema::types::{builtin_type, Field, Pointee, RecordDef, RecordId, Records, Type};
use crate::source::Loc;
use std::collections::{HashMap, HashSet};

/// Marker for an error already reported.
#[derive(Debug)]
pub(crate) struct Reported;
pub(crate) type LResult<T> = Result<T, Reported>;

/// A program-scope object.
#[derive(Clone, Debug)]
pub(crate) enum Global {
    /// `__constant` data at `offset` in `Module::constant_data`.
    Constant { offset: u32, ty: Type },
    /// A program-scope `const sampler_t` (or `__constant sampler_t`): its constant bit field.
    Sampler { value: u32 },
    /// A channel or array of channels.
    Channel {
        id: ChannelId,
        elem: Type,
        dims: Vec<u32>,
    },
}

/// One scope of type-level names.
#[derive(Default)]
pub(crate) struct TypeScope {
    typedefs: HashMap<String, Type>,
    tags: HashMap<String, RecordId>,
    enums: HashMap<String, CVal>,
}

/// Everything visible at program scope, and the module being built.
pub(crate) struct Program<'a> {
    pub recs: Records,
    pub tscopes: Vec<TypeScope>,
    pub globals: HashMap<String, Global>,
    pub funcs: HashMap<String, &'a FunctionDef>,
    pub protos: HashSet<String>,
    pub module: ir::Module,
    pub diags: &'a mut Diagnostics,
    pub channels_enabled: bool,
    /// Variable attributes by declaration location (kept for the analysis).
    pub var_attrs: Vec<(Loc, String, attrs::VarAttrs)>,
    /// Typedef names whose declaration had an error: their uses are not reported again.
    pub poisoned_types: HashSet<String>,
    /// Program-scope objects whose declaration had an error.
    pub poisoned_globals: HashSet<String>,
    /// Program-scope variables this unit defines (not only declares `extern`).
    pub defined_vars: HashSet<String>,
}

/// Lowers a translation unit to a module (kernels in source order). Options that change the
/// source's meaning (`-cl-single-precision-constant`) are applied to its tokens before
/// (`build::preprocess_unit`).
pub fn lower(tu: &TranslationUnit, diags: &mut Diagnostics) -> ir::Module {
    let mut p = Program {
        recs: Records::default(),
        tscopes: vec![TypeScope::default()],
        globals: HashMap::new(),
        funcs: HashMap::new(),
        protos: HashSet::new(),
        module: ir::Module::default(),
        diags,
        channels_enabled: false,
        var_attrs: vec![],
        poisoned_types: HashSet::new(),
        poisoned_globals: HashSet::new(),
        defined_vars: defined_variables(tu),
    };
    p.channels_enabled = tu.pragmas.iter().any(|(t, _)| {
        let t = t.replace(' ', "");
        (t.contains("cl_intel_channels") || t.contains("cl_altera_channels"))
            && t.ends_with(":enable")
    });
    let mut kernels = vec![];
    for item in &tu.items {
        match item {
            Item::Function(f) => {
                let Some(name) = f.decl.name.clone() else {
                    continue;
                };
                if p.funcs.contains_key(&name) {
                    p.diags
                        .error(f.decl.loc, format!("redefinition of '{name}'"));
                    continue;
                }
                // Two parameters of one name (C: "redefinition of parameter").
                if let Some(Derived::Function { params, .. }) = f.decl.derived.last() {
                    let mut seen = HashSet::new();
                    for prm in params {
                        if let Some(pn) = &prm.decl.name {
                            if !seen.insert(pn.as_str()) {
                                p.diags.error(
                                    prm.decl.loc,
                                    format!("redefinition of parameter '{pn}'"),
                                );
                            }
                        }
                    }
                }
                p.funcs.insert(name.clone(), f);
                if f.spec.is_kernel {
                    kernels.push(f);
                } else if f
                    .spec
                    .attrs
                    .iter()
                    .any(|a| a.name == "autorun" || a.name == "reqd_work_group_size")
                {
                    p.diags.error(
                        f.loc,
                        format!(
                            "kernel attributes on '{name}', which is not a '__kernel' function"
                        ),
                    );
                }
            }
            Item::Decl(d) => p.global_decl(d),
        }
    }
    check_recursion(&p.funcs, p.diags);
    // Helpers no kernel calls are still type-checked (their IR is discarded).
    let mut called: HashSet<String> = HashSet::new();
    for k in &kernels {
        let mut calls = vec![];
        collect_calls_block(&k.body, &mut calls);
        let mut stack: Vec<String> = calls.into_iter().map(|c| c.0).collect();
        while let Some(n) = stack.pop() {
            if let Some(f) = p.funcs.get(&n) {
                if called.insert(n) {
                    let mut more = vec![];
                    collect_calls_block(&f.body, &mut more);
                    stack.extend(more.into_iter().map(|c| c.0));
                }
            }
        }
    }
    let mut helpers: Vec<&FunctionDef> = tu
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Function(f) if !f.spec.is_kernel => Some(f),
            _ => None,
        })
        .filter(|f| f.decl.name.as_ref().is_some_and(|n| !called.contains(n)))
        .collect();
    helpers.sort_by_key(|f| f.loc);
    for (i, k) in kernels.iter().enumerate() {
        if let Some(f) = kernel::lower_kernel(&mut p, k, i as u32) {
            if let Err(e) = verify::verify_function(&f, &p.module) {
                p.diags.error(
                    f.loc,
                    format!(
                        "internal compiler error: invalid IR for kernel '{}': {e}",
                        f.name
                    ),
                );
            }
            p.module.kernels.push(f);
        }
    }
    for h in helpers {
        check::check_helper(&mut p, h);
    }
    p.module
}

/// Reports every call cycle among helper functions (OpenCL C forbids recursion).
fn check_recursion(funcs: &HashMap<String, &FunctionDef>, diags: &mut Diagnostics) {
    // Call edges with the location of the call.
    let mut edges: HashMap<&str, Vec<(String, Loc)>> = HashMap::new();
    for (name, f) in funcs {
        let mut calls = vec![];
        collect_calls_block(&f.body, &mut calls);
        edges.insert(
            name.as_str(),
            calls
                .into_iter()
                .filter(|(c, _)| funcs.contains_key(c))
                .collect(),
        );
    }
    let mut names: Vec<&str> = edges.keys().copied().collect();
    names.sort_by_key(|n| funcs[*n].loc);
    let mut reported: HashSet<String> = HashSet::new();
    for start in names {
        // Depth-first search for a path back to `start`.
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        let mut path: Vec<(&str, Loc)> = vec![];
        let mut seen: HashSet<&str> = HashSet::new();
        while let Some((n, i)) = stack.pop() {
            let out = &edges[n];
            if i < out.len() {
                stack.push((n, i + 1));
                let (callee, loc) = &out[i];
                if callee == start {
                    if reported.insert(start.to_string()) {
                        let mut cycle: Vec<&str> = path.iter().map(|(c, _)| *c).collect();
                        cycle.push(callee);
                        let msg = if cycle.len() == 1 {
                            format!(
                                "recursive call to '{start}': recursion is not allowed in OpenCL C"
                            )
                        } else {
                            format!(
                                "recursive call cycle {start} -> {}: recursion is not allowed in OpenCL C",
                                cycle.join(" -> ")
                            )
                        };
                        diags.error(*loc, msg);
                        for c in &cycle {
                            reported.insert(c.to_string());
                        }
                    }
                    continue;
                }
                if seen.insert(callee.as_str()) {
                    path.push((callee.as_str(), *loc));
                    stack.push((callee.as_str(), 0));
                }
            } else if n != start {
                path.pop();
            }
        }
    }
}

pub(crate) fn collect_calls_block(b: &Block, out: &mut Vec<(String, Loc)>) {
    for s in &b.stmts {
        collect_calls_stmt(s, out);
    }
}

fn collect_calls_stmt(s: &Stmt, out: &mut Vec<(String, Loc)>) {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Case(e) => collect_calls_expr(e, out),
        StmtKind::Return(Some(e)) => collect_calls_expr(e, out),
        StmtKind::Decl(d) => {
            for i in &d.decls {
                if let Some(init) = &i.init {
                    collect_calls_init(init, out);
                }
            }
        }
        StmtKind::Block(b) => collect_calls_block(b, out),
        StmtKind::If { cond, then, els } => {
            collect_calls_expr(cond, out);
            collect_calls_stmt(then, out);
            if let Some(e) = els {
                collect_calls_stmt(e, out);
            }
        }
        StmtKind::While { cond, body, .. } | StmtKind::DoWhile { cond, body, .. } => {
            collect_calls_expr(cond, out);
            collect_calls_stmt(body, out);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
            ..
        } => {
            if let Some(i) = init {
                collect_calls_stmt(i, out);
            }
            if let Some(c) = cond {
                collect_calls_expr(c, out);
            }
            if let Some(c) = step {
                collect_calls_expr(c, out);
            }
            collect_calls_stmt(body, out);
        }
        StmtKind::Switch { value, body } => {
            collect_calls_expr(value, out);
            collect_calls_stmt(body, out);
        }
        _ => {}
    }
}

fn collect_calls_init(i: &Init, out: &mut Vec<(String, Loc)>) {
    match i {
        Init::Expr(e) => collect_calls_expr(e, out),
        Init::List(items, _) => {
            for (_, i) in items {
                collect_calls_init(i, out);
            }
        }
    }
}

fn collect_calls_expr(e: &Expr, out: &mut Vec<(String, Loc)>) {
    match &e.kind {
        ExprKind::Call(n, args) => {
            out.push((n.clone(), e.loc));
            for a in args {
                collect_calls_expr(a, out);
            }
        }
        ExprKind::Unary(_, a)
        | ExprKind::Member(a, _, _)
        | ExprKind::Cast(_, a)
        | ExprKind::SizeofExpr(a)
        | ExprKind::VecStepExpr(a) => collect_calls_expr(a, out),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => {
            collect_calls_expr(a, out);
            collect_calls_expr(b, out);
        }
        ExprKind::Cond(a, b, c) => {
            collect_calls_expr(a, out);
            collect_calls_expr(b, out);
            collect_calls_expr(c, out);
        }
        ExprKind::VecLit(_, items) => {
            for a in items {
                collect_calls_expr(a, out);
            }
        }
        ExprKind::CompoundLit(_, i) => collect_calls_init(i, out),
        _ => {}
    }
}

/// Collects names whose address is taken (`&x`) in a function body: those variables live in
/// the private frame instead of registers. Names indexed with a run-time index are recorded as
/// `[]name` (vectors indexed that way also live in the frame).
pub(crate) fn addr_taken(b: &Block) -> HashSet<String> {
    fn expr(e: &Expr, out: &mut HashSet<String>) {
        if let ExprKind::Unary(UnaryOp::AddrOf, inner) = &e.kind {
            let mut base = inner.as_ref();
            loop {
                match &base.kind {
                    // `&p[i]` does not take the address of a pointer `p`; arrays and
                    // structs live in memory anyway.
                    ExprKind::Member(b, _, false) => base = b,
                    ExprKind::Ident(n) => {
                        out.insert(n.clone());
                        break;
                    }
                    _ => break,
                }
            }
        }
        // `v[i]` with a run-time index: a vector `v` must live in memory (recorded as `[]v`).
        if let ExprKind::Index(b, i) = &e.kind {
            if let (ExprKind::Ident(n), false) = (&b.kind, matches!(i.kind, ExprKind::Int { .. })) {
                out.insert(format!("[]{n}"));
            }
        }
        match &e.kind {
            ExprKind::Call(_, args) | ExprKind::VecLit(_, args) => {
                args.iter().for_each(|a| expr(a, out))
            }
            ExprKind::Unary(_, a)
            | ExprKind::Member(a, _, _)
            | ExprKind::Cast(_, a)
            | ExprKind::SizeofExpr(a)
            | ExprKind::VecStepExpr(a) => expr(a, out),
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b) => {
                expr(a, out);
                expr(b, out);
            }
            ExprKind::Cond(a, b, c) => {
                expr(a, out);
                expr(b, out);
                expr(c, out);
            }
            ExprKind::CompoundLit(_, i) => init(i, out),
            _ => {}
        }
    }
    fn init(i: &Init, out: &mut HashSet<String>) {
        match i {
            Init::Expr(e) => expr(e, out),
            Init::List(items, _) => items.iter().for_each(|(_, i)| init(i, out)),
        }
    }
    fn stmt(s: &Stmt, out: &mut HashSet<String>) {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) | StmtKind::Return(Some(e)) => expr(e, out),
            StmtKind::Decl(d) => d
                .decls
                .iter()
                .filter_map(|i| i.init.as_ref())
                .for_each(|i| init(i, out)),
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| stmt(s, out)),
            StmtKind::If { cond, then, els } => {
                expr(cond, out);
                stmt(then, out);
                if let Some(e) = els {
                    stmt(e, out);
                }
            }
            StmtKind::While { cond, body, .. } | StmtKind::DoWhile { cond, body, .. } => {
                expr(cond, out);
                stmt(body, out);
            }
            StmtKind::For {
                init: i,
                cond,
                step,
                body,
                ..
            } => {
                if let Some(i) = i {
                    stmt(i, out);
                }
                if let Some(c) = cond {
                    expr(c, out);
                }
                if let Some(c) = step {
                    expr(c, out);
                }
                stmt(body, out);
            }
            StmtKind::Switch { value, body } => {
                expr(value, out);
                stmt(body, out);
            }
            _ => {}
        }
    }
    let mut out = HashSet::new();
    b.stmts.iter().for_each(|s| stmt(s, &mut out));
    out
}

impl Program<'_> {
    pub(crate) fn error(&mut self, loc: Loc, msg: impl Into<String>) -> Reported {
        self.diags.error(loc, msg);
        Reported
    }

    pub(crate) fn push_tscope(&mut self) {
        self.tscopes.push(TypeScope::default());
    }
    pub(crate) fn pop_tscope(&mut self) {
        if self.tscopes.len() > 1 {
            self.tscopes.pop();
        }
    }
    pub(crate) fn lookup_typedef(&self, name: &str) -> Option<&Type> {
        self.tscopes.iter().rev().find_map(|s| s.typedefs.get(name))
    }
    pub(crate) fn lookup_enum(&self, name: &str) -> Option<CVal> {
        self.tscopes
            .iter()
            .rev()
            .find_map(|s| s.enums.get(name).copied())
    }
    fn lookup_tag(&self, key: &str) -> Option<RecordId> {
        self.tscopes
            .iter()
            .rev()
            .find_map(|s| s.tags.get(key).copied())
    }
    pub(crate) fn declare_typedef(&mut self, name: &str, ty: Type) {
        // `typedef struct { ... } name;` gives the anonymous record its name.
        if let Type::Record(id) = &ty {
            if let Some(def) = self.recs.defs.get_mut(id.0 as usize) {
                if def.name.ends_with("<anonymous>") {
                    def.name = name.to_string();
                }
            }
        }
        if let Some(s) = self.tscopes.last_mut() {
            s.typedefs.insert(name.to_string(), ty);
        }
    }

    pub(crate) fn ty_name(&self, t: &Type) -> String {
        t.name(&self.recs)
    }
    pub(crate) fn size_of(&self, t: &Type) -> u32 {
        t.size(&self.recs)
    }
    pub(crate) fn align_of(&self, t: &Type) -> u32 {
        t.align(&self.recs)
    }

    /// Resolves the base type of declaration specifiers (defining records and enums).
    pub(crate) fn spec_type(&mut self, spec: &DeclSpec) -> LResult<Type> {
        let t = match &spec.ty {
            TypeSpec::Named(n) => match builtin_type(n) {
                Some(t) => t,
                None => return Err(self.error(spec.loc, format!("unknown type name '{n}'"))),
            },
            TypeSpec::Typedef(n) => match self.lookup_typedef(n) {
                Some(t) => t.clone(),
                None if self.poisoned_types.contains(n) => return Err(Reported),
                None => return Err(self.error(spec.loc, format!("unknown type name '{n}'"))),
            },
            TypeSpec::Record(r) => Type::Record(self.record(r)?),
            TypeSpec::Enum(e) => {
                self.enum_def(e)?;
                Type::int()
            }
        };
        Ok(t)
    }

    fn record(&mut self, r: &RecordSpec) -> LResult<RecordId> {
        let kw = if r.is_union { "union" } else { "struct" };
        let key = r.tag.as_ref().map(|t| format!("{kw} {t}"));
        let id = match (&key, &r.fields) {
            (Some(k), None) => {
                if let Some(id) = self.lookup_tag(k) {
                    return Ok(id);
                }
                // Forward declaration: an incomplete record.
                let id = RecordId(self.recs.defs.len() as u32);
                self.recs.defs.push(RecordDef {
                    name: k.clone(),
                    is_union: r.is_union,
                    fields: vec![],
                    size: 0,
                    align: 1,
                    complete: false,
                });
                if let Some(s) = self.tscopes.last_mut() {
                    s.tags.insert(k.clone(), id);
                }
                return Ok(id);
            }
            (Some(k), Some(_)) => {
                let existing = self.tscopes.last().and_then(|s| s.tags.get(k).copied());
                match existing {
                    Some(id) if !self.recs.defs[id.0 as usize].complete => id,
                    Some(_) => return Err(self.error(r.loc, format!("redefinition of '{k}'"))),
                    None => {
                        let id = RecordId(self.recs.defs.len() as u32);
                        self.recs.defs.push(RecordDef {
                            name: k.clone(),
                            is_union: r.is_union,
                            fields: vec![],
                            size: 0,
                            align: 1,
                            complete: false,
                        });
                        if let Some(s) = self.tscopes.last_mut() {
                            s.tags.insert(k.clone(), id);
                        }
                        id
                    }
                }
            }
            (None, _) => {
                let id = RecordId(self.recs.defs.len() as u32);
                self.recs.defs.push(RecordDef {
                    name: format!("{kw} <anonymous>"),
                    is_union: r.is_union,
                    fields: vec![],
                    size: 0,
                    align: 1,
                    complete: false,
                });
                id
            }
        };
        let Some(fields) = &r.fields else {
            return Ok(id);
        };
        let packed = r.attrs.iter().any(|a| a.name == "packed");
        let mut max_align = 1u32;
        let mut offset = 0u32;
        let mut size = 0u32;
        let mut out: Vec<Field> = vec![];
        for fd in fields {
            let base = self.spec_type(&fd.spec)?;
            if fd.decls.is_empty() {
                // Anonymous struct/union member: its fields join this record.
                if let Type::Record(inner) = &base {
                    let inner_def = self.recs.defs[inner.0 as usize].clone();
                    let al = if packed { 1 } else { inner_def.align.max(1) };
                    let at = if r.is_union { 0 } else { align_up(offset, al) };
                    for f in inner_def.fields {
                        out.push(Field {
                            name: f.name,
                            ty: f.ty,
                            offset: at + f.offset,
                        });
                    }
                    max_align = max_align.max(al);
                    if r.is_union {
                        size = size.max(inner_def.size);
                    } else {
                        offset = at + inner_def.size;
                    }
                }
                continue;
            }
            for d in &fd.decls {
                let (ty, _) = self.declarator_type(base.clone(), &fd.spec, &d.decl, None)?;
                let name = d.decl.name.clone().unwrap_or_default();
                if matches!(ty, Type::Void)
                    || matches!(&ty, Type::Record(x) if !self.recs.defs[x.0 as usize].complete)
                {
                    return Err(self.error(
                        d.decl.loc,
                        format!("field '{name}' has incomplete type '{}'", self.ty_name(&ty)),
                    ));
                }
                if out.iter().any(|f| f.name == name) {
                    return Err(self.error(d.decl.loc, format!("duplicate member '{name}'")));
                }
                let mut al = if packed { 1 } else { self.align_of(&ty) };
                if let Some(a) = d.decl.attrs.iter().find(|a| a.name == "aligned") {
                    if let Some(v) = a.args.first().and_then(|e| self.const_int(e)) {
                        al = al.max(v.clamp(1, 4096) as u32);
                    }
                }
                let sz = self.size_of(&ty);
                let at = if r.is_union { 0 } else { align_up(offset, al) };
                out.push(Field {
                    name,
                    ty,
                    offset: at,
                });
                max_align = max_align.max(al);
                if r.is_union {
                    size = size.max(sz);
                } else {
                    offset = at.saturating_add(sz);
                }
            }
        }
        if let Some(a) = r.attrs.iter().find(|a| a.name == "aligned") {
            let v = a.args.first().and_then(|e| self.const_int(e)).unwrap_or(16);
            max_align = max_align.max(v.clamp(1, 4096) as u32);
        }
        let total = if r.is_union { size } else { offset };
        let total = align_up(total, max_align);
        let def = &mut self.recs.defs[id.0 as usize];
        def.fields = out;
        def.size = total;
        def.align = max_align;
        def.complete = true;
        Ok(id)
    }

    fn enum_def(&mut self, e: &EnumSpec) -> LResult<()> {
        let Some(items) = &e.items else {
            return Ok(());
        };
        let mut next: i128 = 0;
        for (name, value, loc) in items {
            if let Some(v) = value {
                match self.const_eval(v) {
                    Some(c) => next = c.as_i128(),
                    None => {
                        return Err(self.error(
                            *loc,
                            format!("value of enumerator '{name}' is not an integer constant"),
                        ))
                    }
                }
            }
            if let Some(s) = self.tscopes.last_mut() {
                s.enums.insert(
                    name.clone(),
                    CVal::Int(consteval::wrap(next, Scalar::I32), Scalar::I32),
                );
            }
            next += 1;
        }
        Ok(())
    }

    /// Applies a declarator to a base type. Returns the type and the address space of the
    /// declared object (None when the specifiers give none). `array_len_from_init` completes
    /// `T x[] = {...}`.
    pub(crate) fn declarator_type(
        &mut self,
        base: Type,
        spec: &DeclSpec,
        d: &Declarator,
        array_len_from_init: Option<u32>,
    ) -> LResult<(Type, Option<AddrSpace>)> {
        let mut t = base;
        let mut obj_space = spec.addr.map(space_of);
        let mut is_const = spec.quals.is_const;
        let mut is_volatile = spec.quals.is_volatile;
        let n = d.derived.len();
        for (i, step) in d.derived.iter().enumerate() {
            match step {
                Derived::Pointer { quals, addr } => {
                    let pointee_space = obj_space.unwrap_or(AddrSpace::Private);
                    t = Type::Pointer(Box::new(Pointee {
                        ty: t,
                        space: pointee_space,
                        is_const,
                        is_volatile,
                    }));
                    obj_space = addr.map(space_of);
                    is_const = quals.is_const;
                    is_volatile = quals.is_volatile;
                }
                Derived::Array(len) => {
                    if matches!(t, Type::Void) {
                        return Err(self.error(d.loc, "array has incomplete element type 'void'"));
                    }
                    let count = match len {
                        Some(e) => match self.const_eval(e) {
                            Some(v) => {
                                let v = v.as_i128();
                                if v <= 0 {
                                    return Err(self.error(e.loc, format!("array size must be positive, got {v}")));
                                }
                                if v > (1 << 28) {
                                    return Err(self.error(e.loc, "array is too large"));
                                }
                                v as u32
                            }
                            None => {
                                return Err(self.error(
                                    e.loc,
                                    "array size is not an integer constant expression (variable-length arrays are not supported in OpenCL C)",
                                ))
                            }
                        },
                        None if i + 1 == n => array_len_from_init.unwrap_or(0),
                        None => return Err(self.error(d.loc, "array has incomplete element type")),
                    };
                    t = Type::Array(Box::new(t), count);
                }
                Derived::Function { .. } => {
                    if matches!(d.derived.get(i + 1), Some(Derived::Pointer { .. })) {
                        return Err(self.error(
                            d.loc,
                            "function pointers are not supported in OpenCL C (OpenCL C 1.2, section 6.9)",
                        ));
                    }
                    return Err(self.error(d.loc, "function declarator in an unexpected place"));
                }
            }
        }
        let _ = (is_const, is_volatile);
        Ok((t, obj_space))
    }

    /// Whether the declared object itself is const (`const int x`, `int *const p`).
    pub(crate) fn object_is_const(spec: &DeclSpec, d: &Declarator) -> bool {
        let mut c = spec.quals.is_const;
        for step in &d.derived {
            if let Derived::Pointer { quals, .. } = step {
                c = quals.is_const;
            }
        }
        c
    }

    /// Resolves a type name (casts, sizeof).
    pub(crate) fn type_name(&mut self, tn: &TypeName) -> LResult<Type> {
        let base = self.spec_type(&tn.spec)?;
        let (t, _) = self.declarator_type(base, &tn.spec, &tn.decl, None)?;
        Ok(t)
    }

    pub(crate) fn const_int(&mut self, e: &Expr) -> Option<i128> {
        let v = self.const_eval(e)?;
        if v.scalar().is_float() {
            return None;
        }
        Some(v.as_i128())
    }

    /// Evaluates an integer or floating constant expression; `None` when it is not constant.
    pub(crate) fn const_eval(&mut self, e: &Expr) -> Option<CVal> {
        match &e.kind {
            ExprKind::Int {
                value,
                unsigned,
                long,
                decimal,
            } => {
                let s = consteval::int_literal_type(*value, *unsigned, *long, *decimal);
                Some(CVal::Int(consteval::wrap(*value as i128, s), s))
            }
            ExprKind::Char(c) => Some(CVal::Int(*c as i32 as i128, Scalar::I32)),
            ExprKind::Float { value, suffix } => {
                let s = match suffix {
                    crate::token::FloatSuffix::F => Scalar::F32,
                    crate::token::FloatSuffix::H => Scalar::F16,
                    crate::token::FloatSuffix::None => Scalar::F64,
                };
                Some(CVal::Float(*value, s).cast(s))
            }
            ExprKind::Ident(n) => self.lookup_enum(n).or_else(|| builtin_constant(n)),
            ExprKind::Unary(op, a) => {
                let v = self.const_eval(a)?;
                match op {
                    UnaryOp::Plus => Some(v.cast(crate::sema::types::promote(v.scalar()))),
                    UnaryOp::Neg => {
                        let s = crate::sema::types::promote(v.scalar());
                        match v.cast(s) {
                            CVal::Int(x, s) => Some(CVal::Int(consteval::wrap(-x, s), s)),
                            CVal::Float(f, s) => Some(CVal::Float(-f, s)),
                        }
                    }
                    UnaryOp::BitNot => {
                        let s = crate::sema::types::promote(v.scalar());
                        match v.cast(s) {
                            CVal::Int(x, s) => Some(CVal::Int(consteval::wrap(!x, s), s)),
                            CVal::Float(..) => None,
                        }
                    }
                    UnaryOp::LogNot => Some(CVal::Int((!v.is_true()) as i128, Scalar::I32)),
                    _ => None,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.const_eval(a)?;
                if *op == BinaryOp::LogAnd && !x.is_true() {
                    return Some(CVal::Int(0, Scalar::I32));
                }
                if *op == BinaryOp::LogOr && x.is_true() {
                    return Some(CVal::Int(1, Scalar::I32));
                }
                let y = self.const_eval(b)?;
                consteval::binary(*op, x, y)
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.const_eval(c)?;
                let (x, y) = (self.const_eval(a)?, self.const_eval(b)?);
                let t = crate::sema::types::common_scalar(x.scalar(), y.scalar());
                Some(if c.is_true() { x.cast(t) } else { y.cast(t) })
            }
            ExprKind::Cast(tn, a) => {
                let t = self.type_name(tn).ok()?;
                let v = self.const_eval(a)?;
                match t {
                    Type::Scalar(s) => Some(v.cast(s)),
                    _ => None,
                }
            }
            ExprKind::SizeofType(tn) => {
                let t = self.type_name(tn).ok()?;
                Some(CVal::Int(self.size_of(&t) as i128, Scalar::U64))
            }
            ExprKind::AlignofType(tn) => {
                let t = self.type_name(tn).ok()?;
                Some(CVal::Int(self.align_of(&t) as i128, Scalar::U64))
            }
            ExprKind::VecStepType(tn) => {
                let t = self.type_name(tn).ok()?;
                let n = match t {
                    Type::Vector(_, 3) => 4,
                    t => t.lanes() as i128,
                };
                Some(CVal::Int(n, Scalar::U32))
            }
            ExprKind::Comma(_, b) => self.const_eval(b),
            ExprKind::Call(n, _) => match n.as_str() {
                "__builtin_inff" | "__builtin_huge_valf" => {
                    Some(CVal::Float(f64::INFINITY, Scalar::F32))
                }
                "__builtin_nanf" => Some(CVal::Float(f64::NAN, Scalar::F32)),
                "__builtin_inf" | "__builtin_huge_val" => {
                    Some(CVal::Float(f64::INFINITY, Scalar::F64))
                }
                "__builtin_nan" => Some(CVal::Float(f64::NAN, Scalar::F64)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A program-scope declaration: typedef, record/enum, `__constant` variable, channel,
    /// prototype.
    fn global_decl(&mut self, d: &Declaration) {
        self.global_decl_inner(d);
        // Program-scope objects whose declaration had an error: their uses are not reported
        // again as undeclared.
        if d.spec.storage != Storage::Typedef {
            for id in &d.decls {
                if let Some(n) = &id.decl.name {
                    let is_fn = matches!(id.decl.derived.last(), Some(Derived::Function { .. }));
                    if !is_fn && !self.globals.contains_key(n) {
                        self.poisoned_globals.insert(n.clone());
                    }
                }
            }
        }
    }

    fn global_decl_inner(&mut self, d: &Declaration) {
        // `extern __constant T x;` naming an object this unit defines (after linking: another
        // unit's definition) declares nothing new.
        if is_extern_var_decl(d)
            && d.decls.iter().all(|id| {
                id.decl
                    .name
                    .as_ref()
                    .is_some_and(|n| self.defined_vars.contains(n))
            })
        {
            // A struct the declaration defines is still declared when the definition of the
            // object comes later (`extern constant struct s {..} x; constant struct s x = ..;`);
            // after a definition of the same struct, the repeated body is not an error here.
            let saved = std::mem::take(&mut *self.diags);
            let _ = self.spec_type(&d.spec);
            *self.diags = saved;
            return;
        }
        let Ok(base) = self.spec_type(&d.spec) else {
            if d.spec.storage == Storage::Typedef {
                for id in &d.decls {
                    if let Some(n) = &id.decl.name {
                        self.poisoned_types.insert(n.clone());
                    }
                }
            }
            return;
        };
        for id in &d.decls {
            let decl = &id.decl;
            let Some(name) = decl.name.clone() else {
                continue;
            };
            if let Some(Derived::Function { .. }) = decl.derived.last() {
                self.protos.insert(name);
                continue;
            }
            if d.spec.storage == Storage::Typedef {
                match self.declarator_type(base.clone(), &d.spec, decl, None) {
                    Ok((t, _)) => self.declare_typedef(&name, t),
                    Err(_) => {
                        self.poisoned_types.insert(name);
                    }
                }
                continue;
            }
            if d.spec.is_channel {
                self.channel_decl(&base, d, id);
                continue;
            }
            if d.spec.storage == Storage::Extern && id.init.is_none() {
                if !self.defined_vars.contains(&name) && !self.globals.contains_key(&name) {
                    self.extern_var(&base, d, decl, &name);
                }
                continue;
            }
            if self.globals.contains_key(&name) {
                self.diags
                    .error(decl.loc, format!("redefinition of '{name}'"));
                continue;
            }
            let init_len = id.init.as_ref().and_then(init::init_len);
            let Ok((t, space)) = self.declarator_type(base.clone(), &d.spec, decl, init_len) else {
                continue;
            };
            if matches!(t, Type::Opaque("sampler_t")) {
                self.program_sampler(&name, id.init.as_ref(), decl.loc);
                continue;
            }
            match space {
                Some(AddrSpace::Constant) => {
                    self.var_attrs_of(decl, &name);
                    let Some(init) = &id.init else {
                        self.diags.error(decl.loc, format!("program scope variable '{name}' in the __constant address space must be initialized"));
                        continue;
                    };
                    if let Some(offset) = self.constant_data(&t, init) {
                        self.globals
                            .insert(name, Global::Constant { offset, ty: t });
                    }
                }
                Some(AddrSpace::Global) => {
                    self.diags.error(decl.loc, format!("program scope variable '{name}' in the __global address space is not supported (OpenCL C 1.2 allows only __constant)"));
                }
                _ => {
                    self.diags.error(
                        decl.loc,
                        format!("program scope variable '{name}' must be declared in the __constant address space"),
                    );
                }
            }
        }
    }

    /// A program-scope sampler (`const sampler_t s = CLK_... | ...;`, OpenCL C 1.2 6.12.14.1):
    /// a constant the kernels use as a value.
    fn program_sampler(&mut self, name: &str, init: Option<&crate::ast::Init>, loc: Loc) {
        let value = match init {
            Some(crate::ast::Init::Expr(e)) => self.const_eval(e),
            _ => None,
        };
        match value.map(|v| v.as_i128()) {
            Some(v) if (0..=0xff).contains(&v) => {
                self.globals.insert(
                    name.to_string(),
                    Global::Sampler { value: v as u32 },
                );
            }
            _ => self.diags.error(
                loc,
                format!("program scope sampler '{name}' must be initialized with a constant sampler value (CLK_NORMALIZED_COORDS_* | CLK_ADDRESS_* | CLK_FILTER_*)"),
            ),
        }
    }

    /// `extern __constant T name;` of an object no part of this unit defines: the unit is
    /// checked with `name` as zero-filled constant data of type `T`; a build or link reports
    /// it as undefined unless another unit defines it ([`undefined_extern_vars`]). An
    /// incomplete `T` (`extern constant struct s x;` with `struct s` declared nowhere) is
    /// accepted as long as the unit does not use `name`.
    fn extern_var(&mut self, base: &Type, d: &Declaration, decl: &Declarator, name: &str) {
        let saved = std::mem::take(&mut *self.diags);
        let resolved = self.declarator_type(base.clone(), &d.spec, decl, None);
        let scratch = std::mem::replace(&mut *self.diags, saved);
        let Ok((t, space)) = resolved else {
            return;
        };
        if scratch.has_errors() || self.size_of(&t) == 0 {
            return;
        }
        if space != Some(AddrSpace::Constant) {
            self.diags.error(
                decl.loc,
                format!("program scope variable '{name}' must be declared in the __constant address space"),
            );
            return;
        }
        let size = self.size_of(&t);
        if size > MAX_OBJECT {
            return;
        }
        let align = self.align_of(&t).max(1);
        let data = &mut self.module.constant_data;
        let offset = align_up(data.len() as u32, align);
        data.resize((offset + size) as usize, 0);
        self.globals
            .insert(name.to_string(), Global::Constant { offset, ty: t });
    }

    /// Records memory attributes of a variable (checked) for the analysis.
    pub(crate) fn var_attrs_of(&mut self, decl: &Declarator, name: &str) -> attrs::VarAttrs {
        if decl.attrs.is_empty() {
            return attrs::VarAttrs::default();
        }
        let attrs = decl.attrs.clone();
        let by_ptr = self.attr_consts(&attrs);
        let mut eval = |e: &Expr, dg: &mut Diagnostics| -> Option<i128> {
            let v = by_ptr.get(&(e as *const Expr)).copied().flatten();
            if v.is_none() {
                dg.error(e.loc, "attribute argument is not an integer constant");
            }
            v
        };
        let va = attrs::var_attrs(&attrs, &mut eval, self.diags);
        self.var_attrs
            .push((decl.loc, name.to_string(), va.clone()));
        va
    }

    /// The integer value of every attribute argument (by node address), for the checkers.
    fn attr_consts(&mut self, list: &[Attribute]) -> HashMap<*const Expr, Option<i128>> {
        let mut by_ptr = HashMap::new();
        for a in list {
            for e in &a.args {
                let v = match (&e.kind, a.name.as_str()) {
                    (_, "vec_type_hint") | (ExprKind::Str(_), _) => Some(0),
                    _ => self.const_int(e),
                };
                by_ptr.insert(e as *const Expr, v);
            }
        }
        by_ptr
    }

    /// Evaluates attribute arguments and runs the kernel attribute checker over them.
    pub(crate) fn kernel_attrs(&mut self, attrs_list: &[Attribute]) -> ir::KernelAttrs {
        let by_ptr = self.attr_consts(attrs_list);
        let mut eval = |e: &Expr, dg: &mut Diagnostics| -> Option<i128> {
            let v = by_ptr.get(&(e as *const Expr)).copied().flatten();
            if v.is_none() {
                dg.error(e.loc, "attribute argument is not an integer constant");
            }
            v
        };
        attrs::kernel_attrs(attrs_list, &mut eval, self.diags)
    }

    fn channel_decl(&mut self, base: &Type, d: &Declaration, id: &InitDeclarator) {
        let decl = &id.decl;
        let name = decl.name.clone().unwrap_or_default();
        if !self.channels_enabled {
            // Intel's compiler needs the extension pragma; accept with a warning.
            self.diags.warning(
                d.loc,
                "channel declared without '#pragma OPENCL EXTENSION cl_intel_channels : enable'",
            );
            self.channels_enabled = true;
        }
        let mut dims = vec![];
        for step in &decl.derived {
            match step {
                Derived::Array(Some(e)) => match self.const_int(e) {
                    Some(v) if v > 0 && v < 1 << 20 => dims.push(v as u32),
                    _ => {
                        self.diags.error(
                            e.loc,
                            "channel array size must be a positive integer constant",
                        );
                        return;
                    }
                },
                _ => {
                    self.diags.error(decl.loc, "invalid channel declarator");
                    return;
                }
            }
        }
        let count = dims.iter().try_fold(1u32, |a, &d| a.checked_mul(d));
        if count.is_none_or(|c| c > 65536) {
            self.diags.error(
                decl.loc,
                format!("channel array '{name}' has too many channels (at most 65536)"),
            );
            return;
        }
        if matches!(base, Type::Void | Type::Pointer(_)) {
            self.diags.error(
                decl.loc,
                format!("invalid channel element type '{}'", self.ty_name(base)),
            );
            return;
        }
        let mut attrs_all = d.spec.attrs.clone();
        attrs_all.extend(decl.attrs.iter().cloned());
        let by_ptr = self.attr_consts(&attrs_all);
        let mut eval = |e: &Expr, dg: &mut Diagnostics| -> Option<i128> {
            let v = by_ptr.get(&(e as *const Expr)).copied().flatten();
            if v.is_none() {
                dg.error(e.loc, "attribute argument is not an integer constant");
            }
            v
        };
        let va = attrs::var_attrs(&attrs_all, &mut eval, self.diags);
        if self.globals.contains_key(&name) {
            self.diags
                .error(decl.loc, format!("redefinition of '{name}'"));
            return;
        }
        let cid = ChannelId(self.module.channels.len() as u32);
        self.module.channels.push(ir::ChannelDecl {
            id: cid,
            name: name.clone(),
            elem_size: self.size_of(base),
            elem_type: self.ty_name(base),
            depth: va.depth.unwrap_or(0),
            dims: dims.clone(),
            io: va.io,
            loc: decl.loc,
        });
        self.globals.insert(
            name,
            Global::Channel {
                id: cid,
                elem: base.clone(),
                dims,
            },
        );
    }

    /// Lays out a program-scope `__constant` variable's initializer; returns its offset.
    pub(crate) fn constant_data_pub(&mut self, t: &Type, init: &Init) -> Option<u32> {
        self.constant_data(t, init)
    }

    fn constant_data(&mut self, t: &Type, init: &Init) -> Option<u32> {
        let size = self.size_of(t);
        if size > MAX_OBJECT {
            self.diags.error(
                init.loc(),
                format!("__constant object is too large ({size} bytes; at most {MAX_OBJECT} are supported)"),
            );
            return None;
        }
        let align = self.align_of(t).max(1);
        let mut leaves = vec![];
        if init::flatten(self, t, 0, init, &mut leaves).is_err() {
            return None;
        }
        let mut bytes = vec![0u8; size as usize];
        for leaf in leaves {
            let init::Leaf { offset, ty, expr } = leaf;
            let ok = self.const_leaf_bytes(&ty, &expr, &mut bytes, offset);
            if !ok {
                self.diags.error(
                    expr.loc,
                    "initializer element is not a compile-time constant",
                );
                return None;
            }
        }
        let data = &mut self.module.constant_data;
        let off = align_up(data.len() as u32, align);
        data.resize(off as usize, 0);
        data.extend_from_slice(&bytes);
        Some(off)
    }

    /// Writes the bytes of a constant leaf (scalar, vector, or char array from a string).
    pub(crate) fn const_leaf_bytes(
        &mut self,
        ty: &Type,
        e: &Expr,
        out: &mut [u8],
        offset: u32,
    ) -> bool {
        let put = |out: &mut [u8], at: usize, b: &[u8]| {
            if let Some(dst) = out.get_mut(at..at + b.len()) {
                dst.copy_from_slice(b);
            }
        };
        match ty {
            Type::Scalar(s) => {
                let Some(v) = self.const_eval(e) else {
                    return false;
                };
                put(out, offset as usize, &v.mem_bytes(*s));
                true
            }
            Type::Vector(s, n) => {
                let comps: Vec<&Expr> = match &e.kind {
                    ExprKind::VecLit(_, items) => items.iter().collect(),
                    _ => vec![e],
                };
                let mut vals = vec![];
                for c in comps {
                    match self.const_eval(c) {
                        Some(v) => vals.push(v),
                        None => return false,
                    }
                }
                if vals.len() == 1 {
                    vals = vec![vals[0]; *n as usize];
                }
                if vals.len() != *n as usize {
                    return false;
                }
                for (i, v) in vals.iter().enumerate() {
                    put(
                        out,
                        offset as usize + i * s.size() as usize,
                        &v.mem_bytes(*s),
                    );
                }
                true
            }
            Type::Array(el, n) if matches!(**el, Type::Scalar(Scalar::I8 | Scalar::U8)) => {
                if let ExprKind::Str(s) = &e.kind {
                    let b = s.as_bytes();
                    let len = b.len().min(*n as usize);
                    put(out, offset as usize, &b[..len]);
                    true
                } else {
                    false
                }
            }
            _ => false,
        }
    }
}

/// OpenCL's predefined constants that C code uses like macros (when the preprocessor did not
/// already define them).
pub(crate) fn builtin_constant(name: &str) -> Option<CVal> {
    let i = |v: i128| Some(CVal::Int(v, Scalar::I32));
    match name {
        "CLK_LOCAL_MEM_FENCE" => i(1),
        "CLK_GLOBAL_MEM_FENCE" => i(2),
        "CLK_CHANNEL_MEM_FENCE" => i(4),
        // Sampler fields (the values of Khronos' opencl-c.h) and image formats (the host API's
        // numbers, OpenCL C 1.2 6.12.14.5).
        "CLK_NORMALIZED_COORDS_FALSE" => i(0),
        "CLK_NORMALIZED_COORDS_TRUE" => i(1),
        "CLK_ADDRESS_NONE" => i(0),
        "CLK_ADDRESS_CLAMP_TO_EDGE" => i(2),
        "CLK_ADDRESS_CLAMP" => i(4),
        "CLK_ADDRESS_REPEAT" => i(6),
        "CLK_ADDRESS_MIRRORED_REPEAT" => i(8),
        "CLK_FILTER_NEAREST" => i(0x10),
        "CLK_FILTER_LINEAR" => i(0x20),
        "CLK_R" => i(0x10B0),
        "CLK_A" => i(0x10B1),
        "CLK_RG" => i(0x10B2),
        "CLK_RA" => i(0x10B3),
        "CLK_RGB" => i(0x10B4),
        "CLK_RGBA" => i(0x10B5),
        "CLK_BGRA" => i(0x10B6),
        "CLK_ARGB" => i(0x10B7),
        "CLK_INTENSITY" => i(0x10B8),
        "CLK_LUMINANCE" => i(0x10B9),
        "CLK_Rx" => i(0x10BA),
        "CLK_RGx" => i(0x10BB),
        "CLK_RGBx" => i(0x10BC),
        "CLK_SNORM_INT8" => i(0x10D0),
        "CLK_SNORM_INT16" => i(0x10D1),
        "CLK_UNORM_INT8" => i(0x10D2),
        "CLK_UNORM_INT16" => i(0x10D3),
        "CLK_UNORM_SHORT_565" => i(0x10D4),
        "CLK_UNORM_SHORT_555" => i(0x10D5),
        "CLK_UNORM_INT_101010" => i(0x10D6),
        "CLK_SIGNED_INT8" => i(0x10D7),
        "CLK_SIGNED_INT16" => i(0x10D8),
        "CLK_SIGNED_INT32" => i(0x10D9),
        "CLK_UNSIGNED_INT8" => i(0x10DA),
        "CLK_UNSIGNED_INT16" => i(0x10DB),
        "CLK_UNSIGNED_INT32" => i(0x10DC),
        "CLK_HALF_FLOAT" => i(0x10DD),
        "CLK_FLOAT" => i(0x10DE),
        "true" => i(1),
        "false" => i(0),
        "NULL" => Some(CVal::Int(0, Scalar::I32)),
        "MAXFLOAT" | "FLT_MAX" => Some(CVal::Float(f32::MAX as f64, Scalar::F32)),
        "FLT_MIN" => Some(CVal::Float(f32::MIN_POSITIVE as f64, Scalar::F32)),
        "FLT_EPSILON" => Some(CVal::Float(f32::EPSILON as f64, Scalar::F32)),
        "DBL_MAX" => Some(CVal::Float(f64::MAX, Scalar::F64)),
        "DBL_MIN" => Some(CVal::Float(f64::MIN_POSITIVE, Scalar::F64)),
        "DBL_EPSILON" => Some(CVal::Float(f64::EPSILON, Scalar::F64)),
        "HUGE_VALF" | "INFINITY" => Some(CVal::Float(f64::INFINITY, Scalar::F32)),
        "HUGE_VAL" => Some(CVal::Float(f64::INFINITY, Scalar::F64)),
        "NAN" => Some(CVal::Float(f64::NAN, Scalar::F32)),
        "M_PI_F" => Some(CVal::Float(std::f64::consts::PI, Scalar::F32).cast(Scalar::F32)),
        "M_PI" => Some(CVal::Float(std::f64::consts::PI, Scalar::F64)),
        "M_E_F" => Some(CVal::Float(std::f64::consts::E, Scalar::F32).cast(Scalar::F32)),
        "M_E" => Some(CVal::Float(std::f64::consts::E, Scalar::F64)),
        "M_SQRT2_F" => Some(CVal::Float(std::f64::consts::SQRT_2, Scalar::F32).cast(Scalar::F32)),
        "M_LN2_F" => Some(CVal::Float(std::f64::consts::LN_2, Scalar::F32).cast(Scalar::F32)),
        "M_LOG2E_F" => Some(CVal::Float(std::f64::consts::LOG2_E, Scalar::F32).cast(Scalar::F32)),
        "INT_MAX" => i(i32::MAX as i128),
        "INT_MIN" => i(i32::MIN as i128),
        "UINT_MAX" => Some(CVal::Int(u32::MAX as i128, Scalar::U32)),
        "CHAR_BIT" => i(8),
        "CHAR_MAX" | "SCHAR_MAX" => i(127),
        "CHAR_MIN" | "SCHAR_MIN" => i(-128),
        "UCHAR_MAX" => i(255),
        "SHRT_MAX" => i(32767),
        "SHRT_MIN" => i(-32768),
        "USHRT_MAX" => i(65535),
        "LONG_MAX" => Some(CVal::Int(i64::MAX as i128, Scalar::I64)),
        "LONG_MIN" => Some(CVal::Int(i64::MIN as i128, Scalar::I64)),
        "ULONG_MAX" => Some(CVal::Int(u64::MAX as i128, Scalar::U64)),
        _ => None,
    }
}

/// Largest single object (array, struct, `__constant` table) the compiler lays out.
pub(crate) const MAX_OBJECT: u32 = 64 << 20;

/// Rounds `x` up to a multiple of `a` (saturating: sizes are bounded elsewhere).
pub(crate) fn align_up(x: u32, a: u32) -> u32 {
    x.checked_next_multiple_of(a.max(1)).unwrap_or(u32::MAX)
}

pub(crate) fn space_of(a: AddrQual) -> AddrSpace {
    match a {
        AddrQual::Global => AddrSpace::Global,
        AddrQual::Local => AddrSpace::Local,
        AddrQual::Constant => AddrSpace::Constant,
        AddrQual::Private => AddrSpace::Private,
    }
}

/// Whether a program-scope declaration only declares variables `extern` (no initializer).
fn is_extern_var_decl(d: &Declaration) -> bool {
    d.spec.storage == Storage::Extern
        && d.decls.iter().all(|id| {
            id.init.is_none() && !matches!(id.decl.derived.last(), Some(Derived::Function { .. }))
        })
}

/// Names of the program-scope variables a unit defines (declarations that are not `extern`
/// without an initializer, nor typedefs or prototypes).
fn defined_variables(tu: &TranslationUnit) -> HashSet<String> {
    let mut out = HashSet::new();
    for item in &tu.items {
        let Item::Decl(d) = item else { continue };
        if d.spec.storage == Storage::Typedef {
            continue;
        }
        for id in &d.decls {
            let is_fn = matches!(id.decl.derived.last(), Some(Derived::Function { .. }));
            if is_fn || (d.spec.storage == Storage::Extern && id.init.is_none()) {
                continue;
            }
            if let Some(n) = &id.decl.name {
                out.insert(n.clone());
            }
        }
    }
    out
}

/// `extern` program-scope variables of a whole program (one unit built, or the merged units of
/// a link) that no declaration defines: the name and the location of its first `extern`
/// declaration.
pub fn undefined_extern_vars(tu: &TranslationUnit) -> Vec<(String, Loc)> {
    let defined = defined_variables(tu);
    let mut seen = HashSet::new();
    let mut out = vec![];
    for item in &tu.items {
        let Item::Decl(d) = item else { continue };
        if d.spec.storage != Storage::Extern {
            continue;
        }
        for id in &d.decls {
            let is_fn = matches!(id.decl.derived.last(), Some(Derived::Function { .. }));
            let Some(n) = &id.decl.name else { continue };
            if is_fn || id.init.is_some() || defined.contains(n) || !seen.insert(n.clone()) {
                continue;
            }
            out.push((n.clone(), id.decl.loc));
        }
    }
    out
}
