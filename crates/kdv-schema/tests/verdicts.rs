//! Property test: for generated JSON objects of the example API's `Widget` and the
//! fixture's `Cluster`, the tags (kdv-eval on the RuleSet) and the emitted CRD (kdv-openapi's
//! `Resource::validate`) give the same verdict, on CREATE and on UPDATE of an old object
//! the tags accept.
//!
//! Objects are generated from the types' value shapes with scalars drawn from pools that
//! hold the boundary values of the rules (every literal of the rule set, limits and their
//! neighbours, format edge cases), so most objects hit some rule. Updates mix an old object
//! with a fresh one field by field, so that parts stay unchanged.
//!
//! Differences by design, and how the generator avoids them (each is also a note or a
//! documented difference of the emission):
//!
//! | difference | tags | CRD | here |
//! |---|---|---|---|
//! | the old object is invalid | unchanged field blocks are skipped | a rule on a changed parent is checked | old objects the tags reject are not used |
//! | a list-map item without its key | accepted (the key is Go's zero value) | `Required value` (CRD map keys must be required) | key fields are always generated |
//! | `metadata` | the type's own rules | ObjectMeta's rules, checked by the server | a valid `metadata` is always generated |
//! | error texts and paths | upstream's `field.Error`s | kube-openapi's texts, CEL rule messages, the rule's node or `fieldPath` | verdicts only are compared |

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::*;
use kdv_openapi::{Options, Resource, UnknownFields};
use kdv_rules::{
    Check, FieldAccess, ItemMatch, Literal, RuleSet, Shape, ShapeId, TypeId, Validation,
};
use kdv_runtime::{Operation, OperationKind};
use kdv_schema::{CrdOptions, crd};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// A small deterministic generator (xorshift), seeded by proptest.
struct Rng(u64, bool);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut r = Rng(seed | 1, false);
        r.1 = r.chance(50);
        r
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The pools of values and the list-map keys of a rule set.
struct Pools {
    strings: Vec<String>,
    ints: Vec<i64>,
    keys: BTreeSet<String>,
    /// Values that break few rules, for the "gentle" objects that are often valid.
    gentle_strings: Vec<String>,
    gentle_ints: Vec<i64>,
    /// JSON names of required fields (always generated in gentle objects) and of forbidden
    /// ones (never).
    required: BTreeSet<String>,
    forbidden: BTreeSet<String>,
    /// The members of enum types, by shape.
    enums: std::collections::HashMap<ShapeId, Vec<String>>,
}

fn visit(v: &Validation, pools: &mut Pools) {
    match &v.check {
        Check::Minimum(n)
        | Check::Maximum(n)
        | Check::ExclusiveMinimum(n)
        | Check::ExclusiveMaximum(n) => {
            let n = *n as i64;
            pools.ints.extend([n - 1, n, n + 1]);
        }
        Check::MinLength(n) | Check::MaxLength(n) | Check::MaxBytes(n) => {
            for len in [*n - 1, *n, *n + 1] {
                if len >= 0 {
                    pools.strings.push("a".repeat(len as usize));
                    pools.strings.push("é".repeat(len as usize));
                }
            }
        }
        Check::Enum(spec) => {
            pools.strings.extend(spec.members.iter().cloned());
            pools.gentle_strings.extend(spec.members.iter().cloned());
        }
        Check::Neq(Literal::String(s)) => pools.strings.push(s.clone()),
        // Values the extensions fixture's patterns accept and reject.
        Check::Pattern(_) => {
            pools.strings.extend(
                ["042", "0421", "v1", "v22", "2", "zone-1", "Zone", "web-1"].map(String::from),
            );
            pools
                .gentle_strings
                .extend(["042", "v1", "zone-1"].map(String::from));
        }
        Check::Unique(ItemMatch::Keys(keys)) => {
            pools.keys.extend(keys.iter().map(|k| k.name.clone()));
        }
        Check::Item { criteria, .. } => {
            for c in criteria {
                if let Literal::String(s) = &c.value {
                    pools.strings.push(s.clone());
                }
            }
        }
        Check::Union(u) => {
            pools
                .strings
                .extend(u.members.iter().map(|m| m.discriminator_value.clone()));
            if matches!(u.kind, kdv_rules::UnionKind::Discriminated { .. }) {
                pools
                    .gentle_strings
                    .extend(u.members.iter().map(|m| m.discriminator_value.clone()));
            }
        }
        _ => {}
    }
    if let Some(inner) = v.check.inner() {
        visit(inner, pools);
    }
}

fn pools(rules: &RuleSet) -> Pools {
    let mut p = Pools {
        strings: [
            "",
            "a",
            "b",
            "x-y",
            "-bad",
            "UPPER",
            "a.b",
            "ünï",
            "primary",
            "zone-1",
            "123e4567-e89b-12d3-a456-426614174000",
            "123E4567-E89B-12D3-A456-426614174000",
        ]
        .map(String::from)
        .to_vec(),
        ints: vec![
            -1,
            0,
            1,
            2,
            3,
            4094,
            65535,
            65536,
            3_000_000_000,
            -3_000_000_000,
        ],
        keys: BTreeSet::new(),
        gentle_strings: ["a", "b", "primary", "zone-1"].map(String::from).to_vec(),
        gentle_ints: vec![1, 2, 3, 4, 10],
        required: BTreeSet::new(),
        forbidden: BTreeSet::new(),
        enums: Default::default(),
    };
    p.strings.push("a".repeat(70));
    for t in &rules.types {
        for v in t.validations.iter().chain(t.iterations.iter()) {
            visit(v, &mut p);
            if let Check::Enum(spec) = &v.check {
                p.enums.insert(t.shape, spec.members.clone());
            }
        }
        for f in &t.fields {
            for v in f.validations.iter().chain(f.iterations.iter()) {
                visit(v, &mut p);
                match v.check {
                    Check::Required(_) => {
                        p.required.insert(f.json_name.clone());
                    }
                    Check::Forbidden(_) => {
                        p.forbidden.insert(f.json_name.clone());
                    }
                    _ => {}
                }
            }
        }
    }
    p.strings.sort();
    p.strings.dedup();
    p.ints.sort();
    p.ints.dedup();
    p
}

fn gen_value(rules: &RuleSet, pools: &Pools, shape: ShapeId, rng: &mut Rng, depth: usize) -> Value {
    match rules.shape(shape) {
        Shape::String { .. } if pools.enums.contains_key(&shape) && (rng.1 || rng.chance(50)) => {
            let m = &pools.enums[&shape];
            json!(m[rng.below(m.len())])
        }
        Shape::String { .. } if rng.1 => {
            json!(pools.gentle_strings[rng.below(pools.gentle_strings.len())])
        }
        Shape::String { .. } => json!(pools.strings[rng.below(pools.strings.len())]),
        Shape::Int(_) if rng.1 => json!(pools.gentle_ints[rng.below(pools.gentle_ints.len())]),
        Shape::Bytes => json!("aGVsbG8="),
        Shape::Bool => json!(rng.chance(50)),
        Shape::Int(_) => json!(pools.ints[rng.below(pools.ints.len())]),
        Shape::Float(_) => json!(rng.below(10) as f64 / 2.0),
        Shape::Pointer(e) => gen_value(rules, pools, *e, rng, depth),
        Shape::Slice(e) => {
            let n = if depth > 4 {
                0
            } else {
                rng.below(if rng.1 { 3 } else { 5 })
            };
            Value::Array(
                (0..n)
                    .map(|_| gen_value(rules, pools, *e, rng, depth + 1))
                    .collect(),
            )
        }
        Shape::Map { value, .. } => {
            let n = if depth > 4 {
                0
            } else {
                rng.below(if rng.1 { 3 } else { 5 })
            };
            let mut m = Map::new();
            for _ in 0..n {
                let keys = if rng.1 {
                    &pools.gentle_strings
                } else {
                    &pools.strings
                };
                let k = keys[rng.below(keys.len())].clone();
                m.insert(k, gen_value(rules, pools, *value, rng, depth + 1));
            }
            Value::Object(m)
        }
        Shape::Struct(st) => {
            let mut m = Map::new();
            gen_fields(rules, pools, &st.fields, &mut m, rng, depth);
            Value::Object(m)
        }
        Shape::Any => json!("x"),
    }
}

fn gen_fields(
    rules: &RuleSet,
    pools: &Pools,
    fields: &[kdv_rules::StructField],
    m: &mut Map<String, Value>,
    rng: &mut Rng,
    depth: usize,
) {
    for f in fields {
        match &f.access {
            FieldAccess::Key(k) => {
                let keep = if rng.1 {
                    pools.required.contains(k)
                        || matches!(rules.shape(f.shape), Shape::Struct(_))
                        || (!pools.forbidden.contains(k) && rng.chance(25))
                } else {
                    pools.keys.contains(k) || rng.chance(60)
                };
                if keep && depth < 6 {
                    m.insert(k.clone(), gen_value(rules, pools, f.shape, rng, depth + 1));
                }
            }
            FieldAccess::Inline { .. } => {
                let mut s = f.shape;
                while let Shape::Pointer(e) = rules.shape(s) {
                    s = *e;
                }
                if let Shape::Struct(st) = rules.shape(s) {
                    gen_fields(rules, pools, &st.fields, m, rng, depth);
                }
            }
            FieldAccess::Skip => {}
        }
    }
}

/// An object of the root `ty`: generated fields, then the kind's type meta and a valid
/// metadata. A gentle object is then repaired: the scalars, items and entries the tags
/// report are removed (a few rounds), so that many objects end up valid.
fn gen_object(
    rules: &RuleSet,
    pools: &Pools,
    ty: TypeId,
    api_version: &str,
    base: &Operation,
    rng: &mut Rng,
) -> Value {
    let t = rules.type_rules(ty);
    let mut v = gen_value(rules, pools, t.shape, rng, 0);
    if let Value::Object(m) = &mut v {
        m.insert("apiVersion".into(), json!(api_version));
        m.insert("kind".into(), json!(t.name));
        m.insert(
            "metadata".into(),
            json!({"name": "x", "namespace": "default"}),
        );
    }
    if rng.1 {
        for _ in 0..4 {
            let errs = kdv_eval::validate(rules, ty, base, &v, None);
            let mut removed = false;
            // Later paths first, so list indices stay right.
            for e in errs.iter().rev() {
                let segs = e.field.segments();
                if e.error_type == kdv_runtime::ErrorType::Required {
                    // A dependent that must be set: any short string will do.
                    if e.detail.starts_with("must be set when") {
                        removed |= set_leaf(&mut v, segs, json!("a"));
                    }
                    continue;
                }
                // Several members of a union set: drop the first.
                let bad = e.bad_value.to_string();
                if let Some(list) = bad.strip_prefix("\"{").and_then(|b| b.strip_suffix("}\"")) {
                    if let Some(first) = list.split(", ").next() {
                        let mut p = segs.to_vec();
                        p.push(kdv_runtime::Segment::Field(first.to_owned().into()));
                        removed |= remove_leaf_any(&mut v, &p);
                    }
                    continue;
                }
                let required = matches!(segs.last(), Some(kdv_runtime::Segment::Field(f)) if pools.required.iter().any(|r| r == f.as_ref()));
                if required {
                    removed |= set_leaf(&mut v, segs, json!("a"));
                } else {
                    removed |= remove_leaf(&mut v, segs);
                }
            }
            if !removed {
                break;
            }
        }
        // Then, often, one scalar changed to a wild value: the verdict hinges on it.
        if rng.chance(70) {
            let mut leaves = Vec::new();
            collect_leaves(&v, &mut Vec::new(), &mut leaves);
            leaves.retain(|p: &Vec<String>| {
                !matches!(
                    p.first().map(String::as_str),
                    Some("apiVersion" | "kind" | "metadata")
                )
            });
            if !leaves.is_empty() {
                let path = leaves[rng.below(leaves.len())].clone();
                let mut cur = &mut v;
                for seg in &path {
                    cur = match cur {
                        Value::Object(m) => m.get_mut(seg).expect("leaf path"),
                        Value::Array(a) => a
                            .get_mut(seg.parse::<usize>().expect("index"))
                            .expect("leaf path"),
                        _ => unreachable!("leaf paths go through objects and arrays"),
                    };
                }
                let wild = match &*cur {
                    Value::String(_) => json!(pools.strings[rng.below(pools.strings.len())]),
                    Value::Number(_) => json!(pools.ints[rng.below(pools.ints.len())]),
                    Value::Bool(b) => json!(!*b),
                    other => other.clone(),
                };
                *cur = wild;
            }
        }
    }
    v
}

fn collect_leaves(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(k.clone());
                collect_leaves(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(i.to_string());
                collect_leaves(x, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

/// Sets the member at `path` (its parent must exist) unless it already has that value.
fn set_leaf(v: &mut Value, path: &[kdv_runtime::Segment], to: Value) -> bool {
    use kdv_runtime::Segment;
    let Some((Segment::Field(last), parents)) = path.split_last() else {
        return false;
    };
    let mut cur = v;
    for s in parents {
        let next = match (s, cur) {
            (Segment::Field(f) | Segment::Key(f), Value::Object(m)) => m.get_mut(f.as_ref()),
            (Segment::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => return false,
        }
    }
    match cur {
        Value::Object(m) if m.get(last.as_ref()) != Some(&to) => {
            m.insert(last.to_string(), to);
            true
        }
        _ => false,
    }
}

/// Removes the member at `path`, whatever it holds.
fn remove_leaf_any(v: &mut Value, path: &[kdv_runtime::Segment]) -> bool {
    use kdv_runtime::Segment;
    let Some((Segment::Field(last), parents)) = path.split_last() else {
        return false;
    };
    let mut cur = v;
    for s in parents {
        let next = match (s, cur) {
            (Segment::Field(f) | Segment::Key(f), Value::Object(m)) => m.get_mut(f.as_ref()),
            (Segment::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => return false,
        }
    }
    match cur {
        Value::Object(m) => m.remove(last.as_ref()).is_some(),
        _ => false,
    }
}

/// Removes the scalar (or list item, or map entry) at `path`; not objects (a union's or
/// a struct's own error).
fn remove_leaf(v: &mut Value, path: &[kdv_runtime::Segment]) -> bool {
    use kdv_runtime::Segment;
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut cur = v;
    for s in parents {
        let next = match (s, cur) {
            (Segment::Field(f) | Segment::Key(f), Value::Object(m)) => m.get_mut(f.as_ref()),
            (Segment::Index(i), Value::Array(a)) => a.get_mut(*i),
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => return false,
        }
    }
    match (last, cur) {
        (Segment::Field(f) | Segment::Key(f), Value::Object(m)) => {
            if m.get(f.as_ref())
                .is_some_and(|x| !x.is_object() || matches!(last, Segment::Key(_)))
            {
                m.remove(f.as_ref());
                return true;
            }
            false
        }
        (Segment::Index(i), Value::Array(a)) if *i < a.len() => {
            a.remove(*i);
            true
        }
        _ => false,
    }
}

/// `new` with each member taken from `old` or `fresh` (recursively for objects).
fn mix(old: &Value, fresh: &Value, rng: &mut Rng) -> Value {
    match (old, fresh) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            let mut m = Map::new();
            for k in keys {
                let pick = match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => match rng.below(3) {
                        0 => Some(x.clone()),
                        1 => Some(y.clone()),
                        _ => Some(mix(x, y, rng)),
                    },
                    (Some(x), None) | (None, Some(x)) => rng.chance(60).then(|| x.clone()),
                    (None, None) => None,
                };
                if let Some(p) = pick {
                    m.insert(k.clone(), p);
                }
            }
            Value::Object(m)
        }
        _ => {
            if rng.chance(50) {
                old.clone()
            } else {
                fresh.clone()
            }
        }
    }
}

struct Subject {
    rules: RuleSet,
    pools: Pools,
    ty: TypeId,
    api_version: String,
    resource: std::sync::Arc<Resource>,
    /// The validation options of every request (those the schema was emitted with).
    options: std::collections::BTreeMap<String, bool>,
}

impl Subject {
    /// A request for the main resource (the subresource the schema is emitted for).
    fn op(&self, kind: OperationKind) -> Operation {
        Operation {
            kind,
            options: self.options.clone(),
            ..Operation::default()
        }
    }
}

fn subject(dir: &Path, name: &str) -> Subject {
    subject_with(dir, name, kdv_schema::EmitOptions::default())
}

/// A subject whose CRD is emitted with `emit` (its options are the requests' options).
fn subject_with(dir: &Path, name: &str, emit: kdv_schema::EmitOptions) -> Subject {
    let rules = rules_of_dir(dir);
    let ty = ty(&rules, name);
    let options = emit.options.clone();
    let emitted = crd(
        &rules,
        ty,
        &CrdOptions {
            emit,
            ..CrdOptions::default()
        },
    )
    .expect("crd");
    let set = assert_crd_accepted(&emitted.schema);
    let group = emitted.schema["spec"]["group"].as_str().unwrap().to_owned();
    let version = emitted.schema["spec"]["versions"][0]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let api_version = format!("{group}/{version}");
    let resource = set.resource(&api_version, name).expect("resource");
    let pools = pools(&rules);
    Subject {
        rules,
        pools,
        ty,
        api_version,
        resource,
        options,
    }
}

fn tags_valid(s: &Subject, new: &Value, old: Option<&Value>) -> bool {
    let op = s.op(if old.is_some() {
        OperationKind::Update
    } else {
        OperationKind::Create
    });
    kdv_eval::validate(&s.rules, s.ty, &op, new, old).is_empty()
}

fn crd_errors(s: &Subject, new: &Value, old: Option<&Value>) -> Vec<String> {
    let o = s.resource.validate(
        new,
        old,
        &Options {
            unknown_fields: UnknownFields::Ignore,
            ..Options::default()
        },
    );
    let mut errs: Vec<String> = o.errors.iter().map(|e| e.to_string()).collect();
    errs.extend(o.decode_error.map(|e| e.to_string()));
    errs
}

fn check(s: &Subject, seed: u64, update_seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let base = s.op(OperationKind::Create);
    let new = gen_object(&s.rules, &s.pools, s.ty, &s.api_version, &base, &mut rng);
    let tags = tags_valid(s, &new, None);
    let crd = crd_errors(s, &new, None);
    prop_assert_eq!(
        tags,
        crd.is_empty(),
        "CREATE {}\ntags: {:?}\ncrd: {:?}",
        new,
        kdv_eval::validate(&s.rules, s.ty, &base, &new, None)
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>(),
        crd
    );
    // UPDATE: an old object the tags accept, mixed with a fresh one.
    if tags {
        let mut rng = Rng::new(update_seed);
        let fresh = gen_object(&s.rules, &s.pools, s.ty, &s.api_version, &base, &mut rng);
        let updated = mix(&new, &fresh, &mut rng);
        let tags = tags_valid(s, &updated, Some(&new));
        let crd = crd_errors(s, &updated, Some(&new));
        let op = s.op(OperationKind::Update);
        prop_assert_eq!(
            tags,
            crd.is_empty(),
            "UPDATE {}\nold {}\ntags: {:?}\ncrd: {:?}",
            updated,
            new,
            kdv_eval::validate(&s.rules, s.ty, &op, &updated, Some(&new))
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>(),
            crd
        );
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("KDV_SCHEMA_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn widget_verdicts_agree(seed in any::<u64>(), update_seed in any::<u64>()) {
        thread_local!(static S: Subject = subject(&examples_api(), "Widget"));
        S.with(|s| check(s, seed, update_seed))?;
    }

    #[test]
    fn cluster_verdicts_agree(seed in any::<u64>(), update_seed in any::<u64>()) {
        thread_local!(static S: Subject = subject(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fixture"), "Cluster"));
        S.with(|s| check(s, seed, update_seed))?;
    }

    /// kdv's extensions (patterns, exclusive bounds, subresource conditions, the older
    /// options spellings): the CRD is published for the main resource with the option
    /// `Strict` off, the requests the tags validate.
    #[test]
    fn extensions_verdicts_agree(seed in any::<u64>(), update_seed in any::<u64>()) {
        thread_local!(static S: Subject = extensions_subject());
        S.with(|s| check(s, seed, update_seed))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Cross-field limits (a kdv extension): on CREATE and on UPDATE of an old object the
    /// tags accept, the tags and the CEL rule at the struct agree.
    #[test]
    fn crossfield_verdicts_agree(seed in any::<u64>(), update_seed in any::<u64>()) {
        thread_local!(static S: Subject = crossfield_subject());
        S.with(|s| check(s, seed, update_seed))?;
    }
}

fn crossfield_subject() -> Subject {
    subject(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/crossfield"),
        "Range",
    )
}

/// The generator reaches both verdicts for the cross-field subject.
#[test]
fn generated_crossfield_objects_hit_both_verdicts() {
    let s = crossfield_subject();
    let (mut valid, mut invalid) = (0, 0);
    for seed in 1..400u64 {
        let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let base = s.op(OperationKind::Create);
        let v = gen_object(&s.rules, &s.pools, s.ty, &s.api_version, &base, &mut rng);
        if tags_valid(&s, &v, None) {
            valid += 1
        } else {
            invalid += 1
        }
    }
    eprintln!("valid {valid} invalid {invalid}");
    assert!(
        valid > 40 && invalid > 40,
        "valid {valid} invalid {invalid}"
    );
}

fn extensions_subject() -> Subject {
    subject_with(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/extensions"),
        "Gadget",
        kdv_schema::EmitOptions {
            options: [("Strict".to_string(), false)].into_iter().collect(),
            subresource: Some("/".to_string()),
        },
    )
}

/// The generator reaches both verdicts on both operations, so agreement means something.
#[test]
fn generated_objects_hit_both_verdicts() {
    let s = subject(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fixture"),
        "Cluster",
    );
    let (mut valid, mut invalid) = (0, 0);
    for seed in 1..400u64 {
        let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let base = s.op(OperationKind::Create);
        let v = gen_object(&s.rules, &s.pools, s.ty, &s.api_version, &base, &mut rng);
        if tags_valid(&s, &v, None) {
            valid += 1
        } else {
            invalid += 1
        }
    }
    eprintln!("valid {valid} invalid {invalid}");
    assert!(
        valid > 40 && invalid > 40,
        "valid {valid} invalid {invalid}"
    );
}

/// The same for the extensions' subject.
#[test]
fn generated_extension_objects_hit_both_verdicts() {
    let s = extensions_subject();
    let (mut valid, mut invalid) = (0, 0);
    for seed in 1..400u64 {
        let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let base = s.op(OperationKind::Create);
        let v = gen_object(&s.rules, &s.pools, s.ty, &s.api_version, &base, &mut rng);
        if tags_valid(&s, &v, None) {
            valid += 1
        } else {
            invalid += 1
        }
    }
    eprintln!("valid {valid} invalid {invalid}");
    assert!(
        valid > 40 && invalid > 40,
        "valid {valid} invalid {invalid}"
    );
}
