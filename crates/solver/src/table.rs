//! The transposition table: a set of 128-bit position fingerprints in one
//! open-addressed array, sized in bytes.
//!
//! Each stored position costs 16 bytes (one `u128`; Solvitaire's cache
//! costs about 300). The table starts small and doubles, and last grows to
//! what the budget leaves beside the old array. It
//! never grows past its byte budget, counting the old and the new array
//! both alive while it grows. When it is full the search stops UNKNOWN,
//! never out of memory.

/// Outcome of an insertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    New,
    Present,
    /// The table is at its budget and too full to take more.
    Full,
}

pub struct FingerprintSet {
    slots: Vec<u128>,
    /// A small direct-mapped copy of recently inserted or found entries,
    /// which stays in the processor's cache: most transpositions in a
    /// depth-first search meet close in time, and this answers them without
    /// a trip to main memory. It only ever holds (key, level) pairs that
    /// the main table holds at that level or lower (levels only go down),
    /// so a hit here at a level at or below the caller's is `Present` in
    /// the main table too.
    recent: Vec<u128>,
    len: usize,
    /// Bytes the main array may take, counting the old and the new array
    /// both alive while it grows.
    budget: usize,
}

const ENTRY: usize = std::mem::size_of::<u128>();
const _: () = assert!(ENTRY == 16);
const MIN_SLOTS: usize = 1 << 14;
/// Entries of the recent-entry cache at most (256 KiB); it takes at most a
/// quarter of a small budget.
const RECENT: usize = 1 << 14;

impl FingerprintSet {
    /// A set whose arrays never take more than `budget` bytes together
    /// (for any budget of 64 bytes or more).
    pub fn with_budget(budget: usize) -> FingerprintSet {
        let recent = (budget / 4 / ENTRY).clamp(1, RECENT);
        // A power of two, so that a mask picks the entry.
        let recent = 1 << recent.ilog2();
        let budget = budget - recent * ENTRY;
        FingerprintSet {
            slots: vec![0; MIN_SLOTS.min(budget / ENTRY).max(1)],
            recent: vec![0; recent],
            len: 0,
            budget,
        }
    }

    /// The size the table grows to next, if it can grow. Two kinds of
    /// step: a doubling, while the budget holds the old and the doubled
    /// array together; and a last jump to all the budget leaves beside the
    /// old array (at least a quarter more), after which the table is
    /// full-sized. The jump is taken from the size that ends largest
    /// ([`Self::final_size`]), at most eightfold (a table far larger than
    /// its entries touches a page per entry). Growth is gradual because
    /// every step touches its whole new array.
    fn next_size(&self) -> Option<usize> {
        Self::step(self.slots.len(), self.budget / ENTRY)
    }

    /// [`Self::next_size`] from `n` slots within a budget of `b` slots.
    fn step(n: usize, b: usize) -> Option<usize> {
        let jump = Self::jump(n, b);
        let double = (3 * n <= b).then_some(2 * n);
        match (jump, double) {
            (Some(j), Some(d)) if j <= 8 * n && j >= Self::final_size(d, b) => Some(j),
            (j, d) => d.or(j),
        }
    }

    /// The jump from `n` slots within a budget of `b` slots, if any.
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

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the table now.
    pub fn bytes(&self) -> usize {
        (self.slots.len() + self.recent.len()) * ENTRY
    }

    /// Bytes the table may reach (including the transient copy while it
    /// grows).
    pub fn budget_bytes(&self) -> usize {
        self.budget + self.recent.len() * ENTRY
    }

    /// Lowers the budget so that [`Self::budget_bytes`] is at most
    /// `bytes`, if the arrays held now fit in that: the table then grows
    /// only within the lower budget. Returns whether it was lowered.
    pub fn lower_budget(&mut self, bytes: usize) -> bool {
        let main = bytes.saturating_sub(self.recent.len() * ENTRY);
        if main < self.slots.len() * ENTRY {
            return false;
        }
        self.budget = self.budget.min(main);
        true
    }

    #[inline]
    fn home(fp: u128, n: usize) -> usize {
        // Multiply-shift range reduction on the high 64 bits.
        (((fp >> 64) as u64 as u128 * n as u128) >> 64) as usize
    }

    /// Inserts position `fp` reached with `level` (the talon's order within
    /// its key: `crate::key::TalonView`). Only the high 120 bits of `fp`
    /// identify the position; the low byte stores the lowest level seen. A
    /// position seen before at the same or a lower level is `Present`: the
    /// lower level dominates (every line open to the new arrival was open
    /// to the earlier one, which the search explored, or is exploring above
    /// it). At a lower level than before it is `New` and the level is
    /// lowered.
    pub fn insert_level(&mut self, fp: u128, level: u8) -> Insert {
        let mut key = fp & !0xFF;
        if key == 0 {
            key = 1 << 8; // 0 marks an empty slot
        }
        let fp = key | level as u128;
        let c = (key >> 8) as usize & (self.recent.len() - 1);
        let r = self.recent[c];
        if r & !0xFF == key && (r & 0xFF) as u8 <= level {
            return Insert::Present;
        }
        let out = self.insert_main(key, fp, level);
        match out {
            Insert::New => self.recent[c] = fp,
            // Remember the stored level (at most `level`).
            Insert::Present => self.recent[c] = key | level as u128,
            Insert::Full => {}
        }
        out
    }

    fn insert_main(&mut self, key: u128, fp: u128, level: u8) -> Insert {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            if let Some(n) = self.next_size() {
                self.grow(n);
            } else if (self.len + 1) * 10 > self.slots.len() * 9 {
                return match self.find(key) {
                    Some(i) if (self.slots[i] & 0xFF) as u8 <= level => Insert::Present,
                    Some(i) => {
                        self.slots[i] = fp;
                        Insert::New
                    }
                    None => Insert::Full,
                };
            }
        }
        let n = self.slots.len();
        let mut i = Self::home(fp, n);
        loop {
            let s = self.slots[i];
            if s == 0 {
                self.slots[i] = fp;
                self.len += 1;
                return Insert::New;
            }
            if s & !0xFF == key {
                if (s & 0xFF) as u8 <= level {
                    return Insert::Present;
                }
                self.slots[i] = fp;
                return Insert::New;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    fn find(&self, key: u128) -> Option<usize> {
        let n = self.slots.len();
        let mut i = Self::home(key, n);
        loop {
            let s = self.slots[i];
            if s == 0 {
                return None;
            }
            if s & !0xFF == key {
                return Some(i);
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// Inserts `fp` at level 0.
    pub fn insert(&mut self, fp: u128) -> Insert {
        self.insert_level(fp, 0)
    }

    /// Whether position `fp` is stored (at any level).
    pub fn contains(&self, fp: u128) -> bool {
        let mut key = fp & !0xFF;
        if key == 0 {
            key = 1 << 8;
        }
        self.find(key).is_some()
    }

    fn grow(&mut self, n: usize) {
        let old = std::mem::replace(&mut self.slots, vec![0; n]);
        for fp in old.into_iter().filter(|&f| f != 0) {
            let mut i = Self::home(fp, n);
            while self.slots[i] != 0 {
                i += 1;
                if i == n {
                    i = 0;
                }
            }
            self.slots[i] = fp;
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
        assert_eq!(
            t.insert_level(fp ^ 0x17, 1),
            Insert::New,
            "the low byte is not part of the key"
        );
        assert_eq!(t.insert_level(fp, 2), Insert::Present);
        assert_eq!(t.len(), 1);
        assert_eq!(t.insert_level(fp ^ (1 << 100), 5), Insert::New);
        assert_eq!(t.len(), 2);
    }

    /// The recent-entry cache at full size, as budgets of 1 MiB or more get.
    const RECENT_BYTES: usize = RECENT * ENTRY;

    /// A small budget (a best-first probe's table under `--max-memory 1M`
    /// gets 32 KiB) holds the cache and the table together.
    #[test]
    fn small_budgets_hold_cache_and_table() {
        for budget in [64, 1000, 32 << 10, 300 << 10] {
            let mut t = FingerprintSet::with_budget(budget);
            let n = fill(&mut t, 3, |t, _| assert!(t.bytes() <= budget));
            assert!(
                t.bytes() <= budget && t.budget_bytes() <= budget,
                "{budget}"
            );
            assert_eq!(n, t.len());
        }
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
            x = x
                .wrapping_mul(0x2545_F491_4F6C_DD1D_2545_F491_4F6C_DD1D)
                .wrapping_add(1442695040888963407);
            match t.insert(x) {
                Insert::New => n += 1,
                Insert::Present => panic!("spurious duplicate"),
                Insert::Full => return n,
            }
            after(t, x);
        }
    }

    /// The last growth takes what the budget leaves beside the old array,
    /// jumping from the size that ends largest, so most of the budget ends
    /// as table.
    #[test]
    fn large_budgets_are_mostly_table() {
        let budget = 90 << 20;
        let mut t = FingerprintSet::with_budget(budget);
        let n = fill(&mut t, 7, |t, _| assert!(t.bytes() <= budget));
        // 89.75 MiB for the table: doubling to 32 MiB would end at 57.75
        // (what is left beside it); jumping from 16 MiB ends at 73.75.
        let slots = (budget - RECENT_BYTES - (16 << 20)) / ENTRY;
        assert_eq!(t.bytes(), slots * ENTRY + RECENT_BYTES);
        assert_eq!(n, slots * 9 / 10);
        // 4 GiB less a search's path: 3.25 of 3.75 GiB, jumping from 0.5.
        let b = ((4usize << 30) - (256 << 20)) / ENTRY;
        let mut sizes = vec![MIN_SLOTS];
        while let Some(next) = FingerprintSet::step(*sizes.last().unwrap(), b) {
            sizes.push(next);
        }
        assert_eq!(sizes[sizes.len() - 2], 1 << 25, "{sizes:?}");
        assert_eq!(*sizes.last().unwrap(), b - (1 << 25), "{sizes:?}");
        // Small budgets still double all the way (no jump past eightfold).
        assert_eq!(FingerprintSet::step(MIN_SLOTS, b), Some(2 * MIN_SLOTS));
    }

    #[test]
    fn inserts_grow_and_fill_up_within_budget() {
        let mut t = FingerprintSet::with_budget(1 << 20); // 1 MiB
        let n = fill(&mut t, 0x1234_5678_9abc_def0, |t, x| {
            assert_eq!(t.insert(x), Insert::Present);
            assert!(t.contains(x));
            assert!(t.bytes() <= 1 << 20);
        });
        assert_eq!(n, t.len());
        // (1 MiB - the recent cache) / 24 bytes = 32768 slots, a doubling;
        // 90 % of them fill.
        assert_eq!(t.bytes(), 32768 * 16 + RECENT_BYTES);
        assert_eq!(n, 32768 * 9 / 10);
        assert!(t.budget_bytes() <= 1 << 20);
    }
}
