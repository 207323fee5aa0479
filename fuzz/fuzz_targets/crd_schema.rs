//! Fuzzes the CRD and OpenAPI surface as `kdv validate --crd` and `kdv lint --crd` use it: the
//! input is split at its first NUL into a CRD stream (YAML or JSON) and an object stream (no
//! NUL: the whole input is the CRD stream and a fixed object is validated). The CRD stream is
//! linted (`lint_crds`, the API server's write-time checks, every finding located) and loaded
//! (`SchemaSet::add_crds`, which compiles each served version's schema and its CEL rules);
//! each object document is then validated against every loaded version of the CRD's kind
//! (its `apiVersion`/`kind` set to the version's) as a CREATE, as an UPDATE of itself and as
//! an UPDATE of the fixed object, with ratcheting, and every error is located in the object.
//! Checks: no panic; every position (lint findings, load errors, located errors) lies inside
//! its text; libFuzzer's `-timeout` and `-rss_limit_mb` bound time and memory.
#![no_main]

use kdv_manifest::{Entry, Limits, Query, Step, Syntax, Target};
use kdv_openapi::{Options, SchemaSet};
use kdv_runtime::{FieldPath, Segment};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const FIXED_OBJECT: &[u8] = b"metadata:\n  name: w\nspec:\n  replicas: 3\n  tags: [a, b]\n  ports:\n  - {name: http, port: 80}\n";

/// Whether 1-based `line`:`column` names a place in `text`. Lines end as YAML ends them
/// (`\r\n`, `\r` or `\n`); the column may be one past the line's last byte (errors about an
/// empty or truncated text point there), and is checked against the line's byte length,
/// which bounds a column counted in characters too.
fn inside(text: &[u8], line: u64, column: u64) -> bool {
    if line == 0 || column == 0 {
        return false;
    }
    let (mut current, mut start, mut i) = (1u64, 0usize, 0usize);
    while i < text.len() {
        let end = match text[i] {
            b'\r' if text.get(i + 1) == Some(&b'\n') => Some(2),
            b'\r' | b'\n' => Some(1),
            _ => None,
        };
        if let Some(n) = end {
            if current == line {
                return column <= (i - start) as u64 + 1;
            }
            current += 1;
            i += n;
            start = i;
        } else {
            i += 1;
        }
    }
    current == line && column <= (text.len() - start) as u64 + 1
}

fn steps(path: &FieldPath) -> Vec<Step<'_>> {
    path.segments()
        .iter()
        .map(|s| match s {
            Segment::Index(i) => Step::Index(*i),
            Segment::Field(k) | Segment::Key(k) => Step::Key(k),
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let (crds, objects) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, FIXED_OBJECT),
    };

    let linted = kdv_openapi::lint_crds("crd.yaml", crds, 35);
    for crd in &linted.crds {
        assert!(inside(crds, crd.line, crd.column), "CRD at {}:{}", crd.line, crd.column);
        for f in &crd.located {
            assert!(
                inside(crds, f.line, f.column),
                "finding at {}:{}: {}",
                f.line,
                f.column,
                f.message
            );
        }
    }
    for e in &linted.unreadable {
        assert!(inside(crds, e.line, e.column), "unreadable at {}:{}", e.line, e.column);
    }

    let mut set = SchemaSet::new();
    if let Err(e) = set.add_crds("crd.yaml", crds) {
        assert!(inside(crds, e.line, e.column), "load error at {}:{}: {}", e.line, e.column, e.message);
        return;
    }
    // The versions loaded: every (group/version, kind) the stream's CRDs name.
    let mut kinds = Vec::new();
    for entry in kdv_manifest::documents(crds, Syntax::Yaml, Limits::default()) {
        let Ok(Entry::Document(doc)) = entry else { continue };
        let v = &doc.value;
        let group = v.pointer("/spec/group").and_then(Value::as_str).unwrap_or("");
        let kind = v.pointer("/spec/names/kind").and_then(Value::as_str).unwrap_or("");
        if let Some(Value::Array(versions)) = v.pointer("/spec/versions") {
            for ver in versions.iter().take(8) {
                if let Some(name) = ver.get("name").and_then(Value::as_str) {
                    kinds.push((format!("{group}/{name}"), kind.to_owned()));
                }
            }
        }
    }
    let fixed = kdv_manifest::documents(FIXED_OBJECT, Syntax::Yaml, Limits::default())
        .find_map(|e| match e {
            Ok(Entry::Document(d)) => Some(d.value.clone()),
            _ => None,
        })
        .unwrap_or(Value::Null);
    let options = Options { ratcheting: Some(true), ..Options::default() };
    for (api_version, kind) in kinds.iter().take(8) {
        let Ok(resource) = set.resource(api_version, kind) else { continue };
        for entry in kdv_manifest::documents(objects, Syntax::Yaml, Limits::default()).take(4) {
            let Ok(Entry::Document(doc)) = entry else { continue };
            let mut object = doc.value.clone();
            if let Value::Object(m) = &mut object {
                m.insert("apiVersion".into(), Value::String(api_version.clone()));
                m.insert("kind".into(), Value::String(kind.clone()));
            }
            let mut old = fixed.clone();
            if let Value::Object(m) = &mut old {
                m.insert("apiVersion".into(), Value::String(api_version.clone()));
                m.insert("kind".into(), Value::String(kind.clone()));
            }
            for previous in [None, Some(&object), Some(&old)] {
                let outcome = resource.validate(&object, previous, &options);
                let paths: Vec<Vec<Step<'_>>> = outcome
                    .errors
                    .iter()
                    .map(|e| &e.field)
                    .chain(outcome.unknown_fields.iter())
                    .map(steps)
                    .collect();
                let queries: Vec<Query<'_>> = paths
                    .iter()
                    .map(|path| Query { path, target: Target::Value })
                    .collect();
                for (e, at) in outcome.errors.iter().zip(doc.locate(&queries)) {
                    let _ = e.to_string();
                    assert!(
                        inside(objects, at.line, at.column),
                        "error at {}:{}: {e}",
                        at.line,
                        at.column
                    );
                }
                if let Some(e) = &outcome.decode_error {
                    let _ = e.to_string();
                }
            }
        }
    }
});
