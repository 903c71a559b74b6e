//! Statements and blocks; loop pragmas are attached here.

use super::{PResult, Parser, Reported};
use crate::ast::*;
use crate::ir::LoopPragmas;
use crate::token::{Punct, TokenKind};

impl Parser<'_> {
    /// Parses `{ ... }` opening a new scope.
    pub(crate) fn block(&mut self) -> PResult<Block> {
        self.push_scope();
        let r = self.block_after_scope();
        self.pop_scope();
        r
    }

    /// Parses `{ ... }` in the current (already pushed) scope.
    pub(crate) fn block_after_scope(&mut self) -> PResult<Block> {
        let loc = self.loc();
        self.expect(Punct::LBrace, "")?;
        let mut stmts = vec![];
        loop {
            if self.is_punct(Punct::RBrace) {
                let end = self.loc();
                self.bump();
                return Ok(Block { stmts, loc, end });
            }
            if self.at_eof() {
                return Err(self.error(loc, "expected '}' (this '{' is never closed)"));
            }
            if self.diags.list.len() > 200 {
                return Err(Reported);
            }
            let start = self.pos;
            match self.stmt() {
                Ok(s) => stmts.push(s),
                Err(Reported) => {
                    self.recover_stmt();
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
    }

    /// Whether the next tokens are `__attribute__((...))` groups followed by a loop keyword.
    fn attributes_before_loop(&self) -> bool {
        let mut k = 0;
        while matches!(self.ident_at(k), Some("__attribute__" | "__attribute")) {
            k += 1;
            let mut depth = 0usize;
            loop {
                match self.peek_at(k) {
                    TokenKind::Punct(Punct::LParen) => depth += 1,
                    TokenKind::Punct(Punct::RParen) => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            k += 1;
                            break;
                        }
                    }
                    TokenKind::Eof => return false,
                    _ if depth == 0 => return false,
                    _ => {}
                }
                k += 1;
            }
        }
        k > 0 && matches!(self.ident_at(k), Some("for" | "while" | "do"))
    }

    /// Parses one statement (including declarations).
    pub(crate) fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.leave();
        r
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let pragmas = self.take_pragmas();
        let mut lp = LoopPragmas::default();
        let mut pragma_loc = None;
        for (text, ploc) in &pragmas {
            match super::parse_loop_pragma(text, &mut lp) {
                Ok(true) => pragma_loc = Some(*ploc),
                Ok(false) => {}
                Err(msg) => self.warn(*ploc, msg),
            }
        }
        // Statement attributes before a loop (`__attribute__((opencl_unroll_hint(4)))`).
        if self.attributes_before_loop() {
            for a in self.attributes()? {
                match super::apply_loop_attribute(&a.name, &a.args, &mut lp) {
                    Ok(()) => pragma_loc = pragma_loc.or(Some(a.loc)),
                    Err(msg) => self.warn(a.loc, msg),
                }
            }
        }
        let loc = self.loc();
        let is_loop = matches!(self.ident(), Some("for" | "while" | "do"));
        if let (Some(ploc), false) = (pragma_loc, is_loop) {
            self.warn(ploc, "loop pragma is not followed by a loop; ignored");
        }
        let kind = match self.peek().clone() {
            TokenKind::Punct(Punct::LBrace) => StmtKind::Block(self.block()?),
            TokenKind::Punct(Punct::Semi) => {
                self.bump();
                StmtKind::Empty
            }
            TokenKind::Ident(word) => match word.as_str() {
                "if" => {
                    self.bump();
                    self.expect(Punct::LParen, "after 'if'")?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen, "after if condition")?;
                    let then = Box::new(self.scoped_stmt()?);
                    let els = if self.is_kw("else") {
                        self.bump();
                        Some(Box::new(self.scoped_stmt()?))
                    } else {
                        None
                    };
                    StmtKind::If { cond, then, els }
                }
                "while" => {
                    self.bump();
                    self.expect(Punct::LParen, "after 'while'")?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen, "after while condition")?;
                    let body = Box::new(self.scoped_stmt()?);
                    StmtKind::While {
                        cond,
                        body,
                        pragmas: lp,
                    }
                }
                "do" => {
                    self.bump();
                    let body = Box::new(self.scoped_stmt()?);
                    if !self.is_kw("while") {
                        return Err(self.error_here(format!(
                            "expected 'while' in do/while loop, found {}",
                            self.describe()
                        )));
                    }
                    self.bump();
                    self.expect(Punct::LParen, "after 'while'")?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen, "after do/while condition")?;
                    self.expect(Punct::Semi, "after do/while statement")?;
                    StmtKind::DoWhile {
                        body,
                        cond,
                        pragmas: lp,
                    }
                }
                "for" => {
                    self.bump();
                    self.expect(Punct::LParen, "after 'for'")?;
                    self.push_scope();
                    let r = self.for_rest(lp);
                    self.pop_scope();
                    r?
                }
                "switch" => {
                    self.bump();
                    self.expect(Punct::LParen, "after 'switch'")?;
                    let value = self.expr()?;
                    self.expect(Punct::RParen, "after switch value")?;
                    let body = Box::new(self.scoped_stmt()?);
                    StmtKind::Switch { value, body }
                }
                "case" => {
                    self.bump();
                    let e = self.cond_expr()?;
                    self.expect(Punct::Colon, "after 'case'")?;
                    StmtKind::Case(e)
                }
                "default" if self.is_punct_at(1, Punct::Colon) => {
                    self.bump();
                    self.bump();
                    StmtKind::Default
                }
                "break" => {
                    self.bump();
                    self.expect(Punct::Semi, "after 'break'")?;
                    StmtKind::Break
                }
                "continue" => {
                    self.bump();
                    self.expect(Punct::Semi, "after 'continue'")?;
                    StmtKind::Continue
                }
                "return" => {
                    self.bump();
                    let e = if self.is_punct(Punct::Semi) {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect(Punct::Semi, "after return statement")?;
                    StmtKind::Return(e)
                }
                "goto" => {
                    self.bump();
                    let label = match self.peek().clone() {
                        TokenKind::Ident(s) => {
                            self.bump();
                            s
                        }
                        _ => return Err(self.error_here("expected identifier after 'goto'")),
                    };
                    self.expect(Punct::Semi, "after goto statement")?;
                    StmtKind::Goto(label)
                }
                "else" => {
                    return Err(
                        self.error_here("expected expression before 'else' (no matching 'if')")
                    )
                }
                _ if self.is_punct_at(1, Punct::Colon) && !self.is_typedef_name(&word) => {
                    self.bump();
                    self.bump();
                    StmtKind::Label(word)
                }
                _ if self.starts_decl_spec() => StmtKind::Decl(self.local_declaration()?),
                _ => self.expr_stmt()?,
            },
            _ => self.expr_stmt()?,
        };
        Ok(Stmt { kind, loc })
    }

    /// A sub-statement (body of if/while/for): gets its own scope.
    fn scoped_stmt(&mut self) -> PResult<Stmt> {
        self.push_scope();
        let r = self.stmt();
        self.pop_scope();
        r
    }

    fn expr_stmt(&mut self) -> PResult<StmtKind> {
        if let Some(name) = self.ident() {
            // `T x;` with an unknown T reads like a declaration with a misspelt type.
            if matches!(self.peek_at(1), TokenKind::Ident(_))
                && matches!(
                    self.peek_at(2),
                    TokenKind::Punct(Punct::Semi | Punct::Assign | Punct::LBracket | Punct::Comma)
                )
            {
                let name = name.to_string();
                return Err(self.error_here(format!("unknown type name '{name}'")));
            }
        }
        let e = self.expr()?;
        self.expect(Punct::Semi, "after expression")?;
        Ok(StmtKind::Expr(e))
    }

    fn local_declaration(&mut self) -> PResult<Declaration> {
        let loc = self.loc();
        let spec = self.decl_spec()?;
        if self.eat(Punct::Semi) {
            return Ok(Declaration {
                spec,
                decls: vec![],
                loc,
            });
        }
        let d = self.declarator(false)?;
        self.rest_of_declaration(spec, d, loc)
    }

    fn for_rest(&mut self, pragmas: LoopPragmas) -> PResult<StmtKind> {
        let init = if self.eat(Punct::Semi) {
            None
        } else if self.starts_decl_spec() {
            let loc = self.loc();
            let d = self.local_declaration()?;
            Some(Box::new(Stmt {
                kind: StmtKind::Decl(d),
                loc,
            }))
        } else {
            let loc = self.loc();
            let e = self.expr()?;
            self.expect(Punct::Semi, "in 'for' statement specifier")?;
            Some(Box::new(Stmt {
                kind: StmtKind::Expr(e),
                loc,
            }))
        };
        let cond = if self.is_punct(Punct::Semi) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(Punct::Semi, "in 'for' statement specifier")?;
        let step = if self.is_punct(Punct::RParen) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(Punct::RParen, "after 'for' clauses")?;
        let body = Box::new(self.scoped_stmt()?);
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
            pragmas,
        })
    }
}
