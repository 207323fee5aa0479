//! Recursive-descent parser for Go declarations: the package clause, imports, type and
//! const declarations. `var` and `func` declarations are skipped by balanced-bracket
//! scanning. Syntax errors become diagnostics; the parser resynchronises at the next
//! top-level declaration.

use std::collections::HashMap;
use std::path::Path;

use kdv_model::{
    Builtin, ConstDecl, Diagnostic, Field, JsonTag, Loc, NamedRef, SourceSpan, StructType,
    TypeDecl, TypeRef,
};

use crate::comments::{CommentIndex, Comments, Group, comment_lines};
use crate::consteval::{KnownConst, Scope, declare, evaluate};
use crate::lexer::{Kind, Lexed, RawComment, Token, lex};
use crate::literal::unquote;
use crate::{Import, ParsedFile};

/// Deepest nesting of type expressions accepted (`[][][]...T`, nested structs, ...).
pub(crate) const MAX_TYPE_DEPTH: u32 = 200;

/// Diagnostics reported per file before giving up on it.
const MAX_DIAGNOSTICS: usize = 100;

struct SyntaxError {
    /// Token index the error points at.
    at: usize,
    message: String,
}

type PResult<T> = Result<T, SyntaxError>;

/// The last explicit type and expression list (token ranges) of a const group, which
/// specs without `= ...` repeat.
#[derive(Clone)]
struct ConstTemplate {
    ty: Option<TypeRef>,
    exprs: Vec<(usize, usize)>,
}

/// How qualified identifiers map to import paths in one file.
#[derive(Default)]
struct ImportNames {
    /// Explicit aliases and the last path element of unaliased imports.
    exact: HashMap<String, String>,
    /// Likely package names for imports whose last element is not the package name
    /// (`gopkg.in/yaml.v2` → `yaml`, `.../foo/v2` → `foo`).
    guessed: HashMap<String, String>,
}

impl ImportNames {
    fn add(&mut self, import: &Import) {
        match import.name.as_deref() {
            Some("_" | ".") => {}
            Some(alias) => {
                self.exact.insert(alias.to_string(), import.path.clone());
            }
            None => {
                let mut names = crate::guess_package_names(&import.path).into_iter();
                if let Some(primary) = names.next() {
                    self.exact.insert(primary, import.path.clone());
                }
                for other in names {
                    self.guessed
                        .entry(other)
                        .or_insert_with(|| import.path.clone());
                }
            }
        }
    }

    /// The import path for qualifier `q`; the qualifier itself when no import matches.
    fn resolve(&self, q: &str) -> String {
        self.lookup(q).unwrap_or_else(|| q.to_string())
    }

    /// The import path for qualifier `q`, if an import of this file provides it.
    fn lookup(&self, q: &str) -> Option<String> {
        self.exact.get(q).or_else(|| self.guessed.get(q)).cloned()
    }
}

/// The type a conversion `T(x)` (`qualifier` absent) or `pkg.T(x)` names: a predeclared
/// type, a type of the package at `package_path`, or of the package the file imports as
/// `pkg` (`import_path` resolves the qualifier). `None` for Go's builtin functions.
pub(crate) fn conversion_type(
    package_path: &str,
    import_path: impl FnOnce(&str) -> String,
    qualifier: Option<&str>,
    name: &str,
) -> Option<TypeRef> {
    match qualifier {
        Some(q) => {
            let path = import_path(q);
            (path != "unsafe").then(|| named(path, name, Vec::new()))
        }
        None => match name {
            "len" | "cap" | "real" | "imag" | "complex" | "min" | "max" | "new" | "make"
            | "append" | "iota" | "true" | "false" | "nil" => None,
            _ => Some(Builtin::from_name(name).map_or_else(
                || named(package_path.to_string(), name, Vec::new()),
                TypeRef::Builtin,
            )),
        },
    }
}

/// The names a constant expression sees while its file is parsed: the file's earlier
/// constants, and types for conversions. Other packages' constants are not known yet.
struct FileScope<'a> {
    imports: &'a ImportNames,
    package_path: &'a str,
    known: &'a HashMap<String, KnownConst>,
}

impl Scope for FileScope<'_> {
    fn conversion_type(&self, qualifier: Option<&str>, name: &str) -> Option<TypeRef> {
        conversion_type(
            self.package_path,
            |q| self.imports.resolve(q),
            qualifier,
            name,
        )
    }

    fn constant(&self, qualifier: Option<&str>, name: &str) -> Option<KnownConst> {
        match qualifier {
            None => self.known.get(name).cloned(),
            Some(_) => None,
        }
    }
}

/// Where one constant's value comes from, for evaluating it again once other files and
/// packages are known (`crate::resolve`).
#[derive(Debug, Clone)]
pub(crate) struct ConstSpec {
    /// Byte offset of the constant's name (its `Loc::offset`).
    pub offset: u32,
    /// Byte range of its expression (the group's previous one, when repeated implicitly).
    pub expr: (u32, u32),
    /// `iota` at its spec.
    pub iota: i128,
    /// The type written in its spec (or the repeated one).
    pub declared: Option<TypeRef>,
}

/// Rough size of a type expression in nodes, to charge its copies. Recursion is bounded:
/// the parser never builds types deeper than [`MAX_TYPE_DEPTH`].
fn type_size(ty: &TypeRef) -> usize {
    1 + match ty {
        TypeRef::Pointer(t) | TypeRef::Slice(t) => type_size(t),
        TypeRef::Array { len, elem } => len.len() + type_size(elem),
        TypeRef::Map { key, value } => type_size(key) + type_size(value),
        TypeRef::Struct(s) => s
            .fields
            .iter()
            .map(|f| {
                let json = f.json.as_ref().map_or(0, |j| {
                    j.name.len() + j.options.iter().map(String::len).sum::<usize>()
                });
                let tags: usize = f.tags.lines.iter().map(|t| t.text.len()).sum();
                f.name.len() + json + tags + f.description.len() + type_size(&f.ty)
            })
            .sum(),
        TypeRef::Named(n) => n.package.len() + n.type_args.iter().map(type_size).sum::<usize>(),
        TypeRef::Builtin(_) | TypeRef::Interface | TypeRef::Unsupported(_) => 0,
    }
}

fn named(package: String, name: &str, type_args: Vec<TypeRef>) -> TypeRef {
    TypeRef::Named(NamedRef {
        package,
        name: name.to_string(),
        type_args,
    })
}

struct Parser<'a> {
    src: &'a str,
    path: &'a Path,
    file: u32,
    package_path: &'a str,
    toks: Vec<Token>,
    comments: Vec<RawComment>,
    index: CommentIndex,
    pos: usize,
    depth: u32,
    imports: ImportNames,
    known_consts: HashMap<String, KnownConst>,
    const_specs: Vec<ConstSpec>,
    out: ParsedFile,
    diags: Vec<Diagnostic>,
    gave_up: bool,
    copy_budget: usize,
    budget_exhausted: bool,
}

/// Parses one file. Local type names are resolved to `package_path`.
pub(crate) fn parse(
    path: &Path,
    src: &str,
    file: u32,
    package_path: &str,
) -> (ParsedFile, Vec<Diagnostic>) {
    let (out, diags, _) = parse_with_specs(path, src, file, package_path);
    (out, diags)
}

/// [`parse`], also returning where each constant's value comes from, in declaration order.
pub(crate) fn parse_with_specs(
    path: &Path,
    src: &str,
    file: u32,
    package_path: &str,
) -> (ParsedFile, Vec<Diagnostic>, Vec<ConstSpec>) {
    let mut out = ParsedFile {
        path: path.to_path_buf(),
        ..ParsedFile::default()
    };
    if u32::try_from(src.len()).is_err() {
        let d = Diagnostic::error(format!("{}: file too large to parse", path.display()), None);
        return (out, vec![d], Vec::new());
    }
    let Lexed {
        tokens,
        comments,
        errors,
    } = lex(src);
    let index = CommentIndex::build(&comments, &tokens);
    // Everything above the first token (the package clause) is package documentation.
    let head = comments.partition_point(|c| c.token_index == 0);
    out.doc = comment_lines(src, &comments[..head], file);
    out.build_constraint = comments[..head].iter().find_map(|c| {
        let text = &src[c.start as usize..c.end as usize];
        let rest = text.strip_prefix("//go:build")?;
        (rest.is_empty() || rest.starts_with([' ', '\t'])).then(|| rest.trim().to_string())
    });
    let mut p = Parser {
        src,
        path,
        file,
        package_path,
        toks: tokens,
        comments,
        index,
        pos: 0,
        depth: 0,
        imports: ImportNames::default(),
        known_consts: HashMap::new(),
        const_specs: Vec::new(),
        out,
        diags: Vec::new(),
        gave_up: false,
        copy_budget: src.len().saturating_mul(16).saturating_add(1 << 20),
        budget_exhausted: false,
    };
    for e in errors {
        p.push_diag(e.message, e.start as usize, e.len as usize, e.line, e.col);
    }
    p.file_body();
    (p.out, p.diags, p.const_specs)
}

fn describe(src: &str, t: Token) -> String {
    let text = &src[t.start as usize..t.end as usize];
    match t.kind {
        Kind::AutoSemi if t.start == t.end && t.start as usize == src.len() => "'EOF'".into(),
        Kind::AutoSemi => "newline".into(),
        Kind::Eof => "'EOF'".into(),
        Kind::Ident
        | Kind::Int
        | Kind::Float
        | Kind::Imag
        | Kind::Rune
        | Kind::Str
        | Kind::RawStr => {
            let mut shown: String = text.chars().take(40).collect();
            if shown.len() < text.len() {
                shown.push('…');
            }
            shown
        }
        _ => format!("'{text}'"),
    }
}

impl Parser<'_> {
    // ---- token access -------------------------------------------------------------

    fn tok(&self) -> Token {
        self.tok_at(self.pos)
    }

    /// The token at `i`, or the final `Eof` past the end.
    fn tok_at(&self, i: usize) -> Token {
        // `lex` always ends the stream with `Eof`, so the vector is never empty.
        self.toks[i.min(self.toks.len() - 1)]
    }

    fn kind(&self) -> Kind {
        self.tok().kind
    }

    fn kind_at(&self, i: usize) -> Kind {
        self.tok_at(i).kind
    }

    fn advance(&mut self) {
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
    }

    fn text(&self, t: Token) -> &str {
        &self.src[t.start as usize..t.end as usize]
    }

    fn loc(&self, t: Token) -> Loc {
        Loc {
            file: self.file,
            line: t.line,
            col: t.col,
            offset: t.start,
        }
    }

    fn expected(&self, what: &str) -> SyntaxError {
        SyntaxError {
            at: self.pos,
            message: format!("expected {what}, found {}", describe(self.src, self.tok())),
        }
    }

    fn expect(&mut self, kind: Kind, what: &str) -> PResult<Token> {
        let t = self.tok();
        if t.kind != kind {
            return Err(self.expected(what));
        }
        self.advance();
        Ok(t)
    }

    /// True when token `i` is a declaration keyword in column 1 right after a `;`: in
    /// gofmt'ed code that always starts a new top-level declaration, so skipping stops
    /// there even when brackets before it are unbalanced.
    fn starts_top_level_decl(&self, i: usize) -> bool {
        let t = self.tok_at(i);
        t.col == 1
            && i > 0
            && matches!(
                t.kind,
                Kind::Type | Kind::Const | Kind::Var | Kind::Func | Kind::Import
            )
            && self.toks[i - 1].kind.is_semi()
    }

    // ---- diagnostics --------------------------------------------------------------

    fn push_diag(&mut self, message: String, start: usize, len: usize, line: u32, col: u32) {
        if self.diags.len() >= MAX_DIAGNOSTICS {
            if !self.gave_up {
                self.gave_up = true;
                self.diags.push(Diagnostic::error(
                    format!("{}: too many errors", self.path.display()),
                    None,
                ));
            }
            return;
        }
        let line_start = self.src[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.src[start..]
            .find('\n')
            .map_or(self.src.len(), |i| start + i);
        let line_text = self.src[line_start..line_end].trim_end_matches('\r');
        let len = len.min(line_end - start).max(1);
        let span = SourceSpan {
            path: self.path.to_path_buf(),
            line,
            col,
            len: len as u32,
            line_text: line_text.to_string(),
            text_start: kdv_model::TextStart::default(),
        };
        self.diags.push(Diagnostic::error(message, Some(span)));
    }

    fn report_at_token(&mut self, at: usize, message: String) {
        let t = self.tok_at(at);
        let len = (t.end - t.start) as usize;
        self.push_diag(message, t.start as usize, len, t.line, t.col);
    }

    fn report(&mut self, e: SyntaxError) {
        self.report_at_token(e.at, e.message);
    }

    /// Moves to the next token that can start a top-level declaration: a declaration
    /// keyword right after a `;`, either outside all brackets opened since `start` or in
    /// column 1 (which also recovers from unbalanced brackets in gofmt'ed code).
    fn recover(&mut self, start: usize, at: usize) {
        let mut depth: i64 = 0;
        let from = at.max(start + 1);
        for t in &self.toks[start..from.min(self.toks.len())] {
            depth += i64::from(t.kind.is_open()) - i64::from(t.kind.is_close());
        }
        let mut i = from;
        while i < self.toks.len() {
            let t = self.toks[i];
            if t.kind == Kind::Eof {
                break;
            }
            let decl = matches!(
                t.kind,
                Kind::Type | Kind::Const | Kind::Var | Kind::Func | Kind::Import
            );
            if decl && self.toks[i - 1].kind.is_semi() && (depth <= 0 || t.col == 1) {
                break;
            }
            depth += i64::from(t.kind.is_open()) - i64::from(t.kind.is_close());
            i += 1;
        }
        self.pos = i.min(self.toks.len() - 1);
    }

    // ---- file structure -----------------------------------------------------------

    fn file_body(&mut self) {
        if self.kind() == Kind::Package {
            self.advance();
            match self.expect(Kind::Ident, "package name") {
                Ok(t) => {
                    self.out.package_name = self.text(t).to_string();
                    self.out.package_loc = Some(self.loc(t));
                    if let Err(e) = self.expect_decl_end() {
                        self.report(e);
                        self.recover(self.pos, self.pos);
                    }
                }
                Err(e) => {
                    self.report(e);
                    self.recover(self.pos, self.pos);
                }
            }
        } else {
            let e = self.expected("'package'");
            self.report(e);
        }
        while !self.gave_up {
            let start = self.pos;
            let result = match self.kind() {
                Kind::Eof => break,
                Kind::Semi | Kind::AutoSemi => {
                    self.advance();
                    continue;
                }
                Kind::Import => self.import_decl(),
                Kind::Type => self.type_decl(),
                Kind::Const => self.const_decl(),
                Kind::Var => self.var_decl(),
                Kind::Func => self.func_decl(),
                _ => Err(self.expected("declaration")),
            };
            if let Err(e) = result.and_then(|()| self.expect_decl_end()) {
                let at = e.at;
                self.report(e);
                self.recover(start, at);
            }
        }
    }

    fn expect_decl_end(&mut self) -> PResult<()> {
        match self.kind() {
            Kind::Semi | Kind::AutoSemi => {
                self.advance();
                Ok(())
            }
            Kind::Eof => Ok(()),
            _ => Err(self.expected("';'")),
        }
    }

    /// Parses `( spec; spec; ... )` with the `(` current, calling `spec` with the spec's
    /// index in the group.
    fn group(&mut self, mut spec: impl FnMut(&mut Self, usize) -> PResult<()>) -> PResult<()> {
        self.advance();
        let mut index = 0;
        loop {
            match self.kind() {
                Kind::RParen => {
                    self.advance();
                    return Ok(());
                }
                Kind::Eof => return Err(self.expected("')'")),
                _ => {}
            }
            spec(self, index)?;
            index += 1;
            match self.kind() {
                Kind::Semi | Kind::AutoSemi => self.advance(),
                Kind::RParen => {}
                _ => return Err(self.expected("';'")),
            }
        }
    }

    // ---- imports ------------------------------------------------------------------

    fn import_decl(&mut self) -> PResult<()> {
        self.advance();
        if self.kind() == Kind::LParen {
            self.group(|p, _| p.import_spec())
        } else {
            self.import_spec()
        }
    }

    fn import_spec(&mut self) -> PResult<()> {
        let name = match self.kind() {
            Kind::Ident => Some(self.text(self.tok()).to_string()),
            Kind::Dot => Some(".".to_string()),
            _ => None,
        };
        if name.is_some() {
            self.advance();
        }
        let t = self.tok();
        if !matches!(t.kind, Kind::Str | Kind::RawStr) {
            return Err(self.expected("import path"));
        }
        self.advance();
        let path = match unquote(self.text(t)) {
            Ok(path) if !path.is_empty() && !path.contains(['\0', '\\', ' ']) => path,
            _ => {
                self.report_at_token(
                    self.pos - 1,
                    format!("invalid import path: {}", self.text(t)),
                );
                return Ok(());
            }
        };
        let import = Import {
            name,
            path,
            loc: self.loc(t),
        };
        self.imports.add(&import);
        self.out.imports.push(import);
        Ok(())
    }

    // ---- type declarations --------------------------------------------------------

    fn type_decl(&mut self) -> PResult<()> {
        self.advance();
        if self.kind() == Kind::LParen {
            self.group(|p, _| p.type_spec())
        } else {
            self.type_spec()
        }
    }

    fn type_spec(&mut self) -> PResult<()> {
        let name = self.expect(Kind::Ident, "type name")?;
        let mut is_generic = false;
        if self.kind() == Kind::LBrack && self.starts_type_params() {
            self.skip_balanced()?;
            is_generic = true;
        }
        let is_alias = self.kind() == Kind::Assign;
        if is_alias {
            self.advance();
        }
        let def = self.parse_type()?;
        let (doc, second_doc) = self.docs(name);
        self.out.types.push(TypeDecl {
            name: self.text(name).to_string(),
            description: doc.description(),
            tags: doc.tags(),
            detached_tags: second_doc.tags(),
            def,
            is_alias,
            is_generic,
            loc: self.loc(name),
        });
        Ok(())
    }

    fn docs(&mut self, t: Token) -> (Comments, Comments) {
        let closest = self.index.closest(t.line);
        let second = self.index.second_closest(t.line);
        (self.render_doc(closest), self.render_doc(second))
    }

    fn doc(&mut self, t: Token) -> Comments {
        let closest = self.index.closest(t.line);
        self.render_doc(closest)
    }

    fn render_doc(&mut self, group: Option<Group>) -> Comments {
        let Some(g) = group else {
            return Comments::default();
        };
        if !self.charge(g.byte_len(&self.comments)) {
            return Comments::default();
        }
        g.render(self.src, &self.comments, self.file)
    }

    /// Takes `amount` from the copy budget. The model repeats data that the source writes
    /// once (a doc comment shared by `A, B int`, a type shared by several field names, an
    /// expression repeated by a const group); the budget, linear in the input size, keeps
    /// pathological input from costing quadratic time and memory. Real code uses a small
    /// fraction of it.
    fn charge(&mut self, amount: usize) -> bool {
        if amount <= self.copy_budget {
            self.copy_budget -= amount;
            return true;
        }
        if !self.budget_exhausted {
            self.budget_exhausted = true;
            let t = self.tok();
            self.push_diag(
                "declarations repeat too much shared text (doc comments, types or constant \
                 expressions); the rest of the file is read without them"
                    .into(),
                t.start as usize,
                (t.end - t.start) as usize,
                t.line,
                t.col,
            );
        }
        false
    }

    /// With `[` current after a type name: does it open a type parameter list rather than
    /// an array length? Go reads `[N]T` and `[P *C]T` as arrays; an identifier followed by
    /// something that cannot continue an expression (`[T any]`, `[K comparable, V any]`,
    /// `[T ~int]`) is a parameter list.
    fn starts_type_params(&self) -> bool {
        if self.kind_at(self.pos + 1) != Kind::Ident {
            return false;
        }
        !matches!(
            self.kind_at(self.pos + 2),
            Kind::RBrack
                | Kind::Dot
                | Kind::LParen
                | Kind::LBrack
                | Kind::Star
                | Kind::Plus
                | Kind::Minus
                | Kind::Slash
                | Kind::Percent
                | Kind::Shl
                | Kind::Shr
                | Kind::Amp
                | Kind::AndNot
                | Kind::Pipe
                | Kind::Caret
                | Kind::Eql
                | Kind::Neq
                | Kind::Lss
                | Kind::Leq
                | Kind::Gtr
                | Kind::Geq
                | Kind::LAnd
                | Kind::LOr
        )
    }

    // ---- types --------------------------------------------------------------------

    fn parse_type(&mut self) -> PResult<TypeRef> {
        if self.depth >= MAX_TYPE_DEPTH {
            return Err(SyntaxError {
                at: self.pos,
                message: format!("type nesting exceeds the limit of {MAX_TYPE_DEPTH} levels"),
            });
        }
        self.depth += 1;
        let result = self.parse_type_inner();
        self.depth -= 1;
        result
    }

    fn parse_type_inner(&mut self) -> PResult<TypeRef> {
        match self.kind() {
            Kind::Ident => self.type_name(),
            Kind::LParen => {
                self.advance();
                let ty = self.parse_type()?;
                self.expect(Kind::RParen, "')'")?;
                Ok(ty)
            }
            Kind::LBrack => {
                self.advance();
                if self.kind() == Kind::RBrack {
                    self.advance();
                    return Ok(TypeRef::Slice(Box::new(self.parse_type()?)));
                }
                let len = self.array_len()?;
                let elem = Box::new(self.parse_type()?);
                Ok(TypeRef::Array { len, elem })
            }
            Kind::Star => {
                self.advance();
                Ok(TypeRef::Pointer(Box::new(self.parse_type()?)))
            }
            Kind::Map => {
                self.advance();
                self.expect(Kind::LBrack, "'['")?;
                let key = Box::new(self.parse_type()?);
                self.expect(Kind::RBrack, "']'")?;
                let value = Box::new(self.parse_type()?);
                Ok(TypeRef::Map { key, value })
            }
            Kind::Chan => {
                self.advance();
                if self.kind() == Kind::Arrow {
                    self.advance();
                }
                self.parse_type()?;
                Ok(TypeRef::Unsupported("chan".into()))
            }
            Kind::Arrow => {
                self.advance();
                self.expect(Kind::Chan, "'chan'")?;
                self.parse_type()?;
                Ok(TypeRef::Unsupported("chan".into()))
            }
            Kind::Func => {
                self.advance();
                self.signature()?;
                Ok(TypeRef::Unsupported("func".into()))
            }
            Kind::Struct => self.struct_type(),
            Kind::Interface => {
                self.advance();
                if self.kind() != Kind::LBrace {
                    return Err(self.expected("'{'"));
                }
                self.skip_balanced()?;
                Ok(TypeRef::Interface)
            }
            _ => Err(self.expected("type")),
        }
    }

    /// `Name`, `pkg.Name`, either with optional type arguments.
    fn type_name(&mut self) -> PResult<TypeRef> {
        let (_, ty) = self.type_name_with_token()?;
        Ok(ty)
    }

    /// Like [`Self::type_name`], also returning the token of the (last) identifier, which
    /// names an embedded field.
    fn type_name_with_token(&mut self) -> PResult<(Token, TypeRef)> {
        let first_at = self.pos;
        let first = self.expect(Kind::Ident, "type name")?;
        let mut qualifier = None;
        let mut name = first;
        if self.kind() == Kind::Dot {
            self.advance();
            qualifier = Some(first);
            name = self.expect(Kind::Ident, "type name after '.'")?;
        }
        let type_args = if self.kind() == Kind::LBrack {
            self.type_args()?
        } else {
            Vec::new()
        };
        let text = self.text(name);
        let ty = match qualifier {
            Some(q) => {
                let q = self.text(q);
                let path = self.imports.resolve(q);
                if self.imports.lookup(q).is_none() {
                    // Go: "undefined: q". The reference stays, naming a package nobody
                    // loads, so the rules treat it as a type kdv cannot see.
                    let message = format!("undefined: {q} (no import of this file is named {q})");
                    let ty = named(path, text, type_args);
                    self.report_at_token(first_at, message);
                    return Ok((name, ty));
                }
                named(path, text, type_args)
            }
            None => match Builtin::from_name(text) {
                Some(b) => TypeRef::Builtin(b),
                None if text == "comparable" => TypeRef::Interface,
                None => named(self.package_path.to_string(), text, type_args),
            },
        };
        Ok((name, ty))
    }

    fn type_args(&mut self) -> PResult<Vec<TypeRef>> {
        self.advance();
        let mut args = Vec::new();
        loop {
            args.push(self.parse_type()?);
            if self.kind() == Kind::Comma {
                self.advance();
            }
            if self.kind() == Kind::RBrack {
                self.advance();
                return Ok(args);
            }
            if matches!(self.kind(), Kind::Eof | Kind::Semi | Kind::AutoSemi) {
                return Err(self.expected("']'"));
            }
        }
    }

    /// The array length expression after `[`, as source text; consumes the `]`.
    fn array_len(&mut self) -> PResult<String> {
        let start = self.pos;
        let mut depth = 0i64;
        loop {
            let t = self.tok();
            match t.kind {
                Kind::RBrack if depth == 0 => break,
                Kind::Eof => return Err(self.expected("']'")),
                Kind::Semi | Kind::AutoSemi if depth == 0 => return Err(self.expected("']'")),
                k if k.is_open() => depth += 1,
                k if k.is_close() => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(self.expected("']'"));
                    }
                }
                _ => {}
            }
            self.advance();
        }
        let first = self.tok_at(start);
        let last = self.tok_at(self.pos - 1);
        let len = self.src[first.start as usize..last.end as usize].to_string();
        self.advance();
        Ok(len)
    }

    /// A function signature after `func`: parameters and results are skipped.
    fn signature(&mut self) -> PResult<()> {
        if self.kind() != Kind::LParen {
            return Err(self.expected("'('"));
        }
        self.skip_balanced()?;
        match self.kind() {
            Kind::LParen => self.skip_balanced(),
            Kind::Ident
            | Kind::LBrack
            | Kind::Star
            | Kind::Map
            | Kind::Chan
            | Kind::Arrow
            | Kind::Func
            | Kind::Struct
            | Kind::Interface => self.parse_type().map(drop),
            _ => Ok(()),
        }
    }

    /// With an opening bracket current, moves past its matching closer. All bracket kinds
    /// share one counter, which is enough to skip well-formed code and never loops.
    fn skip_balanced(&mut self) -> PResult<()> {
        let closer = match self.kind() {
            Kind::LParen => "')'",
            Kind::LBrack => "']'",
            _ => "'}'",
        };
        let mut depth = 0i64;
        loop {
            let k = self.kind();
            if k == Kind::Eof || self.starts_top_level_decl(self.pos) {
                return Err(self.expected(closer));
            }
            if k.is_open() {
                depth += 1;
            } else if k.is_close() {
                depth -= 1;
            }
            self.advance();
            if depth <= 0 {
                return Ok(());
            }
        }
    }

    // ---- structs ------------------------------------------------------------------

    fn struct_type(&mut self) -> PResult<TypeRef> {
        self.advance();
        self.expect(Kind::LBrace, "'{'")?;
        let mut fields = Vec::new();
        loop {
            match self.kind() {
                Kind::RBrace => {
                    self.advance();
                    return Ok(TypeRef::Struct(StructType { fields }));
                }
                Kind::Eof => return Err(self.expected("'}'")),
                _ => {}
            }
            self.field_decl(&mut fields)?;
            match self.kind() {
                Kind::Semi | Kind::AutoSemi => self.advance(),
                Kind::RBrace => {}
                _ => return Err(self.expected("';'")),
            }
        }
    }

    fn field_decl(&mut self, fields: &mut Vec<Field>) -> PResult<()> {
        let embedded = match self.kind() {
            Kind::Star => true,
            Kind::Ident => match self.kind_at(self.pos + 1) {
                Kind::Dot
                | Kind::Semi
                | Kind::AutoSemi
                | Kind::RBrace
                | Kind::Str
                | Kind::RawStr => true,
                Kind::LBrack => self.brackets_are_type_args(self.pos + 1),
                _ => false,
            },
            Kind::LParen => {
                return Err(SyntaxError {
                    at: self.pos,
                    message: "cannot parenthesize embedded type".into(),
                });
            }
            _ => return Err(self.expected("field name or embedded type")),
        };
        if embedded {
            let pointer = self.kind() == Kind::Star;
            if pointer {
                self.advance();
            }
            let (name, mut ty) = self.type_name_with_token()?;
            if pointer {
                ty = TypeRef::Pointer(Box::new(ty));
            }
            let json = self.field_tag().as_deref().and_then(json_tag);
            let doc = self.doc(name);
            fields.push(Field {
                name: self.text(name).to_string(),
                embedded: true,
                ty,
                json,
                description: doc.description(),
                tags: doc.tags(),
                loc: self.loc(name),
            });
            return Ok(());
        }
        let mut names = vec![self.expect(Kind::Ident, "field name")?];
        while self.kind() == Kind::Comma {
            self.advance();
            names.push(self.expect(Kind::Ident, "field name")?);
        }
        let ty = self.parse_type()?;
        let json = self.field_tag().as_deref().and_then(json_tag);
        let copies = (names.len() - 1).saturating_mul(type_size(&ty));
        if !self.charge(copies) {
            names.truncate(1);
        }
        for name in names {
            let doc = self.doc(name);
            fields.push(Field {
                name: self.text(name).to_string(),
                embedded: false,
                ty: ty.clone(),
                json: json.clone(),
                description: doc.description(),
                tags: doc.tags(),
                loc: self.loc(name),
            });
        }
        Ok(())
    }

    /// `Name[...]` in a struct: type arguments of an embedded generic type when the `]`
    /// ends the field; otherwise `Name [N]T` is a field with an array type.
    fn brackets_are_type_args(&self, open: usize) -> bool {
        if self.kind_at(open + 1) == Kind::RBrack {
            return false;
        }
        let mut depth = 0i64;
        for i in open..self.toks.len() {
            let k = self.toks[i].kind;
            if k.is_open() {
                depth += 1;
            } else if k.is_close() {
                depth -= 1;
                if depth == 0 {
                    return matches!(
                        self.kind_at(i + 1),
                        Kind::Semi | Kind::AutoSemi | Kind::RBrace | Kind::Str | Kind::RawStr
                    );
                }
            } else if k == Kind::Eof || (depth == 1 && k.is_semi()) {
                return false;
            }
        }
        false
    }

    fn field_tag(&mut self) -> Option<String> {
        let t = self.tok();
        if !matches!(t.kind, Kind::Str | Kind::RawStr) {
            return None;
        }
        self.advance();
        match unquote(self.text(t)) {
            Ok(tag) => Some(tag),
            Err(e) => {
                let start = t.start as usize + e.offset;
                let col = t.col + e.offset as u32;
                self.push_diag(
                    format!("invalid struct tag: {}", e.message),
                    start,
                    1,
                    t.line,
                    col,
                );
                None
            }
        }
    }

    // ---- constants ----------------------------------------------------------------

    fn const_decl(&mut self) -> PResult<()> {
        self.advance();
        let mut previous = None;
        if self.kind() == Kind::LParen {
            self.group(|p, iota| p.const_spec(iota as i128, &mut previous))
        } else {
            self.const_spec(0, &mut previous)
        }
    }

    /// One `A, B T = x, y` spec. `previous` carries the last explicit type and expression
    /// list of the group for Go's implicit repetition.
    fn const_spec(&mut self, iota: i128, previous: &mut Option<ConstTemplate>) -> PResult<()> {
        let mut names = vec![self.pos];
        self.expect(Kind::Ident, "constant name")?;
        while self.kind() == Kind::Comma {
            self.advance();
            names.push(self.pos);
            self.expect(Kind::Ident, "constant name")?;
        }
        let declared = match self.kind() {
            Kind::Assign | Kind::Semi | Kind::AutoSemi | Kind::RParen | Kind::Eof => None,
            _ => Some(self.parse_type()?),
        };
        let (ty, exprs) = if self.kind() == Kind::Assign {
            self.advance();
            let exprs = self.expr_list()?;
            *previous = Some(ConstTemplate {
                ty: declared.clone(),
                exprs: exprs.clone(),
            });
            (declared, exprs)
        } else {
            match (&declared, previous.as_ref()) {
                (None, Some(prev)) => (prev.ty.clone(), prev.exprs.clone()),
                _ => {
                    self.report_at_token(
                        self.pos,
                        "missing init expr for const declaration".into(),
                    );
                    return Ok(());
                }
            }
        };
        if exprs.len() > names.len() {
            self.report_at_token(exprs[names.len()].0, "extra init expr".into());
        }
        for (i, name_index) in names.into_iter().enumerate() {
            let name = self.tok_at(name_index);
            let Some(&(from, to)) = exprs.get(i) else {
                self.report_at_token(name_index, "missing init expr for const declaration".into());
                continue;
            };
            let text_len = (self.toks[to - 1].end - self.toks[from].start) as usize;
            let cost = text_len + ty.as_ref().map_or(0, type_size);
            if !self.charge(cost) {
                continue;
            }
            let scope = FileScope {
                imports: &self.imports,
                package_path: self.package_path,
                known: &self.known_consts,
            };
            let (value, inferred) = evaluate(self.src, &self.toks[from..to], iota, &scope);
            let known = declare(value, ty.clone(), inferred, &scope);
            let name_text = self.text(name).to_string();
            if name_text == "_" {
                continue;
            }
            self.known_consts.insert(name_text.clone(), known.clone());
            self.const_specs.push(ConstSpec {
                offset: name.start,
                expr: (self.toks[from].start, self.toks[to - 1].end),
                iota,
                declared: ty.clone(),
            });
            let doc = self.doc(name);
            self.out.consts.push(ConstDecl {
                name: name_text,
                ty: known.ty,
                value: known.value,
                description: doc.description(),
                tags: doc.tags(),
                loc: self.loc(name),
            });
        }
        Ok(())
    }

    /// Comma-separated expressions up to the end of the spec, as token ranges.
    fn expr_list(&mut self) -> PResult<Vec<(usize, usize)>> {
        let mut ranges = Vec::new();
        let mut start = self.pos;
        let mut depth = 0i64;
        loop {
            let k = self.kind();
            let at_end =
                k == Kind::Eof || (depth == 0 && (k.is_semi() || k.is_close() || k == Kind::Comma));
            if at_end {
                if start == self.pos {
                    return Err(self.expected("expression"));
                }
                ranges.push((start, self.pos));
                if k != Kind::Comma {
                    return Ok(ranges);
                }
                self.advance();
                start = self.pos;
                continue;
            }
            if k.is_open() {
                depth += 1;
            } else if k.is_close() {
                depth -= 1;
            }
            self.advance();
        }
    }

    // ---- skipped declarations -----------------------------------------------------

    fn var_decl(&mut self) -> PResult<()> {
        self.advance();
        if self.kind() == Kind::LParen {
            return self.skip_balanced();
        }
        let mut depth = 0i64;
        loop {
            let k = self.kind();
            if k == Kind::Eof || (depth == 0 && (k.is_semi() || k.is_close())) {
                return Ok(());
            }
            if self.starts_top_level_decl(self.pos) {
                return Err(self.expected("';'"));
            }
            if k.is_open() {
                depth += 1;
            } else if k.is_close() {
                depth -= 1;
            }
            self.advance();
        }
    }

    fn func_decl(&mut self) -> PResult<()> {
        self.advance();
        if self.kind() == Kind::LParen {
            self.skip_balanced()?;
        }
        self.expect(Kind::Ident, "function name")?;
        if self.kind() == Kind::LBrack {
            self.skip_balanced()?;
        }
        if self.kind() != Kind::LParen {
            return Err(self.expected("'('"));
        }
        self.skip_balanced()?;
        // Results, then the optional body. Struct and interface literals in the results
        // carry braces of their own.
        loop {
            if self.starts_top_level_decl(self.pos) {
                return Err(self.expected("function body"));
            }
            match self.kind() {
                Kind::LBrace => return self.skip_balanced(),
                Kind::Semi | Kind::AutoSemi | Kind::Eof => return Ok(()),
                Kind::LParen | Kind::LBrack => self.skip_balanced()?,
                Kind::Struct | Kind::Interface => {
                    self.advance();
                    if self.kind() == Kind::LBrace {
                        self.skip_balanced()?;
                    }
                }
                Kind::RParen | Kind::RBrack | Kind::RBrace => {
                    return Err(self.expected("function body"));
                }
                _ => self.advance(),
            }
        }
    }
}

/// The `json` key of a struct tag as the model carries it: `None` when absent or empty
/// (Go's `Tag.Get("json")` returns `""` for both).
pub fn json_tag(tag: &str) -> Option<JsonTag> {
    let value = struct_tag_lookup(tag, "json").filter(|v| !v.is_empty())?;
    let mut parts = value.split(',');
    Some(JsonTag {
        name: parts.next().unwrap_or("").to_string(),
        options: parts.map(str::to_string).collect(),
    })
}

/// Go `reflect.StructTag.Lookup`: finds `key:"value"` in a conventional struct tag and
/// unquotes the value. Malformed tags yield `None`, as in Go.
pub fn struct_tag_lookup<'a>(tag: &'a str, key: &str) -> Option<&'a str> {
    let mut rest = tag;
    loop {
        rest = rest.trim_start_matches(' ');
        if rest.is_empty() {
            return None;
        }
        let name_end = rest
            .find(|c: char| c <= ' ' || c == ':' || c == '"' || c == '\u{7f}')
            .unwrap_or(rest.len());
        if name_end == 0 || !rest[name_end..].starts_with(":\"") {
            return None;
        }
        let name = &rest[..name_end];
        let after = &rest[name_end + 2..];
        // Find the closing quote, skipping escaped characters.
        let bytes = after.as_bytes();
        let mut i = 0;
        while i < bytes.len() && bytes[i] != b'"' {
            if bytes[i] == b'\\' {
                i += 1;
            }
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let value = &after[..i];
        if name == key {
            // Struct tag values in API types never contain escapes; returning the raw text
            // keeps this borrow-only.
            return Some(value);
        }
        rest = &after[i + 1..];
    }
}

#[cfg(test)]
mod struct_tag_tests {
    use super::*;

    #[test]
    fn struct_tags_read_like_go() {
        let tag = r#"json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata""#;
        assert_eq!(
            struct_tag_lookup(tag, "protobuf"),
            Some("bytes,1,opt,name=metadata")
        );
        assert_eq!(struct_tag_lookup(tag, "yaml"), None);
        assert_eq!(struct_tag_lookup("json:\"a", "json"), None);
        let j = json_tag(tag).expect("json tag");
        assert_eq!(
            (j.name.as_str(), &j.options[..]),
            ("metadata", &["omitempty".to_string()][..])
        );
        assert_eq!(json_tag(r#"json:"""#), None);
        assert_eq!(json_tag(r#"protobuf:"x""#), None);
    }
}
