//! `default`s at CRD write time (`structuraldefaulting.ValidateDefaults`): each default
//! must be pruned (`must not have unknown fields`), its embedded resources must decode and
//! validate as metadata, and it must pass the node's value validations (kube-openapi, as
//! `ValidateCustomResource` reports them below `<node>.default`). Defaults inside the
//! `metadata`, `apiVersion` or `kind` of an embedded resource are checked as part of a
//! surrounding object (`must result in valid metadata: ...`). When all that passes, the
//! CEL rules of the node and of the nodes below it run on the default
//! ([`crate::cel::validate_default_rules`]), every default of the schema drawing on one
//! runtime cost budget; once it runs out no further default is checked.
//!
//! The walk follows `properties` and `items` (defaults are forbidden below
//! `additionalProperties`); the root is treated as an embedded resource.

use kdv_runtime::objectmeta::{decode_object_meta, validate_embedded_resource};
use kdv_runtime::{BadValue, ErrorList, FieldError, FieldPath, PathRef, Segment};
use serde_json::{Map, Value};

use super::model::Props;
use super::path::invalid;
use crate::Resource;

/// A step from an embedded resource's root down to a node (`SurroundingObjectFunc`).
#[derive(Clone)]
enum Around {
    Child(String),
    Index,
}

struct Walk<'w, 'a> {
    require_pruned: bool,
    minor: u32,
    out: ErrorList,
    /// The embedded resource the current node belongs to.
    root: &'w Props<'a>,
    /// Whether `root` is the CRD's root (treated as an embedded resource).
    root_is_crd: bool,
    /// The CEL cost budget left for the rules on the remaining defaults.
    budget: i64,
}

/// `ValidateDefaults(ctx, path, schema, isResourceRoot=true, requirePrunedDefaults)`.
pub(crate) fn validate_defaults(
    schema: &Props<'_>,
    path: &FieldPath,
    require_pruned: bool,
    minor: u32,
) -> ErrorList {
    let mut w = Walk {
        require_pruned,
        minor,
        out: ErrorList::new(),
        root: schema,
        root_is_crd: true,
        budget: crate::cel::RUNTIME_CEL_COST_BUDGET,
    };
    w.node(schema, path, &mut Vec::new(), false, true);
    w.out
}

impl<'w, 'a> Walk<'w, 'a> {
    fn node(
        &mut self,
        s: &'w Props<'a>,
        path: &FieldPath,
        around: &mut Vec<Around>,
        mut inside_meta: bool,
        is_crd_root: bool,
    ) {
        let embedded = s.x_embedded_resource || is_crd_root;
        let saved_root = (self.root, self.root_is_crd);
        let mut own_around = Vec::new();
        let around: &mut Vec<Around> = if embedded {
            inside_meta = false;
            self.root = s;
            self.root_is_crd = is_crd_root;
            &mut own_around
        } else {
            around
        };
        if let Some(default) = &s.default {
            let at = path.child("default");
            if inside_meta {
                self.inside_meta(s, default, &at, around, embedded);
            } else {
                self.plain(s, default, &at, embedded);
            }
            if self.budget < 0 {
                (self.root, self.root_is_crd) = saved_root;
                return;
            }
        }
        if let Some(items) = s.items_schema() {
            around.push(Around::Index);
            self.node(items, &path.child("items"), around, inside_meta, false);
            around.pop();
            if self.budget < 0 {
                (self.root, self.root_is_crd) = saved_root;
                return;
            }
        }
        for (k, p) in &s.properties {
            let sub_inside = inside_meta
                || (embedded && matches!(k.as_str(), "metadata" | "apiVersion" | "kind"));
            around.push(Around::Child(k.clone()));
            self.node(
                p,
                &path.child("properties").key(k),
                around,
                sub_inside,
                false,
            );
            around.pop();
            if self.budget < 0 {
                break;
            }
        }
        (self.root, self.root_is_crd) = saved_root;
    }

    /// A default outside resource metadata.
    fn plain(&mut self, s: &Props<'_>, default: &Value, at: &FieldPath, embedded: bool) {
        if self.require_pruned && prunes(default, Some(s), embedded) {
            self.out.push(invalid(
                at,
                BadValue::unstructured(default),
                "must not have unknown fields",
            ));
        }
        if let Err(e) = coerce(default, Some(s), embedded, &PathRef::Nil) {
            self.out.push(prefixed(at, e));
            return;
        }
        let mut errs = ErrorList::new();
        validate_embedded(default, Some(s), embedded, &PathRef::Nil, &mut errs);
        if !errs.is_empty() {
            self.out.extend(errs.into_iter().map(|e| prefixed(at, e)));
            return;
        }
        self.values(s, default, at, embedded);
    }

    /// A default inside the `metadata`, `apiVersion` or `kind` of an embedded resource:
    /// the resource around it is checked.
    fn inside_meta(
        &mut self,
        s: &Props<'_>,
        default: &Value,
        at: &FieldPath,
        around: &[Around],
        resource_root: bool,
    ) {
        let mut obj = default.clone();
        for step in around.iter().rev() {
            obj = match step {
                Around::Child(k) => {
                    let mut m = Map::new();
                    m.insert(k.clone(), obj);
                    Value::Object(m)
                }
                Around::Index => Value::Array(vec![obj]),
            };
        }
        let Value::Object(mut map) = obj else {
            // Only reachable with a default at the resource root itself, which is never
            // inside metadata.
            return;
        };
        map.entry("kind")
            .or_insert_with(|| Value::String("Validation".into()));
        map.entry("apiVersion")
            .or_insert_with(|| Value::String("validation/v1".into()));
        let obj = Value::Object(map);
        let root = self.root;
        if let Err(e) = coerce(&obj, Some(root), true, &PathRef::Nil) {
            self.out.push(invalid(
                at,
                BadValue::unstructured(default),
                format!("must result in valid metadata: {e}"),
            ));
            return;
        }
        let mut errs = ErrorList::new();
        validate_embedded(&obj, Some(root), true, &PathRef::Nil, &mut errs);
        if !errs.is_empty() {
            self.out.push(invalid(
                at,
                BadValue::unstructured(default),
                format!("must result in valid metadata: {}", aggregate(&errs)),
            ));
            return;
        }
        self.values(s, default, at, resource_root);
    }

    /// `ValidateCustomResource(<node>.default, default, validator of the node)`, then, if
    /// that found nothing, the CEL rules of the node and below on the default.
    /// `resource_root`: the node is the root of an embedded resource or of the CRD.
    fn values(&mut self, s: &Props<'_>, default: &Value, at: &FieldPath, resource_root: bool) {
        // Defaults are validated against the node's schema with every format kept
        // (upstream builds this validator without the format post-processor).
        let minor = self.minor.max(36);
        let r = match Resource::from_crd_schema("", "", "", s.raw.0, minor) {
            Ok(r) => r,
            Err(e) => {
                self.out.push(invalid(at, BadValue::string(""), e.message));
                return;
            }
        };
        let errs = r.validate_values(default);
        if !errs.is_empty() {
            self.out.extend(errs.into_iter().map(|e| prefixed(at, e)));
            return;
        }
        let rules = crate::cel::DefaultRules {
            resource: &r,
            resource_root,
            at,
            values: self.minor >= 35,
            // `CRDValidationRatcheting`: on by default since Kubernetes 1.30.
            optional_old_self: self.minor >= 30,
            kubernetes_minor: self.minor,
        };
        self.budget =
            crate::cel::validate_default_rules(&rules, default, self.budget, &mut self.out);
    }
}

/// `ErrorList.ToAggregate().Error()`: one message, or `[a, b]`, duplicates removed.
pub(crate) fn aggregate(errs: &[FieldError]) -> String {
    // A set, as Go's aggregate has: thousands of errors stay linear.
    let mut seen = std::collections::HashSet::new();
    let mut texts: Vec<String> = Vec::new();
    for e in errs {
        let t = e.to_string();
        if seen.insert(t.clone()) {
            texts.push(t);
        }
    }
    if texts.len() == 1 {
        texts.swap_remove(0)
    } else {
        format!("[{}]", texts.join(", "))
    }
}

/// `e` with `prefix` before its path.
pub(crate) fn prefixed(prefix: &FieldPath, mut e: FieldError) -> FieldError {
    let mut segments: Vec<Segment> = prefix.segments().to_vec();
    segments.extend(e.field.segments().iter().cloned());
    e.field = FieldPath::from_segments(segments);
    e
}

/// Whether `pruning.Prune(x, s, isResourceRoot)` would remove anything.
fn prunes(x: &Value, s: Option<&Props<'_>>, resource_root: bool) -> bool {
    let embedded = resource_root || s.is_some_and(|s| s.x_embedded_resource);
    prune(x, s, embedded)
}

fn prune(x: &Value, s: Option<&Props<'_>>, embedded: bool) -> bool {
    if let Some(s) = s
        && s.x_preserve_unknown_fields == Some(true)
    {
        return skip_prune(x, s, embedded);
    }
    match x {
        Value::Object(m) => {
            let Some(s) = s else {
                return !m.is_empty();
            };
            m.iter().any(|(k, v)| {
                if embedded && matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                    return false;
                }
                if let Some(p) = s.property(k) {
                    prune(v, Some(p), p.x_embedded_resource)
                } else if let Some(ap) = &s.additional_properties {
                    let c = ap.schema.as_deref();
                    prune(v, c, c.is_some_and(|c| c.x_embedded_resource))
                } else {
                    true
                }
            })
        }
        Value::Array(items) => {
            let item = s.and_then(Props::items_schema);
            items
                .iter()
                .any(|v| prune(v, item, item.is_some_and(|i| i.x_embedded_resource)))
        }
        _ => false,
    }
}

fn skip_prune(x: &Value, s: &Props<'_>, embedded: bool) -> bool {
    match x {
        Value::Object(m) => m.iter().any(|(k, v)| {
            if embedded && matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                return false;
            }
            if let Some(p) = s.property(k) {
                prune(v, Some(p), p.x_embedded_resource)
            } else if let Some(ap) = &s.additional_properties {
                let c = ap.schema.as_deref();
                prune(v, c, c.is_some_and(|c| c.x_embedded_resource))
            } else {
                false
            }
        }),
        Value::Array(items) => match s.items_schema() {
            Some(item) => items
                .iter()
                .any(|v| skip_prune(v, item, item.x_embedded_resource)),
            None => false,
        },
        _ => false,
    }
}

/// `objectmeta.Coerce` without dropping: the first embedded `apiVersion`/`kind` that is
/// not a string, or `metadata` that does not decode.
fn coerce(
    x: &Value,
    s: Option<&Props<'_>>,
    embedded: bool,
    path: &PathRef<'_>,
) -> Result<(), FieldError> {
    let Some(s) = s else { return Ok(()) };
    match x {
        Value::Object(m) => {
            for (k, v) in m {
                if embedded {
                    match k.as_str() {
                        "apiVersion" | "kind" if !v.is_string() => {
                            return Err(FieldError::invalid(
                                &path.child(k),
                                BadValue::unstructured(v),
                                "must be a string",
                            ));
                        }
                        "metadata" => {
                            if let Err(e) = decode_object_meta(v) {
                                return Err(FieldError::invalid(
                                    &path.child("metadata"),
                                    BadValue::unstructured(v),
                                    e.to_string(),
                                ));
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(p) = s.property(k) {
                    coerce(v, Some(p), p.x_embedded_resource, &path.child(k))?;
                } else if let Some(ap) = &s.additional_properties {
                    let c = ap.schema.as_deref();
                    coerce(v, c, c.is_some_and(|c| c.x_embedded_resource), &path.key(k))?;
                }
            }
            Ok(())
        }
        Value::Array(items) => {
            let item = s.items_schema();
            for (i, v) in items.iter().enumerate() {
                coerce(
                    v,
                    item,
                    item.is_some_and(|i| i.x_embedded_resource),
                    &path.index(i),
                )?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `objectmeta.Validate`: every embedded resource's type and object metadata.
fn validate_embedded(
    x: &Value,
    s: Option<&Props<'_>>,
    embedded: bool,
    path: &PathRef<'_>,
    out: &mut ErrorList,
) {
    let Some(s) = s else { return };
    match x {
        Value::Object(m) => {
            if embedded {
                validate_embedded_resource(x, path, out);
            }
            for (k, v) in m {
                if let Some(p) = s.property(k) {
                    validate_embedded(v, Some(p), p.x_embedded_resource, &path.child(k), out);
                } else if let Some(ap) = &s.additional_properties {
                    let c = ap.schema.as_deref();
                    validate_embedded(
                        v,
                        c,
                        c.is_some_and(|c| c.x_embedded_resource),
                        &path.key(k),
                        out,
                    );
                }
            }
        }
        Value::Array(items) => {
            let item = s.items_schema();
            for (i, v) in items.iter().enumerate() {
                validate_embedded(
                    v,
                    item,
                    item.is_some_and(|i| i.x_embedded_resource),
                    &path.index(i),
                    out,
                );
            }
        }
        _ => {}
    }
}
