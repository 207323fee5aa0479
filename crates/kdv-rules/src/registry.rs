//! The tag registry: what each `+k8s:` tag accepts (scopes, arguments, payload, stability),
//! its documentation, and the dispatch from a tag name to its lowering function. Docs and
//! lint are generated from [`catalog`].

use std::sync::LazyLock;

use kdv_tags::{Span, Tag, ValueType, go_quote};

use crate::lower::LowerFn;
use crate::tags;

/// Where a tag is written (upstream `Scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// A type declaration.
    Type,
    /// A struct field.
    Field,
    /// The values of a list (through `eachVal`/`item`).
    ListVal,
    /// The keys of a map (through `eachKey`).
    MapKey,
    /// The values of a map (through `eachVal`).
    MapVal,
    /// A constant declaration.
    Const,
}

impl Scope {
    /// Upstream's wording, used in `cannot be specified on <scope>`.
    pub fn description(self) -> &'static str {
        match self {
            Scope::Type => "type definitions",
            Scope::Field => "struct fields",
            Scope::ListVal => "list values",
            Scope::MapKey => "map keys",
            Scope::MapVal => "map values",
            Scope::Const => "constant values",
        }
    }
}

/// Stability level of a tag (its semantics may change while Alpha/Beta).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stability {
    /// Semantics may change.
    Alpha,
    /// Semantics will not change incompatibly; may still be refined.
    Beta,
    /// Semantics are fixed.
    Stable,
}

impl Stability {
    /// The stability context of a package: its version (last path element) decides —
    /// `alpha` or `beta` in it, else Stable (upstream's lint `validationStability`; also the
    /// alpha/beta API exemption of `+k8s:declarativeValidationNative`).
    pub(crate) fn of_package(package: &str) -> Stability {
        let version = package.rsplit('/').next().unwrap_or(package);
        if version.contains("alpha") {
            Stability::Alpha
        } else if version.contains("beta") {
            Stability::Beta
        } else {
            Stability::Stable
        }
    }

    /// `Alpha`, `Beta` or `Stable`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stability::Alpha => "Alpha",
            Stability::Beta => "Beta",
            Stability::Stable => "Stable",
        }
    }
}

/// One documented argument of a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgDoc {
    /// Argument name; empty for the positional argument.
    pub name: &'static str,
    /// `String`, `Int` or `Bool`.
    pub ty: ValueType,
    /// The argument must be given.
    pub required: bool,
    /// What the argument means.
    pub description: &'static str,
}

/// Everything the registry knows about a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagDoc {
    /// Full tag name, e.g. `k8s:minimum`.
    pub name: &'static str,
    /// Stability of the tag's semantics.
    pub stability: Stability,
    /// Where the tag may be written.
    pub scopes: &'static [Scope],
    /// Documented arguments.
    pub args: &'static [ArgDoc],
    /// Arguments with undocumented names are accepted (`k8s:item`).
    pub accepts_unknown_args: bool,
    /// Payload type (`ValueType::None` when the tag takes no value).
    pub payload: ValueType,
    /// The payload must be given.
    pub payload_required: bool,
    /// What the payload means.
    pub payload_description: &'static str,
    /// One-paragraph description.
    pub description: &'static str,
    /// An example use, as written in a Go comment.
    pub example: &'static str,
    /// `None` for upstream validation-gen's tags; for a kdv extension (a tag upstream lacks,
    /// specified by the design documents), the seed section that specifies it. `kdv lint
    /// --upstream` reports every use of an extension.
    pub extension: Option<&'static str>,
}

impl TagDoc {
    /// The documented argument called `name` (empty = positional).
    pub fn arg(&self, name: &str) -> Option<&ArgDoc> {
        self.args.iter().find(|a| a.name == name)
    }

    /// Whether this is a kdv extension (see [`TagDoc::extension`]).
    pub fn is_extension(&self) -> bool {
        self.extension.is_some()
    }
}

/// Shorthand for the scope list most value tags share.
pub(crate) const VALUE_SCOPES: &[Scope] = &[
    Scope::Type,
    Scope::Field,
    Scope::ListVal,
    Scope::MapKey,
    Scope::MapVal,
];

/// A registered tag: its documentation and its lowering.
pub(crate) struct TagDef {
    /// Scopes, signature, stability and documentation.
    pub doc: TagDoc,
    /// Turns one use of the tag into IR.
    pub lower: LowerFn,
}

/// Every tag family (`crate::tags`); the catalog and the dispatch are both built from this
/// one list.
const FAMILIES: &[&[TagDef]] = &[
    tags::custom_validation::TAGS,
    tags::dependencies::TAGS,
    tags::each::TAGS,
    tags::enums::TAGS,
    tags::equality::TAGS,
    tags::format::TAGS,
    tags::immutable::TAGS,
    tags::item::TAGS,
    tags::levels::TAGS,
    tags::limits::TAGS,
    tags::lists::TAGS,
    tags::modes::TAGS,
    tags::native::TAGS,
    tags::opaque::TAGS,
    tags::options::TAGS,
    tags::pattern::TAGS,
    tags::required::TAGS,
    tags::subfield::TAGS,
    tags::subresources::TAGS,
    tags::testing::TAGS,
    tags::unions::TAGS,
    tags::update::TAGS,
    tags::defaults::TAGS,
    tags::virtual_fields::TAGS,
];

/// Every registered tag, sorted by name (built once from [`FAMILIES`]).
static REGISTERED: LazyLock<Vec<&'static TagDef>> = LazyLock::new(|| {
    let mut all: Vec<&'static TagDef> = FAMILIES.iter().flat_map(|f| f.iter()).collect();
    all.sort_by_key(|d| d.doc.name);
    all
});

/// The documentation of every registered tag, sorted by name.
static CATALOG: LazyLock<Vec<TagDoc>> =
    LazyLock::new(|| REGISTERED.iter().map(|d| d.doc).collect());

/// Every registered tag, sorted by name.
pub fn catalog() -> &'static [TagDoc] {
    &CATALOG
}

fn registered(name: &str) -> Option<&'static TagDef> {
    let all: &[&'static TagDef] = &REGISTERED;
    all.binary_search_by(|d| d.doc.name.cmp(name))
        .ok()
        .map(|i| all[i])
}

/// The documentation of a registered tag.
pub fn tag_doc(name: &str) -> Option<&'static TagDoc> {
    registered(name).map(|d| &d.doc)
}

/// Whether `name` is a registered validation tag.
pub fn is_known_tag(name: &str) -> bool {
    registered(name).is_some()
}

/// The current name of a tag: `name` itself, or the name an older spelling stands for
/// (`k8s:ifOptionEnabled` → `k8s:ifEnabled`).
pub fn canonical_name(name: &str) -> &str {
    current_name_of(name).unwrap_or(name)
}

/// The current name an older spelling stands for, if `name` is one.
pub fn current_name_of(name: &str) -> Option<&'static str> {
    tags::options::ALIASES
        .iter()
        .find(|(old, _)| *old == name)
        .map(|(_, new)| *new)
}

/// The lowering function of a registered tag.
pub(crate) fn lower_fn(name: &str) -> Option<LowerFn> {
    registered(name).map(|d| d.lower)
}

/// Upstream `typeCheck`: the tag's arguments and value against its documented signature.
/// Arguments are rendered as upstream's `%q` of a `codetags.Arg` prints them
/// ([`kdv_tags::Arg::to_go_string`]).
pub(crate) fn type_check(tag: &Tag, doc: &TagDoc) -> Result<(), (String, Span)> {
    for doc_arg in doc.args {
        let found = tag
            .args
            .iter()
            .find(|a| a.name.as_deref().unwrap_or("") == doc_arg.name);
        match found {
            Some(arg) => {
                let got = arg.value.value_type();
                if got != doc_arg.ty {
                    return Err((
                        format!(
                            "argument {} has wrong type: got {}, want {}",
                            arg.to_go_string(),
                            got.as_str(),
                            doc_arg.ty.as_str()
                        ),
                        arg.span,
                    ));
                }
            }
            None if doc_arg.required => {
                let msg = if doc_arg.name.is_empty() {
                    format!(
                        "missing required positional argument of type {}",
                        doc_arg.ty.as_str()
                    )
                } else {
                    format!(
                        "missing named argument {} of type {}",
                        go_quote(doc_arg.name),
                        doc_arg.ty.as_str()
                    )
                };
                return Err((msg, tag.name_span));
            }
            None => {}
        }
    }
    for arg in &tag.args {
        let name = arg.name.as_deref().unwrap_or("");
        if doc.arg(name).is_none() && !doc.accepts_unknown_args {
            return Err((
                format!("unrecognized named argument {}", arg.to_go_string()),
                arg.span,
            ));
        }
    }
    let value_type = tag.value_type();
    if value_type == ValueType::None {
        if doc.payload_required {
            return Err((
                format!(
                    "missing required tag value of type {}",
                    doc.payload.as_str()
                ),
                tag.name_span,
            ));
        }
    } else if doc.payload != ValueType::Raw && value_type != doc.payload {
        return Err((
            format!(
                "tag value has wrong type: got {}, want {}",
                value_type.as_str(),
                doc.payload.as_str()
            ),
            tag.value_span.unwrap_or(tag.name_span),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_is_sorted_and_dispatchable() {
        let names: Vec<&str> = catalog().iter().map(|d| d.name).collect();
        assert_eq!(names.len(), 60);
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        sorted.dedup();
        assert_eq!(names.len(), sorted.len());
        for d in catalog() {
            assert!(lower_fn(d.name).is_some(), "{} has no lowering", d.name);
            assert!(!d.scopes.is_empty(), "{}", d.name);
            assert!(!d.description.is_empty(), "{}", d.name);
            assert!(d.example.contains(d.name), "{}", d.name);
        }
    }

    #[test]
    fn type_check_messages() {
        let doc = *tag_doc("k8s:minimum").expect("registered");
        let tag = kdv_tags::parse_tag("k8s:minimum").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "missing required tag value of type int"
        );
        let tag = kdv_tags::parse_tag("k8s:minimum=\"x\"").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "tag value has wrong type: got string, want int"
        );
        let tag = kdv_tags::parse_tag("k8s:minimum(x)=1").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "unrecognized named argument \"x\""
        );
        let doc = *tag_doc("k8s:subfield").expect("registered");
        let tag = kdv_tags::parse_tag("k8s:subfield=+k8s:required").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "missing required positional argument of type string"
        );
        let tag = kdv_tags::parse_tag("k8s:subfield(1)=+k8s:required").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "argument 1 has wrong type: got int, want string"
        );
        let doc = *tag_doc("k8s:validateFalse").expect("registered");
        let tag = kdv_tags::parse_tag("k8s:validateFalse(flags: 1)").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "argument flags: 1 has wrong type: got int, want string"
        );
    }
}
