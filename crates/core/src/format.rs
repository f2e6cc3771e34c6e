//! Deal files: demon's plain-text format, its JSON form, and Solvitaire's
//! deal JSON (import and export, one-deck Canfield games).
//!
//! The text format is meant to be typed from a real table:
//!
//! ```text
//! # Canfield, PySolFC #1
//! foundations: JD
//! reserve: 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC
//! tableau: KS | 2S | 3H | KH
//! stock: 9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
//! ```
//!
//! One `key: cards` line per part of the table, in any order; `#` starts a
//! comment; cards are written rank then suit (`TD`, `10d`, `as`). The
//! reserve and the waste are listed bottom to top (the playable card
//! last), the stock with the next card to be turned first, each tableau
//! pile bottom to top with face-down cards in parentheses (`(3D) (8D) 4C`),
//! piles separated by `|`. Selective Canfield lists its five cards on a
//! `selection:` line instead of a tableau. Missing parts are empty.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::card::{join, Card, CardParseError, Rank, Suit};
use crate::deal::{Layout, LayoutPile};
use crate::rules::{BaseChoice, Rules, Stock, TableauDeal};

/// A deal file that cannot be read, with the place of the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("line {line}: {msg}")]
    Line { line: usize, msg: String },
    #[error("JSON: {0}")]
    Json(String),
    #[error(
        "Solvitaire's deal JSON holds one-deck Canfield games with a reserve and a waste; {0}"
    )]
    NotSolvitaire(String),
}

/// A parsed deal file: the layout and, if the file names one, its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealFile {
    pub layout: Layout,
    pub game: Option<String>,
}

/// Reads a deal file in any supported format: JSON (demon's, or
/// Solvitaire's, told apart by its `"tableau piles"` key) or text.
pub fn parse_any(text: &str) -> Result<DealFile, FormatError> {
    if text.trim_start().starts_with('{') {
        let v: Value = serde_json::from_str(text).map_err(|e| FormatError::Json(e.to_string()))?;
        if v.get("tableau piles").is_some() {
            Ok(DealFile {
                layout: parse_solvitaire_value(&v)?,
                game: None,
            })
        } else {
            parse_json_value(v)
        }
    } else {
        parse_text(text)
    }
}

const KEYS: [&str; 7] = [
    "game",
    "foundations",
    "reserve",
    "tableau",
    "selection",
    "stock",
    "waste",
];

/// Reads the text format.
pub fn parse_text(text: &str) -> Result<DealFile, FormatError> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    let mut out = DealFile {
        layout: Layout::default(),
        game: None,
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |msg: String| FormatError::Line { line, msg };
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let Some((key, rest)) = content.split_once(':') else {
            return Err(err(format!(
                "expected 'key: cards' with a key among {}, found '{content}'",
                KEYS.join(", ")
            )));
        };
        let key = key.trim().to_ascii_lowercase();
        let Some(&key) = KEYS.iter().find(|&&k| k == key) else {
            return Err(err(format!(
                "unknown key '{key}' (known keys: {})",
                KEYS.join(", ")
            )));
        };
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(err(format!("'{key}' given twice (first on line {first})")));
        }
        seen.push((key, line));
        let l = &mut out.layout;
        match key {
            "game" => out.game = Some(rest.trim().to_string()),
            "tableau" => {
                if !rest.trim().is_empty() {
                    for (p, pile) in rest.split('|').enumerate() {
                        l.tableau.push(
                            parse_pile(pile)
                                .map_err(|m| err(format!("tableau pile {}: {m}", p + 1)))?,
                        );
                    }
                }
            }
            _ => {
                let cards = parse_cards(rest).map_err(|m| err(format!("{key}: {m}")))?;
                match key {
                    "foundations" => l.foundations = cards,
                    "reserve" => l.reserve = cards,
                    "selection" => l.selection = cards,
                    "stock" => l.stock = cards,
                    "waste" => l.waste = cards,
                    _ => unreachable!(),
                }
            }
        }
    }
    Ok(out)
}

fn parse_cards(s: &str) -> Result<Vec<Card>, String> {
    s.split_whitespace()
        .enumerate()
        .map(|(i, t)| {
            if t.starts_with('(') {
                Err(format!(
                    "card {}: '{t}': only tableau cards can be face down",
                    i + 1
                ))
            } else {
                Card::parse(t).map_err(|e| format!("card {}: {e}", i + 1))
            }
        })
        .collect()
}

fn parse_pile(s: &str) -> Result<LayoutPile, String> {
    let mut p = LayoutPile::default();
    for (i, t) in s.split_whitespace().enumerate() {
        let (down, inner) = match t.strip_prefix('(') {
            Some(r) => (
                true,
                r.strip_suffix(')')
                    .ok_or_else(|| format!("card {}: '{t}' has no closing ')'", i + 1))?,
            ),
            None => (false, t),
        };
        let c = Card::parse(inner).map_err(|e: CardParseError| format!("card {}: {e}", i + 1))?;
        if down {
            if p.face_down != p.cards.len() {
                return Err(format!(
                    "card {}: face-down card {c} lies on a face-up card",
                    i + 1
                ));
            }
            p.face_down += 1;
        }
        p.cards.push(c);
    }
    if !p.cards.is_empty() && p.face_down == p.cards.len() {
        return Err(
            "its top card is face down; the top card of a pile is always face up".to_string(),
        );
    }
    Ok(p)
}

/// A pile in the text format: bottom to top, face-down cards in
/// parentheses (`(3D) (8D) 4C`).
pub fn pile_text(p: &LayoutPile) -> String {
    p.cards
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i < p.face_down {
                format!("({c})")
            } else {
                c.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The tableau in the text format: piles separated by ` | `.
pub fn tableau_text(piles: &[LayoutPile]) -> String {
    piles.iter().map(pile_text).collect::<Vec<_>>().join(" | ")
}

/// Writes the text format, with comments explaining how to lay it out.
pub fn to_text(layout: &Layout, game: &str, title: &str) -> String {
    let mut s = String::new();
    s.push_str(&format!("# {title}\n"));
    s.push_str("# Reserve and waste: bottom to top, the playable card last. Stock: the next card to turn first.\n");
    s.push_str(
        "# Tableau: piles left to right, each bottom to top; (face-down cards) in parentheses.\n",
    );
    s.push_str(&format!("game: {game}\n"));
    if !layout.foundations.is_empty() {
        s.push_str(&format!("foundations: {}\n", join(&layout.foundations)));
    }
    if !layout.reserve.is_empty() {
        s.push_str(&format!("reserve: {}\n", join(&layout.reserve)));
    }
    if !layout.selection.is_empty() {
        s.push_str(&format!("selection: {}\n", join(&layout.selection)));
    }
    if !layout.tableau.is_empty() {
        s.push_str(&format!("tableau: {}\n", tableau_text(&layout.tableau)));
    }
    s.push_str(&format!("stock: {}\n", join(&layout.stock)));
    if !layout.waste.is_empty() {
        s.push_str(&format!("waste: {}\n", join(&layout.waste)));
    }
    s
}

// ----- demon's JSON -------------------------------------------------------

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonPile {
    #[serde(default)]
    face_down: Vec<String>,
    face_up: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonDeal {
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    foundations: Vec<String>,
    #[serde(default)]
    reserve: Vec<String>,
    #[serde(default)]
    tableau: Vec<JsonPile>,
    #[serde(default)]
    selection: Vec<String>,
    #[serde(default)]
    stock: Vec<String>,
    #[serde(default)]
    waste: Vec<String>,
}

fn strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

/// Writes demon's JSON form of a layout (same order conventions as text).
pub fn to_json(layout: &Layout, game: &str, source: &str) -> String {
    let d = JsonDeal {
        game: Some(game.to_string()),
        source: Some(source.to_string()),
        foundations: strings(&layout.foundations),
        reserve: strings(&layout.reserve),
        tableau: layout
            .tableau
            .iter()
            .map(|p| JsonPile {
                face_down: strings(&p.cards[..p.face_down]),
                face_up: strings(&p.cards[p.face_down..]),
            })
            .collect(),
        selection: strings(&layout.selection),
        stock: strings(&layout.stock),
        waste: strings(&layout.waste),
    };
    serde_json::to_string_pretty(&d).expect("serializing plain data") + "\n"
}

fn json_cards(field: &str, v: &[String]) -> Result<Vec<Card>, FormatError> {
    v.iter()
        .enumerate()
        .map(|(i, s)| {
            Card::parse(s).map_err(|e| FormatError::Json(format!("{field}, card {}: {e}", i + 1)))
        })
        .collect()
}

fn parse_json_value(v: Value) -> Result<DealFile, FormatError> {
    let d: JsonDeal = serde_json::from_value(v).map_err(|e| FormatError::Json(e.to_string()))?;
    let mut l = Layout {
        foundations: json_cards("foundations", &d.foundations)?,
        reserve: json_cards("reserve", &d.reserve)?,
        selection: json_cards("selection", &d.selection)?,
        stock: json_cards("stock", &d.stock)?,
        waste: json_cards("waste", &d.waste)?,
        tableau: Vec::new(),
    };
    for (i, p) in d.tableau.iter().enumerate() {
        let down = json_cards(&format!("tableau pile {} face_down", i + 1), &p.face_down)?;
        let up = json_cards(&format!("tableau pile {} face_up", i + 1), &p.face_up)?;
        if up.is_empty() && !down.is_empty() {
            return Err(FormatError::Json(format!(
                "tableau pile {}: its top card is face down",
                i + 1
            )));
        }
        l.tableau.push(LayoutPile {
            face_down: down.len(),
            cards: down.into_iter().chain(up).collect(),
        });
    }
    Ok(DealFile {
        layout: l,
        game: d.game,
    })
}

// ----- Solvitaire's deal JSON ------------------------------------------------

/// Whether Solvitaire's deal JSON can hold a game with these rules.
pub fn solvitaire_supports(rules: &Rules) -> Result<(), FormatError> {
    let why = if rules.decks != 1 {
        "this game uses two decks"
    } else if rules.reserve == 0 {
        "this game has no reserve"
    } else if rules.tableau_deal != TableauDeal::One {
        "this game deals face-down tableau cards"
    } else if !matches!(rules.stock, Stock::ToWaste { .. }) {
        "this game deals its stock onto the tableau"
    } else if rules.base_choice == BaseChoice::Selective {
        "this game chooses its base card during play"
    } else {
        return Ok(());
    };
    Err(FormatError::NotSolvitaire(why.to_string()))
}

fn solvitaire_card(c: Card) -> String {
    // Solvitaire writes ten as 10 and accepts no T.
    let r = match c.rank().index() {
        9 => "10".to_string(),
        _ => c.rank().letter().to_string(),
    };
    format!("{r}{}", c.suit().letter())
}

fn parse_solvitaire_card(s: &str) -> Option<Card> {
    let t = s.trim();
    let mut ch = t.chars();
    let suit = Suit::from_letter(ch.next_back()?)?;
    let r = ch.as_str().to_ascii_uppercase();
    let rank = match r.as_str() {
        "A" | "1" => 0,
        "J" | "11" => 10,
        "Q" | "12" => 11,
        "K" | "13" => 12,
        "T" => 9,
        n => n.parse::<u8>().ok().filter(|n| (2..=10).contains(n))? - 1,
    };
    Some(Card::new(suit, Rank::new(rank)?))
}

/// Writes Solvitaire's deal JSON: stock with the next card LAST, reserve
/// with its top last, foundations one array per foundation.
pub fn to_solvitaire(layout: &Layout, rules: &Rules) -> Result<String, FormatError> {
    solvitaire_supports(rules)?;
    let cards = |v: &[Card]| {
        Value::Array(
            v.iter()
                .map(|&c| Value::String(solvitaire_card(c)))
                .collect(),
        )
    };
    let mut found: Vec<Value> = layout.foundations.iter().map(|&c| cards(&[c])).collect();
    while found.len() < 4 {
        found.push(Value::Array(Vec::new()));
    }
    let mut stock = layout.stock.clone();
    stock.reverse();
    let v = serde_json::json!({
        "tableau piles": layout.tableau.iter().map(|p| cards(&p.cards)).collect::<Vec<_>>(),
        "foundations": found,
        "reserve": cards(&layout.reserve),
        "stock": cards(&stock),
        "waste": cards(&layout.waste),
    });
    Ok(serde_json::to_string_pretty(&v).expect("serializing plain data") + "\n")
}

fn solvitaire_cards(field: &str, v: &Value) -> Result<Vec<Card>, FormatError> {
    let arr = v
        .as_array()
        .ok_or_else(|| FormatError::Json(format!("\"{field}\" must be an array of cards")))?;
    arr.iter()
        .enumerate()
        .map(|(i, x)| {
            let s = x.as_str().ok_or_else(|| FormatError::Json(format!("\"{field}\", item {}: not a string", i + 1)))?;
            parse_solvitaire_card(s).ok_or_else(|| {
                FormatError::Json(format!("\"{field}\", item {}: '{s}' is not a card (Solvitaire writes e.g. 10H, AS, 13c)", i + 1))
            })
        })
        .collect()
}

/// Reads Solvitaire's deal JSON for a one-deck Canfield game.
pub fn parse_solvitaire(text: &str) -> Result<Layout, FormatError> {
    let v: Value = serde_json::from_str(text).map_err(|e| FormatError::Json(e.to_string()))?;
    parse_solvitaire_value(&v)
}

fn parse_solvitaire_value(v: &Value) -> Result<Layout, FormatError> {
    let obj = v
        .as_object()
        .ok_or_else(|| FormatError::Json("a deal must be a JSON object".into()))?;
    let mut l = Layout::default();
    for (k, x) in obj {
        match k.as_str() {
            "tableau piles" => {
                let piles = x.as_array().ok_or_else(|| FormatError::Json("\"tableau piles\" must be an array of arrays".into()))?;
                for (i, p) in piles.iter().enumerate() {
                    l.tableau.push(LayoutPile { cards: solvitaire_cards(&format!("tableau piles[{i}]"), p)?, face_down: 0 });
                }
            }
            "foundations" => {
                let fs = x.as_array().ok_or_else(|| FormatError::Json("\"foundations\" must be an array".into()))?;
                for (i, f) in fs.iter().enumerate() {
                    if f.is_string() {
                        l.foundations.extend(solvitaire_cards("foundations", &Value::Array(vec![f.clone()]))?);
                    } else {
                        l.foundations.extend(solvitaire_cards(&format!("foundations[{i}]"), f)?);
                    }
                }
            }
            "reserve" => l.reserve = solvitaire_cards(k, x)?,
            "stock" => {
                l.stock = solvitaire_cards(k, x)?;
                l.stock.reverse();
            }
            "waste" => l.waste = solvitaire_cards(k, x)?,
            other => {
                return Err(FormatError::Json(format!(
                    "key \"{other}\" is not part of a Canfield deal (known: \"tableau piles\", \"foundations\", \"reserve\", \"stock\", \"waste\")"
                )))
            }
        }
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Source;
    use crate::pysolfc::GameNumber;
    use crate::rules::{GameKind, Reading};

    fn layout(g: GameKind, n: &str) -> (Rules, Layout) {
        let r = g.preset(Reading::Standard).unwrap();
        let l = Source::Pysolfc(GameNumber::parse(n).unwrap()).layout(&r);
        (r, l)
    }

    #[test]
    fn text_round_trips_for_every_game() {
        for g in GameKind::ALL {
            for seed in 1..5 {
                let r = g.preset(Reading::Standard).unwrap();
                let l = Source::Native(seed).layout(&r);
                let t = to_text(&l, g.name(), "test");
                let back = parse_any(&t).unwrap();
                assert_eq!(back.layout, l, "{g} {seed}\n{t}");
                assert_eq!(back.game.as_deref(), Some(g.name()));
                let j = to_json(&l, g.name(), "seed");
                assert_eq!(parse_any(&j).unwrap().layout, l);
            }
        }
    }

    #[test]
    fn text_format_reads_what_a_person_types() {
        let t = "# my table\nTableau: ks | 2s|3h | 10H  \nfoundations: jd\nreserve: 2d 9h\n\nstock: 9d qd # rest later\n";
        let d = parse_text(t).unwrap();
        assert_eq!(
            join(
                &d.layout
                    .tableau
                    .iter()
                    .map(|p| p.cards[0])
                    .collect::<Vec<_>>()
            ),
            "KS 2S 3H TH"
        );
        assert_eq!(join(&d.layout.reserve), "2D 9H");
        assert_eq!(join(&d.layout.stock), "9D QD");
        let d = parse_text("tableau: (3D) (8D) 4C | (5H) (JD) JS\n").unwrap();
        assert_eq!(d.layout.tableau[1].face_down, 2);
    }

    #[test]
    fn text_errors_name_the_line_and_card() {
        let e = parse_text("foundations: JD\nreserve: 2D XZ\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("line 2: reserve: card 2: 'XZ' is not a card"),
            "{e}"
        );
        let e = parse_text("stock: 2D\nstock: 3D\n")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "line 2: 'stock' given twice (first on line 1)");
        let e = parse_text("tabelau: 2D\n").unwrap_err().to_string();
        assert!(e.starts_with("line 1: unknown key 'tabelau'"), "{e}");
        let e = parse_text("tableau: 4C (3D)\n").unwrap_err().to_string();
        assert_eq!(
            e,
            "line 1: tableau pile 1: card 2: face-down card 3D lies on a face-up card"
        );
        let e = parse_text("tableau: 4C | (3D\n").unwrap_err().to_string();
        assert_eq!(
            e,
            "line 1: tableau pile 2: card 1: '(3D' has no closing ')'"
        );
        let e = parse_text("just words\n").unwrap_err().to_string();
        assert!(e.starts_with("line 1: expected 'key: cards'"), "{e}");
    }

    #[test]
    fn solvitaire_round_trip_and_conventions() {
        let (r, l) = layout(GameKind::Canfield, "1");
        let j = to_solvitaire(&l, &r).unwrap();
        let v: Value = serde_json::from_str(&j).unwrap();
        // Stock: last element dealt next; reserve: last element on top.
        assert_eq!(v["stock"].as_array().unwrap().last().unwrap(), "9D");
        assert_eq!(v["reserve"].as_array().unwrap().last().unwrap(), "QC");
        assert_eq!(v["foundations"][0][0], "JD");
        assert!(j.contains("\"10S\""), "ten is written 10");
        assert_eq!(parse_any(&j).unwrap().layout, l);
        assert!(to_solvitaire(
            &layout(GameKind::DoubleCanfield, "1").1,
            &GameKind::DoubleCanfield.preset(Reading::Standard).unwrap()
        )
        .is_err());
    }

    #[test]
    fn solvitaire_import_accepts_its_card_spellings() {
        let t = r#"{"foundations": ["2C"], "tableau piles": [["2S"], ["1c"], ["3d"]], "reserve": ["AH", "3S"], "stock": ["2H", "13S", "10H"]}"#;
        let l = parse_any(t).unwrap().layout;
        assert_eq!(join(&l.foundations), "2C");
        assert_eq!(join(&l.stock), "TH KS 2H");
        assert_eq!(l.tableau[1].cards[0].to_string(), "AC");
        let e = parse_any(r#"{"tableau piles": [["2S"]], "cells": []}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"cells\""), "{e}");
        let e = parse_any(r#"{"tableau piles": [["ZZ"]]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'ZZ' is not a card"), "{e}");
    }
}
