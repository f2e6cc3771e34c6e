//! The layered search: an exhaustive search that holds in memory only
//! the positions of the levels it has not finished, for deals whose proof
//! of loss needs more positions than the table holds at once. The
//! positions waiting for their level are kept on disk.
//!
//! ## Levels
//!
//! A position's *level* (its progress, [`level`]) is the number of cards
//! on the foundations plus the number that have left the reserve and the
//! talon (stock and waste). Without worrying back no move lowers it: a
//! card never goes back to the reserve or the talon (a redeal turns the
//! waste into the stock, both talon), nor off a foundation; tableau moves,
//! turns and redeals leave it as it is, and every other move raises it
//! (checked at every move).
//!
//! So the search takes the lowest level it holds positions of and expands
//! them, and the positions of that level their moves lead to, until none
//! is left; positions of higher levels wait, each level's in a file
//! ([`Queue`]). A finished level is never met again: every position that
//! reaches one of its positions is of a level at or below it, all
//! finished. So its positions need not be kept: once the table is half
//! full, at the end of a level, it is rebuilt from the waiting positions
//! alone ([`Layered::compact`]).
//!
//! ## Why LOST is exact
//!
//! The search is the plain one of [`crate::search`]'s first paragraph in
//! another order: every position it stores is expanded before it ends
//! (positions wait in their level's file until their level comes), every
//! move the generator lists is played, and a position found in the table
//! was stored already, so is or will be expanded. Forgetting a finished
//! level's positions loses none: none of them is reached again (see
//! above), and one that were met again would only be expanded twice. So
//! when no level is left, the stored positions are closed under moves and
//! hold every position the deal reaches, and none is won. The moves are
//! [`crate::moves::generate`]'s, with the safe moves played without
//! branching and the dead-end tests, as in the depth-first search; the
//! fingerprints are [`crate::key`]'s (128 bits, the collision bound
//! stated there), with the talon levels' dominance of [`crate::table`].
//! It uses no tableau classes, sleep sets or cursors.
//!
//! ## Wins
//!
//! Each stored position gets a number, and a log file records, for each,
//! the position it was stored from and the move. When a move leads to a
//! won position, the line is read back from the log and replayed from the
//! deal, safe moves and stock turns spelled out; `solve` checks it with
//! the independent checker like every win. The search finds wins late: it
//! reaches a position only after every position of a lower level.
//!
//! ## Memory and disk
//!
//! The table takes the memory limit but a sixteenth, which the files'
//! buffers share. A full table ends the search UNKNOWN (memory). The
//! files, in the system's temporary directory (`TMPDIR`), take 16 bytes a
//! stored position for the log and some 20-120 bytes a waiting position
//! (its packed state, [`Game::pack`], its number and length); they have no
//! name while written (on Unix) and go when the search ends.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::atomic::Ordering;
use std::time::Instant;

use demon_core::{Game, Move, State};
use smallvec::SmallVec;

use crate::key::fingerprint_level;
use crate::moves::{generate, play_safe_moves, Gen, ReachMemo, SMove};
use crate::search::{
    get_move, put_move, Limit, Limits, Options, Outcome, SolveError, Stats, Verdict,
};
use crate::table::{FingerprintSet, Insert};

/// The level of a position (see the module comment): cards on the
/// foundations plus cards out of the reserve and the talon, plus 64 (more
/// than any reserve holds) so that it counts from the reserve's cards
/// left.
pub fn level(g: &Game, st: &State) -> u32 {
    let live = g.talon_live_bits(st).count_ones() as usize;
    (g.foundation_cards(st) + g.talon().len() + 64 - g.reserve(st).len() - live) as u32
}

/// A file created in the temporary directory, opened twice (a writer and
/// a reader with their own offsets), with no name on Unix.
fn scratch_file(what: &str) -> std::io::Result<(File, File, std::path::PathBuf)> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "demon-layered-{}-{}-{what}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let w = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    let r = File::open(&path)?;
    // On Unix the open files stay usable without the name, and go when
    // closed, however the process ends.
    #[cfg(unix)]
    std::fs::remove_file(&path)?;
    Ok((w, r, path))
}

/// Positions waiting for their level, in a file, read in the order
/// written: each as its packed state's length (1 byte), its number (8
/// bytes) and its packed state. A level being expanded appends its own
/// new positions behind those being read.
struct Queue {
    w: BufWriter<File>,
    r: File,
    #[cfg_attr(unix, allow(dead_code))]
    path: std::path::PathBuf,
    /// Bytes read from the file but not yet taken, from `rbuf[rpos..]`.
    rbuf: Vec<u8>,
    rpos: usize,
    /// Bytes written (buffered or not) and taken.
    written: u64,
    taken: u64,
    /// Buffer size, for the reader and for the writer.
    buf: usize,
}

impl Queue {
    fn new(buf: usize) -> std::io::Result<Queue> {
        let (w, r, path) = scratch_file("queue")?;
        Ok(Queue {
            w: BufWriter::with_capacity(buf, w),
            r,
            path,
            rbuf: Vec::with_capacity(buf),
            rpos: 0,
            written: 0,
            taken: 0,
            buf,
        })
    }

    fn bytes(&self) -> usize {
        2 * self.buf
    }

    fn push(&mut self, record: &[u8]) -> std::io::Result<()> {
        self.w.write_all(record)?;
        self.written += record.len() as u64;
        Ok(())
    }

    /// Makes `need` unread bytes available in `rbuf[rpos..]`, reading on
    /// (and writing out the writer's buffer when the file has too few).
    fn fill(&mut self, need: usize) -> std::io::Result<()> {
        if self.rbuf.len() - self.rpos >= need {
            return Ok(());
        }
        self.rbuf.drain(..self.rpos);
        self.rpos = 0;
        let mut flushed = false;
        while self.rbuf.len() < need {
            let have = self.rbuf.len();
            self.rbuf.resize(self.buf.max(need), 0);
            let n = self.r.read(&mut self.rbuf[have..])?;
            self.rbuf.truncate(have + n);
            if n == 0 {
                if flushed {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "a queue file ended early",
                    ));
                }
                self.w.flush()?;
                flushed = true;
            }
        }
        Ok(())
    }

    /// The next position's state and number, taken.
    fn pop(&mut self, g: &Game) -> std::io::Result<Option<(State, u64)>> {
        if self.taken == self.written {
            return Ok(None);
        }
        self.fill(9)?;
        let len = self.rbuf[self.rpos] as usize;
        self.fill(9 + len)?;
        let b = &self.rbuf[self.rpos..self.rpos + 9 + len];
        let id = u64::from_le_bytes(b[1..9].try_into().expect("8 bytes"));
        let (st, used) = g.unpack(&b[9..]);
        debug_assert_eq!(used, len);
        self.rpos += 9 + len;
        self.taken += 9 + len as u64;
        Ok(Some((st, id)))
    }

    /// Calls `f` on every position not yet taken, without taking them.
    fn each(&mut self, g: &Game, mut f: impl FnMut(&State)) -> std::io::Result<()> {
        self.w.flush()?;
        let mut file = self.w.get_ref().try_clone()?;
        file.seek(SeekFrom::Start(self.taken))?;
        let mut r = std::io::BufReader::with_capacity(self.buf, file);
        let mut left = self.written - self.taken;
        let mut rec = [0u8; 256];
        while left > 0 {
            r.read_exact(&mut rec[..9])?;
            let len = rec[0] as usize;
            r.read_exact(&mut rec[9..9 + len])?;
            f(&g.unpack(&rec[9..9 + len]).0);
            left -= 9 + len as u64;
        }
        // The writer's handle shares the offset just moved: back to the end.
        self.w.get_mut().seek(SeekFrom::End(0))?;
        Ok(())
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        #[cfg(not(unix))]
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The log of where each stored position came from (see the module
/// comment): record `i`, 16 bytes at `16 i`, is position `i`'s parent
/// (6 bytes; all ones for the deal's), the talon state its move set first
/// (a flag and two bytes) and the move (5 bytes).
struct Log {
    out: BufWriter<File>,
    r: File,
    #[cfg_attr(unix, allow(dead_code))]
    path: std::path::PathBuf,
    records: u64,
    /// A move as [`put_move`] writes it.
    mv: Vec<u8>,
}

/// A log record read back: the parent, the talon state set, the move.
type Record = (u64, Option<(u8, u8)>, Move);

const RECORD: usize = 16;
const NO_PARENT: u64 = (1 << 48) - 1;

impl Log {
    fn new(buf: usize) -> std::io::Result<Log> {
        let (w, r, path) = scratch_file("log")?;
        Ok(Log {
            out: BufWriter::with_capacity(buf, w),
            r,
            path,
            records: 0,
            mv: Vec::with_capacity(5),
        })
    }

    /// Records the next position, stored from `parent` by `sm`, and
    /// returns its number.
    fn push(&mut self, parent: u64, sm: Option<&SMove>) -> std::io::Result<u64> {
        let mut r = [0u8; RECORD];
        r[..6].copy_from_slice(&parent.to_le_bytes()[..6]);
        if let Some(sm) = sm {
            if let Some((pos, passes)) = sm.talon {
                r[6..9].copy_from_slice(&[1, pos, passes]);
            }
            self.mv.clear();
            put_move(&mut self.mv, sm.mv);
            r[9..14].copy_from_slice(&self.mv);
        }
        self.out.write_all(&r)?;
        self.records += 1;
        Ok(self.records - 1)
    }

    /// Record `id`: its parent, talon state and move.
    fn read(&mut self, id: u64) -> std::io::Result<Record> {
        self.out.flush()?;
        self.r.seek(SeekFrom::Start(id * RECORD as u64))?;
        let mut r = [0u8; RECORD];
        self.r.read_exact(&mut r)?;
        let mut p = [0u8; 8];
        p[..6].copy_from_slice(&r[..6]);
        let talon = (r[6] == 1).then_some((r[7], r[8]));
        let mv = get_move(&r[9..14]).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidData, "a damaged record")
        })?;
        Ok((u64::from_le_bytes(p), talon, mv))
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        #[cfg(not(unix))]
        let _ = std::fs::remove_file(&self.path);
    }
}

fn log_error(e: std::io::Error) -> SolveError {
    SolveError::Log(e.to_string())
}

/// What stopped a level's expansion.
enum Stop {
    Won(Vec<Move>),
    Limit(Limit),
}

struct Layered<'g> {
    game: &'g Game,
    table: FingerprintSet,
    table_budget: usize,
    /// The levels' waiting positions.
    pending: BTreeMap<u32, Queue>,
    /// Each file's buffers' size, and the most files open at once.
    buf: usize,
    max_queues: usize,
    log: Log,
    stats: Stats,
    limits: Limits,
    options: Options,
    start: Instant,
    reach: ReachMemo,
    dead_cache: crate::deadlock::Chains,
    scratch: SmallVec<[SMove; 32]>,
    autos: Vec<(Move, demon_core::Undo)>,
    record: Vec<u8>,
}

/// The most levels waiting at once: a move raises the level by a card or
/// two, a to-tableau deal by a card a pile, and the safe moves after it
/// by a few more.
const MAX_QUEUES: usize = 64;

impl<'g> Layered<'g> {
    fn memory(&self) -> usize {
        self.table.bytes() + self.pending.values().map(Queue::bytes).sum::<usize>() + 2 * self.buf
    }

    /// Stores `st` (of level `lv`), reached from position `parent` by
    /// `sm`, if new: in the table, the log and its level's file.
    fn store(
        &mut self,
        st: &State,
        lv: u32,
        parent: u64,
        sm: Option<&SMove>,
    ) -> Result<Result<(), Limit>, SolveError> {
        let (key, tl) = fingerprint_level(self.game, st);
        match self.table.insert_level(key, tl) {
            Insert::Present => {
                self.stats.hits += 1;
                return Ok(Ok(()));
            }
            Insert::Full => return Ok(Err(Limit::Memory(self.limits.max_memory))),
            Insert::New => {}
        }
        self.stats.stored += 1;
        let id = self.log.push(parent, sm).map_err(log_error)?;
        self.record.clear();
        self.record.push(0);
        self.record.extend_from_slice(&id.to_le_bytes());
        self.game.pack(st, &mut self.record);
        self.record[0] = (self.record.len() - 9) as u8;
        if !self.pending.contains_key(&lv) {
            if self.pending.len() >= self.max_queues {
                return Ok(Err(Limit::Memory(self.limits.max_memory)));
            }
            let q = Queue::new(self.buf).map_err(log_error)?;
            self.pending.insert(lv, q);
        }
        let q = self.pending.get_mut(&lv).expect("inserted");
        q.push(&self.record).map_err(log_error)?;
        self.stats.peak_memory = self.stats.peak_memory.max(self.memory());
        Ok(Ok(()))
    }

    /// A limit reached (the clock and the stop flag every 4,096 nodes).
    fn over_limit(&mut self) -> Option<Limit> {
        if let Some(n) = self.limits.max_nodes {
            if self.stats.nodes >= n {
                return Some(Limit::Nodes(n));
            }
        }
        if !self.stats.nodes.is_multiple_of(4096) {
            return None;
        }
        if let Some(crate::search::ProgressBoard(p)) = self.options.progress {
            p.nodes.store(self.stats.nodes, Ordering::Relaxed);
            p.stored.store(self.table.len() as u64, Ordering::Relaxed);
            p.peak_memory
                .fetch_max(self.stats.peak_memory as u64, Ordering::Relaxed);
        }
        if self.options.stop.is_some_and(|s| s.raised()) {
            return Some(Limit::Interrupted);
        }
        match self.limits.timeout {
            Some(t) if self.start.elapsed() >= t => Some(Limit::Time(t)),
            _ => None,
        }
    }

    /// Expands every position of level `lv` (those waiting, and the
    /// positions of the level their moves lead to), until none is left.
    fn level(&mut self, lv: u32) -> Result<Option<Stop>, SolveError> {
        let g = self.game;
        loop {
            let q = self.pending.get_mut(&lv).expect("the level under way");
            let Some((st, id)) = q.pop(g).map_err(log_error)? else {
                return Ok(None);
            };
            if let Some(l) = self.over_limit() {
                return Ok(Some(Stop::Limit(l)));
            }
            self.stats.nodes += 1;
            if self.options.deadlock
                && crate::deadlock::dead_cached(
                    &mut self.dead_cache,
                    g,
                    &st,
                    self.options.waste_bound,
                )
            {
                self.stats.dead += 1;
                continue;
            }
            generate(g, &st, &mut self.scratch, &mut self.reach, Gen::All);
            for i in 0..self.scratch.len() {
                let sm = self.scratch[i];
                let mut child = st.clone();
                if let Some(t) = sm.talon {
                    g.set_talon_state(&mut child, t);
                }
                g.play(&mut child, sm.mv);
                self.autos.clear();
                play_safe_moves(g, &mut child, &mut self.autos);
                self.stats.auto_moves += self.autos.len() as u64;
                if g.is_won(&child) {
                    return Ok(Some(Stop::Won(self.line(id, &sm)?)));
                }
                let clv = level(g, &child);
                // The module comment's argument: no move lowers the level.
                assert!(clv >= lv, "a move lowered the level: {sm:?}");
                if let Err(l) = self.store(&child, clv, id, Some(&sm))? {
                    return Ok(Some(Stop::Limit(l)));
                }
            }
        }
    }

    /// Empties the table and stores again the waiting positions only (all
    /// of levels not yet begun): see the module comment.
    fn compact(&mut self) -> Result<(), SolveError> {
        self.table = FingerprintSet::with_budget(self.table_budget);
        let g = self.game;
        for q in self.pending.values_mut() {
            let table = &mut self.table;
            q.each(g, |st| {
                let (key, tl) = fingerprint_level(g, st);
                let r = table.insert_level(key, tl);
                debug_assert!(r != Insert::Full);
            })
            .map_err(log_error)?;
        }
        Ok(())
    }

    /// The winning line: the moves from the deal to position `id`, then
    /// `last` and the safe moves after it, as core moves.
    fn line(&mut self, id: u64, last: &SMove) -> Result<Vec<Move>, SolveError> {
        let mut steps = vec![(last.talon, last.mv)];
        let mut at = id;
        loop {
            let (parent, talon, mv) = self.log.read(at).map_err(log_error)?;
            if parent == NO_PARENT {
                break;
            }
            steps.push((talon, mv));
            at = parent;
        }
        let g = self.game;
        let mut st = g.initial();
        let mut out = Vec::new();
        let mut autos = Vec::new();
        play_safe_moves(g, &mut st, &mut autos);
        out.extend(autos.iter().map(|a| a.0));
        for &(talon, mv) in steps.iter().rev() {
            if let Some(t) = talon {
                for m in g.stock_moves_between(&st, t) {
                    g.play(&mut st, m);
                    out.push(m);
                }
            }
            g.play(&mut st, mv);
            out.push(mv);
            autos.clear();
            play_safe_moves(g, &mut st, &mut autos);
            out.extend(autos.iter().map(|a| a.0));
        }
        Ok(out)
    }
}

/// Searches `game` level by level (see the module comment): WON with a
/// line (to be checked by the caller), LOST, or UNKNOWN with the limit.
/// The rollouts, probes, beams, classes, cursors and threads of `options`
/// play no part; its dead-end tests, stop flag and progress board do.
pub(crate) fn search_layered(
    game: &Game,
    limits: &Limits,
    options: &Options,
) -> Result<Outcome, SolveError> {
    if game.rules().worrying_back {
        return Err(SolveError::Unsupported(
            "the layered search needs cards to stay on the foundations (no worrying back)".into(),
        ));
    }
    // A sixteenth for the files' buffers: a reader's and a writer's for
    // each level waiting, and the log's writer and reader.
    let buffers = limits.max_memory / 16;
    let buf = (buffers / (2 * (MAX_QUEUES + 1))).clamp(4 << 10, 1 << 20);
    let table_budget = (limits.max_memory - buffers).min(options.table_bytes.unwrap_or(usize::MAX));
    let mut s = Layered {
        game,
        table: FingerprintSet::with_budget(table_budget),
        table_budget,
        pending: BTreeMap::new(),
        buf,
        max_queues: MAX_QUEUES,
        log: Log::new(buf).map_err(log_error)?,
        stats: Stats::default(),
        limits: *limits,
        options: *options,
        start: Instant::now(),
        reach: ReachMemo::default(),
        dead_cache: Default::default(),
        scratch: SmallVec::new(),
        autos: Vec::new(),
        record: Vec::new(),
    };
    let finish = |mut s: Layered, verdict: Verdict| -> Result<Outcome, SolveError> {
        s.stats.elapsed = s.start.elapsed();
        s.stats.peak_memory = s.stats.peak_memory.max(s.memory());
        Ok(Outcome {
            verdict,
            stats: s.stats,
        })
    };
    let mut st = game.initial();
    play_safe_moves(game, &mut st, &mut s.autos);
    s.stats.auto_moves += s.autos.len() as u64;
    if game.is_won(&st) {
        let moves = s.autos.iter().map(|a| a.0).collect();
        return finish(s, Verdict::Won(moves));
    }
    if let Err(l) = s.store(&st, level(game, &st), NO_PARENT, None)? {
        return finish(s, Verdict::Unknown(l));
    }
    // Entries the table holds when full, about (16 bytes each).
    let room = table_budget / 17;
    let mut next_compact = room / 2;
    while let Some(&lv) = s.pending.keys().next() {
        match s.level(lv)? {
            Some(Stop::Won(moves)) => return finish(s, Verdict::Won(moves)),
            Some(Stop::Limit(l)) => return finish(s, Verdict::Unknown(l)),
            None => {}
        }
        s.pending.remove(&lv);
        // Rebuild once the table is half full, the finished levels'
        // positions going; again only once it has gained a quarter of its
        // room since (a rebuild costs a fingerprint a waiting position).
        if s.table.len() >= next_compact {
            s.compact()?;
            s.stats.rebuilds += 1;
            next_compact = (room / 2).max(s.table.len() + room / 4);
        }
    }
    finish(s, Verdict::Lost)
}
