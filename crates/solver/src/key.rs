//! Canonical position fingerprints for the transposition table.
//!
//! A position is encoded exactly (foundation heights, base, reserve height,
//! the talon's played-card bits and the key part of its state, every
//! tableau pile with its face-down count) and hashed, as one byte string,
//! to 128 bits with XXH3-128; the rest of the talon state is the level
//! kept beside the fingerprint ([`TalonView`]), so a key stands for the
//! talon states of one chain. Tableau piles are
//! interchangeable (GAMES.md §1: nothing in the rules refers to a pile by
//! its place) unless a to-tableau stock still has cards, which it deals
//! onto the piles in order; while they are interchangeable the piles
//! are written in sorted order, so permuted tableaux are one
//! position. The two copies of a card are already one value in the state.
//!
//! Collisions: the table stores fingerprints only, compared on all 128
//! bits ([`crate::table`]), so two different keys with one fingerprint
//! would make the second look visited and could turn a win into a wrong
//! LOST. Treating XXH3-128 as a random function, the chance of any
//! collision among n stored positions is at most n²/2¹²⁹: for n = 10⁹
//! (16 GB of table) that is below 1.5·10⁻²¹ per deal, and below
//! 1.5·10⁻¹⁴ over 10⁷ such deals. A WON verdict never rests on the table
//! (its move list is replayed by the independent checker).
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

/// The talon's part of a position, split in two: what the key records
/// (`key`, compared for equality) and what the table compares by order
/// (`level`, see [`crate::table::FingerprintSet::insert_level`]: a stored
/// position at a lower or equal level dominates a new one).
///
/// Fix the cards still in the talon (`left` of them; which ones is in the
/// key anyway). The talon state is then the pass (`passes`, counted with
/// limited redeals) and the waste's size `c` (the pass position is one past
/// the waste's top card, so `c` determines it). Turning the stock `draw`
/// cards at a time takes `c` to `c + draw`, or to `left` at the end of the
/// pass; a redeal (when one is left) takes `left` to 0 in the next pass.
/// Nothing else changes on the way. So from `c`, turns alone reach every
/// `c + draw·m` of the pass, its end, and from the end every stop of a
/// fresh pass (a multiple of `draw`, or the end). Call the stops of a
/// fresh pass *fresh* and the others *odd*.
///
/// Two dominances, each a simulation (every move of the dominated state is
/// matched by moves of the dominating one that end in a state dominating
/// its result), which is what the table's levels need:
/// - reach: a state dominates what it reaches by turns. Each K+ play of
///   the reached state is one of the reaching state's (a card shows at one
///   waste size whatever the pass, and is listed once, at its earliest
///   pass), with the same result or the same result with fewer redeals;
///   every other move does the same to both;
/// - fewer redeals: the same state with fewer redeals made dominates (it
///   has every move, redeals included, and the results stay so ordered).
///
/// The chains, ordered by level:
/// - unlimited redeals (passes not counted): all fresh states reach each
///   other; an odd state reaches the odd states of its residue `c mod
///   draw` above it, and every fresh state (turn to the end, redeal). Key:
///   the residue; level `c`; the fresh states go on top of the chain of
///   residue 1 (level 255, above any `c`), the one chain a position's key
///   can put them in. With one card a turn every state is fresh (key 0);
/// - limited redeals, when the levels fit a byte: the fresh states of all
///   passes form one chain (level `passes·(talon + 1) + c`: reach, within
///   a pass and across a redeal). Odd states: with no redeal allowed,
///   those of one residue form a chain (key: the residue; level `c`);
///   with redeals, the key holds the pass position and the level the
///   redeals made (the second dominance alone: an odd state of a later
///   pass is not reached by turns, and a residue chain per pass would lose
///   it);
/// - otherwise (a limited stock too long for the byte, or a stock dealt to
///   the tableau): the key holds the pass position, the level the redeals
///   made.
pub struct TalonView {
    pub key: [u8; 2],
    pub level: u8,
}

/// See [`TalonView`].
fn talon_view(game: &Game, st: &State) -> TalonView {
    use demon_core::rules::{Redeals, Stock};
    let (pos, passes) = game.talon_state(st);
    let Stock::ToWaste { draw, redeals } = game.rules().stock else {
        return TalonView {
            key: [pos, 0],
            level: passes,
        };
    };
    let n = game.talon().len();
    let live = !game.talon_gone_bits(st) & mask(n);
    let c = (live & mask(pos as usize)).count_ones() as usize;
    let left = live.count_ones() as usize;
    let draw = draw as usize;
    let fresh = c.is_multiple_of(draw) || c == left;
    let residue = (c % draw) as u8;
    match redeals {
        // One card a turn: every state is fresh, and one.
        Redeals::Unlimited if draw == 1 => TalonView {
            key: [0, 0],
            level: 0,
        },
        // An odd state reaches the end of its pass, so every fresh state:
        // the fresh states top the chain of residue 1 (and are one).
        Redeals::Unlimited if fresh => TalonView {
            key: [1, 0],
            level: u8::MAX,
        },
        Redeals::Unlimited => TalonView {
            key: [residue, 0],
            level: c as u8,
        },
        Redeals::Limited(max) if (max as usize + 1) * (n + 1) <= 256 => {
            if fresh {
                TalonView {
                    key: [0, 0],
                    level: (passes as usize * (n + 1) + c) as u8,
                }
            } else if max == 0 {
                TalonView {
                    key: [residue, 0],
                    level: c as u8,
                }
            } else {
                // `pos` > 0 here (`c` = 0 is fresh), so the key is no
                // fresh state's.
                TalonView {
                    key: [pos, 1],
                    level: passes,
                }
            }
        }
        Redeals::Limited(_) => TalonView {
            key: [pos, 0],
            level: passes,
        },
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
    fingerprint_level(game, st).0
}

/// The fingerprint of `st` and its table level ([`TalonView`]), from one
/// reading of the talon: what the table's insertions need.
pub fn fingerprint_level(game: &Game, st: &State) -> (u128, u8) {
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
    // The rest of the talon state is the level, kept beside the key: the
    // table keeps, per position, the lowest level seen ([`TalonView`]).
    let talon = talon_view(game, st);
    buf[n + 2] = talon.key[0];
    buf[n + 3] = talon.key[1];
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
    (xxh3_128(&buf[..n]), talon.level)
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
                out.push(fingerprint_level(g, &c));
            }
        }
        out
    }

    /// The property the table's levels rest on ([`TalonView`]): a position
    /// with a lower level simulates the same position (same key) with a
    /// higher one, i.e. every child of the higher has a child of the lower
    /// with the same fingerprint and a level no higher. Checked along
    /// random playouts: at each position, every talon state it could have
    /// (a pass position one past a card still in the talon, or 0, in any
    /// pass the rules allow), grouped by key, each against the next one up
    /// in level order (simulation is transitive, so the chain covers every
    /// pair; states of equal level are checked both ways). Returns the
    /// pairs checked.
    fn check_simulation(g: GameKind, reading: Reading, o: RuleOverrides, seeds: u64) -> usize {
        let rules = Rules::resolve(g, reading, &o).unwrap();
        let Stock::ToWaste { redeals, .. } = rules.stock else {
            panic!("{g}: not a stock dealt to the waste")
        };
        let max = match redeals {
            demon_core::rules::Redeals::Limited(k) => k,
            demon_core::rules::Redeals::Unlimited => 0,
        };
        let mut checked = 0;
        for seed in 0..seeds {
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
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
                            let (f, l) = fingerprint_level(&game, &v);
                            states.push((f, l, v));
                        }
                    }
                }
                states.sort_by_key(|(f, l, _)| (*f, *l));
                let dominates = |a: &State, b: &State| {
                    let ours = children(&game, a);
                    children(&game, b)
                        .iter()
                        .all(|&(f, l)| ours.iter().any(|&(f2, l2)| f2 == f && l2 <= l))
                };
                for w in states.windows(2) {
                    let ((fa, la, a), (fb, lb, b)) = (&w[0], &w[1]);
                    if fa != fb {
                        continue;
                    }
                    let why = || {
                        format!(
                            "{g} seed {seed} step {step}: talon {:?} (level {la}) does not simulate {:?} (level {lb})",
                            game.talon_state(a),
                            game.talon_state(b)
                        )
                    };
                    assert!(dominates(a, b), "{}", why());
                    assert!(la < lb || dominates(b, a), "{}", why());
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
    fn talon_levels_are_simulations() {
        use demon_core::rules::Redeals;
        let d = RuleOverrides::default;
        let cases = [
            // Three a turn, unlimited; one a turn, unlimited.
            (GameKind::Canfield, Reading::Standard, d(), 6),
            (
                GameKind::Canfield,
                Reading::Standard,
                RuleOverrides {
                    draw: Some(1),
                    ..d()
                },
                4,
            ),
            // Three a turn: two redeals; none.
            (GameKind::Storehouse, Reading::Standard, d(), 6),
            (GameKind::Chameleon, Reading::Standard, d(), 6),
            (GameKind::VariegatedCanfield, Reading::Standard, d(), 2),
            // One a turn: two redeals, none, one.
            (GameKind::Rainbow, Reading::Standard, d(), 6),
            (GameKind::Rainbow, Reading::Pysolfc, d(), 6),
            (GameKind::AmericanToad, Reading::Standard, d(), 2),
            (GameKind::Storehouse, Reading::Pysolfc, d(), 6),
            // Three a turn, three redeals, on a talon too long for the byte.
            (
                GameKind::DoubleCanfield,
                Reading::Standard,
                RuleOverrides {
                    redeals: Some(Redeals::Limited(3)),
                    ..d()
                },
                1,
            ),
        ];
        for (g, reading, o, seeds) in cases {
            let n = check_simulation(g, reading, o, seeds);
            // Chains of two or more states are common in every case.
            assert!(n > 100, "{g}: only {n} pairs checked");
        }
    }
}
