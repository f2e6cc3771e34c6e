//! The fast solver against the plain reference search, on many small deals
//! (reduced decks) of every game and every value of every rule option.
//! They must agree on every deal both decide; every win the fast solver
//! reports has already been replayed by the independent checker inside
//! `solve`.

use demon_core::rules::{BaseChoice, Build, EmptySpace, GroupMoves, Redeals, Stock, TableauWrap};
use demon_core::{Game, GameKind, Reading, RuleOverrides, Rules, Source};
use demon_solver::reference::reference_solve;
use demon_solver::{solve, solve_with, Limits, Options, Verdict};

/// A preset made small: few ranks, four piles for two decks, and a
/// reserve large enough that some deals are lost.
fn small(g: GameKind, reading: Reading, o: RuleOverrides) -> Option<Rules> {
    let p = g.preset(reading).ok()?;
    let (ranks, reserve, piles) = if p.decks == 2 {
        (4, 6, p.piles.min(4))
    } else if p.piles > 4 {
        (7, 6, p.piles)
    } else {
        (6, 6, p.piles)
    };
    let reserve = if p.reserve == 0 { 0 } else { reserve };
    // Small decks are easy: a single pass through the stock (unless the
    // variant sets the redeals) keeps lost deals common.
    let to_waste = o
        .stock_to_waste
        .unwrap_or(matches!(p.stock, Stock::ToWaste { .. }));
    let redeals = if to_waste {
        o.redeals.or(Some(Redeals::Limited(0)))
    } else {
        None
    };
    let o = RuleOverrides { redeals, ..o };
    Rules::resolve(
        g,
        reading,
        &RuleOverrides {
            ranks: Some(ranks),
            reserve: o.reserve.or(Some(reserve)),
            piles: o.piles.or(Some(piles)),
            ..o
        },
    )
    .ok()
}

/// Each preset, and each value of each option changed alone.
fn variants(g: GameKind) -> Vec<(String, Rules)> {
    let mut v = Vec::new();
    let mut add = |name: String, r: Option<Rules>| {
        if let Some(r) = r {
            if !v.iter().any(|(_, x): &(String, Rules)| *x == r) {
                v.push((name, r));
            }
        }
    };
    let d = RuleOverrides::default;
    add(format!("{g}"), small(g, Reading::Standard, d()));
    add(format!("{g} pysolfc"), small(g, Reading::Pysolfc, d()));
    for gm in [
        GroupMoves::Top,
        GroupMoves::Whole,
        GroupMoves::Pile,
        GroupMoves::Any,
    ] {
        add(
            format!("{g} group {gm:?}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    group_moves: Some(gm),
                    ..d()
                },
            ),
        );
    }
    for e in [
        EmptySpace::ReserveThenAny,
        EmptySpace::ReserveThenWaste,
        EmptySpace::Any,
    ] {
        add(
            format!("{g} empty {e:?}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    empty_space: Some(e),
                    ..d()
                },
            ),
        );
    }
    for b in [Build::AltColour, Build::Suit, Build::AnySuit] {
        add(
            format!("{g} build {b:?}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    build: Some(b),
                    ..d()
                },
            ),
        );
    }
    for w in [false, true] {
        add(
            format!("{g} worry {w}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    worrying_back: Some(w),
                    ..d()
                },
            ),
        );
        add(
            format!("{g} deal-when-empty {w}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    deal_only_when_no_empty: Some(!w),
                    ..d()
                },
            ),
        );
    }
    for w in [TableauWrap::No, TableauWrap::KingOnAce, TableauWrap::AtBase] {
        add(
            format!("{g} wrap {w:?}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    tableau_wrap: Some(w),
                    ..d()
                },
            ),
        );
    }
    for dr in [1, 3] {
        add(
            format!("{g} draw {dr}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    draw: Some(dr),
                    ..d()
                },
            ),
        );
    }
    for rd in [
        Redeals::Unlimited,
        Redeals::Limited(0),
        Redeals::Limited(1),
        Redeals::Limited(2),
    ] {
        add(
            format!("{g} redeals {rd:?}"),
            small(
                g,
                Reading::Standard,
                RuleOverrides {
                    redeals: Some(rd),
                    ..d()
                },
            ),
        );
    }
    add(
        format!("{g} selective"),
        small(
            g,
            Reading::Standard,
            RuleOverrides {
                base_choice: Some(BaseChoice::Selective),
                ..d()
            },
        ),
    );
    add(
        format!("{g} reserve 0"),
        small(
            g,
            Reading::Standard,
            RuleOverrides {
                reserve: Some(0),
                empty_space: Some(EmptySpace::Any),
                ..d()
            },
        ),
    );
    add(
        format!("{g} to-tableau"),
        small(
            g,
            Reading::Standard,
            RuleOverrides {
                stock_to_waste: Some(false),
                ..d()
            },
        ),
    );
    add(
        format!("{g} to-waste"),
        small(
            g,
            Reading::Standard,
            RuleOverrides {
                stock_to_waste: Some(true),
                ..d()
            },
        ),
    );
    v
}

/// Solves deals of every variant of `g`, round-robin, until `want` deals
/// have been compared.
fn check_family(g: GameKind, want: usize) -> (usize, usize, usize, usize) {
    let limits = Limits {
        max_nodes: Some(1_000_000),
        max_memory: 256 << 20,
        timeout: None,
    };
    let (mut compared, mut won, mut skipped, mut unknown) = (0, 0, 0, 0);
    let mut without_classes = 0;
    let vs = variants(g);
    for seed in 0..1000u64 {
        if compared >= want {
            break;
        }
        for (name, rules) in &vs {
            let rules = rules.clone();
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            let Some(want) = reference_solve(&game, 100_000) else {
                skipped += 1;
                continue;
            };
            let out = solve(&rules, &layout, &limits)
                .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
            let got = match out.verdict {
                Verdict::Won(_) => true,
                Verdict::Lost => false,
                Verdict::Unknown(l) => {
                    println!(
                        "{name} seed {seed}: undecided ({l}), {} nodes",
                        out.stats.nodes
                    );
                    unknown += 1;
                    continue;
                }
            };
            assert_eq!(
                got,
                want,
                "{name} seed {seed}: fast solver says won={got}, reference says won={want}\n{}",
                rules.signature()
            );
            compared += 1;
            won += usize::from(got);
            // Tableau classes (on by default) change the search only with
            // one deck and runs moving in any part: solve those again
            // without.
            if rules.decks == 1 && rules.group_moves == GroupMoves::Any {
                let o = Options {
                    tableau_classes: false,
                };
                let out = solve_with(&rules, &layout, &limits, &o)
                    .unwrap_or_else(|e| panic!("{name} seed {seed} (no classes): {e}"));
                match out.verdict {
                    Verdict::Won(_) => {
                        assert!(
                            want,
                            "{name} seed {seed}: without classes won, reference lost"
                        )
                    }
                    Verdict::Lost => {
                        assert!(
                            !want,
                            "{name} seed {seed}: without classes lost, reference won"
                        )
                    }
                    Verdict::Unknown(_) => unknown += 1,
                }
                without_classes += 1;
            }
        }
    }
    println!("{g}: {without_classes} deals also solved without tableau classes");
    (compared, won, skipped, unknown)
}

macro_rules! family {
    ($name:ident, $g:expr) => {
        #[test]
        fn $name() {
            let (compared, won, skipped, unknown) = check_family($g, 1000);
            println!(
                "{}: {compared} deals compared, {won} won; {skipped} too big for the reference, {unknown} not decided by the fast solver in 10^6 nodes",
                $g
            );
            assert!(compared >= 1000, "only {compared} deals compared");
            assert!(won > 0 && won < compared, "{won} of {compared} won: the test deals are degenerate");
            assert!(unknown * 100 <= compared, "{unknown} deals undecided by the fast solver");
        }
    };
}

family!(canfield, GameKind::Canfield);
family!(superior_canfield, GameKind::SuperiorCanfield);
family!(double_canfield, GameKind::DoubleCanfield);
family!(rainbow, GameKind::Rainbow);
family!(selective_canfield, GameKind::SelectiveCanfield);
family!(chameleon, GameKind::Chameleon);
family!(storehouse, GameKind::Storehouse);
family!(variegated_canfield, GameKind::VariegatedCanfield);
family!(american_toad, GameKind::AmericanToad);
family!(double_easthaven, GameKind::DoubleEasthaven);
family!(easthaven, GameKind::Easthaven);

#[test]
fn stock_kinds_are_distinct_in_the_variants() {
    // The variant list really changes the stock.
    let v = variants(GameKind::Canfield);
    assert!(v
        .iter()
        .any(|(_, r)| matches!(r.stock, Stock::ToTableau { .. })));
}
