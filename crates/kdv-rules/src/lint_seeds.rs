//! Lint rules the design documents ask for (issue 22 item 7), beside kdv's tag hygiene:
//!
//! - **one-deep typedef chains** (KEP-5073 "validation-gen One-deep typedef Issue And
//!   Solution"): for `type Bar Foo`, Go's type system records `Bar -> string`, not
//!   `Bar -> Foo -> string`, so validation-gen never applies Foo's type-level tags to Bar
//!   (a struct Foo's field tags are kept: the fields are copied). Verdicts stay upstream's;
//!   a warning at Bar's declaration names Foo and the lost tags, with the seed's fix
//!   (repeat them on Bar);
//! - **version drift** (KEP-5073 user story "Kubernetes developer adds a new version
//!   (v1beta2)", risk "Versioned validation drifts between versions"): across packages of
//!   one API group (same `+groupName`), a field of a type of the same name whose validation
//!   tags differ is reported at each version's field ([`version_drift`]), unless either
//!   side carries `+kdv:allow-drift` (on the field or on its type).
//!
//! Decisions: docs/decisions/0102-typedef-chain-lint.md, 0103-version-drift-lint.md.

use std::collections::{BTreeMap, BTreeSet};

use kdv_model::{
    Diagnostic, Field, Package, Severity, SourceSpan, TagLine, Tags, TypeDecl, TypeRef, Universe,
};

use crate::registry;
use crate::roots;
use crate::tags::cel_rules;
use crate::tags::defaults::UPSTREAM_DEFAULT;

/// The comment tag that marks an intended difference between versions.
pub const ALLOW_DRIFT: &str = "kdv:allow-drift";

/// Whether a tag line is one validation-gen (or kdv) turns into a rule.
fn is_rule_tag(line: &TagLine) -> bool {
    registry::is_known_tag(&line.name) || line.name == cel_rules::NAME
}

/// The tag text as written, without trailing space (`+k8s:minimum=1`).
fn text(line: &TagLine) -> String {
    format!("+{}", line.text.trim_end())
}

fn decl_span(pkg: &Package, decl: &TypeDecl) -> Option<SourceSpan> {
    let file = pkg.files.get(decl.loc.file as usize)?;
    Some(SourceSpan::from_loc(
        file,
        decl.loc,
        decl.name.len().max(1) as u32,
    ))
}

fn field_span(pkg: &Package, f: &Field) -> Option<SourceSpan> {
    let file = pkg.files.get(f.loc.file as usize)?;
    Some(SourceSpan::from_loc(
        file,
        f.loc,
        f.name.len().max(1) as u32,
    ))
}

/// A warning at each `type Bar Foo` whose Foo declares type-level rules.
pub(crate) fn typedef_chains(universe: &Universe, out: &mut Vec<Diagnostic>) {
    for pkg in universe.packages.values() {
        for decl in &pkg.types {
            let TypeRef::Named(target) = &decl.def else {
                continue;
            };
            if decl.is_alias {
                continue;
            }
            let Some(base) = universe.resolve(target) else {
                continue;
            };
            let lost: Vec<String> = base
                .tags
                .lines
                .iter()
                .filter(|l| is_rule_tag(l))
                .map(text)
                .collect();
            if lost.is_empty() {
                continue;
            }
            let foo_name = if target.package == pkg.path {
                base.name.clone()
            } else {
                format!("{}.{}", target.package, base.name)
            };
            let kept = if matches!(base.def, TypeRef::Struct(_)) {
                " (its fields' tags are kept: the fields are copied)"
            } else {
                ""
            };
            out.push(Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "type {} is defined as {foo_name}, whose rules {} do not apply to {}{kept}: Go records {} -> {}'s underlying type, not the chain through {foo_name} (KEP-5073 \"one-deep typedef\"); repeat the tags on {}, or use {foo_name} itself",
                    decl.name,
                    lost.join(" "),
                    decl.name,
                    decl.name,
                    foo_name,
                    decl.name,
                ),
                span: decl_span(pkg, decl),
            });
        }
    }
}

/// The validation tags of a declaration, as written, sorted (several equal lines once).
fn rule_tags(tags: &Tags) -> BTreeSet<String> {
    tags.lines
        .iter()
        .filter(|l| is_rule_tag(l) || l.name == UPSTREAM_DEFAULT)
        .map(text)
        .collect()
}

fn allows_drift(tags: &Tags) -> bool {
    tags.named(ALLOW_DRIFT).next().is_some()
}

/// One field (or a type's own tags, `field: None`) of one version.
struct Site<'u> {
    pkg: &'u Package,
    decl: &'u TypeDecl,
    field: Option<&'u Field>,
    tags: BTreeSet<String>,
    allowed: bool,
}

impl Site<'_> {
    fn span(&self) -> Option<SourceSpan> {
        match self.field {
            Some(f) => field_span(self.pkg, f),
            None => decl_span(self.pkg, self.decl),
        }
    }
}

/// The JSON path of a top-level field within its type (`spec`), or its Go name when it has
/// no JSON name (inline, `-`).
fn json_key(f: &Field) -> String {
    match f.json_name() {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => f.name.clone(),
    }
}

/// Version drift between the packages `paths` of `universe` that share an API group: for
/// each type name two or more of them declare, the type's own tags and each field's (by JSON
/// name) are compared, and where they differ a warning is reported at each side, listing the
/// tags only that side has (a differing payload shows as a tag on each side). Fields present
/// in one version only are new fields, not drift.
pub fn version_drift(universe: &Universe, paths: &[String]) -> Vec<Diagnostic> {
    let mut by_group: BTreeMap<String, Vec<&Package>> = BTreeMap::new();
    for p in paths {
        let Some(pkg) = universe.packages.get(p) else {
            continue;
        };
        let Some(group) = roots::group_of(pkg) else {
            continue;
        };
        let list = by_group.entry(group).or_default();
        if !list.iter().any(|q| q.path == pkg.path) {
            list.push(pkg);
        }
    }
    let mut out = Vec::new();
    for pkgs in by_group.values().filter(|l| l.len() > 1) {
        // (type name, key) -> one site per version; key "" is the type itself.
        let mut sites: BTreeMap<(String, String), Vec<Site<'_>>> = BTreeMap::new();
        for pkg in pkgs {
            for decl in &pkg.types {
                let type_allowed = allows_drift(&decl.tags);
                sites
                    .entry((decl.name.clone(), String::new()))
                    .or_default()
                    .push(Site {
                        pkg,
                        decl,
                        field: None,
                        tags: rule_tags(&decl.tags),
                        allowed: type_allowed,
                    });
                if let TypeRef::Struct(st) = &decl.def {
                    for f in &st.fields {
                        sites
                            .entry((decl.name.clone(), json_key(f)))
                            .or_default()
                            .push(Site {
                                pkg,
                                decl,
                                field: Some(f),
                                tags: rule_tags(&f.tags),
                                allowed: type_allowed || allows_drift(&f.tags),
                            });
                    }
                }
            }
        }
        for ((type_name, key), list) in &sites {
            if list.len() < 2 || list.iter().any(|s| s.allowed) {
                continue;
            }
            if list.iter().all(|s| s.tags == list[0].tags) {
                continue;
            }
            let what = if key.is_empty() {
                format!("type {type_name}")
            } else {
                format!("field {type_name}.{key}")
            };
            for (i, s) in list.iter().enumerate() {
                let mut parts = Vec::new();
                for (j, other) in list.iter().enumerate() {
                    if i == j || other.tags == s.tags {
                        continue;
                    }
                    let only_here: Vec<&str> =
                        s.tags.difference(&other.tags).map(String::as_str).collect();
                    let only_there: Vec<&str> =
                        other.tags.difference(&s.tags).map(String::as_str).collect();
                    let none = "nothing".to_string();
                    parts.push(format!(
                        "{} has {}, {} has {}",
                        s.pkg.name,
                        if only_here.is_empty() {
                            none.clone()
                        } else {
                            only_here.join(" ")
                        },
                        other.pkg.name,
                        if only_there.is_empty() {
                            none
                        } else {
                            only_there.join(" ")
                        }
                    ));
                }
                out.push(Diagnostic {
                    severity: Severity::Warning,
                    message: format!(
                        "{what}: validation tags differ between versions of group {}: {}; make them agree, or mark the intended difference with +{ALLOW_DRIFT} on the field or its type",
                        roots::group_of(s.pkg).unwrap_or_default(),
                        parts.join("; ")
                    ),
                    span: s.span(),
                });
            }
        }
    }
    out
}
