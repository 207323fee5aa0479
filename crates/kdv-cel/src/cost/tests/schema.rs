//! A small model of Kubernetes structural schemas as the cost estimator sees them:
//! `SchemaDeclType` (CEL type, `MaxElements`, `MinSerializedSize`, spec §4.2), the object
//! types it declares to the checker, and upstream's schema size estimator (spec §6.2).

use std::collections::HashMap;
use std::sync::Arc;

use crate::checker::{CheckedExpr, Env, TypeProvider, compile};
use crate::cost::{
    CostEstimate, CostOptions, MAX_REQUEST_SIZE_BYTES, SizeEstimate, SizeEstimator, estimate_cost,
};
use crate::types::Type;

/// One schema node (only what decides CEL types and sizes).
#[derive(Clone, Debug)]
pub enum Schema {
    /// `type: integer`.
    Int,
    /// `type: number`.
    Number,
    /// `type: boolean`.
    Bool,
    /// `type: string` with an optional format (`byte`, `duration`, `date`, `date-time`).
    Str {
        format: &'static str,
        max_length: Option<i64>,
        enum_values: Vec<&'static str>,
    },
    /// `x-kubernetes-int-or-string`.
    IntOrString { max_length: Option<i64> },
    /// `type: array`.
    Array {
        items: Box<Schema>,
        max_items: Option<i64>,
    },
    /// `type: object` with `additionalProperties`.
    Map {
        values: Box<Schema>,
        max_properties: Option<i64>,
    },
    /// `type: object` with properties (possibly none); `embedded` = x-kubernetes-embedded-resource.
    Object { props: Vec<Prop>, embedded: bool },
    /// Not exposed to CEL (no type, x-kubernetes-preserve-unknown-fields only).
    Unknown,
}

/// A property of an object schema.
#[derive(Clone, Debug)]
pub struct Prop {
    pub name: &'static str,
    pub schema: Schema,
    pub required: bool,
    pub has_default: bool,
}

pub fn string() -> Schema {
    Schema::Str {
        format: "",
        max_length: None,
        enum_values: Vec::new(),
    }
}

pub fn string_max(max_length: Option<i64>) -> Schema {
    Schema::Str {
        format: "",
        max_length,
        enum_values: Vec::new(),
    }
}

pub fn formatted(format: &'static str) -> Schema {
    Schema::Str {
        format,
        max_length: None,
        enum_values: Vec::new(),
    }
}

pub fn list(items: Schema) -> Schema {
    Schema::Array {
        items: Box::new(items),
        max_items: None,
    }
}

pub fn list_max(items: Schema, max_items: Option<i64>) -> Schema {
    Schema::Array {
        items: Box::new(items),
        max_items,
    }
}

pub fn map(values: Schema) -> Schema {
    Schema::Map {
        values: Box::new(values),
        max_properties: None,
    }
}

pub fn map_max(values: Schema, max_properties: Option<i64>) -> Schema {
    Schema::Map {
        values: Box::new(values),
        max_properties,
    }
}

/// An object with optional properties.
pub fn object(props: &[(&'static str, Schema)]) -> Schema {
    Schema::Object {
        props: props
            .iter()
            .map(|(name, schema)| Prop {
                name,
                schema: schema.clone(),
                required: false,
                has_default: false,
            })
            .collect(),
        embedded: false,
    }
}

/// `schemas(a, b, ...)` of upstream tests: an object with properties `val1`, `val2`, ...
pub fn vals(schemas: &[Schema]) -> Schema {
    const NAMES: [&str; 13] = [
        "val1", "val2", "val3", "val4", "val5", "val6", "val7", "val8", "val9", "val10", "val11",
        "val12", "val13",
    ];
    let props: Vec<(&'static str, Schema)> = NAMES
        .iter()
        .zip(schemas)
        .map(|(n, s)| (*n, s.clone()))
        .collect();
    object(&props)
}

/// A converted schema node (`DeclType`).
#[derive(Clone, Debug)]
pub struct Decl {
    pub ty: Type,
    pub max_elements: u64,
    pub min_size: u64,
    pub kind: DeclKind,
}

#[derive(Clone, Debug)]
pub enum DeclKind {
    Scalar,
    List(Box<Decl>),
    Map(Box<Decl>),
    Object(Vec<(String, Decl)>),
}

fn non_negative(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

const R: u64 = MAX_REQUEST_SIZE_BYTES;

/// Kubernetes property-name escaping (`Escape`), enough for tests.
fn escape(name: &str) -> Option<String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'))
    {
        return None;
    }
    let mut out = String::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

fn scalar(ty: Type, min_size: u64, max_elements: u64) -> Decl {
    Decl {
        ty,
        max_elements,
        min_size,
        kind: DeclKind::Scalar,
    }
}

/// Kubernetes `WithTypeAndObjectMeta` for resource roots.
fn with_type_and_object_meta(props: &[Prop]) -> Vec<Prop> {
    let find = |n: &str| props.iter().find(|p| p.name == n);
    let is_string = |p: Option<&Prop>| matches!(p.map(|p| &p.schema), Some(Schema::Str { .. }));
    if let Some(Prop {
        schema: Schema::Object { props: meta, .. },
        ..
    }) = find("metadata")
        && is_string(find("kind"))
        && is_string(find("apiVersion"))
        && is_string(meta.iter().find(|p| p.name == "name"))
        && is_string(meta.iter().find(|p| p.name == "generateName"))
    {
        return props.to_vec();
    }
    let capped = |existing: Option<&Prop>, cap: i64| {
        let len = match existing.map(|p| &p.schema) {
            Some(Schema::Str {
                max_length: Some(m),
                ..
            }) if *m < cap => *m,
            _ => cap,
        };
        string_max(Some(len))
    };
    let meta_props: Vec<Prop> = match find("metadata").map(|p| &p.schema) {
        Some(Schema::Object { props, .. }) => props.clone(),
        _ => Vec::new(),
    };
    let mut out: Vec<Prop> = props
        .iter()
        .filter(|p| !matches!(p.name, "kind" | "apiVersion" | "metadata"))
        .cloned()
        .collect();
    let prop = |name, schema| Prop {
        name,
        schema,
        required: false,
        has_default: false,
    };
    out.push(prop("kind", string()));
    out.push(prop("apiVersion", string()));
    let name = capped(meta_props.iter().find(|p| p.name == "name"), 253);
    let generate_name = capped(meta_props.iter().find(|p| p.name == "generateName"), 252);
    out.push(prop(
        "metadata",
        Schema::Object {
            props: vec![prop("name", name), prop("generateName", generate_name)],
            embedded: false,
        },
    ));
    out
}

/// `SchemaDeclType(schema, isResourceRoot)`; object types are registered in `objects` under
/// `type_name`.
pub fn decl(
    schema: &Schema,
    type_name: &str,
    objects: &mut HashMap<String, HashMap<String, Type>>,
) -> Option<Decl> {
    Some(match schema {
        Schema::Int => scalar(Type::Int, 1, 0),
        Schema::Number => scalar(Type::Double, 1, 0),
        Schema::Bool => scalar(Type::Bool, 4, 0),
        Schema::IntOrString { max_length } => scalar(
            Type::Dyn,
            1,
            max_length.map_or(R - 2, |m| non_negative(m) * 4),
        ),
        Schema::Str {
            format,
            max_length,
            enum_values,
        } => match *format {
            "byte" => scalar(Type::Bytes, 2, max_length.map_or(R - 2, non_negative)),
            "duration" => scalar(Type::Duration, 3, 32),
            "date" => scalar(Type::Timestamp, 12, 12),
            "date-time" => scalar(Type::Timestamp, 21, 32),
            _ => {
                let max = match max_length {
                    Some(m) => non_negative(*m) * 4,
                    None if !enum_values.is_empty() => enum_values
                        .iter()
                        .map(|v| v.len() as u64)
                        .max()
                        .unwrap_or(0),
                    None => R - 2,
                };
                scalar(Type::String, 2, max)
            }
        },
        Schema::Array { items, max_items } => {
            let item = decl(items, &format!("{type_name}.@idx"), objects)?;
            let max = max_items.map_or((R - 2) / (item.min_size + 1), non_negative);
            Decl {
                ty: Type::List(Box::new(item.ty.clone())),
                max_elements: max,
                min_size: 2,
                kind: DeclKind::List(Box::new(item)),
            }
        }
        Schema::Map {
            values,
            max_properties,
        } => {
            let value = decl(values, &format!("{type_name}.@idx"), objects)?;
            let max = max_properties.map_or((R - 2) / (value.min_size + 6), non_negative);
            Decl {
                ty: Type::Map(Box::new(Type::String), Box::new(value.ty.clone())),
                max_elements: max,
                min_size: 2,
                kind: DeclKind::Map(Box::new(value)),
            }
        }
        Schema::Object { props, embedded } => {
            let props = if *embedded {
                with_type_and_object_meta(props)
            } else {
                props.clone()
            };
            let mut fields = Vec::new();
            let mut min_size = 2;
            for p in &props {
                let Some(d) = decl(&p.schema, &format!("{type_name}.{}", p.name), objects) else {
                    continue;
                };
                if p.required && !p.has_default {
                    min_size += p.name.len() as u64 + d.min_size + 4;
                }
                if let Some(escaped) = escape(p.name) {
                    fields.push((escaped, d));
                }
            }
            objects.insert(
                type_name.to_string(),
                fields
                    .iter()
                    .map(|(n, d)| (n.clone(), d.ty.clone()))
                    .collect(),
            );
            Decl {
                ty: Type::Object(Arc::from(type_name)),
                max_elements: 0,
                min_size,
                kind: DeclKind::Object(fields),
            }
        }
        Schema::Unknown => return None,
    })
}

/// Object types declared by a converted schema.
struct Objects(HashMap<String, HashMap<String, Type>>);

impl TypeProvider for Objects {
    fn has_type(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        self.0.get(type_name)?.get(field).cloned()
    }
}

/// Kubernetes' schema size estimator: the first path segment is skipped (it names `self`,
/// `oldSelf`, or is a synthetic segment), the rest walks fields, `@items`/`@values` and
/// `@keys` (the shared `string` type, whose `MaxElements` is 0).
pub struct SchemaSizes {
    pub root: Decl,
}

/// The `string` type every map's keys have; its `MaxElements` is never set.
static MAP_KEY: Decl = Decl {
    ty: Type::String,
    max_elements: 0,
    min_size: 2,
    kind: DeclKind::Scalar,
};

impl SizeEstimator for SchemaSizes {
    fn estimate_size(&self, path: &[&str], _: &Type) -> Option<SizeEstimate> {
        let (_, rest) = path.split_first()?;
        let mut node = &self.root;
        for seg in rest {
            node = match (*seg, &node.kind) {
                ("@items" | "@values", DeclKind::List(e) | DeclKind::Map(e)) => e,
                ("@keys", DeclKind::Map(_)) => &MAP_KEY,
                ("@items" | "@values" | "@keys", _) => return None,
                (name, DeclKind::Object(fields)) => &fields.iter().find(|(n, _)| n == name)?.1,
                _ => return None,
            };
        }
        Some(SizeEstimate {
            min: 0,
            max: node.max_elements,
        })
    }
}

/// A schema ready for compiling rules attached to its root.
pub struct RuleEnv {
    pub env: Env,
    pub sizes: SchemaSizes,
}

impl RuleEnv {
    pub fn new(root: &Schema) -> RuleEnv {
        let mut objects = HashMap::new();
        let root = decl(root, "schema.self", &mut objects).expect("the schema converts");
        let mut env = crate::k8s::env();
        env.set_provider(Arc::new(Objects(objects)));
        env.add_variable("self", root.ty.clone());
        env.add_variable("oldSelf", root.ty.clone());
        RuleEnv {
            env,
            sizes: SchemaSizes { root },
        }
    }

    pub fn compile(&self, rule: &str) -> Result<CheckedExpr, String> {
        compile(rule, &self.env).map_err(|e| e.to_string())
    }

    /// The estimated cost of `rule` with Kubernetes' options.
    pub fn cost(&self, rule: &str) -> Result<CostEstimate, String> {
        let checked = self.compile(rule)?;
        estimate_cost(&checked, &self.sizes, &CostOptions::kubernetes()).map_err(|e| e.to_string())
    }
}
