//! Perft counts from fixed deals of every game, kept in `data/perft.txt`.
//!
//! The counts pin move generation: any change to it changes a number. The
//! engine's counts at shallow depth are also recomputed with the
//! independent checker's move generator, so the data file is not merely
//! "whatever the engine said once". Regenerate after a deliberate rules
//! change with `DEMON_BLESS=1 cargo test -p demon-core --test perft`.

use demon_core::perft::perft;
use demon_core::pysolfc::GameNumber;
use demon_core::replay::Table;
use demon_core::{Game, GameKind, Layout, Reading, Rules, Source};

/// Counts go deeper until they pass this many sequences (or `MAX_DEPTH`).
const ENOUGH: u64 = 200_000;
const MAX_DEPTH: u32 = 14;
/// The checker, which clones its table per move, recounts up to this size.
const CHECKER_ENOUGH: u64 = 20_000;

fn cases() -> Vec<(String, Rules, Layout)> {
    let mut v = Vec::new();
    for g in GameKind::ALL {
        let r = g.preset(Reading::Standard).unwrap();
        for seed in [1u64, 2] {
            v.push((
                format!("{g} standard seed {seed}"),
                r.clone(),
                Source::Native(seed).layout(&r),
            ));
        }
        if let Ok(r) = g.preset(Reading::Pysolfc) {
            let l = Source::Pysolfc(GameNumber::parse("1").unwrap()).layout(&r);
            v.push((format!("{g} pysolfc #1"), r, l));
        }
    }
    v
}

fn checker_perft(t: &Table, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    t.legal_moves()
        .into_iter()
        .map(|m| {
            let mut t2 = t.clone();
            t2.apply(m).unwrap();
            checker_perft(&t2, depth - 1)
        })
        .sum()
}

fn line(name: &str, counts: &[u64]) -> String {
    let c: Vec<String> = counts.iter().map(|n| n.to_string()).collect();
    format!("{name}: {}", c.join(" "))
}

#[test]
fn perft_counts_match_the_data_file() {
    let path = format!("{}/tests/data/perft.txt", env!("CARGO_MANIFEST_DIR"));
    let mut lines = vec![format!(
        "# perft counts: move sequences of length 1, 2, … from fixed deals (demon's literal move rules), up to the first count above {ENOUGH}.\n# Regenerate: DEMON_BLESS=1 cargo test -p demon-core --test perft"
    )];
    for (name, rules, layout) in cases() {
        let game = Game::new(&rules, &layout).unwrap();
        let mut st = game.initial();
        let mut counts: Vec<u64> = Vec::new();
        for d in 1..=MAX_DEPTH {
            counts.push(perft(&game, &mut st, d));
            if *counts.last().unwrap() > ENOUGH {
                break;
            }
        }
        assert_eq!(st, game.initial(), "{name}: perft left the state changed");
        let table = Table::new(&rules, &layout);
        for (d, &n) in counts
            .iter()
            .enumerate()
            .take_while(|&(_, &n)| n <= CHECKER_ENOUGH)
        {
            assert_eq!(
                checker_perft(&table, d as u32 + 1),
                n,
                "{name}: checker disagrees at depth {}",
                d + 1
            );
        }
        lines.push(line(&name, &counts));
    }
    let text = lines.join("\n") + "\n";
    if std::env::var_os("DEMON_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .expect("tests/data/perft.txt (run with DEMON_BLESS=1 to create)");
    assert_eq!(
        text, want,
        "perft counts changed; if the rules change is deliberate, re-bless"
    );
}
