//! Runs the best-first probe alone on a range of native seeds, for tuning
//! its position value ([`demon_solver::Weights`]). Prints the deals won.
//!
//! cargo run --release -p demon-solver --example probe -- GAME FIRST LAST BUDGET [weight=value ...] [rules=pysolfc]
//! weights: found, reserve, down, empty, unbuilt, blocked, pass, pos, newest (0|1)

use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};
use demon_solver::{probe, Weights};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let g = GameKind::from_name(&a[1]).expect("game");
    let first: u64 = a[2].parse().unwrap();
    let last: u64 = a[3].parse().unwrap();
    let budget: u64 = a[4].parse().unwrap();
    let mut w = Weights::default();
    let mut reading = Reading::Standard;
    for kv in &a[5..] {
        let (k, v) = kv.split_once('=').expect("weight=value");
        if k == "rules" {
            reading = Reading::Pysolfc;
            continue;
        }
        let v: i32 = v.parse().expect("number");
        match k {
            "found" => w.found = v,
            "reserve" => w.reserve = v,
            "down" => w.down = v,
            "empty" => w.empty = v,
            "unbuilt" => w.unbuilt = v,
            "blocked" => w.blocked = v,
            "pass" => w.pass = v,
            "pos" => w.pos = v,
            "newest" => w.newest_first = v != 0,
            _ => panic!("unknown weight {k}"),
        }
    }
    let rules = Rules::resolve(g, reading, &RuleOverrides::default()).expect("rules");
    let (mut won, mut nodes, mut len) = (0, 0u64, 0usize);
    let mut seeds = Vec::new();
    let t = std::time::Instant::now();
    for seed in first..=last {
        let layout = Source::Native(seed).layout(&rules);
        let (found, n) = probe(&rules, &layout, budget, 2 << 30, &w);
        nodes += n;
        if let Some(l) = found {
            won += 1;
            len += l;
            seeds.push(seed);
        }
    }
    println!(
        "{} {first}..{last} budget {budget} {w:?}: won {won}, mean nodes {:.0}, mean length {:.0}, {:.1} s",
        g.name(),
        nodes as f64 / (last - first + 1) as f64,
        len as f64 / won.max(1) as f64,
        t.elapsed().as_secs_f64()
    );
    println!("won: {seeds:?}");
}
