//! Solves a range of native seeds of one game and prints one CSV row per
//! deal and a summary on stderr. Used for recorded runs under `results/`
//! until `demon batch` exists.
//!
//! cargo run --release -p demon-solver --example sweep -- GAME FIRST LAST TIMEOUT_S [option=value ...]
//! options: group-moves=any|whole|pile|top, empty=reserve-then-any|reserve-then-waste|any,
//! tableau-wrap=yes|no|base, rules=pysolfc, classes=on|off (tableau classes, on by default)

use std::time::Duration;

use demon_core::rules::{EmptySpace, GroupMoves};
use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};
use demon_solver::{solve_with, Limits, Options, Verdict};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let g = GameKind::from_name(&a[1]).expect("game");
    let first: u64 = a[2].parse().unwrap();
    let last: u64 = a[3].parse().unwrap();
    let timeout: f64 = a[4].parse().unwrap();
    let mut o = RuleOverrides::default();
    let mut reading = Reading::Standard;
    let mut options = Options::default();
    for kv in &a[5..] {
        let (k, v) = kv.split_once('=').expect("option=value");
        match (k, v) {
            ("group-moves", "any") => o.group_moves = Some(GroupMoves::Any),
            ("group-moves", "whole") => o.group_moves = Some(GroupMoves::Whole),
            ("group-moves", "pile") => o.group_moves = Some(GroupMoves::Pile),
            ("group-moves", "top") => o.group_moves = Some(GroupMoves::Top),
            ("empty", "reserve-then-any") => o.empty_space = Some(EmptySpace::ReserveThenAny),
            ("empty", "reserve-then-waste") => o.empty_space = Some(EmptySpace::ReserveThenWaste),
            ("empty", "any") => o.empty_space = Some(EmptySpace::Any),
            ("rules", "pysolfc") => reading = Reading::Pysolfc,
            ("classes", "on") => options.tableau_classes = true,
            ("classes", "off") => options.tableau_classes = false,
            ("tableau-wrap", "base") => {
                o.tableau_wrap = Some(demon_core::rules::TableauWrap::AtBase)
            }
            ("tableau-wrap", "yes") => {
                o.tableau_wrap = Some(demon_core::rules::TableauWrap::KingOnAce)
            }
            ("tableau-wrap", "no") => o.tableau_wrap = Some(demon_core::rules::TableauWrap::No),
            _ => panic!("unknown option {kv}"),
        }
    }
    let rules = Rules::resolve(g, reading, &o).expect("rules");
    let mem: usize = std::env::var("DEMON_MEM_MB")
        .ok()
        .map_or(4096, |v| v.parse().unwrap());
    let limits = Limits {
        max_nodes: None,
        max_memory: mem << 20,
        timeout: Some(Duration::from_secs_f64(timeout)),
    };
    println!("game,rules,seed,verdict,solution_moves,nodes,stored,seconds,limit");
    let (mut won, mut lost, mut unk) = (0, 0, 0);
    let mut times = Vec::new();
    let mut nodes = 0u64;
    let mut stored = 0u64;
    let mut peak = 0usize;
    for seed in first..=last {
        let layout = Source::Native(seed).layout(&rules);
        let out = solve_with(&rules, &layout, &limits, &options).expect("solve");
        let s = out.stats;
        let (v, len, lim) = match &out.verdict {
            Verdict::Won(m) => {
                won += 1;
                ("won", m.len(), String::new())
            }
            Verdict::Lost => {
                lost += 1;
                ("lost", 0, String::new())
            }
            Verdict::Unknown(l) => {
                unk += 1;
                ("unknown", 0, l.to_string())
            }
        };
        times.push(s.elapsed.as_secs_f64());
        nodes += s.nodes;
        stored += s.stored;
        peak = peak.max(s.peak_memory);
        println!(
            "{},\"{}\",{seed},{v},{len},{},{},{:.4},{lim}",
            g.name(),
            rules.signature(),
            s.nodes,
            s.stored,
            s.elapsed.as_secs_f64()
        );
    }
    let n = times.len() as f64;
    let total: f64 = times.iter().sum();
    let max = times.iter().cloned().fold(0.0, f64::max);
    eprintln!(
        "{g}: {n} deals: won {won} lost {lost} unknown {unk}; mean {:.4} s, max {:.3} s; {:.0} nodes/s; mean nodes {:.0}; peak table {} MiB",
        total / n,
        max,
        nodes as f64 / total,
        nodes as f64 / n,
        peak >> 20
    );
    let _ = stored;
}
