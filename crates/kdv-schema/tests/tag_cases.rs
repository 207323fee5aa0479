//! The tag catalog's end-to-end cases (kdv-cli's `tests/fixtures/tags`: one Go package per
//! tag family, a root kind per tag, and manifests that must be valid or invalid on CREATE
//! and UPDATE) run through the emitted CRD: every family's CRDs pass kdv's CRD write-time
//! checks, and each case gets the same verdict from the CRD (kdv-openapi) as from the tags
//! (kdv-eval), except the cases listed in [`DIFFERENT_BY_DESIGN`] whose rules are notes.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::*;
use kdv_openapi::{Options, UnknownFields};
use kdv_runtime::{Operation, OperationKind};
use kdv_schema::{CrdOptions, EmitOptions, crd};
use serde_json::{Value, json};

/// `family/tag/file` of the cases whose verdict the schema does not reproduce, and why:
///
/// | cases | why |
/// |---|---|
/// | `*/update-pass.yaml` of eachKey, item, dependentRequired, dependentForbidden, ifDisabled, ifOptionDisabled, forbidden, required, unionMember, unionDiscriminator, zeroOrOneOfMember, and the cross-field limits (`minimum-constraint-path`: a sibling the rule does not read changed) | the **old object is already invalid** and the update leaves the offending part as it was: the tags ratchet a field block (or a union's or dependency's set-ness, a map key, an item) that is unchanged even though its parent changed; the API server ratchets a failing rule only when the node it sits on is unchanged, and `required`, unions, dependencies and cross-field limits sit on the (changed) parent |
/// | `modes/*` | `+k8s:modeDiscriminator`/`+k8s:ifMode` (and 1.36's `discriminator`/`member`) are not published yet (a note) |
/// | `options/ifEnabled/valid-undefined.yaml` | an option the request does not define is an internal error for the tags (the CLI disables it with a warning); the schema has no options |
/// | `testing/validateFalse/*` | testing tags are not rules about the value (a note) |
/// | `collections/item/update-fail.yaml`, `updates/update/update-fail-noadditem.yaml` | the rule compares old and new items of a list without `+k8s:maxItems`: its estimated cost is over the API server's limit, so it is left out (a note) |
const DIFFERENT_BY_DESIGN: &[(&str, &str)] = &[
    ("collections/eachKey/update-pass.yaml", "old invalid"),
    (
        "crossfield/minimum-constraint-path/update-pass.yaml",
        "old invalid",
    ),
    ("collections/item/update-pass.yaml", "old invalid"),
    (
        "dependencies/dependentForbidden/update-pass.yaml",
        "old invalid",
    ),
    (
        "dependencies/dependentRequired/update-pass.yaml",
        "old invalid",
    ),
    ("options/ifDisabled/update-pass.yaml", "old invalid"),
    (
        "extensions/ifOptionDisabled/update-pass.yaml",
        "old invalid",
    ),
    ("scalars/forbidden/update-pass.yaml", "old invalid"),
    ("scalars/required/update-pass.yaml", "old invalid"),
    ("unions/unionDiscriminator/update-pass.yaml", "old invalid"),
    ("unions/unionMember/update-pass.yaml", "old invalid"),
    ("unions/zeroOrOneOfMember/update-pass.yaml", "old invalid"),
    ("modes/ifMode/invalid-missing.yaml", "modes"),
    ("modes/ifMode/invalid.yaml", "modes"),
    ("modes/ifMode/update-fail.yaml", "modes"),
    ("modes/modeDiscriminator/invalid.yaml", "modes"),
    ("modes/modeDiscriminator/update-fail.yaml", "modes"),
    ("modes/discriminator/invalid.yaml", "modes"),
    ("modes/discriminator/update-fail.yaml", "modes"),
    ("modes/member/invalid.yaml", "modes"),
    ("modes/member/update-fail.yaml", "modes"),
    ("options/ifEnabled/valid-undefined.yaml", "undefined option"),
    ("testing/validateFalse/invalid.yaml", "testing tag"),
    ("testing/validateFalse/update-fail.yaml", "testing tag"),
    ("collections/item/update-fail.yaml", "unbounded list"),
    (
        "updates/update/update-fail-noadditem.yaml",
        "unbounded list",
    ),
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../kdv-cli/tests/fixtures/tags")
}

fn read_doc(path: &Path) -> Value {
    let bytes = std::fs::read(path).expect("read");
    let mut docs = kdv_manifest::documents(
        &bytes,
        kdv_manifest::Syntax::Yaml,
        kdv_manifest::Limits::default(),
    );
    loop {
        match docs.next() {
            Some(Ok(kdv_manifest::Entry::Document(d))) => return d.value,
            Some(Ok(_)) => continue,
            other => panic!("{}: {other:?}", path.display()),
        }
    }
}

/// `--option X`, `--option X=false` and `--subresource S` of the first-line `# kdv:`
/// comment: the options, and the subresource path (`/status`; `/` when not given).
fn case_options(path: &Path) -> (BTreeMap<String, bool>, String) {
    let text = std::fs::read_to_string(path).expect("read");
    let mut out = BTreeMap::new();
    let mut subresource = "/".to_string();
    if let Some(args) = text.lines().next().and_then(|l| l.strip_prefix("# kdv:")) {
        let words: Vec<&str> = args.split_whitespace().collect();
        for w in words.windows(2) {
            if w[0] == "--option" {
                match w[1].split_once('=') {
                    Some((k, v)) => out.insert(k.to_owned(), v == "true"),
                    None => out.insert(w[1].to_owned(), true),
                };
            }
            if w[0] == "--subresource" {
                subresource = format!("/{}", w[1].trim_matches('/'));
            }
        }
    }
    (out, subresource)
}

fn with_metadata(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        m.entry("metadata")
            .or_insert_with(|| json!({"name": "x", "namespace": "default"}));
    }
    v
}

#[test]
fn tag_cases_get_the_same_verdict_from_the_crd() {
    let mut disagreements = Vec::new();
    let mut snapshot = String::new();
    let mut cases = 0;
    let mut families: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && !p.ends_with("broken"))
        .collect();
    families.sort();
    for family in &families {
        let fname = family.file_name().unwrap().to_string_lossy().to_string();
        let rules = rules_of_dir(family);
        // The CRDs with no option fixed: snapshotted with their notes.
        for root in rules.roots() {
            let emitted = crd(&rules, root.id, &CrdOptions::default()).expect("crd");
            assert_crd_accepted(&emitted.schema);
            let schema = &emitted.schema["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
            snapshot.push_str(&format!(
                "## {fname}/{}\n{}\n",
                root.kind,
                serde_json::to_string_pretty(schema).unwrap()
            ));
            for n in &emitted.notes {
                snapshot.push_str(&format!(
                    "note: {}\n",
                    n.to_string()
                        .replace(&family.display().to_string(), fname.as_str())
                ));
            }
        }
        let mut case_dirs: Vec<PathBuf> = std::fs::read_dir(family.join("cases"))
            .expect("cases")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        case_dirs.sort();
        for dir in case_dirs {
            let tag = dir.file_name().unwrap().to_string_lossy().to_string();
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("case dir")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let n = p.file_name().unwrap().to_string_lossy();
                    n.ends_with(".yaml") && !n.ends_with(".old.yaml")
                })
                .collect();
            files.sort();
            for file in files {
                let name = file.file_name().unwrap().to_string_lossy().to_string();
                // The CRD is emitted for the request the case makes (its options, its
                // subresource), as a cluster serving that request would have it.
                let (options, subresource) = case_options(&file);
                let new = read_doc(&file);
                let old_path = file.with_extension("old.yaml");
                let old = old_path.exists().then(|| read_doc(&old_path));
                let api_version = new["apiVersion"].as_str().unwrap_or_default();
                let kind = new["kind"].as_str().unwrap_or_default();
                let Some(ty) = rules.root_for_kind(api_version, kind) else {
                    panic!("{}: no root {api_version} {kind}", file.display());
                };
                let op = Operation {
                    kind: if old.is_some() {
                        OperationKind::Update
                    } else {
                        OperationKind::Create
                    },
                    options: options.clone(),
                    subresources: subresource
                        .split('/')
                        .filter(|p| !p.is_empty())
                        .map(str::to_owned)
                        .collect(),
                };
                // `kdv validate --types` defaults the manifest first, as the API server
                // defaults before it validates.
                let new_d = kdv_eval::apply_defaults(&rules, ty, &new);
                let old_d = old
                    .as_ref()
                    .map(|o| kdv_eval::apply_defaults(&rules, ty, o));
                let tags_valid =
                    kdv_eval::validate(&rules, ty, &op, &new_d, old_d.as_deref()).is_empty();
                let opts = CrdOptions {
                    emit: EmitOptions {
                        options,
                        subresource: Some(subresource),
                    },
                    ..CrdOptions::default()
                };
                let emitted = crd(&rules, ty, &opts).expect("crd");
                let set = assert_crd_accepted(&emitted.schema);
                let resource = set.resource(api_version, kind).expect("resource");
                let new_m = with_metadata(new.clone());
                let old_m = old.clone().map(with_metadata);
                let outcome = resource.validate(
                    &new_m,
                    old_m.as_ref(),
                    &Options {
                        unknown_fields: UnknownFields::Ignore,
                        ..Options::default()
                    },
                );
                let crd_valid = outcome.errors.is_empty() && outcome.decode_error.is_none();
                cases += 1;
                let id = format!("{fname}/{tag}/{name}");
                let listed = DIFFERENT_BY_DESIGN.iter().any(|(c, _)| *c == id);
                if (tags_valid != crd_valid) != listed {
                    let errs: Vec<String> = outcome.errors.iter().map(|e| e.to_string()).collect();
                    disagreements.push(format!(
                        "{id}: tags {} crd {} {errs:?} {:?}",
                        if tags_valid { "valid" } else { "invalid" },
                        if crd_valid { "valid" } else { "invalid" },
                        outcome.decode_error.map(|e| e.to_string()),
                    ));
                }
            }
        }
    }
    insta::assert_snapshot!("tag_families", snapshot);
    assert!(cases > 100, "{cases}");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
