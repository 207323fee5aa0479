//! Shared set-up for kdv's benchmarks: the workload types (Go sources under `workloads/`,
//! compiled in) and the objects of the performance anchors (§1: the Go and cel-go measurements
//! kdv is compared with), built once outside the timed loops.
//!
//! The benchmarks (`benches/`, criterion): `interpreter` and `union` (the anchors' flat,
//! list-map and union workloads, each timed with and without the decoding pass, decision 0077),
//! `virtual_fields`, `derive` (generated code), `cel` and `cel_rules` (CEL compile and
//! evaluation, cold and warm, beside the Rust peers `cel` and `kube-cel`; `peers/celgo`
//! holds the cel-go side), `openapi` (the custom-resource pipeline) and `manifest` (reading).
//! Each reports allocations per operation through the counting allocator of
//! `kdv-test-support`.
//! `examples/profile_workload.rs` runs one workload for profilers; `tests/workloads.rs` checks
//! every workload's verdicts (also in release, by `.ci/run`); `serve/` and `lsp/` hold the load
//! and latency scripts of `kdv serve` and `kdv lsp`.

pub mod cel_rules;
pub mod derived;
pub mod virtual_fields;

use std::sync::Arc;

use std::hint::black_box;

use criterion::Criterion;
use kdv_model::Universe;
use kdv_rules::RuleSet;
use kdv_runtime::Operation;
use serde_json::{Value, json};

/// The counting global allocator each benchmark binary installs, so benchmarks can report
/// allocations per operation next to the Go figures; [`allocations_per_call`] counts all
/// threads, as Go's `allocs/op` does.
pub use kdv_test_support::{CountingAllocator, allocations_per_call};

/// Go sources of the flat-struct workloads.
pub const FLAT_GO: &str = include_str!("../workloads/flat.go");
/// Go sources of the list-map workloads.
pub const LISTMAP_GO: &str = include_str!("../workloads/listmap.go");
/// Go sources of the union workloads.
pub const UNIONS_GO: &str = include_str!("../workloads/unions.go");
/// The kdv extensions workload package (patterns, exclusive bounds, subresource conditions).
pub const EXTENSIONS_GO: &str = include_str!("../workloads/extensions.go");
/// The defaults workload package (`+k8s:default`, `+default=`).
pub const DEFAULTS_GO: &str = include_str!("../workloads/defaults.go");
/// The cross-field reference workload package (a kdv extension).
pub const CROSSFIELD_GO: &str = include_str!("../workloads/crossfield.go");
/// The item-level update constraint workload package (a kdv extension).
pub const ITEMUPDATE_GO: &str = include_str!("../workloads/itemupdate.go");

/// Compiles one in-memory Go package into rules, failing loudly on any diagnostic so a
/// benchmark never measures a half-compiled rule set.
pub fn compile(package_path: &str, file_name: &str, source: &str) -> RuleSet {
    let (package, diagnostics) =
        kdv_go::load_sources(package_path, &[(file_name.into(), source.to_string())]);
    assert!(
        diagnostics.is_empty(),
        "workload {file_name}: {diagnostics:?}"
    );
    let mut universe = Universe::default();
    universe.packages.insert(package.path.clone(), package);
    let compiled = kdv_rules::compile(&universe);
    assert!(
        compiled.diagnostics.is_empty(),
        "workload {file_name}: {:?}",
        compiled.diagnostics
    );
    compiled.rules
}

/// The Flat_Minimum object with every field set to `v`.
pub fn minimum_object(v: i64) -> Value {
    json!({
        "intField": v, "intPtrField": v, "int16Field": v, "int32Field": v, "int64Field": v,
        "uintField": v, "uintPtrField": v, "uint16Field": v, "uint32Field": v, "uint64Field": v,
        "typedefField": v, "typedefPtrField": v,
    })
}

/// The valid Flat_MaxLength object: max-0 fields empty, max-10 fields ten characters.
pub fn max_length_object() -> Value {
    let ten = "0123456789";
    json!({
        "max0Field": "", "max0PtrField": "", "max0UntaggedTypedefField": "",
        "max0UntaggedTypedefPtrField": "",
        "max10Field": ten, "max10PtrField": ten, "max10UntaggedTypedefField": ten,
        "max10UntaggedTypedefPtrField": ten,
        "max0TypedefField": "", "max0TypedefPtrField": "",
        "max10TypedefField": ten, "max10TypedefPtrField": ten,
    })
}

/// The Flat_ShortName object with all three fields set to `name`.
pub fn short_name_object(name: &str) -> Value {
    json!({ "shortNameField": name, "shortNamePtrField": name, "shortNameTypedefField": name })
}

/// ListMap/SingleKey items `{key-i, data-i}` for `i < n`.
pub fn single_key_items(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({ "keyField": format!("key-{i}"), "dataField": format!("data-{i}") }))
        .collect()
}

/// ListMap/MultiKey items `{key-(i/10), i%10, data-i}` for `i < n`.
pub fn multi_key_items(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({
                "key1Field": format!("key-{}", i / 10),
                "key2Field": i % 10,
                "dataField": format!("data-{i}"),
            })
        })
        .collect()
}

/// Wraps list items as the `listField` of a list-map workload object.
pub fn list_object(items: Vec<Value>) -> Value {
    json!({ "listField": items })
}

/// One interpreter workload: a type, the new object, the old one for updates (then the
/// operation is Update), and the number of errors the upstream workload expects.
pub struct Workload {
    /// The benchmark name (the Go benchmark's name).
    pub name: String,
    /// The compiled workload package.
    pub rules: Arc<RuleSet>,
    /// The validated type.
    pub type_name: &'static str,
    /// The object validated.
    pub new: Value,
    /// The old object (Update), or `None` (Create).
    pub old: Option<Value>,
    /// How many errors the workload must produce.
    pub expected_errors: usize,
}

type Case = (&'static str, &'static str, Value, Option<Value>, usize);

fn workloads(
    rules: &Arc<RuleSet>,
    cases: impl IntoIterator<Item = (String, &'static str, Value, Option<Value>, usize)>,
) -> Vec<Workload> {
    cases
        .into_iter()
        .map(|(name, type_name, new, old, expected_errors)| Workload {
            name,
            rules: rules.clone(),
            type_name,
            new,
            old,
            expected_errors,
        })
        .collect()
}

fn named(
    cases: impl IntoIterator<Item = Case>,
) -> impl Iterator<Item = (String, &'static str, Value, Option<Value>, usize)> {
    cases
        .into_iter()
        .map(|(name, ty, new, old, n)| (name.to_string(), ty, new, old, n))
}

/// The flat-struct workloads (`Flat_*` but `Flat_All3`, which validates three of them in a
/// row).
pub fn flat_workloads() -> Vec<Workload> {
    let rules = Arc::new(compile("kdv.bench/flat", "flat.go", FLAT_GO));
    let cases: [Case; 7] = [
        (
            "Flat_Minimum_Create_Valid",
            "MinimumStruct",
            minimum_object(1),
            None,
            0,
        ),
        (
            "Flat_Minimum_Create_Invalid12Errs",
            "MinimumStruct",
            minimum_object(0),
            None,
            12,
        ),
        (
            "Flat_Minimum_Update_Unchanged",
            "MinimumStruct",
            minimum_object(1),
            Some(minimum_object(1)),
            0,
        ),
        (
            "Flat_MaxLength_Create_Valid",
            "MaxLengthStruct",
            max_length_object(),
            None,
            0,
        ),
        (
            "Flat_MaxLength_Update_Unchanged",
            "MaxLengthStruct",
            max_length_object(),
            Some(max_length_object()),
            0,
        ),
        (
            "Flat_ShortName_Create_Valid",
            "ShortNameStruct",
            short_name_object("my-name-123"),
            None,
            0,
        ),
        (
            "Flat_ShortName_Create_Invalid3Errs",
            "ShortNameStruct",
            short_name_object("Not_A_Name"),
            None,
            3,
        ),
    ];
    workloads(&rules, named(cases))
}

/// The list-map workloads (`ListMap/*`, N = 100 and 1000).
pub fn list_map_workloads() -> Vec<Workload> {
    let rules = Arc::new(compile("kdv.bench/listmap", "listmap.go", LISTMAP_GO));
    let mut out = Vec::new();
    for n in [100usize, 1000] {
        let items = single_key_items(n);
        let mut swapped = items.clone();
        swapped.swap(0, n - 1);
        let mut appended = items.clone();
        appended.extend(single_key_items(n + 1).pop());
        let mut dup = items.clone();
        dup[n - 1]["keyField"] = Value::from("key-0");
        let single = "SingleKeyStruct";
        let cases = [
            ("Create", list_object(items.clone()), None, 0),
            (
                "UpdateUnchanged",
                list_object(items.clone()),
                Some(list_object(items.clone())),
                0,
            ),
            (
                "UpdateSwapFirstLast",
                list_object(swapped),
                Some(list_object(items.clone())),
                0,
            ),
            (
                "UpdateAppendOne_1Err",
                list_object(appended),
                Some(list_object(items.clone())),
                1,
            ),
            ("CreateOneDup", list_object(dup), None, 1),
        ];
        out.extend(workloads(
            &rules,
            cases.into_iter().map(|(variant, new, old, e)| {
                (
                    format!("ListMap/SingleKey/N={n}/{variant}"),
                    single,
                    new,
                    old,
                    e,
                )
            }),
        ));
        let items = multi_key_items(n);
        let cases = [
            ("Create", list_object(items.clone()), None, 0),
            (
                "UpdateUnchanged",
                list_object(items.clone()),
                Some(list_object(items)),
                0,
            ),
        ];
        out.extend(workloads(
            &rules,
            cases.into_iter().map(|(variant, new, old, e)| {
                (
                    format!("ListMap/MultiKey/N={n}/{variant}"),
                    "MultiKeyStruct",
                    new,
                    old,
                    e,
                )
            }),
        ));
    }
    out
}

/// The union workloads (`Union_*`): the upstream `tags/union/union/{discriminated,
/// undiscriminated}/simple` fixture types.
pub fn union_workloads() -> Vec<Workload> {
    let rules = Arc::new(compile("kdv.bench/unions", "unions.go", UNIONS_GO));
    let disc = "DiscriminatedStruct";
    let undisc = "UndiscriminatedStruct";
    let cases: [Case; 5] = [
        (
            "Union_Discriminated_Create_Valid",
            disc,
            json!({"d": "M1", "m1": {}}),
            None,
            0,
        ),
        (
            "Union_Discriminated_Update_Unchanged",
            disc,
            json!({"d": "M1", "m1": {}}),
            Some(json!({"d": "M1", "m1": {}})),
            0,
        ),
        // m1 set but not selected, m2 selected but not set.
        (
            "Union_Discriminated_Create_Invalid",
            disc,
            json!({"d": "M2", "m1": {}}),
            None,
            2,
        ),
        (
            "Union_Undiscriminated_Create_Valid",
            undisc,
            json!({"m1": {}}),
            None,
            0,
        ),
        (
            "Union_Undiscriminated_Create_TwoSet",
            undisc,
            json!({"m1": {}, "m3": "x"}),
            None,
            1,
        ),
    ];
    workloads(&rules, named(cases))
}

/// The extensions object: valid, or with every rule broken (`Extensions_*`).
pub fn extensions_object(valid: bool) -> Value {
    if valid {
        json!({
            "nameField": "my-name-123",
            "prefixField": "v1",
            "versionsField": ["1.0", "1.35", "2.1"],
            "percentField": 50,
            "cpuField": 500,
        })
    } else {
        json!({
            "nameField": "Not_A_Name",
            "prefixField": "x",
            "versionsField": ["1", "1.35", "x.1"],
            "percentField": 100,
            "cpuField": 0,
        })
    }
}

/// The kdv extension workloads (`Extensions_*`).
pub fn extension_workloads() -> Vec<Workload> {
    let rules = Arc::new(compile(
        "kdv.bench/extensions",
        "extensions.go",
        EXTENSIONS_GO,
    ));
    let ty = "ExtensionsStruct";
    let cases: [Case; 3] = [
        (
            "Extensions_Create_Valid",
            ty,
            extensions_object(true),
            None,
            0,
        ),
        (
            "Extensions_Create_Invalid6Errs",
            ty,
            extensions_object(false),
            None,
            6,
        ),
        (
            "Extensions_Update_Unchanged",
            ty,
            extensions_object(true),
            Some(extensions_object(true)),
            0,
        ),
    ];
    workloads(&rules, named(cases))
}

/// The defaults object: valid (the `+k8s:default` fields unset, the `+default=` field set),
/// or with every rule broken (`Defaults_*`).
pub fn defaults_object(valid: bool) -> Value {
    if valid {
        json!({"countField": 5})
    } else {
        json!({
            "replicasField": -1,
            "timeoutField": 4000,
            "policyField": "Sometimes",
            "countField": -1,
        })
    }
}

/// The cross-field object: valid, or with every rule broken (`CrossField_*`).
pub fn crossfield_object(valid: bool) -> Value {
    if valid {
        json!({
            "minValue": 1,
            "maxValue": 10,
            "current": 5,
            "limits": {"maxLength": 8, "maxItems": 3},
            "name": "abc",
            "items": ["a", "b"],
        })
    } else {
        json!({
            "minValue": 6,
            "maxValue": 4,
            "current": 5,
            "limits": {"maxLength": 2, "maxItems": 1},
            "name": "abc",
            "items": ["a", "b"],
        })
    }
}

/// The defaults workloads (`Defaults_*`).
pub fn defaults_workloads() -> Vec<Workload> {
    let rules = Arc::new(compile("kdv.bench/defaults", "defaults.go", DEFAULTS_GO));
    let ty = "DefaultsStruct";
    let cases: [Case; 3] = [
        ("Defaults_Create_Valid", ty, defaults_object(true), None, 0),
        (
            "Defaults_Create_Invalid4Errs",
            ty,
            defaults_object(false),
            None,
            4,
        ),
        (
            "Defaults_Update_Unchanged",
            ty,
            defaults_object(true),
            Some(defaults_object(true)),
            0,
        ),
    ];
    workloads(&rules, named(cases))
}

/// The cross-field reference workloads (`CrossField_*`).
pub fn crossfield_workloads() -> Vec<Workload> {
    let rules = Arc::new(compile(
        "kdv.bench/crossfield",
        "crossfield.go",
        CROSSFIELD_GO,
    ));
    let ty = "CrossFieldStruct";
    let cases: [Case; 3] = [
        (
            "CrossField_Create_Valid",
            ty,
            crossfield_object(true),
            None,
            0,
        ),
        (
            "CrossField_Create_Invalid4Errs",
            ty,
            crossfield_object(false),
            None,
            4,
        ),
        (
            "CrossField_Update_Unchanged",
            ty,
            crossfield_object(true),
            Some(crossfield_object(true)),
            0,
        ),
    ];
    workloads(&rules, named(cases))
}

/// The CSR conditions: the stored object, an unchanged update of it, or an update that
/// adds Approved, modifies Denied and removes nothing (`ItemUpdate_*`).
pub fn itemupdate_object(which: &str) -> Value {
    let items: &[(&str, &str)] = match which {
        "old" => &[
            ("Denied", "False"),
            ("InProgress", "True"),
            ("Ready", "True"),
        ],
        "moved" => &[
            ("Ready", "False"),
            ("Denied", "False"),
            ("InProgress", "True"),
        ],
        _ => &[
            ("Denied", "True"),
            ("InProgress", "True"),
            ("Approved", "True"),
        ],
    };
    let conditions: Vec<Value> = items
        .iter()
        .map(|(t, s)| json!({"type": t, "status": s}))
        .collect();
    json!({ "conditions": conditions })
}

/// The item-level update constraint workloads (`ItemUpdate_*`).
pub fn itemupdate_workloads() -> Vec<Workload> {
    let rules = Arc::new(compile(
        "kdv.bench/itemupdate",
        "itemupdate.go",
        ITEMUPDATE_GO,
    ));
    let ty = "ItemUpdateStruct";
    let cases: [Case; 3] = [
        (
            "ItemUpdate_Update_Unchanged",
            ty,
            itemupdate_object("old"),
            Some(itemupdate_object("old")),
            0,
        ),
        (
            "ItemUpdate_Update_Valid",
            ty,
            itemupdate_object("moved"),
            Some(itemupdate_object("old")),
            0,
        ),
        (
            "ItemUpdate_Update_Invalid1Err",
            ty,
            itemupdate_object("bad"),
            Some(itemupdate_object("old")),
            1,
        ),
    ];
    workloads(&rules, named(cases))
}

impl Workload {
    /// Validates the workload once.
    pub fn validate(&self) -> kdv_runtime::ErrorList {
        self.validate_with(false)
    }

    /// Validates the workload once; `skip_decoding` as [`kdv_eval::EvalOptions`] has it (the
    /// object was decoded already, as `kdv validate` does for built-in kinds).
    pub fn validate_with(&self, skip_decoding: bool) -> kdv_runtime::ErrorList {
        let ty = self
            .rules
            .find_type(self.type_name)
            .unwrap_or_else(|| panic!("workload type {} not found", self.type_name));
        let op = if self.old.is_some() {
            Operation::update()
        } else {
            Operation::create()
        };
        let options = kdv_eval::EvalOptions {
            skip_decoding,
            ..Default::default()
        };
        kdv_eval::validate_with(&self.rules, ty, &op, &self.new, self.old.as_ref(), &options)
    }

    /// Panics unless the workload reports the expected number of errors (with and without
    /// the decoding pass).
    pub fn check(&self) {
        for skip_decoding in [false, true] {
            let errors = self.validate_with(skip_decoding);
            assert_eq!(
                errors.len(),
                self.expected_errors,
                "{} (skip_decoding {skip_decoding}): unexpected result {:#?}",
                self.name,
                errors.iter().map(ToString::to_string).collect::<Vec<_>>()
            );
        }
    }
}

/// The suffix of a benchmark name timed with [`kdv_eval::EvalOptions::skip_decoding`]: the
/// object already decoded, as `kdv validate` has it for built-in kinds (and as upstream's Go
/// benchmarks have it: they validate a decoded struct, decoding is not timed).
pub const SKIP_DECODING: &str = "/skip_decoding";

/// Checks a workload's error count, prints its allocations per call (`allocs/op NAME N`, the
/// line `go-bench/summarize.py` reads) and times it: once as [`kdv_eval::validate`] (with the
/// decoding pass, under the workload's name) and once without the decoding pass (the name
/// followed by [`SKIP_DECODING`]).
pub fn run_validation(c: &mut Criterion, w: &Workload) {
    w.check();
    let ty = w
        .rules
        .find_type(w.type_name)
        .unwrap_or_else(|| panic!("workload type {} not found", w.type_name));
    let op = if w.old.is_some() {
        Operation::update()
    } else {
        Operation::create()
    };
    for skip_decoding in [false, true] {
        let options = kdv_eval::EvalOptions {
            skip_decoding,
            ..Default::default()
        };
        let validate =
            || kdv_eval::validate_with(&w.rules, ty, &op, &w.new, w.old.as_ref(), &options);
        let name = if skip_decoding {
            format!("{}{SKIP_DECODING}", w.name)
        } else {
            w.name.clone()
        };
        let allocs = allocations_per_call(1000, || {
            black_box(validate());
        });
        eprintln!("allocs/op {name:<55} {allocs:>8.1}");
        c.bench_function(&name, |b| b.iter(|| black_box(validate())));
    }
}

/// Workloads of a Rust file of derived types: its rules as the interpreter compiles them
/// (every type a root), timed beside the derive on the same values.
pub struct RustWorkloads {
    rules: RuleSet,
    package: &'static str,
    prefix: &'static str,
}

impl RustWorkloads {
    /// The rules of `source`, the text of `<package>.rs` (module and package `package`);
    /// benchmark names start with `prefix`.
    pub fn new(package: &'static str, source: &str, prefix: &'static str) -> RustWorkloads {
        let file = format!("{package}.rs");
        let loaded = kdv_rust_model::from_items_in(package, package, &file, source);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let mut universe = Universe::default();
        universe
            .packages
            .insert(loaded.package.path.clone(), loaded.package);
        let compiled = kdv_rules::compile_with(
            &universe,
            &kdv_rules::CompileOptions {
                roots: kdv_rules::Roots::All,
                package: Some(package.into()),
                lint: false,
            },
        );
        assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
        RustWorkloads {
            rules: compiled.rules,
            package,
            prefix,
        }
    }

    /// Checks that the interpreter (on `value`'s JSON) and the derive both report `errors`
    /// errors for `value` of type `type_name`, prints each one's allocations per call and
    /// times both as `<prefix>_<name>/Interpreter` and `/Derive`.
    pub fn pair<T: kdv::Validate + serde::Serialize>(
        &self,
        c: &mut Criterion,
        type_name: &str,
        name: &str,
        value: &T,
        errors: usize,
    ) {
        let op = Operation::create();
        let rules = &self.rules;
        let ty = rules
            .find_type(&format!("{}.{type_name}", self.package))
            .expect("type");
        let json = serde_json::to_value(value).expect("serializes");
        let interp = || kdv_eval::validate(rules, ty, &op, &json, None);
        let derive = || value.validate(&op);
        assert_eq!(interp().len(), errors, "{name}: {:?}", interp());
        assert_eq!(derive().len(), errors, "{name}: {:?}", derive());
        for (which, f) in [
            ("Interpreter", &interp as &dyn Fn() -> kdv::ErrorList),
            ("Derive", &derive),
        ] {
            let full = format!("{}_{name}/{which}", self.prefix);
            let allocs = allocations_per_call(200, || {
                black_box(f());
            });
            eprintln!("allocs/op {full:<55} {allocs:>8.1}");
            c.bench_function(&full, |b| b.iter(|| black_box(f())));
        }
    }

    /// Times the derive's yes/no form (`is_valid`: no error is built) on `value` as
    /// `<prefix>_<name>/DeriveVerdict`, after checking it agrees with `valid`.
    pub fn verdict<T: kdv::Validate>(&self, c: &mut Criterion, name: &str, value: &T, valid: bool) {
        let op = Operation::create();
        let f = || value.is_valid(None, &op);
        assert_eq!(f(), valid, "{name}");
        let full = format!("{}_{name}/DeriveVerdict", self.prefix);
        let allocs = allocations_per_call(200, || {
            black_box(f());
        });
        eprintln!("allocs/op {full:<55} {allocs:>8.1}");
        c.bench_function(&full, |b| b.iter(|| black_box(f())));
    }
}
