//! Solver benchmark: solves each fixed deal set once, checks the verdict
//! counts, and prints time, nodes per second and bytes per stored position
//! for the set's largest search: its table's bytes over its positions
//! (16-byte entries plus the table's free slots; about 17 in a full table,
//! up to twice that just after it doubled), and its peak search memory
//! over its positions (the search paths too), with
//! the search options `demon solve` uses for the set's rules, searched by
//! one thread and then by two ([`Options::threads`]; `seconds` are wall
//! time). Run with `cargo bench -p demon-benches`.

use demon_benches::{run_set, sets};
use demon_solver::{Limits, Options};

fn main() {
    let limits = Limits {
        max_nodes: None,
        max_memory: 2 << 30,
        timeout: None,
    };
    println!(
        "{:<48} {:>7} {:>6} {:>6} {:>9} {:>9} {:>12} {:>10} {:>10}",
        "set", "threads", "won", "lost", "total s", "mean s", "nodes/s", "table B/p", "peak B/p"
    );
    for (set, threads) in sets().iter().flat_map(|s| [(s, 1), (s, 2)]) {
        let options = Options {
            threads,
            ..Options::for_rules(&set.rules)
        };
        let run = run_set(&set.rules, set.seeds.clone(), &limits, &options);
        if let Some((seed, limit)) = run.unknown.first() {
            panic!("{}: seed {seed} undecided ({limit})", set.name);
        }
        let (won, lost, secs) = (run.won, run.lost, run.secs);
        let n = set.seeds.clone().count() as f64;
        println!(
            "{:<48} {:>7} {:>6} {:>6} {:>9.3} {:>9.4} {:>12.0} {:>10.1} {:>10.1}",
            set.name,
            threads,
            won,
            lost,
            secs,
            secs / n,
            run.nodes as f64 / secs,
            run.big_table as f64 / run.big_stored.max(1) as f64,
            run.big_bytes as f64 / run.big_stored.max(1) as f64
        );
        assert_eq!(
            (won, lost),
            (set.won, set.lost),
            "{}: verdicts changed",
            set.name
        );
    }
}
