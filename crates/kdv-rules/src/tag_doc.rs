//! What a `+k8s:` tag accepts and how it is documented: where it may be written
//! ([`Scope`]), its arguments and payload ([`ArgDoc`], [`TagDoc`]), its stability, and
//! upstream's signature check against those ([`type_check`]). A leaf: the tag families, the
//! lowering context and the registry all read it, and it reads none of them.

use kdv_tags::{Span, Tag, ValueType, go_quote};

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

/// The documentation of a kdv extension written outside the `+k8s:` namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtensionDoc {
    /// The tag's name (`validationRule`).
    pub name: &'static str,
    /// Its syntax.
    pub syntax: &'static str,
    /// Where it may be written.
    pub scopes: &'static [Scope],
    /// What it does.
    pub description: &'static str,
    /// The design document section that specifies it.
    pub seed: &'static str,
    /// An example, as written in a Go comment.
    pub example: &'static str,
}
