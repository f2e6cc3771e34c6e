//! Small rule sets shared by the solver's tests: every game's presets
//! and each value of each rule option, on reduced decks.

use demon_core::rules::{BaseChoice, Build, EmptySpace, GroupMoves, Redeals, Stock, TableauWrap};
use demon_core::{Game, GameKind, Loc, Move, Reading, RuleOverrides, Rules, Source, State};

/// A preset made small: few ranks, four piles for two decks, and a
/// reserve large enough that some deals are lost.
pub fn small(g: GameKind, reading: Reading, o: RuleOverrides) -> Option<Rules> {
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
pub fn variants(g: GameKind) -> Vec<(String, Rules)> {
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

/// SplitMix64: a small, fixed random sequence (the playouts', the soak's
/// draws), the same on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    #[allow(dead_code)] // not every test file uses it
    pub fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }

    #[allow(dead_code)] // not every test file uses it
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// `Some(x)` for half the draws.
    #[allow(dead_code)] // not every test file uses it
    pub fn maybe<T>(&mut self, x: impl FnOnce(&mut Rng) -> T) -> Option<T> {
        if self.coin() {
            Some(x(self))
        } else {
            None
        }
    }
}

/// Random playouts of deals `0..seeds` of every variant of `g`, at most
/// `steps` moves each; `visit` sees every position before its move, with
/// a name for messages. Foundation moves are favoured (one is taken half
/// the time one is offered) so that the playouts reach the middle and end
/// game. `salt` varies the random sequence.
#[allow(dead_code)] // not every test file uses it
pub fn playouts(
    g: GameKind,
    seeds: u64,
    steps: usize,
    salt: u64,
    mut visit: impl FnMut(&Game, &State, &str),
) {
    for (name, rules) in variants(g) {
        for seed in 0..seeds {
            let layout = Source::Native(seed).layout(&rules);
            let game = Game::new(&rules, &layout).unwrap();
            let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ salt);
            let mut st = game.initial();
            for step in 0..steps {
                if game.is_won(&st) {
                    break;
                }
                visit(&game, &st, &format!("{name} seed {seed} step {step}"));
                let moves = game.legal_moves(&st);
                if moves.is_empty() {
                    break;
                }
                let up: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        matches!(
                            m,
                            Move::Play {
                                to: Loc::Foundation(_),
                                ..
                            }
                        )
                    })
                    .collect();
                let m = if !up.is_empty() && rng.below(2) == 0 {
                    up[rng.below(up.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                game.play(&mut st, m);
            }
        }
    }
}

/// Canfield under Solvitaire's rules (`--group-moves any --tableau-wrap
/// base`), whose seeds 1-1,000 are recorded under `results/`.
#[allow(dead_code)] // not every test file uses it
pub fn published() -> Rules {
    Rules::resolve(
        GameKind::Canfield,
        Reading::Standard,
        &RuleOverrides {
            group_moves: Some(GroupMoves::Any),
            tableau_wrap: Some(TableauWrap::AtBase),
            ..Default::default()
        },
    )
    .unwrap()
}

/// What a layered search's counts keep across table rebuilds and resumed
/// sittings: the positions expanded (nodes less dead ends) and the
/// positions met (nodes plus table hits). A dead end is in no level's
/// file, so a rebuilt table has forgotten it, and one met again is a
/// node (and a dead end) where a search without the rebuild met a hit.
#[allow(dead_code)] // not every test file uses it
pub fn expanded_and_met(s: &demon_solver::Stats) -> (u64, u64) {
    (s.nodes - s.dead, s.nodes + s.hits)
}
