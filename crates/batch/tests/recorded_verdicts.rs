//! The recorded runs agree: across every report under `results/`, no deal
//! (game, rules and seed) is WON in one and LOST in another.
//!
//! The reports come from many versions of the solver, over many sessions,
//! with different limits, search settings and memory. A verdict is exact
//! whatever the version, so two decided rows of one deal must say the
//! same. A disagreement would mean one of the versions said LOST wrongly
//! (every WON was replayed by the independent checker when it was
//! recorded), which is the one error this project cannot afford; this
//! test keeps the published tables honest about it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

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

#[test]
fn no_deal_is_both_won_and_lost() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
    let mut files = Vec::new();
    csv_files(&root, &mut files);
    // (game, rules, seed) -> (verdict, the report that first gave it).
    let mut seen: HashMap<(String, String, String), (String, PathBuf)> = HashMap::new();
    let (mut reports, mut decided, mut compared) = (0, 0, 0);
    let mut conflicts = Vec::new();
    for p in &files {
        let mut r = csv::Reader::from_path(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let h = r.headers().expect("a header").clone();
        let col = |name: &str| h.iter().position(|x| x == name);
        // Batch reports only: other tables (summaries, surveys) have
        // other columns.
        let (Some(g), Some(ru), Some(s), Some(v)) =
            (col("game"), col("rules"), col("seed"), col("verdict"))
        else {
            continue;
        };
        reports += 1;
        for (i, row) in r.records().enumerate() {
            let row = row.unwrap_or_else(|e| panic!("{} row {}: {e}", p.display(), i + 2));
            let verdict = &row[v];
            if verdict != "won" && verdict != "lost" {
                continue;
            }
            decided += 1;
            let key = (row[g].to_string(), row[ru].to_string(), row[s].to_string());
            match seen.get(&key) {
                Some((was, first)) => {
                    compared += 1;
                    if was != verdict {
                        conflicts.push(format!(
                            "{} seed {}: {was} in {}, {verdict} in {}",
                            key.0,
                            key.2,
                            first.display(),
                            p.display()
                        ));
                    }
                }
                None => {
                    seen.insert(key, (verdict.to_string(), p.clone()));
                }
            }
        }
    }
    println!(
        "{reports} reports, {decided} decided rows, {} deals, {compared} rows checked against an earlier one",
        seen.len()
    );
    assert!(
        conflicts.is_empty(),
        "verdicts disagree:\n{}",
        conflicts.join("\n")
    );
    // The walk found the recorded runs (it must, to check anything).
    assert!(
        reports >= 100,
        "only {reports} reports under {}",
        root.display()
    );
    assert!(compared >= 10_000, "only {compared} rows compared");
}
