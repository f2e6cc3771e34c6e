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
    let talon = talon_view(game, st);
    (fingerprint_talon(game, st, talon.key), talon.level)
}

/// The cards turned at a time, when the stock goes to the waste with
/// unlimited redeals.
fn unlimited_draw(game: &Game) -> Option<u8> {
    use demon_core::rules::{Redeals, Stock};
    match game.rules().stock {
        Stock::ToWaste {
            draw,
            redeals: Redeals::Unlimited,
        } => Some(draw),
        _ => None,
    }
}

/// For a fresh talon state under unlimited redeals with three or more
/// cards a turn: the fingerprint of the same position in the chain of
/// residue 2 of [`TalonView`]. Every state of that chain reaches the fresh
/// stops and the talon's last card (an odd state turns to its pass's end
/// and redeals), which are all the K+ plays of a fresh state: so a stored
/// position with that fingerprint, at any level, dominates this one
/// (`reach`, as in [`TalonView`]; residue 1's chain already holds the
/// fresh states, at its top level). With one or two cards a turn there is
/// no such chain (every state is fresh, or the odd ones are all of
/// residue 1). `None` for every other state and rule. `level`: the
/// state's level, as [`fingerprint_level`] gives it (with unlimited
/// redeals, 255 for the fresh states only, all keyed in residue 1's chain).
pub fn fresh_cover(game: &Game, st: &State, level: u8) -> Option<u128> {
    if unlimited_draw(game)? < 3 || level != u8::MAX {
        return None;
    }
    Some(fingerprint_talon(game, st, [2, 0]))
}

/// The talon indices (bit `i`) of the K+ plays a position must search
/// itself when its key was stored at the higher level `old` of its chain
/// (its insertion lowered the level, see [`TalonView`]), under unlimited
/// redeals with more than one card a turn. Its other K+ plays need not be
/// searched from it: a K+ play's result depends only on the card's talon
/// index (the pass position becomes one past it, the card gone, whatever
/// the pass: passes are not counted), so each is a move of the stored
/// position with the same result, which that position's search enters
/// (or has entered), as it does every move of a stored position. `None`
/// where this does not apply (then every play is searched).
///
/// Which plays are new: with `c` cards in the waste (live positions
/// counted from 0), an odd state reaches by turns the waste's top `c - 1`
/// and every `draw`-th live position after it, and, turning to the end
/// and redealing, the fresh stops (`draw - 1` and every `draw`-th after
/// it) and the last card; the steps from `c - 1` never meet a fresh stop.
/// A higher level `old` of its chain reaches the same but for the steps
/// below `old - 1`; a fresh stored state (level 255) reaches the fresh
/// stops and the last card only.
pub fn new_reach(game: &Game, st: &State, old: u8) -> Option<u128> {
    let draw = unlimited_draw(game)? as usize;
    if draw < 2 {
        return None;
    }
    let live = game.talon_live_bits(st);
    let (pos, _) = game.talon_state(st);
    let c = (live & mask(pos as usize)).count_ones() as usize;
    let left = live.count_ones() as usize;
    if c == 0 || c.is_multiple_of(draw) || c >= left {
        // A fresh state: not the lower level of an odd chain.
        return None;
    }
    // New: live positions `c - 1`, `c - 1 + draw`, ... below `end`.
    let end = if old == u8::MAX {
        left - 1
    } else {
        debug_assert!(old as usize > c && (old as usize - c).is_multiple_of(draw));
        (old as usize - 1).min(left - 1)
    };
    let mut new = 0u128;
    let mut p = 0usize;
    let mut rest = live;
    while rest != 0 && p < end {
        let i = rest.trailing_zeros();
        rest &= rest - 1;
        if p + 1 >= c && (p + 1 - c).is_multiple_of(draw) {
            new |= 1 << i;
        }
        p += 1;
    }
    Some(new)
}

/// The fingerprint of `st` with the talon's key part `talon_key`.
fn fingerprint_talon(game: &Game, st: &State, talon_key: [u8; 2]) -> u128 {
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
    buf[n + 2] = talon_key[0];
    buf[n + 3] = talon_key[1];
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
    // What the piles sort by: their byte strings, as compared.
    let pile_order = |p: usize| {
        let (d, cs) = pile_bytes(p);
        (d, cs.len(), cs)
    };
    if piles_interchangeable(game, st) {
        if rules.decks == 1 {
            // With one deck two piles that agree in face-down count,
            // length and bottom card are both empty, so those three bytes
            // order the piles as the whole byte strings do (ties are equal
            // piles); packed with the pile's number, they sort as `u32`s.
            let mut keys = [0u32; demon_core::rules::MAX_PILES];
            for (p, k) in keys.iter_mut().enumerate().take(piles) {
                let (d, cs) = pile_bytes(p);
                let bottom = cs.first().map_or(0, |c| u32::from(c.index()));
                *k = u32::from(d) << 24 | (cs.len() as u32) << 16 | bottom << 8 | p as u32;
            }
            keys[..piles].sort_unstable();
            for (o, k) in order.iter_mut().zip(&keys[..piles]) {
                *o = (k & 0xFF) as usize;
            }
        } else {
            // With two decks the piles sort by their whole byte strings.
            // Most differ within the first bytes: face-down count, length
            // and (piles being as long) their first five cards, packed
            // into a `u64` above the pile's number, sort as the strings
            // do up to ties in that prefix, which the full comparison
            // then settles (the order of equal strings does not matter).
            let mut keys = [0u64; demon_core::rules::MAX_PILES];
            for (p, k) in keys.iter_mut().enumerate().take(piles) {
                let (d, cs) = pile_bytes(p);
                let mut x = u64::from(d) << 56 | (cs.len() as u64) << 48;
                for (i, c) in cs.iter().take(5).enumerate() {
                    x |= u64::from(c.index()) << (40 - 8 * i);
                }
                *k = x | p as u64;
            }
            keys[..piles].sort_unstable();
            let full = |a: u64, b: u64| {
                pile_order((a & 0xFF) as usize).cmp(&pile_order((b & 0xFF) as usize))
            };
            let mut i = 0;
            while i < piles {
                let mut j = i + 1;
                while j < piles && keys[j] >> 8 == keys[i] >> 8 {
                    j += 1;
                }
                if j - i > 1 {
                    keys[i..j].sort_unstable_by(|&a, &b| full(a, b));
                }
                i = j;
            }
            for (o, k) in order.iter_mut().zip(&keys[..piles]) {
                *o = (k & 0xFF) as usize;
            }
        }
        // Either way, the order of the whole byte strings.
        debug_assert!(order[..piles]
            .windows(2)
            .all(|w| pile_order(w[0]) <= pile_order(w[1])));
    }
    for &p in &order[..piles] {
        let (d, cs) = pile_bytes(p);
        buf[n] = d;
        buf[n + 1] = cs.len() as u8;
        n += 2;
        // One bounds check a pile, not a card: a loop the compiler turns
        // into a copy.
        for (b, c) in buf[n..n + cs.len()].iter_mut().zip(cs) {
            *b = c.index();
        }
        n += cs.len();
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
                out.push(fingerprint_level(g, &c));
            }
        }
        out
    }

    /// The positions one search move leads to from `st` (as `children`),
    /// each with the talon index of the card a K+ play takes (`None` for
    /// the other moves).
    fn child_states(g: &Game, st: &State) -> Vec<(Option<usize>, State)> {
        let mut out = Vec::new();
        let mut reach: SmallVec<[Reach; 32]> = SmallVec::new();
        g.waste_reach(st, &mut reach);
        for m in g.legal_moves(st) {
            if matches!(
                m,
                Move::Deal
                    | Move::Redeal
                    | Move::Play {
                        from: Loc::Waste,
                        ..
                    }
            ) {
                continue;
            }
            let mut c = st.clone();
            g.play(&mut c, m);
            out.push((None, c));
        }
        for r in &reach {
            let mut v = st.clone();
            g.set_talon_state(&mut v, (r.pos, r.passes));
            for m in g.legal_moves(&v) {
                if let Move::Play {
                    from: Loc::Waste, ..
                } = m
                {
                    let mut c = v.clone();
                    g.play(&mut c, m);
                    out.push((Some(r.pos as usize - 1), c));
                }
            }
        }
        out
    }

    /// Random playouts of `seeds` deals (`steps` moves at most, the
    /// stock's included), calling `visit` at each position with every
    /// talon state it could have (a pass position one past a card still in
    /// the talon, or 0, in any pass the rules allow) as (fingerprint,
    /// level, state), sorted.
    fn talon_walk(
        g: GameKind,
        reading: Reading,
        o: RuleOverrides,
        seeds: u64,
        steps: usize,
        mut visit: impl FnMut(&Game, u64, usize, &[(u128, u8, State)]),
    ) {
        let rules = Rules::resolve(g, reading, &o).unwrap();
        let Stock::ToWaste { redeals, .. } = rules.stock else {
            panic!("{g}: not a stock dealt to the waste")
        };
        let max = match redeals {
            demon_core::rules::Redeals::Limited(k) => k,
            demon_core::rules::Redeals::Unlimited => 0,
        };
        for seed in 0..seeds {
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            let mut st = game.initial();
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for step in 0..steps {
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
                visit(&game, seed, step, &states);
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
    }

    /// The two shortcuts the search takes with unlimited redeals, checked
    /// along random playouts at every talon state a position could have
    /// (as in `check_simulation`):
    /// - [`new_reach`]: for two states of one key, the lower level's K+
    ///   plays that it leaves out are plays of the higher level's state
    ///   with the very same result (fingerprint and level);
    /// - [`fresh_cover`]: a fresh state's every move is matched by a move
    ///   of the same position in residue 2's chain whose result is the
    ///   same at a level no higher, or holds the first one's result in
    ///   residue 2's chain (the same shortcut again, one move on).
    ///
    /// Returns the plays left out and the fresh states covered.
    fn check_shortcuts(g: GameKind, o: RuleOverrides, seeds: u64) -> (usize, usize) {
        let (mut left_out, mut covered) = (0, 0);
        talon_walk(
            g,
            Reading::Standard,
            o,
            seeds,
            80,
            |game, seed, _, states| {
                let results = |v: &State| -> Vec<(Option<usize>, (u128, u8), State)> {
                    child_states(game, v)
                        .into_iter()
                        .map(|(i, c)| (i, fingerprint_level(game, &c), c))
                        .collect()
                };
                for (fa, la, a) in states {
                    for (fb, lb, b) in states {
                        if fa != fb || la >= lb {
                            continue;
                        }
                        let new = new_reach(game, a, *lb).expect("an odd state below another");
                        let theirs = results(b);
                        for (i, r, _) in results(a) {
                            let Some(i) = i.filter(|&i| new >> i & 1 == 0) else {
                                continue;
                            };
                            assert!(
                            theirs.iter().any(|(j, r2, _)| *j == Some(i) && *r2 == r),
                            "{g} seed {seed}: the play of talon card {i} from {:?} is not one of {:?}",
                            game.talon_state(a),
                            game.talon_state(b)
                        );
                            left_out += 1;
                        }
                    }
                }
                for (_, lf, f) in states {
                    let Some(k) = fresh_cover(game, f, *lf) else {
                        continue;
                    };
                    for (_, _, q) in states.iter().filter(|(fq, _, _)| *fq == k) {
                        let theirs = results(q);
                        for (_, (rf, rl), c) in results(f) {
                            let same = theirs.iter().any(|(_, (f2, l2), _)| *f2 == rf && *l2 <= rl);
                            let again = fresh_cover(game, &c, rl)
                                .is_some_and(|k2| theirs.iter().any(|(_, (f2, _), _)| *f2 == k2));
                            assert!(
                                same || again,
                                "{g} seed {seed}: a move of fresh {:?} is not matched from {:?}",
                                game.talon_state(f),
                                game.talon_state(q)
                            );
                        }
                        covered += 1;
                    }
                }
            },
        );
        (left_out, covered)
    }

    /// `st` with its piles in the order `perm` (pile `p` gets pile
    /// `perm[p]`'s cards), where no pile has face-down cards.
    fn permuted(g: &Game, st: &State, perm: &[usize]) -> State {
        let piles: Vec<Vec<demon_core::Card>> =
            perm.iter().map(|&q| g.pile(st, q).to_vec()).collect();
        let refs: Vec<&[demon_core::Card]> = piles.iter().map(|p| p.as_slice()).collect();
        let mut out = st.clone();
        g.rearrange_tableau(&mut out, &refs);
        out
    }

    /// Interchangeable piles in any order give one fingerprint, with one
    /// deck and with two (whose piles are ordered by a packed prefix and,
    /// on ties, whole: see `fingerprint_talon`), along random games of the
    /// games with no face-down tableau cards; and two piles alike in the
    /// packed prefix (face-down count, length and first five cards) but
    /// not in their last card give one fingerprint whichever comes first,
    /// and another than two copies of one of them.
    #[test]
    fn permuted_piles_have_one_fingerprint() {
        use demon_core::Card;
        let card = |s: &str| s.parse::<Card>().unwrap();
        let mut checked = 0;
        for g in [
            GameKind::Canfield,
            GameKind::AmericanToad,
            GameKind::VariegatedCanfield,
            GameKind::DoubleCanfield,
        ] {
            let rules = g.preset(Reading::Standard).unwrap();
            let piles = rules.piles as usize;
            let rev: Vec<usize> = (0..piles).rev().collect();
            let rot: Vec<usize> = (0..piles).map(|p| (p + 3) % piles).collect();
            for seed in 1..=8u64 {
                let game = Game::new(&rules, &Source::Native(seed).layout(&rules)).unwrap();
                let mut st = game.initial();
                let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for _ in 0..120 {
                    if piles_interchangeable(&game, &st) {
                        let fp = fingerprint(&game, &st);
                        assert_eq!(
                            fingerprint(&game, &permuted(&game, &st, &rev)),
                            fp,
                            "{g} {seed}"
                        );
                        assert_eq!(
                            fingerprint(&game, &permuted(&game, &st, &rot)),
                            fp,
                            "{g} {seed}"
                        );
                        checked += 1;
                    }
                    let moves = game.legal_moves(&st);
                    if moves.is_empty() {
                        break;
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    game.play(&mut st, moves[(x % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 2000, "{checked} positions checked");
        // Two piles with the same first five cards: the packed prefix ties,
        // and the whole piles decide. Double Easthaven's 24 tableau cards
        // (three a pile, two face down), with a stock dealt to the waste so
        // that the piles are interchangeable from the start.
        let o = RuleOverrides {
            stock_to_waste: Some(true),
            ..Default::default()
        };
        let rules = Rules::resolve(GameKind::DoubleEasthaven, Reading::Standard, &o).unwrap();
        let game = Game::new(&rules, &Source::Native(1).layout(&rules)).unwrap();
        let st = game.initial();
        assert!(piles_interchangeable(&game, &st));
        let a: Vec<Card> = ["KH", "QS", "JH", "TS", "9H", "8S"].map(card).to_vec();
        let b: Vec<Card> = ["KH", "QS", "JH", "TS", "9H", "8C"].map(card).to_vec();
        let rest: Vec<Vec<Card>> = (0..6)
            .map(|i| vec![card("2C"), card(["3D", "4S", "5H", "6C", "7D", "8H"][i])])
            .collect();
        let lay = |first: &[Card], second: &[Card]| {
            let mut piles: Vec<&[Card]> = vec![first, second];
            piles.extend(rest.iter().map(|p| p.as_slice()));
            let mut out = st.clone();
            game.rearrange_tableau(&mut out, &piles);
            fingerprint(&game, &out)
        };
        assert_eq!(lay(&a, &b), lay(&b, &a));
        assert_ne!(lay(&a, &b), lay(&a, &a));
    }

    #[test]
    fn unlimited_talon_shortcuts_are_exact() {
        use demon_core::rules::GroupMoves;
        let d = RuleOverrides::default;
        let cases = [
            (GameKind::Canfield, d()),
            (
                GameKind::Canfield,
                RuleOverrides {
                    group_moves: Some(GroupMoves::Any),
                    ..d()
                },
            ),
            (GameKind::SuperiorCanfield, d()),
            (GameKind::SelectiveCanfield, d()),
        ];
        for (g, o) in cases {
            let (left_out, covered) = check_shortcuts(g, o, 4);
            // Both shortcuts are met often on every deal.
            assert!(
                left_out > 100 && covered > 10,
                "{g}: {left_out} plays, {covered} states"
            );
        }
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
        let mut checked = 0;
        talon_walk(g, reading, o, seeds, 60, |game, seed, step, states| {
            let dominates = |a: &State, b: &State| {
                let ours = children(game, a);
                children(game, b)
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
        });
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
