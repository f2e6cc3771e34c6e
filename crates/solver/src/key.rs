//! Canonical position fingerprints for the transposition table.
//!
//! A position is encoded exactly (foundation heights, base, reserve height,
//! talon state with its played-card bits, every tableau pile with its
//! face-down count) and hashed, as one byte string, to 128 bits with XXH3-128. Tableau piles are
//! interchangeable (GAMES.md §1: nothing in the rules refers to a pile by
//! its place) unless a to-tableau stock still has cards, which it deals
//! onto the piles in order; while they are interchangeable the piles
//! are written in sorted order, so permuted tableaux are one
//! position. The two copies of a card are already one value in the state.
//!
//! Collisions: the table stores fingerprints only (120 of the 128 bits; the
//! low byte holds the redeals made), so two different positions with one
//! fingerprint would make the second look visited and could turn a win
//! into a wrong LOST. Treating XXH3-128 as a random function, the chance of
//! any collision among n stored positions is at most n²/2¹²¹: for n = 10⁹
//! (16 GB of table) that is below 4·10⁻¹⁹ per deal, and below 4·10⁻¹² over
//! 10⁷ such deals. A WON verdict never rests on the
//! table (its move list is replayed by the independent checker).
//!
//! A merged tableau class ([`crate::class`]) is stored as the fingerprint
//! of its canonical member, one position that depends only on the class.
//! Classes are disjoint, so two different classes have different canonical
//! members, and every stored key is still the fingerprint of one position
//! distinct from the others': the bound above holds as it stands, with n
//! the number of stored keys.

use demon_core::{Game, State};
use xxhash_rust::xxh3::xxh3_128;

/// Whether the tableau piles are interchangeable in this position.
pub fn piles_interchangeable(game: &Game, st: &State) -> bool {
    match game.rules().stock {
        demon_core::rules::Stock::ToTableau { .. } => game.stock_empty(st),
        demon_core::rules::Stock::ToWaste { .. } => true,
    }
}

/// The talon position as the key records it.
///
/// With unlimited redeals, the positions that turning the stock from a
/// fresh pass can stop at (after a multiple of `draw` of the cards left in
/// the talon, or at its end) are mutually reachable by turns alone: turn
/// on to the end, redeal, turn to the other. Nothing else changes on the
/// way, so they have the same reachable positions and are one position for
/// the search; the key records them all as 0 (the fresh pass). The K+ moves
/// of each list the same cards with the same results (a waste play leaves
/// the same talon whichever pass it happens in), so exploring any one of
/// them explores what the others would. An exhausted stock is the
/// `before == left` case. Other positions keep their own value.
fn talon_key(game: &Game, st: &State, pos: u8) -> u8 {
    if pass_ordered(game) {
        // The pass position is in the level instead ([`talon_level`]).
        return 0;
    }
    let demon_core::rules::Stock::ToWaste {
        draw,
        redeals: demon_core::rules::Redeals::Unlimited,
    } = game.rules().stock
    else {
        return pos;
    };
    let n = game.talon().len();
    let live = !game.talon_gone_bits(st) & mask(n);
    let before = (live & mask(pos as usize)).count_ones();
    let left = live.count_ones();
    if before.is_multiple_of(draw as u32) || before == left {
        0
    } else {
        pos
    }
}

/// Whether the talon's states are totally ordered by reach, and the order
/// fits the table's level byte: a stock dealt one card at a time to the
/// waste, with a limited number of redeals.
///
/// Turning one card moves the pass position to the next card still in the
/// talon, so a state at position `j` reaches, by turns alone, every later
/// position `i` of the same pass (the position is always one past the
/// waste's top card, so `i` is a stop of that walk), and after a redeal
/// (when one is left) every position of every later pass. Nothing else
/// changes on the way. Hence with the same cards everywhere else, the
/// state earlier in (passes, position) order has every line the later one
/// has: each K+ play of the later state (a card at a later talon state) is
/// a K+ play of the earlier one with the same result, or one that ends
/// earlier in the order (the card at an earlier position of the current
/// pass, reached by the later state only after a redeal); every other move
/// has the same effect on both and keeps the order. That is a simulation,
/// the property the table's levels need ([`crate::table`]).
///
/// With unlimited redeals the passes are not counted, and [`talon_key`]
/// already joins the positions; with three cards a turn, positions of one
/// pass are not ordered (each reaches only every third card).
fn pass_ordered(game: &Game) -> bool {
    match game.rules().stock {
        demon_core::rules::Stock::ToWaste {
            draw: 1,
            redeals: demon_core::rules::Redeals::Limited(k),
        } => (k as usize + 1) * (game.talon().len() + 1) <= 256,
        _ => false,
    }
}

/// The talon's part of a position that the table compares by order rather
/// than equality (see [`crate::table::FingerprintSet::insert_level`]): a
/// lower level reaches everything a higher one does. Redeals made, and
/// with a one-card limited stock ([`pass_ordered`]) the pass position
/// within them: `passes * (talon + 1) + position`.
pub fn talon_level(game: &Game, st: &State) -> u8 {
    let (pos, passes) = game.talon_state(st);
    if pass_ordered(game) {
        (passes as usize * (game.talon().len() + 1) + pos as usize) as u8
    } else {
        passes
    }
}

fn mask(n: usize) -> u128 {
    if n >= 128 {
        !0
    } else {
        (1u128 << n) - 1
    }
}

/// The 128-bit fingerprint of the canonical form of `st`.
pub fn fingerprint(game: &Game, st: &State) -> u128 {
    let rules = game.rules();
    let mut buf =
        [0u8; 8 + 4 + 16 + 2 * demon_core::rules::MAX_PILES + demon_core::state::TABLEAU_CAP];
    let mut n = 0;
    for f in 0..rules.foundations() {
        buf[n] = game.foundation_height(st, f);
        n += 1;
    }
    buf[n] = game.base(st).map_or(0xFF, |r| r.index());
    buf[n + 1] = game.reserve(st).len() as u8;
    buf[n + 2] = talon_key(game, st, game.talon_state(st).0);
    // Redeals made (and the pass position of a one-card limited stock) are
    // not part of the key: the table keeps, per position, the lowest level
    // seen ([`talon_level`], `FingerprintSet::insert_level`).
    buf[n + 3] = 0;
    n += 4;
    buf[n..n + 16].copy_from_slice(&game.talon_gone_bits(st).to_le_bytes());
    n += 16;
    let piles = rules.piles as usize;
    // Each pile as its face-down count, length and cards; while the piles
    // are interchangeable they go in sorted order (of those bytes), so
    // permuted tableaux give one byte string. The length prefix keeps the
    // concatenation unambiguous.
    let mut order: [usize; demon_core::rules::MAX_PILES] = std::array::from_fn(|i| i);
    let pile_bytes = |p: usize| {
        let cs = game.pile(st, p);
        (game.face_down(st, p) as u8, cs)
    };
    if piles_interchangeable(game, st) {
        order[..piles].sort_unstable_by(|&a, &b| {
            let (da, ca) = pile_bytes(a);
            let (db, cb) = pile_bytes(b);
            (da, ca.len(), ca).cmp(&(db, cb.len(), cb))
        });
    }
    for &p in &order[..piles] {
        let (d, cs) = pile_bytes(p);
        buf[n] = d;
        buf[n + 1] = cs.len() as u8;
        n += 2;
        for c in cs {
            buf[n] = c.index();
            n += 1;
        }
    }
    xxh3_128(&buf[..n])
}

#[cfg(test)]
mod tests {
    use super::*;
    use demon_core::rules::Stock;
    use demon_core::{GameKind, Loc, Move, Reach, Reading, RuleOverrides, Rules, Source};
    use smallvec::SmallVec;

    /// The positions one search move leads to from `st` (K+ waste plays
    /// from every talon state the stock reaches, and every other move but
    /// the stock's own), as (fingerprint, level).
    fn children(g: &Game, st: &State) -> Vec<(u128, u8)> {
        let mut out = Vec::new();
        let mut reach: SmallVec<[Reach; 32]> = SmallVec::new();
        g.waste_reach(st, &mut reach);
        let mut views = vec![st.clone()];
        for r in &reach {
            let mut v = st.clone();
            g.set_talon_state(&mut v, (r.pos, r.passes));
            views.push(v);
        }
        for (i, v) in views.iter().enumerate() {
            for m in g.legal_moves(v) {
                let from_waste = matches!(
                    m,
                    Move::Play {
                        from: Loc::Waste,
                        ..
                    }
                );
                // The talon as it stands plays everything but waste cards;
                // each reached talon state plays only its waste card.
                if matches!(m, Move::Deal | Move::Redeal) || from_waste != (i > 0) {
                    continue;
                }
                let mut c = v.clone();
                g.play(&mut c, m);
                out.push((fingerprint(g, &c), talon_level(g, &c)));
            }
        }
        out
    }

    /// The property the table's levels rest on (see [`pass_ordered`]): a
    /// position with a lower level simulates the same position with a
    /// higher one, i.e. every child of the higher has a child of the lower
    /// with the same fingerprint and a level no higher. Checked along
    /// random playouts: at each position, every talon state it could have
    /// (a pass position one past a card still in the talon, or 0, in any
    /// pass) against the next one up in level order (simulation is
    /// transitive, so the chain covers every pair).
    fn check_simulation(g: GameKind, reading: Reading, seeds: u64) -> usize {
        let rules = Rules::resolve(g, reading, &RuleOverrides::default()).unwrap();
        let Stock::ToWaste {
            redeals: demon_core::rules::Redeals::Limited(max),
            ..
        } = rules.stock
        else {
            panic!("{g}: not a limited stock")
        };
        let mut checked = 0;
        for seed in 0..seeds {
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            assert!(pass_ordered(&game), "{g}: not a one-card limited stock");
            let mut st = game.initial();
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for step in 0..60 {
                let n = game.talon().len();
                let live = !game.talon_gone_bits(&st) & mask(n);
                let mut states = Vec::new();
                for k in 0..=max {
                    for j in 0..=n {
                        if j == 0 || live >> (j - 1) & 1 == 1 {
                            let mut v = st.clone();
                            game.set_talon_state(&mut v, (j as u8, k));
                            states.push((talon_level(&game, &v), v));
                        }
                    }
                }
                states.sort_by_key(|(l, _)| *l);
                for w in states.windows(2) {
                    let ((la, a), (lb, b)) = (&w[0], &w[1]);
                    assert!(la < lb, "{g}: two talon states share level {la}");
                    assert_eq!(fingerprint(&game, a), fingerprint(&game, b));
                    let ours = children(&game, a);
                    for (f, l) in children(&game, b) {
                        assert!(
                            ours.iter().any(|&(f2, l2)| f2 == f && l2 <= l),
                            "{g} seed {seed} step {step}: talon {:?} does not simulate {:?}",
                            game.talon_state(a),
                            game.talon_state(b)
                        );
                    }
                    checked += 1;
                }
                // On: a random move, the stock's included.
                let moves = game.legal_moves(&st);
                if moves.is_empty() || game.is_won(&st) {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                game.play(&mut st, moves[(x % moves.len() as u64) as usize]);
            }
        }
        checked
    }

    #[test]
    fn one_card_limited_stocks_are_ordered_by_reach() {
        let a = check_simulation(GameKind::Rainbow, Reading::Standard, 6);
        let b = check_simulation(GameKind::Rainbow, Reading::Pysolfc, 6);
        let c = check_simulation(GameKind::AmericanToad, Reading::Standard, 2);
        let d = check_simulation(GameKind::Storehouse, Reading::Pysolfc, 6);
        assert!(
            a > 1000 && b > 1000 && c > 1000 && d > 1000,
            "{a} {b} {c} {d}"
        );
        println!("checked {a} {b} {c} {d}");
    }

    #[test]
    fn other_stocks_keep_the_pass_position_in_the_key() {
        for (g, reading) in [
            (GameKind::Canfield, Reading::Standard),
            (GameKind::Storehouse, Reading::Standard),
            (GameKind::Chameleon, Reading::Standard),
        ] {
            let rules = Rules::resolve(g, reading, &RuleOverrides::default()).unwrap();
            let layout = Source::Native(1).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            assert!(!pass_ordered(&game), "{g}");
        }
    }
}
