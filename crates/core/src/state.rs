//! The game state, its moves, play and undo.
//!
//! [`Game`] holds what never changes during a game (the rules, the reserve
//! and talon sequences as dealt); [`State`] holds what does, compactly:
//! foundation heights, the reserve height, the talon as a bit set of cards
//! played out of it plus how far the current pass has dealt, and the
//! tableau as one byte per card with pile boundaries. A `State` is about
//! 160 bytes, `Copy`-free but cheap to clone, and owns no heap memory.
//!
//! Moves follow the rules literally (GAMES.md §1): the stock is turned
//! `draw` cards at a time and redealt, empty spaces are distinct piles.
//! Forced events happen inside [`Game::play`]: the flip of a face-down card
//! that becomes a pile's top, and the filling of an emptied space from the
//! reserve. The solver's abstractions (K+ stock, canonical piles) are built
//! on top of this, never inside it.

use smallvec::SmallVec;

use crate::card::{wrap_rank, Card, Rank};
use crate::deal::{Layout, LayoutPile};
use crate::rules::{
    decks_word, Base, BaseChoice, Build, EmptySpace, GroupMoves, Redeals, Rules, Stock,
    TableauWrap, MAX_PILES,
};

/// Most cards a tableau can hold: every card of two decks.
/// Most cards the tableau can hold.
pub const TABLEAU_CAP: usize = 104;
/// Moving the cards of the piles after one pile, `Game::pile_push` and
/// `Game::pile_pop` copy a window of this many slots when it holds them
/// (as it nearly always does with one deck): a copy of constant length,
/// made inline, where one of variable length is a call to the C
/// library's `memmove` (3 % of the search's time on Canfield seed 18).
const SHIFT: usize = 64;
/// Base rank not chosen yet (Selective Canfield before its first move).
const NO_BASE: u8 = 0xFF;

/// A place a card can be taken from or put on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    Waste,
    Reserve,
    /// Tableau pile, 0-based.
    Tableau(u8),
    /// Foundation index: `suit * decks + copy`. In two-deck games the two
    /// foundations of a suit are kept with the first at least as high as
    /// the second, since they are interchangeable.
    Foundation(u8),
}

/// A move. Small and `Copy`; forced events are not moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Turn cards from the stock onto the waste (to-waste stock), or deal
    /// one card onto every pile (to-tableau stock).
    Deal,
    /// Turn the waste over to form a new stock.
    Redeal,
    /// Selective Canfield: choose selection card `n` as the base card.
    ChooseBase(u8),
    /// Move `count` cards whose bottom card is `card` from `from` to `to`.
    Play {
        from: Loc,
        to: Loc,
        count: u8,
        card: Card,
    },
}

/// A list of moves. 64 inline entries cover the usual positions (4 piles
/// with whole moves give at most a few dozen); rare larger lists (any-run
/// moves over 8 piles) spill to the heap.
pub type MoveList = SmallVec<[Move; 64]>;

/// The piles' top cards and whether a pile is empty ([`Game::tops`]).
#[derive(Clone, Copy)]
struct Tops {
    cards: u64,
    space: bool,
}

/// A waste card the stock can bring to the top (see [`Game::waste_reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Talon state that shows the card: pass position and redeals made.
    pub pos: u8,
    pub passes: u8,
    /// Stock turns (deals and redeals) it takes from the current state.
    pub turns: u16,
    /// Of those, redeals.
    pub redeals: u8,
    pub card: Card,
}

/// What [`Game::undo`] needs beyond the move itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// Talon position: of the waste card played, or the pass position
    /// before a deal or redeal.
    talon: u8,
    /// Cards dealt onto the tableau by a to-tableau deal.
    dealt: u8,
    flags: u8,
}

const FLIPPED: u8 = 1;
const FILLED: u8 = 2;

/// The changing part of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Height of each foundation (0..=13).
    found: [u8; 8],
    /// Base rank index, or `NO_BASE`.
    base: u8,
    /// Cards left in the reserve.
    reserve_len: u8,
    /// Talon positions below this are dealt (the waste); kept normalized to
    /// one past the waste's top card, 0 if the waste is empty.
    talon_pos: u8,
    /// Redeals made (kept at 0 when redeals are unlimited, so that states
    /// that differ only in it are one state).
    passes: u8,
    /// Bit `i`: talon position `i` has been played out of the talon.
    talon_gone: u128,
    /// Pile `p` is `cards[start[p]..start[p + 1]]`, bottom to top.
    start: [u8; MAX_PILES + 1],
    /// Face-down cards at the bottom of each pile.
    down: [u8; MAX_PILES],
    /// The length of each pile's top run ([`Game::run_len`]), kept by
    /// every change of a pile: a function of the fields above (so equal
    /// positions are still equal states), stored because it is asked far
    /// more often than a pile changes.
    run: [u8; MAX_PILES],
    cards: [Card; TABLEAU_CAP],
}

/// Every field but `run` (a function of the others, so equal states still
/// hash equally), the tableau's cards as one byte string: hashing all 104
/// slots card by card took a hasher call per card, which the solution
/// shortener, hashing every position two moves from its line, paid for.
impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write(&self.found);
        h.write(&[self.base, self.reserve_len, self.talon_pos, self.passes]);
        h.write_u128(self.talon_gone);
        h.write(&self.start);
        h.write(&self.down);
        // The tableau's cards only: the slots past them hold a fixed filler.
        let n = self.start[MAX_PILES] as usize;
        let mut cards = [0u8; TABLEAU_CAP];
        for (b, c) in cards[..n].iter_mut().zip(&self.cards[..n]) {
            *b = c.index();
        }
        h.write(&cards[..n]);
    }
}

/// A layout the rules cannot play, named in the user's terms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("card {card} is missing from the deal (with {} each card appears {})", decks_word(*want), times_word(*want))]
    Missing { card: Card, want: u8 },
    #[error("card {card} appears {count} times but the deal has {}: {places}{}", decks_word(*want), missing_note(missing))]
    Duplicate {
        card: Card,
        count: u8,
        want: u8,
        places: String,
        /// The cards short of their copies, if any: what the duplicate
        /// most likely stands for.
        missing: Vec<Card>,
    },
    #[error("card {card} ({place}) is not in a deck of {ranks} ranks")]
    NotInDeck {
        card: Card,
        place: String,
        ranks: u8,
    },
    #[error("the tableau has {got} piles; this game has {want}")]
    PileCount { got: usize, want: usize },
    #[error("tableau pile {pile} has {got} cards ({down} face down); this game deals {want} ({want_down} face down)")]
    PileSize {
        pile: usize,
        got: usize,
        down: usize,
        want: usize,
        want_down: usize,
    },
    #[error("the reserve has {got} cards; this game has {want}")]
    ReserveSize { got: usize, want: usize },
    #[error("the foundations hold {got}; this game starts them with {want}")]
    Foundations { got: String, want: String },
    #[error("Selective Canfield needs {want} selection cards and an empty tableau, got {got} selection cards and {piles} piles")]
    Selection {
        got: usize,
        want: usize,
        piles: usize,
    },
    #[error("this game has no base-card choice, but the deal has a selection line")]
    UnexpectedSelection,
    #[error("this game deals its stock onto the tableau, so it has no waste, but the deal lists {0} waste card(s)")]
    WasteWithoutWastePile(usize),
    #[error("the talon (stock and waste) would hold {0} cards; at most 127 are supported")]
    TalonTooBig(usize),
}

/// Fixed data of one game: rules and the dealt sequences.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// Reserve, bottom to top.
    reserve: Vec<Card>,
    /// Talon: the waste (bottom to top) then the stock (next card first).
    talon: Vec<Card>,
    selection: Vec<Card>,
    initial: State,
    /// Bit `t` of `builds_on[c]`: `c` builds on `t` in the tableau; with
    /// the `AtBase` wrap, whose answer depends on the base, as if every
    /// rank wrapped (no base yet), so that [`Game::builds`] need only rule
    /// out a `t` of the base rank.
    builds_on: [u64; Card::COUNT],
    /// Bit `c` of `held_by[t]`: bit `t` of `builds_on[c]` (the inverse
    /// relation: the cards that may be built on `t`).
    held_by: [u64; Card::COUNT],
}

/// [`Game::waste_reach`]'s walk with the talon's live positions as a `$t`.
macro_rules! waste_reach_on {
    ($name:ident, $t:ty) => {
        fn $name(
            &self,
            st: &State,
            live: $t,
            draw: u8,
            redeals: Redeals,
            out: &mut SmallVec<[Reach; 32]>,
        ) {
            let n = self.talon.len();
            let mut seen: $t = 0;
            let mut pos = st.talon_pos as usize;
            let mut passes = st.passes;
            let mut turns = 0u16;
            let mut redeals_done = 0u8;
            if pos > 0 {
                out.push(Reach {
                    pos: pos as u8,
                    passes,
                    turns: 0,
                    redeals: 0,
                    card: self.talon[pos - 1],
                });
                seen |= 1 << (pos - 1);
            }
            // At most: the rest of this pass, then one whole pass after a redeal
            // (further passes repeat it exactly, as no card leaves the talon).
            // Bit `i` of `live`: talon position `i` still holds its card. A talon
            // has fewer positions than `$t` has bits (`Game::new` refuses more
            // than 127 cards, and `waste_reach` takes 64 bits only for fewer
            // than 64), so `pos` is below that and no shift below reaches it.
            let mut fresh_passes = 0;
            loop {
                if live >> pos == 0 {
                    let allowed = match redeals {
                        Redeals::Unlimited => true,
                        Redeals::Limited(k) => passes < k,
                    };
                    if !allowed || fresh_passes == 1 || live == 0 {
                        break;
                    }
                    fresh_passes += 1;
                    pos = 0;
                    if matches!(redeals, Redeals::Limited(_)) {
                        passes += 1;
                    }
                    turns += 1;
                    redeals_done += 1;
                    continue;
                }
                // Turn `draw` cards: past the draw-th card still in the talon
                // (or to the end), then back to one past the highest card left
                // below (the waste's new top).
                let mut rest = live >> pos;
                for _ in 0..draw {
                    if rest == 0 {
                        pos = n;
                        break;
                    }
                    // The live card is below bit `n` (fewer than `$t`'s
                    // bits), so `t` stays below them too.
                    let t = rest.trailing_zeros() as usize + 1;
                    pos += t;
                    rest >>= t;
                }
                pos = <$t>::BITS as usize
                    - (live & (((1 as $t) << pos) - 1)).leading_zeros() as usize;
                turns += 1;
                if pos > 0 && seen >> (pos - 1) & 1 == 0 {
                    seen |= 1 << (pos - 1);
                    out.push(Reach {
                        pos: pos as u8,
                        passes,
                        turns,
                        redeals: redeals_done,
                        card: self.talon[pos - 1],
                    });
                }
            }
        }
    };
}

impl Game {
    /// Checks `layout` against `rules` and builds the game.
    pub fn new(rules: &Rules, layout: &Layout) -> Result<Game, LayoutError> {
        check_layout(rules, layout)?;
        let talon: Vec<Card> = layout.waste.iter().chain(&layout.stock).copied().collect();
        if talon.len() > 127 {
            return Err(LayoutError::TalonTooBig(talon.len()));
        }
        let mut st = State {
            found: [0; 8],
            base: NO_BASE,
            reserve_len: layout.reserve.len() as u8,
            talon_pos: 0,
            passes: 0,
            talon_gone: 0,
            start: [0; MAX_PILES + 1],
            down: [0; MAX_PILES],
            run: [0; MAX_PILES],
            cards: [Card::from_index(0).unwrap(); TABLEAU_CAP],
        };
        let d = rules.decks as usize;
        match rules.base {
            Base::Fixed(r) => st.base = r.index(),
            Base::FirstCard => {
                if let Some(c) = layout.foundations.first() {
                    st.base = c.rank().index();
                }
            }
        }
        for &c in &layout.foundations {
            // Two copies of a base card fill the suit's two foundations.
            let s = c.suit().index() * d;
            let f = if st.found[s] == 0 { s } else { s + 1 };
            st.found[f] = 1;
        }
        let g = Game {
            rules: rules.clone(),
            reserve: layout.reserve.clone(),
            talon,
            selection: layout.selection.clone(),
            initial: st,
            builds_on: [0; Card::COUNT],
            held_by: [0; Card::COUNT],
        };
        let mut builds_on = [0u64; Card::COUNT];
        let mut held_by = [0u64; Card::COUNT];
        for c in Card::all() {
            for t in Card::all() {
                if g.builds_at(NO_BASE, c, t) {
                    builds_on[c.index() as usize] |= 1 << t.index();
                    held_by[t.index() as usize] |= 1 << c.index();
                }
            }
        }
        let mut g = Game {
            builds_on,
            held_by,
            ..g
        };
        let mut st = g.initial.clone();
        g.set_tableau(&mut st, &layout.tableau);
        st.talon_pos = layout.waste.len() as u8;
        g.normalize_talon(&mut st);
        g.initial = st;
        Ok(g)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position at the start of the game.
    pub fn initial(&self) -> State {
        self.initial.clone()
    }

    pub fn selection(&self) -> &[Card] {
        &self.selection
    }

    fn set_tableau(&self, st: &mut State, piles: &[LayoutPile]) {
        let mut n = 0usize;
        st.cards.fill(Card::from_index(0).unwrap());
        st.start = [0; MAX_PILES + 1];
        st.down = [0; MAX_PILES];
        for (p, pile) in piles.iter().enumerate() {
            st.start[p] = n as u8;
            st.down[p] = pile.face_down as u8;
            for &c in &pile.cards {
                st.cards[n] = c;
                n += 1;
            }
        }
        for p in piles.len()..=MAX_PILES {
            st.start[p] = n as u8;
        }
        self.fix_runs(st);
    }

    /// Rearranges the tableau: pile `p` becomes `piles[p]` (bottom to top),
    /// keeping its face-down count. For a solver that moves to a position
    /// the rules connect to this one; it must keep every card and every
    /// pile's face-down cards (checked in debug builds only).
    pub fn rearrange_tableau(&self, st: &mut State, piles: &[&[Card]]) {
        debug_assert_eq!(piles.len(), self.piles());
        debug_assert_eq!(
            piles.iter().map(|p| p.len()).sum::<usize>(),
            st.start[MAX_PILES] as usize
        );
        let mut n = 0usize;
        for (p, cs) in piles.iter().enumerate() {
            debug_assert!(cs.len() >= st.down[p] as usize);
            st.start[p] = n as u8;
            st.cards[n..n + cs.len()].copy_from_slice(cs);
            n += cs.len();
        }
        for p in piles.len()..=MAX_PILES {
            st.start[p] = n as u8;
        }
        self.fix_runs(st);
    }

    /// Sets every pile's run length afresh (those past the game's piles,
    /// always empty, to 0).
    fn fix_runs(&self, st: &mut State) {
        for p in 0..self.piles() {
            st.run[p] = self.count_run(st, p) as u8;
        }
        st.run[self.piles()..].fill(0);
    }

    // ----- compact form --------------------------------------------------

    /// Appends an exact, compact form of `st` to `out`, which
    /// [`Game::unpack`] reads back into an equal state: the foundations'
    /// heights (a nibble each), the base, the reserve's length, the
    /// talon's position and passes, its gone cards (a bit each), each
    /// pile's length and face-down count, and the tableau's cards (a byte
    /// each). For a search that keeps many positions it must expand later
    /// (some 30 bytes for a one-deck game, against [`State`]'s 170).
    pub fn pack(&self, st: &State, out: &mut Vec<u8>) {
        for pair in st.found.chunks(2) {
            out.push(pair[0] | pair[1] << 4);
        }
        out.extend_from_slice(&[st.base, st.reserve_len, st.talon_pos, st.passes]);
        let gone = st.talon_gone.to_le_bytes();
        out.extend_from_slice(&gone[..self.talon.len().div_ceil(8)]);
        for p in 0..self.piles() {
            out.push(st.start[p + 1] - st.start[p]);
            out.push(st.down[p]);
        }
        let n = st.start[MAX_PILES] as usize;
        out.extend(st.cards[..n].iter().map(|c| c.index()));
    }

    /// The state [`Game::pack`] wrote at the start of `b`, and the bytes
    /// it took. `b` must hold what `pack` wrote for this game (checked in
    /// debug builds only: the form is for a search's own memory).
    pub fn unpack(&self, b: &[u8]) -> (State, usize) {
        let mut st = self.initial.clone();
        for (i, &x) in b[..4].iter().enumerate() {
            st.found[2 * i] = x & 15;
            st.found[2 * i + 1] = x >> 4;
        }
        [st.base, st.reserve_len, st.talon_pos, st.passes] = [b[4], b[5], b[6], b[7]];
        let g = self.talon.len().div_ceil(8);
        let mut gone = [0u8; 16];
        gone[..g].copy_from_slice(&b[8..8 + g]);
        st.talon_gone = u128::from_le_bytes(gone);
        let mut at = 8 + g;
        let mut n = 0u8;
        for p in 0..self.piles() {
            st.start[p] = n;
            n += b[at];
            st.down[p] = b[at + 1];
            at += 2;
        }
        for p in self.piles()..=MAX_PILES {
            st.start[p] = n;
        }
        let filler = Card::from_index(0).expect("card 0");
        let n = n as usize;
        for (slot, &x) in st.cards[..n].iter_mut().zip(&b[at..at + n]) {
            let c = Card::from_index(x);
            debug_assert!(c.is_some(), "not a packed state");
            *slot = c.unwrap_or(filler);
        }
        st.cards[n..].fill(filler);
        at += n;
        self.fix_runs(&mut st);
        (st, at)
    }

    // ----- queries -------------------------------------------------------

    fn piles(&self) -> usize {
        self.rules.piles as usize
    }

    /// The cards of pile `p`, bottom to top.
    pub fn pile<'a>(&self, st: &'a State, p: usize) -> &'a [Card] {
        &st.cards[st.start[p] as usize..st.start[p + 1] as usize]
    }

    /// Face-down cards at the bottom of pile `p`.
    pub fn face_down(&self, st: &State, p: usize) -> usize {
        st.down[p] as usize
    }

    pub fn reserve_top(&self, st: &State) -> Option<Card> {
        st.reserve_len
            .checked_sub(1)
            .map(|i| self.reserve[i as usize])
    }

    /// The reserve as it stands, bottom to top.
    pub fn reserve<'a>(&'a self, st: &State) -> &'a [Card] {
        &self.reserve[..st.reserve_len as usize]
    }

    fn gone(st: &State, i: usize) -> bool {
        st.talon_gone >> i & 1 == 1
    }

    /// Top of the waste and its talon position.
    fn waste_top_at(&self, st: &State) -> Option<(usize, Card)> {
        if !self.has_waste() {
            return None;
        }
        (st.talon_pos as usize)
            .checked_sub(1)
            .map(|i| (i, self.talon[i]))
    }

    pub fn waste_top(&self, st: &State) -> Option<Card> {
        self.waste_top_at(st).map(|(_, c)| c)
    }

    /// A to-tableau stock has no waste: its dealt cards are on the piles.
    fn has_waste(&self) -> bool {
        matches!(self.rules.stock, Stock::ToWaste { .. })
    }

    /// The waste, bottom to top.
    pub fn waste(&self, st: &State) -> Vec<Card> {
        if !self.has_waste() {
            return Vec::new();
        }
        (0..st.talon_pos as usize)
            .filter(|&i| !Self::gone(st, i))
            .map(|i| self.talon[i])
            .collect()
    }

    /// The stock, next card first.
    pub fn stock(&self, st: &State) -> Vec<Card> {
        (st.talon_pos as usize..self.talon.len())
            .filter(|&i| !Self::gone(st, i))
            .map(|i| self.talon[i])
            .collect()
    }

    pub fn stock_empty(&self, st: &State) -> bool {
        (st.talon_pos as usize..self.talon.len()).all(|i| Self::gone(st, i))
    }

    /// Redeals made so far (0 when they are unlimited).
    pub fn redeals_made(&self, st: &State) -> u8 {
        st.passes
    }

    /// The base rank, once known.
    pub fn base(&self, st: &State) -> Option<Rank> {
        Rank::new(st.base)
    }

    /// Height of foundation `f` (see [`Loc::Foundation`]).
    pub fn foundation_height(&self, st: &State, f: usize) -> u8 {
        st.found[f]
    }

    /// The top card of foundation `f`, if any.
    pub fn foundation_top(&self, st: &State, f: usize) -> Option<Card> {
        let h = st.found[f];
        let base = Rank::new(st.base)?;
        (h > 0).then(|| {
            Card::new(
                crate::card::Suit::from_index(self.rules.foundation_suit(f)),
                self.rules.rank_add(base, h - 1),
            )
        })
    }

    pub fn is_won(&self, st: &State) -> bool {
        st.found[..self.rules.foundations()]
            .iter()
            .all(|&h| h == self.rules.ranks)
    }

    /// The height of each foundation, in the order of the state.
    pub fn foundation_heights<'s>(&self, st: &'s State) -> &'s [u8] {
        &st.found[..self.rules.foundations()]
    }

    /// Cards on the foundations.
    pub fn foundation_cards(&self, st: &State) -> usize {
        st.found.iter().map(|&h| h as usize).sum()
    }

    /// Whether the player still has to choose the base card.
    pub fn base_pending(&self, st: &State) -> bool {
        st.base == NO_BASE && !self.selection.is_empty()
    }

    /// Whether `c` may be built on `t` in the tableau.
    #[inline]
    pub fn builds(&self, st: &State, c: Card, t: Card) -> bool {
        self.builds_bits(st, c) >> t.index() & 1 != 0
    }

    /// The cards `c` may be built on in the tableau, a bit per card index:
    /// [`Game::builds`] for every `t` at once. `builds_at(st.base, c, t)`,
    /// without its division: with the `AtBase` wrap, `builds_on` is
    /// `builds_at(NO_BASE, ..)`, which differs only in not refusing a `t`
    /// of the base rank.
    #[inline]
    pub fn builds_bits(&self, st: &State, c: Card) -> u64 {
        self.builds_on[c.index() as usize] & self.build_keep(st)
    }

    /// The cards that may be built in the tableau on some card of `set` (a
    /// bit per card index, both): every `c` whose [`Game::builds_bits`]
    /// meets `set`.
    #[inline]
    pub fn holders_bits(&self, st: &State, set: u64) -> u64 {
        // Nothing builds on a card `build_keep` leaves out.
        let mut set = set & self.build_keep(st);
        let mut m = 0;
        while set != 0 {
            m |= self.held_by[set.trailing_zeros() as usize];
            set &= set - 1;
        }
        m
    }

    /// [`Game::builds`] with the base rank index `base`.
    fn builds_at(&self, base: u8, c: Card, t: Card) -> bool {
        let (cr, tr) = (c.rank().index(), t.rank().index());
        let rank_ok = match self.rules.tableau_wrap {
            TableauWrap::No => cr + 1 == tr,
            TableauWrap::KingOnAce => cr + 1 == tr || (tr == 0 && cr + 1 == self.rules.ranks),
            TableauWrap::AtBase => (cr + 1) % self.rules.ranks == tr && tr != base,
        };
        rank_ok
            && match self.rules.build {
                Build::AltColour => c.is_red() != t.is_red(),
                Build::Suit => c.suit() == t.suit(),
                Build::AnySuit => true,
            }
    }

    /// Length of the properly built face-up run at the top of pile `p`.
    pub fn run_len(&self, st: &State, p: usize) -> usize {
        debug_assert_eq!(st.run[p] as usize, self.count_run(st, p), "pile {p}");
        st.run[p] as usize
    }

    /// The cards something may be built on in `st`, as far as the base
    /// decides (a bit per card index): with the `AtBase` wrap and the base
    /// chosen, all but the base rank's card of each suit (`suit * 13 +
    /// base`); else all. `c` builds on `t` when bit `t` of
    /// `builds_on[c] & keep` is set ([`Game::builds_bits`]).
    #[inline]
    fn build_keep(&self, st: &State) -> u64 {
        if self.rules.tableau_wrap == TableauWrap::AtBase && st.base < 13 {
            !(0x0080_0400_2001u64 << st.base)
        } else {
            !0
        }
    }

    /// How many of `cs`'s top cards form a properly built run (0 when
    /// empty).
    #[inline]
    fn run_of(&self, cs: &[Card], keep: u64) -> usize {
        let Some((&top, rest)) = cs.split_last() else {
            return 0;
        };
        let mut above = top;
        let mut k = 1;
        for &below in rest.iter().rev() {
            if (self.builds_on[above.index() as usize] & keep) >> below.index() & 1 == 0 {
                break;
            }
            above = below;
            k += 1;
        }
        k
    }

    /// [`Game::run_len`] counted from the cards.
    fn count_run(&self, st: &State, p: usize) -> usize {
        let cs = self.pile(st, p);
        self.run_of(&cs[st.down[p] as usize..], self.build_keep(st))
    }

    /// Puts `cards` on pile `p`, keeping its run length.
    fn push_cards(&self, st: &mut State, p: usize, cards: &[Card]) {
        let Some(&bottom) = cards.first() else {
            return;
        };
        let cs = self.pile(st, p);
        // The old top, if face up: the pushed cards extend its run when
        // they are a run themselves and their bottom card builds on it.
        let joins = cs.len() > st.down[p] as usize && self.builds(st, bottom, cs[cs.len() - 1]);
        let old = st.run[p] as usize;
        let r = self.run_of(cards, self.build_keep(st));
        Self::pile_push(st, p, cards);
        st.run[p] = if joins && r == cards.len() {
            old + r
        } else {
            r
        } as u8;
    }

    /// Takes the top `k` cards of pile `p` into `buf`, keeping its run
    /// length.
    fn pop_cards(&self, st: &mut State, p: usize, k: usize, buf: &mut [Card; TABLEAU_CAP]) {
        let old = st.run[p] as usize;
        Self::pile_pop(st, p, k, buf);
        if k < old {
            st.run[p] = (old - k) as u8;
        } else {
            st.run[p] = self.count_run(st, p) as u8;
        }
    }

    /// The cards that can go to a foundation now (a bit per card index):
    /// those for which [`Game::foundation_for`] finds one.
    pub fn foundation_next_bits(&self, st: &State) -> u64 {
        if st.base == NO_BASE {
            return 0;
        }
        let mut m = 0u64;
        for (f, &h) in st.found[..self.rules.foundations()].iter().enumerate() {
            if h < self.rules.ranks {
                let r = wrap_rank(st.base + h, self.rules.ranks) as usize;
                m |= 1 << (self.rules.foundation_suit(f) * 13 + r);
            }
        }
        m
    }

    /// The foundation a card can go to now, if any.
    pub fn foundation_for(&self, st: &State, c: Card) -> Option<u8> {
        if st.base == NO_BASE {
            return None;
        }
        let d = self.rules.decks as usize;
        let s = c.suit().index() * d;
        (s..s + d)
            .find(|&f| {
                st.found[f] < self.rules.ranks
                    && wrap_rank(st.base + st.found[f], self.rules.ranks) == c.rank().index()
            })
            .map(|f| f as u8)
    }

    /// Whether a card or run from `from` may go into an empty space.
    pub fn space_accepts(&self, st: &State, from: Loc) -> bool {
        match self.rules.empty_space {
            EmptySpace::Any => true,
            _ if st.reserve_len > 0 => from == Loc::Reserve,
            EmptySpace::ReserveThenAny => true,
            EmptySpace::ReserveThenWaste => from == Loc::Waste,
        }
    }

    /// The piles' top cards (a bit per card index) and whether some pile is
    /// empty: what [`Game::push_tableau_dests`] reads to pass over, with
    /// two bit tests, a card that goes nowhere on the tableau.
    fn tops(&self, st: &State) -> Tops {
        let mut t = Tops {
            cards: 0,
            space: false,
        };
        for q in 0..self.piles() {
            match self.pile(st, q).last() {
                Some(c) => t.cards |= 1 << c.index(),
                None => t.space = true,
            }
        }
        t
    }

    /// Tableau destinations for a card or run whose bottom card is `c`;
    /// `tops` is [`Game::tops`] of `st`.
    fn push_tableau_dests(
        &self,
        st: &State,
        tops: Tops,
        from: Loc,
        c: Card,
        count: u8,
        out: &mut MoveList,
    ) {
        let space_ok = self.space_accepts(st, from);
        // Most cards build on no top and have no space to go to: the loop
        // below would push nothing.
        if self.builds_bits(st, c) & tops.cards == 0 && !(tops.space && space_ok) {
            return;
        }
        for q in 0..self.piles() {
            if from == Loc::Tableau(q as u8) {
                continue;
            }
            let ok = match self.pile(st, q).last() {
                Some(&t) => self.builds(st, c, t),
                None => space_ok,
            };
            if ok {
                out.push(Move::Play {
                    from,
                    to: Loc::Tableau(q as u8),
                    count,
                    card: c,
                });
            }
        }
    }

    /// The moves of the top `k` cards of pile `p` (for every `k` up to its
    /// run length `run`) to the other piles: the same moves, in the same
    /// order, as [`Game::push_tableau_dests`] for each `k` in turn, found
    /// per destination instead of per `k`. Down a run the ranks go up by one
    /// card at a time (each card builds on the one below it), so onto a
    /// top card of rank `r` only the cards of rank `r - 1` can go, at depths
    /// `k0`, `k0 + ranks`, … from the top; only those are checked.
    fn push_run_dests(&self, st: &State, p: usize, run: usize, out: &mut MoveList) {
        let cs = self.pile(st, p);
        let len = cs.len();
        let ranks = self.rules.ranks as usize;
        let top_rank = cs[len - 1].rank().index() as usize;
        let space_ok = self.space_accepts(st, Loc::Tableau(p as u8));
        let mut found: SmallVec<[(u8, u8); 16]> = SmallVec::new();
        for q in 0..self.piles() {
            if q == p {
                continue;
            }
            match self.pile(st, q).last() {
                Some(&t) => {
                    let want = wrap_rank(t.rank().index() as usize + ranks - 1, ranks);
                    let mut k = wrap_rank(want + ranks - top_rank, ranks) + 1;
                    while k <= run {
                        if self.builds(st, cs[len - k], t) {
                            found.push((k as u8, q as u8));
                        }
                        k += ranks;
                    }
                }
                None if space_ok => found.extend((1..=run).map(|k| (k as u8, q as u8))),
                None => {}
            }
        }
        found.sort_unstable();
        out.extend(found.into_iter().map(|(k, q)| Move::Play {
            from: Loc::Tableau(p as u8),
            to: Loc::Tableau(q),
            count: k,
            card: cs[len - k as usize],
        }));
    }

    /// Every legal move, in a fixed order.
    pub fn moves(&self, st: &State, out: &mut MoveList) {
        out.clear();
        if self.base_pending(st) {
            out.extend((0..self.selection.len() as u8).map(Move::ChooseBase));
            return;
        }
        // To the foundations.
        let mut singles: SmallVec<[(Loc, Card); 12]> = SmallVec::new();
        if let Some(c) = self.waste_top(st) {
            singles.push((Loc::Waste, c));
        }
        if let Some(c) = self.reserve_top(st) {
            singles.push((Loc::Reserve, c));
        }
        for p in 0..self.piles() {
            if let Some(&c) = self.pile(st, p).last() {
                singles.push((Loc::Tableau(p as u8), c));
            }
        }
        let next = self.foundation_next_bits(st);
        for &(from, c) in &singles {
            if next >> c.index() & 1 == 0 {
                continue;
            }
            if let Some(f) = self.foundation_for(st, c) {
                out.push(Move::Play {
                    from,
                    to: Loc::Foundation(f),
                    count: 1,
                    card: c,
                });
            }
        }
        // Between tableau piles.
        let tops = self.tops(st);
        for p in 0..self.piles() {
            let cs = self.pile(st, p);
            if cs.is_empty() {
                continue;
            }
            let run = self.run_len(st, p);
            let whole = st.down[p] == 0 && run == cs.len();
            let (lo, hi) = match self.rules.group_moves {
                GroupMoves::Top => (1, 1),
                GroupMoves::Any => (1, run),
                GroupMoves::Pile if whole => (cs.len(), cs.len()),
                GroupMoves::Pile => continue,
                GroupMoves::Whole => (1, 1),
            };
            if self.rules.group_moves == GroupMoves::Any && run > 1 {
                self.push_run_dests(st, p, run, out);
            } else {
                for k in lo..=hi {
                    self.push_tableau_dests(
                        st,
                        tops,
                        Loc::Tableau(p as u8),
                        cs[cs.len() - k],
                        k as u8,
                        out,
                    );
                }
            }
            if self.rules.group_moves == GroupMoves::Whole && whole && cs.len() > 1 {
                self.push_tableau_dests(
                    st,
                    tops,
                    Loc::Tableau(p as u8),
                    cs[0],
                    cs.len() as u8,
                    out,
                );
            }
        }
        // Waste and reserve to the tableau.
        if let Some(c) = self.waste_top(st) {
            self.push_tableau_dests(st, tops, Loc::Waste, c, 1, out);
        }
        if let Some(c) = self.reserve_top(st) {
            self.push_tableau_dests(st, tops, Loc::Reserve, c, 1, out);
        }
        // Worrying back.
        if self.rules.worrying_back {
            let d = self.rules.decks as usize;
            for f in 0..self.rules.foundations() {
                // Two equal foundations of a suit have the same top card:
                // offer it once, from the second.
                if d == 2 && f % 2 == 0 && st.found[f] == st.found[f + 1] {
                    continue;
                }
                if let Some(c) = self.foundation_top(st, f) {
                    self.push_tableau_dests(st, tops, Loc::Foundation(f as u8), c, 1, out);
                }
            }
        }
        // The stock.
        match self.rules.stock {
            Stock::ToWaste { redeals, .. } => {
                if !self.stock_empty(st) {
                    out.push(Move::Deal);
                } else if st.talon_pos > 0
                    && match redeals {
                        Redeals::Unlimited => true,
                        Redeals::Limited(n) => st.passes < n,
                    }
                {
                    out.push(Move::Redeal);
                }
            }
            Stock::ToTableau { only_when_no_empty } => {
                if (st.talon_pos as usize) < self.talon.len()
                    && !(only_when_no_empty
                        && (0..self.piles()).any(|p| self.pile(st, p).is_empty()))
                {
                    out.push(Move::Deal);
                }
            }
        }
    }

    /// Every legal move, as a new list.
    pub fn legal_moves(&self, st: &State) -> MoveList {
        let mut v = MoveList::new();
        self.moves(st, &mut v);
        v
    }

    // ----- the stock as the solver sees it (K+) ----------------------------

    /// Bit `i` set: talon position `i` has been played (see [`Game::talon`]).
    pub fn talon_gone_bits(&self, st: &State) -> u128 {
        st.talon_gone
    }

    /// Bit `i` set: talon position `i` still holds its card. A talon has at
    /// most 127 cards (`Game::new` refuses more), so bit 127 is never set.
    pub fn talon_live_bits(&self, st: &State) -> u128 {
        let n = self.talon.len();
        debug_assert!(n < 128);
        if n == 0 {
            0
        } else {
            !st.talon_gone & (u128::MAX >> (128 - n))
        }
    }

    /// The talon as dealt: the waste (bottom to top), then the stock (next
    /// card first).
    pub fn talon(&self) -> &[Card] {
        &self.talon
    }

    /// The pass position and redeals made: the talon's part of the state.
    pub fn talon_state(&self, st: &State) -> (u8, u8) {
        (st.talon_pos, st.passes)
    }

    /// Sets the talon to a state returned by [`Game::waste_reach`] or
    /// [`Game::talon_state`]; nothing else changes.
    pub fn set_talon_state(&self, st: &mut State, (pos, passes): (u8, u8)) {
        st.talon_pos = pos;
        st.passes = passes;
    }

    /// Every card that turning the stock (with redeals where the rules
    /// allow) can bring to the top of the waste without any other move, with
    /// the talon state that shows it and the turns it takes: the "K+" moves
    /// of GAMES.md §5. The current waste top comes first (no turns). A card
    /// reachable in several passes is listed once, in its earliest pass: the
    /// later one differs only in having used more redeals, so it is
    /// dominated. Empty for a to-tableau stock.
    pub fn waste_reach(&self, st: &State, out: &mut SmallVec<[Reach; 32]>) {
        out.clear();
        let Stock::ToWaste { draw, redeals } = self.rules.stock else {
            return;
        };
        if self.base_pending(st) {
            return;
        }
        let live = self.talon_live_bits(st);
        // On 64 bits where the talon fits (a one-deck talon always does):
        // cheaper shifts and bit counts.
        if self.talon.len() < 64 {
            self.waste_reach_64(st, live as u64, draw, redeals, out);
        } else {
            self.waste_reach_128(st, live, draw, redeals, out);
        }
    }

    waste_reach_on!(waste_reach_64, u64);
    waste_reach_on!(waste_reach_128, u128);

    /// The turns and redeals that take the talon from `from` to `to` (a
    /// state listed by [`Game::waste_reach`]), as moves.
    pub fn stock_moves_between(&self, st: &State, to: (u8, u8)) -> Vec<Move> {
        let mut s = st.clone();
        let mut v = Vec::new();
        // Bounded: two passes of single turns, plus the redeals.
        for _ in 0..=(2 * self.talon.len() + 4) {
            if self.talon_state(&s) == to {
                return v;
            }
            let mv = if self.stock_empty(&s) {
                Move::Redeal
            } else {
                Move::Deal
            };
            self.play(&mut s, mv);
            v.push(mv);
        }
        panic!("talon state {to:?} is not reachable by turning the stock");
    }

    // ----- play and undo -------------------------------------------------

    /// Pulls the pass position back to one past the waste's top card.
    fn normalize_talon(&self, st: &mut State) {
        let mut p = st.talon_pos as usize;
        while p > 0 && Self::gone(st, p - 1) {
            p -= 1;
        }
        st.talon_pos = p as u8;
    }

    fn pile_push(st: &mut State, p: usize, cards: &[Card]) {
        let k = cards.len();
        let end = st.start[p + 1] as usize;
        let total = st.start[MAX_PILES] as usize;
        if total - end <= SHIFT && end + k + SHIFT <= TABLEAU_CAP {
            // A copy of constant length, made inline: the slots past
            // `total` hold the filler, and so do the ones it moves there.
            st.cards.copy_within(end..end + SHIFT, end + k);
        } else {
            st.cards.copy_within(end..total, end + k);
        }
        st.cards[end..end + k].copy_from_slice(cards);
        for s in &mut st.start[p + 1..] {
            *s += k as u8;
        }
    }

    fn pile_pop(st: &mut State, p: usize, k: usize, buf: &mut [Card; TABLEAU_CAP]) -> usize {
        let end = st.start[p + 1] as usize;
        let total = st.start[MAX_PILES] as usize;
        buf[..k].copy_from_slice(&st.cards[end - k..end]);
        // Unused slots hold a fixed filler so that equal positions are
        // equal states (derived `Eq`/`Hash` see the whole array).
        if total - end + k <= SHIFT && end + SHIFT <= TABLEAU_CAP {
            // A copy of constant length, made inline, that also brings the
            // filler from past `total` into the `k` slots it frees.
            st.cards.copy_within(end..end + SHIFT, end - k);
        } else {
            st.cards.copy_within(end..total, end - k);
            st.cards[total - k..total].fill(Card::from_index(0).unwrap());
        }
        for s in &mut st.start[p + 1..] {
            *s -= k as u8;
        }
        k
    }

    /// Plays a legal move. Panics on a move that is not legal here (use
    /// [`Game::try_play`] for moves from outside).
    pub fn play(&self, st: &mut State, mv: Move) -> Undo {
        let mut u = Undo {
            talon: 0,
            dealt: 0,
            flags: 0,
        };
        let mut buf = [Card::from_index(0).unwrap(); TABLEAU_CAP];
        match mv {
            Move::Deal => match self.rules.stock {
                Stock::ToWaste { draw, .. } => {
                    u.talon = st.talon_pos;
                    let mut p = st.talon_pos as usize;
                    let mut k = draw;
                    while k > 0 && p < self.talon.len() {
                        if !Self::gone(st, p) {
                            k -= 1;
                        }
                        p += 1;
                    }
                    assert!(k < draw, "deal from an empty stock");
                    st.talon_pos = p as u8;
                    // A short last deal runs past played positions.
                    self.normalize_talon(st);
                }
                Stock::ToTableau { .. } => {
                    let mut p = 0;
                    while p < self.piles() && (st.talon_pos as usize) < self.talon.len() {
                        self.push_cards(st, p, &[self.talon[st.talon_pos as usize]]);
                        st.talon_pos += 1;
                        p += 1;
                    }
                    assert!(p > 0, "deal from an empty stock");
                    u.dealt = p as u8;
                }
            },
            Move::Redeal => {
                assert!(
                    self.stock_empty(st) && st.talon_pos > 0,
                    "redeal with cards in the stock"
                );
                u.talon = st.talon_pos;
                st.talon_pos = 0;
                if matches!(
                    self.rules.stock,
                    Stock::ToWaste {
                        redeals: Redeals::Limited(_),
                        ..
                    }
                ) {
                    st.passes += 1;
                }
            }
            Move::ChooseBase(i) => {
                let c = self.selection[i as usize];
                st.base = c.rank().index();
                st.found[c.suit().index() * self.rules.decks as usize] = 1;
                self.set_tableau(st, &Layout::selective_tableau(&self.selection, i as usize));
            }
            Move::Play {
                from,
                to,
                count,
                card,
            } => {
                let k = count as usize;
                match from {
                    Loc::Waste => {
                        let (i, c) = self.waste_top_at(st).expect("play from an empty waste");
                        debug_assert_eq!(c, card);
                        u.talon = i as u8;
                        st.talon_gone |= 1u128 << i;
                        self.normalize_talon(st);
                        buf[0] = c;
                    }
                    Loc::Reserve => {
                        st.reserve_len -= 1;
                        buf[0] = self.reserve[st.reserve_len as usize];
                    }
                    Loc::Tableau(p) => {
                        self.pop_cards(st, p as usize, k, &mut buf);
                    }
                    Loc::Foundation(f) => {
                        st.found[f as usize] -= 1;
                        buf[0] = card;
                    }
                }
                debug_assert_eq!(buf[0], card);
                match to {
                    Loc::Foundation(f) => st.found[f as usize] += 1,
                    Loc::Tableau(q) => self.push_cards(st, q as usize, &buf[..k]),
                    _ => unreachable!("cards only go to the tableau or a foundation"),
                }
                if let Loc::Tableau(p) = from {
                    let p = p as usize;
                    let len = (st.start[p + 1] - st.start[p]) as usize;
                    if len > 0 && len == st.down[p] as usize {
                        st.down[p] -= 1;
                        st.run[p] = 1;
                        u.flags |= FLIPPED;
                    } else if len == 0
                        && self.rules.empty_space.uses_reserve()
                        && st.reserve_len > 0
                    {
                        st.reserve_len -= 1;
                        self.push_cards(st, p, &[self.reserve[st.reserve_len as usize]]);
                        u.flags |= FILLED;
                    }
                }
            }
        }
        u
    }

    /// Takes back `mv`, which must be the last move played, with the
    /// [`Undo`] that [`Game::play`] returned.
    pub fn undo(&self, st: &mut State, mv: Move, u: Undo) {
        let mut buf = [Card::from_index(0).unwrap(); TABLEAU_CAP];
        match mv {
            Move::Deal => match self.rules.stock {
                Stock::ToWaste { .. } => st.talon_pos = u.talon,
                Stock::ToTableau { .. } => {
                    for p in (0..u.dealt as usize).rev() {
                        self.pop_cards(st, p, 1, &mut buf);
                    }
                    st.talon_pos -= u.dealt;
                }
            },
            Move::Redeal => {
                st.talon_pos = u.talon;
                if matches!(
                    self.rules.stock,
                    Stock::ToWaste {
                        redeals: Redeals::Limited(_),
                        ..
                    }
                ) {
                    st.passes -= 1;
                }
            }
            Move::ChooseBase(_) => {
                st.base = NO_BASE;
                st.found = [0; 8];
                self.set_tableau(st, &[]);
            }
            Move::Play {
                from,
                to,
                count,
                card,
            } => {
                let k = count as usize;
                if let Loc::Tableau(p) = from {
                    let p = p as usize;
                    if u.flags & FILLED != 0 {
                        self.pop_cards(st, p, 1, &mut buf);
                        st.reserve_len += 1;
                    }
                    if u.flags & FLIPPED != 0 {
                        st.down[p] += 1;
                        st.run[p] = 0;
                    }
                }
                match to {
                    Loc::Foundation(f) => {
                        st.found[f as usize] -= 1;
                        buf[0] = card;
                    }
                    Loc::Tableau(q) => {
                        self.pop_cards(st, q as usize, k, &mut buf);
                    }
                    _ => unreachable!(),
                }
                match from {
                    Loc::Waste => {
                        st.talon_gone &= !(1u128 << u.talon);
                        st.talon_pos = u.talon + 1;
                    }
                    Loc::Reserve => st.reserve_len += 1,
                    Loc::Tableau(p) => self.push_cards(st, p as usize, &buf[..k]),
                    Loc::Foundation(f) => st.found[f as usize] += 1,
                }
            }
        }
    }

    /// Plays `mv` if it is legal here; otherwise leaves the state untouched.
    pub fn try_play(&self, st: &mut State, mv: Move) -> Result<Undo, IllegalMove> {
        if self.legal_moves(st).contains(&mv) {
            Ok(self.play(st, mv))
        } else {
            Err(IllegalMove(mv))
        }
    }

    /// The table as it stands, for display and for comparing with the
    /// independent checker.
    pub fn position(&self, st: &State) -> Position {
        let d = self.rules.decks as usize;
        let mut foundations = Vec::new();
        for s in 0..4 {
            let mut hs: Vec<u8> = st.found[s * d..s * d + d].to_vec();
            hs.sort_unstable_by(|a, b| b.cmp(a));
            foundations.push(hs);
        }
        Position {
            base: self.base(st),
            foundations,
            reserve: self.reserve(st).to_vec(),
            // No tableau is laid out before a Selective Canfield base is chosen.
            tableau: (0..if self.base_pending(st) {
                0
            } else {
                self.piles()
            })
                .map(|p| LayoutPile {
                    cards: self.pile(st, p).to_vec(),
                    face_down: st.down[p] as usize,
                })
                .collect(),
            stock: self.stock(st),
            waste: self.waste(st),
            redeals_made: st.passes,
            base_pending: self.base_pending(st),
        }
    }
}

/// A move that is not legal in the position it was tried in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0:?}")]
pub struct IllegalMove(pub Move);

/// A plain picture of a position: what a person sees on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub base: Option<Rank>,
    /// Per suit (C, S, H, D): heights of its foundations, highest first.
    pub foundations: Vec<Vec<u8>>,
    pub reserve: Vec<Card>,
    pub tableau: Vec<LayoutPile>,
    /// Next card first.
    pub stock: Vec<Card>,
    /// Bottom to top.
    pub waste: Vec<Card>,
    pub redeals_made: u8,
    pub base_pending: bool,
}

/// "once" or "twice", for messages.
fn times_word(n: u8) -> String {
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

/// The missing cards beside a duplicate, for its message.
fn missing_note(missing: &[Card]) -> String {
    let cards = crate::card::join(missing);
    match missing.len() {
        0 => String::new(),
        1 => format!(" ({cards} is missing)"),
        _ => format!(" ({cards} are missing)"),
    }
}

/// Checks card counts, pile sizes, the reserve and the foundations.
fn check_layout(rules: &Rules, l: &Layout) -> Result<(), LayoutError> {
    let want = rules.decks;
    let counts = l.card_counts();
    let places = l.cards_with_places();
    if let Some((c, place)) = places.iter().find(|(c, _)| !rules.in_deck(*c)) {
        return Err(LayoutError::NotInDeck {
            card: *c,
            place: place.clone(),
            ranks: rules.ranks,
        });
    }
    // The cards short of their copies, in card order.
    let short: Vec<Card> = Card::all()
        .filter(|&c| rules.in_deck(c) && counts.get(c) < want)
        .collect();
    for c in Card::all() {
        let n = counts.get(c);
        if n > want {
            let ps: Vec<String> = places
                .iter()
                .filter(|(d, _)| *d == c)
                .map(|(_, p)| p.clone())
                .collect();
            return Err(LayoutError::Duplicate {
                card: c,
                count: n,
                want,
                places: ps.join("; "),
                missing: short,
            });
        }
    }
    if let Some(&c) = short.first() {
        return Err(LayoutError::Missing { card: c, want });
    }
    if !l.waste.is_empty() && matches!(rules.stock, Stock::ToTableau { .. }) {
        return Err(LayoutError::WasteWithoutWastePile(l.waste.len()));
    }
    if l.reserve.len() != rules.reserve as usize {
        return Err(LayoutError::ReserveSize {
            got: l.reserve.len(),
            want: rules.reserve as usize,
        });
    }
    let piles = rules.piles as usize;
    if rules.base_choice == BaseChoice::Selective {
        if l.selection.len() != piles + 1 || !l.tableau.is_empty() {
            return Err(LayoutError::Selection {
                got: l.selection.len(),
                want: piles + 1,
                piles: l.tableau.len(),
            });
        }
    } else {
        if !l.selection.is_empty() {
            return Err(LayoutError::UnexpectedSelection);
        }
        if l.tableau.len() != piles {
            return Err(LayoutError::PileCount {
                got: l.tableau.len(),
                want: piles,
            });
        }
        let (n, down) = (rules.tableau_deal.cards(), rules.tableau_deal.face_down());
        for (i, p) in l.tableau.iter().enumerate() {
            if p.cards.len() != n || p.face_down != down {
                return Err(LayoutError::PileSize {
                    pile: i + 1,
                    got: p.cards.len(),
                    down: p.face_down,
                    want: n,
                    want_down: down,
                });
            }
        }
    }
    // Foundations: exactly what the rules place there.
    let got = crate::card::join(&l.foundations);
    let ok = if rules.preplaced {
        let Base::Fixed(r) = rules.base else {
            unreachable!("validated rules")
        };
        l.foundations.len() == rules.foundations() && l.foundations.iter().all(|c| c.rank() == r)
    } else if rules.base_choice == BaseChoice::Selective || matches!(rules.base, Base::Fixed(_)) {
        l.foundations.is_empty()
    } else {
        l.foundations.len() == 1
    };
    if !ok {
        let want = if rules.preplaced {
            let Base::Fixed(r) = rules.base else {
                unreachable!()
            };
            format!("every {r} ({} cards)", rules.foundations())
        } else if rules.base_choice == BaseChoice::Selective {
            "nothing (the base card is chosen from the selection)".to_string()
        } else if let Base::Fixed(r) = rules.base {
            format!("nothing (foundations start with a {r} when one is played)")
        } else {
            "exactly one card, the base card".to_string()
        };
        return Err(LayoutError::Foundations {
            got: if got.is_empty() {
                "nothing".into()
            } else {
                got
            },
            want,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Source;
    use crate::rules::{GameKind, Reading};

    fn game(g: GameKind, seed: u64) -> Game {
        let r = g.preset(Reading::Standard).unwrap();
        Game::new(&r, &Source::Native(seed).layout(&r)).unwrap()
    }

    /// Pushing and popping cards on piles, the moved window of constant
    /// length or not (`SHIFT`), keeps every pile's cards as a plain list
    /// of piles does, and the filler in every slot past the tableau's
    /// cards (equal positions must be equal states).
    #[test]
    fn piles_push_and_pop_as_lists_do() {
        let filler = Card::from_index(0).unwrap();
        let (mut x, mut windowed) = (7u64, [0usize; 2]);
        for kind in [GameKind::Canfield, GameKind::DoubleEasthaven] {
            let g = game(kind, 3);
            let mut st = g.initial();
            let piles = g.rules().piles as usize;
            let mut model: Vec<Vec<Card>> = (0..piles).map(|p| g.pile(&st, p).to_vec()).collect();
            let mut buf = [filler; TABLEAU_CAP];
            for _ in 0..20_000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let p = (x >> 33) as usize % piles;
                let k = 1 + (x >> 40) as usize % 13;
                let total: usize = model.iter().map(Vec::len).sum();
                let end = st.start[p + 1] as usize;
                if (x >> 50) % 2 == 0 && total + k <= TABLEAU_CAP {
                    windowed
                        [usize::from(total - end <= SHIFT && end + k + SHIFT <= TABLEAU_CAP)] += 1;
                    let cards: Vec<Card> = (0..k)
                        .map(|i| Card::from_index(((x >> i) % 52) as u8).unwrap())
                        .collect();
                    Game::pile_push(&mut st, p, &cards);
                    model[p].extend(&cards);
                } else if model[p].len() >= k {
                    Game::pile_pop(&mut st, p, k, &mut buf);
                    let at = model[p].len() - k;
                    assert_eq!(&buf[..k], &model[p][at..]);
                    model[p].truncate(at);
                }
                for (q, cards) in model.iter().enumerate() {
                    assert_eq!(g.pile(&st, q), &cards[..]);
                }
                let total = st.start[MAX_PILES] as usize;
                assert!(st.cards[total..].iter().all(|&c| c == filler));
            }
        }
        // Both ways of moving the window were taken.
        assert!(windowed.iter().all(|&n| n > 1000), "{windowed:?}");
    }

    /// `unpack` gives back exactly the state `pack` wrote, `run` included,
    /// at every position of random playouts of every game, packed one
    /// after another into one buffer as a search keeps them.
    #[test]
    fn packed_states_unpack_equal() {
        let mut x = 11u64;
        let mut seen = 0;
        for kind in GameKind::ALL {
            for seed in 1..=4 {
                let g = game(kind, seed);
                let mut st = g.initial();
                let (mut buf, mut states) = (Vec::new(), Vec::new());
                for _ in 0..300 {
                    g.pack(&st, &mut buf);
                    states.push(st.clone());
                    let moves = g.legal_moves(&st);
                    if moves.is_empty() {
                        break;
                    }
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    g.play(&mut st, moves[(x >> 33) as usize % moves.len()]);
                }
                let mut at = 0;
                for want in &states {
                    let (got, used) = g.unpack(&buf[at..]);
                    assert_eq!(&got, want, "{kind:?} seed {seed}");
                    at += used;
                }
                assert_eq!(at, buf.len());
                seen += states.len();
            }
        }
        assert!(seen > 5_000, "{seen}");
    }

    #[test]
    fn state_is_small() {
        assert!(
            std::mem::size_of::<State>() <= 176,
            "{}",
            std::mem::size_of::<State>()
        );
        assert!(std::mem::size_of::<Move>() <= 6);
    }

    #[test]
    fn canfield_opening_moves_follow_the_rules() {
        // PySolFC #1: base JD, reserve top QC, tableau KS | 2S | 3H | KH.
        let r = GameKind::Canfield.preset(Reading::Standard).unwrap();
        let l = Source::Pysolfc(crate::pysolfc::GameNumber::parse("1").unwrap()).layout(&r);
        let g = Game::new(&r, &l).unwrap();
        let st = g.initial();
        let mv = g.legal_moves(&st);
        let c = |s: &str| Card::parse(s).unwrap();
        // 2S on 3H, QC on KH; the stock deals. Nothing goes up: no J.
        assert_eq!(
            mv.as_slice(),
            &[
                Move::Play {
                    from: Loc::Tableau(1),
                    to: Loc::Tableau(2),
                    count: 1,
                    card: c("2S")
                },
                Move::Play {
                    from: Loc::Reserve,
                    to: Loc::Tableau(3),
                    count: 1,
                    card: c("QC")
                },
                Move::Deal
            ]
        );
        // Moving QC exposes AD under it.
        let mut st2 = st.clone();
        let u = g.play(&mut st2, mv[1]);
        assert_eq!(g.reserve_top(&st2), Some(c("AD")));
        g.undo(&mut st2, mv[1], u);
        assert_eq!(st2, st);
        // Moving 2S empties pile 2, which takes QC from the reserve at once.
        let u = g.play(&mut st2, mv[0]);
        assert_eq!(g.pile(&st2, 1), &[c("QC")]);
        assert_eq!(g.pile(&st2, 2), &[c("3H"), c("2S")]);
        assert_eq!(g.reserve_top(&st2), Some(c("AD")));
        g.undo(&mut st2, mv[0], u);
        assert_eq!(st2, st);
        // Draw 3 puts the third stock card on top of the waste.
        let u = g.play(&mut st2, Move::Deal);
        assert_eq!(g.waste(&st2), vec![c("9D"), c("QD"), c("JS")]);
        g.undo(&mut st2, Move::Deal, u);
        assert_eq!(st2, st);
    }

    #[test]
    fn reserve_fills_an_emptied_space() {
        // Find a Canfield deal where a whole pile moves, and check the space
        // is filled from the reserve at once.
        for seed in 0..200 {
            let g = game(GameKind::Canfield, seed);
            let st = g.initial();
            for mv in g.legal_moves(&st) {
                if let Move::Play {
                    from: Loc::Tableau(p),
                    to: Loc::Tableau(_),
                    ..
                } = mv
                {
                    let mut s2 = st.clone();
                    let top = g.reserve_top(&st).unwrap();
                    let u = g.play(&mut s2, mv);
                    assert_eq!(g.pile(&s2, p as usize), &[top]);
                    assert_eq!(g.reserve(&s2).len(), 12);
                    g.undo(&mut s2, mv, u);
                    assert_eq!(s2, st);
                    return;
                }
            }
        }
        panic!("no tableau move in 200 deals");
    }
}
