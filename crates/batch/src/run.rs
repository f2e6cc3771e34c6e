//! Solving many deals in parallel.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, OnceLock};

use demon_solver::{Progress, ProgressBoard};

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

/// How far the deals in progress have got: one board for each worker
/// thread ([`boards`]), cleared when its deal ends.
static BOARDS: OnceLock<Vec<Progress>> = OnceLock::new();

/// Workers with a progress board: the first [`BOARDED`] of a run.
pub const BOARDED: usize = 256;

/// The progress boards of a run's first `threads` workers (at most
/// [`BOARDED`]): the i-th is worker i's, whose deal in progress shows its
/// nodes, positions and peak memory there, and a layered search its
/// level's progress (zero between deals).
pub fn boards(threads: usize) -> &'static [Progress] {
    let b = BOARDS.get_or_init(|| (0..BOARDED).map(|_| Progress::default()).collect());
    &b[..threads.min(BOARDED)]
}

fn clear(p: &Progress) {
    p.nodes.store(0, Ordering::Relaxed);
    p.stored.store(0, Ordering::Relaxed);
    p.peak_memory.store(0, Ordering::Relaxed);
    p.progress.store(0, Ordering::Relaxed);
    p.progress_of_win.store(0, Ordering::Relaxed);
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
                        let board =
                            rayon::current_thread_index().and_then(|i| boards(threads).get(i));
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            job.solve_showing(seed, board.map(ProgressBoard))
                        }))
                        .unwrap_or_else(|p| {
                            let what = p
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| p.downcast_ref::<String>().cloned())
                                .unwrap_or_else(|| "no message".into());
                            Err(format!("seed {seed}: the solver panicked: {what}"))
                        });
                        if let Some(b) = board {
                            clear(b);
                        }
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

#[cfg(test)]
mod tests {
    use super::{boards, spawn, Event};
    use crate::row::Job;
    use demon_core::{GameKind, Reading};
    use demon_solver::{Limits, Options};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// A worker's deal shows its progress on the worker's board while it
    /// runs, and the board is cleared when it ends.
    #[test]
    fn the_boards_follow_the_deals_in_progress() {
        let rules = GameKind::SuperiorCanfield
            .preset(Reading::Standard)
            .unwrap();
        let job = Arc::new(Job {
            game: GameKind::SuperiorCanfield,
            options: Options::for_rules(&rules),
            rules,
            limits: Limits {
                max_nodes: Some(2_000_000),
                max_memory: 256 << 20,
                timeout: None,
            },
            checkpoints: None,
            keep_unknown: false,
            numbering: Default::default(),
        });
        static STOP: AtomicBool = AtomicBool::new(false);
        let (tx, rx) = std::sync::mpsc::channel();
        // Seed 62 runs to its node limit: its board shows it on the way.
        spawn(job, vec![62], 1, &STOP, tx).unwrap();
        let mut seen = 0;
        let row = loop {
            match rx.recv_timeout(std::time::Duration::from_millis(20)) {
                Ok(Event::Done(r)) => break r.unwrap(),
                Ok(_) => {}
                Err(_) => seen = seen.max(boards(1)[0].nodes.load(Ordering::Relaxed)),
            }
        };
        assert_eq!(row.nodes, 2_000_000);
        assert!(seen > 0 && seen <= 2_000_000, "{seen}");
        assert!(matches!(rx.recv().unwrap(), Event::End));
        assert_eq!(boards(1)[0].nodes.load(Ordering::Relaxed), 0);
        assert_eq!(boards(1)[0].stored.load(Ordering::Relaxed), 0);
    }
}
