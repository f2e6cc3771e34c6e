//! The search's moves: which moves of a position the search offers, and in
//! what order ([`generate`]): the K+ waste plays (every card the stock can
//! bring to the waste top, offered directly), the provably safe foundation
//! moves played without branching ([`safe_to_found`], [`play_safe_moves`]),
//! and what a move reads and writes, for the sibling sleep sets of the
//! search ([`independent`]).

use demon_core::card::wrap_rank;
use demon_core::rules::{Build, EmptySpace, Redeals, Stock, TableauWrap};
use demon_core::{Card, Game, Loc, Move, State, Undo};
use smallvec::SmallVec;

use crate::deadlock::last_pass;
use crate::key::piles_interchangeable;

/// A search move: a core move, after turning the talon to `talon` first
/// when it is a K+ waste play, played from member `member` of the
/// position's tableau class ([`crate::class`]; 0 is the position itself).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SMove {
    pub(crate) mv: Move,
    pub(crate) talon: Option<(u8, u8)>,
    pub(crate) score: i16,
    pub(crate) member: u8,
    /// What the move touches, for [`independent`].
    pub(crate) fp: Footprint,
}

impl SMove {
    /// Move `mv` of position `st` (member 0), played after setting the
    /// talon to `talon` if given.
    pub(crate) fn new(
        g: &Game,
        st: &State,
        mv: Move,
        talon: Option<(u8, u8)>,
        score: i16,
    ) -> SMove {
        SMove {
            mv,
            talon,
            score,
            member: 0,
            fp: touch(g, st, mv),
        }
    }
}

/// The parts of a position a move reads or writes, for the sibling
/// sleep sets of [`Searcher`]. `None` when the move is not a candidate.
pub(crate) type Footprint = Option<Touch>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Touch {
    /// Tableau piles moved from or to.
    piles: u16,
    /// Bit 0: the talon (a waste play); bit 1: the reserve.
    shared: u8,
    /// Suits whose foundations it builds on.
    suits: u8,
}

/// Whether two moves available in one position commute, in the sense the
/// sibling sleep sets need: each stays legal and is generated, with the
/// same label, after the other, and the two orders end in the same state.
///
/// A candidate move (see [`touch`]) plays one card or run between the
/// talon, the reserve, a non-empty tableau pile that it does not empty and
/// a foundation; its legality and effect depend only on those places (the
/// build rule, foundation base and wrap are fixed for the whole game). Two
/// candidates on disjoint piles, not both on the talon, not both on the
/// reserve and not building on foundations of one suit therefore commute:
/// neither changes what the other reads. Foundations of one suit are
/// excluded because with two decks the move generator picks one of the
/// suit's two foundations by height. No candidate empties a pile or moves
/// into an empty one, so the reserve never refills a space, the "first
/// empty space" the generator uses is unchanged, and space rules that
/// depend on the reserve play no part. Safe moves are ruled out by the
/// caller (a child position must have had none).
pub(crate) fn independent(a: Footprint, b: Footprint) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            a.piles & b.piles == 0 && a.shared & b.shared == 0 && a.suits & b.suits == 0
        }
        _ => false,
    }
}

/// The footprint of a move about to be generated in `st`, or `None` when
/// it is not a candidate for [`independent`].
pub(crate) fn touch(g: &Game, st: &State, mv: Move) -> Footprint {
    let Move::Play {
        from,
        to,
        count,
        card,
    } = mv
    else {
        return None;
    };
    let mut t = Touch {
        piles: 0,
        shared: 0,
        suits: 0,
    };
    match from {
        Loc::Tableau(p) => {
            // A move that empties its pile is not a candidate.
            if count as usize >= g.pile(st, p as usize).len() {
                return None;
            }
            t.piles |= 1 << p;
        }
        Loc::Waste => t.shared |= 1,
        // Emptying the reserve changes what spaces accept.
        Loc::Reserve if g.reserve(st).len() > 1 => t.shared |= 2,
        _ => return None,
    }
    match to {
        Loc::Tableau(q) => {
            if g.pile(st, q as usize).is_empty() {
                return None;
            }
            t.piles |= 1 << q;
        }
        Loc::Foundation(_) => t.suits |= 1 << card.suit().index(),
        _ => return None,
    }
    Some(t)
}

/// Plays provably safe foundation moves until none is left, recording them
/// in `autos`.
pub(crate) fn play_safe_moves(g: &Game, st: &mut State, autos: &mut Vec<(Move, Undo)>) {
    while let Some(m) = safe_move(g, st) {
        let u = g.play(st, m);
        autos.push((m, u));
    }
}

/// The first foundation move of `st` that the search plays without
/// branching, if any: a tableau top card, the reserve's top card, or the
/// waste top when the stock is dealt one card at a time or no redeal is
/// left ([`waste_top_is_a_stack_top`]), that [`safe_to_found`] accepts,
/// under the conditions that argument needs (see there).
pub fn safe_move(g: &Game, st: &State) -> Option<Move> {
    let rules = g.rules();
    if rules.worrying_back {
        return None;
    }
    // A deal that waits for every pile to be filled: a card the winning
    // line would have kept (or moved into a space) could be the one that
    // lets it deal, so nothing is played early while the stock has cards.
    if let Stock::ToTableau {
        only_when_no_empty: true,
    } = rules.stock
    {
        if !g.stock_empty(st) {
            return None;
        }
    }
    // Taking a lone card off its pile empties it early. That is only an
    // extra option unless the reserve fills it at once. Then the reserve
    // runs one card ahead of the winning line W, which is still sound while
    // the piles are interchangeable (a stock dealt to the waste): the pile
    // that holds `c` in W holds the reserve's next card u in W', and
    // whatever W does with u (from the reserve: up, onto a pile, or into a
    // space that empties) W' does with u from that pile, which the reserve
    // then fills with the card after u: the same correspondence one card
    // on, with the two piles' places exchanged when u fills a space in W.
    // Moving `c` off its pile in W leaves u there, as in W'. When the
    // reserve runs out, W' has an empty pile where W has `c`: an extra
    // option (spaces then take any card, or the waste's, by choice). A
    // card in a pile is playable wherever the reserve's top is, and
    // nothing can be built on u in W, where it lies in the reserve.
    let empty_ok = match rules.empty_space {
        EmptySpace::Any => true,
        _ => g.reserve(st).is_empty() || matches!(rules.stock, Stock::ToWaste { .. }),
    };
    // `c`, from `from`, to its foundation, when that is safe. (Most
    // candidates cannot go up at all: one bit test says so.)
    let next = g.foundation_next_bits(st);
    let up = |from: Loc, c: Card| -> Option<Move> {
        if next >> c.index() & 1 == 0 {
            debug_assert!(g.foundation_for(st, c).is_none());
            return None;
        }
        let f = g.foundation_for(st, c)?;
        safe_to_found(g, st, c).then_some(Move::Play {
            from,
            to: Loc::Foundation(f),
            count: 1,
            card: c,
        })
    };
    for p in 0..rules.piles as usize {
        let cs = g.pile(st, p);
        if let Some(&c) = cs.last() {
            if cs.len() == 1 && !empty_ok {
                continue;
            }
            if let Some(m) = up(Loc::Tableau(p as u8), c) {
                return Some(m);
            }
        }
    }
    // The reserve's top card. With spaces never filled from the reserve,
    // moving it up only gives earlier access to the card below it. When
    // the reserve fills spaces, W' (with `c` up) has the reserve one card
    // ahead of W: where W plays `c` from the reserve up or onto a pile,
    // W' leaves the move out (and plays what W builds on `c` up early, as
    // in the proof at [`safe_to_found`]), after which the two reserves
    // agree; where W's reserve fills a space with `c`, W' fills it with
    // the next card u, and from there the correspondence is the one
    // argued above for a lone card (the pile that holds `c` in W holds u
    // in W'), which needs the same condition.
    if empty_ok {
        if let Some(m) = g.reserve_top(st).and_then(|c| up(Loc::Reserve, c)) {
            return Some(m);
        }
    }
    if waste_top_is_a_stack_top(g, st) {
        return g.waste_top(st).and_then(|c| up(Loc::Waste, c));
    }
    None
}

/// Whether the waste's top card may be played up early like the reserve's
/// top (see [`safe_move`]): the stock goes to the waste, and either it is
/// dealt one card at a time or no redeal is left.
///
/// What playing the waste's top card `c` up early changes, beyond what the
/// proof at [`safe_to_found`] covers, is the waste below it. A turn of the
/// stock moves the stock's next cards onto the waste whatever the waste
/// holds, so the cards turned together in this pass stay the same; so the
/// waste of W' is that of W without `c` (and without the cards W' played
/// up early), and each of W's waste plays finds its card on top in W' too
/// (W' may have one card more uncovered: an extra option). Only a redeal
/// reads the waste: it turns it over into the next pass's stock, whose
/// groups of `draw` cards then depend on which cards are gone. One at a
/// time, the groups are single cards anyway; with no redeal left, no
/// redeal comes. Spaces are never filled from the waste by themselves
/// (`reserve-then-waste` lets the waste fill them, not must), so, unlike
/// the reserve, it never fills a space differently in W'.
///
/// Measured where it is new, draw 3 in the last pass: see
/// `results/2026-12-07-last-pass-safe-waste`.
fn waste_top_is_a_stack_top(g: &Game, st: &State) -> bool {
    match g.rules().stock {
        Stock::ToWaste { draw: 1, .. } => true,
        Stock::ToWaste { redeals, .. } => last_pass(redeals, g.talon_state(st).1),
        _ => false,
    }
}

/// Which of a position's moves [`generate`] lists.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gen {
    /// All of them.
    All,
    /// All but the reversible ones: the first member of a merged class.
    ClassFirst,
    /// Only those that change the tableau and are not reversible: another
    /// member of a merged class, whose talon is the first's (its waste
    /// reach is passed in, not recomputed).
    ClassOther,
}

/// What the move scores read of a position.
struct Cx {
    to_waste: bool,
    inter: bool,
    first_empty: Option<usize>,
    reserve_len: usize,
}

impl Cx {
    fn new(g: &Game, st: &State) -> Cx {
        let piles = g.rules().piles as usize;
        Cx {
            to_waste: matches!(g.rules().stock, Stock::ToWaste { .. }),
            inter: piles_interchangeable(g, st),
            first_empty: (0..piles).find(|&p| g.pile(st, p).is_empty()),
            reserve_len: g.reserve(st).len(),
        }
    }
}

/// The search's score of a legal move that is not a K+ waste play (higher
/// is tried first), or `None` when the search never plays it.
fn score(g: &Game, st: &State, cx: &Cx, mv: Move) -> Option<i16> {
    let rules = g.rules();
    Some(match mv {
        Move::Deal | Move::Redeal if cx.to_waste => return None,
        Move::Deal => 5,
        Move::Redeal => return None,
        Move::ChooseBase(_) => 0,
        Move::Play {
            from: Loc::Waste, ..
        } if cx.to_waste => return None,
        Move::Play {
            from, to, count, ..
        } => {
            if let (Loc::Tableau(q), true) = (to, cx.inter) {
                // One of several empty spaces stands for all of them.
                if g.pile(st, q as usize).is_empty() && Some(q as usize) != cx.first_empty {
                    return None;
                }
            }
            match (from, to) {
                (_, Loc::Foundation(_)) => 100 + if from == Loc::Reserve { 10 } else { 0 },
                (Loc::Reserve, _) => 60,
                (Loc::Tableau(p), Loc::Tableau(q)) => {
                    let p = p as usize;
                    let len = g.pile(st, p).len();
                    // A whole pile into an empty space changes
                    // nothing while piles are interchangeable.
                    if cx.inter
                        && count as usize == len
                        && g.pile(st, q as usize).is_empty()
                        && g.face_down(st, p) == 0
                    {
                        return None;
                    }
                    if count as usize == len
                        && cx.reserve_len > 0
                        && rules.empty_space != EmptySpace::Any
                    {
                        55 // empties a pile, which the reserve fills
                    } else {
                        20
                    }
                }
                (Loc::Foundation(_), _) => 0,
                _ => 10,
            }
        }
    })
}

/// What each card a K+ waste play leaves on the waste above the old top in
/// the last pass costs its score. In the last pass the waste is a stack that
/// must be played off from the top, and a card further on stays reachable
/// after a nearer one is played, so the nearest playable card comes first
/// (like turning one card at a time and playing what fits). On rollouts
/// alone, American Toad seeds 1-40 at 1 M moves each: 19 won without it,
/// 30 with 10 a card, 35 with 30, 38 with 100.
const BURY_WEIGHT: i16 = 100;

/// The same cost before the last pass, where the cards left on the waste
/// come round again but in a pass fewer: a milder hint to use the passes
/// left. Rollouts alone at 1 M moves each, Variegated Canfield seeds 1-60:
/// 4 won at 0, 11 at 20, 10 at 100; American Toad 1-60 at 500,000:
/// 55 at 0 and 20, 45 at 100; Rainbow 1-80 and PySolFC Storehouse 1-80 at
/// 300,000: unchanged (60, 33).
const EARLY_BURY_WEIGHT: i16 = 20;

/// The cards that the K+ waste play of `r` turns onto the waste and leaves
/// there (live talon cards between the old waste top, or the start of the
/// pass after a redeal, and `r`'s card).
fn buried(g: &Game, st: &State, r: &demon_core::Reach) -> u32 {
    let start = if r.redeals == 0 {
        g.talon_state(st).0 as u32
    } else {
        0
    };
    let end = (r.pos as u32).saturating_sub(1);
    if end <= start {
        return 0;
    }
    let live = !g.talon_gone_bits(st);
    let mask = (u128::MAX >> (128 - (end - start))) << start;
    (live & mask).count_ones()
}

/// The K+ waste plays of `reach` to the foundations (when `found`) and to
/// the tableau piles `onto` (a bit per pile).
fn push_reach(
    g: &Game,
    st: &State,
    cx: &Cx,
    reach: &[demon_core::Reach],
    found: bool,
    onto: u64,
    out: &mut SmallVec<[SMove; 32]>,
) {
    let piles = g.rules().piles as usize;
    let space_ok = g.space_accepts(st, Loc::Waste);
    let last_pass = match g.rules().stock {
        Stock::ToWaste {
            redeals: Redeals::Limited(n),
            ..
        } => n,
        _ => u8::MAX,
    };
    // The piles of `onto` by what they take: a waste card goes onto the
    // top cards in `tops` it builds on, and into the spaces of `spaces`.
    // A reachable card that goes nowhere (most of them) is passed over
    // with two bit tests.
    let mut tops = 0u64;
    let mut spaces = 0u64;
    // The piles of `onto` whose top is each card of `tops`, by card index.
    let mut top_piles: SmallVec<[(u8, u16); 10]> = SmallVec::new();
    for q in 0..piles {
        if onto & (1 << q) != 0 {
            match g.pile(st, q).last() {
                Some(&t) => {
                    tops |= 1 << t.index();
                    match top_piles.iter_mut().find(|e| e.0 == t.index()) {
                        Some(e) => e.1 |= 1 << q,
                        None => top_piles.push((t.index(), 1 << q)),
                    }
                }
                None if space_ok && (!cx.inter || Some(q) == cx.first_empty) => spaces |= 1 << q,
                None => {}
            }
        }
    }
    // The cards that can go up (most reachable cards cannot: one bit test
    // says so, as `foundation_for` would).
    let next = if found { g.foundation_next_bits(st) } else { 0 };
    for r in reach {
        let c = r.card;
        let up = if next >> c.index() & 1 != 0 {
            g.foundation_for(st, c)
        } else {
            None
        };
        if up.is_none() && g.builds_bits(st, c) & tops == 0 && spaces == 0 {
            continue;
        }
        let talon = if r.turns == 0 {
            None
        } else {
            Some((r.pos, r.passes))
        };
        let mut base = 30 - (r.turns.min(20) as i16);
        if last_pass != u8::MAX {
            let w = if r.passes == last_pass {
                BURY_WEIGHT
            } else {
                EARLY_BURY_WEIGHT
            };
            base -= w * buried(g, st, r) as i16;
        }
        if let Some(f) = up {
            let mv = Move::Play {
                from: Loc::Waste,
                to: Loc::Foundation(f),
                count: 1,
                card: c,
            };
            out.push(SMove::new(g, st, mv, talon, base + 70));
        }
        // The piles it goes to, in pile order: those whose top it builds
        // on, and the spaces.
        let on = g.builds_bits(st, c) & tops;
        let mut dests = u64::from(
            top_piles
                .iter()
                .filter(|e| on >> e.0 & 1 != 0)
                .fold(0u16, |m, e| m | e.1),
        ) | spaces;
        while dests != 0 {
            let q = dests.trailing_zeros() as usize;
            dests &= dests - 1;
            let mv = Move::Play {
                from: Loc::Waste,
                to: Loc::Tableau(q as u8),
                count: 1,
                card: c,
            };
            out.push(SMove::new(g, st, mv, talon, base));
        }
    }
}

/// [`Game::waste_reach`] of the talons last asked about. It depends only
/// on the talon (which of its cards are gone, its position and passes)
/// and on whether the base is still to be chosen; a search meets the same
/// talons again and again (tableau moves leave it alone), so the reaches
/// of the last [`REACH_MEMO`] talons are kept, one per slot of a hash of
/// the talon.
pub(crate) struct ReachMemo {
    slots: Vec<(Option<TalonKey>, SmallVec<[demon_core::Reach; 32]>)>,
    /// The slot last read.
    last: usize,
}

/// What [`Game::waste_reach`] reads of a state: the talon's gone cards,
/// position and passes, and whether the base is still to be chosen.
type TalonKey = (u128, u8, u8, bool);

/// Talons whose waste reach [`ReachMemo`] keeps (about 17 KiB).
const REACH_MEMO: usize = 64;

impl Default for ReachMemo {
    fn default() -> ReachMemo {
        ReachMemo {
            slots: vec![(None, SmallVec::new()); REACH_MEMO],
            last: 0,
        }
    }
}

impl ReachMemo {
    /// The waste reach of `st`.
    pub fn of(&mut self, g: &Game, st: &State) -> &[demon_core::Reach] {
        let (pos, passes) = g.talon_state(st);
        let gone = g.talon_gone_bits(st);
        let key = (gone, pos, passes, g.base_pending(st));
        let h =
            (gone as u64 ^ (gone >> 64) as u64 ^ u64::from(pos) << 56 ^ u64::from(passes) << 48)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (h >> 58) as usize % REACH_MEMO;
        let slot = &mut self.slots[i];
        if slot.0 != Some(key) {
            g.waste_reach(st, &mut slot.1);
            slot.0 = Some(key);
        }
        self.last = i;
        &self.slots[i].1
    }

    /// The reach [`ReachMemo::of`] last gave.
    pub fn last(&self) -> &[demon_core::Reach] {
        &self.slots[self.last].1
    }
}

/// The search moves of a position, best first. `Gen::ClassOther` reads
/// the reach `reach` holds (of the class's first member, whose talon it
/// shares).
pub(crate) fn generate(
    g: &Game,
    st: &State,
    out: &mut SmallVec<[SMove; 32]>,
    reach: &mut ReachMemo,
    mode: Gen,
) {
    generate_unsorted(g, st, out, reach, mode);
    out.sort_by_key(|m| -m.score);
}

/// [`generate`]'s moves before they are sorted: taking the first of the
/// highest score, again and again, gives them in [`generate`]'s order
/// (its sort is stable), for a caller that wants only the first few.
pub(crate) fn generate_unsorted(
    g: &Game,
    st: &State,
    out: &mut SmallVec<[SMove; 32]>,
    reach: &mut ReachMemo,
    mode: Gen,
) {
    out.clear();
    let rules = g.rules();
    let mut runs = [0u8; demon_core::rules::MAX_PILES];
    if mode != Gen::All {
        for (p, r) in runs.iter_mut().enumerate().take(rules.piles as usize) {
            *r = g.run_len(st, p) as u8;
        }
    }
    let cx = Cx::new(g, st);
    for mv in g.legal_moves(st) {
        if mode != Gen::All {
            if let Move::Play {
                from: Loc::Tableau(p),
                to: Loc::Tableau(q),
                count,
                ..
            } = mv
            {
                // Reversible (see `class::is_reversible`).
                if count < runs[p as usize] && !g.pile(st, q as usize).is_empty() {
                    continue;
                }
            }
            if mode == Gen::ClassOther && !touches_tableau(g, mv) {
                continue;
            }
        }
        let Some(score) = score(g, st, &cx, mv) else {
            continue;
        };
        out.push(SMove::new(g, st, mv, None, score));
    }
    if cx.to_waste {
        let list = if mode != Gen::ClassOther {
            reach.of(g, st)
        } else {
            reach.last()
        };
        let all = (1u64 << rules.piles) - 1;
        push_reach(g, st, &cx, list, mode != Gen::ClassOther, all, out);
    }
}

/// The non-reversible moves onto pile `q`, whose top is `on`, and of `on`
/// to a foundation, scored as [`generate`] scores them: what
/// `generate(.., Gen::ClassOther)` lists of those, given the waste reach
/// of a member with this talon (a flipped member of a binary class, see
/// [`ClassFinder::form`]).
pub(crate) fn generate_onto(
    g: &Game,
    st: &State,
    q: usize,
    on: Card,
    reach: &[demon_core::Reach],
    out: &mut SmallVec<[SMove; 32]>,
) {
    out.clear();
    let rules = g.rules();
    let cx = Cx::new(g, st);
    let dest = Loc::Tableau(q as u8);
    let mut cands: SmallVec<[Move; 8]> = SmallVec::new();
    if let Some(f) = g.foundation_for(st, on) {
        cands.push(Move::Play {
            from: dest,
            to: Loc::Foundation(f),
            count: 1,
            card: on,
        });
    }
    let mut single = |from: Loc, c: Card| {
        if g.builds(st, c, on) {
            cands.push(Move::Play {
                from,
                to: dest,
                count: 1,
                card: c,
            });
        }
    };
    if !cx.to_waste {
        if let Some(c) = g.waste_top(st) {
            single(Loc::Waste, c);
        }
    }
    if let Some(c) = g.reserve_top(st) {
        single(Loc::Reserve, c);
    }
    if rules.worrying_back {
        for f in 0..rules.foundations() {
            if let Some(c) = g.foundation_top(st, f) {
                single(Loc::Foundation(f as u8), c);
            }
        }
    }
    // From another pile: its whole top run (a part would be reversible).
    for p in 0..rules.piles as usize {
        let cs = g.pile(st, p);
        if p == q || cs.is_empty() {
            continue;
        }
        let run = g.run_len(st, p);
        let c = cs[cs.len() - run];
        if g.builds(st, c, on) {
            cands.push(Move::Play {
                from: Loc::Tableau(p as u8),
                to: dest,
                count: run as u8,
                card: c,
            });
        }
    }
    for &mv in &cands {
        if let Some(score) = score(g, st, &cx, mv) {
            out.push(SMove::new(g, st, mv, None, score));
        }
    }
    if cx.to_waste {
        push_reach(g, st, &cx, reach, false, 1 << q, out);
    }
    out.sort_by_key(|m| -m.score);
}

/// Whether moving `c` (the next card of its foundation) up now can never
/// cost a win. Cards never leave the foundations (no worrying back) and
/// the caller's conditions hold (see [`safe_move`]).
///
/// Call the cards that may be built on a card in the tableau (one rank
/// below it in the colours or suits the build rule allows, a King below an
/// Ace when Kings go on Aces) its holders-on, and say a card is *next*
/// when every foundation of its suit holds at least the ranks below it
/// (with one deck: its foundation is one card short of it). The rule: every
/// foundation of `c`'s suit has reached `c`'s rank (with one deck that is
/// `c` being next); every holder-on `b` of `c` is up (every copy of it) or
/// next; every holder-on `d` of such a `b` is up or next; every holder-on
/// of such a `d` is up. For building down in alternate colours with one
/// deck that is Blake & Gent's rule: `c` at most two ranks above both
/// foundations of the other colour and three above the other of its own
/// colour.
///
/// Proof. Take any winning line W from the position P with `c` down; build
/// a line W' from P' (P with `c` up) that wins too. W' plays W's moves,
/// except: a move of `c`, or of a run with `c` at its bottom, is left out
/// (what it would carry is on the foundations, below); when W moves a `b`
/// (with any `d` on it) onto `c`, or a `d` onto such a `b`, or a deal puts
/// one there, W' plays those cards to their foundations instead, top card
/// first; and any later move of them is left out. Invariant: W' has the
/// position of W with `c`, and the cards moved up early, taken off the
/// tableau (they only ever lie on `c` or on each other, on top of a
/// pile), and on their foundations. Each replaced move is legal: a `b` or
/// `d` not up was next at P, and only a copy of that card can fill its
/// place there; with two decks, a suit's foundations are interchangeable
/// and each holds one copy of each rank, so its foundations still one below
/// such a card are as many as its copies not up, in W' as in P, and the
/// copy W' moves up early finds one. Nothing else can be put on the early
/// cards: the holders-on of a `d` are all up. Every other move of W is
/// legal in W', since the two positions differ only in those stacks and in
/// foundations that are ahead in W' by exactly those cards (so a card W
/// plays up still finds a foundation one below it: W' has every height W
/// has, but for those raised by an early card, whose lower height W's next
/// move of that suit cannot need, as only a copy of the early card fits
/// there); an early-emptied
/// pile is only an extra option, given the caller's conditions: the
/// reserve does not fill it (which would change every later fill), and no
/// deal waits for it to be filled. A card dealt onto an early stack in W
/// lands on what is under that stack in W', where it is again the top card.
///
/// With two decks the other copy `c'` of `c` breaks this if W plays `c'`
/// up on the foundation that `c` takes in W' while the suit's other
/// foundation is lower: W' then has no place for it (a search found such a
/// deal: `tests/safe_moves.rs`). Hence the first condition, under which
/// `c'` goes on the other foundation. (Before the chain was extended to two
/// decks, a two-deck `c` needed every copy of every holder-on up: on small
/// deals `tests/safe_moves.rs` now checks 21-24 % more safe moves of Double
/// Canfield, Double Easthaven and Variegated Canfield, all sound.)
pub fn safe_to_found(g: &Game, st: &State, c: Card) -> bool {
    let rules = g.rules();
    let Some(base) = g.base(st) else { return false };
    let ranks = rules.ranks;
    let rel = |r: u8| wrap_rank(r + ranks - base.index(), ranks);
    // The rank that may be built on a card of rank `r`, if any.
    let below = |r: u8| match rules.tableau_wrap {
        TableauWrap::No if r == 0 => None,
        TableauWrap::AtBase if r == base.index() => None,
        _ => Some(wrap_rank(r + ranks - 1, ranks)),
    };
    // The suits of the cards that may be built on a card of suit `s`.
    let holder_suits = |s: usize| -> u8 {
        match rules.build {
            Build::AltColour if s >= 2 => 0b0011,
            Build::AltColour => 0b1100,
            Build::Suit => 1 << s,
            Build::AnySuit => 0b1111,
        }
    };
    let r = c.rank().index();
    let s = c.suit().index();
    // The lowest foundation of each suit: with one deck, its foundation.
    let mut low = [u8::MAX; 4];
    for (f, l) in (0..rules.foundations()).map(|f| (f, rules.foundation_suit(f))) {
        low[l] = low[l].min(g.foundation_height(st, f));
    }
    if low[s] < rel(r) {
        return false;
    }
    clear(&low, r, s, 0, &rel, &below, &holder_suits)
}

/// The chain of [`safe_to_found`]: whether every copy of every holder-on
/// of a card of rank `r` and suit `s` is up, or (above `depth` 2) every
/// foundation of its suit is at least next for it (so each copy not up has
/// its own place there) and its own holders-on are clear at the next
/// depth. `low`: the lowest foundation height of each suit.
fn clear(
    low: &[u8; 4],
    r: u8,
    s: usize,
    depth: u8,
    rel: &dyn Fn(u8) -> u8,
    below: &dyn Fn(u8) -> Option<u8>,
    holder_suits: &dyn Fn(usize) -> u8,
) -> bool {
    let Some(b) = below(r) else { return true };
    let rb = rel(b);
    let hs = holder_suits(s);
    (0..4usize).filter(|&t| hs >> t & 1 == 1).all(|t| {
        let h = low[t];
        h > rb || (h == rb && depth < 2 && clear(low, b, t, depth + 1, rel, below, holder_suits))
    })
}

/// Whether `mv` moves cards from one tableau pile to another.
pub(crate) fn touches_tableau_only(mv: Move) -> bool {
    matches!(
        mv,
        Move::Play {
            from: Loc::Tableau(_),
            to: Loc::Tableau(_),
            ..
        }
    )
}

/// Whether a move changes the tableau: a play from or to a pile, or a
/// deal onto the piles ([`Gen::ClassOther`] lists only those).
fn touches_tableau(g: &Game, mv: Move) -> bool {
    match mv {
        Move::Play { from, to, .. } => {
            matches!(from, Loc::Tableau(_)) || matches!(to, Loc::Tableau(_))
        }
        Move::Deal => matches!(g.rules().stock, Stock::ToTableau { .. }),
        Move::Redeal | Move::ChooseBase(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demon_core::rules::RuleOverrides;
    use demon_core::{GameKind, Reading, Rules, Source};

    /// American Toad seed 1 with no redeal, so that its one pass is the
    /// last: a K+ play of the card `t` turns away leaves the `t - 1` cards
    /// turned before it on the waste, less those already played; and the
    /// waste plays are offered nearest first.
    #[test]
    fn last_pass_waste_plays_count_the_cards_they_leave_and_come_nearest_first() {
        let o = RuleOverrides {
            redeals: Some(Redeals::Limited(0)),
            ..RuleOverrides::default()
        };
        let rules = Rules::resolve(GameKind::AmericanToad, Reading::Standard, &o).unwrap();
        let g = Game::new(&rules, &Source::Native(1).layout(&rules)).unwrap();
        let mut st = g.initial();
        let mut reach = SmallVec::<[demon_core::Reach; 32]>::new();
        g.waste_reach(&st, &mut reach);
        // A fresh talon of 75 cards, dealt one at a time: every card is
        // reachable, the k-th after k turns.
        assert_eq!(reach.len(), 75);
        for r in &reach {
            assert_eq!(buried(&g, &st, r), r.turns as u32 - 1, "{r:?}");
        }
        // Play the 5th card (JS, to its foundation on TS): the 4 turned
        // before it stay on the waste, AC on top, and a card further on
        // leaves behind only the cards turned after JS.
        let js = reach[4];
        assert_eq!(js.card.to_string(), "JS");
        g.set_talon_state(&mut st, (js.pos, js.passes));
        let f = g.foundation_for(&st, js.card).unwrap();
        g.play(
            &mut st,
            Move::Play {
                from: Loc::Waste,
                to: Loc::Foundation(f),
                count: 1,
                card: js.card,
            },
        );
        g.waste_reach(&st, &mut reach);
        assert_eq!(reach[0].card.to_string(), "AC", "the new waste top");
        assert_eq!(reach[1].card.to_string(), "9S");
        assert_eq!(reach.len(), 71, "the waste top and the 70 stock cards");
        assert_eq!(buried(&g, &st, &reach[0]), 0);
        for r in &reach[1..] {
            assert_eq!(buried(&g, &st, r), r.turns as u32 - 1, "{r:?}");
        }
        // The waste plays that generate offers, nearest first.
        let mut out = SmallVec::new();
        generate(&g, &st, &mut out, &mut ReachMemo::default(), Gen::All);
        let turns: Vec<u16> = out
            .iter()
            .filter(|m| {
                matches!(
                    m.mv,
                    Move::Play {
                        from: Loc::Waste,
                        ..
                    }
                )
            })
            .map(|m| m.talon.map_or(0, |(pos, _)| pos as u16))
            .collect();
        assert!(turns.len() > 3, "{turns:?}");
        assert!(turns.windows(2).all(|w| w[0] <= w[1]), "{turns:?}");
    }
}
