//! `demon solve`: runs the solver and writes its answer for a person (a
//! numbered move list to follow on a real table or in PySolFC) or as JSON.

use std::io::IsTerminal;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use demon_core::{Game, Layout, Loc, Move, Rules, State};
use demon_solver::{Outcome, Verdict};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::args::OutFormat;

/// Exit codes of `demon solve`.
pub const EXIT_WON: u8 = 0;
pub const EXIT_LOST: u8 = 3;
pub const EXIT_UNKNOWN: u8 = 4;

/// One numbered step: stock turns that lead to a play, and the play.
struct Step {
    moves: Vec<Move>,
    text: String,
    position: Option<String>,
}

fn place(l: Loc) -> String {
    match l {
        Loc::Waste => "waste".into(),
        Loc::Reserve => "reserve".into(),
        Loc::Tableau(p) => format!("tableau {}", p + 1),
        Loc::Foundation(_) => "foundation".into(),
    }
}

/// What a single move does, in words, and what it forces.
fn describe(game: &Game, before: &State, after: &State, mv: Move) -> String {
    match mv {
        Move::Deal => match game.rules().stock {
            demon_core::rules::Stock::ToTableau { .. } => "deal a card onto every pile".into(),
            demon_core::rules::Stock::ToWaste { .. } => "turn stock".into(),
        },
        Move::Redeal => "redeal (turn the waste over)".into(),
        Move::ChooseBase(i) => {
            let c = game.selection()[i as usize];
            format!("choose {c} as the base card")
        }
        Move::Play {
            from,
            to,
            count,
            card,
        } => {
            let what = if count > 1 {
                let pile = if let Loc::Tableau(p) = from {
                    game.pile(before, p as usize)
                } else {
                    &[]
                };
                let top = pile.last().map(|c| c.to_string()).unwrap_or_default();
                format!("{card}…{top} ({count} cards)")
            } else {
                card.to_string()
            };
            let mut s = format!("{} {what} → {}", place(from), place(to));
            if let Loc::Tableau(p) = from {
                let p = p as usize;
                let was = game.pile(before, p).len();
                if game.face_down(after, p) < game.face_down(before, p) {
                    s.push_str(&format!(
                        " (turns up {})",
                        game.pile(after, p).last().expect("flipped card")
                    ));
                } else if was == count as usize && !game.pile(after, p).is_empty() {
                    s.push_str(&format!(
                        " (space filled from the reserve: {})",
                        game.pile(after, p)[0]
                    ));
                }
            }
            s
        }
    }
}

/// Groups a solution into steps: runs of stock turns join the play after.
fn steps(game: &Game, moves: &[Move], show_positions: bool) -> Vec<Step> {
    let mut st = game.initial();
    let mut out = Vec::new();
    let mut turns: Vec<Move> = Vec::new();
    let waste_stock = matches!(game.rules().stock, demon_core::rules::Stock::ToWaste { .. });
    for (i, &mv) in moves.iter().enumerate() {
        let before = st.clone();
        game.play(&mut st, mv);
        if waste_stock && matches!(mv, Move::Deal | Move::Redeal) && i + 1 < moves.len() {
            turns.push(mv);
            continue;
        }
        let mut text = String::new();
        if !turns.is_empty() {
            // "turn stock ×3; redeal; turn stock ×2"
            let mut parts: Vec<String> = Vec::new();
            let mut k = 0;
            for t in &turns {
                match t {
                    Move::Deal => k += 1,
                    _ => {
                        if k > 0 {
                            parts.push(format!("turn stock ×{k}"));
                            k = 0;
                        }
                        parts.push("redeal".into());
                    }
                }
            }
            if k > 0 {
                parts.push(format!("turn stock ×{k}"));
            }
            text = parts.join("; ") + "; ";
        }
        text.push_str(&describe(game, &before, &st, mv));
        let mut ms = std::mem::take(&mut turns);
        ms.push(mv);
        let position = show_positions.then(|| position_text(game, &st));
        out.push(Step {
            moves: ms,
            text,
            position,
        });
    }
    out
}

fn position_text(game: &Game, st: &State) -> String {
    let p = game.position(st);
    let mut s = String::new();
    let found: Vec<String> = (0..game.rules().foundations())
        .filter_map(|f| game.foundation_top(st, f).map(|c| c.to_string()))
        .collect();
    s.push_str(&format!(
        "      foundations: {}\n",
        if found.is_empty() {
            "-".into()
        } else {
            found.join(" ")
        }
    ));
    if game.rules().reserve > 0 {
        s.push_str(&format!(
            "      reserve: {} card(s){}\n",
            p.reserve.len(),
            p.reserve
                .last()
                .map(|c| format!(", top {c}"))
                .unwrap_or_default()
        ));
    }
    for (i, pile) in p.tableau.iter().enumerate() {
        s.push_str(&format!(
            "      tableau {}: {}\n",
            i + 1,
            demon_core::format::pile_text(pile)
        ));
    }
    s.push_str(&format!(
        "      waste: {} card(s){}; stock: {} card(s)\n",
        p.waste.len(),
        p.waste
            .last()
            .map(|c| format!(", top {c}"))
            .unwrap_or_default(),
        p.stock.len()
    ));
    s
}

fn move_json(m: Move) -> serde_json::Value {
    let loc = |l: Loc| match l {
        Loc::Waste => json!("waste"),
        Loc::Reserve => json!("reserve"),
        Loc::Tableau(p) => json!(format!("tableau {}", p + 1)),
        Loc::Foundation(_) => json!("foundation"),
    };
    match m {
        Move::Deal => json!({"kind": "deal"}),
        Move::Redeal => json!({"kind": "redeal"}),
        Move::ChooseBase(i) => json!({"kind": "choose-base", "index": i}),
        Move::Play {
            from,
            to,
            count,
            card,
        } => {
            json!({"kind": "play", "from": loc(from), "to": loc(to), "count": count, "card": card.to_string()})
        }
    }
}

/// Runs the search; Ctrl-C stops it as a limit does (UNKNOWN, with what it
/// has counted so far), and a second Ctrl-C quits at once.
fn solve_interruptible(
    rules: &Rules,
    layout: &Layout,
    search: &crate::args::LimitArgs,
    log: Option<Log>,
) -> Result<Outcome> {
    let mut options = search.options(rules);
    static STOP: AtomicBool = AtomicBool::new(false);
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(crate::batch::EXIT_INTERRUPTED));
        }
        say("interrupted: stopping the search (Ctrl-C again quits at once)");
    })
    .context("cannot install the Ctrl-C handler")?;
    options.stop = Some(demon_solver::StopFlag(&STOP));
    let limits = search.limits();
    let outcome = with_progress(&mut options, &limits, log, |options| {
        demon_solver::solve_with(rules, layout, &limits, options)
    })?;
    Ok(outcome)
}

/// The progress line on show ([`with_progress`]), if any.
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Prints a line on standard error, above the progress line if one is on
/// show (which would otherwise draw over it).
fn say(line: &str) {
    match SHOWN.lock().ok().and_then(|g| g.clone()) {
        Some(pb) => pb.println(line),
        None => eprintln!("{line}"),
    }
}

/// How far the search has got, for [`with_progress`].
static PROGRESS: demon_solver::Progress = demon_solver::Progress {
    nodes: AtomicU64::new(0),
    stored: AtomicU64::new(0),
    peak_memory: AtomicU64::new(0),
    progress: AtomicU32::new(0),
    progress_of_win: AtomicU32::new(0),
};

/// Runs `search`, showing on standard error, if it is a terminal, a line
/// that says how far it has got (nodes and their rate, positions stored,
/// peak memory against the limit, and for a layered search the progress
/// of the level under way against a win's), redrawn a few times a second and
/// cleared at the end. If standard error is not a terminal (a log file),
/// the same line is written there as `log`'s lines fall due instead
/// (`None`: never), each after the time since this run started and with the rate
/// since the line before, so that a long unattended run's log says how
/// far it got (a search resumed from a save counts its earlier sittings'
/// nodes and positions too, as the final answer does).
fn with_progress<T>(
    options: &mut demon_solver::Options,
    limits: &demon_solver::Limits,
    log: Option<Log>,
    search: impl FnOnce(&demon_solver::Options) -> T,
) -> T {
    let terminal = std::io::stderr().is_terminal();
    if !terminal && log.is_none() {
        return search(options);
    }
    options.progress = Some(demon_solver::ProgressBoard(&PROGRESS));
    let pb = terminal.then(|| {
        let pb = ProgressBar::new_spinner();
        pb.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {wide_msg}")
                .expect("valid template"),
        );
        pb.enable_steady_tick(Duration::from_millis(200));
        if let Ok(mut g) = SHOWN.lock() {
            *g = Some(pb.clone());
        }
        pb
    });
    let done = AtomicBool::new(false);
    let out = std::thread::scope(|scope| {
        scope.spawn(|| {
            // The rate counts from the first nodes shown (a resumed search
            // starts from its earlier sittings' nodes), and in a log from
            // the line before.
            let mut first: Option<(u64, Instant)> = None;
            let mut due = log.map(LogClock::new);
            while !done.load(Ordering::Relaxed) {
                let nodes = PROGRESS.nodes.load(Ordering::Relaxed);
                let (n0, t0) = *first.get_or_insert((nodes, Instant::now()));
                if n0 == 0 && nodes > 0 {
                    first = Some((nodes, Instant::now()));
                }
                let secs = t0.elapsed().as_secs_f64();
                let rate = |secs: f64| (nodes.saturating_sub(n0) as f64 / secs) as u64;
                match (&pb, &mut due) {
                    // A rate over less than a second says little.
                    (Some(pb), _) => pb.set_message(progress_line(
                        &PROGRESS,
                        limits,
                        (secs >= 1.0).then(|| rate(secs)),
                    )),
                    (None, Some(clock)) => {
                        if clock.ready() {
                            // Not after the search's end (its answer
                            // follows).
                            if !done.load(Ordering::Relaxed) {
                                eprintln!(
                                    "after {}: {}",
                                    clock.since_start(),
                                    progress_line(&PROGRESS, limits, Some(rate(secs)))
                                );
                            }
                            first = Some((nodes, Instant::now()));
                        }
                    }
                    (None, None) => {}
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let out = search(options);
        done.store(true, Ordering::Relaxed);
        out
    });
    if let Some(pb) = pb {
        if let Ok(mut g) = SHOWN.lock() {
            *g = None;
        }
        pb.finish_and_clear();
    }
    out
}

/// Progress lines written to standard error off a terminal (`--log-every`):
/// one falls due every `every` from `start`, the run's start.
#[derive(Clone, Copy, Debug)]
pub struct Log {
    pub every: Duration,
    pub start: Instant,
}

impl Log {
    /// Lines every `secs` seconds from now; `None` for 0 (never).
    pub fn every(secs: u64) -> Option<Log> {
        (secs > 0).then(|| Log {
            every: Duration::from_secs(secs),
            start: Instant::now(),
        })
    }
}

/// When the lines of a [`Log`] fall due, from the first still ahead when
/// the clock is made (a run of several searches, as `compare`'s, makes
/// one a search and keeps to the run's multiples of `every`).
pub struct LogClock {
    log: Log,
    at: Instant,
}

impl LogClock {
    pub fn new(log: Log) -> LogClock {
        let k = log.start.elapsed().as_secs_f64() / log.every.as_secs_f64();
        LogClock {
            log,
            at: log.start + log.every.mul_f64(k.floor() + 1.0),
        }
    }

    /// Whether a line is due now; if so, the next falls due `every` later.
    pub fn ready(&mut self) -> bool {
        if Instant::now() < self.at {
            return false;
        }
        self.at += self.log.every;
        true
    }

    /// The time since the run started, as hours, minutes and seconds:
    /// `0:04:05`, `27:46:40`.
    pub fn since_start(&self) -> String {
        let s = self.log.start.elapsed().as_secs();
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    }
}

/// The progress line's text: `12.30 M nodes (1.23 M/s), 4.56 M
/// positions, peak memory 812 MiB of 4.0 GiB`, with the node and time
/// limits where there are (`rate`: nodes a second, if known).
fn progress_line(
    p: &demon_solver::Progress,
    limits: &demon_solver::Limits,
    rate: Option<u64>,
) -> String {
    let mut s = format!("{} nodes", count(p.nodes.load(Ordering::Relaxed)));
    if let Some(n) = limits.max_nodes {
        s += &format!(" of {}", count(n));
    }
    if let Some(r) = rate {
        s += &format!(" ({}/s)", count(r));
    }
    s += &format!(
        ", {} positions, peak memory {} of {}",
        count(p.stored.load(Ordering::Relaxed)),
        crate::batch::mib(p.peak_memory.load(Ordering::Relaxed) as usize),
        crate::batch::mib(limits.max_memory)
    );
    let of = p.progress_of_win.load(Ordering::Relaxed);
    if of > 0 {
        s += &format!(
            ", level progress {} of {}",
            p.progress.load(Ordering::Relaxed),
            of
        );
    }
    if let Some(t) = limits.timeout {
        s += &format!(", time limit {} s", t.as_secs_f64());
    }
    s
}

/// A count in thousands, millions or billions: 950, 12.3 K, 4.56 M, 1.20 G.
pub fn count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} K", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.2} M", n as f64 / 1e6),
        _ => format!("{:.2} G", n as f64 / 1e9),
    }
}

/// Runs the search, saving and resuming through checkpoint `path` (see
/// `--checkpoint` and [`demon_solver::checkpoint`]).
fn solve_checkpointed(
    rules: &Rules,
    layout: &Layout,
    search: &crate::args::LimitArgs,
    path: &Path,
    game: &str,
    log: Option<Log>,
) -> Result<Outcome> {
    use demon_solver::checkpoint::{self, FileAfter};
    let mut options = search.options(rules);
    let header = checkpoint::header(rules, layout, game, &options);
    // Ctrl-C stops the search as a limit does, so that it is saved.
    static STOP: AtomicBool = AtomicBool::new(false);
    let shown = path.display().to_string();
    ctrlc::set_handler(move || {
        if !STOP.swap(true, Ordering::SeqCst) {
            say(&format!(
                "interrupted: stopping the search and saving it in {shown}"
            ));
        }
    })
    .context("cannot install the Ctrl-C handler")?;
    options.stop = Some(demon_solver::StopFlag(&STOP));
    let limits = search.limits();
    let (o, after) = if options.layered {
        // A directory of files, saved every ten minutes too.
        if std::fs::exists(path.join("search.ck")).unwrap_or(false) {
            eprintln!("resuming the layered search saved in {}", path.display());
        }
        with_progress(&mut options, &limits, log, |options| {
            demon_solver::layered::solve_layered_saving(
                rules,
                layout,
                &limits,
                options,
                path,
                &header,
                &|_| true,
            )
        })?
    } else {
        let resume = checkpoint::open(path, &header)?;
        if resume.is_some() {
            eprintln!("resuming the search saved in {}", path.display());
        }
        with_progress(&mut options, &limits, log, |options| {
            checkpoint::run(
                rules,
                layout,
                &limits,
                options,
                path,
                &header,
                resume,
                &|_| true,
            )
        })?
    };
    match after {
        FileAfter::Saved => eprintln!(
            "progress saved in {} ({} positions stored); the same command continues it{}",
            path.display(),
            o.stats.stored,
            if matches!(o.verdict, Verdict::Unknown(demon_solver::Limit::Memory(_))) {
                ", with more --max-memory"
            } else {
                ""
            }
        ),
        FileAfter::Kept => eprintln!(
            "the search was not saved where it stopped: {} keeps its last save, which the same command continues (with more --max-memory if the memory stopped it)",
            path.display()
        ),
        FileAfter::Removed => eprintln!("the deal is decided: {} removed", path.display()),
        FileAfter::None => {}
    }
    Ok(o)
}

/// The most memory this process has held resident so far, in bytes:
/// Linux's high-water mark `VmHWM` of `/proc/self/status`; `None` where
/// the system does not give it. The search's own "peak memory" counts
/// what it has allocated, which its memory limit bounds; much of that may
/// never be touched (the beams' share of the budget, a table's last
/// doubling), so the resident figure is what the machine really gave.
pub(crate) fn max_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line["VmHWM:".len()..]
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    Some(kib << 10)
}

/// What the relaxation of `rules` allows ([`demon_solver::relax`]), for
/// a deal it proved lost.
fn relaxation_words(rules: &Rules) -> &'static str {
    match rules.stock {
        demon_core::rules::Stock::ToTableau { .. } => "proved lost under relaxed rules that also deal the stock while a pile is empty, and so allow every line of play of these rules and more",
        _ => "proved lost under relaxed rules that allow every line of play of these rules and more",
    }
}

/// What found a win, in words.
fn finder_words(f: Option<demon_solver::Finder>) -> &'static str {
    use demon_solver::Finder;
    match f {
        None | Some(Finder::Search) => "the exhaustive search",
        Some(Finder::Probe) => "a best-first probe",
        Some(Finder::Ladder) => "the nested rollouts",
        Some(Finder::Restarts) => "the rollouts' restarts",
        Some(Finder::Beams) => "a beam search",
        Some(Finder::Nrpa) => "an NRPA search",
        Some(Finder::Tail) => "a tail search (depth first, near the end of a random search's line)",
        Some(Finder::Relaxed) => {
            "the search under relaxed rules (every move of its line is legal under these rules)"
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    out: &mut impl Write,
    rules: &Rules,
    layout: &Layout,
    title: &str,
    search: &crate::args::LimitArgs,
    format: OutFormat,
    show_positions: bool,
    checkpoint: Option<(&Path, &str)>,
    log: Option<Log>,
) -> Result<ExitCode> {
    let mut outcome = match checkpoint {
        None => solve_interruptible(rules, layout, search, log)?,
        Some((path, game)) => solve_checkpointed(rules, layout, search, path, game, log)?,
    };
    outcome.shorten_line(rules, layout);
    let Outcome { verdict, stats } = outcome;
    let game = Game::new(rules, layout)?;
    let (word, code) = match &verdict {
        Verdict::Won(_) => ("WON", EXIT_WON),
        Verdict::Lost => ("LOST", EXIT_LOST),
        Verdict::Unknown(_) => ("UNKNOWN", EXIT_UNKNOWN),
    };
    let steps = match &verdict {
        Verdict::Won(m) => steps(&game, m, show_positions),
        _ => Vec::new(),
    };
    let secs = stats.elapsed.as_secs_f64();
    let resident = max_resident_bytes();
    match format {
        OutFormat::Text => {
            writeln!(out, "{title}")?;
            match &verdict {
                Verdict::Won(m) => writeln!(out, "WON in {} steps ({} moves), found by {}; the move list was replayed by the independent checker.", steps.len(), m.len(), finder_words(stats.found_by))?,
                Verdict::Lost if stats.found_by == Some(demon_solver::Finder::Relaxed) => writeln!(
                    out,
                    "LOST: {}; every position reachable under them was explored, so this deal cannot be won.",
                    relaxation_words(rules)
                )?,
                Verdict::Lost => writeln!(out, "LOST: every reachable position was explored; this deal cannot be won.")?,
                Verdict::Unknown(l) => {
                    writeln!(out, "UNKNOWN: the search stopped at the {l} before deciding.")?;
                    if matches!(l, demon_solver::Limit::Memory(_)) && !search.forget_when_full && !search.layered && stats.stored > 0 {
                        writeln!(out, "(--forget-when-full lets a search whose table of positions is full go on in the same memory, forgetting explored positions.)")?;
                    }
                }
            }
            if show_positions && !steps.is_empty() {
                writeln!(out, "   start:\n{}", position_text(&game, &game.initial()))?;
            }
            let w = steps.len().to_string().len();
            for (i, s) in steps.iter().enumerate() {
                writeln!(out, "{:>w$}. {}", i + 1, s.text)?;
                if let Some(p) = &s.position {
                    write!(out, "{p}")?;
                }
            }
            writeln!(
                out,
                "nodes {}, positions stored {}{}, table hits {}, safe moves {}, moves slept {}, talon plays known {}, positions merged {}, dead ends {}, paths split {}{}, positions forgotten {}, table shrinks {}{}, rollout nodes {}{}{}, peak memory {:.1} MiB{}, time {:.3} s ({:.0} nodes/s)",
                stats.nodes,
                stats.stored,
                stats.table_bytes_per_position().map_or(String::new(), |b| format!(
                    " ({b:.1} bytes each, in a table of {:.1} MiB)",
                    stats.table_bytes as f64 / (1 << 20) as f64
                )),
                stats.hits,
                stats.auto_moves,
                stats.slept,
                stats.known_plays,
                stats.merged,
                stats.dead,
                stats.splits,
                if stats.handed > 0 {
                    format!(" ({} handed to another thread)", stats.handed)
                } else {
                    String::new()
                },
                stats.replaced,
                stats.shrinks,
                if search.layered {
                    format!(
                        ", table rebuilds {}{}",
                        stats.rebuilds,
                        stats.layered_progress().map_or(String::new(), |(at, of)| format!(
                            ", stopped at progress {at} of {of} (cards up, and out of the reserve and the stock)"
                        ))
                    )
                } else {
                    String::new()
                },
                stats.rollout_nodes,
                if stats.relaxed_nodes > 0 {
                    format!(", nodes under relaxed rules {}", stats.relaxed_nodes)
                } else {
                    String::new()
                },
                if stats.most_up > 0 {
                    format!(", most cards up {} of {}", stats.most_up, rules.deck_size())
                } else {
                    String::new()
                },
                stats.peak_memory as f64 / (1 << 20) as f64,
                resident.map_or(String::new(), |b| format!(
                    " ({:.1} MiB resident at most)",
                    b as f64 / (1 << 20) as f64
                )),
                secs,
                if secs > 0.0 { stats.nodes as f64 / secs } else { 0.0 }
            )?;
        }
        OutFormat::Json => {
            let v = json!({
                "title": title,
                "rules": rules.signature(),
                "verdict": word.to_lowercase(),
                "limit": match &verdict { Verdict::Unknown(l) => json!(l.to_string()), _ => json!(null) },
                "found_by": stats.found_by.map(demon_solver::Finder::name),
                "steps": steps.iter().map(|s| json!({
                    "text": s.text,
                    "moves": s.moves.iter().map(|&m| move_json(m)).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "stats": {
                    "nodes": stats.nodes,
                    "positions_stored": stats.stored,
                    "table_bytes": stats.table_bytes,
                    "table_hits": stats.hits,
                    "table_hits_fresh_covered": stats.covered,
                    "talon_plays_known": stats.known_plays,
                    "safe_moves": stats.auto_moves,
                    "moves_slept": stats.slept,
                    "positions_merged": stats.merged,
                    "dead_ends": stats.dead,
                    "paths_split": stats.splits,
                    "paths_handed_to_threads": stats.handed,
                    "positions_forgotten": stats.replaced,
                    "table_shrinks": stats.shrinks,
                    "table_rebuilds": stats.rebuilds,
                    "layered_progress": stats
                        .layered_progress()
                        .map(|(at, of)| json!({ "at": at, "of": of })),
                    "rollout_nodes": stats.rollout_nodes,
                    "relaxed_nodes": stats.relaxed_nodes,
                    "most_cards_up": (stats.most_up > 0).then_some(stats.most_up),
                    "cards": rules.deck_size(),
                    "peak_memory_bytes": stats.peak_memory,
                    "max_resident_bytes": resident,
                    "max_depth": stats.max_depth,
                    "seconds": secs,
                },
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        }
    }
    Ok(ExitCode::from(code))
}

#[cfg(test)]
mod tests {
    use super::{count, progress_line};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    #[test]
    fn counts_are_short() {
        assert_eq!(count(950), "950");
        assert_eq!(count(12_345), "12.3 K");
        assert_eq!(count(4_561_000), "4.56 M");
        assert_eq!(count(1_204_000_000), "1.20 G");
    }

    #[test]
    fn the_progress_line_names_the_limits() {
        let p = demon_solver::Progress {
            nodes: AtomicU64::new(12_300_000),
            stored: AtomicU64::new(4_560_000),
            peak_memory: AtomicU64::new(812 << 20),
            ..Default::default()
        };
        let mut limits = demon_solver::Limits {
            max_nodes: None,
            max_memory: 4 << 30,
            timeout: None,
        };
        assert_eq!(
            progress_line(&p, &limits, Some(1_230_000)),
            "12.30 M nodes (1.23 M/s), 4.56 M positions, peak memory 812 MiB of 4.0 GiB"
        );
        assert_eq!(
            progress_line(&p, &limits, None),
            "12.30 M nodes, 4.56 M positions, peak memory 812 MiB of 4.0 GiB"
        );
        limits.max_nodes = Some(30_000_000);
        limits.timeout = Some(Duration::from_secs(60));
        assert_eq!(
            progress_line(&p, &limits, Some(1_230_000)),
            "12.30 M nodes of 30.00 M (1.23 M/s), 4.56 M positions, peak memory 812 MiB of 4.0 GiB, time limit 60 s"
        );
        // A layered search's level under way.
        p.progress.store(31, Ordering::Relaxed);
        p.progress_of_win.store(86, Ordering::Relaxed);
        assert_eq!(
            progress_line(&p, &limits, None),
            "12.30 M nodes of 30.00 M, 4.56 M positions, peak memory 812 MiB of 4.0 GiB, level progress 31 of 86, time limit 60 s"
        );
    }
}
