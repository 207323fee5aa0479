use serde_json::{Value, json};

use super::*;
use crate::Resource;
use kdv_cel::CompiledExpression;
use kdv_cel::checker::compile;
use kdv_cel::cost::SizeEstimator;
use kdv_cel::types::Type;

const R: i64 = MAX_REQUEST_SIZE_BYTES;

fn resource(schema: Value) -> Resource {
    Resource::from_crd_schema("example.com", "v1", "Widget", &schema, 35).unwrap()
}

/// The declared type of the root's property `spec.x` (not a resource root).
fn decl_of(x: Value) -> Option<DeclType> {
    let r = resource(json!({"type": "object", "properties": {"x": x}}));
    let (arena, root) = r.schema();
    let id = arena.node(root).property("x").unwrap();
    schema_decl_type(arena, id, arena.node(id).extensions.embedded_resource)
}

fn simple(kind: DeclKind, max: i64, min: i64) -> DeclType {
    DeclType {
        kind,
        max_elements: max,
        min_serialized_size: min,
    }
}

fn field_names(t: &DeclType) -> Vec<&str> {
    match &t.kind {
        DeclKind::Object(fields) => fields.iter().map(|f| &*f.name).collect(),
        other => panic!("not an object: {other:?}"),
    }
}

#[test]
fn scalars() {
    let cases = [
        (json!({"type": "boolean"}), simple(DeclKind::Bool, 0, 4)),
        (json!({"type": "integer"}), simple(DeclKind::Int, 0, 1)),
        (
            json!({"type": "integer", "format": "int32"}),
            simple(DeclKind::Int, 0, 1),
        ),
        (json!({"type": "number"}), simple(DeclKind::Double, 0, 1)),
        (
            json!({"type": "number", "format": "double"}),
            simple(DeclKind::Double, 0, 1),
        ),
        (
            json!({"type": "string"}),
            simple(DeclKind::String, R - 2, 2),
        ),
        (
            json!({"type": "string", "maxLength": 10}),
            simple(DeclKind::String, 40, 2),
        ),
        (
            json!({"type": "string", "enum": ["a", "abcd", "ab"]}),
            simple(DeclKind::String, 4, 2),
        ),
        (
            json!({"type": "string", "enum": ["a", "abcd"], "maxLength": 2}),
            simple(DeclKind::String, 8, 2),
        ),
        (
            json!({"type": "string", "format": "byte"}),
            simple(DeclKind::Bytes, R - 2, 2),
        ),
        (
            json!({"type": "string", "format": "byte", "maxLength": 10}),
            simple(DeclKind::Bytes, 10, 2),
        ),
        (
            json!({"type": "string", "format": "duration", "maxLength": 5}),
            simple(DeclKind::Duration, 32, 3),
        ),
        (
            json!({"type": "string", "format": "date"}),
            simple(DeclKind::Timestamp, 12, 12),
        ),
        (
            json!({"type": "string", "format": "date-time"}),
            simple(DeclKind::Timestamp, 32, 21),
        ),
        // Formats match exactly: `datetime` stays a string.
        (
            json!({"type": "string", "format": "datetime"}),
            simple(DeclKind::String, R - 2, 2),
        ),
        (
            json!({"type": "string", "format": "email"}),
            simple(DeclKind::String, R - 2, 2),
        ),
        (
            json!({"x-kubernetes-int-or-string": true}),
            simple(DeclKind::Dyn, R - 2, 1),
        ),
        (
            json!({"x-kubernetes-int-or-string": true, "maxLength": 3}),
            simple(DeclKind::Dyn, 12, 1),
        ),
        // nullable does not change the type.
        (
            json!({"type": "integer", "nullable": true}),
            simple(DeclKind::Int, 0, 1),
        ),
    ];
    for (schema, want) in cases {
        assert_eq!(decl_of(schema.clone()).as_ref(), Some(&want), "{schema}");
    }
}

#[test]
fn lists_and_maps() {
    let list = decl_of(json!({"type": "array", "items": {"type": "integer"}})).unwrap();
    assert_eq!(
        list,
        simple(
            DeclKind::List(Box::new(simple(DeclKind::Int, 0, 1))),
            1_572_863,
            2
        )
    );
    let list = decl_of(
        json!({"type": "array", "maxItems": 5, "x-kubernetes-list-type": "set",
        "items": {"type": "string"}}),
    )
    .unwrap();
    assert_eq!(list.max_elements, 5);
    let strings = decl_of(json!({"type": "array", "items": {"type": "string"}})).unwrap();
    assert_eq!(strings.max_elements, 1_048_575);
    let bools = decl_of(json!({"type": "array", "items": {"type": "boolean"}})).unwrap();
    assert_eq!(bools.max_elements, 629_145);
    let times =
        decl_of(json!({"type": "array", "items": {"type": "string", "format": "date-time"}}))
            .unwrap();
    assert_eq!(times.max_elements, 142_987);

    let map =
        decl_of(json!({"type": "object", "additionalProperties": {"type": "string"}})).unwrap();
    assert_eq!(
        map,
        simple(
            DeclKind::Map(Box::new(simple(DeclKind::String, R - 2, 2))),
            393_215,
            2
        )
    );
    let map = decl_of(json!({"type": "object", "maxProperties": 3,
        "additionalProperties": {"type": "integer"}}))
    .unwrap();
    assert_eq!(map.max_elements, 3);
    let ints =
        decl_of(json!({"type": "object", "additionalProperties": {"type": "integer"}})).unwrap();
    assert_eq!(ints.max_elements, 449_389);
}

#[test]
fn unexposed_schemas() {
    // No type: preserve-unknown-fields only, and lists/maps of it.
    assert_eq!(
        decl_of(json!({"x-kubernetes-preserve-unknown-fields": true})),
        None
    );
    assert_eq!(
        decl_of(json!({"type": "array",
            "items": {"x-kubernetes-preserve-unknown-fields": true}})),
        None
    );
    assert_eq!(
        decl_of(json!({"type": "object",
            "additionalProperties": {"x-kubernetes-preserve-unknown-fields": true}})),
        None
    );
}

#[test]
fn objects() {
    // Preserve-unknown-fields objects declare only their properties.
    let t =
        decl_of(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})).unwrap();
    assert_eq!(t, simple(DeclKind::Object(Box::new([])), 0, 2));
    let t = decl_of(
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"a": {"type": "integer"}}}),
    )
    .unwrap();
    assert_eq!(field_names(&t), ["a"]);

    let t = decl_of(json!({
        "type": "object",
        "required": ["name", "count", "withDefault", "unknown", "odd@name"],
        "properties": {
            "name": {"type": "string"},
            "count": {"type": "integer"},
            "withDefault": {"type": "integer", "default": 1},
            "unknown": {"x-kubernetes-preserve-unknown-fields": true},
            "odd@name": {"type": "boolean"},
            "a-b": {"type": "string"},
            "namespace": {"type": "string"},
            "x.y/z": {"type": "string"},
            "1st": {"type": "string"},
        },
    }))
    .unwrap();
    // Unexposed (`unknown`) and unescapable (`odd@name`, `1st`) properties are no fields.
    assert_eq!(
        field_names(&t),
        [
            "__namespace__",
            "a__dash__b",
            "count",
            "name",
            "withDefault",
            "x__dot__y__slash__z"
        ]
    );
    // {} + required properties without default that convert, unescapable ones included:
    // name (4+2+4) + count (5+1+4) + odd@name (8+4+4).
    assert_eq!(t.min_serialized_size, 2 + 10 + 10 + 16);
    let count = t.field("count").unwrap();
    assert!(count.required);
    assert_eq!(&*count.property, "count");
    assert_eq!(&*t.field("__namespace__").unwrap().property, "namespace");
    assert!(!t.field("a__dash__b").unwrap().required);
}

#[test]
fn resource_roots() {
    let r = resource(json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": {"type": "object"},
        },
    }));
    let (arena, root) = r.schema();
    let t = schema_decl_type(arena, root, true).unwrap();
    assert_eq!(field_names(&t), ["apiVersion", "kind", "metadata", "spec"]);
    let meta = &t.field("metadata").unwrap().ty;
    assert_eq!(field_names(meta), ["generateName", "name"]);
    assert_eq!(meta.field("name").unwrap().ty.max_elements, 253 * 4);
    assert_eq!(meta.field("generateName").unwrap().ty.max_elements, 252 * 4);
    assert_eq!(
        t.field("kind").unwrap().ty,
        simple(DeclKind::String, R - 2, 2)
    );
    // Not a resource root: no implied fields.
    let plain = schema_decl_type(arena, root, false).unwrap();
    assert_eq!(
        plain.field("metadata").unwrap().ty.kind,
        DeclKind::Object(Box::new([]))
    );

    // The root's own shorter metadata.name maxLength wins.
    let r = resource(json!({
        "type": "object",
        "properties": {
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 10}}},
        },
    }));
    let (arena, root) = r.schema();
    let t = schema_decl_type(arena, root, true).unwrap();
    let meta = &t.field("metadata").unwrap().ty;
    assert_eq!(meta.field("name").unwrap().ty.max_elements, 40);
    assert_eq!(meta.field("generateName").unwrap().ty.max_elements, 252 * 4);
}

#[test]
fn embedded_resources() {
    let t = decl_of(json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
    }))
    .unwrap();
    assert_eq!(field_names(&t), ["apiVersion", "kind", "metadata"]);

    // A schema declaring them all, metadata.namespace included, is used as it is.
    let t = decl_of(json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object", "properties": {
                "name": {"type": "string"},
                "generateName": {"type": "string"},
                "namespace": {"type": "string"},
            }},
        },
    }))
    .unwrap();
    let meta = &t.field("metadata").unwrap().ty;
    assert_eq!(field_names(meta), ["__namespace__", "generateName", "name"]);
    assert_eq!(meta.field("name").unwrap().ty.max_elements, R - 2);

    // Items of a list carry their own flag.
    let t = decl_of(json!({"type": "array", "items": {
        "type": "object", "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true}}))
    .unwrap();
    let DeclKind::List(item) = &t.kind else {
        panic!("{t:?}")
    };
    assert_eq!(field_names(item), ["apiVersion", "kind", "metadata"]);
}

fn widget() -> std::sync::Arc<Resource> {
    let mut set = crate::SchemaSet::new();
    let crd = include_bytes!("../../../../testdata/cli-workload/crds/widget-crd.yaml");
    set.add_crds("widget-crd.yaml", crd).unwrap();
    set.resource("anchor.example.com/v1", "Widget").unwrap()
}

fn root_types(r: &Resource) -> RuleTypes {
    let (arena, root) = r.schema();
    RuleTypes::new(schema_decl_type(arena, root, true).unwrap(), "selfType0")
}

#[test]
fn widget_rules_type_check() {
    let w = widget();
    let types = root_types(&w);
    let env = types.env(&kdv_cel::k8s::env(), false);
    for (rule, want) in [
        ("self.spec.replicas > 0", Type::Bool),
        ("self.spec.replicas", Type::Int),
        ("self.spec.tags", Type::List(Box::new(Type::String))),
        (
            "self.spec.ports[0]",
            Type::Object("selfType0.spec.ports.@idx".into()),
        ),
        ("self.spec.ports[0].port", Type::Int),
        ("self.metadata.name", Type::String),
        ("self.apiVersion + self.kind", Type::String),
        (
            "self.spec.minReplicas <= oldSelf.spec.minReplicas",
            Type::Bool,
        ),
    ] {
        let checked = compile(rule, &env).unwrap_or_else(|e| panic!("{rule}: {e}"));
        assert_eq!(checked.result_type, want, "{rule}");
    }
    assert_eq!(
        compile("self.spec.nosuch", &env).unwrap_err().to_string(),
        "ERROR: <input>:1:10: undefined field 'nosuch'\n | self.spec.nosuch\n | .........^"
    );
    // cel-go places errors in `has()` at the macro call.
    assert_eq!(
        compile("has(self.metadata.namespace)", &env)
            .unwrap_err()
            .to_string(),
        "ERROR: <input>:1:4: undefined field 'namespace'\n | has(self.metadata.namespace)\n | ...^"
    );
    let optional = types.env(&kdv_cel::k8s::env(), true);
    let checked = compile("oldSelf.hasValue()", &optional).unwrap();
    assert_eq!(checked.result_type, Type::Bool);

    let rule = CompiledExpression::compile(
        &env,
        "self.spec.replicas > 0",
        &types.sizes(),
        &kdv_cel::k8s::program_options(),
    )
    .unwrap();
    assert_eq!(rule.result_type(), &Type::Bool);
}

#[test]
fn reserved_words_select_escaped_fields() {
    let r = resource(json!({"type": "object", "properties": {
        "namespace": {"type": "string"},
        "if": {"type": "integer"},
        "a-b": {"type": "boolean"},
    }}));
    let types = root_types(&r);
    let env = types.env(&kdv_cel::k8s::env(), false);
    for (rule, want) in [
        ("self.namespace", Type::String),
        ("self.__namespace__", Type::String),
        ("self.if", Type::Int),
        ("self.a__dash__b", Type::Bool),
    ] {
        let checked = compile(rule, &env).unwrap_or_else(|e| panic!("{rule}: {e}"));
        assert_eq!(checked.result_type, want, "{rule}");
    }
    let err = compile("self.while", &env).unwrap_err().to_string();
    assert!(err.contains("undefined field 'while'"), "{err}");
}

#[test]
fn sizes_walk_the_declared_type() {
    let w = widget();
    let types = root_types(&w);
    let sizes = types.sizes();
    let max = |path: &[&str]| sizes.estimate_size(path, &Type::Dyn).map(|s| s.max);
    assert_eq!(max(&["self", "spec", "tags"]), Some(16));
    assert_eq!(max(&["self", "spec", "tags", "@items"]), Some(128));
    assert_eq!(max(&["self", "spec", "name"]), Some(252));
    assert_eq!(max(&["self", "spec", "replicas"]), Some(0));
    assert_eq!(max(&["self", "spec", "ports", "@items", "name"]), Some(60));
    assert_eq!(max(&["self", "spec", "nosuch"]), None);
    assert_eq!(max(&["self", "spec", "@keys"]), None);
    assert_eq!(max(&["self"]), Some(0));
    assert_eq!(max(&[]), None);

    let map = decl_of(json!({"type": "object", "maxProperties": 7,
        "additionalProperties": {"type": "string", "maxLength": 3}}))
    .unwrap();
    let sizes = RuleTypes::new(map, "selfType1").sizes();
    let max = |path: &[&str]| sizes.estimate_size(path, &Type::Dyn).map(|s| s.max);
    assert_eq!(max(&["self"]), Some(7));
    assert_eq!(max(&["self", "@values"]), Some(12));
    assert_eq!(max(&["self", "@keys"]), Some(0));
}

#[test]
fn type_names_follow_paths() {
    let t = decl_of(json!({"type": "object", "properties": {
        "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "integer"}}}},
        "map": {"type": "object", "additionalProperties": {"type": "object"}},
    }}))
    .unwrap();
    let mut provider = DeclTypeProvider::new();
    let root = provider.register("selfType7", &t);
    assert_eq!(root.to_string(), "selfType7");
    use kdv_cel::checker::TypeProvider;
    assert_eq!(
        provider
            .field_type("selfType7", "list")
            .unwrap()
            .to_string(),
        "list(selfType7.list.@idx)"
    );
    assert_eq!(
        provider.field_type("selfType7", "map").unwrap().to_string(),
        "map(string, selfType7.map.@elem)"
    );
    assert_eq!(
        provider.field_type("selfType7.list.@idx", "a"),
        Some(Type::Int)
    );
    assert!(provider.has_type("selfType7.map.@elem"));
    assert_eq!(t.cel_type("x").to_string(), "x");
}

#[test]
fn recursive_openapi_schemas_are_not_exposed() {
    use crate::schema::{Arena, Node};
    let mut arena = Arena::new();
    let mut node = Node::empty();
    node.types = Box::new(["object".into()]);
    let id = arena.push(node);
    arena.node_mut(id).properties = Box::new([("self".into(), id)]);
    arena.finish();
    let t = schema_decl_type(&arena, id, false).unwrap();
    assert_eq!(t, simple(DeclKind::Object(Box::new([])), 0, 2));
}
