//! Deals: where the card sequence comes from, kept apart from each game's
//! dealing procedure (GAMES.md §4).
//!
//! A [`Layout`] is an unvalidated picture of the table at the start of a
//! game, with public fields, as a person would lay it out; a card sequence
//! becomes one through [`Layout::deal`], a deal file through
//! [`crate::format`]. [`crate::state::Game::new`] checks a layout against
//! the rules and builds the playable state from it.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::card::{Card, CardCounts};
use crate::pysolfc::{self, GameNumber};
use crate::rules::{Base, BaseChoice, Rules, TableauDeal};

/// One tableau pile: `cards` from bottom to top, of which the first
/// `face_down` are face down.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutPile {
    pub cards: Vec<Card>,
    pub face_down: usize,
}

/// The table at the start of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Cards on the foundations at the start, in the order placed: the
    /// base card, or the pre-placed cards.
    pub foundations: Vec<Card>,
    /// The reserve, bottom to top (the playable card last).
    pub reserve: Vec<Card>,
    /// The tableau piles, left to right. Empty while a Selective Canfield
    /// base card is still to be chosen.
    pub tableau: Vec<LayoutPile>,
    /// Selective Canfield: the cards the base is chosen from, in the order
    /// dealt.
    pub selection: Vec<Card>,
    /// The stock, the next card to be turned first.
    pub stock: Vec<Card>,
    /// The waste, bottom to top (usually empty at the start; PySolFC turns
    /// the first cards of a Canfield stock onto it as part of the deal).
    pub waste: Vec<Card>,
}

/// Where a deal's card sequence comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// demon's own portable generator.
    Native(u64),
    /// PySolFC's game number.
    Pysolfc(GameNumber),
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Native(s) => write!(f, "seed {s}"),
            Source::Pysolfc(n) => write!(f, "PySolFC #{n}"),
        }
    }
}

impl Source {
    /// The dealing order of this source for the given rules, first card
    /// dealt first, with PySolFC's shuffle hook for pre-placed cards applied
    /// (for native seeds the hook changes nothing the procedure does not
    /// already do, see [`preplace_hook`]).
    pub fn sequence(self, rules: &Rules) -> Vec<Card> {
        let mut cards = match self {
            Source::Native(seed) => native_order(seed, rules.decks, rules.ranks),
            // PySolFC has no reduced decks: its order, with the left-out
            // ranks removed.
            Source::Pysolfc(n) => {
                let mut v = pysolfc::dealing_order(n, rules.decks);
                v.retain(|&c| rules.in_deck(c));
                v
            }
        };
        if rules.preplaced {
            if let Base::Fixed(r) = rules.base {
                preplace_hook(&mut cards, r);
            }
        }
        cards
    }

    pub fn layout(self, rules: &Rules) -> Layout {
        Layout::deal(rules, &self.sequence(rules))
    }
}

/// Key material for native seeds. Changing it changes every native deal:
/// never do that (the golden tests in `tests/golden.rs` pin it).
const NATIVE_DOMAIN: &[u8; 16] = b"demon native v1\0";

/// demon's own deals: ChaCha20 keyed by the seed, and a Fisher–Yates
/// shuffle written here (a library shuffle may change between versions).
/// The unshuffled deck is PySolFC's order; the shuffled list is the
/// dealing order.
pub fn native_order(seed: u64, decks: u8, ranks: u8) -> Vec<Card> {
    let mut key = [0u8; 32];
    key[..16].copy_from_slice(NATIVE_DOMAIN);
    key[16..24].copy_from_slice(&seed.to_le_bytes());
    let mut rng = ChaCha20Rng::from_seed(key);
    let mut cards: Vec<Card> = (0..decks)
        .flat_map(|_| Card::all().filter(|c| c.rank().index() < ranks))
        .collect();
    for i in (1..cards.len()).rev() {
        let j = uniform(&mut rng, i as u32 + 1) as usize;
        cards.swap(i, j);
    }
    cards
}

/// A uniform integer in `0..n` by rejection (no modulo bias).
fn uniform(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let limit = (u32::MAX / n) * n;
    loop {
        let x = rng.next_u32();
        if x < limit {
            return x % n;
        }
    }
}

/// PySolFC's shuffle hook for games with pre-placed foundation cards
/// (Storehouse, Variegated Canfield): the cards of the base rank move to
/// the front of the dealing order, clubs first, then spades, hearts,
/// diamonds; two copies of a card and all other cards keep their order.
pub fn preplace_hook(cards: &mut Vec<Card>, base: crate::card::Rank) {
    let mut pre: Vec<Card> = cards.iter().copied().filter(|c| c.rank() == base).collect();
    pre.sort_by_key(|c| c.suit()); // stable: copies keep their order
    let rest = cards.iter().copied().filter(|c| c.rank() != base);
    *cards = pre.into_iter().chain(rest).collect();
}

impl Layout {
    /// Deals a card sequence (first card dealt first) by the procedure of
    /// GAMES.md §4.1: pre-placed cards, base card, reserve (first dealt at
    /// the bottom), tableau, stock. `cards` must hold the whole deck.
    pub fn deal(rules: &Rules, cards: &[Card]) -> Layout {
        let mut it = cards.iter().copied();
        let mut l = Layout::default();
        let mut take = |n: usize| -> Vec<Card> { it.by_ref().take(n).collect() };
        if rules.preplaced {
            l.foundations = take(rules.foundations());
        } else if rules.base == Base::FirstCard && rules.base_choice == BaseChoice::Fixed {
            l.foundations = take(1);
        }
        // Selective Canfield deals the reserve first, then the cards the
        // base is chosen from.
        l.reserve = take(rules.reserve as usize);
        let piles = rules.piles as usize;
        if rules.base_choice == BaseChoice::Selective {
            l.selection = take(piles + 1);
        } else {
            match rules.tableau_deal {
                TableauDeal::One => {
                    // One card per pile, from the last pile to the first.
                    let row = take(piles);
                    l.tableau = row
                        .into_iter()
                        .rev()
                        .map(|c| LayoutPile {
                            cards: vec![c],
                            face_down: 0,
                        })
                        .collect();
                }
                TableauDeal::ThreeTwoDown => {
                    l.tableau = vec![
                        LayoutPile {
                            cards: Vec::new(),
                            face_down: 2
                        };
                        piles
                    ];
                    for _round in 0..3 {
                        for (p, c) in l.tableau.iter_mut().zip(take(piles)) {
                            p.cards.push(c);
                        }
                    }
                }
            }
        }
        l.stock = take(usize::MAX);
        l
    }

    /// The tableau after choosing selection card `index` as the base: the
    /// other cards, in the order dealt, go to the piles from the last to
    /// the first (GAMES.md §4.1).
    pub fn selective_tableau(selection: &[Card], index: usize) -> Vec<LayoutPile> {
        let mut rest: Vec<Card> = selection
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != index)
            .map(|(_, &c)| c)
            .collect();
        rest.reverse();
        rest.into_iter()
            .map(|c| LayoutPile {
                cards: vec![c],
                face_down: 0,
            })
            .collect()
    }

    /// Every card of the layout with the place it is in, for error messages.
    pub fn cards_with_places(&self) -> Vec<(Card, String)> {
        let mut v = Vec::new();
        for (i, &c) in self.foundations.iter().enumerate() {
            v.push((c, format!("foundations, card {}", i + 1)));
        }
        for (i, &c) in self.reserve.iter().enumerate() {
            v.push((c, format!("reserve, card {} from the bottom", i + 1)));
        }
        for (p, pile) in self.tableau.iter().enumerate() {
            for (i, &c) in pile.cards.iter().enumerate() {
                v.push((
                    c,
                    format!("tableau pile {}, card {} from the bottom", p + 1, i + 1),
                ));
            }
        }
        for (i, &c) in self.selection.iter().enumerate() {
            v.push((c, format!("selection, card {}", i + 1)));
        }
        for (i, &c) in self.stock.iter().enumerate() {
            v.push((c, format!("stock, card {}", i + 1)));
        }
        for (i, &c) in self.waste.iter().enumerate() {
            v.push((c, format!("waste, card {} from the bottom", i + 1)));
        }
        v
    }

    pub fn card_counts(&self) -> CardCounts {
        let mut n = CardCounts::default();
        for (c, _) in self.cards_with_places() {
            n.add(c);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::join;
    use crate::rules::{GameKind, Reading};

    fn pys(n: &str, g: GameKind) -> Layout {
        let r = g.preset(Reading::Pysolfc).unwrap();
        Source::Pysolfc(GameNumber::parse(n).unwrap()).layout(&r)
    }

    fn piles(l: &Layout) -> String {
        crate::format::tableau_text(&l.tableau)
    }

    #[test]
    fn canfield_pysolfc_1_matches_games_md() {
        let l = pys("1", GameKind::Canfield);
        assert_eq!(join(&l.foundations), "JD");
        assert_eq!(join(&l.reserve), "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC");
        assert_eq!(piles(&l), "KS | 2S | 3H | KH");
        assert_eq!(join(&l.stock[..6]), "9D QD JS AS AH 3C");
        assert_eq!(l.stock.len(), 34);
    }

    #[test]
    fn canfield_pysolfc_123456_matches_games_md() {
        let l = pys("123456", GameKind::Canfield);
        assert_eq!(join(&l.foundations), "3D");
        assert_eq!(l.reserve.last().unwrap().to_string(), "TH");
        assert_eq!(piles(&l), "4H | AS | JS | 2S");
    }

    #[test]
    fn storehouse_pysolfc_1_matches_games_md() {
        let r = GameKind::Storehouse.preset(Reading::Pysolfc).unwrap();
        let seq = Source::Pysolfc(GameNumber::parse("1").unwrap()).sequence(&r);
        assert_eq!(
            join(&seq[..24]),
            "2C 2S 2H 2D JD 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H KS 9D QD JS AS"
        );
        let l = Layout::deal(&r, &seq);
        assert_eq!(join(&l.foundations), "2C 2S 2H 2D");
        assert_eq!(l.reserve.last().unwrap().to_string(), "QC");
        assert_eq!(piles(&l), "9D | KS | 3H | KH");
    }

    #[test]
    fn double_easthaven_pysolfc_1_matches_games_md() {
        let l = pys("1", GameKind::DoubleEasthaven);
        assert_eq!(
            piles(&l),
            "(3D) (8D) 4C | (5H) (JD) JS | (JC) (AS) QC | (KH) (8C) 4H | (5S) (6C) KD | (5H) (6H) 2H | (KC) (TC) TD | (KC) (8D) 8S"
        );
        assert_eq!(join(&l.stock[..4]), "AC 7C 2H AD");
        assert_eq!(l.stock.len(), 80);
    }

    #[test]
    fn variegated_hook_keeps_copies_in_order() {
        let r = GameKind::VariegatedCanfield
            .preset(Reading::Standard)
            .unwrap();
        for seed in 1..20 {
            let l = Source::Native(seed).layout(&r);
            assert_eq!(join(&l.foundations), "AC AC AS AS AH AH AD AD");
            assert_eq!(l.reserve.len(), 13);
            assert_eq!(l.stock.len(), 104 - 8 - 13 - 5);
            assert!(l
                .stock
                .iter()
                .chain(&l.reserve)
                .all(|c| c.rank() != crate::card::Rank::ACE));
        }
    }

    #[test]
    fn selective_deals_reserve_then_five() {
        let r = GameKind::SelectiveCanfield
            .preset(Reading::Standard)
            .unwrap();
        let seq = Source::Native(7).sequence(&r);
        let l = Layout::deal(&r, &seq);
        assert!(l.foundations.is_empty() && l.tableau.is_empty());
        assert_eq!(l.reserve, seq[..13]);
        assert_eq!(l.selection, seq[13..18]);
        let t = Layout::selective_tableau(&l.selection, 1);
        let want: Vec<Card> = vec![seq[17], seq[16], seq[15], seq[13]];
        assert_eq!(t.iter().map(|p| p.cards[0]).collect::<Vec<_>>(), want);
    }

    #[test]
    fn native_seeds_are_permutations() {
        for decks in [1, 2] {
            for seed in [0, 1, u64::MAX] {
                let mut v = native_order(seed, decks, 13);
                v.sort();
                let mut all: Vec<Card> = (0..decks).flat_map(|_| Card::all()).collect();
                all.sort();
                assert_eq!(v, all);
            }
        }
        assert_ne!(native_order(1, 1, 13), native_order(2, 1, 13));
        let mut small = native_order(3, 2, 5);
        assert_eq!(small.len(), 40);
        small.sort();
        small.dedup();
        assert_eq!(small.len(), 20);
    }
}
