//! The Rust type frontend: Rust items into kdv's type model ([`kdv_model::Package`]), so the
//! registry and rule IR (`kdv-rules`) lower the `+k8s:` tags of Rust types exactly as they
//! lower those of Go types. It is the frontend of `#[derive(Validate)]` (through `kdv-codegen`)
//! and of `kdv --types FILE.rs`, and reads no files: callers hand it a file's text.
//!
//! [`from_items`] reads one Rust source file (the items of one module) and maps:
//!
//! - structs with named fields → struct types; `struct X(T);` (a newtype) → a type
//!   definition `type X T`; unit-only enums → a string type definition plus one constant
//!   per variant, valued with the variant's JSON spelling (serde `rename`/`rename_all`);
//!   enums of one-value variants (serde's default, externally tagged form
//!   `{"httpGet": {...}}`) → a union: a struct with one optional member per variant, each
//!   tagged `+k8s:unionMember` (the tags located at the variant);
//!   `&str` constants of an inherent `impl` of a newtype of `String`
//!   (`impl Kind { pub const BASIC: &str = "Basic"; }`) → constants of that type (the
//!   members of a `+k8s:enum` newtype, which, unlike a unit enum, holds any string);
//! - `/// +k8s:…` doc lines on a struct, enum, newtype, field or variant → its tag lines,
//!   located at the `+k8s:` text (file, line, byte column, offset); other doc lines → its
//!   description; `//! +…` inner doc lines of the file → package tags (such as
//!   `+k8s:validation-gen=…` and `+groupName=…`, which Go writes in `doc.go`);
//! - `Option<T>` → a pointer `*T` (an optional, nil-able value), except that an optional
//!   list or map, or of a newtype of one, stays that list, map or newtype (Go's slices
//!   and maps are nil-able already, and validation-gen has no pointers to them); `Box<T>`
//!   → `T`; `Vec<T>` → `[]T`; `BTreeMap<String, T>`/`HashMap<String, T>` →
//!   `map[string]T`; `String`, `bool`, `i8`…`i64`, `isize`, `u8`…`u64`, `usize`, `f32`,
//!   `f64` → Go's `string`, `bool`, `int8`…`int64`, `int`, `uint8`…`uint64`, `uint`,
//!   `float32`, `float64`; `serde_json::Value` → `any`; a type declared in the same file →
//!   a named reference;
//! - serde attributes → the field's JSON tag as Go writes it: the name is the field's
//!   (raw identifier unescaped) after `rename_all`, or its `rename`; `skip_serializing_if`
//!   → `omitempty`; `skip`/`skip_deserializing` → `json:"-"` (never decoded); `flatten` →
//!   an embedded field (`json:",inline"`, named after its type, as Go embeds `TypeMeta`).
//!   `default` changes nothing: Go's decoder leaves every absent field at its zero value.
//!
//! Field names are Go's exported spelling of the Rust identifier (`storage_class` →
//! `StorageClass`, `uid` → `Uid`): the model decodes only exported fields, and every serde
//! field is decoded. The name matters where upstream uses the Go field name, as the default
//! discriminator value of a `+k8s:unionMember` (`http_get` → `HttpGet`; write
//! `+k8s:unionMember(memberName: "HTTPGet")` for another). Constants are named by their
//! Rust path (`Tier::Basic`).
//!
//! Anything else (generics, tuple structs of several fields, other enums with data:
//! internally or adjacently tagged, untagged, or with unit or struct variants; references,
//! paths to other modules, `char`, `Vec<u8>`, serde attributes that change the JSON shape
//! such as `with` or `tag`) is reported as a [`Diagnostic`] at its span; the item or field
//! is then left out, or its type recorded as [`TypeRef::Unsupported`]. The reader never
//! panics and never fails as a whole (a file that does not parse yields an empty package
//! and the parse error).
//!
//! [`go_field_name`] is the field-name mapping above, for callers. With
//! [`ReadOptions::external_types`], a type of another module is read as a named type of unknown
//! shape (Go's `any`: only type-independent tags apply to it). [`parse_file`] (lexing, nesting
//! bounded by [`MAX_NESTING`] before syn's recursive parser, parsing) is the one way the reader,
//! `kdv-codegen` and `kdv-derive` parse a file.

#![warn(missing_docs)]

mod case;
mod serde_attrs;

use std::collections::BTreeSet;
use std::path::PathBuf;

use kdv_model::{
    Builtin, CommentLine, Comments, ConstDecl, ConstValue, Diagnostic, Field, JsonTag, Loc,
    NamedRef, Package, SourceFile, SourceSpan, StructType, Tags, TypeDecl, TypeRef,
};
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;

use crate::case::pascal_from_snake;
use crate::serde_attrs::{ContainerAttrs, FieldAttrs, VariantAttrs};

/// The model's (Go) name of a Rust field: `storage_class` → `StorageClass`, `r#type` →
/// `Type` (give the identifier without `r#`).
pub fn go_field_name(ident: &str) -> String {
    pascal_from_snake(ident)
}

/// What [`from_items`] read: the package, and every diagnostic found on the way.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// The package holding the file's types and constants.
    pub package: Package,
    /// Unsupported constructs and parse errors, each at its span.
    pub diagnostics: Vec<Diagnostic>,
    /// The types of other modules or crates the file's types use ([`ReadOptions`]).
    pub external: Vec<ExternalType>,
}

/// How [`from_items_with`] reads a file.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// Accept types declared elsewhere (a path such as `common::Condition` or a name the
    /// file does not declare): each becomes a type of unknown shape (Go's `any`), whose
    /// values only type-independent tags can check. Off, they are diagnostics.
    pub external_types: bool,
}

/// A type declared outside the file, as [`ReadOptions::external_types`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalType {
    /// Its name in the package.
    pub name: String,
    /// The Rust path as written (`common::Condition`).
    pub path: String,
}

impl Loaded {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == kdv_model::Severity::Error)
    }

    /// The package when nothing was reported, else the diagnostics.
    pub fn into_result(self) -> Result<Package, Vec<Diagnostic>> {
        if self.diagnostics.is_empty() {
            Ok(self.package)
        } else {
            Err(self.diagnostics)
        }
    }
}

/// Reads the Rust items of `source` (the text of file `file`) into a package whose import
/// path and name are the file's stem (`types.rs` → `types`). See the crate documentation
/// for what is read and how; see [`from_items_in`] to choose the package path.
pub fn from_items(file: &str, source: &str) -> Loaded {
    let stem = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    from_items_in(&stem, &stem, file, source)
}

/// [`from_items`] into the package with import path `package_path` and name
/// `package_name` (the path qualifies the named references between its types).
pub fn from_items_in(package_path: &str, package_name: &str, file: &str, source: &str) -> Loaded {
    from_items_with(
        package_path,
        package_name,
        file,
        source,
        &ReadOptions::default(),
    )
}

/// [`from_items_in`] with options.
pub fn from_items_with(
    package_path: &str,
    package_name: &str,
    file: &str,
    source: &str,
    options: &ReadOptions,
) -> Loaded {
    let mut r = Reader {
        options: *options,
        external: Vec::new(),
        file: SourceFile {
            path: PathBuf::from(file),
            text: source.to_string(),
        },
        line_starts: line_starts(source),
        package_path: package_path.to_string(),
        local: BTreeSet::new(),
        nilable_newtypes: BTreeSet::new(),
        diagnostics: Vec::new(),
    };
    let mut package = Package {
        path: package_path.to_string(),
        name: package_name.to_string(),
        ..Package::default()
    };
    let parsed = match parse_file(source) {
        Ok(parsed) => Ok(parsed),
        Err(ParseError::Syntax(e)) => Err(e),
        Err(ParseError::Tokens { message, span }) => {
            let span = r.span(span);
            r.diagnostics.push(Diagnostic::error(message, span));
            package.files.push(r.file);
            return Loaded {
                package,
                diagnostics: r.diagnostics,
                external: Vec::new(),
            };
        }
    };
    match parsed {
        Ok(parsed) => r.read_file(&parsed, &mut package),
        Err(e) => {
            for e in e {
                let span = r.span(e.span());
                r.diagnostics.push(Diagnostic::error(e.to_string(), span));
            }
        }
    }
    for ext in &r.external {
        package.types.push(TypeDecl {
            name: ext.name.clone(),
            description: String::new(),
            tags: Tags::default(),
            detached_tags: Tags::default(),
            def: TypeRef::Builtin(Builtin::Any),
            is_alias: false,
            is_generic: false,
            loc: Loc::default(),
        });
    }
    package.files.push(r.file);
    Loaded {
        package,
        diagnostics: r.diagnostics,
        external: r.external,
    }
}

/// How deeply brackets and generic arguments may nest in a file the reader parses.
pub const MAX_NESTING: usize = 64;

/// Why a file does not parse ([`parse_file`]).
#[derive(Debug)]
pub enum ParseError {
    /// It is not Rust tokens, or they nest deeper than [`MAX_NESTING`]: the message and where.
    Tokens {
        /// What is wrong.
        message: String,
        /// Where.
        span: Span,
    },
    /// syn's errors.
    Syntax(syn::Error),
}

/// Parses a Rust file as the reader and `#[derive(Validate)]` do: lexed first (proc-macro2
/// locates lexical errors, syn's own message would not), the nesting bounded before syn, whose
/// parser recurses on nested types and groups, then parsed.
pub fn parse_file(source: &str) -> Result<syn::File, ParseError> {
    let tokens = source
        .parse::<proc_macro2::TokenStream>()
        .map_err(|e| ParseError::Tokens {
            message: format!("cannot read the file as Rust tokens: {e}"),
            span: e.span(),
        })?;
    if let Some(span) = too_deep(tokens.clone()) {
        return Err(ParseError::Tokens {
            message: format!(
                "nesting deeper than {MAX_NESTING} levels (brackets or generic arguments) is not supported"
            ),
            span,
        });
    }
    syn::parse2::<syn::File>(tokens).map_err(ParseError::Syntax)
}

/// Where the token stream nests brackets (groups) and `<`…`>` deeper than
/// [`MAX_NESTING`] (generic arguments counted by their angle brackets), if it does.
pub fn too_deep(tokens: proc_macro2::TokenStream) -> Option<Span> {
    // Iterative: the check must not recurse on what it bounds.
    let mut stack = vec![(tokens.into_iter(), 0usize)];
    loop {
        let groups = stack.len();
        let (iter, angles) = stack.last_mut()?;
        let Some(tt) = iter.next() else {
            stack.pop();
            continue;
        };
        match tt {
            proc_macro2::TokenTree::Group(g) => {
                if groups + *angles > MAX_NESTING {
                    return Some(g.span());
                }
                let a = *angles;
                stack.push((g.stream().into_iter(), a));
            }
            proc_macro2::TokenTree::Punct(p) if p.as_char() == '<' => {
                *angles += 1;
                if groups + *angles > MAX_NESTING {
                    return Some(p.span());
                }
            }
            proc_macro2::TokenTree::Punct(p) if p.as_char() == '>' => {
                *angles = angles.saturating_sub(1);
            }
            _ => {}
        }
    }
}

/// Byte offsets at which each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

struct Reader {
    options: ReadOptions,
    /// Types of other modules met so far (with `options.external_types`).
    external: Vec<ExternalType>,
    file: SourceFile,
    line_starts: Vec<usize>,
    package_path: String,
    /// Names of the types the file declares.
    local: BTreeSet<String>,
    /// Newtypes of a list or a map (directly or through other such newtypes): Go's
    /// `type L []T`, nil-able already, so `Option<L>` is `L` itself.
    nilable_newtypes: BTreeSet<String>,
    diagnostics: Vec<Diagnostic>,
}

impl Reader {
    /// The location of proc-macro2's line/column (the column counts characters) as a
    /// model [`Loc`] (the column counts bytes).
    fn loc(&self, at: proc_macro2::LineColumn) -> Loc {
        let line_idx = at.line.saturating_sub(1);
        let Some(&start) = self.line_starts.get(line_idx) else {
            return Loc {
                file: 0,
                line: at.line as u32,
                col: at.column as u32 + 1,
                offset: 0,
            };
        };
        let rest = self.file.text.get(start..).unwrap_or("");
        let byte_col = rest
            .char_indices()
            .nth(at.column)
            .map_or(rest.len(), |(i, _)| i);
        Loc {
            file: 0,
            line: at.line as u32,
            col: byte_col as u32 + 1,
            offset: (start + byte_col) as u32,
        }
    }

    /// The source span of a syntax span (its first line).
    fn span(&self, span: Span) -> Option<SourceSpan> {
        let start = self.loc(span.start());
        let end = self.loc(span.end());
        let len = if end.line == start.line {
            end.offset.saturating_sub(start.offset).max(1)
        } else {
            1
        };
        Some(SourceSpan::from_loc(&self.file, start, len))
    }

    fn error(&mut self, message: impl Into<String>, span: Span) {
        let span = self.span(span);
        self.diagnostics.push(Diagnostic::error(message, span));
    }

    /// The source text of `span`.
    fn text(&self, span: Span) -> String {
        let a = self.loc(span.start()).offset as usize;
        let b = self.loc(span.end()).offset as usize;
        self.file.text.get(a..b).unwrap_or("").to_string()
    }

    fn read_file(&mut self, file: &syn::File, package: &mut Package) {
        package.tags = self.doc_lines(&file.attrs, true).tags();
        for item in &file.items {
            match item {
                syn::Item::Struct(s) => {
                    self.local.insert(s.ident.unraw().to_string());
                }
                syn::Item::Enum(e) => {
                    self.local.insert(e.ident.unraw().to_string());
                }
                _ => {}
            }
        }
        self.nilable_newtypes = nilable_newtypes(file);
        for item in &file.items {
            match item {
                syn::Item::Struct(s) => {
                    if let Some(decl) = self.read_struct(s) {
                        package.types.push(decl);
                    }
                }
                syn::Item::Enum(e) => {
                    if let Some((decl, consts)) = self.read_enum(e) {
                        package.types.push(decl);
                        package.consts.extend(consts);
                    }
                }
                syn::Item::Impl(i) => package.consts.extend(self.read_impl_consts(i, file)),
                // `use` items, functions, impls, modules and the rest declare no types of
                // this package.
                _ => {}
            }
        }
    }

    /// The doc lines of `attrs` of one style (outer `///`, or inner `//!` when `inner`), in
    /// order.
    fn doc_lines(&self, attrs: &[syn::Attribute], inner: bool) -> Comments {
        let mut out = Vec::new();
        for attr in attrs {
            if matches!(attr.style, syn::AttrStyle::Inner(_)) != inner
                || !attr.path().is_ident("doc")
            {
                continue;
            }
            let syn::Meta::NameValue(nv) = &attr.meta else {
                continue;
            };
            let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            else {
                continue;
            };
            let value = s.value();
            let start = self.loc(attr.span().start());
            let at = start.offset as usize;
            let src = self.file.text.get(at..).unwrap_or("");
            // A `///` or `//!` line holds the doc text verbatim after its 3-byte marker;
            // other forms (`/** */`, `#[doc = ".."]`) are located at the attribute.
            let line_doc = (src.starts_with("///") || src.starts_with("//!"))
                && src[3..].starts_with(value.as_str());
            if line_doc {
                out.push(CommentLine {
                    text: value,
                    loc: Loc {
                        col: start.col + 3,
                        offset: start.offset + 3,
                        ..start
                    },
                });
            } else {
                for l in value.lines() {
                    out.push(CommentLine {
                        text: l.to_string(),
                        loc: start,
                    });
                }
            }
        }
        Comments { lines: out }
    }

    fn docs(&self, attrs: &[syn::Attribute]) -> (String, Tags) {
        let comments = self.doc_lines(attrs, false);
        (comments.description(), comments.tags())
    }

    fn read_struct(&mut self, s: &syn::ItemStruct) -> Option<TypeDecl> {
        let name = s.ident.unraw().to_string();
        if !s.generics.params.is_empty() {
            self.error(
                format!("type {name}: generic types are not supported"),
                s.generics.span(),
            );
            return None;
        }
        let attrs = ContainerAttrs::read(&s.attrs, &mut |m, sp| self.error(m, sp));
        if let Some(sp) = attrs.enum_only {
            self.error(
                format!("type {name}: this serde attribute applies to enums only"),
                sp,
            );
        }
        let (description, tags) = self.docs(&s.attrs);
        let loc = self.loc(s.ident.span().start());
        let def = match &s.fields {
            syn::Fields::Named(named) => {
                let mut fields = Vec::new();
                for f in &named.named {
                    if let Some(field) = self.read_field(f, &attrs) {
                        fields.push(field);
                    }
                }
                TypeRef::Struct(StructType { fields })
            }
            syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                let f = &u.unnamed[0];
                self.ty(&f.ty)
            }
            syn::Fields::Unnamed(u) => {
                self.error(
                    format!(
                        "type {name}: tuple structs of {} fields are not supported (serde writes them as JSON arrays)",
                        u.unnamed.len()
                    ),
                    u.span(),
                );
                return None;
            }
            syn::Fields::Unit => {
                self.error(
                    format!(
                        "type {name}: unit structs are not supported (serde writes them as null)"
                    ),
                    s.ident.span(),
                );
                return None;
            }
        };
        Some(TypeDecl {
            name,
            description,
            tags,
            detached_tags: Tags::default(),
            def,
            is_alias: false,
            is_generic: false,
            loc,
        })
    }

    fn read_field(&mut self, f: &syn::Field, container: &ContainerAttrs) -> Option<Field> {
        let ident = f.ident.as_ref()?.unraw().to_string();
        let attrs = FieldAttrs::read(&f.attrs, &mut |m, sp| self.error(m, sp));
        let (description, tags) = self.docs(&f.attrs);
        let loc = self.loc(f.ident.as_ref().map_or(f.span(), |i| i.span()).start());
        if attrs.skip {
            // Never decoded: the type does not matter (and need not be supported).
            return Some(Field {
                name: pascal_from_snake(&ident),
                embedded: false,
                ty: TypeRef::Unsupported(self.text(f.ty.span())),
                json: Some(JsonTag {
                    name: "-".into(),
                    options: Vec::new(),
                }),
                description,
                tags,
                loc,
            });
        }
        if attrs.flatten {
            let ty = self.ty(&f.ty);
            let named = match &ty {
                TypeRef::Named(n) => Some(n.name.clone()),
                TypeRef::Unsupported(_) => return None,
                _ => None,
            };
            let Some(type_name) = named else {
                self.error(
                    format!(
                        "field {ident}: #[serde(flatten)] is supported on a struct type of this file only (as Go embeds one)"
                    ),
                    f.ty.span(),
                );
                return None;
            };
            return Some(Field {
                name: type_name,
                embedded: true,
                ty,
                json: Some(JsonTag {
                    name: String::new(),
                    options: vec!["inline".into()],
                }),
                description,
                tags,
                loc,
            });
        }
        let json_name = match (&attrs.rename, container.rename_all) {
            (Some(n), _) => n.clone(),
            (None, Some(rule)) => rule.field(&ident),
            (None, None) => ident.clone(),
        };
        let mut options = Vec::new();
        if attrs.skip_serializing_if {
            options.push("omitempty".to_string());
        }
        Some(Field {
            name: pascal_from_snake(&ident),
            embedded: false,
            ty: self.ty(&f.ty),
            json: Some(JsonTag {
                name: json_name,
                options,
            }),
            description,
            tags,
            loc,
        })
    }

    fn read_enum(&mut self, e: &syn::ItemEnum) -> Option<(TypeDecl, Vec<ConstDecl>)> {
        let name = e.ident.unraw().to_string();
        if !e.generics.params.is_empty() {
            self.error(
                format!("type {name}: generic types are not supported"),
                e.generics.span(),
            );
            return None;
        }
        let attrs = ContainerAttrs::read(&e.attrs, &mut |m, sp| self.error(m, sp));
        if let Some(sp) = attrs.enum_only {
            self.error(
                format!(
                    "type {name}: internally or adjacently tagged and untagged enums have no Kubernetes shape kdv maps (unit-only enums are strings; enums of one-value variants, serde's default form, are unions)"
                ),
                sp,
            );
            return None;
        }
        let (description, tags) = self.docs(&e.attrs);
        let loc = self.loc(e.ident.span().start());
        if e.variants
            .iter()
            .any(|v| !matches!(v.fields, syn::Fields::Unit))
        {
            let def = self.read_union_enum(&name, e, &attrs)?;
            return Some((
                TypeDecl {
                    name,
                    description,
                    tags,
                    detached_tags: Tags::default(),
                    def,
                    is_alias: false,
                    is_generic: false,
                    loc,
                },
                Vec::new(),
            ));
        }
        let mut consts = Vec::new();
        let mut ok = true;
        for v in &e.variants {
            let variant = v.ident.unraw().to_string();
            if !matches!(v.fields, syn::Fields::Unit) {
                self.error(
                    format!(
                        "type {name}: variant {variant} carries data; only unit-only enums (written as strings) are supported"
                    ),
                    v.span(),
                );
                ok = false;
                continue;
            }
            let va = VariantAttrs::read(&v.attrs, &mut |m, sp| self.error(m, sp));
            if va.skip {
                continue;
            }
            let value = match (&va.rename, attrs.rename_all) {
                (Some(n), _) => n.clone(),
                (None, Some(rule)) => rule.variant(&variant),
                (None, None) => variant.clone(),
            };
            let (description, tags) = self.docs(&v.attrs);
            consts.push(ConstDecl {
                name: format!("{name}::{variant}"),
                ty: Some(TypeRef::Named(NamedRef {
                    package: self.package_path.clone(),
                    name: name.clone(),
                    type_args: Vec::new(),
                })),
                value: ConstValue::String(value),
                description,
                tags,
                loc: self.loc(v.ident.span().start()),
            });
        }
        if !ok {
            return None;
        }
        let decl = TypeDecl {
            name,
            description,
            tags,
            detached_tags: Tags::default(),
            def: TypeRef::Builtin(Builtin::String),
            is_alias: false,
            is_generic: false,
            loc,
        };
        Some((decl, consts))
    }

    /// An enum whose variants each hold one value (serde's externally tagged form,
    /// `{"variant": value}`) as Kubernetes writes a union: a struct with one optional member
    /// per variant, exactly one of which is set (`+k8s:unionMember`, `+k8s:optional` on
    /// each, added to the variant's own tags).
    fn read_union_enum(
        &mut self,
        name: &str,
        e: &syn::ItemEnum,
        attrs: &ContainerAttrs,
    ) -> Option<TypeRef> {
        let mut fields = Vec::new();
        let mut ok = true;
        for v in &e.variants {
            let variant = v.ident.unraw().to_string();
            let va = VariantAttrs::read(&v.attrs, &mut |m, sp| self.error(m, sp));
            if va.skip {
                continue;
            }
            let syn::Fields::Unnamed(u) = &v.fields else {
                self.error(
                    format!(
                        "type {name}: variant {variant} must hold one value (`{variant}(Type)`): serde writes an enum of such variants as {{\"variant\": value}}, a Kubernetes union; unit and struct variants have no such shape"
                    ),
                    v.span(),
                );
                ok = false;
                continue;
            };
            if u.unnamed.len() != 1 {
                self.error(
                    format!("type {name}: variant {variant} must hold exactly one value"),
                    u.span(),
                );
                ok = false;
                continue;
            }
            let json = match (&va.rename, attrs.rename_all) {
                (Some(n), _) => n.clone(),
                (None, Some(rule)) => rule.variant(&variant),
                (None, None) => variant.clone(),
            };
            let loc = self.loc(v.ident.span().start());
            let mut comments = self.doc_lines(&v.attrs, false);
            // The union's member tags, located at the variant (they are implied by the enum).
            for implied in [" +k8s:optional", " +k8s:unionMember"] {
                if !comments
                    .lines
                    .iter()
                    .any(|l| l.text.trim_start().starts_with(implied.trim_start()))
                {
                    comments.lines.push(CommentLine {
                        text: implied.to_string(),
                        loc,
                    });
                }
            }
            let ty = match self.ty(&u.unnamed[0].ty) {
                t @ (TypeRef::Slice(_) | TypeRef::Map { .. } | TypeRef::Unsupported(_)) => t,
                t => TypeRef::Pointer(Box::new(t)),
            };
            fields.push(Field {
                name: variant,
                embedded: false,
                ty,
                json: Some(JsonTag {
                    name: json,
                    options: vec!["omitempty".to_string()],
                }),
                description: comments.description(),
                tags: comments.tags(),
                loc,
            });
        }
        ok.then_some(TypeRef::Struct(StructType { fields }))
    }

    /// The string constants of an inherent `impl` of a newtype of `String`
    /// (`impl Kind { pub const BASIC: &str = "Basic"; }`): Go's `const Basic Kind = "Basic"`,
    /// the members of a `+k8s:enum` newtype whose values serde cannot restrict (any string
    /// deserializes, as in Go). Other impls and items declare no constants of the package.
    fn read_impl_consts(&mut self, i: &syn::ItemImpl, file: &syn::File) -> Vec<ConstDecl> {
        if i.trait_.is_some() || !i.generics.params.is_empty() {
            return Vec::new();
        }
        let syn::Type::Path(p) = &*i.self_ty else {
            return Vec::new();
        };
        let Some(name) = p.path.get_ident().map(|n| n.unraw().to_string()) else {
            return Vec::new();
        };
        let string_newtype = file.items.iter().any(|it| {
            matches!(it, syn::Item::Struct(s)
                if s.ident == name
                    && matches!(&s.fields, syn::Fields::Unnamed(u)
                        if u.unnamed.len() == 1
                            && matches!(&u.unnamed[0].ty, syn::Type::Path(t) if t.path.is_ident("String"))))
        });
        if !string_newtype {
            return Vec::new();
        }
        let mut out = Vec::new();
        for item in &i.items {
            let syn::ImplItem::Const(c) = item else {
                continue;
            };
            let is_str = matches!(&c.ty, syn::Type::Reference(r)
                if r.mutability.is_none()
                    && matches!(&*r.elem, syn::Type::Path(t) if t.path.is_ident("str")));
            let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(value),
                ..
            }) = &c.expr
            else {
                continue;
            };
            if !is_str {
                continue;
            }
            let (description, tags) = self.docs(&c.attrs);
            out.push(ConstDecl {
                name: format!("{name}::{}", c.ident.unraw()),
                ty: Some(TypeRef::Named(NamedRef {
                    package: self.package_path.clone(),
                    name: name.clone(),
                    type_args: Vec::new(),
                })),
                value: ConstValue::String(value.value()),
                description,
                tags,
                loc: self.loc(c.ident.span().start()),
            });
        }
        out
    }

    /// The model type of a Rust type, or [`TypeRef::Unsupported`] with a diagnostic.
    fn ty(&mut self, ty: &syn::Type) -> TypeRef {
        match ty {
            syn::Type::Path(p) if p.qself.is_none() => self.path_ty(p),
            syn::Type::Paren(p) => self.ty(&p.elem),
            syn::Type::Group(g) => self.ty(&g.elem),
            _ => self.unsupported(ty.span(), "only named types are supported here"),
        }
    }

    fn unsupported(&mut self, span: Span, why: &str) -> TypeRef {
        let text = self.text(span);
        self.error(format!("unsupported type `{text}`: {why}"), span);
        TypeRef::Unsupported(text)
    }

    fn path_ty(&mut self, p: &syn::TypePath) -> TypeRef {
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.unraw().to_string())
            .collect();
        let Some(last) = p.path.segments.last() else {
            return self.unsupported(p.span(), "empty path");
        };
        let name = last.ident.unraw().to_string();
        let prefix: Vec<&str> = segs[..segs.len() - 1].iter().map(String::as_str).collect();
        let std_prefix = p.path.leading_colon.is_none() && prefix.is_empty()
            || matches!(prefix.first(), Some(&("std" | "alloc" | "core")));
        // A type of this file (a bare name) shadows the standard names.
        if prefix.is_empty() && p.path.leading_colon.is_none() && self.local.contains(&name) {
            if !last.arguments.is_none() {
                return self.unsupported(p.span(), "generic types are not supported");
            }
            return TypeRef::Named(NamedRef {
                package: self.package_path.clone(),
                name,
                type_args: Vec::new(),
            });
        }
        if (prefix.is_empty() || prefix == ["serde_json"]) && name == "Value" {
            return TypeRef::Builtin(Builtin::Any);
        }
        if !std_prefix {
            return self.external_or_unsupported(p, &segs);
        }
        if let Some(b) = scalar(&name) {
            if !last.arguments.is_none() {
                return self.unsupported(p.span(), "unexpected type arguments");
            }
            return TypeRef::Builtin(b);
        }
        let args = match &last.arguments {
            syn::PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .filter_map(|g| match g {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        };
        match (name.as_str(), args.as_slice()) {
            ("Option", [inner]) => match self.ty(inner) {
                t @ (TypeRef::Slice(_) | TypeRef::Map { .. } | TypeRef::Unsupported(_)) => t,
                TypeRef::Named(n)
                    if n.package == self.package_path
                        && self.nilable_newtypes.contains(&n.name) =>
                {
                    TypeRef::Named(n)
                }
                TypeRef::Pointer(_) => self.unsupported(
                    p.span(),
                    "an Option of an Option has no JSON shape of its own",
                ),
                t => TypeRef::Pointer(Box::new(t)),
            },
            ("Box", [inner]) => self.ty(inner),
            ("Vec", [inner]) => {
                if let syn::Type::Path(ip) = inner
                    && ip.path.is_ident("u8")
                {
                    return self.unsupported(
                        p.span(),
                        "serde writes Vec<u8> as an array of numbers, Go's []byte as base64",
                    );
                }
                TypeRef::Slice(Box::new(self.ty(inner)))
            }
            ("BTreeMap" | "HashMap", [key, value]) => {
                let key_ok = matches!(key, syn::Type::Path(kp) if kp.qself.is_none() && kp.path.is_ident("String"));
                if !key_ok {
                    return self.unsupported(p.span(), "map keys must be String");
                }
                TypeRef::Map {
                    key: Box::new(TypeRef::Builtin(Builtin::String)),
                    value: Box::new(self.ty(value)),
                }
            }
            ("i128" | "u128", _) => {
                self.unsupported(p.span(), "128-bit integers have no Go counterpart")
            }
            ("char", _) => self.unsupported(
                p.span(),
                "serde writes char as a string, Go's rune is a number",
            ),
            _ => self.external_or_unsupported(p, &segs),
        }
    }

    /// A type declared elsewhere: external with [`ReadOptions::external_types`], else a
    /// diagnostic.
    fn external_or_unsupported(&mut self, p: &syn::TypePath, segs: &[String]) -> TypeRef {
        let generic = p.path.segments.iter().any(|s| !s.arguments.is_none());
        if !self.options.external_types || generic {
            return self.unsupported(
                p.span(),
                "only types declared in this file and standard types are supported",
            );
        }
        let path = segs.join("::");
        let last = segs.last().cloned().unwrap_or_default();
        let name = match self.external.iter().find(|e| e.path == path) {
            Some(e) => e.name.clone(),
            None => {
                let taken =
                    self.local.contains(&last) || self.external.iter().any(|e| e.name == last);
                let name = if taken { segs.join("_") } else { last };
                self.external.push(ExternalType {
                    name: name.clone(),
                    path,
                });
                name
            }
        };
        TypeRef::Named(NamedRef {
            package: self.package_path.clone(),
            name,
            type_args: Vec::new(),
        })
    }
}

/// The newtypes of `file` that wrap a list or a map (`Vec`, `BTreeMap`, `HashMap`, an
/// `Option` or `Box` of one, or another such newtype of the file).
fn nilable_newtypes(file: &syn::File) -> BTreeSet<String> {
    let newtypes: Vec<(String, &syn::Type)> = file
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Struct(s) => match &s.fields {
                syn::Fields::Unnamed(u) if u.unnamed.len() == 1 && s.generics.params.is_empty() => {
                    Some((s.ident.unraw().to_string(), &u.unnamed[0].ty))
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    let mut found = BTreeSet::new();
    // Each pass adds the newtypes of newtypes found so far; a pass adding none ends it.
    loop {
        let before = found.len();
        for (name, ty) in &newtypes {
            if !found.contains(name) && wraps_collection(ty, &found) {
                found.insert(name.clone());
            }
        }
        if found.len() == before {
            return found;
        }
    }
}

/// Whether `ty` is a list or a map, or a newtype in `known` (through `Option` and `Box`).
fn wraps_collection(ty: &syn::Type, known: &BTreeSet<String>) -> bool {
    let syn::Type::Path(p) = ty else {
        return false;
    };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    let name = last.ident.unraw().to_string();
    match name.as_str() {
        "Vec" | "BTreeMap" | "HashMap" => true,
        "Option" | "Box" => match &last.arguments {
            syn::PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .any(|g| matches!(g, syn::GenericArgument::Type(t) if wraps_collection(t, known))),
            _ => false,
        },
        _ => p.path.segments.len() == 1 && known.contains(&name),
    }
}

/// The Go predeclared type of a Rust scalar.
fn scalar(name: &str) -> Option<Builtin> {
    Some(match name {
        "String" => Builtin::String,
        "bool" => Builtin::Bool,
        "i8" => Builtin::Int8,
        "i16" => Builtin::Int16,
        "i32" => Builtin::Int32,
        "i64" => Builtin::Int64,
        "isize" => Builtin::Int,
        "u8" => Builtin::Uint8,
        "u16" => Builtin::Uint16,
        "u32" => Builtin::Uint32,
        "u64" => Builtin::Uint64,
        "usize" => Builtin::Uint,
        "f32" => Builtin::Float32,
        "f64" => Builtin::Float64,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
