//! The layered search ([`demon_solver::layered`]) on native seeds, with
//! its level histogram: for measuring how many positions it holds.
//!
//! cargo run --release -p demon-solver --example layered -- GAME MEMORY_MIB SEED...
use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};
use demon_solver::{solve_with, Limits, Options};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let kind = GameKind::from_name(&a[1]).expect("game");
    let memory: usize = a[2].parse::<usize>().unwrap() << 20;
    let rules = Rules::resolve(kind, Reading::Standard, &RuleOverrides::default()).expect("rules");
    let options = Options {
        layered: true,
        ..Options::default()
    };
    let limits = Limits {
        max_memory: memory,
        ..Limits::default()
    };
    for s in &a[3..] {
        let seed: u64 = s.parse().unwrap();
        let layout = Source::Native(seed).layout(&rules);
        let out = solve_with(&rules, &layout, &limits, &options).expect("solve");
        let st = out.stats;
        println!(
            "seed {seed}: {} nodes {} stored {} hits {} dead {} peak {:.1} MiB {:.2}s",
            match &out.verdict {
                demon_solver::Verdict::Won(m) => format!("won ({} moves)", m.len()),
                v => format!("{v:?}"),
            },
            st.nodes,
            st.stored,
            st.hits,
            st.dead,
            st.peak_memory as f64 / (1u64 << 20) as f64,
            st.elapsed.as_secs_f64()
        );
    }
}
