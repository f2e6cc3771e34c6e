//! The deadlock test, checked position by position against the plain
//! reference search: along random playouts of small deals of every game
//! and every rule option, wherever [`dead`] calls a position lost, the
//! reference search must not find a win from it. Foundation moves are
//! favoured so that the playouts reach the middle and end game, where
//! deadlocks are.

mod common;

use common::playouts;
use demon_core::{Game, GameKind, State};
use demon_solver::deadlock::dead;
use demon_solver::reference::reference_solve_from;

/// Positions the reference search may visit per question.
const REFERENCE_NODES: usize = 20_000;

#[derive(Default, Debug)]
struct Tally {
    /// Positions visited by the playouts.
    positions: usize,
    /// Positions called dead that the reference search proved lost.
    dead_checked: usize,
    /// Positions called dead too big for the reference search.
    dead_skipped: usize,
}

fn check(g: GameKind, seeds: u64, steps: usize) -> Tally {
    let mut t = Tally::default();
    playouts(g, seeds, steps, 0xDEAD, |game, st, what| {
        verify(game, st, &mut t, what)
    });
    t
}

fn verify(game: &Game, st: &State, t: &mut Tally, what: &str) {
    t.positions += 1;
    if !dead(game, st) {
        return;
    }
    match reference_solve_from(game, st, REFERENCE_NODES) {
        None => t.dead_skipped += 1,
        Some(won) => {
            assert!(
                !won,
                "{what}: called dead, but the reference search wins\n{}\n{:?}",
                game.rules().signature(),
                game.position(st)
            );
            t.dead_checked += 1;
        }
    }
}

// The minimum counts are about half of those measured (100 steps of
// 150 seeds of every variant): a change that weakens the test fails.
macro_rules! family {
    ($name:ident, $g:expr, $seeds:expr, $min:expr) => {
        #[test]
        fn $name() {
            let t = check($g, $seeds, 100);
            println!("{}: {t:?}", $g);
            assert!(
                t.dead_checked >= $min,
                "only {} dead positions checked",
                t.dead_checked
            );
        }
    };
}

family!(canfield, GameKind::Canfield, 150, 10000);
family!(superior_canfield, GameKind::SuperiorCanfield, 150, 10000);
family!(double_canfield, GameKind::DoubleCanfield, 150, 2000);
family!(rainbow, GameKind::Rainbow, 150, 5000);
family!(selective_canfield, GameKind::SelectiveCanfield, 150, 10000);
family!(chameleon, GameKind::Chameleon, 150, 20000);
family!(storehouse, GameKind::Storehouse, 150, 1500);
family!(variegated_canfield, GameKind::VariegatedCanfield, 150, 600);
family!(american_toad, GameKind::AmericanToad, 150, 200);
family!(double_easthaven, GameKind::DoubleEasthaven, 150, 6000);
family!(easthaven, GameKind::Easthaven, 150, 10000);
