//! The beam search alone ([`demon_solver::beam`]) on native seeds, for
//! tuning. Weights from the environment (`W_FOUND`, `W_RESERVE`, `W_DOWN`,
//! `W_UNBUILT`, `W_BLOCKED`, `W_PASS`, `W_POS`, `W_LOW`), else the beam's.
//!
//! cargo run --release -p demon-solver --example beam -- GAME FIRST_WIDTH[xGROWTH] MAX_NODES MEMORY_MIB SEED...
use demon_core::{Game, GameKind, Reading, RuleOverrides, Rules, Source};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let kind = GameKind::from_name(&a[1]).expect("game");
    let (width, growth) = match a[2].split_once('x') {
        Some((w, g)) => (w.parse().unwrap(), g.parse().unwrap()),
        None => (a[2].parse().unwrap(), 4),
    };
    let max: u64 = a[3].parse().unwrap();
    let memory: usize = a[4].parse::<usize>().unwrap() << 20;
    let rules = Rules::resolve(kind, Reading::Standard, &RuleOverrides::default()).expect("rules");
    let mut w = demon_solver::beam::weights();
    let env = |k: &str, v: &mut i32| {
        if let Ok(x) = std::env::var(k) {
            *v = x.parse().unwrap();
        }
    };
    env("W_FOUND", &mut w.found);
    env("W_RESERVE", &mut w.reserve);
    env("W_DOWN", &mut w.down);
    env("W_UNBUILT", &mut w.unbuilt);
    env("W_BLOCKED", &mut w.blocked);
    env("W_PASS", &mut w.pass);
    env("W_POS", &mut w.pos);
    env("W_LOW", &mut w.low);
    println!("{w:?}");
    let mut won = vec![];
    let t = std::time::Instant::now();
    let mut total = 0;
    for s in &a[5..] {
        let seed: u64 = s.parse().unwrap();
        let layout = Source::Native(seed).layout(&rules);
        let g = Game::new(&rules, &layout).expect("layout");
        let t1 = std::time::Instant::now();
        let e = demon_solver::beam::beams_alone(&g, (width, growth), max, memory, w);
        total += e.nodes;
        let ok = e
            .won
            .as_ref()
            .map(|m| demon_core::replay::replay(&rules, &layout, m).is_ok_and(|x| x.won));
        assert_ne!(
            ok,
            Some(false),
            "seed {seed}: the beam's win does not replay"
        );
        if ok == Some(true) {
            won.push(seed);
        }
        println!(
            "seed {seed}: won {} nodes {} beams ended {} bytes {} {:.2}s",
            ok.is_some(),
            e.nodes,
            e.ended,
            e.bytes,
            t1.elapsed().as_secs_f64()
        );
    }
    println!(
        "won {} of {}: {won:?}; nodes {total}; {:.1}s",
        won.len(),
        a.len() - 5,
        t.elapsed().as_secs_f64()
    );
}
