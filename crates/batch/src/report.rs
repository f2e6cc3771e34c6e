//! CSV reports that survive interruption.
//!
//! A report holds one row per deal in the run's seed order, each flushed
//! to disk as soon as it can be placed. Deals finish out of order (a hard
//! one can run for minutes while hundreds of easy ones after it finish), so
//! a finished row that cannot be placed yet goes at once to a side file,
//! `FILE.pending`. A run stopped at any moment (Ctrl-C, a kill, a power
//! cut) has every finished deal either in the report or in the side file;
//! `--resume` reads both, solves only the rest, and ends with the report an
//! uninterrupted run would have written. The side file is removed when the
//! report is complete.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::row::{Row, HEADER};

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(
        "{0} already exists; pass --resume to continue the run it holds, or choose another file"
    )]
    Exists(PathBuf),
    #[error("{0} already exists; demon does not overwrite reports: choose another file")]
    OutputExists(PathBuf),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{path}, line {line}: {msg}")]
    Bad {
        path: PathBuf,
        line: u64,
        msg: String,
    },
    #[error("{path} ends in the middle of a row (an interrupted run: continue it with --resume before merging)")]
    Torn { path: PathBuf },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ReportError + '_ {
    move |source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The file beside a report that records the limits of its run.
pub fn settings_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".run");
    PathBuf::from(s)
}

/// The side file of a report.
pub fn pending_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".pending");
    PathBuf::from(s)
}

/// A row and its line in the file.
pub type Numbered = (u64, Row);

/// Reads the rows of a report, in file order, with the line of each. A
/// last line cut short (no newline: the run was stopped while writing it)
/// is an error unless `allow_torn`; then it is dropped and the length of
/// the complete part is returned, to cut the file back to.
pub fn read(path: &Path, allow_torn: bool) -> Result<(Vec<Numbered>, Option<u64>), ReportError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let mut keep = bytes.len();
    let mut torn = None;
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        if !allow_torn {
            return Err(ReportError::Torn {
                path: path.to_path_buf(),
            });
        }
        keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        torn = Some(keep as u64);
    }
    let bad = |line: u64, msg: String| ReportError::Bad {
        path: path.to_path_buf(),
        line,
        msg,
    };
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&bytes[..keep]);
    let mut rows = Vec::new();
    let mut records = rd.records();
    match records.next() {
        None => return Ok((rows, torn)), // empty (or only a torn header)
        Some(Err(e)) => return Err(bad(1, e.to_string())),
        Some(Ok(h)) => {
            if h.iter().ne(HEADER) {
                return Err(bad(
                    1,
                    format!(
                        "not a demon report: the header should be {}",
                        HEADER.join(",")
                    ),
                ));
            }
        }
    }
    let header = csv::StringRecord::from(HEADER.to_vec());
    for rec in records {
        let rec = rec.map_err(|e| bad(e.position().map_or(0, |p| p.line()), e.to_string()))?;
        let line = rec.position().map_or(0, |p| p.line());
        let row: Row = rec
            .deserialize(Some(&header))
            .map_err(|e| bad(line, format!("not a valid row: {e}")))?;
        rows.push((line, row));
    }
    Ok((rows, torn))
}

/// Checks that a row belongs to the run of `game` under `rules`.
fn check_run(
    path: &Path,
    line: u64,
    row: &Row,
    game: &str,
    rules: &str,
) -> Result<(), ReportError> {
    let bad = |msg: String| ReportError::Bad {
        path: path.to_path_buf(),
        line,
        msg,
    };
    if row.game != game {
        return Err(bad(format!(
            "this report is of {}, and this run is of {game}",
            row.game
        )));
    }
    if row.rules != rules {
        return Err(bad(format!(
            "this report's rules differ from this run's:\n  report: {}\n  run:    {rules}",
            row.rules
        )));
    }
    Ok(())
}

/// Where a run's rows go: the report in seed order, the side file for rows
/// finished ahead of their turn, and every row in memory for the summary.
pub struct Sink {
    out: Option<Out>,
    order: Vec<u64>,
    next: usize,
    early: HashMap<u64, Row>,
    rows: Vec<Row>,
}

struct Out {
    path: PathBuf,
    csv: csv::Writer<File>,
    pending_path: PathBuf,
    pending: csv::Writer<File>,
}

impl Sink {
    /// Opens the run over `order` (its seeds, in report order). With a
    /// report file: a new one (refusing to overwrite one that exists unless
    /// `resume`), or the one being resumed, checked to be a run of this
    /// game and rules over a prefix of these seeds. Returns the sink and
    /// the seeds still to solve, in order.
    ///
    /// `settings` (the limits that decide which deals end unknown) are kept
    /// in `FILE.run`; a resume with other settings is refused, since its
    /// report would mix two kinds of unknown.
    pub fn open(
        path: Option<&Path>,
        resume: bool,
        game: &str,
        rules: &str,
        settings: &str,
        order: Vec<u64>,
    ) -> Result<(Sink, Vec<u64>), ReportError> {
        let mut sink = Sink {
            out: None,
            order,
            next: 0,
            early: HashMap::new(),
            rows: Vec::new(),
        };
        let Some(path) = path else {
            let todo = sink.order.clone();
            return Ok((sink, todo));
        };
        let pending_path = pending_path(path);
        let exists = path.exists();
        if exists && !resume {
            return Err(ReportError::Exists(path.to_path_buf()));
        }
        let run_path = settings_path(path);
        if exists && run_path.exists() {
            let was = fs::read_to_string(&run_path).map_err(io_err(&run_path))?;
            if was.trim() != settings {
                return Err(ReportError::Bad {
                    path: run_path,
                    line: 1,
                    msg: format!(
                        "the report was run with other limits; resume it with the same ones:\n  report: {}\n  run:    {settings}",
                        was.trim()
                    ),
                });
            }
        }
        let mut early: Vec<Row> = Vec::new();
        let csv_file = if exists {
            let (rows, torn) = read(path, true)?;
            let position: HashMap<u64, usize> = sink
                .order
                .iter()
                .enumerate()
                .map(|(i, &s)| (s, i))
                .collect();
            for (i, (line, row)) in rows.iter().enumerate() {
                check_run(path, *line, row, game, rules)?;
                if sink.order.get(i) != Some(&row.seed) {
                    let msg = match position.get(&row.seed) {
                        None => format!("seed {} is not one of this run's seeds", row.seed),
                        Some(_) => format!(
                            "seed {} is out of this run's order (the report must be a start of the run's seeds, in order; was it run with other --seeds or --shard?)",
                            row.seed
                        ),
                    };
                    return Err(ReportError::Bad {
                        path: path.to_path_buf(),
                        line: *line,
                        msg,
                    });
                }
            }
            sink.next = rows.len();
            sink.rows = rows.into_iter().map(|(_, r)| r).collect();
            let mut f = OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .map_err(io_err(path))?;
            if let Some(len) = torn {
                f.set_len(len).map_err(io_err(path))?;
            }
            if f.metadata().map_err(io_err(path))?.len() == 0 {
                // Not even the header survived.
                writeln!(f, "{}", HEADER.join(",")).map_err(io_err(path))?;
            }
            use std::io::Seek;
            f.seek(io::SeekFrom::End(0)).map_err(io_err(path))?;
            if pending_path.exists() {
                let (rows, _) = read(&pending_path, true)?;
                let placed: HashSet<u64> = sink.rows.iter().map(|r| r.seed).collect();
                let wanted: HashSet<u64> = sink.order.iter().copied().collect();
                for (line, row) in rows {
                    check_run(&pending_path, line, &row, game, rules)?;
                    if !wanted.contains(&row.seed) {
                        return Err(ReportError::Bad {
                            path: pending_path.clone(),
                            line,
                            msg: format!("seed {} is not one of this run's seeds", row.seed),
                        });
                    }
                    if !placed.contains(&row.seed) {
                        early.push(row);
                    }
                }
            }
            f
        } else {
            let mut f = File::create(path).map_err(io_err(path))?;
            writeln!(f, "{}", HEADER.join(",")).map_err(io_err(path))?;
            f.flush().map_err(io_err(path))?;
            f
        };
        fs::write(&run_path, format!("{settings}\n")).map_err(io_err(&run_path))?;
        // The side file starts again with the rows it still needs to hold,
        // written beside it and renamed over it, so no row is ever only in
        // memory.
        let tmp = {
            let mut s = pending_path.as_os_str().to_os_string();
            s.push(".tmp");
            PathBuf::from(s)
        };
        let mut pending = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(File::create(&tmp).map_err(io_err(&tmp))?);
        pending
            .write_record(HEADER)
            .and_then(|_| {
                for r in &early {
                    pending.write_record(r.record())?;
                }
                pending.flush()?;
                Ok(())
            })
            .map_err(|e| io_err(&tmp)(e.into()))?;
        fs::rename(&tmp, &pending_path).map_err(io_err(&pending_path))?;
        sink.out = Some(Out {
            path: path.to_path_buf(),
            csv: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(csv_file),
            pending_path,
            pending,
        });
        for r in early {
            sink.early.insert(r.seed, r);
        }
        sink.place()?;
        let todo = sink.order[sink.next..]
            .iter()
            .copied()
            .filter(|s| !sink.early.contains_key(s))
            .collect();
        Ok((sink, todo))
    }

    /// Takes a finished row: into the report if its turn has come (with
    /// any rows it was holding up), otherwise into the side file.
    pub fn push(&mut self, row: Row) -> Result<(), ReportError> {
        if self.order.get(self.next) != Some(&row.seed) {
            if let Some(o) = &mut self.out {
                o.pending
                    .write_record(row.record())
                    .and_then(|_| Ok(o.pending.flush()?))
                    .map_err(|e| io_err(&o.pending_path)(e.into()))?;
            }
            self.early.insert(row.seed, row);
            return Ok(());
        }
        self.write(row)?;
        self.place()
    }

    fn write(&mut self, row: Row) -> Result<(), ReportError> {
        if let Some(o) = &mut self.out {
            o.csv
                .write_record(row.record())
                .and_then(|_| Ok(o.csv.flush()?))
                .map_err(|e| io_err(&o.path)(e.into()))?;
        }
        self.next += 1;
        self.rows.push(row);
        Ok(())
    }

    /// Writes the rows that were waiting for the ones now written.
    fn place(&mut self) -> Result<(), ReportError> {
        while let Some(seed) = self.order.get(self.next).copied() {
            match self.early.remove(&seed) {
                Some(r) => self.write(r)?,
                None => break,
            }
        }
        Ok(())
    }

    /// Every finished row: those in the report, in order, then those
    /// waiting in the side file.
    pub fn rows(&self) -> Vec<Row> {
        let mut v = self.rows.clone();
        let mut early: Vec<&Row> = self.early.values().collect();
        early.sort_by_key(|r| r.seed);
        v.extend(early.into_iter().cloned());
        v
    }

    /// Whether every seed of the run is in the report.
    pub fn complete(&self) -> bool {
        self.next == self.order.len()
    }

    /// Ends a complete run: the side file is no longer needed.
    pub fn finish(self) -> Result<Vec<Row>, ReportError> {
        debug_assert!(self.complete());
        if let Some(o) = self.out {
            drop(o.pending);
            fs::remove_file(&o.pending_path).map_err(io_err(&o.pending_path))?;
        }
        Ok(self.rows)
    }
}

/// The rows of several reports of one game and rule set, in seed order.
pub struct Merged {
    pub rows: Vec<Row>,
    /// Seeds missing between the smallest and the largest, as ranges.
    pub gaps: Vec<(u64, u64)>,
}

/// Merges reports (for instance the shards of one run), refusing reports
/// of different games or rules and seeds present twice.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, ReportError> {
    let mut rows: Vec<(PathBuf, u64, Row)> = Vec::new();
    for p in paths {
        let (rs, _) = read(p, false)?;
        if rs.is_empty() {
            return Err(ReportError::Bad {
                path: p.clone(),
                line: 1,
                msg: "the report has no rows".into(),
            });
        }
        for (line, r) in rs {
            if let Some((p0, l0, r0)) = rows.first() {
                if r.game != r0.game || r.rules != r0.rules {
                    return Err(ReportError::Bad {
                        path: p.clone(),
                        line,
                        msg: format!(
                            "a different run from {}, line {l0}: {} under rules\n  {}\nthere, {} under rules\n  {}\nhere",
                            p0.display(),
                            r0.game,
                            r0.rules,
                            r.game,
                            r.rules
                        ),
                    });
                }
            }
            rows.push((p.clone(), line, r));
        }
    }
    rows.sort_by_key(|(_, _, r)| r.seed);
    for w in rows.windows(2) {
        if w[0].2.seed == w[1].2.seed {
            return Err(ReportError::Bad {
                path: w[1].0.clone(),
                line: w[1].1,
                msg: format!(
                    "seed {} is also in {}, line {}: the reports overlap",
                    w[1].2.seed,
                    w[0].0.display(),
                    w[0].1
                ),
            });
        }
    }
    let mut gaps = Vec::new();
    for w in rows.windows(2) {
        let (a, b) = (w[0].2.seed, w[1].2.seed);
        if b > a + 1 {
            gaps.push((a + 1, b - 1));
        }
    }
    Ok(Merged {
        rows: rows.into_iter().map(|(_, _, r)| r).collect(),
        gaps,
    })
}

/// Writes rows to a new report file (never over an existing one).
pub fn write_new(path: &Path, rows: &[Row]) -> Result<(), ReportError> {
    let f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            if e.kind() == io::ErrorKind::AlreadyExists {
                ReportError::OutputExists(path.to_path_buf())
            } else {
                io_err(path)(e)
            }
        })?;
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(f);
    let res = (|| -> Result<(), csv::Error> {
        w.write_record(HEADER)?;
        for r in rows {
            w.write_record(r.record())?;
        }
        w.flush()?;
        Ok(())
    })();
    res.map_err(|e| io_err(path)(e.into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::Verdict;

    fn row(seed: u64) -> Row {
        Row {
            game: "canfield".into(),
            rules: "decks=1 ranks=13".into(),
            seed,
            verdict: if seed % 3 == 0 {
                Verdict::Lost
            } else {
                Verdict::Won
            },
            solution_moves: seed * 2,
            nodes: seed * 100,
            stored: seed * 50,
            seconds: seed as f64 / 1000.0,
            peak_memory: 1 << 20,
            limit: String::new(),
        }
    }

    fn open(path: &Path, resume: bool, order: &[u64]) -> Result<(Sink, Vec<u64>), ReportError> {
        Sink::open(
            Some(path),
            resume,
            "canfield",
            "decks=1 ranks=13",
            "max-nodes=9",
            order.to_vec(),
        )
    }

    /// A run stopped with rows finished out of order, resumed, ends with
    /// the report of a run never stopped, and solves only what was left.
    #[test]
    fn an_interrupted_run_resumes_to_the_same_report() {
        let dir = tempfile::tempdir().unwrap();
        let order: Vec<u64> = (10..30).collect();
        let whole = dir.path().join("whole.csv");
        let (mut s, todo) = open(&whole, false, &order).unwrap();
        assert_eq!(todo, order);
        for &seed in &order {
            s.push(row(seed)).unwrap();
        }
        assert!(s.complete());
        s.finish().unwrap();
        assert!(!pending_path(&whole).exists());

        let part = dir.path().join("part.csv");
        let (mut s, _) = open(&part, false, &order).unwrap();
        // 10, 11 and 12 in order; then 15, 14 and 19 ahead of 13.
        for seed in [10, 11, 12, 15, 14, 19] {
            s.push(row(seed)).unwrap();
        }
        drop(s); // stopped: no finish
        let (rows, _) = read(&part, false).unwrap();
        assert_eq!(
            rows.iter().map(|(_, r)| r.seed).collect::<Vec<_>>(),
            [10, 11, 12]
        );
        // A row cut short by the stop, as a kill mid-write leaves it.
        let mut f = OpenOptions::new().append(true).open(&part).unwrap();
        f.write_all(b"canfield,decks=1 ranks=13,13,wo").unwrap();
        drop(f);
        assert!(matches!(read(&part, false), Err(ReportError::Torn { .. })));
        // Without --resume the file is refused and left alone.
        let before = fs::read(&part).unwrap();
        assert!(matches!(
            open(&part, false, &order),
            Err(ReportError::Exists(_))
        ));
        assert_eq!(fs::read(&part).unwrap(), before);

        let (mut s, todo) = open(&part, true, &order).unwrap();
        let left: Vec<u64> = order
            .iter()
            .copied()
            .filter(|x| ![10, 11, 12, 14, 15, 19].contains(x))
            .collect();
        assert_eq!(todo, left);
        assert_eq!(s.rows().len(), 6);
        // Stop again after 13 (which places 14 and 15 too) and 20.
        s.push(row(20)).unwrap();
        s.push(row(13)).unwrap();
        drop(s);
        let (rows, _) = read(&part, false).unwrap();
        assert_eq!(rows.len(), 6);
        let (mut s, todo) = open(&part, true, &order).unwrap();
        assert_eq!(todo.len(), 20 - 8);
        for seed in todo.into_iter().rev() {
            s.push(row(seed)).unwrap();
        }
        assert!(s.complete());
        let rows = s.finish().unwrap();
        assert_eq!(rows.len(), 20);
        assert_eq!(fs::read(&part).unwrap(), fs::read(&whole).unwrap());
        assert!(!pending_path(&part).exists());
    }

    #[test]
    fn resuming_checks_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let (mut s, _) = open(&path, false, &[1, 2, 3, 4]).unwrap();
        s.push(row(1)).unwrap();
        s.push(row(2)).unwrap();
        drop(s);
        let before = fs::read(&path).unwrap();
        let e = Sink::open(
            Some(&path),
            true,
            "storehouse",
            "decks=1 ranks=13",
            "max-nodes=9",
            vec![1, 2, 3],
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains("line 2")
                && e.contains("report is of canfield, and this run is of storehouse"),
            "{e}"
        );
        let e = Sink::open(
            Some(&path),
            true,
            "canfield",
            "decks=2",
            "max-nodes=9",
            vec![1, 2, 3],
        )
        .err()
        .unwrap()
        .to_string();
        assert!(e.contains("rules differ"), "{e}");
        let e = Sink::open(
            Some(&path),
            true,
            "canfield",
            "decks=1 ranks=13",
            "max-nodes=8",
            vec![1, 2, 3],
        )
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains("other limits") && e.contains("report: max-nodes=9"),
            "{e}"
        );
        let e = open(&path, true, &[2, 3, 4]).err().unwrap().to_string();
        assert!(e.contains("seed 1 is not one of this run's seeds"), "{e}");
        let e = open(&path, true, &[1, 3, 2]).err().unwrap().to_string();
        assert!(e.contains("seed 2 is out of this run's order"), "{e}");
        assert_eq!(
            fs::read(&path).unwrap(),
            before,
            "a refused resume changes nothing"
        );
        // A longer range continues the same report.
        let (_, todo) = open(&path, true, &[1, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(todo, [3, 4, 5, 6]);
        // Not a report at all.
        let other = dir.path().join("other.csv");
        fs::write(&other, "a,b,c\n1,2,3\n").unwrap();
        let e = open(&other, true, &[1]).err().unwrap().to_string();
        assert!(e.contains("line 1: not a demon report"), "{e}");
        assert_eq!(fs::read(&other).unwrap(), b"a,b,c\n1,2,3\n");
    }

    #[test]
    fn merging_finds_overlaps_gaps_and_other_runs() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, seeds: &[u64]| {
            let p = dir.path().join(name);
            write_new(&p, &seeds.iter().map(|&s| row(s)).collect::<Vec<_>>()).unwrap();
            p
        };
        let a = write("a.csv", &[1, 3, 5, 7]);
        let b = write("b.csv", &[2, 4, 6, 8]);
        let m = merge(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(
            m.rows.iter().map(|r| r.seed).collect::<Vec<_>>(),
            (1..=8).collect::<Vec<_>>()
        );
        assert!(m.gaps.is_empty());
        let c = write("c.csv", &[12, 13]);
        let m = merge(&[a.clone(), b.clone(), c]).unwrap();
        assert_eq!(m.gaps, [(9, 11)]);
        let d = write("d.csv", &[8, 9]);
        let e = merge(&[a.clone(), b.clone(), d]).err().unwrap().to_string();
        assert!(
            e.contains("seed 8 is also in") && e.contains("overlap"),
            "{e}"
        );
        let mut other = row(20);
        other.game = "storehouse".into();
        let o = dir.path().join("o.csv");
        write_new(&o, &[other]).unwrap();
        let e = merge(&[a.clone(), o]).err().unwrap().to_string();
        assert!(e.contains("o.csv, line 2: a different run"), "{e}");
        assert!(matches!(
            write_new(&a, &[]),
            Err(ReportError::OutputExists(_))
        ));
    }
}
