//! JSON schema objects (a CRD's `openAPIV3Schema`, or a component of an OpenAPI document)
//! → arena nodes.
//!
//! Two modes, because the two sources reach kube-openapi's validator differently:
//!
//! - [`Mode::Crd`]: the API server's `ConvertJSONSchemaPropsWithPostProcess` with the
//!   format post-processor of Kubernetes 1.35: `x-kubernetes-int-or-string` replaces the
//!   type by `integer,string`, and a format the string registry does not know is stripped
//!   (numeric formats too: before 1.36 only the string list was consulted). `$ref` is not
//!   allowed.
//! - [`Mode::OpenApi`]: Kubernetes' published OpenAPI as kubectl-validate adjusts it before
//!   validating (`ApplySchemaPatches`, then `$ref`s resolved): formats are kept, a
//!   `type: string, format: byte` also accepts the empty string, the special-marshalling
//!   definitions (`Quantity`, `Time`, `RawExtension`, ...) are nullable, `IntOrString`
//!   becomes `x-kubernetes-int-or-string` (which, unlike kubectl-validate, is checked as
//!   `integer,string`: see [`crate::openapi`]), and a `default: {}` on a reference to one of
//!   those definitions is dropped. A reference site (`$ref`, or `allOf` with a single
//!   `$ref`) becomes a copy of the referenced node with the site's `default`, `type`,
//!   `nullable` (or-ed) and extensions on top.

use kdv_manifest::Step;
use kdv_runtime::gofmt::json_kind;
use serde_json::{Map, Value};

use crate::schema::{
    Additional, Arena, Extensions, Format, FormatKind, ListType, MapType, Node, NodeId, Pattern,
    Validations, types,
};

/// Which loader's rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A CRD's schema, as the API server of Kubernetes 1.`minor` converts it (formats
    /// are post-processed per version).
    Crd {
        /// The Kubernetes minor version whose rules apply.
        minor: u32,
    },
    /// An OpenAPI document's component, as kubectl-validate adjusts it.
    OpenApi {
        /// Whether the definition being built is one of the special-marshalling types made
        /// nullable (every node of its body is).
        nullable_definition: bool,
        /// Whether `format: byte` strings also accept `""` (built-in group-versions).
        empty_bytes: bool,
    },
}

/// A JSON path inside the source document (for positions of load errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathStep {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

impl PathStep {
    /// The step as `kdv-manifest` locates it.
    pub(crate) fn as_step(&self) -> Step<'_> {
        match self {
            PathStep::Key(k) => Step::Key(k),
            PathStep::Index(i) => Step::Index(*i),
        }
    }
}

/// A schema that cannot be compiled: where (path from the document root) and why.
#[derive(Debug, Clone)]
pub(crate) struct BuildError {
    pub path: Vec<PathStep>,
    pub message: String,
}

/// Resolves `$ref`s (OpenAPI mode only).
pub(crate) trait Refs {
    /// The node of the definition `reference` names (`#/components/schemas/NAME`), built or
    /// reserved, or why it cannot be resolved.
    fn resolve(
        &mut self,
        arena: &mut Arena,
        reference: &str,
    ) -> std::result::Result<NodeId, String>;
    /// Whether `reference` names one of the definitions whose `default: {}` is dropped.
    fn drops_empty_default(&self, reference: &str) -> bool;
}

/// No references (CRDs).
pub(crate) struct NoRefs;

impl Refs for NoRefs {
    fn resolve(&mut self, _: &mut Arena, reference: &str) -> std::result::Result<NodeId, String> {
        Err(format!("$ref is not supported here: {reference:?}"))
    }
    fn drops_empty_default(&self, _: &str) -> bool {
        false
    }
}

/// A reference site waiting for its target to be built: the site's node becomes a copy of
/// the target's with these overrides.
#[derive(Debug)]
pub(crate) struct PendingCopy {
    pub site: NodeId,
    pub target: NodeId,
    pub default: Option<Box<Value>>,
    pub nullable: bool,
    pub types: Option<(Box<[Box<str>]>, u8)>,
    pub extensions: Map<String, Value>,
    pub path: Vec<PathStep>,
}

/// Builds nodes into an arena.
pub(crate) struct Builder<'a, R: Refs> {
    pub arena: &'a mut Arena,
    pub refs: &'a mut R,
    pub mode: Mode,
    pub pending: Vec<PendingCopy>,
    path: Vec<PathStep>,
}

type Result<T> = std::result::Result<T, BuildError>;

impl<'a, R: Refs> Builder<'a, R> {
    pub(crate) fn new(arena: &'a mut Arena, refs: &'a mut R, mode: Mode) -> Self {
        Builder {
            arena,
            refs,
            mode,
            pending: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Sets the path of the schema about to be built (for error positions).
    pub(crate) fn set_path(&mut self, path: Vec<PathStep>) {
        self.path = path;
    }

    fn error(&self, message: impl Into<String>) -> BuildError {
        BuildError {
            path: self.path.clone(),
            message: message.into(),
        }
    }

    fn error_at(&self, key: &str, message: impl Into<String>) -> BuildError {
        let mut path = self.path.clone();
        path.push(PathStep::Key(key.to_owned()));
        BuildError {
            path,
            message: message.into(),
        }
    }

    /// Builds `schema` (a JSON object) and returns its node.
    pub(crate) fn build(&mut self, schema: &Value) -> Result<NodeId> {
        let Value::Object(map) = schema else {
            return Err(self.error(format!(
                "a schema must be an object, not {}",
                json_kind(schema)
            )));
        };
        if let Some(reference) = self.reference_of(map)? {
            return self.reference_site(map, &reference);
        }
        let node = self.node(map)?;
        Ok(self.arena.push(node))
    }

    /// The target of a reference site: `$ref`, or an `allOf` holding a single `$ref`.
    fn reference_of(&self, map: &Map<String, Value>) -> Result<Option<String>> {
        if let Some(r) = map.get("$ref") {
            let Value::String(r) = r else {
                return Err(self.error_at("$ref", "$ref must be a string"));
            };
            return Ok(Some(r.clone()));
        }
        if matches!(self.mode, Mode::Crd { .. }) {
            return Ok(None);
        }
        if let Some(Value::Array(all)) = map.get("allOf")
            && let [Value::Object(only)] = all.as_slice()
            && let Some(Value::String(r)) = only.get("$ref")
        {
            return Ok(Some(r.clone()));
        }
        Ok(None)
    }

    fn reference_site(&mut self, map: &Map<String, Value>, reference: &str) -> Result<NodeId> {
        let target = self
            .refs
            .resolve(self.arena, reference)
            .map_err(|m| self.error(m))?;
        let mut default = map.get("default").map(|d| Box::new(d.clone()));
        if default
            .as_deref()
            .is_some_and(|d| d.as_object().is_some_and(Map::is_empty))
            && self.refs.drops_empty_default(reference)
        {
            default = None;
        }
        let types = match map.get("type") {
            Some(t) => Some(self.types(t)?),
            None => None,
        };
        let nullable = self.bool_field(map, "nullable")?.unwrap_or(false)
            || matches!(
                self.mode,
                Mode::OpenApi {
                    nullable_definition: true,
                    ..
                }
            );
        let extensions = map
            .iter()
            .filter(|(k, _)| k.starts_with("x-kubernetes-"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let site = self.arena.push(Node::empty());
        self.pending.push(PendingCopy {
            site,
            target,
            default,
            nullable,
            types,
            extensions,
            path: self.path.clone(),
        });
        Ok(site)
    }

    fn child(&mut self, key: &str, value: &Value) -> Result<NodeId> {
        self.path.push(PathStep::Key(key.to_owned()));
        let r = self.build(value);
        self.path.pop();
        r
    }

    fn child2(&mut self, key: &str, step: PathStep, value: &Value) -> Result<NodeId> {
        self.path.push(PathStep::Key(key.to_owned()));
        self.path.push(step);
        let r = self.build(value);
        self.path.pop();
        self.path.pop();
        r
    }

    fn list(&mut self, map: &Map<String, Value>, key: &str) -> Result<Box<[NodeId]>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(Box::new([])),
            Some(Value::Array(items)) => {
                let mut ids = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    ids.push(self.child2(key, PathStep::Index(i), item)?);
                }
                Ok(ids.into_boxed_slice())
            }
            Some(other) => Err(self.error_at(
                key,
                format!(
                    "{key} must be an array of schemas, not {}",
                    json_kind(other)
                ),
            )),
        }
    }

    fn node(&mut self, map: &Map<String, Value>) -> Result<Node> {
        let mut node = Node::empty();
        let mut ext = self.extensions(map)?;

        // Type.
        if let Some(t) = map.get("type") {
            let (list, bits) = self.types(t)?;
            node.types = list;
            node.type_bits = bits;
        }
        if ext.int_or_string {
            // The API server's conversion (`ConvertJSONSchemaPropsWithPostProcess`) replaces
            // any declared type; for OpenAPI documents see `crate::openapi`.
            node.types = Box::new(["integer".into(), "string".into()]);
            node.type_bits = types::INTEGER | types::STRING;
        }
        node.nullable = self.bool_field(map, "nullable")?.unwrap_or(false)
            || matches!(
                self.mode,
                Mode::OpenApi {
                    nullable_definition: true,
                    ..
                }
            );

        // Value validations.
        let mut v = Validations::default();
        if let Some(e) = map.get("enum") {
            match e {
                Value::Null => {}
                Value::Array(values) => v.enumeration = Some(values.clone().into_boxed_slice()),
                other => {
                    return Err(self.error_at(
                        "enum",
                        format!("enum must be an array, not {}", json_kind(other)),
                    ));
                }
            }
        }
        if let Some(p) = self.string_field(map, "pattern")?
            && !p.is_empty()
        {
            let regex = kdv_cel::library::regex::compile_go(p).map_err(|e| e.to_string());
            let literal = regex
                .as_ref()
                .ok()
                .and_then(|_| kdv_cel::library::regex::literal_form(p));
            v.pattern = Some(Pattern {
                text: p.into(),
                regex,
                literal,
            });
        }
        v.maximum = self.number_field(map, "maximum")?;
        v.exclusive_maximum = self.bool_field(map, "exclusiveMaximum")?.unwrap_or(false);
        v.minimum = self.number_field(map, "minimum")?;
        v.exclusive_minimum = self.bool_field(map, "exclusiveMinimum")?.unwrap_or(false);
        v.multiple_of = self.number_field(map, "multipleOf")?;
        v.max_length = self.int_field(map, "maxLength")?;
        v.min_length = self.int_field(map, "minLength")?;
        v.max_items = self.int_field(map, "maxItems")?;
        v.min_items = self.int_field(map, "minItems")?;
        v.unique_items = self.bool_field(map, "uniqueItems")?.unwrap_or(false);
        v.max_properties = self.int_field(map, "maxProperties")?;
        v.min_properties = self.int_field(map, "minProperties")?;
        v.required = self.string_list(map, "required")?;
        v.all_of = self.list(map, "allOf")?;
        v.any_of = self.list(map, "anyOf")?;
        v.one_of = self.list(map, "oneOf")?;
        v.not = match map.get("not") {
            None | Some(Value::Null) => None,
            Some(n) => Some(self.child("not", n)?),
        };

        // Format, after the source's post-processing.
        if let Some(f) = self.string_field(map, "format")?
            && !f.is_empty()
        {
            let kind = FormatKind::of(f);
            match self.mode {
                Mode::Crd { minor } => {
                    if crd_keeps_format(kind, f, &node.types, minor) {
                        node.format = Some(Format {
                            text: f.into(),
                            kind,
                        });
                    }
                }
                Mode::OpenApi { empty_bytes, .. } => {
                    if empty_bytes && kind == FormatKind::Byte && is_only_string(&node.types) {
                        // kubectl-validate's AllowEmptyByteFormat: the format moves into an
                        // `allOf: [{anyOf: [{format: byte}, {maxLength: 0}]}]` so `""`
                        // passes, as it does for built-in types.
                        let mut byte = Node::empty();
                        byte.format = Some(Format {
                            text: f.into(),
                            kind,
                        });
                        let byte = self.arena.push(byte);
                        let mut empty = Node::empty();
                        empty.validations = Some(Box::new(Validations {
                            max_length: Some(0),
                            ..Validations::default()
                        }));
                        let empty = self.arena.push(empty);
                        let mut either = Node::empty();
                        either.validations = Some(Box::new(Validations {
                            any_of: Box::new([byte, empty]),
                            ..Validations::default()
                        }));
                        let either = self.arena.push(either);
                        let mut all = v.all_of.into_vec();
                        all.push(either);
                        v.all_of = all.into_boxed_slice();
                    } else {
                        node.format = Some(Format {
                            text: f.into(),
                            kind,
                        });
                    }
                }
            }
        }
        if !v.is_empty() {
            node.validations = Some(Box::new(v));
        }

        // Structure.
        match map.get("properties") {
            None | Some(Value::Null) => {}
            Some(Value::Object(props)) => {
                let mut list = Vec::with_capacity(props.len());
                // serde_json's map iterates keys sorted, which `Node::property` relies on.
                for (name, schema) in props {
                    let id = self.child2("properties", PathStep::Key(name.clone()), schema)?;
                    list.push((name.as_str().into(), id));
                }
                node.properties = list.into_boxed_slice();
            }
            Some(other) => {
                return Err(self.error_at(
                    "properties",
                    format!("properties must be an object, not {}", json_kind(other)),
                ));
            }
        }
        node.additional = match map.get("additionalProperties") {
            None | Some(Value::Null) => Additional::None,
            Some(Value::Bool(b)) => Additional::Bool(*b),
            Some(schema @ Value::Object(_)) => {
                Additional::Schema(self.child("additionalProperties", schema)?)
            }
            Some(other) => {
                return Err(self.error_at(
                    "additionalProperties",
                    format!(
                        "additionalProperties must be a boolean or a schema, not {}",
                        json_kind(other)
                    ),
                ));
            }
        };
        node.items = match map.get("items") {
            None | Some(Value::Null) => None,
            Some(schema @ Value::Object(_)) => Some(self.child("items", schema)?),
            // A tuple list: the structural schema takes its first schema (kubectl-validate's
            // conversion does the same; CRDs reject tuples at write time).
            Some(Value::Array(list)) => match list.first() {
                Some(first) => Some(self.child2("items", PathStep::Index(0), first)?),
                None => None,
            },
            Some(other) => {
                return Err(self.error_at(
                    "items",
                    format!("items must be a schema, not {}", json_kind(other)),
                ));
            }
        };
        node.default = match map.get("default") {
            None | Some(Value::Null) => None,
            Some(d) => Some(Box::new(d.clone())),
        };
        if let Some(x) = map.get("x-kubernetes-validations")
            && !x.is_null()
        {
            node.x_validations = Some(Box::new(x.clone()));
        }
        std::mem::swap(&mut node.extensions, &mut ext);
        Ok(node)
    }

    /// Reads the `x-kubernetes-*` extensions of a schema object.
    pub(crate) fn extensions(&self, map: &Map<String, Value>) -> Result<Extensions> {
        let mut ext = Extensions {
            preserve_unknown_fields: self
                .bool_field(map, "x-kubernetes-preserve-unknown-fields")?
                .unwrap_or(false),
            embedded_resource: self
                .bool_field(map, "x-kubernetes-embedded-resource")?
                .unwrap_or(false),
            int_or_string: self
                .bool_field(map, "x-kubernetes-int-or-string")?
                .unwrap_or(false),
            ..Extensions::default()
        };
        if let Some(t) = self.string_field(map, "x-kubernetes-list-type")? {
            ext.list_type = Some(match t {
                "atomic" => ListType::Atomic,
                "set" => ListType::Set,
                "map" => ListType::Map,
                other => ListType::Other(other.into()),
            });
        }
        ext.list_map_keys = self.string_list(map, "x-kubernetes-list-map-keys")?;
        if let Some(t) = self.string_field(map, "x-kubernetes-map-type")? {
            ext.map_type = Some(match t {
                "atomic" => MapType::Atomic,
                "granular" => MapType::Granular,
                other => MapType::Other(other.into()),
            });
        }
        Ok(ext)
    }

    fn types(&self, t: &Value) -> Result<(Box<[Box<str>]>, u8)> {
        match t {
            Value::Null => Ok((Box::new([]), 0)),
            Value::String(s) if s.is_empty() => Ok((Box::new([]), 0)),
            Value::String(s) => Ok((Box::new([s.as_str().into()]), types::bit(s))),
            Value::Array(list) => {
                let mut names = Vec::with_capacity(list.len());
                let mut bits = 0;
                for item in list {
                    let Value::String(s) = item else {
                        return Err(self.error_at("type", "type must be a string"));
                    };
                    bits |= types::bit(s);
                    names.push(s.as_str().into());
                }
                Ok((names.into_boxed_slice(), bits))
            }
            other => Err(self.error_at(
                "type",
                format!("type must be a string, not {}", json_kind(other)),
            )),
        }
    }

    fn bool_field(&self, map: &Map<String, Value>, key: &str) -> Result<Option<bool>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.error_at(
                key,
                format!("{key} must be a boolean, not {}", json_kind(other)),
            )),
        }
    }

    fn string_field<'m>(&self, map: &'m Map<String, Value>, key: &str) -> Result<Option<&'m str>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.error_at(
                key,
                format!("{key} must be a string, not {}", json_kind(other)),
            )),
        }
    }

    fn number_field(&self, map: &Map<String, Value>, key: &str) -> Result<Option<f64>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(self.error_at(
                key,
                format!("{key} must be a number, not {}", json_kind(other)),
            )),
        }
    }

    fn int_field(&self, map: &Map<String, Value>, key: &str) -> Result<Option<i64>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => match n.as_i64() {
                Some(i) => Ok(Some(i)),
                None => Err(self.error_at(key, format!("{key} must be an integer, not {n}"))),
            },
            Some(other) => Err(self.error_at(
                key,
                format!("{key} must be an integer, not {}", json_kind(other)),
            )),
        }
    }

    fn string_list(&self, map: &Map<String, Value>, key: &str) -> Result<Box<[Box<str>]>> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(Box::new([])),
            Some(Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let Value::String(s) = item else {
                        return Err(self.error_at(key, format!("{key} must be a list of strings")));
                    };
                    out.push(s.as_str().into());
                }
                Ok(out.into_boxed_slice())
            }
            Some(other) => Err(self.error_at(
                key,
                format!("{key} must be a list of strings, not {}", json_kind(other)),
            )),
        }
    }

    /// Fills every reference site with a copy of its target (targets that are sites
    /// themselves first). A cycle made only of reference sites is an error.
    pub(crate) fn resolve_pending(&mut self) -> Result<()> {
        let pending = std::mem::take(&mut self.pending);
        let mut index = std::collections::HashMap::with_capacity(pending.len());
        for (i, p) in pending.iter().enumerate() {
            index.insert(p.site, i);
        }
        // 0 = not done, 1 = in progress, 2 = done.
        let mut state = vec![0u8; pending.len()];
        for start in 0..pending.len() {
            let mut stack = vec![start];
            while let Some(&i) = stack.last() {
                if state[i] == 2 {
                    stack.pop();
                    continue;
                }
                let target = pending[i].target;
                if let Some(&t) = index.get(&target)
                    && state[t] != 2
                {
                    if state[t] == 1 {
                        return Err(BuildError {
                            path: pending[i].path.clone(),
                            message: "circular $ref without a schema in between".to_owned(),
                        });
                    }
                    state[i] = 1;
                    stack.push(t);
                    continue;
                }
                self.fill(&pending[i])?;
                state[i] = 2;
                stack.pop();
            }
        }
        Ok(())
    }

    fn fill(&mut self, p: &PendingCopy) -> Result<()> {
        let target = self.arena.node(p.target);
        let mut node = target.copy();
        node.nullable = target.nullable || p.nullable;
        if let Some(d) = &p.default {
            node.default = Some(d.clone());
        }
        if let Some((list, bits)) = &p.types
            && !list.is_empty()
        {
            node.types = list.clone();
            node.type_bits = *bits;
        }
        if !p.extensions.is_empty() {
            let saved = std::mem::take(&mut self.path);
            self.path = p.path.clone();
            let site_ext = self.extensions(&p.extensions);
            self.path = saved;
            let site_ext = site_ext?;
            let e = &mut node.extensions;
            let has = |k: &str| p.extensions.contains_key(k);
            if has("x-kubernetes-preserve-unknown-fields") {
                e.preserve_unknown_fields = site_ext.preserve_unknown_fields;
            }
            if has("x-kubernetes-embedded-resource") {
                e.embedded_resource = site_ext.embedded_resource;
            }
            if has("x-kubernetes-int-or-string") {
                e.int_or_string = site_ext.int_or_string;
                if e.int_or_string {
                    node.types = Box::new(["integer".into(), "string".into()]);
                    node.type_bits = types::INTEGER | types::STRING;
                }
            }
            if has("x-kubernetes-list-type") {
                e.list_type = site_ext.list_type;
            }
            if has("x-kubernetes-list-map-keys") {
                e.list_map_keys = site_ext.list_map_keys;
            }
            if has("x-kubernetes-map-type") {
                e.map_type = site_ext.map_type;
            }
            if let Some(x) = p.extensions.get("x-kubernetes-validations") {
                node.x_validations = Some(Box::new(x.clone()));
            }
        }
        *self.arena.node_mut(p.site) = node;
        Ok(())
    }
}

/// The API server's format post-processor (`StripUnsupportedFormatsPostProcessorForVersion`):
/// up to 1.35 only the string formats supported at the version are kept, whatever the
/// type; from 1.36 it is type-aware (strings and untyped nodes keep supported string
/// formats, integers `int32`/`int64`, numbers `float`/`double`, other types none). The
/// `k8s-short-name` and `k8s-long-name` formats exist from 1.34.
pub(crate) fn crd_keeps_format(
    kind: FormatKind,
    text: &str,
    types: &[Box<str>],
    minor: u32,
) -> bool {
    let string_format = match kind {
        FormatKind::Other => false,
        FormatKind::K8sShortName | FormatKind::K8sLongName => minor >= 34,
        _ => true,
    };
    if minor <= 35 {
        return string_format;
    }
    match types {
        [t] if t.as_ref() == "string" => string_format,
        [t] if t.as_ref() == "integer" => text == "int32" || text == "int64",
        [t] if t.as_ref() == "number" => text == "float" || text == "double",
        [_] => false,
        _ => string_format,
    }
}

fn is_only_string(types: &[Box<str>]) -> bool {
    matches!(types, [t] if t.as_ref() == "string")
}

/// Compiles a CRD version's `openAPIV3Schema` (at `path` in its document).
pub(crate) fn compile_crd_schema(
    schema: &Value,
    path: Vec<PathStep>,
    minor: u32,
    preserve_unknown: bool,
) -> std::result::Result<(Arena, NodeId), BuildError> {
    let mut arena = Arena::new();
    let mut refs = NoRefs;
    let mut b = Builder::new(&mut arena, &mut refs, Mode::Crd { minor });
    b.set_path(path);
    let root = b.build(schema)?;
    if preserve_unknown {
        arena.node_mut(root).extensions.preserve_unknown_fields = true;
    }
    crate::prune::prune_defaults(&mut arena);
    arena.finish();
    Ok((arena, root))
}
