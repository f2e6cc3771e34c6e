//! A small cache of the positions a search met lately, by their exact
//! layout: most table hits are a position met again exactly as it was
//! (on Canfield under Solvitaire's rules seed 497, 8.4 M of 12.1 M hits,
//! once its safe moves are played), usually a few moves after the first
//! time, by moves that commute. Found here, such a position costs a hash
//! of its state; the table hit it stands for costs its tableau class, its
//! canonical fingerprint and a probe of the table, under the table's lock
//! when threads share it ([`crate::search`]'s `Crew`).
//!
//! An entry says: this state, its safe moves played, was entered or met
//! in the table. A search keeps every position it stores until it starts
//! to forget (then the cache is cleared and left unused), and the state
//! determines its canonical key and its talon level, so the table holds
//! the state's key at that level or a lower one: meeting the state again
//! is a table hit, whatever the cache keeps or drops.
//!
//! The entries are 128-bit hashes of the state's bytes (its `Hash`
//! stream, which writes every field but the derived run lengths, in fixed
//! widths but the tableau's cards, whose count comes first, so two states
//! with the same stream are equal), with bit 0 set (0 marks an empty
//! slot). A wrong hit needs two different states whose hashes agree in
//! the other 127 bits; over `n` lookups in a cache of `c` entries that
//! has probability at most `n * c / 2^127`: below 2^-67 for 2^40 lookups
//! in 2^20 entries.

use demon_core::State;
use xxhash_rust::xxh3::xxh3_128;

/// A direct-mapped set of recently met states (see the module comment).
#[derive(Debug, Default)]
pub struct Recent {
    slots: Vec<u128>,
}

/// The longest `Hash` stream of a state: foundations, four bytes, the
/// talon's bits, the pile starts and face-down counts, the tableau's
/// cards.
const STREAM: usize =
    8 + 4 + 16 + 2 * demon_core::rules::MAX_PILES + 1 + demon_core::state::TABLEAU_CAP;

/// The entry of a state.
pub fn state_hash(st: &State) -> u128 {
    let mut sink = Sink {
        buf: [0; STREAM],
        n: 0,
    };
    std::hash::Hash::hash(st, &mut sink);
    xxh3_128(&sink.buf[..sink.n]) | 1
}

/// Collects a state's hash stream.
struct Sink {
    buf: [u8; STREAM],
    n: usize,
}

impl std::hash::Hasher for Sink {
    fn finish(&self) -> u64 {
        unreachable!("only the bytes are read")
    }
    fn write(&mut self, bytes: &[u8]) {
        self.buf[self.n..self.n + bytes.len()].copy_from_slice(bytes);
        self.n += bytes.len();
    }
}

impl Recent {
    /// A cache of at most `bytes` bytes (a power of two of entries; none
    /// below 16 bytes, and then it keeps nothing).
    pub fn with_bytes(bytes: usize) -> Recent {
        let n = bytes / std::mem::size_of::<u128>();
        Recent {
            slots: if n == 0 {
                Vec::new()
            } else {
                vec![0; 1 << n.ilog2()]
            },
        }
    }

    /// Bytes the entries take.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<u128>()
    }

    fn slot(&self, h: u128) -> usize {
        (h >> 64) as usize & (self.slots.len() - 1)
    }

    /// Whether the state of entry `h` ([`state_hash`]) is here.
    pub fn contains(&self, h: u128) -> bool {
        !self.slots.is_empty() && self.slots[self.slot(h)] == h
    }

    /// Keeps entry `h`, in place of the one in its slot.
    pub fn insert(&mut self, h: u128) {
        if !self.slots.is_empty() {
            let s = self.slot(h);
            self.slots[s] = h;
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demon_core::{Game, GameKind, Reading, Rules, Source};

    #[test]
    fn keeps_the_last_state_of_each_slot() {
        let mut r = Recent::with_bytes(1 << 10);
        assert_eq!(r.bytes(), 1 << 10);
        let a = 0x1234_5678_9abc_def0_u128 << 64 | 1;
        assert!(!r.contains(a));
        r.insert(a);
        assert!(r.contains(a));
        let b = a ^ 0x10;
        assert!(!r.contains(b), "another state in the same slot");
        r.insert(b);
        assert!(r.contains(b) && !r.contains(a));
        r.clear();
        assert!(!r.contains(b));
        let mut none = Recent::with_bytes(8);
        none.insert(a);
        assert!(!none.contains(a) && none.bytes() == 0);
    }

    /// Two states hash alike exactly when they are equal: along a deal's
    /// legal moves, every state against every other.
    #[test]
    fn equal_states_hash_alike() {
        let rules: Rules = GameKind::Canfield.preset(Reading::Standard).unwrap();
        let game = Game::new(&rules, &Source::Native(3).layout(&rules)).unwrap();
        let mut states = vec![game.initial()];
        let mut st = game.initial();
        for _ in 0..40 {
            let Some(&m) = game.legal_moves(&st).last() else {
                break;
            };
            game.play(&mut st, m);
            states.push(st.clone());
        }
        for a in &states {
            for b in &states {
                assert_eq!(a == b, state_hash(a) == state_hash(b));
            }
        }
    }
}
