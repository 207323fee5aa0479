//! `+validationRule` (kdv extension, KEP-4153): the structural schema of the node a rule
//! sits on, which types its `self` exactly as a CRD with kdv's published schema would
//! (the interpreter and the derive compile the rule against it), and the CRD write-time
//! checks of each rule as lint findings at the tag.

use kdv_model::{Diagnostic, Severity};
use kdv_rules::{CelRule, CelSite, Check, RuleSet};
use serde_json::{Value, json};

use crate::EmitOptions;
use crate::node::Node;
use crate::walk::{self, Emitter};

/// The structural schema of the node `rule` sits on (a type's value or a struct field's),
/// with `rule` as its only `x-kubernetes-validations` entry: no other rule of the node or
/// below it (the tags' backends evaluate those themselves), every keyword kept (bounds
/// such as `maxItems` and `maxLength` size the rule's cost; list and map types decide CEL
/// equality and old-value correlation). `None` when the site is not in `rules`.
pub fn rule_schema(rules: &RuleSet, rule: &CelRule) -> Option<Value> {
    rules_schema(rules, &[rule])
}

/// [`rule_schema`] for several rules of one node, in order (one program runs them all,
/// as the API server runs the rules of one schema node). `None` when `group` is empty,
/// its rules sit on different nodes, or the site is not in `rules`.
pub fn rules_schema(rules: &RuleSet, group: &[&CelRule]) -> Option<Value> {
    let rule = group.first()?;
    if group.iter().any(|r| r.site != rule.site) {
        return None;
    }
    let opts = EmitOptions::default();
    let mut e = Emitter::new(rules, &opts);
    let mut node = match &rule.site {
        // Paths below `self`: a field called `metadata` here is not a resource's metadata.
        CelSite::Type(shape) => e.value(*shape, "self", true, None),
        CelSite::Field { parent, name } => {
            let mut parent = e.value(*parent, "self", true, None);
            parent.properties.remove(name)?
        }
    };
    strip_rules(&mut node);
    node.rules.extend(group.iter().map(|r| walk::cel_rule(r)));
    Some(node.to_json())
}

fn strip_rules(node: &mut Node) {
    node.rules.clear();
    for p in node.properties.values_mut() {
        strip_rules(p);
    }
    if let Some(i) = &mut node.items {
        strip_rules(i);
    }
    if let Some(a) = &mut node.additional {
        strip_rules(a);
    }
}

/// Every `+validationRule` of `rules`, each with its span.
pub fn rules_of(rules: &RuleSet) -> Vec<(&CelRule, Option<&kdv_model::SourceSpan>)> {
    let mut out = Vec::new();
    for t in &rules.types {
        let all = t
            .validations
            .iter()
            .chain(t.fields.iter().flat_map(|f| f.validations.iter()));
        for v in all {
            if let Check::CelRule(r) = &v.check {
                out.push((&**r, v.origin.and_then(|s| rules.span(s))));
            }
        }
    }
    out
}

/// The API server's CRD write-time findings about each `+validationRule` of `rules`
/// (compile and type errors, estimated cost over the per-rule limit, a `fieldPath` its
/// node does not have, `messageExpression` errors), as lint errors at the rule's text. Each
/// rule is checked alone at its node (cardinality 1): a rule under unbounded lists may
/// still exceed the limits of a whole CRD, which `kdv schema --crd` reports. The rules are
/// compiled as the interpreter compiles them by default: kdv-openapi's default release, with
/// kdv's own CEL libraries ([`findings_for`] names the release).
pub fn findings(rules: &RuleSet) -> Vec<Diagnostic> {
    findings_for(rules, kdv_openapi::DEFAULT_KUBERNETES_MINOR)
}

/// [`findings`] in the type-rule environment of Kubernetes 1.`minor`.
pub fn findings_for(rules: &RuleSet, minor: u32) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (rule, span) in rules_of(rules) {
        let Some(schema) = rule_schema(rules, rule) else {
            continue;
        };
        let crd = crate::wrap_crd(
            "rules.kdv.dev",
            "v1",
            "Rule",
            "rules",
            crate::Scope::Namespaced,
            json!({"type": "object", "properties": {"value": schema}}),
            false,
        );
        let found = kdv_openapi::validate_type_rule_crd(&crd, minor);
        // `rule: <detail>`: the server's value is the rule as JSON, which the tag shows.
        let texts: Vec<String> = found
            .errors
            .iter()
            .filter_map(|e| {
                let text = e.field.to_string();
                let (_, part) = text.split_once("x-kubernetes-validations[0].")?;
                Some(format!("{part}: {}", e.detail))
            })
            .collect();
        // The schema holds this rule alone: its share of the schema's total says nothing
        // its own findings do not.
        let own = texts
            .iter()
            .any(|t| !t.contains("contributed to estimated rule cost total"));
        for rest in texts {
            if own && rest.contains("contributed to estimated rule cost total") {
                continue;
            }
            out.push(Diagnostic {
                severity: Severity::Error,
                span: span.map(|s| at_column(s, &rule.rule, &rest)),
                message: format!("+validationRule: the API server would refuse this rule: {rest}"),
            });
        }
    }
    out
}

/// The span of the tag (`validationRule="..."...`) narrowed to the rule's literal, or to the
/// column a compile error names (`ERROR: <input>:1:38:`) when the literal is the expression
/// character for character (no escapes): the diagnostic then points where CEL found the
/// problem.
fn at_column(span: &kdv_model::SourceSpan, rule: &str, detail: &str) -> kdv_model::SourceSpan {
    let mut s = span.clone();
    let start = s.col as usize - 1 + "validationRule=".len();
    let Some(literal) = s.line_text.get(start..) else {
        return s;
    };
    let verbatim = literal.starts_with('"')
        && literal[1..].starts_with(rule)
        && literal[1 + rule.len()..].starts_with('"');
    if !verbatim {
        return s;
    }
    s.col = start as u32 + 1;
    s.len = rule.len() as u32 + 2;
    let Some(pos) = detail.split_once("<input>:1:").and_then(|(_, rest)| {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<usize>().ok()
    }) else {
        return s;
    };
    let Some(offset) = rule
        .char_indices()
        .nth(pos.saturating_sub(1))
        .map(|(i, _)| i)
    else {
        return s;
    };
    s.col += 1 + offset as u32;
    s.len = rule[offset..].chars().next().map_or(1, char::len_utf8) as u32;
    s
}
