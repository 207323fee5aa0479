//! The differential test of generated validation against the interpreter: random JSON
//! objects of a fixture type (drawn from the type's shapes, with the IR's own constants and
//! bounds as likely values), read into the Rust type, validated by the generated code and
//! by `kdv-eval` on the same JSON (the Rust value written back), on create and on update
//! against an old object that shares most of its values. The two error lists must be
//! identical, marks included (`{:?}` of the lists).

use std::collections::BTreeSet;

use kdv::{Operation, Validate};
use kdv_model::Universe;
use kdv_rules::{Check, CompileOptions, Roots, RuleSet, Shape, ShapeId, TypeId, Validation};
use kdv_runtime::{Literal, Segment};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// The rules of a fixture file, compiled as the derive compiles them.
pub fn rules_of(file_name: &str, source: &str) -> (RuleSet, String) {
    let stem = file_name.trim_end_matches(".rs").to_string();
    let loaded = kdv_rust_model::from_items_in(&stem, &stem, file_name, source);
    assert!(
        !loaded.has_errors(),
        "fixture {file_name} reads cleanly: {:?}",
        loaded.diagnostics
    );
    let mut universe = Universe::default();
    universe
        .packages
        .insert(loaded.package.path.clone(), loaded.package);
    let compiled = kdv_rules::compile_with(
        &universe,
        &CompileOptions {
            roots: Roots::All,
            package: Some(stem.clone()),
            lint: false,
        },
    );
    assert!(
        !compiled.has_errors(),
        "fixture {file_name} compiles: {:?}",
        compiled.diagnostics
    );
    (compiled.rules, stem)
}

/// A small deterministic generator (xorshift64*), seeded by proptest.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Likely values: the IR's literals and bounds, and values around format boundaries.
pub struct Vocab {
    strings: Vec<String>,
    ints: Vec<i128>,
    pub options: Vec<String>,
    /// Subresource paths the rules' conditions name (`/status`).
    pub subresources: Vec<String>,
    /// Members of the enum types, by the types' shapes (a Rust unit enum holds no other
    /// value, so its strings are mostly drawn from these).
    enums: std::collections::HashMap<u32, Vec<String>>,
}

impl Vocab {
    pub fn of(rules: &RuleSet) -> Vocab {
        let mut strings: BTreeSet<String> = [
            "",
            "a",
            "abc",
            "a-b",
            "A",
            "-a",
            "a.b",
            "x/y",
            "a_b",
            "http",
            "TCP",
            "UDP",
            "latest",
            "1.2.3.4",
            "Basic",
            "Standard",
            "Premium",
            "HTTPGet",
            "TCPSocket",
            "550e8400-e29b-41d4-a716-446655440000",
            "example.com/key",
            "Ab",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        strings.insert("a".repeat(64));
        strings.insert("b".repeat(254));
        strings.insert("c".repeat(300));
        let mut ints: BTreeSet<i128> = [0, 1, -1, 2, 3, 5, 10, 100, 65535, 65536]
            .into_iter()
            .collect();
        let mut options = BTreeSet::new();
        let mut enums = std::collections::HashMap::new();
        for t in &rules.types {
            for c in &t.validations.cohorts {
                for v in c.short_circuit.iter().chain(&c.regular) {
                    if let Check::Enum(spec) = &v.check {
                        enums.insert(t.shape.0, spec.members.clone());
                    }
                }
            }
        }
        let mut subresources = BTreeSet::new();
        let mut visit = |v: &Validation,
                         strings: &mut BTreeSet<String>,
                         ints: &mut BTreeSet<i128>,
                         options: &mut BTreeSet<String>| {
            collect(&v.check, strings, ints, options);
            subresources_of(&v.check, &mut subresources);
        };
        for t in &rules.types {
            for c in &t.validations.cohorts {
                for v in c.short_circuit.iter().chain(&c.regular) {
                    visit(v, &mut strings, &mut ints, &mut options);
                }
            }
            for v in &t.iterations {
                visit(v, &mut strings, &mut ints, &mut options);
            }
            for f in &t.fields {
                for c in &f.validations.cohorts {
                    for v in c.short_circuit.iter().chain(&c.regular) {
                        visit(v, &mut strings, &mut ints, &mut options);
                    }
                }
                for v in &f.iterations {
                    visit(v, &mut strings, &mut ints, &mut options);
                }
            }
        }
        Vocab {
            strings: strings.into_iter().collect(),
            ints: ints.into_iter().collect(),
            options: options.into_iter().collect(),
            subresources: subresources.into_iter().collect(),
            enums,
        }
    }
}

/// The subresource paths of `+k8s:ifSubresource` / `+k8s:ifNotSubresource` conditions.
fn subresources_of(c: &Check, out: &mut BTreeSet<String>) {
    if let Check::IfSubresource { subresource, .. } = c {
        out.insert(subresource.clone());
    }
    match c {
        Check::EachListVal { inner: i, .. }
        | Check::EachMapVal { inner: i, .. }
        | Check::EachMapKey { inner: i }
        | Check::Subfield { inner: i, .. }
        | Check::IfOption { inner: i, .. }
        | Check::IfSubresource { inner: i, .. }
        | Check::Item { inner: i, .. } => subresources_of(&i.check, out),
        _ => {}
    }
}

fn literal(l: &Literal, strings: &mut BTreeSet<String>, ints: &mut BTreeSet<i128>) {
    match l {
        Literal::String(s) => {
            strings.insert(s.clone());
        }
        Literal::Int(i) => {
            ints.insert(*i);
        }
        Literal::Bool(_) => {}
    }
}

fn collect(
    c: &Check,
    strings: &mut BTreeSet<String>,
    ints: &mut BTreeSet<i128>,
    options: &mut BTreeSet<String>,
) {
    match c {
        Check::Minimum(b)
        | Check::Maximum(b)
        | Check::ExclusiveMinimum(b)
        | Check::ExclusiveMaximum(b) => {
            for d in [-1, 0, 1] {
                ints.insert(b + d);
            }
        }
        Check::MinLength(n) | Check::MaxLength(n) | Check::MaxBytes(n) => {
            for d in [-1, 0, 1] {
                if n + d >= 0 {
                    strings.insert("s".repeat((n + d) as usize));
                }
            }
        }
        Check::Enum(spec) => {
            strings.extend(spec.members.iter().cloned());
            options.extend(
                spec.exclusions
                    .iter()
                    .filter(|x| !x.option.is_empty())
                    .map(|x| x.option.clone()),
            );
        }
        Check::Neq(l) => literal(l, strings, ints),
        // Values the extension fixtures' patterns accept and reject.
        Check::Pattern(spec) => {
            strings.extend(["042", "0421", "v1", "v22", "2", "web-1", "Web"].map(String::from));
            if let Some(lit) = spec.pattern.as_literal() {
                strings.insert(lit.text.clone());
                strings.insert(format!("x{}x", lit.text));
            }
        }
        // A CEL rule's string literals (`'Component'`) and a name containing each.
        Check::CelRule(r) => {
            for (i, part) in r.rule.split('\'').enumerate() {
                if i % 2 == 1 && !part.contains('\\') {
                    strings.insert(part.to_string());
                    strings.insert(format!("my-{part}"));
                }
            }
        }
        Check::EachListVal { inner: i, .. }
        | Check::EachMapVal { inner: i, .. }
        | Check::EachMapKey { inner: i }
        | Check::Subfield { inner: i, .. }
        | Check::IfSubresource { inner: i, .. } => collect(&i.check, strings, ints, options),
        Check::IfOption {
            option, inner: i, ..
        } => {
            options.insert(option.clone());
            collect(&i.check, strings, ints, options);
        }
        Check::Item {
            criteria, inner: i, ..
        } => {
            for c in criteria {
                literal(&c.value, strings, ints);
            }
            collect(&i.check, strings, ints, options);
        }
        Check::Union(u) => {
            for m in &u.members {
                strings.insert(m.discriminator_value.clone());
            }
        }
        Check::Discriminated(d) => {
            for r in &d.rules {
                literal(&r.value, strings, ints);
                for v in &r.validations {
                    collect(&v.check, strings, ints, options);
                }
            }
        }
        _ => {}
    }
}

/// A random JSON value of `shape`.
pub fn draw_value(
    rules: &RuleSet,
    vocab: &Vocab,
    rng: &mut Rng,
    shape: ShapeId,
    depth: usize,
) -> Value {
    match rules.shape(shape) {
        Shape::String { .. } => match vocab.enums.get(&shape.0) {
            Some(members) if !members.is_empty() && rng.chance(98) => {
                json!(members[rng.below(members.len())])
            }
            _ => json!(vocab.strings[rng.below(vocab.strings.len())]),
        },
        Shape::Bytes => json!(vocab.strings[rng.below(vocab.strings.len())]),
        Shape::Bool => json!(rng.chance(50)),
        Shape::Int(k) => {
            let x = vocab.ints[rng.below(vocab.ints.len())];
            let (lo, hi) = if k.signed {
                (-(1i128 << (k.bits - 1)), (1i128 << (k.bits - 1)) - 1)
            } else {
                (0, (1i128 << k.bits) - 1)
            };
            json!(x.clamp(lo, hi) as i64)
        }
        Shape::Float(_) => json!(vocab.ints[rng.below(vocab.ints.len())] as f64 / 2.0),
        Shape::Pointer(inner) => draw_value(rules, vocab, rng, *inner, depth),
        Shape::Slice(e) => {
            if depth > 5 {
                return json!([]);
            }
            // Short lists deep down keep recursive types (a node's list of nodes) small.
            let n = rng.below(if depth < 3 { 5 } else { 2 });
            Value::Array(
                (0..n)
                    .map(|_| draw_value(rules, vocab, rng, *e, depth + 1))
                    .collect(),
            )
        }
        Shape::Map { value, .. } => {
            if depth > 5 {
                return json!({});
            }
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                let k = vocab.strings[rng.below(vocab.strings.len())].clone();
                m.insert(k, draw_value(rules, vocab, rng, *value, depth + 1));
            }
            Value::Object(m)
        }
        Shape::Struct(st) => {
            let mut m = Map::new();
            if depth > 6 {
                return Value::Object(m);
            }
            for f in &st.fields {
                let nilable = rules.shape(f.shape).is_nilable();
                match &f.access {
                    kdv_rules::FieldAccess::Key(k) => {
                        if rng.chance(if nilable { 60 } else { 92 }) {
                            m.insert(k.clone(), draw_value(rules, vocab, rng, f.shape, depth + 1));
                        }
                    }
                    kdv_rules::FieldAccess::Inline { .. } => {
                        if let Value::Object(inner) =
                            draw_value(rules, vocab, rng, f.shape, depth + 1)
                        {
                            m.extend(inner);
                        }
                    }
                    kdv_rules::FieldAccess::Skip => {}
                }
            }
            Value::Object(m)
        }
        Shape::Any => match rng.below(4) {
            0 => Value::Null,
            1 => json!(vocab.ints[rng.below(vocab.ints.len())] as i64),
            2 => json!(vocab.strings[rng.below(vocab.strings.len())]),
            _ => json!({"k": [1, "x"]}),
        },
    }
}

/// An old value for `new`: mostly `new`'s values, some regenerated.
pub fn blend(
    rules: &RuleSet,
    vocab: &Vocab,
    rng: &mut Rng,
    shape: ShapeId,
    new: &Value,
    depth: usize,
) -> Value {
    if rng.chance(25) {
        return draw_value(rules, vocab, rng, shape, depth);
    }
    match (rules.shape(shape), new) {
        (Shape::Pointer(inner), _) => blend(rules, vocab, rng, *inner, new, depth),
        (Shape::Struct(st), Value::Object(obj)) => {
            let mut m = Map::new();
            for f in &st.fields {
                match &f.access {
                    kdv_rules::FieldAccess::Key(k) => match obj.get(k) {
                        Some(v) if rng.chance(85) => {
                            m.insert(k.clone(), blend(rules, vocab, rng, f.shape, v, depth + 1));
                        }
                        _ if rng.chance(50) => {
                            m.insert(k.clone(), draw_value(rules, vocab, rng, f.shape, depth + 1));
                        }
                        _ => {}
                    },
                    kdv_rules::FieldAccess::Inline { .. } => {
                        if let Value::Object(inner) =
                            blend(rules, vocab, rng, f.shape, new, depth + 1)
                        {
                            m.extend(inner);
                        }
                    }
                    kdv_rules::FieldAccess::Skip => {}
                }
            }
            Value::Object(m)
        }
        (Shape::Slice(e), Value::Array(items)) if rng.chance(50) => {
            let mut out = Vec::new();
            for x in items {
                if rng.chance(85) {
                    out.push(blend(rules, vocab, rng, *e, x, depth + 1));
                }
            }
            if rng.chance(30) {
                out.push(draw_value(rules, vocab, rng, *e, depth + 1));
            }
            Value::Array(out)
        }
        _ => new.clone(),
    }
}

/// What a differential run saw.
#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    /// Cases run (each a create and an update).
    pub cases: u32,
    /// Creates with at least one error.
    pub invalid_creates: u32,
    /// Updates with at least one error.
    pub invalid_updates: u32,
}

impl Stats {
    /// Asserts the run exercised both outcomes (a generator that only ever produces valid
    /// or only invalid objects proves little). The floor is 2%: proptest seeds each run
    /// afresh, and a fixture whose invalid share sits near 5% (cel_rules::PodSpec) crossed a
    /// 5% floor by chance in CI (498 of 10,000); 2% is a dozen standard deviations below it.
    pub fn assert_mixed(&self) {
        let floor = self.cases / 50;
        assert!(
            self.invalid_creates > floor && self.invalid_creates < self.cases,
            "{self:?}"
        );
        assert!(
            self.invalid_updates > floor && self.invalid_updates < self.cases,
            "{self:?}"
        );
    }
}

/// Runs `cases` random cases of type `T` (declared in `file_name` with text `source`) and
/// asserts the generated validation and the interpreter agree on every one (JSON values
/// the Rust type cannot hold are drawn again).
#[allow(dead_code)] // each test binary uses one of the two entries
pub fn check<T>(file_name: &str, source: &str, type_name: &str, cases: u32) -> Stats
where
    T: Validate + kdv::Defaults + Serialize + DeserializeOwned,
{
    check_with::<T>(file_name, source, type_name, cases, None)
}

/// [`check`] with custom validation functions for the interpreter (`custom`: the same
/// functions the fixture declares for generated code, written on JSON values). Without a
/// registry the interpreter skips custom validations, so a fixture that declares
/// `+k8s:customValidation` must pass one.
pub fn check_with<T>(
    file_name: &str,
    source: &str,
    type_name: &str,
    cases: u32,
    custom: Option<&dyn kdv_eval::CustomValidators>,
) -> Stats
where
    T: Validate + kdv::Defaults + Serialize + DeserializeOwned,
{
    let options = kdv_eval::EvalOptions {
        custom_validators: custom,
        ..Default::default()
    };
    let (rules, stem) = rules_of(file_name, source);
    let ty: TypeId = rules
        .find_type(&format!("{stem}.{type_name}"))
        .unwrap_or_else(|| panic!("type {type_name} in {file_name}"));
    let vocab = Vocab::of(&rules);
    let shape = rules.type_rules(ty).shape;
    let stats = std::cell::Cell::new(Stats::default());
    let mut config = ProptestConfig::with_cases(cases);
    config.failure_persistence = None;
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let result = runner.run(&any::<u64>(), |seed| {
        let mut rng = Rng::new(seed);
        let (new, new_json) = draw::<T>(&rules, ty, &vocab, &mut rng, shape, None);
        let (old, old_json) = draw::<T>(&rules, ty, &vocab, &mut rng, shape, Some(&new_json));
        let mut op_c = Operation::create();
        let mut op_u = Operation::update();
        // The main resource, or one of the subresources the rules name.
        let sub = rng.below(vocab.subresources.len() + 1);
        if let Some(path) = vocab.subresources.get(sub) {
            let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
            op_c = op_c.with_subresources(parts.iter().copied());
            op_u = op_u.with_subresources(parts);
        }
        for o in &vocab.options {
            let on = rng.chance(50);
            op_c = op_c.with_option(o, on);
            op_u = op_u.with_option(o, on);
        }
        let mut st = stats.get();
        let generated = format!("{:?}", new.validate(&op_c));
        let interpreted = format!(
            "{:?}",
            kdv_eval::validate_with(&rules, ty, &op_c, &new_json, None, &options)
        );
        st.invalid_creates += u32::from(interpreted != "[]");
        prop_assert_eq!(&generated, &interpreted, "create of {}", new_json);
        prop_assert_eq!(new.is_valid(None, &op_c), interpreted == "[]");
        // Defaulting: the derive's `apply_defaults` on the value and the interpreter's on its
        // JSON give the same value, and the same verdict after it.
        let base = serde_json::to_value(&new).expect("serializes");
        if let Ok(mut defaulted) = serde_json::from_value::<T>(base.clone()) {
            defaulted.apply_defaults();
            let by_interpreter = kdv_eval::apply_defaults(&rules, ty, &base).into_owned();
            let normalized = serde_json::from_value::<T>(by_interpreter.clone())
                .ok()
                .and_then(|v| serde_json::to_value(&v).ok());
            prop_assert_eq!(
                Some(serde_json::to_value(&defaulted).expect("serializes")),
                normalized,
                "defaults of {}",
                base
            );
            let generated = format!("{:?}", defaulted.validate(&op_c));
            let interpreted = format!(
                "{:?}",
                kdv_eval::validate_with(&rules, ty, &op_c, &by_interpreter, None, &options)
            );
            prop_assert_eq!(
                &generated,
                &interpreted,
                "create of defaulted {}",
                by_interpreter
            );
        }
        let generated = format!("{:?}", new.validate_update(&old, &op_u));
        let interpreted = format!(
            "{:?}",
            kdv_eval::validate_with(&rules, ty, &op_u, &new_json, Some(&old_json), &options)
        );
        prop_assert_eq!(
            &generated,
            &interpreted,
            "update of {} from {}",
            new_json,
            old_json
        );
        st.invalid_updates += u32::from(interpreted != "[]");
        st.cases += 1;
        stats.set(st);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{type_name}: generated validation and the interpreter disagree: {e}");
    }
    stats.get()
}

/// The shape of the value at `path` inside a value of `shape`.
fn shape_at(rules: &RuleSet, mut shape: ShapeId, path: &[Segment]) -> Option<ShapeId> {
    for seg in path {
        while let Shape::Pointer(inner) = rules.shape(shape) {
            shape = *inner;
        }
        shape = match (rules.shape(shape), seg) {
            (Shape::Struct(st), Segment::Field(name)) => field_shape(rules, st, name)?,
            (Shape::Slice(e), Segment::Index(_)) => *e,
            (Shape::Map { value, .. }, Segment::Key(_)) => *value,
            _ => return None,
        };
    }
    Some(shape)
}

fn field_shape(rules: &RuleSet, st: &kdv_rules::StructShape, name: &str) -> Option<ShapeId> {
    for f in &st.fields {
        match &f.access {
            kdv_rules::FieldAccess::Key(k) if k == name => return Some(f.shape),
            kdv_rules::FieldAccess::Inline { keys } if keys.iter().any(|k| k == name) => {
                let mut s = f.shape;
                while let Shape::Pointer(inner) = rules.shape(s) {
                    s = *inner;
                }
                if let Shape::Struct(inner) = rules.shape(s) {
                    return field_shape(rules, inner, name);
                }
            }
            _ => {}
        }
    }
    None
}

/// The value at `path`, when every step exists.
fn value_at_mut<'v>(v: &'v mut Value, path: &[Segment]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |cur, seg| match (cur, seg) {
        (Value::Object(m), Segment::Field(k) | Segment::Key(k)) => m.get_mut(k.as_ref()),
        (Value::Array(a), Segment::Index(i)) => a.get_mut(*i),
        _ => None,
    })
}

/// Replaces the value at `path` (a member, item or entry that exists, or a member to add).
fn set_at(v: &mut Value, path: &[Segment], new: Value) {
    let Some((last, parents)) = path.split_last() else {
        *v = new;
        return;
    };
    let Some(cur) = value_at_mut(v, parents) else {
        return;
    };
    match (cur, last) {
        (Value::Object(m), Segment::Field(k) | Segment::Key(k)) => {
            m.insert(k.to_string(), new);
        }
        (Value::Array(a), Segment::Index(i)) if *i < a.len() => a[*i] = new,
        _ => {}
    }
}

/// Removes the member at `path` (a struct member or a map entry), when it exists.
fn remove_at(v: &mut Value, path: &[Segment]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let Some(cur) = value_at_mut(v, parents) else {
        return;
    };
    if let (Value::Object(m), Segment::Field(k) | Segment::Key(k)) = (cur, last) {
        m.remove(k.as_ref());
    }
}

/// Redraws the values the interpreter reports errors at, for up to `rounds` rounds: a mix of
/// valid objects and objects with a few errors.
fn repair(rules: &RuleSet, ty: TypeId, vocab: &Vocab, rng: &mut Rng, j: &mut Value, rounds: usize) {
    let shape = rules.type_rules(ty).shape;
    let op = Operation::create();
    let mut before = usize::MAX;
    for _ in 0..rounds {
        let errs = kdv_eval::validate(rules, ty, &op, j, None);
        // Done when valid, or when redrawing stopped helping (a type whose rules always
        // fail, such as `validateFalse`, never becomes valid).
        if errs.is_empty() || errs.len() >= before {
            return;
        }
        before = errs.len();
        for e in errs.iter() {
            let path = e.field.segments();
            // A forbidden member is removed half the time (a redrawn one stays set).
            if e.error_type == kdv_runtime::ErrorType::Forbidden && rng.chance(50) {
                remove_at(j, path);
            } else if let Some(s) = shape_at(rules, shape, path) {
                let fresh = draw_value(rules, vocab, rng, s, path.len());
                set_at(j, path, fresh);
            }
        }
    }
}

/// A random value of `T` and its JSON (the Rust value written back, so both validators see
/// the same data): drawn again until the Rust type can hold it.
fn draw<T: Serialize + DeserializeOwned>(
    rules: &RuleSet,
    ty: TypeId,
    vocab: &Vocab,
    rng: &mut Rng,
    shape: ShapeId,
    like: Option<&Value>,
) -> (T, Value) {
    for _ in 0..1000 {
        let mut j = match like {
            Some(n) => blend(rules, vocab, rng, shape, n, 0),
            None => draw_value(rules, vocab, rng, shape, 0),
        };
        let rounds = rng.below(16);
        repair(rules, ty, vocab, rng, &mut j, rounds);
        if let Ok(t) = serde_json::from_value::<T>(j) {
            let back = serde_json::to_value(&t).expect("a Rust value serializes");
            return (t, back);
        }
    }
    panic!("no JSON value of the type's shape deserializes into the Rust type");
}
