//! Nested rollouts alone on a range of native seeds ([`demon_solver::rollout`]),
//! for tuning: phases of BUDGET moves, at most PHASES of them.
//!
//! cargo run --release -p demon-solver --example nested -- GAME FIRST LAST BUDGET PHASES [restarts] [pysolfc] [any] [RANKS]
//!
//! `restarts`: the level-1 restarts, each with its own noise, instead of
//! the ladder of levels. A deal they do not win gets a second line: where
//! their best line ends (cards up, cards left in the reserve, the stock
//! and the waste).
use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let g = GameKind::from_name(&a[1]).expect("game");
    let first: u64 = a[2].parse().unwrap();
    let last: u64 = a[3].parse().unwrap();
    let budget: u64 = a[4].parse().unwrap();
    let phases: u32 = a[5].parse().unwrap();
    let mut o = RuleOverrides::default();
    let mut reading = Reading::Standard;
    let mut restarts = false;
    for x in &a[6..] {
        if x == "restarts" {
            restarts = true;
        } else if x == "pysolfc" {
            reading = Reading::Pysolfc;
        } else if x == "any" {
            o.group_moves = Some(demon_core::rules::GroupMoves::Any);
        } else {
            o.ranks = Some(x.parse().unwrap());
        }
    }
    let rules = Rules::resolve(g, reading, &o).expect("rules");
    let t = std::time::Instant::now();
    let mut won = vec![];
    let mut total = 0u64;
    for seed in first..=last {
        let layout = Source::Native(seed).layout(&rules);
        let t1 = std::time::Instant::now();
        let (f, n, level, end) = demon_solver::rollout::rollouts_alone_best(
            &rules,
            &layout,
            restarts,
            64 << 20,
            budget,
            phases,
        );
        total += n;
        println!(
            "seed {seed}: {:?} moves {n} {} {level} {:.2}s",
            f,
            if restarts { "restart" } else { "level" },
            t1.elapsed().as_secs_f64()
        );
        if let Some(e) = end {
            println!(
                "seed {seed}: best line {} steps, value {}, {} cards up, {} left in the reserve, {} in the stock and waste",
                e.steps, e.value, e.foundation, e.reserve, e.talon
            );
        }
        if f.is_some() {
            won.push(seed);
        }
    }
    println!(
        "won {} of {}: {:?}; moves {total}; {:.1} s",
        won.len(),
        last - first + 1,
        won,
        t.elapsed().as_secs_f64()
    );
}
