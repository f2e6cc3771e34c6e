//! demon-solver: decides exactly whether a deal can be won.
//!
//! [`solve`] runs a depth-first search over positions with a transposition
//! table of canonical fingerprints ([`key`], [`table`]), the K+ view of the
//! stock, and provably safe foundation moves played without branching
//! ([`search`], [`moves`]). Every WON it reports comes with a move list that the
//! independent checker of `demon-core` has replayed to a win; nested
//! rollouts ([`rollout`]) look for wins beside the exhaustive search, on
//! the deals whose wins it finds late. [`reference`]
//! is the plain exhaustive search the fast one is tested against.

pub mod beam;
pub mod checkpoint;
pub mod class;
pub mod deadlock;
pub mod key;
pub mod layered;
pub mod moves;
pub mod nrpa;
pub mod probe;
pub mod reference;
pub mod relax;
pub mod rollout;
pub mod search;
pub mod shorten;
pub mod table;

pub use probe::{probe, Weights};
pub use search::{
    beams_run, nrpa_runs, probes_pay, restarts_apply, rollouts_pay, solve, solve_resumable,
    solve_saving, solve_with, table_bytes_per_position, tails_run, waste_bound_pays, Finder, Limit,
    Limits, Options, Outcome, Progress, ProgressBoard, SolveError, Stats, StopFlag, Verdict,
    CHECKPOINT_SEARCH_VERSION,
};
pub use shorten::shorten;
