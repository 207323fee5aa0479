//! Evaluating over a `serde_json` document borrows from it: field access, comparisons and
//! comprehensions allocate nothing per element. Counted with a global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use kdv_cel::interp::{EvalConfig, Program, ProgramOptions, Vars};
use kdv_cel::parser::parse;
use kdv_cel::value::Value;

struct Counting;

thread_local! {
    /// Counting is on for this thread: allocations of other threads (the other tests of this
    /// binary building their documents) are not the measured evaluation's.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// Tests of this binary run in parallel; the count is global, so measurements take turns.
static TURN: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarding the caller's layout to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made while evaluating `src` against `self = doc` (the program is planned
/// first), plus the result.
fn allocations(src: &str, doc: &serde_json::Value) -> (usize, String) {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let parsed = parse(src).expect("parses");
    let program = Program::new(&parsed.expr, &ProgramOptions::kubernetes());
    let vars = Vars::new().with("self", Value::from_json(doc));
    let config = EvalConfig {
        cost_limit: Some(1_000_000),
        interrupt: None,
    };
    // Warm up (lazy statics), then count one evaluation.
    let _ = program.eval(&vars, &config);
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    let result = program.eval(&vars, &config);
    COUNTING.with(|c| c.set(false));
    let n = ALLOCATIONS.load(Ordering::SeqCst);
    let shown = match result {
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
