//! The deadlock test, checked position by position against the plain
//! reference search: along random playouts of small deals of every game
//! and every rule option, wherever [`dead`] calls a position lost, the
//! reference search must not find a win from it. Foundation moves are
//! favoured so that the playouts reach the middle and end game, where
//! deadlocks are.

mod common;

use common::variants;
use demon_core::{Game, GameKind, Loc, Move, Source, State};
use demon_solver::deadlock::dead;
use demon_solver::reference::reference_solve_from;

/// SplitMix64: a small, fixed random sequence for the playouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

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
    for (name, rules) in variants(g) {
        for seed in 0..seeds {
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0xDEAD);
            let mut st = game.initial();
            for step in 0..steps {
                if game.is_won(&st) {
                    break;
                }
                verify(
                    &game,
                    &st,
                    &mut t,
                    &format!("{name} seed {seed} step {step}"),
                );
                let moves = game.legal_moves(&st);
                if moves.is_empty() {
                    break;
                }
                let up: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        matches!(
                            m,
                            Move::Play {
                                to: Loc::Foundation(_),
                                ..
                            }
                        )
                    })
                    .collect();
                let m = if !up.is_empty() && rng.below(2) == 0 {
                    up[rng.below(up.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                game.play(&mut st, m);
            }
        }
    }
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
