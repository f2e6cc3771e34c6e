//! One solved deal: a row of the CSV report.

use std::fmt;
use std::path::{Path, PathBuf};

use demon_core::pysolfc::GameNumber;
use demon_core::{GameKind, Rules, Source};
use demon_solver::{solve_with, Limit, Limits, Options, Outcome};

/// The columns of a report, in order. Reports written before `found_by`
/// (2026-12-01) have the first ten ([`Columns::V1`]), those written
/// before `most_up` (2026-12-02) the first eleven ([`Columns::V2`]), and
/// those written before `table_bytes` (2026-12-03) the first twelve
/// ([`Columns::V3`]): they are still read, and a resumed run goes on
/// writing their columns.
pub const HEADER: [&str; 13] = [
    "game",
    "rules",
    "seed",
    "verdict",
    "solution_moves",
    "nodes",
    "stored",
    "seconds",
    "peak_memory",
    "limit",
    "found_by",
    "most_up",
    "table_bytes",
];

/// Which columns a report file has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Columns {
    /// The first ten of [`HEADER`], without `found_by`.
    V1,
    /// The first eleven of [`HEADER`], without `most_up`.
    V2,
    /// The first twelve of [`HEADER`], without `table_bytes`.
    V3,
    /// All of [`HEADER`].
    #[default]
    V4,
}

impl Columns {
    /// The header line's names.
    pub fn header(self) -> &'static [&'static str] {
        match self {
            Columns::V1 => &HEADER[..10],
            Columns::V2 => &HEADER[..11],
            Columns::V3 => &HEADER[..12],
            Columns::V4 => &HEADER,
        }
    }

    /// The columns whose header is `names`, if any.
    pub fn of<'a>(names: impl Iterator<Item = &'a str> + Clone) -> Option<Columns> {
        [Columns::V4, Columns::V3, Columns::V2, Columns::V1]
            .into_iter()
            .find(|c| names.clone().eq(c.header().iter().copied()))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Won,
    Lost,
    Unknown,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
            Verdict::Unknown => "unknown",
        })
    }
}

/// How a run's deals are numbered: what its reports' `seed` column holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// demon's own seeds (`--seeds`).
    #[default]
    Demon,
    /// PySolFC game numbers (`--pysolfc`), from 1 (never with `ms`: those
    /// are FreeCell's numbering). The reports' `rules` column then ends
    /// with [`PYSOLFC_DEALS`], so that every reader that matches rows by
    /// game, rules and seed (resume, merge, retries, the recorded
    /// verdicts) keeps them apart from demon's seeds of the same number.
    Pysolfc,
}

/// What ends the `rules` column of a report of PySolFC game numbers.
pub const PYSOLFC_DEALS: &str = " deals=pysolfc";

impl Numbering {
    /// The numbering of a report whose `rules` column is `rules`.
    pub fn of_rules(rules: &str) -> Numbering {
        if rules.ends_with(PYSOLFC_DEALS) {
            Numbering::Pysolfc
        } else {
            Numbering::Demon
        }
    }

    /// The `rules` column of a report of `rules` so numbered.
    pub fn signature(self, rules: &Rules) -> String {
        match self {
            Numbering::Demon => rules.signature(),
            Numbering::Pysolfc => rules.signature() + PYSOLFC_DEALS,
        }
    }

    /// Deal `n`.
    pub fn source(self, n: u64) -> Source {
        match self {
            Numbering::Demon => Source::Native(n),
            Numbering::Pysolfc => Source::Pysolfc(GameNumber {
                value: n.into(),
                ms: false,
            }),
        }
    }

    /// Deal `n` in words: "seed 7" or "PySolFC #7".
    pub fn deal(self, n: u64) -> String {
        self.source(n).to_string()
    }

    /// The deals in words, plural: "seeds" or "PySolFC games".
    pub fn plural(self) -> &'static str {
        match self {
            Numbering::Demon => "seeds",
            Numbering::Pysolfc => "PySolFC games",
        }
    }
}

/// A solved deal as the report has it. `seconds` is rounded to the
/// report's precision (0.1 ms), so a row read back equals the row written.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct Row {
    /// The game's command-line name.
    pub game: String,
    /// The full rule set ([`Rules::signature`]), followed by
    /// [`PYSOLFC_DEALS`] when `seed` is a PySolFC game number
    /// ([`Numbering::signature`]).
    pub rules: String,
    /// The deal: demon's seed, or PySolFC's game number ([`Numbering`]).
    pub seed: u64,
    pub verdict: Verdict,
    /// Moves of the winning line as `demon solve` prints it (shortened by
    /// [`demon_solver::shorten`], checked by the independent replay), 0
    /// unless won. Reports written by ff0a63e and earlier versions hold
    /// the search's line, unshortened: up to hundreds of thousands of
    /// moves on two-deck games.
    pub solution_moves: u64,
    pub nodes: u64,
    pub stored: u64,
    pub seconds: f64,
    /// Bytes the search held at most.
    pub peak_memory: u64,
    /// What stopped an unknown deal; empty otherwise.
    pub limit: String,
    /// What found a won deal's line ([`demon_solver::Finder::name`]:
    /// `search`, `probe`, `ladder`, `restarts`, `beams`, `nrpa`, `tail` or
    /// `relaxed`); `relaxed` for a lost deal proved lost under relaxed
    /// rules; empty otherwise, and in reports written before the column.
    #[serde(default)]
    pub found_by: String,
    /// The most cards on the foundations that the search saw in one
    /// position ([`demon_solver::Stats::most_up`]): how near an unknown
    /// deal came. 0 in reports written before the column (and in rows a
    /// layered search left unknown or lost before 2026-12-02's fix).
    #[serde(default)]
    pub most_up: u32,
    /// Bytes the depth-first search's transposition table held at the
    /// end ([`demon_solver::Stats::table_bytes`]), beside the `stored`
    /// positions it held then: their ratio is what a stored position
    /// costs. 0 for a layered search, and in reports written before the
    /// column.
    #[serde(default)]
    pub table_bytes: u64,
}

#[cfg(test)]
impl Row {
    /// A row of game `g` and rules `r` with every count 0 and no limit or
    /// finder: for tests, which set the fields they look at over it.
    pub(crate) fn blank(seed: u64, verdict: Verdict) -> Row {
        Row {
            game: "g".into(),
            rules: "r".into(),
            seed,
            verdict,
            solution_moves: 0,
            nodes: 0,
            stored: 0,
            seconds: 0.0,
            peak_memory: 0,
            limit: String::new(),
            found_by: String::new(),
            most_up: 0,
            table_bytes: 0,
        }
    }
}

impl Row {
    /// The row's fields as a report of `columns` writes them.
    pub fn record(&self, columns: Columns) -> Vec<String> {
        let mut r = vec![
            self.game.clone(),
            self.rules.clone(),
            self.seed.to_string(),
            self.verdict.to_string(),
            self.solution_moves.to_string(),
            self.nodes.to_string(),
            self.stored.to_string(),
            format!("{:.4}", self.seconds),
            self.peak_memory.to_string(),
            self.limit.clone(),
        ];
        if columns != Columns::V1 {
            r.push(self.found_by.clone());
        }
        if matches!(columns, Columns::V3 | Columns::V4) {
            r.push(self.most_up.to_string());
        }
        if columns == Columns::V4 {
            r.push(self.table_bytes.to_string());
        }
        r
    }

    fn from_outcome(game: GameKind, rules: String, seed: u64, out: &Outcome) -> Row {
        use demon_solver::Verdict as V;
        let (verdict, moves, limit) = match &out.verdict {
            V::Won(m) => (Verdict::Won, m.len() as u64, String::new()),
            V::Lost => (Verdict::Lost, 0, String::new()),
            V::Unknown(l) => (Verdict::Unknown, 0, l.to_string()),
        };
        let s = &out.stats;
        Row {
            game: game.name().to_string(),
            rules,
            seed,
            verdict,
            solution_moves: moves,
            nodes: s.nodes,
            stored: s.stored,
            seconds: (s.elapsed.as_secs_f64() * 1e4).round() / 1e4,
            peak_memory: s.peak_memory as u64,
            limit,
            found_by: match out.verdict {
                V::Won(_) => s.found_by.map_or("", demon_solver::Finder::name).into(),
                // A loss proved under relaxed rules says so.
                V::Lost if s.found_by == Some(demon_solver::Finder::Relaxed) => {
                    demon_solver::Finder::Relaxed.name().into()
                }
                _ => String::new(),
            },
            most_up: s.most_up,
            table_bytes: s.table_bytes as u64,
        }
    }
}

/// What to solve and how: the same for every deal of a run.
#[derive(Clone, Debug)]
pub struct Job {
    pub game: GameKind,
    pub rules: Rules,
    /// Limits of one deal (its share of the run's memory).
    pub limits: Limits,
    pub options: Options,
    /// Where a deal the run's stop flag (`options.stop`) interrupts is
    /// saved, and resumed from by a later run
    /// ([`demon_solver::checkpoint`]): `GAME-SEED.ck`. `None`: an
    /// interrupted deal's search is lost.
    pub checkpoints: Option<PathBuf>,
    /// With `checkpoints`: a deal that a limit stops (nodes, time or
    /// memory) is saved there too, and its row written unknown, so that a
    /// later run with larger limits (`--retry-unknown`, the same directory)
    /// goes on from where it stopped instead of searching it again from
    /// the deal. Without it, only an interrupted deal is saved.
    pub keep_unknown: bool,
    /// What the run's seeds are: demon's, or PySolFC's game numbers.
    pub numbering: Numbering,
}

impl Job {
    /// The `rules` column of the run's reports ([`Numbering::signature`]).
    pub fn signature(&self) -> String {
        self.numbering.signature(&self.rules)
    }

    /// Solves deal `seed` (demon's seed or PySolFC's game number, as
    /// [`Job::numbering`] says): its row, or `None` when the stop flag
    /// interrupted it and it was saved in the checkpoint directory (a deal
    /// a limit stops has its row, saved or not: [`Job::keep_unknown`]). An
    /// error is the solver failing its own check (never expected) or a
    /// checkpoint that cannot be read or written.
    pub fn solve(&self, seed: u64) -> Result<Option<Row>, String> {
        self.solve_showing(seed, None)
    }

    /// [`Job::solve`], the search showing how far it has got on `board`
    /// ([`demon_solver::Options::progress`]).
    pub fn solve_showing(
        &self,
        seed: u64,
        board: Option<demon_solver::ProgressBoard>,
    ) -> Result<Option<Row>, String> {
        let layout = self.numbering.source(seed).layout(&self.rules);
        let fail = |e: demon_solver::SolveError| format!("seed {seed}: {e}");
        let options = Options {
            progress: board,
            ..self.options
        };
        use demon_solver::checkpoint::{self, FileAfter};
        let saved = self.checkpoints.as_ref().map(|dir| {
            let header = checkpoint::header(&self.rules, &layout, self.game.name(), &options);
            (self.checkpoint_path(dir, seed), header)
        });
        // Which stops are saved: Ctrl-C's always (the deal goes on in the
        // next run of the same report), and the limits' when kept.
        let keep = self.keep_unknown;
        let save_at = move |l: &Limit| *l == Limit::Interrupted || keep;
        let interrupted = |o: &Outcome| {
            matches!(
                o.verdict,
                demon_solver::Verdict::Unknown(Limit::Interrupted)
            )
        };
        let mut out = match &saved {
            None => solve_with(&self.rules, &layout, &self.limits, &options).map_err(fail)?,
            Some((path, header)) if options.layered => {
                use demon_solver::layered;
                // A directory a deal, saved every ten minutes too; a deal
                // that ends (its row written) leaves nothing behind.
                let (out, after) = layered::solve_layered_saving(
                    &self.rules,
                    &layout,
                    &self.limits,
                    &options,
                    path,
                    header,
                    &save_at,
                )
                .map_err(fail)?;
                match after {
                    FileAfter::Saved if interrupted(&out) => return Ok(None),
                    // The last save kept (a limit not saved at, or a
                    // resumed table that cannot hold the level under
                    // way): with --keep-unknown a run with more memory
                    // goes on from it; without, it goes.
                    FileAfter::Kept if !keep => layered::remove_saved(path)
                        .map_err(|e| format!("seed {seed}: {}: {e}", path.display()))?,
                    FileAfter::Saved | FileAfter::Kept | FileAfter::Removed | FileAfter::None => {}
                }
                out
            }
            Some((path, header)) => {
                let resume = checkpoint::open(path, header).map_err(fail)?;
                let (out, after) = checkpoint::run(
                    &self.rules,
                    &layout,
                    &self.limits,
                    &options,
                    path,
                    header,
                    resume,
                    &save_at,
                )
                .map_err(fail)?;
                if after == FileAfter::Saved && interrupted(&out) {
                    return Ok(None);
                }
                out
            }
        };
        // Its time is not in the row's seconds (the search's time).
        out.shorten_line(&self.rules, &layout);
        Ok(Some(Row::from_outcome(
            self.game,
            self.signature(),
            seed,
            &out,
        )))
    }

    /// Where deal `seed` is saved in checkpoint directory `dir`: a file,
    /// or a directory for the layered search (`GAME-SEED.ck`, or
    /// `GAME-pysolfc-N.ck` for PySolFC's game `N`).
    pub fn checkpoint_path(&self, dir: &Path, seed: u64) -> PathBuf {
        let ext = if self.options.layered {
            "layered"
        } else {
            "ck"
        };
        let pysolfc = match self.numbering {
            Numbering::Demon => "",
            Numbering::Pysolfc => "pysolfc-",
        };
        dir.join(format!("{}-{pysolfc}{seed}.{ext}", self.game.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::{Job, Numbering, PYSOLFC_DEALS};
    use demon_core::{GameKind, Reading};
    use demon_solver::{Limits, Options};
    use std::path::Path;

    fn job(numbering: Numbering, layered: bool) -> Job {
        let rules = GameKind::Canfield.preset(Reading::Pysolfc).unwrap();
        Job {
            game: GameKind::Canfield,
            options: Options {
                layered,
                ..Options::for_rules(&rules)
            },
            rules,
            limits: Limits {
                max_nodes: Some(1000),
                max_memory: 16 << 20,
                timeout: None,
            },
            checkpoints: None,
            keep_unknown: false,
            numbering,
        }
    }

    /// The rules column carries the numbering, and gives it back; the
    /// deals and their saves are PySolFC's games, named apart.
    #[test]
    fn pysolfc_numbering_marks_the_rules_and_names_the_saves() {
        let (demon, pysolfc) = (job(Numbering::Demon, false), job(Numbering::Pysolfc, false));
        assert_eq!(demon.signature(), demon.rules.signature());
        assert_eq!(pysolfc.signature(), demon.rules.signature() + PYSOLFC_DEALS);
        assert_eq!(Numbering::of_rules(&demon.signature()), Numbering::Demon);
        assert_eq!(
            Numbering::of_rules(&pysolfc.signature()),
            Numbering::Pysolfc
        );
        assert_eq!(Numbering::Demon.deal(7), "seed 7");
        assert_eq!(Numbering::Pysolfc.deal(7), "PySolFC #7");
        let dir = Path::new("ck");
        assert_eq!(demon.checkpoint_path(dir, 7), dir.join("canfield-7.ck"));
        assert_eq!(
            pysolfc.checkpoint_path(dir, 7),
            dir.join("canfield-pysolfc-7.ck")
        );
        let layered = job(Numbering::Pysolfc, true);
        assert_eq!(
            layered.checkpoint_path(dir, 7),
            dir.join("canfield-pysolfc-7.layered")
        );
        // A row is PySolFC's game, with the marked rules.
        let row = pysolfc.solve(1).unwrap().unwrap();
        assert_eq!((row.seed, row.rules), (1, pysolfc.signature()));
    }
}
