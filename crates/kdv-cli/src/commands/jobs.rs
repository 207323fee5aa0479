//! The job runner of `kdv validate`: jobs (files) validated in parallel on a rayon pool, their
//! results handed on in input order as soon as they and every job before them are done.
//!
//! Workers take jobs in input order, a run of consecutive jobs at a time on long runs
//! (`batch_size`), so results arrive almost in order and only the few that overtake a slower
//! run wait in memory; a job's documents are dropped when the job is done,
//! so at most one file per worker is held in memory. A panic in one job (a bug) becomes an
//! input error for that job's file instead of ending the run.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::time::Duration;

use rayon::iter::{ParallelBridge, ParallelIterator};

use crate::input::{InputError, Job};
use crate::output::Report;

/// How often the consumer wakes up without a result (to move the progress bar).
const TICK: Duration = Duration::from_millis(100);

/// How far past the next job to report workers may take jobs: bounds the results waiting
/// for a slower job before them (or for the output) and how far a lazy source is read.
const WINDOW: usize = 1024;

/// The default number of workers: the cores available.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs `work` on every job with up to `threads` workers and calls `emit(index, report)` for
/// each job in job order, on the calling thread; `tick` is called when no result came for a
/// while. Stops early (remaining jobs are skipped) when `emit` fails, and returns its error.
///
/// `jobs` is pulled by the workers as they become free, a batch at a time, and never more
/// than [`WINDOW`] jobs past the next one to report: a lazy source (the directory walk,
/// [`crate::input::Planner`]) is read no further ahead, and memory holds the jobs in flight
/// and the results waiting for an earlier, slower job or for the output, whatever the
/// number of jobs.
pub fn run_jobs<J, W, E, T, X>(
    jobs: J,
    threads: usize,
    work: W,
    mut emit: E,
    mut tick: T,
) -> Result<(), X>
where
    J: IntoIterator<Item = Job>,
    J::IntoIter: Send,
    W: Fn(&Job) -> Report + Sync,
    E: FnMut(usize, Report) -> Result<(), X>,
    T: FnMut(),
{
    let guarded = |job: &Job| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(job))).unwrap_or_else(|_| {
            let mut report = Report::default();
            report.input_errors.push(InputError::file(
                job.new.display_name(),
                "internal error: validation panicked (please report this bug)",
            ));
            report
        })
    };
    // No more workers than jobs: read up to one job per worker first.
    let mut jobs = jobs.into_iter();
    let head: Vec<Job> = jobs.by_ref().take(threads.max(1)).collect();
    let threads = threads.clamp(1, head.len().max(1));
    let jobs = head.into_iter().chain(jobs);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(crate::WORKER_STACK_BYTES)
        .thread_name(|i| format!("kdv-worker-{i}"))
        .build();
    let Ok(pool) = pool else {
        // No thread could start: this thread does all the work.
        for (i, job) in jobs.enumerate() {
            emit(i, guarded(&job))?;
        }
        return Ok(());
    };
    let cancelled = AtomicBool::new(false);
    let reported = Reported::default();
    let batches = Batches {
        jobs,
        threads,
        handed_out: 0,
        cancelled: &cancelled,
        reported: &reported,
    };
    let (sender, receiver) = mpsc::channel::<(usize, Vec<Report>)>();
    std::thread::scope(|scope| {
        let (guarded, cancelled, pool) = (&guarded, &cancelled, &pool);
        scope.spawn(move || {
            pool.install(|| {
                batches
                    .par_bridge()
                    .for_each_with(sender, |sender, (first, run)| {
                        let mut reports = Vec::with_capacity(run.len());
                        for job in &run {
                            if cancelled.load(Ordering::Relaxed) {
                                return;
                            }
                            reports.push(guarded(job));
                        }
                        let _ = sender.send((first, reports));
                    });
            });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        loop {
            match receiver.recv_timeout(TICK) {
                Ok((first, reports)) => {
                    waiting.insert(first, reports);
                    while let Some(reports) = waiting.remove(&next) {
                        for report in reports {
                            if let Err(e) = emit(next, report) {
                                cancelled.store(true, Ordering::Relaxed);
                                reported.set(next);
                                return Err(e);
                            }
                            next += 1;
                        }
                    }
                    reported.set(next);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => tick(),
                // Every job is done (its results were received before).
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
        }
    })
}

/// How many jobs have been reported, for the workers waiting to take more.
#[derive(Default)]
struct Reported {
    count: Mutex<usize>,
    moved: Condvar,
}

impl Reported {
    fn set(&self, count: usize) {
        *self.count.lock().unwrap_or_else(|e| e.into_inner()) = count;
        self.moved.notify_all();
    }

    /// Waits until job `index` is within [`WINDOW`] of the next to report, or `cancelled`.
    fn wait_for(&self, index: usize, cancelled: &AtomicBool) {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        while index >= *count + WINDOW && !cancelled.load(Ordering::Relaxed) {
            // A timeout too, so a cancellation is seen even without a notification.
            count = self
                .moved
                .wait_timeout(count, TICK)
                .map_or_else(|e| e.into_inner().0, |r| r.0);
        }
    }
}

/// The jobs as runs of consecutive jobs with the index of their first, sized by
/// [`batch_size`] from the jobs handed out so far (the total is not known ahead), each
/// handed out once it is within [`WINDOW`] of the next job to report; none once the run is
/// cancelled, so a lazy source is not read further.
struct Batches<'c, I> {
    jobs: I,
    threads: usize,
    handed_out: usize,
    cancelled: &'c AtomicBool,
    reported: &'c Reported,
}

impl<I: Iterator<Item = Job>> Iterator for Batches<'_, I> {
    type Item = (usize, Vec<Job>);

    fn next(&mut self) -> Option<(usize, Vec<Job>)> {
        self.reported.wait_for(self.handed_out, self.cancelled);
        if self.cancelled.load(Ordering::Relaxed) {
            return None;
        }
        let size = batch_size(self.handed_out, self.threads);
        let run: Vec<Job> = self.jobs.by_ref().take(size).collect();
        if run.is_empty() {
            return None;
        }
        let first = self.handed_out;
        self.handed_out += run.len();
        Some((first, run))
    }
}

/// How many consecutive jobs a worker takes at a time, `jobs` being how many were handed
/// out so far: one while there are few per worker (results stream out as each file is
/// done), up to 16 on long runs, where handing out and reporting files one by one costs a
/// wake-up of the writing thread per file.
fn batch_size(jobs: usize, threads: usize) -> usize {
    (jobs / (threads.max(1) * 64)).clamp(1, 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Source;

    fn jobs(n: usize) -> Vec<Job> {
        (0..n)
            .map(|i| Job {
                new: Source::File(format!("f{i}.yaml").into()),
                old: None,
            })
            .collect()
    }

    /// A report whose one input error names the job, so order is visible.
    fn mark(job: &Job) -> Report {
        let mut report = Report::default();
        report
            .input_errors
            .push(InputError::file(job.new.display_name(), "seen"));
        report
    }

    fn run(jobs: &[Job], threads: usize, work: impl Fn(&Job) -> Report + Sync) -> Vec<String> {
        let mut seen = Vec::new();
        run_jobs::<_, _, _, _, ()>(
            jobs.to_vec(),
            threads,
            work,
            |i, report| {
                assert_eq!(i, seen.len());
                seen.extend(report.input_errors.into_iter().map(|e| e.file));
                Ok(())
            },
            || {},
        )
        .unwrap();
        seen
    }

    #[test]
    fn item_22_results_come_in_input_order_whatever_the_threads() {
        let jobs = jobs(200);
        let want: Vec<String> = (0..200).map(|i| format!("f{i}.yaml")).collect();
        for threads in [1, 2, 4, 16] {
            // Early jobs are slow so later ones overtake them.
            let got = run(&jobs, threads, |job| {
                if job.new.display_name().as_str() < "f2" {
                    std::thread::sleep(Duration::from_millis(2));
                }
                mark(job)
            });
            assert_eq!(got, want, "{threads} threads");
        }
        assert!(run(&[], 4, mark).is_empty());
    }

    #[test]
    fn long_runs_are_handed_out_in_batches_and_still_in_order() {
        assert_eq!(batch_size(10, 2), 1);
        assert_eq!(batch_size(1000, 2), 7);
        assert_eq!(batch_size(100_000, 2), 16);
        assert_eq!(batch_size(5, 0), 1);
        let jobs = jobs(3001);
        let want: Vec<String> = (0..3001).map(|i| format!("f{i}.yaml")).collect();
        for threads in [1, 2, 3] {
            let got = run(&jobs, threads, |job| {
                if job.new.display_name().ends_with("7.yaml") {
                    std::thread::sleep(Duration::from_micros(50));
                }
                mark(job)
            });
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn a_panicking_job_becomes_an_input_error() {
        let jobs = jobs(5);
        let mut messages = Vec::new();
        run_jobs::<_, _, _, _, ()>(
            jobs,
            2,
            |job| {
                if job.new.display_name() == "f3.yaml" {
                    panic!("bug");
                }
                Report::default()
            },
            |_, report| {
                messages.extend(report.input_errors.into_iter().map(|e| e.to_string()));
                Ok(())
            },
            || {},
        )
        .unwrap();
        assert_eq!(
            messages,
            ["f3.yaml: internal error: validation panicked (please report this bug)"]
        );
    }

    #[test]
    fn item_14_jobs_are_taken_no_further_than_the_window() {
        // A lazy source that counts the jobs taken from it; the output is slow, so the
        // workers would run ahead without the window.
        let taken = std::sync::atomic::AtomicUsize::new(0);
        let source = (0..4 * WINDOW).map(|i| {
            taken.fetch_add(1, Ordering::Relaxed);
            Job {
                new: Source::File(format!("f{i}.yaml").into()),
                old: None,
            }
        });
        let mut most_ahead = 0;
        run_jobs::<_, _, _, _, ()>(
            source,
            3,
            mark,
            |i, _| {
                if i % 256 == 0 {
                    std::thread::sleep(Duration::from_millis(20));
                }
                most_ahead = most_ahead.max(taken.load(Ordering::Relaxed) - i);
                Ok(())
            },
            || {},
        )
        .unwrap();
        assert_eq!(taken.load(Ordering::Relaxed), 4 * WINDOW);
        // The window, the batch being taken (at most 16 jobs) and the job being reported.
        assert!(most_ahead <= WINDOW + 16 + 1, "{most_ahead}");
    }

    #[test]
    fn a_failing_emit_stops_the_run() {
        let jobs = jobs(1000);
        let mut emitted = 0;
        let result = run_jobs(
            jobs,
            2,
            mark,
            |_, _| {
                emitted += 1;
                if emitted == 3 { Err("closed") } else { Ok(()) }
            },
            || {},
        );
        assert_eq!(result, Err("closed"));
        assert_eq!(emitted, 3);
    }
}
