//! Shared set-up for kdv's benchmarks: the workload types (Go sources under `workloads/`,
//! compiled in) and the objects of `shared/anchors/README.md` §1, built once outside the
//! timed loops.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use std::hint::black_box;

use criterion::Criterion;
use kdv_model::Universe;
use kdv_rules::RuleSet;
use kdv_runtime::Operation;
use serde_json::{Value, json};

/// Go sources of the flat-struct workloads.
pub const FLAT_GO: &str = include_str!("../workloads/flat.go");
/// Go sources of the list-map workloads.
pub const LISTMAP_GO: &str = include_str!("../workloads/listmap.go");
/// Go sources of the union workloads.
pub const UNIONS_GO: &str = include_str!("../workloads/unions.go");

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

/// A global allocator that counts allocations, so benchmarks can report allocations per
/// operation next to the Go figures.
pub struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards every call unchanged to the system allocator; only counts.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations made by `f`, averaged over `runs` calls (only meaningful when
/// [`CountingAllocator`] is the global allocator).
pub fn allocations_per_call(runs: u64, mut f: impl FnMut()) -> f64 {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..runs {
        f();
    }
    (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / runs as f64
}

/// One interpreter benchmark case: a type, the new object, the old one for updates (then the
/// operation is Update), and the number of errors the upstream workload expects (checked
/// before timing).
pub struct ValidationCase<'a> {
    /// The criterion benchmark name (the Go benchmark's name).
    pub name: String,
    /// The compiled workload package.
    pub rules: &'a RuleSet,
    /// The validated type.
    pub type_name: &'static str,
    /// The object validated.
    pub new: Value,
    /// The old object (Update), or `None` (Create).
    pub old: Option<Value>,
    /// How many errors the workload must produce.
    pub expected_errors: usize,
}

/// Checks a case's error count, prints its allocations per call (`allocs/op NAME N`, the
/// line `go-bench/summarize.py` reads) and times it.
pub fn run_validation(c: &mut Criterion, case: ValidationCase<'_>) {
    let ty = case
        .rules
        .find_type(case.type_name)
        .unwrap_or_else(|| panic!("workload type {} not found", case.type_name));
    let op = if case.old.is_some() {
        Operation::update()
    } else {
        Operation::create()
    };
    let validate = || kdv_eval::validate(case.rules, ty, &op, &case.new, case.old.as_ref());
    let errors = validate();
    assert_eq!(
        errors.len(),
        case.expected_errors,
        "{}: unexpected result {:#?}",
        case.name,
        errors.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
    let allocs = allocations_per_call(1000, || {
        black_box(validate());
    });
    eprintln!("allocs/op {:<55} {allocs:>8.1}", case.name);
    c.bench_function(&case.name, |b| b.iter(|| black_box(validate())));
}
