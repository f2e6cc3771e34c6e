//! `demon batch`, `demon compare` and `demon merge`: many deals in parallel,
//! with a progress bar, a CSV report that survives interruption, and
//! summaries with confidence intervals.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Parser;
use demon_batch::run::{self, Event};
use demon_batch::stats::pct;
use demon_batch::{seeds, Job, Numbering, Row, SeedRange, Shard, Sink, Summary, Verdict};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::{GameArgs, LimitArgs, OutFormat, RunOpts};
use crate::solve::{Log, LogClock};

/// Exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells expect).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Where Ctrl-C is reported: the events channel of the run in progress.
static INTERRUPT: OnceLock<Mutex<Option<Sender<Event>>>> = OnceLock::new();
/// Set by Ctrl-C: no new deal starts, and deals searched with checkpoints
/// stop and are saved.
static STOP: AtomicBool = AtomicBool::new(false);

fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Installs the Ctrl-C handler once: it stops new deals from starting and
/// tells the run, which writes what it has and exits.
fn catch_interrupt() -> Result<()> {
    let slot = INTERRUPT.get_or_init(|| Mutex::new(None));
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_none() {
        let stop = stop_flag();
        ctrlc::set_handler(move || {
            stop.store(true, Ordering::SeqCst);
            if let Some(tx) = slot.lock().ok().and_then(|g| g.clone()) {
                let _ = tx.send(Event::Interrupted);
            }
        })
        .context("cannot install the Ctrl-C handler")?;
        let _ = INSTALLED.set(());
    }
    Ok(())
}

/// Which deals a run solves.
pub enum Deals {
    /// `--seeds A..B`, or `--pysolfc A..B` ([`RunArgs::numbering`]).
    Range(SeedRange),
    /// `--retry-unknown REPORT`: the deals a report left unknown, in its order.
    Retry {
        report: PathBuf,
        game: String,
        rules: String,
        seeds: Vec<u64>,
    },
}

/// Settings shared by `batch` and `compare`.
pub struct RunArgs<'a> {
    pub deals: Deals,
    /// What the seeds are: demon's, or PySolFC's game numbers (given by
    /// `--pysolfc`, or read from the report a retry retries).
    pub numbering: Numbering,
    pub shard: Shard,
    pub jobs: Option<usize>,
    pub limits: &'a LimitArgs,
    /// `--checkpoint-dir` (batch only).
    pub checkpoints: Option<PathBuf>,
    /// `--keep-unknown` (batch only, with `--checkpoint-dir`).
    pub keep_unknown: bool,
    /// `--log-every` (`None` for 0): lines on standard error that say how
    /// far the run has got, when no progress bar is drawn.
    pub log: Option<Log>,
}

impl<'a> RunArgs<'a> {
    /// The run of `--seeds` or `--pysolfc`, or of `retry` (a report whose
    /// unknown deals are solved again, numbered as the report's are).
    pub fn new(run: &RunOpts, limits: &'a LimitArgs, retry: Option<&Path>) -> Result<RunArgs<'a>> {
        let (deals, numbering) = match (run.seeds, run.pysolfc, retry) {
            (Some(range), None, None) => (Deals::Range(range), Numbering::Demon),
            (None, Some(range), None) => (Deals::Range(range), Numbering::Pysolfc),
            (None, None, Some(report)) => {
                let m = demon_batch::merge(&[report.to_path_buf()])
                    .context("--retry-unknown: cannot read the report")?;
                let seeds: Vec<u64> = m
                    .rows
                    .iter()
                    .filter(|r| r.verdict == Verdict::Unknown)
                    .map(|r| r.seed)
                    .collect();
                if seeds.is_empty() {
                    bail!(
                        "--retry-unknown {}: the report has no unknown deals, so there is nothing to retry",
                        report.display()
                    );
                }
                let numbering = Numbering::of_rules(&m.rows[0].rules);
                let deals = Deals::Retry {
                    report: report.to_path_buf(),
                    game: m.rows[0].game.clone(),
                    rules: m.rows[0].rules.clone(),
                    seeds,
                };
                (deals, numbering)
            }
            (None, None, None) => bail!("give --seeds, --pysolfc or --retry-unknown"),
            _ => bail!(
                "give only one of --seeds, --pysolfc and --retry-unknown (a retry's deals are numbered as its report's)"
            ),
        };
        Ok(RunArgs {
            deals,
            numbering,
            shard: run.shard.unwrap_or(Shard::WHOLE),
            jobs: run.jobs,
            limits,
            checkpoints: None,
            keep_unknown: false,
            log: Log::every(run.log_every),
        })
    }

    /// The seeds of the run in report order, refusing runs too large to
    /// index and empty ones.
    fn order(&self) -> Result<Vec<u64>> {
        let range = match &self.deals {
            Deals::Range(r) => *r,
            Deals::Retry { seeds, .. } => {
                let (i, n) = (self.shard.index as usize - 1, self.shard.count as usize);
                let v: Vec<u64> = seeds.iter().skip(i).step_by(n).copied().collect();
                if v.is_empty() {
                    bail!(
                        "--shard {} has no deals (more shards than unknown deals)",
                        self.shard
                    );
                }
                return Ok(v);
            }
        };
        let flag = self.flag();
        let n = seeds::count(range, self.shard);
        if n > seeds::MAX_RUN {
            bail!(
                "{flag} {range} has {n} deals; one run takes at most {}: split it with --shard or smaller ranges",
                seeds::MAX_RUN
            );
        }
        if n == 0 {
            bail!(
                "{flag} {range} --shard {} has no deals (more shards than deals)",
                self.shard
            );
        }
        Ok(seeds::seeds(range, self.shard).collect())
    }

    /// The option that names the run's range of deals.
    fn flag(&self) -> &'static str {
        match self.numbering {
            Numbering::Demon => "--seeds",
            Numbering::Pysolfc => "--pysolfc",
        }
    }

    /// The deals of the run, in words.
    fn describe(&self, deals: usize) -> String {
        let what = match &self.deals {
            Deals::Range(range) => format!("{} {range}", self.numbering.plural()),
            Deals::Retry { report, .. } => format!("the unknown deals of {}", report.display()),
        };
        let mut s = format!("{deals} deal{} ({what}", if deals == 1 { "" } else { "s" });
        if self.shard != Shard::WHOLE {
            s.push_str(&format!(", shard {}", self.shard));
        }
        s.push(')');
        s
    }

    /// Refuses a retry under other rules than the report's, at the
    /// report's own limits (`settings`), or written over the report itself.
    fn check_retry(
        &self,
        game: &GameArgs,
        rules: &str,
        settings: &str,
        csv: Option<&Path>,
    ) -> Result<()> {
        let Deals::Retry {
            report,
            game: g,
            rules: r,
            ..
        } = &self.deals
        else {
            return Ok(());
        };
        if g != game.game.name() {
            bail!(
                "--retry-unknown {}: the report is of {g}, and this run is of {}",
                report.display(),
                game.game.name()
            );
        }
        if r != rules {
            bail!(
                "--retry-unknown {}: the report's rules differ from this run's (give the same rule options):\n  report: {r}\n  run:    {rules}",
                report.display()
            );
        }
        if let Some(out) = csv.filter(|out| same_file(report, out)) {
            bail!(
                "--csv {} is the report being retried: write the retry to a new file, then fold it in with `demon merge {} --retried NEW`",
                out.display(),
                report.display()
            );
        }
        let was = std::fs::read_to_string(demon_batch::report::settings_path(report));
        if was.is_ok_and(|w| w.trim() == settings) {
            // Where the random searches run, another seed of theirs is
            // a retry too.
            let seed = if settings.contains(" restarts=") {
                ", or another --rollout-seed"
            } else {
                ""
            };
            bail!(
                "--retry-unknown {}: this run's limits are the report's ({settings}), so every unknown deal would stay unknown; give larger ones (--max-nodes, --timeout, --max-memory){seed}",
                report.display()
            );
        }
        Ok(())
    }

    fn threads(&self) -> Result<usize> {
        let n = match self.jobs {
            Some(0) => bail!("--jobs 0: give at least 1"),
            Some(n) => n,
            // One thread per core: each deal takes --threads of them.
            None => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                (cores / self.limits.threads as usize).max(1)
            }
        };
        Ok(n)
    }

    /// One deal's limits: its share of the run's memory.
    fn job(&self, game: &GameArgs, threads: usize) -> Result<Job> {
        let rules = game.rules()?;
        if self.numbering == Numbering::Pysolfc {
            let which = match &self.deals {
                Deals::Range(r) => format!("games {r}"),
                Deals::Retry { .. } => "these games".into(),
            };
            if let Some(note) = crate::args::pysolfc_note(game.game, &rules, &which)? {
                eprintln!("{note}");
            }
        }
        let mut limits = self.limits.limits();
        limits.max_memory = self.limits.max_memory / threads;
        if limits.max_memory < 1 << 20 {
            bail!(
                "--max-memory {} MiB shared by {threads} jobs leaves under 1 MiB per deal",
                self.limits.max_memory >> 20
            );
        }
        let mut options = self.limits.options(&rules);
        if let Some(dir) = &self.checkpoints {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("--checkpoint-dir: cannot create {}", dir.display()))?;
            // Ctrl-C stops the deals in progress too, and they are saved.
            options.stop = Some(demon_solver::StopFlag(&STOP));
        }
        Ok(Job {
            game: game.game,
            rules,
            limits,
            options,
            checkpoints: self.checkpoints.clone(),
            keep_unknown: self.keep_unknown,
            numbering: self.numbering,
        })
    }
}

/// The limits and search options that decide which deals end unknown, as
/// a resumed report must share them. The number of search paths is named
/// unless it is 1, so that the reports made before there were several
/// (`results/`) resume with `--cursors 1`, as they were made; rollouts
/// are named when on, so that those reports resume with `--no-rollouts`
/// (and the restarts beside them, which changed two-deck searches);
/// best-first probes when off, so that those made before they could be
/// turned off resume with `--probes`; a playout value other than the
/// default (`--playout-weights`, an experiment) when the rollouts run,
/// so that a report resumes only with its own.
fn settings(job: &Job) -> String {
    let l = &job.limits;
    let mut s = format!(
        "max-nodes={} timeout={} memory-per-deal={} tableau-classes={}",
        l.max_nodes.map_or("none".into(), |n| n.to_string()),
        l.timeout
            .map_or("none".into(), |t| format!("{}s", t.as_secs_f64())),
        l.max_memory,
        if job.options.tableau_classes {
            "on"
        } else {
            "off"
        }
    );
    if job.options.cursors != 1 {
        s += &format!(" cursors={}", job.options.cursors);
    }
    if !job.options.deadlock {
        s += " dead-ends=off";
    }
    if job.options.waste_bound {
        s += " waste-bound=on";
    }
    if job.options.replace_when_full {
        s += " forget-when-full";
    }
    if job.options.layered {
        s += " layered";
    }
    if job.options.rollouts {
        s += " rollouts=on";
        // A playout value of an experiment (--playout-weights), named
        // unless the default.
        if job.options.playout != demon_solver::rollout::playout_weights() {
            s += &format!(" playout={}", job.options.playout);
        }
        // The restarts (e399ac9), and then the restarts that start partway
        // along the best line (`restarts=cuts`), each changed what a
        // two-deck search decides under a node limit: reports from before
        // do not resume, and their unknown deals may be retried at the
        // same limits.
        if demon_solver::restarts_apply(&job.rules) {
            s += " restarts=cuts";
            // The beams beside them did the same (where they run).
            if demon_solver::beams_run(&job.rules, &job.options, l.max_memory) {
                s += " beams=on";
            }
            // And the NRPA searches (where they run): `nrpa=on` with a
            // quarter of each phase (68f560c), `nrpa=half` with half.
            if demon_solver::nrpa_runs(&job.rules, &job.options, l.max_memory) {
                s += " nrpa=half";
            }
            // And the tail searches: `tails=on` on the NRPA searches'
            // lines (bdea5ad), `tails=nrpa+restarts` on the restarts'
            // new best lines too (2f8a137).
            if demon_solver::tails_run(&job.rules, &job.options, l.max_memory) {
                s += " tails=nrpa+restarts";
                // An experiment's budget a line, named unless the default.
                if let Some(n) = job.options.tail_nodes {
                    s += &format!(" tail-nodes={n}");
                }
            }
            // The seed of the NRPA searches and the restarts, named
            // unless it is 0 (reports from before it could be set).
            if job.options.rollout_seed != 0 {
                s += &format!(" rollout-seed={}", job.options.rollout_seed);
            }
        }
    }
    if !job.options.probes {
        s += " probes=off";
    }
    // The search under relaxed rules (where the rules have a relaxation):
    // it decides deals the search alone leaves unknown under a node limit,
    // so reports from before it resume with --no-relaxation.
    if demon_solver::search::relaxation_runs(&job.rules, &job.options, &job.limits) {
        s += " relaxation=on";
        // An experiment's first turn, named unless the default.
        if job.options.relax_from != demon_solver::search::RELAX_FROM {
            s += &format!(" relax-from={}", job.options.relax_from);
        }
    }
    if job.options.threads != 1 {
        s += &format!(" threads={}", job.options.threads);
    }
    s
}

/// Why a run's loop ended.
enum End {
    Complete,
    Interrupted,
}

fn progress(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total);
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} {bar:30} {pos}/{len} deals, {rate}, {msg}, {eta} left",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} deals/s", s.per_sec());
            },
        )
        .progress_chars("=> "),
    );
    pb.enable_steady_tick(Duration::from_millis(500));
    pb
}

/// Verdicts so far, for the progress bar: won, lost, unknown.
#[derive(Default)]
struct Tally([u64; 3]);

impl Tally {
    fn add(&mut self, v: Verdict) {
        self.0[match v {
            Verdict::Won => 0,
            Verdict::Lost => 1,
            Verdict::Unknown => 2,
        }] += 1;
    }
}

/// What the deals in progress have done so far, for the progress bar:
/// `; in progress: 1.23 G nodes, 456.70 M positions`, or nothing before
/// their first look at the clock; with layered searches, the progress of
/// each one's level under way against a win's too (`, levels at 39 and
/// 41 of 99`, as `demon solve` says it).
fn in_progress(boards: &[demon_solver::Progress]) -> String {
    let sum = |f: fn(&demon_solver::Progress) -> u64| boards.iter().map(f).sum::<u64>();
    let nodes = sum(|p| p.nodes.load(Ordering::Relaxed));
    if nodes == 0 {
        return String::new();
    }
    let stored = sum(|p| p.stored.load(Ordering::Relaxed));
    let mut s = format!(
        "; in progress: {} nodes, {} positions",
        crate::solve::count(nodes),
        crate::solve::count(stored)
    );
    // (at, of) of each layered search under way; one deal's `of` differs
    // from another's only with a different reserve or stock (not within a
    // game), so the last is named.
    let levels: Vec<(u32, u32)> = boards
        .iter()
        .map(|p| {
            (
                p.progress.load(Ordering::Relaxed),
                p.progress_of_win.load(Ordering::Relaxed),
            )
        })
        .filter(|&(_, of)| of > 0)
        .collect();
    if let Some(&(_, of)) = levels.last() {
        let ats: Vec<String> = levels.iter().map(|(at, _)| at.to_string()).collect();
        let ats = match ats.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => ats.join(""),
        };
        let noun = if levels.len() == 1 { "level" } else { "levels" };
        s += &format!(", {noun} at {ats} of {of}");
    }
    s
}

fn running_rate(t: &Tally) -> String {
    let [won, lost, unknown] = t.0;
    if won + lost == 0 {
        return "no deal decided yet".into();
    }
    let mut s = format!("won {} of decided", pct(won as f64 / (won + lost) as f64));
    if unknown > 0 {
        s.push_str(&format!(", {unknown} unknown"));
    }
    s
}

/// Solves `todo` into `sink`, drawing progress (or, where `pb` is hidden,
/// writing it every `log.every`), until done or Ctrl-C.
fn drive(
    job: Job,
    todo: Vec<u64>,
    threads: usize,
    sink: &mut Sink,
    pb: &ProgressBar,
    log: Option<Log>,
) -> Result<End> {
    if todo.is_empty() {
        return Ok(End::Complete);
    }
    catch_interrupt()?;
    let (tx, rx) = mpsc::channel();
    if let Some(slot) = INTERRUPT.get() {
        *slot.lock().expect("not poisoned") = Some(tx.clone());
    }
    let stop = stop_flag();
    if stop.load(Ordering::SeqCst) {
        return Ok(End::Interrupted);
    }
    let saving = job.checkpoints.clone();
    let todo_len = todo.len() as u64;
    run::spawn(Arc::new(job), todo, threads, stop, tx)
        .context("cannot start the worker threads")?;
    let mut tally = Tally::default();
    for r in sink.rows() {
        tally.add(r.verdict);
    }
    let deals = tally.0.iter().sum::<u64>() + todo_len;
    let mut due = log.filter(|_| pb.is_hidden()).map(LogClock::new);
    let mut saved = Vec::new();
    let end = loop {
        let event = match rx.recv_timeout(Duration::from_millis(500)) {
            Ok(e) => Ok(e),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if !stop.load(Ordering::Relaxed) {
                    let now = running_rate(&tally) + &in_progress(run::boards(threads));
                    match &mut due {
                        Some(clock) => {
                            if clock.ready() {
                                eprintln!(
                                    "after {}: {} of {deals} deals done, {now}",
                                    clock.since_start(),
                                    tally.0.iter().sum::<u64>()
                                );
                            }
                        }
                        None => pb.set_message(now),
                    }
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(()),
        };
        match event {
            Ok(Event::Done(Ok(row))) => {
                tally.add(row.verdict);
                sink.push(row)?;
                pb.inc(1);
                pb.set_message(running_rate(&tally));
            }
            Ok(Event::Done(Err(e))) => {
                stop.store(true, Ordering::SeqCst);
                bail!("the solver failed on a deal, so the run stops (every deal finished before is saved): {e}");
            }
            Ok(Event::Saved(seed)) => saved.push(seed),
            // With checkpoints, the deals in progress stop and are saved:
            // wait for them (each ends as `Saved`, or `Done` if it had
            // just finished), then for `End`.
            Ok(Event::Interrupted) if saving.is_some() => {
                pb.set_message("interrupted: saving the deals in progress");
            }
            Ok(Event::Interrupted) => break End::Interrupted,
            // Every deal handed out has finished: complete unless Ctrl-C
            // kept some from starting.
            Ok(Event::End) => {
                break if sink.complete() {
                    End::Complete
                } else {
                    End::Interrupted
                }
            }
            Err(_) => bail!("the worker threads stopped without finishing the run"),
        }
    };
    if let (Some(dir), false) = (&saving, saved.is_empty()) {
        saved.sort_unstable();
        pb.suspend(|| {
            eprintln!(
                "saved the search of {} deal{} in progress in {} (seed{} {}): the next run continues {}",
                saved.len(),
                if saved.len() == 1 { "" } else { "s" },
                dir.display(),
                if saved.len() == 1 { "" } else { "s" },
                saved.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", "),
                if saved.len() == 1 { "it" } else { "them" },
            )
        });
    }
    if let Some(slot) = INTERRUPT.get() {
        *slot.lock().expect("not poisoned") = None;
    }
    Ok(end)
}

/// Bytes in MiB, or in GiB from 1 GiB on.
pub fn mib(bytes: usize) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", bytes >> 20)
    }
}

/// `demon batch`.
pub fn batch(
    out: &mut impl Write,
    game: &GameArgs,
    run: &RunArgs,
    csv: Option<&Path>,
    resume: bool,
) -> Result<ExitCode> {
    let threads = run.threads()?;
    let job = run.job(game, threads)?;
    let order = run.order()?;
    let total = order.len();
    let signature = job.signature();
    let limits = settings(&job);
    run.check_retry(game, &signature, &limits, csv)?;
    let (mut sink, todo) = Sink::open(
        csv,
        resume,
        game.game.name(),
        &signature,
        &limits,
        order,
    )
    .with_context(|| match &run.deals {
        Deals::Retry { report, .. } => format!(
            "a retry's deals are the unknown deals of {} as it is now: if it changed since this retry began, start a new retry report",
            report.display()
        ),
        Deals::Range(_) => "cannot open the report".into(),
    })?;
    let done = sink.len();
    let budget = job.limits.max_memory * threads;
    eprintln!(
        "{}: {}, {threads} job{}, {} per deal{}{}",
        game.game.title(),
        run.describe(total),
        if threads == 1 { "" } else { "s" },
        mib(job.limits.max_memory),
        job.limits.timeout.map_or(String::new(), |t| format!(
            ", {} s per deal",
            t.as_secs_f64()
        )),
        match (csv, done) {
            (None, _) => String::new(),
            (Some(p), 0) => format!("; report {}", p.display()),
            (Some(p), d) => format!("; report {} (resumed: {d} deals already done)", p.display()),
        }
    );
    let pb = progress(todo.len() as u64);
    let end = drive(job, todo, threads, &mut sink, &pb, run.log)?;
    pb.finish_and_clear();
    let rows: Vec<Row> = sink.rows().cloned().collect();
    // The report is settled before anything is printed (a closed stdout
    // must not leave it half done).
    let complete = matches!(end, End::Complete) && sink.complete();
    if complete {
        sink.finish()?;
    } else {
        drop(sink);
    }
    let resident = crate::solve::max_resident_bytes().map_or(String::new(), |b| {
        format!(
            "resident memory of the whole run: at most {} (--max-memory {} for {threads} job{})\n",
            mib(b as usize),
            mib(budget),
            if threads == 1 { "" } else { "s" },
        )
    });
    let text = format!(
        "{} under rules: {signature}\n{}{resident}",
        game.game.title(),
        Summary::of(&rows)
    );
    if complete {
        write!(out, "{text}")?;
        return Ok(ExitCode::SUCCESS);
    }
    // Interrupted: say so, and exit 130 even if stdout has gone.
    let _ = writeln!(
        out,
        "{text}interrupted: {} of {} deals done{}",
        rows.len(),
        total,
        match csv {
            Some(p) => format!(
                "; every finished deal is saved: continue with the same command and --resume (report {})",
                p.display()
            ),
            None => "; nothing was saved (no --csv)".into(),
        }
    );
    let _ = out.flush();
    Ok(ExitCode::from(EXIT_INTERRUPTED))
}

/// A rule variant of `demon compare`: `NAME: options`.
pub struct Variant {
    pub name: String,
    pub game: GameArgs,
}

#[derive(Parser)]
#[command(no_binary_name = true)]
struct VariantLine {
    #[command(flatten)]
    game: GameArgs,
}

/// Parses `NAME: --option value ...` as rule options over `shared`.
pub fn parse_variant(shared: &GameArgs, spec: &str) -> Result<Variant> {
    let game = shared.game.name();
    let (name, opts) = spec.split_once(':').with_context(|| {
        format!("--variant '{spec}': write 'NAME: options', e.g. 'whole: --group-moves whole'")
    })?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        bail!("--variant '{spec}': the name '{name}' must be letters, digits, '-', '_' or '.' (it names the variant's report file)");
    }
    let mut words = vec![game.to_string()];
    words.extend(opts.split_whitespace().map(str::to_string));
    let line = VariantLine::try_parse_from(&words).map_err(|e| {
        let msg = e.to_string();
        let first = msg
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        anyhow::anyhow!("--variant '{name}': {first}")
    })?;
    let game = shared.overlay(&line.game);
    game.rules()
        .with_context(|| format!("--variant '{name}'"))?;
    Ok(Variant {
        name: name.to_string(),
        game,
    })
}

/// Whether two paths name one file (as given, when either does not exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The report file of one variant of a comparison.
fn variant_path(prefix: &Path, name: &str) -> PathBuf {
    demon_batch::report::with_suffix(prefix, &format!("-{name}.csv"))
}

/// `demon compare`.
pub fn compare(
    out: &mut impl Write,
    variants: &[Variant],
    run: &RunArgs,
    csv: Option<&Path>,
    resume: bool,
) -> Result<ExitCode> {
    if variants.len() < 2 {
        bail!("give at least two --variant options to compare");
    }
    for (i, v) in variants.iter().enumerate() {
        if variants[..i].iter().any(|w| w.name == v.name) {
            bail!("two variants are named '{}'", v.name);
        }
        if v.name == "compare" {
            bail!("a variant may not be named 'compare' (PREFIX-compare.csv holds the comparison table)");
        }
    }
    let threads = run.threads()?;
    let order = run.order()?;
    let total_deals = order.len();
    let mut plans = Vec::new();
    for v in variants {
        let job = run.job(&v.game, threads)?;
        let path = csv.map(|p| variant_path(p, &v.name));
        let (sink, todo) = Sink::open(
            path.as_deref(),
            resume,
            v.game.game.name(),
            &job.signature(),
            &settings(&job),
            order.clone(),
        )
        .with_context(|| format!("variant '{}'", v.name))?;
        plans.push((job, sink, todo));
    }
    let total: usize = plans.iter().map(|p| p.2.len()).sum();
    eprintln!(
        "{}: {} variants × {}, {threads} job{}{}",
        variants[0].game.game.title(),
        variants.len(),
        run.describe(total_deals),
        if threads == 1 { "" } else { "s" },
        csv.map_or(String::new(), |p| format!(
            "; reports {}",
            variant_path(p, "NAME").display()
        ))
    );
    let pb = progress(total as u64);
    let mut interrupted = false;
    let mut results = Vec::new();
    for (job, mut sink, todo) in plans {
        let signature = job.signature();
        if !interrupted {
            if let End::Interrupted = drive(job, todo, threads, &mut sink, &pb, run.log)? {
                interrupted = true;
            }
        }
        let rows: Vec<Row> = sink.rows().cloned().collect();
        if sink.complete() {
            sink.finish()?;
        }
        results.push((signature, rows));
    }
    pb.finish_and_clear();
    if interrupted {
        // Compare like with like: only the deals every variant finished.
        let mut common: std::collections::HashSet<u64> =
            results[0].1.iter().map(|r| r.seed).collect();
        for (_, rows) in &results[1..] {
            let have: std::collections::HashSet<u64> = rows.iter().map(|r| r.seed).collect();
            common.retain(|s| have.contains(s));
        }
        for (_, rows) in &mut results {
            rows.retain(|r| common.contains(&r.seed));
        }
        if let Ok(lines) = write_comparison(out, variants, &results) {
            if let Some(p) = csv {
                write_comparison_csv(p, &lines)?;
            }
        }
        let _ = writeln!(
            out,
            "interrupted: the table covers the {} deals finished under every variant{}",
            common.len(),
            match csv {
                Some(_) => "; continue with the same command and --resume",
                None => "",
            }
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    let lines = write_comparison(out, variants, &results)?;
    if let Some(p) = csv {
        write_comparison_csv(p, &lines)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the comparison table, and returns it as CSV lines (one per
/// variant, paired with the first).
fn write_comparison(
    out: &mut impl Write,
    variants: &[Variant],
    results: &[(String, Vec<Row>)],
) -> Result<Vec<String>> {
    let mut csv = vec![
        "variant,rules,deals,won,lost,unknown,win_rate,ci95_low,ci95_high,vs,won_both,won_neither,won_first_only,won_this_only,undecided_either,mcnemar_p".to_string(),
    ];
    writeln!(out, "{}", variants[0].game.game.title())?;
    for (v, (sig, _)) in variants.iter().zip(results) {
        writeln!(out, "  {}: {sig}", v.name)?;
    }
    writeln!(out)?;
    let w = variants
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0)
        .max(7);
    writeln!(
        out,
        "{:<w$}  {:>7} {:>7} {:>7} {:>7}  {:>8}  {:<20}",
        "variant", "deals", "won", "lost", "unknown", "win rate", "95% CI (decided)"
    )?;
    let base = &variants[0].name;
    for (i, (v, (sig, rows))) in variants.iter().zip(results).enumerate() {
        let s = Summary::of(rows);
        let (rate, ci) = match s.win_rate() {
            Some((p, lo, hi)) => (pct(p), format!("{} to {}", pct(lo), pct(hi))),
            None => ("-".into(), "-".into()),
        };
        writeln!(
            out,
            "{:<w$}  {:>7} {:>7} {:>7} {:>7}  {:>8}  {:<20}",
            v.name, s.deals, s.won, s.lost, s.unknown, rate, ci
        )?;
        let r = s.win_rate();
        let f = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.6}"));
        let paired = if i == 0 {
            ",,,,,,".to_string()
        } else {
            let p = demon_batch::Paired::of(&results[0].1, rows);
            format!(
                "{base},{},{},{},{},{},{:.6e}",
                p.both, p.neither, p.only_a, p.only_b, p.undecided, p.p
            )
        };
        csv.push(format!(
            "{},\"{sig}\",{},{},{},{},{},{},{},{paired}",
            v.name,
            s.deals,
            s.won,
            s.lost,
            s.unknown,
            f(r.map(|r| r.0)),
            f(r.map(|r| r.1)),
            f(r.map(|r| r.2)),
        ));
    }
    writeln!(out)?;
    for (v, (_, rows)) in variants.iter().zip(results).skip(1) {
        let p = demon_batch::Paired::of(&results[0].1, rows);
        writeln!(
            out,
            "{base} vs {}: won under both {}, neither {}, {base} only {}, {} only {}; McNemar exact p = {:.3e}{}",
            v.name,
            p.both,
            p.neither,
            p.only_a,
            v.name,
            p.only_b,
            p.p,
            if p.undecided > 0 {
                format!(
                    " ({} deal{} unknown under one or both left out)",
                    p.undecided,
                    if p.undecided == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            }
        )?;
    }
    Ok(csv)
}

/// Writes the comparison table's CSV to `PREFIX-compare.csv` (replacing
/// it: it is derived from the variants' reports).
fn write_comparison_csv(prefix: &Path, lines: &[String]) -> Result<()> {
    let p = variant_path(prefix, "compare");
    std::fs::write(&p, lines.join("\n") + "\n")
        .with_context(|| format!("cannot write {}", p.display()))
}

/// The summary as JSON: counts, rates (fractions) with their intervals,
/// and the spread of time and nodes per deal.
fn summary_json(first: &Row, last: &Row, missing: u64, s: &Summary) -> serde_json::Value {
    let largest = s.largest.map(|l| {
        serde_json::json!({
            "seed": l.seed, "stored": l.stored, "peak_memory": l.peak_memory,
            "bytes_per_position": l.bytes_per_position(),
            "table_bytes": l.table_bytes,
            "table_bytes_per_position": l.table_bytes_per_position(),
        })
    });
    let spread = |x: Option<demon_batch::stats::Spread>| {
        x.map(|x| {
            serde_json::json!({
                "mean": x.mean, "median": x.median, "p99": x.p99, "max": x.max, "total": x.total,
            })
        })
    };
    let rate = s.win_rate();
    let bounds = s.bounds();
    serde_json::json!({
        "game": first.game,
        "rules": first.rules,
        "first_seed": first.seed,
        "last_seed": last.seed,
        "missing_seeds": missing,
        "deals": s.deals,
        "won": s.won,
        "lost": s.lost,
        "unknown": s.unknown,
        "win_rate": rate.map(|r| r.0),
        "win_rate_ci95": rate.map(|r| [r.1, r.2]),
        "all_deals_ci95": bounds.map(|b| [b.0, b.1]),
        "seconds": spread(s.seconds),
        "nodes": spread(s.nodes),
        "nodes_per_second": s.nodes_per_second(),
        "largest_search": largest,
        "unknown_most_up": s.unknown_up.map(|n| serde_json::json!({
            "deals": n.deals, "median": n.median, "nearest_seed": n.seed, "nearest_most_up": n.most_up,
        })),
        // Won deals by what found them; "" for rows of reports written
        // before the found_by column.
        "wins_found_by": s.found_by.iter().map(|(n, k)| (n.clone(), (*k).into())).collect::<serde_json::Map<String, serde_json::Value>>(),
        "losses_proved_relaxed": s.lost_relaxed,
    })
}

/// `demon merge`.
pub fn merge(
    out: &mut impl Write,
    files: &[PathBuf],
    retried: &[PathBuf],
    csv: Option<&Path>,
    format: OutFormat,
) -> Result<ExitCode> {
    let mut m = demon_batch::merge(files)?;
    let mut retries = Vec::new();
    // The same file twice would count its unknown rows as solved again.
    for (i, r) in retried.iter().enumerate() {
        if files.iter().chain(&retried[..i]).any(|f| same_file(f, r)) {
            bail!(
                "--retried {} is given twice (as a report or an earlier --retried)",
                r.display()
            );
        }
    }
    for r in retried {
        let done = demon_batch::apply_retry(&mut m.rows, r)
            .with_context(|| format!("--retried {}", r.display()))?;
        retries.push((r, done));
    }
    if let Some(p) = csv {
        demon_batch::report::write_new(p, &m.rows)?;
    }
    let first = &m.rows[0];
    if format == OutFormat::Json {
        let missing: u64 = m.gaps.iter().map(|(a, b)| b - a + 1).sum();
        let last = m.rows.last().expect("not empty");
        let mut v = summary_json(first, last, missing, &Summary::of(&m.rows));
        v["retried"] = retries
            .iter()
            .map(|(r, d)| {
                serde_json::json!({
                    "report": r.display().to_string(), "replaced": d.replaced, "decided": d.decided,
                    "not_covered": d.not_covered, "kept": d.kept,
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let title = demon_core::GameKind::from_name(&first.game)
        .map_or(first.game.clone(), |g| g.title().to_string());
    writeln!(out, "{title} under rules: {}", first.rules)?;
    writeln!(
        out,
        "{} report{} merged: {} {} to {}",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        Numbering::of_rules(&first.rules).plural(),
        first.seed,
        m.rows.last().map_or(first.seed, |r| r.seed)
    )?;
    for (r, d) in &retries {
        writeln!(
            out,
            "retried in {}: {} unknown deal{} solved again, {} of them decided{}{}",
            r.display(),
            d.replaced + d.kept,
            if d.replaced + d.kept == 1 { "" } else { "s" },
            d.decided,
            if d.kept > 0 {
                format!(
                    "; {} still unknown after fewer nodes than before (the earlier row{} kept)",
                    d.kept,
                    if d.kept == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            },
            if d.not_covered > 0 {
                format!(
                    "; {} unknown deal{} not in it (still at the earlier limits)",
                    d.not_covered,
                    if d.not_covered == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            }
        )?;
    }
    write!(out, "{}", Summary::of(&m.rows))?;
    if !m.gaps.is_empty() {
        let missing: u64 = m.gaps.iter().map(|(a, b)| b - a + 1).sum();
        let list: Vec<String> = m
            .gaps
            .iter()
            .take(10)
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}..{b}")
                }
            })
            .collect();
        eprintln!(
            "warning: {missing} seed{} missing between the first and the last: {}{}",
            if missing == 1 { " is" } else { "s are" },
            list.join(", "),
            if m.gaps.len() > 10 { ", …" } else { "" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::in_progress;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn the_deals_in_progress_are_summed() {
        let board = |nodes: u64, stored: u64| demon_solver::Progress {
            nodes: AtomicU64::new(nodes),
            stored: AtomicU64::new(stored),
            ..Default::default()
        };
        assert_eq!(in_progress(&[board(0, 0), board(0, 0)]), "");
        assert_eq!(
            in_progress(&[
                board(1_200_000_000, 400_000_000),
                board(30_000_000, 56_700_000)
            ]),
            "; in progress: 1.23 G nodes, 456.70 M positions"
        );
        // Layered searches name their levels under way.
        let layered = |nodes: u64, at: u32| {
            let p = board(nodes, 1_000_000);
            p.progress.store(at, Ordering::Relaxed);
            p.progress_of_win.store(99, Ordering::Relaxed);
            p
        };
        assert_eq!(
            in_progress(&[layered(2_000_000, 39), board(0, 0)]),
            "; in progress: 2.00 M nodes, 1.00 M positions, level at 39 of 99"
        );
        assert_eq!(
            in_progress(&[layered(1_000_000, 39), layered(1_000_000, 41)]),
            "; in progress: 2.00 M nodes, 2.00 M positions, levels at 39 and 41 of 99"
        );
    }
}
