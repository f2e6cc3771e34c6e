//! PySolFC game numbers, reproduced exactly (GAMES.md §4.3).
//!
//! PySolFC shuffles the unshuffled deck (for each copy: C, S, H, D; A … K)
//! with one of two generators chosen by the game number: the Microsoft
//! FreeCell LCG for `1 ≤ N < 32000` (and for `msN`), MT19937 seeded like
//! Python's `random.Random(N)` otherwise. The last element of the shuffled
//! list is the top of the talon, so the dealing order is the list reversed.
//! Games with pre-placed foundation cards then move those cards to the top
//! of the talon ([`crate::deal::preplace_hook`]).

use crate::card::Card;

/// PySolFC's largest game number for the MT19937 path (`MTRandom.MAX_SEED`).
pub const MAX_NUMBER: u128 = 100_000_000_000_000_000_000;

/// A parsed PySolFC game number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameNumber {
    pub value: u128,
    /// Written with the `ms` prefix: always the LCG.
    pub ms: bool,
}

impl std::fmt::Display for GameNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.ms {
            write!(f, "ms{}", self.value)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

/// A game number PySolFC would not accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameNumberError {
    #[error(
        "PySolFC game number '{0}' is not a number (digits only, optionally prefixed by 'ms')"
    )]
    NotANumber(String),
    #[error("PySolFC game numbers start at 1; 0 is not a game")]
    Zero,
    #[error("PySolFC game number {0} is too large (the largest is {MAX_NUMBER})")]
    TooLarge(String),
    #[error("PySolFC 'ms' game numbers go up to {max}, not {0}", max = MS_MAX)]
    MsTooLarge(u128),
}

/// Largest `msN` number PySolFC's LCG accepts (33 bits).
pub const MS_MAX: u128 = (1 << 33) - 1;

impl GameNumber {
    /// Parses a number as PySolFC does: whitespace and `# - _ . ,` are
    /// removed, and a trailing `L` (Python 2 longs) is dropped.
    pub fn parse(s: &str) -> Result<GameNumber, GameNumberError> {
        let mut t: String = s
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '#' | '-' | '_' | '.' | ','))
            .collect();
        if t.ends_with('L') || t.ends_with('l') {
            t.pop();
        }
        let (ms, digits) = match t.strip_prefix("ms").or_else(|| t.strip_prefix("MS")) {
            Some(rest) => (true, rest),
            None => (false, t.as_str()),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GameNumberError::NotANumber(s.to_string()));
        }
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() {
            return Err(GameNumberError::Zero);
        }
        let value: u128 = if digits.len() > 21 {
            return Err(GameNumberError::TooLarge(digits.to_string()));
        } else {
            digits
                .parse()
                .map_err(|_| GameNumberError::TooLarge(digits.to_string()))?
        };
        if ms && value > MS_MAX {
            return Err(GameNumberError::MsTooLarge(value));
        }
        if !ms && value > MAX_NUMBER {
            return Err(GameNumberError::TooLarge(digits.to_string()));
        }
        Ok(GameNumber { value, ms })
    }

    pub fn uses_lcg(self) -> bool {
        self.ms || self.value < 32000
    }
}

/// PySolFC's unshuffled deck: card ids `copy·52 + suit·13 + rank`; the copy
/// is dropped since copies are interchangeable.
fn fresh_deck(decks: u8) -> Vec<Card> {
    (0..decks).flat_map(|_| Card::all()).collect()
}

/// The cards of PySolFC deal `n` with `decks` decks, first card dealt first,
/// before any game's shuffle hook.
pub fn dealing_order(n: GameNumber, decks: u8) -> Vec<Card> {
    let mut cards = fresh_deck(decks);
    if n.uses_lcg() {
        if cards.len() == 52 {
            // Rank-major rearrangement of the Microsoft FreeCell deals:
            // position 4i+k takes the card at index i + (0, 39, 26, 13)[k].
            let orig = cards.clone();
            for i in 0..13 {
                for (k, off) in [0usize, 39, 26, 13].into_iter().enumerate() {
                    cards[4 * i + k] = orig[i + off];
                }
            }
        }
        let mut lcg = Lcg::new(n.value as u64);
        shuffle(&mut cards, |m| lcg.randint(m));
    } else {
        let mut mt = Mt19937::from_python_int(n.value);
        shuffle(&mut cards, |m| mt.randint(m));
    }
    cards.reverse();
    cards
}

/// PySolFC's shuffle: for n from len−1 down to 1, swap a[n] and a[randint(0, n)].
fn shuffle(a: &mut [Card], mut randint: impl FnMut(u32) -> u32) {
    for n in (1..a.len()).rev() {
        let j = randint(n as u32) as usize;
        a.swap(n, j);
    }
}

/// PySolFC's `LCRandom31`: the Microsoft C runtime LCG, with PySolFC's
/// extensions for seeds of 2³¹ and above (reachable with `msN`).
struct Lcg {
    seed: u64,
    x: u64,
}

impl Lcg {
    fn new(seed: u64) -> Lcg {
        let x = if seed < 0x1_0000_0000 {
            seed
        } else {
            seed - 0x1_0000_0000
        };
        Lcg { seed, x }
    }

    fn step(&mut self) -> u64 {
        // PySolFC masks the state to 33 bits (`MAX_SEED`); the output bits
        // used below do not depend on the bits above 32 for seeds < 2³²,
        // but the mask is kept to reproduce the larger `ms` seeds exactly.
        self.x = (self.x.wrapping_mul(214013).wrapping_add(2531011)) & ((1 << 33) - 1);
        self.x
    }

    fn random(&mut self) -> u32 {
        if self.seed < 0x1_0000_0000 {
            let r = ((self.step() >> 16) & 0x7fff) as u32;
            if self.seed < 0x8000_0000 {
                r
            } else {
                r | 0x8000
            }
        } else {
            ((self.step() >> 16) & 0xffff) as u32 + 1
        }
    }

    /// `randint(0, n)`.
    fn randint(&mut self, n: u32) -> u32 {
        self.random() % (n + 1)
    }
}

/// MT19937 as in CPython's `_random` module.
struct Mt19937 {
    mt: [u32; 624],
    idx: usize,
}

impl Mt19937 {
    fn init_genrand(s: u32) -> Mt19937 {
        let mut mt = [0u32; 624];
        mt[0] = s;
        for i in 1..624 {
            mt[i] = 1812433253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { mt, idx: 624 }
    }

    fn init_by_array(key: &[u32]) -> Mt19937 {
        let mut g = Mt19937::init_genrand(19650218);
        let mt = &mut g.mt;
        let n = 624usize;
        let (mut i, mut j) = (1usize, 0usize);
        let mut k = n.max(key.len());
        while k > 0 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                mt[0] = mt[n - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
            k -= 1;
        }
        k = n - 1;
        while k > 0 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1566083941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                mt[0] = mt[n - 1];
                i = 1;
            }
            k -= 1;
        }
        mt[0] = 0x8000_0000;
        g
    }

    /// Seeds like Python's `random.Random(n)` for a non-negative int: the
    /// key is `n` split into 32-bit little-endian words (`[0]` for 0).
    fn from_python_int(n: u128) -> Mt19937 {
        let mut key = Vec::new();
        let mut v = n;
        while v > 0 {
            key.push(v as u32);
            v >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        Mt19937::init_by_array(&key)
    }

    fn next_u32(&mut self) -> u32 {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        if self.idx >= 624 {
            for kk in 0..624 {
                let y = (self.mt[kk] & UPPER) | (self.mt[(kk + 1) % 624] & LOWER);
                let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
                self.mt[kk] = self.mt[(kk + 397) % 624] ^ (y >> 1) ^ mag;
            }
            self.idx = 0;
        }
        let mut y = self.mt[self.idx];
        self.idx += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// PySolFC's `randint(0, n)`: `⌊random()·(n+1)⌋` with Python's 53-bit
    /// `random()` (not Python's own `randint`).
    fn randint(&mut self, n: u32) -> u32 {
        let a = (self.next_u32() >> 5) as u64;
        let b = (self.next_u32() >> 6) as u64;
        let u = (a * 67108864 + b) as f64 / 9007199254740992.0;
        (u * (n as f64 + 1.0)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::join;

    #[test]
    fn numbers_parse_like_pysolfc() {
        assert_eq!(GameNumber::parse("1").unwrap().value, 1);
        assert_eq!(
            GameNumber::parse(" #12,345-6_7.8L ").unwrap().value,
            12345678
        );
        assert_eq!(
            GameNumber::parse("ms40000").unwrap(),
            GameNumber {
                value: 40000,
                ms: true
            }
        );
        assert_eq!(GameNumber::parse("0"), Err(GameNumberError::Zero));
        assert_eq!(GameNumber::parse("000"), Err(GameNumberError::Zero));
        assert!(matches!(
            GameNumber::parse("abc"),
            Err(GameNumberError::NotANumber(_))
        ));
        assert!(matches!(
            GameNumber::parse(""),
            Err(GameNumberError::NotANumber(_))
        ));
        assert!(matches!(
            GameNumber::parse("-5x"),
            Err(GameNumberError::NotANumber(_))
        ));
        assert!(matches!(
            GameNumber::parse("100000000000000000001"),
            Err(GameNumberError::TooLarge(_))
        ));
        assert!(GameNumber::parse("100000000000000000000").is_ok());
        assert!(GameNumber::parse("31999").unwrap().uses_lcg());
        assert!(!GameNumber::parse("32000").unwrap().uses_lcg());
    }

    #[test]
    fn python_mt19937_matches_cpython() {
        // random.Random(5489) is not init_genrand(5489) in CPython (it goes
        // through init_by_array), so check init_by_array against CPython:
        // `random.Random(1).getrandbits(32)` == 577090037.
        let mut g = Mt19937::from_python_int(1);
        assert_eq!(g.next_u32(), 577090037);
        // `random.Random(1).random()` == 0.13436424411240122
        let mut g = Mt19937::from_python_int(1);
        let a = (g.next_u32() >> 5) as u64;
        let b = (g.next_u32() >> 6) as u64;
        let u = (a * 67108864 + b) as f64 / 9007199254740992.0;
        assert_eq!(u, 0.13436424411240122);
    }

    #[test]
    fn games_md_vectors() {
        let one = dealing_order(GameNumber::parse("1").unwrap(), 1);
        assert_eq!(join(&one), "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H");
        let mt = dealing_order(GameNumber::parse("123456").unwrap(), 1);
        assert_eq!(join(&mt), "3D 2D 2C 9C AC 6H 4C KC 6C TC 8S 8C 9D TH 2S JS AS 4H AH QH 7H 8H 3S 9H TS JD KD 3C 6D QS 6S 4S QC TD KH 5D KS 7D 5H 7S 8D 2H 5S 9S JH JC 3H AD 4D 5C 7C QD");
        let two = dealing_order(GameNumber::parse("1").unwrap(), 2);
        assert_eq!(
            join(&two[..24]),
            "3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS QC 4H KD 2H TD 8S"
        );
    }
}
