//! A position table that the threads of a crew ([`crate::search`]) share,
//! where the common operation takes no lock.
//!
//! Under one lock, each arrival at a position took the lock's cache line
//! from the other processor and gave it back: on Canfield (Solvitaire's
//! rules) seed 289 with two threads, taking and giving back the lock
//! (3.3 %), waiting for it (2.9 %) and sleeping on it (0.8 %) were about
//! 7 % of the samples, and a sleeping thread's processor stood idle.
//! Here an arrival that finds its position, or stores it in an empty slot
//! of its buckets (or lowers its level), does so with one 16-byte
//! compare-and-swap on the slot ([`SharedTable::enter`]), which is nearly
//! every arrival. What changes more than a slot (moving entries to make
//! room, growing, shrinking, the budget, the counts) is done by one thread
//! with the table to itself ([`SharedTable::alone`]).
//!
//! ## The gate
//!
//! Each thread has a lane with a `busy` flag. A quick operation sets its
//! `busy`, then reads `alone`; if `alone` is set it clears `busy` and takes
//! the slow way. A thread taking the table alone takes the lock, sets
//! `alone`, then waits until every `busy` is clear. All four are
//! sequentially consistent, so of a `busy` store and an `alone` store at
//! least one thread sees the other's (Dekker's argument): no quick
//! operation runs while a thread has the table alone, and the table alone
//! is a [`FingerprintSet`] like any other. Quick operations touch only
//! bucket slots, atomically, and their own lane's slice of the recent-entry
//! cache, which no other quick operation touches.
//!
//! ## Why a quick insertion stores every position once
//!
//! A single thread's insertion ([`FingerprintSet::place`]) relies on two
//! facts: a bucket's used slots come first (an empty slot ends a search of
//! the bucket), and a key is in its second bucket only when its first was
//! full; a full bucket stays full. Quick operations never empty a slot,
//! so both hold while they run: the slots of a bucket fill in order, and
//! a slot once used keeps a key (its level may be lowered). Two threads
//! inserting one key read the same slots in the same order and try the
//! first empty slot they see: if they see the same one, one compare-and-
//! swap fails; if one sees the slot already used, by the other's key (it
//! finds the key) or by a third key (then the other's compare-and-swap on
//! that slot, which expected it empty, fails too). A failed
//! compare-and-swap gives up the quick way, and the slow way, alone, finds
//! the key. So a key is stored once, and "found" means "stored before":
//! the search's argument needs nothing more ([`crate::search`]'s `Crew`).

use std::cell::UnsafeCell;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release, SeqCst};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize};
use std::sync::{Mutex, MutexGuard};

use portable_atomic::AtomicU128;

use super::{
    entry, home, level_of, prefetch_at, second_bucket, Bucket, FingerprintSet, BUCKET, ID, WAYS,
};

/// One thread's flags and counts, alone on its cache lines.
#[derive(Default)]
#[repr(align(128))]
struct Lane {
    /// Inside a quick operation.
    busy: AtomicBool,
    /// Entries its quick insertions added since the table last counted.
    added: AtomicUsize,
    /// Entries its quick insertions may add before the table counts again
    /// (its share of [`FingerprintSet::quiet_room`]).
    allowed: AtomicUsize,
}

/// Where the table's arrays are, as quick operations read them: written
/// only by a thread that has the table alone, read-mostly.
#[derive(Default)]
#[repr(align(128))]
struct View {
    alone: AtomicBool,
    base: AtomicPtr<Bucket>,
    buckets: AtomicUsize,
    /// Past half full: the second bucket is fetched with the first.
    half: AtomicBool,
    recent_fp: AtomicPtr<u128>,
    recent_level: AtomicPtr<u8>,
    /// Entries of each lane's slice of the recent-entry cache (a power of
    /// two, or 0 for none).
    slice: AtomicUsize,
}

/// The crew's table (see the module comment).
pub struct SharedTable {
    /// Names the table its [`Ticket`]s are for.
    id: u64,
    view: View,
    lanes: Box<[Lane]>,
    lock: Mutex<()>,
    table: UnsafeCell<FingerprintSet>,
}

// SAFETY: the table is reached mutably only by a thread that has it alone
// (the lock held, every quick operation over and none starting), and
// otherwise only through atomic operations on its slots and the lanes'
// own slices of the recent cache (see the module comment).
unsafe impl Sync for SharedTable {}

/// A thread's right to quick operations on one table, through one lane:
/// one per lane, neither `Clone` nor `Copy`, and used through `&mut`, so
/// that no two quick operations share a lane.
#[derive(Debug)]
pub struct Ticket {
    lane: usize,
    table: u64,
}

/// What a quick insertion found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quick {
    /// Stored before, at the same or a lower level.
    Present,
    /// Stored now; `lowered` is the level it had if it was stored at a
    /// higher one; `covered`, whether the cover asked for was stored
    /// before it.
    New { lowered: Option<u8>, covered: bool },
}

impl SharedTable {
    /// The table, to be shared by `threads` threads, and a ticket for each.
    pub fn new(table: FingerprintSet, threads: usize) -> (SharedTable, Vec<Ticket>) {
        static TABLES: AtomicU64 = AtomicU64::new(0);
        let id = TABLES.fetch_add(1, Relaxed);
        let threads = threads.max(1);
        let shared = SharedTable {
            id,
            view: View::default(),
            lanes: (0..threads).map(|_| Lane::default()).collect(),
            lock: Mutex::new(()),
            table: UnsafeCell::new(table),
        };
        drop(shared.alone());
        let tickets = (0..threads)
            .map(|lane| Ticket { lane, table: id })
            .collect();
        (shared, tickets)
    }

    /// The table to this thread alone, until the guard is dropped.
    pub fn alone(&self) -> Alone<'_> {
        let guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.view.alone.store(true, SeqCst);
        for lane in self.lanes.iter() {
            // A quick operation is short and never waits, unless its
            // thread was preempted: then give the processor up.
            let mut spins = 0u32;
            while lane.busy.load(SeqCst) {
                spins += 1;
                if spins < 1 << 10 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
        }
        // SAFETY: no quick operation runs, none starts until `alone` is
        // cleared, and the lock keeps other threads from taking it alone.
        let table = unsafe { &mut *self.table.get() };
        for lane in self.lanes.iter() {
            table.len += lane.added.swap(0, Relaxed);
        }
        Alone {
            shared: self,
            _guard: guard,
        }
    }

    /// Looks position `fp` up at `level`, and stores it if it is new, as
    /// [`FingerprintSet::insert_level`] does, without the lock. `cover` is
    /// asked only for a new position: a fingerprint that, stored before
    /// it, covers it (then `covered`). It must not use this table (taking
    /// it alone would wait for this operation for ever). `None` when the
    /// quick way cannot answer: the caller takes the table [`Self::alone`].
    pub fn enter(
        &self,
        ticket: &mut Ticket,
        fp: u128,
        level: u8,
        cover: impl FnOnce() -> Option<u128>,
    ) -> Option<Quick> {
        assert_eq!(ticket.table, self.id, "a ticket for another table");
        // The first bucket is fetched while the thread passes the gate
        // (read outside it, the view may be stale while another thread
        // has the table alone: harmless for a prefetch, which is a hint
        // that never faults). Fetching the second too, past half full,
        // was no faster under the lock this replaced (Canfield under
        // Solvitaire's rules seeds 289 and 497, two threads, three runs
        // each); `enter_inside` fetches it once it knows the table.
        let v = &self.view;
        prefetch_at(v.base.load(Relaxed) as usize + home(fp, v.buckets.load(Relaxed)) * BUCKET);
        let lane = ticket.lane;
        let l = &self.lanes[lane];
        l.busy.store(true, SeqCst);
        // Cleared however the operation ends: a panic in `cover` must not
        // leave the other threads waiting for this lane (the panic reaches
        // the caller where the crew's threads are joined).
        let _busy = Busy(&l.busy);
        if self.view.alone.load(SeqCst) {
            return None;
        }
        // SAFETY: inside the gate (see `alone`), on this ticket's lane.
        unsafe { self.enter_inside(lane, fp, level, cover) }
    }

    /// The slot `i` of bucket `b` of the array at `base`.
    ///
    /// # Safety
    /// Inside the gate, with `b` below the view's bucket count; the
    /// reference must not outlive the quick operation (a thread that has
    /// the table alone may move the array).
    unsafe fn slot<'a>(base: *mut Bucket, b: usize, i: usize) -> &'a AtomicU128 {
        // SAFETY: the array has `b`; slots are 16-byte aligned (a bucket
        // is 64-byte aligned), and while quick operations run every
        // access to a slot is atomic.
        unsafe { AtomicU128::from_ptr(base.add(b).cast::<u128>().add(i)) }
    }

    /// Whether `fp` is stored, at any level (as
    /// [`FingerprintSet::contains`]).
    ///
    /// # Safety
    /// Inside the gate.
    unsafe fn contains(&self, base: *mut Bucket, nb: usize, fp: u128) -> bool {
        let b1 = home(fp, nb);
        let b2 = second_bucket(b1, fp, nb);
        let (w1, w2) = (entry(fp, 0, false) & ID, entry(fp, 0, true) & ID);
        [(b1, w1), (b2, w2)].into_iter().any(|(b, w)| {
            // SAFETY: inside the gate, `b` below `nb`.
            (0..WAYS).any(|i| unsafe { Self::slot(base, b, i) }.load(Acquire) & ID == w)
        })
    }

    /// [`Self::enter`], inside the gate.
    ///
    /// # Safety
    /// Inside the gate: `busy` set on lane `lane`, which no other quick
    /// operation uses, and `alone` seen clear after.
    unsafe fn enter_inside(
        &self,
        lane: usize,
        fp: u128,
        level: u8,
        cover: impl FnOnce() -> Option<u128>,
    ) -> Option<Quick> {
        let v = &self.view;
        let base = v.base.load(Relaxed);
        let nb = v.buckets.load(Relaxed);
        let slice = v.slice.load(Relaxed);
        // This lane's slice of the recent cache (see
        // `FingerprintSet::insert_with`: a pair means "stored at this
        // level or lower").
        let c = lane * slice + (fp as usize & slice.wrapping_sub(1));
        let (rfp, rlevel) = (v.recent_fp.load(Relaxed), v.recent_level.load(Relaxed));
        // SAFETY: the slice is this lane's, touched by no other quick
        // operation, and by a thread alone only when none runs.
        if slice > 0 && fp != 0 && unsafe { *rfp.add(c) == fp && *rlevel.add(c) <= level } {
            return Some(Quick::Present);
        }
        let remember = || {
            if slice > 0 && fp != 0 {
                // SAFETY: as above.
                unsafe {
                    *rfp.add(c) = fp;
                    *rlevel.add(c) = level;
                }
            }
        };
        let b1 = home(fp, nb);
        let b2 = second_bucket(b1, fp, nb);
        if v.half.load(Relaxed) {
            prefetch_at(base as usize + b2 * BUCKET);
        }
        let (w1, w2) = (entry(fp, 0, false) & ID, entry(fp, 0, true) & ID);
        // The slot holding `fp`, or the first empty slot where it goes.
        let mut at = None;
        'scan: for (b, w, second) in [(b1, w1, false), (b2, w2, true)] {
            for i in 0..WAYS {
                // SAFETY: inside the gate, `b` below `nb`.
                let s = unsafe { Self::slot(base, b, i) };
                let e = s.load(Acquire);
                if e == 0 || e & ID == w {
                    at = Some((s, e, second));
                    break 'scan;
                }
            }
        }
        // Both buckets full without it: entries must move (or the table
        // grow), which a thread does alone.
        let (s, e, second) = at?;
        if e != 0 && level_of(e) <= level {
            remember();
            return Some(Quick::Present);
        }
        let l = &self.lanes[lane];
        let added = l.added.load(Relaxed);
        if e == 0 && added >= l.allowed.load(Relaxed) {
            return None;
        }
        // The cover must be stored before this position is: asked now.
        // SAFETY: inside the gate.
        let covered = cover().is_some_and(|k| unsafe { self.contains(base, nb, k) });
        // Only the slot changes (as `place` writes it: a lowered level
        // drops the cost class). Another thread that changed it first
        // sends this one the slow way.
        s.compare_exchange(e, entry(fp, level, second), AcqRel, Acquire)
            .ok()?;
        remember();
        if e == 0 {
            l.added.store(added + 1, Relaxed);
            Some(Quick::New {
                lowered: None,
                covered,
            })
        } else {
            Some(Quick::New {
                lowered: Some(level_of(e)),
                covered,
            })
        }
    }
}

/// Clears a lane's `busy` flag when dropped.
struct Busy<'a>(&'a AtomicBool);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.store(false, Release);
    }
}

/// The table held alone ([`SharedTable::alone`]).
pub struct Alone<'a> {
    shared: &'a SharedTable,
    _guard: MutexGuard<'a, ()>,
}

impl std::ops::Deref for Alone<'_> {
    type Target = FingerprintSet;
    fn deref(&self) -> &FingerprintSet {
        // SAFETY: held alone.
        unsafe { &*self.shared.table.get() }
    }
}

impl std::ops::DerefMut for Alone<'_> {
    fn deref_mut(&mut self) -> &mut FingerprintSet {
        // SAFETY: held alone.
        unsafe { &mut *self.shared.table.get() }
    }
}

impl Drop for Alone<'_> {
    /// Publishes where the arrays are now and each lane's share of the
    /// room, then opens the gate (before the lock is released).
    fn drop(&mut self) {
        let s = self.shared;
        // SAFETY: held alone until `alone` is cleared below.
        let t = unsafe { &mut *s.table.get() };
        let v = &s.view;
        v.base.store(t.buckets.as_mut_ptr(), Relaxed);
        v.buckets.store(t.buckets.len(), Relaxed);
        v.half.store(t.len * 2 > t.buckets.len() * WAYS, Relaxed);
        let lanes = s.lanes.len();
        let slice = t.recent_fp.len() / lanes.next_power_of_two();
        v.slice.store(slice, Relaxed);
        v.recent_fp.store(t.recent_fp.as_mut_ptr(), Relaxed);
        v.recent_level.store(t.recent_level.as_mut_ptr(), Relaxed);
        // Halves, so that room stays for the lanes that ask again later.
        let share = t.quiet_room() / (2 * lanes);
        for lane in s.lanes.iter() {
            lane.allowed.store(share, Relaxed);
        }
        v.alone.store(false, SeqCst);
    }
}
