//! The best-first probe: a search for a win guided by a position value
//! ([`Weights`]), run in rounds of growing budgets beside the depth-first
//! search ([`crate::search`]). It looks for a win only: a probe that ends
//! without one decides nothing.

use std::time::{Duration, Instant};

use demon_core::card::wrap_rank;
use demon_core::replay::replay;
use demon_core::{Card, Game, Layout, Move, Rules, State};
use smallvec::SmallVec;

use crate::key::fingerprint_level;
use crate::moves::{generate, play_safe_moves, Gen, SMove};
use crate::search::StopFlag;
use crate::table::{FingerprintSet, Insert};

/// Bytes a best-first probe keeps per stored position: the state (at most
/// 176 bytes), its tree link with the safe moves played on arrival, and its
/// heap entry (asserted below).
const PROBE_BYTES_PER_NODE: usize = 256;

/// Weights of the best-first probe's position value ([`value`]): what
/// each feature of a position adds to it. Only which win is found, and
/// when, depends on them, never a verdict. Tuned with
/// `examples/probe.rs` (the probe alone on native seeds); the figures are
/// deals won by one probe, old weights (10, 6, -3 only) against these:
/// - Double Easthaven 1-40 at 200,000 positions: 4 against 18 (`blocked`
///   alone at -2: 13; `unbuilt` alone at -2: 12; both at -5: 3);
/// - Rainbow 1-100 at 50,000: 37 against 73 (`pass` at -40: 68, at -200:
///   45, at -1,000: 21: a redeal must stay possible, not forbidden);
/// - Canfield 1-100 at 50,000: 73 against 76; Superior Canfield and
///   Selective Canfield unchanged (68, 79); American Toad and Variegated
///   Canfield: no weights tried won more than 2 of 40 and 0 of 40.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per card on the foundations.
    pub found: i32,
    /// Per card out of the reserve.
    pub reserve: i32,
    /// Per face-down card.
    pub down: i32,
    /// Per empty tableau pile.
    pub empty: i32,
    /// Per face-up tableau card, but a pile's bottom card, not built on
    /// the card below it (face up or down).
    pub unbuilt: i32,
    /// Per tableau card above a card of its suit that goes to the
    /// foundations before it.
    pub blocked: i32,
    /// Per redeal made (limited redeals only; unlimited ones count none).
    pub pass: i32,
    /// Per card of the talon before the stock's place in this pass (0:
    /// at -1, Rainbow 1-100 at 50,000 won 32 against 37).
    pub pos: i32,
    /// Per card of the lowest foundation's height (0 for the probes).
    pub low: i32,
    /// Among positions of equal value, expand the newest first, else the
    /// oldest (the default: newest first won 0 of Double Easthaven 1-40 at
    /// 200,000 against 4, with the old weights).
    pub newest_first: bool,
}

/// (unbuilt, blocked) of the probes' rounds in turn: greedy probes with
/// different weights win different deals (Double Easthaven 1-40 at
/// 200,000 positions: 13 to 21 deals for each of five settings, 29 in
/// all). With the full search at 2 M nodes, Double Easthaven 1-100 won 34
/// deals with round 0's weights in every probe and 51 with these rounds;
/// Rainbow 1-200 (176 won) and American Toad 1-100 (9) are unchanged.
const ROUNDS: [(i32, i32); 4] = [(-1, -4), (0, -4), (-1, -6), (-2, -2)];

impl Weights {
    /// The weights of probe round `k`.
    pub(crate) fn round(k: usize) -> Weights {
        let (unbuilt, blocked) = ROUNDS[k % ROUNDS.len()];
        Weights {
            unbuilt,
            blocked,
            ..Weights::default()
        }
    }
}

/// The names of [`Weights`]' terms, as [`Weights::set`] takes them and
/// its `Display` writes them.
pub const WEIGHT_NAMES: [&str; 9] = [
    "found", "reserve", "down", "empty", "unbuilt", "blocked", "pass", "pos", "low",
];

/// The largest weight [`Weights::set`] takes, either way.
pub const MAX_WEIGHT: i32 = 100_000;

impl Weights {
    fn term(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "found" => &mut self.found,
            "reserve" => &mut self.reserve,
            "down" => &mut self.down,
            "empty" => &mut self.empty,
            "unbuilt" => &mut self.unbuilt,
            "blocked" => &mut self.blocked,
            "pass" => &mut self.pass,
            "pos" => &mut self.pos,
            "low" => &mut self.low,
            _ => return None,
        })
    }

    /// These weights with the terms `spec` names set: a comma-separated
    /// list of `NAME=N` ([`WEIGHT_NAMES`], N a whole number, negative for
    /// a cost), e.g. `blocked=-4,unbuilt=-1`; the terms it does not name
    /// keep their weights. The error names the item at fault.
    pub fn set(mut self, spec: &str) -> Result<Weights, String> {
        for item in spec.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, n) = item
                .split_once('=')
                .map(|(name, n)| (name.trim(), n.trim()))
                .ok_or_else(|| format!("`{item}`: expected NAME=N, e.g. blocked=-4"))?;
            let n: i32 = n
                .parse()
                .map_err(|_| format!("`{item}`: `{n}` is not a whole number"))?;
            // So that no sum of terms (each a count of at most 104 cards
            // or 255 passes, nine terms) overflows `value`'s i32.
            if n.abs() > MAX_WEIGHT {
                return Err(format!("`{item}`: at most {MAX_WEIGHT} either way"));
            }
            *self.term(name).ok_or_else(|| {
                format!(
                    "`{item}`: no weight `{name}` (the weights: {})",
                    WEIGHT_NAMES.join(", ")
                )
            })? = n;
        }
        Ok(self)
    }
}

/// `found=10,reserve=6,...`: every term, in [`WEIGHT_NAMES`]' order, as
/// [`Weights::set`] reads it back (`newest_first`, which only the probes
/// use, is not written).
impl std::fmt::Display for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut w = *self;
        for (i, name) in WEIGHT_NAMES.iter().enumerate() {
            let n = *w.term(name).expect("a named term");
            write!(f, "{}{name}={n}", if i > 0 { "," } else { "" })?;
        }
        Ok(())
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            found: 10,
            reserve: 6,
            down: -3,
            empty: 0,
            unbuilt: -1,
            blocked: -4,
            pass: -80,
            pos: 0,
            low: 0,
            newest_first: false,
        }
    }
}

/// Position value for the best-first probe, weighted by `w`: cards on the
/// foundations and out of the reserve, face-down cards, tableau cards out
/// of order, redeals made. Also the value of a playout's end for the
/// rollouts, with their own weights ([`crate::rollout::value`]).
pub(crate) fn value(g: &Game, st: &State, w: &Weights) -> i32 {
    let rules = g.rules();
    let piles = rules.piles as usize;
    let down = crate::rollout::face_down_cards(g, st);
    let mut v = w.found * g.foundation_cards(st) as i32
        + w.reserve * (rules.reserve as i32 - g.reserve(st).len() as i32)
        + w.down * down as i32;
    if w.pass != 0 || w.pos != 0 {
        let (pos, passes) = g.talon_state(st);
        v += w.pass * passes as i32 + w.pos * pos as i32;
    }
    if w.low != 0 {
        v += w.low * i32::from(crate::rollout::lowest_foundation(g, st));
    }
    if w.empty != 0 || w.unbuilt != 0 || w.blocked != 0 {
        let base = g.base(st).map(|b| b.index());
        let ranks = rules.ranks;
        for p in 0..piles {
            let cs = g.pile(st, p);
            if cs.is_empty() {
                v += w.empty;
                continue;
            }
            // Every face-up card but a pile's bottom card: the lowest
            // face-up card over face-down cards counts unless it builds
            // on the card under it (how the weights were tuned).
            let d = g.face_down(st, p);
            for k in d.max(1)..cs.len() {
                if !g.builds(st, cs[k], cs[k - 1]) {
                    v += w.unbuilt;
                }
            }
            if let Some(b) = base {
                // Cards above a card of their suit that goes up earlier.
                let order = |c: Card| wrap_rank(c.rank().index() + ranks - b, ranks);
                let mut low = [u8::MAX; 4];
                for &c in cs {
                    let s = c.suit().index();
                    let o = order(c);
                    if o > low[s] {
                        v += w.blocked;
                    }
                    low[s] = low[s].min(o);
                }
            }
        }
    }
    v
}

const _: () =
    assert!(std::mem::size_of::<State>() + std::mem::size_of::<Node>() + 8 <= PROBE_BYTES_PER_NODE);

/// A position of the best-first probe: how it was reached from its parent.
struct Node {
    parent: u32,
    mv: Option<SMove>,
    /// Safe moves played on arrival.
    autos: SmallVec<[Move; 4]>,
}

/// Greedy best-first search for a win, expanding at most `budget`
/// positions. Returns the winning moves if it finds them, the number of
/// positions expanded, and the bytes it held at the end.
pub(crate) fn best_first(
    g: &Game,
    budget: u64,
    memory: usize,
    deadline: Option<(Instant, Duration)>,
    stop: Option<StopFlag>,
    w: &Weights,
) -> (Option<Vec<Move>>, u64, usize) {
    let tie = |i: u32| if w.newest_first { i } else { u32::MAX - i };
    use std::collections::BinaryHeap;
    // The table takes an eighth of the memory, the stored positions the
    // rest; the arrays are sized once, so they never double past it.
    let mut table = FingerprintSet::with_budget(memory / 8);
    let cap = memory / 8 * 7 / PROBE_BYTES_PER_NODE;
    let mut nodes: Vec<Node> = Vec::with_capacity(cap);
    let mut states: Vec<State> = Vec::with_capacity(cap);
    let mut heap: BinaryHeap<(i32, u32)> = BinaryHeap::with_capacity(cap);
    let mut autos = Vec::new();
    let mut st = g.initial();
    play_safe_moves(g, &mut st, &mut autos);
    let root_autos: SmallVec<[Move; 4]> = autos.iter().map(|&(m, _)| m).collect();
    nodes.push(Node {
        parent: u32::MAX,
        mv: None,
        autos: root_autos,
    });
    if g.is_won(&st) {
        return (Some(path_moves(g, &nodes, 0)), 0, 0);
    }
    let (key, level) = fingerprint_level(g, &st);
    table.insert_level(key, level);
    heap.push((value(g, &st, w), tie(0)));
    states.push(st);
    let mut expanded = 0u64;
    let mut moves = SmallVec::new();
    let mut reach = crate::moves::ReachMemo::default();
    while let Some((_, t)) = heap.pop() {
        let i = tie(t);
        if expanded >= budget {
            break;
        }
        if expanded.is_multiple_of(4096) {
            if let Some((start, t)) = deadline {
                if start.elapsed() >= t {
                    break;
                }
            }
            if stop.is_some_and(StopFlag::raised) {
                break;
            }
        }
        expanded += 1;
        let st = states[i as usize].clone();
        generate(g, &st, &mut moves, &mut reach, Gen::All);
        for &sm in moves.iter() {
            let mut s2 = st.clone();
            if let Some(t) = sm.talon {
                g.set_talon_state(&mut s2, t);
            }
            g.play(&mut s2, sm.mv);
            autos.clear();
            play_safe_moves(g, &mut s2, &mut autos);
            let node = Node {
                parent: i,
                mv: Some(sm),
                autos: autos.iter().map(|&(m, _)| m).collect(),
            };
            if g.is_won(&s2) {
                nodes.push(node);
                return (
                    Some(path_moves(g, &nodes, nodes.len() - 1)),
                    expanded,
                    held(&table, nodes.len()),
                );
            }
            let (key, level) = fingerprint_level(g, &s2);
            match table.insert_level(key, level) {
                Insert::New if nodes.len() >= cap => {
                    return (None, expanded, held(&table, nodes.len()))
                }
                Insert::New => {
                    let v = value(g, &s2, w);
                    nodes.push(node);
                    states.push(s2);
                    heap.push((v, tie(nodes.len() as u32 - 1)));
                }
                Insert::Present => {}
                Insert::Full => return (None, expanded, held(&table, nodes.len())),
            }
        }
    }
    (None, expanded, held(&table, nodes.len()))
}

/// One best-first probe of `budget` positions on its own, for experiments
/// with [`Weights`]: the length of the win it finds, and the positions it
/// expanded.
#[doc(hidden)]
pub fn probe(
    rules: &Rules,
    layout: &Layout,
    budget: u64,
    memory: usize,
    w: &Weights,
) -> (Option<usize>, u64) {
    let game = Game::new(rules, layout).expect("layout");
    let (found, n, _) = best_first(&game, budget, memory, None, None, w);
    if let Some(m) = &found {
        assert!(replay(rules, layout, m).is_ok_and(|r| r.won));
    }
    (found.map(|m| m.len()), n)
}

/// Bytes a probe holds with `n` positions stored.
fn held(table: &FingerprintSet, n: usize) -> usize {
    table.bytes() + n * PROBE_BYTES_PER_NODE
}

/// The core moves from the start to probe node `i`, K+ plays expanded.
fn path_moves(g: &Game, nodes: &[Node], i: usize) -> Vec<Move> {
    let mut chain = Vec::new();
    let mut k = i as u32;
    while k != u32::MAX {
        chain.push(k as usize);
        k = nodes[k as usize].parent;
    }
    let mut st = g.initial();
    let mut out = Vec::new();
    for &k in chain.iter().rev() {
        let n = &nodes[k];
        if let Some(sm) = n.mv {
            if let Some(t) = sm.talon {
                for m in g.stock_moves_between(&st, t) {
                    g.play(&mut st, m);
                    out.push(m);
                }
            }
            g.play(&mut st, sm.mv);
            out.push(sm.mv);
        }
        for &m in &n.autos {
            g.play(&mut st, m);
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use demon_core::{GameKind, Reading, RuleOverrides, Source};

    /// Weights read from text: named terms set, the others kept; the text
    /// written reads back; each error names the item at fault.
    #[test]
    fn weights_read_and_write() {
        let w = crate::rollout::playout_weights();
        assert_eq!(
            w.to_string(),
            "found=10,reserve=5,down=-3,empty=0,unbuilt=0,blocked=0,pass=0,pos=0,low=60"
        );
        let v = w.set("blocked=-4, unbuilt=-1").unwrap();
        assert_eq!((v.blocked, v.unbuilt, v.found, v.low), (-4, -1, 10, 60));
        assert_eq!(Weights::default().set(&v.to_string()).unwrap(), v);
        assert_eq!(w.set("").unwrap(), w);
        assert_eq!(
            w.set("low=20,blocked").unwrap_err(),
            "`blocked`: expected NAME=N, e.g. blocked=-4"
        );
        assert_eq!(
            w.set("down=-x").unwrap_err(),
            "`down=-x`: `-x` is not a whole number"
        );
        assert_eq!(
            w.set("found=100001").unwrap_err(),
            "`found=100001`: at most 100000 either way"
        );
        assert_eq!(w.set("low=-100000").unwrap().low, -100_000);
        assert_eq!(
            w.set("up=3").unwrap_err(),
            "`up=3`: no weight `up` (the weights: found, reserve, down, empty, unbuilt, \
             blocked, pass, pos, low)"
        );
    }

    /// The probe's position value, counted by hand on the deal of Double
    /// Easthaven seed 1, `(TS) (9C) 8D | (TD) (QH) QD | (8S) (6S) 7C |
    /// (7D) (KS) 4S | (TS) (5C) TH | (5D) (TD) 6C | (9D) (JC) QD | (3S)
    /// (2D) QC`: 16 face-down cards; 7 face-up cards not built on the card
    /// under them (all but 8D on 9C); 3 cards above a lower card of their
    /// suit (QD over TD, TD over 5D, QD over 9D).
    #[test]
    fn probe_value_counts_by_hand() {
        let rules = GameKind::DoubleEasthaven.preset(Reading::Standard).unwrap();
        let layout = Source::Native(1).layout(&rules);
        let g = Game::new(&rules, &layout).unwrap();
        let st = g.initial();
        let zero = Weights {
            found: 0,
            reserve: 0,
            down: 0,
            empty: 0,
            unbuilt: 0,
            blocked: 0,
            pass: 0,
            pos: 0,
            low: 0,
            newest_first: false,
        };
        let one = |f: fn(&mut Weights)| {
            let mut w = zero;
            f(&mut w);
            value(&g, &st, &w)
        };
        assert_eq!(one(|w| w.down = 1), 16);
        assert_eq!(one(|w| w.unbuilt = 1), 7);
        assert_eq!(one(|w| w.blocked = 1), 3);
        assert_eq!(one(|w| w.empty = 1), 0);
        assert_eq!(value(&g, &st, &Weights::default()), -3 * 16 - 7 - 4 * 3);
        // A redeal made counts under `pass` (Rainbow: two redeals).
        let rules = GameKind::Rainbow.preset(Reading::Standard).unwrap();
        let layout = Source::Native(1).layout(&rules);
        let g = Game::new(&rules, &layout).unwrap();
        let mut st = g.initial();
        let mut w = zero;
        w.pass = 1;
        assert_eq!(value(&g, &st, &w), 0);
        g.set_talon_state(&mut st, (0, 1));
        assert_eq!(value(&g, &st, &w), 1);
        // The lowest foundation's height counts under `low` (Variegated
        // Canfield: its eight Aces are up from the start; Double
        // Easthaven: none is).
        w.pass = 0;
        w.low = 1;
        let rules = GameKind::VariegatedCanfield
            .preset(Reading::Standard)
            .unwrap();
        let layout = Source::Native(1).layout(&rules);
        let g = Game::new(&rules, &layout).unwrap();
        assert_eq!(value(&g, &g.initial(), &w), 1);
        let rules = GameKind::DoubleEasthaven.preset(Reading::Standard).unwrap();
        let layout = Source::Native(1).layout(&rules);
        let g = Game::new(&rules, &layout).unwrap();
        assert_eq!(value(&g, &g.initial(), &w), 0);
    }

    /// The best-first probe runs rarely on small deals (the exhaustive
    /// search decides them before its first pause), so test it directly:
    /// every line it reports must replay to a win.
    #[test]
    fn best_first_wins_replay() {
        let mut found = 0;
        for g in [
            GameKind::Canfield,
            GameKind::SuperiorCanfield,
            GameKind::Easthaven,
            GameKind::DoubleCanfield,
            GameKind::Rainbow,
        ] {
            let o = RuleOverrides {
                ranks: Some(7),
                ..Default::default()
            };
            let rules = Rules::resolve(
                g,
                Reading::Standard,
                &RuleOverrides {
                    reserve: Some(5).filter(|_| g != GameKind::Easthaven),
                    ..o
                },
            )
            .unwrap();
            for seed in 0..40 {
                let layout = Source::Native(seed).layout(&rules);
                let game = Game::new(&rules, &layout).unwrap();
                if let (Some(moves), _, _) =
                    best_first(&game, 20_000, 64 << 20, None, None, &Weights::default())
                {
                    let r = replay(&rules, &layout, &moves).unwrap();
                    assert!(r.won, "{g} seed {seed}");
                    found += 1;
                }
            }
        }
        assert!(found > 100, "{found}");
    }
}
