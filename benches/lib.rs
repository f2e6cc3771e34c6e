//! Fixed deal sets for the solver benchmarks (`cargo bench -p demon-benches`).
//! Each set pins the verdict counts it must reproduce, so a benchmark can
//! never report a speed-up that came from a wrong answer.

use std::time::Instant;

use demon_core::rules::{EmptySpace, GroupMoves, TableauWrap};
use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};
use demon_solver::{solve_with, Limits, Options, Verdict};

/// What solving a set of deals gave.
pub struct SetRun {
    pub won: usize,
    pub lost: usize,
    /// The seeds left unknown, with the limit that stopped each.
    pub unknown: Vec<(u64, String)>,
    /// Nodes over the deals.
    pub nodes: u64,
    /// Wall time for the whole set.
    pub secs: f64,
    /// Peak memory, positions stored and table bytes of the deal that
    /// stored the most positions, for bytes per position.
    pub big_bytes: usize,
    pub big_stored: u64,
    pub big_table: usize,
}

/// Solves native seeds `seeds` under `rules`, one after the other.
pub fn run_set(
    rules: &Rules,
    seeds: std::ops::RangeInclusive<u64>,
    limits: &Limits,
    options: &Options,
) -> SetRun {
    let mut run = SetRun {
        won: 0,
        lost: 0,
        unknown: Vec::new(),
        nodes: 0,
        secs: 0.0,
        big_bytes: 0,
        big_table: 0,
        big_stored: 0,
    };
    let t = Instant::now();
    for seed in seeds {
        let out =
            solve_with(rules, &Source::Native(seed).layout(rules), limits, options).expect("solve");
        match out.verdict {
            Verdict::Won(_) => run.won += 1,
            Verdict::Lost => run.lost += 1,
            Verdict::Unknown(l) => run.unknown.push((seed, l.to_string())),
        }
        run.nodes += out.stats.nodes;
        if out.stats.stored > run.big_stored {
            (run.big_bytes, run.big_stored, run.big_table) = (
                out.stats.peak_memory,
                out.stats.stored,
                out.stats.table_bytes,
            );
        }
    }
    run.secs = t.elapsed().as_secs_f64();
    run
}

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

/// A set of native seeds solved under a node limit, where most deals of
/// the game cannot be decided exhaustively (the two-deck games: the
/// rollouts find the wins). Node limits make the outcome exact, so the set
/// pins the verdict counts and the nodes spent, and a change that makes
/// the search faster but different shows.
pub struct LimitedSet {
    pub name: &'static str,
    pub rules: Rules,
    pub seeds: std::ops::RangeInclusive<u64>,
    pub max_nodes: u64,
    pub won: usize,
    pub lost: usize,
    pub unknown: usize,
    /// Nodes over the set's deals (one thread).
    pub nodes: u64,
}

/// The two-deck sets of `cargo bench -p demon-benches --bench limited`,
/// with the counts of the commit whose last pass plays its waste's top
/// card up when safe (`results/2026-12-07-last-pass-safe-waste`). Its
/// parent, 3ff0b8c, won 6 of Variegated Canfield's 10 in 16,883,349 nodes
/// (`demon batch GAME --seeds A..B --max-nodes 2M --jobs 1 --max-memory
/// 2G`), and took Double Easthaven's 20 in 2,923,028 nodes, as this
/// commit does: the pins (6 won in 16,884,923 nodes, and 3,118,685) had
/// not been moved since the commit whose restarts start partway along the
/// best line, half of them. Before that (e399ac9, the restarts all
/// from the deal): American Toad 20 won in 900,841 nodes, Double
/// Easthaven 20 in 3,124,883, Variegated Canfield 3 won and 7 unknown in
/// 16,143,123. Before the restarts (1be6184): American Toad 20 won in
/// 1,268,605 nodes, Double Easthaven 20 in 3,119,642, Variegated Canfield
/// 2 won and 8 unknown in 16,914,258.
pub fn limited_sets() -> Vec<LimitedSet> {
    let preset = |g: GameKind| g.preset(Reading::Standard).unwrap();
    vec![
        LimitedSet {
            name: "american-toad seeds 1-20 at 2 M nodes",
            rules: preset(GameKind::AmericanToad),
            seeds: 1..=20,
            max_nodes: 2_000_000,
            won: 20,
            lost: 0,
            unknown: 0,
            nodes: 909_107,
        },
        LimitedSet {
            name: "double-easthaven seeds 1-20 at 2 M nodes",
            rules: preset(GameKind::DoubleEasthaven),
            seeds: 1..=20,
            max_nodes: 2_000_000,
            won: 20,
            lost: 0,
            unknown: 0,
            nodes: 2_923_028,
        },
        LimitedSet {
            name: "variegated-canfield seeds 1-10 at 2 M nodes",
            rules: preset(GameKind::VariegatedCanfield),
            seeds: 1..=10,
            max_nodes: 2_000_000,
            won: 4,
            lost: 0,
            unknown: 6,
            nodes: 18_122_169,
        },
    ]
}
