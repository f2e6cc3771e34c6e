//! Property tests of the parsers and of layout validation: no input makes
//! them panic, and every corruption of a valid deal is reported.

use demon_core::format::{parse_any, to_text};
use demon_core::pysolfc::GameNumber;
use demon_core::{Card, Game, GameKind, Reading, Source};
use proptest::prelude::*;

proptest! {
    #[test]
    fn deal_parser_never_panics(s in "\\PC{0,400}") {
        let _ = parse_any(&s);
    }

    #[test]
    fn deal_parser_never_panics_on_near_deals(s in "(game|tableau|stock|reserve|foundations|waste|selection)?: ?([AKQJT2-9]|10)?[CSHDX]?( [(]?[AKQJ2-9][CSHD][)]?){0,8}( \\| )?[\\n#]?") {
        let _ = parse_any(&s);
    }

    #[test]
    fn json_parsers_never_panic(s in "\\{\"(tableau piles|stock|reserve|foundations|waste|tableau)\": ?\\[\\[?(\"[0-9AKQJT]{1,2}[cshdCSHD]\",? ?){0,4}\\]?\\]\\}") {
        let _ = parse_any(&s);
    }

    #[test]
    fn card_and_number_parsers_never_panic(s in "\\PC{0,30}") {
        let _ = Card::parse(&s);
        let _ = GameNumber::parse(&s);
    }

    /// Removing, duplicating or replacing one card of a valid deal file is
    /// always an error (never a panic, never silently accepted).
    #[test]
    fn corrupted_deals_are_rejected(game in 0usize..11, seed in 0u64..1000, pos in 0usize..200, what in 0u8..3) {
        let g = GameKind::ALL[game];
        let rules = g.preset(Reading::Standard).unwrap();
        let text = to_text(&Source::Native(seed).layout(&rules), g.name(), "t");
        // Card tokens, by byte range.
        let mut tokens = Vec::new();
        let mut start = None;
        for (i, ch) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
            let in_tok = ch.is_ascii_alphanumeric();
            match (start, in_tok) {
                (None, true) => start = Some(i),
                (Some(s), false) => {
                    if Card::parse(&text[s..i]).is_ok() && !text[..s].ends_with("game: ") {
                        tokens.push((s, i));
                    }
                    start = None;
                }
                _ => {}
            }
        }
        let (s, e) = tokens[pos % tokens.len()];
        let card = &text[s..e];
        let other = if card == "AS" { "KD" } else { "AS" };
        let bad = match what {
            0 => format!("{}{}", &text[..s], &text[e..]),
            1 => format!("{}{card} {card}{}", &text[..s], &text[e..]),
            _ => format!("{}{other}{}", &text[..s], &text[e..]),
        };
        if let Ok(d) = parse_any(&bad) {
            prop_assert!(Game::new(&rules, &d.layout).is_err(), "accepted:\n{bad}");
        }
    }
}

/// A deal with a card too many names it, where it lies, and the card it
/// most likely stands for; one with a card too few names that one. Two
/// decks (Double Canfield seed 1): the stock's first card written as its
/// second makes that card appear three times and the first once.
#[test]
fn a_wrong_count_of_a_card_names_the_cards() {
    let rules = GameKind::DoubleCanfield.preset(Reading::Standard).unwrap();
    let mut layout = Source::Native(1).layout(&rules);
    let (first, second) = (layout.stock[0], layout.stock[1]);
    assert_ne!(first, second);
    let twice = layout.card_counts().get(second) == 2;
    assert!(twice, "{second} appears twice in a two-deck deal");
    layout.stock[0] = second;
    let e = refusal(&rules, &layout);
    let places: Vec<String> = layout
        .cards_with_places()
        .into_iter()
        .filter(|(c, _)| *c == second)
        .map(|(_, p)| p)
        .collect();
    assert_eq!(places.len(), 3);
    assert_eq!(
        e,
        format!(
            "card {second} appears 3 times but the deal has two decks: {} ({first} is missing)",
            places.join("; ")
        )
    );
    layout.stock.remove(0);
    let e = refusal(&rules, &layout);
    assert_eq!(
        e,
        format!("card {first} is missing from the deal (with two decks each card appears twice)")
    );
}

/// Why `Game::new` refuses a layout; panics if it accepts it.
fn refusal(rules: &demon_core::Rules, layout: &demon_core::Layout) -> String {
    match Game::new(rules, layout) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("the layout was accepted"),
    }
}
