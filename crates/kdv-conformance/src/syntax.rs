//! The syntax tree of the Go subset that upstream's test files use: function bodies with
//! statements and expressions (declarations come from `kdv-go`; only what a test file
//! declares itself is kept here).

/// A parsed test file.
#[derive(Debug, Clone, Default)]
pub struct File {
    /// Package clause name.
    pub package: String,
    /// Imports: local name (alias or last path element) → import path.
    pub imports: Vec<(String, String)>,
    /// Top-level functions in source order.
    pub funcs: Vec<FuncDecl>,
    /// Top-level `var` / `const` specs in source order.
    pub values: Vec<ValueSpec>,
}

/// `func Name(params) results { body }`.
#[derive(Debug, Clone)]
pub struct FuncDecl {
    pub name: String,
    pub sig: FuncSig,
    pub body: Vec<Stmt>,
    pub line: u32,
}

/// A `var` or `const` spec: names, optional type, values.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueSpec {
    pub names: Vec<String>,
    pub ty: Option<TypeExpr>,
    pub values: Vec<Expr>,
    pub is_const: bool,
    pub line: u32,
}

/// A function signature.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FuncSig {
    /// Parameters (name, type); unnamed parameters have `None`.
    pub params: Vec<(Option<String>, TypeExpr)>,
    /// The last parameter is `...T` (its type is recorded as `T`).
    pub variadic: bool,
    pub results: Vec<(Option<String>, TypeExpr)>,
}

/// A type as written.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeExpr {
    /// `name` or `pkg.name`, with optional type arguments.
    Name {
        pkg: Option<String>,
        name: String,
        args: Vec<TypeExpr>,
    },
    Pointer(Box<TypeExpr>),
    Slice(Box<TypeExpr>),
    /// `[N]T`; `None` length for `[...]T`.
    Array(Option<Box<Expr>>, Box<TypeExpr>),
    Map(Box<TypeExpr>, Box<TypeExpr>),
    Struct(Vec<StructFieldExpr>),
    Func(Box<FuncSig>),
    /// Any interface type literal (never descended).
    Interface,
    Chan(Box<TypeExpr>),
}

/// One field of an anonymous struct type.
#[derive(Debug, Clone, PartialEq)]
pub struct StructFieldExpr {
    pub name: String,
    pub ty: TypeExpr,
    pub embedded: bool,
    pub tag: Option<String>,
}

/// An expression with the line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub line: u32,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Addr,
    Deref,
    Recv,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    LOr,
    LAnd,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Or,
    Xor,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    AndNot,
}

/// Expression kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Ident(String),
    Int(i128),
    Float(f64),
    /// A rune literal's code point.
    Rune(i128),
    Str(String),
    /// `T{...}`; `ty` is `None` for an elided type inside another literal.
    Composite {
        ty: Option<Box<TypeExpr>>,
        elems: Vec<Element>,
    },
    FuncLit {
        sig: Box<FuncSig>,
        body: Vec<Stmt>,
    },
    Selector(Box<Expr>, String),
    Index(Box<Expr>, Vec<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    TypeAssert(Box<Expr>, Option<Box<TypeExpr>>),
    Call {
        fun: Box<Expr>,
        args: Vec<Expr>,
        spread: bool,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Paren(Box<Expr>),
    /// A type in expression position (`[]byte` in `[]byte("x")`, `int` in `new(int)` is an
    /// identifier instead).
    Type(Box<TypeExpr>),
}

/// One element of a composite literal: `key: value` or `value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub key: Option<Expr>,
    pub value: Expr,
}

/// Statements.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Expr(Expr),
    /// `a, b := x, y`.
    Define(Vec<String>, Vec<Expr>, u32),
    /// `a, b = x, y`.
    Assign(Vec<Expr>, Vec<Expr>, u32),
    /// `x op= y` (the operator is the binary one).
    OpAssign(Expr, BinOp, Expr, u32),
    /// `x++` (true) / `x--` (false).
    IncDec(Expr, bool, u32),
    /// `var` / `const` inside a function.
    Var(ValueSpec),
    Block(Vec<Stmt>),
    If {
        init: Option<Box<Stmt>>,
        cond: Expr,
        then: Vec<Stmt>,
        els: Option<Box<Stmt>>,
        line: u32,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        post: Option<Box<Stmt>>,
        body: Vec<Stmt>,
        line: u32,
    },
    Range {
        key: Option<Expr>,
        value: Option<Expr>,
        define: bool,
        expr: Expr,
        body: Vec<Stmt>,
        line: u32,
    },
    Switch {
        init: Option<Box<Stmt>>,
        tag: Option<Expr>,
        cases: Vec<(Option<Vec<Expr>>, Vec<Stmt>)>,
        line: u32,
    },
    Return(Vec<Expr>, u32),
    Break(u32),
    Continue(u32),
    /// A statement kind the interpreter does not support (`go`, `defer`, `goto`, ...).
    Unsupported(String, u32),
}

impl Stmt {
    /// The source line the statement starts on, where known.
    pub fn line(&self) -> u32 {
        match self {
            Stmt::Expr(e) => e.line,
            Stmt::Define(_, _, l)
            | Stmt::Assign(_, _, l)
            | Stmt::OpAssign(_, _, _, l)
            | Stmt::IncDec(_, _, l)
            | Stmt::Return(_, l)
            | Stmt::Break(l)
            | Stmt::Continue(l)
            | Stmt::Unsupported(_, l) => *l,
            Stmt::Var(v) => v.line,
            Stmt::Block(b) => b.first().map_or(0, Stmt::line),
            Stmt::If { line, .. }
            | Stmt::For { line, .. }
            | Stmt::Range { line, .. }
            | Stmt::Switch { line, .. } => *line,
        }
    }
}
