//! Canonical position fingerprints for the transposition table.
//!
//! A position is encoded exactly (foundation heights, base, reserve height,
//! talon state with its played-card bits, every tableau pile with its
//! face-down count) and hashed to 128 bits with XXH3-128. Tableau piles are
//! interchangeable (GAMES.md §1: nothing in the rules refers to a pile by
//! its place) unless a to-tableau stock still has cards, which it deals
//! onto the piles in order; while they are interchangeable the piles'
//! hashes are sorted before the final hash, so permuted tableaux are one
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

use demon_core::{Game, State};
use xxhash_rust::xxh3::xxh3_128;

/// Whether the tableau piles are interchangeable in this position.
pub fn piles_interchangeable(game: &Game, st: &State) -> bool {
    match game.rules().stock {
        demon_core::rules::Stock::ToTableau { .. } => game.stock_empty(st),
        demon_core::rules::Stock::ToWaste { .. } => true,
    }
}

/// The 128-bit fingerprint of the canonical form of `st`.
pub fn fingerprint(game: &Game, st: &State) -> u128 {
    let rules = game.rules();
    let mut buf = [0u8; 8 + 4 + 16 + 16 * demon_core::rules::MAX_PILES];
    let mut n = 0;
    for f in 0..rules.foundations() {
        buf[n] = game.foundation_height(st, f);
        n += 1;
    }
    let (pos, passes) = game.talon_state(st);
    buf[n] = game.base(st).map_or(0xFF, |r| r.index());
    buf[n + 1] = game.reserve(st).len() as u8;
    // With unlimited redeals, an exhausted stock is the same as a redealt
    // one: the waste top it shows is the last card of a fresh pass, and every
    // other card the stock can show is the same (see `Game::waste_reach`),
    // so the two positions have the same moves to the same positions.
    let unlimited = matches!(
        rules.stock,
        demon_core::rules::Stock::ToWaste {
            redeals: demon_core::rules::Redeals::Unlimited,
            ..
        }
    );
    buf[n + 2] = if unlimited && game.stock_empty(st) {
        0
    } else {
        pos
    };
    // Redeals made are not part of the key: the table keeps, per position,
    // the fewest seen (see `FingerprintSet::insert_level`).
    let _ = passes;
    buf[n + 3] = 0;
    n += 4;
    buf[n..n + 16].copy_from_slice(&game.talon_gone_bits(st).to_le_bytes());
    n += 16;
    let piles = rules.piles as usize;
    let mut ph = [0u128; demon_core::rules::MAX_PILES];
    let mut pbuf = [0u8; 112];
    for (p, h) in ph.iter_mut().enumerate().take(piles) {
        let cs = game.pile(st, p);
        pbuf[0] = game.face_down(st, p) as u8;
        for (i, c) in cs.iter().enumerate() {
            pbuf[1 + i] = c.index();
        }
        *h = xxh3_128(&pbuf[..1 + cs.len()]);
    }
    if piles_interchangeable(game, st) {
        ph[..piles].sort_unstable();
    }
    for h in &ph[..piles] {
        buf[n..n + 16].copy_from_slice(&h.to_le_bytes());
        n += 16;
    }
    xxh3_128(&buf[..n])
}
