//! The enum sweep: for every enum type of a kubernetes/api checkout, the members kdv computes
//! are compared with an independent oracle, openapi-gen's output for the same release.
//! openapi-gen computes the `enum` list of every property whose Go type is a `+enum` type
//! from the type's Go constants with go/types, so for each Go field of an enum type
//! (directly, or the items or values of a list or map of it) the oracle property's `enum`
//! is the truth.
//!
//! Kubernetes' published documents (`api/openapi-spec`, kubectl-validate's copies, the
//! repository's `testdata/kubernetes-openapi`) are generated without enum lists, so they
//! cannot serve; openapi-gen output that has them: the OpenAPI an API server serves (with
//! `OpenAPIEnums`, on by default), or openshift/api's `openapi/openapi.json`, which
//! openapi-gen writes for the k8s.io/api packages it vendors (core, rbac, authorization,
//! admissionregistration v1), one kubernetes/api release per openshift/api release branch.
//!
//! Two tiers:
//! - `+k8s:enum` types (also chained: `+k8s:alpha(since: "1.36")=+k8s:enum`): the members of
//!   the `Check::Enum` kdv-rules lowers the type to (with every package's types as roots).
//!   By design kdv-rules leaves out constants tagged with an unconditional
//!   `+k8s:enumExclude`, which openapi-gen does not know: their values are added back before
//!   comparing with the oracle. Every `+k8s:enum` type of kubernetes/api is also `+enum`, so
//!   the lowered members are also compared with the model's constants (minus those
//!   excluded), which covers the types the oracle does not.
//! - every `+enum` type: the constants `kdv-go` gives exactly that type, with string values
//!   (the rule `+k8s:enum` lowers by).
//!
//! Every constant of the checkout must be evaluated, unless its expression names a package
//! kdv does not load (outside the module and not built in).
//!
//! `KDV_UPSTREAM_API` names the checkout and `KDV_UPSTREAM_ENUM_ORACLE` the oracle (a JSON
//! document with OpenAPI v2 `definitions` or v3 `components.schemas`, or a directory of
//! them); without both the test is skipped with a note.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use kdv_model::{ConstValue, TypeRef, Universe};
use kdv_rules::{Check, CompileOptions, Roots, RuleSet};
use serde_json::Value;

/// Directories under `dir` holding Go files that are not tests, in path order.
fn go_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut has_go = false;
    let mut subdirs = Vec::new();
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() {
            if !name.starts_with('.') && name != "testdata" {
                subdirs.push(p);
            }
        } else if name.ends_with(".go") && !name.ends_with("_test.go") {
            has_go = true;
        }
    }
    if has_go {
        out.push(dir.to_path_buf());
    }
    subdirs.sort();
    for d in subdirs {
        go_dirs(&d, out);
    }
}

/// The oracle's schemas by name: `components.schemas` (OpenAPI v3) or `definitions`
/// (OpenAPI v2) of `path`, a `.json` file or every one under a directory.
fn oracle_schemas(path: &Path) -> BTreeMap<String, Value> {
    let mut files = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).expect("oracle directory").flatten() {
                stack.push(e.path());
            }
        } else if p.extension().is_some_and(|x| x == "json") {
            files.push(p);
        }
    }
    files.sort();
    let mut schemas = BTreeMap::new();
    for f in files {
        let doc: Value =
            serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("OpenAPI JSON");
        for pointer in ["/components/schemas", "/definitions"] {
            if let Some(Value::Object(map)) = doc.pointer(pointer) {
                for (name, schema) in map {
                    schemas
                        .entry(name.clone())
                        .or_insert_with(|| schema.clone());
                }
            }
        }
    }
    schemas
}

/// The definition names openapi-gen gives a Go type: the import path with its domain
/// reversed, then the type name (`io.k8s.api.core.v1.Pod`, as Kubernetes publishes them),
/// or the type name, then the path elements reversed (`Pod.v1.core.api.k8s.io`, kube-openapi's
/// other naming, which openshift/api used until 1.35).
fn openapi_names(package: &str, name: &str) -> [String; 2] {
    let mut parts = package.split('/');
    let domain = parts.next().unwrap_or_default();
    let mut reversed: Vec<&str> = domain.split('.').rev().collect();
    reversed.extend(parts);
    let mut elements: Vec<&str> = package.split('/').collect();
    elements.reverse();
    [
        format!("{}.{name}", reversed.join(".")),
        format!("{name}.{}", elements.join(".")),
    ]
}

/// The apimachinery version a kubernetes/api checkout requires (its release's).
fn apimachinery(api: &Path) -> Option<String> {
    let go_mod = std::fs::read_to_string(api.join("go.mod")).ok()?;
    let line = go_mod
        .lines()
        .find(|l| l.trim_start().starts_with("k8s.io/apimachinery "))?;
    Some(line.split_whitespace().nth(1)?.to_string())
}

/// An enum type of the checkout, with the members kdv computes.
#[derive(Default)]
struct EnumType {
    /// `+k8s:enum` (possibly chained): the members kdv-rules lowers it to.
    k8s_enum: Option<BTreeSet<String>>,
    /// `+enum`: the model's string constants of exactly this type.
    model: Option<BTreeSet<String>>,
    /// The values of those constants tagged with an unconditional `+k8s:enumExclude`.
    excluded: BTreeSet<String>,
}

/// A Go field whose type is (a list or map of) a named type: where openapi-gen puts the
/// `enum` list of that type.
struct Usage {
    /// The struct's definition names ([`openapi_names`]).
    schemas: [String; 2],
    /// The property's JSON name.
    property: String,
    /// JSON pointer inside the property schema: "", "/items", "/additionalProperties".
    inner: &'static str,
    /// The Go field, for messages.
    field: String,
}

/// `ty` through pointers, and where a list's or map's elements live, to a named type.
fn element(ty: &TypeRef) -> Option<(&'static str, (&str, &str))> {
    fn named(t: &TypeRef) -> Option<(&str, &str)> {
        match t {
            TypeRef::Named(n) => Some((n.package.as_str(), n.name.as_str())),
            TypeRef::Pointer(inner) => named(inner),
            _ => None,
        }
    }
    match ty {
        TypeRef::Slice(e) | TypeRef::Array { elem: e, .. } => named(e).map(|n| ("/items", n)),
        TypeRef::Map { value, .. } => named(value).map(|n| ("/additionalProperties", n)),
        TypeRef::Pointer(inner) => element(inner),
        t => named(t).map(|n| ("", n)),
    }
}

/// The string constants of the universe declared with exactly the type `package.name`, and
/// the values of those tagged with an unconditional `+k8s:enumExclude`.
fn model_members(
    universe: &Universe,
    package: &str,
    name: &str,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut all, mut excluded) = (BTreeSet::new(), BTreeSet::new());
    for p in universe.packages.values() {
        for c in &p.consts {
            let Some(TypeRef::Named(n)) = &c.ty else {
                continue;
            };
            if n.package == package
                && n.name == name
                && let ConstValue::String(s) = &c.value
            {
                all.insert(s.clone());
                if c.tags.lines.iter().any(|l| l.name == "k8s:enumExclude") {
                    excluded.insert(s.clone());
                }
            }
        }
    }
    (all, excluded)
}

/// The qualifiers (`v1` of `v1.X`) an expression's text names.
fn qualifiers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = None;
    for (i, &b) in bytes.iter().enumerate() {
        let ident = b == b'_' || b.is_ascii_alphanumeric();
        match (ident, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let before_dot = s == 0 || bytes[s - 1] != b'.';
                if b == b'.' && before_dot {
                    out.push(&text[s..i]);
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The members of the `Check::Enum` on the type's own validations, if any.
fn lowered_members(rules: &RuleSet, package: &str, name: &str) -> Option<BTreeSet<String>> {
    let id = rules.find_type(&format!("{package}.{name}"))?;
    let t = rules.type_rules(id);
    t.validations
        .cohorts
        .iter()
        .flat_map(|c| c.short_circuit.iter().chain(&c.regular))
        .find_map(|v| match &v.check {
            Check::Enum(spec) => Some(spec.members.iter().cloned().collect()),
            _ => None,
        })
}

/// Whether a type's tags declare `+k8s:enum`, alone or as the payload of a chain.
fn has_k8s_enum(tags: &kdv_model::Tags) -> bool {
    tags.lines.iter().any(|l| {
        let text = l.text.trim();
        text == "k8s:enum" || text.ends_with("=+k8s:enum")
    })
}

#[derive(Default)]
struct Counts {
    types: usize,
    types_checked: usize,
    properties: usize,
    members: usize,
    mismatches: Vec<String>,
}

impl Counts {
    fn line(&self, tier: &str) -> String {
        format!(
            "{tier}: {} enum types, {} checked against {} oracle properties, {} members compared, {} mismatches",
            self.types,
            self.types_checked,
            self.properties,
            self.members,
            self.mismatches.len()
        )
    }
}

#[test]
fn enum_members_match_openapi_gen() {
    let (Ok(api), Ok(oracle)) = (
        std::env::var("KDV_UPSTREAM_API"),
        std::env::var("KDV_UPSTREAM_ENUM_ORACLE"),
    ) else {
        eprintln!(
            "skipped: the enum sweep needs KDV_UPSTREAM_API (a kubernetes/api checkout) and \
             KDV_UPSTREAM_ENUM_ORACLE (openapi-gen's output for the same release, with enum lists)"
        );
        return;
    };
    let (api, oracle) = (PathBuf::from(api), PathBuf::from(oracle));
    let schemas = oracle_schemas(&oracle);
    let enum_lists = schemas
        .values()
        .filter_map(|s| s.get("properties")?.as_object())
        .flat_map(|p| p.values())
        .filter(|p| {
            ["/enum", "/items/enum", "/additionalProperties/enum"]
                .iter()
                .any(|e| p.pointer(e).is_some())
        })
        .count();
    assert!(
        enum_lists > 0,
        "{} holds {} schemas but no enum list: it is not openapi-gen output with enums \
         (Kubernetes' published documents are generated without them)",
        oracle.display(),
        schemas.len()
    );

    let mut dirs = Vec::new();
    go_dirs(&api, &mut dirs);
    let mut enums: BTreeMap<(String, String), EnumType> = BTreeMap::new();
    let mut usages: BTreeMap<(String, String), Vec<Usage>> = BTreeMap::new();
    let (mut unevaluated, mut out_of_reach) = (Vec::new(), Vec::new());
    for dir in &dirs {
        let universe = match kdv_go::load_universe(dir) {
            Ok((u, _)) => u,
            Err(kdv_go::LoadError::NoGoFiles { .. }) => continue,
            Err(e) => panic!("{}: {e}", dir.display()),
        };
        let Some(root) = universe
            .packages
            .values()
            .find(|p| p.dir.as_deref() == Some(dir.as_path()))
        else {
            continue;
        };
        let options = CompileOptions {
            roots: Roots::All,
            package: Some(root.path.clone()),
            lint: false,
        };
        let rules = kdv_rules::compile_with(&universe, &options).rules;
        // A constant still unevaluated must name a package the universe lacks (outside the
        // module and not built in), where Go's answer is out of kdv's reach.
        for c in &root.consts {
            if let ConstValue::Expr(text) = &c.value {
                let outside = qualifiers(text).iter().any(|q| {
                    root.imports
                        .get(*q)
                        .is_some_and(|path| !universe.packages.contains_key(path))
                });
                let line = format!("{}.{} = {text}", root.path, c.name);
                if outside {
                    out_of_reach.push(line);
                } else {
                    unevaluated.push(line);
                }
            }
        }
        for t in &root.types {
            let k8s_enum = has_k8s_enum(&t.tags);
            let legacy = t.tags.lines.iter().any(|l| l.name == "enum");
            if k8s_enum || legacy {
                let (model, excluded) = model_members(&universe, &root.path, &t.name);
                let e = enums
                    .entry((root.path.clone(), t.name.clone()))
                    .or_default();
                if k8s_enum {
                    e.k8s_enum = Some(lowered_members(&rules, &root.path, &t.name).unwrap_or_else(
                        || panic!("{}.{}: +k8s:enum was not lowered", root.path, t.name),
                    ));
                }
                if legacy {
                    e.model = Some(model);
                }
                e.excluded = excluded;
            }
            let TypeRef::Struct(s) = &t.def else {
                continue;
            };
            for f in &s.fields {
                let (Some(json), Some((inner, (package, name)))) = (f.json_name(), element(&f.ty))
                else {
                    continue;
                };
                usages
                    .entry((package.to_string(), name.to_string()))
                    .or_default()
                    .push(Usage {
                        schemas: openapi_names(&root.path, &t.name),
                        property: json.to_string(),
                        inner,
                        field: format!("{}.{}.{}", root.path, t.name, f.name),
                    });
            }
        }
    }

    let mut k8s = Counts::default();
    let mut legacy = Counts::default();
    let mut consistent = 0;
    for ((package, name), e) in &enums {
        let mut published = Vec::new();
        for u in usages
            .get(&(package.clone(), name.clone()))
            .into_iter()
            .flatten()
        {
            let Some((schema, property)) = u.schemas.iter().find_map(|name| {
                let pointer = format!("/properties/{}{}", u.property, u.inner);
                Some((name, schemas.get(name)?.pointer(&pointer)?))
            }) else {
                continue;
            };
            let values: BTreeSet<String> = property
                .get("enum")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
            published.push((u, schema, values));
        }
        // openapi-gen lists every constant of the type: what `+k8s:enumExclude` leaves
        // out of the rules is still in the oracle's list.
        let lowered = e
            .k8s_enum
            .as_ref()
            .map(|m| m.union(&e.excluded).cloned().collect::<BTreeSet<_>>());
        for (counts, members) in [(&mut k8s, &lowered), (&mut legacy, &e.model)] {
            let Some(members) = members else {
                continue;
            };
            counts.types += 1;
            if published.is_empty() {
                continue;
            }
            counts.types_checked += 1;
            counts.members += members.len();
            for (u, schema, values) in &published {
                counts.properties += 1;
                if values != members {
                    counts.mismatches.push(format!(
                        "{package}.{name} at {} ({schema}.{}{}): kdv {members:?}, oracle {values:?}",
                        u.field, u.property, u.inner
                    ));
                }
            }
        }
        // Whether the rules hold what the frontend evaluated (every `+k8s:enum` type of
        // kubernetes/api is also `+enum`), for the types the oracle does not cover too.
        if let (Some(lowered), Some(model)) = (&e.k8s_enum, &e.model) {
            consistent += 1;
            let expected: BTreeSet<String> = model.difference(&e.excluded).cloned().collect();
            if lowered != &expected {
                k8s.mismatches.push(format!(
                    "{package}.{name}: kdv-rules lowers {lowered:?}, the model's constants are {expected:?}"
                ));
            }
        }
    }
    eprintln!(
        "enum sweep of {} (requires apimachinery {}) against {} ({} schemas, {enum_lists} enum lists):",
        api.display(),
        apimachinery(&api).unwrap_or_else(|| "?".into()),
        oracle.display(),
        schemas.len()
    );
    eprintln!("  {}", k8s.line("+k8s:enum, as kdv-rules lowers it"));
    eprintln!(
        "  +k8s:enum types whose rules were compared with the model's constants: {consistent}"
    );
    eprintln!("  {}", legacy.line("+enum, the model's constants"));
    eprintln!(
        "  constants left unevaluated: {} naming packages kdv did not load, {} others",
        out_of_reach.len(),
        unevaluated.len()
    );
    for u in &out_of_reach {
        eprintln!("  out of reach: {u}");
    }
    for u in &unevaluated {
        eprintln!("  unevaluated: {u}");
    }
    let mismatches: Vec<&String> = k8s.mismatches.iter().chain(&legacy.mismatches).collect();
    for m in &mismatches {
        eprintln!("  mismatch: {m}");
    }
    assert!(
        legacy.types_checked > 0,
        "no +enum type of the checkout is in {}",
        oracle.display()
    );
    assert!(mismatches.is_empty(), "{} mismatches", mismatches.len());
    assert!(
        unevaluated.is_empty(),
        "{} constants unevaluated",
        unevaluated.len()
    );
}
