//! The independent checker: replays a move list on a deal using only the
//! rules, with its own plain representation of the table (vectors of
//! cards, a real stock and waste, one foundation pile per foundation).
//!
//! It shares nothing with [`crate::state`] but the `Move` vocabulary and
//! the `Rules` value, so a bug in the fast engine (or, later, in the
//! solver's abstractions) shows up as a disagreement. Every solution the
//! solver reports is replayed here; the tests also compare its legal moves
//! and positions with the engine's, move by move.

use crate::card::{Card, Rank};
use crate::deal::{Layout, LayoutPile};
use crate::rules::{Base, Build, EmptySpace, GroupMoves, Redeals, Rules, Stock, TableauWrap};
use crate::state::{Loc, Move, Position};
use smallvec::{smallvec, SmallVec};

/// The cards that move together, bottom card first: on the stack, since
/// the checker plays every move of every shortening trial.
type Unit = SmallVec<[Card; 16]>;

/// Why a move list does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index}: {reason}")]
pub struct ReplayError {
    /// 1-based number of the offending move.
    pub index: usize,
    pub reason: String,
}

/// The table, plainly.
#[derive(Clone, Debug)]
pub struct Table {
    rules: Rules,
    base: Option<Rank>,
    /// Each foundation's cards, bottom to top.
    found: Vec<Vec<Card>>,
    /// Bottom to top.
    reserve: Vec<Card>,
    /// Each pile bottom to top, and how many are face down.
    piles: Vec<(Vec<Card>, usize)>,
    /// The stock with the next card to turn LAST (a real face-down pile).
    stock: Vec<Card>,
    /// Bottom to top.
    waste: Vec<Card>,
    redeals: u8,
    selection: Vec<Card>,
}

impl Table {
    /// Lays out `layout`. The layout must already be valid for `rules`
    /// (checked by [`crate::state::Game::new`]).
    pub fn new(rules: &Rules, layout: &Layout) -> Table {
        let nf = 4 * rules.decks as usize;
        let mut found = vec![Vec::new(); nf];
        let mut base = match rules.base {
            Base::Fixed(r) => Some(r),
            Base::FirstCard => None,
        };
        for &c in &layout.foundations {
            base.get_or_insert(c.rank());
            let f = (0..nf)
                .find(|&f| f % 4 == c.suit().index() && found[f].is_empty())
                .expect("valid layout");
            found[f].push(c);
        }
        let mut stock = layout.stock.clone();
        stock.reverse();
        Table {
            rules: rules.clone(),
            base,
            found,
            reserve: layout.reserve.clone(),
            piles: layout
                .tableau
                .iter()
                .map(|p| (p.cards.clone(), p.face_down))
                .collect(),
            stock,
            waste: layout.waste.clone(),
            redeals: 0,
            selection: layout.selection.clone(),
        }
    }

    pub fn is_won(&self) -> bool {
        self.found
            .iter()
            .all(|f| f.len() == self.rules.ranks as usize)
    }

    fn pending(&self) -> bool {
        !self.selection.is_empty() && self.base.is_none()
    }

    /// The card `c` may lie on `t` in the tableau.
    fn builds(&self, c: Card, t: Card) -> bool {
        let (cr, tr) = (c.rank().index(), t.rank().index());
        let down_one = match self.rules.tableau_wrap {
            TableauWrap::No => cr + 1 == tr,
            TableauWrap::KingOnAce => cr + 1 == tr || (cr + 1 == self.rules.ranks && tr == 0),
            // Like the foundations: wrap everywhere but onto the base rank.
            TableauWrap::AtBase => (cr + 1) % self.rules.ranks == tr && Some(t.rank()) != self.base,
        };
        down_one
            && match self.rules.build {
                Build::AltColour => c.is_red() != t.is_red(),
                Build::Suit => c.suit() == t.suit(),
                Build::AnySuit => true,
            }
    }

    /// A foundation that takes `c` now.
    fn foundation_taking(&self, c: Card) -> Option<usize> {
        let base = self.base?;
        (0..self.found.len()).find(|&f| {
            f % 4 == c.suit().index()
                && match self.found[f].last() {
                    None => c.rank() == base,
                    Some(t) => {
                        self.found[f].len() < self.rules.ranks as usize
                            && (t.rank().index() + 1) % self.rules.ranks == c.rank().index()
                    }
                }
        })
    }

    fn space_takes(&self, from: Loc) -> bool {
        match self.rules.empty_space {
            EmptySpace::Any => true,
            EmptySpace::ReserveThenAny => self.reserve.is_empty() || from == Loc::Reserve,
            EmptySpace::ReserveThenWaste => {
                if self.reserve.is_empty() {
                    from == Loc::Waste
                } else {
                    from == Loc::Reserve
                }
            }
        }
    }

    /// Checks `mv` against the rules and plays it.
    pub fn apply(&mut self, mv: Move) -> Result<(), String> {
        if self.pending() != matches!(mv, Move::ChooseBase(_)) {
            return Err(if self.pending() {
                "the base card must be chosen first".into()
            } else {
                "there is no base card to choose".into()
            });
        }
        match mv {
            Move::ChooseBase(i) => {
                let i = i as usize;
                let &c = self.selection.get(i).ok_or("no such selection card")?;
                self.base = Some(c.rank());
                let f = c.suit().index();
                self.found[f].push(c);
                let rest: Vec<Card> = self
                    .selection
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &c)| c)
                    .collect();
                // The other cards, in the order dealt, go to the last pile first.
                self.piles = rest.into_iter().rev().map(|c| (vec![c], 0)).collect();
                Ok(())
            }
            Move::Deal => match self.rules.stock {
                Stock::ToWaste { draw, .. } => {
                    if self.stock.is_empty() {
                        return Err("the stock is empty".into());
                    }
                    for _ in 0..draw {
                        if let Some(c) = self.stock.pop() {
                            self.waste.push(c);
                        }
                    }
                    Ok(())
                }
                Stock::ToTableau { only_when_no_empty } => {
                    if self.stock.is_empty() {
                        return Err("the stock is empty".into());
                    }
                    if only_when_no_empty && self.piles.iter().any(|p| p.0.is_empty()) {
                        return Err("the stock may not be dealt while a pile is empty".into());
                    }
                    for p in &mut self.piles {
                        match self.stock.pop() {
                            Some(c) => p.0.push(c),
                            None => break,
                        }
                    }
                    Ok(())
                }
            },
            Move::Redeal => {
                let Stock::ToWaste { redeals, .. } = self.rules.stock else {
                    return Err("this stock is never redealt".into());
                };
                if !self.stock.is_empty() || self.waste.is_empty() {
                    return Err("redeal needs an empty stock and cards in the waste".into());
                }
                if let Redeals::Limited(n) = redeals {
                    if self.redeals >= n {
                        return Err(format!("all {n} redeals are used"));
                    }
                    self.redeals += 1;
                }
                // Turning the waste over: its bottom card is dealt next.
                self.stock = std::mem::take(&mut self.waste);
                self.stock.reverse();
                Ok(())
            }
            Move::Play {
                from,
                to,
                count,
                card,
            } => self.play(from, to, count as usize, card),
        }
    }

    fn play(&mut self, from: Loc, to: Loc, k: usize, card: Card) -> Result<(), String> {
        if k == 0 {
            return Err("a move of no cards".into());
        }
        // The unit that moves, bottom card first.
        let unit: Unit = match from {
            Loc::Waste => self
                .waste
                .last()
                .map(|&c| smallvec![c])
                .ok_or("the waste is empty")?,
            Loc::Reserve => self
                .reserve
                .last()
                .map(|&c| smallvec![c])
                .ok_or("the reserve is empty")?,
            Loc::Foundation(_) => {
                if !self.rules.worrying_back {
                    return Err("cards may not come back from the foundations".into());
                }
                if !self.found.iter().any(|f| f.last() == Some(&card)) {
                    return Err(format!("{card} is not on top of a foundation"));
                }
                smallvec![card]
            }
            Loc::Tableau(p) => {
                let (cs, down) = self.piles.get(p as usize).ok_or("no such pile")?;
                if k > cs.len() - down {
                    return Err(format!("pile {} has fewer than {k} face-up cards", p + 1));
                }
                let unit = Unit::from_slice(&cs[cs.len() - k..]);
                if unit.windows(2).any(|w| !self.builds(w[1], w[0])) {
                    return Err("the cards moved are not a built run".into());
                }
                unit
            }
        };
        if unit[0] != card {
            return Err(format!("the card moved is {}, not {card}", unit[0]));
        }
        if k > 1 && !matches!(from, Loc::Tableau(_)) {
            return Err("only tableau runs move as a group".into());
        }
        match to {
            Loc::Foundation(_) => {
                if k != 1 {
                    return Err("one card at a time goes to a foundation".into());
                }
                let f = self
                    .foundation_taking(card)
                    .ok_or_else(|| format!("no foundation takes {card}"))?;
                if matches!(from, Loc::Foundation(_)) {
                    return Err("foundation to foundation".into());
                }
                self.take(from, k, card);
                self.found[f].push(card);
            }
            Loc::Tableau(q) => {
                let q = q as usize;
                if q >= self.piles.len() || from == Loc::Tableau(q as u8) {
                    return Err("bad destination pile".into());
                }
                if let Loc::Tableau(p) = from {
                    let len = self.piles[p as usize].0.len();
                    let whole = k == len && self.piles[p as usize].1 == 0;
                    let ok = match self.rules.group_moves {
                        GroupMoves::Top => k == 1,
                        GroupMoves::Whole => k == 1 || whole,
                        GroupMoves::Pile => whole,
                        GroupMoves::Any => true,
                    };
                    if !ok {
                        return Err(format!("{k} cards may not move together under these rules"));
                    }
                }
                match self.piles[q].0.last() {
                    Some(&t) => {
                        if !self.builds(card, t) {
                            return Err(format!("{card} does not go on {t}"));
                        }
                    }
                    None => {
                        if !self.space_takes(from) {
                            return Err("that card may not fill the empty space".into());
                        }
                    }
                }
                let unit = self.take(from, k, card);
                self.piles[q].0.extend(unit);
            }
            _ => return Err("cards go only to the tableau or a foundation".into()),
        }
        Ok(())
    }

    /// Removes the moving unit from `from` and does what follows by force.
    fn take(&mut self, from: Loc, k: usize, card: Card) -> Unit {
        match from {
            Loc::Waste => smallvec![self.waste.pop().unwrap()],
            Loc::Reserve => smallvec![self.reserve.pop().unwrap()],
            Loc::Foundation(_) => {
                // Of two foundations with this top card, take from either:
                // they are the same afterwards.
                let f = (0..self.found.len())
                    .find(|&f| self.found[f].last() == Some(&card))
                    .unwrap();
                smallvec![self.found[f].pop().unwrap()]
            }
            Loc::Tableau(p) => {
                let p = p as usize;
                let n = self.piles[p].0.len();
                let unit = Unit::from_slice(&self.piles[p].0[n - k..]);
                self.piles[p].0.truncate(n - k);
                let (cs, down) = &mut self.piles[p];
                if !cs.is_empty() && *down == cs.len() {
                    *down -= 1; // the new top card turns face up
                }
                if cs.is_empty() && self.rules.empty_space != EmptySpace::Any {
                    if let Some(c) = self.reserve.pop() {
                        self.piles[p].0.push(c); // the space fills from the reserve
                    }
                }
                unit
            }
        }
    }

    /// Every legal move, found by trying every candidate against
    /// [`Table::apply`]'s checks.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut cands = vec![Move::Deal, Move::Redeal];
        for i in 0..self.selection.len() {
            cands.push(Move::ChooseBase(i as u8));
        }
        let n = self.piles.len();
        let mut sources: Vec<(Loc, usize, Card)> = Vec::new();
        if let Some(&c) = self.waste.last() {
            sources.push((Loc::Waste, 1, c));
        }
        if let Some(&c) = self.reserve.last() {
            sources.push((Loc::Reserve, 1, c));
        }
        for f in &self.found {
            if let Some(&c) = f.last() {
                if !sources
                    .iter()
                    .any(|s| s.0 == Loc::Foundation(0) && s.2 == c)
                {
                    sources.push((Loc::Foundation(0), 1, c));
                }
            }
        }
        for (p, (cs, _)) in self.piles.iter().enumerate() {
            for k in 1..=cs.len() {
                sources.push((Loc::Tableau(p as u8), k, cs[cs.len() - k]));
            }
        }
        for &(from, k, c) in &sources {
            cands.push(Move::Play {
                from,
                to: Loc::Foundation(0),
                count: k as u8,
                card: c,
            });
            for q in 0..n {
                cands.push(Move::Play {
                    from,
                    to: Loc::Tableau(q as u8),
                    count: k as u8,
                    card: c,
                });
            }
        }
        cands
            .into_iter()
            .filter(|&m| self.clone().apply(m).is_ok())
            .collect()
    }

    /// The table as a [`Position`], to compare with the engine's.
    pub fn position(&self) -> Position {
        let d = self.rules.decks as usize;
        let foundations = (0..4)
            .map(|s| {
                let mut hs: Vec<u8> = (0..4 * d)
                    .filter(|f| f % 4 == s)
                    .map(|f| self.found[f].len() as u8)
                    .collect();
                hs.sort_unstable_by(|a, b| b.cmp(a));
                hs
            })
            .collect();
        let mut stock = self.stock.clone();
        stock.reverse();
        Position {
            base: self.base,
            foundations,
            reserve: self.reserve.clone(),
            tableau: self
                .piles
                .iter()
                .map(|(cs, d)| LayoutPile {
                    cards: cs.clone(),
                    face_down: *d,
                })
                .collect(),
            stock,
            waste: self.waste.clone(),
            redeals_made: self.redeals,
            base_pending: self.pending(),
        }
    }
}

/// What a replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub won: bool,
    pub moves: usize,
    /// Cards on the foundations at the end.
    pub foundation_cards: usize,
}

/// Replays `moves` from the start of `layout`, checking each against the
/// rules. A `Replay` with `won` is a proof that the deal can be won.
pub fn replay(rules: &Rules, layout: &Layout, moves: &[Move]) -> Result<Replay, ReplayError> {
    let mut t = Table::new(rules, layout);
    for (i, &mv) in moves.iter().enumerate() {
        t.apply(mv).map_err(|reason| ReplayError {
            index: i + 1,
            reason,
        })?;
    }
    Ok(Replay {
        won: t.is_won(),
        moves: moves.len(),
        foundation_cards: t.found.iter().map(Vec::len).sum(),
    })
}
