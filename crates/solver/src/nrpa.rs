//! Nested rollout policy adaptation (Rosin's NRPA, with Cazenave's prior
//! bias, "GNRPA"): a search for wins that learns, from its best lines,
//! which moves to prefer.
//!
//! A playout plays from the deal to the end, choosing each move at
//! random with probability proportional to `exp(w[code] + score / TAU)`:
//! `score` is the exhaustive search's own move score ([`crate::moves::generate`]), so an
//! empty policy plays like a noisy version of the greedy playouts of
//! [`crate::rollout`], and `w` is the policy, a weight per move *code*
//! ([`code`]: the card, where it comes from, and the card it goes onto).
//! Level `L` runs [`ITERATIONS`] searches of level `L - 1`, each from its
//! own copy of the policy, keeps the best line any of them found, and
//! after each moves the policy towards that line (a gradient step on its
//! log-likelihood, [`Nrpa::adapt`]). So where greedy playouts all go the
//! same wrong way, the policy learns, from the lines that went furthest,
//! which cards to keep where.
//!
//! A line's value is that of the rollouts ([`crate::rollout`]: cards up,
//! cards out of the reserve, the lowest foundation). Like the rollouts and
//! the beams it only ever reports a win, as the core moves of its line
//! ([`core_moves`]), which the solver replays with the independent checker
//! before it says WON; it never says LOST. It is deterministic for a given
//! seed.
//!
//! Its wins come by chance: on Variegated Canfield 301 (unknown at 300 M
//! nodes without it) 2 of some 72 level-2 searches from six seeds won,
//! the first after 0.4 M moves. But the deals it wins are ones the beams
//! walk past. Alone, 10 M moves a deal, it won 301 and 339 of the first
//! 12 deals of seeds 301-1,000 unknown at 100 M nodes with the beams (3 s
//! each). In the search ([`crate::search`], then a quarter of each
//! two-deck rollout phase from 1.6 M nodes): of the first 40 deals of
//! seeds 301-1,000 unknown at 60 M nodes, at 100 M, 12 won against 8
//! without it, 352 and 426 in under 6 M nodes; two deals the beams had
//! won (309, 327) were not, with less of the phases for the beams
//! (`results/2026-11-29-vc-nrpa`). With half of each phase (the beams a
//! quarter), it won 9 of 40 deals no search had won in under 30 M nodes,
//! at 30 M, against 4 with a quarter (`results/2026-11-29-nrpa-share`).

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::time::{Duration, Instant};

use demon_core::{Game, Loc, Move, State};
use smallvec::SmallVec;

use crate::moves::{generate_unsorted, Gen, ReachMemo, SMove};
use crate::probe::Weights;
use crate::rollout::{
    core_moves, deal_root, exact, play_step, value as rollout_value, worth_playing, Step, WON,
};
use crate::search::{FpHasher, StopFlag};

/// Searches of level `L - 1` a search of level `L` runs (Rosin's 100).
pub const ITERATIONS: usize = 100;
/// The step of the policy's adaptation.
const ALPHA: f32 = 1.0;

/// The temperatures of the prior, taken in turn from one top-level search
/// to the next: a move's score ([`crate::moves::generate`]: 100 for a foundation move,
/// 60 for a reserve card, 20 onto the tableau, …) over the temperature is
/// its prior weight. Alone, on ten Variegated Canfield deals unknown at
/// 100 M nodes (301, 302, 308, 313, 315, 316, 317, 318, 326, 346), 10 M
/// moves each: 20 won 326 and 346, 40 won 301, 10 none.
const TAU: [f32; 2] = [20.0, 40.0];

/// Settings, for experiments (the `nrpa` example).
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// The prior's temperatures ([`TAU`]).
    pub taus: [f32; 2],
    /// Searches of the level below a search runs ([`ITERATIONS`]).
    pub iterations: usize,
    /// Whether a waste card's code holds the pass it is played in (off:
    /// on the ten deals of [`TAU`] it won 346 only, against 326 and 346).
    pub pass: bool,
    /// Playouts a level-1 search plays between two adaptations (Cazenave's
    /// stabilized NRPA; 1 is Rosin's). Alone, level 2, 5 M moves a deal,
    /// on the first 40 Variegated Canfield deals of seeds 1-1,000 that no
    /// search won in under 30 M nodes (1, 37, ..., 414): 1 won 5 (206,
    /// 270, 339, 348, 354), 4 won 5 (134, 249, 270, 348, 354).
    pub stab: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            taus: TAU,
            iterations: ITERATIONS,
            pass: false,
            stab: 1,
        }
    }
}

/// The most moves a playout plays.
const MAX_LINE: usize = 4_000;

/// A policy: a weight per move code, 0 when absent. The codes are mixed
/// ([`code`]), so the fingerprints' hasher serves.
type Policy = HashMap<u64, f32, BuildHasherDefault<FpHasher>>;

/// SplitMix64's finaliser: a bijection of `u64` that spreads every bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A move's code: what the policy learns a weight for. A play is its
/// card, where it comes from (waste, reserve, tableau, foundation) and
/// where it goes: a foundation, a space, or onto the card at a pile's top
/// (the card, not the pile: piles are alike). A stock move is its kind.
fn code(g: &Game, st: &State, m: &SMove, pass: bool) -> u64 {
    let mv = m.mv;
    let raw = match mv {
        Move::Play { from, to, card, .. } => {
            let src = match from {
                Loc::Waste => 1u64,
                Loc::Reserve => 2,
                Loc::Tableau(_) => 3,
                Loc::Foundation(_) => 4,
            };
            let dst = match to {
                Loc::Foundation(_) => 0x100u64,
                Loc::Tableau(q) => g
                    .pile(st, q as usize)
                    .last()
                    .map_or(0x200, |c| c.index() as u64),
                _ => 0x300,
            };
            let p = if pass && from == Loc::Waste {
                1 + m.talon.map_or(g.talon_state(st).1, |t| t.1) as u64
            } else {
                0
            };
            card.index() as u64 | src << 8 | dst << 16 | p << 32
        }
        Move::Deal => 1 << 40,
        Move::Redeal => 2 << 40,
        Move::ChooseBase(i) => 3 << 40 | i as u64,
    };
    mix(raw.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// What an NRPA search alone found ([`nrpa_alone`]).
#[derive(Debug)]
pub struct NrpaEnd {
    /// The core moves of a win from the deal, if found.
    pub won: Option<Vec<Move>>,
    /// Moves played in playouts (each one a position reached).
    pub nodes: u64,
    /// The best line's value ([`rollout_value`]).
    pub best: i64,
    /// Top-level searches run (each from an empty policy).
    pub runs: u32,
}

/// NRPA of `level` from the deal, run again and again from an empty
/// policy (one random stream, from `seed`, going on) until a win or until
/// `max_moves` moves are played.
pub fn nrpa_alone(g: &Game, level: u32, max_moves: u64, seed: u64, params: Params) -> NrpaEnd {
    let mut n = Nrpa::new(g, seed);
    n.params = params;
    n.limit = max_moves;
    let mut best = i64::MIN;
    let mut runs = 0;
    while !n.cut {
        n.tau = n.params.taus[runs as usize % 2];
        runs += 1;
        let (v, line) = n.search(level, &Policy::default());
        best = best.max(v);
        if v == WON {
            let won = core_moves(g, &line);
            return NrpaEnd {
                won,
                nodes: n.moves,
                best,
                runs,
            };
        }
    }
    NrpaEnd {
        won: None,
        nodes: n.moves,
        best,
        runs,
    }
}

/// Memory an [`NrpaStream`] may hold: its policies (a search of level 2
/// holds three, and an adaptation builds a fourth) of at most one weight
/// a move code (some 11,000 codes: 52 cards, 4 sources, 54 places to go;
/// a hash map of them under 600 KiB), its lines (at most [`MAX_LINE`]
/// steps a level) and a playout's positions (as many). The tail searches
/// have [`crate::search::TAIL_BYTES`] besides.
pub const BYTES: usize = 4 << 20;

/// The level of the searches [`NrpaStream`] runs: level 2, 10,000
/// playouts, some 0.3 M to 0.7 M moves on Variegated Canfield.
pub const STREAM_LEVEL: u32 = 2;

/// NRPA searches of [`STREAM_LEVEL`] run in phases between the exhaustive
/// search's turns ([`crate::search`]), one after another, each from an
/// empty policy, drawing on one random stream (from a seed: the same seed
/// plays the same searches), with the prior's temperatures in turn
/// ([`TAU`]). A search that a phase's budget cuts short is dropped: the
/// next phase starts a new one.
pub struct NrpaStream<'g> {
    n: Nrpa<'g>,
    runs: u32,
    /// The best line of the searches that ended, and its value.
    best: (i64, Vec<Step>),
    /// The last win was found by a tail search.
    by_tail: bool,
    /// Nodes the tail searches after each search may expand (0, the
    /// default: none; the solver sets it where their memory is set aside,
    /// [`crate::search::tails_run`]).
    pub tail_nodes: u64,
}

impl<'g> NrpaStream<'g> {
    pub fn new(g: &'g Game, seed: u64) -> NrpaStream<'g> {
        NrpaStream {
            n: Nrpa::new(g, seed),
            runs: 0,
            best: (i64::MIN, Vec::new()),
            by_tail: false,
            tail_nodes: 0,
        }
    }

    /// This stream, valuing a playout's end by `w` (the rollouts' value,
    /// [`crate::rollout::playout_weights`] by default).
    pub fn valued(mut self, w: Weights) -> NrpaStream<'g> {
        self.n.value = w;
        self
    }

    /// Whether the win [`NrpaStream::phase`] returned last was found by a
    /// tail search rather than by an NRPA search.
    pub fn won_by_tail(&self) -> bool {
        self.by_tail
    }

    /// The core moves of the best line of the searches that ended (won
    /// or not), from the deal; `None` before one has ended.
    #[doc(hidden)]
    pub fn best_moves(&self) -> Option<Vec<Move>> {
        (self.best.0 > i64::MIN)
            .then(|| crate::rollout::line_moves(self.n.g, &self.best.1))
            .flatten()
    }

    /// The most cards on the foundations at the end of a playout so far
    /// ([`crate::Stats::most_up`]).
    pub fn most_up(&self) -> u32 {
        self.n.most_up
    }

    /// Moves played so far: what a phase counts against its budget, and
    /// the nodes it adds to the search's.
    pub fn moves(&self) -> u64 {
        self.n.moves
    }

    /// Runs searches until `budget` more moves are played, the deadline
    /// passes, `stop` is raised, or a win is found (its core moves). After
    /// each search that ends without a win, the tail searches look for
    /// one near its best line's end, where they run ([`NrpaStream::tail_nodes`],
    /// [`crate::rollout::tail_of`]).
    pub fn phase(
        &mut self,
        budget: u64,
        deadline: Option<(Instant, Duration)>,
        stop: Option<StopFlag>,
    ) -> Option<Vec<Move>> {
        let n = &mut self.n;
        n.limit = n.moves.saturating_add(budget);
        n.deadline = deadline;
        n.stop = stop;
        n.cut = false;
        self.by_tail = false;
        loop {
            n.tau = n.params.taus[self.runs as usize % 2];
            self.runs += 1;
            let (v, line) = n.search(STREAM_LEVEL, &Policy::default());
            if v == WON {
                return core_moves(n.g, &line);
            }
            if n.cut {
                return None;
            }
            let won = crate::rollout::tail_of(
                n.g,
                &line,
                self.tail_nodes.min(n.limit.saturating_sub(n.moves)),
                &mut n.moves,
                &mut n.most_up,
                n.deadline,
                n.stop,
            );
            if won.is_some() {
                self.by_tail = true;
                return won;
            }
            if v > self.best.0 {
                self.best = (v, line);
            }
        }
    }
}

/// One NRPA search's state: its buffers, moves played and random stream.
struct Nrpa<'g> {
    g: &'g Game,
    moves: u64,
    limit: u64,
    rng: u64,
    gen: SmallVec<[SMove; 32]>,
    reach: ReachMemo,
    autos: Vec<(Move, demon_core::Undo)>,
    seen: HashSet<u128, BuildHasherDefault<FpHasher>>,
    weights: Vec<f32>,
    codes: Vec<u64>,
    params: Params,
    tau: f32,
    deadline: Option<(Instant, Duration)>,
    stop: Option<StopFlag>,
    /// A limit has cut the search under way short.
    cut: bool,
    /// The most cards on the foundations at a playout's end
    /// ([`crate::Stats::most_up`]).
    most_up: u32,
    /// What a playout's end is worth ([`rollout_value`]).
    value: Weights,
}

impl<'g> Nrpa<'g> {
    fn new(g: &'g Game, seed: u64) -> Nrpa<'g> {
        Nrpa {
            g,
            moves: 0,
            limit: u64::MAX,
            rng: mix(seed ^ 0xD1B5_4A32_D192_ED03) | 1,
            gen: SmallVec::new(),
            reach: ReachMemo::default(),
            autos: Vec::new(),
            seen: HashSet::default(),
            weights: Vec::new(),
            codes: Vec::new(),
            params: Params::default(),
            tau: TAU[0],
            deadline: None,
            stop: None,
            cut: false,
            most_up: 0,
            value: crate::rollout::playout_weights(),
        }
    }

    fn next_f32(&mut self) -> f32 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        (mix(self.rng) >> 40) as f32 / (1u64 << 24) as f32
    }

    /// The deal with its safe moves played.
    fn start(&mut self) -> State {
        deal_root(self.g, &mut self.autos)
    }

    /// The moves a playout chooses from at `st`, in `self.gen`, with
    /// their codes in `self.codes` and their weights under `pol` (policy
    /// plus prior, exponentiated, the largest 1) in `self.weights`.
    fn choices(&mut self, st: &State, pol: &Policy) {
        let g = self.g;
        generate_unsorted(g, st, &mut self.gen, &mut self.reach, Gen::All);
        self.gen.retain(|m| worth_playing(g, st, m.mv));
        self.codes.clear();
        self.weights.clear();
        let mut top = f32::MIN;
        for m in &self.gen {
            let c = code(g, st, m, self.params.pass);
            let w = pol.get(&c).copied().unwrap_or(0.0) + f32::from(m.score) / self.tau;
            top = top.max(w);
            self.codes.push(c);
            self.weights.push(w);
        }
        for w in &mut self.weights {
            *w = (*w - top).exp();
        }
    }

    /// A playout under `pol`: its value and line.
    fn playout(&mut self, pol: &Policy) -> (i64, Vec<Step>) {
        let g = self.g;
        let mut st = self.start();
        let mut line = Vec::new();
        self.seen.clear();
        self.seen.insert(exact(&st));
        while line.len() < MAX_LINE {
            if g.is_won(&st) {
                return (WON, line);
            }
            if line.len() % 64 == 0
                && (self.deadline.is_some_and(|(s, t)| s.elapsed() >= t)
                    || self.stop.is_some_and(StopFlag::raised))
            {
                self.cut = true;
                return (i64::MIN, Vec::new());
            }
            self.choices(&st, pol);
            let mut played = false;
            while !self.gen.is_empty() {
                if self.moves >= self.limit {
                    self.cut = true;
                    return (i64::MIN, Vec::new());
                }
                let total: f32 = self.weights.iter().sum();
                let mut x = self.next_f32() * total;
                let mut i = 0;
                while i + 1 < self.weights.len() && x >= self.weights[i] {
                    x -= self.weights[i];
                    i += 1;
                }
                let m = self.gen[i];
                let step = Step::of(&m);
                let mut c = st.clone();
                play_step(g, &mut c, step, &mut self.autos);
                self.moves += 1;
                if self.seen.insert(exact(&c)) {
                    st = c;
                    line.push(step);
                    played = true;
                    break;
                }
                // Back to a position of this playout: another move.
                self.gen.swap_remove(i);
                self.weights.swap_remove(i);
                self.codes.swap_remove(i);
            }
            if !played {
                break;
            }
        }
        crate::search::note_most_up(&mut self.most_up, g, &st);
        (rollout_value(g, &st, &self.value), line)
    }

    /// The policy `pol` moved towards `line`: at each step, the chosen
    /// move's code gains [`ALPHA`] and every choice's loses `ALPHA` times
    /// its probability under `pol`.
    fn adapt(&mut self, pol: &Policy, line: &[Step]) -> Policy {
        let mut out = pol.clone();
        let mut st = self.start();
        for s in line {
            self.choices(&st, pol);
            let total: f32 = self.weights.iter().sum();
            for (c, w) in self.codes.iter().zip(&self.weights) {
                *out.entry(*c).or_insert(0.0) -= ALPHA * w / total;
            }
            let i = self
                .gen
                .iter()
                .position(|m| (m.mv, m.talon) == (s.mv, s.talon))
                .expect("a line's move is among the choices");
            *out.entry(self.codes[i]).or_insert(0.0) += ALPHA;
            play_step(self.g, &mut st, *s, &mut self.autos);
        }
        out
    }

    /// A search of `level` from policy `pol`: its best value and line.
    fn search(&mut self, level: u32, pol: &Policy) -> (i64, Vec<Step>) {
        if level == 0 {
            return self.playout(pol);
        }
        let mut pol = pol.clone();
        let mut best: (i64, Vec<Step>) = (i64::MIN, Vec::new());
        let tries = if level == 1 {
            self.params.stab.max(1)
        } else {
            1
        };
        'outer: for _ in 0..self.params.iterations {
            for _ in 0..tries {
                let r = self.search(level - 1, &pol);
                if r.0 >= best.0 {
                    best = r;
                }
                if best.0 == WON || self.cut {
                    break 'outer;
                }
            }
            pol = self.adapt(&pol, &best.1);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};

    /// A deal of `kind` with `ranks` ranks and, given, `reserve` cards in
    /// the reserve.
    fn small_game(
        kind: GameKind,
        ranks: u8,
        reserve: Option<u8>,
        seed: u64,
    ) -> (Rules, demon_core::Layout, Game) {
        let o = RuleOverrides {
            ranks: Some(ranks),
            reserve,
            ..Default::default()
        };
        let rules = Rules::resolve(kind, Reading::Standard, &o).expect("rules");
        let layout = Source::Native(seed).layout(&rules);
        let game = Game::new(&rules, &layout).expect("layout");
        (rules, layout, game)
    }

    /// NRPA alone wins small two-deck deals, and every win it reports is
    /// won when the independent checker replays it; the same seed gives
    /// the same search.
    #[test]
    fn wins_replay_and_searches_repeat() {
        let mut won = 0;
        for seed in 0..12u64 {
            let (rules, layout, game) = small_game(GameKind::VariegatedCanfield, 9, Some(5), seed);
            let e = nrpa_alone(&game, 1, 200_000, seed, Params::default());
            if let Some(m) = &e.won {
                let r = demon_core::replay::replay(&rules, &layout, m).expect("a legal line");
                assert!(r.won, "seed {seed}: the line wins");
                won += 1;
            }
            let again = nrpa_alone(&game, 1, 200_000, seed, Params::default());
            assert_eq!(
                (again.nodes, again.best, again.runs),
                (e.nodes, e.best, e.runs)
            );
            assert!(e.nodes <= 200_000, "seed {seed}: {} moves", e.nodes);
        }
        println!("won {won} of 12");
        assert_eq!(won, 12, "won {won} of 12");
    }

    /// A phase plays at most its budget, and the next phase goes on from
    /// there; a stop flag raised ends a phase at once.
    #[test]
    fn phases_keep_to_their_budgets() {
        let (_, _, game) = small_game(GameKind::DoubleEasthaven, 13, None, 3);
        let mut n = NrpaStream::new(&game, 0);
        let mut before = 0;
        for budget in [1u64, 1_000, 37_000, 250_000] {
            let won = n.phase(budget, None, None);
            assert!(
                n.moves() - before <= budget,
                "{} > {budget}",
                n.moves() - before
            );
            if won.is_some() {
                return;
            }
            assert_eq!(n.moves() - before, budget);
            before = n.moves();
        }
        static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        assert!(n.phase(1_000_000, None, Some(StopFlag(&STOP))).is_none());
        assert!(
            n.moves() - before < 100,
            "{} moves after the stop",
            n.moves() - before
        );
    }

    /// Adapting the policy towards a line makes each of its moves more
    /// likely where it was played.
    #[test]
    fn adapting_favours_the_line() {
        let (_, _, game) = small_game(GameKind::VariegatedCanfield, 13, None, 5);
        let mut n = Nrpa::new(&game, 1);
        let pol = Policy::default();
        let (_, line) = n.playout(&pol);
        assert!(line.len() > 10, "{} steps", line.len());
        let pol2 = n.adapt(&pol, &line);
        let mut st = n.start();
        // A move's probability under a policy, where it was played.
        let prob = |n: &mut Nrpa, st: &State, pol: &Policy, s: &Step| {
            n.choices(st, pol);
            let i = n
                .gen
                .iter()
                .position(|m| (m.mv, m.talon) == (s.mv, s.talon))
                .unwrap();
            n.weights[i] / n.weights.iter().sum::<f32>()
        };
        let (mut raised, mut open, mut ll0, mut ll1) = (0, 0, 0.0f64, 0.0f64);
        for s in &line {
            let (p0, p1) = (prob(&mut n, &st, &pol, s), prob(&mut n, &st, &pol2, s));
            ll0 += f64::from(p0).ln();
            ll1 += f64::from(p1).ln();
            // Steps with a real choice (a lone move keeps probability 1).
            if p0 < 0.999 {
                open += 1;
                raised += usize::from(p1 > p0);
            }
            play_step(&game, &mut st, *s, &mut n.autos);
        }
        // Not every step: a code chosen at one step may be a choice passed
        // over at another.
        assert!(ll1 > ll0 + 1.0, "log-likelihood {ll0} -> {ll1}");
        assert!(open > 5 && raised * 2 > open, "{raised} of {open} raised");
    }
}
