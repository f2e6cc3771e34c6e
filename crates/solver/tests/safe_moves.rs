//! The safe foundation moves, checked one by one against the plain
//! reference search: along random playouts of small deals of every game
//! and every rule option, wherever [`safe_move`] offers a move from a
//! position the reference search proves won, the position after the move
//! must be won too. This tests the dominance itself, at many more
//! positions (and deeper into games) than whole-deal verdicts reach.

mod common;

use common::playouts;
use demon_core::{Game, GameKind, Move, State};
use demon_solver::moves::safe_move;
use demon_solver::reference::reference_solve_from;

/// Positions the reference search may visit per question.
const REFERENCE_NODES: usize = 20_000;

#[derive(Default, Debug)]
struct Tally {
    /// Safe moves from won positions, checked.
    checked: usize,
    /// Safe moves from lost positions (nothing to check).
    from_lost: usize,
    /// Positions too big for the reference search.
    skipped: usize,
}

/// Random playouts of `g`'s variants; at every position with a safe move,
/// the check.
fn check(g: GameKind, seeds: u64, steps: usize) -> Tally {
    let mut t = Tally::default();
    playouts(g, seeds, steps, 0x5AFE, |game, st, what| {
        if let Some(m) = safe_move(game, st) {
            verify(game, st, m, &mut t, what);
        }
    });
    t
}

fn verify(game: &Game, st: &State, m: Move, t: &mut Tally, what: &str) {
    match reference_solve_from(game, st, REFERENCE_NODES) {
        None => t.skipped += 1,
        Some(false) => t.from_lost += 1,
        Some(true) => {
            let mut after: State = st.clone();
            game.play(&mut after, m);
            match reference_solve_from(game, &after, REFERENCE_NODES) {
                None => t.skipped += 1,
                Some(won) => {
                    assert!(
                        won,
                        "{what}: the safe move {m:?} loses a won position\n{}\n{}",
                        game.rules().signature(),
                        describe(game, st)
                    );
                    t.checked += 1;
                }
            }
        }
    }
}

/// The position, for a failure message.
fn describe(game: &Game, st: &State) -> String {
    let r = game.rules();
    let mut out = format!(
        "base {:?}; foundations {:?}; reserve {:?}; waste top {:?}; stock empty {}\n",
        game.base(st),
        (0..r.foundations())
            .map(|f| game.foundation_height(st, f))
            .collect::<Vec<_>>(),
        game.reserve(st),
        game.waste_top(st),
        game.stock_empty(st),
    );
    for p in 0..r.piles as usize {
        out += &format!(
            "pile {p}: {} down, {:?}\n",
            game.face_down(st, p),
            game.pile(st, p)
        );
    }
    out
}

macro_rules! family {
    ($name:ident, $g:expr, $seeds:expr) => {
        #[test]
        fn $name() {
            let t = check($g, $seeds, 60);
            println!("{}: {t:?}", $g);
            assert!(t.checked >= 200, "only {} safe moves checked", t.checked);
        }
    };
}

family!(canfield, GameKind::Canfield, 40);
family!(superior_canfield, GameKind::SuperiorCanfield, 40);
family!(double_canfield, GameKind::DoubleCanfield, 40);
family!(rainbow, GameKind::Rainbow, 40);
family!(selective_canfield, GameKind::SelectiveCanfield, 40);
family!(chameleon, GameKind::Chameleon, 40);
family!(storehouse, GameKind::Storehouse, 40);
family!(variegated_canfield, GameKind::VariegatedCanfield, 40);
family!(american_toad, GameKind::AmericanToad, 40);
family!(double_easthaven, GameKind::DoubleEasthaven, 40);
family!(easthaven, GameKind::Easthaven, 40);

/// The waste's top card where the stock is turned more than one card at a
/// time, which is safe to play up only in the last pass (see
/// `waste_top_is_a_stack_top` in `moves.rs`), checked on its own so that
/// the count shows the rule at work: the games with such a stock and a
/// limited number of redeals (and Canfield's variants with one).
#[test]
fn last_pass_waste_tops_turned_several_at_a_time() {
    use demon_core::rules::Stock;
    use demon_core::Loc;
    let mut t = Tally::default();
    for g in [
        GameKind::Canfield,
        GameKind::Rainbow,
        GameKind::Chameleon,
        GameKind::Storehouse,
        GameKind::VariegatedCanfield,
    ] {
        playouts(g, 40, 60, 0x5AFE, |game, st, what| {
            if !matches!(game.rules().stock, Stock::ToWaste { draw, .. } if draw > 1) {
                return;
            }
            if let Some(
                m @ Move::Play {
                    from: Loc::Waste, ..
                },
            ) = safe_move(game, st)
            {
                verify(game, st, m, &mut t, what);
            }
        });
    }
    println!("{t:?}");
    assert!(t.checked >= 100, "only {} safe moves checked", t.checked);
}
