//! The depth-first search from positions along the line that came nearest
//! a win, for experiments: FINDER (`restarts`, [`demon_solver::rollout`],
//! or `nrpa`, [`demon_solver::nrpa`]) plays PHASES phases of BUDGET moves
//! (random stream SEED), then, for each BACK,
//! the exhaustive search alone runs from the position BACK moves before
//! their best line's end, at most NODES nodes and MEM bytes.
//!
//! cargo run --release -p demon-solver --example endgame -- FINDER GAME DEAL BUDGET PHASES SEED NODES MEM BACK...
use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};
use demon_solver::nrpa::NrpaStream;
use demon_solver::rollout::Rollouts;
use demon_solver::search::{solve_after, Limits, Options, Verdict};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let nrpa = a[1] == "nrpa";
    let a = &a[1..];
    let kind = GameKind::from_name(&a[1]).expect("game");
    let deal: u64 = a[2].parse().unwrap();
    let budget: u64 = a[3].parse().unwrap();
    let phases: u32 = a[4].parse().unwrap();
    let seed: u64 = a[5].parse().unwrap();
    let nodes: u64 = a[6].parse().unwrap();
    let mem: usize = a[7].parse().unwrap();
    let backs: Vec<usize> = a[8..].iter().map(|x| x.parse().unwrap()).collect();
    let rules = Rules::resolve(kind, Reading::Standard, &RuleOverrides::default()).expect("rules");
    let layout = Source::Native(deal).layout(&rules);
    let g = demon_core::Game::new(&rules, &layout).expect("layout");
    let t = std::time::Instant::now();
    let line = if nrpa {
        let mut n = NrpaStream::new(&g, seed);
        for _ in 0..phases {
            if let Some(m) = n.phase(budget, None, None) {
                println!("deal {deal}: NRPA won ({} moves)", m.len());
                return;
            }
        }
        n.best_moves().expect("a best line")
    } else {
        let mut r = Rollouts::restarts(&g, 64 << 20, seed);
        for _ in 0..phases {
            if let Some(m) = r.phase(budget, None, None) {
                println!("deal {deal}: the restarts won ({} moves)", m.len());
                return;
            }
        }
        r.best_moves().expect("a best line")
    };
    let mut st = g.initial();
    for &m in &line {
        g.play(&mut st, m);
    }
    println!(
        "deal {deal}: best line {} moves, {} cards up, {} in the reserve, {} in the talon; {:.1} s",
        line.len(),
        g.foundation_cards(&st),
        g.reserve(&st).len(),
        g.stock(&st).len() + g.waste(&st).len(),
        t.elapsed().as_secs_f64()
    );
    for back in backs {
        let k = line.len().saturating_sub(back);
        let mut st = g.initial();
        for &m in &line[..k] {
            g.play(&mut st, m);
        }
        let up = g.foundation_cards(&st);
        let limits = Limits {
            max_nodes: Some(nodes),
            max_memory: mem,
            ..Limits::default()
        };
        let t1 = std::time::Instant::now();
        let out =
            solve_after(&rules, &layout, &line[..k], &limits, &Options::default()).expect("search");
        let v = match &out.verdict {
            Verdict::Won(m) => format!("WON ({} moves)", m.len()),
            Verdict::Lost => "lost below".to_string(),
            Verdict::Unknown(_) => "unknown".to_string(),
        };
        println!(
            "  back {back} (move {k}, {up} up): {v}, {} nodes, {} stored, most up {}, {:.1} s",
            out.stats.nodes,
            out.stats.stored,
            out.stats.most_up,
            t1.elapsed().as_secs_f64()
        );
    }
}
