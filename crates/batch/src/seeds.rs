//! Which deals a run solves: a seed range, optionally one shard of it.

use std::fmt;
use std::str::FromStr;

/// Why a seed range or a shard did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedsError {
    #[error(
        "'{0}' is not a seed range: write A..B (seeds A to B, both included) or a single seed A"
    )]
    Malformed(String),
    #[error("'{0}': {1} is not a seed (seeds are whole numbers from 0 to 18446744073709551615)")]
    BadSeed(String, String),
    #[error("'{0}' is an empty range: its last seed {2} is below its first {1}")]
    Empty(String, u64, u64),
    #[error("'{0}' is not a shard: write I/N, the I-th of N slices (1 <= I <= N)")]
    BadShard(String),
}

/// Seeds `first` to `last`, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedRange {
    pub first: u64,
    pub last: u64,
}

impl FromStr for SeedRange {
    type Err = SeedsError;

    fn from_str(s: &str) -> Result<SeedRange, SeedsError> {
        let t = s.trim();
        let (a, b) = match t.split_once("..") {
            Some((a, b)) => (a, b.strip_prefix('=').unwrap_or(b)),
            None => (t, t),
        };
        if a.trim().is_empty() || b.trim().is_empty() {
            return Err(SeedsError::Malformed(s.into()));
        }
        let num = |x: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| SeedsError::BadSeed(s.into(), x.trim().into()))
        };
        let (first, last) = (num(a)?, num(b)?);
        if last < first {
            return Err(SeedsError::Empty(s.into(), first, last));
        }
        Ok(SeedRange { first, last })
    }
}

impl fmt::Display for SeedRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.first, self.last)
    }
}

/// The `index`-th (from 1) of `count` slices of a range: every `count`-th
/// seed, starting at the range's `index`-th. Interleaved slices get deals
/// of the same difficulty on average, so shards finish together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };
}

impl FromStr for Shard {
    type Err = SeedsError;

    fn from_str(s: &str) -> Result<Shard, SeedsError> {
        let bad = || SeedsError::BadShard(s.into());
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The seeds of `range` in `shard`, in increasing order.
pub fn seeds(range: SeedRange, shard: Shard) -> impl Iterator<Item = u64> + Clone {
    let start = range.first.checked_add(shard.index - 1);
    let step = shard.count;
    let last = range.last;
    std::iter::successors(start.filter(|&s| s <= last), move |&s| {
        s.checked_add(step).filter(|&t| t <= last)
    })
}

/// How many seeds [`seeds`] gives (the whole seed space has 2^64).
pub fn count(range: SeedRange, shard: Shard) -> u128 {
    let span = range.last - range.first; // seeds after the first
    if shard.index - 1 > span {
        0
    } else {
        ((span - (shard.index - 1)) / shard.count) as u128 + 1
    }
}

/// The most seeds one run takes: its report's index is held in memory.
pub const MAX_RUN: u128 = 100_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(
            "1..1000".parse(),
            Ok(SeedRange {
                first: 1,
                last: 1000
            })
        );
        assert_eq!("5..=7".parse(), Ok(SeedRange { first: 5, last: 7 }));
        assert_eq!(
            "42".parse(),
            Ok(SeedRange {
                first: 42,
                last: 42
            })
        );
        assert_eq!(
            "10..3".parse::<SeedRange>(),
            Err(SeedsError::Empty("10..3".into(), 10, 3))
        );
        let e = "1..x".parse::<SeedRange>().unwrap_err().to_string();
        assert!(e.contains("x is not a seed"), "{e}");
        let e = "..5".parse::<SeedRange>().unwrap_err().to_string();
        assert!(e.contains("is not a seed range"), "{e}");
        let e = "1..-5".parse::<SeedRange>().unwrap_err().to_string();
        assert!(e.contains("-5 is not a seed"), "{e}");
    }

    #[test]
    fn shards_partition_the_range() {
        let r = SeedRange { first: 3, last: 12 };
        let all: Vec<u64> = seeds(r, Shard::WHOLE).collect();
        assert_eq!(all, (3..=12).collect::<Vec<_>>());
        let a: Vec<u64> = seeds(r, "1/3".parse().unwrap()).collect();
        let b: Vec<u64> = seeds(r, "2/3".parse().unwrap()).collect();
        let c: Vec<u64> = seeds(r, "3/3".parse().unwrap()).collect();
        assert_eq!(a, [3, 6, 9, 12]);
        assert_eq!(b, [4, 7, 10]);
        assert_eq!(c, [5, 8, 11]);
        for (s, v) in [("1/3", &a), ("2/3", &b), ("3/3", &c)] {
            assert_eq!(count(r, s.parse().unwrap()), v.len() as u128);
        }
        // More shards than seeds: some are empty.
        let one = SeedRange { first: 7, last: 7 };
        assert_eq!(count(one, "2/4".parse().unwrap()), 0);
        assert_eq!(seeds(one, "2/4".parse().unwrap()).count(), 0);
        // The top of the seed space does not overflow.
        let top = SeedRange {
            first: u64::MAX - 2,
            last: u64::MAX,
        };
        assert_eq!(seeds(top, Shard::WHOLE).count(), 3);
        assert_eq!(count(top, Shard::WHOLE), 3);
        let all = SeedRange {
            first: 0,
            last: u64::MAX,
        };
        assert_eq!(count(all, Shard::WHOLE), 1 << 64);
        for bad in ["0/3", "4/3", "1/0", "x/2", "2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
