//! `kdv lint`: everything kdv has to say about a universe's tags, as diagnostics with source
//! spans. The CLI only renders them.
//!
//! Findings: the compiler's (tag misuse, with upstream's messages, and unsupported shapes);
//! the lint rules' ([`crate::Compiled::lint`]: upstream validation-gen's linter — stability
//! prefixes, stability levels, requiredness of fields with validation — and kdv's tag
//! hygiene — unknown `+k8s:` tags, verbatim repeats, contradicting requiredness); and a
//! warning at each `+k8s:customValidation` tag that produced a rule, since kdv cannot run
//! the hand-written Go function it names (`kdv validate` skips such checks, unless the
//! caller registers the function, and says so).
//!
//! Errors are what upstream rejects or what makes rules wrong; warnings are worth a look but
//! do not fail `kdv lint` unless asked (`--deny warnings`). [`group`] folds findings that
//! repeat one message into one, with the count and the other positions.

use std::collections::BTreeSet;

use kdv_model::{Diagnostic, Severity, SourceSpan, Universe};

use crate::custom_validations::custom_validations_of;
use crate::ir::{RuleSet, TypeId};
use crate::{CompileOptions, Compiled, compile_with};

/// Compiles `universe` (roots as each package's tags select them) and lints it: the
/// compiler's diagnostics, the lint rules' and those of [`lint_rules`], sorted ([`sort`]).
/// The compiled rules are returned too.
pub fn lint(universe: &Universe) -> (Compiled, Vec<Diagnostic>) {
    lint_with(universe, &CompileOptions::default())
}

/// [`lint`] with compile options (the lint rules run whatever `options.lint` says).
pub fn lint_with(universe: &Universe, options: &CompileOptions) -> (Compiled, Vec<Diagnostic>) {
    let options = CompileOptions {
        lint: true,
        ..options.clone()
    };
    let compiled = compile_with(universe, &options);
    let mut findings = compiled.diagnostics.clone();
    findings.extend(compiled.lint.iter().cloned());
    findings.extend(lint_rules(&compiled.rules));
    sort(&mut findings);
    (compiled, findings)
}

/// The lint rules' findings about compiled rules (beyond the compiler's own diagnostics).
pub fn lint_rules(rules: &RuleSet) -> Vec<Diagnostic> {
    let mut out = custom_validation_warnings(rules);
    out.extend(subresource_condition_warnings(rules));
    out
}

/// Version drift across the packages `paths` of `universe` (several versions of one API
/// group linted in one run, KEP-5073's "adds a new version" user story): for each type name
/// two of them declare, its own rule tags and each field's (by JSON name) are compared as
/// written; a difference is a warning at each version's field, unless either side carries
/// `+kdv:allow-drift` ([`ALLOW_DRIFT`]) on the field or its type.
pub fn version_drift(universe: &Universe, paths: &[String]) -> Vec<Diagnostic> {
    crate::lint_seeds::version_drift(universe, paths)
}

pub use crate::lint_seeds::ALLOW_DRIFT;

/// `kdv lint --upstream`: an error at every use of a kdv extension (a tag upstream
/// validation-gen does not have, such as `+k8s:pattern`; chained tags included) in every
/// loaded package, so a Kubernetes contributor never commits one by mistake.
pub fn upstream_findings(universe: &Universe) -> Vec<Diagnostic> {
    crate::lint_rules::extension_uses(universe)
}

/// A warning at every `+k8s:customValidation` tag that produced a rule, each tag and
/// function once.
pub fn custom_validation_warnings(rules: &RuleSet) -> Vec<Diagnostic> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for index in 0..rules.types.len() {
        let Ok(index) = u32::try_from(index) else {
            break;
        };
        for u in custom_validations_of(rules, TypeId(index)) {
            let span = u.origin.and_then(|o| rules.span(o)).cloned().map(with_plus);
            let key = span
                .as_ref()
                .map(|s| (s.path.clone(), s.line, s.col))
                .unwrap_or_default();
            if !seen.insert((key, u.function_name.clone())) {
                continue;
            }
            out.push(Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "tag \"k8s:customValidation\": kdv cannot run the hand-written function {}; `kdv validate` skips this check and warns that it did, once per validated type",
                    u.function_name
                ),
                span,
            });
        }
    }
    out
}

/// A warning at every `+k8s:ifSubresource`/`+k8s:ifNotSubresource` whose subresource no
/// root reaching it accepts (`+k8s:supportsSubresource`, `+k8s:isSubresource`, `/` by
/// default): such a rule never applies, or always does. Types no root reaches are not judged.
pub fn subresource_condition_warnings(rules: &RuleSet) -> Vec<Diagnostic> {
    use std::collections::BTreeMap;

    use crate::custom_validations::{each_validation, reachable_types};
    use crate::ir::Check;

    // Per type: the roots reaching it and the subresources they accept.
    let mut reached: BTreeMap<TypeId, (Vec<&str>, BTreeSet<&str>)> = BTreeMap::new();
    for root in &rules.roots {
        let accepts = rules
            .types
            .get(root.id.0 as usize)
            .map_or(&[][..], |t| &t.subresources[..]);
        for id in reachable_types(rules, root.id) {
            let entry = reached.entry(id).or_default();
            entry.0.push(&root.name);
            entry.1.extend(accepts.iter().map(String::as_str));
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (id, (roots, accepted)) in &reached {
        each_validation(rules, *id, &mut |v| {
            let Check::IfSubresource {
                subresource,
                addressed,
                ..
            } = &v.check
            else {
                return;
            };
            if accepted.contains(subresource.as_str()) || !seen.insert(v.origin) {
                return;
            }
            let (tag, effect) = if *addressed {
                ("k8s:ifSubresource", "never applies")
            } else {
                ("k8s:ifNotSubresource", "always applies")
            };
            let accepted: Vec<String> = accepted.iter().map(|s| format!("{s:?}")).collect();
            out.push(Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "tag \"{tag}\": the rule {effect}: no root type validating it accepts subresource {subresource:?} (roots: {}; accepted: {}); declare it with +k8s:supportsSubresource={subresource:?} on the root",
                    roots.join(", "),
                    accepted.join(", ")
                ),
                span: v.origin.and_then(|o| rules.span(o)).cloned().map(with_plus),
            });
        });
    }
    out
}

/// A tag's span widened to the `+` before its name, so the caret covers the tag as written.
fn with_plus(mut span: SourceSpan) -> SourceSpan {
    let before = (span.col as usize).checked_sub(2);
    if before.is_some_and(|i| span.line_text.as_bytes().get(i) == Some(&b'+')) {
        span.col -= 1;
        span.len += 1;
    }
    span
}

/// Orders findings by file, line and column (those without a position last), keeping the
/// producers' order among equals.
pub fn sort(findings: &mut [Diagnostic]) {
    findings.sort_by(|a, b| match (&a.span, &b.span) {
        (Some(x), Some(y)) => (&x.path, x.line, x.col).cmp(&(&y.path, y.line, y.col)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
}

/// Findings that share a severity and a message, folded: the first in order, with every
/// position of the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grouped {
    /// The first finding.
    pub first: Diagnostic,
    /// Where the others are (`None`: without a position), in order.
    pub others: Vec<Option<SourceSpan>>,
}

/// Folds findings with the same severity and message into one [`Grouped`] each, in the
/// order of their first occurrence, so 20,000 copies of one mistake print once.
pub fn group(findings: Vec<Diagnostic>) -> Vec<Grouped> {
    let mut index: std::collections::HashMap<(Severity, String), usize> =
        std::collections::HashMap::new();
    let mut out: Vec<Grouped> = Vec::new();
    for d in findings {
        match index.get(&(d.severity, d.message.clone())) {
            Some(&i) => out[i].others.push(d.span),
            None => {
                index.insert((d.severity, d.message.clone()), out.len());
                out.push(Grouped {
                    first: d,
                    others: Vec::new(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::compile_go;

    #[test]
    fn subresource_conditions_no_root_accepts_are_reported() {
        let c = compile_go(
            r#"
// +k8s:validation-gen=TypeMeta
package p

type TypeMeta struct {
	Kind string `json:"kind,omitempty"`
}

// +k8s:supportsSubresource="/status"
type Thing struct {
	TypeMeta `json:",inline"`
	Spec     Spec `json:"spec"`
}

type Spec struct {
	// +k8s:optional
	// +k8s:ifSubresource("/status")=+k8s:minLength=1
	Phase string `json:"phase,omitempty"`
	// +k8s:optional
	// +k8s:ifSubresource("/scale")=+k8s:minimum=1
	Replicas int32 `json:"replicas,omitempty"`
	// +k8s:optional
	// +k8s:ifNotSubresource("/resize")=+k8s:immutable
	Size string `json:"size,omitempty"`
}

// Not reached from a root: not judged.
type Loose struct {
	// +k8s:optional
	// +k8s:ifSubresource("/scale")=+k8s:minimum=1
	Replicas int32 `json:"replicas,omitempty"`
}
"#,
        );
        assert!(!c.has_errors(), "{:?}", c.diagnostics);
        let found: Vec<(u32, String)> = subresource_condition_warnings(&c.rules)
            .into_iter()
            .map(|d| (d.span.map_or(0, |s| s.line), d.message))
            .collect();
        assert_eq!(
            found,
            [
                (
                    20,
                    "tag \"k8s:ifSubresource\": the rule never applies: no root type validating it accepts subresource \"/scale\" (roots: Thing; accepted: \"/\", \"/status\"); declare it with +k8s:supportsSubresource=\"/scale\" on the root".to_string()
                ),
                (
                    23,
                    "tag \"k8s:ifNotSubresource\": the rule always applies: no root type validating it accepts subresource \"/resize\" (roots: Thing; accepted: \"/\", \"/status\"); declare it with +k8s:supportsSubresource=\"/resize\" on the root".to_string()
                ),
            ]
        );
    }
}
