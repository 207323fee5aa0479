//! Evaluating over a `serde_json` document borrows from it: field access, comparisons and
//! comprehensions allocate nothing per element. Counted with a global allocator.

use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::parser::parse;
use kdv_cel::value::Value;

#[global_allocator]
static ALLOCATOR: kdv_test_support::CountingAllocator = kdv_test_support::CountingAllocator;

/// Allocations made while evaluating `src` against `self = doc` (the program is planned
/// first), plus the result.
fn allocations(src: &str, doc: &serde_json::Value) -> (usize, String) {
    let parsed = parse(src).expect("parses");
    let program = Program::new(&parsed.expr, &ProgramOptions::kubernetes());
    let vars = Vars::new().with("self", Value::from_json(doc));
    let config = EvalConfig {
        cost_limit: Some(1_000_000),
        interrupt: None,
    };
    // Warm up (lazy statics), then count one evaluation.
    let _ = program.eval(&vars, &config);
    let mut result = None;
    let n = kdv_test_support::allocations(|| result = Some(program.eval(&vars, &config)));
    let shown = match result.expect("evaluated") {
        Ok((v, _)) => v.to_string(),
        Err(e) => format!("error {e}"),
    };
    (n, shown)
}

#[test]
fn field_access_and_comparisons_allocate_nothing() {
    let doc = serde_json::json!({"minReplicas": 1, "replicas": 3, "maxReplicas": 5, "name": "web"});
    let (n, v) = allocations(
        "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        &doc,
    );
    assert_eq!(v, "true");
    assert_eq!(n, 0, "allocations");
    let (n, v) = allocations("self.name.startsWith('w') && self.name == 'web'", &doc);
    assert_eq!(v, "true");
    assert_eq!(n, 0, "allocations");
}

#[test]
fn comprehensions_allocate_a_constant() {
    let items: Vec<serde_json::Value> = (0..100)
        .map(|i| serde_json::json!({"name": if i == 42 { "x".to_string() } else { format!("n{i}") }}))
        .collect();
    let doc = serde_json::json!({ "items": items });
    let (n, v) = allocations("self.items.filter(e, e.name == 'x').size() == 1", &doc);
    assert_eq!(v, "true");
    // The result list: its shared header and its element buffer.
    assert!(n <= 2, "{n} allocations");
    let names: Vec<String> = (0..100).map(|i| format!("a{i}")).collect();
    let doc = serde_json::json!(names);
    let (n, v) = allocations("self.all(x, x.startsWith('a'))", &doc);
    assert_eq!(v, "true");
    assert_eq!(n, 0, "allocations");
}
