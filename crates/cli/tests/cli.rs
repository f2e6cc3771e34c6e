//! End-to-end tests of the `demon` binary: outputs, round trips through
//! deal files, and the error a user sees for each kind of bad input.

mod common;

use common::{demon, log_lines, text};
use std::path::PathBuf;
use std::process::{Command, Output};

fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A scratch file unique to this test process, under Cargo's scratch
/// directory for integration tests (inside `target/`, so that test runs
/// leave nothing in the system's temporary directory).
fn scratch(name: &str, content: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("demon-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

#[test]
fn deal_prints_the_games_md_layout() {
    let o = demon(&["deal", "canfield", "--pysolfc", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("\nfoundations: JD\n"), "{s}");
    assert!(
        s.contains("\nreserve: 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC\n"),
        "{s}"
    );
    assert!(s.contains("\ntableau: KS | 2S | 3H | KH\n"), "{s}");
    assert!(s.contains("\nstock: 9D QD JS AS AH 3C "), "{s}");
}

#[test]
fn every_game_and_format_round_trips_through_a_file() {
    let games = stdout(&demon(&["games"]));
    let names: Vec<String> = games
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(names.len(), 11);
    for g in &names {
        for fmt in ["text", "json", "solvitaire"] {
            let o = demon(&["deal", g, "5", "--format", fmt]);
            if fmt == "solvitaire" && !o.status.success() {
                assert!(
                    stderr(&o).contains("Solvitaire's deal JSON holds one-deck Canfield games"),
                    "{g}: {}",
                    stderr(&o)
                );
                continue;
            }
            assert!(o.status.success(), "{g} {fmt}: {}", stderr(&o));
            let f = scratch(&format!("{g}.{fmt}"), &stdout(&o));
            let back = demon(&["deal", g, "--file", f.to_str().unwrap(), "--format", fmt]);
            assert!(back.status.success(), "{g} {fmt}: {}", stderr(&back));
            if fmt == "text" {
                // Only the title comment names the source.
                let strip = |s: String| s.lines().skip(1).collect::<Vec<_>>().join("\n");
                assert_eq!(strip(stdout(&back)), strip(stdout(&o)), "{g}");
            } else if fmt == "solvitaire" {
                assert_eq!(stdout(&back), stdout(&o), "{g}");
            }
        }
    }
}

#[test]
fn rules_prints_the_resolved_rule_set() {
    let o = demon(&[
        "rules",
        "canfield",
        "--group-moves",
        "any",
        "--redeals",
        "2",
    ]);
    let s = stdout(&o);
    assert!(s.contains("--group-moves          any"), "{s}");
    assert!(s.contains("--redeals              2"), "{s}");
    assert!(
        s.contains("Stock: turned onto the waste 3 at a time; 2 redeals (3 passes)."),
        "{s}"
    );
}

fn fails_with(args: &[&str], want: &str) {
    let o = demon(args);
    assert!(!o.status.success(), "{args:?} succeeded");
    let e = stderr(&o);
    assert!(e.contains(want), "{args:?}: expected {want:?} in\n{e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn bad_input_gives_clear_errors() {
    fails_with(&["deal", "canfeld", "1"], "unknown game 'canfeld'");
    fails_with(&["deal", "canfield", "--pysolfc", "0"], "0 is not a game");
    fails_with(
        &["deal", "canfield", "--pysolfc", "twelve"],
        "is not a number",
    );
    fails_with(
        &["deal", "selective-canfield", "--pysolfc", "5"],
        "not in PySolFC",
    );
    fails_with(&["rules", "canfield", "--reserve", "0"], "has no reserve");
    fails_with(
        &["rules", "easthaven", "--draw", "3"],
        "deals the stock onto the tableau",
    );
    fails_with(
        &["rules", "canfield", "--worrying-back", "maybe"],
        "invalid value 'maybe'",
    );
    fails_with(
        &["deal", "canfield", "--file", "/nonexistent/deal.txt"],
        "cannot read deal file",
    );

    let good = stdout(&demon(&["deal", "canfield", "--pysolfc", "1"]));
    let missing = good.replace("reserve: 2D ", "reserve: ");
    let f = scratch("missing.txt", &missing);
    fails_with(
        &["deal", "canfield", "--file", f.to_str().unwrap()],
        "card 2D is missing from the deal (with one deck each card appears once)",
    );
    let dup = good.replace("reserve: 2D 9H", "reserve: 9H 9H");
    let f = scratch("dup.txt", &dup);
    fails_with(
        &["deal", "canfield", "--file", f.to_str().unwrap()],
        "card 9H appears 2 times but the deal has one deck: reserve, card 1 from the bottom; reserve, card 2 from the bottom (2D is missing)",
    );
    let badcard = good.replace("tableau: KS", "tableau: KX");
    let f = scratch("badcard.txt", &badcard);
    fails_with(
        &["deal", "canfield", "--file", f.to_str().unwrap()],
        "line 7: tableau pile 1: card 1: 'KX' is not a card",
    );
    let sizes = good.replace("tableau: KS | 2S", "tableau: KS 2S |");
    let f = scratch("sizes.txt", &sizes);
    fails_with(
        &["deal", "canfield", "--file", f.to_str().unwrap()],
        "tableau pile 1 has 2 cards",
    );
    let f = scratch("other.txt", &good);
    fails_with(
        &["deal", "rainbow", "--file", f.to_str().unwrap()],
        "is a Canfield deal, not Rainbow",
    );
    let f = scratch("bad.json", "{\"tableau piles\": [[\"KS\"]], \"holes\": 1}");
    fails_with(
        &["deal", "canfield", "--file", f.to_str().unwrap()],
        "\"holes\"",
    );
}

#[test]
fn solve_reports_each_verdict_with_its_exit_code() {
    // Canfield seed 1 is won, seed 3 lost (both pinned in the solver's
    // regression tests too); a 10-node limit leaves seed 1 unknown.
    let o = demon(&["solve", "canfield", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("\nWON in "), "{s}");
    assert!(s.contains("\n 1. "), "{s}");
    let o = demon(&["solve", "canfield", "3"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("LOST: every reachable position was explored"));
    let o = demon(&["solve", "canfield", "1", "--max-nodes", "10"]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stdout(&o).contains("UNKNOWN: the search stopped at the node limit (10 nodes)"));
    let o = demon(&[
        "solve",
        "canfield",
        "1",
        "--format",
        "json",
        "--show-positions",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "won");
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0);
    assert!(!v["steps"].as_array().unwrap().is_empty());
}

#[test]
fn dead_ends_can_be_turned_off() {
    // Canfield seed 11, as pinned in the solver's regression tests: won
    // with 656 dead ends in 3,136 nodes (635 before the stack bound's
    // pile tops); without them, in 3,267.
    let stats = |extra: &[&str]| {
        let mut a = vec![
            "solve",
            "canfield",
            "11",
            "--max-memory",
            "64M",
            "--format",
            "json",
        ];
        a.extend_from_slice(extra);
        let o = demon(&a);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["verdict"], "won");
        (
            v["stats"]["nodes"].as_u64().unwrap(),
            v["stats"]["dead_ends"].as_u64().unwrap(),
        )
    };
    assert_eq!(stats(&[]), (3_136, 656));
    assert_eq!(stats(&["--no-deadlock"]), (3_267, 0));
}

#[test]
fn rollouts_are_off_by_default_only_with_one_deck_and_unlimited_redeals() {
    // Seed 479 of Canfield (runs move in any part) passes the first
    // pauses (100,000 nodes and on) before it is proved lost; American
    // Toad seed 3 too, before the rollouts win it.
    let rollout_nodes = |args: &[&str]| {
        let o = demon(&[args, &["--max-nodes", "300K", "--format", "json"]].concat());
        assert!(matches!(o.status.code(), Some(0 | 3 | 4)), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        v["stats"]["rollout_nodes"].as_u64().unwrap()
    };
    let canfield = ["solve", "canfield", "479", "--group-moves", "any"];
    assert_eq!(rollout_nodes(&canfield), 0);
    assert!(rollout_nodes(&[&canfield[..], &["--rollouts"]].concat()) > 0);
    let toad = ["solve", "american-toad", "3"];
    assert!(rollout_nodes(&toad) > 0);
    assert_eq!(rollout_nodes(&[&toad[..], &["--no-rollouts"]].concat()), 0);
    let o = demon(&[&canfield[..], &["--rollouts", "--no-rollouts"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

#[test]
fn a_full_table_can_forget_positions() {
    // Canfield (runs move in any part) seed 479, as pinned in the solver's
    // regression tests: at 1 MiB the table fills; forgetting, the deal is
    // proved lost.
    let args = [
        "solve",
        "canfield",
        "479",
        "--group-moves",
        "any",
        "--max-memory",
        "1M",
        "--format",
        "json",
    ];
    let o = demon(&args);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["limit"], "memory limit (1 MiB)");
    let o = demon(&args[..7]);
    assert!(stdout(&o)
        .contains("--forget-when-full lets a search whose table of positions is full go on"));
    let o = demon(&[&args[..], &["--forget-when-full"]].concat());
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "lost");
    // As in the solver's regression test (137,333 when a growing table
    // dropped what its positions cost; 134,225 before a state kept its
    // piles' run lengths).
    assert_eq!(v["stats"]["positions_forgotten"], 124_515);
    assert_eq!(v["stats"]["table_shrinks"], 0);
    assert!(v["stats"]["peak_memory_bytes"].as_u64().unwrap() <= 1 << 20);
}

/// `--max-memory` holds in the memory the machine really gives: a search
/// that fills its table (Canfield `any` 646 in 16 MiB) takes at most the
/// budget beyond what a search of a few positions (Canfield 1) leaves
/// resident, and at least half of it (so the table's memory is really
/// touched, and the resident figure really read). Measured in release:
/// 17.2 MiB resident against 5.0 MiB, the search counting 13.0 MiB.
#[cfg(target_os = "linux")]
#[test]
fn a_full_table_stays_inside_max_memory_resident() {
    let resident = |args: &[&str], code: i32| {
        let o = demon(&[args, &["--max-memory", "16M", "--format", "json"]].concat());
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let r = v["stats"]["max_resident_bytes"].as_u64().unwrap();
        (v, r)
    };
    let (_, small) = resident(&["solve", "canfield", "1"], 0);
    let (v, full) = resident(&["solve", "canfield", "646", "--group-moves", "any"], 4);
    assert_eq!(v["limit"], "memory limit (16 MiB)");
    let searched = full - small;
    assert!(
        (8 << 20..=16 << 20).contains(&searched),
        "{searched} bytes resident beyond a small search's {small}"
    );
    let peak = v["stats"]["peak_memory_bytes"].as_u64().unwrap();
    assert!(peak <= 16 << 20, "peak {peak}");
    // A full table: 16-byte entries filled to 93-97 % with the recent
    // cache beside them (17.2 bytes a position measured: 732,304 in
    // 12.0 MiB).
    let table = v["stats"]["table_bytes"].as_u64().unwrap() as f64;
    let per = table / v["stats"]["positions_stored"].as_u64().unwrap() as f64;
    assert!((16.0..18.0).contains(&per), "{per} bytes a position");
    // The text output gives the same figure.
    let o = demon(&["solve", "canfield", "1"]);
    assert!(
        stdout(&o).contains(" MiB resident at most), time "),
        "{}",
        stdout(&o)
    );
}

/// Off a terminal (here standard error is a pipe), `solve` writes its
/// progress line every --log-every seconds, after the time since the
/// search started; with 0 it writes none.
#[test]
fn a_solve_off_a_terminal_logs_its_progress() {
    // Canfield `any` 646 is lost in 5.0 M nodes (14.5 s in a release
    // build): 3.5 s do not decide it.
    let run = |every: &str| {
        let o = demon(&[
            "solve",
            "canfield",
            "646",
            "--group-moves",
            "any",
            "--max-memory",
            "256M",
            "--timeout",
            "3.5",
            "--log-every",
            every,
        ]);
        assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
        stderr(&o)
    };
    let e = run("1");
    // The lines come in order of time, one a second.
    let lines = log_lines(&e);
    assert!((2..=4).contains(&lines.len()), "{e}");
    for l in &lines {
        assert!(
            l.contains(" nodes (")
                && l.contains("/s), ")
                && l.contains(" positions, peak memory ")
                && l.ends_with(" of 256 MiB, time limit 3.5 s"),
            "{l}"
        );
    }
    assert!(!run("0").contains("after "));
}

#[test]
fn the_layered_search_proves_a_loss() {
    // Chameleon 723, as in the solver's layered tests: without the bound
    // on the waste (on by default where the stock is never turned over)
    // 227,482 positions expanded, each once, and the dead ends, in 3 MiB,
    // the table rebuilt three times as it fills: 298,937 nodes, where with
    // room it takes 294,408 (a rebuild forgets the dead ends, which are in
    // no level's file, and those met again are tested again).
    let args = [
        "solve",
        "chameleon",
        "723",
        "--layered",
        "--max-memory",
        "3M",
        "--format",
        "json",
        "--no-waste-bound",
    ];
    let o = demon(&args);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "lost");
    assert_eq!(v["stats"]["nodes"], 298_937);
    assert_eq!(v["stats"]["table_rebuilds"], 3);
    assert!(v["stats"]["peak_memory_bytes"].as_u64().unwrap() <= 3 << 20);
    // It does not forget as the depth-first search does.
    let o = demon(&[&args[..], &["--forget-when-full"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    // Without its log of moves, the same positions.
    let o = demon(&[&args[..], &["--no-log"]].concat());
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["stats"]["nodes"], 298_937);
    // With the bound, by default: 116,434 positions, one rebuild.
    let o = demon(&args[..args.len() - 1]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "lost");
    assert_eq!(v["stats"]["nodes"], 116_434);
    assert_eq!(v["stats"]["table_rebuilds"], 1);
    // Which is the layered search's alone.
    let o = demon(&["solve", "chameleon", "723", "--no-log"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--layered"), "{}", stderr(&o));
}

#[test]
fn a_layered_search_saved_in_a_directory_goes_on() {
    // Chameleon 723 in 3 MiB without the bound on the waste, stopped at
    // 100,000 nodes and saved in a directory, then continued to the
    // verdict of the search without a stop (298,937 nodes: 299,503 here,
    // the continued search, its table rebuilt from the levels' files,
    // meeting again dead ends it had tested), and the directory removed.
    let dir = std::env::temp_dir().join(format!("demon-cli-layered-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = [
        "solve",
        "chameleon",
        "723",
        "--layered",
        "--max-memory",
        "3M",
        "--format",
        "json",
        "--no-waste-bound",
        "--checkpoint",
        d,
    ];
    let o = demon(&[&args[..], &["--max-nodes", "100K"]].concat());
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("progress saved in"), "{}", stderr(&o));
    assert!(dir.join("search.ck").exists() && dir.join("log").exists());
    // How far it got: its lowest level not finished is at progress 23 of
    // the 99 of a win (cards up, and out of the reserve and the stock).
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["stats"]["layered_progress"],
        serde_json::json!({ "at": 23, "of": 99 })
    );
    let o = demon(&args);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("resuming the layered search"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("the deal is decided"), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "lost");
    assert_eq!(v["stats"]["nodes"], 299_503);
    assert_eq!(v["stats"]["layered_progress"], serde_json::Value::Null);
    assert!(!dir.exists());
}

#[test]
fn a_layered_search_stopped_by_memory_is_saved_and_goes_on_with_more() {
    // Chameleon 109 without the bound on the waste (lost in 327,140
    // nodes) in 1 MiB: a level outgrows the table at 77,141 nodes, and the
    // search is saved where it stopped; the same command goes on from
    // there to 95,813 nodes, and with 64 MiB to the verdict (328,076
    // nodes: the positions put back at the two stops expanded again, and
    // dead ends met again after the rebuilds tested again).
    let dir = std::env::temp_dir().join(format!("demon-cli-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = |memory: &'static str| {
        [
            "solve",
            "chameleon",
            "109",
            "--layered",
            "--no-waste-bound",
            "--format",
            "json",
            "--checkpoint",
            d,
            "--max-memory",
            memory,
        ]
    };
    for nodes in [77_141, 95_813] {
        let o = demon(&args("1M"));
        assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["limit"], "memory limit (1 MiB)");
        assert_eq!(v["stats"]["nodes"], nodes);
        assert!(
            stderr(&o).contains("the same command continues it, with more --max-memory"),
            "{}",
            stderr(&o)
        );
        assert!(dir.join("search.ck").exists());
    }
    let o = demon(&args("64M"));
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "lost");
    assert_eq!(v["stats"]["nodes"], 328_076);
    assert!(stderr(&o).contains("the deal is decided"), "{}", stderr(&o));
    assert!(!dir.exists());
}

#[test]
fn solve_output_is_a_line_a_person_can_follow() {
    // Each step's moves, replayed by the checker from the deal, win it.
    let o = demon(&[
        "solve",
        "canfield",
        "--pysolfc",
        "1",
        "--rules",
        "pysolfc",
        "--show-positions",
    ]);
    let s = stdout(&o);
    assert!(s.contains(" → foundation"), "{s}");
    assert!(s.contains("turn stock ×"), "{s}");
    assert!(s.contains("      tableau 1: "), "{s}");
}

#[test]
fn batch_reports_the_length_of_the_line_solve_prints() {
    // Canfield seed 2: the search's line has 616 moves, the shortened line
    // that `solve` prints 557; the batch report gives the same 557.
    let o = demon(&["solve", "canfield", "2", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let printed: usize = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["moves"].as_array().unwrap().len())
        .sum();
    assert_eq!(printed, 557);
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("c.csv");
    let o = demon(&[
        "batch",
        "canfield",
        "--seeds",
        "2..2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = std::fs::read_to_string(&csv).unwrap();
    let row: Vec<&str> = report.lines().nth(1).unwrap().split(',').collect();
    // The rules column holds no comma: seed, verdict, solution_moves.
    assert_eq!(&row[2..5], &["2", "won", "557"], "{report}");
}

#[test]
fn relaxed_rules_decide_deals_and_say_so() {
    // Small deals, with the search under relaxed rules run first
    // (`--relax-from 0`, hidden, for tests): Double Easthaven on 4 ranks
    // and 4 piles, seed 0, is won by it, in a line legal under the rules.
    let o = demon(&[
        "solve",
        "double-easthaven",
        "--ranks",
        "4",
        "--piles",
        "4",
        "0",
        "--relax-from",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["found_by"], "relaxed");
    assert_eq!(v["stats"]["relaxed_nodes"], 198);
    assert_eq!(v["stats"]["nodes"], 198);
    // Easthaven on 7 ranks, seed 0, is lost: the relaxation says it first,
    // and the search alone says it too.
    let easthaven = ["solve", "easthaven", "--ranks", "7", "0"];
    let o = demon(&[&easthaven[..], &["--relax-from", "0"]].concat());
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("LOST: proved lost under relaxed rules that also deal the stock while a pile is empty, and so allow every line of play of these rules and more;"),
        "{}",
        stdout(&o)
    );
    let o = demon(&[&easthaven[..], &["--relax-from", "0", "--no-relaxation"]].concat());
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("LOST: every reachable position was explored;"),
        "{}",
        stdout(&o)
    );
    // A batch names it in the report's settings, its found_by column and
    // its summary; not with --no-relaxation, nor for rules without one.
    let dir = tempfile::tempdir().unwrap();
    for (game, extra, relaxed) in [
        ("easthaven", &[][..], true),
        ("easthaven", &["--no-relaxation"][..], false),
        ("canfield", &[][..], false),
    ] {
        let csv = dir.path().join(format!("{game}-{relaxed}.csv"));
        let args = [
            &[
                "batch",
                game,
                "--ranks",
                "7",
                "--seeds",
                "0..2",
                "--relax-from",
                "0",
            ][..],
            extra,
            &["--csv", csv.to_str().unwrap()],
        ]
        .concat();
        let o = demon(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let run = std::fs::read_to_string(csv.with_extension("csv.run")).unwrap();
        assert_eq!(run.contains(" relaxation=on"), relaxed, "{game}: {run}");
        let report = std::fs::read_to_string(&csv).unwrap();
        let row: Vec<&str> = report.lines().nth(1).unwrap().split(',').collect();
        if game == "easthaven" {
            assert_eq!(&row[2..4], &["0", "lost"], "{report}");
            assert_eq!(row[10], if relaxed { "relaxed" } else { "" }, "{report}");
            assert_eq!(
                stdout(&o).contains("losses proved under relaxed rules: 1\n"),
                relaxed,
                "{}",
                stdout(&o)
            );
        }
    }
}

/// Canfield (runs move in any part) seed 479 with a checkpoint, whose
/// file comes next. Without rollouts, whose nodes would move where the
/// sittings stop (they are run afresh in each sitting; nothing of theirs
/// is saved): the pins below are the exhaustive search's. With the
/// best-first probes, off by default in Canfield, as the fixtures below
/// were saved with them (`probes_are_off_by_default_in_canfield`).
const SOLVE_479: [&str; 10] = [
    "solve",
    "canfield",
    "479",
    "--group-moves",
    "any",
    "--no-rollouts",
    "--probes",
    "--format",
    "json",
    "--checkpoint",
];

/// Whether checkpoint `ck` is in the format `magic` names.
fn saved_as(ck: &std::path::Path, magic: &[u8; 8]) -> bool {
    std::fs::read(ck).unwrap().windows(8).any(|w| w == magic)
}

/// `o`, the last sitting of seed 479's search, resumed from `ck`, ends lost
/// with these counts, and the checkpoint of the decided deal is removed.
fn ends_lost(o: &Output, ck: &std::path::Path, positions: u64, nodes: u64) {
    assert_eq!(o.status.code(), Some(3), "{}", stderr(o));
    assert!(stderr(o).contains("resuming the search saved in"));
    let v: serde_json::Value = serde_json::from_str(&stdout(o)).unwrap();
    assert_eq!(v["verdict"], "lost");
    assert_eq!(v["stats"]["positions_stored"], positions);
    assert_eq!(v["stats"]["nodes"], nodes);
    assert!(!ck.exists(), "the checkpoint of a decided deal is removed");
}

/// `--threads 2` searches one deal with two threads: the same verdict,
/// the second thread handed work; batch reports name the setting.
#[test]
fn threads_search_one_deal_together() {
    let args = [
        "solve",
        "canfield",
        "50",
        "--group-moves",
        "any",
        "--tableau-wrap",
        "base",
        "--threads",
        "2",
        "--format",
        "json",
    ];
    let o = demon(&args);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["stats"]["paths_handed_to_threads"].as_u64().unwrap() > 0);
    fails_with(&["solve", "canfield", "1", "--threads", "0"], "--threads");
    let csv = scratch("threads.csv", "");
    std::fs::remove_file(&csv).unwrap();
    let o = demon(&[
        "batch",
        "canfield",
        "--seeds",
        "1..4",
        "--threads",
        "2",
        "--jobs",
        "1",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = std::fs::read_to_string(csv.with_extension("csv.run")).unwrap();
    assert!(run.contains("threads=2"), "{run}");
}

#[test]
fn probes_are_off_by_default_in_canfield() {
    // Seed 479 is lost: its probes (50,000 nodes at 100,000, and 100,000
    // at 400,000, which it no longer reaches) only add nodes, and their nodes move where the cursors
    // take turns, so a few positions differ too (see the second format's
    // test below).
    let o = demon(
        &SOLVE_479[..SOLVE_479.len() - 1]
            .iter()
            .filter(|a| **a != "--probes")
            .copied()
            .collect::<Vec<_>>(),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["stats"]["nodes"], 338_964);
    assert_eq!(v["stats"]["positions_stored"], 100_026);
}

#[test]
fn a_search_saved_in_a_checkpoint_goes_on_where_it_stopped() {
    // Canfield (runs move in any part) seed 479, lost with 100,026
    // positions stored in 388,964 nodes: stopped twice by node limits,
    // saved (the table and the cursors' paths) and resumed, it ends with
    // the same verdict, the same positions and the same nodes (the
    // rebuilt paths go on where they stopped), and the file goes once
    // the deal is decided.
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("s479.ck");
    let ck_arg = ck.to_str().unwrap();
    let base = [&SOLVE_479[..], &[ck_arg]].concat();
    let run = |extra: &[&str]| demon(&[&base[..], extra].concat());
    let o = run(&["--max-nodes", "200K"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(ck.exists());
    assert!(
        stderr(&o).contains("the same command continues it"),
        "{}",
        stderr(&o)
    );
    // Another deal, other rules, or other search options are refused,
    // and the file is left as it was.
    let saved = std::fs::read(&ck).unwrap();
    for other in [
        vec!["solve", "canfield", "480", "--group-moves", "any"],
        vec!["solve", "canfield", "479"],
        vec![
            "solve",
            "canfield",
            "479",
            "--group-moves",
            "any",
            "--no-tableau-classes",
        ],
    ] {
        let o = demon(&[&other[..], &["--checkpoint", ck_arg]].concat());
        assert_eq!(o.status.code(), Some(1), "{other:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("belongs to another search"),
            "{}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(&ck).unwrap(), saved);
    }
    let o = run(&["--max-nodes", "300K"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming the search saved in"));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["stats"]["nodes"], 300_000, "node counts carry on");
    ends_lost(&run(&[]), &ck, 100_026, 388_964);
}

#[test]
fn a_checkpoint_of_the_fourth_format_is_resumed() {
    // Saved by c2ce335 in the fourth format (`demonPT4`: without the stack
    // bound's count of idle tests, read as 0; `--max-nodes 3000`). The
    // search without a stop has not backed the bound off by then (it asks
    // about 65,536 positions first), so the resumed search ended as it
    // does (106,431 positions, 503,724 nodes) until the stack bound
    // counted every choice of the foundations' heights: the saved 3,000
    // nodes were explored without it, and met positions it now calls
    // lost, so the resumed search ends lost with 100,806 positions
    // against 100,026 without a stop.
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("s479.ck");
    std::fs::copy("tests/fixtures/canfield-any-479-pt4.ck", &ck).unwrap();
    assert!(saved_as(&ck, b"demonPT4"));
    let o = demon(&[&SOLVE_479[..], &[ck.to_str().unwrap()]].concat());
    ends_lost(&o, &ck, 100_806, 390_789);
}

#[test]
fn a_checkpoint_of_the_second_format_is_resumed() {
    // Saved by 597baf2 in the second format (`demonPT3`: each frame as the
    // move it was exploring, not its list; `--max-nodes 3000`). Its
    // rebuilt frames explore all their other moves again, none put to
    // sleep; stopped at 100,000 nodes and saved in the present format,
    // then resumed, it ends lost with 100,785 positions (100,026 without
    // a stop), in 391,251 nodes. A lost deal's count depends a little on
    // the order positions are met in: the dead-end test reads the
    // position the search arrives at (which member of its tableau class,
    // which talon state of its key), and one arrival can show the stored
    // position lost where another does not, before or after its moves
    // are explored, and on which plays an arrival at a lower talon level
    // leaves out (`--no-deadlock`: 113,936, 113,250 and 109,017 positions
    // with 1, 8 or 64 cursors; 123,137 with each before those plays were
    // left out).
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("s479.ck");
    std::fs::copy("tests/fixtures/canfield-any-479-pt3.ck", &ck).unwrap();
    let run = |extra: &[&str]| demon(&[&SOLVE_479[..], &[ck.to_str().unwrap()], extra].concat());
    // Stopped again, it is saved in the present format, which goes on.
    let o = run(&["--max-nodes", "100K"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(saved_as(&ck, b"demonPT5"));
    ends_lost(&run(&[]), &ck, 100_785, 391_251);
}

#[test]
fn a_checkpoint_of_an_older_search_is_refused() {
    // Saved by search version 1 (in the first format, `demonPT2`, with
    // `--max-nodes 3000`). Version 2 stores free tableau classes under
    // keys version 1 gave to smaller classes, so its "explored" could
    // stand for positions never explored: it is refused, and left as it
    // was.
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("s479.ck");
    std::fs::copy("tests/fixtures/canfield-any-479-pt2.ck", &ck).unwrap();
    let saved = std::fs::read(&ck).unwrap();
    let o = demon(&[&SOLVE_479[..], &[ck.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("belongs to another search"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("search 1\n"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&ck).unwrap(), saved);
}

#[test]
fn ctrl_c_saves_a_checkpointed_search() {
    // Superior Canfield seed 62 takes minutes to decide; Ctrl-C (SIGINT)
    // after two seconds stops it as a limit does, and saves it.
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("s62.ck");
    let args = [
        "solve",
        "superior-canfield",
        "62",
        "--max-memory",
        "256M",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    let o = interrupted_after(&args, 2);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stdout(&o).contains("UNKNOWN: the search stopped at the interruption"));
    assert!(stderr(&o).contains("interrupted: stopping the search and saving it"));
    assert!(ck.exists());
    // The same command goes on from there (here for 100,000 more nodes).
    let text = stdout(&o);
    let v: Vec<&str> = text.lines().last().unwrap().split([' ', ',']).collect();
    let nodes: u64 = v[1].parse().unwrap();
    let more = (nodes + 100_000).to_string();
    let o = demon(&[&args[..], &["--max-nodes", &more]].concat());
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming the search saved in"));
    assert!(stdout(&o).contains(&format!("node limit ({more} nodes)")));
}

/// Runs demon with `args`, sends it Ctrl-C (SIGINT) after `secs` seconds
/// with the shell's own `kill` (no other program needed), and waits for it.
fn interrupted_after(args: &[&str], secs: u64) -> std::process::Output {
    let child = Command::new(env!("CARGO_BIN_EXE_demon"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(secs));
    let kill = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_stops_a_search_with_its_counts() {
    // Superior Canfield seed 62 takes minutes to decide. Without
    // --checkpoint, Ctrl-C stops it as a limit does: UNKNOWN, with the
    // nodes searched so far, and exit code 4.
    let o = interrupted_after(
        &["solve", "superior-canfield", "62", "--max-memory", "256M"],
        2,
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("UNKNOWN: the search stopped at the interruption"),
        "{text}"
    );
    let v: Vec<&str> = text.lines().last().unwrap().split([' ', ',']).collect();
    assert_eq!(v[0], "nodes");
    assert!(v[1].parse::<u64>().unwrap() > 0, "{text}");
    assert!(stderr(&o).contains("interrupted: stopping the search (Ctrl-C again quits at once)"));
}

/// Nested rollouts win American Toad seed 67 (its 6,471 rollout moves are
/// counted in the nodes and shown); `--no-rollouts` leaves it unknown at
/// the same node limit.
#[test]
fn rollouts_win_and_can_be_turned_off() {
    let args = [
        "solve",
        "american-toad",
        "67",
        "--max-nodes",
        "1M",
        "--max-memory",
        "512M",
        "--format",
        "json",
    ];
    let o = demon(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "won");
    assert_eq!(v["stats"]["nodes"], 156_471);
    assert_eq!(v["stats"]["rollout_nodes"], 6_471);
    let o = demon(&[&args[..], &["--no-rollouts"]].concat());
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["verdict"], "unknown");
    assert_eq!(v["stats"]["rollout_nodes"], 0);
    // How near it came: at most 62 of the 104 cards up in one position;
    // the text says it too.
    assert_eq!(
        (&v["stats"]["most_cards_up"], &v["stats"]["cards"]),
        (&serde_json::json!(62), &serde_json::json!(104))
    );
    // The same arguments without the final `--format json`.
    let o = demon(&[&args[..args.len() - 2], &["--no-rollouts"]].concat());
    assert!(
        stdout(&o).contains(", most cards up 62 of 104, "),
        "{}",
        stdout(&o)
    );
}

/// A win names what found it, in JSON and in words: Canfield 1 is won by
/// the exhaustive search, Rainbow 21 by a best-first probe (at 111,370
/// nodes), American Toad 3 by the nested rollouts; a lost deal names
/// nothing.
#[test]
fn a_win_names_what_found_it() {
    let found = |args: &[&str]| {
        let o = demon(&[args, &["--format", "json"]].concat());
        assert!(matches!(o.status.code(), Some(0 | 3)), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        (v["found_by"].clone(), v["stats"]["nodes"].as_u64().unwrap())
    };
    assert_eq!(found(&["solve", "canfield", "1"]).0, "search");
    assert_eq!(
        found(&["solve", "rainbow", "21"]),
        (serde_json::json!("probe"), 111_370)
    );
    assert_eq!(found(&["solve", "american-toad", "3"]).0, "ladder");
    let lost = ["solve", "canfield", "479", "--group-moves", "any"];
    assert_eq!(found(&lost).0, serde_json::Value::Null);
    let o = demon(&["solve", "rainbow", "21"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("), found by a best-first probe; the move list was replayed"),
        "{}",
        stdout(&o)
    );
}
