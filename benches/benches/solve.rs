//! Solver benchmark: solves each fixed deal set once, checks the verdict
//! counts, and prints time, nodes per second and bytes per stored position
//! (peak search memory over positions stored, for the set's largest search:
//! 16-byte entries plus the table's free slots and the search path), with
//! the search options `demon solve` uses for the set's rules, searched by
//! one thread and then by two ([`Options::threads`]; `seconds` are wall
//! time). Run with `cargo bench -p demon-benches`.

use std::time::Instant;

use demon_benches::sets;
use demon_core::Source;
use demon_solver::{solve_with, Limits, Options, Verdict};

fn main() {
    let limits = Limits {
        max_nodes: None,
        max_memory: 2 << 30,
        timeout: None,
    };
    println!(
        "{:<48} {:>7} {:>6} {:>6} {:>9} {:>9} {:>12} {:>10}",
        "set", "threads", "won", "lost", "total s", "mean s", "nodes/s", "B/position"
    );
    for (set, threads) in sets().iter().flat_map(|s| [(s, 1), (s, 2)]) {
        let options = Options {
            threads,
            ..Options::for_rules(&set.rules)
        };
        let (mut won, mut lost) = (0, 0);
        let mut nodes = 0u64;
        // The deal that stored the most positions, for bytes per position.
        let (mut big_bytes, mut big_stored) = (0usize, 0u64);
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
                Verdict::Unknown(l) => panic!("{}: seed {seed} undecided ({l})", set.name),
            }
            nodes += out.stats.nodes;
            if out.stats.stored > big_stored {
                (big_bytes, big_stored) = (out.stats.peak_memory, out.stats.stored);
            }
        }
        let secs = t.elapsed().as_secs_f64();
        let n = set.seeds.clone().count() as f64;
        println!(
            "{:<48} {:>7} {:>6} {:>6} {:>9.3} {:>9.4} {:>12.0} {:>10}",
            set.name,
            threads,
            won,
            lost,
            secs,
            secs / n,
            nodes as f64 / secs,
            big_bytes as u64 / big_stored.max(1)
        );
        assert_eq!(
            (won, lost),
            (set.won, set.lost),
            "{}: verdicts changed",
            set.name
        );
    }
}
