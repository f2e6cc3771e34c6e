//! The transposition table: a set of 128-bit position fingerprints, each
//! with a level, sized in bytes.
//!
//! Entries are 16 bytes, four to a 64-byte bucket (one cache line), and
//! each fingerprint may live in one of two buckets, the second only when
//! the first is full (cuckoo hashing: a new entry that finds both full
//! moves an old one to its other bucket, and so on, up to [`MAX_KICKS`]
//! moves). Such a table fills to 93-97 % before an insertion first
//! fails, against 90 % for the linear probing it replaced: a search's
//! table under a 4 GiB limit held 204.6 M positions (17.1 bytes each,
//! the recent cache included) against 196.3 M (17.8 bytes), measured
//! before the table grew in place.
//! The table starts small and doubles, and last grows to what the budget
//! leaves beside the old array. It never grows past its byte budget,
//! counting the old and the new array both alive while it grows, which
//! they are only where the table cannot grow in place
//! ([`FingerprintSet::grow`]); in place, the old array's share pays for
//! the entries put aside while it grows and for the pages faulted in
//! ahead of a growth. When it
//! is full the search stops UNKNOWN, never out of memory, unless it was
//! asked to replace entries ([`FingerprintSet::insert_or_replace`]).
//!
//! ## Exact 128-bit comparison
//!
//! An entry stores the fingerprint's low 116 bits, a bit saying it is
//! used, a bit saying which of its two buckets it is in, a cost class (2
//! bits) and its level (8 bits). The fingerprint's top 12 bits are not
//! stored: they are implied by the bucket. The first bucket is the high 64
//! bits `h` mapped to `nb` buckets by multiply-shift, `b1 = ⌊h·nb/2⁶⁴⌋`,
//! so `h` lies in an interval of `⌈2⁶⁴/nb⌉` values, at most 2⁵² when `nb`
//! ≥ 4,096 (a table of 256 KiB or more: every exhaustive search's table
//! under a memory limit of 1 MiB or more, the least `demon` accepts). Such
//! an interval holds exactly one number with `h`'s stored low 52 bits, so
//! the bucket and the stored bits give all 128 bits back ([`full`]). The
//! second bucket is the first plus an offset
//! computed from stored bits only, so the first is found from the second
//! and the stored bits too. Two entries compare equal only in the same
//! bucket with the same choice bit, hence the same first bucket: equal
//! stored bits there mean equal 128-bit fingerprints. The collision bound
//! in [`crate::key`] is for 128 bits. (The best-first probe's table can be
//! smaller than 256 KiB under small budgets; a probe only ever reports a
//! win, which the checker replays, so its table decides no verdict.)
//!
//! ## Replacing entries when full
//!
//! [`FingerprintSet::insert_or_replace`] overwrites an entry instead of
//! stopping when the table is full. Forgetting a position is sound: the
//! search's argument ([`crate::search`]) only needs that a position found
//! in the table was entered before, never that a position entered stays
//! stored; a forgotten position is searched again if met again. It could
//! loop: a position still being explored (on a search path) that is
//! forgotten and met again below itself would be entered again, and again.
//! So the caller names the entries that must stay (`open`), and only
//! others are replaced. `open` is asked about an entry's stored bits
//! ([`FingerprintSet::open_key`]), which are exact whatever the table's
//! size; a caller that keys its open positions so may claim a few more
//! entries than its own (another position with the same low 116 bits),
//! which only keeps more.

mod shared;
pub use shared::{Alone, Quick, SharedTable, Ticket};

/// Outcome of an insertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    New,
    Present,
    /// The table is at its budget and too full to take more.
    Full,
}

/// Entries per bucket.
const WAYS: usize = 4;

/// One or two buckets to look in.
type SmallBuckets = [Option<usize>; 2];

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([u128; WAYS]);

const ENTRY: usize = std::mem::size_of::<u128>();
const BUCKET: usize = std::mem::size_of::<Bucket>();
const _: () = assert!(ENTRY == 16 && BUCKET == 64);

/// The fingerprint bits an entry stores (its low 116).
const KEY: u128 = (1 << 116) - 1;
/// Set in every used entry (an unused slot is 0).
const USED: u128 = 1 << 116;
/// Set when the entry is in its second bucket.
const SECOND: u128 = 1 << 117;
/// What exploring the position cost, in 4 classes ([`FingerprintSet::mark`]).
const COST_SHIFT: u32 = 118;
const COST: u128 = 3 << COST_SHIFT;
const LEVEL_SHIFT: u32 = 120;
/// What identifies an entry within its bucket.
const ID: u128 = KEY | USED | SECOND;
/// Bits of the high 64 the entry stores: `KEY` holds bits 64..116.
const HIGH_STORED: u32 = 116 - 64;

/// Moves of old entries one insertion may make before the table counts
/// as full.
const MAX_KICKS: usize = 256;
const MIN_BUCKETS: usize = 1 << 12;
/// Entries of the recent-entry cache at most (272 KiB); it takes at most
/// a quarter of a small budget.
const RECENT: usize = 1 << 14;
/// A recent-cache entry: a fingerprint and its level.
const RECENT_ENTRY: usize = ENTRY + 1;

/// Asks the processor to start loading the cache line at address `at`.
#[inline]
fn prefetch_at(at: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint, valid for any address (it never
    // faults); nothing is read through the pointer.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

pub struct FingerprintSet {
    buckets: Vec<Bucket>,
    /// A small direct-mapped copy of recently inserted or found entries,
    /// which stays in the processor's cache: most transpositions in a
    /// depth-first search meet close in time, and this answers them without
    /// a trip to main memory. It holds (fingerprint, level) pairs inserted
    /// at that level or lower (a fingerprint of 0 is never cached), so a
    /// hit at a level at or below the caller's means the position was
    /// inserted before at that level or lower: what `Present` means.
    recent_fp: Vec<u128>,
    recent_level: Vec<u8>,
    /// After an insertion that answered `New` by lowering a stored
    /// position's level: the level it had (see [`Self::lowered_from`]).
    lowered: Option<u8>,
    len: usize,
    /// Bytes the bucket array may take, counting the old and the new array
    /// both alive while it grows (see the module comment).
    budget: usize,
    /// Entries overwritten by [`Self::insert_or_replace`].
    replaced: u64,
    /// Turns the choice of kicked and replaced entries.
    clock: u64,
    /// The slots a cuckoo walk has changed, with what they held (kept to
    /// reuse its allocation: at most [`MAX_KICKS`] entries, 8 KiB, not
    /// counted in the budget).
    trail: Vec<(usize, usize, u128)>,
    /// The thread faulting in the pages of the next size ahead of growth
    /// ([`Self::fault_in_ahead`]); `backed` is the size it faults in for.
    ahead: Option<std::thread::JoinHandle<()>>,
    /// The array's pages up to this many buckets may be backed (the
    /// array, or the part faulted in ahead): what [`Self::bytes`] counts.
    backed: usize,
    /// The count of entries from which to fault the next size in ahead.
    ahead_at: usize,
}

/// Bytes of a growth from which its new pages are faulted in ahead.
const AHEAD_FROM: usize = 8 << 20;

impl Drop for FingerprintSet {
    fn drop(&mut self) {
        // Not while the thread still works on the array's address range.
        self.join_ahead();
    }
}

#[inline]
fn home(fp: u128, nb: usize) -> usize {
    (((fp >> 64) as u64 as u128 * nb as u128) >> 64) as usize
}

/// How far the second bucket is from the first: from 1 to `nb - 1`,
/// computed from stored bits only (the low 64).
#[inline]
fn offset(fp: u128, nb: usize) -> usize {
    if nb < 2 {
        return 0;
    }
    let x = (fp as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    1 + ((x as u128 * (nb - 1) as u128) >> 64) as usize
}

#[inline]
fn second_bucket(b1: usize, fp: u128, nb: usize) -> usize {
    let b = b1 + offset(fp, nb);
    if b >= nb {
        b - nb
    } else {
        b
    }
}

#[inline]
fn entry(fp: u128, level: u8, second: bool) -> u128 {
    (fp & KEY) | USED | if second { SECOND } else { 0 } | (level as u128) << LEVEL_SHIFT
}

#[inline]
fn level_of(e: u128) -> u8 {
    (e >> LEVEL_SHIFT) as u8
}

/// The full fingerprint of entry `e`, found in bucket `b` of `nb` (see the
/// module comment; exact for `nb` ≥ 4,096).
fn full(e: u128, b: usize, nb: usize) -> u128 {
    let b1 = if e & SECOND != 0 {
        let b = b + nb - offset(e, nb);
        if b >= nb {
            b - nb
        } else {
            b
        }
    } else {
        b
    };
    // The least `h` with ⌊h·nb/2⁶⁴⌋ = b1.
    let lo = ((b1 as u128) << 64).div_ceil(nb as u128) as u64;
    let m = (1u64 << HIGH_STORED) - 1;
    let known = ((e & KEY) >> 64) as u64;
    let h = lo.wrapping_add(known.wrapping_sub(lo) & m);
    ((h as u128) << 64) | (e & u64::MAX as u128)
}

/// Tables from this size up ask for huge pages ([`advise_huge`]).
const HUGE_FROM: usize = 8 << 20;

/// A bucket array of `n` empty buckets. A large one asks the kernel to
/// back it with huge pages (Linux: `madvise(MADV_HUGEPAGE)`, which
/// transparent huge pages in their default `madvise` mode need): each
/// probe lands on a random bucket, and with 4 KiB pages a multi-GiB table
/// costs a page-table walk, itself missing the cache, on nearly every
/// probe. Measured: 200 M random insertions into a 4 GiB table took
/// 70.2 s with the advice and 92.0 s without (positions 50-150 M: 17.4 s
/// against 27.1 s); a Superior Canfield search of 15.5 M positions ran 4 %
/// faster. The advice changes no byte the table holds or counts; where it
/// is refused, or elsewhere than Linux, the table works as before.
fn buckets(n: usize, cap: usize) -> Vec<Bucket> {
    let mut v: Vec<Bucket> = Vec::new();
    // The whole capacity is reserved (address space only: a page is
    // backed when first written), so that the table grows in place. Where
    // the system refuses so much address space, the array holds `n` and
    // grows into a new one.
    if cap <= n || v.try_reserve_exact(cap).is_err() {
        v = Vec::with_capacity(n);
    }
    advise_huge(&mut v, n);
    v.resize(n, Bucket::default());
    v
}

/// Asks for huge pages for the first `n` buckets of `v`'s allocation
/// (its length or capacity, or less), if they make a large table: only
/// the huge pages wholly inside them, so that no page the table does not
/// count ([`FingerprintSet::bytes`]) is backed, as a huge page reaching
/// past them would be. Asked again as the table grows (the advice is kept
/// where it was given).
#[cfg(target_os = "linux")]
fn advise_huge(v: &mut Vec<Bucket>, n: usize) {
    const HUGE: usize = 2 << 20;
    debug_assert!(n <= v.capacity());
    if n * BUCKET < HUGE_FROM {
        return;
    }
    let p = v.as_mut_ptr() as usize;
    let start = p.next_multiple_of(HUGE);
    let end = (p + n * BUCKET) / HUGE * HUGE;
    if end > start {
        // SAFETY: [start, end) lies inside `v`'s allocation (`n` buckets
        // from `p`, within its capacity), and the advice only changes how
        // the kernel backs those pages, not their contents or validity.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: &mut Vec<Bucket>, _: usize) {}

/// Gives back to the system the pages of `v`'s spare capacity (whole
/// pages only), which must never be read again without being written:
/// the table reads no bucket past its length, and growing in place
/// writes the new buckets ([`Vec::resize`]) before it reads them.
#[cfg(target_os = "linux")]
fn release_tail(v: &mut Vec<Bucket>) {
    const PAGE: usize = 4096;
    let p = v.as_ptr() as usize;
    let start = (p + v.len() * BUCKET).next_multiple_of(PAGE);
    let end = (p + v.capacity() * BUCKET) / PAGE * PAGE;
    if end > start {
        // SAFETY: [start, end) lies inside `v`'s allocation and past its
        // length: no live value is there, and the vector writes its spare
        // capacity before reading it. MADV_DONTNEED only drops the pages'
        // contents (they read back as zeros), never the mapping.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
        }
    }
}

/// Elsewhere the array is reallocated at its length (a copy, both arrays
/// alive for a moment), so that the memory the table counts is what the
/// process holds once the shrink is over.
#[cfg(not(target_os = "linux"))]
fn release_tail(v: &mut Vec<Bucket>) {
    v.shrink_to_fit();
}

/// The fingerprint and level of every entry of `buckets` (entries fill a
/// bucket from its first slot).
fn entries(buckets: &[Bucket]) -> impl Iterator<Item = (u128, u8)> + '_ {
    let nb = buckets.len();
    buckets.iter().enumerate().flat_map(move |(b, bucket)| {
        bucket
            .0
            .iter()
            .take_while(|&&e| e != 0)
            .map(move |&e| (full(e, b, nb), level_of(e)))
    })
}

/// Faults in the `len` bytes from address `start` (whole pages), backing
/// them with memory now rather than at their first write. Where the
/// kernel cannot (before Linux 5.14, or elsewhere than Linux), nothing
/// happens: the pages are faulted in when written, as without it.
#[cfg(target_os = "linux")]
fn populate(start: usize, len: usize) {
    const PAGE: usize = 4096;
    let (s, e) = (start.next_multiple_of(PAGE), (start + len) / PAGE * PAGE);
    if e > s {
        // SAFETY: [s, e) lies inside an allocation the table holds until
        // it has joined this thread, past the part it uses; the advice
        // only backs the pages (their contents unchanged; the table
        // writes them before it reads them), it never unmaps or moves
        // them.
        unsafe {
            libc::madvise(s as *mut libc::c_void, e - s, libc::MADV_POPULATE_WRITE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn populate(_: usize, _: usize) {}

/// Asks the processor to start loading `b`'s cache line.
#[inline]
fn prefetch(b: &Bucket) {
    prefetch_at(b as *const Bucket as usize);
}

/// Where an insertion found or put its key.
enum Place {
    New,
    Present,
    NoRoom,
}

impl FingerprintSet {
    /// A set whose arrays never take more than `budget` bytes together
    /// (for any budget of 80 bytes or more).
    pub fn with_budget(budget: usize) -> FingerprintSet {
        let recent = (budget / 4 / RECENT_ENTRY).clamp(1, RECENT);
        // A power of two, so that a mask picks the entry.
        let recent = 1 << recent.ilog2();
        let budget = budget - recent * RECENT_ENTRY;
        let n = MIN_BUCKETS.min(budget / BUCKET).max(1);
        let buckets = buckets(n, Self::final_size(n, budget / BUCKET));
        FingerprintSet {
            buckets,
            recent_fp: vec![0; recent],
            recent_level: vec![0; recent],
            lowered: None,
            len: 0,
            budget,
            replaced: 0,
            clock: 0,
            trail: Vec::new(),
            ahead: None,
            backed: n,
            ahead_at: Self::ahead_at(n),
        }
    }

    /// The size (in buckets) the table grows to next, if it can grow. Two
    /// kinds of step: a doubling, while the budget holds the old and the
    /// doubled array together; and a last jump to all the budget leaves
    /// beside the old array (at least a quarter more), after which the
    /// table is full-sized. The jump is taken from the size that ends
    /// largest ([`Self::final_size`]), at most eightfold (a table far
    /// larger than its entries touches a page per entry). Growth is
    /// gradual because every step touches its whole new array.
    fn next_size(&self) -> Option<usize> {
        Self::step(self.buckets.len(), self.budget / BUCKET)
    }

    /// [`Self::next_size`] from `n` buckets within a budget of `b` buckets.
    fn step(n: usize, b: usize) -> Option<usize> {
        let jump = Self::jump(n, b);
        let double = (3 * n <= b).then_some(2 * n);
        match (jump, double) {
            (Some(j), Some(d)) if j <= 8 * n && j >= Self::final_size(d, b) => Some(j),
            (j, d) => d.or(j),
        }
    }

    /// The jump from `n` buckets within a budget of `b` buckets, if any.
    fn jump(n: usize, b: usize) -> Option<usize> {
        let left = b.checked_sub(n)?;
        (left >= n + n / 4).then_some(left)
    }

    /// The largest size the steps of [`Self::next_size`] reach from `n`.
    fn final_size(n: usize, b: usize) -> usize {
        let mut best = n.max(Self::jump(n, b).unwrap_or(0));
        if 3 * n <= b {
            best = best.max(Self::final_size(2 * n, b));
        }
        best
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The entries the table has room for once grown as far as its
    /// budget lets it.
    pub fn final_slots(&self) -> usize {
        let mut n = self.buckets.len();
        while let Some(m) = Self::step(n, self.budget / BUCKET) {
            n = m;
        }
        n * WAYS
    }

    /// Empties the table, keeping its arrays as they are (their pages
    /// backed): a full table refilled grows no more, and no array is
    /// dropped and taken again.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.recent_fp.fill(0);
        self.recent_level.fill(0);
        self.len = 0;
        self.lowered = None;
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What [`Self::insert_or_replace`] asks its `open` about an entry of
    /// fingerprint `fp`: the bits the entry stores (the low 116).
    pub fn open_key(fp: u128) -> u128 {
        fp & KEY
    }

    /// The fingerprint and level of every stored position; `None` for a
    /// table under 4,096 buckets, which cannot give back full fingerprints
    /// (see the module comment).
    pub fn entries(&self) -> Option<impl Iterator<Item = (u128, u8)> + '_> {
        (self.buckets.len() >= MIN_BUCKETS).then(|| entries(&self.buckets))
    }

    /// Entries overwritten by [`Self::insert_or_replace`] so far.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// Bytes held by the table now.
    pub fn bytes(&self) -> usize {
        self.bytes_with(self.backed.max(self.buckets.len()))
    }

    /// The bytes of a table whose arrays hold `buckets` buckets, beside
    /// the recent cache.
    fn bytes_with(&self, buckets: usize) -> usize {
        buckets * BUCKET + self.recent_fp.len() * RECENT_ENTRY
    }

    /// What [`Self::bytes`] may reach during the next insertion: more than
    /// now only where that insertion starts faulting in the pages of the
    /// next growth ([`Self::fault_in_ahead`]) or grows, counting the old
    /// array beside the new where it cannot grow in place. A caller that
    /// holds other memory under the same limit makes room before it.
    pub fn bytes_next(&self) -> usize {
        // As [`Self::insert_main`] decides.
        let grows = (self.len + 1) * 4 > self.slots() * 3;
        if !grows && self.len < self.ahead_at {
            return self.bytes();
        }
        let n = self.buckets.len();
        let Some(m) = self.next_size() else {
            return self.bytes();
        };
        let peak = if grows && m > self.buckets.capacity() {
            m + n
        } else if grows || (self.len >= self.ahead_at && self.faults_ahead(m)) {
            m.max(self.backed)
        } else {
            return self.bytes();
        };
        self.bytes_with(peak)
    }

    /// Bytes the table may reach (including the transient copy while it
    /// grows).
    pub fn budget_bytes(&self) -> usize {
        self.budget + self.recent_fp.len() * RECENT_ENTRY
    }

    /// Lowers the budget so that [`Self::budget_bytes`] is at most
    /// `bytes`, if the arrays held now fit in that: the table then grows
    /// only within the lower budget. Returns whether it was lowered.
    pub fn lower_budget(&mut self, bytes: usize) -> bool {
        let main = bytes.saturating_sub(self.recent_fp.len() * RECENT_ENTRY);
        if main < self.buckets.len() * BUCKET {
            return false;
        }
        self.budget = self.budget.min(main);
        // Pages faulted in ahead for a size it will no longer reach go
        // back to the system.
        if self.backed > self.next_size().unwrap_or(0).max(self.buckets.len()) {
            self.join_ahead();
            release_tail(&mut self.buckets);
            self.backed = self.buckets.len();
        }
        true
    }

    /// The count of entries from which a table of `n` buckets faults in
    /// its next size ahead: half full, a third of the way before it grows
    /// (at three quarters).
    fn ahead_at(n: usize) -> usize {
        n * WAYS / 2
    }

    /// Starts a thread that faults in (`MADV_POPULATE_WRITE`) the pages
    /// the next growth in place will add, if it is a large one, so that
    /// the growth finds them backed (see [`Self::grow`] for what a fresh
    /// page costs): on a second processor where there is one, and in a
    /// crew ([`crate::search`]) while the other threads go on (not with
    /// the table held alone). The pages are
    /// counted in [`Self::bytes`] from now on (the budget had room for
    /// them: it holds the old and the new size together). Only the kernel
    /// touches them, never a reference: the array itself reads and writes
    /// only its first `len()` buckets until [`Self::grow`] has joined the
    /// thread.
    fn fault_in_ahead(&mut self) {
        self.ahead_at = usize::MAX;
        let n = self.buckets.len();
        let Some(m) = self.next_size() else {
            return;
        };
        if !self.faults_ahead(m) {
            return;
        }
        // The pages come in as huge pages where the table's are.
        advise_huge(&mut self.buckets, m);
        let (start, len) = (
            self.buckets.as_ptr() as usize + n * BUCKET,
            (m - n) * BUCKET,
        );
        // Where the system refuses a thread, the growth faults the pages
        // in itself, as without this.
        let thread = std::thread::Builder::new()
            .name("demon-table-pages".into())
            .spawn(move || populate(start, len));
        if let Ok(h) = thread {
            self.backed = m;
            self.ahead = Some(h);
        }
    }

    /// Whether [`Self::fault_in_ahead`] faults in the pages of a growth to
    /// `m` buckets: a large one in place, on Linux, none under way.
    fn faults_ahead(&self, m: usize) -> bool {
        cfg!(target_os = "linux")
            && m <= self.buckets.capacity()
            && (m - self.buckets.len()) * BUCKET >= AHEAD_FROM
            && self.ahead.is_none()
    }

    /// Waits for the thread faulting pages in, if there is one.
    fn join_ahead(&mut self) {
        if let Some(h) = self.ahead.take() {
            // It only asks the kernel; a panic there would be a bug in
            // the standard library.
            h.join().expect("faulting pages in");
        }
    }

    /// Inserts position `fp` reached with `level` (the talon's order within
    /// its key: `crate::key::TalonView`). A position inserted before at
    /// the same or a lower level is `Present`: the lower level dominates
    /// (every line open to the new arrival was open to the earlier one,
    /// which the search explored, or is exploring above it). At a lower
    /// level than before it is `New` and the level is lowered.
    /// Asks the processor to start loading the buckets `fp` may be in,
    /// ahead of an insertion: a caller with several keys to insert at
    /// once overlaps their trips to memory.
    #[inline]
    pub fn prefetch_key(&self, fp: u128) {
        let nb = self.buckets.len();
        let b1 = home(fp, nb);
        prefetch(&self.buckets[b1]);
        if self.len * 2 > nb * WAYS {
            prefetch(&self.buckets[second_bucket(b1, fp, nb)]);
        }
    }

    pub fn insert_level(&mut self, fp: u128, level: u8) -> Insert {
        self.insert_with(fp, level, None)
    }

    /// [`Self::insert_level`], except that a full table overwrites an
    /// entry that `open` does not claim, instead of answering `Full` (see
    /// the module comment). `open` is asked with the entry's
    /// [`Self::open_key`]. `Full` only when all eight entries the new one
    /// could replace are open.
    pub fn insert_or_replace(
        &mut self,
        fp: u128,
        level: u8,
        open: &dyn Fn(u128) -> bool,
    ) -> Insert {
        self.insert_with(fp, level, Some(open))
    }

    fn insert_with(&mut self, fp: u128, level: u8, open: Option<&dyn Fn(u128) -> bool>) -> Insert {
        self.lowered = None;
        let c = (fp as usize) & (self.recent_fp.len() - 1);
        if fp != 0 && self.recent_fp[c] == fp && self.recent_level[c] <= level {
            return Insert::Present;
        }
        let out = self.insert_main(fp, level, open);
        if out != Insert::Full && fp != 0 {
            // New: stored at `level`. Present: stored at `level` or lower.
            self.recent_fp[c] = fp;
            self.recent_level[c] = level;
        }
        out
    }

    fn insert_main(&mut self, fp: u128, level: u8, open: Option<&dyn Fn(u128) -> bool>) -> Insert {
        if self.len >= self.ahead_at {
            self.fault_in_ahead();
        }
        if (self.len + 1) * 4 > self.slots() * 3 {
            if let Some(n) = self.next_size() {
                self.grow(n);
            }
        }
        loop {
            // A full-sized table that replaces entries does not walk: most
            // walks fail once it has filled, and each costs up to
            // `MAX_KICKS` trips to memory (Canfield seed 646 took 4 times
            // as long per node with them).
            let walk = open.is_none() || self.next_size().is_some();
            match self.place(fp, level, walk) {
                Place::New => return Insert::New,
                Place::Present => return Insert::Present,
                Place::NoRoom => {}
            }
            if let Some(n) = self.next_size() {
                self.grow(n);
                continue;
            }
            return match open {
                Some(open) if self.replace(fp, level, open) => Insert::New,
                _ => Insert::Full,
            };
        }
    }

    /// Entries that insertions filling an empty slot may add from now
    /// before an insertion must do more (fault the next size in ahead, or
    /// grow): what a crew's threads may add without taking the table
    /// alone ([`SharedTable`]).
    fn quiet_room(&self) -> usize {
        let grow_at = match self.next_size() {
            Some(_) => self.slots() * 3 / 4,
            None => usize::MAX,
        };
        self.ahead_at.min(grow_at).saturating_sub(self.len)
    }

    fn slots(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// Looks `fp` up; if absent, stores it, moving old entries to their
    /// other bucket to make room if need be (and `walk`).
    fn place(&mut self, fp: u128, level: u8, walk: bool) -> Place {
        let nb = self.buckets.len();
        let b1 = home(fp, nb);
        let (w1, w2) = (entry(fp, 0, false) & ID, entry(fp, 0, true) & ID);
        // A key goes to its second bucket only when its first is full, and
        // a full bucket stays full (kicks and replacements fill the slot
        // they empty), so a first bucket with room ends the search: one
        // trip to memory for most new keys.
        let mut b2 = None;
        // Past half full, most first buckets are full: fetch the second
        // bucket's line alongside the first's rather than after it.
        if self.len * 2 > nb * WAYS {
            let b = *b2.insert(second_bucket(b1, fp, nb));
            prefetch(&self.buckets[b]);
        }
        for (k, w) in [w1, w2].into_iter().enumerate() {
            let b = if k == 0 {
                b1
            } else {
                *b2.get_or_insert_with(|| second_bucket(b1, fp, nb))
            };
            for i in 0..WAYS {
                let e = self.buckets[b].0[i];
                if e == 0 {
                    self.buckets[b].0[i] = entry(fp, level, k == 1);
                    self.len += 1;
                    return Place::New;
                }
                if e & ID == w {
                    if level_of(e) <= level {
                        return Place::Present;
                    }
                    self.buckets[b].0[i] = entry(fp, level, k == 1);
                    self.lowered = Some(level_of(e));
                    return Place::New;
                }
            }
        }
        let b2 = b2.expect("both buckets read");
        if walk && self.kick(fp, level, b1, b2) {
            self.len += 1;
            return Place::New;
        }
        Place::NoRoom
    }

    /// Cuckoo insertion into two full buckets: the new entry takes an old
    /// entry's slot, which moves to its other bucket, and so on. Undone
    /// (every entry back where it was) if no room turns up within
    /// [`MAX_KICKS`] moves.
    fn kick(&mut self, fp: u128, level: u8, b1: usize, b2: usize) -> bool {
        let nb = self.buckets.len();
        let mut trail = std::mem::take(&mut self.trail);
        trail.clear();
        let (mut b, mut e) = if self.clock & 1 == 0 {
            (b1, entry(fp, level, false))
        } else {
            (b2, entry(fp, level, true))
        };
        let mut last = WAYS;
        for _ in 0..MAX_KICKS {
            self.clock = self.clock.wrapping_add(1);
            // Not the slot the previous step just filled.
            let mut i = (self.clock >> 1) as usize % WAYS;
            if i == last {
                i = (i + 1) % WAYS;
            }
            let old = std::mem::replace(&mut self.buckets[b].0[i], e);
            trail.push((b, i, old));
            let ofp = full(old, b, nb);
            let ob1 = home(ofp, nb);
            let (ob, second) = if old & SECOND != 0 {
                (ob1, false)
            } else {
                (second_bucket(ob1, ofp, nb), true)
            };
            e = entry(ofp, level_of(old), second) | (old & COST);
            if let Some(j) = self.buckets[ob].0.iter().position(|&s| s == 0) {
                self.buckets[ob].0[j] = e;
                self.trail = trail;
                return true;
            }
            last = if ob == b { i } else { WAYS };
            b = ob;
        }
        // No room: every slot gets back what it held, latest first.
        for &(b, i, old) in trail.iter().rev() {
            self.buckets[b].0[i] = old;
        }
        self.trail = trail;
        false
    }

    /// Overwrites an entry of `fp`'s two (full) buckets that `open` does
    /// not claim with `fp` at `level`; `false` if all are open. The
    /// cheapest to search again goes ([`Self::mark`]); among equals, the
    /// choice turns.
    fn replace(&mut self, fp: u128, level: u8, open: &dyn Fn(u128) -> bool) -> bool {
        let nb = self.buckets.len();
        let b1 = home(fp, nb);
        let b2 = second_bucket(b1, fp, nb);
        self.clock = self.clock.wrapping_add(1);
        let mut best: Option<(u128, usize, usize, bool)> = None;
        for k in 0..2 * WAYS {
            let j = (self.clock as usize + k) % (2 * WAYS);
            let (b, i, second) = if j < WAYS {
                (b1, j, false)
            } else {
                (b2, j - WAYS, true)
            };
            let e = self.buckets[b].0[i];
            debug_assert!(e != 0, "replacing only in full buckets");
            let cost = e & COST;
            if best.is_some_and(|(c, ..)| c <= cost) || open(e & KEY) {
                continue;
            }
            best = Some((cost, b, i, second));
            if cost == 0 {
                break;
            }
        }
        let Some((_, b, i, second)) = best else {
            return false;
        };
        self.buckets[b].0[i] = entry(fp, level, second);
        self.replaced += 1;
        true
    }

    /// Shrinks the table in place so that [`Self::bytes`] and
    /// [`Self::budget_bytes`] are at most `bytes`, forgetting the entries
    /// that no longer fit; only for a caller that may forget (as
    /// [`Self::insert_or_replace`]), and never an entry `open` claims
    /// (asked as there). Returns `false`, changing nothing, when `bytes`
    /// leaves fewer than 4,096 buckets (entries must give their fingerprint
    /// back: see the module comment) or no fewer than there are.
    ///
    /// Why: a search that forgets can still run out of memory on its path,
    /// when one deep path outgrows what the table leaves (Chameleon seed
    /// 254: 2.1 M frames deep at 69.5 M nodes, with 3.5 GB of a 4 GiB
    /// budget in the table). Shrinking gives the path room without a
    /// second array: the bucket array is rewritten from its start, and
    /// then its tail is given back.
    ///
    /// How: an entry of first bucket `b1 = ⌊h·n/2⁶⁴⌋` has its first bucket
    /// at the new size `m < n` at `⌊h·m/2⁶⁴⌋ ≤ b1`. So old buckets are read
    /// in increasing order, each emptied as it is read, and every entry is
    /// written to its new first bucket, which is at or below the one being
    /// read: already read, never one still to read. The exception is an
    /// entry in its second bucket that wrapped round the array's end
    /// (first bucket above it): its new bucket may lie above, so it is put
    /// aside if open and otherwise forgotten. A full new bucket keeps the
    /// open entries, then the costliest to search again ([`Self::mark`]).
    /// The entries put aside go back through the ordinary insertion. Every
    /// entry then lies in its new first bucket, or (put back) in its second
    /// only when its first was full: the invariant lookups rely on.
    pub fn shrink(&mut self, bytes: usize, open: &dyn Fn(u128) -> bool) -> bool {
        let main = bytes.saturating_sub(self.recent_fp.len() * RECENT_ENTRY);
        let n = self.buckets.len();
        let m = main / BUCKET;
        if m < MIN_BUCKETS || m >= n {
            return false;
        }
        let old_len = self.len;
        // (fingerprint, level, cost bits) of open entries put aside.
        let mut aside: Vec<(u128, u8, u128)> = Vec::new();
        for b in 0..n {
            let old = std::mem::take(&mut self.buckets[b]);
            for &e in old.0.iter().take_while(|&&e| e != 0) {
                let fp = full(e, b, n);
                let nb = home(fp, m);
                let is_open = open(e & KEY);
                if nb > b {
                    if is_open {
                        aside.push((fp, level_of(e), e & COST));
                    }
                    continue;
                }
                let ne = entry(fp, level_of(e), false) | (e & COST);
                let slots = &mut self.buckets[nb].0;
                if let Some(i) = slots.iter().position(|&s| s == 0) {
                    slots[i] = ne;
                    continue;
                }
                // Full: the least worth keeping goes, if it is worth less.
                let rank = |s: u128| (open(s & KEY), s & COST);
                let (i, worst) = slots
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| (i, rank(s)))
                    .min_by_key(|&(_, r)| r)
                    .expect("a full bucket");
                if !worst.0 && (is_open, e & COST) > worst {
                    slots[i] = ne;
                } else if is_open {
                    aside.push((fp, level_of(e), e & COST));
                }
            }
        }
        self.join_ahead();
        self.buckets.truncate(m);
        // Not `shrink_to_fit`: for an array aligned to 64 bytes the system
        // allocator's realloc is a new allocation and a copy, both arrays
        // alive (Chameleon seed 254 at 4 GiB peaked at 5.6 GB so). The
        // tail's pages go back to the system instead; its address range
        // stays reserved, never touched again (the table never grows after
        // a shrink).
        release_tail(&mut self.buckets);
        self.budget = m * BUCKET;
        self.backed = m;
        self.len = self
            .buckets
            .iter()
            .map(|b| b.0.iter().filter(|&&e| e != 0).count())
            .sum();
        for (fp, level, cost) in aside {
            let kept = self.place_open(fp, level, cost, open);
            // Never seen in the tests; it would cost a subtree searched
            // twice, not a verdict (see the module comment).
            debug_assert!(kept, "an open entry found no room");
        }
        self.replaced += (old_len - self.len) as u64;
        true
    }

    /// Stores `fp`, not in the table and claimed by `open`, with its level
    /// and cost bits: in an empty slot of its buckets (its first bucket
    /// first), else in place of the cheapest entry there that `open` does
    /// not claim (forgotten), else by moving an open entry of its buckets
    /// to that entry's other bucket and storing that one so in turn (a
    /// cuckoo walk that only ever forgets an entry not open). An entry
    /// lands in its second bucket only when its first is full. `false`
    /// (the entry held last is forgotten) if [`MAX_KICKS`] moves find no
    /// room: every bucket on the walk full of open entries. The caller
    /// counts what is forgotten (by the entries' count).
    fn place_open(&mut self, fp: u128, level: u8, cost: u128, open: &dyn Fn(u128) -> bool) -> bool {
        let nb = self.buckets.len();
        let (mut fp, mut e) = (fp, entry(fp, level, false) | cost);
        // The bucket the entry held was just moved out of.
        let mut from = usize::MAX;
        for _ in 0..MAX_KICKS {
            let b1 = home(fp, nb);
            let b2 = second_bucket(b1, fp, nb);
            let choices: SmallBuckets = if from == b1 {
                [Some(b2), None]
            } else if from == b2 {
                [Some(b1), None]
            } else {
                [Some(b1), Some(b2)]
            };
            let with_flag = |e: u128, b: usize| (e & !SECOND) | if b == b2 { SECOND } else { 0 };
            for b in choices.into_iter().flatten() {
                if let Some(i) = self.buckets[b].0.iter().position(|&s| s == 0) {
                    self.buckets[b].0[i] = with_flag(e, b);
                    self.len += 1;
                    return true;
                }
            }
            let cheapest = choices
                .into_iter()
                .flatten()
                .flat_map(|b| (0..WAYS).map(move |i| (b, i)))
                .filter(|&(b, i)| !open(self.buckets[b].0[i] & KEY))
                .min_by_key(|&(b, i)| self.buckets[b].0[i] & COST);
            if let Some((b, i)) = cheapest {
                self.buckets[b].0[i] = with_flag(e, b);
                return true;
            }
            // Every slot open: move one on.
            self.clock = self.clock.wrapping_add(1);
            let b = choices[1].unwrap_or(choices[0].expect("a bucket"));
            let i = (self.clock >> 1) as usize % WAYS;
            let old = std::mem::replace(&mut self.buckets[b].0[i], with_flag(e, b));
            fp = full(old, b, nb);
            e = old;
            from = b;
        }
        false
    }

    /// Records that exploring position `fp` cost about `class` (0 to 3;
    /// the caller's scale), if it is stored and its class is lower. A full
    /// table that replaces entries replaces the lowest class first: a
    /// position that cost little to explore costs little to explore again.
    pub fn mark(&mut self, fp: u128, class: u8) {
        let c = (class.min(3) as u128) << COST_SHIFT;
        if let Some((b, i)) = self.find(fp) {
            let e = &mut self.buckets[b].0[i];
            if *e & COST < c {
                *e = (*e & !COST) | c;
            }
        }
    }

    /// Whether the last insertion answered `New` only by lowering the
    /// level of a stored position, and the level it had: the position was
    /// explored (or is being explored) at that level.
    pub fn lowered_from(&self) -> Option<u8> {
        self.lowered
    }

    /// Whether position `fp` is stored (at any level).
    pub fn contains(&self, fp: u128) -> bool {
        self.find(fp).is_some()
    }

    /// Where position `fp` is stored: its bucket and slot.
    fn find(&self, fp: u128) -> Option<(usize, usize)> {
        let nb = self.buckets.len();
        let b1 = home(fp, nb);
        let b2 = second_bucket(b1, fp, nb);
        let (w1, w2) = (entry(fp, 0, false) & ID, entry(fp, 0, true) & ID);
        [(b1, w1), (b2, w2)].into_iter().find_map(|(b, w)| {
            let i = self.buckets[b].0.iter().position(|&e| e & ID == w)?;
            Some((b, i))
        })
    }

    /// Inserts `fp` at level 0.
    pub fn insert(&mut self, fp: u128) -> Insert {
        self.insert_level(fp, 0)
    }

    /// Grows the table to `m` buckets: in place when its array has the
    /// room (see [`buckets`]), else into a new array.
    ///
    /// In place: an entry of first bucket `b = ⌊h·n/2⁶⁴⌋` has its first
    /// bucket at the new size `m > n` at `⌊h·m/2⁶⁴⌋ ≥ b`: the mirror of
    /// [`Self::shrink`]. So old buckets are read in decreasing order, each
    /// emptied as it is read, and every entry in its first bucket is
    /// written to its new first bucket, which is at or above the one being
    /// read: already read (or new), never one still to read. An entry in
    /// its second bucket whose new first bucket lies at or above is
    /// written there the same way. The others (new first bucket below, or
    /// full) are put aside and go back through the ordinary insertion once
    /// every bucket is read. So every entry lies in its new first bucket,
    /// or in its second only when its first was full: the invariant
    /// lookups rely on. Why: a new array is memory touched for the first
    /// time, which costs the kernel a page fault and a page cleared per
    /// page (and a virtual machine's host one of its own: on this
    /// project's test machine 2 s for 512 MiB of fresh huge pages, 0.08 s
    /// for pages the process had already used); in place only the added
    /// part is new.
    fn grow(&mut self, m: usize) {
        self.join_ahead();
        self.ahead_at = Self::ahead_at(m);
        self.backed = self.backed.max(m);
        let n = self.buckets.len();
        if m > self.buckets.capacity() {
            let old = std::mem::replace(&mut self.buckets, buckets(m, m));
            self.len = 0;
            for (b, bucket) in old.iter().enumerate() {
                for &e in bucket.0.iter().take_while(|&&e| e != 0) {
                    self.replant(full(e, b, n), e);
                }
            }
            return;
        }
        advise_huge(&mut self.buckets, m);
        self.buckets.resize(m, Bucket::default());
        // (fingerprint, entry) of the entries put aside.
        let mut aside: Vec<(u128, u128)> = Vec::new();
        for b in (0..n).rev() {
            let old = std::mem::take(&mut self.buckets[b]);
            for &e in old.0.iter().take_while(|&&e| e != 0) {
                let fp = full(e, b, n);
                let t = home(fp, m);
                if t >= b {
                    let slots = &mut self.buckets[t].0;
                    if let Some(i) = slots.iter().position(|&s| s == 0) {
                        slots[i] = entry(fp, level_of(e), false) | (e & COST);
                        continue;
                    }
                }
                aside.push((fp, e));
            }
        }
        self.len -= aside.len();
        for (fp, e) in aside {
            self.replant(fp, e);
        }
    }

    /// Stores again position `fp`, whose entry was `e` before the table
    /// grew, with its level and cost.
    fn replant(&mut self, fp: u128, e: u128) {
        // At most 60 % full after a step, so a failure here is not
        // expected (the tests fill tables to 93 %). If one came, the entry
        // would be forgotten: sound (see the module comment), and at worst
        // one position is searched twice (it is stored again when met
        // again).
        let placed = self.place(fp, level_of(e), true);
        debug_assert!(matches!(placed, Place::New));
        if e & COST != 0 {
            if let Some((b, i)) = self.find(fp) {
                self.buckets[b].0[i] |= e & COST;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_levels_reopen_a_position() {
        let mut t = FingerprintSet::with_budget(1 << 20);
        let fp = 0xDEAD_BEEF_0000_0000_0000_0000_0000_0042u128;
        assert_eq!(t.insert_level(fp, 2), Insert::New);
        assert_eq!(t.insert_level(fp, 2), Insert::Present);
        assert_eq!(t.insert_level(fp, 3), Insert::Present);
        assert_eq!(t.insert_level(fp, 1), Insert::New, "a lower level");
        assert_eq!(t.insert_level(fp, 2), Insert::Present);
        assert_eq!(t.len(), 1);
        assert_eq!(t.insert_level(fp ^ (1 << 100), 5), Insert::New);
        assert_eq!(t.len(), 2);
    }

    /// All 128 bits count: fingerprints that differ only in the bits an
    /// entry does not store (the top 12), or only in the low bits, are
    /// different positions, in the main table and in the recent cache.
    #[test]
    fn every_bit_of_the_fingerprint_counts() {
        let fp = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
        for bit in 0..128 {
            // A table each: most of these share their two buckets.
            let mut t = FingerprintSet::with_budget(1 << 20);
            assert!(t.buckets.len() >= 1 << 12);
            assert_eq!(t.insert(fp), Insert::New);
            let other = fp ^ (1 << bit);
            assert!(!t.contains(other), "bit {bit}");
            assert_eq!(t.insert(other), Insert::New, "bit {bit}");
            assert_eq!(t.insert(other), Insert::Present, "bit {bit}");
            assert_eq!(t.len(), 2);
            assert!(t.contains(fp));
        }
    }

    /// The bucket and the stored bits give the whole fingerprint back, in
    /// either of its buckets, at any table size from 4,096 buckets.
    #[test]
    fn entries_give_their_fingerprint_back() {
        let mut x = 7u128;
        for nb in [1 << 12, 4000 * 3 + 17, 1 << 16, 123_457] {
            for _ in 0..2000 {
                x = next(x);
                let b1 = home(x, nb);
                assert_eq!(full(entry(x, 9, false), b1, nb), x);
                let b2 = second_bucket(b1, x, nb);
                assert_ne!(b1, b2);
                assert_eq!(full(entry(x, 9, true), b2, nb), x);
            }
        }
    }

    /// The recent-entry cache at full size, as budgets of 1.1 MiB or more
    /// get.
    const RECENT_BYTES: usize = RECENT * RECENT_ENTRY;

    /// A small budget (a best-first probe's table under `--max-memory 1M`
    /// gets 32 KiB) holds the cache and the table together.
    #[test]
    fn small_budgets_hold_cache_and_table() {
        for budget in [81, 1000, 32 << 10, 300 << 10] {
            let mut t = FingerprintSet::with_budget(budget);
            let n = fill(&mut t, 3, |t, _| assert!(t.bytes() <= budget));
            assert!(
                t.bytes() <= budget && t.budget_bytes() <= budget,
                "{budget}"
            );
            assert_eq!(n, t.len());
        }
    }

    fn next(x: u128) -> u128 {
        x.wrapping_mul(0x2545_F491_4F6C_DD1D_2545_F491_4F6C_DD1D)
            .wrapping_add(1442695040888963407)
    }

    /// Inserts pseudo-random fingerprints from `seed` until the table is
    /// full, calling `after` with each new one; returns how many went in.
    fn fill(
        t: &mut FingerprintSet,
        seed: u128,
        mut after: impl FnMut(&mut FingerprintSet, u128),
    ) -> usize {
        let mut x = seed;
        let mut n = 0usize;
        loop {
            x = next(x);
            match t.insert(x) {
                Insert::New => n += 1,
                Insert::Present => panic!("spurious duplicate"),
                Insert::Full => return n,
            }
            after(t, x);
        }
    }

    /// A growth in place (into the room reserved beside the array) keeps
    /// every position with its level and cost, leaves the array where it
    /// is, and faults the 8 MiB it adds in ahead once the table is half
    /// full; a growth into a new array (no room reserved) keeps them the
    /// same way.
    #[test]
    fn growing_keeps_levels_and_costs() {
        let cost = |x: u128| 1 + (x >> 3) as u8 % 3;
        for reserved in [true, false] {
            let mut t = FingerprintSet::with_budget(96 << 20);
            if !reserved {
                t.buckets.shrink_to_fit();
            }
            let at = t.buckets.as_ptr();
            let (mut x, mut all, mut ahead) = (99u128, Vec::new(), false);
            while t.buckets.len() < (16 << 20) / BUCKET {
                x = next(x);
                let level = (x >> 7) as u8 % 5;
                assert_eq!(t.insert_level(x, level), Insert::New);
                if all.len() % 7 == 0 {
                    t.mark(x, cost(x));
                }
                all.push((x, level));
                ahead |= t.ahead.is_some() && t.bytes() == (16 << 20) + RECENT_BYTES;
            }
            assert_eq!((t.buckets.as_ptr() == at, ahead), (reserved, reserved));
            kept(&mut t, &all, |i, x| if i % 7 == 0 { cost(x) } else { 0 });
        }
    }

    /// Every position of `all` (fingerprint, level) is stored once, with
    /// its level and the cost `cost(i, x)`, in its first bucket or in its
    /// second only when its first is full (what `place` relies on), and
    /// nothing else is stored.
    fn kept(t: &mut FingerprintSet, all: &[(u128, u8)], cost: impl Fn(usize, u128) -> u8) {
        assert_eq!(t.len(), all.len());
        let nb = t.buckets.len();
        let used: usize = t
            .buckets
            .iter()
            .map(|b| b.0.iter().filter(|&&e| e != 0).count())
            .sum();
        assert_eq!(used, all.len());
        for (i, &(x, level)) in all.iter().enumerate() {
            let (b, s) = t.find(x).expect("kept");
            let e = t.buckets[b].0[s];
            assert_eq!(
                (level_of(e), (e >> COST_SHIFT) as u8 & 3),
                (level, cost(i, x))
            );
            if e & SECOND != 0 {
                assert!(t.buckets[home(x, nb)].0.iter().all(|&s| s != 0));
            }
            assert_eq!(t.insert_level(x, level), Insert::Present);
        }
    }

    /// A table filled until full holds no more than its final slots, and
    /// most of them: what a resumed layered search sizes its rebuild by.
    #[test]
    fn final_slots_bound_a_full_table() {
        for budget in [1 << 20, 3 << 20, 10 << 20] {
            let mut t = FingerprintSet::with_budget(budget);
            let slots = t.final_slots();
            let mut x = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834u128;
            while t.insert_level(x, 0) != Insert::Full {
                x = x.wrapping_mul(0x2545_F491_4F6C_DD1D_0000_0000_0000_0001) ^ (x >> 61);
            }
            assert_eq!(t.final_slots(), slots, "{budget}");
            assert!(
                t.len() <= slots && t.len() * 10 >= slots * 8,
                "{budget}: {} of {slots}",
                t.len()
            );
        }
    }

    /// Growing in place by any factor the sizes take (a last jump can be
    /// from a quarter more to eightfold) keeps every position where
    /// lookups find it, with its level and cost.
    #[test]
    fn growing_in_place_by_any_factor() {
        let mut t = FingerprintSet::with_budget(96 << 20);
        let at = t.buckets.as_ptr();
        let (mut x, mut all) = (5u128, Vec::new());
        // 70 % of 4,096 buckets: short of a growth.
        while all.len() < 11_500 {
            x = next(x);
            let level = (x >> 9) as u8 % 7;
            assert_eq!(t.insert_level(x, level), Insert::New);
            t.mark(x, (x >> 20) as u8 % 4);
            all.push((x, level));
        }
        assert_eq!(t.buckets.len(), 4096);
        for m in [5120, 7680, 23_040, 149_760] {
            t.grow(m);
            assert_eq!((t.buckets.len(), t.buckets.as_ptr()), (m, at));
            kept(&mut t, &all, |_, x| (x >> 20) as u8 % 4);
        }
    }

    /// Pages faulted in ahead for a growth go back when the budget is
    /// lowered below that growth, and stop counting.
    #[test]
    fn a_lowered_budget_gives_back_pages_faulted_in_ahead() {
        let mut t = FingerprintSet::with_budget(96 << 20);
        let mut x = 11u128;
        while t.ahead.is_none() {
            x = next(x);
            assert_eq!(t.insert(x), Insert::New);
        }
        let array = t.buckets.len() * BUCKET + RECENT_BYTES;
        assert_eq!(t.bytes(), 2 * array - RECENT_BYTES);
        assert!(t.lower_budget(array + BUCKET));
        assert!(t.ahead.is_none() && t.next_size().is_none());
        assert_eq!(t.bytes(), array);
        assert!(t.budget_bytes() <= array + BUCKET);
    }

    /// The last growth takes what the budget leaves beside the old array,
    /// jumping from the size that ends largest, so most of the budget ends
    /// as table; and the table fills to 94 % of it or more before it is full
    /// (93.5-94.8 % over seeds 1-7).
    #[test]
    fn large_budgets_are_mostly_table() {
        let budget = 90 << 20;
        let mut t = FingerprintSet::with_budget(budget);
        let n = fill(&mut t, 7, |t, _| assert!(t.bytes() <= budget));
        // 89.73 MiB for the table: doubling to 32 MiB would end at 57.73
        // (what is left beside it); jumping from 16 MiB ends at 73.73.
        let buckets = (budget - RECENT_BYTES - (16 << 20)) / BUCKET;
        assert_eq!(t.bytes(), buckets * BUCKET + RECENT_BYTES);
        let slots = buckets * WAYS;
        assert!(n * 100 >= slots * 94, "{n} of {slots}");
        // 4 GiB less a search's path: 3.25 of 3.75 GiB, jumping from 0.5.
        let b = ((4usize << 30) - (256 << 20)) / BUCKET;
        let mut sizes = vec![MIN_BUCKETS];
        while let Some(next) = FingerprintSet::step(*sizes.last().unwrap(), b) {
            sizes.push(next);
        }
        assert_eq!(sizes[sizes.len() - 2], 1 << 23, "{sizes:?}");
        assert_eq!(*sizes.last().unwrap(), b - (1 << 23), "{sizes:?}");
        // Small budgets still double all the way (no jump past eightfold).
        assert_eq!(FingerprintSet::step(MIN_BUCKETS, b), Some(2 * MIN_BUCKETS));
    }

    #[test]
    fn inserts_grow_and_fill_up_within_budget() {
        let mut t = FingerprintSet::with_budget(1 << 20); // 1 MiB
        let mut all = Vec::new();
        let n = fill(&mut t, 0x1234_5678_9abc_def0, |t, x| {
            assert_eq!(t.insert(x), Insert::Present);
            assert!(t.bytes() <= 1 << 20);
            all.push(x);
        });
        assert_eq!(n, t.len());
        // (1 MiB - a recent cache of 8,192 entries) / 64 bytes = 14,208
        // buckets, too few to double from 4,096 with both arrays alive:
        // the jump to 10,112.
        assert_eq!(t.bytes(), 10112 * BUCKET + 8192 * RECENT_ENTRY);
        assert!(n * 100 >= 10112 * WAYS * 95, "{n}");
        // A failed insertion (its moves undone) lost nothing.
        assert!(all.iter().all(|&x| t.contains(x)));
        assert!(t.budget_bytes() <= 1 << 20);
        // Cleared, it holds none of them, and fills again as full in the
        // same bytes.
        t.clear();
        assert!(t.is_empty() && !all.iter().any(|&x| t.contains(x)));
        let again = fill(&mut t, 0x1234_5678_9abc_def0, |_, _| {});
        assert_eq!(t.bytes(), 10112 * BUCKET + 8192 * RECENT_ENTRY);
        assert!(again * 100 >= 10112 * WAYS * 95, "{again}");
        assert!(all[..again].iter().all(|&x| t.contains(x)));
    }

    /// [`FingerprintSet::bytes_next`] foresees every growth of the bytes:
    /// after an insertion they are never more than it said before it, and
    /// it says more than [`FingerprintSet::bytes`] only before a growth or
    /// the pages of one faulted in ahead (a layered search writes its
    /// buffers to disk then, to make room).
    #[test]
    fn bytes_next_foresees_each_growth() {
        let mut t = FingerprintSet::with_budget(32 << 20);
        let (mut warned, mut grew) = (0, Vec::new());
        let mut x = 77u128;
        loop {
            x = next(x);
            let (now, said) = (t.bytes(), t.bytes_next());
            if t.insert(x) == Insert::Full {
                break;
            }
            assert!(t.bytes() <= said, "{} after, {said} said", t.bytes());
            if said > now {
                warned += 1;
            }
            if t.bytes() > now {
                grew.push(t.bytes());
            }
        }
        // Four doublings from 4,096 buckets to 65,536 (each size with the
        // recent cache's 278,528 bytes), then the jump to 454,400, the rest
        // of the budget, its pages faulted in ahead when the table is half
        // full: each foreseen, and nothing else.
        assert_eq!(grew, [802_816, 1_327_104, 2_375_680, 4_472_832, 29_360_128]);
        assert_eq!(warned, grew.len());
        assert_eq!(t.len(), 1_721_007);
    }

    /// A full table asked to replace keeps every entry `open` claims and
    /// takes every new fingerprint, within the same bytes.
    #[test]
    fn a_full_table_replaces_only_closed_entries() {
        let mut t = FingerprintSet::with_budget(1 << 20);
        let mut all = Vec::new();
        let n = fill(&mut t, 99, |_, x| all.push(x));
        let bytes = t.bytes();
        // Every tenth entry is "on a path" (all eight candidates of one
        // insertion are then open with chance 10⁻⁸).
        let open: std::collections::HashSet<u128> = all.iter().copied().step_by(10).collect();
        let keys: std::collections::HashSet<u128> =
            open.iter().map(|&f| FingerprintSet::open_key(f)).collect();
        let is_open = |k: u128| keys.contains(&k);
        let mut x = 12345u128;
        for _ in 0..n {
            x = next(x);
            assert_eq!(t.insert_or_replace(x, 0, &is_open), Insert::New);
            assert!(t.contains(x));
        }
        // A full table still takes some entries without replacing (a
        // cuckoo walk that failed once can succeed for another key).
        assert_eq!(t.len() as u64 + t.replaced(), 2 * n as u64);
        assert!(t.replaced() > n as u64 * 9 / 10, "{}", t.replaced());
        assert_eq!(t.bytes(), bytes);
        assert!(open.iter().all(|&f| t.contains(f)));
        // With every entry open there is nothing to replace.
        let mut t = FingerprintSet::with_budget(1 << 16);
        fill(&mut t, 5, |_, _| ());
        let full = (1..=1000u128)
            .filter(|&x| t.insert_or_replace(x, 0, &|_| true) == Insert::Full)
            .count();
        assert!(full > 900, "{full}");
        assert_eq!(t.replaced(), 0);
    }

    /// Shrinking keeps every open entry and, where a new bucket overflows,
    /// the costliest; forgets the rest; invents nothing; and leaves a
    /// table that looks up, inserts and replaces as before, within the
    /// smaller bytes.
    #[test]
    fn shrinking_keeps_open_and_costly_entries() {
        let budget = 4 << 20;
        let mut t = FingerprintSet::with_budget(budget);
        let mut all = Vec::new();
        let n = fill(&mut t, 31, |_, x| all.push(x));
        assert_eq!(n, all.len());
        // Every fifth entry costly.
        for &x in all.iter().filter(|&&x| x % 5 == 0) {
            t.mark(x, 3);
        }
        let open: std::collections::HashSet<u128> = all.iter().copied().step_by(7).collect();
        let keys: std::collections::HashSet<u128> =
            open.iter().map(|&f| FingerprintSet::open_key(f)).collect();
        let is_open = |k: u128| keys.contains(&k);
        // Too small (under 4,096 buckets), or not smaller: nothing done.
        assert!(!t.shrink(200 << 10, &is_open));
        assert!(!t.shrink(t.bytes(), &is_open));
        assert_eq!(t.len(), n);
        let target = t.bytes() * 2 / 5;
        assert!(t.shrink(target, &is_open));
        assert!(t.bytes() <= target && t.budget_bytes() <= target);
        let lost = open.iter().filter(|&&f| !t.contains(f)).count();
        assert_eq!(lost, 0, "open entries forgotten, of {}", open.len());
        let stored: std::collections::HashSet<u128> =
            t.entries().expect("large enough").map(|(f, _)| f).collect();
        assert_eq!(stored.len(), t.len());
        let inserted: std::collections::HashSet<u128> = all.iter().copied().collect();
        assert!(
            stored.iter().all(|f| inserted.contains(f)),
            "an entry invented"
        );
        assert!(all.iter().all(|&x| t.contains(x) == stored.contains(&x)));
        assert_eq!(t.len() as u64 + t.replaced(), n as u64);
        // The costly (marked 3, not open) entries are kept well over their
        // share of the whole (a fifth), as overflowing buckets spare them.
        let costly = all.iter().filter(|&&x| x % 5 == 0 && !open.contains(&x));
        let (kept, total) =
            costly.fold((0, 0), |(k, n), &x| (k + usize::from(t.contains(x)), n + 1));
        let share = t.len() as f64 / n as f64;
        assert!(
            kept as f64 / total as f64 > share + 0.2,
            "{kept} of {total}, share {share}"
        );
        // Kept entries are found as present.
        assert!(stored
            .iter()
            .all(|&f| t.insert_level(f, 0) == Insert::Present));
        // Full again, it forgets what is not open, and grows no more
        // (fewer open now: with a third of the slots open, one insertion
        // in 15,000 finds all eight candidates open).
        let open: Vec<u128> = all.iter().copied().step_by(7 * 8).collect();
        let keys: std::collections::HashSet<u128> =
            open.iter().map(|&f| FingerprintSet::open_key(f)).collect();
        let is_open = |k: u128| keys.contains(&k);
        let bytes = t.bytes();
        let mut x = 777u128;
        for _ in 0..n {
            x = next(x);
            assert_eq!(t.insert_or_replace(x, 0, &is_open), Insert::New);
            assert!(t.contains(x));
        }
        assert_eq!(t.bytes(), bytes);
        assert!(open.iter().all(|&f| t.contains(f)));
    }

    /// A full table replaces the cheapest entry first: in a one-bucket
    /// table, the one entry not marked goes.
    #[test]
    fn replacing_spares_costly_positions() {
        let mut t = FingerprintSet::with_budget(81);
        assert_eq!(t.buckets.len(), 1);
        let keys: Vec<u128> = (1..=4u128).map(|k| k << 100 | k).collect();
        for &k in &keys {
            assert_eq!(t.insert(k), Insert::New);
        }
        for &k in &keys[..3] {
            t.mark(k, 1 + k as u8 % 3);
        }
        assert_eq!(t.insert_or_replace(99, 0, &|_| false), Insert::New);
        assert!(keys[..3].iter().all(|&k| t.contains(k)));
        assert!(!t.contains(keys[3]) && t.contains(99));
        // Then the cheapest marked one (class 1: key 3) goes, as 99 is open.
        assert_eq!(t.insert_or_replace(98, 0, &|k| k == 99), Insert::New);
        assert!(!t.contains(keys[2]) && t.contains(keys[0]) && t.contains(keys[1]));
    }

    /// Threads sharing a table ([`SharedTable`]), each arriving at the same
    /// positions in its own order and at levels of its own, the quick way
    /// when it can and alone when it cannot (the table grows from 4,096
    /// buckets to over 16 times that meanwhile, filling past half before
    /// each growth, so entries are moved): each position is stored once, by one thread,
    /// at the least level any arrival had, and a lowered level is reported
    /// with the level it had.
    #[test]
    fn a_shared_table_stores_each_position_once() {
        // A power of two, so that every odd stride visits every position.
        const N: usize = 1 << 17;
        const THREADS: usize = 3;
        let mut keys = vec![0u128; N];
        let mut x = 17u128;
        for k in keys.iter_mut() {
            x = next(x);
            *k = x;
        }
        let level = |t: usize, i: usize| ((keys[i] >> 9) as u8).wrapping_add((t * i) as u8) % 4;
        let (shared, tickets) = SharedTable::new(FingerprintSet::with_budget(8 << 20), THREADS);
        // Per thread: (first stores, lowerings, quick answers).
        let counts: Vec<(usize, usize, usize)> = std::thread::scope(|s| {
            let runs: Vec<_> = tickets
                .into_iter()
                .enumerate()
                .map(|(t, mut ticket)| {
                    let (shared, keys, level) = (&shared, &keys, &level);
                    s.spawn(move || {
                        let (mut stored, mut lowered, mut quick) = (0, 0, 0);
                        for j in 0..N {
                            // Thread t visits i = j * (2t + 1) mod N, a permutation.
                            let i = j * (2 * t + 1) % N;
                            let (fp, l) = (keys[i], level(t, i));
                            let (new, low) = match shared.enter(&mut ticket, fp, l, || None) {
                                Some(Quick::Present) => {
                                    quick += 1;
                                    (false, None)
                                }
                                Some(Quick::New { lowered, covered }) => {
                                    assert!(!covered);
                                    quick += 1;
                                    (true, lowered)
                                }
                                None => {
                                    let mut a = shared.alone();
                                    let r = a.insert_level(fp, l);
                                    assert_ne!(r, Insert::Full);
                                    (r == Insert::New, a.lowered_from())
                                }
                            };
                            if let Some(was) = low {
                                assert!(was > l, "lowered from {was} to {l}");
                                lowered += 1;
                            } else if new {
                                stored += 1;
                            }
                        }
                        (stored, lowered, quick)
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert_eq!(counts.iter().map(|c| c.0).sum::<usize>(), N, "{counts:?}");
        // Most arrivals went the quick way; some could not.
        let quick: usize = counts.iter().map(|c| c.2).sum();
        assert!(
            quick > THREADS * N * 9 / 10 && quick < THREADS * N,
            "{counts:?}"
        );
        let mut t = shared.alone();
        assert!(t.buckets.len() > 16 * MIN_BUCKETS, "{}", t.buckets.len());
        let all: Vec<(u128, u8)> = (0..N)
            .map(|i| (keys[i], (0..THREADS).map(|t| level(t, i)).min().unwrap()))
            .collect();
        kept(&mut t, &all, |_, _| 0);
    }

    /// A quick insertion reports its position covered only when the cover
    /// was stored before it (a position is not its own cover), and asks
    /// for the cover only for a position it stores.
    #[test]
    fn a_quick_insertion_asks_for_its_cover_before_storing() {
        let (shared, tickets) = SharedTable::new(FingerprintSet::with_budget(1 << 20), 2);
        let [mut a, mut b] = <[Ticket; 2]>::try_from(tickets).unwrap();
        let (c, x, y, z) = (next(1), next(2), next(3), next(5));
        assert_eq!(shared.alone().insert(c), Insert::New);
        let new = |covered| Quick::New {
            lowered: None,
            covered,
        };
        assert_eq!(shared.enter(&mut a, x, 1, || Some(c)), Some(new(true)));
        assert_eq!(
            shared.enter(&mut b, y, 1, || Some(next(4))),
            Some(new(false))
        );
        assert_eq!(shared.enter(&mut b, z, 1, || Some(z)), Some(new(false)));
        let asked = std::cell::Cell::new(false);
        let cover = || {
            asked.set(true);
            Some(c)
        };
        assert_eq!(shared.enter(&mut b, x, 2, cover), Some(Quick::Present));
        assert!(!asked.get());
        let lowered = Quick::New {
            lowered: Some(1),
            covered: true,
        };
        assert_eq!(shared.enter(&mut b, x, 0, || Some(c)), Some(lowered));
        assert_eq!(shared.alone().len(), 4);
    }

    /// A panic inside a quick operation (in its `cover`) leaves the table
    /// usable: the lane is not left busy, so the table can be taken alone.
    #[test]
    fn a_panic_in_a_quick_operation_leaves_the_table_usable() {
        let (shared, tickets) = SharedTable::new(FingerprintSet::with_budget(1 << 20), 1);
        let mut t = tickets.into_iter().next().unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shared.enter(&mut t, next(7), 0, || panic!("in the cover"))
        }));
        assert!(r.is_err());
        assert_eq!(shared.alone().insert(next(8)), Insert::New);
    }
}
