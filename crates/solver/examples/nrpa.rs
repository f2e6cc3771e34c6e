//! NRPA alone ([`demon_solver::nrpa`]) on native seeds, for tuning.
//!
//! cargo run --release -p demon-solver --example nrpa -- GAME LEVEL MAX_MOVES SEED...
use demon_core::{Game, GameKind, Reading, RuleOverrides, Rules, Source};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let kind = GameKind::from_name(&a[1]).expect("game");
    let level: u32 = a[2].parse().unwrap();
    let max: u64 = a[3].parse().unwrap();
    let rules = Rules::resolve(kind, Reading::Standard, &RuleOverrides::default()).expect("rules");
    let mut params = demon_solver::nrpa::Params::default();
    if let Ok(x) = std::env::var("TAU") {
        let (a, b) = x.split_once(',').unwrap();
        params.taus = [a.parse().unwrap(), b.parse().unwrap()];
    }
    if let Ok(x) = std::env::var("ITER") {
        params.iterations = x.parse().unwrap();
    }
    params.pass = std::env::var("PASS").is_ok();
    if let Ok(x) = std::env::var("STAB") {
        params.stab = x.parse().unwrap();
    }
    println!("{params:?}");
    let mut won = vec![];
    let t = std::time::Instant::now();
    for s in &a[4..] {
        let seed: u64 = s.parse().unwrap();
        let layout = Source::Native(seed).layout(&rules);
        let g = Game::new(&rules, &layout).expect("layout");
        let t1 = std::time::Instant::now();
        let rng = std::env::var("RNG").map_or(seed, |x| x.parse().unwrap());
        let e = demon_solver::nrpa::nrpa_alone(&g, level, max, rng, params);
        let ok = e
            .won
            .as_ref()
            .map(|m| demon_core::replay::replay(&rules, &layout, m).is_ok_and(|x| x.won));
        assert_ne!(ok, Some(false), "seed {seed}: the win does not replay");
        if ok == Some(true) {
            won.push(seed);
        }
        println!(
            "seed {seed}: won {} nodes {} best {} runs {} {:.2}s",
            ok.is_some(),
            e.nodes,
            e.best,
            e.runs,
            t1.elapsed().as_secs_f64()
        );
    }
    println!(
        "won {} of {}: {won:?}; {:.1}s",
        won.len(),
        a.len() - 4,
        t.elapsed().as_secs_f64()
    );
}
