//! Field defaults (`+default=`, `+k8s:default=`; [`kdv_rules::FieldDefault`]): applied to a
//! manifest as the API server applies a CRD's `default`s before it validates, and checked
//! at lint time by validating each default as the field's value.

use std::borrow::Cow;
use std::collections::HashMap;

use kdv_rules::{Diagnostic, FieldAccess, FieldDefault, RuleSet, Severity, Shape, ShapeId, TypeId};
use kdv_runtime::{ErrorType, Operation, OperationKind};
use serde_json::{Map, Value};

/// `value` (a value of type `ty`) with every absent or `null` struct field that declares a
/// default set to it, at every depth (struct fields, list items, map values, and inside the
/// defaults themselves), as the API server's structural defaulting does. Borrowed when the
/// rules declare no default.
pub fn apply_defaults<'v>(rules: &RuleSet, ty: TypeId, value: &'v Value) -> Cow<'v, Value> {
    if rules.defaults.is_empty() {
        return Cow::Borrowed(value);
    }
    let d = Defaulter::new(rules);
    let mut out = value.clone();
    d.walk(rules.type_rules(ty).shape, &mut out, 0);
    if out == *value {
        Cow::Borrowed(value)
    } else {
        Cow::Owned(out)
    }
}

/// Deeper than this, defaults are not applied (a recursive type's defaults could nest
/// without end).
const MAX_DEPTH: usize = 64;

struct Defaulter<'r> {
    rules: &'r RuleSet,
    by_shape: HashMap<ShapeId, TypeId>,
}

impl<'r> Defaulter<'r> {
    fn new(rules: &'r RuleSet) -> Defaulter<'r> {
        let by_shape = rules
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.shape, TypeId(i as u32)))
            .collect();
        Defaulter { rules, by_shape }
    }

    fn walk(&self, shape: ShapeId, v: &mut Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match self.rules.shape(shape) {
            Shape::Pointer(e) => self.walk(*e, v, depth),
            Shape::Slice(e) => {
                if let Value::Array(items) = v {
                    for item in items {
                        self.walk(*e, item, depth + 1);
                    }
                }
            }
            Shape::Map { value, .. } => {
                if let Value::Object(m) = v {
                    for item in m.values_mut() {
                        self.walk(*value, item, depth + 1);
                    }
                }
            }
            Shape::Struct(st) => {
                let Value::Object(m) = v else { return };
                let named = self.by_shape.get(&shape).copied();
                for f in &st.fields {
                    match &f.access {
                        FieldAccess::Key(key) => {
                            self.field(named, &f.go_name, key, f.shape, m, depth);
                        }
                        FieldAccess::Inline { .. } => self.walk_inline(f.shape, m, depth),
                        FieldAccess::Skip => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// The fields of an embedded struct, read from its parent's object.
    fn walk_inline(&self, shape: ShapeId, m: &mut Map<String, Value>, depth: usize) {
        let mut s = shape;
        while let Shape::Pointer(e) = self.rules.shape(s) {
            s = *e;
        }
        let Shape::Struct(st) = self.rules.shape(s) else {
            return;
        };
        let named = self.by_shape.get(&s).copied();
        for f in &st.fields {
            match &f.access {
                FieldAccess::Key(key) => self.field(named, &f.go_name, key, f.shape, m, depth),
                FieldAccess::Inline { .. } => self.walk_inline(f.shape, m, depth + 1),
                FieldAccess::Skip => {}
            }
        }
    }

    fn field(
        &self,
        named: Option<TypeId>,
        go_name: &str,
        key: &str,
        shape: ShapeId,
        m: &mut Map<String, Value>,
        depth: usize,
    ) {
        let absent = m.get(key).is_none_or(Value::is_null);
        if absent && let Some(d) = named.and_then(|t| self.rules.field_default(t, go_name)) {
            m.insert(key.to_owned(), d.value.clone());
        }
        if let Some(child) = m.get_mut(key) {
            self.walk(shape, child, depth + 1);
        }
    }
}

/// Lint: each default validated as its field's value (JSON kind, integer range, the field's
/// validations and its type's): a default the rules reject is an error at its tag, for
/// `+k8s:default` and upstream's `+default=` alike (the server would store a value its own
/// validation rejects). Sorted by position.
pub fn default_findings(rules: &RuleSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Options off: a rule under `+k8s:ifEnabled` is not part of the field's own rules.
    let op = Operation {
        kind: OperationKind::Create,
        options: rules
            .option_names()
            .into_iter()
            .map(|o| (o, false))
            .collect(),
        subresources: Vec::new(),
    };
    let mut defaults: Vec<(&(TypeId, String), &FieldDefault)> = rules.defaults.iter().collect();
    defaults.sort_by(|a, b| a.0.cmp(b.0));
    for ((ty, go_name), d) in defaults {
        let Shape::Struct(st) = rules.shape(rules.type_rules(*ty).shape) else {
            continue;
        };
        let Some(FieldAccess::Key(key)) = st
            .fields
            .iter()
            .find(|f| f.go_name == *go_name)
            .map(|f| &f.access)
        else {
            continue;
        };
        let mut object = Map::new();
        object.insert(key.clone(), d.value.clone());
        let object = Value::Object(object);
        let errors = crate::validate(rules, *ty, &op, &object, None);
        let mine: Vec<String> = errors
            .iter()
            .filter(|e| e.error_type != ErrorType::Internal)
            .filter(|e| {
                let path = e.field.to_string();
                path.strip_prefix(key.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
            })
            .map(|e| e.to_string())
            .collect();
        if mine.is_empty() {
            continue;
        }
        let t = rules.type_rules(*ty);
        out.push(Diagnostic {
            severity: Severity::Error,
            message: format!(
                "field {}.{go_name}: the default {} fails the field's own rules: {}",
                t.name,
                d.value,
                mine.join("; ")
            ),
            span: d.origin.and_then(|o| rules.span(o)).cloned(),
        });
    }
    out
}
