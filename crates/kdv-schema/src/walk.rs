//! The walk over a type's shape and rules: structure from the shapes, value validations as
//! OpenAPI keywords where kube-openapi gives the same verdict, CEL rules for the rest, and a
//! [`Note`] for every rule that cannot be published.

use std::collections::HashMap;

use kdv_rules::{
    CelReason, CelRule, Check, EnumSpec, FieldAccess, FieldPresence, Format, ItemCriterion,
    ItemMatch, MemberSet, Presence, RuleSet, Shape, ShapeId, TypeId, TypeRules, Union, UnionKind,
    UpdateConstraint, UpdateKind, Validation,
};
use kdv_runtime::gofmt;
use serde_json::{Value, json};

use crate::cel::{self, deref, field_name, field_path, quote};
use crate::node::{Node, Origin, Rule};
use crate::{EmitOptions, Note};

const INVALID: &str = "FieldValueInvalid";
const REQUIRED: &str = "FieldValueRequired";
const FORBIDDEN: &str = "FieldValueForbidden";

/// A CEL predicate over one subject with the error it stands for.
struct Pred {
    expr: String,
    message: String,
    reason: &'static str,
}

/// Where a validation of a struct field applies: the struct's node (for rules about the
/// field's presence and transitions) and the field's name in it.
struct FieldSite<'a> {
    parent: &'a mut Node,
    name: &'a str,
    shape: ShapeId,
}

pub(crate) struct Emitter<'r> {
    rules: &'r RuleSet,
    opts: &'r EmitOptions,
    by_shape: HashMap<ShapeId, TypeId>,
    pub(crate) notes: Vec<Note>,
    /// Named struct shapes being expanded (a recursive type is cut where it repeats).
    stack: Vec<ShapeId>,
}

impl<'r> Emitter<'r> {
    pub(crate) fn new(rules: &'r RuleSet, opts: &'r EmitOptions) -> Emitter<'r> {
        let by_shape = rules
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.shape, TypeId(i as u32)))
            .collect();
        Emitter {
            rules,
            opts,
            by_shape,
            notes: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn note(&mut self, v: &Validation, path: &str, reason: impl Into<String>) {
        self.notes.push(Note {
            tag: format!("+{}", v.tag),
            span: v.origin.and_then(|s| self.rules.span(s)).cloned(),
            path: display_path(path),
            reason: reason.into(),
        });
    }

    fn origin(&self, v: &Validation) -> Origin {
        Origin {
            tag: format!("+{}", v.tag),
            span: v.origin.and_then(|s| self.rules.span(s)).cloned(),
        }
    }

    fn named(&self, shape: ShapeId) -> Option<&'r TypeRules> {
        let rules: &'r RuleSet = self.rules;
        self.by_shape.get(&shape).map(|&id| rules.type_rules(id))
    }

    /// The schema of a value of `shape` (pointers transparent), with the rules of its named
    /// type unless `type_rules` is false (an opaque field).
    pub(crate) fn value(
        &mut self,
        shape: ShapeId,
        path: &str,
        type_rules: bool,
        skip: Option<&str>,
    ) -> Node {
        let s = deref(self.rules, shape);
        let named = self.named(s);
        if let Some(t) = named
            && let Some(node) = well_known(t, path)
        {
            return node;
        }
        let mut node = Node::default();
        match self.rules.shape(s) {
            Shape::String { .. } => {
                node.keyword("type", json!("string"));
            }
            Shape::Bool => node.keyword("type", json!("boolean")),
            Shape::Int(k) => {
                node.keyword("type", json!("integer"));
                if k.signed && k.bits == 32 {
                    node.keyword("format", json!("int32"));
                } else if k.signed && k.bits == 64 {
                    node.keyword("format", json!("int64"));
                }
                // The server keeps no integer format before 1.36, while Go's decoder
                // rejects a value its type cannot hold: the type's range says so.
                if k.bits < 64 || !k.signed {
                    node.keyword("minimum", json!(k.min() as i64));
                }
                if k.bits < 64 {
                    node.keyword("maximum", json!(k.max() as i64));
                }
            }
            Shape::Float(_) => node.keyword("type", json!("number")),
            Shape::Bytes => {
                node.keyword("type", json!("string"));
                node.keyword("format", json!("byte"));
            }
            Shape::Slice(e) => {
                let e = *e;
                node.keyword("type", json!("array"));
                node.items = Some(Box::new(self.value(e, &format!("{path}[*]"), true, None)));
            }
            Shape::Map { value, .. } => {
                let value = *value;
                node.keyword("type", json!("object"));
                node.additional = Some(Box::new(self.value(
                    value,
                    &format!("{path}[*]"),
                    true,
                    None,
                )));
            }
            Shape::Struct(st) => {
                if self.stack.contains(&s) {
                    node.keyword("type", json!("object"));
                    node.keyword("x-kubernetes-preserve-unknown-fields", json!(true));
                    self.notes.push(Note {
                        tag: String::new(),
                        span: None,
                        path: display_path(path),
                        reason: format!(
                            "recursive type {}: a CRD schema cannot refer to itself, so this \
                             level keeps unknown fields and carries none of the type's rules",
                            named.map_or("(anonymous)", |t| t.name.as_str())
                        ),
                    });
                    return node;
                }
                self.stack.push(s);
                node.keyword("type", json!("object"));
                let fields = st.fields.clone();
                for f in &fields {
                    // Below an opaque field nothing is validated (`type_rules` false).
                    let block = named
                        .filter(|_| type_rules)
                        .and_then(|t| t.fields.iter().find(|b| b.go_name == f.go_name));
                    // A field whose type has rules but no call of them is opaque
                    // (`+k8s:opaqueType`): its type's rules do not apply there.
                    let type_has_rules = self
                        .named(deref(self.rules, f.shape))
                        .is_some_and(|t| t.has_validations);
                    let inner_rules = type_rules
                        && (!type_has_rules || block.is_some_and(|b| b.type_call.is_some()));
                    match &f.access {
                        FieldAccess::Skip => {}
                        FieldAccess::Inline { .. } => {
                            let mut inner = self.value(f.shape, path, inner_rules, None);
                            if let Some(b) = block {
                                for v in b.validations.iter().chain(b.iterations.iter()) {
                                    self.apply(v, &mut inner, f.shape, None, None, path);
                                    inner.stamp(&self.origin(v));
                                }
                            }
                            node.absorb(inner);
                        }
                        FieldAccess::Key(name) => {
                            let child_path = join(path, name);
                            let skip =
                                block.and_then(|b| self.zero_skip(b.validations.iter(), f.shape));
                            let mut child =
                                self.value(f.shape, &child_path, inner_rules, skip.as_deref());
                            if let Some(b) = block {
                                if b.validations.iter().any(|v| {
                                    matches!(v.check, Check::Required(_) | Check::Optional(_))
                                }) {
                                } else if self.zero_fails(f.shape) {
                                    // Go validates the zero value of an absent struct.
                                    node.required.insert(name.clone());
                                }
                                for v in b.validations.iter() {
                                    let site = FieldSite {
                                        parent: &mut node,
                                        name,
                                        shape: f.shape,
                                    };
                                    self.apply(
                                        v,
                                        &mut child,
                                        f.shape,
                                        skip.as_deref(),
                                        Some(site),
                                        &child_path,
                                    );
                                    let origin = self.origin(v);
                                    child.stamp(&origin);
                                    stamp_own(&mut node, &origin);
                                }
                                for v in &b.iterations {
                                    self.apply(
                                        v,
                                        &mut child,
                                        f.shape,
                                        skip.as_deref(),
                                        None,
                                        &child_path,
                                    );
                                    child.stamp(&self.origin(v));
                                }
                            } else if self.zero_fails(f.shape) {
                                node.required.insert(name.clone());
                            }
                            if let Some(d) = self
                                .by_shape
                                .get(&s)
                                .and_then(|&t| self.rules.field_default(t, &f.go_name))
                            {
                                // The server sets an absent field to its default before
                                // it validates: a defaulted field is never required.
                                child.keyword("default", d.value.clone());
                                node.required.remove(name.as_str());
                            }
                            node.properties.insert(name.clone(), child);
                        }
                    }
                }
                self.stack.pop();
            }
            Shape::Any | Shape::Pointer(_) => {
                node.keyword("x-kubernetes-preserve-unknown-fields", json!(true));
            }
        }
        if let Some(t) = named
            && is_object_meta(t)
        {
            // The server bounds these wherever ObjectMeta is a resource's; a rule reading
            // them (`+validationRule`) needs the bounds to have an estimable cost.
            for (name, max) in [("name", 253), ("generateName", 252)] {
                if let Some(p) = node.properties.get_mut(name) {
                    p.keyword("maxLength", json!(max));
                }
            }
        }
        if type_rules && let Some(t) = named {
            for v in t.validations.iter().chain(t.iterations.iter()) {
                self.apply(v, &mut node, s, skip, None, path);
                node.stamp(&self.origin(v));
            }
        }
        node
    }

    /// Whether the zero value of a non-pointer struct fails its type's validations (a
    /// required member): Go validates an absent struct field as its zero value, so the
    /// schema must require the field.
    fn zero_fails(&self, shape: ShapeId) -> bool {
        if !matches!(self.rules.shape(shape), Shape::Struct(_)) {
            return false;
        }
        self.named(shape).is_some_and(|t| {
            t.fields.iter().any(|b| {
                b.validations
                    .iter()
                    .any(|v| matches!(v.check, Check::Required(_)))
            })
        })
    }

    /// The CEL condition "the value is the zero value the tags skip" when the field is
    /// `+k8s:optional` and not a pointer: Go cannot tell an absent value from its zero value,
    /// so the tags skip the field's checks on `""`, `0`, `[]`; the schema sees a value.
    fn zero_skip<'v>(
        &self,
        mut validations: impl Iterator<Item = &'v Validation>,
        shape: ShapeId,
    ) -> Option<String> {
        let optional = validations.any(|v| matches!(v.check, Check::Optional(_)));
        if !optional {
            return None;
        }
        match self.rules.shape(shape) {
            Shape::Slice(_) | Shape::Map { .. } => Some("size(self) == 0".into()),
            Shape::String { .. } | Shape::Bytes | Shape::Bool | Shape::Int(_) | Shape::Float(_) => {
                cel::zero(self.rules, shape).map(|z| format!("self == {z}"))
            }
            _ => None,
        }
    }

    /// Publishes one validation at `node` (the value of `shape`; `site` when it is a struct
    /// field, whose presence rules belong to the struct).
    fn apply(
        &mut self,
        v: &Validation,
        node: &mut Node,
        shape: ShapeId,
        skip: Option<&str>,
        site: Option<FieldSite<'_>>,
        path: &str,
    ) {
        let s = deref(self.rules, shape);
        match &v.check {
            Check::Optional(_) | Check::NoNilElements | Check::CallType(_) => {}
            Check::Required(p) => self.required(v, node, s, *p, site, path),
            Check::Forbidden(p) => match site.and_then(|site| self.site_name(site, v, path)) {
                Some((parent, f, fshape)) => {
                    let set = cel::is_set(self.rules, "self", &f.1, fshape, *p);
                    parent.rule(
                        Rule::new(format!("!{set}"), "Forbidden")
                            .reason(FORBIDDEN)
                            .at(field_path(&f.0)),
                    );
                }
                None => self.note(v, path, "forbidden outside a struct field"),
            },
            Check::Minimum(_)
            | Check::Maximum(_)
            | Check::MinLength(_)
            | Check::MaxLength(_)
            | Check::MaxBytes(_)
            | Check::MinItems(_)
            | Check::MaxItems(_)
            | Check::MinProperties(_)
            | Check::MaxProperties(_)
            | Check::ExclusiveMinimum(_)
            | Check::ExclusiveMaximum(_)
            | Check::Pattern(_)
            | Check::Format(_)
            | Check::Neq(_) => self.value_check(v, node, s, skip, path),
            Check::Enum(spec) => {
                let members = self.enum_members(v, spec, path);
                let mut values: Vec<Value> = members.into_iter().map(Value::String).collect();
                if skip.is_some() {
                    values.insert(0, json!(""));
                }
                node.keyword("enum", Value::Array(values));
            }
            Check::Unique(m) => match m {
                ItemMatch::Direct | ItemMatch::Semantic => {
                    let scalar = matches!(self.rules.shape(s), Shape::Slice(e) if matches!(self.rules.shape(deref(self.rules, *e)), Shape::String{..} | Shape::Int(_) | Shape::Float(_) | Shape::Bool));
                    if scalar {
                        node.keyword("x-kubernetes-list-type", json!("set"));
                    } else {
                        node.rule(
                            Rule::new(
                                "self.all(x, self.exists_one(y, x == y))",
                                "Duplicate value",
                            )
                            .reason("FieldValueDuplicate"),
                        );
                    }
                }
                ItemMatch::Keys(keys) => {
                    node.keyword("x-kubernetes-list-type", json!("map"));
                    node.keyword(
                        "x-kubernetes-list-map-keys",
                        json!(keys.iter().map(|k| k.name.clone()).collect::<Vec<_>>()),
                    );
                    if let Some(items) = node.items.as_mut() {
                        for k in keys {
                            if !items.required.contains(&k.name) {
                                items.required.insert(k.name.clone());
                                self.note(
                                    v,
                                    path,
                                    format!(
                                        "list-map key `{}` is required by the schema (a CRD's map keys must be required or defaulted); the tags accept an item without it",
                                        k.name
                                    ),
                                );
                            }
                        }
                    }
                }
            },
            Check::Immutable => match site {
                Some(site) => {
                    if let Some((parent, f, fshape)) = self.site_name(site, v, path) {
                        let same = cel::same(self.rules, "self", "oldSelf", &f.1, fshape);
                        parent.rule(Rule::new(same, "field is immutable").at(field_path(&f.0)));
                    }
                }
                None => node.rule(Rule::new("self == oldSelf", "field is immutable")),
            },
            Check::Monotonic => {
                // upstream's text names the old value; a messageExpression printing it
                // is priced beyond the budget, so the message is fixed.
                node.rule(Rule::new("self >= oldSelf", "may not be decreased"));
            }
            Check::Update {
                kind,
                constraints,
                matching,
            } => self.update(v, node, *kind, constraints, matching.as_ref(), site, path),
            Check::EachListVal { inner, .. } => {
                let Shape::Slice(e) = self.rules.shape(s) else {
                    return self.note(v, path, "eachVal on a value that is not a list");
                };
                let e = *e;
                if let Some(mut items) = node.items.take() {
                    self.apply(inner, &mut items, e, None, None, &format!("{path}[*]"));
                    node.items = Some(items);
                }
            }
            Check::EachMapVal { inner, .. } => {
                let Shape::Map { value, .. } = self.rules.shape(s) else {
                    return self.note(v, path, "eachVal on a value that is not a map");
                };
                let value = *value;
                if let Some(mut a) = node.additional.take() {
                    self.apply(inner, &mut a, value, None, None, &format!("{path}[*]"));
                    node.additional = Some(a);
                }
            }
            Check::EachMapKey { inner } => {
                let Shape::Map { key, .. } = self.rules.shape(s) else {
                    return self.note(v, path, "eachKey on a value that is not a map");
                };
                let key = *key;
                match self.preds(inner, "k", key, path) {
                    Ok(preds) => {
                        for p in preds {
                            node.rule(
                                Rule::new(format!("self.all(k, {})", p.expr), p.message)
                                    .reason(p.reason),
                            );
                        }
                    }
                    Err(why) => self.note(inner, path, why),
                }
            }
            Check::Subfield {
                name,
                shape: mshape,
                inner,
                ..
            } => {
                let Some(mut child) = node.properties.remove(name) else {
                    return self.note(v, path, format!("subfield `{name}` is not a property"));
                };
                let child_path = join(path, name);
                let site = FieldSite {
                    parent: node,
                    name,
                    shape: *mshape,
                };
                self.apply(inner, &mut child, *mshape, None, Some(site), &child_path);
                node.properties.insert(name.clone(), child);
            }
            Check::IfOption {
                option,
                enabled,
                inner,
            } => match self.opts.options.get(option) {
                Some(&value) if value == *enabled => self.apply(inner, node, shape, skip, site, path),
                Some(_) => {}
                None => self.note(
                    v,
                    path,
                    format!(
                        "depends on the option `{option}`, which a schema cannot read; set it in EmitOptions::options to publish the rule as it applies with that value"
                    ),
                ),
            },
            Check::IfSubresource {
                subresource,
                addressed,
                inner,
            } => match &self.opts.subresource {
                Some(published) if (published == subresource) == *addressed => {
                    self.apply(inner, node, shape, skip, site, path)
                }
                Some(_) => {}
                None => self.note(v, path, subresource_note(subresource)),
            },
            Check::Item {
                criteria, inner, ..
            } => {
                let Shape::Slice(e) = self.rules.shape(s) else {
                    return self.note(v, path, "item on a value that is not a list");
                };
                let e = *e;
                let sel = criteria_expr("i", criteria);
                if matches!(inner.check, Check::Immutable) {
                    // The selected item, when present, must be an unchanged old item.
                    let old_sel = criteria_expr("o", criteria);
                    node.rule(Rule::new(
                        format!("self.all(i, !({sel}) || oldSelf.exists(o, {old_sel} && o == i))"),
                        "field is immutable",
                    ));
                    return;
                }
                if let Check::Update { constraints, .. } = &inner.check
                    && constraints == &[UpdateConstraint::NoModify]
                {
                    // The selected item, when an old one was selected, must equal it.
                    let old_sel = criteria_expr("o", criteria);
                    node.rule(Rule::new(
                        format!("self.all(i, !({sel}) || !oldSelf.exists(o, {old_sel}) || oldSelf.exists(o, {old_sel} && o == i))"),
                        "field cannot be modified once set",
                    ));
                    return;
                }
                match self.preds(inner, "i", e, path) {
                    Ok(preds) => {
                        for p in preds {
                            node.rule(
                                Rule::new(format!("self.all(i, !({sel}) || {})", p.expr), p.message)
                                    .reason(p.reason),
                            );
                        }
                    }
                    Err(why) => self.note(inner, path, why),
                }
            }
            Check::Union(u) => self.union(v, node, u, path),
            Check::Dependency(d) => {
                let t = presence_expr(self.rules, "self", &d.trigger_set);
                let dep = presence_expr(self.rules, "self", &d.dependent_set);
                let (Some(t), Some(dep)) = (t, dep) else {
                    return self.note(v, path, "a member without a JSON name");
                };
                let rule = if d.forbidden {
                    Rule::new(
                        format!("!{t} || !{dep}"),
                        format!("may not be set when {} is set", d.trigger),
                    )
                    .reason(FORBIDDEN)
                } else {
                    Rule::new(
                        format!("!{t} || {dep}"),
                        format!("must be set when {} is set", d.trigger),
                    )
                    .reason(REQUIRED)
                };
                node.rule(rule.at(field_path(&d.dependent)));
            }
            Check::Discriminated(_) => self.note(
                v,
                path,
                "mode-dependent rules (ifMode) are not published yet",
            ),
            Check::Fixed { .. } => self.note(
                v,
                path,
                "a testing tag: it states a fixed verdict for validation-gen's tests, not a rule about the value",
            ),
            Check::CustomValidation { function_name, .. } => self.note(
                v,
                path,
                format!(
                    "custom validation: {function_name} is code, which a schema cannot carry"
                ),
            ),
            // Published verbatim: the rule is the CRD rule at this node by definition.
            Check::CelRule(r) => node.rule(cel_rule(r)),
            Check::CrossFieldLimit(c) => match crate::crossfield::rule(self.rules, c) {
                Ok(r) => node.rule(r),
                Err(why) => self.note(v, path, why),
            },
            // Transition rules at the list: the selected item may not appear / disappear.
            Check::ItemUpdate(u) => {
                let mut site = site;
                let (new, old) = (criteria_expr("i", &u.criteria), criteria_expr("o", &u.criteria));
                let (in_new, in_old) = (format!("self.exists(i, {new})"), format!("oldSelf.exists(o, {old})"));
                for c in &u.constraints {
                    match c {
                        UpdateConstraint::NoSet => node.rule(Rule::new(
                            format!("!{in_new} || {in_old}"),
                            "field cannot be set once created",
                        )),
                        UpdateConstraint::NoUnset => match site.take() {
                            // At the struct, so that removing the list field is seen too.
                            Some(site) => {
                                let Some((parent, f, _)) = self.site_name(site, v, path) else {
                                    continue;
                                };
                                let l = &f.1;
                                parent.rule(
                                    Rule::new(
                                        format!("!has(oldSelf.{l}) || !oldSelf.{l}.exists(o, {old}) || (has(self.{l}) && self.{l}.exists(i, {new}))"),
                                        "field cannot be cleared once set",
                                    )
                                    .at(field_path(&f.0)),
                                );
                            }
                            None => node.rule(Rule::new(
                                format!("!{in_old} || {in_new}"),
                                "field cannot be cleared once set",
                            )),
                        },
                        _ => {}
                    }
                }
            }
        }
    }

    /// The struct node and the field's (JSON name, CEL name, shape), or a note when the
    /// name cannot be written in CEL.
    fn site_name<'s>(
        &mut self,
        site: FieldSite<'s>,
        v: &Validation,
        path: &str,
    ) -> Option<(&'s mut Node, (String, String), ShapeId)> {
        match field_name(site.name) {
            Some(cel_name) => Some((site.parent, (site.name.to_owned(), cel_name), site.shape)),
            None => {
                self.note(
                    v,
                    path,
                    format!("the field name {:?} cannot be written in CEL", site.name),
                );
                None
            }
        }
    }

    fn required(
        &mut self,
        v: &Validation,
        node: &mut Node,
        s: ShapeId,
        p: Presence,
        site: Option<FieldSite<'_>>,
        path: &str,
    ) {
        let Some(site) = site else {
            return self.note(v, path, "required outside a struct field");
        };
        site.parent.required.insert(site.name.to_owned());
        // Go's "unset" also covers the zero value of a value and an empty list or map.
        match (p, self.rules.shape(s)) {
            (Presence::Slice, _) => node.keyword("minItems", json!(1)),
            (Presence::Map, _) => node.keyword("minProperties", json!(1)),
            (Presence::Value, Shape::String { .. } | Shape::Bytes) => {
                node.keyword("minLength", json!(1));
            }
            (Presence::Value, Shape::Int(_)) => {
                node.rule(Rule::new("self != 0", "Required value").reason(REQUIRED));
            }
            (Presence::Value, Shape::Float(_)) => {
                node.rule(Rule::new("self != 0.0", "Required value").reason(REQUIRED));
            }
            (Presence::Value, Shape::Bool) => {
                node.rule(Rule::new("self", "Required value").reason(REQUIRED));
            }
            _ => {}
        }
    }

    fn enum_members(&mut self, v: &Validation, spec: &EnumSpec, path: &str) -> Vec<String> {
        let mut members = spec.members.clone();
        for ex in &spec.exclusions {
            match self.opts.options.get(&ex.option) {
                Some(&state) if state == ex.exclude_when => members.retain(|m| *m != ex.value),
                Some(_) => {}
                None => self.note(
                    v,
                    path,
                    format!(
                        "enum value {} is excluded depending on the option `{}`; published as allowed",
                        gofmt::quote(&ex.value),
                        ex.option
                    ),
                ),
            }
        }
        members
    }

    /// A value check at its node: an OpenAPI keyword when kube-openapi's verdict is the
    /// tag's (and the zero value the tags skip passes it too), else a CEL rule.
    fn value_check(
        &mut self,
        v: &Validation,
        node: &mut Node,
        s: ShapeId,
        skip: Option<&str>,
        path: &str,
    ) {
        let keyword = match &v.check {
            Check::Minimum(n) => Some(("minimum", json!(clamp(*n)), 0 >= *n)),
            Check::Maximum(n) => Some(("maximum", json!(clamp(*n)), 0 <= *n)),
            Check::ExclusiveMinimum(n) => Some(("exclusiveMinimum", json!(clamp(*n)), 0 > *n)),
            Check::ExclusiveMaximum(n) => Some(("exclusiveMaximum", json!(clamp(*n)), 0 < *n)),
            // kube-openapi matches `pattern` with Go's regexp, as the tag does, within the
            // same per-value budget.
            Check::Pattern(spec) if !node.has_keyword("pattern") => Some((
                "pattern",
                json!(spec.pattern.source()),
                spec.pattern.find("") == kdv_runtime::pattern::Outcome::Match,
            )),
            // upstream counts characters (runes) exactly as kube-openapi does: its byte
            // shortcuts only decide cases the rune count decides the same way.
            Check::MinLength(n) => Some(("minLength", json!(n), *n <= 0)),
            Check::MaxLength(n) => Some(("maxLength", json!(n), true)),
            Check::MinItems(n) => Some(("minItems", json!(n), *n <= 0)),
            Check::MaxItems(n) => Some(("maxItems", json!(n), true)),
            Check::MinProperties(n) => Some(("minProperties", json!(n), *n <= 0)),
            Check::MaxProperties(n) => Some(("maxProperties", json!(n), true)),
            _ => None,
        };
        if let Some((key, value, zero_passes)) = keyword
            && (skip.is_none() || zero_passes)
        {
            // OpenAPI v3.0 (what CRD structural schemas take): the exclusive bound is
            // `minimum`/`maximum` with the boolean `exclusiveMinimum`/`exclusiveMaximum`.
            match (key, value.as_i64()) {
                ("minimum", Some(n)) => node.int_bound(false, n, false),
                ("maximum", Some(n)) => node.int_bound(true, n, false),
                ("exclusiveMinimum", Some(n)) => node.int_bound(false, n, true),
                ("exclusiveMaximum", Some(n)) => node.int_bound(true, n, true),
                _ => node.keyword(key, value),
            }
            return;
        }
        // A format implies a length no valid value exceeds: saying so keeps the verdict and
        // bounds the CEL rule's cost (the server rejects rules over unbounded strings).
        if let Check::Format(f) = &v.check
            && let Some(max) = format_max_length(*f)
        {
            node.keyword("maxLength", json!(max));
        }
        match self.preds(v, "self", s, path) {
            Ok(preds) => {
                for p in preds {
                    let expr = match skip {
                        Some(z) => format!("{z} || {}", p.expr),
                        None => p.expr,
                    };
                    node.rule(Rule::new(expr, p.message).reason(p.reason));
                }
            }
            Err(why) => self.note(v, path, why),
        }
    }

    /// CEL predicates over `subject` (a value of `shape`) equivalent to `v`, for checks
    /// that need no old value and no presence.
    fn preds(
        &mut self,
        v: &Validation,
        subject: &str,
        shape: ShapeId,
        path: &str,
    ) -> Result<Vec<Pred>, String> {
        let s = deref(self.rules, shape);
        let one = |expr: String, message: String| {
            Ok(vec![Pred {
                expr,
                message,
                reason: INVALID,
            }])
        };
        match &v.check {
            Check::Minimum(n) => one(
                format!("{subject} >= {n}"),
                format!("must be greater than or equal to {n}"),
            ),
            Check::Maximum(n) => one(
                format!("{subject} <= {n}"),
                format!("must be less than or equal to {n}"),
            ),
            Check::MinLength(n) => one(
                format!("size({subject}) >= {n}"),
                format!("must be at least {n} {}", plural(*n, "character")),
            ),
            Check::MaxLength(n) => one(
                format!("size({subject}) <= {n}"),
                format!("may not be more than {n} {}", plural(*n, "character")),
            ),
            Check::MaxBytes(n) => one(
                format!("size(bytes({subject})) <= {n}"),
                format!("may not be more than {n} {}", plural(*n, "byte")),
            ),
            Check::MinItems(n) => one(
                format!("size({subject}) >= {n}"),
                format!("must have at least {n} {}", plural(*n, "item")),
            ),
            Check::MaxItems(n) => one(
                format!("size({subject}) <= {n}"),
                format!("must have at most {n} {}", plural(*n, "item")),
            ),
            Check::MinProperties(n) => one(
                format!("size({subject}) >= {n}"),
                format!("must have at least {n} {}", plural(*n, "property")),
            ),
            Check::MaxProperties(n) => one(
                format!("size({subject}) <= {n}"),
                format!("must have at most {n} {}", plural(*n, "property")),
            ),
            Check::Neq(l) => {
                let shown = match l {
                    kdv_rules::Literal::String(x) => gofmt::quote(x),
                    other => cel::literal(other),
                };
                one(
                    format!("{subject} != {}", cel::literal(l)),
                    format!("must not be equal to {shown}"),
                )
            }
            Check::Format(f) => match format_pred(*f, subject) {
                Some((expr, message)) => one(expr, message.to_owned()),
                None => Err(format!(
                    "format {}: neither a CRD format nor Kubernetes' CEL format library has the same rules",
                    f.name()
                )),
            },
            Check::Enum(spec) => {
                let members = self.enum_members(v, spec, path);
                let list: Vec<String> = members.iter().map(|m| quote(m)).collect();
                let shown: Vec<String> = members.iter().map(|m| gofmt::quote(m)).collect();
                Ok(vec![Pred {
                    expr: format!("{subject} in [{}]", list.join(", ")),
                    message: format!("supported values: {}", shown.join(", ")),
                    reason: "FieldValueNotSupported",
                }])
            }
            Check::IfOption {
                option,
                enabled,
                inner,
            } => match self.opts.options.get(option) {
                Some(&value) if value == *enabled => self.preds(inner, subject, shape, path),
                Some(_) => Ok(Vec::new()),
                None => Err(format!(
                    "depends on the option `{option}`, which a schema cannot read"
                )),
            },
            Check::IfSubresource {
                subresource,
                addressed,
                inner,
            } => match &self.opts.subresource {
                Some(published) if (published == subresource) == *addressed => {
                    self.preds(inner, subject, shape, path)
                }
                Some(_) => Ok(Vec::new()),
                None => Err(subresource_note(subresource)),
            },
            Check::ExclusiveMinimum(n) => one(
                format!("{subject} > {n}"),
                format!("must be greater than {n}"),
            ),
            Check::ExclusiveMaximum(n) => {
                one(format!("{subject} < {n}"), format!("must be less than {n}"))
            }
            Check::Pattern(spec) => {
                let source = spec.pattern.source();
                one(
                    format!("{subject}.matches({})", quote(source)),
                    format!("should match '{source}'"),
                )
            }
            Check::CallType(_) | Check::Optional(_) | Check::NoNilElements => Ok(Vec::new()),
            Check::Subfield {
                name,
                shape: mshape,
                inner,
                ..
            } => {
                let f = field_name(name)
                    .ok_or_else(|| format!("the field name {name:?} cannot be written in CEL"))?;
                let sub = format!("{subject}.{f}");
                Ok(self
                    .preds(inner, &sub, *mshape, path)?
                    .into_iter()
                    .map(|p| Pred {
                        expr: format!("(!has({sub}) || {})", p.expr),
                        ..p
                    })
                    .collect())
            }
            Check::EachListVal { inner, .. } => {
                let Shape::Slice(e) = self.rules.shape(s) else {
                    return Err("eachVal on a value that is not a list".into());
                };
                let e = *e;
                let var = format!("{subject}_v").replace('.', "_");
                Ok(self
                    .preds(inner, &var, e, path)?
                    .into_iter()
                    .map(|p| Pred {
                        expr: format!("{subject}.all({var}, {})", p.expr),
                        ..p
                    })
                    .collect())
            }
            Check::EachMapVal { inner, .. } => {
                let Shape::Map { value, .. } = self.rules.shape(s) else {
                    return Err("eachVal on a value that is not a map".into());
                };
                let value = *value;
                let var = format!("{subject}_k").replace('.', "_");
                Ok(self
                    .preds(inner, &format!("{subject}[{var}]"), value, path)?
                    .into_iter()
                    .map(|p| Pred {
                        expr: format!("{subject}.all({var}, {})", p.expr),
                        ..p
                    })
                    .collect())
            }
            _ => Err(format!(
                "{} inside an item, key or nested selection needs the old object or the parent, which the schema has no rule for yet",
                v.tag
            )),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn update(
        &mut self,
        v: &Validation,
        node: &mut Node,
        kind: UpdateKind,
        constraints: &[UpdateConstraint],
        matching: Option<&ItemMatch>,
        site: Option<FieldSite<'_>>,
        path: &str,
    ) {
        let Some(site) = site else {
            return self.note(v, path, "update constraints outside a struct field");
        };
        let Some((parent, (json_name, f), fshape)) = self.site_name(site, v, path) else {
            return;
        };
        let presence = match kind {
            UpdateKind::Pointer => Presence::Pointer,
            UpdateKind::Slice => Presence::Slice,
            UpdateKind::Map => Presence::Map,
            UpdateKind::Value | UpdateKind::Struct => Presence::Value,
        };
        let new = cel::is_set(self.rules, "self", &f, fshape, presence);
        let old = cel::is_set(self.rules, "oldSelf", &f, fshape, presence);
        let at = field_path(&json_name);
        for c in constraints {
            let rule = match c {
                UpdateConstraint::NoSet => Rule::new(
                    format!("{old} || !{new}"),
                    "field cannot be set once created",
                ),
                UpdateConstraint::NoUnset => Rule::new(
                    format!("!{old} || {new}"),
                    "field cannot be cleared once set",
                ),
                UpdateConstraint::NoModify => {
                    let same = cel::same(self.rules, "self", "oldSelf", &f, fshape);
                    Rule::new(
                        format!("!{old} || !{new} || {same}"),
                        "field cannot be modified once set",
                    )
                }
                UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem => {
                    let add = matches!(c, UpdateConstraint::NoAddItem);
                    let (a, b) = if add {
                        ("self", "oldSelf")
                    } else {
                        ("oldSelf", "self")
                    };
                    let message = if add {
                        "item may not be added"
                    } else {
                        "item may not be removed"
                    };
                    let expr = if kind == UpdateKind::Map {
                        format!("!has({a}.{f}) || {a}.{f}.all(k, has({b}.{f}) && k in {b}.{f})")
                    } else {
                        let Some(m) = matching else {
                            self.note(v, path, "item constraints without an item identity");
                            continue;
                        };
                        let same_item = match m {
                            ItemMatch::Direct | ItemMatch::Semantic => "x == y".to_owned(),
                            ItemMatch::Keys(keys) => keys
                                .iter()
                                .map(|k| {
                                    let n = field_name(&k.name).unwrap_or_else(|| k.name.clone());
                                    format!("x.{n} == y.{n}")
                                })
                                .collect::<Vec<_>>()
                                .join(" && "),
                        };
                        format!(
                            "!has({a}.{f}) || {a}.{f}.all(x, has({b}.{f}) && {b}.{f}.exists(y, {same_item}))"
                        )
                    };
                    Rule::new(expr, message).reason(FORBIDDEN)
                }
            };
            parent.rule(rule.at(at.clone()));
        }
        let _ = node;
    }

    fn union(&mut self, v: &Validation, node: &mut Node, u: &Union, path: &str) {
        let mut set = Vec::new();
        for e in &u.extractors {
            let expr = match e {
                MemberSet::Field(fp) => presence_expr(self.rules, "self", fp),
                MemberSet::Item(criteria) => {
                    Some(format!("self.exists(i, {})", criteria_expr("i", criteria)))
                }
            };
            match expr {
                Some(x) => set.push(x),
                None => return self.note(v, path, "a union member without a JSON name"),
            }
        }
        let names: Vec<String> = u.members.iter().map(|m| format!("`{}`", m.name)).collect();
        let count = set
            .iter()
            .map(|x| format!("({x} ? 1 : 0)"))
            .collect::<Vec<_>>()
            .join(" + ");
        match &u.kind {
            UnionKind::ExactlyOne => node.rule(Rule::new(
                format!("{count} == 1"),
                format!("must specify exactly one of: {}", names.join(", ")),
            )),
            UnionKind::ZeroOrOne => node.rule(Rule::new(
                format!("{count} <= 1"),
                format!("must specify at most one of: {}", names.join(", ")),
            )),
            UnionKind::Discriminated { name, access, .. } => {
                let FieldAccess::Key(key) = access else {
                    return self.note(v, path, "a discriminator without a JSON name");
                };
                let Some(d) = field_name(key) else {
                    return self.note(v, path, "the discriminator's name cannot be written in CEL");
                };
                let disc = format!("(has(self.{d}) ? self.{d} : \"\")");
                for (m, e) in u.members.iter().zip(&set) {
                    let value = quote(&m.discriminator_value);
                    let shown = gofmt::quote(&m.discriminator_value);
                    let is_field = matches!(u.extractors.first(), Some(MemberSet::Field(_)));
                    let mut must = Rule::new(
                        format!("{disc} != {value} || {e}"),
                        format!("must be specified when `{name}` is {shown}"),
                    );
                    let mut may = Rule::new(
                        format!("{disc} == {value} || !{e}"),
                        format!("may only be specified when `{name}` is {shown}"),
                    );
                    if is_field {
                        must = must.at(field_path(&m.name));
                        may = may.at(field_path(&m.name));
                    }
                    node.rule(must);
                    node.rule(may);
                }
            }
        }
    }
}

/// Stamps the rules of `node` itself (a struct's rules about one field).
/// The `x-kubernetes-validations` entry of a `+validationRule`, as written.
pub(crate) fn cel_rule(r: &CelRule) -> Rule {
    Rule {
        rule: r.rule.clone(),
        message: r.message.clone(),
        message_expression: r.message_expression.clone(),
        reason: r.reason.map(CelReason::crd_reason),
        field_path: r.field_path(),
        optional_old_self: false,
        origin: None,
    }
}

fn stamp_own(node: &mut Node, origin: &Origin) {
    for r in &mut node.rules {
        if r.origin.is_none() {
            r.origin = Some(origin.clone());
        }
    }
}

/// `true` when `members` is a Go `presence` of a struct member reachable by key.
fn presence_expr(rules: &RuleSet, o: &str, fp: &FieldPresence) -> Option<String> {
    let FieldAccess::Key(k) = &fp.access else {
        return None;
    };
    let f = field_name(k)?;
    Some(cel::is_set(rules, o, &f, fp.shape, fp.presence))
}

fn criteria_expr(var: &str, criteria: &[ItemCriterion]) -> String {
    criteria
        .iter()
        .map(|c| {
            let n = field_name(&c.field.name).unwrap_or_else(|| c.field.name.clone());
            format!("has({var}.{n}) && {var}.{n} == {}", cel::literal(&c.value))
        })
        .collect::<Vec<_>>()
        .join(" && ")
}

/// The CEL form of a format with exactly the tag's rules (Kubernetes' CEL format library,
/// whose validators are apimachinery's), with its message.
fn format_pred(f: Format, s: &str) -> Option<(String, &'static str)> {
    let lib = |name: &str| format!("!format.{name}().validate({s}).hasValue()");
    Some(match f {
        Format::ShortName => (
            lib("dns1123Label"),
            "must be a lowercase RFC 1123 label (k8s-short-name)",
        ),
        Format::LongName => (
            lib("dns1123Subdomain"),
            "must be a lowercase RFC 1123 subdomain (k8s-long-name)",
        ),
        Format::LabelKey => (
            lib("qualifiedName"),
            "must be a valid label key (k8s-label-key)",
        ),
        Format::LabelValue => (
            lib("labelValue"),
            "must be a valid label value (k8s-label-value)",
        ),
        Format::Uuid => (
            format!(
                "{s}.matches(\"^[0-9a-f]{{8}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{12}}$\")"
            ),
            "must be a lowercase UUID in 8-4-4-4-12 format",
        ),
        Format::PathSegmentName => (
            format!(
                "{s} != \".\" && {s} != \"..\" && !{s}.contains(\"/\") && !{s}.contains(\"%\")"
            ),
            "must be a valid path segment name (k8s-path-segment-name)",
        ),
        _ => return None,
    })
}

/// The longest value a format accepts (DNS label 63, subdomain 253, label key = subdomain
/// prefix + `/` + 63-character name, label value 63, UUID 36).
fn format_max_length(f: Format) -> Option<i64> {
    match f {
        Format::ShortName | Format::LabelValue => Some(63),
        Format::LongName => Some(253),
        Format::LabelKey => Some(317),
        Format::Uuid => Some(36),
        _ => None,
    }
}

/// The schema of the apimachinery types that encode as something else than their Go shape,
/// and of a resource's `metadata` (at `path`): ObjectMeta there is the server's, written as
/// controller-gen writes it; elsewhere (a template's metadata) it is its Go shape, so its
/// data is not pruned and rules can read it.
fn well_known(t: &TypeRules, path: &str) -> Option<Node> {
    let mut n = Node::default();
    match (t.package.as_str(), t.name.as_str()) {
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "Time") => {
            n.keyword("type", json!("string"));
            n.keyword("format", json!("date-time"));
        }
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "MicroTime") => {
            n.keyword("type", json!("string"));
            n.keyword("format", json!("date-time"));
        }
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "Duration") => {
            n.keyword("type", json!("string"));
        }
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "ObjectMeta") if path == "metadata" => {
            n.keyword("type", json!("object"));
        }
        ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString") => {
            n.keyword("anyOf", json!([{"type": "integer"}, {"type": "string"}]));
            n.keyword("x-kubernetes-int-or-string", json!(true));
        }
        ("k8s.io/apimachinery/pkg/api/resource", "Quantity") => {
            n.keyword("anyOf", json!([{"type": "integer"}, {"type": "string"}]));
            n.keyword(
                "pattern",
                json!("^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$"),
            );
            n.keyword("x-kubernetes-int-or-string", json!(true));
        }
        _ => return None,
    }
    Some(n)
}

/// Why a rule under a subresource condition is not published without
/// [`EmitOptions::subresource`](crate::EmitOptions::subresource).
fn subresource_note(subresource: &str) -> String {
    format!(
        "depends on whether a request addresses the subresource `{subresource}`, which a CRD schema cannot tell (it validates every request alike); set EmitOptions::subresource (`kdv schema --subresource`) to publish the rule as it applies to one"
    )
}

fn is_object_meta(t: &TypeRules) -> bool {
    t.package == "k8s.io/apimachinery/pkg/apis/meta/v1" && t.name == "ObjectMeta"
}

fn clamp(n: i128) -> i64 {
    n.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

fn plural(n: i64, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else if let Some(stem) = word.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{word}s")
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn display_path(path: &str) -> String {
    if path.is_empty() {
        "<root>".into()
    } else {
        path.to_owned()
    }
}
