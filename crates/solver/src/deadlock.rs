//! Dead ends: sound tests that a position is lost, because some tableau
//! pile can never be emptied ([`stuck`], below), or because some stack
//! (the reserve, or the waste once no redeal is left) can never be emptied
//! ([`overfull`], argued there).
//!
//! To win, every card must reach a foundation, so every pile's present
//! bottom card must move. This module computes three sets of cards as the
//! least fixpoint of optimistic conditions:
//! - `M`: cards that might ever move;
//! - `T` (in `M`): cards whose first move might be onto the tableau (a
//!   tableau card or a space); every card already in the tableau that
//!   joins `M` is put in `T` too, which only makes `T` larger;
//! - `F` (in `M`): cards that might reach a foundation.
//!
//! If no pile is empty now and no pile's bottom card is in `M`, no pile
//! can ever be emptied, and the position is lost.
//!
//! ## The conditions
//!
//! A card `x` may move when nothing that cannot move is above it, and it
//! has somewhere to go:
//! - **above it**: in the reserve, every card above it is in `M`. In a
//!   tableau pile, every card above it is in `M`, except that a block of
//!   cards directly above it may instead move *with* it, as a run: the
//!   block must be face up, properly built on `x`, and the group-move rule
//!   must allow that run (`any`: always; `whole` and `pile`: only from the
//!   pile's bottom, with no face-down cards; `top`: never). The block's
//!   cards join `M` and `T` with `x`. In the talon, `x` must be able to
//!   come to the waste's top at all, given that only talon cards in `M`
//!   ever leave it ([`reachable`]): with no redeal left, a waste card only
//!   once every waste card above it is in `M` (new cards are only ever put
//!   on top); and where more than one card is turned at a time, a card
//!   that is not the last of its group is uncovered only when the cards
//!   turned after it leave, or when cards that leave before a later pass
//!   change the groups.
//! - **somewhere to go** (any one):
//!   - a foundation, for a single card (nothing above it): `x` is of the
//!     base rank, or its predecessor in suit is on a foundation or in `F`
//!     (either copy with two decks). Then `x` joins `F` too;
//!   - a tableau card `y` that `x` builds on: `y` is in `T`, or `y` is in
//!     the tableau with every card above it in `M` (and, if in `x`'s own
//!     pile, not above `x`: those move with `x` or before it), or (with
//!     worrying back) `y` is on a foundation or in `M`. Then `x` joins `T`
//!     too;
//!   - an empty space: a pile is empty now, or some pile's bottom card is
//!     in `M` (a pile can only become empty when its present bottom card
//!     moves).
//!
//! A card in `M` but not in `T` (or `F`) is checked again each round, as
//! the condition for `T` (or `F`) may hold later. With a to-tableau stock,
//! the stock's cards move when they are dealt: they are in `M` and `T`
//! from the start.
//!
//! Once a space is possible every card has somewhere to go, every stack
//! empties into `M` from its top down, and no pile is safe from being
//! emptied; so the test stops (not dead) as soon as a pile's bottom card
//! joins `M`, and the other conditions never need to read "a space".
//!
//! ## Why it is sound
//!
//! Take any line of play from the position and order the cards that move
//! by the time of their first move; cards that first move together (a
//! run) share a time. By induction every one of them is in `M`, every one
//! whose first move is onto the tableau is in `T`, and every one that
//! reaches a foundation is in `F`:
//! - when `x` first moves at time `t`, every card above it now has either
//!   moved before `t` (in `M` by induction) or has not moved, in which
//!   case it is still directly above `x` (cards are only added on top, and
//!   nothing below an unmoved card can move). So the unmoved ones form a
//!   block directly above `x` that moves with it, onto the tableau, as a
//!   run, and the run's legality at `t` depends only on those cards and
//!   `x`'s place, both unchanged;
//! - a move to a foundation needs the predecessor there at `t`: there now,
//!   or it reached a foundation before `t` (in `F`);
//! - a move onto `y` needs `y` at a pile's top at `t`. Either `y` was in
//!   the tableau now and has not moved, so everything above it moved away
//!   before `t` (in `M`; not `x`'s own block, which is still on `x`); or
//!   `y` moved before `t` and is now on the tableau: without worrying back
//!   a card on a foundation stays there, so `y`'s first move was onto the
//!   tableau (in `T`), or `y` was in the tableau already (in `T`, as every
//!   tableau card in `M` is); with worrying back, `y` was on a foundation
//!   or moved (in `M`);
//! - a move into a space needs an empty pile at `t`: empty now, or emptied
//!   before `t`, which moved its present bottom card before `t`;
//! - a talon card moves from the waste's top, and the talon cards that
//!   left before `t` (so changed which cards are turned together, or
//!   uncovered it) are in `M` (see [`reachable`]);
//! - a card reaches a foundation only alone, with nothing above it, which
//!   (by the first point) means every card above it now moved before.
//!
//! Every condition asks only for facts about cards that moved (or reached
//! a foundation) before `t`, which the sets hold by induction; so the
//! least fixpoint contains every card that moves, with its first move's
//! kind. In particular a pile emptied in some line of play has its bottom
//! card in `M`.

use demon_core::card::{wrap_rank, Card, Rank, Suit};
use demon_core::rules::{Build, GroupMoves, Redeals, Stock, MAX_PILES};
use demon_core::{Game, State};
use smallvec::SmallVec;

/// Whether the position is lost: some card off the foundations can never
/// move (see the module comment), or the reserve or the last pass's waste
/// can never be emptied ([`overfull`]). `false` says nothing.
pub fn dead(g: &Game, st: &State) -> bool {
    stuck(g, st) || overfull(g, st, true)
}

/// Whether the position is lost because some card off the foundations can
/// never move (see the module comment). `false` says nothing.
///
/// The sets are bit sets of card values, and the conditions are read from
/// them with bit operations where they can be. `onto` holds every value
/// that builds on a value of `tgt`, which is `T`, the piles' exposable
/// cards and (with worrying back) the foundations' cards and `M`: what a
/// card with no run above it may go onto. `tgt` only grows (a pile's
/// exposable card leaves it only by joining `M` and `T`), so `onto` is
/// kept by adding the holders of each new value of `tgt`. A stack's card
/// joins when its value is in `onto` or may go up; the stacks' cards in
/// `M` join `T` and every card in `M` joins `F` by a few operations on
/// whole sets; and the talon is scanned only when a card still in it has
/// somewhere to go. This computes the same least fixpoint as rescanning
/// every card each round (`stuck_reference`, the first implementation, is
/// the oracle of its differential test): each condition is monotone in
/// the sets, so the order in which cards join does not change which cards
/// end up in them, nor whether a pile's bottom card does.
pub fn stuck(g: &Game, st: &State) -> bool {
    if g.base_pending(st) {
        return false;
    }
    let Some(base) = g.base(st) else {
        return false;
    };
    let rules = g.rules();
    let piles = rules.piles as usize;
    if (0..piles).any(|p| g.pile(st, p).is_empty()) {
        return false;
    }
    // A quick answer first: a pile that a move now empties (its bottom
    // card moves now, with the whole pile above it) has its bottom card in
    // `M`, so the fixpoint below would say "not dead" too.
    if (0..piles).any(|p| empties_now(g, st, p)) {
        return false;
    }
    let ranks = rules.ranks;
    let base = base.index();
    // Highest foundation of each suit.
    let mut high = [0u8; 4];
    for f in 0..rules.foundations() {
        let s = rules.foundation_suit(f);
        high[s] = high[s].max(g.foundation_height(st, f));
    }
    let worry = rules.worrying_back;
    let group = rules.group_moves;
    let bit = |c: Card| 1u64 << c.index();

    // The sets, a bit per card value (copies share one), so that a set
    // holds a value when some copy is in it: `M` (`moved`), `T`
    // (`placed`: might make its first move onto the tableau) and `F`
    // (`upped`: might reach a foundation); see the module comment.
    let mut moved = 0u64;
    let mut placed = 0u64;
    let mut upped = 0u64;
    // Values with a copy on a foundation now, for worrying back.
    let mut on_found = 0u64;
    // Values whose foundation move needs nothing more: of the base rank,
    // or their predecessor in suit up now.
    let mut up_now = 0u64;
    for (s, &h) in high.iter().enumerate() {
        // Offsets from the base below `h` are up; offset `h` may go up.
        for o in 0..=(h as usize).min(ranks as usize - 1) {
            let r = wrap_rank(base as usize + o, ranks as usize) as u8;
            let c = bit(Card::new(Suit::ALL[s], Rank::new(r).expect("rank")));
            up_now |= c;
            if o < h as usize {
                on_found |= c;
            }
        }
    }
    // Copies in the tableau not in `M` with every card above them in `M`
    // (recomputed each round), as counts in two bits: some (`expo`), two
    // or more (`expo2`). Pile `p`'s is its card `expo_at[p]`. (Those in
    // `M` are in `T`, which counts them anyway.)
    let mut expo_at = [0usize; MAX_PILES];
    // Pile `p`'s cards from `top_m[p]` up are in `M` (nothing below a card
    // outside `M` joins it before that card, so `M` is a top block).
    let mut top_m = [0usize; MAX_PILES];
    for (p, t) in top_m.iter_mut().enumerate().take(piles) {
        *t = g.pile(st, p).len();
    }
    let reserve = g.reserve(st);
    let mut reserve_m = 0usize; // cards of the reserve's top in `M`
    let talon = g.talon();
    let gone = g.talon_gone_bits(st);
    let (pos, passes) = g.talon_state(st);
    let pos = pos as usize;
    let live = |i: usize| gone >> i & 1 == 0;
    let mut talon_m = 0u128;
    let (first, redeal_left, draw) = match rules.stock {
        Stock::ToWaste { redeals, draw } => (0, !last_pass(redeals, passes), draw as usize),
        Stock::ToTableau { .. } => {
            // Dealt onto the piles: they move.
            for (i, &c) in talon.iter().enumerate().skip(pos) {
                if live(i) {
                    talon_m |= 1 << i;
                    moved |= bit(c);
                    placed |= bit(c);
                }
            }
            (pos, false, 1)
        }
    };
    let live_bits = g.talon_live_bits(st);
    // The successors in suit of a set of card values, a bit each (card
    // index `suit * 13 + rank`): a rank below the last moves one bit up,
    // the last wraps to the suit's first. A card's predecessor is in a set
    // when the card is in the set's successors (for `F`).
    let last_rank: u64 = (0..4).fold(0, |m, s| m | 1 << (s * 13 + ranks as usize - 1));
    let succ = |set: u64| (set & !last_rank) << 1 | (set & last_rank) >> (ranks - 1);
    let found_ok = |c: Card, upped: u64| (up_now | succ(upped)) & bit(c) != 0;
    // Whether `c` has a tableau card to go on; `own` is the exposable card
    // of `c`'s pile if it is above `c`: it would move with `c`, so it does
    // not count (unless another copy is exposable too).
    let tableau_ok =
        |c: Card, own: Option<Card>, moved: u64, placed: u64, expo: u64, expo2: u64| {
            let expo = match own {
                Some(y) => expo & !bit(y) | expo2 & bit(y),
                None => expo,
            };
            let worried = if worry { on_found | moved } else { 0 };
            g.builds_bits(st, c) & (placed | expo | worried) != 0
        };

    // `tgt` and `onto` (see above), and the values of the stacks' cards
    // in `M` (the reserve's and the talon's).
    let (mut tgt, mut onto, mut stack_m) = (0u64, 0u64, 0u64);
    // Adds what `T`, the exposable cards `expo` and `M` now put in `tgt`.
    let grow = |tgt: &mut u64, onto: &mut u64, placed: u64, expo: u64, moved: u64| {
        let worried = if worry { on_found | moved } else { 0 };
        let new = (placed | expo | worried) & !*tgt;
        if new != 0 {
            *tgt |= new;
            *onto |= g.holders_bits(st, new);
        }
    };
    // The values of the live talon cards at `first` or above not in `M`,
    // how many copies of each, and their positions.
    let mut pend = 0u64;
    let mut pend_n = [0u8; 64];
    let mut pos_of = [0u128; 64];
    let mut rest = live_bits & !talon_m & !((1u128 << first) - 1);
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let v = talon[i].index() as usize;
        pend |= 1 << v;
        pend_n[v] += 1;
        pos_of[v] |= 1 << i;
    }

    // Talon positions `reachable` refused since `talon_m` last grew.
    let mut unreached = 0u128;
    loop {
        let mut changed = false;
        let (mut expo, mut expo2) = (0u64, 0u64);
        for p in 0..piles {
            let cs = g.pile(st, p);
            // The first card from the top not in `M`.
            let e = top_m[p] - 1;
            expo_at[p] = e;
            let b = bit(cs[e]);
            expo2 |= expo & b;
            expo |= b;
        }
        grow(&mut tgt, &mut onto, placed, expo, moved);

        // The tableau: blocks join from the top of each pile down.
        for p in 0..piles {
            let cs = g.pile(st, p);
            let down = g.face_down(st, p);
            // The pile's top run (kept by the state) starts at `run_lo`:
            // cards `i + 1` and `i` of it are built, `i >= down`, for every
            // `i >= run_lo`, and the run breaks between `run_lo - 1` and
            // `run_lo`, so only the pairs below that are asked for.
            let run_lo = cs.len() - g.run_len(st, p);
            'pile: while top_m[p] > 0 {
                let s = top_m[p];
                // Try each card below `s` as the base of the block up to `s`.
                for i in (0..s).rev() {
                    let k0 = s - (i + 1);
                    if k0 > 0 {
                        // The run grows one card per step: stop when it breaks.
                        if i < run_lo
                            && (i + 1 == run_lo || i < down || !g.builds(st, cs[i + 1], cs[i]))
                        {
                            break 'pile;
                        }
                        let allowed = match group {
                            GroupMoves::Any => true,
                            GroupMoves::Whole | GroupMoves::Pile => i == 0 && down == 0,
                            GroupMoves::Top => false,
                        };
                        if !allowed {
                            continue;
                        }
                    }
                    let x = cs[i];
                    let bx = bit(x);
                    // `onto` first: it leaves out what its own pile's
                    // exposable card would add.
                    let on = onto & bx != 0 && {
                        let own = (expo_at[p] > i).then(|| cs[expo_at[p]]);
                        tableau_ok(x, own, moved, placed, expo, expo2)
                    };
                    let up = k0 == 0 && found_ok(x, upped);
                    if on || up {
                        if i == 0 {
                            // A space is possible: nothing is dead.
                            return false;
                        }
                        // In `T` too, whether or not `onto`: more in `T` is
                        // only less precise, and a tableau card need not be
                        // checked again.
                        for &c in &cs[i..s] {
                            moved |= bit(c);
                            placed |= bit(c);
                        }
                        if up {
                            upped |= bx;
                        }
                        top_m[p] = i;
                        changed = true;
                        grow(&mut tgt, &mut onto, placed, expo, moved);
                        continue 'pile;
                    }
                }
                break;
            }
        }

        // Cards in `M` but not `T` (so far only a foundation for them)
        // may since have found a tableau card: `T` must hold every card
        // whose first move can be onto the tableau. (Every tableau card in
        // `M` is in `T`.)
        loop {
            let add = stack_m & !placed & onto;
            if add == 0 {
                break;
            }
            placed |= add;
            changed = true;
            grow(&mut tgt, &mut onto, placed, expo, moved);
        }
        // Likewise `F`, for every card in `M` (all cards above one in `M`
        // are in `M`, so it can be uncovered and go up alone).
        loop {
            let add = moved & !upped & (up_now | succ(upped));
            if add == 0 {
                break;
            }
            upped |= add;
            changed = true;
        }

        // The reserve, from the top.
        while reserve_m < reserve.len() {
            let x = reserve[reserve.len() - 1 - reserve_m];
            let bx = bit(x);
            let on = onto & bx != 0;
            let up = found_ok(x, upped);
            if on || up {
                reserve_m += 1;
                moved |= bx;
                stack_m |= bx;
                if on {
                    placed |= bx;
                }
                if up {
                    upped |= bx;
                }
                changed = true;
                grow(&mut tgt, &mut onto, placed, expo, moved);
            } else {
                break;
            }
        }

        // The talon, from the top. With no redeal left a waste card waits
        // for the waste cards above it.
        let mut blocked = false;
        // Live talon cards at `first` or above, not in `M` yet, from the
        // top; none joins unless it has somewhere to go. With a redeal
        // left, only those are looked at (any that another joining card
        // gives somewhere to go are seen in the next round); without,
        // the cards that block those below them are needed too.
        let ok = pend & (onto | up_now | succ(upped));
        let mut rest = if ok == 0 {
            0
        } else if redeal_left {
            let (mut c, mut vs) = (0u128, ok);
            while vs != 0 {
                c |= pos_of[vs.trailing_zeros() as usize];
                vs &= vs - 1;
            }
            c & !talon_m
        } else {
            live_bits & !talon_m & !((1u128 << first) - 1)
        };
        while rest != 0 {
            let i = 127 - rest.leading_zeros() as usize;
            rest &= !(1u128 << i);
            let stacked = !redeal_left && i < pos;
            if stacked && blocked {
                break;
            }
            let x = talon[i];
            // Where it could go first (bit tests), whether it can come to
            // the waste's top at all second (`reachable`, dearer): the
            // card joins when both hold.
            // (A waste card with no redeal left gets here only when every
            // waste card above it is in `M`: `blocked` stops the loop at
            // the first that is not. `reachable` checks it anyway.)
            let bx = bit(x);
            let on = onto & bx != 0;
            let up = found_ok(x, upped);
            let reached = || draw <= 1 || reachable(live_bits, talon_m, i, pos, draw, redeal_left);
            if on || up {
                // `reachable` reads only `talon_m` of what changes: its
                // "no" holds until `talon_m` grows.
                if unreached >> i & 1 != 0 {
                    continue;
                }
                if !reached() {
                    unreached |= 1 << i;
                    continue;
                }
                unreached = 0;
                talon_m |= 1 << i;
                moved |= bx;
                stack_m |= bx;
                let v = x.index() as usize;
                pend_n[v] -= 1;
                if pend_n[v] == 0 {
                    pend &= !bx;
                }
                if on {
                    placed |= bx;
                }
                if up {
                    upped |= bx;
                }
                changed = true;
                grow(&mut tgt, &mut onto, placed, expo, moved);
            } else if stacked && reached() {
                blocked = true;
            }
        }

        if !changed {
            break;
        }
    }

    // No space is possible (the shortcut above never fired), so every
    // pile's bottom card stays outside `M`: some card off the foundations
    // can never move.
    true
}

pub mod stuck_reference;

/// Whether a move now empties pile `p` (not empty): the pile is one face-up
/// run that the group-move rule lets move whole, and its bottom card goes
/// onto another pile's top card, or to a foundation when it is alone.
fn empties_now(g: &Game, st: &State, p: usize) -> bool {
    let cs = g.pile(st, p);
    let len = cs.len();
    if g.face_down(st, p) > 0 || (len > 1 && g.run_len(st, p) < len) {
        return false;
    }
    let b = cs[0];
    if len == 1 {
        if g.foundation_for(st, b).is_some() {
            return true;
        }
    } else if g.rules().group_moves == GroupMoves::Top {
        return false;
    }
    (0..g.rules().piles as usize)
        .any(|q| q != p && g.pile(st, q).last().is_some_and(|&t| g.builds(st, b, t)))
}

/// [`reachable`] for talon bit sets of type `$t` (`u64` or `u128`).
macro_rules! reachable_on {
    ($name:ident, $t:ty) => {
        fn $name(live: $t, talon_m: $t, i: usize, pos: usize, draw: usize, redeal: bool) -> bool {
            // A talon has at most 127 cards (`Game::new` refuses more), so
            // every index and `pos` are below 128 and no shift reaches 128;
            // on 64 bits, [`reachable`] keeps them below 64.
            debug_assert!(i + 1 < <$t>::BITS as usize && pos < <$t>::BITS as usize);
            let below = |k: usize| ((1 as $t) << k) - 1;
            let after = live >> i >> 1;
            let stay = after & !(talon_m >> i >> 1);
            if stay == 0 {
                // Every later card may leave: `i` may end the talon.
                return true;
            }
            if i < pos {
                // In the waste: the cards above it up to `pos` must leave.
                let above = live & below(pos) & !below(i + 1);
                if above & !talon_m == 0 {
                    return true;
                }
            }
            // Cards in `M` right after `i`, before the first that stays.
            let a = (after & below(stay.trailing_zeros() as usize)).count_ones() as usize;
            // Whether some `n` in `lo..=hi` has `n + k = draw - 1 (mod draw)` for
            // some `k` in `0..=a`.
            let hits = |lo: usize, hi: usize| {
                let hi = hi + a;
                // The first `n` at or above `lo` that is `draw - 1` (mod `draw`).
                hi - lo + 1 >= draw || lo + (draw - 1 - lo % draw) <= hi
            };
            if i >= pos {
                let n = (live & below(i) & !below(pos)).count_ones() as usize;
                if hits(n, n) {
                    return true;
                }
            }
            if redeal {
                let c = (live & below(i)).count_ones() as usize;
                let b = (talon_m & below(i)).count_ones() as usize;
                if hits(c - b, c) {
                    return true;
                }
            }
            false
        }
    };
}

reachable_on!(reachable_64, u64);
reachable_on!(reachable_128, u128);

/// Whether talon card `i` (live, not in `M`) might ever be the waste's top,
/// given the talon cards in `M` now (`talon_m`, the others stay where they
/// are): a condition of its first move (see [`stuck`]'s module comment).
/// `live`: the talon's live positions; `pos`: the talon's position (the
/// waste is `live` below it); `redeal`: whether a redeal is left.
///
/// A turn deals the next `draw` live cards after the position onto the
/// waste, or the rest when fewer are left; a card leaves only from the
/// waste's top. Within a pass, removing waste cards does not change which
/// cards later turns deal together: the groups of a pass are fixed by the
/// cards live when it starts (and, for the pass under way, by `pos`). So
/// `i` is the waste's top at some time only in one of these ways:
/// - it is in the waste now (`i < pos`) and every live card above it
///   leaves first (all in `M`);
/// - it is dealt later in this pass, or in a later one (a redeal left),
///   and then either it is its group's last card, or the cards dealt after
///   it up to some group's last card (or up to the talon's end) leave
///   first. Let `k` be the number of those cards (after `i`, up to and
///   including that last card): they are all in `M` (they leave), so
///   `k <= a`, the number of
///   consecutive cards in `M` right after `i`; or all live cards after `i`
///   are in `M` (`i` may be left the last). The group boundary needs
///   `n + k = draw - 1 (mod draw)`, where `n` is the number of live cards
///   before `i` in the pass's groups: in this pass, those from `pos` to
///   `i`, exactly; in a later pass, those from the start, less any that
///   leave before it starts, which are in `M`: from `c - b` to `c`, with
///   `c` live before `i` now and `b` of them in `M`.
///
/// With `draw` 1 every card is its group's last, and this says nothing.
fn reachable(live: u128, talon_m: u128, i: usize, pos: usize, draw: usize, redeal: bool) -> bool {
    // On 64 bits where every position and shift fits (a one-deck talon
    // always does): about half the work.
    if pos < 64 && live >> 63 == 0 {
        reachable_64(live as u64, talon_m as u64, i, pos, draw, redeal)
    } else {
        reachable_128(live, talon_m, i, pos, draw, redeal)
    }
}

/// Whether the position is lost because some card of a stack (the reserve,
/// or the waste once no redeal is left) can never leave it: by the time it
/// does, the cards that must then lie on the tableau need more piles than
/// there are. `false` says nothing.
///
/// ## The argument
///
/// Take a stack whose order is fixed and whose top alone is playable,
/// `x_1` (top) to `x_m`: the reserve always; the waste once no redeal is
/// left (only new cards go on it, and on top). Fix `s` and look at the
/// moment just after `x_s` leaves, in any line of play. Then:
/// - the cards under it, `U = x_{s+1..m}`, have not moved;
/// - every card of `L` = `x_1..x_s` and the tableau's cards now is on the
///   tableau or on a foundation (nothing goes back to a stack, and
///   without worrying back nothing comes off a foundation);
/// - a suit's foundations hold runs from the base, none holding a card of
///   `U`: the `k`-th of a suit's foundations (by height) stops below the
///   first offset from the base with fewer than `k` copies outside `U`,
///   so at most `cap(o)` copies of offset `o` are up, the number of
///   foundations of the suit that can pass it; so at least
///   `n = in L − (cap − up now)` copies of each card value of `L` lie on
///   the tableau (the cards of `L` already up are not in `L`);
/// - every pile is one properly built run: with a stock that goes to the
///   waste, no face-down cards and every pile a run now, cards only join
///   a pile by building on its top or filling it when empty. A run is a
///   chain of consecutive ranks (each card on the rank above, as the rule
///   on ranks allows) in one *class*: one suit (building in suit), one
///   colour phase (alternate colours: red with even ranks and black with
///   odd, or the other way; with the King on the Ace of 13 ranks the two
///   phases join into one cycle), or all cards (any suit);
/// - at most `u` = copies − up now − in `U` cards of a value lie on the
///   tableau.
///
/// The fewest chains that hold at least `n` cards of every (class, rank)
/// and at most `u`: along each class's ranks in building order, the
/// count of chains through a rank goes `a = clamp(a_prev, n, u)` (keeping
/// chains going costs nothing; starting one costs a pile), and the chains
/// are the rises; a cycle of ranks is cut where `u` is 0 (no chain
/// crosses it); one with no such rank is counted from its rank with the
/// least room as if that many chains came into it, and is one chain at
/// least (on the small deals of `tests/deadlock.rs` this finds 15 to 228
/// more positions lost a family than one chain did; on the real deals
/// tried, Chameleon 93 and Superior Canfield 62, 142, 500 and 766 at 5 M
/// to 10 M nodes, the search is the same node for node). If these
/// chains outnumber the piles, no line of play gets `x_s` out of its
/// stack, and the cards of a stack must all leave it to win. The bound
/// holds for two decks (copies are counted), for every group-move rule
/// and every rule for filling spaces (only the layout at one moment is
/// used).
///
/// *Pile tops.* A stack's card leaves it alone, onto a foundation or
/// onto the tableau (onto a pile's top card, or into a space), so just
/// after `x_s` leaves, if it is not on a foundation, it is the top card
/// of its pile: nothing lies on it. Where `x_s` cannot be on a foundation
/// then (every copy of its value in `L` is needed on the tableau, `n` =
/// its copies in `L`), at most `a - 1` of the `a` cards of its node have
/// a card lying on them, so the chains coming from the node below number
/// at most `a - 1`, and one chain more may start at `x_s`'s node
/// ([`Chains::chains_top`]). This settled Superior Canfield 339 at the
/// deal (its 5C, the eighth reserve card, needs a fifth chain for four
/// piles), after 5.3 G nodes of search without it had not, and took
/// Canfield 221 under Solvitaire's rules from 37.4 M nodes to 1.5 M.
///
/// *Foundation heights.* The counts above take each card's need with its
/// suit's foundations as high as they may go (which needs the fewest
/// cards on the tableau) and its room with the foundations as they are
/// now (which leaves the most room), two choices no line of play need
/// make at once: a card up is not room. Just after `x_s` leaves, each of
/// a suit's foundations is at some height, from its height now to its
/// stop: with `c` copies of a card value up then (`up` of them up now),
/// at least `in L - (c - up)` copies of `L` lie on the tableau, and at
/// most `copies - c - in U` can. So the snapshot is also counted for each
/// choice of every foundation's height, and the card cannot leave if
/// every choice needs more chains than piles ([`Chains::heights_dead`]).
/// Only a few heights need be tried, those just above an offset where a
/// lower foundation would need one more card of `L` on the tableau (with
/// one deck, just above a card of `L`), or as now: from a line of play's
/// heights down to those, the need stays the same (and `x_s` is a pile's
/// top in both or in neither) while cards come off the foundations and
/// add room, and more room never needs more chains (the fewest is a
/// least over a larger set; the count is a lower bound of it). See
/// [`Chains::suit_heights`]. This settled Superior Canfield 500 and 766
/// at the deal: in 766, 6S must be up just after KS leaves, or it takes
/// a fifth pile; but up it needs 3S up, and then the two chains from the
/// black nines down to the black Aces, which must lie on the tableau
/// then, find one black 3 for both.
/// `waste`: whether to look at the waste too (once no redeal is left), not
/// only the reserve. Measured on seeds 1-100 (1-30 for the two-deck
/// games) at 1 M nodes, one job beside two other solves, against the
/// search without this test: the reserve alone took Superior Canfield
/// from 4 to 2 unknown deals and 10.3 to 5.3 s, Rainbow from 13 to 12
/// unknown (22.0 to 20.6 s), Chameleon 4.5 to 3.8 s and Canfield (`any`,
/// 2 M nodes) 1.85 to 1.56 s, and left American Toad and Variegated
/// Canfield as they were (25.7 against 27.9 s, 29.2 against 28.3 s). The
/// waste too won one more Toad deal (4 of 30) and left Rainbow 11 unknown
/// and Chameleon at 3.6 s, but took Toad and Variegated to 47.9 and
/// 48.8 s. So the search looks at the waste only when asked
/// ([`crate::Options::waste_bound`]).
pub fn overfull(g: &Game, st: &State, waste: bool) -> bool {
    overfull_cached(&mut Chains::default(), g, st, waste)
}

/// [`dead`], keeping what it can reuse between positions of one game in
/// `cache` (a [`Chains`] per base rank); `waste` as for [`overfull`].
///
/// The stack bound backs off where it does not pay: after
/// [`STACK_BOUND_IDLE`] positions in a row that it was asked about without
/// finding one lost, it looks at one position in [`STACK_BOUND_SPARSE`]
/// only, until it finds one lost again (counted in `cache`, see
/// [`Chains::idle`]). Leaving a sound test out is sound: the position is
/// searched instead. On Canfield under Solvitaire's rules it found no lost
/// position (seeds 289 and 742: none among the first 3.3 M and 4.3 M that
/// `stuck` left) while it took 6-7 % of the time; on Superior Canfield
/// seeds 1-30 at 1 M nodes it found 94,344 lost among the first 467,456,
/// and there it stays on.
pub fn dead_cached(cache: &mut Chains, g: &Game, st: &State, waste: bool) -> bool {
    if stuck(g, st) {
        return true;
    }
    let idle = cache.idle;
    cache.idle += 1;
    if idle >= STACK_BOUND_IDLE && !idle.is_multiple_of(STACK_BOUND_SPARSE) {
        return false;
    }
    let dead = overfull_cached(cache, g, st, waste);
    if dead {
        cache.idle = 0;
    }
    dead
}

/// Positions in a row the stack bound finds not lost before it backs off
/// ([`dead_cached`]).
pub const STACK_BOUND_IDLE: u64 = 1 << 16;
/// Once backed off, the stack bound looks at one position in this many.
pub const STACK_BOUND_SPARSE: u64 = 64;

/// The most choices of foundation heights [`Chains::heights_dead`] counts
/// for one snapshot.
const MOST_HEIGHT_CHOICES: usize = 256;

/// Card slots of the counts below: suit * 16 + rank.
const SLOTS: usize = 64;

fn slot(c: Card) -> usize {
    c.suit().index() * 16 + c.rank().index() as usize
}

/// [`overfull`] with the chains of ranks cached.
pub fn overfull_cached(cache: &mut Chains, g: &Game, st: &State, waste: bool) -> bool {
    let rules = g.rules();
    if rules.worrying_back || g.base_pending(st) {
        return false;
    }
    // With no face-down card left (none dealt, or all turned up), every
    // pile is one run, now and from now on: with the stock going to the
    // waste (below), a pile gets cards only by building on its top or by
    // filling it when empty, and a face-down card is never made.
    let piles = rules.piles as usize;
    if (0..piles).any(|p| g.face_down(st, p) > 0) {
        return false;
    }
    let Stock::ToWaste { redeals, .. } = rules.stock else {
        return false;
    };
    let Some(base) = g.base(st) else {
        return false;
    };
    let base = base.index() as usize;
    // The answer depends only on where the cards are by kind of place
    // (foundations, reserve, talon, tableau), not on how the tableau is
    // arranged (given no face-down card): and those places are given by
    // the foundations' heights, the reserve's length, the base and the
    // talon's state (a card in none of the others is on the tableau).
    // Many positions share them. The talon's position matters only where
    // the waste is looked at too (the cards in the talon are given by its
    // gone bits), which is in the last pass only: its number of passes is
    // then the game's limit, so it need not be in the key. The fields do
    // not overlap: the base below 16 (bits 1-4), the position below 128
    // (bits 8-14), the reserve's length (16-23), eight heights of 4 bits.
    let (pos, passes) = g.talon_state(st);
    let waste = waste && last_pass(redeals, passes);
    let mut meta = u64::from(waste) | (base as u64) << 1 | (g.reserve(st).len() as u64) << 16;
    if waste {
        meta |= u64::from(pos) << 8;
    }
    for f in 0..rules.foundations() {
        meta |= u64::from(g.foundation_height(st, f)) << (24 + 4 * f);
    }
    let gone = g.talon_gone_bits(st);
    if let Some(answer) = cache.known(gone, meta) {
        return answer;
    }
    let answer = overfull_of(cache, g, st, waste, base);
    cache.remember(gone, meta, answer);
    answer
}

/// Whether no redeal is left.
pub(crate) fn last_pass(redeals: Redeals, passes: u8) -> bool {
    match redeals {
        Redeals::Unlimited => false,
        Redeals::Limited(k) => passes >= k,
    }
}

/// [`overfull_cached`] computed (`waste`: look at the waste too, which is
/// a stack now).
fn overfull_of(cache: &mut Chains, g: &Game, st: &State, waste: bool, base: usize) -> bool {
    let rules = g.rules();
    let piles = rules.piles as usize;
    let mut in_l = [0u8; SLOTS];
    for p in 0..piles {
        let cs = g.pile(st, p);
        debug_assert_eq!(g.face_down(st, p), 0);
        debug_assert!((1..cs.len()).all(|k| g.builds(st, cs[k], cs[k - 1])));
        for &c in cs {
            in_l[slot(c)] += 1;
        }
    }
    if cache.base != Some(base) {
        cache.make(g, st, base);
    }
    let ranks = rules.ranks as usize;
    // Copies up now.
    let mut up = [0u8; SLOTS];
    for f in 0..rules.foundations() {
        let s = rules.foundation_suit(f);
        for o in 0..g.foundation_height(st, f) as usize {
            up[s * 16 + wrap_rank(base + o, ranks)] += 1;
        }
    }
    let reserve = g.reserve(st);
    if reserve.len() > 1 && cache.stack(&in_l, &up, reserve.iter().rev().copied(), piles) {
        return true;
    }
    let pos = g.talon_state(st).0;
    if waste && pos > 1 {
        let gone = g.talon_gone_bits(st);
        let talon = g.talon();
        let waste = (0..pos as usize)
            .rev()
            .filter(|&i| gone >> i & 1 == 0)
            .map(|i| talon[i]);
        if cache.stack(&in_l, &up, waste, piles) {
            return true;
        }
    }
    false
}

/// The chains of ranks a tableau of runs is made of, for [`overfull`]:
/// nodes (class, rank), each joined to the node of the cards it may lie
/// on, in components (paths and cycles); and the counts of one stack's
/// snapshots, updated card by card.
pub struct Chains {
    /// The base rank this was made for (`None`: not made yet).
    base: Option<usize>,
    ranks: usize,
    decks: u8,
    /// The rank at each offset from the base.
    rank_at: [u8; 16],
    /// The node (class * 16 + rank) of each suit at each offset from the
    /// base.
    node_at: [[u8; 16]; 4],
    /// Nodes in building order, component by component, as indices of
    /// `need` and `room` (class * 16 + rank).
    nodes: Vec<u8>,
    /// Each component's nodes, `order[a..b]`, and whether it closes on
    /// itself.
    comps: Vec<(usize, usize, bool)>,
    /// The components holding each suit's nodes, a bit each.
    suit_comps: [u32; 4],
    /// The component of each node (class * 16 + rank).
    comp_at: [u8; SLOTS],
    // The snapshot being counted (see [`Chains::stack`]).
    in_l: [u8; SLOTS],
    in_u: [u8; SLOTS],
    up: [u8; SLOTS],
    /// Each suit's share of each node's need and room, by suit * 16 + rank.
    need_s: [u8; SLOTS],
    room_s: [u8; SLOTS],
    /// Where each suit's k-th foundation must stop (offsets from the base).
    limit: [[usize; 2]; 4],
    /// Need and room by node: class * 16 + rank.
    need: [u8; SLOTS],
    room: [u8; SLOTS],
    /// Fewest chains of each component.
    comp_chains: Vec<usize>,
    /// The sum of `need`.
    total_need: u32,
    /// Answers by where the cards are ([`overfull_cached`]): the talon's
    /// gone bits and the rest packed, with the answer in the top bit;
    /// direct-mapped, a power of two of entries, [`FIRST_ANSWERS`] at first
    /// and growing fourfold up to `answer_slots` each time it has taken as
    /// many answers as it has entries (keeping those it holds), so that a
    /// short search does not pay for a large array.
    answers: Vec<(u128, u64)>,
    answer_slots: usize,
    /// Answers taken since `answers` last grew.
    taken: usize,
    /// Positions [`dead_cached`] has asked the stack bound about since it
    /// last found one lost (or since the search began): part of a saved
    /// search, as it decides which positions are tested.
    pub idle: u64,
    /// Whether a stack's card that must lie on the tableau just after it
    /// leaves counts as its pile's top ([`Chains::chains_top`]); on, but
    /// for tests that measure what it adds.
    pub tops: bool,
    /// Whether the snapshots are also counted for every choice of the
    /// suits' foundation heights ([`Chains::heights_dead`]); on, but for
    /// tests that measure what it adds.
    pub heights: bool,
}

/// The stack bound's first cache size, in entries ([`Chains::answers`]).
const FIRST_ANSWERS: usize = 1 << 12;

/// Marks a used entry; the answer is the bit below it.
const USED: u64 = 1 << 63;
const YES: u64 = 1 << 62;

impl Chains {
    /// An empty cache whose answers take at most `bytes` (at least 256
    /// entries of 32 bytes; at most 2^14, 512 KiB, below 16 MiB, and
    /// 2^20, 32 MiB, from there).
    ///
    /// The large cache is for the searches of a GiB or more, where the
    /// deals with many positions are (Canfield seed 905 at 4 GiB meets
    /// 455 K keys). Below, the cache stays as it was before it could grow
    /// past 2^14: its bytes count in the path's memory, and at 64 MiB with
    /// 64 cursors another count moved which cursor searched when, so that
    /// an Easthaven deal (`tests/checkpoint.rs`, seed 1 with worrying
    /// back) was won in 39,604 nodes instead of about 15,000, and its
    /// resumed search did not end in 100 sittings.
    pub fn with_bytes(bytes: usize) -> Chains {
        let most = if bytes >= 16 << 20 { 1 << 20 } else { 1 << 14 };
        let n = (bytes / std::mem::size_of::<(u128, u64)>()).clamp(256, most);
        Chains {
            answer_slots: 1 << n.ilog2(),
            ..Chains::default()
        }
    }

    /// Bytes the answers take at most.
    pub fn bytes(&self) -> usize {
        self.answer_slots * std::mem::size_of::<(u128, u64)>()
    }

    /// The entry of a key: the top bits of a multiplicative hash, which
    /// depend on every bit of the key. (Bits 32 up of the product depend
    /// only on the key's low 52 bits, where `meta`, rotated, had none of
    /// its first foundations' heights: positions that differ in those
    /// alone took one entry, and evicted each other.)
    fn slot_of(&self, gone: u128, meta: u64) -> usize {
        let x = gone as u64
            ^ ((gone >> 64) as u64).rotate_left(32)
            ^ meta.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let h = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - self.answers.len().trailing_zeros())) as usize
    }

    fn known(&self, gone: u128, meta: u64) -> Option<bool> {
        if self.answers.is_empty() {
            return None;
        }
        let (g, m) = self.answers[self.slot_of(gone, meta)];
        (g == gone && m & !YES == meta | USED).then_some(m & YES != 0)
    }

    fn remember(&mut self, gone: u128, meta: u64, answer: bool) {
        let n = self.answers.len();
        if self.taken >= n && n < self.answer_slots {
            let more = (n * 4).clamp(FIRST_ANSWERS.min(self.answer_slots), self.answer_slots);
            let old = std::mem::replace(&mut self.answers, vec![(0, 0); more]);
            for (g, m) in old.into_iter().filter(|e| e.1 & USED != 0) {
                let i = self.slot_of(g, m & !(USED | YES));
                self.answers[i] = (g, m);
            }
            self.taken = 0;
        }
        self.taken += 1;
        let m = meta | USED | if answer { YES } else { 0 };
        let i = self.slot_of(gone, meta);
        self.answers[i] = (gone, m);
    }
}

impl Default for Chains {
    /// Not made yet: [`overfull_cached`] makes it for the position's base.
    fn default() -> Chains {
        Chains {
            base: None,
            ranks: 0,
            decks: 1,
            rank_at: [0; 16],
            node_at: [[0; 16]; 4],
            nodes: Vec::new(),
            comps: Vec::new(),
            suit_comps: [0; 4],
            comp_at: [0; SLOTS],
            in_l: [0; SLOTS],
            in_u: [0; SLOTS],
            up: [0; SLOTS],
            need_s: [0; SLOTS],
            room_s: [0; SLOTS],
            limit: [[0; 2]; 4],
            need: [0; SLOTS],
            room: [0; SLOTS],
            comp_chains: Vec::new(),
            total_need: 0,
            answers: Vec::new(),
            answer_slots: 256,
            taken: 0,
            idle: 0,
            tops: true,
            heights: true,
        }
    }
}

impl Chains {
    /// Makes the chains of ranks for base rank `base` (the answers stay:
    /// their key holds the base).
    fn make(&mut self, g: &Game, st: &State, base: usize) {
        let rules = g.rules();
        let ranks = rules.ranks as usize;
        let class_of = |s: usize, q: usize| -> u8 {
            match rules.build {
                Build::Suit => s as u8,
                Build::AnySuit => 0,
                Build::AltColour => u8::from(Suit::ALL[s].is_red()) ^ (q as u8 & 1),
            }
        };
        let mut class = [[0u8; 16]; 4];
        for (s, row) in class.iter_mut().enumerate() {
            for (q, c) in row.iter_mut().enumerate().take(ranks) {
                *c = class_of(s, q);
            }
        }
        let classes = match rules.build {
            Build::Suit => 4,
            Build::AnySuit => 1,
            Build::AltColour => 2,
        };
        // The node a card of (class c, rank q) lies on: rank q + 1, if the
        // game's rule on ranks lets it (asked of real cards).
        let mut succ = [[None::<(u8, u8)>; 16]; 4];
        let mut has_pred = [[false; 16]; 4];
        #[allow(clippy::needless_range_loop)] // c and q index two tables
        for c in 0..classes {
            for q in 0..ranks {
                let Some(s) = (0..4).find(|&s| class[s][q] == c as u8) else {
                    continue;
                };
                let card = Card::new(Suit::ALL[s], Rank::new(q as u8).expect("rank"));
                let above = wrap_rank(q + 1, ranks);
                let on = (0..4).find_map(|t| {
                    let under = Card::new(Suit::ALL[t], Rank::new(above as u8).expect("rank"));
                    g.builds(st, card, under)
                        .then_some((class[t][above], above as u8))
                });
                if let Some((c2, q2)) = on {
                    succ[c][q] = Some((c2, q2));
                    has_pred[c2 as usize][q2 as usize] = true;
                }
            }
        }
        let mut order = Vec::new();
        let mut comps = Vec::new();
        let mut seen = [[false; 16]; 4];
        let walk = |c: usize, q: usize, order: &mut Vec<(u8, u8)>, seen: &mut [[bool; 16]; 4]| {
            let (mut c, mut q) = (c, q);
            while !seen[c][q] {
                seen[c][q] = true;
                order.push((c as u8, q as u8));
                match succ[c][q] {
                    Some((c2, q2)) => (c, q) = (c2 as usize, q2 as usize),
                    None => break,
                }
            }
        };
        // Paths from their ends with nothing below, then cycles.
        for cyclic in [false, true] {
            for c in 0..classes {
                for q in 0..ranks {
                    if !seen[c][q] && (cyclic || !has_pred[c][q]) {
                        let a = order.len();
                        walk(c, q, &mut order, &mut seen);
                        comps.push((a, order.len(), cyclic));
                    }
                }
            }
        }
        let mut suit_comps = [0u32; 4];
        let mut comp_at = [0u8; SLOTS];
        for (i, &(a, b, _)) in comps.iter().enumerate() {
            for &(c, q) in &order[a..b] {
                comp_at[c as usize * 16 + q as usize] = i as u8;
                for (s, bits) in suit_comps.iter_mut().enumerate() {
                    if class[s][q as usize] == c {
                        *bits |= 1 << i;
                    }
                }
            }
        }
        self.base = Some(base);
        self.ranks = ranks;
        self.decks = rules.decks;
        for o in 0..ranks {
            let q = wrap_rank(base + o, ranks);
            self.rank_at[o] = q as u8;
            for (s, row) in self.node_at.iter_mut().enumerate() {
                row[o] = class[s][q] * 16 + q as u8;
            }
        }
        self.comp_chains = vec![0; comps.len()];
        self.nodes = order.iter().map(|&(c, q)| c * 16 + q).collect();
        self.comps = comps;
        self.suit_comps = suit_comps;
        self.comp_at = comp_at;
    }

    /// Whether some card of a stack (given top first) can never leave it,
    /// the tableau holding `in_l` now with `up` on the foundations: the
    /// snapshots of [`overfull`], one card at a time.
    fn stack(
        &mut self,
        in_l: &[u8; SLOTS],
        up: &[u8; SLOTS],
        cards: impl Iterator<Item = Card> + Clone,
        piles: usize,
    ) -> bool {
        self.in_l = *in_l;
        self.up = *up;
        self.in_u = [0; SLOTS];
        for c in cards.clone() {
            self.in_u[slot(c)] += 1;
        }
        self.need = [0; SLOTS];
        self.room = [0; SLOTS];
        self.total_need = 0;
        self.comp_chains.fill(0);
        for s in 0..4 {
            self.suit(s);
        }
        // Components whose count is out of date, a bit each; and the
        // chains of the others. Chains hold at least one needed card each,
        // so while no more cards are needed than there are piles, nothing
        // is counted.
        let mut dirty: u32 = (1u32 << self.comps.len()) - 1;
        let mut total = 0;
        for c in cards {
            let before = self.need_s[slot(c)];
            self.lift(c);
            dirty |= self.suit_comps[c.suit().index()];
            // The count only grows with need and shrinks with room; a
            // lift changes only the lifted card's need upwards (the
            // foundations may go further now, which needs less), and the
            // layout now fits the piles. So only a lift that needs its
            // card on the tableau can make the chains outnumber the piles.
            if self.need_s[slot(c)] > before
                && self.total_need as usize > piles
                && self.snapshot_dead(c, &mut dirty, &mut total, piles)
            {
                return true;
            }
            // The highest choice of heights needs what the count above
            // needs: where that is no more cards than piles, it fits.
            if self.heights && self.total_need as usize > piles && self.heights_dead(c, piles) {
                return true;
            }
        }
        false
    }

    /// The snapshot just after `c` leaves its stack, counted with each
    /// suit's foundations as high as they may be then: whether its chains
    /// outnumber the piles. `dirty` and `total` carry the components'
    /// counts from one snapshot to the next.
    fn snapshot_dead(&mut self, c: Card, dirty: &mut u32, total: &mut usize, piles: usize) -> bool {
        while *dirty != 0 {
            let k = dirty.trailing_zeros() as usize;
            *dirty &= *dirty - 1;
            let n = self.chains(k);
            *total = *total + n - self.comp_chains[k];
            self.comp_chains[k] = n;
        }
        if *total > piles {
            return true;
        }
        // `c` itself, where it cannot be on a foundation then (every copy
        // of its value in `L` is needed on the tableau), lies on the
        // tableau just after it leaves, as the top of its pile: a chain
        // ends at its node with `c` (see [`Chains::chains_top`]).
        let i = slot(c);
        if self.tops && self.need_s[i] == self.in_l[i] {
            let node = self.node_at_card(c);
            let k = self.comp_of(node);
            if *total - self.comp_chains[k] + self.chains_top(k, node) > piles {
                return true;
            }
        }
        false
    }

    /// The snapshot just after `x` leaves its stack, counted for every
    /// choice of the suits' foundation heights then; whether every choice
    /// leaves more chains than piles (see *Foundation heights* at
    /// [`overfull`]). `false` where there is no choice to make beyond the
    /// one [`Chains::snapshot_dead`] counts, or too many
    /// ([`MOST_HEIGHT_CHOICES`]).
    fn heights_dead(&self, x: Card, piles: usize) -> bool {
        // Each suit's candidate heights (of its first and second
        // foundations, by height; the second is 0 with one deck).
        let mut cands: [SmallVec<[(u8, u8); 16]>; 4] = Default::default();
        let mut choices = 1;
        for (s, list) in cands.iter_mut().enumerate() {
            self.suit_heights(s, list);
            choices *= list.len();
            if choices > MOST_HEIGHT_CHOICES {
                return false;
            }
        }
        if choices == 1 {
            return false;
        }
        // Highest first: they need the fewest cards on the tableau, so an
        // alive choice tends to come early.
        let mut idx = [0usize; 4];
        loop {
            let h = std::array::from_fn(|s| cands[s][cands[s].len() - 1 - idx[s]]);
            if !self.heights_choice_dead(x, &h, piles) {
                return false;
            }
            let mut s = 0;
            loop {
                if s == 4 {
                    return true;
                }
                idx[s] += 1;
                if idx[s] < cands[s].len() {
                    break;
                }
                idx[s] = 0;
                s += 1;
            }
        }
    }

    /// Suit `s`'s candidate heights `(h1, h2)` of its two foundations (by
    /// height; `h2` is 0 with one deck), in increasing order of `h1`
    /// within each `h2`: as now, or just above an offset where lowering
    /// the foundation would need one more card of `L` on the tableau.
    ///
    /// Take the heights `(H1, H2)` of some line of play, each between its
    /// height now (`now1`, `now2`) and its stop (`lim1`, `lim2`). Lower
    /// `H2` to the candidate below it: past offset `o` the copies up go
    /// from 2 to 1, which needs a card of `L` more only if `L` holds more
    /// copies of `o` than the one copy up may take (`in_l > 1 - up`, with
    /// `up` copies up now). Then lower `H1` to its candidate, at least
    /// `h2` and `now1`: past `o` (nothing up there now) the copies up go
    /// from 1 to 0, which needs one more only if `L` holds a copy. So the
    /// candidates need the cards the line of play needs, with room only
    /// larger (cards come off the foundations, none into `U` below a
    /// stop), and the count of the candidates bounds the line's.
    fn suit_heights(&self, s: usize, out: &mut SmallVec<[(u8, u8); 16]>) {
        let ranks = self.ranks;
        let at = |o: usize| s * 16 + self.rank_at[o] as usize;
        let now1 = (0..ranks).take_while(|&o| self.up[at(o)] > 0).count();
        let lim1 = self.limit[s][0].min(ranks);
        let mut h2s: SmallVec<[usize; 16]> = SmallVec::new();
        h2s.push(0);
        if self.decks == 2 {
            let now2 = (0..ranks).take_while(|&o| self.up[at(o)] > 1).count();
            let lim2 = self.limit[s][1].min(ranks);
            h2s[0] = now2;
            for o in now2..lim2 {
                let (up, l) = (self.up[at(o)], self.in_l[at(o)]);
                if l + up > 1 {
                    h2s.push(o + 1);
                }
            }
        }
        for &h2 in &h2s {
            let low = h2.max(now1);
            out.push((low as u8, h2 as u8));
            for o in low..lim1 {
                if self.in_l[at(o)] > 0 {
                    out.push((o as u8 + 1, h2 as u8));
                }
            }
        }
    }

    /// Whether the snapshot just after `x` leaves needs more chains than
    /// piles with suit `s`'s foundations at heights `h[s]` (offsets from
    /// the base; the second is 0 with one deck).
    fn heights_choice_dead(&self, x: Card, h: &[(u8, u8); 4], piles: usize) -> bool {
        let mut need = [0u8; SLOTS];
        let mut room = [0u8; SLOTS];
        let mut total = 0usize;
        let mut x_needed = false;
        for (s, &(h1, h2)) in h.iter().enumerate() {
            for o in 0..self.ranks {
                let i = s * 16 + self.rank_at[o] as usize;
                let c = u8::from(o < h1 as usize) + u8::from(o < h2 as usize);
                let l = self.in_l[i];
                let n = l - l.min(c - self.up[i]);
                let node = self.node_at[s][o] as usize;
                need[node] += n;
                room[node] += self.decks.saturating_sub(c + self.in_u[i]);
                total += n as usize;
                if slot(x) == i {
                    x_needed = n == l;
                }
            }
        }
        if total <= piles {
            return false;
        }
        let counts: SmallVec<[usize; 8]> = (0..self.comps.len())
            .map(|k| self.fewest_in(k, None, &need, &room))
            .collect();
        let chains: usize = counts.iter().sum();
        if chains > piles {
            return true;
        }
        if !self.tops || !x_needed {
            return false;
        }
        let node = self.node_at_card(x);
        let k = self.comp_of(node);
        chains - counts[k] + self.fewest_in(k, Some(node), &need, &room) > piles
    }

    /// Card `c`'s offset from the base.
    fn offset_of(&self, c: Card) -> usize {
        let base = self.base.expect("made");
        wrap_rank(c.rank().index() as usize + self.ranks - base, self.ranks)
    }

    /// The node (class * 16 + rank) of card `c`.
    fn node_at_card(&self, c: Card) -> u8 {
        self.node_at[c.suit().index()][self.offset_of(c)]
    }

    /// The component that holds `node`.
    fn comp_of(&self, node: u8) -> usize {
        self.comp_at[node as usize] as usize
    }

    /// [`Chains::chains`] of component `k` when some card of `node` is the
    /// top of its pile (nothing lies on it). At that node the chains that
    /// come from the node below (cards lying on a card of `node`) are at
    /// most one fewer than the cards of `node` on the tableau, so one
    /// chain more may start there. With `run` chains coming and `next`
    /// cards of the node, `next - min(run, next - 1)` chains start at the
    /// node, and taking `next` as large as the room allows up to `run + 1`
    /// costs no more there (one chain) while leaving more chains for the
    /// nodes above, each of which saves at most one there: so
    /// `next = clamp(run + 1, min(n, u), u)`, as [`Chains::chains`] keeps
    /// `run` where it can. In a cycle that no node cuts, the count starts
    /// at `node` with `u - 1` chains coming in, the most there can be: at
    /// least one chain starts there, and none of the nodes after it does
    /// worse for more chains coming.
    fn chains_top(&self, k: usize, node: u8) -> usize {
        self.fewest(k, Some(node))
    }

    /// Counts suit `s`'s share of the nodes' need and room afresh.
    fn suit(&mut self, s: usize) {
        // Where the k-th foundation of the suit must stop: the first
        // offset from the base with k or fewer copies outside `U`.
        for k in 0..self.decks as usize {
            self.limit[s][k] = self.first_short(s, k, 0);
        }
        for o in 0..self.ranks {
            self.count(s, o, true);
        }
    }

    /// The first offset from `from` on at which suit `s` has `k` or fewer
    /// copies outside `U` (`ranks` if none).
    fn first_short(&self, s: usize, k: usize, from: usize) -> usize {
        let ranks = self.ranks;
        (from..ranks)
            .find(|&o| self.decks - self.in_u[s * 16 + self.rank_at[o] as usize] <= k as u8)
            .unwrap_or(ranks)
    }

    /// Sets the need and room of suit `s` at offset `o` (`fresh`: nothing
    /// counted there yet).
    fn count(&mut self, s: usize, o: usize, fresh: bool) {
        let decks = self.decks;
        let i = s * 16 + self.rank_at[o] as usize;
        let lim = self.limit[s];
        let cap = u8::from(o < lim[0]) + u8::from(decks == 2 && o < lim[1]);
        let n = self.in_l[i].saturating_sub(cap.saturating_sub(self.up[i]));
        let u = decks.saturating_sub(self.up[i] + self.in_u[i]);
        let node = self.node_at[s][o] as usize;
        if !fresh {
            self.need[node] -= self.need_s[i];
            self.room[node] -= self.room_s[i];
            self.total_need -= self.need_s[i] as u32;
        }
        self.need_s[i] = n;
        self.room_s[i] = u;
        self.need[node] += n;
        self.room[node] += u;
        self.total_need += n as u32;
    }

    /// Card `c` leaves `U` for `L`: updates the counts of its suit where
    /// they change (its own offset, and the offsets a foundation may now
    /// pass).
    fn lift(&mut self, c: Card) {
        let (s, i) = (c.suit().index(), slot(c));
        self.in_u[i] -= 1;
        self.in_l[i] += 1;
        let o = self.offset_of(c);
        let mut hi = o + 1;
        for k in 0..self.decks as usize {
            let l = self.limit[s][k];
            if l == o {
                let l2 = self.first_short(s, k, o);
                self.limit[s][k] = l2;
                hi = hi.max(l2.min(self.ranks));
            }
        }
        for o2 in o..hi {
            self.count(s, o2, false);
        }
    }

    /// The fewest chains of component `k` (see [`overfull`]).
    fn chains(&self, k: usize) -> usize {
        self.fewest(k, None)
    }

    /// [`Chains::chains`], or with `top` [`Chains::chains_top`].
    ///
    /// A path is counted from its first node with no chain coming in; a
    /// cycle from just after a node no chain can cross (room 0), likewise.
    /// A cycle with no such node is counted from the node with the least
    /// room, `z`, as if as many chains came into it as it has room (there
    /// can be no more; more chains coming never makes the count larger),
    /// and is one chain at least if it needs any (a pile has a top).
    fn fewest(&self, k: usize, top: Option<u8>) -> usize {
        self.fewest_in(k, top, &self.need, &self.room)
    }

    /// [`Chains::fewest`] for the given need and room by node.
    fn fewest_in(
        &self,
        k: usize,
        top: Option<u8>,
        need: &[u8; SLOTS],
        room: &[u8; SLOTS],
    ) -> usize {
        let (a, b, cycle) = self.comps[k];
        let nodes = &self.nodes[a..b];
        if !nodes.iter().any(|&i| need[i as usize] > 0) {
            return 0;
        }
        let at = |x: u8| {
            nodes
                .iter()
                .position(|&i| i == x)
                .expect("in the component")
        };
        let (start, mut run, uncut) = if !cycle {
            (0, 0u8, false)
        } else if let Some(z) = nodes.iter().position(|&i| room[i as usize] == 0) {
            ((z + 1) % nodes.len(), 0, false)
        } else if let Some(x) = top {
            (at(x), room[x as usize] - 1, true)
        } else {
            let z = (0..nodes.len())
                .min_by_key(|&j| room[nodes[j] as usize])
                .expect("a cycle has nodes");
            (z, room[nodes[z] as usize], true)
        };
        let mut chains = 0;
        for &i in nodes[start..].iter().chain(&nodes[..start]) {
            let (n, u) = (need[i as usize], room[i as usize]);
            if Some(i) == top && u > 0 {
                let next = (run + 1).clamp(n.min(u), u);
                chains += (next - run.min(next - 1)) as usize;
                run = next;
            } else {
                let next = run.clamp(n.min(u), u);
                chains += next.saturating_sub(run) as usize;
                run = next;
            }
        }
        if uncut {
            chains.max(1)
        } else {
            chains
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{reachable, Chains, FIRST_ANSWERS};

    #[test]
    fn the_answer_cache_grows_and_keeps_its_answers() {
        // Room for 2^19 entries; it starts at 2^12 and, for 40,000 keys,
        // grows twice. Keys that differ only in high bits of `meta` (where
        // the foundations' heights are) get entries of their own.
        let mut c = Chains::with_bytes(16 << 20);
        assert_eq!(c.answer_slots, 1 << 19);
        assert_eq!(Chains::with_bytes((16 << 20) - 1).answer_slots, 1 << 14);
        let key = |k: u64| (u128::from(k % 37) << 70 | 5, (k / 37) << 24 | 3);
        let n = 40_000u64;
        for k in 0..n {
            let (g, m) = key(k);
            assert_eq!(c.known(g, m), None);
            c.remember(g, m, k % 3 == 0);
        }
        assert_eq!(c.answers.len(), FIRST_ANSWERS * 16);
        let kept = (0..n)
            .filter(|&k| {
                let (g, m) = key(k);
                let a = c.known(g, m);
                assert!(a.is_none_or(|a| a == (k % 3 == 0)), "key {k}: {a:?}");
                a.is_some()
            })
            .count();
        // Direct-mapped: most of 40,000 keys in 65,536 entries stay.
        assert!(kept > 25_000, "{kept}");
    }

    /// The talon positions `i` (of `n` live, none in `M` but `m`) that
    /// [`reachable`] allows.
    fn allowed(n: usize, m: u128, pos: usize, redeal: bool) -> Vec<usize> {
        let live = (1u128 << n) - 1;
        (0..n)
            .filter(|&i| m >> i & 1 == 0 && reachable(live, m, i, pos, 3, redeal))
            .collect()
    }

    #[test]
    fn with_nothing_leaving_only_the_last_of_each_group_comes_up() {
        // Groups 0-2, 3-5, 6: the last card ends the talon.
        assert_eq!(allowed(7, 0, 0, false), [2, 5, 6]);
        assert_eq!(allowed(7, 0, 0, true), [2, 5, 6]);
        // Mid-pass the groups count from the position: 4-6, then 7.
        assert_eq!(allowed(8, 0, 4, false), [3, 6, 7]);
    }

    #[test]
    fn cards_that_leave_uncover_or_shift_the_groups() {
        // Card 1 may leave once it comes up (after 2 leaves); 0 comes up
        // only if both 2 and 1 leave.
        assert_eq!(allowed(7, 0b10, 0, false), [2, 5, 6]);
        assert_eq!(allowed(7, 0b110, 0, false), [0, 5, 6]);
        // Card 0 may leave before a later pass, whose groups are then
        // 1-3, 4-6: 3 comes up too, but only if a redeal is left.
        assert_eq!(allowed(7, 0b1, 0, false), [2, 5, 6]);
        assert_eq!(allowed(7, 0b1, 0, true), [2, 3, 5, 6]);
    }

    #[test]
    fn a_waste_card_comes_up_when_the_cards_above_it_leave() {
        // Waste 0-3 (3 on top), no redeal left: 2 needs 3 gone, 1 needs 2.
        assert_eq!(allowed(6, 0b1000, 4, false), [2, 5]);
        assert_eq!(allowed(6, 0, 4, false), [3, 5]);
    }
}
