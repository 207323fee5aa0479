//! The progress bar of long runs: on standard error, only when standard error is a terminal
//! and `--quiet` is not given, and only once a run has taken [`DELAY`] (short runs never
//! show one). It counts files (jobs; their total grows while the walk finds them) and says
//! how many documents and errors were found so far; it is cleared before the summary is
//! written. Output on standard output is written around it ([`Progress::suspend`]), so a
//! terminal shows both cleanly.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the bar appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// Whether a run may show a bar: standard error is a terminal and the user did not ask
/// for quiet.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// The bar of one run (hidden until it is due).
pub struct Progress {
    enabled: bool,
    start: Instant,
    total: u64,
    done: u64,
    documents: usize,
    errors: usize,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for `total` jobs; `enabled` from [`wanted`].
    pub fn new(total: usize, enabled: bool) -> Progress {
        Progress {
            enabled,
            start: Instant::now(),
            total: total as u64,
            done: 0,
            documents: 0,
            errors: 0,
            bar: None,
        }
    }

    /// Sets the number of jobs, which grows while the walk finds files.
    pub fn set_total(&mut self, total: usize) {
        self.total = total as u64;
        if let Some(bar) = &self.bar {
            bar.set_length(self.total);
        }
    }

    /// Whether the bar is on screen.
    pub fn visible(&self) -> bool {
        self.bar.is_some()
    }

    /// Counts one more job done, with the documents and errors it found.
    pub fn advance(&mut self, documents: usize, errors: usize) {
        self.done += 1;
        self.documents += documents;
        self.errors += errors;
        self.tick();
    }

    /// Shows the bar once it is due, and brings it up to date.
    pub fn tick(&mut self) {
        if self.bar.is_none() && self.enabled && due(self.start.elapsed(), self.done, self.total) {
            let bar = ProgressBar::with_draw_target(
                Some(self.total),
                ProgressDrawTarget::stderr_with_hz(10),
            )
            .with_elapsed(self.start.elapsed());
            // The bar takes the width left over, so the line fits the terminal.
            if let Ok(style) =
                ProgressStyle::with_template("{pos}/{len} files, {msg} {wide_bar} {elapsed}")
            {
                bar.set_style(style);
            }
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
            bar.set_message(format!(
                "{}, {}",
                super::plural(self.documents, "document", "documents"),
                super::plural(self.errors, "error", "errors")
            ));
        }
    }

    /// Runs `f` with the bar taken off the screen (to write to the same terminal).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A bar is due once the run has taken [`DELAY`] and has work left.
fn due(elapsed: Duration, done: u64, total: u64) -> bool {
    elapsed >= DELAY && done < total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_21_bar_only_for_long_runs_with_work_left() {
        assert!(!due(Duration::from_millis(300), 0, 10));
        assert!(due(Duration::from_millis(1500), 3, 10));
        assert!(!due(Duration::from_secs(5), 10, 10));
        // Not enabled (not a terminal, or --quiet): never shown.
        let mut p = Progress::new(10, false);
        p.start -= Duration::from_secs(5);
        p.advance(1, 0);
        assert!(!p.visible());
        assert!(!wanted(true));
    }
}
