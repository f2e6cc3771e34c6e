//! Dead ends: a sound test that a position is lost because some tableau
//! pile can never be emptied.
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
//!   cards join `M` and `T` with `x`. In the waste, with no redeal left,
//!   every waste card above it is in `M` (new cards are only ever put on
//!   top). Stock cards, and waste cards while a redeal is left, are not
//!   constrained (over-approximated as free).
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
//! - a card reaches a foundation only alone, with nothing above it, which
//!   (by the first point) means every card above it now moved before.
//!
//! Every condition asks only for facts about cards that moved (or reached
//! a foundation) before `t`, which the sets hold by induction; so the
//! least fixpoint contains every card that moves, with its first move's
//! kind. In particular a pile emptied in some line of play has its bottom
//! card in `M`.

use demon_core::card::{Card, Rank, Suit};
use demon_core::rules::{GroupMoves, Redeals, Stock, MAX_PILES};
use demon_core::{Game, State};

/// Whether the position is lost because some card off the foundations can
/// never move (see the module comment). `false` says nothing.
pub fn dead(g: &Game, st: &State) -> bool {
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
    let ranks = rules.ranks;
    let decks = rules.decks as usize;
    let base = base.index();
    // Highest foundation of each suit.
    let mut high = [0u8; 4];
    for f in 0..rules.foundations() {
        let s = f / decks;
        high[s] = high[s].max(g.foundation_height(st, f));
    }
    // `x mod ranks` for `x < 2 * ranks`, without a division (`ranks` is not
    // a constant, and a division costs more than the rest of a test here).
    let wrap = |x: u8| if x >= ranks { x - ranks } else { x };
    let off = |c: Card| wrap(c.rank().index() + ranks - base);
    let worry = rules.worrying_back;
    let group = rules.group_moves;

    // Per card value: some copy is in `M`; some copy is in `T` (see the
    // module comment: might make its first move onto the tableau).
    let mut moved = [false; Card::COUNT];
    let mut placed = [false; Card::COUNT];
    // Per card value: some copy is in `F` (might reach a foundation).
    let mut upped = [false; Card::COUNT];
    // Per card value: copies in the tableau not in `M` with every card
    // above them in `M` (recomputed each round): pile `p`'s is its card
    // `expo[p]`. (Those in `M` are in `T`, which counts them anyway.)
    let mut exposable = [0u8; Card::COUNT];
    let mut expo = [0usize; MAX_PILES];
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
    let (first, redeal_left) = match rules.stock {
        Stock::ToWaste { redeals, .. } => (
            0,
            match redeals {
                Redeals::Unlimited => true,
                Redeals::Limited(k) => passes < k,
            },
        ),
        Stock::ToTableau { .. } => {
            // Dealt onto the piles: they move.
            for (i, &c) in talon.iter().enumerate().skip(pos) {
                if live(i) {
                    talon_m |= 1 << i;
                    moved[c.index() as usize] = true;
                    placed[c.index() as usize] = true;
                }
            }
            (pos, false)
        }
    };
    let found_ok = |c: Card, upped: &[bool; Card::COUNT]| {
        let o = off(c);
        if o == 0 || high[c.suit().index()] >= o {
            return true;
        }
        let r = wrap(c.rank().index() + ranks - 1);
        upped[Card::new(c.suit(), Rank::new(r).expect("rank")).index() as usize]
    };
    let on_found = |c: Card| high[c.suit().index()] > off(c);
    // Whether `c` has a tableau card to go on; `own` is the exposable card
    // of `c`'s pile if it is above `c`: it would move with `c`, so it does
    // not count.
    let tableau_ok = |c: Card,
                      own: Option<Card>,
                      moved: &[bool; Card::COUNT],
                      placed: &[bool; Card::COUNT],
                      exposable: &[u8; Card::COUNT]| {
        let rank = Rank::new(wrap(c.rank().index() + 1)).expect("rank");
        Suit::ALL.iter().any(|&s| {
            let y = Card::new(s, rank);
            let i = y.index() as usize;
            let expo = exposable[i] > u8::from(own == Some(y));
            (placed[i] || expo || (worry && (on_found(y) || moved[i]))) && g.builds(st, c, y)
        })
    };

    loop {
        let mut changed = false;
        exposable.fill(0);
        for p in 0..piles {
            let cs = g.pile(st, p);
            // The first card from the top not in `M`.
            let e = top_m[p] - 1;
            expo[p] = e;
            exposable[cs[e].index() as usize] += 1;
        }

        // The tableau: blocks join from the top of each pile down.
        for p in 0..piles {
            let cs = g.pile(st, p);
            let down = g.face_down(st, p);
            'pile: while top_m[p] > 0 {
                let s = top_m[p];
                // Try each card below `s` as the base of the block up to `s`.
                for i in (0..s).rev() {
                    let k0 = s - (i + 1);
                    if k0 > 0 {
                        // The run grows one card per step: stop when it breaks.
                        if i < down || !g.builds(st, cs[i + 1], cs[i]) {
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
                    let own = (expo[p] > i).then(|| cs[expo[p]]);
                    let onto = tableau_ok(x, own, &moved, &placed, &exposable);
                    let up = k0 == 0 && found_ok(x, &upped);
                    if onto || up {
                        if i == 0 {
                            // A space is possible: nothing is dead.
                            return false;
                        }
                        // In `T` too, whether or not `onto`: more in `T` is
                        // only less precise, and a tableau card need not be
                        // checked again.
                        for &c in &cs[i..s] {
                            moved[c.index() as usize] = true;
                            placed[c.index() as usize] = true;
                        }
                        upped[x.index() as usize] |= up;
                        top_m[p] = i;
                        changed = true;
                        continue 'pile;
                    }
                }
                break;
            }
        }

        // Cards in `M` but not `T` (so far only a foundation for them)
        // may since have found a tableau card: `T` must hold every card
        // whose first move can be onto the tableau.
        // Likewise `F`, for every card in `M` (all cards above one in `M`
        // are in `M`, so it can be uncovered and go up alone).
        let mut recheck = |x: Card, tableau: bool| {
            let i = x.index() as usize;
            if !placed[i] && !tableau && tableau_ok(x, None, &moved, &placed, &exposable) {
                placed[i] = true;
                changed = true;
            }
            if !upped[i] && found_ok(x, &upped) {
                upped[i] = true;
                changed = true;
            }
        };
        for &x in &reserve[reserve.len() - reserve_m..] {
            recheck(x, false);
        }
        let mut rest = talon_m;
        while rest != 0 {
            let x = talon[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            recheck(x, false);
        }
        for (p, &t) in top_m.iter().enumerate().take(piles) {
            for &x in &g.pile(st, p)[t..] {
                recheck(x, true);
            }
        }

        // The reserve, from the top.
        while reserve_m < reserve.len() {
            let x = reserve[reserve.len() - 1 - reserve_m];
            let onto = tableau_ok(x, None, &moved, &placed, &exposable);
            let up = found_ok(x, &upped);
            if onto || up {
                reserve_m += 1;
                moved[x.index() as usize] = true;
                placed[x.index() as usize] |= onto;
                upped[x.index() as usize] |= up;
                changed = true;
            } else {
                break;
            }
        }

        // The talon, from the top. With no redeal left a waste card waits
        // for the waste cards above it.
        let mut blocked = false;
        for i in (first..talon.len()).rev() {
            if !live(i) || talon_m >> i & 1 != 0 {
                continue;
            }
            let stacked = !redeal_left && i < pos;
            if stacked && blocked {
                break;
            }
            let x = talon[i];
            let onto = tableau_ok(x, None, &moved, &placed, &exposable);
            let up = found_ok(x, &upped);
            if onto || up {
                talon_m |= 1 << i;
                moved[x.index() as usize] = true;
                placed[x.index() as usize] |= onto;
                upped[x.index() as usize] |= up;
                changed = true;
            } else if stacked {
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
