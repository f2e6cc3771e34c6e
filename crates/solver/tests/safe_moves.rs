//! The safe foundation moves, checked one by one against the plain
//! reference search: along random playouts of small deals of every game
//! and every rule option, wherever [`safe_move`] offers a move from a
//! position the reference search proves won, the position after the move
//! must be won too. This tests the dominance itself, at many more
//! positions (and deeper into games) than whole-deal verdicts reach.

mod common;

use common::variants;
use demon_core::{Game, GameKind, Loc, Move, Source, State};
use demon_solver::reference::reference_solve_from;
use demon_solver::search::safe_move;

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
    /// Safe moves from won positions, checked.
    checked: usize,
    /// Safe moves from lost positions (nothing to check).
    from_lost: usize,
    /// Positions too big for the reference search.
    skipped: usize,
}

/// Random playouts of `g`'s variants; at every position with a safe move,
/// the check. Foundation moves are favoured so that the playouts reach
/// the middle game, where most safe moves are.
fn check(g: GameKind, seeds: u64, steps: usize) -> Tally {
    let mut t = Tally::default();
    for (name, rules) in variants(g) {
        for seed in 0..seeds {
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5AFE);
            let mut st = game.initial();
            for step in 0..steps {
                if game.is_won(&st) {
                    break;
                }
                if let Some(m) = safe_move(&game, &st) {
                    verify(
                        &game,
                        &st,
                        m,
                        &mut t,
                        &format!("{name} seed {seed} step {step}"),
                    );
                }
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
