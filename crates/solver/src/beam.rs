//! Beam search for wins, beside the exhaustive search.
//!
//! A beam search keeps, at each depth, the `width` positions of highest
//! value ([`crate::probe::value`]) among the children of the positions it
//! kept at the depth before, and expands them all; it ends at a win, when
//! no position is left, when its lines fill their memory, or at
//! [`MAX_DEPTH`]. Unlike a playout or a
//! best-first probe, it compares thousands of lines that have played as
//! many moves, so a line that spends its talon early (a K+ play far
//! into the stock, a redeal) is judged against lines that did not,
//! which the weights on the talon's pass and place make a cost.
//!
//! It only ever reports a win, as the list of moves it played, which the
//! solver replays with the independent checker before it says WON. It
//! never says LOST: a beam that runs out of positions has only dropped
//! the rest. Everything it does is deterministic.
use std::time::{Duration, Instant};

use demon_core::{Game, Move, State};
use smallvec::SmallVec;

use crate::key::fingerprint_level;
use crate::moves::{generate_unsorted, Gen, ReachMemo, SMove};
use crate::probe::{value, Weights};
use crate::rollout::{core_moves, deal_root, play_step, worth_playing, Step};
use crate::search::StopFlag;

/// No parent: a position kept at the first depth.
const ROOT: u32 = u32::MAX;

/// A child of a kept position, before the beam chooses: its value, a
/// tie-break, the kept position it comes from and the step.
#[derive(Clone, Copy)]
struct Kid {
    value: i32,
    tie: u32,
    parent: u32,
    step: Step,
}

/// Children a position of the width may have before the beam trims
/// them: the children's vector holds this many times the width, and when
/// it is full the best `width` of them are kept and the rest dropped
/// (which keeps the same best ones as choosing at the end of the depth).
const KIDS_PER_WIDTH: usize = 16;
/// Line entries a position of the width may take (and [`MAX_DEPTH`] more,
/// so that a narrow beam's one line fits): when the next depth's would
/// not fit, the lines that no kept child descends from are dropped
/// ([`compact`]), and a beam whose kept lines still leave too little room
/// ends. (Measured: a beam of 30,000 keeps about 4 entries a position.)
const LINES_PER_WIDTH: usize = 12;

/// Bytes a position of the width takes at most: its state in the beam
/// and in the next one, its share of the children's vector
/// ([`KIDS_PER_WIDTH`]) and of the lines ([`LINES_PER_WIDTH`]), and of
/// what [`compact`] holds for a moment (5 bytes a line entry, and the
/// kept children's parents).
pub const BYTES_PER_WIDTH: usize = 2 * std::mem::size_of::<(State, u32)>()
    + KIDS_PER_WIDTH * std::mem::size_of::<Kid>()
    + LINE_BYTES * LINES_PER_WIDTH
    + 4;
/// Bytes a line entry takes, with what [`compact`] holds for it.
const LINE_BYTES: usize = std::mem::size_of::<(u32, Step)>() + 5;

/// What a beam search alone found ([`beams_alone`]).
#[derive(Debug)]
pub struct BeamEnd {
    /// The core moves of a win from the deal, if found.
    pub won: Option<Vec<Move>>,
    /// Positions generated (each one a move played): what it counts
    /// against its budget.
    pub nodes: u64,
    /// Beams ended without a win.
    pub ended: u32,
    /// Bytes held at the end.
    pub bytes: usize,
}

/// The beam's memory of positions seen: a fixed table of 64-bit keys,
/// one slot a key, a later key taking the slot over. So it forgets: a
/// position whose slot another has taken may come in again (a line
/// going round is cut at its next sight while its slot holds); it never
/// refuses a position it has not seen.
struct Seen {
    slots: Vec<u64>,
    mask: usize,
}

impl Seen {
    fn with_bytes(bytes: usize) -> Seen {
        // The largest power of two that fits.
        let n = 1usize << (usize::BITS - 1 - (bytes / 8).max(1024).leading_zeros());
        Seen {
            slots: vec![0; n],
            mask: n - 1,
        }
    }

    /// Marks `key` seen; whether it was new.
    fn insert(&mut self, key: u128) -> bool {
        let k = (key as u64) | 1;
        let i = ((key >> 64) as usize) & self.mask;
        if self.slots[i] == k {
            return false;
        }
        self.slots[i] = k;
        true
    }
}

/// The longest line a beam follows (far beyond any game's win, about
/// 1,000 moves at most): with the seen positions forgotten, a beam that
/// has narrowed to a few positions could otherwise wander for ever.
const MAX_DEPTH: u32 = 5_000;

/// The first beam's width; each next one is [`GROWTH`] times wider, up
/// to what the memory holds, and then beams of that width follow one
/// another with other tie-breaks. Beams alone with 512 MiB, on the ten
/// Variegated Canfield deals still unknown after three searches of 30 M
/// nodes (1, 5, 7, 11, 21, 23, 26, 28, 33, 34), 60 M moves each: from
/// 32,000, 1 and 11 won of the first seven (46.4 M moves each); from
/// 16,000 (whose first beam ends without a win after about 20 M), none
/// of the first six (`results/2026-11-28-vc-beams`).
/// Narrower beams win easier deals, but there the ladder and the
/// restarts, which run first, win them sooner.
pub const FIRST_WIDTH: usize = 32_000;
/// See [`FIRST_WIDTH`].
const GROWTH: usize = 2;

/// One beam under way: the positions kept at the last depth, the next of
/// them to expand and the children found so far at this depth, the
/// lines, the positions seen.
struct Run {
    width: usize,
    salt: u32,
    beam: Vec<(State, u32)>,
    next: usize,
    kids: Vec<Kid>,
    lines: Vec<(u32, Step)>,
    seen: Seen,
    depth: u32,
    /// [`Beams::moves`] when it started.
    moves_at_start: u64,
}

/// Beams of growing width ([`FIRST_WIDTH`]) from the deal of a game, run
/// in phases between the exhaustive search's turns: a beam cut short by a
/// phase's budget goes on in the next phase where it stopped.
pub struct Beams<'g> {
    g: &'g Game,
    w: Weights,
    memory: usize,
    /// The first beam's width ([`FIRST_WIDTH`]) and the growth from
    /// beam to beam ([`GROWTH`]).
    first: usize,
    growth: usize,
    /// Positions generated (each one a move played; the children kept
    /// are played once more to build the next depth, uncounted): what a
    /// phase counts against its budget, and the nodes it adds to the
    /// search's.
    pub moves: u64,
    /// Beams ended without a win.
    pub ended: u32,
    /// The most cards on the foundations in a position generated
    /// ([`crate::Stats::most_up`]).
    pub most_up: u32,
    /// A beam ended without generating a position (the deal has no move
    /// worth playing): every other would do the same.
    done: bool,
    run: Option<Run>,
    gen: SmallVec<[SMove; 32]>,
    reach: ReachMemo,
    autos: Vec<(Move, demon_core::Undo)>,
}

impl<'g> Beams<'g> {
    /// Beams holding at most about `memory` bytes ([`BYTES_PER_WIDTH`] a
    /// position of the width, and a quarter for the positions seen).
    pub fn new(g: &'g Game, memory: usize, w: Weights) -> Beams<'g> {
        Beams {
            g,
            w,
            memory,
            first: FIRST_WIDTH,
            growth: GROWTH,
            moves: 0,
            ended: 0,
            most_up: 0,
            done: false,
            run: None,
            gen: SmallVec::new(),
            reach: ReachMemo::default(),
            autos: Vec::new(),
        }
    }

    /// The same with the first beam `first` wide and each next one
    /// `growth` times wider (for tests and experiments).
    #[doc(hidden)]
    pub fn with_widths(mut self, first: usize, growth: usize) -> Beams<'g> {
        self.first = first.max(1);
        self.growth = growth.max(1);
        self
    }

    /// The widest beam the memory holds.
    fn max_width(&self) -> usize {
        ((self.memory / 4 * 3).saturating_sub(MAX_DEPTH as usize * LINE_BYTES) / BYTES_PER_WIDTH)
            .max(1)
    }

    /// The width of beam number `k` (from 0).
    fn width(&self, k: u32) -> usize {
        let most = self.max_width();
        let mut w = self.first;
        for _ in 0..k {
            if w >= most {
                break;
            }
            w = w.saturating_mul(self.growth);
        }
        w.min(most)
    }

    /// The bytes held now.
    pub fn bytes(&self) -> usize {
        self.run.as_ref().map_or(0, |r| {
            r.beam.capacity() * std::mem::size_of::<(State, u32)>()
                + r.kids.capacity() * std::mem::size_of::<Kid>()
                + r.lines.capacity() * std::mem::size_of::<(u32, Step)>()
                + r.seen.slots.len() * 8
        })
    }

    fn start(&mut self) -> Run {
        let g = self.g;
        let width = self.width(self.ended);
        let mut seen = Seen::with_bytes(self.memory / 4);
        let root = deal_root(g, &mut self.autos);
        seen.insert(key(g, &root));
        Run {
            width,
            salt: self.ended,
            beam: vec![(root, ROOT)],
            next: 0,
            kids: Vec::with_capacity(width * KIDS_PER_WIDTH),
            lines: Vec::with_capacity(width * LINES_PER_WIDTH + MAX_DEPTH as usize),
            seen,
            depth: 0,
            moves_at_start: self.moves,
        }
    }

    /// Runs beams for at most `budget` more moves (and until the deadline
    /// or the stop flag): the core moves of a win from the deal, if one is
    /// found.
    pub fn phase(
        &mut self,
        budget: u64,
        deadline: Option<(Instant, Duration)>,
        stop: Option<StopFlag>,
    ) -> Option<Vec<Move>> {
        let limit = self.moves.saturating_add(budget);
        let g = self.g;
        loop {
            if self.done {
                return None;
            }
            let mut run = match self.run.take() {
                Some(r) => r,
                None => self.start(),
            };
            // Expand the rest of this depth, a position at a time: one whose
            // children would take the moves past the budget waits for the
            // next phase, so that the budget is never overrun.
            while run.next < run.beam.len() {
                let i = run.next;
                let st = &run.beam[i].0;
                generate_unsorted(g, st, &mut self.gen, &mut self.reach, Gen::All);
                self.gen.retain(|m| worth_playing(g, st, m.mv));
                if self.moves + self.gen.len() as u64 > limit
                    || (i % 16 == 0
                        && (deadline.is_some_and(|(s, t)| s.elapsed() >= t)
                            || stop.is_some_and(StopFlag::raised)))
                {
                    self.run = Some(run);
                    return None;
                }
                run.next += 1;
                for m in &self.gen {
                    let step = Step::of(m);
                    let mut c = st.clone();
                    play_step(g, &mut c, step, &mut self.autos);
                    self.moves += 1;
                    crate::search::note_most_up(&mut self.most_up, g, &c);
                    let k = key(g, &c);
                    if !run.seen.insert(k) {
                        continue;
                    }
                    if g.is_won(&c) {
                        let mut line = vec![step];
                        let mut p = run.beam[i].1;
                        while p != ROOT {
                            line.push(run.lines[p as usize].1);
                            p = run.lines[p as usize].0;
                        }
                        line.reverse();
                        if let Some(moves) = core_moves(g, &line) {
                            return Some(moves);
                        }
                        // The line is the steps played to reach `c`, so
                        // it replays; were it not to, nothing is taken on
                        // trust: go on.
                        continue;
                    }
                    if run.kids.len() == run.kids.capacity() {
                        trim(&mut run.kids, run.width);
                    }
                    run.kids.push(Kid {
                        value: value(g, &c, &self.w) + i32::from(m.score) / 10,
                        tie: ((k >> 96) as u32) ^ run.salt.wrapping_mul(0x9E37_79B9),
                        parent: i as u32,
                        step,
                    });
                }
            }
            // Keep the best children as the next depth.
            let width = run.width;
            trim(&mut run.kids, width);
            // The lines the kept children descend from.
            let mut from: Vec<u32> = run
                .kids
                .iter()
                .map(|k| run.beam[k.parent as usize].1)
                .collect();
            if run.lines.len() + run.kids.len() > run.lines.capacity() {
                compact(&mut run.lines, &mut from);
            }
            // The lines kept leave no room for this depth's: this beam is
            // over (it has not narrowed onto few lines, and goes no
            // further).
            let full = run.lines.len() + run.kids.len() > run.lines.capacity();
            let mut next = Vec::with_capacity(if full { 0 } else { run.kids.len() });
            if !full {
                for (kid, &at) in run.kids.iter().zip(&from) {
                    let mut c = run.beam[kid.parent as usize].0.clone();
                    play_step(g, &mut c, kid.step, &mut self.autos);
                    run.lines.push((at, kid.step));
                    next.push((c, (run.lines.len() - 1) as u32));
                }
            }
            run.kids.clear();
            run.beam = next;
            run.next = 0;
            run.depth += 1;
            if run.beam.is_empty() || run.depth >= MAX_DEPTH || full {
                // This beam is over; the next one starts at the next call
                // round the loop (none if this one generated nothing).
                self.done |= self.moves == run.moves_at_start;
                self.ended = self.ended.saturating_add(1);
                if self.ended == u32::MAX {
                    self.done = true;
                }
            } else {
                self.run = Some(run);
            }
        }
    }
}

/// The key of a position in a beam's seen positions: its fingerprint
/// with its table level ([`fingerprint_level`]), so that positions the
/// table would tell apart (the same talon after more redeals) stay apart.
fn key(g: &Game, st: &State) -> u128 {
    let (f, l) = fingerprint_level(g, st);
    f ^ u128::from(l).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)
}

/// A beam search alone: beams of growing width ([`Beams`]) for at most
/// `budget` moves, with about `memory` bytes, the first `first` wide and
/// each next one `growth` times wider.
pub fn beams_alone(
    g: &Game,
    (first, growth): (usize, usize),
    budget: u64,
    memory: usize,
    w: Weights,
) -> BeamEnd {
    let mut b = Beams::new(g, memory, w).with_widths(first, growth);
    let won = b.phase(budget, None, None);
    BeamEnd {
        won,
        nodes: b.moves,
        ended: b.ended,
        bytes: b.bytes(),
    }
}

/// Keeps the best `width` of `kids` (by value, then tie-break).
fn trim(kids: &mut Vec<Kid>, width: usize) {
    if kids.len() > width {
        kids.select_nth_unstable_by(width, |a, b| (b.value, b.tie).cmp(&(a.value, a.tie)));
        kids.truncate(width);
    }
}

/// Keeps only the line entries that the entries `from` (a line each, or
/// [`ROOT`]) descend from, in place (the vector keeps its capacity), and
/// renumbers `from` to match.
fn compact(lines: &mut Vec<(u32, Step)>, from: &mut [u32]) {
    let mut alive = vec![false; lines.len()];
    for &i in from.iter() {
        let mut p = i;
        while p != ROOT && !alive[p as usize] {
            alive[p as usize] = true;
            p = lines[p as usize].0;
        }
    }
    // Entries come after their parents, so one pass forward renumbers.
    let mut to = vec![ROOT; lines.len()];
    let mut n = 0;
    for i in 0..lines.len() {
        if alive[i] {
            let (parent, s) = lines[i];
            let p = if parent == ROOT {
                ROOT
            } else {
                to[parent as usize]
            };
            to[i] = n as u32;
            lines[n] = (p, s);
            n += 1;
        }
    }
    lines.truncate(n);
    for f in from.iter_mut() {
        if *f != ROOT {
            *f = to[*f as usize];
        }
    }
}

/// The beams' weights ([`Weights`], [`crate::probe::value`]): the
/// rollouts' value of a position (10 a card up, 5 a card out of the
/// reserve, 60 a card of the lowest foundation's height) less 300 a
/// redeal made and 10 a card of the talon before the stock's place. The
/// last two make spending the talon a cost, which is what a beam needs:
/// its positions have all played as many moves, and without them the
/// beam fills with positions that turned far into the stock to put a
/// card up, and dies with them. The move's own score ([`generate`]'s, a
/// tenth of it) is added too. A first version's beams alone (10,000
/// positions, an exact set of the positions seen), with Variegated
/// Canfield seeds 2, 3, 4, 8, 9 and 10 (the search at 2 M nodes wins all
/// but 2): 1 won with neither term, 1 with 100 a redeal, 2 with 300, 4
/// with 100 and 3 a card, 5 with 300 and 10 (with other tie-breaks since
/// then: 2 to 3 of the 6; which deal a beam wins turns on them). On ten
/// deals still unknown after three searches of 30 M nodes (1, 5, 7, 11,
/// 21, 23, 26, 28, 33, 34) a beam of 30,000 won 1, 11 and 26 in 36 to
/// 44 M moves (20-40 s), and beams from 4,000 growing twice wider each
/// time won 1 and 11 with the fourth beam (32,000) after 86 and 76 M
/// moves (`results/2026-11-28-vc-beams`).
///
/// [`generate`]: crate::moves::generate
pub fn weights() -> Weights {
    Weights {
        found: 10,
        reserve: 5,
        down: -3,
        empty: 0,
        unbuilt: 0,
        blocked: 0,
        pass: -300,
        pos: -10,
        low: 60,
        newest_first: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compaction keeps every line the kept children descend from, step
    /// for step, and drops the rest: lines of a made-up tree (each entry's
    /// parent an earlier entry), children from a few of its entries and
    /// from the deal itself ([`ROOT`]).
    #[test]
    fn compaction_keeps_the_lines_of_the_kept_children() {
        let step = |i: usize| Step {
            talon: Some((i as u8, (i >> 8) as u8)),
            mv: Move::Redeal,
        };
        let mut lines: Vec<(u32, Step)> = Vec::new();
        for i in 0..5_000usize {
            let parent = if i < 10 {
                ROOT
            } else {
                ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) % i as u64) as u32
            };
            lines.push((parent, step(i)));
        }
        let of = |lines: &[(u32, Step)], mut p: u32| {
            let mut v = Vec::new();
            while p != ROOT {
                v.push(lines[p as usize].1.talon);
                p = lines[p as usize].0;
            }
            v
        };
        let mut from: Vec<u32> = vec![4_999, 4_321, 2_500, 17, 3, ROOT, 4_321];
        let before: Vec<_> = from.iter().map(|&f| of(&lines, f)).collect();
        let cap = lines.capacity();
        compact(&mut lines, &mut from);
        let after: Vec<_> = from.iter().map(|&f| of(&lines, f)).collect();
        assert_eq!(before, after);
        assert_eq!(from[5], ROOT);
        // Exactly the entries on those lines are left.
        let mut on: Vec<_> = before.iter().flatten().collect();
        on.sort();
        on.dedup();
        assert_eq!(lines.len(), on.len());
        assert_eq!(lines.capacity(), cap);
    }
}
