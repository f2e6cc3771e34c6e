//! Native seeds must never change meaning: the first deals of every game
//! are pinned here (the data file was written once and is only ever
//! extended). Two deals are also spelled out in this file, as printed by
//! `scripts/native_deal.py`, an independent pure-Python implementation of
//! the generator, so that a re-blessed data file cannot hide a change.

use demon_core::card::join;
use demon_core::{GameKind, Reading, Source};

#[test]
fn native_seed_1_one_deck_is_pinned() {
    let r = GameKind::Canfield.preset(Reading::Standard).unwrap();
    assert_eq!(
        join(&Source::Native(1).sequence(&r)),
        "2H QH 9H 5S 4C QS 3S 4S 9S 2S TS 7D AD 4D TD KC 5H KS 4H AH JD 7S 5D TC 6C KD QD 2D AC JS 8C 7C TH 6H JC 3C 9C KH 6D 5C 8S 8H AS 6S 8D 3D JH 3H 7H 9D 2C QC"
    );
}

#[test]
fn native_seed_7_two_decks_is_pinned() {
    let r = GameKind::DoubleCanfield.preset(Reading::Standard).unwrap();
    assert_eq!(
        join(&Source::Native(7).sequence(&r)),
        "2H 2C QC AH 6D 7S 8D 4D TC JS TS TS 6S 9S QS 6H QD 5D 6H 9H 2C JD JH 6S 3C 5H AS 7C 4S 5S TD KD 4S 3C KH 5H 4C 6C 8D 4H 3H QS 2S QH 8S 5S 7C KD 4D QH 9D KH JC TH TD 8H 9H 9D KS KS JH AD AD 8S JS 2D 2H 7D JD TC 4H 7D AC 3S 7S 3D 2D 5D 7H 8C 3D 2S KC QD JC 3H QC AC 5C 9C 3S TH 5C 9S 7H 9C 8H AH 6D 6C AS 8C 4C KC"
    );
}

#[test]
fn native_deals_match_the_data_file() {
    let path = format!(
        "{}/tests/data/native_golden.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut lines = vec![
        "# native deals: game, seed, dealing order (first card dealt first). Never change a line."
            .to_string(),
    ];
    for g in GameKind::ALL {
        let r = g.preset(Reading::Standard).unwrap();
        for seed in [0u64, 1, 2, 3, 1_000_000, u64::MAX] {
            lines.push(format!(
                "{g} {seed}: {}",
                join(&Source::Native(seed).sequence(&r))
            ));
        }
    }
    let text = lines.join("\n") + "\n";
    if std::env::var_os("DEMON_BLESS").is_some() && !std::path::Path::new(&path).exists() {
        std::fs::write(&path, &text).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, want, "a native seed changed meaning");
}
