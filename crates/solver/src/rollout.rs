//! Nested rollouts: a search for wins, beside the exhaustive search.
//!
//! The exhaustive search ([`crate::search`]) decides a deal by exploring
//! every position it reaches; on a won deal it can spend millions of
//! positions under one early wrong move, and a deal whose stock allows few
//! passes (American Toad, Variegated Canfield, PySolFC's Rainbow) hides
//! its wins behind whole lost end games. A nested rollout (Cazenave's
//! nested Monte-Carlo search, with the search's own move order as the
//! playout policy and no randomness) looks at the end of the game before
//! it chooses each move:
//! - level 0 is a greedy playout: from a position, play the search's
//!   best-scored move ([`generate`]) that does not lead back to a position
//!   of the current line, until the deal is won or no move is left; its
//!   value is the cards it put on the foundations and took out of the
//!   reserve ([`value`]);
//! - level L plays a line move by move: at each position it runs a level
//!   L - 1 rollout after every move and remembers the best whole line any
//!   of them found, then plays that line's next move.
//!
//! Beside this ladder of levels, which is deterministic and ever more
//! costly (a level-3 rollout of American Toad can take 60 M moves), a
//! second stream of rollouts, the *restarts* ([`Rollouts::restarts`]),
//! plays level-1 rollouts over and over, each with its own playout policy:
//! the search's scores with a noise of their own ([`noise`],
//! [`NOISE_SPANS`]). Where the search's order leads every playout the
//! same wrong way, some noise finds the way round; see [`RESTART_LEVEL`]
//! for what it won. Half the restarts start partway along the best line
//! the restarts have found so far (`Rollouts::cut`), so that they spend
//! their moves on the later part of the game.
//!
//! It only ever reports a win, as the list of moves it played; the solver
//! replays that list with the independent checker before saying WON, like
//! every other win. It never says LOST. So it cannot make a verdict wrong,
//! only find a win sooner. Everything it does is deterministic, so a run
//! with a node limit gives the same verdict every time.
//!
//! Measured when it was added (rollouts alone, native seeds 1-10, one
//! after the other): level 3 wins every 10-rank Variegated Canfield deal
//! (0.01-4.2 s each; the exhaustive search took 20-30 M nodes on two of
//! them), level 2 wins American Toad seeds 4, 5, 7, 8, 9 (the exhaustive
//! search at 250,000 nodes: seed 4 only), level 1 wins 8 of Double
//! Easthaven's 10 (1 at 250,000 nodes), and level 3 wins 8 of PySolFC
//! Rainbow's seeds 1-30 (1 at 2 M nodes).

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::time::{Duration, Instant};

use demon_core::{Game, Loc, Move, State};
use smallvec::SmallVec;

use crate::class::is_reversible;
use crate::key::fingerprint;
use crate::moves::{generate, generate_unsorted, play_safe_moves, Gen, SMove};
use crate::probe::Weights;
use crate::search::{FpHasher, StopFlag};

/// One step of a line: the talon state to turn to first (a K+ waste
/// play), and the move; the safe moves after it are played on arrival.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) talon: Option<(u8, u8)>,
    pub(crate) mv: Move,
}

impl Step {
    /// The step that plays search move `m`.
    pub(crate) fn of(m: &SMove) -> Step {
        Step {
            talon: m.talon,
            mv: m.mv,
        }
    }
}

/// The exact key of a position in the playouts' memory: a 128-bit hash
/// of the whole state (not the canonical fingerprint, which is the same
/// for positions whose piles are permuted, where a step's pile numbers
/// would be wrong). A collision between the at most millions of kept
/// positions has a chance below 2^-80; it could only make a kept line
/// illegal, which the checker would refuse: no verdict rests on it.
pub(crate) fn exact(st: &State) -> u128 {
    use std::hash::Hash;
    let mut h = xxhash_rust::xxh3::Xxh3Default::new();
    st.hash(&mut h);
    h.digest128()
}

/// Value of the best line found so far, or of a won position.
pub(crate) const WON: i64 = i64::MAX;

/// The most moves a playout plays, and the most a rollout of each level
/// plays itself (so the line set holds at most (4 + 1) times this many
/// positions; a reported line, the levels' moves and a playout's read
/// back, is longer): far beyond any game's win (the longest wins found
/// are about 1,000 moves, on Double Easthaven).
const MAX_LINE: usize = 4_000;

/// The most kept steps [`Rollouts::follow`] reads back at once.
const MAX_FOLLOW: usize = 4 * MAX_LINE;

/// Highest level [`Rollouts::phase`] climbs to. Rollouts are
/// deterministic, so once a rollout of this level has ended without a win
/// the phases stop: running it again would find the same. (American Toad
/// seeds 1-9 were each won at levels 1 to 4: levels 1-3 took 3,000 to
/// 15 M moves, seed 3's level 4 took 861 M.)
const TOP_LEVEL: u32 = 4;

/// The level of the restarts ([`Rollouts::restarts`]). Measured with
/// rollouts alone (noise span 40 for every restart), after the ladder's
/// levels 1 and 2, on the deals the
/// search had left unknown (it had given the ladder up to about 240 M
/// moves on American Toad and 80 M on Double Easthaven):
/// - American Toad 57, 260, 280, 290, 547, 725, 812 and 899 (unknown at
///   30 M nodes; 57, 280, 290 and 899 won by the ladder at 108 M to
///   293 M nodes, the others unknown at 300 M), 60 M moves each: level-1
///   restarts won 260, 280, 290 and 899 (in 1.1 M, 2.1 M, 14.7 M and
///   0.9 M moves; restarts 85, 18, 919 and 7), level-2 restarts only 280
///   and 899 (18.7 M and 1.3 M), and a level-3 rollout of the ladder took
///   more than 60 M moves on each of 57, 280, 290 and 899;
/// - Variegated Canfield, ten deals unknown at 30 M nodes (1, 5, 6, 7, 8,
///   11, 13, 18, 21, 22), 15 M moves: level-1 restarts won 8 and 13;
/// - Double Easthaven, nine deals unknown at 100 M nodes on which the
///   ladder had not run out of levels (845, 969, 61, 795, 775, 124, 751,
///   640, 567), 15 M moves: won 751 and 795. On ten on which it had run
///   out (101, 182, 214, 819, 894, 43, 431, 72, 422, 263), a thousand
///   level-2 restarts won none, nor 34 to 200 level-3 ones in 40 M moves.
///
/// The ladder still wins deals these restarts did not (American Toad 57),
/// so the two share the rollouts' moves ([`crate::search`]). In the
/// search, at the limits they had been left unknown at by the ladder
/// alone, the restarts won American Toad 260 and 725 (of 4 unknown at
/// 300 M nodes; `results/2026-11-28-restarts-retry`).
pub const RESTART_LEVEL: u32 = 1;

/// The noise a restart adds to a playout's move scores ranges over
/// `0..span`, the spans taken in turn from restart to restart. 40 is the
/// gap between a move onto the tableau (20) and a reserve card's move
/// (60), and between that and a foundation move (100): it mostly reorders
/// moves of one kind (which waste card, which pile). 120 reorders kinds
/// too, but never puts a move onto the tableau before a foundation move.
/// Restarts alone, each span on its own (American Toad 57, 260, 280,
/// 290, 547, 725, 812, 899 at 20 M moves; Variegated Canfield 1, 5, 6, 7,
/// 8, 11, 13, 18, 21, 22 and Double Easthaven 61, 124, 567, 640, 751, 775,
/// 795, 845, 969 at 15 M; wins in brackets):
///
/// | span | American Toad | Variegated Canfield | Double Easthaven |
/// |---|---|---|---|
/// | 40 | 4 (260, 280, 290, 899) | 2 (8, 13) | 2 (751, 795; after the ladder's levels 1-2) |
/// | 120 | 5 (57, 260, 280, 725, 899) | 1 (8) | 1 (751) |
/// | 300 | 5 (the same) | 1 (8) | 0 |
/// | 1,000 | 1 (899) | 0 of 7 | |
const NOISE_SPANS: [u64; 2] = [40, 120];

/// A restart's noise on the score of the `i`-th generated move of the
/// position of exact key `key` (see [`exact`]), in `0..span` for the
/// restart's span ([`NOISE_SPANS`]): a function of the three alone, so
/// that a restart's playout from a position is always the same, which
/// the playouts' memory rests on.
fn noise(key: u128, variant: u32, i: usize) -> i16 {
    let mut z = (key as u64)
        ^ ((key >> 64) as u64).rotate_left(17)
        ^ u64::from(variant).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    // SplitMix64's finaliser.
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % NOISE_SPANS[variant as usize % NOISE_SPANS.len()]) as i16
}

/// The number of the first restart of the restarts of `seed`
/// ([`Rollouts::restarts`]): 1 for seed 0, else 1 plus a multiple of 4
/// below 2^30 drawn from the seed, so that a restart's number modulo 4
/// (which of [`NOISE_SPANS`] it takes, and whether it starts partway,
/// [`Rollouts::cut`]) follows the same turns from any seed, and some
/// 3 * 2^30 restarts are left before the numbers run out (a restart
/// takes at least a few thousand moves). Two seeds' runs of numbers
/// overlap only where their starts are closer than the restarts played.
pub fn first_restart(seed: u64) -> u32 {
    if seed == 0 {
        return 1;
    }
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    // SplitMix64's finaliser.
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    1 + 4 * (z >> 36) as u32
}

/// Bytes the rollouts hold besides the playouts' memory: the positions
/// of the lines ((4 + 1) levels of at most 4,000 positions, in a hash
/// set: about 0.7 MiB) and the lines' steps (a few of at most about
/// 40,000 steps of 10 bytes a level, with [`MAX_FOLLOW`]: some 0.1 MiB in
/// the wins found, of about 300 to 1,000 steps). The restarts (level 1,
/// so two levels' lines) also keep their best line (at most about 28,000
/// steps: a restart's line after at most [`MAX_LINE`] steps it started
/// after) and put the positions of that part in the line set (at most
/// [`MAX_LINE`]): some 0.4 MiB at most, and in practice a few hundred
/// steps.
pub const LINE_BYTES: usize = 2 << 20;
/// Bytes an entry of the playouts' memory ([`Rollouts::playout`]) may
/// take: 48 for key, value and step, one control byte, and room for a
/// hash map at its least full (its buckets are a power of two, at most
/// 7/8 used, and allocated once, at the capacity asked for).
const ENDS_ENTRY_BYTES: usize = 128;

/// Why a rollout stopped before its end.
struct Stopped;

/// Nested rollouts on one deal, run in phases between the exhaustive
/// search's turns: each phase climbs the levels, one whole rollout each,
/// until its budget of moves is spent, and the next phase starts from the
/// level the last one could not finish.
pub struct Rollouts<'g> {
    g: &'g Game,
    /// The level the next phase starts from.
    level: u32,
    /// A rollout of [`TOP_LEVEL`] ended without a win: nothing is left to
    /// try (for the restarts: only once `u32::MAX` of them have).
    done: bool,
    /// Whether these are the restarts: level-1 rollouts, one playout
    /// policy after another, instead of the ladder of levels.
    restarts: bool,
    /// The playout policy: 0 (the ladder) plays the search's move order;
    /// each restart `v` (from 1) adds its own noise to the scores
    /// ([`noise`]).
    variant: u32,
    /// Moves played (each one a position reached); what a phase counts
    /// against its budget, and the nodes it adds to the search's.
    pub moves: u64,
    /// The most cards on the foundations where a playout stopped
    /// ([`crate::Stats::most_up`]; without worrying back the end of a
    /// line is its furthest point).
    pub most_up: u32,
    limit: u64,
    deadline: Option<(Instant, Duration)>,
    stop: Option<StopFlag>,
    /// Positions of the current line and of the playout under way, so
    /// that no line goes round in a circle.
    line: HashSet<u128, BuildHasherDefault<FpHasher>>,
    /// The restarts' best line so far from the deal, and its value: the
    /// line of the restart whose end was worth most ([`value`]), with the
    /// steps it started after ([`Rollouts::cut`]). Unused by the ladder.
    best: (i64, Vec<Step>),
    /// The restarts: search depth first near the end of each new best
    /// line ([`tail_of`]), in [`crate::search::TAIL_BYTES`] of memory the
    /// caller set aside. Off unless set.
    pub tail_nodes: u64,
    /// The last win was found by a tail search.
    by_tail: bool,
    /// What greedy playouts found: for each position one passed, the value
    /// it ended with and the step it took there (none at its end). See
    /// [`Rollouts::playout`].
    ends: HashMap<u128, (i64, Option<Step>), BuildHasherDefault<FpHasher>>,
    /// Entries `ends` may hold; it is emptied when full.
    ends_cap: usize,
    /// The last playout's steps, and where it stopped when that was a
    /// kept position (its line goes on with the kept steps from there).
    last_steps: Vec<Step>,
    last_end: Option<State>,
    gen: SmallVec<[SMove; 32]>,
    reach: crate::moves::ReachMemo,
    autos: Vec<(Move, demon_core::Undo)>,
    /// What a playout's end is worth ([`value`], [`Rollouts::valued`]).
    value: Weights,
}

/// Whether a rollout plays `mv`: every move but a reversible one (part of
/// a run onto another pile, see [`is_reversible`]) that does not uncover a
/// card with a place on the foundations. A reversible move
/// changes only the tableau's arrangement, and a playout that takes such
/// moves wanders through a class of arrangements (thousands of them in a
/// Double Easthaven end game) before it does anything else. Only what the
/// rollouts try depends on it, never a verdict. On rollouts alone at 1 M
/// moves each, Double Easthaven seeds 1-40: 27 won with every move, 36
/// without any reversible one, 37 with this rule (in 5.3 M moves against
/// 11.6 M); American Toad 1-40 (38) and Superior Canfield 1-60 at
/// 300,000 (50) are unchanged.
pub(crate) fn worth_playing(g: &Game, st: &State, mv: Move) -> bool {
    let Move::Play {
        from: Loc::Tableau(p),
        count,
        ..
    } = mv
    else {
        return true;
    };
    if !is_reversible(g, st, mv) {
        return true;
    }
    // A reversible move leaves at least the run's bottom card behind.
    let cs = g.pile(st, p as usize);
    g.foundation_for(st, cs[cs.len() - count as usize - 1])
        .is_some()
}

/// The index of the first move of the highest score: [`generate`]'s
/// first (its sort is stable).
fn first_best(moves: &[SMove]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, m) in moves.iter().enumerate() {
        if best.is_none_or(|b| m.score > moves[b].score) {
            best = Some(i);
        }
    }
    best
}

/// What the height of the lowest foundation adds to a playout's end, a
/// card (see [`value`]). A low foundation holds back every card of its
/// suit above it, and with several foundations of one colour (two decks)
/// those cards then crowd the tableau and the talon, so of two ends with
/// as many cards up the more even one is worth more. Rollouts alone
/// (the `nested` example, one phase of 1 M moves a deal) against no such
/// term: Variegated Canfield seeds 51-130 won 31 against 26 (20 a card:
/// 26; 150: 26; 400: 25), seeds 131-210 won 30 against 21 (20 a card:
/// 26), as many as without it at 3 M moves (30 and 31); American Toad
/// 1-40 39 against 38 and 41-140 (500,000 moves) 94 either way; Double
/// Easthaven 1-40 37 either way; PySolFC Rainbow 1-100 (300,000) 46
/// either way. In the search (2 M nodes a deal, rollouts on): Variegated
/// Canfield 1-100 won 22 against 18; Superior Canfield 1-200 (188 / 9 / 3)
/// and Double Easthaven 1-60 (58 / 0 / 2) unchanged.
const LOW_WEIGHT: i32 = 60;

/// What each face-down tableau card takes from a playout's end (see
/// [`value`]; only Easthaven and Double Easthaven deal cards face down).
/// A face-down card cannot move until every card above it has, so an end
/// that has turned more of them up has more cards in play, as the probes'
/// and beams' weights say (-3 a card against 10 a card up there too).
/// In the search (2 M nodes a deal, every search on, seed 0 of the random
/// searches) Double Easthaven seeds 1-1,000 won 943 against 929 without
/// the term (19 deals won only with it, 5 only without; 7 % fewer nodes
/// in all); 6 a card won 941 and 10 a card 944, so the weight matters
/// less than having the term. Easthaven 1-1,000: 825 won,
/// 164 lost, 11 unknown either way. Of Double Easthaven's 25 deals
/// unknown after 100 M nodes and seeds 0-25 without it, 667 was won at
/// 12.5 M nodes with seed 24 (the restarts); seed 25, and seed 24 at 10
/// a card, won none. The probes' two other tableau terms on top of it
/// (cards above a lower card of their suit, 4 a card; and with it
/// face-up cards not built on the card below, 1 a card) won 936 and 940
/// of Double Easthaven 1-1,000 (the latter 84, a deal nothing else has
/// won): not kept (results/2026-12-06-de-down-weight).
const DOWN_WEIGHT: i32 = 3;

/// The weights of what a playout's end is worth ([`value`]), the
/// default of [`crate::Options::playout`]: 10 a card on the foundations,
/// 5 a card out of the reserve, [`LOW_WEIGHT`] a card of the lowest
/// foundation's height and -[`DOWN_WEIGHT`] a face-down tableau card; the
/// probes' other terms ([`crate::probe::value`]) are 0. The same value
/// orders the rollouts, the restarts and the NRPA searches' lines.
pub fn playout_weights() -> Weights {
    Weights {
        found: 10,
        reserve: 5,
        down: -DOWN_WEIGHT,
        empty: 0,
        unbuilt: 0,
        blocked: 0,
        pass: 0,
        pos: 0,
        low: LOW_WEIGHT,
        newest_first: false,
    }
}

/// What a playout's end is worth, by the weights `w`
/// ([`playout_weights`] by default): [`WON`] for a win, else the probes'
/// value ([`crate::probe::value`]) of the position with `w`.
pub(crate) fn value(g: &Game, st: &State, w: &Weights) -> i64 {
    if g.is_won(st) {
        return WON;
    }
    i64::from(crate::probe::value(g, st, w))
}

impl<'g> Rollouts<'g> {
    /// The ladder of levels, holding at most `bytes` of memory (at least
    /// [`LINE_BYTES`]; what is above it is the playouts' memory).
    pub fn new(g: &'g Game, bytes: usize) -> Rollouts<'g> {
        Rollouts {
            g,
            level: 1,
            done: false,
            restarts: false,
            variant: 0,
            moves: 0,
            most_up: 0,
            limit: 0,
            deadline: None,
            stop: None,
            line: HashSet::default(),
            best: (i64::MIN, Vec::new()),
            tail_nodes: 0,
            by_tail: false,
            ends: HashMap::default(),
            ends_cap: bytes.saturating_sub(LINE_BYTES) / ENDS_ENTRY_BYTES,
            last_steps: Vec::new(),
            last_end: None,
            gen: SmallVec::new(),
            reach: crate::moves::ReachMemo::default(),
            autos: Vec::new(),
            value: playout_weights(),
        }
    }

    /// These rollouts, valuing a playout's end by `w` ([`value`]) instead
    /// of [`playout_weights`].
    pub fn valued(self, w: Weights) -> Rollouts<'g> {
        Rollouts { value: w, ..self }
    }

    /// The restarts ([`RESTART_LEVEL`]), holding at most `bytes` of
    /// memory as for [`Rollouts::new`], numbered from [`first_restart`]
    /// of `seed`: seed 0 plays restarts 1, 2, 3, ..., another seed its
    /// own run of numbers, so other noises.
    pub fn restarts(g: &'g Game, bytes: usize, seed: u64) -> Rollouts<'g> {
        Rollouts {
            level: RESTART_LEVEL,
            restarts: true,
            variant: first_restart(seed),
            ..Rollouts::new(g, bytes)
        }
    }

    /// Runs rollouts of rising level for at most `budget` more moves (and
    /// until the deadline or the stop flag): the core moves of a win from
    /// the deal, if one is found. A rollout cut short by the budget is run
    /// again from its start by the next phase, which gets its budget.
    pub fn phase(
        &mut self,
        budget: u64,
        deadline: Option<(Instant, Duration)>,
        stop: Option<StopFlag>,
    ) -> Option<Vec<Move>> {
        if self.done {
            return None;
        }
        self.limit = self.moves.saturating_add(budget);
        self.deadline = deadline;
        self.stop = stop;
        self.by_tail = false;
        if self.ends.capacity() == 0 && self.ends_cap > 0 {
            self.ends.reserve(self.ends_cap);
        }
        let g = self.g;
        let root = self.root();
        loop {
            self.line.clear();
            let mut st = root.clone();
            self.line.insert(fingerprint(g, &st));
            // The steps from the deal to where this rollout starts.
            let cut = self.cut();
            let prefix: Vec<Step> = self.best.1[..cut].to_vec();
            for &s in &prefix {
                self.play_step(&mut st, s);
                self.line.insert(fingerprint(g, &st));
            }
            let Ok((v, line)) = self.nested(&st, self.level) else {
                return None;
            };
            let mut full = prefix;
            full.extend(line);
            if v == WON {
                if let Some(moves) = self.core_moves(&full) {
                    return Some(moves);
                }
                // Not a win after all (a line read back cut short, or
                // a hash collision): nothing to report at this level.
                self.next_rollout();
                return None;
            }
            if self.restarts && v > self.best.0 {
                self.best = (v, full);
                if let Some(won) = self.tail() {
                    self.by_tail = true;
                    self.next_rollout();
                    return Some(won);
                }
            }
            if !self.next_rollout() {
                return None;
            }
        }
    }

    /// The tail searches on the best line, where they run
    /// ([`Rollouts::tail_nodes`]): a win's core moves from the deal, if found.
    fn tail(&mut self) -> Option<Vec<Move>> {
        tail_of(
            self.g,
            &self.best.1,
            self.tail_nodes.min(self.limit.saturating_sub(self.moves)),
            &mut self.moves,
            &mut self.most_up,
            self.deadline,
            self.stop,
        )
    }

    /// Whether the win [`Rollouts::phase`] returned last was found by a
    /// tail search.
    pub fn won_by_tail(&self) -> bool {
        self.by_tail
    }

    /// How many steps of the restarts' best line so far ([`Rollouts::best`])
    /// the next rollout plays before it starts: none for the ladder, nor for
    /// the restarts whose number is 0 or 1 modulo 4; for the others a part
    /// of the line (at most [`MAX_LINE`] steps) that is a function of the
    /// restart's number alone: `30 + h % 60` per cent, `h` being the
    /// restart's [`noise`] on a fixed key, so 30 % to 69 % for numbers 2
    /// modulo 4 (span 40) and 30 % to 89 % for numbers 3 (span 120; other
    /// [`NOISE_SPANS`] would move the cuts). Being fixed lets a phase that
    /// cuts a restart short start it again from the same place (the best
    /// line changes only when a restart ends). Such a restart keeps
    /// a good opening and spends its moves on the rest of the game, where a
    /// deal's late choices are.
    ///
    /// Measured with the restarts alone (the `nested` example, 64 MiB),
    /// against the same restarts all from the deal:
    /// - Variegated Canfield 1, 5, 6, 7, 8, 11, 13, 18, 21, 22 at 15 M
    ///   moves: 5 won (6, 8, 13, 18, 22, all by restarts that start
    ///   partway) against 2 (8, 13);
    /// - Double Easthaven 61, 124, 567, 640, 751, 775, 795, 845, 969 at
    ///   15 M: 751 and 795 either way;
    /// - American Toad 547: won by the same restart (23,521, from the
    ///   deal) after 153.8 M moves against 252.2 M, as the restarts that
    ///   start partway cost less; 812: no win in 200 M moves (nor in the
    ///   search at 1 G nodes before the cuts).
    ///
    /// In the search (`cargo bench --bench limited`, 2 M nodes a deal):
    /// Variegated Canfield 1-10 6 won against 3; American Toad 1-20 and
    /// Double Easthaven 1-20 all won either way, in 909,107 nodes against
    /// 900,841 and 3,118,685 against 3,124,883.
    fn cut(&self) -> usize {
        if !self.restarts || self.variant % 4 < 2 {
            return 0;
        }
        let n = self.best.1.len();
        let h = noise(0x05EE_DCA7, self.variant, 0) as usize;
        // At most MAX_LINE steps: a best line is its restart's line (at
        // most about 24,000 steps) after the part it started after, so
        // without a bound the lines could grow from restart to restart.
        (n * (30 + h % 60) / 100).min(MAX_LINE)
    }

    /// Moves on after a rollout that found no win: the ladder to its next
    /// level, the restarts to their next policy (whose playouts end
    /// elsewhere, so the memory of the last one's is dropped). `false`
    /// when nothing is left to try.
    fn next_rollout(&mut self) -> bool {
        if self.restarts {
            match self.variant.checked_add(1) {
                Some(v) => {
                    self.variant = v;
                    self.ends.clear();
                    return true;
                }
                None => {
                    self.done = true;
                    return false;
                }
            }
        }
        if self.level < TOP_LEVEL {
            self.level += 1;
            return true;
        }
        self.done = true;
        false
    }

    fn check(&self) -> Result<(), Stopped> {
        if self.moves >= self.limit {
            return Err(Stopped);
        }
        if self.moves.is_multiple_of(4096) {
            if let Some((start, t)) = self.deadline {
                if start.elapsed() >= t {
                    return Err(Stopped);
                }
            }
            if self.stop.is_some_and(StopFlag::raised) {
                return Err(Stopped);
            }
        }
        Ok(())
    }

    /// Plays step `s` and the safe moves after it, counting a move.
    fn apply(&mut self, st: &mut State, s: Step) {
        self.play_step(st, s);
        self.moves += 1;
    }

    /// The deal with its safe moves played, which it leaves in
    /// `self.autos`: where every line starts.
    fn root(&mut self) -> State {
        deal_root(self.g, &mut self.autos)
    }

    /// Plays step `s` (turning the talon first for a K+ waste play) and
    /// the safe moves after it.
    fn play_step(&mut self, st: &mut State, s: Step) {
        play_step(self.g, st, s, &mut self.autos);
    }

    /// The steps of `st` worth playing ([`worth_playing`]), in the
    /// search's order.
    fn steps(&mut self, st: &State) -> SmallVec<[Step; 32]> {
        generate(self.g, st, &mut self.gen, &mut self.reach, Gen::All);
        let g = self.g;
        self.gen
            .iter()
            .filter(|m| worth_playing(g, st, m.mv))
            .map(Step::of)
            .collect()
    }

    /// A greedy playout from `st` (whose fingerprint is in the line): its
    /// value. The positions it adds to the line are taken out
    /// again.
    ///
    /// Playouts remember where they went: every position a playout passes
    /// is kept in `ends` with the playout's final value and the step it
    /// took there, and a later playout that reaches a kept position stops
    /// and takes its value. Most of a nested rollout's playouts run on
    /// from positions earlier ones passed (a level 1 rollout's next step
    /// is the first step of its best playout), so this saves most of their
    /// moves. The steps kept never form a circle: a position is kept once
    /// (the first playout through it decides its step), and its step leads
    /// to a position kept by the same playout, further on, or to one kept
    /// before. [`Rollouts::last_line`] reads a playout's line back.
    fn playout(&mut self, st: &State) -> Result<i64, Stopped> {
        let mut st = st.clone();
        let mut key = exact(&st);
        let mut walk: Vec<(u128, Step)> = Vec::new();
        let mut added: Vec<u128> = Vec::new();
        let result = loop {
            if let Some(&(v, _)) = self.ends.get(&key) {
                break Ok((v, true));
            }
            if self.g.is_won(&st) || walk.len() >= MAX_LINE {
                break Ok((value(self.g, &st, &self.value), false));
            }
            // The first of `steps` (in its order) that leads off the line:
            // the moves are taken best first one at a time, not sorted, as
            // the first one or two are nearly always the one.
            let mut next = None;
            let mut gen = std::mem::take(&mut self.gen);
            generate_unsorted(self.g, &st, &mut gen, &mut self.reach, Gen::All);
            if self.variant > 0 {
                for (i, m) in gen.iter_mut().enumerate() {
                    m.score = m.score.saturating_add(noise(key, self.variant, i));
                }
            }
            while let Some(i) = first_best(&gen) {
                let m = gen.remove(i);
                if !worth_playing(self.g, &st, m.mv) {
                    continue;
                }
                if let Err(e) = self.check() {
                    next = Some(Err(e));
                    break;
                }
                let s = Step::of(&m);
                let mut c = st.clone();
                self.apply(&mut c, s);
                let f = fingerprint(self.g, &c);
                if self.line.insert(f) {
                    added.push(f);
                    next = Some(Ok((s, c)));
                    break;
                }
            }
            self.gen = gen;
            let (s, c) = match next {
                None => break Ok((value(self.g, &st, &self.value), false)),
                Some(Err(e)) => break Err(e),
                Some(Ok(x)) => x,
            };
            walk.push((key, s));
            st = c;
            key = exact(&st);
        };
        // Where the playout stopped: its end, or a kept position whose
        // end an earlier playout counted.
        crate::search::note_most_up(&mut self.most_up, self.g, &st);
        for f in added {
            self.line.remove(&f);
        }
        let (v, kept) = result?;
        self.last_steps.clear();
        self.last_steps.extend(walk.iter().map(|&(_, s)| s));
        self.last_end = kept.then_some(st);
        if self.ends.len() + walk.len() + 1 > self.ends_cap {
            // Read the kept steps this playout ended on before they go; its
            // own steps are then not kept either, as the last of them
            // leads to a position no longer kept (a later playout could
            // keep it with a step leading back into them: a circle).
            if let Some(end) = self.last_end.take() {
                let mut tail = std::mem::take(&mut self.last_steps);
                self.follow(end, &mut tail);
                self.last_steps = tail;
                self.ends.clear();
                return Ok(v);
            }
            self.ends.clear();
            if walk.len() + 1 > self.ends_cap {
                return Ok(v);
            }
        }
        if !kept {
            self.ends.entry(key).or_insert((v, None));
        }
        for (k, s) in walk {
            self.ends.entry(k).or_insert((v, Some(s)));
        }
        Ok(v)
    }

    /// The line of the last playout ([`Rollouts::playout`]), appended to
    /// `out`: its own steps, then the kept steps from where it stopped.
    fn last_line(&mut self, out: &mut Vec<Step>) {
        out.extend_from_slice(&self.last_steps);
        if let Some(st) = self.last_end.take() {
            self.follow(st, out);
        }
    }

    /// The kept steps from `st` on, appended to `out`; at most
    /// [`MAX_FOLLOW`] of them (they form no circle, but a bound does not
    /// rest on that argument; a line cut short is no win, see
    /// [`Rollouts::core_moves`]).
    fn follow(&mut self, mut st: State, out: &mut Vec<Step>) {
        for _ in 0..MAX_FOLLOW {
            let Some(&(_, Some(s))) = self.ends.get(&exact(&st)) else {
                return;
            };
            out.push(s);
            self.play_step(&mut st, s);
        }
    }

    /// A rollout of `level` from `st` (in `self.line`): the value of the
    /// best line it found, and that line's steps from `st`.
    fn nested(&mut self, st: &State, level: u32) -> Result<(i64, Vec<Step>), Stopped> {
        if level == 0 {
            // The line is read back only when the caller keeps it.
            return Ok((self.playout(st)?, Vec::new()));
        }
        let mut st = st.clone();
        let mut played: Vec<Step> = Vec::new();
        let mut added: Vec<u128> = Vec::new();
        let mut best: (i64, Vec<Step>) = (value(self.g, &st, &self.value), Vec::new());
        let result = 'line: loop {
            if best.0 == WON || self.g.is_won(&st) || played.len() >= MAX_LINE {
                break Ok(());
            }
            for s in self.steps(&st) {
                if let Err(e) = self.check() {
                    break 'line Err(e);
                }
                let mut c = st.clone();
                self.apply(&mut c, s);
                let fp = fingerprint(self.g, &c);
                if !self.line.insert(fp) {
                    continue;
                }
                let mut r = self.nested(&c, level - 1);
                // A better line, or one as good that goes on from here
                // where the best so far ends.
                let better = |v: i64| v > best.0 || (v == best.0 && best.1.len() <= played.len());
                if let Ok((v, line)) = &mut r {
                    if level == 1 && better(*v) {
                        self.last_line(line);
                    }
                }
                self.line.remove(&fp);
                let (v, line) = match r {
                    Ok(x) => x,
                    Err(e) => break 'line Err(e),
                };
                if better(v) {
                    let mut full = played.clone();
                    full.push(s);
                    full.extend(line);
                    best = (v, full);
                    if v == WON {
                        break;
                    }
                }
            }
            if best.0 == WON {
                break Ok(());
            }
            // Follow the best line found so far, if it goes on from here.
            let Some(&s) = best.1.get(played.len()) else {
                break Ok(());
            };
            if let Err(e) = self.check() {
                break Err(e);
            }
            self.apply(&mut st, s);
            let fp = fingerprint(self.g, &st);
            if self.line.insert(fp) {
                added.push(fp);
            }
            played.push(s);
        };
        for fp in &added {
            self.line.remove(fp);
        }
        result.map(|()| best)
    }

    /// The core moves of `line` from the deal: the safe moves played on
    /// arrival, and the stock turns of each K+ waste play, spelled out;
    /// `None` unless they are legal and win (the solver then replays them
    /// with the independent checker too).
    fn core_moves(&mut self, line: &[Step]) -> Option<Vec<Move>> {
        core_moves(self.g, line)
    }
}

/// Plays step `s` of `g` (turning the talon first for a K+ waste play)
/// and the safe moves after it, which it leaves in `autos`: how the
/// rollouts and the beams ([`crate::beam`]) play their lines.
pub(crate) fn play_step(
    g: &Game,
    st: &mut State,
    s: Step,
    autos: &mut Vec<(Move, demon_core::Undo)>,
) {
    if let Some(t) = s.talon {
        g.set_talon_state(st, t);
    }
    g.play(st, s.mv);
    autos.clear();
    play_safe_moves(g, st, autos);
}

/// The deal of `g` with its safe moves played, which are left in `autos`:
/// where the rollouts', beams' and NRPA searches' lines start.
pub(crate) fn deal_root(g: &Game, autos: &mut Vec<(Move, demon_core::Undo)>) -> State {
    let mut st = g.initial();
    autos.clear();
    play_safe_moves(g, &mut st, autos);
    st
}

/// The height of the lowest foundation of `st` (0 with none).
pub(crate) fn lowest_foundation(g: &Game, st: &State) -> u8 {
    (0..g.rules().foundations())
        .map(|f| g.foundation_height(st, f))
        .min()
        .unwrap_or(0)
}

/// The face-down cards of `st`'s tableau piles, in all.
pub(crate) fn face_down_cards(g: &Game, st: &State) -> usize {
    (0..g.rules().piles as usize)
        .map(|p| g.face_down(st, p))
        .sum()
}

/// The core moves of `line` from the deal of `g`: the safe moves played
/// on arrival, and the stock turns of each K+ waste play, spelled out;
/// `None` unless they are legal and win (the solver then replays them
/// with the independent checker too). The rollouts' lines and the
/// beams' ([`crate::beam`]) are read so.
pub(crate) fn core_moves(g: &Game, line: &[Step]) -> Option<Vec<Move>> {
    core_moves_via(g, line, &mut |_, _| Vec::new())
}

/// [`core_moves`], with the moves `before(i, position)` gives played
/// before step `i` (the layered search's reversible moves to the class
/// member a step is played from), and no safe moves after them.
pub(crate) fn core_moves_via(
    g: &Game,
    line: &[Step],
    before: &mut dyn FnMut(usize, &State) -> Vec<Move>,
) -> Option<Vec<Move>> {
    line_moves_via(g, line, before, true)
}

/// [`core_moves_via`], won or not unless `need_win`.
fn line_moves_via(
    g: &Game,
    line: &[Step],
    before: &mut dyn FnMut(usize, &State) -> Vec<Move>,
    need_win: bool,
) -> Option<Vec<Move>> {
    let mut st = g.initial();
    let mut autos = Vec::new();
    play_safe_moves(g, &mut st, &mut autos);
    let mut out: Vec<Move> = autos.iter().map(|&(m, _)| m).collect();
    let mut reach = SmallVec::new();
    for (i, s) in line.iter().enumerate() {
        for m in before(i, &st) {
            g.try_play(&mut st, m).ok()?;
            out.push(m);
        }
        if let Some(t) = s.talon {
            g.waste_reach(&st, &mut reach);
            if !reach
                .iter()
                .any(|r: &demon_core::Reach| (r.pos, r.passes) == t)
            {
                return None;
            }
            for m in g.stock_moves_between(&st, t) {
                g.play(&mut st, m);
                out.push(m);
            }
        }
        g.try_play(&mut st, s.mv).ok()?;
        out.push(s.mv);
        autos.clear();
        play_safe_moves(g, &mut st, &mut autos);
        out.extend(autos.iter().map(|&(m, _)| m));
    }
    (!need_win || g.is_won(&st)).then_some(out)
}

/// Where the restarts' best line so far ends ([`Rollouts::best_end`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestEnd {
    /// Its value ([`value`]).
    pub value: i64,
    /// Its steps from the deal.
    pub steps: usize,
    /// Cards on the foundations at its end (with pre-placed ones).
    pub foundation: usize,
    /// Cards left in the reserve.
    pub reserve: usize,
    /// Cards left in the stock and the waste.
    pub talon: usize,
}

impl Rollouts<'_> {
    /// The end of the restarts' best line so far, replayed from the deal;
    /// `None` before a restart has ended without a win (and for the
    /// ladder, which keeps no best line). For experiments: how near the
    /// restarts came on a deal they did not win.
    #[doc(hidden)]
    pub fn best_end(&mut self) -> Option<BestEnd> {
        // `best` is replaced only by a higher value, so it has been set
        // exactly when its value is above the least.
        if self.best.0 == i64::MIN {
            return None;
        }
        let g = self.g;
        let mut st = self.root();
        let steps = self.best.1.clone();
        for &s in &steps {
            self.play_step(&mut st, s);
        }
        Some(BestEnd {
            value: self.best.0,
            steps: steps.len(),
            foundation: g.foundation_cards(&st),
            reserve: g.reserve(&st).len(),
            talon: g.stock(&st).len() + g.waste(&st).len(),
        })
    }
}

impl Rollouts<'_> {
    /// The core moves of the restarts' best line so far, from the deal
    /// (as [`core_moves`], won or not); `None` as for [`Rollouts::best_end`].
    #[doc(hidden)]
    pub fn best_moves(&self) -> Option<Vec<Move>> {
        if self.best.0 == i64::MIN {
            return None;
        }
        line_moves(self.g, &self.best.1)
    }
}

/// The core moves of `line` from the deal of `g`, as [`core_moves`] reads
/// them, won or not; `None` if they are not legal (a kept line that a
/// fingerprint collision made illegal, see [`Rollouts::playout`]).
pub(crate) fn line_moves(g: &Game, line: &[Step]) -> Option<Vec<Move>> {
    line_moves_via(g, line, &mut |_, _| Vec::new(), false)
}

/// The tail searches ([`crate::search::tail_search`]) on `line`, a random
/// search's line from the deal that ended without a win, for at most
/// `nodes` nodes (the caller's budget a line, [`crate::search::TAIL_NODES`]
/// by default, within what is left of its own), adding them to `moves`
/// (as the search's moves), before the
/// deadline and the stop flag, in [`crate::search::TAIL_BYTES`]; they
/// raise `most_up` to what they saw. A win's core moves from the deal,
/// if found. The NRPA searches and the restarts call it alike.
pub(crate) fn tail_of(
    g: &Game,
    line: &[Step],
    nodes: u64,
    moves: &mut u64,
    most_up: &mut u32,
    deadline: Option<(Instant, Duration)>,
    stop: Option<StopFlag>,
) -> Option<Vec<Move>> {
    if nodes == 0 {
        return None;
    }
    let line = line_moves(g, line)?;
    let end =
        crate::search::tail_search(g, &line, nodes, crate::search::TAIL_BYTES, deadline, stop);
    *moves += end.nodes;
    *most_up = (*most_up).max(end.most_up);
    end.won
}

/// Rollouts alone on one deal, for experiments and tests: the ladder, or
/// the restarts if `restarts`, in phases of `budget` moves each, at most
/// `phases` of them, holding `bytes` of memory. The length of the win
/// found (replayed by the checker; panics if it does not replay), the
/// moves played, and the level reached (the ladder) or the restart last
/// played (the restarts).
#[doc(hidden)]
pub fn rollouts_alone(
    rules: &demon_core::Rules,
    layout: &demon_core::Layout,
    restarts: bool,
    bytes: usize,
    budget: u64,
    phases: u32,
) -> (Option<usize>, u64, u32) {
    let (won, moves, reached, _) =
        rollouts_alone_best(rules, layout, restarts, bytes, budget, phases);
    (won, moves, reached)
}

/// [`rollouts_alone`], and where the restarts' best line ends when they
/// found no win ([`Rollouts::best_end`]).
#[doc(hidden)]
pub fn rollouts_alone_best(
    rules: &demon_core::Rules,
    layout: &demon_core::Layout,
    restarts: bool,
    bytes: usize,
    budget: u64,
    phases: u32,
) -> (Option<usize>, u64, u32, Option<BestEnd>) {
    let g = Game::new(rules, layout).expect("layout");
    let mut r = if restarts {
        Rollouts::restarts(&g, bytes, 0)
    } else {
        Rollouts::new(&g, bytes)
    };
    let reached = |r: &Rollouts| if restarts { r.variant } else { r.level };
    for _ in 0..phases {
        if let Some(m) = r.phase(budget, None, None) {
            let ok = demon_core::replay::replay(rules, layout, &m).is_ok_and(|x| x.won);
            assert!(ok, "a rollout's line does not replay to a win");
            return (Some(m.len()), r.moves, reached(&r), None);
        }
    }
    let end = r.best_end();
    (None, r.moves, reached(&r), end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use demon_core::{GameKind, Reading, Source};

    /// A playout end's value at the deal: Variegated Canfield has its
    /// eight Aces up (8 x 10, and the lowest foundation 1 high: 60) and
    /// nothing face down; Double Easthaven nothing up and 8 x 2 cards face
    /// down.
    #[test]
    fn value_at_the_deal() {
        let at_deal = |kind: GameKind| {
            let rules = kind.preset(Reading::Standard).unwrap();
            let layout = Source::Native(1).layout(&rules);
            let g = Game::new(&rules, &layout).unwrap();
            value(&g, &g.initial(), &playout_weights())
        };
        assert_eq!(
            at_deal(GameKind::VariegatedCanfield),
            i64::from(8 * 10 + LOW_WEIGHT)
        );
        assert_eq!(
            at_deal(GameKind::DoubleEasthaven),
            i64::from(-16 * DOWN_WEIGHT)
        );
        assert_eq!(at_deal(GameKind::Easthaven), i64::from(-14 * DOWN_WEIGHT));
    }

    /// A restart's noise stays in its span (40 for even restarts, 120 for
    /// odd ones), covers it, and differs from restart to restart: the
    /// restarts of one span are different policies, not one.
    #[test]
    fn noise_spans_and_varies() {
        for (variant, span) in [(2u32, 40i16), (3, 120), (4, 40), (5, 120)] {
            let (mut low, mut high) = (i16::MAX, i16::MIN);
            for k in 0..2_000u128 {
                let n = noise(
                    k.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835),
                    variant,
                    3,
                );
                low = low.min(n);
                high = high.max(n);
            }
            assert_eq!((low, high), (0, span - 1), "restart {variant}");
        }
        let key = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
        let moves = |v: u32| (0..16).map(|i| noise(key, v, i)).collect::<Vec<_>>();
        assert_ne!(moves(2), moves(4));
        assert_ne!(moves(3), moves(5));
        assert_eq!(moves(7), moves(7));
    }
}
