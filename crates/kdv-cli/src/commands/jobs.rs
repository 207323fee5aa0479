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
use std::sync::mpsc;
use std::time::Duration;

use rayon::iter::{ParallelBridge, ParallelIterator};

use crate::input::{InputError, Job};
use crate::output::Report;

/// How often the consumer wakes up without a result (to move the progress bar).
const TICK: Duration = Duration::from_millis(100);

/// The default number of workers: the cores available.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs `work` on every job with up to `threads` workers and calls `emit(index, report)` for
/// each job in job order, on the calling thread; `tick` is called when no result came for a
/// while. Stops early (remaining jobs are skipped) when `emit` fails, and returns its error.
pub fn run_jobs<W, E, T, X>(
    jobs: &[Job],
    threads: usize,
    work: W,
    mut emit: E,
    mut tick: T,
) -> Result<(), X>
where
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
    let threads = threads.clamp(1, jobs.len().max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(crate::WORKER_STACK_BYTES)
        .thread_name(|i| format!("kdv-worker-{i}"))
        .build();
    let Ok(pool) = pool else {
        // No thread could start: this thread does all the work.
        for (i, job) in jobs.iter().enumerate() {
            emit(i, guarded(job))?;
        }
        return Ok(());
    };
    let cancelled = AtomicBool::new(false);
    let batch = batch_size(jobs.len(), threads);
    let (sender, receiver) = mpsc::channel::<(usize, Vec<Report>)>();
    std::thread::scope(|scope| {
        let (guarded, cancelled, pool) = (&guarded, &cancelled, &pool);
        scope.spawn(move || {
            pool.install(|| {
                jobs.chunks(batch).enumerate().par_bridge().for_each_with(
                    sender,
                    |sender, (i, run)| {
                        let mut reports = Vec::with_capacity(run.len());
                        for job in run {
                            if cancelled.load(Ordering::Relaxed) {
                                return;
                            }
                            reports.push(guarded(job));
                        }
                        let _ = sender.send((i * batch, reports));
                    },
                );
            });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        loop {
            if next == jobs.len() {
                break Ok(());
            }
            match receiver.recv_timeout(TICK) {
                Ok((first, reports)) => {
                    waiting.insert(first, reports);
                    while let Some(reports) = waiting.remove(&next) {
                        for report in reports {
                            if let Err(e) = emit(next, report) {
                                cancelled.store(true, Ordering::Relaxed);
                                return Err(e);
                            }
                            next += 1;
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => tick(),
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
        }
    })
}

/// How many consecutive jobs a worker takes at a time: one while there are few jobs per
/// worker (results stream out as each file is done), up to 16 for long runs, where handing
/// out and reporting files one by one costs a wake-up of the writing thread per file.
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
        run_jobs::<_, _, _, ()>(
            jobs,
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
        run_jobs::<_, _, _, ()>(
            &jobs,
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
    fn a_failing_emit_stops_the_run() {
        let jobs = jobs(1000);
        let mut emitted = 0;
        let result = run_jobs(
            &jobs,
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
