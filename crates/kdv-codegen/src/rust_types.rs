//! The Rust side of the type model: for each type of the file, what generated code needs to
//! reach its values (field identifiers and types, newtype payloads, enum variants and their
//! JSON spellings), keyed by the names the type model uses (Go field names).

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use kdv_model::{ConstValue, Package};
use syn::ext::IdentExt;
use syn::spanned::Spanned;

/// One named field of a struct.
#[derive(Debug, Clone)]
pub struct RustField {
    /// The Rust identifier (as written, raw identifiers included).
    pub ident: syn::Ident,
    /// The field's type.
    pub ty: syn::Type,
    /// The model's (Go) field name.
    pub go_name: String,
    /// The JSON name (none for flattened or skipped fields).
    pub json: Option<String>,
    /// `omitempty` (`skip_serializing_if`).
    pub omitempty: bool,
    /// `#[serde(flatten)]`.
    pub flatten: bool,
    /// `#[serde(skip)]` and the like: never serialized.
    pub skip: bool,
    /// `#[serde(skip_deserializing)]` alone: skipped on input, still serialized.
    pub serialized_though_skipped: bool,
    /// The function of `#[serde(skip_serializing_if = "...")]`.
    pub skip_if: Option<syn::ExprPath>,
}

/// What a type of the file is, on the Rust side.
#[derive(Debug, Clone)]
pub enum RustKind {
    /// A struct with named fields.
    Struct(Vec<RustField>),
    /// `struct X(T)`.
    Newtype(Box<syn::Type>),
    /// A unit-only enum: each variant with its JSON spelling.
    Enum(Vec<(syn::Ident, String)>),
    /// An enum of one-value variants (a Kubernetes union): each variant as a member whose
    /// type is the variant's value type.
    Union(Vec<RustField>),
}

/// The types of one file.
#[derive(Debug, Clone, Default)]
pub struct RustTypes {
    types: BTreeMap<String, (RustKind, RangeInclusive<usize>)>,
}

/// The string value of `#[serde(word = "...")]`, parsed as a path.
fn serde_path_value(attrs: &[syn::Attribute], word: &str) -> Option<syn::ExprPath> {
    let mut found = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|m| {
            if m.input.peek(syn::Token![=]) {
                let value: syn::Expr = m.value()?.parse()?;
                if m.path.is_ident(word)
                    && let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = &value
                {
                    found = s.parse().ok();
                }
            } else if m.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in m.input);
            }
            Ok(())
        });
    }
    found
}

fn has_serde_word(attrs: &[syn::Attribute], word: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
        .any(|a| {
            let mut found = false;
            let _ = a.parse_nested_meta(|m| {
                if m.path.is_ident(word) {
                    found = true;
                }
                // Skip the value of `key = value` items.
                if m.input.peek(syn::Token![=]) {
                    let _: syn::Expr = m.value()?.parse()?;
                } else if m.input.peek(syn::token::Paren) {
                    let _content;
                    syn::parenthesized!(_content in m.input);
                }
                Ok(())
            });
            found
        })
}

impl RustTypes {
    /// Reads the top-level structs and enums of a file.
    pub fn read(file: &syn::File) -> RustTypes {
        let mut types = BTreeMap::new();
        for item in &file.items {
            let lines = item.span().start().line..=item.span().end().line;
            match item {
                syn::Item::Struct(s) => {
                    let name = s.ident.unraw().to_string();
                    let kind = match &s.fields {
                        syn::Fields::Named(named) => RustKind::Struct(
                            named
                                .named
                                .iter()
                                .filter_map(|f| {
                                    let ident = f.ident.clone()?;
                                    let flatten = has_serde_word(&f.attrs, "flatten");
                                    let skip_ser = has_serde_word(&f.attrs, "skip")
                                        || has_serde_word(&f.attrs, "skip_serializing");
                                    let skip_de = has_serde_word(&f.attrs, "skip_deserializing");
                                    let skip = skip_ser || skip_de;
                                    let go_name = if flatten {
                                        type_name(&f.ty).unwrap_or_default()
                                    } else {
                                        kdv_rust_model::go_field_name(&ident.unraw().to_string())
                                    };
                                    Some(RustField {
                                        ident,
                                        ty: f.ty.clone(),
                                        go_name,
                                        json: None,
                                        omitempty: false,
                                        flatten,
                                        skip,
                                        serialized_though_skipped: skip_de && !skip_ser,
                                        skip_if: serde_path_value(&f.attrs, "skip_serializing_if"),
                                    })
                                })
                                .collect(),
                        ),
                        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                            RustKind::Newtype(Box::new(u.unnamed[0].ty.clone()))
                        }
                        _ => continue,
                    };
                    types.insert(name, (kind, lines));
                }
                syn::Item::Enum(e)
                    if e.variants
                        .iter()
                        .any(|v| !matches!(v.fields, syn::Fields::Unit)) =>
                {
                    let name = e.ident.unraw().to_string();
                    let members = e
                        .variants
                        .iter()
                        .filter_map(|v| {
                            let syn::Fields::Unnamed(u) = &v.fields else {
                                return None;
                            };
                            let ty = u.unnamed.first()?.ty.clone();
                            Some(RustField {
                                ident: v.ident.clone(),
                                ty,
                                go_name: v.ident.unraw().to_string(),
                                json: None,
                                omitempty: true,
                                flatten: false,
                                skip: has_serde_word(&v.attrs, "skip"),
                                serialized_though_skipped: false,
                                skip_if: None,
                            })
                        })
                        .collect();
                    types.insert(name, (RustKind::Union(members), lines));
                }
                syn::Item::Enum(e) => {
                    let name = e.ident.unraw().to_string();
                    let variants = e
                        .variants
                        .iter()
                        .map(|v| (v.ident.clone(), String::new()))
                        .collect();
                    types.insert(name, (RustKind::Enum(variants), lines));
                }
                _ => {}
            }
        }
        RustTypes { types }
    }

    /// Adds what the model read from serde attributes: JSON names and options of fields,
    /// JSON spellings of enum variants.
    pub fn add_model(&mut self, package: &Package) {
        for (name, (kind, _)) in self.types.iter_mut() {
            match kind {
                RustKind::Struct(fields) | RustKind::Union(fields) => {
                    let Some(decl) = package.type_decl(name) else {
                        continue;
                    };
                    let kdv_model::TypeRef::Struct(st) = &decl.def else {
                        continue;
                    };
                    for f in fields.iter_mut() {
                        if let Some(m) = st.fields.iter().find(|m| m.name == f.go_name) {
                            f.json = m.json_name().map(str::to_string);
                            f.omitempty = m
                                .json
                                .as_ref()
                                .is_some_and(|j| j.options.iter().any(|o| o == "omitempty"));
                        }
                    }
                }
                RustKind::Enum(variants) => {
                    for (ident, json) in variants.iter_mut() {
                        let const_name = format!("{name}::{}", ident.unraw());
                        if let Some(c) = package.consts.iter().find(|c| c.name == const_name)
                            && let ConstValue::String(s) = &c.value
                        {
                            *json = s.clone();
                        }
                    }
                }
                RustKind::Newtype(_) => {}
            }
        }
    }

    /// The kind of type `name`.
    pub fn kind(&self, name: &str) -> Option<&RustKind> {
        self.types.get(name).map(|(k, _)| k)
    }

    /// The lines type `name` spans (with its attributes and doc comments).
    pub fn lines_of(&self, name: &str) -> Option<RangeInclusive<usize>> {
        self.types.get(name).map(|(_, l)| l.clone())
    }

    /// The field of struct `ty` with Go name `go_name` (for a newtype of a struct, the
    /// field of the struct it wraps).
    pub fn field(&self, ty: &str, go_name: &str) -> Option<&RustField> {
        match self.kind(self.struct_behind(ty)?)? {
            RustKind::Struct(fields) | RustKind::Union(fields) => {
                fields.iter().find(|f| f.go_name == go_name)
            }
            _ => None,
        }
    }

    /// The struct that holds the fields of type `ty`: `ty` itself for a struct, the
    /// wrapped struct for a newtype of a struct (`struct W(Inner)`, Go's `type W Inner`,
    /// through any number of newtypes).
    pub fn struct_behind<'a>(&'a self, mut ty: &'a str) -> Option<&'a str> {
        // Each step follows a newtype; a cycle of newtypes is not a valid Rust type, but
        // the bound keeps a malformed input from looping.
        for _ in 0..=self.types.len() {
            match self.types.get_key_value(ty)? {
                (name, (RustKind::Struct(_) | RustKind::Union(_), _)) => {
                    return Some(name.as_str());
                }
                (_, (RustKind::Newtype(inner), _)) => {
                    let next = type_name(inner)?;
                    ty = self.types.get_key_value(next.as_str())?.0.as_str();
                }
                _ => return None,
            }
        }
        None
    }
}

/// The name of a plain path type (`Meta`, `crate::x::Meta` → `Meta`).
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.unraw().to_string()),
        _ => None,
    }
}
