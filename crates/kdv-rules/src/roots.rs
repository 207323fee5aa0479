//! Root type selection: which types of a package get a validation function of their own and
//! can be validated as a kind (upstream `targets.go` with `pkg/apidefinitions`).
//!
//! A package opts in with `+k8s:validation-gen=<filter>` in its `doc.go`; the filters are
//! `*` (every exported type), `TypesWithField=<field>` (types with a field of that Go name,
//! e.g. `TypeMeta`), `TypesWithSuffix=<suffix>`, and a bare field name (`TypeMeta`), which is
//! what older validation-gen read every non-`*` value as and what Kubernetes' own internal
//! packages were written with. `+k8s:validation-gen=false` opts the package out; it cannot be
//! mixed with other values. Companion package tags: `+k8s:validation-gen-input=<import
//! path>` (the types live in that package), `-nolint` (upstream's linter skips the
//! package's roots), `-scheme-registry=<type>|nil`, `-test-fixture=validateFalse` and
//! `-test-targets` (code generation only: accepted and checked). On a type,
//! `+k8s:validation-gen=true|false` (in either comment block) forces it in or out, and
//! `+k8s:validation-gen-nolint` skips linting it. Types embedding `metav1.ListMeta` are never
//! selected by a filter, and unexported types never at all.
//!
//! kdv adds one thing: [`Roots`] overrides a package's filters (`kdv --roots typemeta|all`),
//! because the API server validates the kinds of kubernetes/api packages from internal
//! packages (`k8s.io/kubernetes/pkg/apis/...`) whose `doc.go` selects every type with
//! `TypeMeta`, while the kubernetes/api package's own `doc.go` selects fewer or none.

use kdv_model::{Package, Severity, SourceSpan, TagLine, TypeDecl};
use kdv_tags::go_quote;

use crate::lower::parts::LowerError;

/// The package tag that selects root types.
pub(crate) const MAIN_TAG: &str = "k8s:validation-gen";
/// `+k8s:validation-gen-input=<import path>`.
pub(crate) const INPUT_TAG: &str = "k8s:validation-gen-input";
/// `+k8s:validation-gen-nolint` (package or type).
pub(crate) const NOLINT_TAG: &str = "k8s:validation-gen-nolint";
/// `+k8s:validation-gen-scheme-registry=<type>|nil`.
pub(crate) const SCHEME_REGISTRY_TAG: &str = "k8s:validation-gen-scheme-registry";
/// `+k8s:validation-gen-test-fixture=validateFalse`.
pub(crate) const TEST_FIXTURE_TAG: &str = "k8s:validation-gen-test-fixture";
/// `+k8s:validation-gen-test-targets`.
pub(crate) const TEST_TARGETS_TAG: &str = "k8s:validation-gen-test-targets";

/// The one bare field name accepted as a filter: older validation-gen read every value but
/// `*` as a field name, and Kubernetes' internal packages and its documentation select the
/// kinds with `+k8s:validation-gen=TypeMeta`; current validation-gen spells it
/// `TypesWithField=TypeMeta`. Other bare names are rejected (a typo would select nothing).
const LEGACY_FIELD: &str = "TypeMeta";

/// Every `k8s:validation-gen*` tag upstream knows.
pub(crate) const VALIDATION_GEN_TAGS: &[&str] = &[
    MAIN_TAG,
    INPUT_TAG,
    NOLINT_TAG,
    SCHEME_REGISTRY_TAG,
    TEST_FIXTURE_TAG,
    TEST_TARGETS_TAG,
];

/// Which types of a package are roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Roots {
    /// As the package's `+k8s:validation-gen` tags say (upstream's meaning; none without
    /// the tag or with `=false`).
    #[default]
    Package,
    /// Every exported type with a field named `TypeMeta`, as `TypesWithField=TypeMeta`
    /// selects: the kinds, which the API server validates through Kubernetes' internal
    /// packages.
    TypeMeta,
    /// Every exported type, as `*` selects.
    All,
}

impl Roots {
    /// `package`, `typemeta` or `all` (the command-line spelling).
    pub fn as_str(self) -> &'static str {
        match self {
            Roots::Package => "package",
            Roots::TypeMeta => "typemeta",
            Roots::All => "all",
        }
    }
}

/// How to compile a universe ([`crate::compile_with`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// Root selection for [`CompileOptions::package`].
    pub roots: Roots,
    /// Import path of the package [`CompileOptions::roots`] applies to (the package a user
    /// pointed at); `None` applies it to every package. Other packages keep their tags'
    /// selection.
    pub package: Option<String>,
    /// Also run the lint rules ([`crate::Compiled::lint`]).
    pub lint: bool,
}

/// One type filter of `+k8s:validation-gen=`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeFilter {
    /// `*`.
    All,
    /// `TypesWithField=<field>`, or the bare `TypeMeta`.
    WithField(String),
    /// `TypesWithSuffix=<suffix>`.
    WithSuffix(String),
}

impl TypeFilter {
    /// Parses one value of the package tag (not `false`); `Err` is upstream's message.
    fn parse(value: &str) -> Result<TypeFilter, String> {
        if value == "*" {
            return Ok(TypeFilter::All);
        }
        for (prefix, make) in [
            (
                "TypesWithField=",
                TypeFilter::WithField as fn(String) -> TypeFilter,
            ),
            ("TypesWithSuffix=", TypeFilter::WithSuffix),
        ] {
            if let Some(rest) = value.strip_prefix(prefix) {
                if rest.is_empty() {
                    return Err(format!(
                        "found package tag \"{MAIN_TAG}={value}\" with empty value"
                    ));
                }
                return Ok(make(rest.to_string()));
            }
        }
        if value == LEGACY_FIELD {
            return Ok(TypeFilter::WithField(value.to_string()));
        }
        let hint = if is_go_identifier(value) && value != "true" {
            format!(
                "; to select the types with a field named {value}, write TypesWithField={value}"
            )
        } else {
            String::new()
        };
        Err(format!(
            "unknown value for package tag {}: {} (expected *, TypeMeta, TypesWithField=<field>, TypesWithSuffix=<suffix> or false{hint})",
            go_quote(MAIN_TAG),
            go_quote(value)
        ))
    }
}

impl std::fmt::Display for TypeFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeFilter::All => f.write_str("*"),
            TypeFilter::WithField(field) => write!(f, "TypesWithField={field}"),
            TypeFilter::WithSuffix(suffix) => write!(f, "TypesWithSuffix={suffix}"),
        }
    }
}

/// What selects a package's roots.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RootSelection {
    /// No `+k8s:validation-gen` tag: upstream does not generate for the package, so it has
    /// no roots.
    Untagged,
    /// `+k8s:validation-gen=false`: the package opts out of declarative validation.
    OptedOut,
    /// The tags' type filters.
    Filters(Vec<TypeFilter>),
    /// The tags are invalid (reported); nothing is selected.
    Invalid,
    /// The caller's [`Roots`] (not [`Roots::Package`]) replaces the tags.
    Override(Roots),
    /// No `+k8s:validation-gen` tag on the package the caller named
    /// ([`CompileOptions::package`]): its `TypeMeta` types are roots (kdv's default, since
    /// Kubernetes selects the kinds of the kubernetes/api packages, which carry no such tag,
    /// from its internal packages).
    UntaggedKinds,
}

impl RootSelection {
    /// The type filters this selection applies (`None`: it selects nothing).
    pub(crate) fn filters(&self) -> Option<Vec<TypeFilter>> {
        match self {
            RootSelection::Filters(f) => Some(f.clone()),
            RootSelection::Override(Roots::TypeMeta) | RootSelection::UntaggedKinds => {
                Some(vec![TypeFilter::WithField("TypeMeta".into())])
            }
            RootSelection::Override(_) => Some(vec![TypeFilter::All]),
            RootSelection::Untagged | RootSelection::OptedOut | RootSelection::Invalid => None,
        }
    }

    /// How the selection reads in messages: `+k8s:validation-gen=TypesWithSuffix=X`,
    /// `--roots typemeta`, ...
    pub fn describe(&self) -> String {
        match self {
            RootSelection::Untagged => format!("no +{MAIN_TAG} tag"),
            RootSelection::OptedOut => format!("+{MAIN_TAG}=false"),
            RootSelection::Invalid => format!("an invalid +{MAIN_TAG} tag"),
            RootSelection::Filters(filters) => filters
                .iter()
                .map(|f| format!("+{MAIN_TAG}={f}"))
                .collect::<Vec<_>>()
                .join(", "),
            RootSelection::Override(r) => format!("--roots {}", r.as_str()),
            RootSelection::UntaggedKinds => format!(
                "no +{MAIN_TAG} tag (every type with TypeMeta, as Kubernetes selects the kinds of kubernetes/api)"
            ),
        }
    }
}

/// How a package's roots were selected, for messages ("kind X exists but is not a root") and
/// for the linter's scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageRoots {
    /// Import path of the package whose tags these are.
    pub package: String,
    /// Import path of the package declaring the root types (`+k8s:validation-gen-input`, else
    /// [`PackageRoots::package`]).
    pub types_package: String,
    /// The API group: `+groupName=` of the package, else its `GroupName` constant.
    pub group: Option<String>,
    /// The version: the name of the types package.
    pub version: String,
    /// What selected the roots.
    pub selection: RootSelection,
    /// Where the first `+k8s:validation-gen` tag is written.
    pub tag: Option<SourceSpan>,
    /// `+k8s:validation-gen-nolint` on the package: upstream does not lint its roots.
    pub nolint: bool,
    /// Number of roots selected.
    pub roots: usize,
}

/// A package's API group: its `+groupName=` tag, else its `GroupName` string constant (the
/// `register.go` convention: kubernetes/api's apps, batch, policy, ... name their group only
/// there).
pub(crate) fn group_of(pkg: &Package) -> Option<String> {
    if let Some(group) = pkg.tags.raw_values("groupName").into_iter().next() {
        return Some(group);
    }
    pkg.consts.iter().find_map(|c| match &c.value {
        kdv_model::ConstValue::String(s) if c.name == "GroupName" => Some(s.clone()),
        _ => None,
    })
}

/// The span of a tag line's value (after `=`), or of its name when it has none.
pub(crate) fn tag_value_span(pkg: &Package, line: &TagLine) -> Option<SourceSpan> {
    let file = pkg.files.get(line.loc.file as usize)?;
    let (start, len) = match line.text.find('=') {
        Some(eq) => {
            let rest = &line.text[eq + 1..];
            let value = rest.trim_start();
            let skipped = rest.len() - value.len();
            let value_len = value.split("//").next().unwrap_or("").trim_end().len();
            if value_len == 0 {
                (0, line.name.len())
            } else {
                (eq + 1 + skipped, value_len)
            }
        }
        None => (0, line.name.len()),
    };
    let loc = kdv_model::Loc {
        col: line.loc.col + start as u32,
        offset: line.loc.offset + start as u32,
        ..line.loc
    };
    Some(SourceSpan::from_loc(file, loc, len.max(1) as u32))
}

fn is_go_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

fn error(message: String, span: Option<SourceSpan>) -> LowerError {
    LowerError {
        message,
        span,
        severity: Severity::Error,
    }
}

fn warning(message: String, span: Option<SourceSpan>) -> LowerError {
    LowerError {
        message,
        span,
        severity: Severity::Warning,
    }
}

/// Go's `%v` of a `[]string`.
fn go_list(values: &[String]) -> String {
    format!("[{}]", values.join(" "))
}

/// The package tags of `pkg`, checked as upstream checks them: the selection and the
/// input package (`None` = the package itself); problems go to `report`.
pub(crate) fn package_selection(
    pkg: &Package,
    report: &mut dyn FnMut(LowerError),
) -> (RootSelection, Option<String>) {
    let lines: Vec<&TagLine> = pkg.tags.named(MAIN_TAG).collect();
    let selection = if lines.is_empty() {
        RootSelection::Untagged
    } else {
        main_selection(pkg, &lines, report)
    };

    let inputs: Vec<&TagLine> = pkg.tags.named(INPUT_TAG).collect();
    let mut input = None;
    match inputs.as_slice() {
        [] => {}
        [line] => {
            let value = line.raw_value();
            if value.starts_with("./") || value.starts_with("../") {
                report(error(
                    format!(
                        "+{INPUT_TAG}: relative path {} is not supported; use the full package import path",
                        go_quote(&value)
                    ),
                    tag_value_span(pkg, line),
                ));
            } else if value.is_empty() {
                report(error(
                    format!("+{INPUT_TAG}: the value must be a package import path"),
                    tag_value_span(pkg, line),
                ));
            } else {
                input = Some(value);
            }
        }
        [_, second, ..] => {
            let values: Vec<String> = inputs.iter().map(|l| l.raw_value()).collect();
            report(error(
                format!(
                    "+{INPUT_TAG}: expected at most one value, got {}",
                    go_list(&values)
                ),
                tag_value_span(pkg, second),
            ));
        }
    }

    let registries: Vec<&TagLine> = pkg.tags.named(SCHEME_REGISTRY_TAG).collect();
    if let [_, second, ..] = registries.as_slice() {
        report(error(
            format!(
                "Package {} contains more than one usage of {}",
                go_quote(&pkg.path),
                go_quote(SCHEME_REGISTRY_TAG)
            ),
            tag_value_span(pkg, second),
        ));
    }
    for line in pkg.tags.named(TEST_FIXTURE_TAG) {
        let value = line.raw_value();
        if value != "validateFalse" {
            report(error(
                format!(
                    "Package {}: {TEST_FIXTURE_TAG} must be one of '[validateFalse]', but got: {value}",
                    go_quote(&pkg.path)
                ),
                tag_value_span(pkg, line),
            ));
        }
    }
    (selection, input)
}

/// The selection `+k8s:validation-gen` lines make (apidefinitions' `extractGeneratorTag`,
/// then validation-gen's checks of the filters).
fn main_selection(
    pkg: &Package,
    lines: &[&TagLine],
    report: &mut dyn FnMut(LowerError),
) -> RootSelection {
    let values: Vec<String> = lines.iter().map(|l| l.raw_value()).collect();
    let has_false = values.iter().any(|v| v == "false");
    if has_false {
        if let Some(i) = values.iter().position(|v| v != "false") {
            report(error(
                format!(
                    "+{MAIN_TAG}: cannot mix \"false\" with other values; got {}",
                    go_list(&values)
                ),
                tag_value_span(pkg, lines[i]),
            ));
            return RootSelection::Invalid;
        }
        return RootSelection::OptedOut;
    }
    if let [only] = values.as_slice()
        && only.is_empty()
    {
        report(error(
            format!("found package tag {} with no value", go_quote(MAIN_TAG)),
            tag_value_span(pkg, lines[0]),
        ));
        return RootSelection::Invalid;
    }
    let mut filters = Vec::with_capacity(values.len());
    for (value, line) in values.iter().zip(lines) {
        match TypeFilter::parse(value) {
            Ok(f) => filters.push(f),
            Err(message) => {
                report(error(message, tag_value_span(pkg, line)));
                return RootSelection::Invalid;
            }
        }
    }
    RootSelection::Filters(filters)
}

/// `+k8s:validation-gen=true|false` on a type (either comment block): `Some(forced)`.
/// Other values are ignored, as upstream does, and reported as a warning.
pub(crate) fn type_override(
    pkg: &Package,
    decl: &TypeDecl,
    report: &mut dyn FnMut(LowerError),
) -> Option<bool> {
    let main =
        |lines: &[&TagLine]| -> Vec<String> { lines.iter().map(|l| l.raw_value()).collect() };
    let first: Vec<&TagLine> = decl.tags.named(MAIN_TAG).collect();
    let second: Vec<&TagLine> = decl.detached_tags.named(MAIN_TAG).collect();
    for line in first.iter().chain(&second) {
        let value = line.raw_value();
        if value != "true" && value != "false" {
            report(warning(
                format!(
                    "type tag {} takes true or false, not {}; validation-gen ignores it",
                    go_quote(MAIN_TAG),
                    go_quote(&value)
                ),
                tag_value_span(pkg, line),
            ));
        }
    }
    let (first, second) = (main(&first), main(&second));
    if first == ["false"] || second == ["false"] {
        return Some(false);
    }
    if first == ["true"] || second == ["true"] {
        return Some(true);
    }
    None
}

/// Whether a type carries `+k8s:validation-gen-nolint` (either comment block).
pub(crate) fn type_nolint(decl: &TypeDecl) -> bool {
    decl.tags.named(NOLINT_TAG).next().is_some()
        || decl.detached_tags.named(NOLINT_TAG).next().is_some()
}

/// Whether `filters` select a type called `name` with member names `has_field` answers
/// for (per-type tags, exportedness and list types are the caller's).
pub(crate) fn filters_select(
    filters: &[TypeFilter],
    name: &str,
    has_field: &dyn Fn(&str) -> bool,
) -> bool {
    filters.iter().any(|f| match f {
        TypeFilter::All => true,
        TypeFilter::WithField(field) => has_field(field),
        TypeFilter::WithSuffix(suffix) => name.ends_with(suffix.as_str()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_parse_as_upstream_reads_them() {
        assert_eq!(TypeFilter::parse("*"), Ok(TypeFilter::All));
        assert_eq!(
            TypeFilter::parse("TypesWithField=TypeMeta"),
            Ok(TypeFilter::WithField("TypeMeta".into()))
        );
        assert_eq!(
            TypeFilter::parse("TypeMeta"),
            Ok(TypeFilter::WithField("TypeMeta".into()))
        );
        assert_eq!(
            TypeFilter::parse("TypesWithSuffix=Spec"),
            Ok(TypeFilter::WithSuffix("Spec".into()))
        );
        assert_eq!(
            TypeFilter::parse("TypesWithSuffix="),
            Err(
                "found package tag \"k8s:validation-gen=TypesWithSuffix=\" with empty value".into()
            )
        );
        let e = TypeFilter::parse("ObjectMeta").expect_err("bare field name");
        assert!(e.ends_with("write TypesWithField=ObjectMeta)"), "{e}");
        for bad in ["true", "a b", "x.y", ""] {
            let e = TypeFilter::parse(bad).expect_err(bad);
            assert!(e.starts_with("unknown value for package tag"), "{e}");
        }
    }
}
