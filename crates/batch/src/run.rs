//! Solving many deals in parallel.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

use rayon::iter::{ParallelBridge, ParallelIterator};

use crate::row::{Job, Row};

/// What the workers report.
pub enum Event {
    /// A deal finished (or the solver failed its own check on it).
    Done(Result<Row, String>),
    /// The stop flag interrupted deal `seed`, and it was saved in the
    /// job's checkpoint directory ([`Job::checkpoints`]).
    Saved(u64),
    /// Every deal handed out has finished, or the run was stopped.
    End,
    /// The user interrupted the run (sent by a signal handler).
    Interrupted,
}

/// Solves `seeds` on `threads` threads, reporting each deal as it finishes,
/// then `End`. Deals are handed out in order as threads come free (rayon's
/// work stealing over the seed sequence), so rows finish roughly in seed
/// order and the report's prefix keeps up. Once `stop` is set no new deal
/// starts (and, if the job's options read it, the deals in progress stop
/// and are saved). Runs on its own thread; returns at once.
pub fn spawn(
    job: Arc<Job>,
    seeds: Vec<u64>,
    threads: usize,
    stop: &'static AtomicBool,
    tx: Sender<Event>,
) -> std::io::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("demon-solve-{i}"))
        .build()
        .map_err(std::io::Error::other)?;
    std::thread::Builder::new()
        .name("demon-batch".into())
        .spawn(move || {
            pool.install(|| {
                seeds
                    .into_iter()
                    .par_bridge()
                    .for_each_with(tx.clone(), |tx, seed| {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        // A panic in the solver is a failed deal, reported
                        // like a failed check, not a lost worker (which
                        // would leave the run waiting for it forever).
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            job.solve(seed)
                        }))
                        .unwrap_or_else(|p| {
                            let what = p
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| p.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "no message".into());
                            Err(format!("seed {seed}: the solver panicked: {what}"))
                        });
                        let _ = tx.send(match r {
                            Ok(Some(row)) => Event::Done(Ok(row)),
                            Ok(None) => Event::Saved(seed),
                            Err(e) => Event::Done(Err(e)),
                        });
                    })
            });
            let _ = tx.send(Event::End);
        })?;
    Ok(())
}
