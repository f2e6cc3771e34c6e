//! The search under relaxed rules ([`demon_solver::relax`]) against the
//! plain reference search, on small deals of the games whose stock is
//! dealt onto the tableau only while no pile is empty (Double Easthaven,
//! Easthaven), with some of their options changed.
//!
//! Two claims are checked. The relaxation allows every line of play of the
//! rules: a deal the reference search wins under the rules it wins under
//! the relaxation too. And the solver, running the relaxation's search
//! first (`relax_from` 0), reaches the reference's verdict under the
//! rules, whether the relaxation proves the loss, finds a win legal under
//! the rules, or finds a win that is not (and leaves the deal to the rest
//! of the search).

mod common;

use common::small;
use demon_core::rules::{Build, GroupMoves};
use demon_core::{Game, GameKind, Layout, Reading, RuleOverrides, Rules, Source};
use demon_solver::reference::reference_solve;
use demon_solver::relax::relaxation;
use demon_solver::{solve_with, Finder, Limits, Options, Verdict};

/// The rule sets: each game's small preset, and a few options changed.
fn rule_sets() -> Vec<(String, Rules)> {
    let mut v = Vec::new();
    for g in [GameKind::DoubleEasthaven, GameKind::Easthaven] {
        let d = RuleOverrides::default;
        let mut add = |name: String, o: RuleOverrides| {
            if let Some(r) = small(g, Reading::Standard, o) {
                assert!(relaxation(&r).is_some(), "{name}");
                v.push((name, r));
            }
        };
        add(format!("{g}"), d());
        add(
            format!("{g} 5 piles"),
            RuleOverrides {
                piles: Some(5),
                ..d()
            },
        );
        add(
            format!("{g} whole"),
            RuleOverrides {
                group_moves: Some(GroupMoves::Whole),
                ..d()
            },
        );
        add(
            format!("{g} top"),
            RuleOverrides {
                group_moves: Some(GroupMoves::Top),
                ..d()
            },
        );
        add(
            format!("{g} in suit"),
            RuleOverrides {
                build: Some(Build::Suit),
                ..d()
            },
        );
    }
    v
}

/// Seeds 0-59 of each rule set that the reference search decides under
/// the rules (100,000 positions): the name of the deal, its rules and
/// layout, and whether it is won.
fn decided_deals() -> Vec<(String, Rules, Layout, bool)> {
    let mut v = Vec::new();
    for (name, rules) in rule_sets() {
        for seed in 0..60u64 {
            let layout = Source::Native(seed).layout(&rules);
            if let Some(won) = reference_solve(&Game::new(&rules, &layout).unwrap(), 100_000) {
                v.push((format!("{name} seed {seed}"), rules.clone(), layout, won));
            }
        }
    }
    v
}

#[test]
fn the_relaxation_wins_every_deal_the_rules_win() {
    // (won under both, lost under both, won only under the relaxation)
    let mut n = [0usize; 3];
    for (what, rules, layout, won) in decided_deals() {
        let relaxed = relaxation(&rules).unwrap();
        let Some(won_relaxed) = reference_solve(&Game::new(&relaxed, &layout).unwrap(), 100_000)
        else {
            continue;
        };
        assert!(
            won_relaxed || !won,
            "{what}: won under the rules, lost under the relaxation"
        );
        n[if won {
            0
        } else if won_relaxed {
            2
        } else {
            1
        }] += 1;
    }
    println!("{n:?}");
    assert_eq!(
        n,
        [571, 26, 0],
        "deals: won under both, lost under both, won only relaxed"
    );
}

#[test]
fn the_relaxed_search_reaches_the_reference_verdict() {
    let limits = Limits {
        max_nodes: Some(1_000_000),
        max_memory: 256 << 20,
        timeout: None,
    };
    let o = Options {
        relax_from: 0,
        ..Options::default()
    };
    // (lost by the relaxation, won by it, decided by the rest of the search)
    let mut n = [0usize; 3];
    for (what, rules, layout, want) in decided_deals() {
        let out = solve_with(&rules, &layout, &limits, &o).unwrap();
        let got = match out.verdict {
            Verdict::Won(_) => true,
            Verdict::Lost => false,
            Verdict::Unknown(l) => panic!("{what}: undecided ({l})"),
        };
        assert_eq!(got, want, "{what}: won={got}, reference says won={want}");
        let relaxed = out.stats.found_by == Some(Finder::Relaxed);
        if relaxed {
            // It ran first: nothing else had searched.
            assert_eq!(out.stats.nodes, out.stats.relaxed_nodes, "{what}");
        }
        n[match (relaxed, got) {
            (true, false) => 0,
            (true, true) => 1,
            (false, _) => 2,
        }] += 1;
    }
    println!("{n:?}");
    assert_eq!(
        n,
        [26, 450, 121],
        "lost by the relaxation, won by it, by the rest"
    );
}

#[test]
fn the_relaxed_search_takes_its_turns_beside_the_rollouts() {
    // A full Double Easthaven deal, the relaxation from the pause at
    // 400,000 nodes on, 2.5 M nodes in all: the rollouts still run (their
    // memory is set aside beside the relaxation's), and at each pause from
    // then on the relaxed search is brought to half of the others' nodes,
    // within what the node limit leaves.
    let rules = Rules::resolve(
        GameKind::DoubleEasthaven,
        Reading::Standard,
        &RuleOverrides::default(),
    )
    .unwrap();
    let layout = Source::Native(101).layout(&rules);
    let limits = Limits {
        max_nodes: Some(2_500_000),
        max_memory: 256 << 20,
        timeout: None,
    };
    let o = Options {
        relax_from: 400_000,
        ..Options::for_rules(&rules)
    };
    let out = solve_with(&rules, &layout, &limits, &o).unwrap();
    assert!(
        matches!(out.verdict, Verdict::Unknown(_)),
        "{:?}",
        out.verdict
    );
    let s = out.stats;
    assert!(s.rollout_nodes > 0);
    assert!(s.relaxed_nodes > 0);
    assert!(s.relaxed_nodes <= (s.nodes - s.relaxed_nodes) / 2, "{s:?}");
    // At the pause the others had had 2.25 M nodes (2 M of them the
    // rollouts'): the relaxed search was due 1.125 M, and the limit left
    // it 250,000.
    assert_eq!(
        (s.nodes, s.rollout_nodes, s.relaxed_nodes),
        (2_500_000, 2_000_000, 250_000),
        "{s:?}"
    );
    // Without it, nothing is relaxed.
    let off = Options { relax: false, ..o };
    let limits = Limits {
        max_nodes: Some(500_000),
        ..limits
    };
    let out = solve_with(&rules, &layout, &limits, &off).unwrap();
    assert_eq!(out.stats.relaxed_nodes, 0);
    assert!(out.stats.rollout_nodes > 0);
}
