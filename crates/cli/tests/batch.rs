//! End-to-end tests of `demon batch`, `compare` and `merge`: a run killed
//! and interrupted part way, then resumed, writes the report an
//! uninterrupted run writes; bad input is a clear error that leaves files
//! alone.

mod common;

use common::{demon, log_lines, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn lines(p: &Path) -> usize {
    std::fs::read_to_string(p).map_or(0, |s| s.lines().count())
}

/// The report without its time column, which no two runs share.
fn timeless(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(7);
            f.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Canfield with runs moving in any part, 120 deals each stopped at 60,000
/// nodes at most: deterministic rows, a few seconds in all.
/// The fields of line `line` (0 the header) of report `p`; the rules
/// field holds no comma.
fn fields(p: &Path, line: usize) -> Vec<String> {
    let report = std::fs::read_to_string(p).unwrap();
    let l = report
        .lines()
        .nth(line)
        .unwrap_or_else(|| panic!("{report}"));
    l.split(',').map(String::from).collect()
}

fn run_args(csv: &Path) -> Vec<String> {
    [
        "batch",
        "canfield",
        "--group-moves",
        "any",
        "--seeds",
        "1..120",
        "--max-nodes",
        "60000",
        "--jobs",
        "2",
        "--max-memory",
        "256M",
        "--csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([csv.display().to_string()])
    .collect()
}

/// Starts the run and stops it (`signal`: "KILL" or "INT") once the report
/// has `rows` rows; returns whether it was still running then.
fn start_and_stop(args: &[String], csv: &Path, rows: usize, signal: &str) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_demon"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while lines(csv) < rows + 1 && t.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    let st = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let status = child.wait().unwrap();
    if signal == "INT" && running {
        assert_eq!(status.code(), Some(130), "Ctrl-C exits 130");
    }
    running
}

/// Starts the run, waits (at most a minute) until `ready`, then `settle_ms`
/// more, and stops it as Ctrl-C does: it must exit 130. Its output.
fn ctrl_c_once(args: &[String], ready: impl Fn() -> bool, settle_ms: u64) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_demon"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !ready() && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(settle_ms));
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    o
}

#[test]
fn killed_and_interrupted_runs_resume_to_the_uninterrupted_report() {
    let d = dir();
    let whole = d.path().join("whole.csv");
    let o = demon(
        &run_args(&whole)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(lines(&whole), 121);
    assert!(!PathBuf::from(format!("{}.pending", whole.display())).exists());
    let s = text(&o.stdout);
    assert!(s.contains("deals 120: won "), "{s}");

    let part = d.path().join("part.csv");
    let args = run_args(&part);
    assert!(
        start_and_stop(&args, &part, 10, "KILL"),
        "the run ended before the kill"
    );
    let after_kill = lines(&part) - 1;
    assert!(after_kill < 120, "{after_kill}");
    let mut resume = args.clone();
    resume.push("--resume".into());
    // Interrupted again, with Ctrl-C this time, further on.
    assert!(start_and_stop(&resume, &part, after_kill + 20, "INT"));
    assert!(lines(&part) - 1 < 120);
    let o = demon(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("resumed:"), "{}", text(&o.stderr));
    assert_eq!(timeless(&part), timeless(&whole));
    assert!(!PathBuf::from(format!("{}.pending", part.display())).exists());
    // The summary covers every deal, the resumed ones too.
    let s = text(&o.stdout);
    assert!(s.contains("deals 120: won "), "{s}");
}

#[test]
fn bad_batch_input_is_a_clear_error_and_damages_nothing() {
    let d = dir();
    for (seeds, msg) in [
        ("10..3", "empty range"),
        ("1..x", "x is not a seed"),
        ("..", "is not a seed range"),
    ] {
        let o = demon(&["batch", "canfield", "--seeds", seeds]);
        assert_eq!(o.status.code(), Some(2), "{seeds}");
        assert!(text(&o.stderr).contains(msg), "{}", text(&o.stderr));
    }
    let o = demon(&["batch", "canfield", "--seeds", "1..3", "--shard", "4/3"]);
    assert!(
        text(&o.stderr).contains("is not a shard"),
        "{}",
        text(&o.stderr)
    );
    let o = demon(&["batch", "canfield", "--seeds", "1..3", "--resume"]);
    assert!(text(&o.stderr).contains("--csv"), "{}", text(&o.stderr));

    // A report of one game is not resumed as another, nor overwritten.
    let csv = d.path().join("c.csv");
    let c = csv.display().to_string();
    let o = demon(&[
        "batch", "canfield", "--ranks", "6", "--seeds", "1..4", "--csv", &c,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let before = std::fs::read(&csv).unwrap();
    let resume_refused = |run: &[&str], msg: &str| {
        let mut a = vec!["batch"];
        a.extend_from_slice(run);
        a.extend_from_slice(&["--seeds", "1..8", "--csv", &c, "--resume"]);
        let o = demon(&a);
        assert_eq!(o.status.code(), Some(1), "{run:?}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains(msg), "{}", text(&o.stderr));
    };
    resume_refused(
        &["storehouse", "--ranks", "6"],
        "report is of canfield, and this run is of storehouse",
    );
    resume_refused(&["canfield", "--ranks", "7"], "rules differ");
    // Nor resumed with another number of search paths: which deals end
    // unknown at a node limit depends on it.
    resume_refused(
        &["canfield", "--ranks", "6", "--cursors", "1"],
        "cursors=4096 probes=off\n  run:    max-nodes=",
    );
    // Nor with rollouts or best-first probes turned on (both off by
    // default in Canfield; they decide deals under a node limit).
    resume_refused(
        &["canfield", "--ranks", "6", "--rollouts"],
        "cursors=4096 rollouts=on probes=off",
    );
    resume_refused(
        &["canfield", "--ranks", "6", "--probes"],
        "cursors=4096 probes=off\n  run:    ",
    );
    let o = demon(&[
        "batch", "canfield", "--ranks", "6", "--seeds", "1..8", "--csv", &c,
    ]);
    assert!(
        text(&o.stderr).contains("already exists"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read(&csv).unwrap(), before);

    // Merge refuses other rules; a report's --resume over a longer range
    // continues it.
    let other = d.path().join("o.csv");
    let o = demon(&[
        "batch",
        "canfield",
        "--ranks",
        "7",
        "--seeds",
        "5..6",
        "--csv",
        &other.display().to_string(),
    ]);
    assert!(o.status.success());
    let o = demon(&["merge", &c, &other.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("a different run"),
        "{}",
        text(&o.stderr)
    );
    let o = demon(&[
        "batch", "canfield", "--ranks", "6", "--seeds", "1..8", "--csv", &c, "--resume",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("deals 8:"), "{}", text(&o.stdout));
}

#[test]
fn shards_merge_into_the_whole_run() {
    let d = dir();
    let path = |n: &str| d.path().join(n).display().to_string();
    let base = [
        "batch", "canfield", "--ranks", "8", "--seeds", "1..30", "--jobs", "1",
    ];
    let whole = path("whole.csv");
    let mut a: Vec<&str> = base.to_vec();
    a.extend(["--csv", &whole]);
    let o = demon(&a);
    assert!(o.status.success());
    // The summary ends with what the run really held (Linux), against
    // its budget: a few MiB for 30 deals of eight ranks.
    if cfg!(target_os = "linux") {
        let out = text(&o.stdout);
        let line = out
            .lines()
            .last()
            .and_then(|l| l.strip_prefix("resident memory of the whole run: at most "))
            .unwrap_or_else(|| panic!("no resident line: {out}"));
        let (n, rest) = line.split_once(" MiB ").unwrap();
        assert!((1..64).contains(&n.parse::<u32>().unwrap()), "{line}");
        assert_eq!(rest, "(--max-memory 4.0 GiB for 1 job)");
    }
    let parts: Vec<String> = (1..=3).map(|i| path(&format!("p{i}.csv"))).collect();
    for (i, p) in parts.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        let mut a: Vec<&str> = base.to_vec();
        a.extend(["--shard", &shard, "--csv", p]);
        let o = demon(&a);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(lines(Path::new(p)), 11);
    }
    let merged = path("merged.csv");
    let o = demon(&["merge", &parts[0], &parts[1], &parts[2], "--csv", &merged]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(timeless(Path::new(&merged)), timeless(Path::new(&whole)));
    assert!(text(&o.stdout).contains("deals 30:"), "{}", text(&o.stdout));
    // Two shards only: no overlap, the third shard's seeds missing between
    // 1 and 29, said so.
    let o = demon(&["merge", &parts[0], &parts[1]]);
    assert!(o.status.success());
    assert!(
        text(&o.stderr).contains("9 seeds are missing between the first and the last: 3, 6, 9,"),
        "{}",
        text(&o.stderr)
    );
    // The same shard twice overlaps.
    let o = demon(&["merge", &parts[0], &parts[0]]);
    assert!(text(&o.stderr).contains("overlap"), "{}", text(&o.stderr));
}

#[test]
fn compare_pairs_the_deals_of_two_variants() {
    let d = dir();
    let prefix = d.path().join("cmp").display().to_string();
    let o = demon(&[
        "compare",
        "--csv",
        &prefix,
        "canfield",
        "--ranks",
        "8",
        "--seeds",
        "1..60",
        "--variant",
        "whole: --group-moves whole",
        "--variant",
        "any: --group-moves any",
        "--variant",
        "onepass: --group-moves any --redeals 0",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = text(&o.stdout);
    assert!(s.contains("whole vs any: "), "{s}");
    assert!(s.contains("whole vs onepass: "), "{s}");
    assert!(s.contains("McNemar exact p = "), "{s}");
    // Any run may move where a whole pile may: never won under `whole`
    // only. One pass of the stock never wins more than unlimited passes.
    let line = s.lines().find(|l| l.starts_with("whole vs any:")).unwrap();
    assert!(line.contains("whole only 0,"), "{line}");
    // Each variant's report, and the table as CSV.
    for v in ["whole", "any", "onepass"] {
        assert_eq!(lines(Path::new(&format!("{prefix}-{v}.csv"))), 61, "{v}");
    }
    let table = std::fs::read_to_string(format!("{prefix}-compare.csv")).unwrap();
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 4, "{table}");
    assert!(rows[0].starts_with("variant,rules,deals,won,lost,unknown,win_rate"));
    assert!(
        rows[2].starts_with("any,") && rows[2].contains(",whole,"),
        "{table}"
    );

    let o = demon(&[
        "compare",
        "canfield",
        "--seeds",
        "1..3",
        "--variant",
        "a: --group-moves sideways",
        "--variant",
        "b:",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains("--variant 'a'") && e.contains("sideways"), "{e}");
    for (variants, msg) in [
        (&["a: --group-moves any"][..], "at least two"),
        (&["no colon", "b:"][..], "'NAME: options'"),
        (&["compare:", "b:"][..], "may not be named 'compare'"),
    ] {
        let mut args = vec!["compare", "canfield", "--seeds", "1..3"];
        for v in variants {
            args.extend(["--variant", v]);
        }
        let o = demon(&args);
        assert_eq!(o.status.code(), Some(1), "{variants:?}");
        assert!(text(&o.stderr).contains(msg), "{}", text(&o.stderr));
    }
}

#[test]
fn retried_unknown_deals_merge_into_the_run_at_the_larger_limit() {
    let d = dir();
    let path = |n: &str| d.path().join(n).display().to_string();
    let (base, retry, merged, direct) = (
        path("base.csv"),
        path("retry.csv"),
        path("merged.csv"),
        path("direct.csv"),
    );
    let args = |nodes: &str, deals: &[&str], csv: &str| -> Vec<String> {
        let mut a: Vec<String> = [
            "batch",
            "canfield",
            "--group-moves",
            "any",
            "--max-nodes",
            nodes,
            "--jobs",
            "2",
            "--max-memory",
            "256M",
            "--csv",
            csv,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(deals.iter().map(|s| s.to_string()));
        a
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        let o = demon(&a);
        assert!(o.status.success(), "{}", text(&o.stderr));
        o
    };
    let o = run(args("20k", &["--seeds", "1..120"], &base));
    // The summary costs a stored position by the largest search's table.
    let out = text(&o.stdout);
    assert!(
        out.contains(" positions in a table of ")
            && out.contains(" bytes a position; its peak memory "),
        "{out}"
    );
    let unknown = |p: &str| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| l.contains(",unknown,"))
            .count()
    };
    let before = unknown(&base);
    assert_eq!(before, 8, "unknown at 20,000 nodes");
    // found_by names what found each win: here (one deck, unlimited
    // redeals: no probes or rollouts by default) the search. The last
    // column, the table's bytes, holds at least the 16-byte entries of
    // the positions stored.
    let report = std::fs::read_to_string(&base).unwrap();
    assert!(report.starts_with(
        "game,rules,seed,verdict,solution_moves,nodes,stored,seconds,peak_memory,limit,found_by,most_up,table_bytes\n"
    ));
    let won = report.lines().filter(|l| l.contains(",won,")).count();
    assert!(won > 90, "{won} won");
    for l in report.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f[10] == "search", l.contains(",won,"), "{l}");
        let (stored, table): (u64, u64) = (f[6].parse().unwrap(), f[12].parse().unwrap());
        assert!(stored > 0 && table >= 16 * stored, "{l}");
    }
    let o = run(args("60000", &["--retry-unknown", &base], &retry));
    assert!(
        text(&o.stderr).contains(&format!("{before} deals (the unknown deals of")),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(lines(Path::new(&retry)), before + 1);
    // Folded in, the retried rows make the report of a run at the larger
    // limit: the search is deterministic, and a deal decided within 20,000
    // nodes is decided the same way within 60,000.
    let o = demon(&["merge", &base, "--retried", &retry, "--csv", &merged]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    run(args("60000", &["--seeds", "1..120"], &direct));
    assert_eq!(timeless(Path::new(&merged)), timeless(Path::new(&direct)));
    let after = unknown(&direct);
    assert_eq!(after, 4, "unknown at 60,000 nodes");
    assert!(
        text(&o.stdout).contains(&format!(
            "retried in {retry}: {before} unknown deals solved again, {} of them decided",
            before - after
        )),
        "{}",
        text(&o.stdout)
    );

    // A retry at a smaller limit (the 60,000-node report's unknown deals
    // at 20,000) decides nothing, and the rows of the larger search stay.
    let (small, merged3) = (path("small.csv"), path("merged3.csv"));
    run(args("20k", &["--retry-unknown", &direct], &small));
    let o = demon(&["merge", &direct, "--retried", &small, "--csv", &merged3]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(timeless(Path::new(&merged3)), timeless(Path::new(&direct)));
    assert!(
        text(&o.stdout).contains(&format!(
            "retried in {small}: {after} unknown deals solved again, 0 of them decided; \
             {after} still unknown after fewer nodes than before (the earlier rows kept)"
        )),
        "{}",
        text(&o.stdout)
    );
    // The JSON summary counts them too, and says how near the unknown
    // deals came (most_up, which every row of these reports records).
    let o = demon(&["merge", &direct, "--retried", &small, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["retried"][0]["kept"], after as u64);
    assert_eq!(v["unknown_most_up"]["deals"], after as u64);
    assert!(v["unknown_most_up"]["nearest_most_up"].as_u64().unwrap() > 0);

    // Refusals: other rules, the report itself as the output, a report
    // with nothing unknown, and no deals at all (a usage error).
    // The retry in two shards, folded in one --retried each, gives the
    // same report; the JSON summary says what each retry did.
    let (s1, s2, merged2) = (path("s1.csv"), path("s2.csv"), path("merged2.csv"));
    run(args(
        "60000",
        &["--retry-unknown", &base, "--shard", "1/2"],
        &s1,
    ));
    run(args(
        "60000",
        &["--retry-unknown", &base, "--shard", "2/2"],
        &s2,
    ));
    assert_eq!(lines(Path::new(&s1)) + lines(Path::new(&s2)), before + 2);
    let o = demon(&[
        "merge",
        &base,
        "--retried",
        &s1,
        "--retried",
        &s2,
        "--csv",
        &merged2,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(timeless(Path::new(&merged2)), timeless(Path::new(&direct)));
    let o = demon(&["merge", &base, "--retried", &s1, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let r = &v["retried"][0];
    assert_eq!(
        (r["replaced"].as_u64(), r["not_covered"].as_u64()),
        (
            Some(lines(Path::new(&s1)) as u64 - 1),
            Some(lines(Path::new(&s2)) as u64 - 1)
        )
    );
    assert!(v["nodes_per_second"].as_f64().unwrap() > 0.0);
    assert!(v["largest_search"]["stored"].as_u64().unwrap() > 0);
    assert_eq!(
        v["wins_found_by"],
        serde_json::json!({ "search": v["won"].as_u64().unwrap() })
    );
    let o = demon(&["merge", &base, "--retried", &s1, "--retried", &s1]);
    assert!(
        text(&o.stderr).contains("is given twice"),
        "{}",
        text(&o.stderr)
    );

    let easy = path("easy.csv");
    run(args("60000", &["--seeds", "1..5"], &easy));
    assert_eq!(unknown(&easy), 0);
    let mut other_rules = args("60000", &["--retry-unknown", &base], &path("x.csv"));
    other_rules.extend(["--draw".into(), "1".into()]);
    let refusals = [
        (other_rules, "the report's rules differ from this run's"),
        (
            args("60000", &["--retry-unknown", &base], &base),
            "is the report being retried",
        ),
        (
            args("20k", &["--retry-unknown", &base], &path("z.csv")),
            "this run's limits are the report's",
        ),
        (
            args("60000", &["--retry-unknown", &easy], &path("y.csv")),
            "the report has no unknown deals",
        ),
    ];
    let kept = std::fs::read(&base).unwrap();
    for (a, msg) in refusals {
        let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        let o = demon(&a);
        assert_eq!(o.status.code(), Some(1), "{msg}");
        assert!(text(&o.stderr).contains(msg), "{}", text(&o.stderr));
    }
    assert_eq!(
        std::fs::read(&base).unwrap(),
        kept,
        "the retried report is untouched"
    );
    let o = demon(&["batch", "canfield", "--max-nodes", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--seeds"), "{}", text(&o.stderr));
    for never in ["x.csv", "y.csv", "z.csv"] {
        assert!(!Path::new(&path(never)).exists(), "{never}");
    }
}

/// A two-deck report's settings name the restarts beside the rollouts
/// (e399ac9), their cuts (restarts that start partway along the best
/// line), the beams and the NRPA searches, each of which changed what
/// those searches decide under a node limit: a report made before them
/// may be retried at its own limits, one made with them may not.
#[test]
fn two_deck_reports_name_the_restarts() {
    let d = dir();
    let path = |n: &str| d.path().join(n).display().to_string();
    let base = path("base.csv");
    let run = |extra: &[&str], csv: &str| {
        let mut a = vec![
            "batch",
            "american-toad",
            "--max-nodes",
            "20k",
            "--max-memory",
            "256M",
            "--jobs",
            "1",
            "--csv",
            csv,
        ];
        a.extend_from_slice(extra);
        demon(&a)
    };
    let o = run(&["--seeds", "3..5"], &base);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let sidecar = format!("{base}.run");
    let settings = std::fs::read_to_string(&sidecar).unwrap();
    assert!(
        settings
            .trim_end()
            .ends_with(" rollouts=on restarts=cuts beams=on nrpa=half tails=nrpa+restarts"),
        "{settings}"
    );
    let o = run(&["--retry-unknown", &base], &path("same.csv"));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("this run's limits are the report's")
            && text(&o.stderr).contains("or another --rollout-seed"),
        "{}",
        text(&o.stderr)
    );
    // Another seed of the random searches is a retry at the same limits,
    // and its report names the seed, so that it resumes only with it.
    let seeded = path("seed-1.csv");
    let o = run(&["--retry-unknown", &base, "--rollout-seed", "1"], &seeded);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let named = std::fs::read_to_string(format!("{seeded}.run")).unwrap();
    assert_eq!(
        named.trim_end(),
        format!("{} rollout-seed=1", settings.trim_end())
    );
    assert_eq!(lines(Path::new(&seeded)), 3);
    let o = run(
        &["--retry-unknown", &seeded, "--rollout-seed", "1"],
        &path("seed-1-again.csv"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("this run's limits are the report's"),
        "{}",
        text(&o.stderr)
    );
    // So is another value of the playouts' ends (--playout-weights, for
    // experiments), named in full; a weight it does not know is named.
    let valued = path("valued.csv");
    let o = run(
        &["--retry-unknown", &base, "--playout-weights", "blocked=-4"],
        &valued,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let w = "found=10,reserve=5,down=-3,empty=0,unbuilt=0,blocked=-4,pass=0,pos=0,low=60";
    assert_eq!(
        std::fs::read_to_string(format!("{valued}.run"))
            .unwrap()
            .trim_end(),
        settings
            .trim_end()
            .replace(" rollouts=on", &format!(" rollouts=on playout={w}"))
    );
    let o = run(
        &["--retry-unknown", &base, "--playout-weights", "up=3"],
        &path("bad.csv"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("`up=3`: no weight `up`"),
        "{}",
        text(&o.stderr)
    );
    // Reports of the tail searches on the NRPA searches' lines alone, of
    // NRPA before the tail searches, of NRPA with a quarter of each
    // phase, of the beams before the NRPA searches, of the cuts before
    // the beams, of the restarts before the cuts, and of no restarts.
    for (older, csv) in [
        (
            " restarts=cuts beams=on nrpa=half tails=on",
            "nrpa-tails.csv",
        ),
        (" restarts=cuts beams=on nrpa=half", "no-tails.csv"),
        (" restarts=cuts beams=on nrpa=on", "quarter.csv"),
        (" restarts=cuts beams=on", "beams.csv"),
        (" restarts=cuts", "cuts.csv"),
        (" restarts=on", "on.csv"),
        ("", "older.csv"),
    ] {
        let now = " restarts=cuts beams=on nrpa=half tails=nrpa+restarts";
        std::fs::write(&sidecar, settings.replace(now, older)).unwrap();
        let o = run(&["--retry-unknown", &base], &path(csv));
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(lines(Path::new(&path(csv))), 3);
    }
    // Without the beams, the NRPA searches (and so their tail searches),
    // or the tail searches, a report does not name them; another budget
    // of the tail searches is named.
    for (flag, named) in [
        ("--no-beams", " restarts=cuts nrpa=half tails=nrpa+restarts"),
        ("--no-nrpa", " restarts=cuts beams=on"),
        ("--no-tails", " restarts=cuts beams=on nrpa=half"),
        (
            "--tail-nodes=400k",
            " restarts=cuts beams=on nrpa=half tails=nrpa+restarts tail-nodes=400000",
        ),
    ] {
        let plain = path(&format!("plain{flag}.csv"));
        let o = run(&["--seeds", "3..5", flag], &plain);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let settings = std::fs::read_to_string(format!("{plain}.run")).unwrap();
        assert!(
            settings
                .trim_end()
                .ends_with(&format!(" rollouts=on{named}")),
            "{settings}"
        );
    }
}

#[test]
fn ctrl_c_saves_the_deals_in_progress_with_a_checkpoint_dir() {
    // Superior Canfield seeds 61 (won in 55 nodes) and 62 (unknown at
    // 3,000,000 nodes, a few seconds): Ctrl-C while 62 is searched saves
    // its search in the directory instead of losing it, and --resume goes
    // on from there to the row an uninterrupted run writes (the same
    // verdict, node count and limit; not always the same positions: the
    // resumed cursors take their turns and split differently).
    let d = dir();
    let csv = d.path().join("r.csv");
    let ck = d.path().join("ck");
    // The run with its report, and the checkpoint directory after `more`.
    let run = |report: &Path, more: &[&str]| -> Vec<String> {
        [
            "batch",
            "superior-canfield",
            "--seeds",
            "61..62",
            "--max-nodes",
            "3M",
            "--jobs",
            "1",
            "--max-memory",
            "256M",
            "--csv",
            report.to_str().unwrap(),
        ]
        .iter()
        .chain(more)
        .map(|s| s.to_string())
        .collect()
    };
    let args = run(&csv, &["--checkpoint-dir", ck.to_str().unwrap()]);
    // Seed 61's row is written at once; 62 is then under way.
    let o = ctrl_c_once(&args, || lines(&csv) >= 2, 500);
    let err = text(&o.stderr);
    assert!(
        err.contains("saved the search of 1 deal in progress") && err.contains("(seed 62)"),
        "{err}"
    );
    let saved = ck.join("superior-canfield-62.ck");
    assert!(saved.exists());
    assert_eq!(lines(&csv), 2, "no row for the interrupted deal");

    let mut resume = args.clone();
    resume.push("--resume".into());
    let o = demon(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(!saved.exists(), "the file of a finished deal is removed");
    let row = |p: &Path| {
        let f = fields(p, 2);
        (f[2].clone(), f[3].clone(), f[5].clone(), f[9].clone())
    };
    let whole = d.path().join("whole.csv");
    let o = demon(
        &run(&whole, &[])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(row(&csv), row(&whole));
    assert_eq!(
        row(&csv),
        (
            "62".into(),
            "unknown".into(),
            "3000000".into(),
            "node limit (3000000 nodes)".into()
        )
    );
}

#[test]
fn ctrl_c_saves_a_layered_deal_in_its_directory() {
    // Chameleon 723 by the layered search (lost, 294,408 nodes without
    // the bound on the waste, which makes it a search long enough to
    // interrupt): Ctrl-C while it is searched saves it in
    // ck/chameleon-723.layered, and --resume goes on from there to the
    // verdict an uninterrupted run writes, the directory then removed. Its
    // nodes are as many, and the dead ends met again after the resume's
    // rebuild, tested again: at most the 66,926 dead ends more.
    let d = dir();
    let csv = d.path().join("r.csv");
    let ck = d.path().join("ck");
    let args: Vec<String> = [
        "batch",
        "chameleon",
        "--seeds",
        "723..723",
        "--no-waste-bound",
        "--layered",
        "--jobs",
        "1",
        "--max-memory",
        "64M",
        "--csv",
        csv.to_str().unwrap(),
        "--checkpoint-dir",
        ck.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let saved = ck.join("chameleon-723.layered");
    let o = ctrl_c_once(&args, || saved.join("log").exists(), 200);
    assert!(saved.join("search.ck").exists(), "{}", text(&o.stderr));
    assert_eq!(lines(&csv), 1, "no row for the interrupted deal");

    let mut resume = args.clone();
    resume.push("--resume".into());
    let o = demon(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        !saved.exists(),
        "the directory of a finished deal is removed"
    );
    let report = std::fs::read_to_string(&csv).unwrap();
    let f: Vec<&str> = report.lines().nth(1).unwrap().split(',').collect();
    assert_eq!((f[2], f[3]), ("723", "lost"), "{report}");
    let nodes: u64 = f[5].parse().unwrap();
    assert!((294_408..=294_408 + 66_926).contains(&nodes), "{report}");
}

/// A report's last column names what found each win, as `demon solve`
/// does (`cli.rs`, `a_win_names_what_found_it`): American Toad 3 by the
/// rollouts' ladder, Rainbow 21 by a best-first probe at 111,370 nodes;
/// and the summary counts them.
#[test]
fn reports_name_what_found_each_win() {
    let d = dir();
    for (game, seed, row, summary) in [
        (
            "american-toad",
            "3",
            ",3,won,301,191025,",
            "wins found by: ladder 1\n",
        ),
        (
            "rainbow",
            "21",
            ",21,won,159,111370,",
            "wins found by: probe 1\n",
        ),
    ] {
        let csv = d.path().join(format!("{game}.csv"));
        let seeds = format!("{seed}..{seed}");
        let o = demon(&[
            "batch",
            game,
            "--seeds",
            &seeds,
            "--max-memory",
            "4G",
            "--jobs",
            "1",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains(summary), "{}", text(&o.stdout));
        let report = std::fs::read_to_string(&csv).unwrap();
        let line = report.lines().nth(1).unwrap();
        let (by, cards) = if game == "rainbow" {
            ("probe", 52)
        } else {
            ("ladder", 104)
        };
        assert!(line.contains(row), "{line}");
        // found_by, then most_up: every card of a won deal; then the
        // table's bytes.
        let (line, table) = line.rsplit_once(',').unwrap();
        assert!(line.ends_with(&format!(",,{by},{cards}")), "{line}");
        assert!(table.parse::<u64>().unwrap() > 0, "{table}");
    }
}

/// With --keep-unknown, a deal a limit stops is saved in --checkpoint-dir
/// with its unknown row, and a retry at a larger limit goes on from the
/// save: it ends where a search without a stop ends (Canfield `any` 479,
/// lost in 338,964 nodes), and the save goes once the deal is decided.
/// Chameleon 723 by the layered search, lost in 116,434 nodes with the
/// bound on the waste, ends at 116,462 when retried: the continued search
/// rebuilds its table from the levels' files, which hold no dead ends, so
/// it tests again the 28 it meets again.
/// Without the flag a limit's stop saves nothing, and the flag needs a
/// directory.
#[test]
fn kept_unknown_deals_go_on_in_a_retry_at_larger_limits() {
    let d = dir();
    let path = |n: &str| d.path().join(n).display().to_string();
    let ck = path("ck");
    // Nodes and positions stored, retried and without a stop.
    for (game, seed, extra, saved, [nodes, stored, straight_nodes, straight_stored]) in [
        (
            "canfield",
            "479",
            &["--group-moves", "any"][..],
            "canfield-479.ck",
            ["338964", "100026", "338964", "100026"],
        ),
        (
            "chameleon",
            "723",
            &["--layered"][..],
            "chameleon-723.layered",
            ["116462", "116462", "116434", "116434"],
        ),
    ] {
        // The run's deals and node limit, the report, and any flags after.
        let run = |deals: &[&str], nodes: &str, csv: &str, flags: &[&str]| {
            let mut a = vec!["batch", game];
            a.extend_from_slice(extra);
            a.extend_from_slice(deals);
            a.extend_from_slice(&[
                "--max-nodes",
                nodes,
                "--max-memory",
                "256M",
                "--jobs",
                "1",
                "--csv",
                csv,
            ]);
            a.extend_from_slice(flags);
            let o = demon(&a);
            assert!(o.status.success(), "{}", text(&o.stderr));
        };
        let keep = ["--checkpoint-dir", ck.as_str(), "--keep-unknown"];
        let row = |csv: &str| {
            let f = fields(Path::new(csv), 1);
            (f[3].clone(), f[5].clone(), f[6].clone())
        };
        let seeds = format!("{seed}..{seed}");
        let first = path(&format!("{game}-100k.csv"));
        run(&["--seeds", &seeds], "100k", &first, &keep);
        assert_eq!(row(&first).0, "unknown");
        let save = Path::new(&ck).join(saved);
        assert!(save.exists(), "{} kept", save.display());
        let retry = path(&format!("{game}-2M.csv"));
        run(&["--retry-unknown", &first], "2M", &retry, &keep);
        assert_eq!(row(&retry), ("lost".into(), nodes.into(), stored.into()));
        assert!(!save.exists(), "{} removed once decided", save.display());
        let straight = path(&format!("{game}-straight.csv"));
        run(&["--seeds", &seeds], "2M", &straight, &[]);
        assert_eq!(
            row(&straight),
            ("lost".into(), straight_nodes.into(), straight_stored.into())
        );
        // Without --keep-unknown, a limit's stop leaves nothing.
        let plain = path(&format!("{game}-plain.csv"));
        run(&["--seeds", &seeds], "100k", &plain, &keep[..2]);
        assert!(!save.exists(), "{} not saved at a limit", save.display());
    }
    let o = demon(&["batch", "canfield", "--seeds", "1..2", "--keep-unknown"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--checkpoint-dir"),
        "{}",
        text(&o.stderr)
    );
}

/// Off a terminal (here standard error is a pipe), a batch writes how far
/// it has got every --log-every seconds; with 0, never.
#[test]
fn a_batch_off_a_terminal_logs_its_progress() {
    let d = dir();
    let run = |every: &str, csv: &str| {
        let csv = d.path().join(csv);
        // Canfield `any` 646 is lost in 5.0 M nodes (14.5 s in a release
        // build): 2.5 s do not decide it.
        let o = demon(&[
            "batch",
            "canfield",
            "--group-moves",
            "any",
            "--seeds",
            "645..646",
            "--jobs",
            "1",
            "--max-memory",
            "256M",
            "--timeout",
            "2.5",
            "--log-every",
            every,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    let e = run("1", "a.csv");
    // Seed 645 is won in well under a second (then a line says "1 of 2
    // deals done, won 100.00% of decided"); 646 is then in progress. The
    // lines come in order of time, one a second.
    let lines = log_lines(&e);
    assert!((2..=4).contains(&lines.len()), "{e}");
    for l in &lines {
        assert!(
            l.contains(" of 2 deals done, ")
                && l.contains("; in progress: ")
                && l.ends_with(" positions"),
            "{e}"
        );
    }
    assert!(
        e.contains(" 1 of 2 deals done, won 100.00% of decided; "),
        "{e}"
    );
    assert!(!run("0", "b.csv").contains("after "));
}

/// `--pysolfc A..B` solves PySolFC's games A to B: each row is what `demon
/// solve --pysolfc N` finds for that game (verdict, moves, nodes), and not
/// demon's seed N. The report's rules column says so, so a run of demon's
/// seeds does not resume it; a retry of it solves PySolFC's games again;
/// `merge` and the summary name them.
#[test]
fn pysolfc_game_numbers_are_solved_as_solve_sees_them() {
    let d = dir();
    let path = |n: &str| d.path().join(n).display().to_string();
    let (games, seeds, retry) = (path("games.csv"), path("seeds.csv"), path("retry.csv"));
    let batch = |deals: &[&str], nodes: &str, csv: &str| -> Output {
        let mut a = vec![
            "batch",
            "canfield",
            "--rules",
            "pysolfc",
            "--max-nodes",
            nodes,
            "--jobs",
            "1",
            "--max-memory",
            "64M",
            "--csv",
            csv,
        ];
        a.extend_from_slice(deals);
        demon(&a)
    };
    let o = batch(&["--pysolfc", "1..12"], "20k", &games);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("12 deals (PySolFC games 1..12)"),
        "{}",
        text(&o.stderr)
    );
    let out = text(&o.stdout);
    assert!(out.contains("redeals=unlimited deals=pysolfc\n"), "{out}");
    let o = batch(&["--seeds", "1..12"], "20k", &seeds);
    assert!(o.status.success(), "{}", text(&o.stderr));

    // Each row against `demon solve` of the same game, under the same
    // limits: the same verdict, winning line and node count.
    let solve = |n: u64, nodes: &str| -> serde_json::Value {
        let n = n.to_string();
        let o = demon(&[
            "solve",
            "canfield",
            "--rules",
            "pysolfc",
            "--pysolfc",
            &n,
            "--max-nodes",
            nodes,
            "--max-memory",
            "64M",
            "--format",
            "json",
        ]);
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let mut unknown = Vec::new();
    let mut differ = 0;
    for line in 1..=12 {
        let f = fields(Path::new(&games), line);
        let n: u64 = f[2].parse().unwrap();
        assert_eq!(n, line as u64);
        assert!(f[1].ends_with(" deals=pysolfc"), "{f:?}");
        let s = solve(n, "20k");
        assert_eq!(f[3], s["verdict"].as_str().unwrap(), "PySolFC #{n}");
        let moves: usize = s["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|step| step["moves"].as_array().unwrap().len())
            .sum();
        assert_eq!(f[4], moves.to_string(), "PySolFC #{n}");
        assert_eq!(f[5], s["stats"]["nodes"].to_string(), "PySolFC #{n}");
        if f[3] == "unknown" {
            unknown.push(n);
        }
        let g = fields(Path::new(&seeds), line);
        assert!(!g[1].ends_with(" deals=pysolfc"), "{g:?}");
        differ += usize::from(g[3..6] != f[3..6]);
    }
    // demon's seeds are other deals (most rows differ).
    assert!(differ >= 8, "{differ} of 12 rows differ");

    // A run of demon's seeds does not go on with the report, and says why.
    let o = batch(&["--seeds", "1..12", "--resume"], "20k", &games);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains(
            "this report's deals are PySolFC games, and this run's are seeds (give --pysolfc to go on with it)"
        ),
        "{}",
        text(&o.stderr)
    );

    // The retry takes its numbering from the report: its rows are
    // PySolFC's games, as solve finds them at the larger limit.
    assert!(!unknown.is_empty(), "no unknown game at 20k nodes to retry");
    let o = batch(&["--retry-unknown", &games], "200k", &retry);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for (line, &n) in unknown.iter().enumerate() {
        let f = fields(Path::new(&retry), line + 1);
        assert_eq!(f[2], n.to_string());
        assert!(f[1].ends_with(" deals=pysolfc"), "{f:?}");
        let s = solve(n, "200k");
        assert_eq!(f[3], s["verdict"].as_str().unwrap(), "PySolFC #{n}");
        assert_eq!(f[5], s["stats"]["nodes"].to_string(), "PySolFC #{n}");
    }
    let o = demon(&["merge", &games, "--retried", &retry]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("1 report merged: PySolFC games 1 to 12\n"),
        "{}",
        text(&o.stdout)
    );
    // A report of PySolFC's games is no retry of demon's seeds.
    let o = demon(&["merge", &seeds, "--retried", &retry]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("not a retry of these reports"));

    // As with `demon solve --pysolfc`: a game PySolFC lacks is refused, and
    // rules other than PySolFC's are named in a note.
    let o = demon(&["batch", "selective-canfield", "--pysolfc", "1..3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("Selective Canfield is not in PySolFC"),
        "{}",
        text(&o.stderr)
    );
    let o = demon(&[
        "batch",
        "chameleon",
        "--pysolfc",
        "1..2",
        "--max-nodes",
        "1000",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("note: these are PySolFC's cards for games 1..2, laid out under the rules shown, which differ from PySolFC's Chameleon"),
        "{}",
        text(&o.stderr)
    );
}
