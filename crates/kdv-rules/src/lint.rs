//! `kdv lint`: everything kdv has to say about a universe's tags, as diagnostics with source
//! spans. The CLI only renders them.
//!
//! Findings: the compiler's (tag misuse, with upstream's messages, and unsupported shapes),
//! and a warning at each `+k8s:customValidation` tag that produced a rule, since kdv cannot
//! run the hand-written Go function it names (`kdv validate` skips such checks unless the
//! caller registers the function).

use std::collections::BTreeSet;

use kdv_model::{Diagnostic, Severity, SourceSpan, Universe};

use crate::custom_validations::custom_validations_of;
use crate::ir::{RuleSet, TypeId};
use crate::{Compiled, compile};

/// Compiles `universe` and lints it: the compiler's diagnostics and the findings of
/// [`lint_rules`], sorted ([`sort`]). The compiled rules are returned too.
pub fn lint(universe: &Universe) -> (Compiled, Vec<Diagnostic>) {
    let compiled = compile(universe);
    let mut findings = compiled.diagnostics.clone();
    findings.extend(lint_rules(&compiled.rules));
    sort(&mut findings);
    (compiled, findings)
}

/// The lint rules' findings about compiled rules (beyond the compiler's own diagnostics).
pub fn lint_rules(rules: &RuleSet) -> Vec<Diagnostic> {
    custom_validation_warnings(rules)
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
                    "tag \"k8s:customValidation\": kdv cannot run the hand-written function {}; `kdv validate` skips this check",
                    u.function_name
                ),
                span,
            });
        }
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
