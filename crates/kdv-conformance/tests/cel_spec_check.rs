//! Compile-side conformance: parses every expression of the cel-spec simple suite and
//! type-checks those the reference runner checks, in cel-go's conformance environment
//! (standard library, optional types, strings/math/encoders/two-variable extensions, the
//! protobuf test messages). The data is the project's `testdata/cel-spec`; if it cannot be
//! read, the test fails.
//!
//! Counted per file: expressions parsed; checks that succeed where the suite expects
//! checking to succeed (`disable_check` unset); deduced types equal to `typed_result`
//! expectations. Floors below are raised as the implementation grows, never lowered.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kdv_cel::checker::{self, Env, OverloadDecl, TypeProvider};
use kdv_cel::library::ext;
use kdv_cel::parser::{self, Macros, ParseOptions};
use kdv_cel::types::Type;
use serde_json::Value as Json;

/// Expressions that must parse.
const MIN_PARSED: usize = 2456;
/// Checks that must succeed (of those the suite expects to check).
const MIN_CHECKED: usize = 2224;
/// `typed_result.deduced_type` expectations that must match.
const MIN_DEDUCED: usize = 42;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/cel-spec")
}

#[derive(Default)]
struct Counts {
    tests: usize,
    parsed: usize,
    check_expected: usize,
    checked: usize,
    deduced_expected: usize,
    deduced: usize,
    /// Checked result types that contradict the expected value's type.
    value_type_mismatches: usize,
}

#[test]
fn cel_spec_parse_and_check() {
    let dir = data_dir();
    assert!(
        dir.join("simple").is_dir(),
        "cel-spec data not found at {}",
        dir.display()
    );
    let provider = Arc::new(DescriptorProvider::load(
        &dir.join("descriptors/conformance.descriptor.json"),
    ));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("simple"))
        .expect("listing the suite")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let verbose = std::env::var_os("KDV_CEL_SPEC_VERBOSE").is_some();
    let mut total = Counts::default();
    println!(
        "{:<16} {:>6} {:>7} {:>13} {:>13}",
        "file", "tests", "parsed", "checked", "deduced"
    );
    for file in files {
        let text = std::fs::read_to_string(&file).expect("reading a suite file");
        let json: Json = serde_json::from_str(&text).expect("suite JSON");
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let mut c = Counts::default();
        for section in json["section"].as_array().into_iter().flatten() {
            for test in section["test"].as_array().into_iter().flatten() {
                run_test(&name, section, test, &provider, &mut c, verbose);
            }
        }
        println!(
            "{:<16} {:>6} {:>7} {:>6}/{:<6} {:>6}/{:<6}",
            name, c.tests, c.parsed, c.checked, c.check_expected, c.deduced, c.deduced_expected
        );
        total.tests += c.tests;
        total.parsed += c.parsed;
        total.check_expected += c.check_expected;
        total.checked += c.checked;
        total.deduced_expected += c.deduced_expected;
        total.deduced += c.deduced;
        total.value_type_mismatches += c.value_type_mismatches;
    }
    println!(
        "{:<16} {:>6} {:>7} {:>6}/{:<6} {:>6}/{:<6}",
        "TOTAL",
        total.tests,
        total.parsed,
        total.checked,
        total.check_expected,
        total.deduced,
        total.deduced_expected
    );
    assert_eq!(
        total.value_type_mismatches, 0,
        "checked types contradicting expected values"
    );
    assert!(
        total.parsed >= MIN_PARSED,
        "parsed {} < {MIN_PARSED}",
        total.parsed
    );
    assert!(
        total.checked >= MIN_CHECKED,
        "checked {} < {MIN_CHECKED}",
        total.checked
    );
    assert!(
        total.deduced >= MIN_DEDUCED,
        "deduced {} < {MIN_DEDUCED}",
        total.deduced
    );
}

fn run_test(
    file: &str,
    section: &Json,
    test: &Json,
    provider: &Arc<DescriptorProvider>,
    c: &mut Counts,
    verbose: bool,
) {
    c.tests += 1;
    let id = format!(
        "{file}/{}/{}",
        section["name"].as_str().unwrap_or(""),
        test["name"].as_str().unwrap_or("")
    );
    let expr = test["expr"].as_str().unwrap_or("");
    let mut opts = ParseOptions::conformance();
    if test["disable_macros"].as_bool() == Some(true) {
        // The suite's "no macros" environment keeps the extension libraries' macros.
        opts.macros = Macros::OPTIONAL
            .union(Macros::TWO_VAR)
            .union(Macros::MATH)
            .union(Macros::BIND)
            .union(Macros::PROTOS)
            .union(Macros::BLOCK);
    }
    let parsed = match parser::parse_with(expr, &opts) {
        Ok(p) => p,
        Err(e) => {
            if verbose {
                println!("PARSE FAIL {id}: {expr}\n{e}");
            }
            return;
        }
    };
    c.parsed += 1;
    if test["disable_check"].as_bool() == Some(true) {
        return;
    }
    c.check_expected += 1;
    let env = conformance_env(test, provider);
    let deduced = test["typed_result"]["deduced_type"].clone();
    match checker::check(parsed, &env) {
        Ok(checked) => {
            c.checked += 1;
            if let Some(want) = value_type(&test["value"])
                && !compatible(&checked.result_type, &want)
            {
                c.value_type_mismatches += 1;
                println!(
                    "VALUE TYPE MISMATCH {id}: {expr}\n  value is {want}, checked type {}",
                    checked.result_type
                );
            }
            if !deduced.is_null() {
                c.deduced_expected += 1;
                let want = json_type(&deduced, provider);
                if checked.result_type == want {
                    c.deduced += 1;
                } else if verbose {
                    println!(
                        "TYPE MISMATCH {id}: {expr}\n  want {want}\n  got  {}",
                        checked.result_type
                    );
                }
            }
        }
        Err(e) => {
            if !deduced.is_null() {
                c.deduced_expected += 1;
            }
            if verbose {
                println!("CHECK FAIL {id}: {expr}\n{e}");
            }
        }
    }
}

/// The type of an expected `cel.expr.Value`, where it is unambiguous.
fn value_type(v: &Json) -> Option<Type> {
    let o = v.as_object()?;
    let (k, _) = o.iter().next()?;
    Some(match k.as_str() {
        "null_value" => Type::Null,
        "bool_value" => Type::Bool,
        "int64_value" => Type::Int,
        "uint64_value" => Type::Uint,
        "double_value" => Type::Double,
        "string_value" => Type::String,
        "bytes_value" => Type::Bytes,
        "list_value" => Type::List(Box::new(Type::Dyn)),
        "map_value" => Type::Map(Box::new(Type::Dyn), Box::new(Type::Dyn)),
        _ => return None,
    })
}

/// Whether a checked type admits a value of runtime type `value`.
fn compatible(checked: &Type, value: &Type) -> bool {
    match (checked, value) {
        (Type::Dyn | Type::Param(_) | Type::Error, _) => true,
        (Type::Object(n), _) if n.starts_with("google.protobuf.") => true,
        (t, _) if t.as_wrapper().is_some() => {
            matches!(value, Type::Null) || t.as_wrapper() == Some(value)
        }
        (Type::List(_), Type::List(_)) | (Type::Map(..), Type::Map(..)) => true,
        (Type::Null, Type::Null) => true,
        (a, b) => a == b,
    }
}

fn conformance_env(test: &Json, provider: &Arc<DescriptorProvider>) -> Env {
    let mut env = Env::new();
    env.add_library(ext::optional::declarations(u32::MAX));
    env.add_library(ext::strings::declarations(u32::MAX));
    env.add_library(ext::math::declarations(u32::MAX));
    env.add_library(ext::encoders::declarations());
    env.add_library(ext::comprehensions::declarations());
    env.add_library(ext::bindings::declarations());
    // The runner's block test library declares its slots as `dyn` variables.
    for i in 0..30 {
        env.add_variable(&format!("@index{i}"), Type::Dyn);
    }
    env.set_provider(provider.clone());
    if let Some(c) = test["container"].as_str() {
        env.set_container(c);
    }
    for decl in test["type_env"].as_array().into_iter().flatten() {
        let name = decl["name"].as_str().unwrap_or("");
        if let Some(ident) = decl.get("ident") {
            env.add_variable(name, json_type(&ident["type"], provider));
        } else if let Some(f) = decl.get("function") {
            let overloads = f["overloads"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|o| {
                    let params: Vec<Type> = o["params"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|t| json_type(t, provider))
                        .collect();
                    let result = json_type(&o["result_type"], provider);
                    let oid = o["overload_id"].as_str().unwrap_or("");
                    if o["is_instance_function"].as_bool() == Some(true) {
                        OverloadDecl::member(oid, params, result)
                    } else {
                        OverloadDecl::global(oid, params, result)
                    }
                })
                .collect();
            env.add_function(name, overloads);
        }
    }
    env
}

fn primitive(name: &str) -> Type {
    match name {
        "BOOL" => Type::Bool,
        "INT64" => Type::Int,
        "UINT64" => Type::Uint,
        "DOUBLE" => Type::Double,
        "STRING" => Type::String,
        "BYTES" => Type::Bytes,
        _ => Type::Error,
    }
}

/// A `cel.expr.Type` in JSON form.
fn json_type(t: &Json, provider: &DescriptorProvider) -> Type {
    let Some(obj) = t.as_object() else {
        return Type::Dyn;
    };
    if obj.contains_key("dyn") {
        return Type::Dyn;
    }
    if obj.contains_key("null") {
        return Type::Null;
    }
    if let Some(p) = obj.get("primitive").and_then(Json::as_str) {
        return primitive(p);
    }
    if let Some(p) = obj.get("wrapper").and_then(Json::as_str) {
        return Type::wrapper(primitive(p));
    }
    if let Some(w) = obj.get("well_known").and_then(Json::as_str) {
        return match w {
            "TIMESTAMP" => Type::Timestamp,
            "DURATION" => Type::Duration,
            _ => Type::Object(Arc::from("google.protobuf.Any")),
        };
    }
    if let Some(l) = obj.get("list_type") {
        return Type::List(Box::new(json_type(&l["elem_type"], provider)));
    }
    if let Some(m) = obj.get("map_type") {
        return Type::Map(
            Box::new(json_type(&m["key_type"], provider)),
            Box::new(json_type(&m["value_type"], provider)),
        );
    }
    if let Some(name) = obj.get("message_type").and_then(Json::as_str) {
        return provider
            .find_type(name)
            .unwrap_or_else(|| Type::Object(Arc::from(name)));
    }
    if let Some(p) = obj.get("type_param").and_then(Json::as_str) {
        return Type::Param(Arc::from(p));
    }
    if let Some(inner) = obj.get("type") {
        if inner.as_object().is_none_or(|o| o.is_empty()) {
            return Type::Type(Box::new(Type::Dyn));
        }
        return Type::Type(Box::new(json_type(inner, provider)));
    }
    if obj.contains_key("error") {
        return Type::Error;
    }
    if let Some(a) = obj.get("abstract_type") {
        let name = a["name"].as_str().unwrap_or("");
        let params: Vec<Type> = a["parameter_types"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| json_type(p, provider))
            .collect();
        if name == "optional_type" && params.len() == 1 {
            return Type::Optional(Box::new(params.into_iter().next().unwrap()));
        }
        return Type::Opaque(Arc::from(name), params);
    }
    Type::Dyn
}

/// Message and enum types of the conformance protos, from the descriptor set JSON.
struct DescriptorProvider {
    /// Message name → field name → field type.
    messages: HashMap<String, HashMap<String, Type>>,
    /// Enum type names.
    enums: HashMap<String, ()>,
    /// Enum value full names → numbers.
    enum_values: HashMap<String, i64>,
}

fn well_known(name: &str) -> Option<Type> {
    Some(match name {
        "google.protobuf.Any" => Type::Object(Arc::from("google.protobuf.Any")),
        "google.protobuf.Duration" => Type::Duration,
        "google.protobuf.Timestamp" => Type::Timestamp,
        "google.protobuf.Struct" => Type::Map(Box::new(Type::String), Box::new(Type::Dyn)),
        "google.protobuf.Value" => Type::Dyn,
        "google.protobuf.ListValue" => Type::List(Box::new(Type::Dyn)),
        "google.protobuf.NullValue" => Type::Null,
        "google.protobuf.Int64Value" | "google.protobuf.Int32Value" => Type::wrapper(Type::Int),
        "google.protobuf.UInt64Value" | "google.protobuf.UInt32Value" => Type::wrapper(Type::Uint),
        "google.protobuf.DoubleValue" | "google.protobuf.FloatValue" => Type::wrapper(Type::Double),
        "google.protobuf.BoolValue" => Type::wrapper(Type::Bool),
        "google.protobuf.StringValue" => Type::wrapper(Type::String),
        "google.protobuf.BytesValue" => Type::wrapper(Type::Bytes),
        _ => return None,
    })
}

impl DescriptorProvider {
    fn load(path: &Path) -> DescriptorProvider {
        let json: Json = serde_json::from_str(&std::fs::read_to_string(path).expect("descriptors"))
            .expect("descriptor JSON");
        let mut raw: HashMap<String, Json> = HashMap::new();
        let mut enums = HashMap::new();
        let mut enum_values = HashMap::new();
        fn walk_enum(
            prefix: &str,
            e: &Json,
            enums: &mut HashMap<String, ()>,
            values: &mut HashMap<String, i64>,
        ) {
            let name = format!("{prefix}.{}", e["name"].as_str().unwrap_or(""));
            for v in e["value"].as_array().into_iter().flatten() {
                values.insert(
                    format!("{name}.{}", v["name"].as_str().unwrap_or("")),
                    v["number"].as_i64().unwrap_or(0),
                );
            }
            enums.insert(name, ());
        }
        fn walk_msg(
            prefix: &str,
            m: &Json,
            raw: &mut HashMap<String, Json>,
            enums: &mut HashMap<String, ()>,
            values: &mut HashMap<String, i64>,
        ) {
            let name = format!("{prefix}.{}", m["name"].as_str().unwrap_or(""));
            for n in m["nested_type"].as_array().into_iter().flatten() {
                walk_msg(&name, n, raw, enums, values);
            }
            for e in m["enum_type"].as_array().into_iter().flatten() {
                walk_enum(&name, e, enums, values);
            }
            raw.insert(name, m.clone());
        }
        for f in json["file"].as_array().into_iter().flatten() {
            let pkg = f["package"].as_str().unwrap_or("");
            for m in f["message_type"].as_array().into_iter().flatten() {
                walk_msg(pkg, m, &mut raw, &mut enums, &mut enum_values);
            }
            for e in f["enum_type"].as_array().into_iter().flatten() {
                walk_enum(pkg, e, &mut enums, &mut enum_values);
            }
        }
        let scalar = |f: &Json, raw: &HashMap<String, Json>, enums: &HashMap<String, ()>| -> Type {
            let type_name = f["type_name"]
                .as_str()
                .unwrap_or("")
                .trim_start_matches('.');
            match f["type"].as_str().unwrap_or("") {
                "TYPE_DOUBLE" | "TYPE_FLOAT" => Type::Double,
                "TYPE_INT32" | "TYPE_INT64" | "TYPE_SINT32" | "TYPE_SINT64" | "TYPE_SFIXED32"
                | "TYPE_SFIXED64" => Type::Int,
                "TYPE_UINT32" | "TYPE_UINT64" | "TYPE_FIXED32" | "TYPE_FIXED64" => Type::Uint,
                "TYPE_BOOL" => Type::Bool,
                "TYPE_STRING" => Type::String,
                "TYPE_BYTES" => Type::Bytes,
                "TYPE_ENUM" if type_name == "google.protobuf.NullValue" => Type::Null,
                "TYPE_ENUM" => {
                    let _ = enums;
                    Type::Int
                }
                _ => well_known(type_name).unwrap_or_else(|| {
                    let _ = raw;
                    Type::Object(Arc::from(type_name))
                }),
            }
        };
        let mut extensions: Vec<(String, String, Json)> = Vec::new();
        fn walk_ext(prefix: &str, m: &Json, out: &mut Vec<(String, String, Json)>) {
            for x in m["extension"].as_array().into_iter().flatten() {
                let extendee = x["extendee"].as_str().unwrap_or("").trim_start_matches('.');
                let name = format!("{prefix}.{}", x["name"].as_str().unwrap_or(""));
                out.push((extendee.to_string(), name, x.clone()));
            }
            for n in m["nested_type"].as_array().into_iter().flatten() {
                walk_ext(
                    &format!("{prefix}.{}", n["name"].as_str().unwrap_or("")),
                    n,
                    out,
                );
            }
        }
        for f in json["file"].as_array().into_iter().flatten() {
            let pkg = f["package"].as_str().unwrap_or("");
            walk_ext(pkg, f, &mut extensions);
            for m in f["message_type"].as_array().into_iter().flatten() {
                walk_ext(
                    &format!("{pkg}.{}", m["name"].as_str().unwrap_or("")),
                    m,
                    &mut extensions,
                );
            }
        }
        let mut messages = HashMap::new();
        for (name, m) in &raw {
            let mut fields = HashMap::new();
            for f in m["field"].as_array().into_iter().flatten() {
                let type_name = f["type_name"]
                    .as_str()
                    .unwrap_or("")
                    .trim_start_matches('.');
                let entry = raw
                    .get(type_name)
                    .filter(|e| e["options"]["map_entry"].as_bool() == Some(true));
                let t = if let Some(entry) = entry {
                    let fs = entry["field"].as_array().cloned().unwrap_or_default();
                    let k = fs
                        .first()
                        .map(|f| scalar(f, &raw, &enums))
                        .unwrap_or(Type::Dyn);
                    let v = fs
                        .get(1)
                        .map(|f| scalar(f, &raw, &enums))
                        .unwrap_or(Type::Dyn);
                    Type::Map(Box::new(k), Box::new(v))
                } else {
                    let t = scalar(f, &raw, &enums);
                    if f["label"].as_str() == Some("LABEL_REPEATED") {
                        Type::List(Box::new(t))
                    } else {
                        t
                    }
                };
                fields.insert(f["name"].as_str().unwrap_or("").to_string(), t);
            }
            messages.insert(name.clone(), fields);
        }
        for (extendee, name, x) in extensions {
            let t = scalar(&x, &raw, &enums);
            let t = if x["label"].as_str() == Some("LABEL_REPEATED") {
                Type::List(Box::new(t))
            } else {
                t
            };
            messages
                .entry(extendee)
                .or_insert_with(HashMap::new)
                .insert(name, t);
        }
        DescriptorProvider {
            messages,
            enums,
            enum_values,
        }
    }
}

impl TypeProvider for DescriptorProvider {
    fn has_type(&self, name: &str) -> bool {
        self.messages.contains_key(name)
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        self.messages.get(type_name)?.get(field).cloned()
    }

    fn find_type(&self, name: &str) -> Option<Type> {
        if let Some(t) = well_known(name) {
            return Some(t);
        }
        if self.messages.contains_key(name) {
            return Some(Type::Object(Arc::from(name)));
        }
        self.enums.contains_key(name).then_some(Type::Int)
    }

    fn enum_value(&self, name: &str) -> Option<i64> {
        self.enum_values.get(name).copied()
    }
}
