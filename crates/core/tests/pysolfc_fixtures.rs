//! PySolFC deals, checked against golden fixtures made by
//! `scripts/gen_pysolfc_fixtures.py` with the `pysol-cards` package: the
//! dealing order of each game number, and the layout PySolFC's own
//! `startGame` lays out for that game.

use demon_core::card::join;
use demon_core::format::tableau_text;
use demon_core::pysolfc::GameNumber;
use demon_core::{Game, GameKind, Layout, Reading, Source};

fn or_dash(s: String) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

fn check_game(g: GameKind) -> usize {
    let path = format!(
        "{}/tests/fixtures/pysolfc/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        g.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rules = g.preset(Reading::Pysolfc).unwrap();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 6, "{path}: {line}");
        let num = GameNumber::parse(f[0]).unwrap();
        let src = Source::Pysolfc(num);
        let seq = src.sequence(&rules);
        assert_eq!(join(&seq), f[1], "{g} #{num}: dealing order");
        let l: Layout = src.layout(&rules);
        assert_eq!(
            or_dash(join(&l.foundations)),
            f[2],
            "{g} #{num}: foundations"
        );
        assert_eq!(or_dash(join(&l.reserve)), f[3], "{g} #{num}: reserve");
        assert_eq!(tableau_text(&l.tableau), f[4], "{g} #{num}: tableau");
        assert_eq!(join(&l.stock), f[5], "{g} #{num}: stock");
        Game::new(&rules, &l).unwrap();
        n += 1;
    }
    n
}

#[test]
fn every_pysolfc_game_matches_its_fixtures() {
    let mut report = Vec::new();
    for g in GameKind::ALL
        .into_iter()
        .filter(|g| g.pysolfc_id().is_some())
    {
        let n = check_game(g);
        assert!(n >= 200, "{g}: only {n} fixtures");
        report.push(format!("{g}: {n}"));
    }
    println!("PySolFC fixtures passed: {}", report.join(", "));
}

#[test]
fn mandatory_numbers_are_in_the_fixtures() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/pysolfc/canfield.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let nums: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    for want in ["1", "2", "31999", "32000", "123456", "12345678901234567890"] {
        assert!(nums.contains(&want), "fixture lacks #{want}");
    }
}
