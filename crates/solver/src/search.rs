//! The depth-first search.
//!
//! Reachability of a won position is what decides a deal, so a plain
//! visited set is sound: the table stores a position when the search
//! first enters it, and every move listed at a stored position is
//! explored (or left out by an argued pruning) before the search may say
//! LOST, so at the end the stored positions are closed under moves and
//! hold every position the deal reaches. A position met again is skipped:
//! whatever it reaches is explored from where it was first entered. Each
//! path of the search makes and undoes moves on one `State` (no copying)
//! and keeps its frames on an explicit stack, so deep games cannot
//! overflow the thread's stack.
//!
//! The argument does not depend on the order of exploration, which is
//! what lets several paths ("cursors") share one table and take turns
//! ([`Searcher::rotate`]): a plain depth-first search can spend millions
//! of positions under one early wrong move of a won deal.
//!
//! These things make it fast, each argued where it is implemented:
//! - K+ stock: instead of "turn the stock", every card the stock can bring
//!   to the waste top is offered directly (turning the stock commutes with
//!   every move but a waste play, so a winning line can always turn it just
//!   before it plays from the waste);
//! - canonical fingerprints: permuted tableaux and moves into one of several
//!   empty spaces are one position ([`crate::key`]);
//! - safe foundation moves, played without branching ([`crate::moves::safe_to_found`]).
//! - tableau classes: positions joined by reversible tableau moves are
//!   stored once and offered every other move of every member
//!   ([`crate::class`]);
//! - sibling sleep sets ([`Searcher::sleep`]);
//! - with unlimited redeals: a fresh talon state whose position is stored
//!   in another chain of the talon's levels is dominated by it
//!   ([`crate::key::fresh_cover`]), and a position met again at a lower
//!   level of its chain is searched again with only the K+ plays that the
//!   lower level adds ([`crate::key::new_reach`]). On Canfield under
//!   Solvitaire's rules (seeds 1-1,000, no rollouts) the two took the lost
//!   deals from 431.1 s and 315.4 M nodes to 369.3 s and 252.9 M nodes.
//!
//! The moves it offers, and their order, are [`crate::moves`]'s; the
//! best-first probes it pauses for are [`crate::probe`]'s.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use demon_core::replay::replay;
use demon_core::{Card, Game, Layout, Loc, Move, Rules, State, Undo};
use smallvec::SmallVec;

use crate::beam::Beams;
use crate::class::{self, ClassFinder, Form, CLASS_CAP};
use crate::key::{fingerprint_level, fresh_cover, new_reach};
use crate::moves::{
    generate, generate_onto, independent, play_safe_moves, touches_tableau_only, Gen, ReachMemo,
    SMove,
};
use crate::nrpa::NrpaStream;
use crate::probe::{best_first, Weights};
use crate::rollout::Rollouts;
use crate::table::{Alone, FingerprintSet, Insert, Quick, SharedTable, Ticket};

/// What may stop a search before it decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Positions to expand at most; `None` for no limit.
    pub max_nodes: Option<u64>,
    /// Bytes for the transposition table and the search path together.
    pub max_memory: usize,
    /// Wall-clock time at most.
    pub timeout: Option<Duration>,
}

impl Default for Limits {
    /// No node or time limit; 4 GiB of memory (the machine has 24 GiB and
    /// two cores, so two solves side by side stay well inside it).
    fn default() -> Limits {
        Limits {
            max_nodes: None,
            max_memory: 4 << 30,
            timeout: None,
        }
    }
}

/// The limit that stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Nodes(u64),
    Memory(usize),
    Time(Duration),
    /// [`Options::stop`] was raised.
    Interrupted,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "node limit ({n} nodes)"),
            Limit::Memory(b) => {
                // In the largest unit that gives it whole (1500K stays
                // 1500 KiB, not 1 MiB).
                let (n, unit) = [(30, "GiB"), (20, "MiB"), (10, "KiB")]
                    .into_iter()
                    .find(|&(s, _)| *b != 0 && b.trailing_zeros() >= s)
                    .map_or((*b, "bytes"), |(s, u)| (b >> s, u));
                write!(f, "memory limit ({n} {unit})")
            }
            Limit::Time(d) => write!(f, "time limit ({:.1} s)", d.as_secs_f64()),
            Limit::Interrupted => write!(f, "interruption"),
        }
    }
}

#[cfg(test)]
mod limit_tests {
    use super::Limit;

    #[test]
    fn a_memory_limit_is_shown_whole() {
        let shown = |b: usize| Limit::Memory(b).to_string();
        assert_eq!(shown(16 << 30), "memory limit (16 GiB)");
        assert_eq!(shown(1 << 20), "memory limit (1 MiB)");
        assert_eq!(shown(3 << 29), "memory limit (1536 MiB)");
        assert_eq!(shown(1_500 << 10), "memory limit (1500 KiB)");
        assert_eq!(shown(1_000_000), "memory limit (1000000 bytes)");
    }
}

/// The three-way answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won; the moves (checked by the independent checker) win the deal.
    Won(Vec<Move>),
    /// Every reachable position was explored: the deal cannot be won.
    Lost,
    /// A limit stopped the search first.
    Unknown(Limit),
}

/// Search statistics. Plain numbers, so per-deal figures add up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions expanded (moves played in the search).
    pub nodes: u64,
    /// Positions stored in the transposition table.
    pub stored: u64,
    /// Positions found already stored.
    pub hits: u64,
    /// Of `hits`, fresh talon states found dominated by the same position
    /// stored in another chain of the talon's levels
    /// ([`crate::key::fresh_cover`]).
    pub covered: u64,
    /// K+ plays left out of positions searched before at a higher level
    /// of their talon chain ([`crate::key::new_reach`]): the stored
    /// position's search has the same plays, with the same results.
    pub known_plays: u64,
    /// Safe foundation moves played without branching.
    pub auto_moves: u64,
    /// Moves left out by the sibling sleep sets.
    pub slept: u64,
    /// Positions merged into stored ones by tableau classes
    /// ([`crate::class`]): a class of n members adds n - 1.
    pub merged: u64,
    /// Cursors split off ([`Options::cursors`]).
    pub splits: u64,
    /// Cursors handed to another thread that was out of work
    /// ([`Options::threads`]).
    pub handed: u64,
    /// Positions proved lost by [`crate::deadlock::dead`] (stored, and
    /// counted in `stored` too).
    pub dead: u64,
    /// Stored positions forgotten to store new ones, the table being full
    /// ([`Options::replace_when_full`]); `stored` counts the positions
    /// held at the end.
    pub replaced: u64,
    /// Times the table shrank to give a deep search path room
    /// ([`Searcher::shrink_table`]; its forgotten positions are in
    /// `replaced`).
    pub shrinks: u64,
    /// Moves played by the nested rollouts ([`crate::rollout`]) and the
    /// searches beside them (beams, NRPA, tail searches), counted in
    /// `nodes` too.
    pub rollout_nodes: u64,
    /// Positions expanded by the search of the relaxation
    /// ([`Options::relax`]), counted in `nodes` too.
    pub relaxed_nodes: u64,
    /// Times the layered search's full table was rebuilt from the
    /// positions of the levels not finished, forgetting the finished ones
    /// ([`crate::layered`]).
    pub rebuilds: u64,
    /// How far a layered search left unknown had got
    /// ([`crate::layered::progress_reached`]): the progress of the lowest
    /// level not finished, counted from the deal's (a card put on a
    /// foundation counts one, and so does a card taken out of the reserve
    /// or the stock); 0 otherwise.
    pub progress: u32,
    /// The same count for a win (every card up, the reserve and the stock
    /// empty), where `progress` is set; 0 otherwise.
    pub progress_of_win: u32,
    /// The most cards on the foundations (pre-placed ones included) in
    /// any position the depth-first search entered, at the end of a
    /// playout of the rollouts or of the NRPA searches, or in a position a
    /// beam generated: how near an undecided search came to a win. (A
    /// best-first probe's positions are left out.) The layered search
    /// counts every position it expands, and keeps the count in its save.
    /// Every card for a won search (whichever search found it). A
    /// depth-first search continued from a save counts the positions of
    /// its own sitting and of the saved paths it plays again, not the
    /// saved table's others (the save keeps no position's cards).
    pub most_up: u32,
    /// Peak bytes of table and paths.
    pub peak_memory: usize,
    /// Bytes the depth-first search's transposition table held at the end
    /// (its buckets, used or not, and its recent cache), beside the
    /// `stored` positions it held then: their ratio is what a stored
    /// position costs (16-byte entries; about 17 bytes in a full table, up
    /// to twice that just after it doubled). 0 for the layered search.
    pub table_bytes: usize,
    /// Deepest path, in search moves.
    pub max_depth: usize,
    pub elapsed: Duration,
    /// What found the win, for a won deal; for a lost one, `Relaxed` when
    /// the relaxation proved it ([`Options::relax`]); `None` otherwise.
    pub found_by: Option<Finder>,
}

/// The part of the solver that found a win: the exhaustive search
/// (depth first or layered), or one of the searches for wins beside it.
/// Only what found it: every win is replayed by the independent checker
/// alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finder {
    /// The exhaustive search.
    Search,
    /// A best-first probe ([`crate::probe`]).
    Probe,
    /// The nested rollouts' ladder of levels ([`crate::rollout`]).
    Ladder,
    /// The rollouts' restarts ([`Rollouts::restarts`]).
    Restarts,
    /// A beam search ([`crate::beam`]).
    Beams,
    /// An NRPA search ([`crate::nrpa`]).
    Nrpa,
    /// A tail search near the end of an NRPA search's or a restart's line
    /// ([`tail_search`]).
    Tail,
    /// The depth-first search of the deal under a relaxation of its rules
    /// ([`crate::relax`]): a loss proved there, or a win found there whose
    /// every move is legal under the deal's own rules.
    Relaxed,
}

impl Finder {
    /// Its name in reports: `search`, `probe`, `ladder`, `restarts`,
    /// `beams`, `nrpa`, `tail` or `relaxed`.
    pub fn name(self) -> &'static str {
        match self {
            Finder::Search => "search",
            Finder::Probe => "probe",
            Finder::Ladder => "ladder",
            Finder::Restarts => "restarts",
            Finder::Beams => "beams",
            Finder::Nrpa => "nrpa",
            Finder::Tail => "tail",
            Finder::Relaxed => "relaxed",
        }
    }
}

impl Stats {
    /// Adds the counts of another thread of the same search ([`Crew`]):
    /// not its positions stored (one table) nor its time (the same time).
    fn absorb(&mut self, o: &Stats) {
        let (stored, elapsed) = (self.stored, self.elapsed);
        *self += *o;
        self.stored = stored;
        self.elapsed = elapsed;
    }
}

impl Stats {
    /// How far a layered search left unknown had got, and how far a win
    /// is ([`Stats::progress`], [`Stats::progress_of_win`]); `None` where
    /// they are not set.
    pub fn layered_progress(&self) -> Option<(u32, u32)> {
        (self.progress_of_win > 0).then_some((self.progress, self.progress_of_win))
    }

    /// What a stored position cost: the table's bytes over its positions
    /// ([`table_bytes_per_position`]).
    pub fn table_bytes_per_position(&self) -> Option<f64> {
        table_bytes_per_position(self.table_bytes as u64, self.stored)
    }
}

/// A depth-first table's bytes over the positions it held
/// ([`Stats::table_bytes`] over [`Stats::stored`]); `None` where either is
/// 0 (a layered search, or a report that does not record the table).
pub fn table_bytes_per_position(table_bytes: u64, stored: u64) -> Option<f64> {
    (table_bytes > 0 && stored > 0).then(|| table_bytes as f64 / stored as f64)
}

/// Raises `most` ([`Stats::most_up`]) to the cards on the foundations of
/// `st`, a position some search reached.
#[inline]
pub(crate) fn note_most_up(most: &mut u32, g: &Game, st: &State) {
    *most = (*most).max(g.foundation_cards(st) as u32);
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.stored += o.stored;
        self.hits += o.hits;
        self.covered += o.covered;
        self.known_plays += o.known_plays;
        self.auto_moves += o.auto_moves;
        self.slept += o.slept;
        self.merged += o.merged;
        self.splits += o.splits;
        self.handed += o.handed;
        self.dead += o.dead;
        self.replaced += o.replaced;
        self.shrinks += o.shrinks;
        self.rollout_nodes += o.rollout_nodes;
        self.relaxed_nodes += o.relaxed_nodes;
        self.rebuilds += o.rebuilds;
        self.progress = self.progress.max(o.progress);
        self.progress_of_win = self.progress_of_win.max(o.progress_of_win);
        self.most_up = self.most_up.max(o.most_up);
        self.peak_memory = self.peak_memory.max(o.peak_memory);
        self.table_bytes = self.table_bytes.max(o.table_bytes);
        self.max_depth = self.max_depth.max(o.max_depth);
        self.elapsed += o.elapsed;
        self.found_by = self.found_by.or(o.found_by);
    }
}

/// A search result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub verdict: Verdict,
    pub stats: Stats,
}

impl Outcome {
    /// Replaces a won line by the line a person would follow: the
    /// search's detours removed by [`crate::shorten`], each shortening
    /// replayed to a win. What `demon solve` prints and `demon batch`
    /// counts.
    pub fn shorten_line(&mut self, rules: &Rules, layout: &Layout) {
        if let Verdict::Won(m) = &mut self.verdict {
            *m = crate::shorten(rules, layout, m);
        }
    }
}

/// A failure of the solver itself: never expected, always reported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error(transparent)]
    Layout(#[from] demon_core::LayoutError),
    #[error("internal error: the solver's winning line failed the independent check: {0}")]
    BadSolution(String),
    /// A checkpoint could not be read, written or used ([`solve_resumable`]).
    #[error("checkpoint: {0}")]
    Checkpoint(String),
    /// The layered search's files (its levels' positions and its log of
    /// moves) could not be written or read ([`crate::layered`]).
    #[error("the layered search's files (in the temporary directory, TMPDIR, or the directory it is saved in): {0}")]
    Log(String),
    /// The options asked for cannot search these rules.
    #[error("{0}")]
    Unsupported(String),
}

/// How the search runs (as opposed to what stops it, [`Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Store each tableau class once ([`crate::class`]; on by default).
    /// On Canfield with runs moving in any part it stores 2-3 times fewer
    /// positions and takes less time; off, the search stores every
    /// position on its own, for comparison.
    pub tableau_classes: bool,
    /// The most search paths (cursors) explored side by side, taking
    /// turns ([`Searcher::rotate`]); 1 is a single depth-first path. The
    /// verdict does not depend on it (only which win is found, and when).
    /// On the 96 Superior Canfield deals of seeds 1-1,000 that one path
    /// left unknown at 30 M nodes, 4,096 cursors of 256 nodes won 72 at
    /// 2 M nodes each when every turn split (1,024 of 256: 64; 256 of 256:
    /// 57; 1,024 of 1,024: 63; 64 of 256: 46), 67 with the defaults.
    pub cursors: usize,
    /// Nodes a cursor expands in one turn.
    pub slice: u64,
    /// A cursor splits ([`Searcher::split`]) only once the move it is
    /// exploring at its shallowest frame with moves left has cost this
    /// many of its nodes, doubled for each split it has made already
    /// (with `split_doubling`): a deal one path decides quickly is searched
    /// as by one path, and a cursor stuck in a large subtree hands on its
    /// alternatives at a slowing rate. Unknown deals of seeds 1-200 at
    /// 250,000 nodes (Superior, Selective, Rainbow, Double Easthaven,
    /// Canfield, American Toad): one path 41, 37, 98, 183, 28, 192;
    /// splitting every turn 14, 1, 109, 198, 22, 187; after 1,024 nodes,
    /// doubling, 21, 0, 105, 192, 15, 189. No setting wins everywhere:
    /// Double Easthaven seed 2, won by one path in 18,648 nodes, takes
    /// 4,448,766 with the defaults.
    pub split_after: u64,
    pub split_doubling: bool,
    /// Stop at positions [`crate::deadlock::dead`] proves lost (on by
    /// default); off, for comparison.
    pub deadlock: bool,
    /// With `deadlock`, also bound the piles the last pass's waste needs
    /// ([`crate::deadlock::overfull`]): fewer positions, but more time per
    /// position where the waste is deep. Off in [`Options::default`]; on
    /// in [`Options::for_rules`] where it pays ([`waste_bound_pays`]).
    pub waste_bound: bool,
    /// Run nested rollouts ([`crate::rollout`]) at the search's pauses,
    /// beside its best-first probes: they look for a win only, and take
    /// about half a long search's nodes (nearly all of them with two decks:
    /// `TWO_DECK_SHARE` in `search.rs`) until they have run out of levels
    /// (on by default; off for comparison, or to spend every node on a
    /// deal believed lost). They hold a sixteenth of the memory limit (at
    /// most 64 MiB, none below 32 MiB), set aside from the start.
    pub rollouts: bool,
    /// With the rollouts, in two-deck games ([`restarts_apply`]), also run
    /// beam searches ([`crate::beam`]) beside them, with a quarter of each
    /// rollout phase from the third pause on (three quarters without the
    /// NRPA searches, [`Options::nrpa`]; on by default).
    /// They hold an eighth of the memory limit (at most 1 GiB, none below
    /// 128 MiB), set aside from the start.
    pub beams: bool,
    /// With the rollouts, in two-deck games ([`restarts_apply`]), also run
    /// NRPA searches ([`crate::nrpa`]) beside them, with half of each
    /// rollout phase from the third pause on (on by default). They hold
    /// [`crate::nrpa::BYTES`] of the rollouts' memory.
    pub nrpa: bool,
    /// With the NRPA searches, also search depth first near the end of
    /// each one's best line and, from the pause at 1.6 M nodes on, of each
    /// new best line of the restarts ([`tail_search`], at most
    /// [`TAIL_NODES`] nodes a line, counted in those searches' share of
    /// the nodes, with [`TAIL_BYTES`] set aside; on by default; never
    /// without the NRPA searches, [`tails_run`]).
    pub tails: bool,
    /// The tail searches' nodes a line ([`TAIL_NODES`] when `None`), for
    /// experiments.
    #[doc(hidden)]
    pub tail_nodes: Option<u64>,
    /// The seed of the random searches beside the exhaustive one, where
    /// they run: the NRPA searches' random stream ([`crate::nrpa`]) and
    /// the noises of the restarts ([`crate::rollout::first_restart`]).
    /// 0 by default; another seed tries other random searches on the same
    /// deal (the ladder, the beams and the probes do not depend on it), so
    /// a deal left unknown can be retried with new ones. A resumed search
    /// draws its sitting's own from this seed and the nodes already
    /// searched ([`sitting_seed`]). The verdicts of decided deals do not
    /// depend on it.
    pub rollout_seed: u64,
    /// What the end of a playout of the rollouts, the restarts and the
    /// NRPA searches is worth, as weights of the probes' terms
    /// ([`crate::rollout::playout_weights`] by default). For experiments:
    /// another value orders the same searches' lines otherwise, so it
    /// tries other lines on a deal, as another [`Options::rollout_seed`]
    /// does for the random searches; the ladder's and restarts' lines
    /// change too. The verdicts of decided deals do not depend on it.
    pub playout: Weights,
    /// Pause the search now and then for a best-first probe that looks
    /// for a win ([`crate::probe`], [`drive`]); on by default except where
    /// [`probes_pay`] says they do not pay.
    pub probes: bool,
    /// Where the rules have a relaxation ([`crate::relax::relaxation`]),
    /// also search the deal under it, depth first, taking turns with the
    /// search at its pauses from [`Options::relax_from`] nodes on: each
    /// turn brings its nodes up to half of the others' ([`RELAX_SHARE`]),
    /// in [`RELAX_MEMORY`] of the memory, set aside from the start. LOST
    /// under the relaxation is LOST; a win there whose every move is legal
    /// under the rules is a win; any other win, or its table filling, ends
    /// it. On by default; not in the layered search.
    pub relax: bool,
    /// The node count of the first pause at which the relaxation's search
    /// runs ([`RELAX_FROM`] by default); 0 also runs it before the search
    /// starts, for [`FIRST_PAUSE`] / 2 nodes (tests, on small deals).
    #[doc(hidden)]
    pub relax_from: u64,
    /// When the table is full, forget finished positions to store new
    /// ones instead of stopping UNKNOWN (off by default). The verdict stays
    /// exact; a forgotten position is searched again when met again, so
    /// the search may take far longer (see [`Searcher::open`]). When a
    /// deep search path needs memory the table holds, the table shrinks,
    /// forgetting positions, to give it room ([`Searcher::shrink_table`]).
    pub replace_when_full: bool,
    /// Search level by level of progress instead of depth first
    /// ([`crate::layered`]; off by default): it holds only the positions
    /// of the levels not yet finished, so it can prove deals lost that
    /// need more positions than the table holds, but finds wins late. It
    /// runs alone (no rollouts, probes, beams or threads), with tableau
    /// classes as [`Options::tableau_classes`] says.
    pub layered: bool,
    /// For tests of the layered search: rebuild its table every this many
    /// positions stored, forgetting every level waiting, whether the
    /// table is full or not, so that small deals take the path of levels
    /// forgotten and checked again.
    #[doc(hidden)]
    pub layered_rebuild_every: Option<u64>,
    /// For tests of the layered search's saves: save every this many
    /// nodes instead of every ten minutes
    /// ([`crate::layered::solve_layered_saving`]).
    #[doc(hidden)]
    pub layered_save_every: Option<u64>,
    /// The layered search keeps no log of moves (on disk, about 6 bytes a
    /// position stored, never cut): a win it finds is found again, from
    /// the deal, by a search that keeps one
    /// ([`crate::layered::solve_layered_saving`]). Given to a search saved
    /// with a log, it drops the log.
    pub layered_no_log: bool,
    /// Threads that search the deal together, sharing one table
    /// ([`Crew`]); 1 (the default) is the search of one thread. With more,
    /// which positions are searched, and when, depends on how the threads
    /// run, so node counts differ from run to run; the verdict does not.
    /// A search that forgets ([`Options::replace_when_full`]), saves or
    /// resumes runs on one thread whatever this says.
    pub threads: usize,
    /// Bytes for the table at most, if less than the memory limit leaves
    /// it: for tests, so that a small table fills on small deals. (Below
    /// 256 KiB the table compares fewer than 128 bits: [`crate::table`].)
    #[doc(hidden)]
    pub table_bytes: Option<usize>,
    /// A flag that stops the search (UNKNOWN, [`Limit::Interrupted`]) once
    /// set, as a person's Ctrl-C does: read as often as the clock.
    pub stop: Option<StopFlag>,
    /// Where the search shows how far it has got, as often as it reads the
    /// clock and after each rollout phase and probe (for a progress line).
    pub progress: Option<ProgressBoard>,
}

/// A flag that asks a search to stop ([`Options::stop`]). Options are
/// compared by the flag they point to.
#[derive(Clone, Copy, Debug)]
pub struct StopFlag(pub &'static std::sync::atomic::AtomicBool);

impl StopFlag {
    pub(crate) fn raised(self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// How far a search has got ([`Options::progress`]): its nodes (as the
/// node limit counts them), the positions its table holds and its peak
/// memory, as of its last look at the clock (every few thousand nodes).
/// A layered search also gives the progress of the level under way and
/// that of a win, as [`Stats::progress`] and [`Stats::progress_of_win`]
/// count them, set as each level starts; both stay 0 otherwise.
#[derive(Debug, Default)]
pub struct Progress {
    pub nodes: AtomicU64,
    pub stored: AtomicU64,
    pub peak_memory: AtomicU64,
    pub progress: AtomicU32,
    pub progress_of_win: AtomicU32,
}

/// The [`Progress`] a search updates. Options are compared by the board
/// they point to.
#[derive(Clone, Copy, Debug)]
pub struct ProgressBoard(pub &'static Progress);

impl PartialEq for ProgressBoard {
    fn eq(&self, o: &ProgressBoard) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}

impl Eq for ProgressBoard {}

impl PartialEq for StopFlag {
    fn eq(&self, o: &StopFlag) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}

impl Eq for StopFlag {}

/// Whether nested rollouts ([`Options::rollouts`]) are worth running on a
/// game by default (the CLI's default; [`Options::default`] keeps them on
/// for every game): not with one deck and unlimited redeals (Canfield,
/// Superior and Selective Canfield), where the exhaustive search decides
/// nearly every deal and finds the late wins itself. Measured (one job):
/// Canfield under Solvitaire's rules, seeds 1-1,000 with no node limit,
/// the same 744 won and 256 lost either way, in 440.3 s without rollouts
/// against 508.9 s with them (won deals 9.2 s against 11.0 s, lost ones
/// 431.1 s against 497.8 s); Superior Canfield seeds 1-1,000 at 2 M nodes,
/// 940 won, 38 lost and 22 unknown without, against 938, 36 and 26 with
/// them (`results/2026-11-26-superior-rollouts-1-1000`); seeds 1-200 at
/// 2 M nodes, Superior 188 won, 9 lost and 3 unknown and Selective 198 won
/// and 2 lost either way. Everywhere else they win deals the search does
/// not (`results/2026-11-26-rollouts`: American Toad, Double Easthaven,
/// Rainbow), and they stay on; on Chameleon (PySolFC's rules, seeds
/// 1-100 at 2 M nodes) they cost 5 of the 27 deals the search alone
/// proves lost, which larger limits have not yet weighed.
pub fn rollouts_pay(rules: &Rules) -> bool {
    !one_deck_unlimited(rules)
}

/// Whether the best-first probes ([`Options::probes`]) are worth their
/// nodes by default: not where the rollouts are not either (one deck,
/// unlimited redeals), as there the depth-first search finds the wins as
/// soon, and a probe's nodes are lost on a lost deal (a fifth of a lost
/// deal's nodes at 1.6 M, an eighth at 6.4 M). Measured on this rule
/// (`results/2026-11-27-probes`), the same verdicts deal by deal either
/// way: Canfield under Solvitaire's rules, seeds 1-1,000 with no node
/// limit, 744 won in 6.12 M nodes with probes against 5.76 M without, 256
/// lost in 252.9 M against 238.1 M; Superior Canfield seeds 1-1,000 at
/// 2 M nodes, 944 won, 38 lost and 18 unknown either way, the won in
/// 30.8 M nodes against 27.5 M; Selective Canfield seeds 1-200, no deal
/// long enough to probe. Elsewhere they stay on: they were brought in for
/// the deals one depth-first path holds up.
pub fn probes_pay(rules: &Rules) -> bool {
    !one_deck_unlimited(rules)
}

/// Whether the stack bound on the last pass's waste ([`Options::waste_bound`])
/// is worth its time by default: where the stock is never turned over
/// (no redeal), so that the whole game is the last pass. There the waste
/// is a stack from the first turn, and a card deep in it that cannot
/// leave ends the deal: Chameleon 235, lost in 240,765,636 nodes without
/// the bound, is lost in 12,835 with it, and Chameleon seeds 1-1,000 at
/// 2 M nodes go from 971 lost and 29 unknown in 60.9 s to 987 lost, 1
/// won and 12 unknown in 32.2 s (`results/2026-12-07-chameleon-waste-bound`).
/// PySolFC's one-pass Rainbow and Chameleon (draw 1) decide more deals
/// at a node limit with it too (seeds 1-200 at 2 M nodes: 124 against
/// 115, and 83 against 40), for about twice the time. Where redeals are
/// left, the waste is a stack only in the last pass, and the bound costs
/// time for little: Rainbow seeds 1-200, one deal more decided in twice
/// the time; American Toad 1-50, the same verdicts in nearly three times
/// the time; Storehouse and Variegated Canfield, the same verdicts. It
/// stays an option there.
pub fn waste_bound_pays(rules: &Rules) -> bool {
    use demon_core::rules::{Redeals, Stock};
    matches!(
        rules.stock,
        Stock::ToWaste {
            redeals: Redeals::Limited(0),
            ..
        }
    )
}

/// One deck, and unlimited redeals: Canfield, Superior and Selective
/// Canfield under their standard rules.
fn one_deck_unlimited(rules: &Rules) -> bool {
    use demon_core::rules::{Redeals, Stock};
    let unlimited = matches!(
        rules.stock,
        Stock::ToWaste {
            redeals: Redeals::Unlimited,
            ..
        }
    );
    rules.decks == 1 && unlimited
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tableau_classes: true,
            cursors: 4096,
            slice: 256,
            split_after: 1024,
            split_doubling: true,
            deadlock: true,
            waste_bound: false,
            rollouts: true,
            beams: true,
            nrpa: true,
            tails: true,
            tail_nodes: None,
            rollout_seed: 0,
            playout: crate::rollout::playout_weights(),
            probes: true,
            relax: true,
            relax_from: RELAX_FROM,
            replace_when_full: false,
            layered: false,
            layered_rebuild_every: None,
            layered_save_every: None,
            layered_no_log: false,
            threads: 1,
            table_bytes: None,
            stop: None,
            progress: None,
        }
    }
}

impl Options {
    /// The defaults for a game's rules: [`Options::default`] with the
    /// rollouts and the best-first probes only where they pay
    /// ([`rollouts_pay`], [`probes_pay`]), as `demon solve` and `demon
    /// batch` search.
    pub fn for_rules(rules: &Rules) -> Options {
        Options {
            rollouts: rollouts_pay(rules),
            beams: true,
            nrpa: true,
            probes: probes_pay(rules),
            waste_bound: waste_bound_pays(rules),
            ..Options::default()
        }
    }
}

/// Solves a deal: builds the game, searches, and replays any win with the
/// independent checker before reporting it.
pub fn solve(rules: &Rules, layout: &Layout, limits: &Limits) -> Result<Outcome, SolveError> {
    solve_with(rules, layout, limits, &Options::default())
}

/// [`solve`] with search options.
pub fn solve_with(
    rules: &Rules,
    layout: &Layout,
    limits: &Limits,
    options: &Options,
) -> Result<Outcome, SolveError> {
    solve_resumable(rules, layout, limits, options, None, None)
}

/// [`solve_with`], starting from the progress a stopped search saved
/// (`resume`), and saving its own when a limit stops it (`save`, written
/// only when the verdict is UNKNOWN). Node counts and the search time
/// (`stats.elapsed`) carry on from the saved ones, and `limits.max_nodes`
/// counts the saved nodes too; `limits.timeout` is for this sitting. Any number of search
/// paths (`options.cursors`) may save, and any number may resume.
///
/// What is saved, after a short header (the nodes and the search time so
/// far, the number of positions): every stored position, as its full
/// fingerprint and level; then what was left of the running cursor's
/// turn, and every cursor's path: the moves from the deal to its first
/// frame, the cursor's node count and splits, and each frame as the
/// moves it listed, how many of them it had explored, which of those
/// may put later ones to sleep (`Frame::clean`) and its node counts. The
/// caller says which deal, rules and options it belongs to. A resumed
/// search loads the positions, then rebuilds each path by playing its
/// moves again, each frame listing what it listed, as far explored
/// ([`Searcher::rebuild`]), and goes on from there: as the search without
/// the stop would have, turns and splits included (the checkpoint tests
/// check that a lost deal ends with the same positions stored; nodes may
/// differ, as a best-first probe cut short by a sitting's limit is not
/// run again).
///
/// Why the verdict stays exact. A stored position is *open* while a frame
/// of some path holds it, and *closed* once its frame has left the path
/// with every move listed there explored (or left out by an argued
/// pruning, or handed to another cursor by a split, [`Searcher::split`],
/// whose first frame then holds it). The module's argument needs that at
/// the end every move listed at a stored position has been explored; for
/// a closed position that is done, and every open one is held again by a
/// rebuilt frame, with the moves it had yet to explore (the ones before
/// were explored by the saved search; the one it was playing when a
/// limit stopped it, never entered, is saved among those to explore). So
/// the saved and the resumed search together are one search of this
/// module. The sleep sets rest on the same induction (a slept move's
/// position is reached from a position entered earlier, closed or open,
/// whose moves are all explored, see [`Searcher::sleep`]); a rebuilt
/// frame keeps the moves left out of its list when it was entered and
/// its `clean` bits. The file ends with a checksum of its header's
/// numbers, positions and paths: a damaged file is refused, as a changed
/// level could claim more than was explored, and a rebuilt frame must
/// find each saved move among the moves it lists.
///
/// The saved paths all run again, in turn, whatever `options.cursors` the
/// resumed search has (the number only limits new splits).
///
/// Files of the fourth format (`demonPT4`) are read as the fifth with the
/// stack bound's count of idle tests at 0
/// ([`crate::deadlock::dead_cached`]): the resumed search tests every
/// position again until the bound backs off anew, which is sound (it
/// only decides which positions are tested) but may store other
/// positions than the search without a stop.
///
/// Files of the second format (`demonPT3`: each frame as the move it was
/// exploring) are still read: their rebuilt frames list all their moves,
/// none explored, and put none to sleep (they do not know which they
/// explored), which is sound by the argument above and costs the moves
/// explored again, mostly table hits. Files of the first format
/// (`demonPT2`, one path, without it) are still
/// read: they hold the table without the path's positions, and the
/// resumed search starts again from the deal, re-entering the dropped
/// positions (they form a line from the deal, so none of them is found
/// in the table) with no sleep sets (and no checksum over its header).
pub fn solve_resumable(
    rules: &Rules,
    layout: &Layout,
    limits: &Limits,
    options: &Options,
    resume: Option<&mut dyn std::io::Read>,
    save: Option<&mut dyn std::io::Write>,
) -> Result<Outcome, SolveError> {
    solve_saving(rules, layout, limits, options, resume, save, &|_| true)
}

/// [`solve_resumable`], saving only when the limit that stopped the
/// search is one `save_at` accepts (nothing is written otherwise).
pub fn solve_saving(
    rules: &Rules,
    layout: &Layout,
    limits: &Limits,
    options: &Options,
    resume: Option<&mut dyn std::io::Read>,
    save: Option<&mut dyn std::io::Write>,
    save_at: &dyn Fn(&Limit) -> bool,
) -> Result<Outcome, SolveError> {
    let game = Game::new(rules, layout)?;
    // The same deal under the relaxation, where it is searched too.
    let relaxed = match crate::relax::relaxation(rules) {
        Some(r) if relaxation_runs(rules, options, limits) => Some(Game::new(&r, layout)?),
        _ => None,
    };
    let mut out = drive(
        &game,
        relaxed.as_ref(),
        limits,
        options,
        resume,
        save,
        save_at,
    )?;
    settle_win(rules, layout, &mut out)?;
    Ok(out)
}

/// For a WON outcome: replays its line with the independent checker (an
/// error unless it wins), names the exhaustive search as its finder when
/// no search beside it found it, and counts every card up
/// ([`Stats::most_up`], whichever search found the line). The depth-first
/// and the layered search both end so.
pub(crate) fn settle_win(
    rules: &Rules,
    layout: &Layout,
    out: &mut Outcome,
) -> Result<(), SolveError> {
    if let Verdict::Won(moves) = &out.verdict {
        check_win(rules, layout, moves)?;
        out.stats.found_by = out.stats.found_by.or(Some(Finder::Search));
        out.stats.most_up = rules.deck_size() as u32;
    }
    Ok(())
}

/// The depth-first search alone (no rollouts, beams, probes or threads,
/// whatever `options` say) from the position `prefix` leads to from the
/// deal: LOST here says only that no win begins with `prefix`; a WON line
/// is `prefix` and the search's own moves, replayed from the deal by the
/// independent checker. For experiments: searching the end of a line that
/// came near a win ([`tail_search`]).
#[doc(hidden)]
pub fn solve_after(
    rules: &Rules,
    layout: &Layout,
    prefix: &[Move],
    limits: &Limits,
    options: &Options,
) -> Result<Outcome, SolveError> {
    let game = Game::new(rules, layout)?;
    let mut out = search_after(&game, prefix, limits, options)
        .ok_or_else(|| SolveError::BadSolution("the prefix does not play".into()))?;
    settle_win(rules, layout, &mut out)?;
    Ok(out)
}

/// [`solve_after`] on `game`, its win not yet checked; `None` if `prefix`
/// is not legal.
fn search_after(
    game: &Game,
    prefix: &[Move],
    limits: &Limits,
    options: &Options,
) -> Option<Outcome> {
    let mut dfs = Searcher::with_options(game, limits, options);
    let mut st = game.initial();
    for &m in prefix {
        game.try_play(&mut st, m).ok()?;
    }
    dfs.root = st.clone();
    dfs.st = st;
    dfs.prefix = Some(Arc::new(Prefix {
        before: None,
        moves: prefix.to_vec(),
        chain_bytes: std::mem::size_of::<Prefix>() + std::mem::size_of_val(prefix),
    }));
    dfs.turn_end = dfs.slice;
    let verdict = dfs
        .search_until(u64::MAX)
        .expect("a search with no pause runs to its end");
    Some(Outcome {
        verdict,
        stats: dfs.stats,
    })
}

/// The first tail search starts this many moves before a line's end
/// ([`tail_search`]).
pub const FIRST_TAIL: usize = 8;

/// Nodes the tail searches may expand on one line
/// ([`crate::rollout::tail_of`]: each NRPA search that ends without a
/// win, each new best line of the restarts). A search of
/// [`crate::nrpa::STREAM_LEVEL`] plays some 0.3 M to 0.7 M moves on
/// Variegated Canfield; the searches 8 and 16 moves back take some 800
/// and 11,000 nodes on average, 32 back some 330,000 (so that one is
/// often cut short). 400,000 did no better: Variegated Canfield seeds
/// 1,001-1,100 at 20 M nodes, 61 won against 62, 10.68 M nodes a deal
/// against 10.31 M (`results/2026-12-03-tail-searches`).
pub const TAIL_NODES: u64 = 100_000;

/// Memory of a tail search (its table and path; they run one at a time),
/// set aside from the exhaustive search's share like the rollouts'
/// memory, where they run ([`tails_run`]).
pub const TAIL_BYTES: usize = 4 << 20;

/// Tail searches: the depth-first search alone from positions along
/// `line` (legal moves from the deal, which a random search played
/// without winning), [`FIRST_TAIL`] moves before its end, then twice as
/// far back, and so on, each search with what is left of `nodes`, before
/// `deadline` (a start and a time from it), in `bytes` of memory of its
/// own and with [`Options::default`]'s settings (one path) whatever the
/// solve's, until one finds a win (the line's first moves and the
/// search's own, which the caller checks like any win), one is stopped by
/// a limit, or the next would start from the deal. A search that ends
/// LOST has proved only that no win begins with that part of the line, so
/// the next looks further back. It never says LOST about the deal, so it
/// cannot make a verdict wrong.
///
/// Why: the random searches' playouts leave out moves that seldom pay
/// ([`crate::rollout::worth_playing`]) and positions met before on their
/// line, so a line can stop short of a win a few moves away; and the end
/// of a long line is cheap to search exhaustively (Variegated Canfield:
/// 8 to 32 moves before the end of a level-2 NRPA search's best line,
/// some 100 to 50,000 nodes). Measured with `examples/endgame.rs`
/// (NRPA, 4 M moves, then searches 8, 16, 32, 48 and 64 moves back of
/// at most 4 M nodes each): of 20 Variegated Canfield deals that had
/// needed 50 M nodes or more to win, one (249) was won 8 moves back in
/// 27 nodes.
#[doc(hidden)]
pub fn tail_search(
    game: &Game,
    line: &[Move],
    nodes: u64,
    bytes: usize,
    deadline: Option<(Instant, Duration)>,
    stop: Option<StopFlag>,
) -> TailEnd {
    let options = Options {
        cursors: 1,
        stop,
        ..Options::default()
    };
    let mut end = TailEnd::default();
    let mut back = FIRST_TAIL;
    while back < line.len() && end.nodes < nodes {
        let timeout = match deadline.map(|(t, d)| d.checked_sub(t.elapsed())) {
            Some(None) => break,
            Some(t) => t,
            None => None,
        };
        let limits = Limits {
            max_nodes: Some(nodes - end.nodes),
            max_memory: bytes,
            timeout,
        };
        let k = line.len() - back;
        let Some(out) = search_after(game, &line[..k], &limits, &options) else {
            break;
        };
        end.nodes += out.stats.nodes;
        end.most_up = end.most_up.max(out.stats.most_up);
        match out.verdict {
            Verdict::Won(m) => {
                end.won = Some(m);
                break;
            }
            Verdict::Lost => back *= 2,
            Verdict::Unknown(_) => break,
        }
    }
    end
}

/// What [`tail_search`] found.
#[derive(Debug, Default)]
pub struct TailEnd {
    /// A win's moves from the deal.
    pub won: Option<Vec<Move>>,
    /// Nodes expanded.
    pub nodes: u64,
    /// The most cards on the foundations its searches saw.
    pub most_up: u32,
}

/// Replays a won line with the independent checker: an error unless it
/// wins.
pub(crate) fn check_win(rules: &Rules, layout: &Layout, moves: &[Move]) -> Result<(), SolveError> {
    match replay(rules, layout, moves) {
        Ok(r) if r.won => Ok(()),
        Ok(r) => Err(SolveError::BadSolution(format!(
            "it ends with {} cards on the foundations",
            r.foundation_cards
        ))),
        Err(e) => Err(SolveError::BadSolution(e.to_string())),
    }
}

/// Node counts at which the exhaustive search first pauses for a
/// best-first probe, and the probe's first budget; both grow each round.
const FIRST_PAUSE: u64 = 100_000;
const FIRST_PROBE: u64 = 50_000;
/// Below this a probe is not worth running.
const MIN_PROBE_MEMORY: usize = 64 << 10;

/// The first pause of the search at which the search of the relaxation
/// runs ([`Options::relax`]), 6.4 M nodes: most deals are decided before
/// it, and pay no node for it (Double Easthaven seeds 1-1,000 at 2 M
/// nodes, `results/2026-12-03-all-games-2M`: 929 won, 915 of them before
/// 1.6 M nodes; Easthaven: all but 2 of seeds 1-1,000 decided within it);
/// only the memory set aside for it, where a node limit does not keep it
/// from running ([`relaxation_runs`]).
pub const RELAX_FROM: u64 = FIRST_PAUSE * 64;
/// The search of the relaxation is brought, at each turn, to this share of
/// the nodes the rest of the search has had (1/2: a third of all nodes
/// from its first turn on).
pub const RELAX_SHARE: u64 = 2;
/// The share of the memory set aside for the search of the relaxation
/// (1/4), where it runs.
pub const RELAX_MEMORY: usize = 4;
/// Below this the relaxation is not searched.
const MIN_RELAX_MEMORY: usize = 1 << 20;
/// In a crew, a turn of the relaxation's search looks, every this many
/// nodes, whether the other threads have stopped.
const RELAX_SLICE: u64 = 1 << 16;
/// Memory the rollouts may hold: a sixteenth of the budget, at most
/// 64 MiB; none below [`crate::rollout::LINE_BYTES`] (then they do not
/// run).
fn rollout_bytes(max_memory: usize) -> usize {
    let b = (max_memory / 16).min(64 << 20);
    if b < crate::rollout::LINE_BYTES {
        0
    } else {
        b
    }
}

/// Memory the beams ([`crate::beam`]) may hold, where they run (`on`,
/// two decks, [`restarts_apply`], and the rollouts have memory,
/// `rollouts` bytes): an eighth of the budget, at most 1 GiB; none below
/// [`MIN_BEAM_MEMORY`].
fn beam_bytes(rules: &Rules, max_memory: usize, rollouts: usize, on: bool) -> usize {
    let b = (max_memory / 8).min(1 << 30);
    if !on || !restarts_apply(rules) || rollouts == 0 || b < MIN_BEAM_MEMORY {
        0
    } else {
        b
    }
}

/// The memory set aside for the rollouts and for the beams
/// ([`rollout_bytes`], [`beam_bytes`]) of a search with `options` and
/// `max_memory`: none when the rollouts are off.
fn stream_bytes(rules: &Rules, options: &Options, max_memory: usize) -> (usize, usize) {
    if !options.rollouts {
        return (0, 0);
    }
    let r = rollout_bytes(max_memory);
    (r, beam_bytes(rules, max_memory, r, options.beams))
}

/// Whether a search with `options` and `max_memory` runs beams
/// ([`Options::beams`]): they are on, with the rollouts, in a two-deck
/// game, and the memory gives them [`MIN_BEAM_MEMORY`].
pub fn beams_run(rules: &Rules, options: &Options, max_memory: usize) -> bool {
    stream_bytes(rules, options, max_memory).1 > 0
}

/// Whether a search with `options` and `max_memory` runs NRPA searches
/// ([`Options::nrpa`]): they are on, with the rollouts, in a two-deck
/// game, and the rollouts' memory holds them ([`Streams`]).
pub fn nrpa_runs(rules: &Rules, options: &Options, max_memory: usize) -> bool {
    nrpa_fits(
        rules,
        options.nrpa,
        stream_bytes(rules, options, max_memory).0,
    )
}

/// Whether a search of a deal under `rules` with `options` and `limits`
/// searches it under relaxed rules too ([`Options::relax`]): where the
/// rules have a relaxation ([`crate::relax::relaxation`]), outside the
/// layered search, with the memory it needs ([`RELAX_MEMORY`] of the
/// limit, at least 1 MiB), and where the node limit lets it reach its
/// first turn ([`Options::relax_from`]). Where it does not, nothing is
/// set aside for it.
pub fn relaxation_runs(rules: &Rules, options: &Options, limits: &Limits) -> bool {
    options.relax
        && !options.layered
        && limits.max_memory / RELAX_MEMORY >= MIN_RELAX_MEMORY
        && limits.max_nodes.is_none_or(|n| n > options.relax_from)
        && crate::relax::relaxation(rules).is_some()
}

/// Whether a search with `options` and `max_memory` runs tail searches
/// ([`Options::tails`]): where the NRPA searches run.
pub fn tails_run(rules: &Rules, options: &Options, max_memory: usize) -> bool {
    options.tails && nrpa_runs(rules, options, max_memory)
}

/// The tail searches' nodes a line in a search with `options` and
/// `max_memory` ([`TAIL_NODES`] unless [`Options::tail_nodes`] says), 0
/// where they do not run ([`tails_run`]).
fn tail_budget(rules: &Rules, options: &Options, max_memory: usize) -> u64 {
    if tails_run(rules, options, max_memory) {
        options.tail_nodes.unwrap_or(TAIL_NODES)
    } else {
        0
    }
}

/// Whether NRPA searches run beside rollouts holding `rollouts` bytes
/// (`on`: [`Options::nrpa`]): in a two-deck game, when those bytes hold
/// them and the two streams of rollouts.
fn nrpa_fits(rules: &Rules, on: bool, rollouts: usize) -> bool {
    on && restarts_apply(rules) && rollouts >= crate::nrpa::BYTES + 2 * crate::rollout::LINE_BYTES
}

/// Below this the beams do not run (a memory limit under 128 MiB): the
/// beams' widths stop at what their memory holds, and the wins measured
/// came from beams of thousands of positions.
const MIN_BEAM_MEMORY: usize = 16 << 20;

/// Runs the exhaustive search, pausing it now and then for a best-first
/// probe that looks for a win with a position-value heuristic, and for a
/// phase of nested rollouts ([`crate::rollout`], [`rollout_phase`]).
///
/// The depth-first search alone can spend millions of positions deep in one
/// corner of a won deal; the probe compares positions across the whole
/// frontier instead. It is sound by construction: it only ever reports a
/// win, which is replayed by the checker like every other; LOST comes only
/// from the exhaustive search. Memory: the exhaustive search may use the
/// whole budget (an eighth of it, at most 256 MiB, for its path) but for
/// what the rollouts, beams and tail searches have set aside from the
/// start ([`rollout_bytes`], [`beam_bytes`], [`TAIL_BYTES`]); a probe takes at most a quarter,
/// and only what the search's table and path leave at the time (the
/// table does not grow while a probe runs, and a probe's memory is freed
/// when it ends).
fn drive(
    game: &Game,
    relaxed: Option<&Game>,
    limits: &Limits,
    options: &Options,
    resume: Option<&mut dyn std::io::Read>,
    save: Option<&mut dyn std::io::Write>,
    save_at: &dyn Fn(&Limit) -> bool,
) -> Result<Outcome, SolveError> {
    if options.layered {
        if resume.is_some() || save.is_some() {
            return Err(SolveError::Unsupported(
                "the layered search cannot save or resume a checkpoint".into(),
            ));
        }
        return crate::layered::search_layered(game, limits, options);
    }
    let mut dfs = Searcher::with_options(game, limits, options);
    if let Some(b) = options.table_bytes {
        if b < dfs.table.read().budget_bytes() {
            dfs.table = Tbl::Own(FingerprintSet::with_budget(b));
        }
    }
    dfs.turn_end = dfs.slice;
    if options.rollouts {
        // The rollouts' memory is set aside before the table grows, so that
        // table, paths and rollouts together stay inside the limit.
        let (r, b) = stream_bytes(game.rules(), options, limits.max_memory);
        let t = if tail_budget(game.rules(), options, limits.max_memory) > 0 {
            TAIL_BYTES
        } else {
            0
        };
        let bytes = r + b + t;
        let table = dfs.table.read().budget_bytes().saturating_sub(bytes);
        if bytes > 0 && dfs.table.get().lower_budget(table) {
            dfs.reserved = bytes;
        }
    }
    if options.threads > 1 && resume.is_none() && save.is_none() && !options.replace_when_full {
        let relaxed = reserve_relaxed(&mut dfs, relaxed, limits);
        return Ok(drive_crew(game, relaxed, limits, options, dfs));
    }
    if let Some(r) = resume {
        dfs.load(r)?;
    }
    // After a saved table is loaded: where it no longer leaves the room,
    // the sitting runs without the relaxation.
    let relaxed = reserve_relaxed(&mut dfs, relaxed, limits);
    let out = drive_search(game, relaxed, limits, &mut dfs, options);
    if let (Some(w), Verdict::Unknown(l)) = (save, &out.verdict) {
        if save_at(l) {
            dfs.save(w)?;
        }
    }
    Ok(out)
}

/// Sets the relaxation's memory aside in `dfs` ([`RELAX_MEMORY`] of the
/// limit), from the table's budget as far as the memory left beside the
/// table, its paths and the rollouts' does not hold it (a table of
/// [`Options::table_bytes`] leaves room): the relaxed deal with its
/// memory, or `None` (nothing set aside) where the table has outgrown
/// what that would leave it. It stays set aside to the end, even once
/// the relaxation is dropped.
fn reserve_relaxed<'r>(
    dfs: &mut Searcher,
    relaxed: Option<&'r Game>,
    limits: &Limits,
) -> Option<(&'r Game, usize)> {
    let bytes = limits.max_memory / RELAX_MEMORY;
    let budget = dfs.table.read().budget_bytes();
    let room = limits
        .max_memory
        .saturating_sub(budget + dfs.path_budget + dfs.reserved);
    let g = relaxed.filter(|_| {
        room >= bytes
            || dfs
                .table
                .get()
                .lower_budget(budget.saturating_sub(bytes - room))
    })?;
    dfs.reserved += bytes;
    Some((g, bytes))
}

/// [`drive_search`] with `options.threads` threads ([`Crew`]): this one
/// runs `dfs` (from the deal, with the probes and rollouts), the others
/// start with no work and wait for cursors handed over.
fn drive_crew(
    game: &Game,
    relaxed: Option<(&Game, usize)>,
    limits: &Limits,
    options: &Options,
    mut dfs: Searcher,
) -> Outcome {
    let threads = options.threads;
    let path = dfs.path_budget / threads;
    // Each thread's dead-end answers count in its path: a share each.
    let answers = limits.max_memory / 64 / threads;
    dfs.dead_cache = crate::deadlock::Chains::with_bytes(answers);
    dfs.path_budget = path;
    dfs.path_gate = path / 2;
    // (A table of 1 KiB, at once dropped: `with_budget` needs 80 bytes.)
    let placeholder = Tbl::Own(FingerprintSet::with_budget(1 << 10));
    let Tbl::Own(table) = std::mem::replace(&mut dfs.table, placeholder) else {
        unreachable!("a new search has its own table")
    };
    let (table, tickets) = SharedTable::new(table, threads);
    let table = Arc::new(table);
    let mut tickets = tickets.into_iter();
    let crew = Arc::new(Crew::new(threads, path));
    dfs.table = Tbl::Shared(table.clone());
    dfs.ticket = tickets.next();
    dfs.crew = Some(crew.clone());
    let helpers: Vec<Searcher> = (1..threads)
        .map(|me| {
            let mut h = Searcher::with_options(game, limits, options);
            h.reserved = dfs.reserved;
            h.dead_cache = crate::deadlock::Chains::with_bytes(answers);
            h.table = Tbl::Shared(table.clone());
            h.ticket = tickets.next();
            h.path_budget = path;
            h.path_gate = path / 2;
            h.turn_end = h.slice;
            // Its first work is handed over: it does not enter the deal.
            h.started = true;
            h.crew = Some(crew.clone());
            h.me = me;
            h
        })
        .collect();
    let (mut stats, helper_stats) = std::thread::scope(|scope| {
        let running: Vec<_> = helpers
            .into_iter()
            .map(|mut h| {
                let crew = crew.clone();
                scope.spawn(move || {
                    let stop = StopOnUnwind(&crew);
                    let v = h
                        .search_until(u64::MAX)
                        .expect("a search with no pause runs to its end");
                    std::mem::forget(stop);
                    crew.finish(v);
                    h.stats
                })
            })
            .collect();
        let stop = StopOnUnwind(&crew);
        let out = drive_search(game, relaxed, limits, &mut dfs, options);
        std::mem::forget(stop);
        crew.finish(out.verdict);
        let helper_stats: Vec<Stats> = running
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect();
        (out.stats, helper_stats)
    });
    for h in &helper_stats {
        stats.absorb(h);
    }
    stats.stored = table.alone().len() as u64;
    stats.table_bytes = table.alone().bytes();
    let verdict = lock(&crew.verdict).take().expect("every thread finished");
    Outcome { verdict, stats }
}

/// Stops the crew if dropped, as when its thread panics: the other
/// threads would otherwise wait for it for ever, and the panic would
/// never reach the caller (`thread::scope` joins them first).
struct StopOnUnwind<'a>(&'a Crew);

impl Drop for StopOnUnwind<'_> {
    fn drop(&mut self) {
        self.0.finish(Verdict::Unknown(Limit::Interrupted));
    }
}

/// The search and its probes (see [`drive`]), and the search of the
/// relaxation (`relaxed`: its game and memory; [`Options::relax`]).
fn drive_search(
    game: &Game,
    relaxed: Option<(&Game, usize)>,
    limits: &Limits,
    dfs: &mut Searcher,
    options: &Options,
) -> Outcome {
    // Pauses at the whole search's node counts, a resumed search's
    // included: it probes where the search without a stop would have,
    // with the probe and the rollout budget of that round. (Counted from
    // each sitting's start, sittings shorter than the first pause never
    // probed: a small Double Canfield deal with worrying back, seed 0 of
    // the checkpoint tests, won by the probe at 100,000 nodes, was not
    // decided in 30 sittings of 37,125 nodes.)
    let mut pause = FIRST_PAUSE;
    let mut probe = FIRST_PROBE;
    let mut round = 0usize;
    while pause <= dfs.stats.nodes {
        pause = pause.saturating_mul(4);
        probe = probe.saturating_mul(2);
        round += 1;
    }
    let seed = sitting_seed(options.rollout_seed, dfs.stats.nodes);
    // The rollouts run where their memory was set aside: what is set
    // aside beyond the relaxation's.
    let relax_bytes = relaxed.map_or(0, |(_, b)| b);
    let mut rollouts = (dfs.reserved > relax_bytes).then(|| {
        let (r, b) = stream_bytes(game.rules(), options, limits.max_memory);
        let tails = tail_budget(game.rules(), options, limits.max_memory);
        Streams::new(game, r, b, options.nrpa, tails, seed, options.playout)
    });
    let mut relax = relaxed.map(|(game, bytes)| Relax {
        game,
        bytes,
        search: None,
    });
    if options.relax_from == 0 {
        if let Some(out) = relax_phase(game, &mut relax, limits, dfs, options, FIRST_PAUSE / 2) {
            return out;
        }
    }
    loop {
        if let Some(verdict) = dfs.search_until(pause) {
            return Outcome {
                verdict,
                stats: dfs.stats,
            };
        }
        // A probe never takes the search past its node limit (nor does the
        // search go on after a probe that reached it, below).
        let budget = probe.min(
            limits
                .max_nodes
                .map_or(u64::MAX, |n| n.saturating_sub(dfs.total_nodes())),
        );
        // The probe takes at most a quarter of the memory, and never more
        // than the exhaustive search leaves now: its table may later grow
        // into what a probe used (a probe's memory is freed when it ends).
        let probe_memory = (limits.max_memory / 4).min(limits.max_memory.saturating_sub(
            dfs.table_share() + dfs.path_budget + dfs.reserved + dfs.others_budget(),
        ));
        // Without the memory a probe needs, only the probe is left out:
        // the rollouts have memory of their own, set aside from the start
        // (with several threads `table_share` is the table's whole budget,
        // so a probe never has memory there, and the rollouts and beams
        // used to be left out with it while their memory stayed set aside).
        let room = probe_memory >= MIN_PROBE_MEMORY;
        if options.probes && room {
            let (found, nodes, probe_bytes) = best_first(
                game,
                budget,
                probe_memory,
                limits.timeout.map(|t| (dfs.start, t)),
                dfs.stop,
                &Weights::round(round),
            );
            round += 1;
            dfs.stats.nodes += nodes;
            dfs.stats.peak_memory = dfs
                .stats
                .peak_memory
                .max(dfs.table.read().bytes() + probe_bytes);
            dfs.stats.elapsed = dfs.before + dfs.start.elapsed();
            dfs.publish(|| dfs.table.read().len());
            let found = found.map(|m| (m, Finder::Probe));
            if let Some(out) = after_probe(found, limits, &dfs.stats, dfs.total_nodes()) {
                return out;
            }
        }
        let found = rollout_phase(limits, dfs, &mut rollouts, pause);
        dfs.publish(|| dfs.table.read().len());
        if let Some(out) = after_probe(found, limits, &dfs.stats, dfs.total_nodes()) {
            return out;
        }
        if pause >= options.relax_from {
            // Up to half the nodes of the rest of the search (every
            // thread's).
            let rest = dfs.total_nodes() - dfs.stats.relaxed_nodes;
            let budget = (rest / RELAX_SHARE).saturating_sub(dfs.stats.relaxed_nodes);
            if let Some(out) = relax_phase(game, &mut relax, limits, dfs, options, budget) {
                return out;
            }
            dfs.publish(|| dfs.table.read().len());
            if let Some(out) = after_probe(None, limits, &dfs.stats, dfs.total_nodes()) {
                return out;
            }
        }
        pause = pause.saturating_mul(4);
        if room {
            probe = probe.saturating_mul(2);
        }
    }
}

/// The outcome after a probe or a rollout phase that found `found` (a
/// win's moves and what found them): WON with its moves, UNKNOWN if the
/// node limit is reached, or `None` to go on searching. `nodes`: the
/// search's nodes, every thread's ([`Searcher::total_nodes`]).
fn after_probe(
    found: Option<(Vec<Move>, Finder)>,
    limits: &Limits,
    stats: &Stats,
    nodes: u64,
) -> Option<Outcome> {
    let mut stats = *stats;
    let verdict = match found {
        Some((moves, by)) => {
            stats.found_by = Some(by);
            Verdict::Won(moves)
        }
        None => Verdict::Unknown(Limit::Nodes(limits.max_nodes.filter(|&n| nodes >= n)?)),
    };
    Some(Outcome { verdict, stats })
}

/// The search of the deal under the relaxation of its rules
/// ([`Options::relax`]), made at its first turn.
struct Relax<'r> {
    /// The deal under the relaxation.
    game: &'r Game,
    /// Its memory, set aside from the start.
    bytes: usize,
    search: Option<Searcher<'r>>,
}

/// A turn of the search of the relaxation (`relax`, dropped when it can
/// decide nothing more) of `budget` nodes at most, within `limits` (its
/// nodes count in `dfs`'s): the outcome if it decided the deal (`game`),
/// `None` to go on.
fn relax_phase(
    game: &Game,
    relax: &mut Option<Relax>,
    limits: &Limits,
    dfs: &mut Searcher,
    options: &Options,
    budget: u64,
) -> Option<Outcome> {
    let r = relax.as_mut()?;
    let left = limits
        .max_nodes
        .map_or(u64::MAX, |n| n.saturating_sub(dfs.total_nodes()));
    let budget = budget.min(left);
    if budget == 0 {
        return None;
    }
    let search = r.search.get_or_insert_with(|| {
        // The time left in this sitting, and no node limit: the turns
        // set it.
        let timeout = limits
            .timeout
            .map(|t| t.saturating_sub(dfs.start.elapsed()));
        let l = Limits {
            max_nodes: None,
            max_memory: r.bytes,
            timeout,
        };
        let mut s = Searcher::with_options(r.game, &l, options);
        // Its table is never full of forgotten positions: full, it stops.
        s.replace = false;
        s.progress = None;
        s.turn_end = s.slice;
        s
    });
    let before = search.stats.nodes;
    let end = before + budget;
    // In slices, so that in a crew it stops soon after the other threads
    // stop, or use up the node limit, meanwhile.
    let verdict = loop {
        let v = search.search_until((search.stats.nodes + RELAX_SLICE).min(end));
        if v.is_some() || search.stats.nodes >= end {
            break v;
        }
        if let Some(crew) = &dfs.crew {
            let done = search.stats.nodes - before;
            if crew.halted()
                || limits
                    .max_nodes
                    .is_some_and(|n| dfs.total_nodes() + done >= n)
            {
                break None;
            }
        }
    };
    let nodes = search.stats.nodes - before;
    dfs.stats.nodes += nodes;
    dfs.stats.relaxed_nodes += nodes;
    dfs.note_phase();
    let done = |verdict| {
        let mut stats = dfs.stats;
        stats.found_by = Some(Finder::Relaxed);
        Some(Outcome { verdict, stats })
    };
    match verdict {
        None => None,
        // Lost under rules that allow every line of the deal's: lost.
        Some(Verdict::Lost) => done(Verdict::Lost),
        // A win of the deal's own rules too: every move legal under them.
        Some(Verdict::Won(line)) if wins(game, &line) => done(Verdict::Won(line)),
        // Won only under the relaxation (it can prove nothing more), or
        // stopped by its memory, the time or the stop flag.
        Some(_) => {
            *relax = None;
            None
        }
    }
}

/// Whether `line` is legal from the deal of `game` and wins it.
fn wins(game: &Game, line: &[Move]) -> bool {
    let mut st = game.initial();
    line.iter().all(|&m| game.try_play(&mut st, m).is_ok()) && game.is_won(&st)
}

/// Whether the rollouts of a game under `rules` include the restarts
/// ([`Streams`]): with two decks.
pub fn restarts_apply(rules: &Rules) -> bool {
    rules.decks >= 2
}

/// The rollouts of a search: the ladder of levels, and in two-deck games
/// the restarts ([`crate::rollout::RESTART_LEVEL`]) beside it, each with
/// half of the rollouts' memory (the restarts only where that half is at
/// least [`crate::rollout::LINE_BYTES`]), and the beams
/// ([`crate::beam`], [`Options::beams`]) with memory of their own
/// ([`beam_bytes`]).
struct Streams<'g> {
    ladder: Rollouts<'g>,
    restarts: Option<Rollouts<'g>>,
    /// The beams ([`crate::beam`]), with `beams` bytes of their own
    /// ([`beam_bytes`]).
    beams: Option<Beams<'g>>,
    /// The NRPA searches ([`crate::nrpa`], [`Options::nrpa`]), where the
    /// restarts run, with [`crate::nrpa::BYTES`] of the rollouts' memory.
    nrpa: Option<NrpaStream<'g>>,
    /// The tail searches' nodes a line, 0 where they do not run
    /// ([`tail_budget`]): given to the NRPA searches and the restarts in
    /// each phase from [`BEAMS_FROM`] on ([`rollout_phase`]).
    tails: u64,
}

impl<'g> Streams<'g> {
    /// The streams of a sitting whose random searches draw on `seed`
    /// ([`sitting_seed`]).
    fn new(
        game: &'g Game,
        bytes: usize,
        beams: usize,
        nrpa: bool,
        tails: u64,
        seed: u64,
        playout: Weights,
    ) -> Streams<'g> {
        let beams = (beams > 0).then(|| Beams::new(game, beams, crate::beam::weights()));
        let nrpa = nrpa_fits(game.rules(), nrpa, bytes)
            .then(|| NrpaStream::new(game, seed).valued(playout));
        let bytes = bytes
            - if nrpa.is_some() {
                crate::nrpa::BYTES
            } else {
                0
            };
        let half = bytes / 2;
        if restarts_apply(game.rules()) && half >= crate::rollout::LINE_BYTES {
            Streams {
                ladder: Rollouts::new(game, bytes - half).valued(playout),
                restarts: Some(Rollouts::restarts(game, half, seed).valued(playout)),
                beams,
                nrpa,
                tails,
            }
        } else {
            Streams {
                ladder: Rollouts::new(game, bytes).valued(playout),
                restarts: None,
                beams,
                nrpa,
                tails,
            }
        }
    }
}

/// The seed of a sitting's random searches (the NRPA searches and the
/// restarts, [`Options::rollout_seed`]): `seed` itself for a search from
/// the deal, and for a resumed search that has already searched `searched`
/// nodes, a seed drawn from both. A sitting's rollouts start afresh
/// (nothing of theirs is saved, [`rollout_phase`]), so with the seed
/// alone each sitting would play the first one's random searches again,
/// which found no win; the nodes searched so far differ from sitting to
/// sitting, and a search cut at the same count and resumed again (the
/// same state) draws the same, so a run stays reproducible.
pub fn sitting_seed(seed: u64, searched: u64) -> u64 {
    if searched == 0 {
        return seed;
    }
    let mut z = seed ^ searched.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // SplitMix64's finaliser.
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The pause from which the beams ([`crate::beam`]) take part in the
/// rollout phases of a two-deck search (the third pause: the phase after
/// it may play 6.4 M moves), with half of each phase (three quarters
/// without the NRPA searches, which start there too). Before
/// it the ladder and the restarts win the deals a beam would, for fewer
/// moves: Variegated Canfield seeds 1-100 at 2 M nodes won 48 without
/// beams and 42 with narrower beams (from 1,000 positions) taking a
/// third of every phase from the first (no deal won only with them).
/// After it, on the deals they leave, the beams win more: ten Variegated
/// Canfield deals unknown after three searches of 30 M nodes, alone, 60
/// M moves each: 2 won by the first beam ([`crate::beam::FIRST_WIDTH`]).
/// So they have most of each phase, and they need it: that first beam
/// takes some 40-50 M moves.
const BEAMS_FROM: u64 = 1_600_000;

/// One of a search's streams of rollouts ([`Streams`]): the ladder, the
/// restarts, the NRPA searches, the beams.
trait Stream {
    /// Plays at most `budget` more moves (and stops at the deadline or
    /// the stop flag): the core moves of a win from the deal, if found.
    fn phase(
        &mut self,
        budget: u64,
        deadline: Option<(Instant, Duration)>,
        stop: Option<StopFlag>,
    ) -> Option<Vec<Move>>;
    /// Moves played so far, which count as nodes.
    fn moves(&self) -> u64;
    /// The most cards on the foundations it has seen
    /// ([`Stats::most_up`]).
    fn most_up(&self) -> u32;
    /// Whether the win the last phase returned was found by a tail search
    /// the stream ran ([`tail_search`]).
    fn won_by_tail(&self) -> bool {
        false
    }
    /// What found the win the last phase returned, for a stream named
    /// `by`: `by` itself unless a tail search it ran found it.
    fn finder(&self, by: Finder) -> Finder {
        if self.won_by_tail() {
            Finder::Tail
        } else {
            by
        }
    }
}

impl Stream for Rollouts<'_> {
    fn phase(
        &mut self,
        budget: u64,
        deadline: Option<(Instant, Duration)>,
        stop: Option<StopFlag>,
    ) -> Option<Vec<Move>> {
        Rollouts::phase(self, budget, deadline, stop)
    }
    fn moves(&self) -> u64 {
        self.moves
    }
    fn most_up(&self) -> u32 {
        self.most_up
    }
    fn won_by_tail(&self) -> bool {
        Rollouts::won_by_tail(self)
    }
}

impl Stream for Beams<'_> {
    fn phase(
        &mut self,
        budget: u64,
        deadline: Option<(Instant, Duration)>,
        stop: Option<StopFlag>,
    ) -> Option<Vec<Move>> {
        Beams::phase(self, budget, deadline, stop)
    }
    fn moves(&self) -> u64 {
        self.moves
    }
    fn most_up(&self) -> u32 {
        self.most_up
    }
}

impl Stream for NrpaStream<'_> {
    fn phase(
        &mut self,
        budget: u64,
        deadline: Option<(Instant, Duration)>,
        stop: Option<StopFlag>,
    ) -> Option<Vec<Move>> {
        NrpaStream::phase(self, budget, deadline, stop)
    }
    fn moves(&self) -> u64 {
        NrpaStream::moves(self)
    }
    fn most_up(&self) -> u32 {
        NrpaStream::most_up(self)
    }
    fn won_by_tail(&self) -> bool {
        NrpaStream::won_by_tail(self)
    }
}

/// How many times the pause's nodes a rollout phase may play in a
/// two-deck game ([`rollout_phase`]). The phase then ends past the next
/// pause, so from the first pause on the rollouts take nearly every node
/// (the search goes on only between a phase and the next probe); the
/// ladder runs out of levels, but the restarts and the beams never do, so
/// in a two-deck game they keep nearly every node. In the
/// two-deck games the exhaustive search has proved almost no deal lost
/// (of seeds 1-10,000: Double Easthaven 2, by dead ends, before the first
/// pause; American Toad, Variegated Canfield and Double Canfield none),
/// while the rollouts find most of the wins. At 2 M nodes a deal, against
/// an even share: Variegated Canfield 1-100 won 36 against 22 (twice the
/// pause: 31); American Toad 1-40 all won either way (6.5 s against
/// 7.7 s) and 41-140 96 either way; Double Easthaven 1-100 87 against 86
/// (59.9 s against 84.3 s). One-deck games keep the even share: four
/// times took Superior Canfield 1-200 from 188 won to 184, Rainbow 1-100
/// from 89 to 86 and Chameleon 1-100 from 96 lost to 94.
///
/// The ladder and the restarts each have half of it (the ladder first);
/// from [`BEAMS_FROM`] on the NRPA searches ([`crate::nrpa`]) have
/// half, the beams a quarter (three quarters without the NRPA searches)
/// and the others an eighth each. Why half: on the first 40 Variegated
/// Canfield deals of seeds 1-1,000 that no search had won in under 30 M
/// nodes, at 30 M nodes, NRPA with a quarter (the beams half) won 4, with
/// half 9, with three quarters (the beams an eighth, the ladder and the
/// restarts a sixteenth each) 10; on 34 Double Easthaven deals won only
/// at 10 M nodes or more, at 20 M, a quarter and half both won the same
/// 24, three quarters 22 (`results/2026-11-29-nrpa-share`).
///
/// They run in that order (ladder, restarts, NRPA, beams), so a node
/// limit that ends a phase early takes its nodes from the beams first.
/// Once the ladder has run out of levels, the others still play their
/// part, and the exhaustive search has the rest. With the ladder alone,
/// seeds 1-1,000 were American Toad 996 won / 4 unknown at up to 300 M
/// nodes, Double Easthaven 960 / 1 lost / 39 unknown at up to 100 M.
/// The cost falls on lost deals: with half of each phase the ladder runs
/// out of levels later, and until then the exhaustive search has almost
/// no nodes. Variegated Canfield 47, lost at 10.1 M nodes with the ladder
/// alone, is unknown at 30 M with the restarts (28.35 M rollout nodes),
/// and Double Easthaven 362 is lost at 94.3 M nodes instead of 23.2 M
/// (78.5 M of them the rollouts'), while 8 of the 43 deals of Variegated
/// Canfield's seeds 1-100 unknown at 30 M are now won
/// (`results/2026-11-28-restarts-retry`).
const TWO_DECK_SHARE: u64 = 4;

/// Runs a phase of nested rollouts ([`crate::rollout`]) at the search's
/// pause at `pause` nodes of the whole search (a resumed search's
/// rollouts start afresh: nothing of theirs is saved, and its random
/// searches draw on a seed of the sitting's own, [`sitting_seed`]), when
/// they are on.
/// Its budget is `pause` moves (never past the node limit), and its
/// moves count as nodes: as the pauses are 4 times apart, rollouts and
/// exhaustive search share a long search's nodes roughly evenly (a
/// search that ends just after a pause has paid up to twice its own
/// nodes to rollouts; in a one-deck game, once the ladder has run out of
/// levels they cost nothing more). A win it finds is checked by the
/// caller like any other.
///
/// Why an even share (2 M nodes a deal, seeds 1-N, against no rollouts;
/// a quarter share in brackets): American Toad 1-50 at 5 M nodes won 29
/// against 4 (19); Double Easthaven 1-40 won 33 against 29; PySolFC's
/// Rainbow 1-100 won 26 against 16; Canfield (`any`) 1-300 is decided
/// either way, in 5.99 s against 5.49 s; Superior Canfield 1-200 won 187
/// against 188, as the rollouts took nodes the search needed.
///
/// With two decks the budget is [`TWO_DECK_SHARE`] times `pause`, shared
/// by the ladder, the restarts and, from [`BEAMS_FROM`], the beams
/// ([`Streams`]).
fn rollout_phase(
    limits: &Limits,
    dfs: &mut Searcher,
    rollouts: &mut Option<Streams>,
    pause: u64,
) -> Option<(Vec<Move>, Finder)> {
    let streams = rollouts.as_mut()?;
    let share = if dfs.game.rules().decks >= 2 {
        TWO_DECK_SHARE
    } else {
        1
    };
    let mut budget = pause.saturating_mul(share);
    // The tail searches start with the NRPA searches: before the pause a
    // phase plays at most 1.6 M moves, and each new best line of the
    // first restarts would cost a tail search.
    let tails = if pause >= BEAMS_FROM {
        streams.tails
    } else {
        0
    };
    if let Some(r) = streams.restarts.as_mut() {
        r.tail_nodes = tails;
    }
    if let Some(n) = streams.nrpa.as_mut() {
        n.tail_nodes = tails;
    }
    let beams = streams.beams.as_mut().filter(|_| pause >= BEAMS_FROM);
    let nrpa = streams.nrpa.as_mut().filter(|_| pause >= BEAMS_FROM);
    let nrpa_part = if nrpa.is_some() { budget / 2 } else { 0 };
    let beam_part = match (beams.is_some(), nrpa.is_some()) {
        (false, _) => 0,
        (true, false) => budget / 4 * 3,
        (true, true) => budget / 4,
    };
    budget -= beam_part + nrpa_part;
    let part = budget / (1 + u64::from(streams.restarts.is_some()));
    let mut found = None;
    let deadline = limits.timeout.map(|t| (dfs.start, t));
    let runs = std::iter::once((&mut streams.ladder as &mut dyn Stream, part, Finder::Ladder))
        .chain(
            streams
                .restarts
                .as_mut()
                .map(|r| (r as &mut dyn Stream, part, Finder::Restarts)),
        )
        .chain(nrpa.map(|n| (n as &mut dyn Stream, nrpa_part, Finder::Nrpa)))
        .chain(beams.map(|b| (b as &mut dyn Stream, beam_part, Finder::Beams)));
    for (stream, part, by) in runs {
        let left = limits
            .max_nodes
            .map_or(u64::MAX, |n| n.saturating_sub(dfs.total_nodes()));
        if left == 0 {
            break;
        }
        let before = stream.moves();
        found = stream
            .phase(part.min(left), deadline, dfs.stop)
            .map(|m| (m, stream.finder(by)));
        let moves = stream.moves() - before;
        dfs.stats.nodes += moves;
        dfs.stats.rollout_nodes += moves;
        dfs.stats.most_up = dfs.stats.most_up.max(stream.most_up());
        if found.is_some() {
            break;
        }
    }
    dfs.note_phase();
    found
}

/// The first bytes of a saved search ([`solve_resumable`]): the table,
/// every path and the stack bound's count of idle tests; and the first
/// format, the table without its one path's positions (still read).
const CHECKPOINT_MAGIC: &[u8; 8] = b"demonPT5";
/// The fourth format: as the fifth, without the stack bound's count of
/// idle tests ([`crate::deadlock::Chains::idle`]; read as 0).
const CHECKPOINT_MAGIC_PT4: &[u8; 8] = b"demonPT4";
/// The second format: every path, each frame as the move it was
/// exploring only (still read: rebuilt frames then list all their moves).
const CHECKPOINT_MAGIC_PT3: &[u8; 8] = b"demonPT3";
const CHECKPOINT_MAGIC_PT2: &[u8; 8] = b"demonPT2";

/// A move in 5 bytes, for checkpoints (and the layered search's log).
pub(crate) fn put_move(out: &mut Vec<u8>, m: Move) {
    let loc = |l: Loc| match l {
        Loc::Waste => 0u8,
        Loc::Reserve => 1,
        Loc::Tableau(p) => 2 + p,
        Loc::Foundation(f) => 128 + f,
    };
    out.extend_from_slice(&match m {
        Move::Deal => [0, 0, 0, 0, 0],
        Move::Redeal => [1, 0, 0, 0, 0],
        Move::ChooseBase(n) => [2, n, 0, 0, 0],
        Move::Play {
            from,
            to,
            count,
            card,
        } => [3, loc(from), loc(to), count, card.index()],
    });
}

/// The move [`put_move`] wrote in `b`.
pub(crate) fn get_move(b: &[u8]) -> Option<Move> {
    let loc = |x: u8| match x {
        0 => Loc::Waste,
        1 => Loc::Reserve,
        2..=127 => Loc::Tableau(x - 2),
        _ => Loc::Foundation(x - 128),
    };
    Some(match b[0] {
        0 => Move::Deal,
        1 => Move::Redeal,
        2 => Move::ChooseBase(b[1]),
        3 => Move::Play {
            from: loc(b[1]),
            to: loc(b[2]),
            count: b[3],
            card: Card::from_index(b[4])?,
        },
        _ => return None,
    })
}

/// A checkpoint whose paths do not play on its deal.
fn damaged() -> SolveError {
    SolveError::Checkpoint("its search paths do not fit this deal (the file is damaged)".into())
}

/// A move a saved frame was exploring: its class member, the talon state
/// it set, and the move.
type Taken = (u8, Option<(u8, u8)>, Move);

/// A saved search path ([`Searcher::rebuild`]): the moves from the deal to
/// its first frame's position (for a split-off cursor, that frame's safe
/// moves included; for the first cursor, none: its frame plays them), and
/// its frames: each as the moves it listed, how many of them it had
/// explored, and its `clean` bits (files of the second format have only
/// the move each frame but the last was exploring).
struct SavedPath {
    depth0: usize,
    prefix: Vec<Move>,
    frames: SavedFrames,
    /// The cursor's own node count and splits (`Cursor::cnodes`,
    /// `Cursor::nsplit`; none in the second format).
    cnodes: u64,
    nsplit: u32,
}

enum SavedFrames {
    Taken(Vec<Taken>),
    Lists(Vec<SavedFrame>),
}

/// A frame as saved: its moves (`Frame::start..Frame::end`, in order),
/// how many of them it had explored (`Frame::next`), `Frame::clean`,
/// and the node counts the splits and the table's marks go by.
/// A frame below another was exploring its `next`-th move.
struct SavedFrame {
    moves: Vec<Taken>,
    next: usize,
    clean: u64,
    /// `Frame::child_at` and `Frame::born`.
    child_at: u64,
    born: u64,
}

/// How a checkpoint names listed move `sm`.
fn taken(sm: &SMove) -> Taken {
    (sm.member, sm.talon, sm.mv)
}

/// A listed move in 9 bytes, for checkpoints: its class member, the
/// talon state it sets, and the move.
fn put_taken(out: &mut Vec<u8>, sm: &SMove) {
    let (pos, passes) = sm.talon.unwrap_or((0, 0));
    out.extend_from_slice(&[sm.member, u8::from(sm.talon.is_some()), pos, passes]);
    put_move(out, sm.mv);
}

impl SavedFrame {
    /// Whether the frame's numbers can be a frame's of a cursor at
    /// `cnodes` nodes: no more explored moves than listed, `clean` bits
    /// on explored moves only (a bit on a move not yet explored would put
    /// a sibling to sleep on the ground of a position never entered), and
    /// node counts the cursor has reached (they are subtracted from its).
    fn fits(&self, cnodes: u64) -> bool {
        let unexplored_clean = self.next < 64 && self.clean >> self.next != 0;
        self.next <= self.moves.len() && !unexplored_clean && self.born.max(self.child_at) <= cnodes
    }
}

/// The move [`put_taken`] wrote in `b`.
fn get_taken(b: &[u8; 9]) -> Result<Taken, SolveError> {
    let talon = (b[1] != 0).then_some((b[2], b[3]));
    Ok((b[0], talon, get_move(&b[4..]).ok_or_else(damaged)?))
}

/// The version of the search a checkpoint belongs to: raise it whenever
/// the positions a search stores, or what "explored" means of them,
/// change (fingerprints, keys and levels, move generation, pruning), so
/// that older checkpoints are refused. Callers put it in what they
/// compare before resuming (the CLI's checkpoint header). 2: free tableau
/// classes (`crate::class`, "Free classes"). A sharper dead-end test (the
/// stack bound's pile tops, `crate::deadlock`, `Chains::chains_top`) is
/// not such a change: a saved position explored without it has no win
/// below it all the same, and the keys are the same; only the counts of
/// a resumed search move.
pub const CHECKPOINT_SEARCH_VERSION: u32 = 2;

/// One level of the search path.
struct Frame {
    /// This position's moves: `Searcher::arena[start..end]`; `next` is the
    /// arena index of the next one to explore.
    start: usize,
    end: usize,
    next: usize,
    /// This position's class members: `Searcher::members[members_start..]`
    /// (one, itself, when its class is not merged).
    members_start: usize,
    /// Safe moves played on entering this position: `autos[autos_start..autos_end]`.
    autos_start: usize,
    autos_end: usize,
    /// The move being explored below this position, its undo, and the talon
    /// state before it.
    cur: Option<(SMove, Undo, (u8, u8))>,
    /// Bit `j`: move `j` has been explored and its position had no safe
    /// moves (the moves a later sibling may put to sleep).
    clean: u64,
    /// The running cursor's own node count when `cur` was played: what the
    /// subtree below it has cost so far is the difference.
    child_at: u64,
    /// The position's fingerprint, as stored in the table.
    key: u128,
    /// The running cursor's own node count when the frame was entered:
    /// what exploring it cost is the difference when it ends.
    born: u64,
}

/// Bytes one path frame costs, for the memory budget (its moves are
/// counted in the arena).
const FRAME_BYTES: usize = std::mem::size_of::<Frame>();

/// Bytes one open position costs in [`Searcher::open`]: a hash map's key
/// and count (32 bytes with alignment) and control byte, for
/// capacity()/load factor slots, rounded up. The map's capacity is counted
/// three times: its array, and the doubled one beside it while it grows.
const OPEN_ENTRY_BYTES: usize = 40;

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 1 << 12;

enum Enter {
    Won,
    Seen,
    Full,
    Open(Frame),
}

struct Searcher<'g> {
    game: &'g Game,
    limits: Limits,
    table: Tbl,
    /// Bytes the paths may use: first an eighth of the memory, at most
    /// 256 MiB; more when they need it and the table has not taken it
    /// ([`Searcher::widen_path`]).
    path_budget: usize,
    /// No more splits or turns once the paths take this much: half the
    /// path's first budget (see [`Searcher::rotate`]).
    path_gate: usize,
    autos: Vec<(Move, Undo)>,
    /// The moves of every frame on the path, in path order: a frame's
    /// moves cost what they hold, not a fixed-size inline buffer.
    arena: Vec<SMove>,
    /// Where [`generate`] writes before the moves are copied to the arena.
    scratch: SmallVec<[SMove; 32]>,
    /// Finds the tableau class of each position entered.
    class: ClassFinder,
    /// The waste reach of the position being expanded.
    reach: crate::moves::ReachMemo,
    /// The canonical member of the last class found.
    canon: State,
    /// For each class member of each frame on the path, its range in
    /// `mpaths`: the reversible moves from the frame's position to it.
    members: Vec<(u32, u32)>,
    mpaths: Vec<Move>,
    stats: Stats,
    /// When this sitting began: its time limit counts from here.
    start: Instant,
    /// The search time of the sittings before (a resumed search), which
    /// `stats.elapsed` adds, as `stats.nodes` carries on their nodes.
    before: Duration,
    /// The search's position and path, kept between calls of
    /// [`Searcher::search_until`].
    st: State,
    stack: Vec<Frame>,
    started: bool,
    /// Safe moves played on the last position entered.
    last_autos: usize,
    /// Whether tableau classes are merged ([`Options::tableau_classes`]).
    classes: bool,
    deadlock: bool,
    /// What the dead-end test reuses between positions.
    dead_cache: crate::deadlock::Chains,
    /// [`Options::waste_bound`].
    waste_bound: bool,
    /// Memory kept for the rollouts, beams and tail searches
    /// ([`rollout_bytes`], [`beam_bytes`], [`TAIL_BYTES`]) and for the
    /// search of the relaxation ([`RELAX_MEMORY`], [`reserve_relaxed`])
    /// from the start, out of the table's and the paths' share of the
    /// limit.
    reserved: usize,
    /// Core moves from the deal to the position of the running cursor's
    /// first frame (empty for the first cursor, which starts at the deal).
    prefix: Option<Arc<Prefix>>,
    /// The position of the running cursor's first frame (the deal, for the
    /// first cursor), before its safe moves.
    root: State,
    /// The parked cursors, run in turn with the running one.
    parked: std::collections::VecDeque<Cursor>,
    /// Bytes the parked cursors hold.
    parked_bytes: usize,
    /// Path moves from the deal to the running cursor's first frame.
    depth0: usize,
    /// Node count at which the running cursor's turn ends.
    turn_end: u64,
    /// [`Options::slice`] and [`Options::cursors`].
    slice: u64,
    max_cursors: usize,
    /// Nodes the running cursor has expanded, and splits it has made.
    cnodes: u64,
    nsplit: u32,
    /// [`Options::split_after`], [`Options::split_doubling`].
    split_after: u64,
    split_doubling: bool,
    /// [`Options::replace_when_full`].
    replace: bool,
    /// [`Options::stop`].
    stop: Option<StopFlag>,
    /// [`Options::progress`].
    progress: Option<ProgressBoard>,
    /// Whether the table was loaded from a file of the first format,
    /// without its path (no sleep sets: [`Searcher::sleep`]).
    resumed: bool,
    /// While a saved path is rebuilt ([`Searcher::rebuild`]): a position
    /// the table holds is entered all the same, and not tested for a dead
    /// end (it was open when saved, so entered and not dead).
    rebuilding: bool,
    /// Once the table has filled with `replace` on: how many frames of
    /// every path (every cursor's) hold each fingerprint (keyed by
    /// [`FingerprintSet::open_key`], as the table asks). The table may
    /// forget any position but these. Forgetting is sound: the module's
    /// argument (and the sleep sets', [`Searcher::sleep`]) only uses that a
    /// position found in the table was entered before; read "entered" as
    /// "entered at some time", and a position entered twice as two
    /// entries, and it holds as written. A forgotten position met again is
    /// entered again and its moves explored again, which costs time only.
    /// The frames' positions must stay: one forgotten while being explored
    /// and met again below itself would be entered again below itself, and
    /// so on, the path growing until the memory limit stopped the search.
    /// With every position on a path kept, a path never holds one position
    /// twice at one level, so paths stay finite; each forgotten position is
    /// explored again only when it is met again, and the search ends.
    open: Option<HashMap<u128, u32, BuildHasherDefault<FpHasher>>>,
    /// The crew this search is one thread of, and its number in it.
    crew: Option<Arc<Crew>>,
    me: usize,
    /// In a crew, this thread's right to quick operations on the table.
    ticket: Option<Ticket>,
    /// Of `stats.nodes`, those added to the crew's count.
    flushed: u64,
}

/// The position table: the search's own, or one that the threads of a
/// crew ([`Crew`]) share: an arrival looks up and stores its position
/// without a lock, anything else takes the table alone ([`SharedTable`]).
enum Tbl {
    Own(FingerprintSet),
    Shared(Arc<SharedTable>),
}

/// The table, borrowed for one operation (or a few that must see one
/// another: an insertion and what it lowered).
enum TblGuard<'a> {
    Own(&'a mut FingerprintSet),
    Shared(Alone<'a>),
}

/// The table, borrowed to read.
enum TblRead<'a> {
    Own(&'a FingerprintSet),
    Shared(Alone<'a>),
}

impl Tbl {
    fn get(&mut self) -> TblGuard<'_> {
        match self {
            Tbl::Own(t) => TblGuard::Own(t),
            Tbl::Shared(t) => TblGuard::Shared(t.alone()),
        }
    }

    fn read(&self) -> TblRead<'_> {
        match self {
            Tbl::Own(t) => TblRead::Own(t),
            Tbl::Shared(t) => TblRead::Shared(t.alone()),
        }
    }
}

/// A lock that a panicking thread poisoned is taken all the same: the
/// panic is reported where the thread is joined.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl std::ops::Deref for TblGuard<'_> {
    type Target = FingerprintSet;
    fn deref(&self) -> &FingerprintSet {
        match self {
            TblGuard::Own(t) => t,
            TblGuard::Shared(t) => t,
        }
    }
}

impl std::ops::DerefMut for TblGuard<'_> {
    fn deref_mut(&mut self) -> &mut FingerprintSet {
        match self {
            TblGuard::Own(t) => t,
            TblGuard::Shared(t) => t,
        }
    }
}

impl std::ops::Deref for TblRead<'_> {
    type Target = FingerprintSet;
    fn deref(&self) -> &FingerprintSet {
        match self {
            TblRead::Own(t) => t,
            TblRead::Shared(t) => t,
        }
    }
}

/// The threads that search one deal together ([`Options::threads`]).
///
/// Each thread runs a [`Searcher`] of its own (its paths, cursors, class
/// finder and caches) over one shared table ([`SharedTable`]): an arrival
/// finds or stores its position with one compare-and-swap on a slot, and
/// anything more (moving entries, growing, the counts and the budget) is
/// done by a thread that has the table alone. A thread out of work waits
/// for a cursor that another hands over at the end of one of its turns ([`Searcher::donate`]); the
/// search is over (LOST) when every thread waits and none is handed over.
/// The first verdict a thread reaches (won, or a limit) stops them all.
///
/// Soundness: this is the module's search with several cursors, as
/// [`Searcher::rotate`] argues it, run by several threads instead of in
/// turn. The argument never used the order in which cursors run: it needs
/// that every move listed at a stored position is explored by some cursor
/// before LOST, and that a position found in the table was entered
/// before. Each position is stored once, by one arrival (the slot's
/// compare-and-swap, or the table held alone, decides which: see
/// `table::shared`), so "entered before" is well defined, and a position
/// entered by one thread and met by another is a table hit like any
/// other, explored by the first. A fresh cover ([`fresh_cover`]) is asked
/// for before the position is stored, so a cover found was entered
/// before it, as with one thread. The
/// sleep sets ([`Searcher::sleep`]) compare siblings of one frame, which
/// one cursor, on one thread at a time, explores in order, and their
/// induction is on entry time. A cursor handed over carries its frames
/// and everything it needs; LOST is said only when every thread is out of
/// work with nothing handed over, so every frame has ended.
///
/// Memory: each thread's path has its own budget (together what one
/// thread's would have), and a thread that widens its path takes room
/// from the table as one thread does, beside the others' budgets. A
/// cursor being handed over is counted by neither thread for the moment
/// it takes. The best-first probes of the first thread's pauses get only
/// what the table's budget leaves, as the others go on filling the table
/// (so in practice none). The probes and rollouts count the other
/// threads' nodes against the node limit, but do not see the crew stop:
/// a win another thread finds during a rollout phase ends the search
/// when the phase ends.
struct Crew {
    threads: usize,
    pool: Mutex<Pool>,
    ready: Condvar,
    /// Set once `verdict` holds the first verdict reached: every thread
    /// stops.
    halt: AtomicBool,
    /// Some thread waits for work.
    hungry: AtomicBool,
    /// The nodes the threads have added ([`Searcher::over_limit`], for
    /// the node limit).
    nodes: AtomicU64,
    verdict: Mutex<Option<Verdict>>,
    /// Each thread's path budget, and what its path last held.
    path_budget: Vec<AtomicUsize>,
    path_used: Vec<AtomicUsize>,
    /// Held while a thread widens its path.
    widening: Mutex<()>,
}

/// The cursors handed over and not yet taken, and the threads waiting.
struct Pool {
    cursors: Vec<Cursor>,
    waiting: usize,
    /// Every thread was out of work at once: the search is over.
    done: bool,
}

impl Crew {
    fn new(threads: usize, path_budget: usize) -> Crew {
        Crew {
            threads,
            pool: Mutex::new(Pool {
                cursors: Vec::new(),
                waiting: 0,
                done: false,
            }),
            ready: Condvar::new(),
            halt: AtomicBool::new(false),
            hungry: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            verdict: Mutex::new(None),
            path_budget: (0..threads)
                .map(|_| AtomicUsize::new(path_budget))
                .collect(),
            path_used: (0..threads).map(|_| AtomicUsize::new(0)).collect(),
            widening: Mutex::new(()),
        }
    }

    fn halted(&self) -> bool {
        self.halt.load(Ordering::Acquire)
    }

    /// The sum of `of` over the threads but `me`.
    fn others(&self, of: &[AtomicUsize], me: usize) -> usize {
        of.iter()
            .enumerate()
            .filter(|&(i, _)| i != me)
            .map(|(_, a)| a.load(Ordering::Relaxed))
            .sum()
    }

    /// A thread's verdict: the first one stands (a decided one over a
    /// limit), and the first stops every thread.
    fn finish(&self, v: Verdict) {
        let mut slot = lock(&self.verdict);
        // The first verdict stands, but a decided one beats a limit: the
        // first thread's search of the relaxation can prove a loss after
        // the others have stopped at a limit (and a thread reports LOST
        // only once every thread is out of work, never after a stop).
        if slot.is_none()
            || (matches!(*slot, Some(Verdict::Unknown(_))) && !matches!(v, Verdict::Unknown(_)))
        {
            *slot = Some(v);
        }
        drop(slot);
        self.halt.store(true, Ordering::Release);
        // Under the pool's lock, so that a thread about to wait sees it.
        let _pool = lock(&self.pool);
        self.ready.notify_all();
    }

    /// Work for a thread that has none: a cursor handed over; `None` once
    /// every thread is out of work (the search is over) or the crew has
    /// stopped.
    fn take(&self) -> Option<Cursor> {
        let mut p = lock(&self.pool);
        loop {
            if p.done || self.halted() {
                return None;
            }
            if let Some(c) = p.cursors.pop() {
                self.hungry
                    .store(p.waiting > p.cursors.len(), Ordering::Relaxed);
                return Some(c);
            }
            p.waiting += 1;
            if p.waiting == self.threads {
                p.done = true;
                self.ready.notify_all();
                return None;
            }
            self.hungry.store(true, Ordering::Relaxed);
            p = self
                .ready
                .wait(p)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            p.waiting -= 1;
        }
    }

    /// Hands cursor `c` to a waiting thread.
    fn give(&self, c: Cursor) {
        let mut p = lock(&self.pool);
        p.cursors.push(c);
        self.hungry
            .store(p.waiting > p.cursors.len(), Ordering::Relaxed);
        self.ready.notify_one();
    }
}

/// A hasher for fingerprints, which are already uniform: their low 64
/// bits.
#[derive(Default)]
pub(crate) struct FpHasher(u64);

impl std::hash::Hasher for FpHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.0 = x as u64;
    }
}

/// A parked part of the search: a path of its own, from a position the
/// table holds (its first frame, holding the moves still to explore
/// there), with its own position and move buffers. See
/// [`Searcher::rotate`].
struct Cursor {
    st: State,
    stack: Vec<Frame>,
    arena: Vec<SMove>,
    members: Vec<(u32, u32)>,
    mpaths: Vec<Move>,
    autos: Vec<(Move, Undo)>,
    prefix: Option<Arc<Prefix>>,
    root: State,
    depth0: usize,
    cnodes: u64,
    nsplit: u32,
}

/// The core moves from the deal to a cursor's first position, shared
/// among the cursors split from one another: its parent's, then its own.
struct Prefix {
    before: Option<Arc<Prefix>>,
    moves: Vec<Move>,
    /// Bytes of the whole chain: links shared with other cursors are
    /// counted once for each, an overstatement that keeps the budget safe.
    chain_bytes: usize,
}

impl Prefix {
    fn collect(&self, out: &mut Vec<Move>) {
        if let Some(b) = &self.before {
            b.collect(out);
        }
        out.extend_from_slice(&self.moves);
    }
}

impl Cursor {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Cursor>()
            + path_vec_bytes(
                self.stack.capacity(),
                &self.arena,
                &self.members,
                &self.mpaths,
                &self.autos,
            )
            + self.prefix.as_ref().map_or(0, |p| p.chain_bytes)
    }
}

/// Bytes a path's vectors hold room for (a stack with room for `frames`
/// frames): what they could fill without reallocating, not what they use,
/// as a vector that doubles can hold twice its length.
fn path_vec_bytes(
    frames: usize,
    arena: &Vec<SMove>,
    members: &Vec<(u32, u32)>,
    mpaths: &Vec<Move>,
    autos: &Vec<(Move, Undo)>,
) -> usize {
    frames * FRAME_BYTES
        + arena.capacity() * std::mem::size_of::<SMove>()
        + members.capacity() * std::mem::size_of::<(u32, u32)>()
        + mpaths.capacity() * std::mem::size_of::<Move>()
        + autos.capacity() * std::mem::size_of::<(Move, Undo)>()
}

impl<'g> Searcher<'g> {
    /// A search whose table and paths take at most `limits.max_memory`
    /// bytes together.
    fn new(game: &'g Game, limits: &Limits) -> Searcher<'g> {
        let memory = limits.max_memory;
        let path_budget = (memory / 8).min(256 << 20);
        Searcher {
            game,
            limits: *limits,
            table: Tbl::Own(FingerprintSet::with_budget(memory - path_budget)),
            path_budget,
            path_gate: path_budget / 2,
            autos: Vec::new(),
            stats: Stats::default(),
            start: Instant::now(),
            before: Duration::ZERO,
            st: game.initial(),
            stack: Vec::new(),
            started: false,
            last_autos: 0,
            classes: false,
            deadlock: false,
            // A 64th of the memory at most, for dead-end answers.
            dead_cache: crate::deadlock::Chains::with_bytes(memory / 64),
            waste_bound: false,
            reserved: 0,
            arena: Vec::new(),
            scratch: SmallVec::new(),
            class: ClassFinder::default(),
            reach: crate::moves::ReachMemo::default(),
            canon: game.initial(),
            members: Vec::new(),
            mpaths: Vec::new(),
            prefix: None,
            root: game.initial(),
            parked: Default::default(),
            parked_bytes: 0,
            depth0: 0,
            turn_end: u64::MAX,
            slice: u64::MAX,
            max_cursors: 1,
            cnodes: 0,
            nsplit: 0,
            split_after: 0,
            split_doubling: false,
            replace: false,
            stop: None,
            progress: None,
            resumed: false,
            rebuilding: false,
            open: None,
            crew: None,
            me: 0,
            ticket: None,
            flushed: 0,
        }
    }

    /// A search with the settings of `options`.
    fn with_options(game: &'g Game, limits: &Limits, options: &Options) -> Searcher<'g> {
        let mut dfs = Searcher::new(game, limits);
        dfs.classes = options.tableau_classes;
        dfs.max_cursors = options.cursors.max(1);
        dfs.slice = options.slice.max(1);
        dfs.split_after = options.split_after;
        dfs.split_doubling = options.split_doubling;
        dfs.deadlock = options.deadlock;
        dfs.waste_bound = options.waste_bound;
        dfs.replace = options.replace_when_full;
        dfs.stop = options.stop;
        dfs.progress = options.progress;
        dfs
    }

    /// After a phase beside the search (the rollouts', the relaxation's):
    /// its peak memory, with all that is set aside for such phases, and
    /// its time.
    fn note_phase(&mut self) {
        let path = self.path_bytes(self.stack.capacity());
        self.stats.peak_memory = self
            .stats
            .peak_memory
            .max(self.table.read().bytes() + path + self.reserved);
        self.stats.elapsed = self.before + self.start.elapsed();
    }

    /// Shows how far the search has got on [`Options::progress`], its
    /// table holding `stored()` positions (asked only if shown).
    fn publish(&self, stored: impl FnOnce() -> usize) {
        if let Some(ProgressBoard(p)) = self.progress {
            p.nodes.store(self.total_nodes(), Ordering::Relaxed);
            p.stored.store(stored() as u64, Ordering::Relaxed);
            p.peak_memory
                .fetch_max(self.stats.peak_memory as u64, Ordering::Relaxed);
        }
    }

    /// Searches until decided, stopped by a limit, or `pause_at` nodes have
    /// been expanded (`None`: call again to go on where it stopped).
    fn search_until(&mut self, pause_at: u64) -> Option<Verdict> {
        let mut st = std::mem::replace(&mut self.st, self.game.initial());
        let mut stack = std::mem::take(&mut self.stack);
        let r = self.search_inner(&mut st, &mut stack, pause_at);
        self.st = st;
        self.stack = stack;
        let table = self.table.read();
        self.stats.stored = table.len() as u64;
        self.stats.table_bytes = table.bytes();
        self.stats.replaced = table.replaced();
        self.stats.peak_memory = self.stats.peak_memory.max(self.stats.table_bytes);
        drop(table);
        self.stats.elapsed = self.before + self.start.elapsed();
        r
    }

    fn search_inner(
        &mut self,
        st: &mut State,
        stack: &mut Vec<Frame>,
        pause_at: u64,
    ) -> Option<Verdict> {
        let g = self.game;
        if !self.started {
            self.started = true;
            // (A resumed table can be full already.)
            match self.enter_or_forget(st, stack) {
                Enter::Won => return Some(Verdict::Won(self.solution(stack))),
                // The table starts empty: the deal is dead (lost), and the
                // empty stack below reports it.
                // A resumed search starts here only when it rebuilt no
                // path, and then its table does not hold the deal's first
                // position: it was on the one path a file of the first
                // format leaves out, or found no room in the saved search
                // ([`Searcher::load`]).
                Enter::Seen => assert!(self.stats.dead == 1, "the first position was found stored"),
                Enter::Full => {
                    return Some(Verdict::Unknown(Limit::Memory(self.limits.max_memory)))
                }
                Enter::Open(f) => {
                    self.hold(f.key);
                    stack.push(f)
                }
            }
        }
        loop {
            let Some(frame) = stack.last_mut() else {
                // This cursor's part is explored: the next one runs.
                match self.parked.pop_front() {
                    None => match self.crew.clone() {
                        None => return Some(Verdict::Lost),
                        // A thread of a crew asks the others for work.
                        Some(crew) => match crew.take() {
                            Some(mut c) => {
                                self.swap_cursor(&mut c, st, stack);
                                self.turn_end = self.stats.nodes + self.slice;
                                continue;
                            }
                            None if crew.halted() => {
                                return Some(Verdict::Unknown(Limit::Interrupted))
                            }
                            None => return Some(Verdict::Lost),
                        },
                    },
                    Some(mut c) => {
                        self.parked_bytes -= c.bytes();
                        self.swap_cursor(&mut c, st, stack);
                        self.turn_end = self.stats.nodes + self.slice;
                        continue;
                    }
                }
            };
            if let Some((sm, u, prev)) = frame.cur.take() {
                g.undo(st, sm.mv, u);
                if sm.talon.is_some() {
                    g.set_talon_state(st, prev);
                }
                // The reversible moves to the member it was played from.
                while self.autos.len() > frame.autos_end {
                    let (m, u) = self.autos.pop().expect("len checked");
                    g.undo(st, m, u);
                }
            }
            if frame.next == frame.end {
                let a0 = frame.autos_start;
                self.arena.truncate(frame.start);
                self.mpaths
                    .truncate(self.members[frame.members_start].0 as usize);
                self.members.truncate(frame.members_start);
                let (key, born) = (frame.key, frame.born);
                stack.pop();
                self.release(key, self.cnodes - born);
                while self.autos.len() > a0 {
                    let (m, u) = self.autos.pop().expect("len checked");
                    g.undo(st, m, u);
                }
                continue;
            }
            if self.stats.nodes >= pause_at {
                return None;
            }
            if self.stats.nodes >= self.turn_end {
                self.rotate(st, stack);
                continue;
            }
            let frame = stack.last_mut().expect("in a frame");
            let sm = self.arena[frame.next];
            frame.next += 1;
            self.play_listed(st, frame, sm);
            frame.child_at = self.cnodes;
            self.stats.nodes += 1;
            self.cnodes += 1;
            if let Some(l) = self.over_limit(stack) {
                return Some(Verdict::Unknown(l));
            }
            let entered = self.enter_or_forget(st, stack);
            let i = {
                let f = stack.last().expect("in a frame");
                f.next - 1 - f.start
            };
            match entered {
                Enter::Won => return Some(Verdict::Won(self.solution(stack))),
                Enter::Seen => {
                    if self.last_autos == 0 && i < 64 {
                        stack.last_mut().expect("in a frame").clean |= 1 << i;
                    }
                }
                Enter::Full => {
                    return Some(Verdict::Unknown(Limit::Memory(self.limits.max_memory)))
                }
                Enter::Open(mut f) => {
                    let parent = stack.last_mut().expect("in a frame");
                    if self.last_autos == 0 && i < 64 {
                        self.sleep(parent, i, &mut f);
                        parent.clean |= 1 << i;
                    }
                    // Nothing explored below it yet (see `split`).
                    f.child_at = self.cnodes;
                    self.hold(f.key);
                    stack.push(f);
                    self.stats.max_depth = self.stats.max_depth.max(self.depth0 + stack.len());
                }
            }
        }
    }

    /// Counts a new frame of position `key` among the open ones (once
    /// the table forgets positions: [`Searcher::open`]).
    fn hold(&mut self, key: u128) {
        if let Some(open) = &mut self.open {
            *open.entry(FingerprintSet::open_key(key)).or_insert(0) += 1;
        }
    }

    /// A frame of position `key` is done, after `cost` nodes below it.
    /// Once the table forgets positions, a costly one is marked so: the
    /// table forgets cheap ones first (what a position cost is what
    /// forgetting it may cost again). Classes of 64 times: below 64 nodes
    /// (not marked, most frames: no trip to the table), 4,096, 262,144,
    /// and more.
    fn release(&mut self, key: u128, cost: u64) {
        // Marked from the start when the search may forget: the first
        // shrink ([`Searcher::shrink_table`]) can come before the table has
        // ever filled, and chooses what to keep by these marks.
        if self.replace {
            let class = (cost.max(1).ilog2() / 6).min(3) as u8;
            if class > 0 {
                self.table.get().mark(key, class);
            }
        }
        if let Some(open) = &mut self.open {
            let key = FingerprintSet::open_key(key);
            match open.get_mut(&key) {
                Some(n) if *n > 1 => *n -= 1,
                Some(_) => {
                    open.remove(&key);
                }
                None => debug_assert!(false, "a frame's position is open"),
            }
        }
    }

    /// [`Self::enter`], except that when the table first fills with
    /// forgetting on, it starts forgetting positions no path holds (those
    /// of `stack` and the parked cursors') and enters `st` again.
    fn enter_or_forget(&mut self, st: &mut State, stack: &[Frame]) -> Enter {
        match self.enter(st) {
            Enter::Full if self.replace && self.open.is_none() => {
                self.open = Some(self.open_positions(stack));
                // Its safe moves are counted again.
                self.stats.auto_moves -= self.last_autos as u64;
                self.enter(st)
            }
            e => e,
        }
    }

    /// Fills the empty table with the positions a stopped search saved
    /// ([`solve_resumable`]), rebuilds its paths, and carries on its node
    /// count.
    fn load(&mut self, r: &mut dyn std::io::Read) -> Result<(), SolveError> {
        let bad = |e: std::io::Error| SolveError::Checkpoint(format!("cannot read it: {e}"));
        let mut sum = xxhash_rust::xxh3::Xxh3::new();
        // Reads `buf` and adds it to the checksum.
        let read =
            |r: &mut dyn std::io::Read, sum: &mut xxhash_rust::xxh3::Xxh3, buf: &mut [u8]| {
                r.read_exact(buf).map_err(bad)?;
                sum.update(buf);
                Ok::<(), SolveError>(())
            };
        let count = |r: &mut dyn std::io::Read, sum: &mut xxhash_rust::xxh3::Xxh3| {
            let mut word = [0u8; 4];
            read(r, sum, &mut word)?;
            Ok::<usize, SolveError>(u32::from_le_bytes(word) as usize)
        };
        let mut head = [0u8; 24];
        r.read_exact(&mut head).map_err(bad)?;
        let first_format = &head[..8] == CHECKPOINT_MAGIC_PT2;
        let idle_saved = &head[..8] == CHECKPOINT_MAGIC;
        let lists = idle_saved || &head[..8] == CHECKPOINT_MAGIC_PT4;
        if !lists && &head[..8] != CHECKPOINT_MAGIC_PT3 && !first_format {
            return Err(SolveError::Checkpoint(
                "not a position table saved by this version of demon".into(),
            ));
        }
        let nodes = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
        let n = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
        if !first_format {
            // The search time so far, in microseconds; the checksum covers
            // the header's numbers (the first format's does not).
            let mut t = [0u8; 8];
            r.read_exact(&mut t).map_err(bad)?;
            self.before = Duration::from_micros(u64::from_le_bytes(t));
            sum.update(&head[8..]);
            sum.update(&t);
        }
        if idle_saved {
            let mut t = [0u8; 8];
            read(r, &mut sum, &mut t)?;
            self.dead_cache.idle = u64::from_le_bytes(t);
        }
        let mut e = [0u8; 17];
        for _ in 0..n {
            read(r, &mut sum, &mut e)?;
            let fp = u128::from_le_bytes(e[..16].try_into().expect("16 bytes"));
            // A search that forgets may have saved a fuller table than a
            // fresh one can take without forgetting: nothing is on a path
            // yet, so any entry may go.
            let r = if self.replace {
                self.table.get().insert_or_replace(fp, e[16], &|_| false)
            } else {
                self.table.get().insert_level(fp, e[16])
            };
            if r == Insert::Full {
                return Err(SolveError::Checkpoint(format!(
                    "its {n} positions do not fit in this memory limit ({} bytes)",
                    self.limits.max_memory
                )));
            }
        }
        // The paths (the first format has none).
        let mut paths = Vec::new();
        let long = |r: &mut dyn std::io::Read, sum: &mut xxhash_rust::xxh3::Xxh3| {
            let mut c = [0u8; 8];
            read(r, sum, &mut c)?;
            Ok::<u64, SolveError>(u64::from_le_bytes(c))
        };
        // What was left of the running cursor's turn.
        let mut turn_left = self.slice;
        if !first_format {
            let m = count(r, &mut sum)?;
            if lists {
                turn_left = long(r, &mut sum)?;
            }
            for _ in 0..m {
                let depth0 = count(r, &mut sum)?;
                let mut prefix = Vec::new();
                for _ in 0..count(r, &mut sum)? {
                    let mut b = [0u8; 5];
                    read(r, &mut sum, &mut b)?;
                    prefix.push(get_move(&b).ok_or_else(damaged)?);
                }
                let mut b = [0u8; 9];
                let (frames, cnodes, nsplit) = if lists {
                    let cnodes = long(r, &mut sum)?;
                    let nsplit = count(r, &mut sum)? as u32;
                    let mut frames = Vec::new();
                    for _ in 0..count(r, &mut sum)? {
                        let next = count(r, &mut sum)?;
                        let clean = long(r, &mut sum)?;
                        let child_at = long(r, &mut sum)?;
                        let born = long(r, &mut sum)?;
                        let mut moves = Vec::new();
                        for _ in 0..count(r, &mut sum)? {
                            read(r, &mut sum, &mut b)?;
                            moves.push(get_taken(&b)?);
                        }
                        frames.push(SavedFrame {
                            moves,
                            next,
                            clean,
                            child_at,
                            born,
                        });
                    }
                    (SavedFrames::Lists(frames), cnodes, nsplit)
                } else {
                    let mut taken = Vec::new();
                    for _ in 0..count(r, &mut sum)? {
                        read(r, &mut sum, &mut b)?;
                        taken.push(get_taken(&b)?);
                    }
                    (SavedFrames::Taken(taken), 0, 0)
                };
                paths.push(SavedPath {
                    depth0,
                    prefix,
                    frames,
                    cnodes,
                    nsplit,
                });
            }
        }
        let mut tail = [0u8; 8];
        r.read_exact(&mut tail).map_err(bad)?;
        if u64::from_le_bytes(tail) != sum.digest() {
            return Err(SolveError::Checkpoint(
                "its positions do not match their checksum (the file is damaged)".into(),
            ));
        }
        if r.read(&mut tail).map_err(bad)? != 0 {
            return Err(SolveError::Checkpoint(
                "it goes on after its last position (the file is damaged)".into(),
            ));
        }
        self.stats.nodes = nodes;
        self.resumed = first_format;
        self.rebuild(paths)?;
        self.turn_end = nodes.saturating_add(turn_left);
        Ok(())
    }

    /// Rebuilds saved search paths ([`solve_resumable`]) as cursors, parked
    /// in order (the search takes them in turn from the first): each path's
    /// positions are entered again by the moves it had played, and each
    /// frame lists the moves it listed when saved, as far explored, with
    /// the same `clean` bits, so that the search goes on as it would have
    /// without the stop. (From a file of the second format, which has
    /// only the moves played, each frame lists all its moves, none
    /// explored yet.)
    fn rebuild(&mut self, paths: Vec<SavedPath>) -> Result<(), SolveError> {
        let g = self.game;
        let stats = self.stats;
        for path in paths {
            let mut st = g.initial();
            for &m in &path.prefix {
                g.try_play(&mut st, m).map_err(|_| damaged())?;
            }
            let root = st.clone();
            let mut stack = Vec::new();
            match &path.frames {
                SavedFrames::Taken(taken) => {
                    self.rebuild_frame(&mut st, &mut stack, None)?;
                    for &t in taken {
                        let frame = stack.last_mut().expect("a frame");
                        // The move as the frame lists it (a generated move,
                        // so legal), put first and counted explored, as a
                        // frame below another explores its `next - 1`-th
                        // (its position is held by the next frame); the
                        // frame's other moves are all to explore.
                        let k = self.arena[frame.start..frame.end]
                            .iter()
                            .position(|a| self::taken(a) == t)
                            .ok_or_else(damaged)?;
                        self.arena[frame.start..=frame.start + k].rotate_right(1);
                        frame.next = frame.start + 1;
                        let sm = self.arena[frame.start];
                        self.play_listed(&mut st, frame, sm);
                        self.rebuild_frame(&mut st, &mut stack, None)?;
                    }
                }
                SavedFrames::Lists(frames) => {
                    // Room for the saved moves: grown by doubling, the
                    // arena could hold twice what the saved search did (an
                    // Easthaven path of 84,689 frames and 2.4 M moves then
                    // outgrew 64 MiB).
                    let moves: usize = frames.iter().map(|f| f.moves.len()).sum();
                    self.arena.reserve_exact(moves);
                    stack.reserve_exact(frames.len());
                    if frames.is_empty() {
                        return Err(damaged());
                    }
                    for (k, f) in frames.iter().enumerate() {
                        self.rebuild_frame(&mut st, &mut stack, Some((f, path.cnodes)))?;
                        if k + 1 < frames.len() {
                            let frame = stack.last_mut().expect("a frame");
                            if f.next == 0 {
                                return Err(damaged());
                            }
                            let sm = self.arena[frame.next - 1];
                            self.play_listed(&mut st, frame, sm);
                        }
                    }
                }
            }
            // No more room than the path holds: the saved search's vectors,
            // grown by doubling, held at least as much, so the resumed
            // search is no nearer its path limits than it was.
            stack.shrink_to_fit();
            self.arena.shrink_to_fit();
            self.members.shrink_to_fit();
            self.mpaths.shrink_to_fit();
            self.autos.shrink_to_fit();
            let prefix = (!path.prefix.is_empty()).then(|| {
                let chain_bytes = std::mem::size_of::<Prefix>()
                    + path.prefix.capacity() * std::mem::size_of::<Move>();
                Arc::new(Prefix {
                    before: None,
                    moves: path.prefix,
                    chain_bytes,
                })
            });
            let c = Cursor {
                st,
                stack,
                arena: std::mem::take(&mut self.arena),
                members: std::mem::take(&mut self.members),
                mpaths: std::mem::take(&mut self.mpaths),
                autos: std::mem::take(&mut self.autos),
                prefix,
                root,
                depth0: path.depth0,
                cnodes: path.cnodes,
                nsplit: path.nsplit,
            };
            self.parked_bytes += c.bytes();
            self.parked.push_back(c);
        }
        // Rebuilding expanded nothing: what it counted (safe moves, class
        // members) is not this sitting's work. But the positions of the
        // saved paths it entered again count for how near the search came
        // (the paths' ends are the saved search's frontier).
        self.stats = Stats {
            peak_memory: self.stats.peak_memory,
            most_up: self.stats.most_up.max(stats.most_up),
            ..stats
        };
        if let Some(mut c) = self.parked.pop_front() {
            self.parked_bytes -= c.bytes();
            let mut st = std::mem::replace(&mut self.st, g.initial());
            let mut stack = std::mem::take(&mut self.stack);
            self.swap_cursor(&mut c, &mut st, &mut stack);
            self.st = st;
            self.stack = stack;
            self.started = true;
        }
        Ok(())
    }

    /// Plays `sm`, a move `frame` lists, on `st` (the frame's position):
    /// the reversible moves to its class member (kept in `autos`, undone
    /// with the frame's), the talon state it sets, and the move; the frame
    /// records it as the move being explored.
    #[inline]
    fn play_listed(&mut self, st: &mut State, frame: &mut Frame, sm: SMove) {
        let g = self.game;
        if sm.member > 0 {
            let (a, b) = self.members[frame.members_start + sm.member as usize];
            for &m in &self.mpaths[a as usize..b as usize] {
                let u = g.play(st, m);
                self.autos.push((m, u));
            }
        }
        let prev = g.talon_state(st);
        if let Some(t) = sm.talon {
            g.set_talon_state(st, t);
        }
        let u = g.play(st, sm.mv);
        frame.cur = Some((sm, u, prev));
    }

    /// Gives `frame`, just rebuilt (its moves the arena's tail), the moves
    /// it listed when saved, `saved.moves` in their order: each must be one
    /// it lists now (a generated move, so legal; a move left out when
    /// saved was put to sleep or handed to another cursor), else the file
    /// is damaged. Its first `saved.next` are explored, and its `clean`
    /// bits are as saved: only explored moves may have one (a bit on a
    /// move not yet explored would put a sibling to sleep on the ground of
    /// a position never entered), and its node counts are at most its
    /// cursor's, `cnodes`.
    fn restore_list(
        &mut self,
        frame: &mut Frame,
        saved: &SavedFrame,
        cnodes: u64,
    ) -> Result<(), SolveError> {
        if !saved.fits(cnodes) {
            return Err(damaged());
        }
        let listed: Vec<SMove> = self.arena[frame.start..frame.end].to_vec();
        let mut used = vec![false; listed.len()];
        self.arena.truncate(frame.start);
        for &t in &saved.moves {
            let k = (0..listed.len())
                .find(|&k| !used[k] && taken(&listed[k]) == t)
                .ok_or_else(damaged)?;
            used[k] = true;
            self.arena.push(listed[k]);
        }
        frame.end = self.arena.len();
        frame.next = frame.start + saved.next;
        frame.clean = saved.clean;
        frame.child_at = saved.child_at;
        frame.born = saved.born;
        Ok(())
    }

    /// Enters `st` as the next frame of a rebuilt path: whether or not the
    /// table holds it (it was open when saved), with all its moves, or
    /// with those of `saved` ([`Self::restore_list`], with its cursor's
    /// node count).
    fn rebuild_frame(
        &mut self,
        st: &mut State,
        stack: &mut Vec<Frame>,
        saved: Option<(&SavedFrame, u64)>,
    ) -> Result<(), SolveError> {
        let room = self.arena.capacity();
        self.rebuilding = true;
        let e = self.enter_or_forget(st, stack);
        self.rebuilding = false;
        let memory = self.limits.max_memory;
        let too_big = || {
            SolveError::Checkpoint(format!(
                "its positions and paths do not fit in this memory limit ({memory} bytes)"
            ))
        };
        match e {
            Enter::Open(mut f) => {
                if let Some((saved, cnodes)) = saved {
                    self.restore_list(&mut f, saved, cnodes)?;
                    // The frame's full list may have grown the arena past
                    // the room kept for the saved lists: back to that.
                    self.arena.shrink_to(room);
                }
                self.hold(f.key);
                stack.push(f);
                // A saved path may be deep and the table loaded full (a
                // table shrunk for a deep path loads into one sized as
                // usual): the path takes its memory as the search's would.
                let path = self.path_bytes(stack.capacity());
                if path > self.path_budget && !self.widen_path(path, stack) {
                    return Err(too_big());
                }
                Ok(())
            }
            Enter::Full => Err(too_big()),
            Enter::Won | Enter::Seen => Err(damaged()),
        }
    }

    /// Writes the table and every path, for [`Self::load`] (see
    /// [`solve_resumable`]). Needs a table large enough to give back full
    /// fingerprints (see `crate::table`).
    fn save(&self, w: &mut dyn std::io::Write) -> Result<(), SolveError> {
        let too_small = || SolveError::Checkpoint("the position table is too small to list".into());
        let table = self.table.read();
        let n = table.entries().ok_or_else(too_small)?.count() as u64;
        let bad = |e: std::io::Error| SolveError::Checkpoint(format!("cannot write it: {e}"));
        // The running cursor's last move, played when a limit stopped the
        // search, was counted but not entered: it is saved unexplored, and
        // uncounted (in the search's and its cursor's node counts), so that
        // the resumed search counts it where this one did and its turns
        // and splits fall where this one's would have.
        let unentered = self.stack.last().is_some_and(|f| f.cur.is_some());
        let nodes = self.stats.nodes - u64::from(unentered);
        let mut head = Vec::with_capacity(32);
        head.extend_from_slice(CHECKPOINT_MAGIC);
        head.extend_from_slice(&nodes.to_le_bytes());
        head.extend_from_slice(&n.to_le_bytes());
        let micros = self.stats.elapsed.as_micros().min(u64::MAX as u128) as u64;
        head.extend_from_slice(&micros.to_le_bytes());
        head.extend_from_slice(&self.dead_cache.idle.to_le_bytes());
        w.write_all(&head).map_err(bad)?;
        // The checksum covers the header's numbers too.
        let mut sum = xxhash_rust::xxh3::Xxh3::new();
        sum.update(&head[8..]);
        for (fp, level) in table.entries().ok_or_else(too_small)? {
            let mut e = [0u8; 17];
            e[..16].copy_from_slice(&fp.to_le_bytes());
            e[16] = level;
            sum.update(&e);
            w.write_all(&e).map_err(bad)?;
        }
        // The paths: the running one (none if the first position found no
        // room), then the parked ones in turn.
        let running = (!self.stack.is_empty()).then_some((
            &self.prefix,
            &self.stack,
            self.depth0,
            &self.arena,
            (self.cnodes - u64::from(unentered), self.nsplit),
        ));
        let parked = self.parked.iter().map(|c| {
            (
                &c.prefix,
                &c.stack,
                c.depth0,
                &c.arena,
                (c.cnodes, c.nsplit),
            )
        });
        let paths: Vec<_> = running.into_iter().chain(parked).collect();
        let mut out = Vec::new();
        let word = |out: &mut Vec<u8>, x: usize| {
            out.extend_from_slice(&u32::try_from(x).expect("a path fits").to_le_bytes())
        };
        // The count is written (and summed) even when there is no path.
        word(&mut out, paths.len());
        out.extend_from_slice(&self.turn_end.saturating_sub(nodes).to_le_bytes());
        sum.update(&out);
        w.write_all(&out).map_err(bad)?;
        out.clear();
        let mut moves = Vec::new();
        for (prefix, stack, depth0, arena, (cnodes, nsplit)) in paths {
            word(&mut out, depth0);
            moves.clear();
            if let Some(p) = prefix {
                p.collect(&mut moves);
            }
            word(&mut out, moves.len());
            for &m in &moves {
                put_move(&mut out, m);
            }
            out.extend_from_slice(&cnodes.to_le_bytes());
            word(&mut out, nsplit as usize);
            word(&mut out, stack.len());
            for (k, f) in stack.iter().enumerate() {
                if k + 1 < stack.len() {
                    let (sm, _, _) = f.cur.expect("a frame below another explores a move");
                    debug_assert!(f.next > f.start && taken(&arena[f.next - 1]) == taken(&sm));
                }
                // The running cursor's unentered move (above).
                let top_unentered = k + 1 == stack.len() && f.cur.is_some();
                word(&mut out, f.next - f.start - usize::from(top_unentered));
                out.extend_from_slice(&f.clean.to_le_bytes());
                out.extend_from_slice(&f.child_at.to_le_bytes());
                out.extend_from_slice(&f.born.to_le_bytes());
                word(&mut out, f.end - f.start);
                for sm in &arena[f.start..f.end] {
                    put_taken(&mut out, sm);
                }
            }
            sum.update(&out);
            w.write_all(&out).map_err(bad)?;
            out.clear();
        }
        w.write_all(&sum.digest().to_le_bytes()).map_err(bad)?;
        w.flush().map_err(bad)
    }

    /// The positions of every frame of every path (the running cursor's,
    /// `stack`, and the parked ones'), counted.
    fn open_positions(&self, stack: &[Frame]) -> HashMap<u128, u32, BuildHasherDefault<FpHasher>> {
        let frames = stack.len() + self.parked.iter().map(|c| c.stack.len()).sum::<usize>();
        // Sized at once: grown by doubling, it would hold two arrays at a
        // time when memory is already short (a shrink is on its way).
        let mut open = HashMap::with_capacity_and_hasher(frames, Default::default());
        let parked = self.parked.iter().flat_map(|c| c.stack.iter());
        for f in stack.iter().chain(parked) {
            *open.entry(FingerprintSet::open_key(f.key)).or_insert(0) += 1;
        }
        open
    }

    /// Exchanges the running cursor with `c`.
    fn swap_cursor(&mut self, c: &mut Cursor, st: &mut State, stack: &mut Vec<Frame>) {
        std::mem::swap(&mut c.st, st);
        std::mem::swap(&mut c.stack, stack);
        std::mem::swap(&mut c.arena, &mut self.arena);
        std::mem::swap(&mut c.members, &mut self.members);
        std::mem::swap(&mut c.mpaths, &mut self.mpaths);
        std::mem::swap(&mut c.autos, &mut self.autos);
        std::mem::swap(&mut c.prefix, &mut self.prefix);
        std::mem::swap(&mut c.depth0, &mut self.depth0);
        std::mem::swap(&mut c.root, &mut self.root);
        std::mem::swap(&mut c.cnodes, &mut self.cnodes);
        std::mem::swap(&mut c.nsplit, &mut self.nsplit);
    }

    /// Hands a cursor to the crew's threads that wait for work: a parked
    /// one, or one split off the running cursor whatever it has cost so far
    /// (as [`Searcher::split`] argues, a split moves unexplored moves from
    /// one path to another, and the crew says LOST only once every thread
    /// is out of work).
    fn donate(&mut self, stack: &mut [Frame]) {
        let Some(crew) = self.crew.clone() else {
            return;
        };
        let c = match self.parked.pop_back() {
            Some(c) => {
                self.parked_bytes -= c.bytes();
                Some(c)
            }
            None => {
                let c = self.split(stack, true);
                self.stats.splits += u64::from(c.is_some());
                c
            }
        };
        if let Some(c) = c {
            self.stats.handed += 1;
            crew.give(c);
        }
    }

    /// The nodes of the whole search: this thread's and what the crew's
    /// other threads have added ([`Crew::nodes`]).
    fn total_nodes(&self) -> u64 {
        self.crew.as_ref().map_or(self.stats.nodes, |c| {
            c.nodes.load(Ordering::Relaxed) + self.stats.nodes - self.flushed
        })
    }

    /// What the table may hold while this thread pauses: what it holds,
    /// alone; in a crew, whose other threads go on inserting, its budget.
    fn table_share(&self) -> usize {
        let table = self.table.read();
        match self.crew {
            None => table.bytes(),
            Some(_) => table.budget_bytes(),
        }
    }

    /// The path budgets of the crew's other threads (0 alone).
    fn others_budget(&self) -> usize {
        self.crew
            .as_ref()
            .map_or(0, |c| c.others(&c.path_budget, self.me))
    }

    /// Ends the running cursor's turn: it may split, then it is parked and
    /// the next cursor runs.
    ///
    /// Why. On a won deal the depth-first search's cost is set by its
    /// worst early choice: on Superior Canfield seed 1 the first of three
    /// moves at depth 6 led to 20.3 M lost positions before the second won
    /// in 20 K; on Rainbow seed 220 the first two moves at the root cost
    /// 16.1 M. So the search runs many paths ("cursors") in turn, each for
    /// [`Options::slice`] nodes, and at the end of a turn (up to
    /// [`Options::cursors`] of them, and half the path's first budget) the running
    /// one may hand the unexplored moves of its shallowest frame that has
    /// any to a new cursor ([`Searcher::split`], when the move explored
    /// there has cost [`Options::split_after`] nodes): the alternatives
    /// nearest the root, where one wrong choice costs most, get searched
    /// early, side by side. This is work stealing, as in parallel
    /// depth-first search, on one thread.
    ///
    /// Soundness: the module's argument needs only that every move listed
    /// at a stored position is explored before LOST is said, by some
    /// cursor. A split moves a frame's unexplored moves from one cursor to
    /// another (the first's frame then ends where it stands); LOST is said
    /// only when every cursor has finished. The sibling sleep sets
    /// ([`Searcher::sleep`]) stay sound: a move is put to sleep only by a
    /// sibling explored after it at the same frame, in the same cursor,
    /// and their induction is on entry time, not on the order of paths; a
    /// split-off frame starts with nothing explored, so nothing sleeps in
    /// it. A position one cursor stored and another meets is skipped by
    /// the second, like any table hit: the first explores it.
    ///
    /// Memory. Each cursor holds a whole path (on Double Easthaven about
    /// 28 KB), and a parked cursor keeps what it grew to in its turns. So
    /// once all the paths together take half the path's first budget,
    /// there are no more splits and no more turns: the running cursor goes
    /// on alone, a plain depth-first search in the rest (and in what
    /// [`Searcher::widen_path`] gives it), until its part is explored and
    /// frees its path. (Rotating on would let every parked
    /// cursor grow in its turn, and the paths together outrun the budget:
    /// Double Easthaven seed 2 stopped at the memory limit of 512 MiB
    /// after 2.5 M nodes with 2,397 cursors; alone it is won in 18,648.)
    fn rotate(&mut self, st: &mut State, stack: &mut Vec<Frame>) {
        self.turn_end = self.stats.nodes + self.slice;
        if self
            .crew
            .as_ref()
            .is_some_and(|c| c.hungry.load(Ordering::Relaxed))
        {
            self.donate(stack);
        }
        if self.path_bytes(stack.capacity()) >= self.path_gate {
            return;
        }
        if self.parked.len() + 1 < self.max_cursors {
            if let Some(c) = self.split(stack, false) {
                self.stats.splits += 1;
                self.parked_bytes += c.bytes();
                self.parked.push_back(c);
            }
        }
        if let Some(mut c) = self.parked.pop_front() {
            self.parked_bytes -= c.bytes();
            self.swap_cursor(&mut c, st, stack);
            self.parked_bytes += c.bytes();
            self.parked.push_back(c);
        }
    }

    /// Hands the unexplored moves of the running cursor's shallowest frame
    /// that has any to a new cursor, if the move being explored there has
    /// cost enough ([`Options::split_after`]); `None` if not.
    fn split(&mut self, stack: &mut [Frame], force: bool) -> Option<Cursor> {
        let fi = stack.iter().position(|f| f.next < f.end)?;
        let shift = if self.split_doubling {
            self.nsplit.min(40)
        } else {
            0
        };
        if !force && self.cnodes - stack[fi].child_at < self.split_after << shift {
            return None;
        }
        self.nsplit += 1;
        // The position of frame `fi`, its safe moves played.
        let mut st = self.root.clone();
        let mut moves = Vec::new();
        self.line(&stack[..fi], &mut st, &mut moves);
        for &(m, _) in &self.autos[stack[fi].autos_start..stack[fi].autos_end] {
            self.game.play(&mut st, m);
            moves.push(m);
        }
        let chain_bytes = std::mem::size_of::<Prefix>()
            + moves.capacity() * std::mem::size_of::<Move>()
            + self.prefix.as_ref().map_or(0, |p| p.chain_bytes);
        let prefix = Some(Arc::new(Prefix {
            before: self.prefix.clone(),
            moves,
            chain_bytes,
        }));
        let f = &stack[fi];
        let mstart = f.members_start;
        let mend = stack
            .get(fi + 1)
            .map_or(self.members.len(), |n| n.members_start);
        let base = self.members[mstart].0;
        let top = self.members[mend - 1].1;
        let members = self.members[mstart..mend]
            .iter()
            .map(|&(a, b)| (a - base, b - base))
            .collect();
        let mpaths = self.mpaths[base as usize..top as usize].to_vec();
        let arena: Vec<SMove> = self.arena[f.next..f.end].to_vec();
        let root = Frame {
            start: 0,
            end: arena.len(),
            next: 0,
            members_start: 0,
            autos_start: 0,
            autos_end: 0,
            cur: None,
            clean: 0,
            child_at: 0,
            key: f.key,
            born: 0,
        };
        // A second frame of the same position, open as long as it is.
        self.hold(f.key);
        stack[fi].end = stack[fi].next;
        Some(Cursor {
            root: st.clone(),
            st,
            stack: vec![root],
            arena,
            members,
            mpaths,
            autos: Vec::new(),
            prefix,
            depth0: self.depth0 + fi,
            cnodes: 0,
            nsplit: 0,
        })
    }

    /// Plays on `st` the path through `frames` (from the running cursor's
    /// first frame): each frame's safe moves and the move being explored
    /// below it (K+ plays expanded into their stock turns), appending the
    /// moves to `out`.
    fn line(&self, frames: &[Frame], st: &mut State, out: &mut Vec<Move>) {
        let g = self.game;
        let mut play = |st: &mut State, m: Move| {
            g.play(st, m);
            out.push(m);
        };
        for f in frames {
            for &(m, _) in &self.autos[f.autos_start..f.autos_end] {
                play(st, m);
            }
            if let Some((sm, _, _)) = f.cur {
                let (a, b) = self.members[f.members_start + sm.member as usize];
                for &m in &self.mpaths[a as usize..b as usize] {
                    play(st, m);
                }
                if let Some(t) = sm.talon {
                    for m in g.stock_moves_between(st, t) {
                        play(st, m);
                    }
                }
                play(st, sm.mv);
            }
        }
    }

    /// Sibling sleep sets: the new position `child`, entered by the
    /// parent's move `i` with no safe moves on arrival, drops every earlier
    /// sibling move `j` that commutes with move `i` ([`independent`]) and
    /// whose own position had no safe moves: `j` then `i` reaches what `i`
    /// then `j` would.
    ///
    /// Soundness (no winnable position is missed). Call a position entered
    /// when the table first stores it. Claim: for every entered position x
    /// and every move m the generator lists at x, the result of m at x is
    /// entered by the end of the search (so, as before, the entered
    /// positions are closed under moves and contain every position the
    /// root reaches). By strong induction on entry time: a move listed at x
    /// is either explored (its result is entered then, or was before) or
    /// slept. A slept move j at x = i(s) was explored at the parent s
    /// before i, so y = j(s) was entered before x (now, or earlier as the
    /// same table entry). Since i and j commute, i is listed at y and
    /// i(y) = j(x); by the claim for y, entered earlier, i(y) is entered.
    /// (A position found in the table stands for the stored one with the
    /// same moves up to the table's equivalences, as for every hit.) A K+
    /// play that [`crate::key::new_reach`] leaves out at an entered
    /// position x is a move, with the same result, of the position stored
    /// under x's key at a higher level, entered before x: the claim for
    /// that position covers it.
    /// With tableau classes the claim holds up to class membership: a
    /// move i listed at s and legal at y is either offered at y's class
    /// or reversible there (then i(y) is in y's class, entered); only
    /// moves of the positions themselves (member 0) sleep or are slept.
    /// The sleep set is deliberately not inherited by grandchildren: then the
    /// position justifying a slept move could be entered after x, and
    /// with a table that breaks the induction.
    ///
    /// Across a checkpoint ([`solve_resumable`]) the induction runs over
    /// both sittings: a position the saved search entered is closed (its
    /// moves explored or slept on this ground) or held again by a rebuilt
    /// frame, which explores the moves it had left (its earlier moves were
    /// explored, and its `clean` bits say which of them may put a later
    /// sibling to sleep, as before the stop; from a file of the second
    /// format it explores all its moves and puts none to sleep, starting
    /// with no `clean` bits). Not after a file of the first format:
    /// there a table hit can be on a position the saved search explored
    /// while counting on a position then on its path, which the resumed
    /// search has not entered again yet, and a sibling slept on that
    /// ground could be the very move that leads back to it.
    fn sleep(&mut self, parent: &Frame, i: usize, child: &mut Frame) {
        let mi = self.arena[parent.start + i];
        if self.resumed || mi.fp.is_none() || parent.clean == 0 {
            return;
        }
        let before = child.end - child.start;
        let mut clean = parent.clean;
        while clean != 0 {
            let j = clean.trailing_zeros() as usize;
            clean &= clean - 1;
            let mj = self.arena[parent.start + j];
            if independent(mi.fp, mj.fp) {
                // Only the child's own moves: a move with the same label
                // from another member is another move.
                self.retain_tail(child.start, |m| {
                    !(m.member == 0 && m.mv == mj.mv && m.talon == mj.talon)
                });
                child.end = self.arena.len();
            }
        }
        self.stats.slept += (before - (child.end - child.start)) as u64;
    }

    /// Keeps, of the moves from `start` to the arena's end (a position's
    /// moves, the arena's tail), those `keep` accepts, in order; returns
    /// how many it dropped.
    fn retain_tail(&mut self, start: usize, keep: impl Fn(&SMove) -> bool) -> usize {
        let before = self.arena.len();
        let mut w = start;
        for r in start..before {
            let m = self.arena[r];
            if keep(&m) {
                self.arena[w] = m;
                w += 1;
            }
        }
        self.arena.truncate(w);
        before - w
    }

    /// Bytes of every cursor's path: the parked ones and the running one,
    /// whose stack has room for `frames` frames ([`path_vec_bytes`]).
    fn path_bytes(&self, frames: usize) -> usize {
        self.parked_bytes
            + path_vec_bytes(
                frames,
                &self.arena,
                &self.members,
                &self.mpaths,
                &self.autos,
            )
            + CLASS_CAP * std::mem::size_of::<class::Member>()
            + self.dead_cache.bytes()
            + self
                .open
                .as_ref()
                .map_or(0, |o| 3 * o.capacity() * OPEN_ENTRY_BYTES)
    }

    /// Lets a path that has outgrown its budget take memory the table has
    /// not allocated: the path budget grows to twice the path (at least
    /// 64 MiB more), and the table's budget shrinks by as much. The two
    /// budgets still add up to the search's memory, so the search stays
    /// inside it; `false` when the table already holds too much (then the
    /// search stops at the memory limit). Why: a depth-first path can run
    /// long where the table stays small (Chameleon seed 235 stopped at the
    /// limit of 4 GiB with 13 M positions in a 512 MiB table when the path
    /// had only its fixed 256 MiB), and a table that needs the memory
    /// gets it whenever the path does not.
    fn widen_path(&mut self, path: usize, stack: &Vec<Frame>) -> bool {
        // In a crew, the other threads' paths keep their budgets, and
        // one thread widens at a time.
        let crew = self.crew.clone();
        let _one = crew.as_ref().map(|c| lock(&c.widening));
        let memory = self.limits.max_memory - self.reserved - self.others_budget();
        let mut table = self.table.get();
        let free = memory.saturating_sub(table.bytes());
        let threads = crew.as_ref().map_or(1, |c| c.threads);
        let want = (2 * path).max(path + (64 << 20) / threads).min(free);
        let widened = want > path && table.lower_budget(memory - want);
        drop(table);
        if widened {
            self.path_budget = want;
            if let Some(c) = &crew {
                c.path_budget[self.me].store(want, Ordering::Relaxed);
            }
            return true;
        }
        self.replace && self.shrink_table(stack)
    }

    /// When the table has taken what the path needs and the search may
    /// forget ([`Options::replace_when_full`]), shrinks the table
    /// ([`FingerprintSet::shrink`], which keeps every open position) so
    /// that the path gets twice what it holds (at least 64 MiB more), as
    /// long as the table keeps an eighth of the memory; `false` if it
    /// cannot. Why: forgetting bounds the table, not the path, and a
    /// depth-first path can run as deep as the positions it passes
    /// through are new: Chameleon seed 254 stopped at the memory limit of
    /// 4 GiB at 69.5 M nodes with its path 2.1 M frames deep (939 MB)
    /// beside a 3.5 GB table, nothing forgotten yet.
    fn shrink_table(&mut self, stack: &Vec<Frame>) -> bool {
        let memory = self.limits.max_memory - self.reserved;
        if self.open.is_none() {
            // The positions the table must keep; counted in the path.
            self.open = Some(self.open_positions(stack));
        }
        let path = self.path_bytes(stack.capacity());
        let want = (2 * path).max(path + (64 << 20).min(memory / 8));
        let table = memory.saturating_sub(want);
        if table < memory / 8 {
            return false;
        }
        let open = self.open.as_ref().expect("made above");
        if !self.table.get().shrink(table, &|k| open.contains_key(&k)) {
            return false;
        }
        self.path_budget = memory - self.table.read().budget_bytes();
        self.stats.shrinks += 1;
        // The table never grows again, and the path keeps what it got: the
        // best-first probes (`drive_search`) find no memory left for them
        // from here on, which is where a deal is deep in lost positions.
        true
    }

    fn over_limit(&mut self, stack: &Vec<Frame>) -> Option<Limit> {
        let frames = stack.capacity();
        if let Some(n) = self.limits.max_nodes {
            if self.total_nodes() >= n {
                return Some(Limit::Nodes(n));
            }
        }
        let path = self.path_bytes(frames);
        if path > self.path_budget && !self.widen_path(path, stack) {
            return Some(Limit::Memory(self.limits.max_memory));
        }
        if self.stats.nodes.is_multiple_of(CLOCK_EVERY) {
            let mut others = 0;
            if let Some(crew) = &self.crew {
                if crew.halted() {
                    return Some(Limit::Interrupted);
                }
                crew.nodes
                    .fetch_add(self.stats.nodes - self.flushed, Ordering::Relaxed);
                self.flushed = self.stats.nodes;
                crew.path_used[self.me].store(path, Ordering::Relaxed);
                others = crew.others(&crew.path_used, self.me);
            }
            // One look at the table (in a crew, taken alone) for both.
            let (bytes, stored) = {
                let table = self.table.read();
                (table.bytes(), table.len())
            };
            self.stats.peak_memory = self
                .stats
                .peak_memory
                .max(bytes + path + others + self.reserved);
            if let Some(t) = self.limits.timeout {
                if self.start.elapsed() >= t {
                    return Some(Limit::Time(t));
                }
            }
            self.publish(|| stored);
            if self.stop.is_some_and(StopFlag::raised) {
                return Some(Limit::Interrupted);
            }
        }
        None
    }

    /// Plays the safe moves of a new position, then stores it and lists its
    /// moves (or reports it won, or seen before).
    fn enter(&mut self, st: &mut State) -> Enter {
        let a0 = self.autos.len();
        play_safe_moves(self.game, st, &mut self.autos);
        self.last_autos = self.autos.len() - a0;
        self.stats.auto_moves += self.last_autos as u64;
        // A sum of the foundations' heights: next to nothing beside the
        // key and the table's trip.
        note_most_up(&mut self.stats.most_up, self.game, st);
        if self.game.is_won(st) {
            return Enter::Won;
        }
        let form = if self.classes {
            self.class.form(self.game, st, &mut self.canon)
        } else {
            Form::Unmerged
        };
        // The position the key is of: the canonical member where one was
        // written. It has the position's talon, so its level.
        let keyed: &State = match form {
            Form::Binary { canonical: false } | Form::General(_) | Form::Free(_) => &self.canon,
            _ => st,
        };
        let (key, level) = fingerprint_level(self.game, keyed);
        // A dead end is stored like any position: it is lost, so "explored"
        // is true of it. It is checked only once stored, not at every
        // arrival: most arrivals are table hits (62 % of them on Superior
        // Canfield seed 62), and a hit costs less than the check.
        // In a crew, most arrivals need no lock ([`SharedTable::enter`]),
        // which asks for the cover before it stores the position.
        let quick = match (&self.table, &mut self.ticket, &self.open, self.rebuilding) {
            (Tbl::Shared(t), Some(ticket), None, false) => {
                t.enter(ticket, key, level, || fresh_cover(self.game, keyed, level))
            }
            _ => None,
        };
        let (r, lowered, covered) = match quick {
            Some(Quick::Present) => (Insert::Present, None, false),
            Some(Quick::New { lowered, covered }) => (Insert::New, lowered, covered),
            None => {
                // One borrow of the table for the insertion, what it lowered
                // and the fresh cover: in a crew ([`Crew`]) the cover must
                // have been entered before this position, as with one thread.
                let mut table = self.table.get();
                let r = match &self.open {
                    Some(open) => table.insert_or_replace(key, level, &|k| open.contains_key(&k)),
                    None => table.insert_level(key, level),
                };
                // A fresh state stored in another chain ([`fresh_cover`]).
                // Only a new position asks: its other fingerprint is not worth
                // computing at a table hit.
                let covered = r == Insert::New
                    && !self.rebuilding
                    && fresh_cover(self.game, keyed, level).is_some_and(|k| table.contains(k));
                (
                    r,
                    table.lowered_from().filter(|_| r == Insert::New),
                    covered,
                )
            }
        };
        let r = if self.rebuilding && r == Insert::Present {
            Insert::New
        } else {
            r
        };
        let r = if covered {
            self.stats.covered += 1;
            Insert::Present
        } else {
            r
        };
        let dead = r == Insert::New
            && self.deadlock
            && !self.rebuilding
            && crate::deadlock::dead_cached(&mut self.dead_cache, self.game, st, self.waste_bound);
        if r != Insert::New || dead {
            while self.autos.len() > a0 {
                let (m, u) = self.autos.pop().expect("len checked");
                self.game.undo(st, m, u);
            }
            if r == Insert::Full {
                return Enter::Full;
            }
            // Seen before, or lost: either way explored, with nothing found.
            if dead {
                self.stats.dead += 1;
            } else {
                self.stats.hits += 1;
            }
            return Enter::Seen;
        }
        let start = self.arena.len();
        let members_start = self.members.len();
        self.stats.merged += list_moves(
            self.game,
            st,
            form,
            &mut self.class,
            &mut self.reach,
            &mut self.scratch,
            &mut self.arena,
            &mut self.members,
            &mut self.mpaths,
        );
        // Searched before at a higher level: only the K+ plays that level
        // lacked are new ([`crate::key::new_reach`]).
        if let (Some(old), false, false) = (lowered, self.rebuilding, self.resumed) {
            if let Some(new) = new_reach(self.game, st, old) {
                let top = self.game.talon_state(st).0;
                // A K+ play takes the card one below its talon state's
                // position (the waste's top now, with no turns).
                self.stats.known_plays += self.retain_tail(start, |m| match m.mv {
                    Move::Play {
                        from: Loc::Waste, ..
                    } => new >> (m.talon.map_or(top, |t| t.0) as usize - 1) & 1 != 0,
                    _ => true,
                }) as u64;
            }
        }
        if self.members.len() - members_start > 1 {
            // Stable: the position's own moves first among equals.
            self.arena[start..].sort_by_key(|m| (m.member > 0, -m.score));
        }
        Enter::Open(Frame {
            start,
            end: self.arena.len(),
            next: start,
            members_start,
            autos_start: a0,
            autos_end: self.autos.len(),
            cur: None,
            clean: 0,
            child_at: 0,
            key,
            born: self.cnodes,
        })
    }

    /// The winning line: every frame's safe moves and chosen move, with K+
    /// plays expanded into the stock turns they stand for.
    fn solution(&self, stack: &[Frame]) -> Vec<Move> {
        let g = self.game;
        let mut st = self.root.clone();
        let mut out = Vec::new();
        if let Some(p) = &self.prefix {
            p.collect(&mut out);
        }
        self.line(stack, &mut st, &mut out);
        // The safe moves of the final (won) position.
        let last = stack.last().map_or(0, |f| {
            f.autos_end
                + f.cur.map_or(0, |(sm, _, _)| {
                    let (a, b) = self.members[f.members_start + sm.member as usize];
                    (b - a) as usize
                })
        });
        for &(m, _) in &self.autos[last..] {
            g.play(&mut st, m);
            out.push(m);
        }
        debug_assert!(g.is_won(&st));
        out
    }
}

/// Lists the moves of `st`, a position just stored whose class is `form`
/// ([`ClassFinder::form`]), behind `arena`: its own moves where its class
/// is not merged, else every member's moves that leave the class, each
/// marked with its member, whose path of reversible moves from `st` is
/// pushed onto `members` (a range of `mpaths`, member 0's empty). The
/// positions merged into `st`'s (its class's members but one).
#[allow(clippy::too_many_arguments)]
pub(crate) fn list_moves(
    game: &Game,
    st: &State,
    form: Form,
    class: &mut ClassFinder,
    reach: &mut ReachMemo,
    scratch: &mut SmallVec<[SMove; 32]>,
    arena: &mut Vec<SMove>,
    members: &mut Vec<(u32, u32)>,
    mpaths: &mut Vec<Move>,
) -> u64 {
    let mut added = 0;
    match form {
        Form::General(merged) | Form::Free(merged) => {
            // A free class stays one whatever tableau-to-tableau move is
            // made; an ordinary one, whatever reversible move.
            let free = matches!(form, Form::Free(_));
            if free {
                class.free_members(game, st);
            } else {
                let complete = class.explore(game, st);
                debug_assert!(complete);
            }
            debug_assert_eq!(class.members.len(), merged);
            added = merged as u64 - 1;
            // A free class's moves that lead into a free class: the
            // first of each card, source and kind stands for all.
            let mut verdicts: SmallVec<[(Card, bool, bool); 8]> = SmallVec::new();
            let mut taken: SmallVec<[FreeResult; 16]> = SmallVec::new();
            for k in 0..class.members.len() {
                let a = mpaths.len() as u32;
                class.path(k, mpaths);
                members.push((a, mpaths.len() as u32));
                // Moves that stay in the class are not offered (`generate`
                // leaves the reversible ones out); a move that leaves the
                // tableau alone has the same effect, up to the class,
                // from every member: the first's stands for all.
                let mode = if k == 0 {
                    Gen::ClassFirst
                } else {
                    Gen::ClassOther
                };
                let mst = &class.members[k].st;
                generate(game, mst, scratch, reach, mode);
                for &sm in scratch.iter() {
                    if free && touches_tableau_only(sm.mv) {
                        continue;
                    }
                    if let (true, Move::Play { from, to, card, .. }) = (free, sm.mv) {
                        let adding = matches!(to, Loc::Tableau(_));
                        if adding || matches!(from, Loc::Tableau(_)) {
                            let known = verdicts.iter().find(|v| (v.0, v.1) == (card, adding));
                            let merged = match known {
                                Some(v) => v.2,
                                None => {
                                    let v = class.result_free(game, st, card, adding);
                                    verdicts.push((card, adding, v));
                                    v
                                }
                            };
                            let from = if adding { from } else { Loc::Tableau(0) };
                            let key = (from, card, sm.talon, adding);
                            if merged {
                                if taken.contains(&key) {
                                    continue;
                                }
                                taken.push(key);
                            }
                        }
                    }
                    arena.push(SMove {
                        member: k as u8,
                        fp: if k == 0 { sm.fp } else { None },
                        ..sm
                    });
                }
            }
        }
        Form::Binary { .. } => {
            // Member 0 is the position itself; member i + 1 is it with
            // level i flipped, offering only the moves that need the
            // card the flip uncovers (see `ClassFinder::form`).
            let flips: SmallVec<[class::Flip; 16]> = class.flips.iter().copied().collect();
            added = (1u64 << flips.len().min(63)) - 1;
            let a = mpaths.len() as u32;
            members.push((a, a));
            generate(game, st, scratch, reach, Gen::ClassFirst);
            arena.extend_from_slice(scratch);
            let mut ms = st.clone();
            for (i, f) in flips.iter().enumerate() {
                let flip = class::flip_move(game, st, f.c, f.off);
                ms.clone_from(st);
                game.play(&mut ms, flip);
                let a = mpaths.len() as u32;
                mpaths.push(flip);
                members.push((a, a + 1));
                let Move::Play {
                    from: Loc::Tableau(q),
                    ..
                } = flip
                else {
                    unreachable!("a flip is a tableau move")
                };
                // `on` is now the top of the pile the flip left.
                generate_onto(game, &ms, q as usize, f.on, reach.last(), scratch);
                for &sm in scratch.iter() {
                    arena.push(SMove {
                        member: i as u8 + 1,
                        fp: None,
                        ..sm
                    });
                }
            }
        }
        Form::Unmerged | Form::Single => {
            members.push((mpaths.len() as u32, mpaths.len() as u32));
            generate(game, st, scratch, reach, Gen::All);
            arena.extend_from_slice(scratch);
        }
    }
    added
}

/// The reversible moves from `st` (of class `form`) to its class member
/// `k`, as [`list_moves`] numbers the members (none for member 0).
pub(crate) fn member_path(
    game: &Game,
    st: &State,
    form: Form,
    class: &mut ClassFinder,
    k: u8,
) -> Vec<Move> {
    let mut out = Vec::new();
    if k == 0 {
        return out;
    }
    match form {
        Form::General(_) => {
            class.explore(game, st);
            class.path(k as usize, &mut out);
        }
        Form::Free(_) => {
            class.free_members(game, st);
            class.path(k as usize, &mut out);
        }
        Form::Binary { .. } => {
            let f = class.flips[k as usize - 1];
            out.push(class::flip_move(game, st, f.c, f.off));
        }
        // No members but the position: the caller's line does not replay.
        Form::Unmerged | Form::Single => {}
    }
    out
}

/// What decides the free class a move of a free class leads into: where
/// its card comes from (any tableau pile counted as one), the card, the
/// talon state it is played from, and whether it goes onto the tableau.
type FreeResult = (Loc, Card, Option<(u8, u8)>, bool);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::fingerprint;
    use demon_core::{GameKind, Reading, RuleOverrides, Source};

    /// A saved frame is taken only with numbers a search could have
    /// saved: the checksum catches damage, not a file written wrongly.
    #[test]
    fn a_saved_frame_with_impossible_numbers_is_refused() {
        let frame = |next: usize, clean: u64, child_at: u64, born: u64| SavedFrame {
            moves: vec![(0, None, Move::Deal); 3],
            next,
            clean,
            child_at,
            born,
        };
        assert!(frame(2, 0b11, 10, 5).fits(10));
        assert!(frame(3, 0b101, 0, 0).fits(0));
        // More explored than listed.
        assert!(!frame(4, 0, 0, 0).fits(0));
        // A clean bit on the third move, not yet explored.
        assert!(!frame(2, 0b100, 0, 0).fits(0));
        // Node counts past the cursor's.
        assert!(!frame(2, 0, 11, 5).fits(10));
        assert!(!frame(2, 0, 5, 11).fits(10));
        // A frame of 64 explored moves or more may have any bit.
        let mut long = frame(70, u64::MAX, 0, 0);
        long.moves = vec![(0, None, Move::Deal); 70];
        assert!(long.fits(0));
    }

    /// A binary class's search moves (the position's own, and for each
    /// free level the moves onto the card its flip uncovers) lead into
    /// exactly the classes that the non-reversible moves of all its
    /// members lead into, found by breadth-first search; and every member
    /// gets the same canonical key. Checked along random playouts of every
    /// one-deck game with runs moving in any part.
    #[test]
    fn binary_classes_offer_every_move() {
        let (mut checked, mut flips) = (0usize, 0usize);
        for g in [
            GameKind::Canfield,
            GameKind::SuperiorCanfield,
            GameKind::Rainbow,
            GameKind::Chameleon,
            GameKind::SelectiveCanfield,
            GameKind::Easthaven,
        ] {
            for (reading, ranks) in [
                (Reading::Standard, None),
                (Reading::Pysolfc, None),
                (Reading::Standard, Some(5)),
                (Reading::Standard, Some(6)),
            ] {
                let o = RuleOverrides {
                    group_moves: Some(demon_core::rules::GroupMoves::Any),
                    ranks,
                    reserve: ranks.map(|_| 4),
                    ..Default::default()
                };
                let Ok(rules) = Rules::resolve(g, reading, &o) else {
                    continue;
                };
                for seed in 0..8u64 {
                    let layout = Source::Native(seed).layout(&rules);
                    let game = Game::new(&rules, &layout).unwrap();
                    let (c, f) = check_binary_playout(&game, seed);
                    checked += c;
                    flips += f;
                }
            }
        }
        println!("{checked} binary classes checked, {flips} flips");
        assert!(checked > 300, "{checked} binary classes checked");
    }

    /// The layered search reads a winning line back by finding each move's
    /// class member again ([`member_path`]): for every member [`list_moves`]
    /// plays a move from, the path is the one it listed, and every move
    /// listed for that member is legal at its end. Checked along random
    /// playouts of the one-deck games with runs moving in any part, every
    /// form met (general, free and binary classes).
    #[test]
    fn member_paths_are_the_listed_ones() {
        let mut met = std::collections::BTreeMap::new();
        for g in [
            GameKind::Canfield,
            GameKind::SuperiorCanfield,
            GameKind::Easthaven,
        ] {
            for ranks in [None, Some(6)] {
                let o = RuleOverrides {
                    group_moves: Some(demon_core::rules::GroupMoves::Any),
                    ranks,
                    reserve: ranks.map(|_| 4),
                    ..Default::default()
                };
                let Ok(rules) = Rules::resolve(g, Reading::Standard, &o) else {
                    continue;
                };
                for seed in 0..12u64 {
                    let layout = Source::Native(seed).layout(&rules);
                    let Ok(game) = Game::new(&rules, &layout) else {
                        continue;
                    };
                    let (mut cf, mut canon) = (ClassFinder::default(), game.initial());
                    let (mut reach, mut scratch) = (ReachMemo::default(), SmallVec::new());
                    let (mut arena, mut members, mut mpaths) = (Vec::new(), Vec::new(), Vec::new());
                    let mut st = game.initial();
                    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                    for _ in 0..200 {
                        let form = cf.form(&game, &st, &mut canon);
                        arena.clear();
                        members.clear();
                        mpaths.clear();
                        list_moves(
                            &game,
                            &st,
                            form,
                            &mut cf,
                            &mut reach,
                            &mut scratch,
                            &mut arena,
                            &mut members,
                            &mut mpaths,
                        );
                        let kind = match form {
                            Form::General(_) => "general",
                            Form::Free(_) => "free",
                            Form::Binary { .. } => "binary",
                            _ => "one",
                        };
                        for sm in &arena {
                            // Found again from the position, as the line does.
                            let form2 = cf.form(&game, &st, &mut canon);
                            let path = member_path(&game, &st, form2, &mut cf, sm.member);
                            let (a, b) = members[sm.member as usize];
                            assert_eq!(path, mpaths[a as usize..b as usize], "{kind}");
                            let mut ms = st.clone();
                            for &m in &path {
                                game.try_play(&mut ms, m).expect("a legal path");
                            }
                            if let Some(t) = sm.talon {
                                game.set_talon_state(&mut ms, t);
                            }
                            game.try_play(&mut ms, sm.mv).expect("a legal move");
                            *met.entry(kind).or_insert(0usize) += usize::from(sm.member > 0);
                        }
                        if !class::random_step(&game, &mut st, &mut rng) {
                            break;
                        }
                    }
                }
            }
        }
        println!("moves of members but the first: {met:?}");
        for kind in ["general", "free", "binary"] {
            assert!(met.get(kind).is_some_and(|&n| n > 100), "{kind}: {met:?}");
        }
    }

    /// The class of `st` as the smallest fingerprint of its members, or
    /// `None` when it is too large to list.
    fn class_id(g: &Game, st: &State) -> Option<u128> {
        let mut f = ClassFinder::default();
        f.explore(g, st).then(|| *f.fps.iter().min().unwrap())
    }

    fn children(g: &Game, st: &State, moves: &[SMove], out: &mut BTreeSet<u128>) -> Option<()> {
        for sm in moves {
            let mut s2 = st.clone();
            if let Some(t) = sm.talon {
                g.set_talon_state(&mut s2, t);
            }
            g.play(&mut s2, sm.mv);
            out.insert(class_id(g, &s2)?);
        }
        Some(())
    }

    use std::collections::BTreeSet;

    fn check_binary_playout(game: &Game, seed: u64) -> (usize, usize) {
        let mut cf = ClassFinder::default();
        let mut bfs = ClassFinder::default();
        let mut canon = game.initial();
        let mut other = game.initial();
        let mut st = game.initial();
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let (mut checked, mut nflips) = (0, 0);
        let mut moves = SmallVec::new();
        let mut reach = crate::moves::ReachMemo::default();
        'walk: for _ in 0..200 {
            if let class::Form::Binary { canonical } = cf.form(game, &st, &mut canon) {
                let key = fingerprint(game, if canonical { &st } else { &canon });
                if bfs.explore(game, &st) {
                    // One key for the whole class.
                    let mut cf2 = ClassFinder::default();
                    for m in &bfs.members {
                        let c2 = cf2.form(game, &m.st, &mut other);
                        let k2 = match c2 {
                            class::Form::Binary { canonical: true } => fingerprint(game, &m.st),
                            class::Form::Binary { canonical: false } => fingerprint(game, &other),
                            f => panic!("member form {f:?}"),
                        };
                        assert_eq!(k2, key, "one canonical key");
                    }
                    // Every member's non-reversible moves.
                    let mut want = BTreeSet::new();
                    let mut ok = Some(());
                    for m in &bfs.members {
                        generate(game, &m.st, &mut moves, &mut reach, Gen::ClassFirst);
                        ok = ok.and(children(game, &m.st, &moves, &mut want));
                    }
                    // The binary expansion.
                    let mut got = BTreeSet::new();
                    generate(game, &st, &mut moves, &mut reach, Gen::ClassFirst);
                    ok = ok.and(children(game, &st, &moves, &mut got));
                    for f in &cf.flips {
                        let flip = class::flip_move(game, &st, f.c, f.off);
                        let mut ms = st.clone();
                        game.play(&mut ms, flip);
                        let Move::Play {
                            from: Loc::Tableau(q),
                            ..
                        } = flip
                        else {
                            unreachable!()
                        };
                        generate_onto(game, &ms, q as usize, f.on, reach.last(), &mut moves);
                        ok = ok.and(children(game, &ms, &moves, &mut got));
                        nflips += 1;
                    }
                    if ok.is_some() && got != want {
                        for m in &bfs.members {
                            generate(game, &m.st, &mut moves, &mut reach, Gen::ClassFirst);
                            for sm in moves.iter() {
                                let mut s2 = m.st.clone();
                                if let Some(t) = sm.talon {
                                    game.set_talon_state(&mut s2, t);
                                }
                                game.play(&mut s2, sm.mv);
                                let id = class_id(game, &s2).unwrap();
                                if !got.contains(&id) {
                                    println!(
                                        "missing: {:?} from {:?}",
                                        sm.mv,
                                        game.position(&m.st).tableau
                                    );
                                }
                            }
                        }
                    }
                    if ok.is_some() {
                        assert_eq!(got, want, "{:?}", game.position(&st));
                        checked += 1;
                    }
                }
            }
            if !class::random_step(game, &mut st, &mut rng) {
                break 'walk;
            }
        }
        (checked, nflips)
    }

    /// A free class (spaces take anything, the slack is positive) is every
    /// arrangement of its tableau's cards: breadth-first search through
    /// every tableau-to-tableau move finds exactly as many positions as
    /// `form` counts, each of them free with the same canonical key, the
    /// canonical member among them. Checked along random playouts of
    /// Superior Canfield (full and reduced decks) and of Canfield with
    /// runs moving in any part and a small reserve (free once the reserve
    /// is empty).
    #[test]
    fn free_classes_are_every_arrangement() {
        let mut checked = 0usize;
        let mut sizes = BTreeSet::new();
        for (g, reserve) in [
            (GameKind::SuperiorCanfield, None),
            (GameKind::Canfield, Some(2)),
        ] {
            for ranks in [None, Some(5), Some(7)] {
                let o = RuleOverrides {
                    group_moves: Some(demon_core::rules::GroupMoves::Any),
                    ranks,
                    reserve: reserve.or(ranks.map(|_| 4)),
                    ..Default::default()
                };
                let rules = Rules::resolve(g, Reading::Standard, &o).unwrap();
                for seed in 0..12u64 {
                    let layout = Source::Native(seed).layout(&rules);
                    let game = Game::new(&rules, &layout).unwrap();
                    checked += check_free_playout(&game, seed, &mut sizes);
                }
            }
        }
        println!("{checked} free classes checked, sizes {sizes:?}");
        assert!(checked > 300, "{checked} free classes checked");
        assert!(sizes.len() > 5, "class sizes {sizes:?}");
    }

    fn check_free_playout(game: &Game, seed: u64, sizes: &mut BTreeSet<usize>) -> usize {
        let mut cf = ClassFinder::default();
        let mut canon = game.initial();
        let mut other = game.initial();
        let mut st = game.initial();
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut checked = 0;
        for _ in 0..300 {
            if let class::Form::Free(n) = cf.form(game, &st, &mut canon) {
                let key = fingerprint(game, &canon);
                // Every arrangement, through every tableau move, uncapped.
                let mut seen = BTreeSet::from([fingerprint(game, &st)]);
                let mut todo = vec![st.clone()];
                while let Some(m) = todo.pop() {
                    let mut cf2 = ClassFinder::default();
                    assert_eq!(cf2.form(game, &m, &mut other), class::Form::Free(n));
                    assert_eq!(fingerprint(game, &other), key, "one canonical key");
                    for mv in game.legal_moves(&m) {
                        if let Move::Play {
                            from: Loc::Tableau(_),
                            to: Loc::Tableau(_),
                            ..
                        } = mv
                        {
                            let mut m2 = m.clone();
                            game.play(&mut m2, mv);
                            if seen.insert(fingerprint(game, &m2)) {
                                todo.push(m2);
                            }
                        }
                    }
                    assert!(seen.len() <= n, "more arrangements than counted");
                }
                assert_eq!(seen.len(), n, "{:?}", game.position(&st).tableau);
                assert!(seen.contains(&key), "the canonical member is a member");
                cf.free_members(game, &st);
                assert_eq!(cf.members.len(), n);
                sizes.insert(n);
                checked += 1;
            }
            if !class::random_step(game, &mut st, &mut rng) {
                break;
            }
        }
        checked
    }
}
