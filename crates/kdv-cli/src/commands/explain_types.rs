//! The explanation of a Go type or one of its fields, read from the rule IR (`kdv explain
//! --types`, `kdv docs --types`, and the declarative half of a built-in kind's explanation):
//! each rule with the tag as written and its `file:line:col` (the IR's source spans), its
//! lifecycle (the `+k8s:alpha` / `+k8s:beta` mark of the use site), how it ratchets on update
//! (validation-gen's rules: a field block is skipped when its value is unchanged; wrappers
//! correlate items; some tags compare old and new by design), and what `kdv-schema`
//! publishes for it (an OpenAPI keyword, a CEL rule, or why nothing).

use std::collections::HashMap;

use kdv_rules::{
    Bound, Check, Equality, FieldAccess, FieldRules, ItemMatch, Level, RuleSet, Shape, ShapeId,
    SourceSpan, TypeId, TypeRules, UnionKind, Validation,
};
use serde_json::Value;

use super::explanation::{Explanation, Rule, Step, compact, near_list, parse_path, path_text};
use crate::error::CliError;

/// Where a rule sits, for its ratcheting.
#[derive(Clone, Copy)]
enum Site<'a> {
    /// A type-level rule of a root type.
    Root,
    /// A type-level rule of a type reached through a field or item.
    TypeOf(&'a str),
    /// A rule of a field block.
    Field(Equality),
    /// A rule applied to each item or value through `eachVal`.
    Element,
}

struct Explainer<'r> {
    rules: &'r RuleSet,
    by_shape: HashMap<ShapeId, TypeId>,
    emitted: kdv_schema::Emitted,
}

/// The rules of type `ty`, or of the field at `path` below it.
pub fn explain(rules: &RuleSet, ty: TypeId, path: &[Step]) -> Result<Explanation, CliError> {
    let by_shape = rules
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.shape, TypeId(i as u32)))
        .collect();
    let emitted = kdv_schema::emit(rules, ty, &kdv_schema::EmitOptions::default());
    let x = Explainer {
        rules,
        by_shape,
        emitted,
    };
    let root = rules.type_rules(ty);
    let is_root = rules.roots.iter().any(|r| r.id == ty);
    let mut out = Vec::new();
    if path.is_empty() {
        let site = if is_root {
            Site::Root
        } else {
            Site::TypeOf(&root.name)
        };
        x.type_rules(root, "", site, &mut out);
        for b in &root.fields {
            let p = field_path(b);
            let start = out.len();
            for v in b.validations.iter().chain(b.iterations.iter()) {
                out.push(x.rule(v, &p, Site::Field(b.equality)));
            }
            if let Some(t) = b.type_call {
                out.push(x.call(t, &p));
            }
            if b.declarative_native {
                mark_native(&mut out[start..]);
            }
        }
        return Ok(Explanation {
            subject: root.name.clone(),
            value_type: root.name.clone(),
            rules: out,
        });
    }
    // Walk the path through the shapes; `block` is the field block of the last field step,
    // `elements` the eachVal validations that apply to the items of the last step.
    let mut shape = root.shape;
    let mut block: Option<&FieldRules> = None;
    // Under a `+k8s:declarativeValidationNative` field every error is marked, down to the
    // field's type's fields.
    let mut native = false;
    let mut elements: Vec<(&Validation, &Validation)> = Vec::new();
    // Cross-field limits on the last field step, hoisted to its struct (with that struct).
    let mut hoisted: Vec<(&Validation, Site<'_>)> = Vec::new();
    for (i, step) in path.iter().enumerate() {
        let s = x.deref(shape);
        let so_far = path_text(&path[..i]);
        match step {
            Step::Field(name) => {
                let Shape::Struct(_) = rules.shape(s) else {
                    return Err(CliError::Usage(format!(
                        "{}: {} is not an object, it has no field {name}",
                        root.name,
                        if so_far.is_empty() {
                            "the type".to_string()
                        } else {
                            so_far.clone()
                        }
                    )));
                };
                let Some((owner, go_name, fshape)) = x.find_field(s, name) else {
                    let names = x.field_names(s);
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    return Err(CliError::Usage(format!(
                        "{}: no field {} in {}{}",
                        root.name,
                        path_text(&path[..=i]),
                        if so_far.is_empty() {
                            root.name.clone()
                        } else {
                            so_far.clone()
                        },
                        near_list(name, &names)
                    )));
                };
                block = owner.and_then(|t| {
                    rules
                        .type_rules(t)
                        .fields
                        .iter()
                        .find(|b| b.go_name == go_name)
                });
                native |= block.is_some_and(|b| b.declarative_native);
                elements = Vec::new();
                hoisted = owner
                    .map(|id| {
                        let t = rules.type_rules(id);
                        let site = if rules.roots.iter().any(|r| r.id == id) {
                            Site::Root
                        } else {
                            Site::TypeOf(&t.name)
                        };
                        t.validations
                            .iter()
                            .filter(|v| {
                                matches!(&v.check, Check::CrossFieldLimit(c) if c.field == *name)
                            })
                            .map(|v| (v, site))
                            .collect()
                    })
                    .unwrap_or_default();
                shape = fshape;
            }
            Step::Items => {
                let next = match rules.shape(s) {
                    Shape::Slice(e) => *e,
                    Shape::Map { value, .. } => *value,
                    _ => {
                        return Err(CliError::Usage(format!(
                            "{}: {so_far} is not a list or map, it has no items [*]",
                            root.name
                        )));
                    }
                };
                let mut inner: Vec<(&Validation, &Validation)> = Vec::new();
                if let Some(b) = block {
                    for v in b.validations.iter().chain(b.iterations.iter()) {
                        if let Check::EachListVal { inner: i, .. }
                        | Check::EachMapVal { inner: i, .. } = &v.check
                        {
                            inner.push((v, i));
                        }
                    }
                }
                if let Some(t) = x.named(s) {
                    for v in t.validations.iter().chain(t.iterations.iter()) {
                        if let Check::EachListVal { inner: i, .. }
                        | Check::EachMapVal { inner: i, .. } = &v.check
                        {
                            inner.push((v, i));
                        }
                    }
                }
                elements = inner;
                hoisted = Vec::new();
                block = None;
                shape = next;
            }
        }
    }
    let p = path_text(path);
    if let Some(b) = block {
        for v in b.validations.iter().chain(b.iterations.iter()) {
            out.push(x.rule(v, &p, Site::Field(b.equality)));
        }
    }
    for (outer, inner) in &elements {
        out.push(x.element_rule(outer, inner, &p));
    }
    for (v, site) in &hoisted {
        out.push(x.rule(v, &p, *site));
    }
    // The value's own type: its type-level rules apply unless the field is opaque.
    let opaque = block.is_some_and(|b| b.type_call.is_none())
        && x.named(x.deref(shape)).is_some_and(|t| t.has_validations);
    if let Some(t) = x.named(x.deref(shape))
        && !opaque
    {
        x.type_rules(t, &p, Site::TypeOf(&t.name), &mut out);
    }
    if native {
        mark_native(&mut out);
    }
    Ok(Explanation {
        subject: format!("{} {p}", root.name),
        value_type: x.type_text(shape),
        rules: out,
    })
}

fn field_path(b: &FieldRules) -> String {
    match &b.access {
        FieldAccess::Key(k) => k.clone(),
        // Embedded fields: their rules apply to the embedding object.
        FieldAccess::Inline { .. } | FieldAccess::Skip => String::new(),
    }
}

impl<'r> Explainer<'r> {
    fn deref(&self, mut s: ShapeId) -> ShapeId {
        while let Shape::Pointer(inner) = self.rules.shape(s) {
            s = *inner;
        }
        s
    }

    fn named(&self, s: ShapeId) -> Option<&'r TypeRules> {
        let rules: &'r RuleSet = self.rules;
        self.by_shape.get(&s).map(|&id| rules.type_rules(id))
    }

    /// The field with JSON name `name` of struct shape `s` (embedded structs searched):
    /// the type declaring it, its Go name and shape.
    fn find_field(&self, s: ShapeId, name: &str) -> Option<(Option<TypeId>, String, ShapeId)> {
        let Shape::Struct(st) = self.rules.shape(s) else {
            return None;
        };
        for f in &st.fields {
            match &f.access {
                FieldAccess::Key(k) if k == name => {
                    return Some((self.by_shape.get(&s).copied(), f.go_name.clone(), f.shape));
                }
                FieldAccess::Inline { .. } => {
                    if let Some(found) = self.find_field(self.deref(f.shape), name) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn field_names(&self, s: ShapeId) -> Vec<String> {
        let Shape::Struct(st) = self.rules.shape(s) else {
            return Vec::new();
        };
        let mut names = Vec::new();
        for f in &st.fields {
            match &f.access {
                FieldAccess::Key(k) => names.push(k.clone()),
                FieldAccess::Inline { .. } => names.extend(self.field_names(self.deref(f.shape))),
                FieldAccess::Skip => {}
            }
        }
        names
    }

    fn type_text(&self, s: ShapeId) -> String {
        if let Some(t) = self.named(s) {
            return t.name.clone();
        }
        match self.rules.shape(s) {
            Shape::Pointer(i) => format!("*{}", self.type_text(*i)),
            Shape::Slice(e) => format!("[]{}", self.type_text(*e)),
            Shape::Map { value, .. } => format!("map[string]{}", self.type_text(*value)),
            Shape::String { .. } => "string".into(),
            Shape::Bool => "bool".into(),
            Shape::Int(k) => format!("{}int{}", if k.signed { "" } else { "u" }, k.bits),
            Shape::Float(b) => format!("float{b}"),
            Shape::Bytes => "[]byte".into(),
            Shape::Struct(_) => "struct".into(),
            Shape::Any => "any".into(),
        }
    }

    fn type_rules(&self, t: &TypeRules, path: &str, site: Site<'_>, out: &mut Vec<Rule>) {
        for v in t.validations.iter().chain(t.iterations.iter()) {
            out.push(self.rule(v, path, site));
        }
    }

    /// A field's call of its type's rules.
    fn call(&self, t: TypeId, path: &str) -> Rule {
        let name = self.rules.type_name(t);
        Rule {
            path: path.to_string(),
            source: format!("(type {name})"),
            location: None,
            rule: format!(
                "the rules of type {name} and its fields (`kdv explain --types DIR {name}`)"
            ),
            lifecycle: "per rule of the type".into(),
            ratcheting: "skipped on update when the field is unchanged".into(),
            published: "the type's rules, below this property".into(),
        }
    }

    fn rule(&self, v: &Validation, path: &str, site: Site<'_>) -> Rule {
        let span = v.origin.and_then(|s| self.rules.span(s));
        Rule {
            path: path.to_string(),
            source: span.map_or_else(|| format!("(implicit) +{}", v.tag), written),
            location: span.map(location),
            rule: self.describe(v),
            lifecycle: lifecycle(v),
            ratcheting: ratcheting(v, site),
            published: self.published(v, v, span, path),
        }
    }

    /// The validation `inner` that `outer` (`eachVal`) applies to each item at `path`.
    fn element_rule(&self, outer: &Validation, inner: &Validation, path: &str) -> Rule {
        let span = outer.origin.and_then(|s| self.rules.span(s));
        Rule {
            path: path.to_string(),
            source: span.map_or_else(|| format!("(implicit) +{}", outer.tag), written),
            location: span.map(location),
            rule: self.describe(inner),
            lifecycle: lifecycle(outer),
            ratcheting: ratcheting(outer, Site::Element),
            published: self.published(outer, inner, span, path),
        }
    }

    /// What `v` requires, in words.
    fn describe(&self, v: &Validation) -> String {
        match &v.check {
            Check::Required(_) => "required: must be set".to_string(),
            Check::Optional(_) if v.tag == DEFAULT_TAG => {
                "defaulted (kdv extension +k8s:default): when unset, the field holds its default, which lint checks against its other rules; never Required".to_string()
            }
            Check::Optional(_) => {
                "optional: when unset, the field's other rules are not checked".to_string()
            }
            Check::Forbidden(_) => "forbidden: must not be set".to_string(),
            Check::Minimum(n) => format!("must be greater than or equal to {n}"),
            Check::Maximum(n) => format!("must be less than or equal to {n}"),
            Check::MinLength(n) => format!("must be at least {n} characters long"),
            Check::MaxLength(n) => format!("must be no more than {n} characters long"),
            Check::MaxBytes(n) => format!("must be no more than {n} bytes long"),
            Check::MinItems(n) => format!("must have at least {n} items"),
            Check::MaxItems(n) => format!("must have at most {n} items"),
            Check::MinProperties(n) => format!("must have at least {n} entries"),
            Check::MaxProperties(n) => format!("must have at most {n} entries"),
            Check::ExclusiveMinimum(n) => {
                format!("must be greater than {n} (kdv extension +k8s:exclusiveMinimum)")
            }
            Check::ExclusiveMaximum(n) => {
                format!("must be less than {n} (kdv extension +k8s:exclusiveMaximum)")
            }
            Check::Pattern(spec) => format!(
                "must contain a match of the Go regular expression '{}' (kdv extension +k8s:pattern)",
                spec.pattern.source()
            ),
            Check::Format(f) => format!("must have format {}", f.name()),
            Check::Enum(spec) => {
                let mut s = format!("must be one of: {}", spec.members.join(", "));
                if !spec.exclusions.is_empty() {
                    s.push_str(" (some excluded under validation options)");
                }
                s
            }
            Check::Neq(l) => format!("must not equal {l}"),
            Check::Immutable => "immutable: may not change once set (on update)".to_string(),
            Check::Fixed { pass, message } => {
                if *pass {
                    format!("always passes (test tag): {message}")
                } else {
                    format!("always fails (test tag): forced failure: {message}")
                }
            }
            Check::Unique(m) => format!("items must be unique {}", item_match(m)),
            Check::NoNilElements => "items must not be null".to_string(),
            Check::EachListVal { inner, .. } => format!("each item: {}", self.describe(inner)),
            Check::EachMapVal { inner, .. } => format!("each value: {}", self.describe(inner)),
            Check::EachMapKey { inner } => format!("each key: {}", self.describe(inner)),
            Check::Subfield { name, inner, .. } => {
                format!("field {name}: {}", self.describe(inner))
            }
            Check::IfOption {
                option,
                enabled,
                inner,
            } => format!(
                "when option {option} is {}: {}",
                if *enabled { "enabled" } else { "disabled" },
                self.describe(inner)
            ),
            Check::IfSubresource {
                subresource,
                addressed,
                inner,
            } => format!(
                "{} requests for the subresource {subresource} (kdv extension): {}",
                if *addressed { "on" } else { "except on" },
                self.describe(inner)
            ),
            Check::CallType(t) => format!("the rules of type {}", self.rules.type_name(*t)),
            Check::Update { constraints, .. } => format!(
                "on update: {}",
                constraints
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Check::Monotonic => "on update, may not decrease".to_string(),
            Check::Item {
                criteria, inner, ..
            } => format!(
                "the item with {}: {}",
                criteria
                    .iter()
                    .map(|c| format!("{}={}", c.field.name, c.value))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.describe(inner)
            ),
            Check::Union(u) => {
                let names: Vec<&str> = u.members.iter().map(|m| m.name.as_str()).collect();
                match &u.kind {
                    UnionKind::ExactlyOne => {
                        format!("exactly one of {} must be set", names.join(", "))
                    }
                    UnionKind::ZeroOrOne => {
                        format!("at most one of {} may be set", names.join(", "))
                    }
                    UnionKind::Discriminated { name, .. } => format!(
                        "{name} names the one member of {} that must be set",
                        names.join(", ")
                    ),
                }
            }
            Check::Discriminated(d) => format!(
                "the rules of field {} depend on the mode discriminator ({} modes)",
                d.field,
                d.rules.len()
            ),
            Check::Dependency(d) => format!(
                "when {} is set, {} must {}be set",
                d.trigger,
                d.dependent,
                if d.forbidden { "not " } else { "" }
            ),
            Check::CustomValidation { function_name, .. } => {
                format!("hand-written function {function_name} (run only when registered by name)")
            }
            Check::CelRule(r) => {
                let mut s = format!(
                    "CEL rule (kdv extension +validationRule, run as a CRD rule at this node){}: {}",
                    if r.mentions_old_self() {
                        ", a transition rule (update only, with the correlated old value)"
                    } else {
                        ""
                    },
                    r.rule
                );
                if let Some(m) = &r.message {
                    s.push_str(&format!("; message {}", kdv_tags::go_quote(m)));
                }
                if let Some(m) = &r.message_expression {
                    s.push_str(&format!("; messageExpression {}", kdv_tags::go_quote(m)));
                }
                if let Some(reason) = r.reason {
                    s.push_str(&format!("; reason {}", reason.crd_reason()));
                }
                if let Some(p) = r.field_path() {
                    s.push_str(&format!("; reported at {p}"));
                }
                s
            }
            Check::CrossFieldLimit(c) => {
                let what = match c.bound {
                    Bound::Minimum => "must be greater than or equal to",
                    Bound::Maximum => "must be less than or equal to",
                    Bound::MinLength => "must have at least as many characters as",
                    Bound::MaxLength => "may have at most as many characters as",
                    Bound::MinItems => "must have at least as many items as",
                    Bound::MaxItems => "may have at most as many items as",
                };
                let subject = match c.each {
                    None => c.field.clone(),
                    Some(kdv_rules::CrossFieldEach::Items) => format!("each item of {}", c.field),
                    Some(kdv_rules::CrossFieldEach::Values) => {
                        format!("each value of {}", c.field)
                    }
                };
                format!(
                    "{subject} {what} the value of {} (kdv extension +{}(constraint: {}), checked at this struct; not checked while {} is absent)",
                    c.reference,
                    c.bound.tag(),
                    c.reference,
                    c.reference
                )
            }
            Check::ItemUpdate(u) => {
                let what: Vec<&str> = u
                    .constraints
                    .iter()
                    .filter_map(|c| match c {
                        kdv_rules::UpdateConstraint::NoSet => Some("may not be added on update"),
                        kdv_rules::UpdateConstraint::NoUnset => {
                            Some("may not be removed on update (clearing the list included)")
                        }
                        _ => None,
                    })
                    .collect();
                format!(
                    "the item {} {} (kdv extension +k8s:item(...)=+k8s:update, checked at the list)",
                    u.selector,
                    what.join(" and ")
                )
            }
        }
    }

    /// What `kdv-schema` publishes for `v`: its CEL rule (matched by the tag's span), the
    /// note saying why not, or the OpenAPI keyword of `check` (`v` or, for an item at
    /// `path`, what `v` applies to it) at the value's node.
    fn published(
        &self,
        v: &Validation,
        check: &Validation,
        span: Option<&SourceSpan>,
        path: &str,
    ) -> String {
        if let Some(span) = span {
            let tag = format!("+{}", v.tag);
            let same = |s: &Option<SourceSpan>| {
                s.as_ref().is_some_and(|s| {
                    s.path == span.path && s.line == span.line && s.col == span.col
                })
            };
            let mut cel: Vec<&kdv_schema::Published> = self
                .emitted
                .published
                .iter()
                .filter(|p| p.tag == tag && same(&p.span))
                .collect();
            // A type used at several paths publishes the rule at each; show the one here.
            let display = if path.is_empty() { "<root>" } else { path };
            if cel.iter().any(|p| p.path == display) {
                cel.retain(|p| p.path == display);
            }
            if !cel.is_empty() {
                let one = |p: &kdv_schema::Published| {
                    if p.path == display {
                        compact(&p.rule)
                    } else {
                        format!("on {}: {}", p.path, compact(&p.rule))
                    }
                };
                let texts: Vec<String> = cel.iter().map(|p| one(p)).collect();
                return if texts.len() == 1 {
                    format!("CEL rule {}", texts[0])
                } else {
                    format!("CEL rules ({}): {}", texts.len(), texts.join("; "))
                };
            }
            if let Some(n) = self
                .emitted
                .notes
                .iter()
                .find(|n| n.tag == tag && same(&n.span))
            {
                return format!("not publishable: {}", n.reason);
            }
        }
        let node = schema_node(&self.emitted.schema, path);
        let default = node.and_then(|n| n.get("default"));
        if check.tag == DEFAULT_TAG
            && let Some(d) = default
        {
            return format!(
                "OpenAPI keyword `default: {}`; a defaulted field is never in `required`",
                compact(d)
            );
        }
        match keyword(&check.check) {
            Some(Keyword::Required) => {
                let (parent, name) = match path.rsplit_once('.') {
                    Some((p, n)) => (p, n),
                    None => ("", path),
                };
                let required = schema_node(&self.emitted.schema, parent)
                    .and_then(|n| n.get("required"))
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.iter().any(|x| x == name));
                if required {
                    format!("OpenAPI keyword: `{name}` in the parent's `required`")
                } else if let Some(d) = default {
                    format!(
                        "OpenAPI keyword `default: {}` (`+default`): a defaulted field is never in `required`",
                        compact(d)
                    )
                } else {
                    "nothing".to_string()
                }
            }
            Some(Keyword::At(steps, key)) => {
                let mut n = node;
                for st in &steps {
                    n = n.and_then(|n| n.get(st));
                }
                // OpenAPI v3.0's exclusive flags hold no bound: show the one they qualify.
                let bound = match key {
                    "exclusiveMinimum" => Some("minimum"),
                    "exclusiveMaximum" => Some("maximum"),
                    _ => None,
                };
                match (n.and_then(|n| n.get(key)), bound) {
                    (Some(flag), Some(bound)) if flag == &Value::Bool(true) => {
                        match n.and_then(|n| n.get(bound)) {
                            Some(b) => {
                                format!("OpenAPI keywords `{bound}: {}, {key}: true`", compact(b))
                            }
                            None => "nothing".to_string(),
                        }
                    }
                    (Some(_), Some(bound)) | (None, Some(bound)) => {
                        match n.and_then(|n| n.get(bound)) {
                            Some(b) => format!(
                                "nothing of its own: the tighter `{bound}: {}` is published",
                                compact(b)
                            ),
                            None => "nothing".to_string(),
                        }
                    }
                    (Some(value), None) => format!("OpenAPI keyword `{key}: {}`", compact(value)),
                    (None, None) => "nothing".to_string(),
                }
            }
            Some(Keyword::Nothing(why)) => format!("nothing: {why}"),
            None => "nothing".to_string(),
        }
    }
}

/// `+k8s:default` (its validation is `Optional`; explained as a default).
const DEFAULT_TAG: &str = "k8s:default";

/// Where a check is published as a keyword.
enum Keyword {
    /// In the parent's `required`.
    Required,
    /// `key` at the node reached by these schema steps.
    At(Vec<String>, &'static str),
    /// Nothing, and why.
    Nothing(&'static str),
}

fn keyword(check: &Check) -> Option<Keyword> {
    Some(match check {
        Check::Required(_) => Keyword::Required,
        Check::Optional(_) => Keyword::Nothing("an optional field is not in `required`"),
        Check::Minimum(_) => Keyword::At(Vec::new(), "minimum"),
        Check::Maximum(_) => Keyword::At(Vec::new(), "maximum"),
        // OpenAPI v3.0's flag beside `minimum`/`maximum`, which hold the bound.
        Check::ExclusiveMinimum(_) => Keyword::At(Vec::new(), "exclusiveMinimum"),
        Check::ExclusiveMaximum(_) => Keyword::At(Vec::new(), "exclusiveMaximum"),
        Check::Pattern(_) => Keyword::At(Vec::new(), "pattern"),
        Check::MinLength(_) => Keyword::At(Vec::new(), "minLength"),
        Check::MaxLength(_) => Keyword::At(Vec::new(), "maxLength"),
        Check::MinItems(_) => Keyword::At(Vec::new(), "minItems"),
        Check::MaxItems(_) => Keyword::At(Vec::new(), "maxItems"),
        Check::MinProperties(_) => Keyword::At(Vec::new(), "minProperties"),
        Check::MaxProperties(_) => Keyword::At(Vec::new(), "maxProperties"),
        Check::Enum(_) => Keyword::At(Vec::new(), "enum"),
        Check::Unique(_) => Keyword::At(Vec::new(), "x-kubernetes-list-type"),
        Check::CallType(_) => Keyword::Nothing("the type's rules are published with it"),
        Check::EachListVal { inner, .. } => match keyword(&inner.check)? {
            Keyword::At(mut steps, key) => {
                steps.insert(0, "items".to_string());
                Keyword::At(steps, key)
            }
            other => other,
        },
        Check::EachMapVal { inner, .. } => match keyword(&inner.check)? {
            Keyword::At(mut steps, key) => {
                steps.insert(0, "additionalProperties".to_string());
                Keyword::At(steps, key)
            }
            other => other,
        },
        Check::Subfield { name, inner, .. } => match keyword(&inner.check)? {
            Keyword::At(mut steps, key) => {
                steps.splice(0..0, ["properties".to_string(), name.clone()]);
                Keyword::At(steps, key)
            }
            other => other,
        },
        _ => return None,
    })
}

/// The schema node at a JSON path (`properties`, `items`, `additionalProperties`).
fn schema_node<'v>(schema: &'v Value, path: &str) -> Option<&'v Value> {
    let mut node = schema;
    if path.is_empty() {
        return Some(node);
    }
    let steps = parse_path(path).ok()?;
    for st in &steps {
        node = match st {
            Step::Field(f) => node.get("properties")?.get(f)?,
            Step::Items => node
                .get("items")
                .or_else(|| node.get("additionalProperties"))?,
        };
    }
    Some(node)
}

fn item_match(m: &ItemMatch) -> String {
    match m {
        ItemMatch::Direct | ItemMatch::Semantic => "(as whole values)".to_string(),
        ItemMatch::Keys(keys) => format!(
            "by {}",
            keys.iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The tag as written: its comment line without the comment marker (a tag line holds one
/// tag, chains included), else the span's text.
fn written(span: &SourceSpan) -> String {
    let line = span.line_text.trim_start();
    let body = line
        .strip_prefix("///")
        .or_else(|| line.strip_prefix("//!"))
        .or_else(|| line.strip_prefix("//"))
        .unwrap_or(line)
        .trim();
    if body.starts_with("+k8s:") {
        return body.to_string();
    }
    let start = (span.col as usize).saturating_sub(1);
    let end = start + (span.len as usize).max(1);
    let text = span
        .line_text
        .get(start..end.min(span.line_text.len()))
        .unwrap_or(&span.line_text)
        .trim();
    format!("+{}", text.trim_start_matches('+'))
}

fn location(span: &SourceSpan) -> String {
    format!("{}:{}:{}", span.path.display(), span.line, span.col)
}

/// Rules of a `+k8s:declarativeValidationNative` field: their errors are declarative-only.
fn mark_native(rules: &mut [Rule]) {
    for r in rules {
        r.lifecycle = format!("{NATIVE_LIFECYCLE}; {}", r.lifecycle);
    }
}

const NATIVE_LIFECYCLE: &str = "declarative-native (+k8s:declarativeValidationNative): always enforced, never compared with hand-written validation";

/// The use site's lifecycle, declarative-native first when the validation is marked so.
fn lifecycle(v: &Validation) -> String {
    if v.declarative_native {
        // A union with a native member: upstream marks its errors declarative-native.
        return format!("{NATIVE_LIFECYCLE}; {}", level_lifecycle(v));
    }
    level_lifecycle(v)
}

/// The use site's lifecycle: the validation's `+k8s:alpha`/`+k8s:beta` mark, else the mark
/// of what it wraps unless upstream drops it (a wrapped argument-less function is passed by
/// reference and loses its mark: [`Validation::bare`]).
fn level_lifecycle(v: &Validation) -> String {
    let mut level = v.level;
    let mut cur = v;
    while level.is_none() {
        match cur.check.inner() {
            Some(inner) if !inner.bare => {
                level = inner.level;
                cur = inner;
            }
            _ => break,
        }
    }
    match level {
        Some(Level::Alpha) => "alpha: always shadowed; hand-written validation wins and mismatches are reported through metrics".into(),
        Some(Level::Beta) => "beta: enforced while DeclarativeValidationBeta is on (the default), shadowed when it is off".into(),
        None => "stable: always enforced".into(),
    }
}

/// How `v` behaves on update where it sits (validation-gen's ratcheting).
fn ratcheting(v: &Validation, site: Site<'_>) -> String {
    let own = match &v.check {
        Check::Immutable | Check::Update { .. } | Check::Monotonic | Check::ItemUpdate(_) => {
            Some("compares the old and new values by design")
        }
        Check::Union(_) => Some("re-checked only when which members are set changes"),
        Check::Dependency(_) => Some("re-checked only when either field's set-ness changes"),
        Check::CrossFieldLimit(_) => {
            Some("re-checked only when the field or the referenced field changes")
        }
        Check::Discriminated(_) => {
            Some("skipped when the discriminator and the field are unchanged")
        }
        Check::EachListVal { matching: None, .. } => {
            Some("every item is checked (an atomic list correlates no items)")
        }
        Check::EachListVal {
            matching: Some(ItemMatch::Keys(_)),
            ..
        } => Some("items whose old item (same keys) is unchanged are skipped"),
        Check::EachListVal { .. } => Some("items already in the old list are skipped"),
        Check::EachMapVal { .. } => Some("values unchanged under the same key are skipped"),
        Check::EachMapKey { .. } => Some("keys already in the old map are skipped"),
        Check::Subfield { .. } => Some("skipped when the subfield is unchanged"),
        Check::Item { .. } => Some("skipped when the matching old item is unchanged"),
        _ => None,
    };
    let base = match site {
        Site::Root => "not ratcheted: a root type's own rules run on every update".to_string(),
        Site::TypeOf(name) => format!(
            "skipped on update when the value is unchanged (rules of type {name} run only when the field or item holding it changed)"
        ),
        Site::Field(Equality::Direct) => {
            "skipped on update when the field is unchanged (Go ==)".to_string()
        }
        Site::Field(Equality::Semantic) => {
            "skipped on update when the field is unchanged (Semantic.DeepEqual)".to_string()
        }
        Site::Element => "the field's rule, applied to each item or value".to_string(),
    };
    match own {
        Some(own) => format!("{base}; {own}"),
        None => base,
    }
}
