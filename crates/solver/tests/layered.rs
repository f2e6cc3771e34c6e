//! The layered search (`demon_solver::layered`): its verdicts and counts
//! on real deals, with its table rebuilt or not, its wins, and its limits.
//! (Its verdicts against the reference search, on small deals of every
//! game and option: `differential.rs`.)

mod common;

use demon_core::{GameKind, Layout, Reading, RuleOverrides, Rules, Source};
// What a layered search counts may reach under a memory limit: a
// sixty-fourth less, kept for what the process holds beyond its count.
use demon_solver::layered::counted_most;
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
/// but the dead ends, which are tested when first stored and go to no
/// level's file (227,482 positions expanded for Chameleon 723 and 70,562
/// for Easthaven 8), with room for all of them, with a table rebuilt from
/// the levels not finished (the smaller memories), and where the waiting
/// levels do not fit beside the level under way (1 MiB, the least `demon`
/// accepts): the table forgets some, and their files come to hold copies
/// (more positions stored than expanded), each passed over when taken. A
/// rebuild forgets the dead ends too (they are in no file), so a dead end
/// met again after one is tested again: a node (and a dead end) where the
/// run with room met a table hit. So nodes and table hits add up to the
/// same in every run of a deal (692,119 for Chameleon 723), and nodes less
/// dead ends are the same. With tableau classes (one deck, runs moving in
/// any part: here Easthaven), each class is expanded once: Easthaven 8 in
/// 52,802 classes, which merge 17,760 positions into them (Chameleon
/// moves whole piles: no class is merged). The depth-first search agrees.
#[test]
fn a_rebuilt_table_forgets_only_what_it_may() {
    // Memory, nodes, positions stored, rebuilds.
    type Run = (usize, u64, u64, u64);
    let deals: [(GameKind, u64, bool, u64, u64, [Run; 3]); 3] = [
        (
            GameKind::Chameleon,
            723,
            true,
            227_482,
            692_119,
            [
                (256 << 20, 294_408, 294_408, 0),
                (3 << 20, 298_937, 298_937, 3),
                (1 << 20, 315_673, 435_290, 61),
            ],
        ),
        (
            GameKind::Easthaven,
            8,
            false,
            70_562,
            217_007,
            [
                (256 << 20, 114_200, 114_200, 0),
                (1_500 << 10, 116_602, 116_602, 4),
                (1 << 20, 118_488, 123_911, 13),
            ],
        ),
        (
            GameKind::Easthaven,
            8,
            true,
            52_802,
            176_223,
            [
                (256 << 20, 88_540, 88_540, 0),
                (1_500 << 10, 89_944, 89_944, 3),
                (1 << 20, 92_202, 94_083, 9),
            ],
        ),
    ];
    for (game, seed, classes, expanded, met, runs) in deals {
        let rules = preset(game);
        let layout = Source::Native(seed).layout(&rules);
        let dfs = run(&rules, &layout, &memory(256 << 20), &Options::default());
        assert_eq!(dfs.verdict, Verdict::Lost);
        for (bytes, nodes, stored, rebuilds) in runs {
            let o = Options {
                tableau_classes: classes,
                ..layered(None)
            };
            let out = run(&rules, &layout, &memory(bytes), &o);
            let what = format!("{game:?} {seed} in {bytes} bytes, classes {classes}");
            assert_eq!(out.verdict, Verdict::Lost, "{what}");
            let s = &out.stats;
            assert_eq!(
                (s.nodes, s.stored, s.rebuilds),
                (nodes, stored, rebuilds),
                "{what}"
            );
            assert_eq!(common::expanded_and_met(s), (expanded, met), "{what}");
            let merged = if classes && game == GameKind::Easthaven {
                17_760
            } else {
                0
            };
            assert_eq!(s.merged, merged, "{what}");
            assert!(s.peak_memory <= counted_most(bytes), "{what}: {s:?}");
        }
    }
}

/// A table too small for the waiting positions ends UNKNOWN (memory),
/// inside the limit; so does a node limit. That is looked at between two
/// positions expanded, and the dead ends met in storing the children of
/// the last one count as nodes too: 1,004 nodes for a limit of 1,000.
#[test]
fn limits_stop_it_unknown() {
    let rules = preset(GameKind::Chameleon);
    // Chameleon 235: 85,264,671 positions, whose largest level does not
    // fit in a table of 256 KiB.
    let layout = Source::Native(235).layout(&rules);
    let out = run(&rules, &layout, &memory(4 << 20), &layered(Some(256 << 10)));
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Memory(4 << 20)));
    assert!(
        out.stats.peak_memory <= counted_most(4 << 20),
        "{:?}",
        out.stats
    );
    let limits = Limits {
        max_nodes: Some(1_000),
        ..memory(64 << 20)
    };
    let out = run(&rules, &layout, &limits, &layered(None));
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(1_000)));
    assert_eq!(out.stats.nodes, 1_004);
}

/// A layered search left unknown says how far it got: the progress of
/// its lowest level not finished, counted from the deal's, of the 99 of a
/// Chameleon win (51 cards to put up beside the base card, 13 out of the
/// reserve, 35 out of the stock). Chameleon 723 (lost in 294,408
/// positions) stopped at 50,000, 150,000 and 250,000 positions is at 21,
/// 25 and 29; decided, it names no progress. Each also says how near the
/// positions it expanded came (most cards up in one; dead ends count,
/// when stored, which may be of a level far above): 9, 9 and 12 of 52
/// at the stops, and 16 when lost, as the depth-first search says.
#[test]
fn an_unknown_layered_search_says_how_far_it_got() {
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(723).layout(&rules);
    let mut got = Vec::new();
    for (nodes, at) in [(50_000u64, 21u32), (150_000, 25), (250_000, 29)] {
        let limits = Limits {
            max_nodes: Some(nodes),
            ..memory(64 << 20)
        };
        let out = run(&rules, &layout, &limits, &layered(None));
        assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(nodes)));
        assert_eq!(
            (out.stats.progress, out.stats.progress_of_win),
            (at, 99),
            "{nodes}"
        );
        got.push(out.stats.most_up);
    }
    let out = run(&rules, &layout, &memory(64 << 20), &layered(None));
    assert_eq!(out.verdict, Verdict::Lost);
    assert_eq!((out.stats.progress, out.stats.progress_of_win), (0, 0));
    got.push(out.stats.most_up);
    let dfs = run(&rules, &layout, &memory(64 << 20), &Options::default());
    assert_eq!(dfs.verdict, Verdict::Lost);
    got.push(dfs.stats.most_up);
    assert_eq!(got, [9, 9, 12, 16, 16]);
}

/// While it runs, a layered search shows the progress of the level under
/// way on its progress board (the CLI's progress line), counted as the
/// answer counts it: Chameleon 723 stopped at 150,000 nodes shows 25 of
/// 99 there, as above. A depth-first search leaves both at 0.
#[test]
fn the_progress_board_shows_the_level_under_way() {
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(723).layout(&rules);
    let limits = Limits {
        max_nodes: Some(150_000),
        ..memory(64 << 20)
    };
    let ld = |a: &std::sync::atomic::AtomicU32| a.load(std::sync::atomic::Ordering::Relaxed);
    for layered_search in [true, false] {
        let board: &'static demon_solver::Progress = Box::leak(Box::default());
        let o = Options {
            progress: Some(demon_solver::ProgressBoard(board)),
            ..if layered_search {
                layered(None)
            } else {
                Options::default()
            }
        };
        let out = run(&rules, &layout, &limits, &o);
        assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(150_000)));
        let shown = (ld(&board.progress), ld(&board.progress_of_win));
        if layered_search {
            assert_eq!(shown, (25, 99));
            assert_eq!(shown, (out.stats.progress, out.stats.progress_of_win));
        } else {
            assert_eq!(shown, (0, 0));
        }
    }
}

/// Canfield on a deck of 6 ranks, and the limits its small deals are
/// searched with here: 100,000 nodes, 64 MiB.
fn small_canfield() -> (Rules, Limits) {
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
    (rules, limits)
}

/// Canfield on a deck of 6 ranks, seeds 1-40, at most 100,000 nodes:
/// where the layered search decides, the depth-first search agrees, and
/// each win, read back from the log, is the full move list, which `solve`
/// has replayed to a win (and which replays here too). It wins late: a
/// won deal's positions of lower levels all come first.
#[test]
fn a_win_is_read_back_from_the_log() {
    let (rules, limits) = small_canfield();
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
    assert_eq!((won, lost), (8, 3));
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

/// A fresh directory for a saved layered search.
fn save_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("demon-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Runs a layered search saved in `dir` in sittings, each stopped by a
/// node limit `step` more than the last, until it is decided: saved at
/// each stop (`save_at_stop`), or killed there, as it were (the files
/// keep what was written since the last save, every `every` nodes), and
/// continued. The decided outcome, and the sittings.
fn sittings(
    rules: &Rules,
    layout: &Layout,
    bytes: usize,
    dir: &std::path::Path,
    step: u64,
    every: Option<u64>,
    save_at_stop: bool,
) -> (Outcome, u64) {
    use demon_solver::checkpoint::{header, FileAfter};
    use demon_solver::layered::solve_layered_saving;
    let o = Options {
        layered_save_every: every,
        ..layered(None)
    };
    let h = header(rules, layout, "test", &o);
    let mut resumed_at = 0;
    for k in 1..=1_000 {
        let limits = Limits {
            max_nodes: Some(k * step),
            ..memory(bytes)
        };
        let (out, after) =
            solve_layered_saving(rules, layout, &limits, &o, dir, &h, &|_| save_at_stop).unwrap();
        let what = format!("sitting {k}: {out:?}");
        assert!(out.stats.nodes >= resumed_at, "{what}");
        match out.verdict {
            Verdict::Unknown(Limit::Nodes(n)) => {
                // The limit is looked at between two positions expanded;
                // the dead ends met in storing the last one's children
                // count as nodes too, so a sitting may end a few past it.
                assert_eq!(n, k * step, "{what}");
                assert!(
                    (k * step..k * step + 50).contains(&out.stats.nodes),
                    "{what}"
                );
                let want = if save_at_stop {
                    FileAfter::Saved
                } else {
                    FileAfter::Kept
                };
                assert_eq!(after, want, "{what}");
                assert!(dir.join("search.ck").exists(), "{what}");
                // Saved at the stop, or last saved (at the first position
                // expanded after `every` more nodes) less than `every`
                // nodes before it.
                resumed_at = if save_at_stop {
                    out.stats.nodes
                } else {
                    k * step - every.unwrap()
                };
            }
            _ => {
                assert_eq!(after, FileAfter::Removed, "{what}");
                assert!(!dir.exists(), "{what}");
                return (out, k);
            }
        }
    }
    panic!("not decided in 1,000 sittings");
}

/// A layered search stopped and continued from its save, again and
/// again, expands the positions the search without a stop expands
/// (Chameleon 723: 227,482 but the dead ends, and nodes and table hits
/// adding up to 692,119, as in `a_rebuilt_table_forgets_only_what_it_may`;
/// a sitting rebuilds the table from the files, so forgets the dead ends
/// met before, and tests again those met again): saved at each stop, and
/// killed after its last periodic save (its files then hold what was
/// written since, which the next sitting cuts off). With room for every
/// level no file holds a position twice (positions stored and nodes
/// agree: a dead end met again is both); at 1 MiB waiting levels are
/// forgotten, saved so, and their copies checked when taken.
#[test]
fn a_layered_search_goes_on_from_its_saves() {
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(723).layout(&rules);
    for (bytes, every, at_stop) in [
        (256 << 20, None, true),
        (256 << 20, Some(20_000), false),
        (1 << 20, Some(15_000), false),
    ] {
        let dir = save_dir(&format!("c723-{bytes}-{at_stop}"));
        let (out, n) = sittings(&rules, &layout, bytes, &dir, 37_000, every, at_stop);
        let what = format!("{bytes} bytes, saves every {every:?}, saved at stops {at_stop}");
        assert_eq!(out.verdict, Verdict::Lost, "{what}");
        let s = &out.stats;
        assert_eq!(common::expanded_and_met(s), (227_482, 692_119), "{what}");
        if bytes == 256 << 20 {
            assert_eq!(s.stored, s.nodes, "{what}");
        } else {
            assert!(s.stored > s.nodes, "{what}: {s:?}");
        }
        assert!(s.peak_memory <= counted_most(bytes), "{what}: {s:?}");
        // How near it came, kept in the saves: as without a stop.
        assert_eq!(s.most_up, 16, "{what}");
        // The node limits are the sittings' (37,000 more each), not the saves'.
        assert_eq!(n, s.nodes.div_ceil(37_000), "{what}");
    }
}

/// A layered search stopped by the memory limit (in the middle of a
/// position's moves) puts the positions in flight back in their level's
/// file and is saved there (`FileAfter::Saved`); a sitting in the same
/// table goes on from that save until the memory stops it again, and a
/// sitting with more memory goes on to the verdict: the path a deal whose
/// level outgrew its table takes to its next sitting. Chameleon 109 (lost
/// in 327,140 positions; of seeds 1-399, the one deal lost in 50,000 to
/// 400,000 positions whose layered search a table of 256 KiB stops):
/// saved at 50,000 nodes; then a sitting with that table stops UNKNOWN
/// (memory) at 75,285 nodes, after 6 rebuilds, and saves; a second one
/// from there stops at 76,435 nodes, after 7; then one with room ends
/// LOST at 327,650 nodes. It expanded 4 positions more than the search
/// without a stop (288,173), the two each memory stop put back, and met
/// 5 more than its 724,172 (nodes and table hits: the 4, and one child
/// stored before a stop met again); its 510 nodes more are those and
/// dead ends met before a save and tested again (see
/// `a_layered_search_goes_on_from_its_saves`). Before, a memory stop
/// kept the save of 50,000 nodes, and the work since was lost.
#[test]
fn a_search_stopped_by_memory_goes_on_with_more() {
    use demon_solver::checkpoint::{header, FileAfter};
    use demon_solver::layered::solve_layered_saving;
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(109).layout(&rules);
    let dir = save_dir("c109-memory");
    let h = header(&rules, &layout, "test", &layered(None));
    let sitting = |nodes: Option<u64>, table: Option<usize>| {
        let limits = Limits {
            max_nodes: nodes,
            ..memory(256 << 20)
        };
        solve_layered_saving(&rules, &layout, &limits, &layered(table), &dir, &h, &|_| {
            true
        })
        .unwrap()
    };
    let (first, after) = sitting(Some(50_000), None);
    assert_eq!(first.verdict, Verdict::Unknown(Limit::Nodes(50_000)));
    assert_eq!(after, FileAfter::Saved);
    let save = || std::fs::read(dir.join("search.ck")).unwrap();
    let saved = save();
    let mut done = first.stats.nodes;
    for (nodes, rebuilds) in [(75_285, 6), (76_435, 7)] {
        let (cramped, after) = sitting(None, Some(256 << 10));
        assert_eq!(cramped.verdict, Verdict::Unknown(Limit::Memory(256 << 20)));
        assert_eq!(after, FileAfter::Saved);
        let s = &cramped.stats;
        assert_eq!((s.nodes, s.rebuilds), (nodes, rebuilds), "{s:?}");
        assert!(nodes > done);
        done = nodes;
    }
    assert!(save() != saved, "saved where the memory stopped it");
    let (last, after) = sitting(None, None);
    assert_eq!(last.verdict, Verdict::Lost);
    assert_eq!(after, FileAfter::Removed);
    assert!(!dir.exists());
    let whole = run(&rules, &layout, &memory(256 << 20), &layered(None));
    assert_eq!(whole.verdict, Verdict::Lost);
    assert_eq!((whole.stats.nodes, last.stats.nodes), (327_140, 327_650));
    assert_eq!(common::expanded_and_met(&whole.stats), (288_173, 724_172));
    assert_eq!(common::expanded_and_met(&last.stats), (288_177, 724_177));
}

/// Sittings that alternate a cramped table (256 KiB, which the memory
/// limit stops in the middle of a level) with a roomy one, each for
/// `step` more nodes, every stop saved: a memory stop puts the positions
/// in flight back in their level's file ([`Layered::stopped`]), so the
/// sittings together expand every position the search without a stop
/// expands, and at most two more a memory stop (the parent of the
/// children held, and the position just expanded, expanded again), and
/// come to its verdict. If a stop dropped a child not yet stored, its
/// subtree would go unexpanded: fewer positions expanded, and perhaps a
/// won deal called lost. Returns the last sitting's outcome, and the
/// memory stops and the cramped sittings that ended at once, their save
/// kept (a resumed table that cannot hold the level under way).
fn memory_sittings(
    rules: &Rules,
    layout: &Layout,
    dir: &std::path::Path,
    step: u64,
) -> (Outcome, u64, u64) {
    use demon_solver::checkpoint::{header, FileAfter};
    use demon_solver::layered::solve_layered_saving;
    let h = header(rules, layout, "test", &layered(None));
    let (mut done, mut stops, mut kept) = (0, 0, 0);
    for k in 0..400 {
        let cramped = k % 2 == 0;
        let table = cramped.then_some(256 << 10);
        let limits = Limits {
            max_nodes: Some(done + step),
            ..memory(256 << 20)
        };
        let (out, after) =
            solve_layered_saving(rules, layout, &limits, &layered(table), dir, &h, &|_| true)
                .unwrap();
        let what = format!("sitting {k}: {:?} {after:?} {:?}", out.verdict, out.stats);
        match out.verdict {
            Verdict::Unknown(Limit::Memory(_)) => {
                assert!(cramped, "{what}");
                if after == FileAfter::Kept {
                    assert_eq!(out.stats.nodes, done, "{what}");
                    kept += 1;
                } else {
                    assert_eq!(after, FileAfter::Saved, "{what}");
                    assert!(out.stats.nodes > done, "{what}");
                    stops += 1;
                }
            }
            Verdict::Unknown(Limit::Nodes(_)) => assert_eq!(after, FileAfter::Saved, "{what}"),
            _ => {
                assert_eq!(after, FileAfter::Removed, "{what}");
                assert!(!dir.exists(), "{what}");
                return (out, stops, kept);
            }
        }
        done = out.stats.nodes;
    }
    panic!("not decided in 400 sittings");
}

/// [`memory_sittings`] on Chameleon 109 (lost; see
/// `a_search_stopped_by_memory_goes_on_with_more`), in sittings of
/// 20,000 and of 7,000 nodes, which the memory stops at different
/// points: the first cramped sitting that meets the deal's largest level
/// stops in it and saves, and the cramped ones after it cannot rebuild
/// their table on resuming (9 and 24 of them), until a roomy one has
/// finished that level. The sittings expand 1 and 2 positions more than
/// the search without a stop (the position just taken, if checked
/// against the table and not expanded, was not expanded twice), and meet
/// 1 and 4 more (the 2, and 2 children stored before the stop met again).
#[test]
fn memory_stops_saved_lose_no_position() {
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(109).layout(&rules);
    let whole = run(&rules, &layout, &memory(256 << 20), &layered(None));
    assert_eq!(whole.verdict, Verdict::Lost);
    let (expanded, met) = common::expanded_and_met(&whole.stats);
    assert_eq!((expanded, met), (288_173, 724_172));
    for (step, kept_want, more) in [(20_000, 9, (1, 1)), (7_000, 24, (2, 4))] {
        let dir = save_dir(&format!("c109-memory-sittings-{step}"));
        let (last, stops, kept) = memory_sittings(&rules, &layout, &dir, step);
        let what = format!("sittings of {step} nodes: {:?}", last.stats);
        assert_eq!(last.verdict, Verdict::Lost, "{what}");
        assert_eq!((stops, kept), (1, kept_want), "{what}");
        let (e, m) = common::expanded_and_met(&last.stats);
        assert!((expanded..=expanded + 2 * stops).contains(&e), "{what}");
        assert_eq!((e - expanded, m - met), more, "{what}");
    }
}

/// The first won deal of `a_win_is_read_back_from_the_log` (Canfield on 6
/// ranks) that takes the layered search more than 3,000 nodes: its rules,
/// seed, and the search's outcome without a stop.
fn won_small_canfield() -> (Rules, u64, Outcome) {
    let (rules, limits) = small_canfield();
    let (seed, whole) = (1..=40)
        .map(|seed| {
            let layout = Source::Native(seed).layout(&rules);
            (seed, run(&rules, &layout, &limits, &layered(None)))
        })
        .find(|(_, o)| matches!(o.verdict, Verdict::Won(_)) && o.stats.nodes > 3_000)
        .expect("a won deal");
    (rules, seed, whole)
}

/// A won deal (Canfield on 6 ranks; the first of `a_win_is_read_back_
/// from_the_log`'s) searched in sittings of 1,500 nodes, saved every 400
/// and killed at each stop: the log, cut back and continued, gives the
/// line of the search without a stop, after the same positions expanded
/// (8 more nodes: dead ends met again after the sittings' rebuilds,
/// tested again).
#[test]
fn a_win_is_read_back_across_sittings() {
    let (rules, seed, whole) = won_small_canfield();
    let layout = Source::Native(seed).layout(&rules);
    let dir = save_dir("canfield-won");
    let (out, n) = sittings(&rules, &layout, 64 << 20, &dir, 1_500, Some(400), false);
    assert_eq!(out.verdict, whole.verdict, "seed {seed}");
    assert!(matches!(out.verdict, Verdict::Won(_)), "seed {seed}");
    // Saved or not, the layered search's win is the exhaustive search's.
    assert_eq!(
        out.stats.found_by,
        Some(demon_solver::Finder::Search),
        "seed {seed}"
    );
    // The same positions expanded; the dead ends met again after a
    // sitting's rebuild are tested again (nodes, where the search without
    // a stop met table hits).
    let (s, w) = (&out.stats, &whole.stats);
    assert_eq!(
        common::expanded_and_met(s),
        common::expanded_and_met(w),
        "seed {seed}"
    );
    assert_eq!((s.nodes, w.nodes), (7_835, 7_827), "seed {seed}");
    assert!(n > 2, "seed {seed}: {n} sittings");
}

/// A save is refused for another deal, and when damaged, saying so; the
/// files are left as they are.
#[test]
fn a_save_is_refused_for_another_deal_or_damaged() {
    use demon_solver::checkpoint::header;
    use demon_solver::layered::solve_layered_saving;
    let rules = preset(GameKind::Chameleon);
    let (a, b) = (
        Source::Native(723).layout(&rules),
        Source::Native(724).layout(&rules),
    );
    let o = layered(None);
    let limits = Limits {
        max_nodes: Some(5_000),
        ..memory(64 << 20)
    };
    let dir = save_dir("refused");
    let ha = header(&rules, &a, "chameleon", &o);
    let (out, _) = solve_layered_saving(&rules, &a, &limits, &o, &dir, &ha, &|_| true).unwrap();
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(5_000)));
    let hb = header(&rules, &b, "chameleon", &o);
    match solve_layered_saving(&rules, &b, &limits, &o, &dir, &hb, &|_| true) {
        Err(SolveError::Checkpoint(m)) => assert!(m.contains("another search"), "{m}"),
        other => panic!("{other:?}"),
    }
    let save = dir.join("search.ck");
    let mut bytes = std::fs::read(&save).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 1;
    std::fs::write(&save, &bytes).unwrap();
    match solve_layered_saving(&rules, &a, &limits, &o, &dir, &ha, &|_| true) {
        Err(SolveError::Checkpoint(m)) => assert!(m.contains("damaged"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(dir.join("log").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A directory that holds other files is refused, and left as it is; so
/// is a file.
#[test]
fn a_directory_of_other_files_is_refused() {
    use demon_solver::checkpoint::header;
    use demon_solver::layered::solve_layered_saving;
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(723).layout(&rules);
    let o = layered(None);
    let dir = save_dir("other-files");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let h = header(&rules, &layout, "chameleon", &o);
    match solve_layered_saving(&rules, &layout, &memory(64 << 20), &o, &dir, &h, &|_| true) {
        Err(SolveError::Checkpoint(m)) => assert!(m.contains("notes.txt"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
    // Nor a file (a depth-first search's checkpoint, say).
    let file = dir.join("notes.txt");
    match solve_layered_saving(&rules, &layout, &memory(64 << 20), &o, &file, &h, &|_| true) {
        Err(SolveError::Checkpoint(m)) => assert!(m.contains("is a file"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn no_log() -> Options {
    Options {
        layered_no_log: true,
        ..layered(None)
    }
}

/// Without a log, the layered search takes the same positions in the same
/// order (Canfield on 6 ranks, seeds 1-40, as in
/// `a_win_is_read_back_from_the_log`): a lost deal at the same counts;
/// a won one is met at the same count, then searched again with a log,
/// which gives the same line, so every count is twice the logged search's.
/// A node limit counts both searches: one that leaves the second too few
/// ends UNKNOWN.
#[test]
fn a_win_without_a_log_is_searched_again_with_one() {
    let (rules, limits) = small_canfield();
    let (mut won, mut lost) = (0, 0);
    for seed in 1..=40 {
        let layout = Source::Native(seed).layout(&rules);
        let logged = run(&rules, &layout, &limits, &layered(None));
        if matches!(logged.verdict, Verdict::Unknown(_)) {
            continue;
        }
        // Room for both searches.
        let twice = Limits {
            max_nodes: Some(200_000),
            ..limits
        };
        let bare = run(&rules, &layout, &twice, &no_log());
        let (a, b) = (&logged.stats, &bare.stats);
        match &logged.verdict {
            Verdict::Won(_) => {
                won += 1;
                assert_eq!(bare.verdict, logged.verdict, "seed {seed}");
                assert_eq!(
                    (b.nodes, b.stored, b.hits),
                    (2 * a.nodes, 2 * a.stored, 2 * a.hits),
                    "seed {seed}"
                );
                let short = Limits {
                    max_nodes: Some(a.nodes * 3 / 2),
                    ..limits
                };
                let out = run(&rules, &layout, &short, &no_log());
                assert_eq!(
                    out.verdict,
                    Verdict::Unknown(Limit::Nodes(a.nodes * 3 / 2)),
                    "seed {seed}"
                );
                // A few past the limit at most: the dead ends met in
                // storing the last position's children count too.
                let n = a.nodes * 3 / 2;
                assert!((n..n + 50).contains(&out.stats.nodes), "seed {seed}");
            }
            Verdict::Lost => {
                lost += 1;
                assert_eq!(bare.verdict, Verdict::Lost, "seed {seed}");
                assert_eq!(
                    (b.nodes, b.stored, b.hits),
                    (a.nodes, a.stored, a.hits),
                    "seed {seed}"
                );
            }
            Verdict::Unknown(_) => unreachable!("passed over"),
        }
    }
    assert_eq!((won, lost), (8, 3));
}

/// A search saved with a log and continued without (Chameleon 723): the
/// log file goes, and the search ends after the positions the search
/// without a stop expands (and the dead ends met again after the
/// sittings' rebuilds, tested again). Saved again without a log, it goes on without one, even when
/// not told to.
#[test]
fn a_saved_search_may_drop_its_log() {
    use demon_solver::checkpoint::{header, FileAfter};
    use demon_solver::layered::solve_layered_saving;
    let rules = preset(GameKind::Chameleon);
    let layout = Source::Native(723).layout(&rules);
    let dir = save_dir("drop-log");
    let h = header(&rules, &layout, "chameleon", &layered(None));
    assert_eq!(h, header(&rules, &layout, "chameleon", &no_log()));
    let sitting = |n: Option<u64>, o: &Options| {
        let limits = Limits {
            max_nodes: n,
            ..memory(256 << 20)
        };
        solve_layered_saving(&rules, &layout, &limits, o, &dir, &h, &|_| true).unwrap()
    };
    let (out, after) = sitting(Some(100_000), &layered(None));
    assert_eq!(
        (out.verdict, after),
        (Verdict::Unknown(Limit::Nodes(100_000)), FileAfter::Saved)
    );
    assert!(dir.join("log").exists());
    let (out, after) = sitting(Some(200_000), &no_log());
    assert_eq!(
        (out.verdict, after),
        (Verdict::Unknown(Limit::Nodes(200_000)), FileAfter::Saved)
    );
    assert!(!dir.join("log").exists());
    let (out, after) = sitting(None, &layered(None));
    assert!(!dir.exists());
    assert_eq!((out.verdict, after), (Verdict::Lost, FileAfter::Removed));
    // As in `a_layered_search_goes_on_from_its_saves`: the positions
    // expanded and nodes and hits as without a stop; the dead ends met
    // again after each of the two sittings' rebuilds tested again.
    let s = &out.stats;
    assert_eq!(
        (common::expanded_and_met(s), s.nodes, s.stored),
        ((227_482, 692_119), 298_350, 298_350)
    );
}

/// A won deal searched without a log in sittings of 1,500 nodes, saved
/// every 400 (the deal of `a_win_is_read_back_across_sittings`): the
/// sitting that meets the win has too few nodes left to search again, so
/// it ends UNKNOWN and keeps its last save; a sitting without a node limit
/// goes on from there, meets the win, searches again with a log, and
/// answers the line of the logged search without a stop, at twice its
/// count but for the dead ends met again after the sittings' rebuilds
/// (6 nodes). Its directory goes.
#[test]
fn a_win_without_a_log_across_sittings() {
    use demon_solver::checkpoint::{header, FileAfter};
    use demon_solver::layered::solve_layered_saving;
    let (rules, seed, whole) = won_small_canfield();
    let layout = Source::Native(seed).layout(&rules);
    let dir = save_dir("canfield-won-no-log");
    let o = Options {
        layered_save_every: Some(400),
        ..no_log()
    };
    let h = header(&rules, &layout, "test", &o);
    let sitting = |n: Option<u64>| {
        let limits = Limits {
            max_nodes: n,
            ..memory(64 << 20)
        };
        solve_layered_saving(&rules, &layout, &limits, &o, &dir, &h, &|_| true).unwrap()
    };
    let step = 1_500;
    let mut k = 1;
    loop {
        let (out, after) = sitting(Some(k * step));
        assert_eq!(
            out.verdict,
            Verdict::Unknown(Limit::Nodes(k * step)),
            "sitting {k}"
        );
        if after == FileAfter::Kept {
            assert!(k * step > whole.stats.nodes, "sitting {k}");
            break;
        }
        assert_eq!(after, FileAfter::Saved, "sitting {k}");
        assert!(!dir.join("log").exists());
        k += 1;
    }
    let (out, after) = sitting(None);
    assert_eq!(out.verdict, whole.verdict, "seed {seed}");
    assert_eq!(after, FileAfter::Removed, "seed {seed}");
    // Each count twice the logged search's, the dead ends met again after
    // the sittings' rebuilds, tested again, apart.
    let (s, w) = (&out.stats, &whole.stats);
    let (expanded, met) = common::expanded_and_met(w);
    assert_eq!(
        common::expanded_and_met(s),
        (2 * expanded, 2 * met),
        "seed {seed}"
    );
    assert_eq!((s.nodes, 2 * w.nodes), (15_660, 15_654), "seed {seed}");
    assert!(!dir.exists());
}

/// Superior Canfield, its stock redealt without end, has thousands of
/// levels waiting at once (talon states and parts of a few positions
/// each): they share a file a progress, and their buffers go to disk when
/// they pass the memory's share, so only the node limit stops the search
/// (before the files were shared, it stopped at 309 nodes, at 512 levels
/// waiting, calling that the memory limit), inside its 16 MiB. (Seed
/// 1099: 1,583,457 positions stored at 300,000 nodes. 339 and 766, used
/// here before, are lost at the deal since the stack bound's pile tops
/// and its choice of heights.)
#[test]
fn thousands_of_levels_wait_in_few_files() {
    let rules = preset(GameKind::SuperiorCanfield);
    let layout = Source::Native(1099).layout(&rules);
    let limits = Limits {
        max_nodes: Some(300_000),
        ..memory(16 << 20)
    };
    let out = run(&rules, &layout, &limits, &layered(None));
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(300_000)));
    let s = &out.stats;
    assert_eq!(s.nodes, 300_000);
    assert!(
        s.stored > 900_000 && s.peak_memory <= counted_most(16 << 20),
        "{s:?}"
    );
}
