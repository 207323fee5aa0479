//! Every kind of every embedded release, as a minimal valid object, passes `kdv validate` with
//! no flag but the release: no error and no warning. The objects are built from the release's
//! OpenAPI documents (the kinds of `x-kubernetes-group-version-kind`, not lists nor the API
//! machinery kinds every document repeats): `apiVersion`, `kind`, `metadata.name` (and
//! `metadata.namespace` for a namespaced kind), and every required property with the least
//! value of its type (the first `enum` value, the `minimum`, `""`, `0`, `false`, `[]`, `{}`);
//! a property with an object default is filled too, as the server defaults it and then
//! requires what it holds.
//!
//! What a real object needs beyond the published `required` lists, because a declarative
//! rule of the release demands it (a `+k8s:required` string is not empty, an enum value is a
//! member, a union has a member), is in [`EXTRAS`], each with the rule and why the server
//! requires it too. The sweep checks that each is still needed: the same objects without
//! them are all reported. A false positive kdv does not fix yet is in [`KNOWN`] with its
//! reason, and must be reported exactly so.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::kdv;
use serde_json::{Map, Value, json};

/// A value a declarative rule demands, from the release `since` on: `value` (JSON) for
/// `property` of `definition`.
struct Extra {
    since: u32,
    definition: &'static str,
    property: &'static str,
    value: &'static str,
    reason: &'static str,
}

const EXTRAS: &[Extra] = &[
    Extra {
        since: 35,
        definition: "io.k8s.api.rbac.v1.RoleRef",
        property: "name",
        value: r#""view""#,
        reason: "+k8s:required (1.35; +k8s:alpha from 1.36): the role bound; the server requires it",
    },
    Extra {
        since: 35,
        definition: "io.k8s.api.storage.v1.StorageClass",
        property: "provisioner",
        value: r#""example.com/provisioner""#,
        reason: "+k8s:required (1.35; +k8s:alpha from 1.36): the server requires a provisioner",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec",
        property: "policyName",
        value: r#""policy""#,
        reason: "+k8s:alpha +k8s:required: the server requires the policy bound",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec",
        property: "validationActions",
        value: r#"["Deny"]"#,
        reason: "+k8s:alpha +k8s:required (a list: not empty): the server requires an action",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec",
        property: "maxReplicas",
        value: "1",
        reason: "+k8s:alpha +k8s:required, +k8s:minimum=1: the server requires maxReplicas >= 1",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec",
        property: "maxReplicas",
        value: "1",
        reason: "+k8s:alpha +k8s:required, +k8s:minimum=1: the server requires maxReplicas >= 1",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.batch.v1.CronJobSpec",
        property: "schedule",
        value: r#""0 0 * * *""#,
        reason: "+k8s:alpha +k8s:required: the server requires a (cron) schedule",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.discovery.v1.EndpointSlice",
        property: "addressType",
        value: r#""IPv4""#,
        reason: "+k8s:alpha +k8s:required and +k8s:enum AddressType: the server requires one of IPv4, IPv6, FQDN",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec",
        property: "type",
        value: r#""Exempt""#,
        reason: "+k8s:alpha +k8s:required discriminator: the server requires Exempt or Limited (Exempt needs no member; Limited needs `limited` with a limitResponse type)",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.networking.v1.ParentReference",
        property: "resource",
        value: r#""services""#,
        reason: "+k8s:alpha +k8s:required: the server requires the parent's resource",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.networking.v1.ParentReference",
        property: "name",
        value: r#""parent""#,
        reason: "+k8s:alpha +k8s:required: the server requires the parent's name",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.networking.v1beta1.ParentReference",
        property: "resource",
        value: r#""services""#,
        reason: "+k8s:alpha +k8s:required: the server requires the parent's resource",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.networking.v1beta1.ParentReference",
        property: "name",
        value: r#""parent""#,
        reason: "+k8s:alpha +k8s:required: the server requires the parent's name",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.node.v1.RuntimeClass",
        property: "handler",
        value: r#""runc""#,
        reason: "+k8s:alpha +k8s:required: the server requires a handler",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.resource.v1alpha3.DeviceTaint",
        property: "effect",
        value: r#""NoSchedule""#,
        reason: "+k8s:required and +k8s:enum DeviceTaintEffect: the server requires one of None, NoSchedule, NoExecute",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.resource.v1beta2.DeviceTaint",
        property: "effect",
        value: r#""NoSchedule""#,
        reason: "+k8s:alpha +k8s:required and +k8s:enum DeviceTaintEffect: the server requires one of None, NoSchedule, NoExecute",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.resource.v1alpha3.ResourcePoolStatusRequestSpec",
        property: "driver",
        value: r#""driver.example.com""#,
        reason: "+k8s:required: the server requires the driver whose pools are asked for",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.scheduling.v1alpha2.PodGroupSpec",
        property: "schedulingPolicy",
        value: r#"{"basic": {}}"#,
        reason: "+k8s:unionMember basic, gang: the server requires exactly one policy",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.scheduling.v1alpha2.WorkloadSpec",
        property: "podGroupTemplates",
        value: r#"[{"name": "group", "schedulingPolicy": {"basic": {}}}]"#,
        reason: "+k8s:required (a list: not empty), each with a +k8s:required name and one policy: the server requires a pod group template",
    },
    Extra {
        since: 36,
        definition: "io.k8s.api.storage.v1.VolumeAttachmentSpec",
        property: "attacher",
        value: r#""csi.example.com""#,
        reason: "+k8s:alpha +k8s:required (format k8s-long-name-caseless, at most 63 bytes): the server requires the attaching driver",
    },
];

/// A false positive kdv does not fix yet: what it prints for the minimal object of `kind`
/// at `release` (after `<file>:<line>:<col>#<doc>: `), and why the server accepts the object.
struct Known {
    release: &'static str,
    kind: &'static str,
    line: &'static str,
    why: &'static str,
}

const KNOWN: &[Known] = &[];

const SKIPPED_KINDS: [&str; 3] = ["DeleteOptions", "WatchEvent", "Status"];

fn minor(release: &str) -> u32 {
    release
        .strip_prefix("1.")
        .and_then(|m| m.parse().ok())
        .unwrap_or(0)
}

/// The definition name of a `$ref` or of a one-element `allOf` of one.
fn ref_name(schema: &Value) -> Option<&str> {
    let r = schema
        .get("$ref")
        .or_else(|| schema.get("allOf")?.get(0)?.get("$ref"))?;
    r.as_str()?.rsplit('/').next()
}

/// Builds the least values of schemas of one document.
struct Builder<'a> {
    schemas: &'a Map<String, Value>,
    minor: u32,
    /// Fill [`EXTRAS`].
    extras: bool,
    /// The extras used, by index.
    used: BTreeSet<usize>,
}

impl Builder<'_> {
    fn value(&mut self, schema: &Value, definition: &str, depth: usize) -> Value {
        let mut schema = schema;
        let mut definition = definition.to_string();
        while let Some(name) = ref_name(schema) {
            definition = name.to_string();
            schema = &self.schemas[name];
        }
        if depth > 32 {
            return json!({});
        }
        if schema.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
            return json!(0);
        }
        if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
            return first.clone();
        }
        match schema.get("type").and_then(Value::as_str) {
            Some("array") => json!([]),
            Some("string") => match schema.get("format").and_then(Value::as_str) {
                Some("date-time") => json!("2024-01-01T00:00:00Z"),
                _ => json!(""),
            },
            Some("integer") | Some("number") => schema.get("minimum").cloned().unwrap_or(json!(0)),
            Some("boolean") => json!(false),
            _ => {
                let Some(props) = schema.get("properties").and_then(Value::as_object) else {
                    return json!({});
                };
                let required: Vec<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut out = Map::new();
                for (name, prop) in props {
                    if let Some(i) = self.extra(&definition, name) {
                        self.used.insert(i);
                        out.insert(
                            name.clone(),
                            serde_json::from_str(EXTRAS[i].value).expect("extra value"),
                        );
                        continue;
                    }
                    // The server defaults an object default, then requires what it holds; a
                    // root's metadata and status are the request's (status is dropped).
                    let defaulted = prop.get("default").is_some_and(Value::is_object)
                        && !(depth == 0 && (name == "metadata" || name == "status"));
                    if required.contains(&name.as_str()) || defaulted {
                        out.insert(
                            name.clone(),
                            self.value(prop, &format!("{definition}.{name}"), depth + 1),
                        );
                    }
                }
                Value::Object(out)
            }
        }
    }

    fn extra(&self, definition: &str, property: &str) -> Option<usize> {
        if !self.extras {
            return None;
        }
        EXTRAS.iter().position(|e| {
            e.definition == definition && e.property == property && self.minor >= e.since
        })
    }
}

/// The minimal objects of a release: file stem → object, and the extras they use.
fn objects(release: &str, extras: bool) -> (BTreeMap<String, Value>, BTreeSet<usize>) {
    let mut objects = BTreeMap::new();
    let mut used = BTreeSet::new();
    for doc in kdv_k8s_openapi::documents(release) {
        let text = doc.load().expect("embedded document");
        let json: Value = serde_json::from_slice(&text).expect("document JSON");
        let gv = doc.group_version();
        let schemas = json["components"]["schemas"].as_object().expect("schemas");
        // A kind is namespaced when its item path has a namespace.
        let mut namespaced: BTreeMap<(String, String, String), bool> = BTreeMap::new();
        for (path, item) in json["paths"].as_object().into_iter().flatten() {
            if !path.ends_with('}') || path.ends_with("/{namespace}") {
                continue;
            }
            for op in item.as_object().into_iter().flatten().map(|(_, op)| op) {
                if let Some(g) = op.get("x-kubernetes-group-version-kind") {
                    let key = gvk(g);
                    namespaced
                        .entry(key)
                        .or_insert(path.contains("{namespace}"));
                }
            }
        }
        let mut builder = Builder {
            schemas,
            minor: minor(release),
            extras,
            used: BTreeSet::new(),
        };
        for (name, schema) in schemas {
            for g in schema["x-kubernetes-group-version-kind"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let (group, version, kind) = gvk(g);
                let api_version = if group.is_empty() {
                    version.clone()
                } else {
                    format!("{group}/{version}")
                };
                if api_version != gv
                    || kind.ends_with("List")
                    || SKIPPED_KINDS.contains(&kind.as_str())
                {
                    continue;
                }
                let mut object = Map::new();
                object.insert("apiVersion".into(), json!(gv));
                object.insert("kind".into(), json!(kind));
                if schema["properties"].get("metadata").is_some() {
                    let mut metadata = json!({"name": "example"});
                    if namespaced.get(&(group.clone(), version.clone(), kind.clone()))
                        == Some(&true)
                    {
                        metadata["namespace"] = json!("default");
                    }
                    object.insert("metadata".into(), metadata);
                }
                let Value::Object(body) = builder.value(schema, name, 0) else {
                    unreachable!("a kind is an object");
                };
                for (k, v) in body {
                    if !matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                        object.insert(k, v);
                    }
                }
                objects.insert(
                    format!("{}_{kind}", gv.replace('/', "_")),
                    Value::Object(object),
                );
            }
        }
        used.extend(builder.used);
    }
    (objects, used)
}

fn gvk(g: &Value) -> (String, String, String) {
    let s = |k: &str| g[k].as_str().unwrap_or_default().to_string();
    (s("group"), s("version"), s("kind"))
}

fn write(dir: &Path, objects: &BTreeMap<String, Value>) {
    std::fs::create_dir_all(dir).expect("sweep directory");
    for (stem, object) in objects {
        let text = serde_json::to_string_pretty(object).expect("JSON");
        std::fs::write(dir.join(format!("{stem}.json")), text).expect("write object");
    }
}

/// What one release's sweep found.
struct Outcome {
    release: &'static str,
    kinds: usize,
    valid: usize,
    extras: Vec<usize>,
    failures: Vec<String>,
}

fn sweep(release: &'static str, tmp: &Path) -> Outcome {
    let (full, used) = objects(release, true);
    let (bare, _) = objects(release, false);
    let dir = tmp.join(release);
    let _ = std::fs::remove_dir_all(&dir);
    write(&dir.join("full"), &full);
    // The kinds that needed extras, without them.
    let needing: BTreeMap<String, Value> = bare
        .into_iter()
        .filter(|(stem, object)| full.get(stem) != Some(object))
        .collect();
    write(&dir.join("bare"), &needing);
    let full_dir = dir.join("full").display().to_string();
    let bare_dir = dir.join("bare").display().to_string();
    let mut args = vec!["validate"];
    // Zero flags for the default release.
    if release != kdv_k8s_openapi::latest_version() {
        args.extend(["--k8s-version", release]);
    }
    args.push(&full_dir);
    if !needing.is_empty() {
        args.push(&bare_dir);
    }
    let run = kdv(&args);
    let mut failures = Vec::new();
    let mut reported: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in run.stdout.lines().chain(run.stderr.lines()) {
        let (warning, shown) = match line.strip_prefix("warning: ") {
            Some(rest) => ("warning: ", rest),
            None => ("", line),
        };
        let file = [(&full_dir, ""), (&bare_dir, "bare/")]
            .into_iter()
            .find_map(|(dir, tag)| {
                let rest = shown.strip_prefix(dir.as_str())?.strip_prefix('/')?;
                let (stem, rest) = rest.split_once(".json:")?;
                Some((format!("{tag}{stem}"), rest))
            });
        match file {
            // The message, without its position (`8:11#0: `).
            Some((key, rest)) => {
                let message = rest.split_once(": ").map_or(rest, |(_, m)| m);
                reported
                    .entry(key)
                    .or_default()
                    .push(format!("{warning}{message}"));
            }
            None if shown.contains(" documents, ") => {}
            None => failures.push(format!("{release}: unexpected line {line:?}")),
        }
    }
    let mut valid = 0;
    for stem in full.keys() {
        let got = reported.remove(stem).unwrap_or_default();
        let known: Vec<String> = KNOWN
            .iter()
            .filter(|k| k.release == release && k.kind == stem)
            .map(|k| k.line.to_string())
            .collect();
        if got.is_empty() {
            valid += 1;
        }
        if got != known {
            failures.push(format!(
                "{release} {stem}: {got:#?} (known: {known:?})\n{}",
                serde_json::to_string(&full[stem]).unwrap_or_default()
            ));
        }
    }
    for stem in needing.keys() {
        if reported.remove(&format!("bare/{stem}")).is_none() {
            failures.push(format!(
                "{release} {stem}: valid without its extras (is every extra it uses still needed?)"
            ));
        }
    }
    failures.extend(reported.keys().map(|k| format!("{release}: lines of {k}")));
    Outcome {
        release,
        kinds: full.len(),
        valid,
        extras: used.into_iter().collect(),
        failures,
    }
}

#[test]
fn a_minimal_object_of_every_kind_of_every_release_is_valid() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("builtin-sweep");
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let handles: Vec<_> = kdv_k8s_openapi::versions()
            .iter()
            .map(|release| {
                let tmp = &tmp;
                s.spawn(move || sweep(release, tmp))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("sweep thread"))
            .collect()
    });
    let mut failures = Vec::new();
    let mut used = BTreeSet::new();
    for o in &outcomes {
        eprintln!(
            "{}: {} kinds, {} valid; extras: {:?}",
            o.release,
            o.kinds,
            o.valid,
            o.extras
                .iter()
                .map(|&i| format!("{}.{}", EXTRAS[i].definition, EXTRAS[i].property))
                .collect::<Vec<_>>()
        );
        assert!(o.kinds > 50, "{}: {} kinds", o.release, o.kinds);
        used.extend(o.extras.iter().copied());
        failures.extend(o.failures.iter().cloned());
    }
    for (i, e) in EXTRAS.iter().enumerate() {
        if !used.contains(&i) {
            failures.push(format!(
                "extra {}.{} ({}) is used by no kind",
                e.definition, e.property, e.reason
            ));
        }
    }
    for k in KNOWN {
        eprintln!(
            "known false positive: {} {}: {} ({})",
            k.release, k.kind, k.line, k.why
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
