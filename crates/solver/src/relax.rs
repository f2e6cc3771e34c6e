//! Relaxations: rule sets under which every line of play of a game's
//! rules is still a line of play, with more besides, and in which the
//! search prunes more.
//!
//! A deal is lost if it is lost under a relaxation `R'` of its rules `R`:
//! the two games have the same deal, the same positions and the same
//! goal, and every move legal in a position under `R` is legal there under
//! `R'` with the same result, so a winning line under `R` would be one
//! under `R'`. A win under `R'` says nothing about `R` unless its every
//! move is legal under `R` too (then it is a win under `R`, and the
//! independent checker replays it under `R` like any other).
//!
//! The one relaxation used: where a stock dealt onto the tableau may be
//! dealt only while no pile is empty (Double Easthaven, Easthaven), `R'`
//! deals it at any time (`--deal-when-empty yes`). Under `R'` the deal's
//! own rule adds a move where a pile is empty and changes no other. It
//! pays because `R` cannot play safe foundation moves while its stock has
//! cards ([`crate::moves::safe_move`]: a card the winning line keeps, or
//! moves into a space, may be the one that lets it deal), and `R'` can:
//! Double Easthaven 101, unknown under `R` after 150 M nodes of the
//! depth-first search (115 M positions stored), is lost under `R'` in
//! 9.0 M nodes (6.7 M positions), where the safe moves and the dead-end
//! test cut the search short.

use demon_core::rules::Stock;
use demon_core::Rules;

/// The relaxation of `rules` that the search also tries (see the module
/// comment), or `None` where there is none worth searching: with worrying
/// back no safe move is played under either, so `R'` would only be larger.
pub fn relaxation(rules: &Rules) -> Option<Rules> {
    match rules.stock {
        Stock::ToTableau {
            only_when_no_empty: true,
        } if !rules.worrying_back => Some(Rules {
            stock: Stock::ToTableau {
                only_when_no_empty: false,
            },
            ..rules.clone()
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::relaxation;
    use demon_core::rules::Stock;
    use demon_core::{GameKind, Reading, RuleOverrides, Rules};

    fn rules(g: GameKind, reading: Reading, o: RuleOverrides) -> Rules {
        Rules::resolve(g, reading, &o).unwrap()
    }

    #[test]
    fn only_a_stock_that_waits_for_the_piles_is_relaxed() {
        let d = RuleOverrides::default;
        for g in [GameKind::DoubleEasthaven, GameKind::Easthaven] {
            let r = rules(g, Reading::Standard, d());
            let x = relaxation(&r).expect("a stock dealt only when no pile is empty");
            assert_eq!(
                x.stock,
                Stock::ToTableau {
                    only_when_no_empty: false
                }
            );
            // Nothing else changes.
            assert_eq!(
                Rules {
                    stock: r.stock,
                    ..x.clone()
                },
                r
            );
            // Dealt at any time already, or with worrying back: none.
            let any_time = RuleOverrides {
                deal_only_when_no_empty: Some(false),
                ..d()
            };
            assert_eq!(relaxation(&rules(g, Reading::Standard, any_time)), None);
            let worry = RuleOverrides {
                worrying_back: Some(true),
                ..d()
            };
            assert_eq!(relaxation(&rules(g, Reading::Standard, worry)), None);
        }
        // Easthaven as PySolFC plays it deals at any time, with worrying back.
        assert_eq!(
            relaxation(&rules(GameKind::Easthaven, Reading::Pysolfc, d())),
            None
        );
        for g in GameKind::ALL {
            if !matches!(g, GameKind::DoubleEasthaven | GameKind::Easthaven) {
                assert_eq!(relaxation(&rules(g, Reading::Standard, d())), None, "{g}");
            }
        }
    }
}
