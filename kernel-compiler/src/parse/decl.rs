//! Declarations: specifiers, declarators, attributes, struct/union/enum bodies, initializers.

use super::{PResult, Parser};
use crate::ast::*;
use crate::source::Loc;
use crate::token::{Punct, TokenKind};

/// Scalar base names of OpenCL C (vector types are these plus 2, 3, 4, 8 or 16).
const VECTOR_BASES: &[&str] = &[
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half",
    "bool",
];

/// Builtin type names that are single identifiers (besides the C keywords handled apart).
pub(crate) fn is_builtin_type_name(s: &str) -> bool {
    match s {
        "void" | "bool" | "char" | "uchar" | "short" | "ushort" | "int" | "uint" | "long"
        | "ulong" | "float" | "double" | "half" | "size_t" | "ptrdiff_t" | "intptr_t"
        | "uintptr_t" | "event_t" | "sampler_t" | "image1d_t" | "image2d_t" | "image3d_t"
        | "image1d_array_t" | "image2d_array_t" | "image1d_buffer_t" | "_Bool" => true,
        _ => vector_name_parts(s).is_some(),
    }
}

/// Splits `float4` into (`float`, 4) for a valid vector width.
pub(crate) fn vector_name_parts(s: &str) -> Option<(&'static str, u8)> {
    for b in VECTOR_BASES {
        if let Some(rest) = s.strip_prefix(b) {
            if *b == "bool" {
                continue;
            }
            let n: u8 = match rest {
                "2" => 2,
                "3" => 3,
                "4" => 4,
                "8" => 8,
                "16" => 16,
                _ => continue,
            };
            return Some((b, n));
        }
    }
    None
}

fn is_c_type_keyword(s: &str) -> bool {
    matches!(
        s,
        "signed" | "unsigned" | "__signed__" | "struct" | "union" | "enum"
    )
}

fn is_qualifier_keyword(s: &str) -> bool {
    matches!(
        s,
        "const"
            | "__const"
            | "__const__"
            | "volatile"
            | "__volatile__"
            | "restrict"
            | "__restrict"
            | "__restrict__"
            | "__global"
            | "global"
            | "__local"
            | "local"
            | "__constant"
            | "constant"
            | "__private"
            | "private"
            | "__read_only"
            | "read_only"
            | "__write_only"
            | "write_only"
            | "__read_write"
            | "read_write"
            | "typedef"
            | "static"
            | "extern"
            | "inline"
            | "__inline"
            | "__inline__"
            | "__kernel"
            | "kernel"
            | "__attribute__"
            | "__attribute"
            | "auto"
            | "register"
            | "__forceinline"
            | "pipe"
            | "channel"
    )
}

impl Parser<'_> {
    /// Whether the current token can start declaration specifiers.
    pub(crate) fn starts_decl_spec(&self) -> bool {
        match self.ident() {
            Some(s) => {
                if s == "channel" || s == "pipe" {
                    // Keywords only when a type follows (they are ordinary names otherwise).
                    return self.ident_at(1).is_some_and(|n| {
                        self.ident_is_type_start(n) && n != "channel" && n != "pipe"
                    });
                }
                self.ident_is_type_start(s)
            }
            None => false,
        }
    }

    fn ident_is_type_start(&self, s: &str) -> bool {
        is_builtin_type_name(s)
            || is_c_type_keyword(s)
            || is_qualifier_keyword(s)
            || self.is_typedef_name(s)
    }

    /// Whether the current token can start a type name (casts, sizeof).
    pub(crate) fn starts_type_name(&self) -> bool {
        match self.ident() {
            Some(s) => {
                (is_builtin_type_name(s)
                    || is_c_type_keyword(s)
                    || matches!(
                        s,
                        "const"
                            | "volatile"
                            | "__global"
                            | "global"
                            | "__local"
                            | "local"
                            | "__constant"
                            | "constant"
                            | "__private"
                            | "private"
                            | "restrict"
                    )
                    || self.is_typedef_name(s))
                    && (!matches!(s, "global" | "local" | "constant" | "private")
                        || self
                            .ident_at(1)
                            .is_some_and(|n| self.ident_is_type_start(n)))
            }
            None => false,
        }
    }

    /// Parses declaration specifiers.
    pub(crate) fn decl_spec(&mut self) -> PResult<DeclSpec> {
        let loc = self.loc();
        let mut spec = DeclSpec {
            ty: TypeSpec::Named("int".into()),
            spelled: String::new(),
            quals: Quals::default(),
            storage: Storage::None,
            addr: None,
            access: None,
            is_kernel: false,
            is_inline: false,
            is_pipe: false,
            is_channel: false,
            attrs: vec![],
            loc,
        };
        let mut base: Option<TypeSpec> = None;
        let (mut signed, mut unsigned, mut short, mut long, mut int, mut char) =
            (false, false, false, 0u32, false, false);
        let mut any = false;
        // End of a struct/union/enum specifier (for "expected ';' after struct").
        let mut type_end = loc;
        while let Some(word) = self.ident().map(str::to_string) {
            let wloc = self.loc();
            match word.as_str() {
                "const" | "__const" | "__const__" => spec.quals.is_const = true,
                "volatile" | "__volatile__" => spec.quals.is_volatile = true,
                "restrict" | "__restrict" | "__restrict__" => spec.quals.is_restrict = true,
                "__global" | "global" | "__local" | "local" | "__constant" | "constant"
                | "__private" | "private" => {
                    if base.is_some()
                        && !word.starts_with("__")
                        && !self.next_is_decl_continuation()
                    {
                        break;
                    }
                    spec.addr = Some(addr_qual(&word));
                }
                "__read_only" | "read_only" => spec.access = Some(AccessQual::ReadOnly),
                "__write_only" | "write_only" => spec.access = Some(AccessQual::WriteOnly),
                "__read_write" | "read_write" => spec.access = Some(AccessQual::ReadWrite),
                "typedef" => spec.storage = Storage::Typedef,
                "static" => spec.storage = Storage::Static,
                "extern" => spec.storage = Storage::Extern,
                "auto" => spec.storage = Storage::Auto,
                "register" => spec.storage = Storage::Register,
                "inline" | "__inline" | "__inline__" | "__forceinline" => spec.is_inline = true,
                "__kernel" | "kernel" => spec.is_kernel = true,
                "__attribute__" | "__attribute" => {
                    let a = self.attributes()?;
                    spec.attrs.extend(a);
                    continue;
                }
                "pipe" if base.is_none() && !spec.is_pipe => spec.is_pipe = true,
                "channel" if base.is_none() && !spec.is_channel => spec.is_channel = true,
                "signed" | "__signed__" => signed = true,
                "unsigned" => unsigned = true,
                "short" => short = true,
                "long" => long += 1,
                "int" => int = true,
                "char" => char = true,
                "struct" | "union" => {
                    if base.is_some() {
                        return Err(self.error(wloc, "cannot combine with previous type specifier"));
                    }
                    self.bump();
                    let r = self.record_spec(word == "union", wloc)?;
                    type_end = self.prev_loc();
                    spec.spelled = match &r.tag {
                        Some(t) => format!("{word} {t}"),
                        None => format!("{word} <anonymous>"),
                    };
                    base = Some(TypeSpec::Record(r));
                    any = true;
                    continue;
                }
                "enum" => {
                    if base.is_some() {
                        return Err(self.error(wloc, "cannot combine with previous type specifier"));
                    }
                    self.bump();
                    let e = self.enum_spec(wloc)?;
                    type_end = self.prev_loc();
                    spec.spelled = match &e.tag {
                        Some(t) => format!("enum {t}"),
                        None => "enum <anonymous>".into(),
                    };
                    base = Some(TypeSpec::Enum(e));
                    any = true;
                    continue;
                }
                w => {
                    let c_int_words = signed || unsigned || short || long > 0 || int || char;
                    if base.is_none() && !c_int_words && (is_builtin_type_name(w) && w != "_Bool") {
                        base = Some(TypeSpec::Named(w.to_string()));
                        spec.spelled = w.to_string();
                    } else if base.is_none() && !c_int_words && w == "_Bool" {
                        base = Some(TypeSpec::Named("bool".into()));
                        spec.spelled = "bool".into();
                    } else if base.is_none() && !c_int_words && self.is_typedef_name(w) {
                        base = Some(TypeSpec::Typedef(w.to_string()));
                        spec.spelled = w.to_string();
                    } else if (base.is_some() || c_int_words)
                        && (is_builtin_type_name(w) && !self.is_typedef_name(w))
                        && !matches!(
                            self.peek_at(1),
                            TokenKind::Punct(
                                Punct::Semi
                                    | Punct::Comma
                                    | Punct::RParen
                                    | Punct::LBracket
                                    | Punct::Assign
                            )
                        )
                    {
                        // `struct S { ... }` followed by another declaration: the ';' is missing.
                        let defined = match &base {
                            Some(TypeSpec::Record(r)) => r.fields.is_some().then_some("struct"),
                            Some(TypeSpec::Enum(e)) => e.items.is_some().then_some("enum"),
                            _ => None,
                        };
                        if let Some(kind) = defined {
                            let at = Loc::new(
                                type_end.file,
                                type_end.line,
                                type_end.col.saturating_add(1),
                            );
                            return Err(self.error(at, format!("expected ';' after {kind}")));
                        }
                        return Err(self.error(wloc, "cannot combine with previous type specifier"));
                    } else {
                        break;
                    }
                }
            }
            any = true;
            self.bump();
        }
        let c_int_words = signed || unsigned || short || long > 0 || int || char;
        if base.is_none() && !c_int_words {
            // `__global flaot *p`: an unknown name where the type should be. Report it and go
            // on as if it were `int` so that one typo gives one error.
            if let Some(name) = self.ident().map(str::to_string) {
                let follows = matches!(
                    self.peek_at(1),
                    TokenKind::Ident(_) | TokenKind::Punct(Punct::Star)
                );
                if follows || any {
                    let loc = self.loc();
                    self.bump();
                    self.diags.error(loc, format!("unknown type name '{name}'"));
                    base = Some(TypeSpec::Named("int".into()));
                    spec.spelled = name;
                    any = true;
                }
            }
        }
        if !any {
            return Err(self.error_here(format!("expected a type, found {}", self.describe())));
        }
        let c_int_words = signed || unsigned || short || long > 0 || int || char;
        if c_int_words {
            if let Some(b) = &base {
                let _ = b;
                return Err(self.error(loc, "cannot combine with previous type specifier"));
            }
            let name = if char {
                if unsigned {
                    "uchar"
                } else {
                    "char"
                }
            } else if short {
                if unsigned {
                    "ushort"
                } else {
                    "short"
                }
            } else if long > 0 {
                if unsigned {
                    "ulong"
                } else {
                    "long"
                }
            } else if unsigned {
                "uint"
            } else {
                "int"
            };
            spec.spelled = name.to_string();
            base = Some(TypeSpec::Named(name.into()));
        }
        match base {
            Some(b) => spec.ty = b,
            None => {
                // `const x;` style implicit int is not OpenCL C.
                return Err(self.error(
                    loc,
                    "type specifier missing, defaults to 'int' (not allowed in OpenCL C)",
                ));
            }
        }
        Ok(spec)
    }

    /// After a type, `local`/`global` words may be variable names; they are qualifiers only if
    /// another declaration word follows.
    fn next_is_decl_continuation(&self) -> bool {
        matches!(
            self.peek_at(1),
            TokenKind::Ident(_) | TokenKind::Punct(Punct::Star)
        )
    }

    /// `__attribute__((a, b(1, 2)))`, possibly repeated.
    pub(crate) fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        let mut out = vec![];
        while matches!(self.ident(), Some("__attribute__" | "__attribute")) {
            self.bump();
            self.expect(Punct::LParen, "after '__attribute__'")?;
            self.expect(Punct::LParen, "after '__attribute__('")?;
            loop {
                if self.is_punct(Punct::RParen) {
                    break;
                }
                let loc = self.loc();
                let name = match self.peek().clone() {
                    TokenKind::Ident(s) => {
                        self.bump();
                        s
                    }
                    _ => return Err(self.error_here("expected attribute name")),
                };
                let name = name
                    .strip_prefix("__")
                    .and_then(|n| n.strip_suffix("__"))
                    .map(str::to_string)
                    .unwrap_or(name);
                let mut args = vec![];
                if self.eat(Punct::LParen) {
                    while !self.is_punct(Punct::RParen) {
                        // Type arguments (vec_type_hint(float4)) are kept as identifiers.
                        if self.starts_type_name() && self.is_punct_at(1, Punct::RParen) {
                            let loc = self.loc();
                            let name = self.ident().unwrap_or_default().to_string();
                            self.bump();
                            args.push(Expr {
                                kind: ExprKind::Ident(name),
                                loc,
                            });
                            break;
                        }
                        args.push(self.assign_expr()?);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                    self.expect(Punct::RParen, "to close attribute arguments")?;
                }
                out.push(Attribute { name, args, loc });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RParen, "to close '__attribute__'")?;
            self.expect(Punct::RParen, "to close '__attribute__'")?;
        }
        Ok(out)
    }

    fn record_spec(&mut self, is_union: bool, loc: Loc) -> PResult<RecordSpec> {
        let mut attrs = self.attributes()?;
        let tag = match self.peek().clone() {
            TokenKind::Ident(s) => {
                self.bump();
                Some(s)
            }
            _ => None,
        };
        let mut fields = None;
        if self.eat(Punct::LBrace) {
            let mut list = vec![];
            while !self.is_punct(Punct::RBrace) {
                if self.at_eof() {
                    return Err(self.error_here("expected '}' at end of struct"));
                }
                if self.eat(Punct::Semi) {
                    continue;
                }
                let dloc = self.loc();
                let spec = self.decl_spec()?;
                let mut decls = vec![];
                if !self.is_punct(Punct::Semi) {
                    loop {
                        let d = self.declarator(false)?;
                        if self.eat(Punct::Colon) {
                            // OpenCL C 1.2, 6.9 (k): reported once; the width is skipped so
                            // that the rest of the struct parses.
                            let _ = self.error(
                                self.prev_loc(),
                                "bit-fields are not supported in OpenCL C (OpenCL C 1.2, section 6.9)",
                            );
                            self.cond_expr()?;
                        }
                        decls.push(InitDeclarator {
                            decl: d,
                            init: None,
                        });
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                }
                self.expect(Punct::Semi, "at end of declaration list")?;
                list.push(Declaration {
                    spec,
                    decls,
                    loc: dloc,
                });
            }
            self.bump();
            fields = Some(list);
            attrs.extend(self.attributes()?);
        } else if tag.is_none() {
            return Err(self.error_here(format!(
                "declaration of anonymous {} must be a definition",
                if is_union { "union" } else { "struct" }
            )));
        }
        Ok(RecordSpec {
            is_union,
            tag,
            fields,
            attrs,
            loc,
        })
    }

    fn enum_spec(&mut self, loc: Loc) -> PResult<EnumSpec> {
        let _ = self.attributes()?;
        let tag = match self.peek().clone() {
            TokenKind::Ident(s) => {
                self.bump();
                Some(s)
            }
            _ => None,
        };
        let mut items = None;
        if self.eat(Punct::LBrace) {
            let mut list = vec![];
            while !self.is_punct(Punct::RBrace) {
                let iloc = self.loc();
                let name = match self.peek().clone() {
                    TokenKind::Ident(s) => {
                        self.bump();
                        s
                    }
                    _ => return Err(self.error_here("expected identifier in enumerator list")),
                };
                let value = if self.eat(Punct::Assign) {
                    Some(self.cond_expr()?)
                } else {
                    None
                };
                self.declare(&name, false);
                list.push((name, value, iloc));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RBrace, "at end of enumerator list")?;
            items = Some(list);
        } else if tag.is_none() {
            return Err(self.error_here("expected identifier or '{' after 'enum'"));
        }
        Ok(EnumSpec { tag, items, loc })
    }

    /// Parses a declarator; `abstract_ok` allows a missing name (type names, parameters).
    pub(crate) fn declarator(&mut self, abstract_ok: bool) -> PResult<Declarator> {
        self.enter()?;
        let r = self.declarator_inner(abstract_ok);
        self.leave();
        r
    }

    fn declarator_inner(&mut self, abstract_ok: bool) -> PResult<Declarator> {
        let mut attrs = self.attributes()?;
        let mut pointers = vec![];
        while self.eat(Punct::Star) {
            let mut quals = Quals::default();
            let mut addr = None;
            while let Some(w) = self.ident() {
                match w {
                    "const" | "__const" => quals.is_const = true,
                    "volatile" => quals.is_volatile = true,
                    "restrict" | "__restrict" | "__restrict__" => quals.is_restrict = true,
                    "__global" | "__local" | "__constant" | "__private" => {
                        addr = Some(addr_qual(w))
                    }
                    "__attribute__" | "__attribute" => {
                        attrs.extend(self.attributes()?);
                        continue;
                    }
                    _ => break,
                }
                self.bump();
            }
            pointers.push(Derived::Pointer { quals, addr });
        }
        let mut name = None;
        let mut loc = self.loc();
        let mut inner: Option<Declarator> = None;
        match self.peek().clone() {
            TokenKind::Ident(s) if !self.is_typedef_name(&s) || !abstract_ok => {
                name = Some(s);
                loc = self.loc();
                self.bump();
            }
            TokenKind::Punct(Punct::LParen)
                if self.is_punct_at(1, Punct::Star)
                    || (!abstract_ok && matches!(self.peek_at(1), TokenKind::Ident(_))) =>
            {
                self.bump();
                let d = self.declarator(abstract_ok)?;
                self.expect(Punct::RParen, "to close declarator")?;
                loc = d.loc;
                name = d.name.clone();
                inner = Some(d);
            }
            _ => {
                if !abstract_ok {
                    return Err(self.error_here(format!(
                        "expected identifier or '(' before {}",
                        self.describe()
                    )));
                }
            }
        }
        let mut suffixes = vec![];
        loop {
            if self.eat(Punct::LBracket) {
                if self.eat(Punct::RBracket) {
                    suffixes.push(Derived::Array(None));
                } else {
                    let e = self.assign_expr()?;
                    self.expect(Punct::RBracket, "after array size")?;
                    suffixes.push(Derived::Array(Some(Box::new(e))));
                }
            } else if self.is_punct(Punct::LParen) {
                self.bump();
                let (params, variadic) = self.params()?;
                suffixes.push(Derived::Function { params, variadic });
            } else {
                break;
            }
        }
        attrs.extend(self.attributes()?);
        let mut derived = pointers;
        derived.extend(suffixes.into_iter().rev());
        if let Some(inner) = inner {
            derived.extend(inner.derived);
            attrs.extend(inner.attrs);
        }
        Ok(Declarator {
            name,
            loc,
            derived,
            attrs,
        })
    }

    fn params(&mut self) -> PResult<(Vec<ParamDecl>, bool)> {
        let mut params = vec![];
        let mut variadic = false;
        if self.eat(Punct::RParen) {
            return Ok((params, false));
        }
        if self.is_kw("void") && self.is_punct_at(1, Punct::RParen) {
            self.bump();
            self.bump();
            return Ok((params, false));
        }
        loop {
            if self.eat(Punct::Ellipsis) {
                variadic = true;
                break;
            }
            if !self.starts_decl_spec() {
                let msg = match self.ident() {
                    Some(n) => format!("unknown type name '{n}'"),
                    None => format!("expected parameter declarator before {}", self.describe()),
                };
                return Err(self.error_here(msg));
            }
            let spec = self.decl_spec()?;
            let decl = self.declarator(true)?;
            params.push(ParamDecl { spec, decl });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "to close the parameter list")?;
        Ok((params, variadic))
    }

    /// After the first declarator of a declaration: initializer, more declarators, `;`.
    pub(crate) fn rest_of_declaration(
        &mut self,
        spec: DeclSpec,
        first: Declarator,
        loc: Loc,
    ) -> PResult<Declaration> {
        let mut decls = vec![];
        let mut d = first;
        loop {
            if let Some(n) = &d.name {
                let n = n.clone();
                self.declare(&n, spec.storage == Storage::Typedef);
            }
            let init = if self.eat(Punct::Assign) {
                Some(self.initializer()?)
            } else {
                None
            };
            decls.push(InitDeclarator { decl: d, init });
            if !self.eat(Punct::Comma) {
                break;
            }
            d = self.declarator(false)?;
        }
        if !self.is_punct(Punct::Semi) {
            if self.is_punct(Punct::LBrace) {
                return Err(self.error_here("function definition is not allowed here"));
            }
            return self
                .expect(Punct::Semi, "after declaration")
                .map(|_| unreachable_decl());
        }
        self.bump();
        Ok(Declaration { spec, decls, loc })
    }

    /// `= expr` or `= { ... }`.
    pub(crate) fn initializer(&mut self) -> PResult<Init> {
        if self.is_punct(Punct::LBrace) {
            self.enter()?;
            let r = self.init_list();
            self.leave();
            r
        } else {
            Ok(Init::Expr(self.assign_expr()?))
        }
    }

    fn init_list(&mut self) -> PResult<Init> {
        let loc = self.loc();
        self.bump();
        let mut items = vec![];
        while !self.is_punct(Punct::RBrace) {
            let mut desig = vec![];
            loop {
                if self.eat(Punct::Dot) {
                    let l = self.loc();
                    match self.peek().clone() {
                        TokenKind::Ident(s) => {
                            self.bump();
                            desig.push(Designator::Field(s, l));
                        }
                        _ => return Err(self.error_here("expected a field designator")),
                    }
                } else if self.eat(Punct::LBracket) {
                    let e = self.cond_expr()?;
                    self.expect(Punct::RBracket, "after array designator")?;
                    desig.push(Designator::Index(e));
                } else {
                    break;
                }
            }
            if !desig.is_empty() {
                self.expect(Punct::Assign, "after designator")?;
            }
            let init = self.initializer()?;
            items.push((desig, init));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBrace, "at end of initializer list")?;
        Ok(Init::List(items, loc))
    }

    /// A type name: specifiers and an abstract declarator.
    pub(crate) fn type_name(&mut self) -> PResult<TypeName> {
        let spec = self.decl_spec()?;
        let decl = self.declarator(true)?;
        if decl.name.is_some() {
            return Err(self.error(decl.loc, "expected ')' (a type name cannot declare a name)"));
        }
        Ok(TypeName { spec, decl })
    }
}

fn unreachable_decl() -> Declaration {
    // `expect` only returns Ok when the token matched, which was ruled out just above.
    Declaration {
        spec: DeclSpec {
            ty: TypeSpec::Named("int".into()),
            spelled: "int".into(),
            quals: Quals::default(),
            storage: Storage::None,
            addr: None,
            access: None,
            is_kernel: false,
            is_inline: false,
            is_pipe: false,
            is_channel: false,
            attrs: vec![],
            loc: Loc::default(),
        },
        decls: vec![],
        loc: Loc::default(),
    }
}

fn addr_qual(w: &str) -> AddrQual {
    match w.trim_start_matches("__") {
        "global" => AddrQual::Global,
        "local" => AddrQual::Local,
        "constant" => AddrQual::Constant,
        _ => AddrQual::Private,
    }
}
