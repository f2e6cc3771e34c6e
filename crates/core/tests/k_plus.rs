//! The K+ stock view (`Game::waste_reach`) against the literal stock:
//! the cards it lists are exactly those that turning the stock (and
//! redealing) brings to the top of the waste, each at the fewest redeals.

mod common;

use std::collections::{HashMap, VecDeque};

use common::{rule_sets, Rng};
use demon_core::{Game, Move, Source};
use smallvec::SmallVec;

#[test]
fn waste_reach_lists_exactly_the_reachable_waste_tops() {
    let mut rng = Rng(7);
    let mut checked = 0;
    for (name, rules) in rule_sets() {
        if !matches!(rules.stock, demon_core::rules::Stock::ToWaste { .. }) {
            continue;
        }
        for seed in 0..6u64 {
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            let mut st = game.initial();
            for _ in 0..60 {
                // BFS over talon states using only Deal and Redeal.
                let mut best: HashMap<u8, u8> = HashMap::new(); // talon pos -> fewest redeals made
                let mut q = VecDeque::from([st.clone()]);
                let mut seen = vec![game.talon_state(&st)];
                while let Some(s) = q.pop_front() {
                    let (pos, passes) = game.talon_state(&s);
                    if game.waste_top(&s).is_some() {
                        let e = best.entry(pos).or_insert(passes);
                        *e = (*e).min(passes);
                    }
                    for mv in game.legal_moves(&s) {
                        if matches!(mv, Move::Deal | Move::Redeal) {
                            let mut s2 = s.clone();
                            game.play(&mut s2, mv);
                            if !seen.contains(&game.talon_state(&s2)) {
                                seen.push(game.talon_state(&s2));
                                q.push_back(s2);
                            }
                        }
                    }
                }
                let mut reach = SmallVec::new();
                game.waste_reach(&st, &mut reach);
                let got: HashMap<u8, u8> = reach.iter().map(|r| (r.pos, r.passes)).collect();
                assert_eq!(got.len(), reach.len(), "{name}: duplicate reach");
                assert_eq!(got, best, "{name} seed {seed}");
                for r in &reach {
                    let moves = game.stock_moves_between(&st, (r.pos, r.passes));
                    assert_eq!(moves.len(), r.turns as usize, "{name}");
                    let mut s2 = st.clone();
                    for m in moves {
                        game.try_play(&mut s2, m).unwrap();
                    }
                    assert_eq!(game.waste_top(&s2), Some(r.card));
                    checked += 1;
                }
                let moves = game.legal_moves(&st);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                game.play(&mut st, mv);
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
