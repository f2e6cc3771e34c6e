//! Position-table benchmark: random fingerprints inserted into a table
//! with a 4 GiB budget, as a long search fills it, timed per 25 M
//! insertions. What it measures is memory latency: each insertion lands on
//! a random bucket of a table far larger than the processor's caches (and,
//! without huge pages, than the reach of its TLB). Insertions are cheaper
//! than a search's nodes, so the figures bound the table's share of a
//! search's time. Run with `cargo bench -p demon-benches --bench table`
//! (about 1.5 minutes; it holds 4 GiB).

use std::time::Instant;

use demon_solver::table::FingerprintSet;

const BUDGET: usize = 4 << 30;
const INSERTS: u64 = 200_000_000;
const BLOCK: u64 = 25_000_000;

fn main() {
    let mut t = FingerprintSet::with_budget(BUDGET);
    // A 128-bit linear congruential sequence: distinct, uniform enough,
    // and the same on every run.
    let mut x: u128 = 0x1234_5678_9ABC_DEF0_1122_3344_5566_7788;
    let start = Instant::now();
    let mut block = start;
    println!(
        "{:>12} {:>10} {:>14} {:>12}",
        "inserted", "block s", "inserts/s", "stored"
    );
    for i in 1..=INSERTS {
        x = x
            .wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645)
            .wrapping_add(0x5851_F42D_4C95_7F2D_1405_7B7E_F767_814F);
        t.insert_level(x | 1, 0);
        if i % BLOCK == 0 {
            let s = block.elapsed().as_secs_f64();
            println!(
                "{i:>12} {s:>10.2} {:>14.0} {:>12}",
                BLOCK as f64 / s,
                t.len()
            );
            block = Instant::now();
        }
    }
    println!(
        "total {:.2} s, {} positions in {} bytes ({:.1} bytes each)",
        start.elapsed().as_secs_f64(),
        t.len(),
        t.bytes(),
        t.bytes() as f64 / t.len() as f64
    );
}
