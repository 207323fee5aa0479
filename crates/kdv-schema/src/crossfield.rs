//! Cross-field limits (`+k8s:minimum(constraint: minValue)` and its siblings, a kdv
//! extension) published as one CEL rule at the struct: the bounded member and the referenced
//! member read with Go's meanings (an absent non-pointer member is its zero value, an absent
//! pointer — on the way or at the end — makes the rule not apply), with a message naming
//! the referenced field and `fieldPath` at the bounded member.

use kdv_rules::{Bound, CrossFieldEach, CrossFieldLimit, FieldAccess, RuleSet, Shape};

use crate::cel::{field_name, field_path};
use crate::node::Rule;

/// The `x-kubernetes-validations` rule of `c` at its struct, or why it cannot be written.
pub(crate) fn rule(rules: &RuleSet, c: &CrossFieldLimit) -> Result<Rule, &'static str> {
    let is_ptr = |s| matches!(rules.shape(s), Shape::Pointer(_));
    let FieldAccess::Key(key) = &c.access else {
        return Err("a cross-field limit on a member without a JSON name");
    };
    let name = field_name(key).ok_or("a cross-field limit on a member CEL cannot name")?;
    let mut guards = Vec::new();
    if let Some(p) = c.optional {
        // An unset optional field is not checked.
        guards.push(crate::cel::is_set(rules, "self", &name, c.shape, p));
    }
    let sel = format!("self.{name}");
    if let Some(each) = c.each {
        return each_rule(rules, c, each, key, &sel, guards);
    }
    let value = match c.bound {
        Bound::Minimum | Bound::Maximum if is_ptr(c.shape) => {
            guards.push(format!("has({sel})"));
            sel.clone()
        }
        Bound::Minimum | Bound::Maximum => format!("(has({sel}) ? {sel} : 0)"),
        Bound::MinLength | Bound::MaxLength if is_ptr(c.shape) => {
            guards.push(format!("has({sel})"));
            format!("size({sel})")
        }
        // A nil list has no items, and is checked.
        _ => format!("(has({sel}) ? size({sel}) : 0)"),
    };
    let bound = reference(rules, c, &mut guards)?;
    let (op, text) = comparison(c.bound);
    let mut expr = negated(&guards);
    expr.push(format!("{value} {op} {bound}"));
    Ok(Rule::new(expr.join(" || "), format!("{text} {}", c.reference)).at(field_path(key)))
}

/// The rule of a limit written under `eachVal`: every item of the list (every value of the
/// map) against the bound; an absent list or map has none.
fn each_rule(
    rules: &RuleSet,
    c: &CrossFieldLimit,
    each: CrossFieldEach,
    key: &str,
    sel: &str,
    mut guards: Vec<String>,
) -> Result<Rule, &'static str> {
    guards.push(format!("has({sel})"));
    let bound = reference(rules, c, &mut guards)?;
    let (op, text) = comparison(c.bound);
    let (var, item) = match each {
        CrossFieldEach::Items => ("x", "x".to_string()),
        CrossFieldEach::Values => ("k", format!("{sel}[k]")),
    };
    let value = match c.bound {
        Bound::Minimum | Bound::Maximum => item,
        _ => format!("size({item})"),
    };
    let mut expr = negated(&guards);
    expr.push(format!("{sel}.all({var}, {value} {op} {bound})"));
    let what = match each {
        CrossFieldEach::Items => "each item",
        CrossFieldEach::Values => "each value",
    };
    Ok(Rule::new(expr.join(" || "), format!("{what} {text} {}", c.reference)).at(field_path(key)))
}

/// `!guard` for each guard, once each.
fn negated(guards: &[String]) -> Vec<String> {
    let mut expr: Vec<String> = Vec::new();
    for g in guards {
        let not = format!("!{g}");
        if !expr.contains(&not) {
            expr.push(not);
        }
    }
    expr
}

/// The operator and the message of a limit.
fn comparison(bound: Bound) -> (&'static str, &'static str) {
    // A static message: `string(<int>)` in a messageExpression has no size bound the CRD
    // cost estimator accepts, so the message names the field instead of its value.
    match bound {
        Bound::Minimum => (">=", "must be greater than or equal to"),
        Bound::Maximum => ("<=", "must be less than or equal to"),
        Bound::MinLength => (">=", "must have at least as many characters as"),
        Bound::MaxLength => ("<=", "may not have more characters than"),
        Bound::MinItems => (">=", "must have at least as many items as"),
        Bound::MaxItems => ("<=", "may not have more items than"),
    }
}

/// The referenced value as CEL, adding the guards under which it is present: an absent
/// struct on the way is its zero value unless a pointer holds it (then the bound is absent
/// and the rule does not apply).
fn reference(
    rules: &RuleSet,
    c: &CrossFieldLimit,
    guards: &mut Vec<String>,
) -> Result<String, &'static str> {
    let is_ptr = |s| matches!(rules.shape(s), Shape::Pointer(_));
    let mut reference = String::from("self");
    let mut zero_unless = Vec::new();
    for step in &c.steps {
        let n = field_name(&step.name).ok_or("a referenced member CEL cannot name")?;
        reference = format!("{reference}.{n}");
        if is_ptr(step.shape) {
            // An absent struct above holds a nil pointer: the bound is absent, not zero.
            guards.append(&mut zero_unless);
            guards.push(format!("has({reference})"));
        } else {
            zero_unless.push(format!("has({reference})"));
        }
    }
    Ok(if zero_unless.is_empty() {
        reference
    } else {
        format!("({} ? {reference} : 0)", zero_unless.join(" && "))
    })
}
