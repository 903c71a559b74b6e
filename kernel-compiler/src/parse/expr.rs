//! Expressions: precedence climbing for binary operators, casts, vector literals, postfix.

use super::{PResult, Parser};
use crate::ast::*;
use crate::token::{Punct, TokenKind};

/// Longest chain of binary operators (or postfix operators, or commas) in one expression:
/// the tree is as deep as the chain, and later passes recurse over it.
const MAX_CHAIN: u32 = 4096;

fn binary_op(p: Punct) -> Option<(BinaryOp, u8)> {
    use BinaryOp::*;
    Some(match p {
        Punct::Star => (Mul, 10),
        Punct::Slash => (Div, 10),
        Punct::Percent => (Rem, 10),
        Punct::Plus => (Add, 9),
        Punct::Minus => (Sub, 9),
        Punct::Shl => (Shl, 8),
        Punct::Shr => (Shr, 8),
        Punct::Lt => (Lt, 7),
        Punct::Gt => (Gt, 7),
        Punct::Le => (Le, 7),
        Punct::Ge => (Ge, 7),
        Punct::EqEq => (Eq, 6),
        Punct::Ne => (Ne, 6),
        Punct::Amp => (BitAnd, 5),
        Punct::Caret => (BitXor, 4),
        Punct::Pipe => (BitOr, 3),
        Punct::AmpAmp => (LogAnd, 2),
        Punct::PipePipe => (LogOr, 1),
        _ => return None,
    })
}

fn assign_op(p: Punct) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match p {
        Punct::Assign => None,
        Punct::StarAssign => Some(Mul),
        Punct::SlashAssign => Some(Div),
        Punct::PercentAssign => Some(Rem),
        Punct::PlusAssign => Some(Add),
        Punct::MinusAssign => Some(Sub),
        Punct::ShlAssign => Some(Shl),
        Punct::ShrAssign => Some(Shr),
        Punct::AmpAssign => Some(BitAnd),
        Punct::CaretAssign => Some(BitXor),
        Punct::PipeAssign => Some(BitOr),
        _ => return None,
    })
}

impl Parser<'_> {
    /// `expr , expr`.
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assign_expr()?;
        let mut n = 0u32;
        while self.is_punct(Punct::Comma) {
            n += 1;
            if n > MAX_CHAIN {
                return Err(self.error_here("expression is too complex (comma chain too long)"));
            }
            let loc = self.loc();
            self.bump();
            let r = self.assign_expr()?;
            e = Expr {
                kind: ExprKind::Comma(Box::new(e), Box::new(r)),
                loc,
            };
        }
        Ok(e)
    }

    pub(crate) fn assign_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assign_expr_inner();
        self.leave();
        r
    }

    fn assign_expr_inner(&mut self) -> PResult<Expr> {
        let lhs = self.cond_expr()?;
        if let TokenKind::Punct(p) = self.peek() {
            if let Some(op) = assign_op(*p) {
                let loc = self.loc();
                self.bump();
                let rhs = self.assign_expr()?;
                return Ok(Expr {
                    kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                    loc,
                });
            }
        }
        Ok(lhs)
    }

    pub(crate) fn cond_expr(&mut self) -> PResult<Expr> {
        let c = self.binary_expr(1)?;
        if self.is_punct(Punct::Question) {
            let loc = self.loc();
            self.bump();
            self.enter()?;
            let a = self.expr();
            let a = match a {
                Ok(a) => a,
                Err(e) => {
                    self.leave();
                    return Err(e);
                }
            };
            let colon = self.expect(Punct::Colon, "in conditional expression");
            if let Err(e) = colon {
                self.leave();
                return Err(e);
            }
            let b = self.cond_expr();
            self.leave();
            let b = b?;
            return Ok(Expr {
                kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                loc,
            });
        }
        Ok(c)
    }

    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.cast_expr()?;
        let mut operators = 0u32;
        while let TokenKind::Punct(p) = self.peek() {
            let Some((op, prec)) = binary_op(*p) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            let loc = self.loc();
            operators += 1;
            if operators > MAX_CHAIN {
                return Err(self.error(
                    loc,
                    format!(
                        "expression is too complex (more than {MAX_CHAIN} operators in a chain)"
                    ),
                ));
            }
            self.bump();
            self.enter()?;
            let rhs = self.binary_expr(prec + 1);
            self.leave();
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs?)),
                loc,
            };
        }
        Ok(lhs)
    }

    /// `(type) expr`, `(vector type)(a, b)`, compound literals, or a unary expression.
    pub(crate) fn cast_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.cast_expr_inner();
        self.leave();
        r
    }

    fn cast_expr_inner(&mut self) -> PResult<Expr> {
        if self.is_punct(Punct::LParen) {
            let save = self.pos;
            self.bump();
            if self.starts_type_name() {
                let loc = self.prev_loc();
                let tn = self.type_name()?;
                self.expect(Punct::RParen, "after type name in cast")?;
                if self.is_punct(Punct::LBrace) {
                    let init = self.initializer()?;
                    let e = Expr {
                        kind: ExprKind::CompoundLit(Box::new(tn), Box::new(init)),
                        loc,
                    };
                    return self.postfix(e);
                }
                if self.is_punct(Punct::LParen) && !self.paren_starts_type() {
                    // `(T)(a, b, ...)`: a vector literal, or a cast of a parenthesised expression
                    // (decided by the type checker once T is known).
                    self.bump();
                    let mut items = vec![self.assign_expr()?];
                    while self.eat(Punct::Comma) {
                        items.push(self.assign_expr()?);
                    }
                    self.expect(Punct::RParen, "to close vector literal")?;
                    let e = Expr {
                        kind: ExprKind::VecLit(Box::new(tn), items),
                        loc,
                    };
                    return self.postfix(e);
                }
                let operand = self.cast_expr()?;
                return Ok(Expr {
                    kind: ExprKind::Cast(Box::new(tn), Box::new(operand)),
                    loc,
                });
            }
            self.pos = save;
        }
        self.unary_expr()
    }

    /// Whether the `(` at the current token opens a type name (a nested cast `(T)(U)x`).
    fn paren_starts_type(&mut self) -> bool {
        let save = self.pos;
        self.bump();
        let r = self.starts_type_name();
        self.pos = save;
        r
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let loc = self.loc();
        let op = match self.peek() {
            TokenKind::Punct(Punct::PlusPlus) => Some(UnaryOp::PreInc),
            TokenKind::Punct(Punct::MinusMinus) => Some(UnaryOp::PreDec),
            TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Neg),
            TokenKind::Punct(Punct::Bang) => Some(UnaryOp::LogNot),
            TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            TokenKind::Punct(Punct::Star) => Some(UnaryOp::Deref),
            TokenKind::Punct(Punct::Amp) => Some(UnaryOp::AddrOf),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let operand = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                self.unary_expr_guarded()?
            } else {
                self.cast_expr()?
            };
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(operand)),
                loc,
            });
        }
        match self.ident() {
            Some("sizeof") | Some("vec_step") | Some("__alignof__") | Some("_Alignof")
            | Some("__alignof") => {
                let word = self.ident().unwrap_or_default().to_string();
                self.bump();
                if self.is_punct(Punct::LParen) {
                    let save = self.pos;
                    self.bump();
                    if self.starts_type_name() {
                        let tn = self.type_name()?;
                        self.expect(Punct::RParen, "after type name")?;
                        let kind = match word.as_str() {
                            "sizeof" => ExprKind::SizeofType(Box::new(tn)),
                            "vec_step" => ExprKind::VecStepType(Box::new(tn)),
                            _ => ExprKind::AlignofType(Box::new(tn)),
                        };
                        return Ok(Expr { kind, loc });
                    }
                    self.pos = save;
                }
                let operand = self.unary_expr_guarded()?;
                let kind = match word.as_str() {
                    "vec_step" => ExprKind::VecStepExpr(Box::new(operand)),
                    "sizeof" => ExprKind::SizeofExpr(Box::new(operand)),
                    _ => return Err(self.error(loc, "expected a type name in '__alignof__'")),
                };
                return Ok(Expr { kind, loc });
            }
            _ => {}
        }
        let e = self.primary()?;
        self.postfix(e)
    }

    fn unary_expr_guarded(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.unary_expr();
        self.leave();
        r
    }

    fn postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        let mut n = 0u32;
        loop {
            let loc = self.loc();
            n += 1;
            if n > MAX_CHAIN {
                return Err(self.error(loc, "expression is too complex (postfix chain too long)"));
            }
            match self.peek() {
                TokenKind::Punct(Punct::LBracket) => {
                    self.bump();
                    let idx = self.expr()?;
                    self.expect(Punct::RBracket, "after array subscript")?;
                    let l = e.loc;
                    e = Expr {
                        kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                        loc: l,
                    };
                }
                TokenKind::Punct(Punct::LParen) => {
                    let name = match &e.kind {
                        ExprKind::Ident(n) => n.clone(),
                        _ => return Err(self.error(
                            loc,
                            "called object is not a function (OpenCL C has no function pointers)",
                        )),
                    };
                    self.bump();
                    let mut args = vec![];
                    if !self.is_punct(Punct::RParen) {
                        loop {
                            args.push(self.assign_expr()?);
                            if !self.eat(Punct::Comma) {
                                break;
                            }
                        }
                    }
                    self.expect(Punct::RParen, "to close the argument list")?;
                    let l = e.loc;
                    e = Expr {
                        kind: ExprKind::Call(name, args),
                        loc: l,
                    };
                }
                TokenKind::Punct(p @ (Punct::Dot | Punct::Arrow)) => {
                    let arrow = *p == Punct::Arrow;
                    self.bump();
                    let name = match self.peek().clone() {
                        TokenKind::Ident(s) => s,
                        // `.s01` lexes as an identifier; `v.0` style is not valid.
                        _ => {
                            return Err(self.error_here(format!(
                                "expected a member name after '{}'",
                                if arrow { "->" } else { "." }
                            )))
                        }
                    };
                    self.bump();
                    let l = e.loc;
                    e = Expr {
                        kind: ExprKind::Member(Box::new(e), name, arrow),
                        loc: l,
                    };
                }
                TokenKind::Punct(Punct::PlusPlus) => {
                    self.bump();
                    e = Expr {
                        kind: ExprKind::Unary(UnaryOp::PostInc, Box::new(e)),
                        loc,
                    };
                }
                TokenKind::Punct(Punct::MinusMinus) => {
                    self.bump();
                    e = Expr {
                        kind: ExprKind::Unary(UnaryOp::PostDec, Box::new(e)),
                        loc,
                    };
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let loc = self.loc();
        let kind = match self.peek().clone() {
            TokenKind::Ident(s) => {
                if self.starts_type_name() && !self.is_punct_at(1, Punct::LParen) {
                    return Err(self.error(
                        loc,
                        format!("unexpected type name '{s}': expected expression"),
                    ));
                }
                self.bump();
                ExprKind::Ident(s)
            }
            TokenKind::Int {
                value,
                unsigned,
                long,
                decimal,
            } => {
                self.bump();
                ExprKind::Int {
                    value,
                    unsigned,
                    long,
                    decimal,
                }
            }
            TokenKind::Float { value, suffix } => {
                self.bump();
                ExprKind::Float { value, suffix }
            }
            TokenKind::Char(c) => {
                self.bump();
                ExprKind::Char(c)
            }
            TokenKind::Str(s) => {
                self.bump();
                let mut s = s;
                while let TokenKind::Str(t) = self.peek() {
                    s.push_str(t);
                    self.bump();
                }
                ExprKind::Str(s)
            }
            TokenKind::Punct(Punct::LParen) => {
                self.bump();
                let e = self.expr()?;
                self.expect(Punct::RParen, "to match this '('")?;
                return Ok(e);
            }
            _ => {
                return Err(self.error(
                    loc,
                    format!("expected expression before {}", self.describe()),
                ))
            }
        };
        Ok(Expr { kind, loc })
    }
}
