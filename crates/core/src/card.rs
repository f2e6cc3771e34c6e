//! Cards, suits, ranks and the notation of GAMES.md §3.
//!
//! A card is one byte, `suit * 13 + rank`, with suits in PySolFC's order
//! (clubs, spades, hearts, diamonds) and ranks `A = 0 … K = 12`. The two
//! copies of a card in a two-deck game are the same value: they are
//! interchangeable, so nothing in the game state tells them apart.

use std::fmt;
use std::str::FromStr;

/// A suit. Clubs and spades are black, hearts and diamonds red.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    Clubs = 0,
    Spades = 1,
    Hearts = 2,
    Diamonds = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Suit {
        Suit::ALL[i & 3]
    }

    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    pub const fn letter(self) -> char {
        ['C', 'S', 'H', 'D'][self as usize]
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            _ => None,
        }
    }
}

/// A rank, `A = 0` to `K = 12`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    pub const ACE: Rank = Rank(0);
    pub const TWO: Rank = Rank(1);
    pub const KING: Rank = Rank(12);

    /// `i` in `0..13`.
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 13 {
            Some(Rank(i))
        } else {
            None
        }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn letter(self) -> char {
        [
            'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
        ][self.0 as usize]
    }

    /// The rank `k` steps above this one, wrapping K → A.
    pub const fn wrapping_add(self, k: u8) -> Rank {
        Rank((self.0 + k % 13) % 13)
    }

    /// Parses `A 2 … 9 T J Q K`, also `10` and lower case.
    pub fn parse(s: &str) -> Option<Rank> {
        let i = match s.to_ascii_uppercase().as_str() {
            "A" => 0,
            "T" | "10" => 9,
            "J" => 10,
            "Q" => 11,
            "K" => 12,
            d if d.len() == 1 && (b'2'..=b'9').contains(&d.as_bytes()[0]) => d.as_bytes()[0] - b'1',
            _ => return None,
        };
        Some(Rank(i))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A card: `suit * 13 + rank`, in `0..52`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    pub const COUNT: usize = 52;

    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + rank.0)
    }

    pub const fn from_index(i: u8) -> Option<Card> {
        if i < 52 {
            Some(Card(i))
        } else {
            None
        }
    }

    /// Every card of one deck, in PySolFC's unshuffled order (C, S, H, D; A … K).
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn suit(self) -> Suit {
        Suit::from_index((self.0 / 13) as usize)
    }

    pub const fn rank(self) -> Rank {
        Rank(self.0 % 13)
    }

    pub const fn is_red(self) -> bool {
        self.suit().is_red()
    }

    /// Parses `TD`, `10d`, `as` …: a rank then a suit (GAMES.md §3).
    pub fn parse(s: &str) -> Result<Card, CardParseError> {
        let t = s.trim();
        let bad = || CardParseError(t.to_string());
        let mut chars = t.chars();
        let suit_ch = chars.next_back().ok_or_else(bad)?;
        let suit = Suit::from_letter(suit_ch).ok_or_else(bad)?;
        let rank = Rank::parse(chars.as_str()).ok_or_else(bad)?;
        Ok(Card::new(suit, rank))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = CardParseError;
    fn from_str(s: &str) -> Result<Card, CardParseError> {
        Card::parse(s)
    }
}

/// A token that is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a card (write the rank A 2-9 T J Q K, or 10, then the suit C S H D, e.g. TD or 7s)")]
pub struct CardParseError(pub String);

/// `x mod ranks` for `x < 2 * ranks`, without a division. The number of
/// ranks is not a compile-time constant (reduced decks), and a division by
/// a value known only at run time costs some 20 cycles: in the solver's
/// hottest functions (`run_len`, `safe_move`, the K+ waste plays, the
/// dead-end test) it took 7-34 % of their profile samples on Canfield.
#[inline]
pub fn wrap_rank<T>(x: T, ranks: T) -> T
where
    T: Copy + PartialOrd + std::ops::Sub<Output = T>,
{
    debug_assert!(
        x < ranks || x - ranks < ranks,
        "wrap_rank needs x < 2 * ranks"
    );
    if x >= ranks {
        x - ranks
    } else {
        x
    }
}

/// Writes cards separated by single spaces.
pub fn join(cards: &[Card]) -> String {
    let mut s = String::with_capacity(cards.len() * 3);
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&c.to_string());
    }
    s
}

/// Per-card counts for a deck of one or two copies; used to check that a
/// layout holds every card exactly as often as the decks do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardCounts([u8; 52]);

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts([0; 52])
    }
}

impl CardCounts {
    pub fn add(&mut self, c: Card) {
        self.0[c.index() as usize] += 1;
    }
    pub fn get(&self, c: Card) -> u8 {
        self.0[c.index() as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for c in Card::all() {
            assert_eq!(Card::parse(&c.to_string()), Ok(c));
            assert_eq!(Card::parse(&c.to_string().to_lowercase()), Ok(c));
        }
        assert_eq!(Card::parse("10d").unwrap().to_string(), "TD");
        assert_eq!(
            Card::parse("AS").unwrap(),
            Card::new(Suit::Spades, Rank::ACE)
        );
    }

    #[test]
    fn bad_tokens_are_rejected() {
        for t in ["", "1C", "11C", "ZC", "AX", "A", "C", "0S", "TDD", "10"] {
            assert!(Card::parse(t).is_err(), "{t:?} parsed");
        }
    }

    #[test]
    fn card_index_follows_pysolfc_order() {
        assert_eq!(Card::parse("AC").unwrap().index(), 0);
        assert_eq!(Card::parse("KS").unwrap().index(), 25);
        assert_eq!(Card::parse("AH").unwrap().index(), 26);
        assert_eq!(Card::parse("KD").unwrap().index(), 51);
        assert!(Card::parse("7H").unwrap().is_red());
        assert!(!Card::parse("7S").unwrap().is_red());
    }
}
