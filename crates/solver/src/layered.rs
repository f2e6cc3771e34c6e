//! The layered search: an exhaustive search that holds in memory only
//! the positions of the levels it has not finished, for deals whose proof
//! of loss needs more positions than the table holds at once. The
//! positions waiting for their level are kept on disk.
//!
//! ## Levels
//!
//! A position's *progress* is the number of cards on the foundations
//! plus the number that have left the reserve and the talon (stock and
//! waste). Without worrying back no move lowers it: a card never goes
//! back to the reserve or the talon (a redeal turns the waste into the
//! stock, both talon), nor off a foundation; tableau moves leave it as it
//! is, and every other move raises it. The search turns the stock and
//! redeals only to play a card from the waste ([`crate::moves`]' K+
//! plays) or, with a stock dealt to the tableau, deals cards out of it:
//! so a move that leaves the progress as it is leaves the talon's state
//! (the pass position and the redeals made) as it is too. A position's
//! *level* ([`level`]) is its progress, then its talon state, then its
//! part: no move lowers it either (checked at every move). The talon state
//! splits a progress's positions into levels that no move joins (Chameleon
//! 235: the largest progress's 19.9 M positions fall in 11 levels, the
//! largest 8.0 M). So does the part, one of [`PARTS`] (16): a hash of all
//! that is not the tableau (the foundations' heights, the reserve's
//! length, the talon's cards left). A move that leaves the progress as it
//! is moves cards from tableau to tableau only, so leaves that as it is,
//! and the level under way, which must fit in memory whole (below), is
//! about a sixteenth of the positions of its progress and talon state.
//! (Chameleon 93 had one of these grow past 440 M positions, three
//! quarters of a table of 10 GiB.)
//!
//! So the search takes the lowest level it holds positions of and expands them,
//! and the positions of that level their moves lead to, until none is left;
//! positions of higher levels wait, each level's in blocks of a file its
//! progress's levels share ([`Queue`]). A finished level is never met again:
//! every position that reaches one of its positions is of a level at or below
//! it, all finished. So its positions need not be kept: when the table is full,
//! it is rebuilt from the positions of the levels not finished, read back from
//! their files ([`Layered::compact`]), which forgets the others.
//!
//! ## Levels the table forgets
//!
//! Only the level under way must be in the table whole: its moves (tableau
//! moves, which go round in circles) lead back into it. So a rebuild
//! stores the level under way, then the levels above it, lowest first,
//! while they fill at most half the table, and forgets the rest
//! ([`Queue::forget`]). A move into a forgotten level stores its position
//! as usual (the table answers for what was pushed since), so the level's
//! file may come to hold a position twice, or one met later in the level
//! itself. So the positions a level's file held when the table forgot it
//! are checked against the table when taken, in order, as if reached
//! then: one the table holds is passed over (a table hit), one it does
//! not is stored and expanded. Each position of the level is then
//! expanded once (a copy is either the first the table meets, or found
//! there), and the level under way stays whole in the table. The memory
//! the search needs is then about its largest level's positions rather
//! than all the levels waiting (Chameleon 235, 85.3 M positions: the
//! levels not finished held up to 35.3 M at once, the largest progress
//! 19.9 M, the largest level 8.0 M); what is forgotten costs disk
//! (copies) and time (rebuilds). A level under way that takes three
//! quarters of the table ends the search UNKNOWN (memory). A rebuild
//! forgets the dead ends too, which are in no file ([`Layered::store`]): one
//! met again is tested again. A rebuild can
//! cost positions expanded as well: the table's talon dominance may find a
//! position dominated by a stored one of another talon state, so of
//! another level, perhaps finished, or by a dead end; once a rebuild has
//! forgotten that one, the position is stored and expanded (sound either
//! way): one small Storehouse deal with unlimited redeals of nine, and one
//! Variegated Canfield deal drawing one card of nine, in the saves' tests
//! (`tests/checkpoint.rs`). (Tests can ask
//! for a rebuild every so many positions stored, forgetting every level
//! waiting: [`crate::search::Options::layered_rebuild_every`].)
//!
//! ## Why LOST is exact
//!
//! The search is the plain one of [`crate::search`]'s first paragraph in
//! another order: every position it stores is expanded before it ends
//! (positions wait in their level's file until their level comes) or is
//! a dead end, proved lost when stored ([`Layered::store`]), every move
//! the generator lists is played, and a position found in the table was
//! stored already, so is or will be expanded, or is lost. Forgetting a finished
//! level's positions loses none: none of them is reached again (see
//! above), and one that were met again would only be expanded twice.
//! Forgetting a waiting level's loses none either: its positions stay in
//! its file, and one is passed over only when the table holds it, which
//! it does only for positions expanded in the level or pushed to be, and
//! for dead ends (or a dead end that dominates it), which are lost. So
//! when no level is left, the stored positions but the dead ends are
//! closed under moves, and with the dead ends hold every position the
//! deal reaches from which it can be won, and none is won. The moves are
//! [`crate::moves::generate`]'s, with the safe moves played without
//! branching and the dead-end tests, as in the depth-first search; the
//! fingerprints are [`crate::key`]'s (128 bits, the collision bound
//! stated there), with the talon levels' dominance of [`crate::table`].
//! It uses no sleep sets or cursors.
//!
//! ## Tableau classes
//!
//! With [`Options::tableau_classes`] (on by default; they merge positions
//! only with one deck and runs moving in any part), a position is stored
//! under its tableau class's canonical member ([`crate::class`]), so a
//! class is stored and expanded once, from the first of its members met
//! (the one its level's file holds), or, a dead end, stored and tested
//! only. Its expansion offers every move of
//! every member that leaves the class, as the depth-first search lists
//! them ([`list_moves`]), each played after the reversible moves from the
//! position to its member. A class's members are all of one level: the
//! moves between them are tableau moves. So the argument above holds of
//! classes: the classes stored are closed under moves, and every position
//! the deal reaches is in one of them (a won position is a class of one,
//! reached by a move some member offers). Superior Canfield 2218, lost,
//! takes 66,921 classes expanded against 256,537 positions without them.
//! The log records the member each move is played from; a line read back
//! finds the member's reversible moves again from the position
//! ([`member_path`]).
//!
//! ## Wins
//!
//! Each position stored in a level's file (all but the dead ends) gets a
//! number, and a log file records, for each, the position it was stored
//! from and the move. When a move leads to a
//! won position, the line is read back from the log and replayed from the
//! deal, safe moves and stock turns spelled out; `solve` checks it with
//! the independent checker like every win. The search finds wins late: it
//! reaches a position only after every position of a lower level.
//!
//! The log takes about 6 bytes of disk a position stored, and is never
//! cut. A search may keep none ([`crate::search::Options::layered_no_log`]):
//! a win it meets is then found again by the search with a log, from the
//! deal ([`Layered::line_again`]), which takes the same positions in the
//! same order.
//!
//! ## Memory and disk
//!
//! The table takes the memory limit but a sixteenth (or what the files'
//! buffers need, if more): a table full of positions of levels not
//! finished ends the search UNKNOWN (memory). The files are compressed in
//! blocks (lz4) in the system's temporary directory (`TMPDIR`); they have
//! no name while written (on Unix) and go when the search ends, a
//! progress's when its last level is finished. A level's last block, being
//! filled, is in memory; when these blocks would take what the search
//! counts past the limit less a sixty-fourth ([`counted_most`]: the rest
//! is for what the process holds beyond its count), they are all written
//! out ([`Layered::flush`]), and so they are before the table grows past
//! that. On Double Easthaven 263 they took about 35 bytes
//! written a position stored, the log included
//! (`results/2026-11-28-layered-de`); on Chameleon 16, 24 bytes
//! (`results/2026-11-28-chameleon-layered`).
//!
//! ## Saves
//!
//! Given a directory ([`solve_layered_saving`], `demon solve --layered
//! --checkpoint DIR`), the search keeps its files there, named, and saves
//! itself every ten minutes and when a limit stops it: a description of
//! its files and counts, from which it goes on in a later sitting. The
//! saved files are the search itself; a save writes only their last
//! blocks and the description. Why a continued search stays exact is
//! argued at [`solve_layered_saving`].

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use demon_core::{Game, Move, State};
use smallvec::SmallVec;

use crate::checkpoint::FileAfter;
use crate::class::{ClassFinder, Form};
use crate::key::fingerprint_level;
use crate::moves::{play_safe_moves, ReachMemo, SMove};
use crate::rollout::{core_moves_via, play_step, Step};
use crate::search::{
    get_move, list_moves, member_path, put_move, Limit, Limits, Options, Outcome, SolveError,
    Stats, Verdict,
};
use crate::table::{FingerprintSet, Insert};

/// How many positions ahead of its insertion a rebuild fetches a
/// position's table buckets ([`Layered::compact`]).
const REBUILD_AHEAD: usize = 8;

/// The parts a progress and talon state's positions are split into
/// ([`level`]).
pub const PARTS: u64 = 16;

/// The progress of a position ([`level`]) with `up` cards on the
/// foundations, `reserve` in the reserve and `live` of the talon still
/// in play: one for each card put up and each taken out of the reserve
/// or the talon, from a base of 64.
fn progress_count(g: &Game, up: usize, reserve: usize, live: usize) -> usize {
    up + g.talon().len() + 64 - reserve - live
}

/// The level of a position (see the module comment): its progress, cards
/// on the foundations plus cards out of the reserve and the talon (plus
/// 64, more than any reserve holds, so that it counts from the reserve's
/// cards left), then its talon state (redeals made, then the pass
/// position), which only a move that raises the progress changes, then
/// its part: one of [`PARTS`], a hash of what is not in the tableau (the
/// foundations' heights, the reserve's length, the talon's cards left),
/// which a move that leaves the progress as it is (a tableau move) leaves
/// as it is too.
pub fn level(g: &Game, st: &State) -> u64 {
    let live = g.talon_live_bits(st);
    let progress = progress_count(
        g,
        g.foundation_cards(st),
        g.reserve(st).len(),
        live.count_ones() as usize,
    );
    let (pos, passes) = g.talon_state(st);
    let mut x =
        live as u64 ^ ((live >> 64) as u64).rotate_left(29) ^ (g.reserve(st).len() as u64) << 56;
    for (i, &h) in g.foundation_heights(st).iter().enumerate() {
        x ^= u64::from(h) << (4 * i + 8);
    }
    // SplitMix64's finaliser: every bit of `x` reaches the top ones.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    let part = (x ^ (x >> 31)) % PARTS;
    (progress as u64) << 24 | u64::from(passes) << 16 | u64::from(pos) << 8 | part
}

/// A file created in the temporary directory, with no name on Unix (the
/// open file stays usable, and goes when closed, however the process
/// ends); elsewhere it is removed when dropped.
struct Scratch {
    file: File,
    path: PathBuf,
    /// A file of a saved search's directory ([`Scratch::named`]): kept
    /// when dropped.
    #[cfg_attr(unix, allow(dead_code))]
    keep: bool,
    /// Bytes written (at the end).
    len: u64,
}

impl Scratch {
    fn new(what: &str) -> std::io::Result<Scratch> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "demon-layered-{}-{}-{what}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        #[cfg(unix)]
        std::fs::remove_file(&path)?;
        Ok(Scratch {
            file,
            path,
            keep: false,
            len: 0,
        })
    }

    /// A file of a saved search's directory, created empty (or emptied):
    /// it stays when dropped.
    fn named(path: &Path) -> std::io::Result<Scratch> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        Ok(Scratch {
            file,
            path: path.to_owned(),
            keep: true,
            len: 0,
        })
    }

    /// A saved search's file opened again, cut back to the `len` bytes it
    /// had when saved (what was appended since belongs to no save).
    fn reopen(path: &Path, len: u64) -> std::io::Result<Scratch> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)?;
        if file.metadata()?.len() < len {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("{} is shorter than when saved", path.display()),
            ));
        }
        file.set_len(len)?;
        Ok(Scratch {
            file,
            path: path.to_owned(),
            keep: true,
            len,
        })
    }

    /// Appends `bytes`, returning where they start.
    fn append(&mut self, bytes: &[u8]) -> std::io::Result<u64> {
        self.file.seek(SeekFrom::Start(self.len))?;
        self.file.write_all(bytes)?;
        self.len += bytes.len() as u64;
        Ok(self.len - bytes.len() as u64)
    }

    fn read_at(&mut self, at: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.file.seek(SeekFrom::Start(at))?;
        self.file.read_exact(out)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        #[cfg(not(unix))]
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// What the memory the search counts ([`Layered::memory`]) may reach under
/// a limit of `max` bytes: a sixty-fourth less, for what the process holds
/// that the search does not count. That is the heap's slack, room the
/// allocator keeps between the levels' tails as they grow and are freed,
/// and the process's own pages (code, stacks: a few MiB, which a
/// sixty-fourth covers only under limits of some hundreds of MiB and
/// more). Measured on Variegated Canfield 5 under 1 GiB to 40 M nodes
/// (`results/2026-12-07-layered-resident`): counting up to the whole
/// limit, the process peaked 8,568 KiB over it (0.8 %) with [`trim_heap`],
/// [`COMPRESSED`] and tails by powers of two, and 35,536 KiB over (3.4 %)
/// without them; with the margin, 7,868 KiB under.
pub fn counted_most(max: usize) -> usize {
    max - max / 64
}

/// Gives the heap's free pages back to the system, after
/// [`Layered::flush`] has freed every level's tail. The allocator would
/// keep them otherwise: the process then held more than the search counts,
/// and more than its memory limit. On Variegated Canfield 5 under 1 GiB
/// (5,000-6,000 levels waiting, the queues filling and flushed every few
/// million positions) the heap held 217 MB while the queues counted
/// 114 MB, and the process peaked at 1,084,112 KiB resident, 3.4 % over;
/// with the trim, [`COMPRESSED`] and tails by powers of two, 0.8 % over,
/// and with [`counted_most`]'s margin too, under the limit. It costs page
/// faults (310,283 minor ones against 73,505 in that run) and time (at
/// 2 GiB, 533.3 s against 526.5 s side by side, 1.3 % more). Only glibc
/// has it; elsewhere this does nothing.
fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer; it only gives free memory of
    // the heap back to the system, and may be called at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

thread_local! {
    /// A level's block compressed, being written or read ([`Queue::write_tail`],
    /// [`Queue::read_block`]): one buffer a thread, kept from block to block
    /// and from search to search (at most a block, 1 MiB and a little),
    /// rather than one taken from the allocator and given back for each
    /// block. Such a buffer, freed between the levels' tails as they grow,
    /// left holes in the heap that the process kept but the search did not
    /// count (see [`Layered::flush`]).
    static COMPRESSED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Compresses `raw` into `out` (cleared) as one block: its raw length (4
/// bytes), then lz4.
fn compress(raw: &[u8], out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    let at = out.len();
    out.resize(at + lz4_flex::block::get_maximum_output_size(raw.len()), 0);
    let n = lz4_flex::block::compress_into(raw, &mut out[at..]).expect("room for the worst case");
    out.truncate(at + n);
}

/// The block [`compress`] wrote, decompressed into `out` (cleared).
fn decompress(block: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
    let raw = u32::from_le_bytes(block[..4].try_into().expect("4 bytes")) as usize;
    out.clear();
    out.resize(raw, 0);
    match lz4_flex::block::decompress_into(&block[4..], out) {
        Ok(n) if n == raw => Ok(()),
        _ => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "a damaged block",
        )),
    }
}

/// Positions of a level, in the order stored: each as its packed state's
/// length (1 byte), its number (8 bytes) and its packed state. A level
/// being expanded reads them in turn and appends its own new positions
/// behind. Whole positions are gathered in blocks of `buf` bytes,
/// compressed ([`compress`]) into a file; the last block, still being
/// filled, stays in memory (its buffer grows as it fills, so that a level
/// with few positions takes little). Blocks already read stay in the file until
/// the level is finished (the queue dropped): a rebuilt table must hold
/// every position of the level under way ([`Layered::compact`]).
///
/// The levels of one progress share a file ([`Shared`]), each knowing
/// where its own blocks are.
struct Queue {
    file: Shared,
    /// Compressed blocks written: (offset, length); those before `next`
    /// have been read.
    blocks: Vec<(u64, u32)>,
    next: usize,
    /// Positions not yet in a block.
    tail: Vec<u8>,
    /// The block being read, and where in it.
    rbuf: Vec<u8>,
    rpos: usize,
    buf: usize,
    /// Positions pushed.
    count: u64,
    /// Positions taken.
    popped: u64,
    /// The positions numbered `lo..hi` in the queue were pushed before the
    /// table forgot this level ([`Queue::forget`]) and have not been
    /// checked against it since: each is looked up when taken, and passed
    /// over if the table holds it (see the module comment).
    lo: u64,
    hi: u64,
}

/// A file that the blocks of all the levels of one progress are written
/// to ([`Layered::files`]): so the files open at once are one a progress
/// waiting, however many talon states and parts split it (Superior
/// Canfield, its stock redealt without end, has thousands of levels
/// waiting at once, each of a few positions, and a file each would run
/// out of the files a process may open). It goes when the last of its
/// levels is finished, a progress's levels being finished one after the
/// other (no level of a progress is made once the search has passed it).
type Shared = Rc<RefCell<Scratch>>;

impl Queue {
    fn new(buf: usize, file: Shared) -> Queue {
        debug_assert!(buf.is_power_of_two() && buf >= MIN_TAIL);
        Queue {
            file,
            blocks: Vec::new(),
            next: 0,
            tail: Vec::new(),
            rbuf: Vec::new(),
            rpos: 0,
            buf,
            count: 0,
            popped: 0,
            lo: 0,
            hi: 0,
        }
    }

    /// Positions of the queue the table holds, or is to hold: all but
    /// those not checked.
    fn known(&self) -> u64 {
        self.count - (self.hi - self.lo)
    }

    /// The table no longer holds this level's positions (none taken yet):
    /// every one pushed so far is to be checked when taken.
    fn forget(&mut self) {
        debug_assert_eq!(self.popped, 0, "the level under way is never forgotten");
        self.hi = self.count;
    }

    /// Bytes held in memory: the tail and the block being read, each at
    /// most about `buf`, and 16 bytes a block written (its place and
    /// length, padded). (A compressed block, also about `buf`, is held
    /// once a thread: [`COMPRESSED`].)
    fn bytes(&self) -> usize {
        self.tail.capacity()
            + self.rbuf.capacity()
            + std::mem::size_of::<(u64, u32)>() * self.blocks.capacity()
    }

    fn push(&mut self, record: &[u8]) -> std::io::Result<()> {
        if self.tail.len() + record.len() > self.buf && !self.tail.is_empty() {
            self.write_tail()?;
        }
        let need = self.tail.len() + record.len();
        if need > self.tail.capacity() {
            // Doubling, but not past `buf` (or the one record), by powers of
            // two (`buf` is one): a tail given back to the allocator then
            // leaves room that another level's tail fits exactly.
            let to = (2 * self.tail.capacity())
                .max(need.next_power_of_two())
                .clamp(MIN_TAIL, need.max(self.buf));
            self.tail.reserve_exact(to - self.tail.len());
        }
        self.tail.extend_from_slice(record);
        self.count += 1;
        Ok(())
    }

    fn write_tail(&mut self) -> std::io::Result<()> {
        COMPRESSED.with_borrow_mut(|cbuf| {
            compress(&self.tail, cbuf);
            self.tail.clear();
            let at = self.file.borrow_mut().append(cbuf)?;
            self.blocks.push((at, cbuf.len() as u32));
            Ok(())
        })
    }

    /// Reads block `i` into `out`.
    fn read_block(&mut self, i: usize, out: &mut Vec<u8>) -> std::io::Result<()> {
        let (at, len) = self.blocks[i];
        COMPRESSED.with_borrow_mut(|cbuf| {
            cbuf.clear();
            cbuf.resize(len as usize, 0);
            self.file.borrow_mut().read_at(at, cbuf)?;
            decompress(cbuf, out)
        })
    }

    /// The next position's state, its number, and its place in the queue,
    /// taken.
    fn pop(&mut self, g: &Game) -> std::io::Result<Option<(State, u64, u64)>> {
        if self.rpos == self.rbuf.len() {
            if self.next == self.blocks.len() {
                if self.tail.is_empty() {
                    return Ok(None);
                }
                // Into the file first: positions read are kept there.
                self.write_tail()?;
            }
            let mut out = std::mem::take(&mut self.rbuf);
            self.read_block(self.next, &mut out)?;
            self.rbuf = out;
            self.rpos = 0;
            self.next += 1;
        }
        let b = &self.rbuf[self.rpos..];
        let len = b[0] as usize;
        let id = u64::from_le_bytes(b[1..9].try_into().expect("8 bytes"));
        let (st, used) = g.unpack(&b[9..9 + len]);
        debug_assert_eq!(used, len);
        self.rpos += 9 + len;
        self.popped += 1;
        Ok(Some((st, id, self.popped - 1)))
    }

    /// Calls `f` on every position pushed, taken or not, but those not
    /// checked (`lo..hi`): the positions the table is to hold.
    fn each(&mut self, g: &Game, mut f: impl FnMut(&State)) -> std::io::Result<()> {
        let (lo, hi) = (self.lo, self.hi);
        let mut i = 0u64;
        let mut each_in = |bytes: &[u8]| {
            let mut at = 0;
            while at < bytes.len() {
                let len = bytes[at] as usize;
                if !(lo..hi).contains(&i) {
                    f(&g.unpack(&bytes[at + 9..at + 9 + len]).0);
                }
                at += 9 + len;
                i += 1;
            }
        };
        let mut out = Vec::new();
        for i in 0..self.blocks.len() {
            self.read_block(i, &mut out)?;
            each_in(&out);
        }
        each_in(&self.tail);
        Ok(())
    }
}

/// The log of where each stored position came from (see the module comment).
/// Record `i` (16 bytes) is `i` less its parent's number (6 bytes; all ones for
/// the deal's, which has none), the talon state its move set first (a flag and
/// two bytes), the move ([`put_move`], 5 bytes) and the class member it is
/// played from (1 byte; see "Tableau classes" in the module comment). Records
/// go in blocks of [`LOG_BLOCK`], compressed, the last one in memory; the
/// offset of each block written is kept. A search without a log
/// ([`Options::layered_no_log`]) only counts its records: no file.
struct Log {
    file: Option<Scratch>,
    offsets: Vec<u64>,
    tail: Vec<u8>,
    records: u64,
    cbuf: Vec<u8>,
    /// A move as [`put_move`] writes it.
    mv: Vec<u8>,
}

/// A log record read back: the parent, and the step from it.
type Record = (u64, Step, u8);

const RECORD: usize = 16;
/// Records a block of the log.
const LOG_BLOCK: usize = 4096;
/// The log's memory but its blocks' offsets (which take 8 bytes a block):
/// a block being filled and a compressed one.
const LOG_BYTES: usize = 2 * (LOG_BLOCK * RECORD + 1024);
const NO_PARENT: u64 = (1 << 48) - 1;
/// The log's length in the save of a search without a log.
const NO_LOG: u64 = u64::MAX;

impl Log {
    /// A log in a nameless temporary file, or at `path` (a saved
    /// search's directory).
    fn new(path: Option<&Path>) -> std::io::Result<Log> {
        Ok(Log {
            file: Some(match path {
                Some(p) => Scratch::named(p)?,
                None => Scratch::new("log")?,
            }),
            offsets: Vec::new(),
            tail: Vec::with_capacity(LOG_BLOCK * RECORD),
            records: 0,
            cbuf: Vec::new(),
            mv: Vec::with_capacity(5),
        })
    }

    /// No log: records counted from `records` on, none kept.
    fn none(records: u64) -> Log {
        Log {
            file: None,
            offsets: Vec::new(),
            tail: Vec::new(),
            records,
            cbuf: Vec::new(),
            mv: Vec::new(),
        }
    }

    fn bytes(&self) -> usize {
        self.tail.capacity() + self.cbuf.capacity() + 8 * self.offsets.capacity()
    }

    /// Records the next position, stored from `parent` by `sm`, and
    /// returns its number.
    fn push(&mut self, parent: u64, sm: Option<&SMove>) -> std::io::Result<u64> {
        let id = self.records;
        let Some(file) = &mut self.file else {
            self.records += 1;
            return Ok(id);
        };
        let mut r = [0u8; RECORD];
        let back = if parent == NO_PARENT {
            NO_PARENT
        } else {
            id - parent
        };
        r[..6].copy_from_slice(&back.to_le_bytes()[..6]);
        if let Some(sm) = sm {
            if let Some((pos, passes)) = sm.talon {
                r[6..9].copy_from_slice(&[1, pos, passes]);
            }
            self.mv.clear();
            put_move(&mut self.mv, sm.mv);
            r[9..14].copy_from_slice(&self.mv);
            r[14] = sm.member;
        }
        self.tail.extend_from_slice(&r);
        self.records += 1;
        if self.tail.len() == LOG_BLOCK * RECORD {
            compress(&self.tail, &mut self.cbuf);
            self.tail.clear();
            let at = file.append(&self.cbuf)?;
            self.offsets.push(at);
        }
        Ok(id)
    }

    /// Record `id`: its parent, talon state, move and class member.
    fn read(&mut self, id: u64) -> std::io::Result<Record> {
        let Some(file) = &mut self.file else {
            return Err(std::io::Error::other("no log kept"));
        };
        let block = id as usize / LOG_BLOCK;
        let i = id as usize % LOG_BLOCK * RECORD;
        let r: [u8; RECORD] = if block == self.offsets.len() {
            self.tail[i..i + RECORD].try_into().expect("16 bytes")
        } else {
            let end = self.offsets.get(block + 1).copied().unwrap_or(file.len);
            let at = self.offsets[block];
            self.cbuf.resize((end - at) as usize, 0);
            file.read_at(at, &mut self.cbuf)?;
            let mut raw = Vec::new();
            decompress(&self.cbuf, &mut raw)?;
            raw[i..i + RECORD].try_into().expect("16 bytes")
        };
        let mut p = [0u8; 8];
        p[..6].copy_from_slice(&r[..6]);
        let back = u64::from_le_bytes(p);
        let parent = if back == NO_PARENT {
            NO_PARENT
        } else {
            id - back
        };
        let talon = (r[6] == 1).then_some((r[7], r[8]));
        let mv = get_move(&r[9..14]).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidData, "a damaged record")
        })?;
        Ok((parent, Step { talon, mv }, r[14]))
    }
}

fn log_error(e: std::io::Error) -> SolveError {
    SolveError::Log(e.to_string())
}

/// What stopped a level's expansion.
enum Stop {
    Won(Vec<Move>),
    /// A won position met by a search without a log: no line to read back.
    WonNoLine,
    Limit(Limit),
}

struct Layered<'g> {
    game: &'g Game,
    table: FingerprintSet,
    /// The levels' waiting positions.
    pending: BTreeMap<u64, Queue>,
    /// The files of the progresses waiting ([`Shared`]), by progress.
    files: BTreeMap<u64, Shared>,
    /// The bytes the queues hold ([`Queue::bytes`]), kept as they change
    /// (summing up to [`MAX_QUEUES`] queues at every store would cost more).
    queue_bytes: usize,
    /// Each level's buffers' size.
    buf: usize,
    log: Log,
    stats: Stats,
    limits: Limits,
    options: Options,
    start: Instant,
    reach: ReachMemo,
    dead_cache: crate::deadlock::Chains,
    /// Positions taken from the files and expanded in this sitting: the
    /// clock, the stop flag and the save are looked at every 4,096 of
    /// them (`stats.nodes` also counts the dead ends met in storing
    /// children, so it moves by jumps).
    expanded: u64,
    scratch: SmallVec<[SMove; 32]>,
    autos: Vec<(Move, demon_core::Undo)>,
    record: Vec<u8>,
    /// Where the search is saved ([`Layered::save`]), if it is.
    saving: Option<Saving<'g>>,
    /// The children of the position being expanded: state, fingerprint
    /// and talon level, level, move.
    kids: Vec<(State, (u128, u8), u64, SMove)>,
    /// The children of the position expanded last, not stored yet
    /// ([`Layered::level`]), and that position and its number (put back
    /// in its level's file if the memory stops the search before they
    /// are all stored: [`Layered::stopped`]).
    held: Vec<(State, (u128, u8), u64, SMove)>,
    held_state: State,
    held_parent: u64,
    /// Tableau classes ([`Options::tableau_classes`]): the finder, a
    /// canonical member, and the moves of the position being expanded
    /// with its members' paths ([`list_moves`]).
    classes: bool,
    class: ClassFinder,
    canon: State,
    arena: Vec<SMove>,
    members: Vec<(u32, u32)>,
    mpaths: Vec<Move>,
}

/// The form of `st`'s tableau class ([`ClassFinder::form`]) when classes
/// are merged (`on`), its canonical member written in `canon` where it is
/// not `st` itself; [`Form::Unmerged`] otherwise.
fn class_form(g: &Game, on: bool, class: &mut ClassFinder, canon: &mut State, st: &State) -> Form {
    if on {
        class.form(g, st, canon)
    } else {
        Form::Unmerged
    }
}

/// The fingerprint and talon level `st` is stored under: its tableau
/// class's canonical member's (see [`class_form`]).
fn class_key(
    g: &Game,
    on: bool,
    class: &mut ClassFinder,
    canon: &mut State,
    st: &State,
) -> (u128, u8) {
    let keyed: &State = match class_form(g, on, class, canon, st) {
        Form::Binary { canonical: false } | Form::General(_) | Form::Free(_) => canon,
        _ => st,
    };
    fingerprint_level(g, keyed)
}

/// A layered search saved in a directory (see [`solve_layered_saving`]).
struct Saving<'a> {
    dir: &'a Path,
    header: &'a str,
    /// The number of the next level file (`level-N`).
    next_file: u64,
    /// Files of levels finished since the last save, which it may name:
    /// removed after the next.
    finished: Vec<PathBuf>,
    /// When the search was last saved (or this sitting began), and at
    /// how many nodes.
    last: Instant,
    last_nodes: u64,
    /// The search time of the sittings before this one.
    before: std::time::Duration,
    /// Whether a save exists (made or resumed from).
    any: bool,
}

/// How often a layered search with a directory saves itself, besides when
/// a limit stops it: a kill loses at most this much work.
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(600);
/// The saved search's description, in its directory.
const SAVE_FILE: &str = "search.ck";
/// The save being written, renamed over [`SAVE_FILE`] once synced.
const SAVE_TMP: &str = "search.ck.tmp";
/// The log of moves in a saved search's directory.
const LOG_FILE: &str = "log";

/// The levels waiting at once that the files' buffers are sized for: a
/// move raises the progress by a card or two, a to-tableau deal by a card
/// a pile, and the safe moves after it by a few more, each progress taking
/// a level for each talon state met and part ([`PARTS`]) met. More may
/// wait: the buffers grow only as filled, the memory is checked at every
/// store, and the buffers are emptied into the files when they take too
/// much ([`Layered::flush`]).
const QUEUES: usize = 256;
/// The least a level's tail takes once it holds a position.
const MIN_TAIL: usize = 256;

/// A level's progress: the files are shared by progress ([`Shared`]).
fn progress_of(lv: u64) -> u64 {
    lv >> 24
}

/// How far a search whose lowest level not finished is `lv` has got, and
/// how far a win is, both counted from the deal's progress
/// ([`Stats::progress`], [`Stats::progress_of_win`]): a win has every card
/// on the foundations and none left in the reserve or the talon.
pub fn progress_reached(g: &Game, lv: u64) -> (u32, u32) {
    let start = progress_of(level(g, &g.initial()));
    let win = progress_count(g, g.rules().deck_size(), 0, 0) as u64;
    let at = progress_of(lv).saturating_sub(start);
    (at as u32, win.saturating_sub(start) as u32)
}

impl<'g> Layered<'g> {
    fn memory(&self) -> usize {
        // Summed over the levels waiting, of which there may be
        // thousands, only now and then.
        debug_assert!(
            !self.stats.stored.is_multiple_of(1024)
                || self.queue_bytes == self.pending.values().map(Queue::bytes).sum::<usize>()
        );
        self.table.bytes() + self.queue_bytes + self.log.bytes()
    }

    /// Stores `st` (of level `lv`, fingerprint and talon level `key`),
    /// reached from position `parent` by `sm`, if new: in the table, and,
    /// unless it is a dead end, in the log and its level's file.
    fn store(
        &mut self,
        st: &State,
        key: (u128, u8),
        lv: u64,
        parent: u64,
        sm: Option<&SMove>,
    ) -> Result<Result<(), Limit>, SolveError> {
        if let Some(n) = self.options.layered_rebuild_every {
            if self.stats.stored % n == n - 1 && !self.pending.is_empty() {
                self.stats.rebuilds += 1;
                if !self.compact(0)? {
                    return Ok(Err(Limit::Memory(self.limits.max_memory)));
                }
            }
        }
        match self.insert(key)? {
            Insert::Present => {
                self.stats.hits += 1;
                return Ok(Ok(()));
            }
            Insert::Full => return Ok(Err(Limit::Memory(self.limits.max_memory))),
            Insert::New => {}
        }
        self.stats.stored += 1;
        // A dead end ([`crate::deadlock`]) is found here, when first
        // stored, rather than when its level comes round: it stays in the
        // table, so a copy met again is a table hit, but goes to no file
        // and no log. On Chameleon 803 they were 43 % of the positions
        // stored, each written, compressed, read back and unpacked only to
        // be dropped. It counts as a node expanded, as when it was tested
        // on being taken. The table is rebuilt from the files
        // ([`Layered::compact`]), so a rebuild forgets it and a copy met
        // after one is tested again: sound, as the test reads the position
        // alone, and bounded, as only the expansion of a position in a file
        // meets one.
        if self.options.deadlock && self.dead(st) {
            return Ok(Ok(()));
        }
        let id = self.log.push(parent, sm).map_err(log_error)?;
        self.push(lv, st, id)?;
        let mut m = self.memory();
        let most = counted_most(self.limits.max_memory);
        if m > most {
            self.flush().map_err(log_error)?;
            m = self.memory();
        }
        self.stats.peak_memory = self.stats.peak_memory.max(m);
        // Only the log's offsets and the blocks' places grow without a
        // bound of their own.
        if m > most {
            return Ok(Err(Limit::Memory(self.limits.max_memory)));
        }
        Ok(Ok(()))
    }

    /// The file of a progress's levels ([`Shared`]): the one its waiting
    /// levels use, or a new one (named in a saved search's directory).
    fn file_of(&mut self, progress: u64) -> std::io::Result<Shared> {
        if let Some(f) = self.files.get(&progress) {
            return Ok(Rc::clone(f));
        }
        let f = match self.saving.as_mut() {
            Some(sv) => {
                sv.next_file += 1;
                Scratch::named(&sv.dir.join(format!("level-{}", sv.next_file - 1)))?
            }
            None => Scratch::new("queue")?,
        };
        let f = Rc::new(RefCell::new(f));
        self.files.insert(progress, Rc::clone(&f));
        Ok(f)
    }

    /// Level `lv`, finished, is dropped, and its progress's file with it
    /// if no level of that progress waits (a saved search's file is
    /// removed after the next save, which no longer names it).
    fn finish(&mut self, lv: u64) {
        let done = self.pending.remove(&lv).expect("a level waiting");
        self.queue_bytes -= done.bytes();
        drop(done);
        let p = progress_of(lv);
        if self.files.get(&p).is_some_and(|f| Rc::strong_count(f) == 1) {
            let f = self.files.remove(&p).expect("present");
            if let Some(sv) = &mut self.saving {
                sv.finished.push(f.borrow().path.clone());
            }
        }
    }

    /// Writes every waiting level's last block, still in memory, to its
    /// file, and gives back the memory: for when the levels' buffers take
    /// more than their share (many levels waiting, each with a block
    /// being filled).
    fn flush(&mut self) -> std::io::Result<()> {
        for q in self.pending.values_mut() {
            if !q.tail.is_empty() {
                q.write_tail()?;
            }
            q.tail = Vec::new();
        }
        self.queue_bytes = self.pending.values().map(Queue::bytes).sum();
        trim_heap();
        Ok(())
    }

    /// Whether `st`, new, is a dead end ([`crate::deadlock::dead_cached`]):
    /// if so it is counted as a node expanded and a dead end.
    fn dead(&mut self, st: &State) -> bool {
        let g = self.game;
        if !crate::deadlock::dead_cached(&mut self.dead_cache, g, st, self.options.waste_bound) {
            return false;
        }
        self.stats.nodes += 1;
        self.stats.dead += 1;
        crate::search::note_most_up(&mut self.stats.most_up, g, st);
        true
    }

    /// Enters `st` in the table, rebuilding it when full
    /// ([`Layered::compact`]): `Full` only when the level under way leaves
    /// too little room.
    fn insert(&mut self, (key, tl): (u128, u8)) -> Result<Insert, SolveError> {
        // The table touches the pages of a growth before [`Layered::store`]
        // looks at the memory again: the tails go to disk first if the
        // growth would take the count past its most.
        let (now, next) = (self.table.bytes(), self.table.bytes_next());
        if next > now && self.memory() - now + next > counted_most(self.limits.max_memory) {
            self.flush().map_err(log_error)?;
        }
        let r = self.table.insert_level(key, tl);
        if r != Insert::Full {
            return Ok(r);
        }
        self.stats.rebuilds += 1;
        let full = self.table.len() as u64;
        Ok(
            if self.compact(full / 2)? && self.table.len() as u64 <= full / 4 * 3 {
                self.table.insert_level(key, tl)
            } else {
                Insert::Full
            },
        )
    }

    /// A limit reached (the clock and the stop flag every 4,096 positions
    /// expanded).
    fn over_limit(&mut self) -> Option<Limit> {
        if let Some(n) = self.limits.max_nodes {
            if self.stats.nodes >= n {
                return Some(Limit::Nodes(n));
            }
        }
        if !self.expanded.is_multiple_of(4096) {
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

    /// Stores the children [`Layered::level`] holds back, if any. Stopped
    /// by the memory limit partway, it leaves them held (some stored, the
    /// others not), so that their parent is known to be in flight.
    fn store_held(&mut self) -> Result<Result<(), Limit>, SolveError> {
        let held = std::mem::take(&mut self.held);
        for (child, key, clv, sm) in &held {
            if let Err(l) = self.store(child, *key, *clv, self.held_parent, Some(sm))? {
                self.held = held;
                return Ok(Err(l));
            }
        }
        self.held = held;
        self.held.clear();
        Ok(Ok(()))
    }

    /// The search stopped (by the memory limit: [`Layered::store`] and
    /// [`Layered::insert`] meet no other) in the middle of level `lv`:
    /// the positions in flight go back to the end of the level's file,
    /// so that the search is whole in its files and can be saved
    /// ([`solve_layered_saving`]). They are the position whose children
    /// are held, if some of them are not stored ([`Layered::store_held`]
    /// leaves them held), and `popped`, a position taken whose children
    /// were not stored, or which was not yet checked against the table.
    ///
    /// Each is then expanded again, as a position pushed after the last
    /// rebuild is: the children stored before the stop are table hits,
    /// the others are stored. Expanding a position twice only costs time;
    /// leaving one of its children unstored would lose it, and with it
    /// perhaps the only line to a win.
    fn stopped(
        &mut self,
        lv: u64,
        l: Limit,
        popped: Option<(&State, u64)>,
    ) -> Result<Option<Stop>, SolveError> {
        if !self.held.is_empty() {
            self.held.clear();
            let st = self.held_state.clone();
            self.push(lv, &st, self.held_parent)?;
        }
        if let Some((st, id)) = popped {
            self.push(lv, st, id)?;
        }
        Ok(Some(Stop::Limit(l)))
    }

    /// Pushes `st`, position number `id`, to the end of level `lv`'s file
    /// (its queue made if it has none): a new position ([`Layered::store`]),
    /// or one put back at a memory stop ([`Layered::stopped`]), which is
    /// expanded when taken, not checked (its place is past the positions
    /// to check, [`Queue::forget`]).
    fn push(&mut self, lv: u64, st: &State, id: u64) -> Result<(), SolveError> {
        self.record.clear();
        self.record.push(0);
        self.record.extend_from_slice(&id.to_le_bytes());
        self.game.pack(st, &mut self.record);
        self.record[0] = (self.record.len() - 9) as u8;
        if !self.pending.contains_key(&lv) {
            let file = self.file_of(progress_of(lv)).map_err(log_error)?;
            self.pending.insert(lv, Queue::new(self.buf, file));
        }
        let q = self.pending.get_mut(&lv).expect("inserted");
        let before = q.bytes();
        q.push(&self.record).map_err(log_error)?;
        self.queue_bytes = self.queue_bytes + q.bytes() - before;
        Ok(())
    }

    /// Expands every position of level `lv` (those waiting, and the
    /// positions of the level their moves lead to), until none is left.
    ///
    /// A position's children are made, and their table buckets fetched
    /// ([`FingerprintSet::prefetch_key`]), while the previous position's
    /// are stored: so a bucket's trip to memory has a whole expansion's
    /// time to end before its insertion reads it (on a table of 9 GB, the
    /// reads of buckets fetched only just before took 43 % of the time).
    /// The search is then the plain one in another order: the next
    /// position is taken, checked (a forgotten level's) and expanded
    /// before the last one's children are stored, and every child is
    /// stored before the search stops, saves, or finds its level empty,
    /// but at a memory stop, which puts their parent back in its level's
    /// file instead ([`Layered::stopped`]).
    fn level(&mut self, lv: u64) -> Result<Option<Stop>, SolveError> {
        let g = self.game;
        loop {
            // Between two positions, with every child stored, the search
            // is whole in its files: here it stops at a limit, and saves.
            let (limit, save) = (self.over_limit(), self.save_due());
            if limit.is_some() || save {
                if let Err(l) = self.store_held()? {
                    // Whole again once stopped: the limit met, if any, is
                    // the one to report (Ctrl-C's is saved where the
                    // memory limit's may not be).
                    return self.stopped(lv, limit.unwrap_or(l), None);
                }
            }
            if let Some(l) = limit {
                return Ok(Some(Stop::Limit(l)));
            }
            if save {
                self.save()?;
            }
            let q = self.pending.get_mut(&lv).expect("the level under way");
            let before = q.bytes();
            let popped = q.pop(g).map_err(log_error)?;
            self.queue_bytes = self.queue_bytes + q.bytes() - before;
            let Some((st, id, i)) = popped else {
                if self.held.is_empty() {
                    return Ok(None);
                }
                // The children held may be of this level.
                if let Err(l) = self.store_held()? {
                    return self.stopped(lv, l, None);
                }
                continue;
            };
            if i < q.hi {
                // Pushed before the table forgot this level: met since
                // (pushed again, or checked earlier in the queue), or new.
                debug_assert_eq!(i, q.lo);
                let key = class_key(g, self.classes, &mut self.class, &mut self.canon, &st);
                let r = self.insert(key)?;
                self.pending.get_mut(&lv).expect("the level under way").lo = i + 1;
                match r {
                    Insert::New => {}
                    Insert::Present => {
                        self.stats.hits += 1;
                        continue;
                    }
                    Insert::Full => {
                        let l = Limit::Memory(self.limits.max_memory);
                        return self.stopped(lv, l, Some((&st, id)));
                    }
                }
            }
            self.expanded += 1;
            self.stats.nodes += 1;
            crate::search::note_most_up(&mut self.stats.most_up, g, &st);
            // (Dead ends went to no file: [`Layered::store`]. A save of
            // an older version's may hold some; expanding one is sound.)
            // Found again for a position just checked: a rebuild in that
            // check may have used the finder for other positions.
            let form = class_form(g, self.classes, &mut self.class, &mut self.canon, &st);
            self.arena.clear();
            self.members.clear();
            self.mpaths.clear();
            self.stats.merged += list_moves(
                g,
                &st,
                form,
                &mut self.class,
                &mut self.reach,
                &mut self.scratch,
                &mut self.arena,
                &mut self.members,
                &mut self.mpaths,
            );
            // Every child first, its table buckets fetched; then the
            // previous position's children stored, and these held.
            let mut kids = std::mem::take(&mut self.kids);
            kids.clear();
            for i in 0..self.arena.len() {
                let sm = self.arena[i];
                // Made in its place in `kids` (a state is 170 bytes: a
                // copy fewer a child).
                kids.push((st.clone(), (0, 0), 0, sm));
                let kid = kids.last_mut().expect("pushed");
                let child = &mut kid.0;
                // The reversible moves to its class member, then the move.
                let (a, b) = self.members[sm.member as usize];
                for &m in &self.mpaths[a as usize..b as usize] {
                    g.play(child, m);
                }
                let step = Step::of(&sm);
                play_step(g, child, step, &mut self.autos);
                self.stats.auto_moves += self.autos.len() as u64;
                if g.is_won(child) {
                    if self.log.file.is_none() {
                        return Ok(Some(Stop::WonNoLine));
                    }
                    return Ok(Some(Stop::Won(self.line(id, &sm)?)));
                }
                let clv = level(g, child);
                // The module comment's argument: no move lowers the level.
                assert!(clv >= lv, "a move lowered the level: {sm:?}");
                let key = class_key(g, self.classes, &mut self.class, &mut self.canon, child);
                self.table.prefetch_key(key.0);
                (kid.1, kid.2) = (key, clv);
            }
            if let Err(l) = self.store_held()? {
                return self.stopped(lv, l, Some((&st, id)));
            }
            self.kids = std::mem::replace(&mut self.held, kids);
            self.held_parent = id;
            self.held_state = st;
        }
    }

    /// Empties the table and stores again the positions of the level
    /// under way (the lowest waiting), then those of the levels above it,
    /// a level at a time and lowest first, while the table holds at most
    /// `most` positions; the levels left out are forgotten
    /// ([`Queue::forget`]; see the module comment). Whether the level
    /// under way fits.
    fn compact(&mut self, most: u64) -> Result<bool, SolveError> {
        let g = self.game;
        // Levels stored whole; fewer if one meets a full table partway.
        let mut keep = self.pending.len();
        loop {
            self.table.clear();
            let (mut kept, mut met_full) = (0, false);
            for (i, q) in self.pending.values_mut().take(keep).enumerate() {
                if i > 0 && self.table.len() as u64 + q.known() > most {
                    break;
                }
                // Each position's buckets are fetched a few insertions
                // ahead of its own: the trips to memory overlap.
                let (table, class, canon) = (&mut self.table, &mut self.class, &mut self.canon);
                let on = self.classes;
                let mut ahead = std::collections::VecDeque::with_capacity(REBUILD_AHEAD + 1);
                q.each(g, |st| {
                    let key = class_key(g, on, class, canon, st);
                    table.prefetch_key(key.0);
                    ahead.push_back(key);
                    if ahead.len() > REBUILD_AHEAD {
                        let (key, tl) = ahead.pop_front().expect("not empty");
                        met_full |= table.insert_level(key, tl) == Insert::Full;
                    }
                })
                .map_err(log_error)?;
                for (key, tl) in ahead {
                    met_full |= table.insert_level(key, tl) == Insert::Full;
                }
                if met_full {
                    break;
                }
                kept = i + 1;
            }
            if kept == 0 {
                return Ok(false);
            }
            if met_full {
                // A level partly stored: once more without it.
                keep = kept;
                continue;
            }
            for q in self.pending.values_mut().skip(kept) {
                q.forget();
            }
            return Ok(true);
        }
    }

    /// The winning line: the moves from the deal to position `id`, then
    /// `last` and the safe moves after it, as core moves
    /// ([`crate::rollout::core_moves`], which checks that they win).
    fn line(&mut self, id: u64, last: &SMove) -> Result<Vec<Move>, SolveError> {
        let mut steps = vec![Step {
            talon: last.talon,
            mv: last.mv,
        }];
        let mut members = vec![last.member];
        let mut at = id;
        loop {
            let (parent, step, member) = self.log.read(at).map_err(log_error)?;
            if parent == NO_PARENT {
                break;
            }
            steps.push(step);
            members.push(member);
            at = parent;
        }
        steps.reverse();
        members.reverse();
        // Each move is played from its class member: the reversible
        // moves to it first, found again from the position as stored.
        let (g, on) = (self.game, self.classes);
        let (class, canon) = (&mut self.class, &mut self.canon);
        let mut before = |i: usize, st: &State| {
            let form = class_form(g, on, class, canon, st);
            member_path(g, st, form, class, members[i])
        };
        core_moves_via(self.game, &steps, &mut before).ok_or_else(|| {
            SolveError::BadSolution("the layered search's line from its log does not win".into())
        })
    }

    /// After a search without a log met a won position: the deal searched
    /// again from the start, in this sitting, by the layered search with a
    /// log in the temporary directory (not saved), within what is left of
    /// `limits` (the nodes and time this search took count). It takes the
    /// levels in the same order, so it meets a win by the level this one
    /// met its own, and reads its line back. Its verdict is the answer:
    /// WON with the line, or UNKNOWN if a limit stops it first. Its counts
    /// are added to this search's. This search's table is given back
    /// first, so that the two never hold memory at once.
    fn line_again(&mut self, limits: &Limits, options: &Options) -> Result<Verdict, SolveError> {
        self.table = FingerprintSet::with_budget(1 << 16);
        self.pending.clear();
        self.files.clear();
        self.queue_bytes = 0;
        let elapsed = self.start.elapsed();
        let again = Limits {
            max_nodes: limits.max_nodes.map(|n| n.saturating_sub(self.stats.nodes)),
            timeout: limits.timeout.map(|t| t.saturating_sub(elapsed)),
            ..*limits
        };
        let with_log = Options {
            layered_no_log: false,
            layered_save_every: None,
            ..*options
        };
        let (out, _) = search(self.game, &again, &with_log, None, None, &|_| false)?;
        // (Its time is this search's too: `search` sets it at the end.)
        self.stats += out.stats;
        match out.verdict {
            Verdict::Lost => Err(SolveError::BadSolution(
                "the layered search met a won position, but searched again with a log it found none"
                    .into(),
            )),
            // The limits named are the caller's, not what was left of them.
            Verdict::Unknown(Limit::Nodes(_)) if limits.max_nodes.is_some() => {
                Ok(Verdict::Unknown(Limit::Nodes(limits.max_nodes.expect("a node limit"))))
            }
            Verdict::Unknown(Limit::Time(_)) if limits.timeout.is_some() => {
                Ok(Verdict::Unknown(Limit::Time(limits.timeout.expect("a time limit"))))
            }
            v => Ok(v),
        }
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
    Ok(search(game, limits, options, None, None, &|_| false)?.0)
}

/// [`search_layered`] with its files in directory `dir` (created if need
/// be), saved there every ten minutes and when a limit `save_at` accepts
/// stops it, and continued from there when `dir` holds a saved search
/// (whose `header` must be this one, [`crate::checkpoint::header`]). A
/// won line is replayed by the independent checker. What becomes of the
/// directory's files:
///
/// - the deal decided, they are removed (and the directory, if left
///   empty): [`FileAfter::Removed`], or [`FileAfter::None`] if the search
///   had not been saved;
/// - stopped by a limit `save_at` accepts, the search is saved:
///   [`FileAfter::Saved`]. The memory limit, which can stop the search in
///   the middle of a position's moves, puts the positions in flight back
///   in their level's file first ([`Layered::stopped`]); continued with
///   more memory, the search goes on from there;
/// - stopped by the memory limit in rebuilding the table of a search
///   resumed, which leaves nothing new, the last save is kept
///   ([`FileAfter::Kept`]); likewise stopped by a limit `save_at` does
///   not accept, or the files are removed if there was no save.
///
/// ## What is saved, and why the verdict stays exact
///
/// A save is made between two positions expanded: every position stored is then
/// in the log and in its level's file, but the dead ends, which are lost (and
/// which a resumed search tests again if it meets them again), and the level under way has read its
/// file up to a point. The save writes out what the files hold in memory (each
/// level's last block, which makes blocks shorter than the others), syncs them,
/// and writes `search.ck`: the counts, the log's length and its last records,
/// each progress's file name and length ([`Shared`]), and each waiting level's
/// blocks, how far it has been read, and which of its positions are to be
/// checked when taken (`lo..hi`, [`Queue::forget`]); a save at the memory limit
/// has put the positions in flight back in the level under way's file, to be
/// expanded again ([`Layered::stopped`]). The files are only ever
/// appended to, and a finished progress's file is removed only after the next
/// save, so each save stays whole until the next replaces it (`search.ck.tmp`,
/// synced, renamed over `search.ck`).
///
/// A resumed search cuts every file back to its saved length (what was
/// appended since belongs to no save), removes level files the save does
/// not name, and rebuilds the table from the waiting levels as a rebuild
/// does ([`Layered::compact`]): the level under way whole (the positions
/// it has read are in it, so not expanded again), then the levels above
/// while they fit, the rest forgotten and checked when taken. That is the
/// state the search itself reaches after a rebuild at the saved point, so
/// the module comment's argument covers it: the sittings together expand
/// every position stored once (and up to two more again at each memory stop,
/// put back in their level's file), but the dead ends, which are tested instead,
/// perhaps in more than one sitting. The table the search had held positions
/// of finished levels too, which are never met again. Node counts and the
/// search time carry on from the save, and `limits.max_nodes` counts the
/// saved nodes too; `limits.timeout` is for this sitting.
pub fn solve_layered_saving(
    rules: &demon_core::Rules,
    layout: &demon_core::Layout,
    limits: &Limits,
    options: &Options,
    dir: &Path,
    header: &str,
    save_at: &dyn Fn(&Limit) -> bool,
) -> Result<(Outcome, FileAfter), SolveError> {
    let game = Game::new(rules, layout)?;
    let ck = |e: std::io::Error| SolveError::Checkpoint(format!("{}: {e}", dir.display()));
    if dir.exists() && !dir.is_dir() {
        return Err(SolveError::Checkpoint(format!(
            "{} is a file: the layered search saves in a directory of its own",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(ck)?;
    let mut resume = crate::checkpoint::open(&dir.join(SAVE_FILE), header)?;
    if resume.is_none() {
        // A directory of the search's own, perhaps with the files of a
        // search killed before its first save, which go.
        for e in std::fs::read_dir(dir).map_err(ck)? {
            let name = e.map_err(ck)?.file_name();
            if !name.to_str().is_some_and(ours) {
                return Err(SolveError::Checkpoint(format!(
                    "{} holds other files than a layered search's ({}): give a directory of its own",
                    dir.display(),
                    name.to_string_lossy()
                )));
            }
        }
        remove_files(dir, None).map_err(ck)?;
    }
    let saving = Saving {
        dir,
        header,
        next_file: 0,
        finished: Vec::new(),
        last: Instant::now(),
        last_nodes: 0,
        before: std::time::Duration::ZERO,
        any: false,
    };
    let (mut out, after) = search(
        &game,
        limits,
        options,
        Some(saving),
        resume.as_mut().map(|r| r as &mut dyn Read),
        save_at,
    )?;
    // The layered search runs alone, so its win is the exhaustive search's.
    crate::search::settle_win(rules, layout, &mut out)?;
    Ok((out, after))
}

/// Removes a saved layered search from `dir` (its files, then the
/// directory if left empty): for a caller done with a search that kept its
/// last save ([`FileAfter::Kept`]).
pub fn remove_saved(dir: &Path) -> std::io::Result<()> {
    remove_files(dir, None)?;
    let _ = std::fs::remove_dir(dir);
    Ok(())
}

/// Whether a file of this name may be a saved layered search's.
fn ours(name: &str) -> bool {
    [LOG_FILE, SAVE_FILE, SAVE_TMP].contains(&name)
        || name
            .strip_prefix("level-")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Removes the files of a saved search from `dir`: all of them, or, with
/// `keep`, only the level files it does not name.
fn remove_files(
    dir: &Path,
    keep: Option<&std::collections::HashSet<String>>,
) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let gone =
            ours(name) && keep.is_none_or(|k| name.starts_with("level-") && !k.contains(name));
        if gone {
            match std::fs::remove_file(e.path()) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
    }
    Ok(())
}

fn search(
    game: &Game,
    limits: &Limits,
    options: &Options,
    saving: Option<Saving>,
    resume: Option<&mut dyn Read>,
    save_at: &dyn Fn(&Limit) -> bool,
) -> Result<(Outcome, FileAfter), SolveError> {
    if game.rules().worrying_back {
        return Err(SolveError::Unsupported(
            "the layered search needs cards to stay on the foundations (no worrying back)".into(),
        ));
    }
    // A sixteenth for the files' buffers: the block being filled of each
    // of `QUEUES` levels waiting, the block being read and a compressed
    // block, and the log's.
    let buffers = limits.max_memory / 16;
    let share = (buffers / (QUEUES + 2)).clamp(1 << 10, 1 << 20);
    let held = ((QUEUES + 2) * share + LOG_BYTES).max(buffers);
    // A power of two, as the tails grow by powers of two ([`Queue::push`]).
    let buf = 1 << share.ilog2();
    // A larger limit's compressed block, kept by this thread from an
    // earlier search, is let go.
    COMPRESSED.with_borrow_mut(|c| *c = Vec::new());
    let table_budget = limits
        .max_memory
        .saturating_sub(held)
        .min(options.table_bytes.unwrap_or(usize::MAX));
    if table_budget < 256 << 10 {
        return Err(SolveError::Unsupported(format!(
            "the layered search needs at least {} KiB of memory",
            (held + (256 << 10)).div_ceil(1 << 10)
        )));
    }
    let log = match &saving {
        _ if options.layered_no_log && resume.is_none() => Ok(Log::none(0)),
        Some(sv) if resume.is_none() => Log::new(Some(&sv.dir.join(LOG_FILE))),
        _ => Log::new(None),
    };
    let mut s = Layered {
        game,
        table: FingerprintSet::with_budget(table_budget),
        pending: BTreeMap::new(),
        files: BTreeMap::new(),
        buf,
        queue_bytes: 0,
        log: log.map_err(log_error)?,
        stats: Stats::default(),
        limits: *limits,
        options: *options,
        start: Instant::now(),
        reach: ReachMemo::default(),
        dead_cache: Default::default(),
        expanded: 0,
        scratch: SmallVec::new(),
        autos: Vec::new(),
        record: Vec::new(),
        saving,
        kids: Vec::new(),
        held: Vec::new(),
        held_state: game.initial(),
        held_parent: 0,
        classes: options.tableau_classes,
        class: ClassFinder::default(),
        canon: game.initial(),
        arena: Vec::new(),
        members: Vec::new(),
        mpaths: Vec::new(),
    };
    let stop = match resume {
        Some(r) => s.load(r)?.err(),
        None => s.start_search()?,
    };
    // A memory stop in storing the deal, or in rebuilding the table of a
    // search resumed, leaves nothing new to save: the last save is kept.
    // One in the middle of a level leaves the search whole
    // ([`Layered::stopped`]).
    let mut whole = stop.is_none();
    let stop = match stop {
        Some(stop) => Some(stop),
        None => loop {
            let Some(&lv) = s.pending.keys().next() else {
                break None;
            };
            if let Some(crate::search::ProgressBoard(p)) = options.progress {
                let (at, of) = progress_reached(game, lv);
                p.progress.store(at, Ordering::Relaxed);
                p.progress_of_win.store(of, Ordering::Relaxed);
            }
            if let Some(stop) = s.level(lv)? {
                break Some(stop);
            }
            // Finished: its positions are forgotten at the next rebuild.
            s.finish(lv);
        },
    };
    // A search stopped after a win met without a log is not whole: it is
    // not saved.
    let verdict = match stop {
        None => Verdict::Lost,
        Some(Stop::Won(moves)) => Verdict::Won(moves),
        Some(Stop::WonNoLine) => {
            whole = false;
            s.line_again(limits, options)?
        }
        Some(Stop::Limit(l)) => Verdict::Unknown(l),
    };
    if matches!(verdict, Verdict::Unknown(_)) {
        if let Some(&lv) = s.pending.keys().next() {
            (s.stats.progress, s.stats.progress_of_win) = progress_reached(game, lv);
        }
    }
    let mut after = FileAfter::None;
    if let Some((dir, any)) = s.saving.as_ref().map(|sv| (sv.dir, sv.any)) {
        let ck = |e: std::io::Error| SolveError::Checkpoint(format!("{}: {e}", dir.display()));
        match &verdict {
            Verdict::Unknown(l) if whole && save_at(l) => {
                s.save()?;
                after = FileAfter::Saved;
            }
            Verdict::Unknown(_) if any => after = FileAfter::Kept,
            _ => {
                if any {
                    after = FileAfter::Removed;
                }
                // The files are closed first (some systems cannot remove
                // an open file).
                s.pending.clear();
                s.files.clear();
                s.queue_bytes = 0;
                s.log = Log::new(None).map_err(log_error)?;
                remove_saved(dir).map_err(ck)?;
            }
        }
    }
    s.stats.elapsed = s.before() + s.start.elapsed();
    s.stats.peak_memory = s.stats.peak_memory.max(s.memory());
    Ok((
        Outcome {
            verdict,
            stats: s.stats,
        },
        after,
    ))
}

/// Writes `v` (8 bytes, little-endian).
fn put(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// A saved search's description read back.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn bytes(&mut self, n: u64) -> Result<&[u8], SolveError> {
        let n = usize::try_from(n).map_err(|_| damaged())?;
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        let end = end.ok_or_else(damaged)?;
        let out = &self.b[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u64(&mut self) -> Result<u64, SolveError> {
        Ok(u64::from_le_bytes(
            self.bytes(8)?.try_into().expect("8 bytes"),
        ))
    }
}

fn damaged() -> SolveError {
    SolveError::Checkpoint(format!("{SAVE_FILE} is damaged"))
}

/// FNV-1a over `b`: a save's checksum.
fn checksum(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
    })
}

impl Layered<'_> {
    /// The search time of the sittings before this one.
    fn before(&self) -> std::time::Duration {
        self.saving
            .as_ref()
            .map_or(std::time::Duration::ZERO, |sv| sv.before)
    }

    /// Stores the deal's position (its safe moves played): `Some` if that
    /// ends the search.
    fn start_search(&mut self) -> Result<Option<Stop>, SolveError> {
        let game = self.game;
        let mut st = game.initial();
        play_safe_moves(game, &mut st, &mut self.autos);
        self.stats.auto_moves += self.autos.len() as u64;
        if game.is_won(&st) {
            let moves = self.autos.iter().map(|a| a.0).collect();
            return Ok(Some(Stop::Won(moves)));
        }
        let key = fingerprint_level(game, &st);
        Ok(
            match self.store(&st, key, level(game, &st), NO_PARENT, None)? {
                Err(l) => Some(Stop::Limit(l)),
                Ok(()) => None,
            },
        )
    }

    /// Whether to save now: ten minutes since the last save (checked
    /// every 4,096 positions expanded), or, for tests, `Options::layered_save_every`
    /// nodes.
    fn save_due(&self) -> bool {
        let Some(sv) = &self.saving else {
            return false;
        };
        match self.options.layered_save_every {
            Some(n) => self.stats.nodes >= sv.last_nodes + n,
            None => {
                self.expanded.is_multiple_of(4096)
                    && self.stats.nodes > sv.last_nodes
                    && sv.last.elapsed() >= SAVE_EVERY
            }
        }
    }

    /// Saves the search in its directory (see [`solve_layered_saving`]),
    /// between two positions expanded.
    fn save(&mut self) -> Result<(), SolveError> {
        let sv = self.saving.as_ref().expect("a directory to save in");
        let (dir, header) = (sv.dir, sv.header);
        let ck = |e: std::io::Error| {
            SolveError::Checkpoint(format!("cannot save in {}: {e}", dir.display()))
        };
        self.stats.elapsed = sv.before + self.start.elapsed();
        self.stats.peak_memory = self.stats.peak_memory.max(self.memory());
        let mut b = Vec::new();
        let st = &self.stats;
        for v in [
            st.nodes,
            st.stored,
            st.hits,
            st.dead,
            st.auto_moves,
            st.rebuilds,
            st.peak_memory as u64,
            st.elapsed.as_micros().min(u64::MAX as u128) as u64,
            u64::from(st.most_up),
        ] {
            put(&mut b, v);
        }
        let log = &self.log;
        put(&mut b, log.records);
        match &log.file {
            Some(f) => {
                f.file.sync_data().map_err(ck)?;
                put(&mut b, f.len);
            }
            None => put(&mut b, NO_LOG),
        }
        put(&mut b, log.offsets.len() as u64);
        for &o in &log.offsets {
            put(&mut b, o);
        }
        put(&mut b, log.tail.len() as u64);
        b.extend_from_slice(&log.tail);
        put(&mut b, sv.next_file);
        // Every level's last block written first: the files' lengths are
        // then final.
        for q in self.pending.values_mut() {
            if !q.tail.is_empty() {
                let before = q.bytes();
                q.write_tail().map_err(ck)?;
                self.queue_bytes = self.queue_bytes + q.bytes() - before;
            }
        }
        put(&mut b, self.files.len() as u64);
        for (&p, f) in &self.files {
            let f = f.borrow();
            f.file.sync_data().map_err(ck)?;
            let name = f.path.file_name().and_then(|n| n.to_str());
            let name = name.expect("a saved search's levels have named files");
            put(&mut b, p);
            put(&mut b, name.len() as u64);
            b.extend_from_slice(name.as_bytes());
            put(&mut b, f.len);
        }
        put(&mut b, self.pending.len() as u64);
        for (&lv, q) in self.pending.iter() {
            put(&mut b, lv);
            put(&mut b, q.blocks.len() as u64);
            for &(at, len) in &q.blocks {
                put(&mut b, at);
                put(&mut b, u64::from(len));
            }
            for v in [q.next as u64, q.rpos as u64, q.count, q.popped, q.lo, q.hi] {
                put(&mut b, v);
            }
        }
        let sum = checksum(&b);
        put(&mut b, sum);
        let tmp = dir.join(SAVE_TMP);
        let mut f = File::create(&tmp).map_err(ck)?;
        f.write_all(&(header.len() as u64).to_le_bytes())
            .and_then(|_| f.write_all(header.as_bytes()))
            .and_then(|_| f.write_all(&b))
            .and_then(|_| f.sync_all())
            .map_err(ck)?;
        drop(f);
        std::fs::rename(&tmp, dir.join(SAVE_FILE)).map_err(ck)?;
        #[cfg(unix)]
        File::open(dir).and_then(|d| d.sync_all()).map_err(ck)?;
        let sv = self.saving.as_mut().expect("a directory to save in");
        for p in sv.finished.drain(..) {
            match std::fs::remove_file(&p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(ck(e)),
                _ => {}
            }
        }
        sv.last = Instant::now();
        sv.last_nodes = self.stats.nodes;
        sv.any = true;
        Ok(())
    }

    /// Goes on from the search saved in the directory, whose description
    /// `r` holds past its header (see [`solve_layered_saving`]): the files
    /// cut back to their saved lengths, and the table rebuilt from the
    /// waiting levels. `Err` with the limit if the level under way does
    /// not fit in the table.
    fn load(&mut self, r: &mut dyn Read) -> Result<Result<(), Stop>, SolveError> {
        let sv = self.saving.as_ref().expect("a directory to resume from");
        let dir = sv.dir;
        let ck = |e: std::io::Error| SolveError::Checkpoint(format!("{}: {e}", dir.display()));
        let mut all = Vec::new();
        r.read_to_end(&mut all).map_err(ck)?;
        if all.len() < 8 {
            return Err(damaged());
        }
        let (body, sum) = all.split_at(all.len() - 8);
        if checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(damaged());
        }
        let mut rd = Reader { b: body, at: 0 };
        let st = &mut self.stats;
        st.nodes = rd.u64()?;
        st.stored = rd.u64()?;
        st.hits = rd.u64()?;
        st.dead = rd.u64()?;
        st.auto_moves = rd.u64()?;
        st.rebuilds = rd.u64()?;
        st.peak_memory = rd.u64()? as usize;
        let before = std::time::Duration::from_micros(rd.u64()?);
        st.most_up = u32::try_from(rd.u64()?).map_err(|_| damaged())?;
        let records = rd.u64()?;
        let len = rd.u64()?;
        let n = rd.u64()?;
        let offsets = (0..n).map(|_| rd.u64()).collect::<Result<Vec<_>, _>>()?;
        let n = rd.u64()?;
        let tail = rd.bytes(n)?.to_vec();
        let whole = offsets.len() as u64 * LOG_BLOCK as u64 * RECORD as u64 + tail.len() as u64
            == records * RECORD as u64;
        self.log = if len == NO_LOG {
            // Saved without a log: it goes on without one.
            if !offsets.is_empty() || !tail.is_empty() {
                return Err(damaged());
            }
            Log::none(records)
        } else if !whole {
            return Err(damaged());
        } else if self.options.layered_no_log {
            // Its log dropped: the save stays whole while the file goes,
            // for a search told to keep none ignores a log missing.
            match std::fs::remove_file(dir.join(LOG_FILE)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(ck(e)),
                _ => {}
            }
            Log::none(records)
        } else {
            let mut log = Log {
                file: Some(Scratch::reopen(&dir.join(LOG_FILE), len).map_err(ck)?),
                offsets,
                tail: Vec::with_capacity(LOG_BLOCK * RECORD),
                records,
                cbuf: Vec::new(),
                mv: Vec::with_capacity(5),
            };
            log.tail.extend_from_slice(&tail);
            log
        };
        let next_file = rd.u64()?;
        let n = rd.u64()?;
        let mut names = std::collections::HashSet::new();
        for _ in 0..n {
            let p = rd.u64()?;
            let len = rd.u64()?;
            let name = std::str::from_utf8(rd.bytes(len)?).map_err(|_| damaged())?;
            let name = name.to_owned();
            if !name.starts_with("level-") || name.contains(['/', '\\']) {
                return Err(damaged());
            }
            let flen = rd.u64()?;
            let f = Scratch::reopen(&dir.join(&name), flen).map_err(ck)?;
            if !names.insert(name) || self.files.insert(p, Rc::new(RefCell::new(f))).is_some() {
                return Err(damaged());
            }
        }
        let n = rd.u64()?;
        for _ in 0..n {
            let lv = rd.u64()?;
            let file = self.files.get(&progress_of(lv)).ok_or_else(damaged)?;
            let flen = file.borrow().len;
            let mut q = Queue::new(self.buf, Rc::clone(file));
            let nb = rd.u64()?;
            for _ in 0..nb {
                let at = rd.u64()?;
                let len = u32::try_from(rd.u64()?).map_err(|_| damaged())?;
                if at.checked_add(u64::from(len)).is_none_or(|end| end > flen) {
                    return Err(damaged());
                }
                q.blocks.push((at, len));
            }
            let next = rd.u64()? as usize;
            let rpos = rd.u64()? as usize;
            let [count, popped, lo, hi] = [rd.u64()?, rd.u64()?, rd.u64()?, rd.u64()?];
            if next > q.blocks.len() || popped > count || lo > hi || hi > count {
                return Err(damaged());
            }
            if next > 0 {
                let mut out = Vec::new();
                q.read_block(next - 1, &mut out).map_err(ck)?;
                q.rbuf = out;
            }
            if rpos > q.rbuf.len() {
                return Err(damaged());
            }
            (q.next, q.rpos, q.count, q.popped, q.lo, q.hi) = (next, rpos, count, popped, lo, hi);
            self.queue_bytes += q.bytes();
            self.pending.insert(lv, q);
        }
        if rd.at != body.len() {
            return Err(damaged());
        }
        let sv = self.saving.as_mut().expect("a directory to resume from");
        sv.next_file = next_file;
        sv.before = before;
        sv.any = true;
        sv.last_nodes = self.stats.nodes;
        remove_files(dir, Some(&names)).map_err(ck)?;
        // As a rebuild: the level under way whole, then the others while
        // they fill at most half the table (filling it up would meet a
        // full table partway through a level, and start again without it).
        let half = self.table.final_slots() as u64 / 2;
        if !self.pending.is_empty() && !self.compact(half)? {
            return Ok(Err(Stop::Limit(Limit::Memory(self.limits.max_memory))));
        }
        Ok(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::{generate, Gen};
    use demon_core::{GameKind, Reading, Source};

    fn game() -> Game {
        let r = GameKind::Chameleon.preset(Reading::Standard).unwrap();
        Game::new(&r, &Source::Native(5).layout(&r)).unwrap()
    }

    /// Positions of random playouts, each with a number.
    fn positions(g: &Game, n: usize) -> Vec<(State, u64)> {
        let (mut out, mut x) = (Vec::new(), 3u64);
        while out.len() < n {
            let mut st = g.initial();
            for _ in 0..60 {
                out.push((st.clone(), out.len() as u64 * 7));
                let moves = g.legal_moves(&st);
                if moves.is_empty() {
                    break;
                }
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                g.play(&mut st, moves[(x >> 33) as usize % moves.len()]);
            }
        }
        out.truncate(n);
        out
    }

    fn shared() -> Shared {
        Rc::new(RefCell::new(Scratch::new("test").unwrap()))
    }

    fn record(g: &Game, st: &State, id: u64) -> Vec<u8> {
        let mut r = vec![0];
        r.extend_from_slice(&id.to_le_bytes());
        g.pack(st, &mut r);
        r[0] = (r.len() - 9) as u8;
        r
    }

    /// A queue of 1 KiB blocks, pushed and popped in turns (as a level
    /// reads its positions and appends new ones): the positions come back
    /// in order, equal; `each` visits every position pushed, taken or not.
    #[test]
    fn a_queue_gives_back_its_positions_in_order() {
        let g = game();
        let all = positions(&g, 20_000);
        let mut q = Queue::new(1 << 10, shared());
        let (mut pushed, mut popped, mut eached) = (0, 0, 0);
        let mut x = 9u64;
        while popped < all.len() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if pushed < all.len() && !(x >> 40).is_multiple_of(3) {
                for _ in 0..(x >> 50) % 40 {
                    if pushed < all.len() {
                        let (st, id) = &all[pushed];
                        q.push(&record(&g, st, *id)).unwrap();
                        pushed += 1;
                    }
                }
            } else {
                if (x >> 45).is_multiple_of(50) {
                    let mut seen = Vec::new();
                    q.each(&g, |st| seen.push(st.clone())).unwrap();
                    let want: Vec<State> = all[..pushed].iter().map(|p| p.0.clone()).collect();
                    assert_eq!(seen, want);
                    eached += 1;
                }
                for _ in 0..(x >> 52) % 40 {
                    match q.pop(&g).unwrap() {
                        Some((st, id, i)) => {
                            assert_eq!(
                                (st, id, i),
                                (all[popped].0.clone(), all[popped].1, popped as u64)
                            );
                            popped += 1;
                        }
                        None => {
                            assert_eq!(popped, pushed);
                            break;
                        }
                    }
                }
            }
        }
        assert!(q.pop(&g).unwrap().is_none());
        assert_eq!(q.count, all.len() as u64);
        assert!(
            q.blocks.len() > 100 && eached > 10,
            "{} {eached}",
            q.blocks.len()
        );
    }

    /// Three queues sharing one file, their blocks interleaved in it, each
    /// give back their own positions in order, from the file and from
    /// memory.
    #[test]
    fn queues_sharing_a_file_keep_their_own_blocks() {
        let g = game();
        let all = positions(&g, 9_000);
        let file = shared();
        let mut qs: Vec<Queue> = (0..3)
            .map(|_| Queue::new(1 << 10, Rc::clone(&file)))
            .collect();
        for (i, (st, id)) in all.iter().enumerate() {
            qs[i * 7 % 3].push(&record(&g, st, *id)).unwrap();
        }
        assert!(qs.iter().all(|q| q.blocks.len() > 50 && !q.tail.is_empty()));
        assert_eq!(
            file.borrow().len,
            qs.iter()
                .flat_map(|q| &q.blocks)
                .map(|b| u64::from(b.1))
                .sum::<u64>()
        );
        for (k, q) in qs.iter_mut().enumerate() {
            let want: Vec<(State, u64)> = (0..all.len())
                .filter(|i| i * 7 % 3 == k)
                .map(|i| all[i].clone())
                .collect();
            let mut got = Vec::new();
            while let Some((st, id, _)) = q.pop(&g).unwrap() {
                got.push((st, id));
            }
            assert_eq!(got, want, "queue {k}");
        }
    }

    /// A forgotten queue's `each` visits only the positions pushed since,
    /// and once the first of those not checked is checked (`lo` raised),
    /// it as well.
    #[test]
    fn a_forgotten_queue_visits_what_came_after() {
        let g = game();
        let all = positions(&g, 3_000);
        let mut q = Queue::new(1 << 10, shared());
        for (st, id) in &all[..2_000] {
            q.push(&record(&g, st, *id)).unwrap();
        }
        q.forget();
        assert_eq!((q.lo, q.hi, q.known()), (0, 2_000, 0));
        for (st, id) in &all[2_000..] {
            q.push(&record(&g, st, *id)).unwrap();
        }
        let visited = |q: &mut Queue| {
            let mut seen = Vec::new();
            q.each(&g, |st| seen.push(st.clone())).unwrap();
            seen
        };
        let after: Vec<State> = all[2_000..].iter().map(|p| p.0.clone()).collect();
        assert_eq!(visited(&mut q), after);
        let (st, _, i) = q.pop(&g).unwrap().unwrap();
        assert_eq!((st, i), (all[0].0.clone(), 0));
        q.lo = 1;
        assert_eq!(q.known(), 1_001);
        let mut want = vec![all[0].0.clone()];
        want.extend(after);
        assert_eq!(visited(&mut q), want);
    }

    /// The log gives back each record: the parent, the talon state and
    /// the move, from written blocks and from the one in memory.
    #[test]
    fn the_log_reads_back_its_records() {
        let g = game();
        let st = g.initial();
        let mut scratch = SmallVec::new();
        generate(&g, &st, &mut scratch, &mut ReachMemo::default(), Gen::All);
        assert!(scratch.len() >= 2);
        let mut log = Log::new(None).unwrap();
        let mut want = Vec::new();
        for i in 0..10_000u64 {
            let mut sm = scratch[i as usize % scratch.len()];
            sm.talon = (i % 3 == 0).then_some(((i % 30) as u8, (i % 2) as u8));
            sm.member = (i % 17) as u8;
            let parent = if i == 0 { NO_PARENT } else { i * 7 / 8 };
            assert_eq!(log.push(parent, Some(&sm)).unwrap(), i);
            want.push((parent, sm.talon, sm.mv, sm.member));
        }
        assert!(!log.offsets.is_empty() && !log.tail.is_empty());
        for i in (0..10_000u64).rev().step_by(7) {
            let (parent, step, member) = log.read(i).unwrap();
            assert_eq!(
                (parent, step.talon, step.mv, member),
                want[i as usize],
                "record {i}"
            );
        }
    }
}
