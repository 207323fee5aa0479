//! The `#[serde(...)]` attributes the frontend understands, per position (container,
//! field, variant). An attribute that would change the JSON shape in a way the model cannot
//! express is reported; one that does not affect how JSON is decoded is accepted.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use crate::case::RenameRule;

/// Reports a message at a span.
pub(crate) type Report<'a> = dyn FnMut(String, Span) + 'a;

/// Container attributes of a struct or enum.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    pub rename_all: Option<RenameRule>,
    /// Where an enum representation attribute (`tag`, `content`, `untagged`) is written.
    pub enum_only: Option<Span>,
}

/// Attributes of a struct field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub rename: Option<String>,
    pub skip: bool,
    pub skip_serializing_if: bool,
    pub flatten: bool,
}

/// Attributes of an enum variant.
#[derive(Default)]
pub(crate) struct VariantAttrs {
    pub rename: Option<String>,
    pub skip: bool,
}

/// Calls `each` for every item of every `#[serde(...)]` attribute, reporting parse errors.
fn for_each_serde(
    attrs: &[syn::Attribute],
    report: &mut Report<'_>,
    mut each: impl FnMut(&ParseNestedMeta<'_>, &str, &mut Report<'_>) -> syn::Result<()>,
) {
    for attr in attrs {
        if !attr.path().is_ident("serde") {
            continue;
        }
        let res = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            each(&meta, &key, report)
        });
        if let Err(e) = res {
            report(format!("invalid serde attribute: {e}"), e.span());
        }
    }
}

/// Skips the value of an attribute item we accept without reading (`= ...` or `(...)`).
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|m| skip_value(&m))?;
    }
    Ok(())
}

/// A string value: `= "x"`.
fn string_value(meta: &ParseNestedMeta<'_>) -> syn::Result<String> {
    let s: syn::LitStr = meta.value()?.parse()?;
    Ok(s.value())
}

/// A name given as `= "x"` or as `(serialize = "a", deserialize = "b")`: what the JSON
/// input is read with is the deserialize name (`None` when only a serialize name is given).
fn name_value(meta: &ParseNestedMeta<'_>, report: &mut Report<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        return string_value(meta).map(Some);
    }
    let mut de = None;
    let mut ser = None;
    meta.parse_nested_meta(|m| {
        if m.path.is_ident("deserialize") {
            de = Some(string_value(&m)?);
        } else if m.path.is_ident("serialize") {
            ser = Some(string_value(&m)?);
        } else {
            return Err(m.error("expected `serialize` or `deserialize`"));
        }
        Ok(())
    })?;
    if let (Some(d), Some(s)) = (&de, &ser)
        && d != s
    {
        report(
            format!(
                "serialize name {s:?} and deserialize name {d:?} differ; inputs are read with {d:?}"
            ),
            meta.path.span(),
        );
    }
    Ok(de.or(ser))
}

fn unsupported(meta: &ParseNestedMeta<'_>, key: &str, report: &mut Report<'_>) -> syn::Result<()> {
    report(
        format!(
            "serde attribute `{key}` is not supported: kdv cannot tell the JSON shape it gives"
        ),
        meta.path.span(),
    );
    skip_value(meta)
}

impl ContainerAttrs {
    pub(crate) fn read(attrs: &[syn::Attribute], report: &mut Report<'_>) -> ContainerAttrs {
        let mut out = ContainerAttrs::default();
        for_each_serde(attrs, report, |meta, key, report| {
            match key {
                "rename_all" => {
                    let span = meta.path.span();
                    if let Some(name) = name_value(meta, report)? {
                        match RenameRule::from_name(&name) {
                            Some(r) => out.rename_all = Some(r),
                            None => report(format!("unknown rename_all rule {name:?}"), span),
                        }
                    }
                    Ok(())
                }
                "tag" | "content" | "untagged" => {
                    out.enum_only.get_or_insert(meta.path.span());
                    skip_value(meta)
                }
                // No effect on how JSON input is read, or only on the type's Rust-side
                // name (`rename`) and defaults of absent fields (Go's zero values).
                "rename" | "deny_unknown_fields" | "default" | "bound" | "crate" | "expecting" => {
                    skip_value(meta)
                }
                _ => unsupported(meta, key, report),
            }
        });
        out
    }
}

impl FieldAttrs {
    pub(crate) fn read(attrs: &[syn::Attribute], report: &mut Report<'_>) -> FieldAttrs {
        let mut out = FieldAttrs::default();
        for_each_serde(attrs, report, |meta, key, report| match key {
            "rename" => {
                if let Some(n) = name_value(meta, report)? {
                    out.rename = Some(n);
                }
                Ok(())
            }
            "skip" | "skip_deserializing" => {
                out.skip = true;
                Ok(())
            }
            "skip_serializing_if" => {
                out.skip_serializing_if = true;
                skip_value(meta)
            }
            "flatten" => {
                out.flatten = true;
                Ok(())
            }
            "default" | "bound" | "borrow" => skip_value(meta),
            _ => unsupported(meta, key, report),
        });
        out
    }
}

impl VariantAttrs {
    pub(crate) fn read(attrs: &[syn::Attribute], report: &mut Report<'_>) -> VariantAttrs {
        let mut out = VariantAttrs::default();
        for_each_serde(attrs, report, |meta, key, report| match key {
            "rename" => {
                if let Some(n) = name_value(meta, report)? {
                    out.rename = Some(n);
                }
                Ok(())
            }
            "skip" | "skip_deserializing" => {
                out.skip = true;
                Ok(())
            }
            _ => unsupported(meta, key, report),
        });
        out
    }
}
