//! Helpers shared by the integration tests.
#![allow(dead_code)]

use demon_core::rules::{Build, EmptySpace, GroupMoves, Redeals, TableauWrap};
use demon_core::{GameKind, Reading, RuleOverrides, Rules};

/// A small deterministic generator (xorshift64*), so tests need no RNG crate
/// and never change meaning.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every preset, both readings where they exist, and a spread of rule
/// variants that change one or more dimensions at a time.
pub fn rule_sets() -> Vec<(String, Rules)> {
    let mut v = Vec::new();
    for g in GameKind::ALL {
        for reading in [Reading::Standard, Reading::Pysolfc] {
            if let Ok(r) = g.preset(reading) {
                v.push((format!("{g}/{reading:?}"), r));
            }
        }
    }
    let mut rng = Rng(0x5eed);
    let groups = [
        GroupMoves::Top,
        GroupMoves::Whole,
        GroupMoves::Pile,
        GroupMoves::Any,
    ];
    let empties = [
        EmptySpace::ReserveThenAny,
        EmptySpace::ReserveThenWaste,
        EmptySpace::Any,
    ];
    let builds = [Build::AltColour, Build::Suit, Build::AnySuit];
    let mut tries = 0;
    while v.len() < 100 && tries < 10_000 {
        tries += 1;
        let g = GameKind::ALL[rng.below(GameKind::ALL.len())];
        let o = RuleOverrides {
            group_moves: Some(groups[rng.below(4)]),
            empty_space: Some(empties[rng.below(3)]),
            build: Some(builds[rng.below(3)]),
            tableau_wrap: Some(
                [TableauWrap::No, TableauWrap::KingOnAce, TableauWrap::AtBase][rng.below(3)],
            ),
            worrying_back: Some(rng.below(2) == 0),
            draw: [None, Some(1), Some(3)][rng.below(3)],
            redeals: [
                None,
                Some(Redeals::Unlimited),
                Some(Redeals::Limited(0)),
                Some(Redeals::Limited(1)),
            ][rng.below(4)],
            ..Default::default()
        };
        if let Ok(r) = Rules::resolve(g, Reading::Standard, &o) {
            v.push((format!("{g}+{}", r.signature()), r));
        }
    }
    v
}
