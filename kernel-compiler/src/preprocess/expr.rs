//! `#if` constant expressions (C99 6.10.1): integer arithmetic in `intmax_t`/`uintmax_t`
//! (64 bits), every C operator except assignment, increment and `sizeof`, with the usual
//! conversions and short-circuit evaluation (division by zero is an error only where evaluated).

use super::engine::PTok;
use crate::diag::Diagnostics;
use crate::lexer::{self, PpKind};
use crate::source::Loc;
use crate::token::{Punct, TokenKind};

/// A value: 64 bits and whether it is unsigned.
#[derive(Clone, Copy, Debug)]
struct V {
    v: u64,
    unsigned: bool,
}

impl V {
    fn signed(v: i64) -> V {
        V {
            v: v as u64,
            unsigned: false,
        }
    }
    fn bool(b: bool) -> V {
        V::signed(b as i64)
    }
    fn truthy(self) -> bool {
        self.v != 0
    }
}

/// Evaluates the (macro-expanded, `defined`-replaced) tokens of an `#if`. Returns `None`
/// after reporting an error.
pub(super) fn evaluate(toks: &[PTok], loc: Loc, diags: &mut Diagnostics) -> Option<i64> {
    let mut p = Parser {
        toks,
        pos: 0,
        loc,
        diags,
        failed: false,
        depth: 0,
    };
    if toks.is_empty() {
        p.diags.error(loc, "#if with no expression");
        return None;
    }
    let v = p.comma(true);
    if !p.failed {
        if let Some(t) = p.toks.get(p.pos) {
            let msg = format!(
                "missing binary operator before token \"{}\"",
                t.kind.spelling()
            );
            p.error_at(t.loc, msg);
        }
    }
    if p.failed {
        None
    } else {
        Some(v.v as i64)
    }
}

struct Parser<'t, 'd> {
    toks: &'t [PTok],
    pos: usize,
    loc: Loc,
    diags: &'d mut Diagnostics,
    failed: bool,
    /// Nesting of parentheses and unary operators (bounded to keep the stack small).
    depth: u32,
}

/// Deepest nesting of an `#if` expression.
const MAX_DEPTH: u32 = 256;

/// Binary operators by precedence level (higher binds tighter).
fn binary_prec(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        Star | Slash | Percent => 10,
        Plus | Minus => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        EqEq | Ne => 6,
        Amp => 5,
        Caret => 4,
        Pipe => 3,
        AmpAmp => 2,
        PipePipe => 1,
        _ => return None,
    })
}

impl Parser<'_, '_> {
    fn error_at(&mut self, loc: Loc, msg: impl Into<String>) {
        if !self.failed {
            self.diags.error(loc, msg);
        }
        self.failed = true;
    }

    fn peek_punct(&self) -> Option<Punct> {
        match self.toks.get(self.pos).map(|t| &t.kind) {
            Some(PpKind::Punct(p)) => Some(*p),
            _ => None,
        }
    }

    fn here(&self) -> Loc {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(self.loc, |t| t.loc)
    }

    fn comma(&mut self, eval: bool) -> V {
        let mut v = self.conditional(eval);
        while self.peek_punct() == Some(Punct::Comma) && !self.failed {
            self.pos += 1;
            v = self.conditional(eval);
        }
        v
    }

    fn conditional(&mut self, eval: bool) -> V {
        let c = self.binary(0, eval);
        if self.peek_punct() != Some(Punct::Question) || self.failed {
            return c;
        }
        self.pos += 1;
        let a = self.comma(eval && c.truthy());
        if self.peek_punct() != Some(Punct::Colon) {
            let l = self.here();
            self.error_at(l, "expected ':' in preprocessor expression");
            return c;
        }
        self.pos += 1;
        let b = self.conditional(eval && !c.truthy());
        let unsigned = a.unsigned || b.unsigned;
        let r = if c.truthy() { a } else { b };
        V { v: r.v, unsigned }
    }

    fn binary(&mut self, min: u8, eval: bool) -> V {
        let mut lhs = self.unary(eval);
        loop {
            if self.failed {
                return lhs;
            }
            let Some(op) = self.peek_punct() else {
                return lhs;
            };
            let Some(prec) = binary_prec(op) else {
                return lhs;
            };
            if prec <= min {
                return lhs;
            }
            let op_loc = self.here();
            self.pos += 1;
            let rhs_eval = match op {
                Punct::AmpAmp => eval && lhs.truthy(),
                Punct::PipePipe => eval && !lhs.truthy(),
                _ => eval,
            };
            let rhs = self.binary(prec, rhs_eval);
            lhs = self.apply(op, lhs, rhs, eval && rhs_eval, op_loc);
        }
    }

    fn apply(&mut self, op: Punct, a: V, b: V, eval: bool, loc: Loc) -> V {
        use Punct::*;
        let unsigned = a.unsigned || b.unsigned;
        let (x, y) = (a.v, b.v);
        let (sx, sy) = (x as i64, y as i64);
        let arith = |v: u64| V { v, unsigned };
        match op {
            Star => arith(x.wrapping_mul(y)),
            Plus => arith(x.wrapping_add(y)),
            Minus => arith(x.wrapping_sub(y)),
            Slash | Percent => {
                if y == 0 {
                    if eval {
                        self.error_at(loc, "division by zero in #if");
                    }
                    return arith(0);
                }
                let v = match (op, unsigned) {
                    (Slash, true) => x / y,
                    (Percent, true) => x % y,
                    (Slash, false) => sx.wrapping_div(sy) as u64,
                    _ => sx.wrapping_rem(sy) as u64,
                };
                arith(v)
            }
            Shl | Shr => {
                // The result has the left operand's type.
                let n = if b.unsigned || sy >= 0 { y } else { u64::MAX };
                let v = if op == Shl {
                    if n >= 64 {
                        0
                    } else {
                        x << n
                    }
                } else if a.unsigned {
                    if n >= 64 {
                        0
                    } else {
                        x >> n
                    }
                } else {
                    (sx >> n.min(63)) as u64
                };
                V {
                    v,
                    unsigned: a.unsigned,
                }
            }
            Lt | Gt | Le | Ge => {
                let r = if unsigned {
                    match op {
                        Lt => x < y,
                        Gt => x > y,
                        Le => x <= y,
                        _ => x >= y,
                    }
                } else {
                    match op {
                        Lt => sx < sy,
                        Gt => sx > sy,
                        Le => sx <= sy,
                        _ => sx >= sy,
                    }
                };
                V::bool(r)
            }
            EqEq => V::bool(x == y),
            Ne => V::bool(x != y),
            Amp => arith(x & y),
            Caret => arith(x ^ y),
            Pipe => arith(x | y),
            AmpAmp => V::bool(a.truthy() && b.truthy()),
            PipePipe => V::bool(a.truthy() || b.truthy()),
            _ => arith(0),
        }
    }

    fn unary(&mut self, eval: bool) -> V {
        if self.failed {
            return V::signed(0);
        }
        if self.depth >= MAX_DEPTH {
            let l = self.here();
            self.error_at(l, "#if expression nested too deeply");
            return V::signed(0);
        }
        self.depth += 1;
        let v = self.unary_inner(eval);
        self.depth -= 1;
        v
    }

    fn unary_inner(&mut self, eval: bool) -> V {
        let Some(t) = self.toks.get(self.pos) else {
            let l = self.here();
            self.error_at(l, "#if expression ends unexpectedly");
            return V::signed(0);
        };
        self.pos += 1;
        match &t.kind {
            PpKind::Punct(Punct::Plus) => self.unary(eval),
            PpKind::Punct(Punct::Minus) => {
                let v = self.unary(eval);
                V {
                    v: v.v.wrapping_neg(),
                    unsigned: v.unsigned,
                }
            }
            PpKind::Punct(Punct::Tilde) => {
                let v = self.unary(eval);
                V {
                    v: !v.v,
                    unsigned: v.unsigned,
                }
            }
            PpKind::Punct(Punct::Bang) => V::bool(!self.unary(eval).truthy()),
            PpKind::Punct(Punct::LParen) => {
                let v = self.comma(eval);
                if self.peek_punct() == Some(Punct::RParen) {
                    self.pos += 1;
                } else {
                    let l = self.here();
                    self.error_at(l, "missing ')' in expression");
                }
                v
            }
            PpKind::Number(s) => match lexer::parse_number(s) {
                Ok((
                    TokenKind::Int {
                        value, unsigned, ..
                    },
                    _,
                )) => V {
                    v: value,
                    unsigned: unsigned || value > i64::MAX as u64,
                },
                Ok(_) => {
                    self.error_at(t.loc, "floating constant in preprocessor expression");
                    V::signed(0)
                }
                Err(msg) => {
                    self.error_at(t.loc, msg);
                    V::signed(0)
                }
            },
            PpKind::Char(s) => {
                let mut scratch = Diagnostics::default();
                let v = lexer::decode_char(s, t.loc, &mut scratch);
                if scratch.has_errors() {
                    let m = scratch.list.remove(0).message;
                    self.error_at(t.loc, m);
                }
                V::signed(v)
            }
            // Identifiers left after expansion (including keywords) are 0.
            PpKind::Ident(_) => V::signed(0),
            k => {
                let msg = format!(
                    "token \"{}\" is not valid in preprocessor expressions",
                    k.spelling()
                );
                self.error_at(t.loc, msg);
                V::signed(0)
            }
        }
    }
}
