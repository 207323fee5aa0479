//! Schema node → CEL declared type (apiserver `common.SchemaDeclType` over apiextensions'
//! structural schema), with the sizes the cost estimator reads.

use serde_json::Value;

use super::escaping::escape;
use crate::schema::{Additional, Arena, Node, NodeId};

/// The largest request the API server accepts (`DefaultMaxRequestSizeBytes`, 3 MiB): the
/// bound of every size a schema does not limit.
pub const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;
/// Longest JSON form of a `duration` string (`MaxDurationSizeJSON`).
pub const MAX_DURATION_SIZE_JSON: i64 = 32;
/// Longest JSON form of a `date-time` string (`MaxDatetimeSizeJSON`).
pub const MAX_DATETIME_SIZE_JSON: i64 = 32;
/// Shortest JSON form of a `duration` string (`MinDurationSizeJSON`).
pub const MIN_DURATION_SIZE_JSON: i64 = 3;
/// JSON form of a `date` string (`JSONDateSize`).
pub const JSON_DATE_SIZE: i64 = 12;
/// Shortest JSON form of a `date-time` string (`MinDatetimeSizeJSON`).
pub const MIN_DATETIME_SIZE_JSON: i64 = 21;
/// Shortest JSON string (`""`).
pub const MIN_STRING_SIZE: i64 = 2;
/// Shortest JSON boolean (`true`).
pub const MIN_BOOL_SIZE: i64 = 4;
/// Shortest JSON number.
pub const MIN_NUMBER_SIZE: i64 = 1;
/// `maxLength` of `metadata.name` at a resource root (a DNS-1123 subdomain);
/// `metadata.generateName` gets one less (the generated suffix takes at least a byte).
pub const NAME_MAX_LENGTH: i64 = 253;

/// A CEL declared type of a schema node: the CEL type and what the cost estimator needs.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclType {
    /// The shape.
    pub kind: DeclKind,
    /// Most elements a value can have (characters of strings, bytes, items of lists,
    /// entries of maps); 0 for numbers, booleans and objects (upstream's `MaxElements`).
    pub max_elements: i64,
    /// The fewest bytes a value takes serialized as JSON (upstream's `MinSerializedSize`).
    pub min_serialized_size: i64,
}

/// The shape of a [`DeclType`].
#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    /// `dyn` (`x-kubernetes-int-or-string`).
    Dyn,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes` (`format: byte`).
    Bytes,
    /// `google.protobuf.Duration` (`format: duration`).
    Duration,
    /// `google.protobuf.Timestamp` (`format: date` or `date-time`).
    Timestamp,
    /// `list(T)` (`items`; the list type does not change the CEL type).
    List(Box<DeclType>),
    /// `map(string, T)` (an `additionalProperties` schema).
    Map(Box<DeclType>),
    /// An object type with the fields of the properties that have a type and an escapable
    /// name, sorted by field name.
    Object(Box<[DeclField]>),
}

/// A field of an object [`DeclType`].
#[derive(Debug, Clone, PartialEq)]
pub struct DeclField {
    /// The CEL field name (the property name escaped).
    pub name: Box<str>,
    /// The JSON property name.
    pub property: Box<str>,
    /// The field's type.
    pub ty: DeclType,
    /// Whether the property is in the object's `required`.
    pub required: bool,
}

impl DeclType {
    const fn simple(kind: DeclKind, min_serialized_size: i64) -> DeclType {
        DeclType {
            kind,
            max_elements: 0,
            min_serialized_size,
        }
    }

    /// The field named `name` (escaped) of an object type.
    pub fn field(&self, name: &str) -> Option<&DeclField> {
        match &self.kind {
            DeclKind::Object(fields) => fields
                .binary_search_by(|f| (*f.name).cmp(name))
                .ok()
                .map(|i| &fields[i]),
            _ => None,
        }
    }
}

/// The CEL declared type of schema node `node`, or `None` when the node is not exposed to CEL
/// (no type, such as a bare `x-kubernetes-preserve-unknown-fields`; a list or map of such;
/// a list without `items`). `resource_root`: the node is the root of a custom resource or an
/// embedded resource, whose `apiVersion`, `kind`, `metadata.name` and
/// `metadata.generateName` are always declared (§4.3, with the name length caps of current
/// Kubernetes).
///
/// `x-kubernetes-preserve-unknown-fields` on an object does not declare the unknown fields,
/// `nullable` does not change the type (null is handled on values), and properties whose
/// schema is not exposed or whose name cannot be escaped are left out.
pub fn schema_decl_type(arena: &Arena, node: NodeId, resource_root: bool) -> Option<DeclType> {
    let mut stack = Vec::new();
    convert(arena, node, resource_root, &mut stack)
}

fn zero_if_negative(v: i64) -> i64 {
    v.max(0)
}

fn max_length(node: &Node) -> Option<i64> {
    node.validations.as_ref().and_then(|v| v.max_length)
}

/// A string type as a resource root's `metadata.name`/`generateName` declare it: capped at
/// `cap`, or at the schema's own shorter `maxLength`.
fn capped_string(existing: Option<i64>, cap: i64) -> DeclType {
    let max = existing.map_or(cap, |m| m.min(cap));
    DeclType {
        kind: DeclKind::String,
        max_elements: zero_if_negative(max) * 4,
        min_serialized_size: MIN_STRING_SIZE,
    }
}

/// An unbounded string (the `kind`/`apiVersion` a resource root always has).
fn plain_string() -> DeclType {
    DeclType {
        kind: DeclKind::String,
        max_elements: MAX_REQUEST_SIZE_BYTES - 2,
        min_serialized_size: MIN_STRING_SIZE,
    }
}

fn node_type(node: &Node) -> &str {
    node.types.first().map_or("", |t| t)
}

fn convert(
    arena: &Arena,
    id: NodeId,
    resource_root: bool,
    stack: &mut Vec<NodeId>,
) -> Option<DeclType> {
    // A recursive schema (only OpenAPI documents have them) has no finite declared type.
    if stack.contains(&id) {
        return None;
    }
    let node = arena.node(id);
    if node.extensions.int_or_string {
        return Some(DeclType {
            kind: DeclKind::Dyn,
            max_elements: max_length(node)
                .map_or(MAX_REQUEST_SIZE_BYTES - 2, |m| zero_if_negative(m) * 4),
            min_serialized_size: 1,
        });
    }
    stack.push(id);
    let result = match node_type(node) {
        "array" => node.items.and_then(|items| {
            let embedded = arena.node(items).extensions.embedded_resource;
            let item = convert(arena, items, embedded, stack)?;
            let max_items = node.validations.as_ref().and_then(|v| v.max_items);
            Some(DeclType {
                max_elements: max_items.map_or(
                    (MAX_REQUEST_SIZE_BYTES - 2) / (item.min_serialized_size + 1),
                    zero_if_negative,
                ),
                kind: DeclKind::List(Box::new(item)),
                min_serialized_size: 2,
            })
        }),
        "object" => match node.additional {
            Additional::Schema(values) => {
                let embedded = arena.node(values).extensions.embedded_resource;
                convert(arena, values, embedded, stack).map(|value| {
                    let max = node.validations.as_ref().and_then(|v| v.max_properties);
                    DeclType {
                        max_elements: max.map_or(
                            (MAX_REQUEST_SIZE_BYTES - 2) / (value.min_serialized_size + 6),
                            zero_if_negative,
                        ),
                        kind: DeclKind::Map(Box::new(value)),
                        min_serialized_size: 2,
                    }
                })
            }
            Additional::None | Additional::Bool(_) => {
                Some(object(arena, node, resource_root, stack))
            }
        },
        "string" => Some(string(node)),
        "boolean" => Some(DeclType::simple(DeclKind::Bool, MIN_BOOL_SIZE)),
        "number" => Some(DeclType::simple(DeclKind::Double, MIN_NUMBER_SIZE)),
        "integer" => Some(DeclType::simple(DeclKind::Int, MIN_NUMBER_SIZE)),
        _ => None,
    };
    stack.pop();
    result
}

fn string(node: &Node) -> DeclType {
    let format = node.format.as_ref().map_or("", |f| &f.text);
    let (kind, min, max) = match format {
        "byte" => (
            DeclKind::Bytes,
            MIN_STRING_SIZE,
            max_length(node).map_or(MAX_REQUEST_SIZE_BYTES - 2, zero_if_negative),
        ),
        "duration" => (
            DeclKind::Duration,
            MIN_DURATION_SIZE_JSON,
            MAX_DURATION_SIZE_JSON,
        ),
        "date" => (DeclKind::Timestamp, JSON_DATE_SIZE, JSON_DATE_SIZE),
        "date-time" => (
            DeclKind::Timestamp,
            MIN_DATETIME_SIZE_JSON,
            MAX_DATETIME_SIZE_JSON,
        ),
        _ => {
            let enumeration = node
                .validations
                .as_ref()
                .and_then(|v| v.enumeration.as_deref())
                .filter(|e| !e.is_empty());
            let max = match (max_length(node), enumeration) {
                (Some(m), _) => zero_if_negative(m) * 4,
                (None, Some(values)) => values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|s| s.len() as i64)
                    .max()
                    .unwrap_or(0),
                (None, None) => MAX_REQUEST_SIZE_BYTES - 2,
            };
            (DeclKind::String, MIN_STRING_SIZE, max)
        }
    };
    DeclType {
        kind,
        max_elements: max,
        min_serialized_size: min,
    }
}

/// Whether a resource root already declares string `kind` and `apiVersion` and an object
/// `metadata` with string `name` and `generateName` (upstream's `WithTypeAndObjectMeta` then
/// keeps the schema as it is).
fn declares_type_and_object_meta(arena: &Arena, node: &Node) -> bool {
    let is = |id: Option<NodeId>, ty: &str| id.is_some_and(|id| node_type(arena.node(id)) == ty);
    let metadata = node.property("metadata");
    is(node.property("kind"), "string")
        && is(node.property("apiVersion"), "string")
        && is(metadata, "object")
        && metadata.is_some_and(|m| {
            let m = arena.node(m);
            is(m.property("name"), "string") && is(m.property("generateName"), "string")
        })
}

/// The declared type of a resource root's `metadata` (upstream's `WithTypeAndObjectMeta`).
fn object_meta(arena: &Arena, metadata: Option<NodeId>) -> DeclType {
    let existing = |name: &str| {
        metadata
            .and_then(|m| arena.node(m).property(name))
            .and_then(|p| max_length(arena.node(p)))
    };
    let mut fields = vec![
        DeclField {
            name: "generateName".into(),
            property: "generateName".into(),
            ty: capped_string(existing("generateName"), NAME_MAX_LENGTH - 1),
            required: false,
        },
        DeclField {
            name: "name".into(),
            property: "name".into(),
            ty: capped_string(existing("name"), NAME_MAX_LENGTH),
            required: false,
        },
    ];
    fields.sort_by(|a, b| a.name.cmp(&b.name));
    DeclType {
        kind: DeclKind::Object(fields.into_boxed_slice()),
        max_elements: 0,
        min_serialized_size: 2,
    }
}

fn object(arena: &Arena, node: &Node, resource_root: bool, stack: &mut Vec<NodeId>) -> DeclType {
    let required: &[Box<str>] = node.validations.as_ref().map_or(&[], |v| &v.required[..]);
    let add_meta = resource_root && !declares_type_and_object_meta(arena, node);
    let mut fields = Vec::with_capacity(node.properties.len() + 3);
    // An object is serialized at least as `{}`.
    let mut min_size: i64 = 2;
    let mut add = |name: &str, ty: DeclType, has_default: bool, fields: &mut Vec<DeclField>| {
        let is_required = required.iter().any(|r| **r == *name);
        // Only required properties without a default count: the server fills defaults in.
        if is_required && !has_default {
            min_size += name.len() as i64 + ty.min_serialized_size + 4;
        }
        if let Some(escaped) = escape(name) {
            fields.push(DeclField {
                name: escaped.into(),
                property: name.into(),
                ty,
                required: is_required,
            });
        }
    };
    for (name, prop) in node.properties.iter() {
        if add_meta && matches!(&**name, "kind" | "apiVersion" | "metadata") {
            continue;
        }
        let p = arena.node(*prop);
        if let Some(ty) = convert(arena, *prop, p.extensions.embedded_resource, stack) {
            add(name, ty, p.default.is_some(), &mut fields);
        }
    }
    if add_meta {
        add("kind", plain_string(), false, &mut fields);
        add("apiVersion", plain_string(), false, &mut fields);
        let meta = object_meta(arena, node.property("metadata"));
        add("metadata", meta, false, &mut fields);
    }
    fields.sort_by(|a, b| a.name.cmp(&b.name));
    DeclType {
        kind: DeclKind::Object(fields.into_boxed_slice()),
        max_elements: 0,
        min_serialized_size: min_size,
    }
}
