//! The cache of recently met states ([`demon_solver::recent`]) answers
//! only what the table would: with it and without it a search expands
//! the same nodes, stores the same positions and counts the same hits,
//! on real deals of one and two decks, lost, won and stopped by a limit,
//! with one search path and with many.

mod common;

use demon_core::{GameKind, Reading, Rules, Source};
use demon_solver::{solve_with, Limits, Options, Outcome, Verdict};

fn outcome(rules: &Rules, seed: u64, recent: bool, cursors: usize) -> Outcome {
    let limits = Limits {
        max_nodes: Some(300_000),
        max_memory: 256 << 20,
        timeout: None,
    };
    let o = Options {
        recent,
        cursors,
        ..Options::for_rules(rules)
    };
    solve_with(rules, &Source::Native(seed).layout(rules), &limits, &o).unwrap()
}

#[test]
fn the_same_search_with_and_without() {
    let published = common::published();
    let preset = |g: GameKind| g.preset(Reading::Standard).unwrap();
    let (mut won, mut lost, mut unknown, mut hits) = (0, 0, 0, 0u64);
    for (rules, seeds) in [
        (published, 1..=30u64),
        (preset(GameKind::SuperiorCanfield), 1..=6),
        (preset(GameKind::DoubleCanfield), 1..=4),
        (preset(GameKind::Chameleon), 1..=6),
        (preset(GameKind::Storehouse), 1..=6),
    ] {
        for seed in seeds {
            for cursors in [1, Options::default().cursors] {
                let with = outcome(&rules, seed, true, cursors);
                let without = outcome(&rules, seed, false, cursors);
                let what = format!("{} seed {seed}, {cursors} cursors", rules.signature());
                assert_eq!(with.verdict, without.verdict, "{what}");
                let (a, b) = (with.stats, without.stats);
                assert_eq!(
                    (
                        a.nodes,
                        a.stored,
                        a.hits,
                        a.auto_moves,
                        a.slept,
                        a.merged,
                        a.dead
                    ),
                    (
                        b.nodes,
                        b.stored,
                        b.hits,
                        b.auto_moves,
                        b.slept,
                        b.merged,
                        b.dead
                    ),
                    "{what}"
                );
                hits += a.hits;
                match with.verdict {
                    Verdict::Won(_) => won += 1,
                    Verdict::Lost => lost += 1,
                    Verdict::Unknown(_) => unknown += 1,
                }
            }
        }
    }
    println!("{won} won, {lost} lost, {unknown} unknown; {hits} table hits");
    assert!(
        won > 0 && lost > 0 && unknown > 0,
        "{won} won, {lost} lost, {unknown} unknown"
    );
}
