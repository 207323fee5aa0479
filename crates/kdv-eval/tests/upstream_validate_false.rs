//! Runs upstream's `validate-false.json` fixture tests (spec §10.6) through the interpreter:
//! each registered root type is filled like `randfill` does (every pointer set, two items
//! per list and map, depth limit 8) and validated on Create; the `forced failure:` messages
//! grouped by path must equal the fixture. Map keys are random upstream, so key segments
//! are compared as wildcards. Reads the checkout named by `KDV_UPSTREAM_CODEGEN`; skips (and
//! passes) when it is unset.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kdv_rules::{FieldAccess, RuleSet, Shape, ShapeId};
use serde_json::{Map, Value};

const MAX_DEPTH: usize = 8;

fn zero(rules: &RuleSet, shape: ShapeId) -> Value {
    match rules.shape(shape) {
        Shape::String { .. } | Shape::Bytes => Value::String(String::new()),
        Shape::Bool => Value::Bool(false),
        Shape::Int(_) | Shape::Float(_) => Value::from(0),
        Shape::Struct(_) => Value::Object(Map::new()),
        _ => Value::Null,
    }
}

/// Fills like randfill with `NilChance(0)`, `NumElements(2, 2)`, `MaxDepth(8)`; `key` makes
/// map keys distinct.
fn fill(rules: &RuleSet, shape: ShapeId, depth: usize, key: &mut usize) -> Value {
    if depth >= MAX_DEPTH {
        return zero(rules, shape);
    }
    match rules.shape(shape) {
        Shape::String { .. } => Value::String("v".into()),
        Shape::Bool => Value::Bool(true),
        Shape::Int(_) => Value::from(1),
        Shape::Float(_) => Value::from(1.5),
        Shape::Bytes => Value::String("eHk=".into()),
        Shape::Pointer(e) => fill(rules, *e, depth + 1, key),
        Shape::Slice(e) => Value::Array(vec![
            fill(rules, *e, depth + 1, key),
            fill(rules, *e, depth + 1, key),
        ]),
        Shape::Map { value, .. } => {
            let mut m = Map::new();
            for _ in 0..2 {
                let k = if depth + 1 >= MAX_DEPTH {
                    String::new()
                } else {
                    *key += 1;
                    format!("key{key}")
                };
                let v = fill(rules, *value, depth + 1, key);
                m.insert(k, v);
            }
            Value::Object(m)
        }
        Shape::Struct(st) => {
            let mut m = Map::new();
            for f in &st.fields {
                match &f.access {
                    FieldAccess::Key(k) => {
                        m.insert(k.clone(), fill(rules, f.shape, depth + 1, key));
                    }
                    FieldAccess::Inline { .. } => {
                        if let Value::Object(inner) = fill(rules, f.shape, depth + 1, key) {
                            for (k, v) in inner {
                                m.entry(k).or_insert(v);
                            }
                        }
                    }
                    FieldAccess::Skip => {}
                }
            }
            Value::Object(m)
        }
        Shape::Any => Value::Null,
    }
}

/// Replaces the content of non-numeric `[...]` segments with `*`.
fn normalize_path(p: &str) -> String {
    let mut out = String::new();
    let mut rest = p;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        // Keys are inserted verbatim and may contain `]`; indices never do.
        let end = after.find(']').unwrap_or(after.len());
        let seg = &after[..end];
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
            rest = &after[end.min(after.len())..];
            rest = rest.strip_prefix(']').unwrap_or(rest);
        } else {
            out.push_str("[*]");
            // Skip to the next segment start (`.` or `[`) after a `]`.
            let tail = &after[end.min(after.len())..];
            let next = tail
                .char_indices()
                .skip(1)
                .find(|(_, c)| *c == '.' || *c == '[')
                .map(|(i, _)| i)
                .unwrap_or(tail.len());
            rest = &tail[next..];
        }
    }
    out.push_str(rest);
    out
}

type ByPath = BTreeMap<String, Vec<String>>;

fn normalized(map: &BTreeMap<String, Vec<String>>) -> ByPath {
    let mut out: ByPath = BTreeMap::new();
    for (p, msgs) in map {
        out.entry(normalize_path(p))
            .or_default()
            .extend(msgs.iter().cloned());
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

fn fixture_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subdirs = Vec::new();
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.join("validate-false.json").is_file() && p.ends_with("testdata") {
                out.push(dir.to_path_buf());
            }
            subdirs.push(p);
        }
    }
    subdirs.sort();
    for d in subdirs {
        fixture_dirs(&d, out);
    }
}

#[test]
fn upstream_validate_false_fixtures() {
    let Ok(root) = std::env::var("KDV_UPSTREAM_CODEGEN") else {
        eprintln!("skipped: KDV_UPSTREAM_CODEGEN is not set");
        return;
    };
    let base = Path::new(&root).join("cmd/validation-gen/output_tests");
    let mut dirs = Vec::new();
    fixture_dirs(&base, &mut dirs);
    assert!(dirs.len() >= 30, "found {} fixture packages", dirs.len());
    let mut failures = Vec::new();
    let mut checked = 0;
    for dir in &dirs {
        let text = std::fs::read_to_string(dir.join("testdata/validate-false.json")).expect("read");
        let want: BTreeMap<String, BTreeMap<String, Vec<String>>> =
            serde_json::from_str(&text).expect("fixture JSON");
        let (universe, _) = kdv_go::load_universe(dir).expect("load");
        let compiled = kdv_rules::compile(&universe);
        let rules = &compiled.rules;
        for (type_key, want_paths) in &want {
            // `*pkg.T`
            let name = type_key.rsplit('.').next().unwrap_or(type_key);
            let Some(root) = rules
                .roots()
                .find(|r| r.name == name && type_key.starts_with(&format!("*{}.", r.version)))
            else {
                failures.push(format!("{}: no root {type_key}", dir.display()));
                continue;
            };
            let t = rules.type_rules(root.id);
            let mut key = 0;
            let value = fill(rules, t.shape, 0, &mut key);
            let errs = kdv_eval::validate(
                rules,
                root.id,
                &kdv_runtime::Operation::create(),
                &value,
                None,
            );
            let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for e in &errs {
                if let Some(msg) = e.detail.strip_prefix("forced failure: ") {
                    let p = e.field.to_string();
                    let p = if p == "<nil>" { String::new() } else { p };
                    got.entry(p).or_default().push(msg.to_string());
                }
            }
            let (got, want) = (normalized(&got), normalized(want_paths));
            checked += 1;
            // Under a map-key wildcard the multiplicity depends on upstream's random keys
            // (randomly empty keys collide), so only the distinct messages are compared.
            let same = |p: &str, g: Option<&Vec<String>>, w: &Vec<String>| match g {
                Some(g) if p.contains("[*]") => {
                    let mut g = g.clone();
                    let mut w = w.clone();
                    g.dedup();
                    w.dedup();
                    g == w
                }
                Some(g) => g == w,
                None => false,
            };
            let differs = want.iter().any(|(p, w)| !same(p, got.get(p), w))
                || got.keys().any(|p| !want.contains_key(p));
            if differs {
                let mut diff = Vec::new();
                for (p, w) in &want {
                    if !same(p, got.get(p), w) {
                        diff.push(format!("  {p}: want {w:?} got {:?}", got.get(p)));
                    }
                }
                for (p, g) in &got {
                    if !want.contains_key(p) {
                        diff.push(format!("  {p}: unexpected {g:?}"));
                    }
                }
                failures.push(format!(
                    "{} {type_key}:\n{}",
                    dir.display(),
                    diff.join("\n")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} root types differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
