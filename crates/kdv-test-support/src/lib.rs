//! Test mechanisms shared by the workspace's tests and benchmarks (not published).
//!
//! [`CountingAllocator`] forwards every call to [`System`] and counts allocations (a
//! reallocation counts as one), so a test can prove that valid input is validated without
//! touching the heap. A library cannot install a global allocator for only some binaries,
//! so each test binary (or `#[cfg(test)]` module) that counts declares its own:
//!
//! ```
//! #[global_allocator]
//! static ALLOCATOR: kdv_test_support::CountingAllocator = kdv_test_support::CountingAllocator;
//!
//! fn main() {
//!     assert_eq!(kdv_test_support::allocations(|| drop(String::new())), 0);
//!     assert!(kdv_test_support::allocations(|| drop(String::from("x"))) >= 1);
//! }
//! ```
//!
//! Without it the counters stay at zero and [`allocations`] always answers 0.
//!
//! [`Scratch`] is a fresh folder of one test, removed when dropped.

mod scratch;

pub use scratch::Scratch;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// A global allocator that forwards to [`System`] and counts allocations: per thread (for
/// [`allocations`]; the tests of one binary run in parallel and must not see each other's)
/// and across all threads (for [`allocations_per_call`], as Go's `allocs/op` is).
pub struct CountingAllocator;

thread_local! {
    /// Allocations made by this thread. Const-initialised and without a destructor, so
    /// reading or bumping it never allocates.
    static THREAD: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made by all threads.
static ALL: AtomicU64 = AtomicU64::new(0);

fn count() {
    // `try_with`: a thread being torn down may still free and allocate after its
    // thread-locals are gone; those allocations go uncounted rather than panicking.
    let _ = THREAD.try_with(|c| c.set(c.get() + 1));
    ALL.fetch_add(1, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only
// a const-initialised thread-local and an atomic, neither of which allocates.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns how many allocations (and reallocations) the current thread made
/// meanwhile. Only meaningful when [`CountingAllocator`] is the global allocator.
pub fn allocations(f: impl FnOnce()) -> usize {
    let before = THREAD.with(Cell::get);
    f();
    THREAD.with(Cell::get) - before
}

/// Allocations made by all threads while `f` runs `runs` times, divided by `runs`: the
/// benchmarks' `allocs/op`. Only meaningful when [`CountingAllocator`] is the global
/// allocator.
pub fn allocations_per_call(runs: u64, mut f: impl FnMut()) -> f64 {
    let before = ALL.load(Ordering::Relaxed);
    for _ in 0..runs {
        f();
    }
    (ALL.load(Ordering::Relaxed) - before) as f64 / runs as f64
}

#[cfg(test)]
mod tests {
    use std::hint::black_box;

    use super::*;

    #[global_allocator]
    static ALLOCATOR: CountingAllocator = CountingAllocator;

    #[test]
    fn counts_allocations_of_this_thread() {
        assert!(allocations(|| drop(black_box(String::from("x")))) >= 1);
        assert_eq!(allocations(|| drop(black_box(String::new()))), 0);
        let grown = allocations(|| {
            let mut v: Vec<u8> = black_box(Vec::with_capacity(1));
            v.extend_from_slice(black_box(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
            drop(black_box(v));
        });
        assert_eq!(grown, 2, "an allocation and a reallocation");
        // Another thread's allocations are not this thread's.
        let other = allocations(|| std::thread::scope(|s| drop(s.spawn(allocate_1000))));
        assert!(other < 1000, "{other} allocations counted on this thread");
    }

    fn allocate_1000() {
        for i in 0..1000u32 {
            drop(black_box(Box::new(i)));
        }
    }

    #[test]
    fn counts_all_threads_per_call() {
        assert!(allocations_per_call(10, || drop(black_box(vec![1u8]))) >= 1.0);
        let across = allocations_per_call(2, || {
            std::thread::scope(|s| drop(s.spawn(allocate_1000)));
        });
        assert!(across >= 1000.0, "{across} allocations per call");
    }
}
