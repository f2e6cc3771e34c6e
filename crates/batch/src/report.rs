//! CSV reports that survive interruption.
//!
//! A report holds one row per deal in the run's seed order, each written
//! out as soon as it can be placed. Deals finish out of order (a hard
//! one can run for minutes while hundreds of easy ones after it finish), so
//! a finished row that cannot be placed yet goes at once to a side file,
//! `FILE.pending`. A run stopped at any moment (Ctrl-C, a kill, even in
//! the middle of a write) has every finished deal either in the report or in the side file;
//! `--resume` reads both, solves only the rest, and ends with the report an
//! uninterrupted run would have written. The side file is removed when the
//! report is complete. The limits of the run are kept in `FILE.run`, and
//! the report is locked while a run writes it. (Rows are flushed to the
//! operating system, not synced to the disk: a kill loses nothing, a power
//! cut may lose the last rows written.)

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::row::{Columns, Row, Verdict, HEADER};

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

/// `path` with `suffix` appended to its file name (`a.csv` + `.run` is
/// `a.csv.run`).
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

/// The file beside a report that records the limits of its run.
pub fn settings_path(path: &Path) -> PathBuf {
    with_suffix(path, ".run")
}

/// The side file of a report.
pub fn pending_path(path: &Path) -> PathBuf {
    with_suffix(path, ".pending")
}

/// A row and its line in the file.
pub type Numbered = (u64, Row);

/// What a report file holds.
pub struct Contents {
    /// Its rows, in file order, with the line of each.
    pub rows: Vec<Numbered>,
    /// Bytes of it that are whole lines of a report: the file is cut back
    /// to this before a resumed run appends (0 when it holds no header).
    pub keep: u64,
    /// Whether it starts with the header.
    pub header: bool,
    /// Its columns (those of a new report when it has no header).
    pub columns: Columns,
}

/// Reads a report. A last line cut short (no newline: the run was stopped
/// while writing it) is an error unless `allow_torn`; then it is left out
/// of `keep`. A file that is empty, blank or a cut-short header reads as a
/// report with no rows and no header; anything else that does not start
/// with the header is not a report, and is an error. The header may be
/// that of any of the [`Columns`].
pub fn read(path: &Path, allow_torn: bool) -> Result<Contents, ReportError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let bad = |line: u64, msg: String| ReportError::Bad {
        path: path.to_path_buf(),
        line,
        msg,
    };
    let not_report = || {
        bad(
            1,
            format!(
                "not a demon report: the header should be {}",
                HEADER.join(",")
            ),
        )
    };
    let mut keep = bytes.len();
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        if !allow_torn {
            return Err(ReportError::Torn {
                path: path.to_path_buf(),
            });
        }
        keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    }
    let head = HEADER.join(",");
    if bytes[..keep].iter().all(u8::is_ascii_whitespace) {
        // No whole line but blanks: at most the start of a header.
        let rest = String::from_utf8_lossy(&bytes[keep..]);
        let rest = rest.trim();
        if !head.starts_with(rest) {
            return Err(not_report());
        }
        return Ok(Contents {
            rows: Vec::new(),
            keep: 0,
            header: false,
            columns: Columns::default(),
        });
    }
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&bytes[..keep]);
    let mut rows = Vec::new();
    let mut records = rd.records();
    let columns = match records.next() {
        Some(Ok(h)) if h.position().map(|p| p.line()) == Some(1) => {
            Columns::of(h.iter()).ok_or_else(not_report)?
        }
        Some(Err(e)) => return Err(bad(1, e.to_string())),
        _ => return Err(not_report()),
    };
    let header = csv::StringRecord::from(columns.header().to_vec());
    for rec in records {
        let rec = rec.map_err(|e| bad(e.position().map_or(0, |p| p.line()), e.to_string()))?;
        let line = rec.position().map_or(0, |p| p.line());
        let row: Row = rec
            .deserialize(Some(&header))
            .map_err(|e| bad(line, format!("not a valid row: {e}")))?;
        rows.push((line, row));
    }
    Ok(Contents {
        rows,
        keep: keep as u64,
        header: true,
        columns,
    })
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
        use crate::row::Numbering;
        let (was, now) = (Numbering::of_rules(&row.rules), Numbering::of_rules(rules));
        if was != now {
            return Err(bad(format!(
                "this report's deals are {}, and this run's are {} (give {} to go on with it)",
                was.plural(),
                now.plural(),
                match was {
                    Numbering::Demon => "--seeds",
                    Numbering::Pysolfc => "--pysolfc",
                }
            )));
        }
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
    /// The report's columns: a resumed report's own, all for a new one.
    columns: Columns,
    order: Vec<u64>,
    next: usize,
    early: BTreeMap<u64, Row>,
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
            columns: Columns::default(),
            order,
            next: 0,
            early: BTreeMap::new(),
            rows: Vec::new(),
        };
        let Some(path) = path else {
            let todo = sink.order.clone();
            return Ok((sink, todo));
        };
        let pending_path = pending_path(path);
        let run_path = settings_path(path);
        // The report itself is the run's lock, held until the run ends: a
        // second run on the same report is refused before it reads it.
        let mut file = match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(!resume)
            .create(resume)
            .truncate(false)
            .open(path)
        {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(ReportError::Exists(path.to_path_buf()))
            }
            r => r.map_err(io_err(path))?,
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(ReportError::Bad {
                    path: path.to_path_buf(),
                    line: 0,
                    msg: "in use by another demon run (wait for it to end, or choose another file)"
                        .into(),
                })
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_err(path)(e)),
        }

        // Check everything before changing anything.
        let contents = read(path, true)?;
        let position: HashMap<u64, usize> = sink
            .order
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, i))
            .collect();
        for (i, (line, row)) in contents.rows.iter().enumerate() {
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
        match fs::read_to_string(&run_path) {
            Ok(was) if was.trim() == settings => {}
            Ok(was) => {
                return Err(ReportError::Bad {
                    path: run_path,
                    line: 1,
                    msg: format!(
                        "the report was run with other limits; resume it with the same ones:\n  report: {}\n  run:    {settings}",
                        was.trim()
                    ),
                })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound && contents.rows.is_empty() => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(ReportError::Bad {
                    path: path.to_path_buf(),
                    line: 0,
                    msg: format!(
                        "has rows but no {} recording its limits, so this run cannot tell whether it would mix two kinds of unknown; start a new report",
                        run_path.display()
                    ),
                })
            }
            Err(e) => return Err(io_err(&run_path)(e)),
        }
        let mut early: Vec<Row> = Vec::new();
        if pending_path.exists() {
            let placed: HashSet<u64> = contents.rows.iter().map(|(_, r)| r.seed).collect();
            for (line, row) in read(&pending_path, true)?.rows {
                check_run(&pending_path, line, &row, game, rules)?;
                if !position.contains_key(&row.seed) {
                    return Err(ReportError::Bad {
                        path: pending_path.clone(),
                        line,
                        msg: format!("seed {} is not one of this run's seeds", row.seed),
                    });
                }
                if !placed.contains(&row.seed) && !early.iter().any(|r| r.seed == row.seed) {
                    early.push(row);
                }
            }
        }

        // Now repair and extend: the limits first (written beside and
        // renamed over, so never half there), then the report's cut-short
        // tail, its header, and the side file.
        if !run_path.exists() {
            write_atomically(&run_path, |f| writeln!(f, "{settings}"))?;
        }
        if contents.keep < file.metadata().map_err(io_err(path))?.len() {
            file.set_len(contents.keep).map_err(io_err(path))?;
        }
        use std::io::Seek;
        file.seek(io::SeekFrom::End(0)).map_err(io_err(path))?;
        // A resumed report keeps its own columns; one without a header yet
        // (new, or cut short in it) gets all of them.
        let columns = contents.columns;
        sink.columns = columns;
        if !contents.header {
            writeln!(file, "{}", columns.header().join(",")).map_err(io_err(path))?;
            file.flush().map_err(io_err(path))?;
        }
        sink.next = contents.rows.len();
        sink.rows = contents.rows.into_iter().map(|(_, r)| r).collect();
        // The side file starts again with the rows it still needs to hold.
        write_atomically(&pending_path, |f| {
            let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(f);
            w.write_record(columns.header())?;
            for r in &early {
                w.write_record(r.record(columns))?;
            }
            w.flush()
        })?;
        let pending = OpenOptions::new()
            .append(true)
            .open(&pending_path)
            .map_err(io_err(&pending_path))?;
        sink.out = Some(Out {
            path: path.to_path_buf(),
            csv: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(file),
            pending_path,
            pending: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(pending),
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
                    .write_record(row.record(self.columns))
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
                .write_record(row.record(self.columns))
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
    /// waiting in the side file (in seed order).
    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().chain(self.early.values())
    }

    /// How many deals are finished.
    pub fn len(&self) -> usize {
        self.rows.len() + self.early.len()
    }

    /// Whether no deal is finished.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

/// Writes `path` whole or not at all: into a file beside it, renamed over it.
fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), ReportError> {
    let tmp = with_suffix(path, ".tmp");
    let mut f = File::create(&tmp).map_err(io_err(&tmp))?;
    fill(&mut f).map_err(io_err(&tmp))?;
    drop(f);
    fs::rename(&tmp, path).map_err(io_err(path))
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
        let pending = pending_path(p);
        if read(&pending, true).is_ok_and(|c| !c.rows.is_empty()) {
            return Err(ReportError::Bad {
                path: p.clone(),
                line: 0,
                msg: format!(
                    "finished rows still wait in {} (an interrupted run: continue it with --resume first)",
                    pending.display()
                ),
            });
        }
        let contents = read(p, false)?;
        if !contents.header {
            return Err(ReportError::Bad {
                path: p.clone(),
                line: 1,
                msg: "not a demon report (empty)".into(),
            });
        }
        for (line, r) in contents.rows {
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
    if rows.is_empty() {
        return Err(ReportError::Bad {
            path: paths.first().cloned().unwrap_or_default(),
            line: 0,
            msg: "no rows in any of the reports".into(),
        });
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

/// What [`apply_retry`] changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Retried {
    /// Unknown rows replaced by a retried row.
    pub replaced: u64,
    /// Of those, the ones the retry decided.
    pub decided: u64,
    /// Unknown rows the retry does not cover (they keep their earlier
    /// limits: an interrupted retry, or one shard of it).
    pub not_covered: u64,
    /// Unknown rows the retry left unknown after fewer nodes than the
    /// earlier search had spent (a retry at a smaller limit, with another
    /// `--rollout-seed`, say): the earlier row is kept, as it records the
    /// larger search that failed.
    pub kept: u64,
}

/// Applies a report that solved again some of `rows`' unknown deals at
/// larger limits (`demon batch --retry-unknown`): each of its rows replaces
/// the unknown row of its seed, except an unknown row of fewer nodes than
/// the one it would replace (counted in [`Retried::kept`]). `rows` are in seed order (as [`merge`]
/// returns them). Refuses a report of another game or rules, a seed that
/// `rows` lack, and a verdict that contradicts a decided one (one of the
/// two solvers would be wrong: never settled silently). A retried row of a
/// deal already decided the same way changes nothing.
pub fn apply_retry(rows: &mut [Row], path: &Path) -> Result<Retried, ReportError> {
    let retry = merge(std::slice::from_ref(&path.to_path_buf()))?;
    let bad = |msg: String| ReportError::Bad {
        path: path.to_path_buf(),
        line: 0,
        msg,
    };
    let (r0, b0) = (&retry.rows[0], &rows[0]);
    if r0.game != b0.game || r0.rules != b0.rules {
        return Err(bad(format!(
            "not a retry of these reports: {} under rules\n  {}\nthere, {} under rules\n  {}\nhere",
            b0.game, b0.rules, r0.game, r0.rules
        )));
    }
    // Every row is checked before any is applied: a refusal changes nothing.
    let mut done = Retried::default();
    let mut apply = Vec::new();
    for r in retry.rows {
        let Ok(i) = rows.binary_search_by_key(&r.seed, |b| b.seed) else {
            return Err(bad(format!(
                "seed {} is not in the reports it retries",
                r.seed
            )));
        };
        match (rows[i].verdict, r.verdict) {
            (Verdict::Unknown, Verdict::Unknown) if r.nodes < rows[i].nodes => done.kept += 1,
            (Verdict::Unknown, now) => {
                done.replaced += 1;
                done.decided += u64::from(now != Verdict::Unknown);
                apply.push((i, r));
            }
            (_, Verdict::Unknown) => {}
            (was, now) if was == now => {}
            (was, now) => {
                return Err(bad(format!(
                    "seed {} is {now} here and {was} in the reports it retries: one of the two runs is wrong",
                    r.seed
                )))
            }
        }
    }
    let unknown = rows
        .iter()
        .filter(|r| r.verdict == Verdict::Unknown)
        .count() as u64;
    done.not_covered = unknown - done.replaced - done.kept;
    for (i, r) in apply {
        rows[i] = r;
    }
    Ok(done)
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
        w.write_record(Columns::V4.header())?;
        for r in rows {
            w.write_record(r.record(Columns::V4))?;
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
            verdict: if seed.is_multiple_of(3) {
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
            found_by: if seed.is_multiple_of(3) {
                String::new()
            } else {
                "search".into()
            },
            most_up: 40 + seed as u32,
            table_bytes: seed * 1000,
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
        let rows = read(&part, false).unwrap().rows;
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
        // The report is locked while a run writes it.
        let e = open(&part, true, &order).err().unwrap().to_string();
        assert!(e.contains("in use by another demon run"), "{e}");
        let left: Vec<u64> = order
            .iter()
            .copied()
            .filter(|x| ![10, 11, 12, 14, 15, 19].contains(x))
            .collect();
        assert_eq!(todo, left);
        assert_eq!(s.len(), 6);
        // Stop again after 13 (which places 14 and 15 too) and 20.
        s.push(row(20)).unwrap();
        s.push(row(13)).unwrap();
        drop(s);
        let rows = read(&part, false).unwrap().rows;
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

    /// A report of ten columns (written before `found_by`) reads with the
    /// column empty, resumes in its ten columns, side file too, and merges
    /// into a report of all thirteen; one of eleven (before `most_up`)
    /// reads with it 0 and resumes in eleven, one of twelve (before
    /// `table_bytes`) likewise; a new report has all thirteen.
    #[test]
    fn reports_without_found_by_read_resume_and_merge() {
        let dir = tempfile::tempdir().unwrap();
        let order: Vec<u64> = (1..=6).collect();
        let old = dir.path().join("old.csv");
        let v1 = |r: &Row| r.record(Columns::V1).join(",");
        let mut text = Columns::V1.header().join(",") + "\n";
        for seed in [1, 2] {
            text += &(v1(&row(seed)) + "\n");
        }
        fs::write(&old, &text).unwrap();
        fs::write(settings_path(&old), "max-nodes=9\n").unwrap();
        let c = read(&old, false).unwrap();
        assert_eq!(c.columns, Columns::V1);
        assert_eq!(c.rows.len(), 2);
        assert!(c.rows.iter().all(|(_, r)| r.found_by.is_empty()));
        assert_eq!(
            c.rows[1].1,
            Row {
                found_by: String::new(),
                most_up: 0,
                table_bytes: 0,
                ..row(2)
            }
        );

        let (mut s, todo) = open(&old, true, &order).unwrap();
        assert_eq!(todo, [3, 4, 5, 6]);
        s.push(row(4)).unwrap(); // ahead of 3: into the side file
        let side = fs::read_to_string(pending_path(&old)).unwrap();
        assert_eq!(
            side,
            Columns::V1.header().join(",") + "\n" + &v1(&row(4)) + "\n"
        );
        for seed in [3, 5, 6] {
            s.push(row(seed)).unwrap();
        }
        s.finish().unwrap();
        let mut want = text.clone();
        for seed in 3..=6 {
            want += &(v1(&row(seed)) + "\n");
        }
        assert_eq!(fs::read_to_string(&old).unwrap(), want);

        // Eleven columns (before `most_up`): read with it 0, resumed in
        // eleven.
        let v2 = |r: &Row| r.record(Columns::V2).join(",");
        let eleven = dir.path().join("eleven.csv");
        let text2 = Columns::V2.header().join(",") + "\n" + &v2(&row(1)) + "\n";
        fs::write(&eleven, &text2).unwrap();
        fs::write(settings_path(&eleven), "max-nodes=9\n").unwrap();
        let c = read(&eleven, false).unwrap();
        assert_eq!(c.columns, Columns::V2);
        assert_eq!(
            c.rows[0].1,
            Row {
                most_up: 0,
                table_bytes: 0,
                ..row(1)
            }
        );
        let (mut s, todo) = open(&eleven, true, &[1, 2]).unwrap();
        assert_eq!(todo, [2]);
        s.push(row(2)).unwrap();
        s.finish().unwrap();
        assert_eq!(
            fs::read_to_string(&eleven).unwrap(),
            text2 + &v2(&row(2)) + "\n"
        );

        // Twelve columns (before `table_bytes`): read with it 0, resumed
        // in twelve.
        let v3 = |r: &Row| r.record(Columns::V3).join(",");
        let twelve = dir.path().join("twelve.csv");
        let text3 = Columns::V3.header().join(",") + "\n" + &v3(&row(1)) + "\n";
        fs::write(&twelve, &text3).unwrap();
        fs::write(settings_path(&twelve), "max-nodes=9\n").unwrap();
        let c = read(&twelve, false).unwrap();
        assert_eq!(c.columns, Columns::V3);
        assert_eq!(
            c.rows[0].1,
            Row {
                table_bytes: 0,
                ..row(1)
            }
        );
        let (mut s, todo) = open(&twelve, true, &[1, 2]).unwrap();
        assert_eq!(todo, [2]);
        s.push(row(2)).unwrap();
        s.finish().unwrap();
        assert_eq!(
            fs::read_to_string(&twelve).unwrap(),
            text3 + &v3(&row(2)) + "\n"
        );
        assert!(v3(&row(2)).ends_with(",search,42"));

        let new = dir.path().join("new.csv");
        let (mut s, _) = open(&new, false, &[7, 8]).unwrap();
        s.push(row(7)).unwrap();
        s.push(row(8)).unwrap();
        s.finish().unwrap();
        let got = fs::read_to_string(&new).unwrap();
        assert!(got.starts_with("game,rules,seed,verdict,solution_moves,nodes,stored,seconds,peak_memory,limit,found_by,most_up,table_bytes\n"), "{got}");
        assert!(got.ends_with(",,search,48,8000\n"), "{got}");
        let c = read(&new, false).unwrap();
        assert_eq!(c.columns, Columns::V4);
        assert_eq!(c.rows[1].1, row(8));

        let m = merge(&[old.clone(), new.clone()]).unwrap();
        let out = dir.path().join("merged.csv");
        write_new(&out, &m.rows).unwrap();
        let c = read(&out, false).unwrap();
        assert_eq!(c.columns, Columns::V4);
        assert_eq!(c.rows.len(), 8);
        assert_eq!(c.rows[0].1.found_by, "");
        assert_eq!(c.rows[7].1.found_by, "search");
        assert_eq!((c.rows[0].1.most_up, c.rows[7].1.most_up), (0, 48));
        assert_eq!(
            (c.rows[0].1.table_bytes, c.rows[7].1.table_bytes),
            (0, 8000)
        );
        // A header of neither kind is not a report.
        let bad = dir.path().join("bad.csv");
        fs::write(&bad, "game,rules,seed,verdict\n").unwrap();
        let e = read(&bad, false).err().unwrap().to_string();
        assert!(e.contains("not a demon report"), "{e}");
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
        // Not a report at all, even without a newline: left alone.
        for text in ["a,b,c\n1,2,3\n", "{\"json\": 1}", "\ngame,rules\n"] {
            let other = dir.path().join("other.csv");
            fs::write(&other, text).unwrap();
            let e = open(&other, true, &[1]).err().unwrap().to_string();
            assert!(e.contains("line 1: not a demon report"), "{text:?}: {e}");
            assert_eq!(fs::read(&other).unwrap(), text.as_bytes());
        }
        // Empty, blank, or a header cut short: started afresh.
        for text in ["", "\n", "game,rules,se"] {
            let p = dir.path().join("blank.csv");
            fs::write(&p, text).unwrap();
            let _ = fs::remove_file(settings_path(&p));
            let (mut s, todo) = open(&p, true, &[1, 2]).unwrap();
            assert_eq!(todo, [1, 2]);
            s.push(row(1)).unwrap();
            drop(s);
            let c = read(&p, false).unwrap();
            assert!(c.header && c.rows.len() == 1, "{text:?}");
        }
        // Rows but no record of the limits: refused, nothing changed.
        fs::remove_file(settings_path(&path)).unwrap();
        let before = fs::read(&path).unwrap();
        let e = open(&path, true, &[1, 2, 3]).err().unwrap().to_string();
        assert!(
            e.contains("no ") && e.contains(".run recording its limits"),
            "{e}"
        );
        assert_eq!(fs::read(&path).unwrap(), before);
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
        // An interrupted run's report is not merged before it is resumed.
        let (mut s, _) = open(&dir.path().join("half.csv"), false, &[1, 2, 3]).unwrap();
        s.push(row(2)).unwrap();
        drop(s);
        let e = merge(&[dir.path().join("half.csv")])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("wait in") && e.contains("--resume"), "{e}");
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

    /// A retry replaces unknown rows only, counts what it decided, and
    /// refuses seeds the reports lack, other rules and contradictions,
    /// leaving the rows as they were.
    #[test]
    fn retries_replace_unknown_rows_and_refuse_contradictions() {
        let dir = tempfile::tempdir().unwrap();
        let unknown = |seed: u64| Row {
            verdict: Verdict::Unknown,
            limit: "node limit (9 nodes)".into(),
            found_by: String::new(),
            ..row(seed)
        };
        // Seeds 1..=6: 2 and 4 unknown, 3 and 6 lost, the rest won.
        let base: Vec<Row> = (1..=6)
            .map(|s| if s == 2 || s == 4 { unknown(s) } else { row(s) })
            .collect();
        let file = |name: &str, rows: &[Row]| {
            let p = dir.path().join(name);
            write_new(&p, rows).unwrap();
            p
        };
        // Seed 2 decided (won), seed 4 still unknown, seed 5 won again.
        let good = file("good.csv", &[row(2), unknown(4), row(5)]);
        let mut rows = base.clone();
        let done = apply_retry(&mut rows, &good).unwrap();
        assert_eq!(
            done,
            Retried {
                replaced: 2,
                decided: 1,
                not_covered: 0,
                kept: 0
            }
        );
        // A retry of seed 4 alone leaves seed 2 at the earlier limits.
        let part = file("part.csv", &[unknown(4)]);
        let mut part_rows = base.clone();
        let d = apply_retry(&mut part_rows, &part).unwrap();
        assert_eq!((d.replaced, d.decided, d.not_covered), (1, 0, 1));
        let mut want = base.clone();
        want[1] = row(2);
        assert_eq!(rows, want);
        // A retry that searched seed 4 less (300 nodes against 400) and
        // seed 2 more (300 against 200), both still unknown: seed 4 keeps
        // its earlier row, seed 2 takes the new one.
        let less = |seed: u64| Row {
            nodes: 300,
            limit: "node limit (300 nodes)".into(),
            ..unknown(seed)
        };
        let small = file("small.csv", &[less(2), less(4)]);
        let mut small_rows = base.clone();
        let d = apply_retry(&mut small_rows, &small).unwrap();
        assert_eq!(
            d,
            Retried {
                replaced: 1,
                decided: 0,
                not_covered: 0,
                kept: 1
            }
        );
        let mut want = base.clone();
        want[1] = less(2);
        assert_eq!(small_rows, want);

        let refusals = [
            (
                "stray.csv",
                vec![row(7)],
                "seed 7 is not in the reports it retries",
            ),
            (
                "contra.csv",
                vec![Row {
                    verdict: Verdict::Won,
                    ..row(3)
                }],
                "seed 3 is won here and lost in the reports it retries",
            ),
            (
                "rules.csv",
                vec![Row {
                    rules: "decks=1 ranks=12".into(),
                    ..row(2)
                }],
                "not a retry of these reports",
            ),
        ];
        for (name, retry, msg) in refusals {
            let p = file(name, &retry);
            let mut rows = base.clone();
            let e = apply_retry(&mut rows, &p).err().unwrap().to_string();
            assert!(e.contains(msg), "{name}: {e}");
            assert_eq!(rows, base, "{name}");
        }
    }
}
