//! Two-deck benchmark: solves each fixed deal set under its node limit, one
//! thread, with the search options `demon solve` uses for the rules (the
//! rollouts and best-first probes take most of the nodes), checks the
//! verdict counts and the nodes spent, and prints time and nodes per
//! second. Run with `cargo bench -p demon-benches --bench limited`.

use demon_benches::{limited_sets, run_set};
use demon_solver::{Limits, Options};

fn main() {
    println!(
        "{:<48} {:>6} {:>6} {:>8} {:>12} {:>9} {:>9} {:>12}",
        "set", "won", "lost", "unknown", "nodes", "total s", "mean s", "nodes/s"
    );
    let mut changed = Vec::new();
    for set in limited_sets() {
        let limits = Limits {
            max_nodes: Some(set.max_nodes),
            max_memory: 2 << 30,
            timeout: None,
        };
        let options = Options::for_rules(&set.rules);
        let run = run_set(&set.rules, set.seeds.clone(), &limits, &options);
        let (won, lost, unknown, nodes, secs) =
            (run.won, run.lost, run.unknown.len(), run.nodes, run.secs);
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
        if (won, lost, unknown, nodes) != (set.won, set.lost, set.unknown, set.nodes) {
            changed.push(format!(
                "{}: {won} won / {lost} lost / {unknown} unknown in {nodes} nodes, pinned {} / {} / {} in {}",
                set.name, set.won, set.lost, set.unknown, set.nodes
            ));
        }
    }
    // Every set runs before the check, so that one run shows every change.
    assert!(
        changed.is_empty(),
        "outcome changed:\n{}",
        changed.join("\n")
    );
}
