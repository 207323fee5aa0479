//! A parser for Go test files: package clause, imports, and function bodies (statements and
//! expressions), over the tokens of `kdv-go`'s lexer. It follows `go/parser` where the Go
//! grammar is ambiguous (composite literals in control clauses, parameter lists). It never
//! panics: a syntax error inside a function marks that function as broken and parsing
//! continues with the next declaration.

use crate::syntax::*;
use kdv_go::lexer::{Kind, Token, lex};

/// A syntax error with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub line: u32,
}

/// Nesting bound for expressions, types and blocks: deeper input is reported, not followed.
const MAX_DEPTH: u32 = 200;

/// A parsed function, or why its body could not be parsed.
#[derive(Debug, Clone)]
pub struct ParsedFunc {
    pub decl: FuncDecl,
    /// Set when the body had a syntax error; `decl.body` is then empty.
    pub broken: Option<ParseError>,
}

/// The result of [`parse_file`].
#[derive(Debug, Clone, Default)]
pub struct ParsedFile {
    pub file: File,
    /// Functions whose bodies failed to parse, by name, with the error.
    pub broken: Vec<(String, ParseError)>,
    /// Errors outside function bodies.
    pub errors: Vec<ParseError>,
}

/// Parses a whole Go file.
pub fn parse_file(src: &str) -> ParsedFile {
    if src.len() >= u32::MAX as usize {
        return ParsedFile {
            errors: vec![ParseError {
                message: "file too large".into(),
                line: 0,
            }],
            ..ParsedFile::default()
        };
    }
    let lexed = lex(src);
    let mut p = Parser {
        src,
        toks: lexed.tokens,
        pos: 0,
        expr_lev: 0,
        depth: 0,
    };
    let mut out = ParsedFile::default();
    if let Some(e) = lexed.errors.first() {
        out.errors.push(ParseError {
            message: e.message.clone(),
            line: e.line,
        });
    }
    p.file(&mut out);
    out
}

/// Parses a sequence of statements (a function body without the braces); for tests.
pub fn parse_stmts(src: &str) -> Result<Vec<Stmt>, ParseError> {
    let text = format!("{{\n{src}\n}}");
    let lexed = lex(&text);
    let mut p = Parser {
        src: &text,
        toks: lexed.tokens,
        pos: 0,
        expr_lev: 0,
        depth: 0,
    };
    let body = p.block()?;
    p.skip_semis();
    if p.kind() != Kind::Eof {
        return Err(p.err("unexpected tokens after statements"));
    }
    Ok(body)
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    /// As in `go/parser`: < 0 inside control clauses (where `T{` does not start a literal).
    expr_lev: i32,
    depth: u32,
}

type PResult<T> = Result<T, ParseError>;

impl<'a> Parser<'a> {
    fn tok(&self) -> Token {
        // The lexer always ends the stream with Eof; clamp so reads past it stay on Eof.
        self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn kind(&self) -> Kind {
        self.tok().kind
    }

    fn peek_kind(&self, n: usize) -> Kind {
        self.toks[(self.pos + n).min(self.toks.len() - 1)].kind
    }

    fn text(&self) -> &'a str {
        let t = self.tok();
        &self.src[t.start as usize..t.end as usize]
    }

    fn line(&self) -> u32 {
        self.tok().line
    }

    fn bump(&mut self) {
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
    }

    fn err(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
            line: self.line(),
        }
    }

    fn unexpected(&self, what: &str) -> ParseError {
        let found = match self.kind() {
            Kind::Eof => "end of file".to_string(),
            Kind::AutoSemi => "newline".to_string(),
            _ => format!("{:?}", self.text()),
        };
        self.err(format!("expected {what}, found {found}"))
    }

    fn expect(&mut self, kind: Kind, what: &str) -> PResult<()> {
        if self.kind() == kind {
            self.bump();
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn ident(&mut self) -> PResult<String> {
        if self.kind() == Kind::Ident {
            let s = self.text().to_string();
            self.bump();
            Ok(s)
        } else {
            Err(self.unexpected("identifier"))
        }
    }

    fn skip_semis(&mut self) {
        while self.kind().is_semi() {
            self.bump();
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Statement terminator: `;`, or nothing before `)` / `}`.
    fn end_stmt(&mut self) -> PResult<()> {
        match self.kind() {
            Kind::Semi | Kind::AutoSemi => {
                self.bump();
                Ok(())
            }
            Kind::RBrace | Kind::RParen | Kind::Eof => Ok(()),
            _ => Err(self.unexpected("end of statement")),
        }
    }

    /// Index of the token closing the bracket at `open` (balanced), if any.
    fn matching_close(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (i, t) in self.toks.iter().enumerate().skip(open) {
            if t.kind.is_open() {
                depth += 1;
            } else if t.kind.is_close() {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            } else if t.kind == Kind::Eof {
                return None;
            }
        }
        None
    }

    // ---- file level -------------------------------------------------------------------

    fn file(&mut self, out: &mut ParsedFile) {
        self.skip_semis();
        if self.kind() != Kind::Package {
            out.errors.push(self.unexpected("package clause"));
            return;
        }
        self.bump();
        match self.ident() {
            Ok(name) => out.file.package = name,
            Err(e) => {
                out.errors.push(e);
                return;
            }
        }
        self.skip_semis();
        while self.kind() == Kind::Import {
            self.bump();
            if let Err(e) = self.imports(&mut out.file) {
                out.errors.push(e);
                return;
            }
            self.skip_semis();
        }
        while self.kind() != Kind::Eof {
            let start = self.pos;
            let r = match self.kind() {
                Kind::Func => self.func_decl(out),
                Kind::Var | Kind::Const => {
                    let is_const = self.kind() == Kind::Const;
                    self.bump();
                    self.value_specs(is_const)
                        .map(|specs| out.file.values.extend(specs))
                }
                Kind::Type => {
                    // Test files declare no types today; skip the declaration.
                    self.skip_decl();
                    Ok(())
                }
                _ => Err(self.unexpected("declaration")),
            };
            if let Err(e) = r {
                out.errors.push(e);
                if self.pos == start {
                    self.bump();
                }
                self.skip_decl();
            }
            self.skip_semis();
        }
    }

    /// Skips to the end of the current top-level declaration (balanced brackets, then `;`).
    fn skip_decl(&mut self) {
        loop {
            match self.kind() {
                Kind::Eof => return,
                k if k.is_semi() => {
                    self.bump();
                    return;
                }
                k if k.is_open() => match self.matching_close(self.pos) {
                    Some(close) => self.pos = close + 1,
                    None => {
                        self.pos = self.toks.len() - 1;
                        return;
                    }
                },
                _ => self.bump(),
            }
        }
    }

    fn imports(&mut self, file: &mut File) -> PResult<()> {
        if self.kind() == Kind::LParen {
            self.bump();
            self.skip_semis();
            while self.kind() != Kind::RParen {
                self.import_spec(file)?;
                self.end_stmt()?;
                self.skip_semis();
            }
            self.bump();
            Ok(())
        } else {
            self.import_spec(file)
        }
    }

    fn import_spec(&mut self, file: &mut File) -> PResult<()> {
        let alias = match self.kind() {
            Kind::Ident => Some(self.ident()?),
            Kind::Dot => {
                self.bump();
                Some(".".to_string())
            }
            _ => None,
        };
        if !matches!(self.kind(), Kind::Str | Kind::RawStr) {
            return Err(self.unexpected("import path"));
        }
        let path = unquote(self.text()).map_err(|m| self.err(m))?;
        self.bump();
        let name = alias.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(&path).to_string());
        file.imports.push((name, path));
        Ok(())
    }

    fn func_decl(&mut self, out: &mut ParsedFile) -> PResult<()> {
        let line = self.line();
        self.bump();
        if self.kind() == Kind::LParen {
            return Err(self.err("methods are not supported in test files"));
        }
        let name = self.ident()?;
        if self.kind() == Kind::LBrack {
            return Err(self.err("generic functions are not supported in test files"));
        }
        let sig = self.signature()?;
        if self.kind() != Kind::LBrace {
            return Err(self.unexpected("function body"));
        }
        let open = self.pos;
        let close = self.matching_close(open);
        match self.block() {
            Ok(body) => {
                out.file.funcs.push(FuncDecl {
                    name,
                    sig,
                    body,
                    line,
                });
            }
            Err(e) => {
                out.broken.push((name.clone(), e));
                out.file.funcs.push(FuncDecl {
                    name,
                    sig,
                    body: Vec::new(),
                    line,
                });
                self.depth = 0;
                self.expr_lev = 0;
                self.pos = close.map_or(self.toks.len() - 1, |c| c + 1);
            }
        }
        Ok(())
    }

    fn value_specs(&mut self, is_const: bool) -> PResult<Vec<ValueSpec>> {
        let mut specs = Vec::new();
        if self.kind() == Kind::LParen {
            self.bump();
            self.skip_semis();
            while self.kind() != Kind::RParen {
                specs.push(self.value_spec(is_const)?);
                self.end_stmt()?;
                self.skip_semis();
            }
            self.bump();
        } else {
            specs.push(self.value_spec(is_const)?);
        }
        Ok(specs)
    }

    fn value_spec(&mut self, is_const: bool) -> PResult<ValueSpec> {
        let line = self.line();
        let mut names = vec![self.ident()?];
        while self.kind() == Kind::Comma {
            self.bump();
            names.push(self.ident()?);
        }
        let ty = if self.kind() != Kind::Assign && !self.kind().is_semi() {
            Some(self.parse_type()?)
        } else {
            None
        };
        let mut values = Vec::new();
        if self.kind() == Kind::Assign {
            self.bump();
            values = self.expr_list()?;
        }
        Ok(ValueSpec {
            names,
            ty,
            values,
            is_const,
            line,
        })
    }

    // ---- types --------------------------------------------------------------------------

    fn starts_type(&self) -> bool {
        matches!(
            self.kind(),
            Kind::Ident
                | Kind::Star
                | Kind::LBrack
                | Kind::Map
                | Kind::Func
                | Kind::Struct
                | Kind::Interface
                | Kind::Chan
                | Kind::LParen
                | Kind::Arrow
        )
    }

    fn parse_type(&mut self) -> PResult<TypeExpr> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> PResult<TypeExpr> {
        match self.kind() {
            Kind::Ident => {
                let first = self.ident()?;
                let (pkg, name) = if self.kind() == Kind::Dot {
                    self.bump();
                    (Some(first), self.ident()?)
                } else {
                    (None, first)
                };
                let mut args = Vec::new();
                if self.kind() == Kind::LBrack {
                    self.bump();
                    args.push(self.parse_type()?);
                    while self.kind() == Kind::Comma {
                        self.bump();
                        args.push(self.parse_type()?);
                    }
                    self.expect(Kind::RBrack, "]")?;
                }
                Ok(TypeExpr::Name { pkg, name, args })
            }
            Kind::Star => {
                self.bump();
                Ok(TypeExpr::Pointer(Box::new(self.parse_type()?)))
            }
            Kind::LBrack => {
                self.bump();
                if self.kind() == Kind::RBrack {
                    self.bump();
                    return Ok(TypeExpr::Slice(Box::new(self.parse_type()?)));
                }
                let len = if self.kind() == Kind::Ellipsis {
                    self.bump();
                    None
                } else {
                    let lev = self.expr_lev;
                    self.expr_lev += 1;
                    let e = self.expr();
                    self.expr_lev = lev;
                    Some(Box::new(e?))
                };
                self.expect(Kind::RBrack, "]")?;
                Ok(TypeExpr::Array(len, Box::new(self.parse_type()?)))
            }
            Kind::Map => {
                self.bump();
                self.expect(Kind::LBrack, "[")?;
                let k = self.parse_type()?;
                self.expect(Kind::RBrack, "]")?;
                let v = self.parse_type()?;
                Ok(TypeExpr::Map(Box::new(k), Box::new(v)))
            }
            Kind::Struct => self.struct_type(),
            Kind::Interface => {
                self.bump();
                if self.kind() != Kind::LBrace {
                    return Err(self.unexpected("{"));
                }
                match self.matching_close(self.pos) {
                    Some(close) => self.pos = close + 1,
                    None => return Err(self.err("unterminated interface type")),
                }
                Ok(TypeExpr::Interface)
            }
            Kind::Func => {
                self.bump();
                Ok(TypeExpr::Func(Box::new(self.signature()?)))
            }
            Kind::Chan => {
                self.bump();
                if self.kind() == Kind::Arrow {
                    self.bump();
                }
                Ok(TypeExpr::Chan(Box::new(self.parse_type()?)))
            }
            Kind::Arrow => {
                self.bump();
                self.expect(Kind::Chan, "chan")?;
                Ok(TypeExpr::Chan(Box::new(self.parse_type()?)))
            }
            Kind::LParen => {
                self.bump();
                let t = self.parse_type()?;
                self.expect(Kind::RParen, ")")?;
                Ok(t)
            }
            _ => Err(self.unexpected("type")),
        }
    }

    fn struct_type(&mut self) -> PResult<TypeExpr> {
        self.bump();
        self.expect(Kind::LBrace, "{")?;
        self.skip_semis();
        let mut fields = Vec::new();
        while self.kind() != Kind::RBrace {
            if self.kind() == Kind::Eof {
                return Err(self.unexpected("}"));
            }
            if self.kind() == Kind::Star {
                // Embedded pointer.
                self.bump();
                let t = self.parse_type()?;
                let name = embedded_name(&t);
                let tag = self.field_tag()?;
                fields.push(StructFieldExpr {
                    name,
                    ty: TypeExpr::Pointer(Box::new(t)),
                    embedded: true,
                    tag,
                });
            } else {
                let first = self.ident()?;
                if self.kind() == Kind::Dot
                    || self.kind().is_semi()
                    || self.kind() == Kind::RBrace
                    || matches!(self.kind(), Kind::Str | Kind::RawStr)
                {
                    // Embedded (possibly qualified) type.
                    let (pkg, name) = if self.kind() == Kind::Dot {
                        self.bump();
                        (Some(first), self.ident()?)
                    } else {
                        (None, first)
                    };
                    let tag = self.field_tag()?;
                    fields.push(StructFieldExpr {
                        name: name.clone(),
                        ty: TypeExpr::Name {
                            pkg,
                            name,
                            args: Vec::new(),
                        },
                        embedded: true,
                        tag,
                    });
                } else {
                    let mut names = vec![first];
                    while self.kind() == Kind::Comma {
                        self.bump();
                        names.push(self.ident()?);
                    }
                    let ty = self.parse_type()?;
                    let tag = self.field_tag()?;
                    for name in names {
                        fields.push(StructFieldExpr {
                            name,
                            ty: ty.clone(),
                            embedded: false,
                            tag: tag.clone(),
                        });
                    }
                }
            }
            self.end_stmt()?;
            self.skip_semis();
        }
        self.bump();
        Ok(TypeExpr::Struct(fields))
    }

    fn field_tag(&mut self) -> PResult<Option<String>> {
        if matches!(self.kind(), Kind::Str | Kind::RawStr) {
            let s = unquote(self.text()).map_err(|m| self.err(m))?;
            self.bump();
            Ok(Some(s))
        } else {
            Ok(None)
        }
    }

    fn signature(&mut self) -> PResult<FuncSig> {
        let (params, variadic) = self.param_list()?;
        let results = match self.kind() {
            Kind::LParen => self.param_list()?.0,
            k if k != Kind::LBrace && self.starts_type() && !k.is_semi() => {
                vec![(None, self.parse_type()?)]
            }
            _ => Vec::new(),
        };
        Ok(FuncSig {
            params,
            variadic,
            results,
        })
    }

    /// `( [a, b T, c ...U] )` or `( T, U )`; returns the parameters and whether the last one
    /// is variadic.
    #[allow(clippy::type_complexity)]
    fn param_list(&mut self) -> PResult<(Vec<(Option<String>, TypeExpr)>, bool)> {
        self.expect(Kind::LParen, "(")?;
        // Entries: (optional name, optional type, variadic).
        let mut entries: Vec<(Option<String>, Option<TypeExpr>, bool)> = Vec::new();
        while self.kind() != Kind::RParen {
            if self.kind() == Kind::Ident && matches!(self.peek_kind(1), Kind::Comma | Kind::RParen)
            {
                let n = self.ident()?;
                entries.push((Some(n), None, false));
            } else if self.kind() == Kind::Ident
                && self.peek_kind(1) != Kind::Dot
                && !matches!(self.peek_kind(1), Kind::Comma | Kind::RParen)
            {
                let n = self.ident()?;
                let variadic = if self.kind() == Kind::Ellipsis {
                    self.bump();
                    true
                } else {
                    false
                };
                let t = self.parse_type()?;
                entries.push((Some(n), Some(t), variadic));
            } else {
                let variadic = if self.kind() == Kind::Ellipsis {
                    self.bump();
                    true
                } else {
                    false
                };
                let t = self.parse_type()?;
                entries.push((None, Some(t), variadic));
            }
            if self.kind() == Kind::Comma {
                self.bump();
                self.skip_semis();
            } else {
                break;
            }
        }
        self.expect(Kind::RParen, ")")?;
        let named = entries.iter().any(|(n, t, _)| n.is_some() && t.is_some());
        let mut out = Vec::new();
        let mut variadic = false;
        if named {
            // `a, b int`: bare names take the next declared type.
            let mut pending: Vec<String> = Vec::new();
            for (n, t, v) in entries {
                match (n, t) {
                    (Some(n), None) => pending.push(n),
                    (Some(n), Some(t)) => {
                        for p in pending.drain(..) {
                            out.push((Some(p), t.clone()));
                        }
                        out.push((Some(n), t));
                        variadic = v;
                    }
                    (None, Some(_)) | (None, None) => {
                        return Err(self.err("mixed named and unnamed parameters"));
                    }
                }
            }
            if !pending.is_empty() {
                return Err(self.err("missing parameter type"));
            }
        } else {
            for (n, t, v) in entries {
                let t = match (n, t) {
                    (_, Some(t)) => t,
                    (Some(n), None) => TypeExpr::Name {
                        pkg: None,
                        name: n,
                        args: Vec::new(),
                    },
                    (None, None) => return Err(self.err("missing parameter type")),
                };
                out.push((None, t));
                variadic = v;
            }
        }
        Ok((out, variadic))
    }

    // ---- statements ---------------------------------------------------------------------

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.enter()?;
        let r = self.block_inner();
        self.leave();
        r
    }

    fn block_inner(&mut self) -> PResult<Vec<Stmt>> {
        self.expect(Kind::LBrace, "{")?;
        let lev = self.expr_lev;
        self.expr_lev = 0;
        let mut stmts = Vec::new();
        self.skip_semis();
        while self.kind() != Kind::RBrace {
            if self.kind() == Kind::Eof {
                return Err(self.unexpected("}"));
            }
            stmts.push(self.stmt()?);
            self.skip_semis();
        }
        self.bump();
        self.expr_lev = lev;
        Ok(stmts)
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.leave();
        r
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let line = self.line();
        match self.kind() {
            Kind::Var | Kind::Const => {
                let is_const = self.kind() == Kind::Const;
                self.bump();
                let mut specs = self.value_specs(is_const)?;
                self.end_stmt()?;
                if specs.len() == 1 {
                    Ok(Stmt::Var(specs.remove(0)))
                } else {
                    Ok(Stmt::Block(specs.into_iter().map(Stmt::Var).collect()))
                }
            }
            Kind::LBrace => {
                let b = self.block()?;
                self.end_stmt()?;
                Ok(Stmt::Block(b))
            }
            Kind::If => {
                let s = self.if_stmt()?;
                self.end_stmt()?;
                Ok(s)
            }
            Kind::For => {
                let s = self.for_stmt()?;
                self.end_stmt()?;
                Ok(s)
            }
            Kind::Switch => {
                let s = self.switch_stmt()?;
                self.end_stmt()?;
                Ok(s)
            }
            Kind::Return => {
                self.bump();
                let values = if self.kind().is_semi() || self.kind() == Kind::RBrace {
                    Vec::new()
                } else {
                    self.expr_list()?
                };
                self.end_stmt()?;
                Ok(Stmt::Return(values, line))
            }
            Kind::Break | Kind::Continue => {
                let is_break = self.kind() == Kind::Break;
                self.bump();
                if self.kind() == Kind::Ident {
                    return Err(self.err("labelled break/continue is not supported"));
                }
                self.end_stmt()?;
                Ok(if is_break {
                    Stmt::Break(line)
                } else {
                    Stmt::Continue(line)
                })
            }
            Kind::Go | Kind::Defer | Kind::Goto | Kind::Select | Kind::Fallthrough | Kind::Type => {
                let what = self.text().to_string();
                self.skip_decl();
                Ok(Stmt::Unsupported(format!("`{what}` statement"), line))
            }
            _ => {
                let s = self.simple_stmt(false)?;
                self.end_stmt()?;
                Ok(s)
            }
        }
    }

    fn simple_stmt(&mut self, range_ok: bool) -> PResult<Stmt> {
        let line = self.line();
        if range_ok && self.kind() == Kind::Range {
            self.bump();
            let expr = self.expr()?;
            return Ok(Stmt::Range {
                key: None,
                value: None,
                define: false,
                expr,
                body: Vec::new(),
                line,
            });
        }
        let lhs = self.expr_list()?;
        match self.kind() {
            Kind::Define | Kind::Assign => {
                let define = self.kind() == Kind::Define;
                self.bump();
                if range_ok && self.kind() == Kind::Range {
                    self.bump();
                    let expr = self.expr()?;
                    if lhs.len() > 2 {
                        return Err(self.err("range clause permits at most two variables"));
                    }
                    let mut it = lhs.into_iter();
                    return Ok(Stmt::Range {
                        key: it.next(),
                        value: it.next(),
                        define,
                        expr,
                        body: Vec::new(),
                        line,
                    });
                }
                let rhs = self.expr_list()?;
                if define {
                    let mut names = Vec::new();
                    for e in lhs {
                        match e.kind {
                            ExprKind::Ident(n) => names.push(n),
                            _ => {
                                return Err(ParseError {
                                    message: "non-name on left side of :=".into(),
                                    line,
                                });
                            }
                        }
                    }
                    Ok(Stmt::Define(names, rhs, line))
                } else {
                    Ok(Stmt::Assign(lhs, rhs, line))
                }
            }
            Kind::OpAssign => {
                let op = match self.text() {
                    "+=" => BinOp::Add,
                    "-=" => BinOp::Sub,
                    "*=" => BinOp::Mul,
                    "/=" => BinOp::Div,
                    "%=" => BinOp::Rem,
                    "&=" => BinOp::And,
                    "|=" => BinOp::Or,
                    "^=" => BinOp::Xor,
                    "<<=" => BinOp::Shl,
                    ">>=" => BinOp::Shr,
                    "&^=" => BinOp::AndNot,
                    other => return Err(self.err(format!("unknown operator {other}"))),
                };
                self.bump();
                let rhs = self.expr()?;
                let mut lhs = lhs;
                if lhs.len() != 1 {
                    return Err(self.err("assignment operation needs a single target"));
                }
                Ok(Stmt::OpAssign(lhs.remove(0), op, rhs, line))
            }
            Kind::Inc | Kind::Dec => {
                let inc = self.kind() == Kind::Inc;
                self.bump();
                let mut lhs = lhs;
                if lhs.len() != 1 {
                    return Err(self.err("++/-- needs a single operand"));
                }
                Ok(Stmt::IncDec(lhs.remove(0), inc, line))
            }
            Kind::Arrow => Err(self.err("channel send is not supported")),
            Kind::Colon => Err(self.err("labels are not supported")),
            _ => {
                let mut lhs = lhs;
                if lhs.len() != 1 {
                    return Err(self.unexpected(":= or = or comma"));
                }
                Ok(Stmt::Expr(lhs.remove(0)))
            }
        }
    }

    fn if_stmt(&mut self) -> PResult<Stmt> {
        let line = self.line();
        self.bump();
        let lev = self.expr_lev;
        self.expr_lev = -1;
        let header = (|| -> PResult<(Option<Box<Stmt>>, Expr)> {
            let first = self.simple_stmt(false)?;
            if self.kind() == Kind::Semi {
                self.bump();
                let cond = self.expr()?;
                Ok((Some(Box::new(first)), cond))
            } else {
                match first {
                    Stmt::Expr(e) => Ok((None, e)),
                    _ => Err(self.err("missing condition in if statement")),
                }
            }
        })();
        self.expr_lev = lev;
        let (init, cond) = header?;
        let then = self.block()?;
        let els = if self.kind() == Kind::Else {
            self.bump();
            match self.kind() {
                Kind::If => Some(Box::new(self.if_stmt()?)),
                Kind::LBrace => Some(Box::new(Stmt::Block(self.block()?))),
                _ => return Err(self.unexpected("if or {")),
            }
        } else {
            None
        };
        Ok(Stmt::If {
            init,
            cond,
            then,
            els,
            line,
        })
    }

    fn for_stmt(&mut self) -> PResult<Stmt> {
        let line = self.line();
        self.bump();
        if self.kind() == Kind::LBrace {
            let body = self.block()?;
            return Ok(Stmt::For {
                init: None,
                cond: None,
                post: None,
                body,
                line,
            });
        }
        let lev = self.expr_lev;
        self.expr_lev = -1;
        let header = (|| -> PResult<Stmt> {
            let first = if self.kind() == Kind::Semi {
                None
            } else {
                Some(self.simple_stmt(true)?)
            };
            if let Some(Stmt::Range { .. }) = first {
                return Ok(first.unwrap_or(Stmt::Break(line)));
            }
            if self.kind() == Kind::Semi {
                self.bump();
                let cond = if self.kind() == Kind::Semi {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(Kind::Semi, ";")?;
                let post = if self.kind() == Kind::LBrace {
                    None
                } else {
                    Some(Box::new(self.simple_stmt(false)?))
                };
                Ok(Stmt::For {
                    init: first.map(Box::new),
                    cond,
                    post,
                    body: Vec::new(),
                    line,
                })
            } else {
                match first {
                    Some(Stmt::Expr(e)) => Ok(Stmt::For {
                        init: None,
                        cond: Some(e),
                        post: None,
                        body: Vec::new(),
                        line,
                    }),
                    _ => Err(self.err("expected for loop condition")),
                }
            }
        })();
        self.expr_lev = lev;
        let mut stmt = header?;
        let block = self.block()?;
        match &mut stmt {
            Stmt::Range { body, .. } | Stmt::For { body, .. } => *body = block,
            _ => {}
        }
        Ok(stmt)
    }

    fn switch_stmt(&mut self) -> PResult<Stmt> {
        let line = self.line();
        self.bump();
        let lev = self.expr_lev;
        self.expr_lev = -1;
        let header = (|| -> PResult<(Option<Box<Stmt>>, Option<Expr>)> {
            if self.kind() == Kind::LBrace {
                return Ok((None, None));
            }
            let first = if self.kind() == Kind::Semi {
                None
            } else {
                Some(self.simple_stmt(false)?)
            };
            if self.kind() == Kind::Semi {
                self.bump();
                let tag = if self.kind() == Kind::LBrace {
                    None
                } else {
                    match self.simple_stmt(false)? {
                        Stmt::Expr(e) => Some(e),
                        _ => return Err(self.err("bad switch tag")),
                    }
                };
                Ok((first.map(Box::new), tag))
            } else {
                match first {
                    Some(Stmt::Expr(e)) => Ok((None, Some(e))),
                    None => Ok((None, None)),
                    _ => Err(self.err("type switches are not supported")),
                }
            }
        })();
        self.expr_lev = lev;
        let (init, tag) = header?;
        self.expect(Kind::LBrace, "{")?;
        self.skip_semis();
        let mut cases = Vec::new();
        while self.kind() != Kind::RBrace {
            let exprs = match self.kind() {
                Kind::Case => {
                    self.bump();
                    Some(self.expr_list()?)
                }
                Kind::Default => {
                    self.bump();
                    None
                }
                _ => return Err(self.unexpected("case or default")),
            };
            self.expect(Kind::Colon, ":")?;
            self.skip_semis();
            let mut body = Vec::new();
            while !matches!(self.kind(), Kind::Case | Kind::Default | Kind::RBrace) {
                if self.kind() == Kind::Eof {
                    return Err(self.unexpected("}"));
                }
                body.push(self.stmt()?);
                self.skip_semis();
            }
            cases.push((exprs, body));
        }
        self.bump();
        Ok(Stmt::Switch {
            init,
            tag,
            cases,
            line,
        })
    }

    // ---- expressions --------------------------------------------------------------------

    fn expr_list(&mut self) -> PResult<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.kind() == Kind::Comma {
            self.bump();
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.binary(1);
        self.leave();
        r
    }

    fn binop(&self) -> Option<(BinOp, u8)> {
        Some(match self.kind() {
            Kind::LOr => (BinOp::LOr, 1),
            Kind::LAnd => (BinOp::LAnd, 2),
            Kind::Eql => (BinOp::Eq, 3),
            Kind::Neq => (BinOp::Ne, 3),
            Kind::Lss => (BinOp::Lt, 3),
            Kind::Leq => (BinOp::Le, 3),
            Kind::Gtr => (BinOp::Gt, 3),
            Kind::Geq => (BinOp::Ge, 3),
            Kind::Plus => (BinOp::Add, 4),
            Kind::Minus => (BinOp::Sub, 4),
            Kind::Pipe => (BinOp::Or, 4),
            Kind::Caret => (BinOp::Xor, 4),
            Kind::Star => (BinOp::Mul, 5),
            Kind::Slash => (BinOp::Div, 5),
            Kind::Percent => (BinOp::Rem, 5),
            Kind::Shl => (BinOp::Shl, 5),
            Kind::Shr => (BinOp::Shr, 5),
            Kind::Amp => (BinOp::And, 5),
            Kind::AndNot => (BinOp::AndNot, 5),
            _ => return None,
        })
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut left = self.unary()?;
        while let Some((op, prec)) = self.binop() {
            if prec < min_prec {
                break;
            }
            let line = self.line();
            self.bump();
            self.enter()?;
            let right = self.binary(prec + 1);
            self.leave();
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right?)),
                line,
            };
        }
        Ok(left)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let line = self.line();
        let op = match self.kind() {
            Kind::Minus => UnOp::Neg,
            Kind::Plus => UnOp::Plus,
            Kind::Not => UnOp::Not,
            Kind::Caret => UnOp::BitNot,
            Kind::Amp => UnOp::Addr,
            Kind::Star => UnOp::Deref,
            Kind::Arrow => UnOp::Recv,
            _ => return self.primary(),
        };
        self.bump();
        self.enter()?;
        let x = self.unary();
        self.leave();
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(x?)),
            line,
        })
    }

    fn operand(&mut self) -> PResult<Expr> {
        let line = self.line();
        let kind = match self.kind() {
            Kind::Ident => ExprKind::Ident(self.ident()?),
            Kind::Int => {
                let v = parse_int(self.text()).ok_or_else(|| self.err("bad integer literal"))?;
                self.bump();
                ExprKind::Int(v)
            }
            Kind::Float => {
                let v = parse_float(self.text()).ok_or_else(|| self.err("bad float literal"))?;
                self.bump();
                ExprKind::Float(v)
            }
            Kind::Imag => return Err(self.err("imaginary literals are not supported")),
            Kind::Rune => {
                let s = unquote(self.text()).map_err(|m| self.err(m))?;
                let c = s
                    .chars()
                    .next()
                    .ok_or_else(|| self.err("empty rune literal"))?;
                self.bump();
                ExprKind::Rune(c as i128)
            }
            Kind::Str | Kind::RawStr => {
                let s = unquote(self.text()).map_err(|m| self.err(m))?;
                self.bump();
                ExprKind::Str(s)
            }
            Kind::LParen => {
                self.bump();
                let lev = self.expr_lev;
                self.expr_lev += 1;
                let inner = self.type_or_expr();
                self.expr_lev = lev;
                let inner = inner?;
                self.expect(Kind::RParen, ")")?;
                ExprKind::Paren(Box::new(inner))
            }
            Kind::Func => {
                self.bump();
                let sig = self.signature()?;
                if self.kind() == Kind::LBrace {
                    let lev = self.expr_lev;
                    self.expr_lev = 0;
                    let body = self.block();
                    self.expr_lev = lev;
                    ExprKind::FuncLit {
                        sig: Box::new(sig),
                        body: body?,
                    }
                } else {
                    ExprKind::Type(Box::new(TypeExpr::Func(Box::new(sig))))
                }
            }
            Kind::LBrack | Kind::Map | Kind::Struct | Kind::Interface | Kind::Chan => {
                ExprKind::Type(Box::new(self.parse_type()?))
            }
            _ => return Err(self.unexpected("expression")),
        };
        Ok(Expr { kind, line })
    }

    /// Inside parentheses and call arguments, a type may stand where an expression would
    /// (`(*T)(nil)`, `make([]T, 0)`); the unary/primary grammar covers both except `*T`,
    /// which parses as a dereference and is reinterpreted by the evaluator.
    fn type_or_expr(&mut self) -> PResult<Expr> {
        self.expr()
    }

    fn primary(&mut self) -> PResult<Expr> {
        let mut x = self.operand()?;
        loop {
            let line = self.line();
            match self.kind() {
                Kind::Dot => {
                    self.bump();
                    match self.kind() {
                        Kind::Ident => {
                            let name = self.ident()?;
                            x = Expr {
                                kind: ExprKind::Selector(Box::new(x), name),
                                line,
                            };
                        }
                        Kind::LParen => {
                            self.bump();
                            let ty = if self.kind() == Kind::Type {
                                self.bump();
                                None
                            } else {
                                Some(Box::new(self.parse_type()?))
                            };
                            self.expect(Kind::RParen, ")")?;
                            x = Expr {
                                kind: ExprKind::TypeAssert(Box::new(x), ty),
                                line,
                            };
                        }
                        _ => return Err(self.unexpected("selector")),
                    }
                }
                Kind::LBrack => {
                    self.bump();
                    let lev = self.expr_lev;
                    self.expr_lev += 1;
                    let r = self.index_or_slice(x, line);
                    self.expr_lev = lev;
                    x = r?;
                }
                Kind::LParen => {
                    self.bump();
                    let lev = self.expr_lev;
                    self.expr_lev += 1;
                    let r = self.call_args();
                    self.expr_lev = lev;
                    let (args, spread) = r?;
                    x = Expr {
                        kind: ExprKind::Call {
                            fun: Box::new(x),
                            args,
                            spread,
                        },
                        line,
                    };
                }
                Kind::LBrace
                    if is_literal_type(&x) && (self.expr_lev >= 0 || !is_type_name(&x)) =>
                {
                    let ty = expr_to_type(&x).ok_or_else(|| self.err("bad literal type"))?;
                    let elems = self.literal_value()?;
                    x = Expr {
                        kind: ExprKind::Composite {
                            ty: Some(Box::new(ty)),
                            elems,
                        },
                        line: x.line,
                    };
                }
                _ => return Ok(x),
            }
        }
    }

    fn index_or_slice(&mut self, x: Expr, line: u32) -> PResult<Expr> {
        let lo = if self.kind() == Kind::Colon {
            None
        } else {
            Some(self.type_or_expr()?)
        };
        if self.kind() == Kind::Colon {
            self.bump();
            let hi = if self.kind() == Kind::RBrack {
                None
            } else {
                Some(Box::new(self.expr()?))
            };
            self.expect(Kind::RBrack, "]")?;
            return Ok(Expr {
                kind: ExprKind::Slice(Box::new(x), lo.map(Box::new), hi),
                line,
            });
        }
        let mut idx = vec![lo.ok_or_else(|| self.err("missing index"))?];
        while self.kind() == Kind::Comma {
            self.bump();
            if self.kind() == Kind::RBrack {
                break;
            }
            idx.push(self.type_or_expr()?);
        }
        self.expect(Kind::RBrack, "]")?;
        Ok(Expr {
            kind: ExprKind::Index(Box::new(x), idx),
            line,
        })
    }

    fn call_args(&mut self) -> PResult<(Vec<Expr>, bool)> {
        let mut args = Vec::new();
        let mut spread = false;
        self.skip_semis();
        while self.kind() != Kind::RParen {
            args.push(self.type_or_expr()?);
            if self.kind() == Kind::Ellipsis {
                self.bump();
                spread = true;
            }
            if self.kind() == Kind::Comma {
                self.bump();
                self.skip_semis();
            } else {
                break;
            }
        }
        self.skip_semis();
        self.expect(Kind::RParen, ")")?;
        Ok((args, spread))
    }

    fn literal_value(&mut self) -> PResult<Vec<Element>> {
        self.enter()?;
        let r = self.literal_value_inner();
        self.leave();
        r
    }

    fn literal_value_inner(&mut self) -> PResult<Vec<Element>> {
        self.expect(Kind::LBrace, "{")?;
        let lev = self.expr_lev;
        self.expr_lev += 1;
        let r = (|| -> PResult<Vec<Element>> {
            let mut elems = Vec::new();
            while self.kind() != Kind::RBrace {
                let first = self.element()?;
                if self.kind() == Kind::Colon {
                    self.bump();
                    let value = self.element()?;
                    elems.push(Element {
                        key: Some(first),
                        value,
                    });
                } else {
                    elems.push(Element {
                        key: None,
                        value: first,
                    });
                }
                if self.kind() == Kind::Comma {
                    self.bump();
                } else {
                    break;
                }
            }
            if self.kind() == Kind::AutoSemi {
                return Err(self.err("missing ',' before newline in composite literal"));
            }
            self.expect(Kind::RBrace, "}")?;
            Ok(elems)
        })();
        self.expr_lev = lev;
        r
    }

    fn element(&mut self) -> PResult<Expr> {
        if self.kind() == Kind::LBrace {
            let line = self.line();
            let elems = self.literal_value()?;
            Ok(Expr {
                kind: ExprKind::Composite { ty: None, elems },
                line,
            })
        } else {
            self.expr()
        }
    }
}

fn embedded_name(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Name { name, .. } => name.clone(),
        TypeExpr::Pointer(inner) => embedded_name(inner),
        _ => String::new(),
    }
}

fn is_type_name(x: &Expr) -> bool {
    match &x.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Selector(inner, _) => matches!(inner.kind, ExprKind::Ident(_)),
        _ => false,
    }
}

fn is_literal_type(x: &Expr) -> bool {
    match &x.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Selector(inner, _) => matches!(inner.kind, ExprKind::Ident(_)),
        ExprKind::Type(t) => matches!(
            **t,
            TypeExpr::Slice(_) | TypeExpr::Array(..) | TypeExpr::Map(..) | TypeExpr::Struct(_)
        ),
        ExprKind::Index(inner, _) => is_type_name(inner),
        _ => false,
    }
}

/// Reinterprets an expression as the type it denotes, when it can denote one.
pub fn expr_to_type(x: &Expr) -> Option<TypeExpr> {
    match &x.kind {
        ExprKind::Ident(n) => Some(TypeExpr::Name {
            pkg: None,
            name: n.clone(),
            args: Vec::new(),
        }),
        ExprKind::Selector(inner, name) => match &inner.kind {
            ExprKind::Ident(p) => Some(TypeExpr::Name {
                pkg: Some(p.clone()),
                name: name.clone(),
                args: Vec::new(),
            }),
            _ => None,
        },
        ExprKind::Type(t) => Some((**t).clone()),
        ExprKind::Paren(inner) => expr_to_type(inner),
        ExprKind::Unary(UnOp::Deref, inner) => {
            Some(TypeExpr::Pointer(Box::new(expr_to_type(inner)?)))
        }
        ExprKind::Index(inner, args) => {
            let TypeExpr::Name { pkg, name, .. } = expr_to_type(inner)? else {
                return None;
            };
            let args = args.iter().map(expr_to_type).collect::<Option<Vec<_>>>()?;
            Some(TypeExpr::Name { pkg, name, args })
        }
        _ => None,
    }
}

/// The value of a Go integer literal.
pub fn parse_int(text: &str) -> Option<i128> {
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    let lower = clean.to_ascii_lowercase();
    let (digits, radix) = if let Some(d) = lower.strip_prefix("0x") {
        (d.to_string(), 16)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (d.to_string(), 2)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (d.to_string(), 8)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_string(), 8)
    } else {
        (lower, 10)
    };
    if digits.is_empty() {
        return None;
    }
    i128::from_str_radix(&digits, radix).ok()
}

/// The value of a Go decimal float literal.
pub fn parse_float(text: &str) -> Option<f64> {
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    if clean.starts_with("0x") || clean.starts_with("0X") {
        return None;
    }
    clean.parse::<f64>().ok()
}

/// Go's `strconv.Unquote` for string, raw string and rune literals. Escapes producing bytes
/// that are not UTF-8 become U+FFFD.
pub fn unquote(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    if bytes.len() < 2 || bytes[0] != bytes[bytes.len() - 1] {
        return Err("literal not terminated".into());
    }
    let quote = bytes[0];
    let inner = &text[1..text.len() - 1];
    if quote == b'`' {
        return Ok(inner.replace('\r', ""));
    }
    if quote != b'"' && quote != b'\'' {
        return Err("not a quoted literal".into());
    }
    let mut out: Vec<u8> = Vec::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some((_, e)) = chars.next() else {
            return Err("bad escape".into());
        };
        let mut hex = |n: usize| -> Result<u32, String> {
            let mut v = 0u32;
            for _ in 0..n {
                let (_, d) = chars.next().ok_or("bad escape")?;
                v = v * 16 + d.to_digit(16).ok_or("bad escape")?;
            }
            Ok(v)
        };
        match e {
            'a' => out.push(7),
            'b' => out.push(8),
            'f' => out.push(12),
            'n' => out.push(b'\n'),
            'r' => out.push(b'\r'),
            't' => out.push(b'\t'),
            'v' => out.push(11),
            '\\' => out.push(b'\\'),
            '\'' => out.push(b'\''),
            '"' => out.push(b'"'),
            'x' => out.push(hex(2)? as u8),
            'u' | 'U' => {
                let v = hex(if e == 'u' { 4 } else { 8 })?;
                let c = char::from_u32(v).ok_or("invalid Unicode code point")?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    let (_, d) = chars.next().ok_or("bad escape")?;
                    v = v * 8 + d.to_digit(8).ok_or("bad escape")?;
                }
                out.push(v as u8);
            }
            _ => return Err(format!("unknown escape \\{e}")),
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> Stmt {
        let mut v = parse_stmts(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        assert_eq!(v.len(), 1, "{src}");
        v.remove(0)
    }

    #[test]
    fn composite_literals_with_elided_types() {
        let s = one(r#"x := []*Item{{Key: "a"}, nil}"#);
        let Stmt::Define(names, rhs, _) = s else {
            panic!("{s:?}")
        };
        assert_eq!(names, ["x"]);
        let ExprKind::Composite { ty, elems } = &rhs[0].kind else {
            panic!()
        };
        assert!(matches!(ty.as_deref(), Some(TypeExpr::Slice(_))));
        assert_eq!(elems.len(), 2);
        assert!(matches!(
            elems[0].value.kind,
            ExprKind::Composite { ty: None, .. }
        ));
    }

    #[test]
    fn range_over_identifier_is_not_a_literal() {
        let s = one("for _, tc := range tests {\n t.Run(tc.name, func(t *testing.T) {})\n}");
        let Stmt::Range {
            key,
            value,
            define,
            expr,
            body,
            ..
        } = s
        else {
            panic!()
        };
        assert!(define);
        assert_eq!(key.map(|k| k.kind), Some(ExprKind::Ident("_".into())));
        assert_eq!(value.map(|k| k.kind), Some(ExprKind::Ident("tc".into())));
        assert_eq!(expr.kind, ExprKind::Ident("tests".into()));
        assert_eq!(body.len(), 1);
    }

    #[test]
    fn control_clause_allows_parenthesized_and_slice_literals() {
        one("for _, v := range []string{\"a\"} {\n}");
        one("if x == (T{}) {\n}");
        one("for i := range 3 {\n}");
        one("for i := 0; i < 3; i++ {\n}");
        one("for {\nbreak\n}");
    }

    #[test]
    fn anonymous_struct_table() {
        let s = one(
            "tests := []struct {\n name string\n value any\n old, new *T\n}{\n {name: \"a\", value: &T{}},\n {\"b\", nil, nil, nil},\n}",
        );
        let Stmt::Define(_, rhs, _) = s else { panic!() };
        let ExprKind::Composite {
            ty: Some(ty),
            elems,
        } = &rhs[0].kind
        else {
            panic!()
        };
        let TypeExpr::Slice(inner) = &**ty else {
            panic!()
        };
        let TypeExpr::Struct(fields) = &**inner else {
            panic!()
        };
        assert_eq!(fields.len(), 4);
        assert_eq!(fields[3].name, "new");
        assert_eq!(elems.len(), 2);
    }

    #[test]
    fn conversions_and_pointers() {
        one("x := (*Struct)(nil)");
        one("b := []byte(\"abc\")");
        one("p := &x.Field");
        one("v := *p");
        one("m[\"k\"] = v");
        one("a.B.C = 1");
        one("s := \"a\" + strings.Repeat(\"b\", 3)");
        one("n := new(StringType(\"p\"))");
        one("f := func(enabled ...string) map[string]bool {\n return nil\n}");
        one("c := 'a'");
        one("x := -1.5e3");
    }

    #[test]
    fn builder_chains_across_lines() {
        one("st.Value(&T{}).\n\tOldValue(&T{}).\n\tExpectValid()");
    }

    #[test]
    fn variadic_and_grouped_params() {
        let file = parse_file(
            "package p\nimport (\n\t\"testing\"\n\tfield \"k8s.io/x/field\"\n)\nfunc helper(a, b int, rest ...string) (map[string]string, error) {\n return nil, nil\n}\nfunc TestX(t *testing.T) {\n}\n",
        );
        assert!(file.errors.is_empty(), "{:?}", file.errors);
        assert_eq!(file.file.imports.len(), 2);
        assert_eq!(file.file.imports[1].0, "field");
        let h = &file.file.funcs[0];
        assert_eq!(h.sig.params.len(), 3);
        assert!(h.sig.variadic);
        assert_eq!(h.sig.results.len(), 2);
    }

    #[test]
    fn broken_function_does_not_stop_the_file() {
        let file = parse_file("package p\nfunc A() {\n x := \n}\nfunc B() {\n y := 1\n}\n");
        assert_eq!(file.broken.len(), 1);
        assert_eq!(file.broken[0].0, "A");
        assert_eq!(file.file.funcs.len(), 2);
        assert_eq!(file.file.funcs[1].body.len(), 1);
    }

    #[test]
    fn garbage_never_panics() {
        for src in [
            "",
            "package",
            "package p\nfunc",
            "package p\nfunc X() {",
            "package p\nfunc X() { ((((( }",
            "package p\nfunc X() { a := []T{{{{ }",
            "package p\nvar x = ",
            "package p\nfunc X() { for range { } }",
            "package p\nfunc X() { if { } }",
            "package p\nfunc X() { x.(y }",
            "package p\nfunc X() { '' }",
        ] {
            let _ = parse_file(src);
        }
        let deep = format!(
            "package p\nfunc X() {{ x := {}1{} }}",
            "(".repeat(1000),
            ")".repeat(1000)
        );
        let f = parse_file(&deep);
        assert_eq!(f.broken.len(), 1);
    }

    #[test]
    fn unquote_escapes() {
        assert_eq!(unquote(r#""a\tb\u00e9\x41\101""#).unwrap(), "a\tbéAA");
        assert_eq!(unquote("`raw\\n`").unwrap(), "raw\\n");
        assert_eq!(unquote("'a'").unwrap(), "a");
        assert!(unquote("\"abc").is_err());
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("1_000"), Some(1000));
        assert_eq!(parse_int("017"), Some(15));
        assert_eq!(parse_float("1.5e3"), Some(1500.0));
    }
}
