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
    // Redeals made are not part of the key: the table keeps, per position,
    // the fewest seen (see `FingerprintSet::insert_level`).
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
