//! The abstract syntax tree of OpenCL C, as the parser builds it.
//!
//! The tree keeps what the user wrote (type names as spelled, attributes, pragmas before loops)
//! and a [`Loc`] on every node; types are resolved later by the type checker and lowering.

use crate::ir::LoopPragmas;
use crate::source::Loc;

/// A whole program (all sources after preprocessing).
#[derive(Clone, Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
    /// `#pragma` lines at program scope (e.g. `OPENCL EXTENSION cl_intel_channels : enable`).
    pub pragmas: Vec<(String, Loc)>,
}

/// A program-scope item.
#[derive(Clone, Debug)]
pub enum Item {
    Function(FunctionDef),
    Decl(Declaration),
}

/// `__attribute__((name(args)))` entry.
#[derive(Clone, Debug)]
pub struct Attribute {
    pub name: String,
    pub args: Vec<Expr>,
    pub loc: Loc,
}

/// Storage class written in declaration specifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Storage {
    #[default]
    None,
    Typedef,
    Static,
    Extern,
    Auto,
    Register,
}

/// Address space qualifier written in declaration specifiers or after `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrQual {
    Global,
    Local,
    Constant,
    Private,
}

/// Access qualifier (`read_only`, `write_only`, `read_write`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessQual {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// Type qualifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
}

/// The base type named in declaration specifiers.
#[derive(Clone, Debug)]
pub enum TypeSpec {
    /// A builtin type name as normalised by the parser (`int`, `uint`, `float4`, `size_t`,
    /// `unsigned` forms are folded: `unsigned int` -> `uint`, `long long` -> `long`).
    Named(String),
    /// A struct or union: its tag (if any) and its body when the specifier defines it.
    Record(RecordSpec),
    Enum(EnumSpec),
    /// A typedef name.
    Typedef(String),
}

/// `struct tag { fields }` / `union ...`.
#[derive(Clone, Debug)]
pub struct RecordSpec {
    pub is_union: bool,
    pub tag: Option<String>,
    pub fields: Option<Vec<Declaration>>,
    pub attrs: Vec<Attribute>,
    pub loc: Loc,
}

/// `enum tag { A = 1, B }`.
#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub tag: Option<String>,
    pub items: Option<Vec<(String, Option<Expr>, Loc)>>,
    pub loc: Loc,
}

/// Everything before the declarators.
#[derive(Clone, Debug)]
pub struct DeclSpec {
    pub ty: TypeSpec,
    /// Text of the type as written (for kernel argument metadata), e.g. `unsigned int`, `float4`.
    pub spelled: String,
    pub quals: Quals,
    pub storage: Storage,
    pub addr: Option<AddrQual>,
    pub access: Option<AccessQual>,
    pub is_kernel: bool,
    pub is_inline: bool,
    /// `pipe T` (kernel argument).
    pub is_pipe: bool,
    /// `channel T` (program-scope channel declaration).
    pub is_channel: bool,
    pub attrs: Vec<Attribute>,
    pub loc: Loc,
}

/// One step of a declarator, applied to the base type in order (first = closest to the base).
#[derive(Clone, Debug)]
pub enum Derived {
    Pointer {
        quals: Quals,
        addr: Option<AddrQual>,
    },
    Array(Option<Box<Expr>>),
    Function {
        params: Vec<ParamDecl>,
        variadic: bool,
    },
}

/// A declarator: the name and how its type derives from the specifiers.
#[derive(Clone, Debug)]
pub struct Declarator {
    pub name: Option<String>,
    pub loc: Loc,
    pub derived: Vec<Derived>,
    pub attrs: Vec<Attribute>,
}

/// A function parameter.
#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub spec: DeclSpec,
    pub decl: Declarator,
}

/// An initializer.
#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    List(Vec<(Vec<Designator>, Init)>, Loc),
}

/// A designator in an initializer list (`.x = `, `[3] = `).
#[derive(Clone, Debug)]
pub enum Designator {
    Field(String, Loc),
    Index(Expr),
}

/// One declared name with its initializer.
#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub decl: Declarator,
    pub init: Option<Init>,
}

/// A declaration: specifiers and zero or more declarators.
#[derive(Clone, Debug)]
pub struct Declaration {
    pub spec: DeclSpec,
    pub decls: Vec<InitDeclarator>,
    pub loc: Loc,
}

/// A function definition (kernel or helper) or prototype with a body.
#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub spec: DeclSpec,
    pub decl: Declarator,
    pub body: Block,
    pub loc: Loc,
}

/// `{ ... }`.
#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub loc: Loc,
    pub end: Loc,
}

/// A statement.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Empty,
    Expr(Expr),
    Decl(Declaration),
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
        pragmas: LoopPragmas,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
        pragmas: LoopPragmas,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
        pragmas: LoopPragmas,
    },
    Switch {
        value: Expr,
        body: Box<Stmt>,
    },
    /// `case expr:` label (the statement that follows is a separate statement).
    Case(Expr),
    Default,
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(String),
    Label(String),
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Neg,
    LogNot,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

/// Binary operators (not assignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinaryOp {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogAnd => "&&",
            LogOr => "||",
        }
    }
}

/// A type name (in casts, `sizeof`, compound literals).
#[derive(Clone, Debug)]
pub struct TypeName {
    pub spec: DeclSpec,
    pub decl: Declarator,
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Ident(String),
    Int {
        value: u64,
        unsigned: bool,
        long: bool,
        decimal: bool,
    },
    Float {
        value: f64,
        suffix: crate::token::FloatSuffix,
    },
    Char(i64),
    Str(String),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a = b` (op None) or `a op= b`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// A call; the callee is a name (OpenCL C has no function pointers).
    Call(String, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `e.name` or `e->name` (arrow = true); also vector swizzles.
    Member(Box<Expr>, String, bool),
    Cast(Box<TypeName>, Box<Expr>),
    /// `(float4)(a, b, c)`.
    VecLit(Box<TypeName>, Vec<Expr>),
    /// `(struct S){ ... }`.
    CompoundLit(Box<TypeName>, Box<Init>),
    SizeofType(Box<TypeName>),
    SizeofExpr(Box<Expr>),
    AlignofType(Box<TypeName>),
    VecStepType(Box<TypeName>),
    VecStepExpr(Box<Expr>),
}
