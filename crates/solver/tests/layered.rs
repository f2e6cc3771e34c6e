//! The layered search (`demon_solver::layered`): its verdicts and counts
//! on real deals, with its table rebuilt or not, its wins, and its limits.
//! (Its verdicts against the reference search, on small deals of every
//! game and option: `differential.rs`.)

mod common;

use demon_core::{GameKind, Layout, Reading, RuleOverrides, Rules, Source};
use demon_solver::{solve_with, Limit, Limits, Options, Outcome, SolveError, Verdict};

fn preset(g: GameKind) -> Rules {
    g.preset(Reading::Standard).unwrap()
}

fn layered(table_bytes: Option<usize>) -> Options {
    Options {
        layered: true,
        table_bytes,
        ..Options::default()
    }
}

fn run(rules: &Rules, layout: &Layout, limits: &Limits, o: &Options) -> Outcome {
    solve_with(rules, layout, limits, o).unwrap()
}

fn memory(bytes: usize) -> Limits {
    Limits {
        max_memory: bytes,
        ..Limits::default()
    }
}

/// Lost deals: the layered search expands each of their positions once
/// (294,408 for Chameleon 723, 114,200 for Easthaven 8), with room for
/// all of them, with a table rebuilt from the levels not finished (the
/// smaller memories), and where the waiting levels do not fit beside the
/// level under way (1 MiB, the least `demon` accepts): the table forgets
/// some, and their files come to hold copies (more positions stored than
/// expanded), each passed over when taken. Every run of a deal meets the same table hits: a copy
/// passed over is the hit its push would have been. The depth-first
/// search agrees.
#[test]
fn a_rebuilt_table_forgets_only_what_it_may() {
    type Run = (usize, u64, u64);
    let deals: [(GameKind, u64, u64, u64, [Run; 3]); 2] = [
        (
            GameKind::Chameleon,
            723,
            294_408,
            397_711,
            [
                (256 << 20, 294_408, 0),
                (3 << 20, 294_408, 3),
                (1 << 20, 434_772, 38),
            ],
        ),
        (
            GameKind::Easthaven,
            8,
            114_200,
            102_807,
            [
                (256 << 20, 114_200, 0),
                (1_500 << 10, 114_200, 3),
                (1 << 20, 118_887, 7),
            ],
        ),
    ];
    for (game, seed, nodes, hits, runs) in deals {
        let rules = preset(game);
        let layout = Source::Native(seed).layout(&rules);
        let dfs = run(&rules, &layout, &memory(256 << 20), &Options::default());
        assert_eq!(dfs.verdict, Verdict::Lost);
        for (bytes, stored, rebuilds) in runs {
            let out = run(&rules, &layout, &memory(bytes), &layered(None));
            let what = format!("{game:?} {seed} in {bytes} bytes");
            assert_eq!(out.verdict, Verdict::Lost, "{what}");
            let s = &out.stats;
            assert_eq!(
                (s.nodes, s.stored, s.hits, s.rebuilds),
                (nodes, stored, hits, rebuilds),
                "{what}"
            );
            assert!(s.peak_memory <= bytes, "{what}: {s:?}");
        }
    }
}

/// A table too small for the waiting positions ends UNKNOWN (memory),
/// inside the limit; so does a node limit, at exactly its count.
#[test]
fn limits_stop_it_unknown() {
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(723).layout(&rules);
    let out = run(&rules, &layout, &memory(4 << 20), &layered(Some(256 << 10)));
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Memory(4 << 20)));
    assert!(out.stats.peak_memory <= 4 << 20, "{:?}", out.stats);
    let limits = Limits {
        max_nodes: Some(1_000),
        ..memory(64 << 20)
    };
    let out = run(&rules, &layout, &limits, &layered(None));
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(1_000)));
    assert_eq!(out.stats.nodes, 1_000);
}

/// Canfield on a deck of 6 ranks, seeds 1-40, at most 100,000 nodes:
/// where the layered search decides, the depth-first search agrees, and
/// each win, read back from the log, is the full move list, which `solve`
/// has replayed to a win (and which replays here too). It wins late: a
/// won deal's positions of lower levels all come first.
#[test]
fn a_win_is_read_back_from_the_log() {
    let rules = common::small(
        GameKind::Canfield,
        Reading::Standard,
        RuleOverrides::default(),
    )
    .unwrap();
    let limits = Limits {
        max_nodes: Some(100_000),
        ..memory(64 << 20)
    };
    let (mut won, mut lost) = (0, 0);
    for seed in 1..=40 {
        let layout = Source::Native(seed).layout(&rules);
        let out = run(&rules, &layout, &limits, &layered(None));
        let dfs = run(&rules, &layout, &memory(64 << 20), &Options::default());
        match (&out.verdict, &dfs.verdict) {
            (Verdict::Won(line), Verdict::Won(_)) => {
                won += 1;
                let r = demon_core::replay::replay(&rules, &layout, line).unwrap();
                assert!(r.won, "seed {seed}");
            }
            (Verdict::Lost, Verdict::Lost) => lost += 1,
            (Verdict::Unknown(Limit::Nodes(_)), _) => {}
            (a, b) => panic!("seed {seed}: layered {a:?}, depth-first {b:?}"),
        }
    }
    assert_eq!((won, lost), (5, 3));
}

/// With worrying back a card may leave a foundation, which lowers the
/// level: the layered search refuses such rules, saying why.
#[test]
fn worrying_back_is_refused() {
    let rules = Rules::resolve(
        GameKind::Canfield,
        Reading::Standard,
        &RuleOverrides {
            worrying_back: Some(true),
            ..RuleOverrides::default()
        },
    )
    .unwrap();
    let layout = Source::Native(1).layout(&rules);
    match solve_with(&rules, &layout, &memory(64 << 20), &layered(None)) {
        Err(SolveError::Unsupported(m)) => assert!(m.contains("worrying back"), "{m}"),
        other => panic!("{other:?}"),
    }
}
