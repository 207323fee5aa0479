//! The tag registry: what each `+k8s:` tag accepts (scopes, arguments, payload, stability),
//! its documentation, and the dispatch from a tag name to its lowering function. Docs and
//! lint are generated from [`catalog`].

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
}

impl TagDoc {
    /// The documented argument called `name` (empty = positional).
    pub fn arg(&self, name: &str) -> Option<&ArgDoc> {
        self.args.iter().find(|a| a.name == name)
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

/// Every registered tag, sorted by name.
pub fn catalog() -> &'static [TagDoc] {
    &CATALOG
}

/// The documentation of a registered tag.
pub fn tag_doc(name: &str) -> Option<&'static TagDoc> {
    CATALOG.iter().find(|d| d.name == name)
}

/// Whether `name` is a registered validation tag.
pub fn is_known_tag(name: &str) -> bool {
    tag_doc(name).is_some()
}

static CATALOG: [TagDoc; 45] = [
    tags::levels::ALPHA,
    tags::levels::BETA,
    tags::custom_unique::DOC,
    tags::custom_validation::DOC,
    tags::dependent_forbidden::DOC,
    tags::dependent_required::DOC,
    tags::each_key::DOC,
    tags::each_val::DOC,
    tags::enumeration::DOC,
    tags::enum_exclude::DOC,
    tags::forbidden::DOC,
    tags::format::DOC,
    tags::options::IF_DISABLED,
    tags::options::IF_ENABLED,
    tags::if_mode::DOC,
    tags::immutable::DOC,
    tags::item::DOC,
    tags::list_map_key::DOC,
    tags::list_type::DOC,
    tags::max_bytes::DOC,
    tags::max_items::DOC,
    tags::max_length::DOC,
    tags::max_properties::DOC,
    tags::maximum::DOC,
    tags::min_items::DOC,
    tags::min_length::DOC,
    tags::min_properties::DOC,
    tags::minimum::DOC,
    tags::mode_discriminator::DOC,
    tags::monotonic::DOC,
    tags::neq::DOC,
    tags::opaque::DOC,
    tags::optional::DOC,
    tags::required::DOC,
    tags::subfield::DOC,
    tags::union_discriminator::DOC,
    tags::union_member::DOC,
    tags::unique::DOC,
    tags::update::DOC,
    tags::testing::VALIDATE_ERROR,
    tags::testing::VALIDATE_FALSE,
    tags::testing::VALIDATE_TRUE,
    tags::testing::VALIDATE_TRUE_ALPHA,
    tags::testing::VALIDATE_TRUE_BETA,
    tags::zero_or_one_of_member::DOC,
];

/// The lowering function of a registered tag.
pub(crate) fn lower_fn(name: &str) -> Option<LowerFn> {
    Some(match name {
        "k8s:alpha" => tags::levels::lower_alpha,
        "k8s:beta" => tags::levels::lower_beta,
        "k8s:customUnique" => tags::custom_unique::lower,
        "k8s:eachKey" => tags::each_key::lower,
        "k8s:eachVal" => tags::each_val::lower,
        "k8s:enum" => tags::enumeration::lower,
        "k8s:enumExclude" => tags::enum_exclude::lower,
        "k8s:forbidden" => tags::forbidden::lower,
        "k8s:format" => tags::format::lower,
        "k8s:ifDisabled" => tags::options::lower_if_disabled,
        "k8s:ifEnabled" => tags::options::lower_if_enabled,
        "k8s:immutable" => tags::immutable::lower,
        "k8s:listMapKey" => tags::list_map_key::lower,
        "k8s:listType" => tags::list_type::lower,
        "k8s:maxBytes" => tags::max_bytes::lower,
        "k8s:maxItems" => tags::max_items::lower,
        "k8s:maxLength" => tags::max_length::lower,
        "k8s:maxProperties" => tags::max_properties::lower,
        "k8s:maximum" => tags::maximum::lower,
        "k8s:minItems" => tags::min_items::lower,
        "k8s:minLength" => tags::min_length::lower,
        "k8s:minProperties" => tags::min_properties::lower,
        "k8s:minimum" => tags::minimum::lower,
        "k8s:neq" => tags::neq::lower,
        "k8s:opaqueType" => tags::opaque::lower,
        "k8s:optional" => tags::optional::lower,
        "k8s:required" => tags::required::lower,
        "k8s:subfield" => tags::subfield::lower,
        "k8s:unique" => tags::unique::lower,
        "k8s:update" => tags::update::lower,
        "k8s:monotonic" => tags::monotonic::lower,
        "k8s:validateError" => tags::testing::lower_validate_error,
        "k8s:validateFalse" => tags::testing::lower_validate_false,
        "k8s:validateTrue" | "k8s:validateTrueAlpha" | "k8s:validateTrueBeta" => {
            tags::testing::lower_validate_true
        }
        "k8s:customValidation" => tags::custom_validation::lower,
        "k8s:dependentForbidden" => tags::dependent_forbidden::lower,
        "k8s:dependentRequired" => tags::dependent_required::lower,
        "k8s:ifMode" => tags::if_mode::lower,
        "k8s:item" => tags::item::lower,
        "k8s:modeDiscriminator" => tags::mode_discriminator::lower,
        "k8s:unionDiscriminator" => tags::union_discriminator::lower,
        "k8s:unionMember" => tags::union_member::lower,
        "k8s:zeroOrOneOfMember" => tags::zero_or_one_of_member::lower,
        _ => return None,
    })
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
        let doc = tags::minimum::DOC;
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
        let doc = tags::subfield::DOC;
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
        let doc = tags::testing::VALIDATE_FALSE;
        let tag = kdv_tags::parse_tag("k8s:validateFalse(flags: 1)").unwrap();
        assert_eq!(
            type_check(&tag, &doc).unwrap_err().0,
            "argument flags: 1 has wrong type: got int, want string"
        );
    }
}
