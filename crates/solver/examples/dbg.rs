use demon_core::{Game, GameKind, Reading, RuleOverrides, Rules, Source};
use demon_solver::reference::reference_solve;
use demon_solver::{solve, Limits, Verdict};
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let g = GameKind::from_name(&a[1]).unwrap();
    let n: u64 = a[2].parse().unwrap();
    let ranks: u8 = a[3].parse().unwrap();
    let reserve: u8 = a[4].parse().unwrap();
    let piles: Option<u8> = a.get(5).map(|x| x.parse().unwrap());
    let draw: Option<u8> = a.get(6).map(|x| x.parse().unwrap());
    let r = Rules::resolve(
        g,
        Reading::Standard,
        &RuleOverrides {
            ranks: Some(ranks),
            reserve: Some(reserve),
            piles,
            draw,
            redeals: draw.map(|_| demon_core::rules::Redeals::Limited(0)),
            ..Default::default()
        },
    )
    .unwrap();
    let (mut won, mut lost, mut skip, mut unk) = (0, 0, 0, 0);
    let t0 = Instant::now();
    let mut tref = 0.0;
    for seed in 0..n {
        let l = Source::Native(seed).layout(&r);
        let game = Game::new(&r, &l).unwrap();
        let t = Instant::now();
        let want = reference_solve(&game, 100_000);
        tref += t.elapsed().as_secs_f64();
        let o = solve(
            &r,
            &l,
            &Limits {
                max_nodes: Some(500_000),
                max_memory: 256 << 20,
                timeout: None,
            },
        )
        .unwrap();
        match (want, o.verdict) {
            (None, _) => skip += 1,
            (_, Verdict::Unknown(_)) => unk += 1,
            (Some(w), Verdict::Won(_)) => {
                assert!(w, "seed {seed}");
                won += 1
            }
            (Some(w), Verdict::Lost) => {
                assert!(!w, "seed {seed}");
                lost += 1
            }
        }
    }
    println!("{g} ranks {ranks} reserve {reserve}: won {won} lost {lost} skip {skip} fast-unknown {unk}; total {:.2}s ref {:.2}s", t0.elapsed().as_secs_f64(), tref);
}
