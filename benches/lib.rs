//! Fixed deal sets for the solver benchmarks (`cargo bench -p demon-benches`).
//! Each set pins the verdict counts it must reproduce, so a benchmark can
//! never report a speed-up that came from a wrong answer.

use demon_core::rules::{EmptySpace, GroupMoves, TableauWrap};
use demon_core::{GameKind, Reading, RuleOverrides, Rules};

/// A named set of native seeds under one rule set, with the expected number
/// of won and lost deals.
pub struct DealSet {
    pub name: &'static str,
    pub rules: Rules,
    pub seeds: std::ops::RangeInclusive<u64>,
    pub won: usize,
    pub lost: usize,
}

pub fn sets() -> Vec<DealSet> {
    let published = RuleOverrides {
        group_moves: Some(GroupMoves::Any),
        empty_space: Some(EmptySpace::ReserveThenAny),
        ..Default::default()
    };
    let solvitaire = RuleOverrides {
        group_moves: Some(GroupMoves::Any),
        tableau_wrap: Some(TableauWrap::AtBase),
        ..Default::default()
    };
    vec![
        DealSet {
            name: "canfield (Solvitaire's rules) seeds 41-60",
            rules: Rules::resolve(GameKind::Canfield, Reading::Standard, &solvitaire).unwrap(),
            seeds: 41..=60,
            won: 14,
            lost: 6,
        },
        DealSet {
            name: "canfield (any, reserve-then-any) seeds 1-40",
            rules: Rules::resolve(GameKind::Canfield, Reading::Standard, &published).unwrap(),
            seeds: 1..=40,
            won: 35,
            lost: 5,
        },
        DealSet {
            name: "canfield (standard) seeds 1-40",
            rules: GameKind::Canfield.preset(Reading::Standard).unwrap(),
            seeds: 1..=40,
            won: 35,
            lost: 5,
        },
        DealSet {
            name: "easthaven seeds 1-40",
            rules: GameKind::Easthaven.preset(Reading::Standard).unwrap(),
            seeds: 1..=40,
            won: 26,
            lost: 14,
        },
        DealSet {
            name: "storehouse (pysolfc) seeds 1-40",
            rules: GameKind::Storehouse.preset(Reading::Pysolfc).unwrap(),
            seeds: 1..=40,
            won: 18,
            lost: 22,
        },
    ]
}
