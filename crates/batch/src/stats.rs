//! Win rates with confidence intervals, distributions of cost per deal, and
//! McNemar's test for paired comparisons.

use std::fmt;

use crate::row::{Numbering, Row, Verdict};

/// The normal quantile for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's score interval for `k` successes in `n` trials at 95%, as
/// fractions; `None` when `n` is 0. Unlike the normal approximation it
/// stays inside [0, 1] and is sound near 0% and 100%.
pub fn wilson(k: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// Exact two-sided McNemar test: the probability, if neither variant wins
/// more often, of a split of the `b + c` discordant deals at least as
/// uneven as `b` to `c` (the binomial test with p = 1/2).
pub fn mcnemar(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    // Sum C(n, i) / 2^n for i <= k in log space: exact enough for any n.
    let ln2n = n as f64 * std::f64::consts::LN_2;
    let mut ln_c = 0.0f64; // ln C(n, 0)
    let mut terms = Vec::with_capacity(k as usize + 1);
    for i in 0..=k {
        if i > 0 {
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        terms.push(ln_c - ln2n);
    }
    let m = terms.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let tail = m.exp() * terms.iter().map(|t| (t - m).exp()).sum::<f64>();
    (2.0 * tail).min(1.0)
}

/// Two rule variants on the same deals: how many each wins that the other
/// loses, and McNemar's test of that split.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    pub both: u64,
    pub neither: u64,
    /// Won under the first variant, lost under the second.
    pub only_a: u64,
    pub only_b: u64,
    /// Deals of both unknown under one or both (left out).
    pub undecided: u64,
    /// McNemar's exact two-sided p-value.
    pub p: f64,
}

impl Paired {
    /// Pairs the deals (by seed) present in both.
    pub fn of(a: &[Row], b: &[Row]) -> Paired {
        let b: std::collections::HashMap<u64, Verdict> =
            b.iter().map(|r| (r.seed, r.verdict)).collect();
        let (mut both, mut neither, mut only_a, mut only_b, mut undecided) = (0, 0, 0, 0, 0);
        for r in a {
            let Some(vb) = b.get(&r.seed) else { continue };
            match (r.verdict, vb) {
                (Verdict::Won, Verdict::Won) => both += 1,
                (Verdict::Lost, Verdict::Lost) => neither += 1,
                (Verdict::Won, Verdict::Lost) => only_a += 1,
                (Verdict::Lost, Verdict::Won) => only_b += 1,
                _ => undecided += 1,
            }
        }
        Paired {
            both,
            neither,
            only_a,
            only_b,
            undecided,
            p: mcnemar(only_a, only_b),
        }
    }
}

/// The `q`-quantile (0 to 1) of sorted values, nearest rank.
fn quantile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    Some(sorted[i])
}

/// Mean, median, 99th percentile and maximum of a cost per deal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub mean: f64,
    pub median: f64,
    pub p99: f64,
    pub max: f64,
    pub total: f64,
}

impl Spread {
    fn of(mut v: Vec<f64>) -> Option<Spread> {
        v.sort_by(f64::total_cmp);
        let total: f64 = v.iter().sum();
        Some(Spread {
            mean: total / v.len().max(1) as f64,
            median: quantile(&v, 0.5)?,
            p99: quantile(&v, 0.99)?,
            max: *v.last()?,
            total,
        })
    }
}

/// The deal that stored the most positions: what a stored position costs
/// is its table's bytes over its positions, where the report records the
/// table's size ([`Row::table_bytes`]); its peak memory over its positions
/// counts the search paths and the searches beside the table too, and
/// small searches are dominated by those fixed buffers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Largest {
    pub seed: u64,
    pub stored: u64,
    pub peak_memory: u64,
    /// 0 where the report does not record it (older reports, layered
    /// searches).
    pub table_bytes: u64,
}

impl Largest {
    /// Peak memory over positions stored.
    pub fn bytes_per_position(&self) -> f64 {
        self.peak_memory as f64 / self.stored.max(1) as f64
    }

    /// The table's bytes over positions stored, where recorded.
    pub fn table_bytes_per_position(&self) -> Option<f64> {
        demon_solver::table_bytes_per_position(self.table_bytes, self.stored)
    }
}

/// What a set of solved deals adds up to.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub deals: u64,
    pub won: u64,
    pub lost: u64,
    pub unknown: u64,
    pub seconds: Option<Spread>,
    pub nodes: Option<Spread>,
    pub largest: Option<Largest>,
    /// The won deals by what found them ([`Row::found_by`], in the order
    /// of [`FINDERS`]), and last, as `""`, those whose report has no
    /// `found_by` column.
    pub found_by: Vec<(String, u64)>,
    /// The lost deals proved lost under relaxed rules ([`Row::found_by`]
    /// `relaxed`).
    pub lost_relaxed: u64,
    /// How near the unknown deals came ([`Row::most_up`]), over those
    /// whose report records it (`None` if none does).
    pub unknown_up: Option<Nearest>,
    /// What the rows' seeds are (from the first row's rules).
    pub numbering: Numbering,
}

/// How near the unknown deals came: the most cards up in one position,
/// over the unknown deals that record it ([`Row::most_up`] above 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest {
    /// Unknown deals that record it.
    pub deals: u64,
    /// The median (the nearest rank's).
    pub median: u32,
    /// The nearest of them: its seed and its cards up (the lowest seed
    /// of a tie).
    pub seed: u64,
    pub most_up: u32,
}

/// The names [`Row::found_by`] takes, in the order summaries give them.
pub const FINDERS: [&str; 8] = [
    "search", "probe", "ladder", "restarts", "beams", "nrpa", "tail", "relaxed",
];

impl Summary {
    pub fn of(rows: &[Row]) -> Summary {
        let count = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count() as u64;
        Summary {
            numbering: rows
                .first()
                .map_or(Numbering::Demon, |r| Numbering::of_rules(&r.rules)),
            deals: rows.len() as u64,
            won: count(Verdict::Won),
            lost: count(Verdict::Lost),
            unknown: count(Verdict::Unknown),
            seconds: Spread::of(rows.iter().map(|r| r.seconds).collect()),
            nodes: Spread::of(rows.iter().map(|r| r.nodes as f64).collect()),
            largest: rows
                .iter()
                .max_by_key(|r| (r.stored, std::cmp::Reverse(r.seed)))
                .map(|r| Largest {
                    seed: r.seed,
                    stored: r.stored,
                    peak_memory: r.peak_memory,
                    table_bytes: r.table_bytes,
                }),
            found_by: {
                let won: Vec<&str> = rows
                    .iter()
                    .filter(|r| r.verdict == Verdict::Won)
                    .map(|r| r.found_by.as_str())
                    .collect();
                let mut names: Vec<&str> = FINDERS.to_vec();
                // A name a later version may write, after the known ones.
                for f in &won {
                    if !f.is_empty() && !names.contains(f) {
                        names.push(f);
                    }
                }
                names.push("");
                names
                    .into_iter()
                    .map(|n| {
                        (
                            n.to_string(),
                            won.iter().filter(|f| **f == n).count() as u64,
                        )
                    })
                    .filter(|(_, k)| *k > 0)
                    .collect()
            },
            lost_relaxed: rows
                .iter()
                .filter(|r| r.verdict == Verdict::Lost && r.found_by == "relaxed")
                .count() as u64,
            unknown_up: {
                let up: Vec<&Row> = rows
                    .iter()
                    .filter(|r| r.verdict == Verdict::Unknown && r.most_up > 0)
                    .collect();
                let mut v: Vec<u32> = up.iter().map(|r| r.most_up).collect();
                v.sort_unstable();
                let near = up
                    .iter()
                    .max_by_key(|r| (r.most_up, std::cmp::Reverse(r.seed)));
                near.map(|n| Nearest {
                    deals: up.len() as u64,
                    median: quantile(&v, 0.5).expect("not empty"),
                    seed: n.seed,
                    most_up: n.most_up,
                })
            },
        }
    }

    /// Nodes over the deals' summed solve time: the speed of one job (a
    /// run of N jobs goes about N times as fast).
    pub fn nodes_per_second(&self) -> Option<f64> {
        let (n, s) = (self.nodes?, self.seconds?);
        (s.total > 0.0).then(|| n.total / s.total)
    }

    pub fn decided(&self) -> u64 {
        self.won + self.lost
    }

    /// The win rate of the decided deals, with its 95% interval.
    pub fn win_rate(&self) -> Option<(f64, f64, f64)> {
        let n = self.decided();
        let (lo, hi) = wilson(self.won, n)?;
        Some((self.won as f64 / n as f64, lo, hi))
    }

    /// The 95% interval of the win rate of all deals whatever the unknown
    /// ones are: from its lower end with every unknown lost to its upper
    /// end with every unknown won.
    pub fn bounds(&self) -> Option<(f64, f64)> {
        let lo = wilson(self.won, self.deals)?.0;
        let hi = wilson(self.won + self.unknown, self.deals)?.1;
        Some((lo, hi))
    }
}

/// Percent with two decimals.
pub fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn secs(x: f64) -> String {
    if x < 10.0 {
        format!("{x:.3} s")
    } else {
        format!("{x:.1} s")
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "deals {}: won {}, lost {}, unknown {}",
            self.deals, self.won, self.lost, self.unknown
        )?;
        match self.win_rate() {
            Some((p, lo, hi)) => writeln!(
                f,
                "win rate {} of {} decided deals (95% CI {} to {})",
                pct(p),
                self.decided(),
                pct(lo),
                pct(hi)
            )?,
            None => writeln!(f, "win rate: no deal decided")?,
        }
        if self.unknown > 0 {
            if let Some((lo, hi)) = self.bounds() {
                writeln!(
                    f,
                    "all {} deals, unknown counted lost to counted won: 95% CI {} to {}",
                    self.deals,
                    pct(lo),
                    pct(hi)
                )?;
            }
        }
        if !self.found_by.is_empty() {
            let parts: Vec<String> = self
                .found_by
                .iter()
                .map(|(n, k)| match n.as_str() {
                    "" => format!("not recorded {k} (reports before the found_by column)"),
                    n => format!("{n} {k}"),
                })
                .collect();
            writeln!(f, "wins found by: {}", parts.join(", "))?;
        }
        if self.lost_relaxed > 0 {
            writeln!(
                f,
                "losses proved under relaxed rules: {}",
                self.lost_relaxed
            )?;
        }
        if let Some(n) = self.unknown_up {
            writeln!(
                f,
                "how near the unknown deals came (most cards up in one position, {} deal{}): median {}, nearest {} with {}",
                n.deals,
                if n.deals == 1 { "" } else { "s" },
                n.median,
                self.numbering.deal(n.seed),
                n.most_up
            )?;
        }
        if let Some(s) = self.seconds {
            writeln!(
                f,
                "time per deal: mean {}, median {}, 99th percentile {}, max {}; total {}",
                secs(s.mean),
                secs(s.median),
                secs(s.p99),
                secs(s.max),
                secs(s.total)
            )?;
        }
        if let Some(n) = self.nodes {
            writeln!(
                f,
                "nodes per deal: mean {:.0}, median {:.0}, 99th percentile {:.0}, max {:.0}",
                n.mean, n.median, n.p99, n.max
            )?;
        }
        if let Some(rate) = self.nodes_per_second() {
            writeln!(
                f,
                "speed: {:.2} Mnodes/s per job (nodes over the deals' summed time)",
                rate / 1e6
            )?;
        }
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        if let Some(l) = self.largest.filter(|l| l.stored > 0) {
            match l.table_bytes_per_position() {
                Some(b) => writeln!(
                    f,
                    "most positions stored: {}, {} positions in a table of {:.1} MiB, {:.1} bytes a position; its peak memory {:.1} MiB (the table, the search paths, and what the probes, the rollouts and the relaxed search set aside)",
                    self.numbering.deal(l.seed),
                    l.stored,
                    mib(l.table_bytes),
                    b,
                    mib(l.peak_memory)
                )?,
                None => writeln!(
                    f,
                    "most positions stored: {}, {} positions; its peak memory {:.1} MiB, {:.0} bytes a position (the peak counts the search paths, and what the probes, the rollouts and the relaxed search set aside, beside the table)",
                    self.numbering.deal(l.seed),
                    l.stored,
                    mib(l.peak_memory),
                    l.bytes_per_position()
                )?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), table I: 81/263 gives 0.2553 to 0.3662.
        let (lo, hi) = wilson(81, 263).unwrap();
        assert!(
            close(lo, 0.2553, 5e-5) && close(hi, 0.3662, 5e-5),
            "{lo} {hi}"
        );
        // 15/148: 0.0624 to 0.1605.
        let (lo, hi) = wilson(15, 148).unwrap();
        assert!(
            close(lo, 0.0624, 5e-5) && close(hi, 0.1605, 5e-5),
            "{lo} {hi}"
        );
        // The ends: 0/10 and 10/10.
        let (lo, hi) = wilson(0, 10).unwrap();
        assert!(close(lo, 0.0, 1e-12) && close(hi, 0.2775, 5e-5), "{hi}");
        let (lo, hi) = wilson(10, 10).unwrap();
        assert!(close(lo, 0.7225, 5e-5) && close(hi, 1.0, 1e-12), "{lo}");
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn mcnemar_is_the_exact_binomial_test() {
        assert_eq!(mcnemar(0, 0), 1.0);
        assert_eq!(mcnemar(3, 3), 1.0);
        // 0 of 5 discordant the other way: 2 / 32.
        assert!(close(mcnemar(5, 0), 0.0625, 1e-12));
        // 1 vs 9: 2 * (1 + 10) / 1024.
        assert!(close(mcnemar(1, 9), 22.0 / 1024.0, 1e-12));
        assert!(close(mcnemar(9, 1), 22.0 / 1024.0, 1e-12));
        // Large counts stay finite: 4,900 vs 5,100 of 10,000 is p about 0.047.
        let p = mcnemar(4900, 5100);
        assert!(p > 0.04 && p < 0.05, "{p}");
        assert!(mcnemar(100_000, 0) < 1e-300 || mcnemar(100_000, 0) == 0.0);
    }

    #[test]
    fn paired_counts_split_the_common_deals() {
        let row = Row::blank;
        use Verdict::*;
        let a = [
            row(1, Won),
            row(2, Won),
            row(3, Lost),
            row(4, Won),
            row(5, Unknown),
            row(6, Won),
        ];
        let b = [
            row(1, Won),
            row(2, Lost),
            row(3, Won),
            row(4, Lost),
            row(5, Won),
            row(7, Lost),
        ];
        let p = Paired::of(&a, &b);
        assert_eq!(
            (p.both, p.neither, p.only_a, p.only_b, p.undecided),
            (1, 0, 2, 1, 1)
        );
        assert!(close(p.p, mcnemar(2, 1), 1e-15));
    }

    #[test]
    fn summaries_count_and_spread() {
        let row = |seed: u64, v: Verdict, s: f64, n: u64| Row {
            game: "canfield".into(),
            nodes: n,
            stored: n,
            seconds: s,
            ..Row::blank(seed, v)
        };
        let rows: Vec<Row> = (1..=100)
            .map(|i| {
                let v = match i % 10 {
                    0 => Verdict::Lost,
                    9 if i > 90 => Verdict::Unknown,
                    _ => Verdict::Won,
                };
                row(i, v, i as f64 / 100.0, i * 10)
            })
            .collect();
        let s = Summary::of(&rows);
        assert_eq!((s.deals, s.won, s.lost, s.unknown), (100, 89, 10, 1));
        let t = s.seconds.unwrap();
        assert!(close(t.mean, 0.505, 1e-9) && t.median == 0.5 && t.p99 == 0.99 && t.max == 1.0);
        assert_eq!(s.nodes.unwrap().max, 1000.0);
        let (p, lo, hi) = s.win_rate().unwrap();
        assert!(close(p, 89.0 / 99.0, 1e-12) && lo < p && p < hi);
        let (blo, bhi) = s.bounds().unwrap();
        assert!(blo < lo && bhi >= hi - 0.01);
        let text = s.to_string();
        assert!(text.contains("won 89, lost 10, unknown 1"), "{text}");
        assert!(text.contains("win rate 89.90% of 99 decided"), "{text}");
    }

    #[test]
    fn summary_counts_spreads_and_the_largest_search() {
        let row = |seed: u64, v: Verdict, nodes: u64, stored: u64, seconds: f64, peak: u64| Row {
            nodes,
            stored,
            seconds,
            peak_memory: peak,
            ..Row::blank(seed, v)
        };
        use Verdict::*;
        let rows = [
            row(1, Won, 100, 40, 0.5, 4_000),
            row(2, Lost, 300, 90, 1.0, 9_900),
            row(3, Unknown, 600, 90, 2.5, 12_000),
            row(4, Won, 0, 0, 0.0, 1_000),
        ];
        let s = Summary::of(&rows);
        assert_eq!((s.deals, s.won, s.lost, s.unknown), (4, 2, 1, 1));
        let t = s.seconds.unwrap();
        assert_eq!((t.total, t.max), (4.0, 2.5));
        // 1,000 nodes in 4 s.
        assert_eq!(s.nodes_per_second(), Some(250.0));
        // Seeds 2 and 3 tie on positions stored: the first seed is named.
        let l = s.largest.unwrap();
        assert_eq!((l.seed, l.stored, l.peak_memory), (2, 90, 9_900));
        assert_eq!(l.bytes_per_position(), 110.0);
        // These rows do not record their tables' bytes.
        assert_eq!(l.table_bytes_per_position(), None);
        let text = s.to_string();
        assert!(
            text.contains(
                "most positions stored: seed 2, 90 positions; its peak memory 0.0 MiB, 110 bytes a position"
            ),
            "{text}"
        );
        // Where they do, the table's bytes over its positions.
        let mut rows = rows;
        rows[1].table_bytes = 1_548;
        rows[1].stored = 90 << 20;
        rows[1].peak_memory = 3 << 30;
        let l = Summary::of(&rows).largest.unwrap();
        assert_eq!(
            l.table_bytes_per_position(),
            Some(1_548.0 / (90 << 20) as f64)
        );
        rows[1].table_bytes = 1_548 << 20;
        let text = Summary::of(&rows).to_string();
        assert!(
            text.contains(
                "most positions stored: seed 2, 94371840 positions in a table of 1548.0 MiB, 17.2 bytes a position; its peak memory 3072.0 MiB"
            ),
            "{text}"
        );
        let empty = Summary::of(&[]);
        assert_eq!((empty.largest, empty.nodes_per_second()), (None, None));
        assert!(empty.found_by.is_empty());
        assert!(!empty.to_string().contains("found by"));
    }

    #[test]
    fn summaries_count_what_found_the_wins() {
        let row = |seed: u64, v: Verdict, by: &str| Row {
            nodes: 1,
            stored: 1,
            found_by: by.into(),
            ..Row::blank(seed, v)
        };
        use Verdict::*;
        let rows = [
            row(1, Won, "nrpa"),
            row(2, Won, "search"),
            row(3, Won, ""),
            row(4, Lost, ""),
            row(5, Won, "nrpa"),
            row(6, Won, "oracle"),
            row(7, Unknown, ""),
        ];
        let s = Summary::of(&rows);
        let want = [("search", 1), ("nrpa", 2), ("oracle", 1), ("", 1)];
        assert_eq!(s.found_by, want.map(|(n, k)| (n.to_string(), k)).to_vec());
        let text = s.to_string();
        assert!(
            text.contains(
                "wins found by: search 1, nrpa 2, oracle 1, not recorded 1 (reports before the found_by column)\n"
            ),
            "{text}"
        );
    }

    /// The nearness of the unknown deals: over those that record it (not
    /// 0), won and lost ones left out; the nearest is the lowest seed of
    /// a tie.
    #[test]
    fn summaries_say_how_near_the_unknown_deals_came() {
        let row = |seed: u64, verdict: Verdict, most_up: u32| Row {
            nodes: 1,
            stored: 1,
            most_up,
            ..Row::blank(seed, verdict)
        };
        use Verdict::*;
        let rows = [
            row(1, Won, 104),
            row(2, Unknown, 61),
            row(3, Unknown, 0),
            row(4, Unknown, 88),
            row(5, Lost, 95),
            row(6, Unknown, 40),
            row(7, Unknown, 88),
        ];
        let n = Summary::of(&rows).unknown_up.unwrap();
        assert_eq!((n.deals, n.median, n.seed, n.most_up), (4, 61, 4, 88));
        assert!(Summary::of(&rows).to_string().contains(
            "how near the unknown deals came (most cards up in one position, 4 deals): median 61, nearest seed 4 with 88\n"
        ));
        assert_eq!(Summary::of(&rows[..1]).unknown_up, None);
        assert_eq!(Summary::of(&rows[2..3]).unknown_up, None);
    }
}
