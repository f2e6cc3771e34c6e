//! The recorded runs agree, and the published status table says what they
//! say.
//!
//! The reports under `results/` come from many versions of the solver,
//! over many sessions, with different limits, search settings and memory.
//! A verdict is exact whatever the version, so two decided rows of one
//! deal must say the same. A disagreement would mean one of the versions
//! said LOST wrongly (every WON was replayed by the independent checker
//! when it was recorded), which is the one error this project cannot
//! afford; [`no_deal_is_both_won_and_lost`] keeps the published tables
//! honest about it.
//!
//! [`readme_status_is_the_reports`] then counts, for each game's default
//! rules (and Canfield's two published rule sets), the seeds 1–1,000 that
//! some report decides, and checks the README's status table against the
//! count, and `results/status-1-1000.md` (the deals still unknown, each
//! with the most nodes a report gave it and the most cards up any of
//! them saw) against the reports. Written by
//! hand, the table once said Superior Canfield 62 and 142 were won, where
//! the reports prove both lost. After new reports land, rewrite the file
//! with `DEMON_BLESS=1 cargo test -p demon-batch --test recorded_verdicts`
//! and update the README's row.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use demon_core::rules::{GroupMoves, TableauWrap};
use demon_core::{GameKind, Reading, RuleOverrides, Rules};

/// Every `.csv` file under `dir`, in a fixed order.
fn csv_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            csv_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "csv") {
            out.push(p);
        }
    }
}

/// The columns of a report row that these tests read.
struct Row {
    game: String,
    rules: String,
    seed: u64,
    verdict: String,
    nodes: u64,
    /// The most cards up in one position the search saw (how near it
    /// came to a win), where the report has the column (from
    /// 2026-12-02).
    most_up: Option<u64>,
}

fn results_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results")
}

/// Every batch report under `results/` (other tables, such as summaries
/// and surveys, have other columns and are passed over), with its rows:
/// read once for all the tests of this file.
fn reports() -> &'static [(PathBuf, Vec<Row>)] {
    static REPORTS: std::sync::OnceLock<Vec<(PathBuf, Vec<Row>)>> = std::sync::OnceLock::new();
    REPORTS.get_or_init(read_reports)
}

fn read_reports() -> Vec<(PathBuf, Vec<Row>)> {
    let mut files = Vec::new();
    csv_files(&results_dir(), &mut files);
    let mut out = Vec::new();
    for p in files {
        let mut r = csv::Reader::from_path(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let h = r.headers().expect("a header").clone();
        let col = |name: &str| h.iter().position(|x| x == name);
        let (Some(g), Some(ru), Some(s), Some(v), Some(n)) = (
            col("game"),
            col("rules"),
            col("seed"),
            col("verdict"),
            col("nodes"),
        ) else {
            continue;
        };
        let up = col("most_up");
        let mut rows = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.unwrap_or_else(|e| panic!("{} row {}: {e}", p.display(), i + 2));
            let num = |c: usize| -> u64 {
                rec[c]
                    .parse()
                    .unwrap_or_else(|e| panic!("{} row {}: {:?}: {e}", p.display(), i + 2, &rec[c]))
            };
            rows.push(Row {
                game: rec[g].to_string(),
                rules: rec[ru].to_string(),
                seed: num(s),
                verdict: rec[v].to_string(),
                nodes: num(n),
                most_up: up.map(num),
            });
        }
        out.push((p, rows));
    }
    out
}

fn decided(verdict: &str) -> bool {
    verdict == "won" || verdict == "lost"
}

#[test]
fn no_deal_is_both_won_and_lost() {
    let reports = reports();
    // (game, rules, seed) -> (verdict, the report that first gave it).
    let mut seen: HashMap<(&str, &str, u64), (&str, &Path)> = HashMap::new();
    let (mut decided_rows, mut compared) = (0, 0);
    let mut conflicts = Vec::new();
    for (p, rows) in reports {
        for row in rows.iter().filter(|r| decided(&r.verdict)) {
            decided_rows += 1;
            let key = (row.game.as_str(), row.rules.as_str(), row.seed);
            match seen.get(&key) {
                Some((was, first)) => {
                    compared += 1;
                    if *was != row.verdict {
                        conflicts.push(format!(
                            "{} seed {}: {was} in {}, {} in {}",
                            key.0,
                            key.2,
                            first.display(),
                            row.verdict,
                            p.display()
                        ));
                    }
                }
                None => {
                    seen.insert(key, (&row.verdict, p));
                }
            }
        }
    }
    println!(
        "{} reports, {decided_rows} decided rows, {} deals, {compared} rows checked against an earlier one",
        reports.len(),
        seen.len()
    );
    assert!(
        conflicts.is_empty(),
        "verdicts disagree:\n{}",
        conflicts.join("\n")
    );
    // The walk found the recorded runs (it must, to check anything).
    assert!(
        reports.len() >= 100,
        "only {} reports under {}",
        reports.len(),
        results_dir().display()
    );
    assert!(compared >= 10_000, "only {compared} rows compared");
}

/// The rule sets of the README's status table: its first column, the
/// game, and the options over the game's standard rules.
fn status_variants() -> Vec<(String, GameKind, RuleOverrides)> {
    let mut v: Vec<_> = GameKind::ALL
        .iter()
        .map(|&k| (k.title().to_string(), k, RuleOverrides::default()))
        .collect();
    let any = RuleOverrides {
        group_moves: Some(GroupMoves::Any),
        ..RuleOverrides::default()
    };
    let published = RuleOverrides {
        tableau_wrap: Some(TableauWrap::AtBase),
        ..any.clone()
    };
    v.insert(
        1,
        (
            "Canfield, `--group-moves any`".into(),
            GameKind::Canfield,
            any,
        ),
    );
    v.insert(
        2,
        (
            "Canfield, Solvitaire's rules (`--group-moves any --tableau-wrap base`)".into(),
            GameKind::Canfield,
            published,
        ),
    );
    v
}

/// What the reports say of seeds 1–1,000 under one rule set.
#[derive(Debug, Default, PartialEq)]
struct Status {
    won: usize,
    lost: usize,
    /// Seeds no report decides, each with the most nodes any report's
    /// row gave it and the most cards up any row recorded.
    unknown: BTreeMap<u64, (u64, Option<u64>)>,
    /// Seeds no report has at all (counted in `unknown` too, at 0 nodes).
    untried: usize,
}

const SEEDS: std::ops::RangeInclusive<u64> = 1..=1000;

fn status(reports: &[(PathBuf, Vec<Row>)], game: GameKind, rules: &str) -> Status {
    let mut verdict: HashMap<u64, bool> = HashMap::new();
    let mut nodes: HashMap<u64, (u64, Option<u64>)> = HashMap::new();
    for row in reports.iter().flat_map(|(_, rows)| rows) {
        if row.game != game.name() || row.rules != rules || !SEEDS.contains(&row.seed) {
            continue;
        }
        if decided(&row.verdict) {
            verdict.insert(row.seed, row.verdict == "won");
        } else {
            let (n, up) = nodes.entry(row.seed).or_insert((0, None));
            *n = (*n).max(row.nodes);
            *up = (*up).max(row.most_up);
        }
    }
    let mut s = Status::default();
    for seed in SEEDS {
        match verdict.get(&seed) {
            Some(true) => s.won += 1,
            Some(false) => s.lost += 1,
            None => {
                let n = nodes.get(&seed).copied();
                s.untried += usize::from(n.is_none());
                s.unknown.insert(seed, n.unwrap_or((0, None)));
            }
        }
    }
    s
}

/// A count as the README writes it: `1,000`.
fn commas(n: usize) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A node count in the units of the limits, to three figures: `100 M`,
/// `1.05 G`.
fn nodes(n: u64) -> String {
    let three = |x: f64, unit: &str| {
        let places = if x >= 100.0 {
            0
        } else if x >= 10.0 {
            1
        } else {
            2
        };
        let t = format!("{x:.places$}");
        let t = if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.')
        } else {
            &t
        };
        format!("{t} {unit}")
    };
    match n {
        0 => "never tried".into(),
        n if n >= 1_000_000_000 => three(n as f64 / 1e9, "G"),
        n if n >= 1_000_000 => three(n as f64 / 1e6, "M"),
        n => commas(n as usize),
    }
}

/// The README's status table: each row's first cell and its won, lost and
/// unknown counts as written.
fn readme_status(readme: &str) -> Vec<(String, [String; 3])> {
    let mut lines = readme
        .lines()
        .skip_while(|l| !l.starts_with("| game | won | lost | unknown |"));
    lines.next().expect("the README has a status table");
    lines
        .skip(1) // the rule under the header
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let c: Vec<&str> = l.split('|').map(str::trim).collect();
            assert!(c.len() >= 6, "a status row with too few cells: {l}");
            (c[1].to_string(), [c[2].into(), c[3].into(), c[4].into()])
        })
        .collect()
}

#[test]
fn readme_status_is_the_reports() {
    let reports = reports();
    let mut table = String::from(
        "# Seeds 1–1,000: the deals still unknown\n\n\
         Written by `DEMON_BLESS=1 cargo test -p demon-batch --test recorded_verdicts`\n\
         from every batch report under `results/` (the test fails when this file is\n\
         not what the reports say). A deal is decided when some report decides it;\n\
         each unknown deal is given with the most nodes any report's row spent on it\n\
         (a layered search's nodes are positions expanded; a row's limit may also\n\
         have been time or memory) and, where reports record it, the most cards up\n\
         in one position any of those searches saw, of the game's 52 or 104: how\n\
         near it came to a win.\n",
    );
    let mut want = Vec::new();
    for (label, kind, o) in status_variants() {
        let rules = Rules::resolve(kind, Reading::Standard, &o).expect("the rules resolve");
        let s = status(reports, kind, &rules.signature());
        assert_eq!(s.untried, 0, "{label}: seeds no report has");
        want.push((
            label.clone(),
            [commas(s.won), commas(s.lost), commas(s.unknown.len())],
        ));
        let _ = write!(
            table,
            "\n## {label}\n\n{} won, {} lost, {} unknown.\n",
            commas(s.won),
            commas(s.lost),
            commas(s.unknown.len())
        );
        if !s.unknown.is_empty() {
            table.push('\n');
            let list: Vec<String> = s
                .unknown
                .iter()
                .map(|(seed, (n, up))| match up {
                    Some(up) => format!("{seed} ({}; {up} up)", nodes(*n)),
                    None => format!("{seed} ({})", nodes(*n)),
                })
                .collect();
            // Wrapped at about 76 columns.
            let mut line = String::new();
            for item in list {
                if !line.is_empty() && line.len() + item.len() + 2 > 76 {
                    table.push_str(&line);
                    table.push_str(",\n");
                    line.clear();
                }
                if !line.is_empty() {
                    line.push_str(", ");
                }
                line.push_str(&item);
            }
            table.push_str(&line);
            table.push('\n');
        }
    }
    let path = results_dir().join("status-1-1000.md");
    if std::env::var_os("DEMON_BLESS").is_some() {
        std::fs::write(&path, &table).expect("status-1-1000.md written");
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == table,
        "{} is not what the reports say; rewrite it with \
         DEMON_BLESS=1 cargo test -p demon-batch --test recorded_verdicts. It should read:\n{table}",
        path.display()
    );
    let readme = std::fs::read_to_string(results_dir().join("../README.md")).expect("README.md");
    let got = readme_status(&readme);
    let labels = |v: &[(String, [String; 3])]| v.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
    assert_eq!(labels(&got), labels(&want), "the README's status rows");
    for ((label, g), (_, w)) in got.iter().zip(&want) {
        assert_eq!(
            g, w,
            "README status row {label:?}: won, lost, unknown as written, against the reports"
        );
    }
}

#[test]
fn readme_status_rows_are_read() {
    let t = "x\n| game | won | lost | unknown | limit |\n|---|---|---|---|---|\n\
             | Canfield | 875 | 125 | 0 | none |\n| Rainbow | 1,000 | 0 | 0 | a |\n\nafter\n| no | 1 | 2 | 3 | 4 |\n";
    let rows = readme_status(t);
    assert_eq!(
        rows,
        vec![
            (
                "Canfield".to_string(),
                ["875".into(), "125".into(), "0".into()]
            ),
            (
                "Rainbow".to_string(),
                ["1,000".into(), "0".into(), "0".into()]
            ),
        ]
    );
    assert_eq!(commas(1000), "1,000");
    assert_eq!(commas(999), "999");
    assert_eq!(commas(1_234_567), "1,234,567");
    assert_eq!(nodes(100_000_000), "100 M");
    assert_eq!(nodes(959_012_345), "959 M");
    assert_eq!(nodes(30_500_000), "30.5 M");
    assert_eq!(nodes(2_100_000_000), "2.1 G");
    assert_eq!(nodes(1_054_321_000), "1.05 G");
    assert_eq!(nodes(1_000_000_000), "1 G");
    assert_eq!(nodes(12_345), "12,345");
}
