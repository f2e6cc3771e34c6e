//! Two-deck benchmark: solves each fixed deal set under its node limit, one
//! thread, with the search options `demon solve` uses for the rules (the
//! rollouts and best-first probes take most of the nodes), checks the
//! verdict counts and the nodes spent, and prints time and nodes per
//! second. Run with `cargo bench -p demon-benches --bench limited`.

use std::time::Instant;

use demon_benches::limited_sets;
use demon_core::Source;
use demon_solver::{solve_with, Limits, Options, Verdict};

fn main() {
    println!(
        "{:<48} {:>6} {:>6} {:>8} {:>12} {:>9} {:>9} {:>12}",
        "set", "won", "lost", "unknown", "nodes", "total s", "mean s", "nodes/s"
    );
    for set in limited_sets() {
        let limits = Limits {
            max_nodes: Some(set.max_nodes),
            max_memory: 2 << 30,
            timeout: None,
        };
        let options = Options::for_rules(&set.rules);
        let (mut won, mut lost, mut unknown) = (0, 0, 0);
        let mut nodes = 0u64;
        let t = Instant::now();
        for seed in set.seeds.clone() {
            let out = solve_with(
                &set.rules,
                &Source::Native(seed).layout(&set.rules),
                &limits,
                &options,
            )
            .expect("solve");
            match out.verdict {
                Verdict::Won(_) => won += 1,
                Verdict::Lost => lost += 1,
                Verdict::Unknown(_) => unknown += 1,
            }
            nodes += out.stats.nodes;
        }
        let secs = t.elapsed().as_secs_f64();
        let n = set.seeds.clone().count() as f64;
        println!(
            "{:<48} {:>6} {:>6} {:>8} {:>12} {:>9.3} {:>9.4} {:>12.0}",
            set.name,
            won,
            lost,
            unknown,
            nodes,
            secs,
            secs / n,
            nodes as f64 / secs
        );
        assert_eq!(
            (won, lost, unknown, nodes),
            (set.won, set.lost, set.unknown, set.nodes),
            "{}: outcome changed",
            set.name
        );
    }
}
