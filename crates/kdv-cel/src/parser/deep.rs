//! Running recursive algorithms on inputs whose nesting is bounded by a limit but may still be
//! too deep for the caller's stack: shallow inputs run inline, deep ones on a helper thread
//! with a stack sized for the nesting.

/// Nesting (in levels of the caller's recursion) that always runs on the current thread.
const INLINE_LEVELS: usize = 32;

/// Runs `f` inline when `levels` is small, else on a scoped thread whose stack holds
/// `levels * bytes_per_level` plus slack. `None` when no such thread could be started.
pub(crate) fn with_stack<T: Send>(
    levels: usize,
    bytes_per_level: usize,
    f: impl FnOnce() -> T + Send,
) -> Option<T> {
    if levels <= INLINE_LEVELS {
        return Some(f());
    }
    let size = levels
        .saturating_mul(bytes_per_level)
        .saturating_add(1 << 20)
        .min(1 << 30);
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("kdv-cel-deep".to_string())
            .stack_size(size)
            .spawn_scoped(scope, f)
            .ok()?;
        match handle.join() {
            Ok(v) => Some(v),
            // A panic in `f` is a bug; surface it as it would surface inline.
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_inline_and_on_a_thread() {
        assert_eq!(super::with_stack(1, 1, || 7), Some(7));
        let here = std::thread::current().id();
        let there = super::with_stack(1000, 1024, || std::thread::current().id()).unwrap();
        assert_ne!(here, there);
    }
}
