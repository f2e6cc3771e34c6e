//! The first implementation of [`super::stuck`], kept as the oracle of its
//! differential test (`tests/deadlock.rs`): it rescans every card of every
//! stack and pile each round, where `stuck` follows the sets as bit sets. Both compute the
//! same least fixpoint (every condition is monotone in the sets), so they
//! must give the same answer on every position.

use super::{empties_now, last_pass, reachable};
use demon_core::card::{wrap_rank, Card, Rank, Suit};
use demon_core::rules::{GroupMoves, Stock, MAX_PILES};
use demon_core::{Game, State};

/// Whether the position is lost because some card off the foundations can
/// never move (see the module comment). `false` says nothing.
pub fn stuck_reference(g: &Game, st: &State) -> bool {
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
                    let own = (expo_at[p] > i).then(|| cs[expo_at[p]]);
                    let onto = tableau_ok(x, own, moved, placed, expo, expo2);
                    let up = k0 == 0 && found_ok(x, upped);
                    if onto || up {
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
                            upped |= bit(x);
                        }
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
            let b = bit(x);
            if placed & b == 0 && !tableau && tableau_ok(x, None, moved, placed, expo, expo2) {
                placed |= b;
                changed = true;
            }
            if upped & b == 0 && found_ok(x, upped) {
                upped |= b;
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
            let onto = tableau_ok(x, None, moved, placed, expo, expo2);
            let up = found_ok(x, upped);
            if onto || up {
                reserve_m += 1;
                moved |= bit(x);
                if onto {
                    placed |= bit(x);
                }
                if up {
                    upped |= bit(x);
                }
                changed = true;
            } else {
                break;
            }
        }

        // The talon, from the top. With no redeal left a waste card waits
        // for the waste cards above it.
        let mut blocked = false;
        // Live talon cards at `first` or above, not in `M` yet, from the top.
        let mut rest = live_bits & !talon_m & !((1u128 << first) - 1);
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
            let onto = tableau_ok(x, None, moved, placed, expo, expo2);
            let up = found_ok(x, upped);
            let reached = || draw <= 1 || reachable(live_bits, talon_m, i, pos, draw, redeal_left);
            if onto || up {
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
                moved |= bit(x);
                if onto {
                    placed |= bit(x);
                }
                if up {
                    upped |= bit(x);
                }
                changed = true;
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
