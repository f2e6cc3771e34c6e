//! Searching one deal with several threads ([`Options::threads`]): the
//! verdicts of one thread on real deals, work handed between the threads,
//! and every limit stopping all of them. (The differential tests compare
//! two threads with the reference search on small deals of every game.)

mod common;

use common::published;
use demon_core::replay::replay;
use demon_core::{Rules, Source};
use demon_solver::{solve_with, Limit, Limits, Options, Outcome, Verdict};

fn limits(max_nodes: Option<u64>) -> Limits {
    Limits {
        max_nodes,
        max_memory: 512 << 20,
        timeout: None,
    }
}

fn two(rules: &Rules, seed: u64, limits: &Limits, o: Options) -> Outcome {
    let layout = Source::Native(seed).layout(rules);
    let o = Options { threads: 2, ..o };
    solve_with(rules, &layout, limits, &o).unwrap()
}

/// Lost deals of 0.09-0.33 M nodes are lost with two threads as with
/// one, and the second thread took part: it was handed work, and the
/// table holds about the positions one thread stores (classes and sleep
/// sets make the stored set depend a little on the order of the search).
/// (Seeds 110 and 117, used here before, are lost at the deal since the
/// stack bound's pile tops, and 718 since its choice of heights.)
#[test]
fn lost_deals_stay_lost_with_work_handed_over() {
    let rules = published();
    let o = Options::for_rules(&rules);
    for seed in [142u64, 596, 759] {
        let layout = Source::Native(seed).layout(&rules);
        let one = solve_with(&rules, &layout, &limits(None), &o).unwrap();
        assert_eq!(one.verdict, Verdict::Lost, "seed {seed}, one thread");
        let out = two(&rules, seed, &limits(None), o);
        assert_eq!(out.verdict, Verdict::Lost, "seed {seed}, two threads");
        assert!(out.stats.handed > 0, "seed {seed}: nothing handed over");
        let (a, b) = (one.stats.stored as f64, out.stats.stored as f64);
        assert!(
            (b / a - 1.0).abs() < 0.01,
            "seed {seed}: {a} against {b} stored"
        );
    }
}

/// Won deals are won with two threads, with a line the checker replays
/// to a win (whichever thread found it).
#[test]
fn won_deals_are_won() {
    let rules = published();
    for seed in [68u64, 100, 159, 188, 275] {
        let out = two(&rules, seed, &limits(None), Options::for_rules(&rules));
        let Verdict::Won(line) = out.verdict else {
            panic!("seed {seed}: {:?}", out.verdict)
        };
        let layout = Source::Native(seed).layout(&rules);
        assert!(replay(&rules, &layout, &line).unwrap().won, "seed {seed}");
    }
}

/// A node limit stops both threads near it (each adds its count every
/// 4,096 nodes), a time limit and a memory limit stop them too, each
/// reported as such. Seed 765 is lost in 53.8 M nodes.
#[test]
fn limits_stop_every_thread() {
    let rules = published();
    let o = Options::for_rules(&rules);
    let out = two(&rules, 765, &limits(Some(300_000)), o);
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(300_000)));
    assert!(out.stats.handed > 0);
    assert!(
        (300_000..300_000 + 3 * 4096).contains(&out.stats.nodes),
        "{} nodes",
        out.stats.nodes
    );
    let timed = Limits {
        timeout: Some(std::time::Duration::from_millis(300)),
        ..limits(None)
    };
    let out = two(&rules, 765, &timed, o);
    assert!(
        matches!(out.verdict, Verdict::Unknown(Limit::Time(_))),
        "{:?}",
        out.verdict
    );
    let small = Limits {
        max_memory: 8 << 20,
        ..limits(None)
    };
    let out = two(&rules, 765, &small, o);
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Memory(8 << 20)));
    assert!(
        out.stats.peak_memory <= 8 << 20,
        "{} bytes",
        out.stats.peak_memory
    );
}

/// A search that forgets positions runs on one thread.
#[test]
fn forgetting_runs_on_one_thread() {
    let rules = published();
    let o = Options {
        replace_when_full: true,
        ..Options::for_rules(&rules)
    };
    let out = two(&rules, 50, &limits(None), o);
    assert_eq!(out.verdict, Verdict::Lost);
    assert_eq!(out.stats.handed, 0);
}

/// The rollouts run beside a search of two threads too (with their own
/// memory, set aside from the start, though a best-first probe never has
/// room there): American Toad 58, unknown at 1,000,000 nodes without
/// rollouts and won by them after 183,183 rollout moves on one thread
/// (`tests/rollouts.rs`), is won with two threads, by the rollouts. (They
/// were left out with the probes before: the two threads ended unknown.)
#[test]
fn rollouts_run_beside_two_threads() {
    let rules = demon_core::GameKind::AmericanToad
        .preset(demon_core::Reading::Standard)
        .unwrap();
    let out = two(
        &rules,
        58,
        &limits(Some(1_000_000)),
        Options::for_rules(&rules),
    );
    let Verdict::Won(line) = out.verdict else {
        panic!("{:?}", out.verdict)
    };
    assert!(out.stats.rollout_nodes > 0);
    let layout = Source::Native(58).layout(&rules);
    assert!(replay(&rules, &layout, &line).unwrap().won);
}
