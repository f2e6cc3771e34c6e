//! Differential test of the game engine against the independent checker:
//! along random games of every rule set, both must offer the same legal
//! moves and reach the same positions, and undo must restore every state.

mod common;

use common::{rule_sets, Rng};
use demon_core::replay::{replay, Table};
use demon_core::{Game, Loc, Move, Source};

/// The checker names foundations by suit, not by index.
fn normalize(m: Move) -> Move {
    match m {
        Move::Play {
            from,
            to,
            count,
            card,
        } => {
            let f = |l: Loc| {
                if let Loc::Foundation(_) = l {
                    Loc::Foundation(0)
                } else {
                    l
                }
            };
            Move::Play {
                from: f(from),
                to: f(to),
                count,
                card,
            }
        }
        m => m,
    }
}

#[test]
fn engine_and_checker_agree_along_random_games() {
    let mut rng = Rng(42);
    let mut checked_moves = 0usize;
    let mut won_or_stuck = 0usize;
    for (name, rules) in rule_sets() {
        for seed in 0..12u64 {
            let layout = Source::Native(seed).layout(&rules);
            let game =
                Game::new(&rules, &layout).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
            let mut st = game.initial();
            let mut table = Table::new(&rules, &layout);
            let mut history = Vec::new();
            let mut states = vec![st.clone()];
            for step in 0..250 {
                assert_eq!(
                    game.position(&st),
                    table.position(),
                    "{name} seed {seed} step {step}"
                );
                let mut ours: Vec<Move> =
                    game.legal_moves(&st).into_iter().map(normalize).collect();
                let mut theirs = table.legal_moves();
                ours.sort();
                theirs.sort();
                assert_eq!(
                    ours, theirs,
                    "{name} seed {seed} step {step}: legal moves differ"
                );
                let moves = game.legal_moves(&st);
                if moves.is_empty() {
                    won_or_stuck += 1;
                    break;
                }
                // Prefer non-stock moves so that games go somewhere.
                let non_stock: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| matches!(m, Move::Play { .. } | Move::ChooseBase(_)))
                    .collect();
                let mv = if !non_stock.is_empty() && rng.below(3) > 0 {
                    non_stock[rng.below(non_stock.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                let u = game.play(&mut st, mv);
                table.apply(normalize(mv)).unwrap_or_else(|e| {
                    panic!("{name} seed {seed} step {step}: checker refused {mv:?}: {e}")
                });
                history.push((mv, u));
                states.push(st.clone());
                checked_moves += 1;
            }
            let moves: Vec<Move> = history.iter().map(|(m, _)| normalize(*m)).collect();
            let r = replay(&rules, &layout, &moves).unwrap();
            assert_eq!(r.won, game.is_won(&st));
            assert_eq!(r.foundation_cards, game.foundation_cards(&st));
            while let Some((mv, u)) = history.pop() {
                states.pop();
                game.undo(&mut st, mv, u);
                assert_eq!(
                    &st,
                    states.last().unwrap(),
                    "{name} seed {seed}: undo of {mv:?}"
                );
            }
        }
    }
    assert!(
        checked_moves > 100_000,
        "only {checked_moves} moves checked"
    );
    assert!(won_or_stuck > 0);
}

#[test]
fn replay_rejects_illegal_moves_with_their_number() {
    let rules = demon_core::GameKind::Canfield
        .preset(demon_core::Reading::Standard)
        .unwrap();
    let layout =
        Source::Pysolfc(demon_core::pysolfc::GameNumber::parse("1").unwrap()).layout(&rules);
    let c = |s: &str| demon_core::Card::parse(s).unwrap();
    // QC onto KH is legal; then KS onto QC is not (a King never goes on a Queen).
    let moves = [
        Move::Play {
            from: Loc::Reserve,
            to: Loc::Tableau(3),
            count: 1,
            card: c("QC"),
        },
        Move::Play {
            from: Loc::Tableau(0),
            to: Loc::Tableau(3),
            count: 1,
            card: c("KS"),
        },
    ];
    let e = replay(&rules, &layout, &moves).unwrap_err();
    assert_eq!(e.index, 2);
    assert_eq!(e.reason, "KS does not go on QC");
    let e = replay(&rules, &layout, &[Move::Redeal]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 1: redeal needs an empty stock and cards in the waste"
    );
    let ok = replay(&rules, &layout, &moves[..1]).unwrap();
    assert!(!ok.won);
    assert_eq!(ok.foundation_cards, 1);
}
