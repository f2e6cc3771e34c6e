//! Rules as data: every dimension of GAMES.md §1 as a named option, the
//! presets of GAMES.md §2 (and PySolFC's readings of the same games), and
//! the check that a set of options makes sense.
//!
//! A [`Rules`] value is the single source of truth the game state, the
//! dealing procedure and (later) the solver are built from. Users reach it
//! through a [`GameKind`] preset, a [`Reading`] and a [`RuleOverrides`] of
//! the options they typed; [`Rules::resolve`] combines the three and rejects
//! contradictions before any work starts.

use std::fmt;

use crate::card::Rank;

/// The largest number of tableau piles any supported rule set may have.
/// American Toad and Double Easthaven use 8; a little headroom lets users
/// experiment without making the state bigger than it needs to be.
pub const MAX_PILES: usize = 10;

/// How the base rank of the foundations is fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// The first card dealt to a foundation fixes the base rank of all.
    FirstCard,
    /// A fixed rank (Ace for Easthaven, 2 for Storehouse).
    Fixed(Rank),
}

/// Whether the reserve is face down but for its top card, or all face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    Hidden,
    Open,
}

/// Cards dealt to each tableau pile at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableauDeal {
    /// One face-up card per pile, dealt from the last pile to the first.
    One,
    /// Three cards per pile, two face down under one face up, dealt in
    /// three rounds left to right (Easthaven).
    ThreeTwoDown,
}

impl TableauDeal {
    pub const fn cards(self) -> usize {
        match self {
            TableauDeal::One => 1,
            TableauDeal::ThreeTwoDown => 3,
        }
    }
    pub const fn face_down(self) -> usize {
        match self {
            TableauDeal::One => 0,
            TableauDeal::ThreeTwoDown => 2,
        }
    }
}

/// How tableau piles are built down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Build {
    AltColour,
    Suit,
    AnySuit,
}

/// How tableau building treats the ends of the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableauWrap {
    /// Never: nothing goes on an Ace.
    No,
    /// A King may go on an Ace (the Canfield games of GAMES.md).
    KingOnAce,
    /// Ranks wrap like the foundations: a King may go on an Ace, but the
    /// rank just below the base rank may not go on a base-rank card.
    /// This is how a solver that renumbers ranks from the base plays
    /// Canfield (Solvitaire's reading; with an Ace base it is `No`).
    AtBase,
}

/// Which cards may move between tableau piles as a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupMoves {
    /// One card at a time.
    Top,
    /// The top card alone, or the whole pile as a unit.
    Whole,
    /// Between tableau piles only whole piles move; a lone top card still
    /// goes to a foundation.
    Pile,
    /// Any properly built run from the top down.
    Any,
}

/// How empty tableau spaces are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EmptySpace {
    /// Filled at once from the reserve; once it is empty, by any card or
    /// run, not compulsory.
    ReserveThenAny,
    /// Filled at once from the reserve; once it is empty, only from the
    /// waste, not compulsory.
    ReserveThenWaste,
    /// Never filled automatically; any card or run may go there.
    Any,
}

impl EmptySpace {
    pub const fn uses_reserve(self) -> bool {
        !matches!(self, EmptySpace::Any)
    }
}

/// How many times the waste may be turned over to form a new stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Redeals {
    Unlimited,
    Limited(u8),
}

/// What the stock does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stock {
    /// Turned onto a waste pile `draw` cards at a time (1 or 3).
    ToWaste { draw: u8, redeals: Redeals },
    /// One card dealt onto every tableau pile, left to right, while cards
    /// last; no redeal. With `only_when_no_empty`, only when no pile is empty.
    ToTableau { only_when_no_empty: bool },
}

/// Whether the player chooses the base card (Selective Canfield).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaseChoice {
    Fixed,
    /// The player picks the base card from the `piles + 1` cards dealt for
    /// base and tableau; the others form the tableau.
    Selective,
}

/// A complete, validated rule set. Build one with [`Rules::resolve`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// 1 or 2 (two copies of every card).
    pub decks: u8,
    /// Ranks per suit: 13, or fewer for reduced decks (A, 2, … up to the
    /// `ranks`-th rank; the highest plays the King's part). Reduced decks
    /// keep exhaustive reference searches cheap in tests.
    pub ranks: u8,
    pub base: Base,
    /// All cards of the base rank are on the foundations from the start.
    pub preplaced: bool,
    /// A foundation's top card may come back to the tableau.
    pub worrying_back: bool,
    /// Cards in the reserve (0 = no reserve). Only its top card plays.
    pub reserve: u8,
    pub reserve_visibility: Visibility,
    /// Number of tableau piles.
    pub piles: u8,
    pub tableau_deal: TableauDeal,
    pub build: Build,
    /// Whether tableau building wraps around the ranks.
    pub tableau_wrap: TableauWrap,
    pub group_moves: GroupMoves,
    pub empty_space: EmptySpace,
    pub stock: Stock,
    pub base_choice: BaseChoice,
}

/// The games of GAMES.md §2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    Canfield,
    SuperiorCanfield,
    DoubleCanfield,
    Rainbow,
    SelectiveCanfield,
    Chameleon,
    Storehouse,
    VariegatedCanfield,
    AmericanToad,
    DoubleEasthaven,
    Easthaven,
}

/// Whose reading of a game's rules a preset follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Reading {
    /// The seed documents, as GAMES.md §2 settles them.
    #[default]
    Standard,
    /// PySolFC's implementation of the game (GAMES.md §2, notes).
    Pysolfc,
}

impl GameKind {
    pub const ALL: [GameKind; 11] = [
        GameKind::Canfield,
        GameKind::SuperiorCanfield,
        GameKind::DoubleCanfield,
        GameKind::Rainbow,
        GameKind::SelectiveCanfield,
        GameKind::Chameleon,
        GameKind::Storehouse,
        GameKind::VariegatedCanfield,
        GameKind::AmericanToad,
        GameKind::DoubleEasthaven,
        GameKind::Easthaven,
    ];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Canfield => "canfield",
            GameKind::SuperiorCanfield => "superior-canfield",
            GameKind::DoubleCanfield => "double-canfield",
            GameKind::Rainbow => "rainbow",
            GameKind::SelectiveCanfield => "selective-canfield",
            GameKind::Chameleon => "chameleon",
            GameKind::Storehouse => "storehouse",
            GameKind::VariegatedCanfield => "variegated-canfield",
            GameKind::AmericanToad => "american-toad",
            GameKind::DoubleEasthaven => "double-easthaven",
            GameKind::Easthaven => "easthaven",
        }
    }

    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Canfield => "Canfield",
            GameKind::SuperiorCanfield => "Superior Canfield",
            GameKind::DoubleCanfield => "Double Canfield",
            GameKind::Rainbow => "Rainbow",
            GameKind::SelectiveCanfield => "Selective Canfield",
            GameKind::Chameleon => "Chameleon",
            GameKind::Storehouse => "Storehouse",
            GameKind::VariegatedCanfield => "Variegated Canfield",
            GameKind::AmericanToad => "American Toad",
            GameKind::DoubleEasthaven => "Double Easthaven",
            GameKind::Easthaven => "Easthaven",
        }
    }

    /// PySolFC's game id, where PySolFC has the game. GAMES.md calls
    /// PySolFC's Double Easthaven [452] an alias of Gypsy [1]; PySolFC's
    /// source (`games/klondike.py`, `DoubleEasthaven(Easthaven)`) has it as
    /// a game of its own, dealt exactly like Gypsy, so the deals agree.
    pub const fn pysolfc_id(self) -> Option<u32> {
        match self {
            GameKind::Canfield => Some(105),
            GameKind::SuperiorCanfield => Some(101),
            GameKind::DoubleCanfield => Some(106),
            GameKind::Rainbow => Some(108),
            GameKind::SelectiveCanfield => None,
            GameKind::Chameleon => Some(43),
            GameKind::Storehouse => Some(100),
            GameKind::VariegatedCanfield => Some(102),
            GameKind::AmericanToad => Some(103),
            GameKind::DoubleEasthaven => Some(452),
            GameKind::Easthaven => Some(224),
        }
    }

    pub fn from_name(s: &str) -> Option<GameKind> {
        let norm: String = s
            .trim()
            .chars()
            .map(|c| {
                if c == '_' || c == ' ' {
                    '-'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        GameKind::ALL.into_iter().find(|g| g.name() == norm)
    }

    /// The preset of GAMES.md §2 under the given reading.
    pub fn preset(self, reading: Reading) -> Result<Rules, RulesError> {
        use GameKind::*;
        let canfield = Rules {
            decks: 1,
            ranks: 13,
            base: Base::FirstCard,
            preplaced: false,
            worrying_back: false,
            reserve: 13,
            reserve_visibility: Visibility::Hidden,
            piles: 4,
            tableau_deal: TableauDeal::One,
            build: Build::AltColour,
            tableau_wrap: TableauWrap::KingOnAce,
            group_moves: GroupMoves::Whole,
            empty_space: EmptySpace::ReserveThenAny,
            stock: Stock::ToWaste {
                draw: 3,
                redeals: Redeals::Unlimited,
            },
            base_choice: BaseChoice::Fixed,
        };
        let easthaven = Rules {
            decks: 1,
            ranks: 13,
            base: Base::Fixed(Rank::ACE),
            preplaced: false,
            worrying_back: false,
            reserve: 0,
            reserve_visibility: Visibility::Hidden,
            piles: 7,
            tableau_deal: TableauDeal::ThreeTwoDown,
            build: Build::AltColour,
            tableau_wrap: TableauWrap::No,
            group_moves: GroupMoves::Any,
            empty_space: EmptySpace::Any,
            stock: Stock::ToTableau {
                only_when_no_empty: true,
            },
            base_choice: BaseChoice::Fixed,
        };
        let pysol = reading == Reading::Pysolfc;
        let r = match self {
            Canfield => canfield,
            SuperiorCanfield => Rules {
                reserve_visibility: Visibility::Open,
                // PySolFC: a single top card or the whole pile only.
                group_moves: if pysol {
                    GroupMoves::Whole
                } else {
                    GroupMoves::Any
                },
                empty_space: EmptySpace::Any,
                ..canfield
            },
            DoubleCanfield => Rules {
                decks: 2,
                piles: 5,
                empty_space: EmptySpace::ReserveThenWaste,
                ..canfield
            },
            Rainbow => Rules {
                build: if pysol {
                    Build::AnySuit
                } else {
                    Build::AltColour
                },
                stock: Stock::ToWaste {
                    draw: 1,
                    redeals: Redeals::Limited(if pysol { 0 } else { 2 }),
                },
                ..canfield
            },
            SelectiveCanfield => {
                if pysol {
                    return Err(RulesError::NotInPysolfc(self));
                }
                Rules {
                    base_choice: BaseChoice::Selective,
                    ..canfield
                }
            }
            Chameleon => Rules {
                piles: 3,
                reserve: if pysol { 12 } else { 13 },
                build: Build::AnySuit,
                stock: Stock::ToWaste {
                    draw: if pysol { 1 } else { 3 },
                    redeals: Redeals::Limited(0),
                },
                ..canfield
            },
            Storehouse => Rules {
                base: Base::Fixed(Rank::TWO),
                preplaced: true,
                build: Build::Suit,
                stock: Stock::ToWaste {
                    draw: if pysol { 1 } else { 3 },
                    redeals: Redeals::Limited(2),
                },
                ..canfield
            },
            VariegatedCanfield => Rules {
                decks: 2,
                base: Base::Fixed(Rank::ACE),
                preplaced: true,
                reserve_visibility: Visibility::Open,
                piles: 5,
                tableau_wrap: TableauWrap::No,
                stock: Stock::ToWaste {
                    draw: 3,
                    redeals: Redeals::Limited(2),
                },
                ..canfield
            },
            AmericanToad => Rules {
                decks: 2,
                reserve: 20,
                reserve_visibility: if pysol {
                    Visibility::Open
                } else {
                    Visibility::Hidden
                },
                piles: 8,
                build: Build::Suit,
                stock: Stock::ToWaste {
                    draw: 1,
                    redeals: Redeals::Limited(1),
                },
                ..canfield
            },
            DoubleEasthaven => Rules {
                decks: 2,
                piles: 8,
                // PySolFC's Double Easthaven, like its Easthaven and Gypsy:
                // deal at any time, worrying back allowed.
                worrying_back: pysol,
                stock: Stock::ToTableau {
                    only_when_no_empty: !pysol,
                },
                ..easthaven
            },
            Easthaven => Rules {
                worrying_back: pysol,
                stock: Stock::ToTableau {
                    only_when_no_empty: !pysol,
                },
                ..easthaven
            },
        };
        r.validate()?;
        Ok(r)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule options a user typed; `None` keeps the preset's value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleOverrides {
    pub decks: Option<u8>,
    pub ranks: Option<u8>,
    pub base: Option<Base>,
    pub preplaced: Option<bool>,
    pub worrying_back: Option<bool>,
    pub reserve: Option<u8>,
    pub reserve_visibility: Option<Visibility>,
    pub piles: Option<u8>,
    pub tableau_deal: Option<TableauDeal>,
    pub build: Option<Build>,
    pub tableau_wrap: Option<TableauWrap>,
    pub group_moves: Option<GroupMoves>,
    pub empty_space: Option<EmptySpace>,
    /// `Some(true)` for a to-waste stock, `Some(false)` for to-tableau.
    pub stock_to_waste: Option<bool>,
    pub draw: Option<u8>,
    pub redeals: Option<Redeals>,
    /// For a to-tableau stock: deal only when no pile is empty.
    pub deal_only_when_no_empty: Option<bool>,
    pub base_choice: Option<BaseChoice>,
}

/// A rule set that cannot be played, named in the user's terms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("{0} is not in PySolFC, so it has no PySolFC reading (drop --rules pysolfc)")]
    NotInPysolfc(GameKind),
    #[error("--decks must be 1 or 2, not {0}")]
    Decks(u8),
    #[error("--ranks must be between 3 and 13, not {0}")]
    Ranks(u8),
    #[error("--base {0} is not among the {1} ranks of this deck")]
    BaseOutsideDeck(char, u8),
    #[error("--piles must be between 1 and {MAX_PILES}, not {0}")]
    Piles(u8),
    #[error("--draw must be 1 or 3, not {0}")]
    Draw(u8),
    #[error("--draw and --redeals apply to a stock turned onto a waste pile, but this rule set deals the stock onto the tableau (add --stock to-waste)")]
    DrawOnTableauStock,
    #[error("--deal-when-empty applies to a stock dealt onto the tableau, but this rule set turns the stock onto a waste pile (add --stock to-tableau)")]
    DealWhenEmptyOnWasteStock,
    #[error("--empty {0} fills spaces from the reserve, but this rule set has no reserve (use --empty any, or give --reserve N)")]
    ReserveFillWithoutReserve(&'static str),
    #[error("--preplaced needs a fixed base rank (add --base A or --base 2 …); with --base first-card no rank is known before the deal")]
    PreplacedNeedsFixedBase,
    #[error("--base-choice selective picks the base card, so it needs --base first-card, no pre-placed cards and one card per pile")]
    SelectiveNeedsFirstCard,
    #[error("the deal needs {needed} cards ({what}) but {} {} {have}", decks_word(*decks), if *decks == 1 { "holds" } else { "hold" })]
    TooManyCards {
        needed: usize,
        have: usize,
        decks: u8,
        what: String,
    },
    #[error("the stock would hold {0} cards; at most 127 are supported")]
    StockTooBig(usize),
}

impl Rules {
    /// The preset of `game` under `reading`, with the user's `overrides`
    /// applied and the result checked.
    pub fn resolve(
        game: GameKind,
        reading: Reading,
        o: &RuleOverrides,
    ) -> Result<Rules, RulesError> {
        let mut r = game.preset(reading)?;
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = o.$f { r.$f = v; } )* };
        }
        set!(
            decks,
            ranks,
            base,
            preplaced,
            worrying_back,
            reserve,
            reserve_visibility,
            piles,
            tableau_deal,
            build,
            tableau_wrap,
            group_moves,
            empty_space,
            base_choice
        );

        // The stock is one dimension with sub-options; build it from the
        // preset's and the user's parts, and reject sub-options that do not
        // belong to the kind of stock chosen.
        let to_waste = o
            .stock_to_waste
            .unwrap_or(matches!(r.stock, Stock::ToWaste { .. }));
        r.stock = if to_waste {
            if o.deal_only_when_no_empty.is_some() {
                return Err(RulesError::DealWhenEmptyOnWasteStock);
            }
            let (d0, r0) = match r.stock {
                Stock::ToWaste { draw, redeals } => (draw, redeals),
                Stock::ToTableau { .. } => (3, Redeals::Unlimited),
            };
            Stock::ToWaste {
                draw: o.draw.unwrap_or(d0),
                redeals: o.redeals.unwrap_or(r0),
            }
        } else {
            if o.draw.is_some() || o.redeals.is_some() {
                return Err(RulesError::DrawOnTableauStock);
            }
            let w0 = match r.stock {
                Stock::ToTableau { only_when_no_empty } => only_when_no_empty,
                Stock::ToWaste { .. } => true,
            };
            Stock::ToTableau {
                only_when_no_empty: o.deal_only_when_no_empty.unwrap_or(w0),
            }
        };
        r.validate()?;
        Ok(r)
    }

    /// Rejects rule sets that cannot be played.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(1..=2).contains(&self.decks) {
            return Err(RulesError::Decks(self.decks));
        }
        if !(3..=13).contains(&self.ranks) {
            return Err(RulesError::Ranks(self.ranks));
        }
        if let Base::Fixed(r) = self.base {
            if r.index() >= self.ranks {
                return Err(RulesError::BaseOutsideDeck(r.letter(), self.ranks));
            }
        }
        if self.piles == 0 || self.piles as usize > MAX_PILES {
            return Err(RulesError::Piles(self.piles));
        }
        if let Stock::ToWaste { draw, .. } = self.stock {
            if draw != 1 && draw != 3 {
                return Err(RulesError::Draw(draw));
            }
        }
        if self.reserve == 0 && self.empty_space.uses_reserve() {
            return Err(RulesError::ReserveFillWithoutReserve(empty_space_name(
                self.empty_space,
            )));
        }
        if self.preplaced && self.base == Base::FirstCard {
            return Err(RulesError::PreplacedNeedsFixedBase);
        }
        if self.base_choice == BaseChoice::Selective
            && (self.base != Base::FirstCard
                || self.preplaced
                || self.tableau_deal != TableauDeal::One)
        {
            return Err(RulesError::SelectiveNeedsFirstCard);
        }
        let have = self.deck_size();
        let needed = self.dealt_cards();
        if needed > have {
            return Err(RulesError::TooManyCards {
                needed,
                have,
                decks: self.decks,
                what: format!(
                    "{} on foundations, {} in the reserve, {} × {} on the tableau",
                    self.foundation_cards_at_start(),
                    self.reserve,
                    self.piles,
                    self.tableau_deal.cards()
                ),
            });
        }
        if have - needed > 127 {
            return Err(RulesError::StockTooBig(have - needed));
        }
        Ok(())
    }

    /// Cards on the foundations at the start of a game (base card or
    /// pre-placed cards).
    pub fn foundation_cards_at_start(&self) -> usize {
        if self.preplaced {
            4 * self.decks as usize
        } else if self.base == Base::FirstCard {
            1
        } else {
            0
        }
    }

    /// Cards dealt before the stock: foundations, reserve, tableau.
    pub fn dealt_cards(&self) -> usize {
        self.foundation_cards_at_start()
            + self.reserve as usize
            + self.piles as usize * self.tableau_deal.cards()
    }

    /// Total cards in the deck(s).
    pub fn deck_size(&self) -> usize {
        4 * self.ranks as usize * self.decks as usize
    }

    /// Whether `c` belongs to the deck (reduced decks leave out high ranks).
    pub fn in_deck(&self, c: crate::card::Card) -> bool {
        c.rank().index() < self.ranks
    }

    /// The suit (0-3) of foundation `f`: a suit's foundations are next to
    /// each other. Without a division by the run-time number of decks.
    #[inline]
    pub fn foundation_suit(&self, f: usize) -> usize {
        if self.decks == 2 {
            f / 2
        } else {
            f
        }
    }

    /// The rank `k` steps above `r` in this deck, wrapping from the highest
    /// rank to the Ace.
    pub fn rank_add(&self, r: Rank, k: u8) -> Rank {
        Rank::new((r.index() + k) % self.ranks).expect("rank below 13")
    }

    /// Number of foundations (four per deck).
    pub fn foundations(&self) -> usize {
        4 * self.decks as usize
    }

    /// The rule options, as `(option, value)` pairs in command-line syntax:
    /// what `demon rules` prints and what a CSV report records.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        let yn = |b: bool| if b { "yes" } else { "no" }.to_string();
        let mut v = vec![
            ("decks", self.decks.to_string()),
            ("ranks", self.ranks.to_string()),
            (
                "base",
                match self.base {
                    Base::FirstCard => "first-card".to_string(),
                    Base::Fixed(r) => r.letter().to_string(),
                },
            ),
            (
                "base-choice",
                match self.base_choice {
                    BaseChoice::Fixed => "fixed",
                    BaseChoice::Selective => "selective",
                }
                .to_string(),
            ),
            ("preplaced", yn(self.preplaced)),
            ("worrying-back", yn(self.worrying_back)),
            ("reserve", self.reserve.to_string()),
            (
                "reserve-visibility",
                match self.reserve_visibility {
                    Visibility::Hidden => "hidden",
                    Visibility::Open => "open",
                }
                .to_string(),
            ),
            ("piles", self.piles.to_string()),
            ("tableau-deal", self.tableau_deal.cards().to_string()),
            (
                "build",
                match self.build {
                    Build::AltColour => "alternate-colour",
                    Build::Suit => "suit",
                    Build::AnySuit => "any-suit",
                }
                .to_string(),
            ),
            (
                "tableau-wrap",
                match self.tableau_wrap {
                    TableauWrap::No => "no",
                    TableauWrap::KingOnAce => "yes",
                    TableauWrap::AtBase => "base",
                }
                .to_string(),
            ),
            (
                "group-moves",
                match self.group_moves {
                    GroupMoves::Top => "top",
                    GroupMoves::Whole => "whole",
                    GroupMoves::Pile => "pile",
                    GroupMoves::Any => "any",
                }
                .to_string(),
            ),
            ("empty", empty_space_name(self.empty_space).to_string()),
        ];
        match self.stock {
            Stock::ToWaste { draw, redeals } => {
                v.push(("stock", "to-waste".to_string()));
                v.push(("draw", draw.to_string()));
                v.push((
                    "redeals",
                    match redeals {
                        Redeals::Unlimited => "unlimited".to_string(),
                        Redeals::Limited(n) => n.to_string(),
                    },
                ));
            }
            Stock::ToTableau { only_when_no_empty } => {
                v.push(("stock", "to-tableau".to_string()));
                v.push(("deal-when-empty", yn(!only_when_no_empty)));
            }
        }
        v
    }

    /// A one-line form of [`Rules::options`], `decks=1 base=first-card …`,
    /// stable so that reports can compare rule sets by string.
    pub fn signature(&self) -> String {
        self.options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A plain-English description of each rule, one per line, for
    /// `demon rules`.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        let decks = if self.decks == 1 {
            decks_word(1)
        } else {
            format!(
                "{} (the two copies of a card are interchangeable)",
                decks_word(self.decks)
            )
        };
        let reduced = if self.ranks == 13 {
            String::new()
        } else {
            format!(
                ", reduced to the ranks A to {}",
                Rank::new(self.ranks - 1).expect("valid").letter()
            )
        };
        out.push(format!(
            "Deck: {decks}{reduced}, {} cards.",
            self.deck_size()
        ));
        let wrap_note = |r: Rank| {
            if r == Rank::ACE {
                "built up in suit from Ace to King".to_string()
            } else {
                format!(
                    "built up in suit from {r}, wrapping King to Ace ({r} … K A … {})",
                    self.rank_add(r, self.ranks - 1)
                )
            }
        };
        let f = self.foundations();
        out.push(match (self.base, self.preplaced, self.base_choice) {
            (_, _, BaseChoice::Selective) => format!(
                "Foundations: {f}; the player chooses the base card from the {} cards dealt for base and tableau; built up in suit from the base rank, wrapping King to Ace.",
                self.piles + 1
            ),
            (Base::FirstCard, _, _) => format!(
                "Foundations: {f}; the first card dealt starts one and fixes the base rank of all; built up in suit, wrapping King to Ace."
            ),
            (Base::Fixed(r), true, _) => format!("Foundations: {f}, each started with a {r} placed before the deal; {}.", wrap_note(r)),
            (Base::Fixed(r), false, _) => format!("Foundations: {f}, empty at the start, each started by a {r}; {}.", wrap_note(r)),
        });
        out.push(if self.worrying_back {
            "Worrying back: a foundation's top card may return to the tableau.".to_string()
        } else {
            "Worrying back: no; a card on a foundation stays there.".to_string()
        });
        out.push(if self.reserve == 0 {
            "Reserve: none.".to_string()
        } else {
            format!(
                "Reserve: {} cards, {}; only the top card is playable.",
                self.reserve,
                match self.reserve_visibility {
                    Visibility::Hidden => "face down but for the top card",
                    Visibility::Open => "all face up",
                }
            )
        });
        out.push(format!(
            "Tableau: {} piles, {}.",
            self.piles,
            match self.tableau_deal {
                TableauDeal::One => "one face-up card each",
                TableauDeal::ThreeTwoDown => "three cards each, two face down under one face up; a face-down card turns up when it becomes the top of its pile",
            }
        ));
        out.push(format!(
            "Building: down in {}{}.",
            match self.build {
                Build::AltColour => "alternate colours",
                Build::Suit => "suit",
                Build::AnySuit => "any suit",
            },
            match self.tableau_wrap {
                TableauWrap::KingOnAce => ", a King may go on an Ace",
                TableauWrap::No => ", not King on Ace",
                TableauWrap::AtBase => ", wrapping like the foundations: a King may go on an Ace, but not the rank below the base on a base card",
            }
        ));
        out.push(format!(
            "Moving cards: {}.",
            match self.group_moves {
                GroupMoves::Top => "one card at a time",
                GroupMoves::Whole => "the top card alone, or a whole pile as a unit",
                GroupMoves::Pile => "between tableau piles only whole piles move; a lone top card still goes to a foundation",
                GroupMoves::Any => "any properly built run from the top of a pile",
            }
        ));
        out.push(format!(
            "Empty spaces: {}.",
            match self.empty_space {
                EmptySpace::ReserveThenAny => "filled at once from the reserve; once the reserve is empty, by any card or run, when the player likes",
                EmptySpace::ReserveThenWaste => "filled at once from the reserve; once the reserve is empty, only from the waste, when the player likes",
                EmptySpace::Any => "never filled automatically; any card or run may go there",
            }
        ));
        out.push(match self.stock {
            Stock::ToWaste { draw, redeals } => format!(
                "Stock: turned onto the waste {} at a time; {}.",
                draw,
                match redeals {
                    Redeals::Unlimited => "unlimited redeals".to_string(),
                    Redeals::Limited(0) => "no redeal".to_string(),
                    Redeals::Limited(1) => "one redeal (two passes)".to_string(),
                    Redeals::Limited(n) => format!("{n} redeals ({} passes)", n + 1),
                }
            ),
            Stock::ToTableau { only_when_no_empty } => format!(
                "Stock: one card dealt onto every tableau pile, left to right, while cards last{}; no redeal.",
                if only_when_no_empty { ", only when no pile is empty" } else { ", at any time" }
            ),
        });
        out
    }
}

/// The command-line name of an empty-space policy.
pub const fn empty_space_name(e: EmptySpace) -> &'static str {
    match e {
        EmptySpace::ReserveThenAny => "reserve-then-any",
        EmptySpace::ReserveThenWaste => "reserve-then-waste",
        EmptySpace::Any => "any",
    }
}

/// "one deck" or "two decks", for messages and [`Rules::describe`].
pub(crate) fn decks_word(decks: u8) -> String {
    match decks {
        1 => "one deck".to_string(),
        2 => "two decks".to_string(),
        n => format!("{n} decks"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_named() {
        for g in GameKind::ALL {
            let r = g.preset(Reading::Standard).unwrap();
            assert_eq!(GameKind::from_name(g.name()), Some(g));
            assert!(r.dealt_cards() < r.deck_size());
            let p = g.preset(Reading::Pysolfc);
            assert_eq!(p.is_ok(), g.pysolfc_id().is_some(), "{g}");
        }
    }

    #[test]
    fn presets_follow_the_table_of_games_md() {
        let c = GameKind::Canfield.preset(Reading::Standard).unwrap();
        assert_eq!(c.signature(), "decks=1 ranks=13 base=first-card base-choice=fixed preplaced=no worrying-back=no reserve=13 reserve-visibility=hidden piles=4 tableau-deal=1 build=alternate-colour tableau-wrap=yes group-moves=whole empty=reserve-then-any stock=to-waste draw=3 redeals=unlimited");
        let s = GameKind::Storehouse.preset(Reading::Standard).unwrap();
        assert_eq!(
            (s.base, s.preplaced, s.build),
            (Base::Fixed(Rank::TWO), true, Build::Suit)
        );
        assert_eq!(
            s.stock,
            Stock::ToWaste {
                draw: 3,
                redeals: Redeals::Limited(2)
            }
        );
        let dh = GameKind::DoubleEasthaven.preset(Reading::Standard).unwrap();
        assert_eq!(dh.dealt_cards(), 24);
        assert_eq!(
            dh.stock,
            Stock::ToTableau {
                only_when_no_empty: true
            }
        );
        let ch = GameKind::Chameleon.preset(Reading::Pysolfc).unwrap();
        assert_eq!(
            (ch.reserve, ch.stock),
            (
                12,
                Stock::ToWaste {
                    draw: 1,
                    redeals: Redeals::Limited(0)
                }
            )
        );
        let gy = GameKind::DoubleEasthaven.preset(Reading::Pysolfc).unwrap();
        assert!(gy.worrying_back);
        assert_eq!(
            gy.stock,
            Stock::ToTableau {
                only_when_no_empty: false
            }
        );
    }

    #[test]
    fn contradictions_are_errors() {
        let o = RuleOverrides {
            draw: Some(3),
            ..Default::default()
        };
        assert_eq!(
            Rules::resolve(GameKind::Easthaven, Reading::Standard, &o),
            Err(RulesError::DrawOnTableauStock)
        );
        let o = RuleOverrides {
            empty_space: Some(EmptySpace::ReserveThenAny),
            ..Default::default()
        };
        assert!(matches!(
            Rules::resolve(GameKind::DoubleEasthaven, Reading::Standard, &o),
            Err(RulesError::ReserveFillWithoutReserve("reserve-then-any"))
        ));
        let o = RuleOverrides {
            reserve: Some(0),
            ..Default::default()
        };
        assert!(Rules::resolve(GameKind::Canfield, Reading::Standard, &o).is_err());
        let o = RuleOverrides {
            deal_only_when_no_empty: Some(false),
            ..Default::default()
        };
        assert_eq!(
            Rules::resolve(GameKind::Canfield, Reading::Standard, &o),
            Err(RulesError::DealWhenEmptyOnWasteStock)
        );
        let o = RuleOverrides {
            reserve: Some(60),
            ..Default::default()
        };
        let err = Rules::resolve(GameKind::Canfield, Reading::Standard, &o).unwrap_err();
        assert!(matches!(err, RulesError::TooManyCards { .. }));
        assert_eq!(
            err.to_string(),
            "the deal needs 65 cards (1 on foundations, 60 in the reserve, 4 × 1 on the tableau) \
             but one deck holds 52"
        );
        let o = RuleOverrides {
            base: Some(Base::FirstCard),
            ..Default::default()
        };
        assert_eq!(
            Rules::resolve(GameKind::Storehouse, Reading::Standard, &o),
            Err(RulesError::PreplacedNeedsFixedBase)
        );
        assert_eq!(
            Rules::resolve(
                GameKind::SelectiveCanfield,
                Reading::Pysolfc,
                &RuleOverrides::default()
            ),
            Err(RulesError::NotInPysolfc(GameKind::SelectiveCanfield))
        );
    }

    #[test]
    fn overrides_change_one_dimension() {
        let o = RuleOverrides {
            group_moves: Some(GroupMoves::Any),
            ..Default::default()
        };
        let r = Rules::resolve(GameKind::Canfield, Reading::Standard, &o).unwrap();
        let c = GameKind::Canfield.preset(Reading::Standard).unwrap();
        assert_eq!(
            Rules {
                group_moves: GroupMoves::Whole,
                ..r.clone()
            },
            c
        );
        let o = RuleOverrides {
            stock_to_waste: Some(true),
            ..Default::default()
        };
        let r = Rules::resolve(GameKind::Easthaven, Reading::Standard, &o).unwrap();
        assert_eq!(
            r.stock,
            Stock::ToWaste {
                draw: 3,
                redeals: Redeals::Unlimited
            }
        );
    }
}
