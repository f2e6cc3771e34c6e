//! Tableau classes: the positions that reversible tableau moves connect.
//!
//! A tableau move is *reversible* when it moves part of a pile's top run,
//! not the run's bottom card, onto another non-empty pile
//! ([`is_reversible`]). Such a move can always be taken straight back:
//! the card it uncovers is the one the moved run's bottom card was built
//! on, the moved cards stay a run on their new pile (the bottom one builds
//! on the card it joined), and a run of that many cards may move again (one
//! card where only single cards move; any part of a run where runs move).
//! It neither empties nor fills a pile, so the reserve, the waste, the
//! stock, the foundations and every space rule are untouched. So
//! reversible moves split positions into classes of mutually reachable
//! positions, all won or all lost.
//!
//! The search ([`crate::search`]) stores one fingerprint per class, that
//! of its canonical member ([`ClassFinder::canonical`]: it depends only on
//! the class, so not on the member entered first), and gives a class's
//! stored position, up to class membership, every non-reversible move of
//! every member (each played after the reversible moves that lead to its
//! member). Soundness: the positions the search enters are still closed
//! under moves up to class membership (a reversible move stays in the
//! class; the result of any other move of any member is in the class of a
//! move offered), so every position reachable from the deal is in a class
//! the search entered, and a win anywhere is found. A *binary* class
//! ([`ClassFinder::form`]) is offered its members' moves without visiting
//! the members, whatever its size. Any other class is searched member by
//! member ([`ClassFinder::explore`]), and when larger than [`CLASS_CAP`] it
//! is not merged: each of its positions is stored on its own with its own
//! moves, reversible ones included, as before classes existed. Whether a
//! class is binary, and its size, are the same from every member, so one
//! class is never stored two ways.
//!
//! Classes are large where runs move in any part (`--group-moves any`):
//! on Canfield with the published rules most stored positions have 4–15
//! members.
//!
//! ## Free classes
//!
//! Where a space takes any card or run at any time and is never filled by
//! itself (Superior Canfield; Canfield once its reserve is empty), every
//! tableau-to-tableau move can be taken back, not only those above: a run
//! moved from a pile's bottom onto another pile goes back into the space
//! it left, and a run moved into a space goes back onto the card it came
//! from. When every pile is one face-up run (as where one card is dealt to
//! each pile and cards only join piles by building), a position's tableau
//! is fixed by its set `S` of cards and its *links*: which card lies on
//! which. A link joins a card to one of the cards it builds on, so links
//! fall into independent *pairs of levels* (the cards of one level, and
//! the cards that build on them), and within a pair they form a matching,
//! any matching being possible. There are `|S| - links` piles, at most
//! the `P` piles the game has. Let `max` be the most links `S` can hold
//! (the sum over pairs of the smaller side) and `slack = max - (|S| - P)`.
//! With no cycle of levels (a run that goes round the corner back to a
//! card it builds on, which needs cards of every rank; such tableaux are
//! left out), every arrangement of `S` into at most `P` piles is reachable
//! from every other when `slack >= 1`:
//! - while some pair holds fewer links than it could, a pile's bottom card
//!   of that pair may move, with its pile, onto a card of the pair that
//!   nothing lies on (a top, and not of its own pile, there being no
//!   cycle); this adds a link and needs no space, so every arrangement
//!   reaches one with `max` links;
//! - one with `max` links has `slack` spaces, so any link can be undone
//!   (its run moved into a space) and remade onto the other card of its
//!   pair: every arrangement with `max` links reaches every other.
//!
//! All these moves can be taken back, so the class of `st` is every
//! arrangement of `S`, whatever the member: whether a class is free, its
//! size (the choices of one matching per pair with `|S| - P` links or
//! more, counted in [`ClassFinder::form`]), and its canonical member (the
//! arrangement with `max` links, each pair's children in card order on its
//! parents in card order) depend only on `S` and what lies outside the
//! tableau. A free class of at most [`FREE_CAP`] members is searched
//! member by member like any other ([`ClassFinder::free_members`] lists
//! them through every tableau-to-tableau move), with no tableau-to-tableau
//! move offered (each stays in the class); a larger one is treated as if
//! spaces did not take back moves, as above. A free class usually holds
//! the positions of several ordinary classes: Superior Canfield's lost
//! deals 2218, 4840, 6858 and 9803 store 45 %, 43 %, 37 % and 50 % fewer
//! positions with them. Larger free classes are met often on the Superior
//! Canfield deals still unknown (arrivals at classes of 2^8 to 2^15
//! members, most of them table hits, on seeds 339 and 766). Storing them
//! once, with their moves offered from a few members built for the
//! purpose, was built and measured: it is sound by its tests, but slower
//! (Superior Canfield seeds 1-200 at 2 M nodes, 28.3 s against 22.1 s,
//! the same verdicts), because such classes are under 1 % of the stored
//! positions there. Most stored positions are tight tableaux with no space
//! possible. That code is not merged; it is kept as a patch in
//! `results/2026-11-26-big-free-classes`.

use demon_core::rules::{Build, EmptySpace, GroupMoves, Stock, TableauWrap};
use demon_core::{Card, Game, Loc, Move, MoveList, State};

use crate::key::fingerprint;

/// No level: a card nothing builds on.
const NONE: u8 = u8::MAX;

/// Largest class merged into one stored position.
pub const CLASS_CAP: usize = 64;

/// Largest free class merged (see "Free classes"); its members are
/// numbered in a byte.
pub const FREE_CAP: usize = 255;

/// Whether `mv`, legal in `st`, is a reversible tableau move (see the
/// module comment).
pub fn is_reversible(g: &Game, st: &State, mv: Move) -> bool {
    match mv {
        Move::Play {
            from: Loc::Tableau(p),
            to: Loc::Tableau(q),
            count,
            ..
        } => (count as usize) < g.run_len(st, p as usize) && !g.pile(st, q as usize).is_empty(),
        _ => false,
    }
}

/// The reversible moves of `st` (see [`is_reversible`]), as
/// [`Game::moves`] would list them among its moves.
pub fn reversible_moves(g: &Game, st: &State, out: &mut MoveList) {
    out.clear();
    let rules = g.rules();
    let piles = rules.piles as usize;
    let single = rules.group_moves != GroupMoves::Any;
    // Before the base is chosen only the choice may be played.
    if rules.group_moves == GroupMoves::Pile || g.base_pending(st) {
        return;
    }
    for p in 0..piles {
        let cs = g.pile(st, p);
        if cs.len() < 2 {
            continue;
        }
        let run = g.run_len(st, p);
        let hi = if single { run.min(2) - 1 } else { run - 1 };
        for k in 1..=hi {
            let c = cs[cs.len() - k];
            for q in 0..piles {
                if q == p {
                    continue;
                }
                if let Some(&t) = g.pile(st, q).last() {
                    if g.builds(st, c, t) {
                        out.push(Move::Play {
                            from: Loc::Tableau(p as u8),
                            to: Loc::Tableau(q as u8),
                            count: k as u8,
                            card: c,
                        });
                    }
                }
            }
        }
    }
}

/// The tableau-to-tableau moves of `st` that can change its fingerprint:
/// every run onto a pile top it builds on, and into the first space (the
/// spaces are alike; a whole pile into a space changes nothing), as
/// [`Game::moves`] lists them where runs move in any part.
fn tableau_moves(g: &Game, st: &State, out: &mut MoveList) {
    out.clear();
    let piles = g.rules().piles as usize;
    let space = (0..piles).find(|&q| g.pile(st, q).is_empty());
    for p in 0..piles {
        let cs = g.pile(st, p);
        let run = g.run_len(st, p);
        for k in 1..=run {
            let c = cs[cs.len() - k];
            for q in (0..piles).filter(|&q| q != p) {
                let ok = match g.pile(st, q).last() {
                    Some(&t) => g.builds(st, c, t),
                    None => Some(q) == space && k < cs.len(),
                };
                if ok {
                    out.push(Move::Play {
                        from: Loc::Tableau(p as u8),
                        to: Loc::Tableau(q as u8),
                        count: k as u8,
                        card: c,
                    });
                }
            }
        }
    }
}

fn cards_filler() -> Card {
    Card::from_index(0).expect("card 0 exists")
}

/// Whether the levels `present` (a bit each) hold a cycle of `child`
/// (the level of the cards that build on a level's cards, or [`NONE`]):
/// the functional graph walked once from every level.
fn has_cycle(present: u64, child: &[u8; 64]) -> bool {
    let mut done = 0u64;
    let mut todo = present;
    while todo != 0 {
        let l = todo.trailing_zeros() as u8;
        todo &= todo - 1;
        let mut path = 0u64;
        let mut x = l;
        while x != NONE && present & (1 << x) != 0 && done & (1 << x) == 0 {
            if path & (1 << x) != 0 {
                return true;
            }
            path |= 1 << x;
            x = child[x as usize];
        }
        done |= path;
    }
    false
}

/// A set of tableau cards counted by level.
struct LevelCounts {
    /// Cards per level.
    count: [u8; 64],
    /// Per level present: the level of the cards that build on its cards
    /// (every card of a level has the same), or [`NONE`].
    child: [u8; 64],
    /// The levels present, a bit each.
    present: u64,
    /// The ranks present, a bit each.
    ranks: u32,
}

impl LevelCounts {
    /// Counts the cards `cards` (a bit per card index) by level.
    fn of(cards: u64, tables: &LevelTables) -> LevelCounts {
        let LevelTables(_, lvl, clvl, rank, ..) = tables;
        let mut lc = LevelCounts {
            count: [0; 64],
            child: [NONE; 64],
            present: 0,
            ranks: 0,
        };
        let mut rest = cards;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let l = lvl[i] as usize;
            lc.ranks |= 1 << rank[i];
            lc.count[l] += 1;
            lc.child[l] = clvl[i];
            lc.present |= 1 << l;
        }
        lc
    }

    /// The pairs of levels with cards on both sides: (a level, the level
    /// of the cards that build on its cards).
    fn pairs(&self) -> smallvec::SmallVec<[(usize, usize); 32]> {
        let mut pairs = smallvec::SmallVec::new();
        let mut rest = self.present;
        while rest != 0 {
            let l = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let cl = self.child[l];
            if cl != NONE && self.present & (1 << cl) != 0 {
                pairs.push((l, cl as usize));
            }
        }
        pairs
    }
}

/// One position of a class, reached from the first by reversible moves.
pub struct Member {
    pub st: State,
    /// The member this one was reached from, and by which move (unused for
    /// the first member).
    pub parent: u32,
    pub mv: Move,
}

/// Explores classes, reusing its buffers.
#[derive(Default)]
pub struct ClassFinder {
    /// The class of the last position explored; `members[0]` is it.
    pub members: Vec<Member>,
    /// Each member's fingerprint.
    pub fps: Vec<u128>,
    moves: MoveList,
    /// The free levels of the last binary class ([`ClassFinder::form`]).
    pub flips: Vec<Flip>,
    /// The members' fingerprints, as a set.
    seen: std::collections::HashSet<u128, std::hash::BuildHasherDefault<crate::search::FpHasher>>,
    /// Buffers of [`ClassFinder::canonical`].
    runs: Vec<(usize, usize)>,
    tables: LevelTables,
    /// The levels of the last class analysed.
    lv: Levels,
    /// [`ClassFinder::free_size`] of recent tableau card sets.
    sizes: SizeMemo,
}

/// [`ClassFinder::free_size`] of the last tableau card sets asked about,
/// one per slot of a hash of the set. The size depends only on the set and
/// the level tables (the rules and the base), and a search asks about the
/// same sets again and again: every move of a position that leaves the
/// tableau's cards as they are (talon turns, reversible moves, reserve
/// plays onto the foundations) meets the set again, and every move that
/// adds or takes a card asks about its neighbour ([`ClassFinder::result_free`]).
/// Emptied when the tables change.
struct SizeMemo {
    /// (card set, size + 1 or 0 for `None`); `NO_SET` marks an empty slot.
    slots: Vec<(u64, u64)>,
}

/// Slots of [`SizeMemo`] (64 KiB; a power of two).
const SIZE_MEMO: usize = 4096;

/// No card set: it has a bit beyond the 52 cards'.
const NO_SET: u64 = u64::MAX;

impl Default for SizeMemo {
    fn default() -> SizeMemo {
        SizeMemo {
            slots: vec![(NO_SET, 0); SIZE_MEMO],
        }
    }
}

impl SizeMemo {
    fn slot(cards: u64) -> usize {
        (cards.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SIZE_MEMO.trailing_zeros())) as usize
    }

    fn clear(&mut self) {
        self.slots.fill((NO_SET, 0));
    }
}

impl ClassFinder {
    /// Finds the class of `st`, breadth first. Returns `false` when it
    /// has more than [`CLASS_CAP`] members (then `members` holds only
    /// part of it).
    pub fn explore(&mut self, g: &Game, st: &State) -> bool {
        self.explore_with(g, st, false)
    }

    /// [`ClassFinder::explore`], through every tableau-to-tableau move when
    /// `all` (a free class), else through the reversible ones.
    fn explore_with(&mut self, g: &Game, st: &State, all: bool) -> bool {
        self.members.clear();
        self.fps.clear();
        self.seen.clear();
        self.members.push(Member {
            st: st.clone(),
            parent: u32::MAX,
            mv: Move::Deal,
        });
        self.fps.push(fingerprint(g, st));
        self.seen.insert(self.fps[0]);
        let mut i = 0;
        while i < self.members.len() {
            if all {
                tableau_moves(g, &self.members[i].st, &mut self.moves);
            } else {
                reversible_moves(g, &self.members[i].st, &mut self.moves);
            }
            for k in 0..self.moves.len() {
                let mv = self.moves[k];
                let mut s2 = self.members[i].st.clone();
                g.play(&mut s2, mv);
                let f = fingerprint(g, &s2);
                if !self.seen.insert(f) {
                    continue;
                }
                if self.members.len() == if all { FREE_CAP } else { CLASS_CAP } {
                    return false;
                }
                self.members.push(Member {
                    st: s2,
                    parent: i as u32,
                    mv,
                });
                self.fps.push(f);
            }
            i += 1;
        }
        true
    }

    /// Appends the reversible moves from the first member to member `k`.
    pub fn path(&self, k: usize, out: &mut Vec<Move>) {
        let at = out.len();
        let mut k = k;
        while k != 0 {
            out.push(self.members[k].mv);
            k = self.members[k].parent as usize;
        }
        out[at..].reverse();
    }
}

impl ClassFinder {
    /// The size of `st`'s class when it is merged (one deck, runs move in
    /// any part, at most [`CLASS_CAP`] members), with its canonical member
    /// written to `out` when the size is over 1; 0 when the class is not
    /// merged (then `st` is stored as itself, with all its moves).
    ///
    /// The class has a product form. Take the cards of the piles' top runs.
    /// A run's bottom card never moves by a reversible move; every other
    /// run card `c` lies on a card `c` builds on. Group these *mobile*
    /// cards into levels by what they build on (rank and colour, rank and
    /// suit, or rank, as the build rule reads), and for a level `L` let
    /// `R` be its mobile cards and `B` the run cards they can build on.
    /// Every card of `R` lies on its own card of `B`, and a card of `B` is
    /// the top of its pile exactly when no card of `R` lies on it (the
    /// card above a run card builds on it, so it is in `R`). A reversible
    /// move takes some `c` in `R` (with the run above it) onto a pile top
    /// `b` in `B`: it changes where one card of one level lies and nothing
    /// else about the levels. With one deck, `b` is never in `c`'s own pile
    /// unless that pile's run goes round the corner and back to a card
    /// `c` builds on, which needs more run cards than the rules' ranks (see
    /// below); classes with that many run cards are not merged. So a level with `|R| < |B|` (a free top card) can
    /// reach every placement of `R` on `B` (with a free card any card can
    /// move, so cards can be exchanged through it), a level with
    /// `|R| = |B|` is frozen, and the class is the product of the levels'
    /// placements. The canonical member lays each free level's cards, in
    /// card order, on the first of its `B` cards in card order; it depends
    /// only on the class. (Two decks are not merged: two copies of a card
    /// in `B` would need a tie-break that does not depend on the member.)
    pub fn canonical(&mut self, g: &Game, st: &State, out: &mut State) -> usize {
        if g.base_pending(st) {
            // Only the choice of base may be played: a class of one.
            return if self.mergeable(g) { 1 } else { 0 };
        }
        if !self.levels(g, st) {
            return 0;
        }
        let lv = &self.lv;
        if lv.size > CLASS_CAP {
            return 0;
        }
        let size = lv.size;
        if size > 1 {
            self.build_canonical(g, st, out);
        }
        size
    }

    /// Whether the rules allow merging at all (one deck, runs move in any
    /// part).
    fn mergeable(&self, g: &Game) -> bool {
        let rules = g.rules();
        rules.decks == 1 && rules.group_moves == GroupMoves::Any
    }

    /// Fills the per-card level tables for the rules and base of `st`.
    fn ensure_tables(&mut self, g: &Game, st: &State) {
        let rules = g.rules();
        let ranks = rules.ranks;
        let base = g.base(st).map(|r| r.index());
        // The piles too, which the sizes kept with the tables depend on.
        let tkey = (
            base,
            rules.build as u8,
            rules.tableau_wrap as u8,
            ranks,
            rules.piles,
        );
        if self.tables.0 != Some(tkey) {
            let level = |r: u8, c: Card| -> u8 {
                match rules.build {
                    Build::AltColour => r * 2 + u8::from(c.is_red()),
                    Build::Suit => r * 4 + c.suit().index() as u8,
                    Build::AnySuit => r,
                }
            };
            // The level of the cards that build on `b`: one rank lower
            // (round the corner where the rules allow), the other colour
            // or the same suit; as `Game::builds` reads the rules.
            let child_level = |b: Card| -> u8 {
                let tr = b.rank().index();
                let cr = match rules.tableau_wrap {
                    TableauWrap::No if tr == 0 => return NONE,
                    TableauWrap::KingOnAce if tr == 0 => ranks - 1,
                    TableauWrap::AtBase if Some(tr) == base => return NONE,
                    // `%`: the tables cover all 52 cards, ranks a reduced
                    // deck lacks too (built once per game, not hot).
                    TableauWrap::AtBase => (tr + ranks - 1) % ranks,
                    _ => tr - 1,
                };
                match rules.build {
                    Build::AltColour => cr * 2 + u8::from(!b.is_red()),
                    Build::Suit => cr * 4 + b.suit().index() as u8,
                    Build::AnySuit => cr,
                }
            };
            for i in 0..52 {
                let c = Card::from_index(i as u8).expect("52 cards");
                self.tables.1[i] = level(c.rank().index(), c);
                self.tables.2[i] = child_level(c);
                self.tables.3[i] = c.rank().index();
            }
            self.tables.4 = [0; 64];
            self.tables.5 = [0; 64];
            for i in 0..52 {
                self.tables.4[self.tables.1[i] as usize] |= 1 << i;
                if self.tables.2[i] != NONE {
                    self.tables.5[self.tables.2[i] as usize] |= 1 << i;
                }
            }
            self.tables.0 = Some(tkey);
            self.sizes.clear();
        }
    }

    /// The size of the class of `st` when it is free (see "Free classes"
    /// in the module comment) and has at most [`FREE_CAP`] members, with
    /// its canonical member written to `out`; `None` otherwise. Call only
    /// when the rules are mergeable and the base is chosen.
    fn free(&mut self, g: &Game, st: &State, out: &mut State) -> Option<usize> {
        let cards = self.free_cards(g, st)?;
        let size = self.free_size(g, cards)?;
        if size > FREE_CAP as u64 {
            return None;
        }
        let lc = LevelCounts::of(cards, &self.tables);
        let lvl = &self.tables.1;
        let pairs = lc.pairs();
        let mut count = [0u8; 64];
        let mut by_level = [[0u8; 4]; 64];
        let mut rest = cards;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let l = lvl[i] as usize;
            by_level[l][count[l] as usize] = i as u8;
            count[l] += 1;
        }
        // The canonical member: in each pair, the children in card order on
        // the parents in card order.
        let mut above = [u8::MAX; 64];
        let mut linked = 0u64;
        for &(l, cl) in &pairs {
            let k = count[l].min(count[cl]) as usize;
            for (&b, &c) in by_level[l][..k].iter().zip(&by_level[cl][..k]) {
                above[b as usize] = c;
                linked |= 1 << c;
            }
        }
        let piles = g.rules().piles as usize;
        let mut flat = [cards_filler(); demon_core::state::TABLEAU_CAP];
        let mut bounds = [(0usize, 0usize); demon_core::rules::MAX_PILES];
        let (mut m, mut pile) = (0usize, 0usize);
        let mut bottoms = cards & !linked;
        while bottoms != 0 {
            let i = bottoms.trailing_zeros() as u8;
            bottoms &= bottoms - 1;
            let a = m;
            let mut c = i;
            while c != u8::MAX {
                flat[m] = Card::from_index(c).expect("a tableau card");
                m += 1;
                c = above[c as usize];
            }
            bounds[pile] = (a, m);
            pile += 1;
        }
        debug_assert_eq!(m, cards.count_ones() as usize);
        for b in &mut bounds[pile..piles] {
            *b = (m, m);
        }
        let slices: smallvec::SmallVec<[&[Card]; 16]> =
            bounds[..piles].iter().map(|&(a, b)| &flat[a..b]).collect();
        out.clone_from(st);
        g.rearrange_tableau(out, &slices);
        Some(size as usize)
    }

    /// The tableau's cards of `st` (a bit per card index) when the rules
    /// and the position allow a free class: spaces take anything and do
    /// not fill themselves, no stock deals onto the piles, and every pile
    /// is one face-up run. Fills the level tables.
    fn free_cards(&mut self, g: &Game, st: &State) -> Option<u64> {
        let rules = g.rules();
        let spaces_take_all = match rules.empty_space {
            EmptySpace::Any => true,
            EmptySpace::ReserveThenAny => g.reserve(st).is_empty(),
            EmptySpace::ReserveThenWaste => false,
        };
        // A stock dealing onto every pile covers tops a member chooses.
        let deals_to_piles = matches!(rules.stock, Stock::ToTableau { .. }) && !g.stock_empty(st);
        if !spaces_take_all || deals_to_piles {
            return None;
        }
        self.ensure_tables(g, st);
        let mut cards = 0u64;
        for p in 0..rules.piles as usize {
            let cs = g.pile(st, p);
            if g.face_down(st, p) > 0 || g.run_len(st, p) != cs.len() {
                return None;
            }
            for &c in cs {
                cards |= 1 << c.index();
            }
        }
        Some(cards)
    }

    /// The number of arrangements of the tableau cards `cards` (saturating)
    /// when they form a free class: no cycle of levels among them, and a
    /// positive slack. Needs the level tables filled. Kept in
    /// [`SizeMemo`].
    fn free_size(&mut self, g: &Game, cards: u64) -> Option<u64> {
        let i = SizeMemo::slot(cards);
        let (set, v) = self.sizes.slots[i];
        if set == cards {
            return v.checked_sub(1);
        }
        let lc = LevelCounts::of(cards, &self.tables);
        let size = Self::free_size_of(g, cards.count_ones() as usize, &lc);
        // A saturated size (beyond any cap) is kept one short of it.
        self.sizes.slots[i] = (cards, size.map_or(0, |n| n.min(u64::MAX - 1) + 1));
        size
    }

    /// [`ClassFinder::free_size`] of `n` tableau cards counted by level.
    fn free_size_of(g: &Game, n: usize, lc: &LevelCounts) -> Option<u64> {
        let rules = g.rules();
        let piles = rules.piles as usize;
        let count = &lc.count;
        // A pile joined onto its own top, or a circle of links, would need
        // a cycle of levels (each level the child of the one before) with
        // cards of every one of them on the tableau: with none, neither
        // can happen (with 13 ranks and alternate colours a cycle has all
        // 26 levels, so all 13 ranks are far from enough). A cycle of
        // levels has cards of every rank (see `levels`).
        let may_cycle = rules.tableau_wrap == TableauWrap::KingOnAce
            && lc.ranks.count_ones() == rules.ranks as u32;
        if may_cycle && has_cycle(lc.present, &lc.child) {
            return None;
        }
        // Each pair of levels (a level and the level of the cards that
        // build on its cards, disjoint from every other pair) holds at most
        // the smaller side's count of links.
        let pairs = lc.pairs();
        let max: usize = pairs
            .iter()
            .map(|&(l, cl)| count[l].min(count[cl]) as usize)
            .sum();
        let least = n.saturating_sub(piles);
        if max <= least {
            return None;
        }
        // The members: one matching per pair, with `least` links or more in
        // all, that is with a deficit (links short of the most) of at most
        // `slack`; `k` links between `a` parents and `c` children in
        // C(a, k) C(c, k) k! ways. Counted by convolution over deficits.
        let slack = max - least;
        let choose = |x: u64, k: u64| -> u64 { (0..k).fold(1, |acc, j| acc * (x - j) / (j + 1)) };
        let mut ways = [0u64; 53];
        ways[0] = 1;
        let mut next = [0u64; 53];
        for &(l, cl) in &pairs {
            let (a, c) = (count[l] as u64, count[cl] as u64);
            let top = a.min(c);
            next[..=slack].fill(0);
            for (d, &w) in ways[..=slack].iter().enumerate() {
                if w == 0 {
                    continue;
                }
                for k in (0..=top).rev() {
                    let dd = d + (top - k) as usize;
                    if dd > slack {
                        break;
                    }
                    let m = choose(a, k) * choose(c, k) * (1..=k).product::<u64>();
                    next[dd] = next[dd].saturating_add(w.saturating_mul(m));
                }
            }
            ways[..=slack].copy_from_slice(&next[..=slack]);
        }
        Some(
            ways[..=slack]
                .iter()
                .fold(0u64, |t, &w| t.saturating_add(w)),
        )
    }

    /// Whether the position a move of card `z` leads to from a member of
    /// the free class of `st` (the class [`ClassFinder::form`] last found
    /// free) is itself a free class the search merges: `z` put onto the
    /// tableau (`adding`) or taken off it. Then that class is the same from
    /// every member (the tableau holds the same cards, and everything else
    /// is the same), and one such move stands for all.
    pub fn result_free(&mut self, g: &Game, st: &State, z: Card, adding: bool) -> bool {
        let Some(cards) = self.free_cards(g, st) else {
            return false;
        };
        let bit = 1u64 << z.index();
        let after = if adding { cards | bit } else { cards & !bit };
        self.free_size(g, after)
            .is_some_and(|n| n <= FREE_CAP as u64)
    }

    /// Lists the members of a free class ([`Form::Free`]) into
    /// [`ClassFinder::members`], `st` first: every arrangement of its
    /// tableau's cards, found through every tableau-to-tableau move.
    pub fn free_members(&mut self, g: &Game, st: &State) {
        let complete = self.explore_with(g, st, true);
        assert!(complete, "a free class is within the cap");
    }

    /// Finds the levels of `st`'s class (see [`ClassFinder::canonical`])
    /// and puts them in `self.lv`; `false` when the class is not merged
    /// whatever its size.
    fn levels(&mut self, g: &Game, st: &State) -> bool {
        let rules = g.rules();
        if !self.mergeable(g) {
            return false;
        }
        self.ensure_tables(g, st);
        let LevelTables(_, lvl, clvl, rank, lmask, pmask) = &self.tables;
        let lv = &mut self.lv;
        lv.free = 0;
        lv.binary = true;
        lv.size = 1;
        self.runs.clear();
        let (mut run, mut mobile) = (0u64, 0u64);
        for p in 0..rules.piles as usize {
            let cs = g.pile(st, p);
            if cs.is_empty() {
                self.runs.push((p, usize::MAX));
                continue;
            }
            let bi = cs.len() - g.run_len(st, p);
            run |= 1 << cs[bi].index();
            for w in cs[bi..].windows(2) {
                let i = w[1].index() as usize;
                run |= 1 << i;
                mobile |= 1 << i;
                lv.under[i] = w[0];
            }
            self.runs.push((p, bi));
        }
        lv.run = run;
        lv.mobile = mobile;
        // Round the corner, a pile could hold a card and, higher up, a card
        // it builds on (see above). The run between them passes through a
        // cycle of levels (each level's cards take the next level's), all
        // with run cards; with no such cycle it cannot happen.
        // A cycle of levels has cards of every rank.
        if rules.tableau_wrap == TableauWrap::KingOnAce {
            let mut ranks_present = 0u32;
            let mut rest = run;
            while rest != 0 {
                ranks_present |= 1 << rank[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            if ranks_present.count_ones() == rules.ranks as u32 {
                let mut next = [NONE; 64];
                let mut present = 0u64;
                let mut rest = run;
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    present |= 1 << lvl[i];
                    next[lvl[i] as usize] = clvl[i];
                }
                if has_cycle(present, &next) {
                    return false;
                }
            }
        }
        // Each level with a mobile card: `R` is its mobile cards, `B` the
        // run cards whose holders-on are of that level.
        let mut todo = 0u64;
        let mut rest = mobile;
        while rest != 0 {
            todo |= 1 << lvl[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        while todo != 0 {
            let l = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let r = (mobile & lmask[l]).count_ones() as usize;
            let b = (run & pmask[l]).count_ones() as usize;
            debug_assert!(r <= b);
            if r < b {
                lv.free |= 1 << l;
                lv.binary &= (r, b) == (1, 2);
                for k in 0..r {
                    lv.size = lv.size.saturating_mul(b - k);
                }
            }
        }
        true
    }

    /// Writes the canonical member of the class of `st` to `out`.
    fn build_canonical(&self, g: &Game, st: &State, out: &mut State) {
        let lv = &self.lv;
        let rules = g.rules();
        // child[b]: the card lying on run card b.
        let mut child = [None::<Card>; 52];
        for &(p, bi) in &self.runs {
            if bi != usize::MAX {
                for w in g.pile(st, p)[bi..].windows(2) {
                    child[w[0].index() as usize] = Some(w[1]);
                }
            }
        }
        let mut free = lv.free;
        while free != 0 {
            let l = free.trailing_zeros() as usize;
            free &= free - 1;
            // `R` in card order onto `B` in card order.
            let mut b = lv.run & self.tables.5[l];
            let mut rest = b;
            while rest != 0 {
                child[rest.trailing_zeros() as usize] = None;
                rest &= rest - 1;
            }
            let mut r = lv.mobile & self.tables.4[l];
            while r != 0 {
                let c = Card::from_index(r.trailing_zeros() as u8).expect("a card");
                child[b.trailing_zeros() as usize] = Some(c);
                r &= r - 1;
                b &= b - 1;
            }
        }
        let mut flat = [cards_filler(); demon_core::state::TABLEAU_CAP];
        let mut n = 0;
        let mut bounds = [(0usize, 0usize); demon_core::rules::MAX_PILES];
        for &(p, bi) in &self.runs {
            let a = n;
            if bi != usize::MAX {
                let cs = g.pile(st, p);
                flat[n..n + bi + 1].copy_from_slice(&cs[..=bi]);
                n += bi + 1;
                let mut cur = cs[bi];
                while let Some(c) = child[cur.index() as usize] {
                    flat[n] = c;
                    n += 1;
                    cur = c;
                }
            }
            bounds[p] = (a, n);
        }
        let slices: smallvec::SmallVec<[&[Card]; 16]> = bounds[..rules.piles as usize]
            .iter()
            .map(|&(a, b)| &flat[a..b])
            .collect();
        out.clone_from(st);
        g.rearrange_tableau(out, &slices);
    }

    /// How the search treats the class of `st`; for a merged class its
    /// canonical member is written to `out`, and for a binary one its
    /// levels to [`ClassFinder::flips`].
    ///
    /// A class is *binary* when each of its free levels has one mobile
    /// card `c` and two cards it can lie on (always so with one deck and
    /// colours alternating, where a level's `B` holds the two cards of
    /// one rank and colour). Its members are then the `2^k` choices, for
    /// each of the `k` free levels, of the card `c` lies on, and the
    /// search need not visit them: every non-reversible move of every
    /// member leads into the class of a non-reversible move of `st`
    /// itself or of `st` with one level flipped ([`Flip`]), as follows.
    ///
    /// Whether a non-reversible move is legal depends on the placement of
    /// at most one free level. The run cards, the empty piles and
    /// everything outside the tableau are the same in every member; what
    /// differs is which run cards are uncovered, and a card `t` is
    /// uncovered in some members and not in others exactly when it is in
    /// the `B` of a free level (the level of the cards that build on `t`).
    /// A non-reversible move needs at most one card uncovered: a tableau
    /// card going to a foundation needs itself uncovered; a card going
    /// onto a pile needs that pile's top uncovered (the card comes from
    /// the waste, the reserve or a foundation, or is a run's bottom card
    /// moving with its run, which every member has: a run moved from a
    /// mobile card onto a pile would be reversible); a run going to an
    /// empty pile needs nothing.
    ///
    /// The result of such a move in two members with the same placement of
    /// that level is one class: the move acts the same on both (the same
    /// card to the same place, the same pile emptied and filled, the same
    /// card uncovered; not so a stock dealing a card onto every pile,
    /// which covers whatever tops the member has, so while such a stock
    /// has cards the class is not treated as binary), so the results differ only in where the mobile
    /// cards of the other free levels lie, and those levels stay free (a
    /// level's mobile card leaves or gains a `B` card only by a move that
    /// depends on that level: it is covered, uncovered or taken up only
    /// through one of its `B` cards being a top). So the search offers
    /// every non-reversible move of `st` (member 0), and for each free
    /// level, from `st` with that level's card moved to its other card
    /// (member `i + 1`, one reversible move away), the non-reversible moves
    /// onto or from the card that flip uncovers: the only moves that need
    /// that level as the flip leaves it and `st` has it otherwise.
    /// A class whose free levels are not all binary is merged only up to
    /// [`CLASS_CAP`] members and searched member by member.
    pub fn form(&mut self, g: &Game, st: &State, out: &mut State) -> Form {
        self.flips.clear();
        if !self.mergeable(g) {
            return Form::Unmerged;
        }
        if g.base_pending(st) {
            return Form::Single;
        }
        if let Some(n) = self.free(g, st, out) {
            return Form::Free(n);
        }
        if !self.levels(g, st) {
            return Form::Unmerged;
        }
        let lv = &self.lv;
        if lv.size == 1 {
            return Form::Single;
        }
        // A stock that deals onto every pile covers each pile's top,
        // whatever the arrangement: its deal's result depends on every
        // free level, so such classes are searched member by member.
        let deals_to_piles = matches!(g.rules().stock, demon_core::rules::Stock::ToTableau { .. })
            && !g.stock_empty(st);
        if !lv.binary || deals_to_piles {
            if lv.size > CLASS_CAP {
                return Form::Unmerged;
            }
            let size = lv.size;
            self.build_canonical(g, st, out);
            return Form::General(size);
        }
        let mut free = lv.free;
        let mut canonical = true;
        while free != 0 {
            let l = free.trailing_zeros() as usize;
            free &= free - 1;
            // Its one mobile card, and its two `B` cards.
            let ci = (lv.mobile & self.tables.4[l]).trailing_zeros() as usize;
            let (c, on) = (Card::from_index(ci as u8).expect("a card"), lv.under[ci]);
            let bs = lv.run & self.tables.5[l];
            let card = |i: u32| Card::from_index(i as u8).expect("a card");
            let (b0, b1) = (
                card(bs.trailing_zeros()),
                card((bs & (bs - 1)).trailing_zeros()),
            );
            let off = if b0 == on { b1 } else { b0 };
            canonical &= on < off;
            self.flips.push(Flip { c, on, off });
        }
        if canonical {
            return Form::Binary { canonical };
        }
        out.clone_from(st);
        // The canonical member: each free level's card on the first of
        // its two cards in card order, as `build_canonical` lays it.
        for f in &self.flips {
            if f.off < f.on {
                let mv = flip_move(g, out, f.c, f.off);
                g.play(out, mv);
            }
        }
        Form::Binary { canonical }
    }
}

/// Per card: its level, the level of the cards that build on it, its
/// rank; per level: its cards, and the cards its cards build on (a bit per
/// card index); for the rules, the piles and the base in `.0`.
struct LevelTables(
    Option<(Option<u8>, u8, u8, u8, u8)>,
    [u8; 52],
    [u8; 52],
    [u8; 52],
    [u64; 64],
    [u64; 64],
);

impl Default for LevelTables {
    fn default() -> LevelTables {
        LevelTables(None, [0; 52], [0; 52], [0; 52], [0; 64], [0; 64])
    }
}

impl Default for Levels {
    fn default() -> Levels {
        Levels {
            run: 0,
            mobile: 0,
            under: [cards_filler(); 52],
            free: 0,
            binary: true,
            size: 1,
        }
    }
}

/// The levels of a class (see [`ClassFinder::canonical`]).
struct Levels {
    /// The run cards, a bit per card index.
    run: u64,
    /// The mobile run cards (those lying on a run card).
    mobile: u64,
    /// Per mobile card (by index): the card it lies on.
    under: [Card; 52],
    /// Bit `l`: level `l` is free.
    free: u64,
    /// Every free level has one mobile card and two cards it can lie on.
    binary: bool,
    /// The number of members (saturating).
    size: usize,
}

/// How the search treats a position's class ([`ClassFinder::form`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Not merged: the position is stored as itself, with all its moves.
    Unmerged,
    /// A class of one: the position has no reversible move.
    Single,
    /// Binary ([`ClassFinder::form`]): its free levels are in
    /// [`ClassFinder::flips`]; `canonical`: the position is its class's
    /// canonical member (then nothing was written).
    Binary { canonical: bool },
    /// Merged, with this many members (at most [`CLASS_CAP`]), searched
    /// through [`ClassFinder::explore`].
    General(usize),
    /// Free (see "Free classes" in the module comment), with this many
    /// members (at most [`FREE_CAP`]): every arrangement of the
    /// tableau's cards, listed by [`ClassFinder::free_members`].
    Free(usize),
}

/// A free level of a binary class: its mobile card `c` (with the cards
/// above it) lies on `on`, and could lie on `off`, which is uncovered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flip {
    pub c: Card,
    pub on: Card,
    pub off: Card,
}

/// The reversible move that takes `c` and the cards above it onto the
/// pile whose top is `to`.
pub fn flip_move(g: &Game, st: &State, c: Card, to: Card) -> Move {
    let piles = g.rules().piles as usize;
    let (mut from, mut count, mut dest) = (0, 0, 0);
    for p in 0..piles {
        let cs = g.pile(st, p);
        if let Some(i) = cs.iter().position(|&x| x == c) {
            from = p;
            count = cs.len() - i;
        }
        if cs.last() == Some(&to) {
            dest = p;
        }
    }
    debug_assert!(count > 0 && from != dest);
    Move::Play {
        from: Loc::Tableau(from as u8),
        to: Loc::Tableau(dest as u8),
        count: count as u8,
        card: c,
    }
}

/// One step of a random playout, for tests: plays a legal move of `st`
/// chosen by the xorshift state `rng`; `false` when there is none.
#[cfg(test)]
pub(crate) fn random_step(game: &Game, st: &mut State, rng: &mut u64) -> bool {
    let legal = game.legal_moves(st);
    if legal.is_empty() {
        return false;
    }
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    game.play(st, legal[(*rng % legal.len() as u64) as usize]);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use demon_core::rules::GroupMoves;
    use demon_core::{GameKind, Reading, RuleOverrides, Rules, Source};

    /// Along random playouts of every one-deck game with runs moving in any
    /// part, at full size and with few ranks (where runs go round the
    /// corner): the product form's size is the class the breadth-first
    /// search finds, its canonical member is in that class, and every
    /// member gets the same canonical member, or every member is left
    /// unmerged.
    #[test]
    fn product_form_matches_search() {
        let mut checked = 0usize;
        let mut merged = 0usize;
        for g in [
            GameKind::Canfield,
            GameKind::SuperiorCanfield,
            GameKind::Rainbow,
            GameKind::Chameleon,
            GameKind::Storehouse,
            GameKind::SelectiveCanfield,
            GameKind::Easthaven,
        ] {
            for reading in [Reading::Standard, Reading::Pysolfc] {
                for ranks in [None, Some(5), Some(6)] {
                    let o = RuleOverrides {
                        group_moves: Some(GroupMoves::Any),
                        ranks,
                        reserve: ranks.map(|_| 4),
                        ..Default::default()
                    };
                    let Ok(rules) = Rules::resolve(g, reading, &o) else {
                        continue;
                    };
                    for seed in 0..12u64 {
                        let layout = Source::Native(seed).layout(&rules);
                        let Ok(game) = Game::new(&rules, &layout) else {
                            continue;
                        };
                        let (c, m) = playout(&game, seed);
                        checked += c;
                        merged += m;
                    }
                }
            }
        }
        println!("{checked} positions checked, {merged} in merged classes");
        assert!(checked > 5_000, "{checked} positions checked");
        assert!(merged > 500, "{merged} merged classes checked");
    }

    /// The sizes [`SizeMemo`] keeps are fresh counts: along random
    /// playouts of Superior Canfield (spaces take anything, so classes are
    /// free), at full size and with few ranks, with other build rules,
    /// wraps and piles, one finder, its memo filled along the way and kept
    /// from game to game (it is emptied when the rules or the base
    /// change), forms each position's
    /// class as a new finder does, and gives the tableau's card set, and
    /// that set with each card put in or taken out, the size counted
    /// afresh.
    #[test]
    fn kept_free_sizes_are_fresh_counts() {
        // The memo's answer for `set` against a count afresh.
        fn check(kept: &mut ClassFinder, game: &Game, set: u64) {
            let lc = LevelCounts::of(set, &kept.tables);
            let want = ClassFinder::free_size_of(game, set.count_ones() as usize, &lc);
            let kept = kept.free_size(game, set);
            // The memo keeps a saturated size one short.
            let cut = |n: Option<u64>| n.map(|n| n.min(u64::MAX - 1));
            assert_eq!(cut(kept), cut(want), "{set:#x}");
        }
        let (mut free, mut sets, mut again) = (0usize, 0usize, 0usize);
        let mut kept = ClassFinder::default();
        // The tableau card sets of the game before.
        let mut before: Vec<u64> = Vec::new();
        use demon_core::rules::{Build, TableauWrap};
        let builds = [Build::AltColour, Build::Suit, Build::AnySuit];
        let wraps = [TableauWrap::KingOnAce, TableauWrap::No, TableauWrap::AtBase];
        for (ranks, piles, build, wrap) in [
            (None, 4, 0, 0),
            (Some(5), 4, 0, 0),
            (None, 4, 1, 0),
            (None, 5, 1, 0),
            (Some(7), 4, 2, 1),
            (None, 3, 2, 2),
            (None, 4, 0, 1),
        ] {
            let o = RuleOverrides {
                ranks,
                reserve: ranks.map(|_| 4),
                // One base for all, so that only the rules change the
                // tables from game to game (and only the piles, between
                // the third and the fourth).
                base: Some(demon_core::rules::Base::Fixed(
                    demon_core::Rank::new(0).unwrap(),
                )),
                piles: Some(piles),
                build: Some(builds[build]),
                tableau_wrap: Some(wraps[wrap]),
                ..Default::default()
            };
            let rules = Rules::resolve(GameKind::SuperiorCanfield, Reading::Standard, &o).unwrap();
            for seed in 0..5u64 {
                let game = Game::new(&rules, &Source::Native(seed).layout(&rules)).unwrap();
                let (mut a, mut b) = (game.initial(), game.initial());
                let mut st = game.initial();
                // This game's tables (its rules and base), then the sets
                // the memo may still hold from the game before.
                assert!(kept.free_cards(&game, &st).is_some());
                for set in before.drain(..) {
                    check(&mut kept, &game, set);
                    again += 1;
                }
                let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for _ in 0..300 {
                    let form = kept.form(&game, &st, &mut a);
                    assert_eq!(form, ClassFinder::default().form(&game, &st, &mut b));
                    if let Form::Free(_) = form {
                        assert_eq!(fingerprint(&game, &a), fingerprint(&game, &b));
                        free += 1;
                    }
                    if let Some(cards) = kept.free_cards(&game, &st) {
                        before.push(cards);
                        for z in 0..=52 {
                            // Any set of the 52 cards has a count.
                            check(
                                &mut kept,
                                &game,
                                if z == 52 { cards } else { cards ^ 1 << z },
                            );
                            sets += 1;
                        }
                    }
                    if !random_step(&game, &mut st, &mut rng) {
                        break;
                    }
                }
            }
        }
        println!("{free} free classes, {sets} card sets checked, {again} again in the next game");
        assert!(free > 100, "{free} free classes");
        assert!(
            sets > 10_000 && again > 1_000,
            "{sets} card sets, {again} again"
        );
    }

    /// Checks the positions of one random playout; returns how many, and
    /// how many were in merged classes of more than one member.
    fn playout(game: &Game, seed: u64) -> (usize, usize) {
        let mut f = ClassFinder::default();
        let mut canon = game.initial();
        let mut other = game.initial();
        let mut st = game.initial();
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let (mut checked, mut merged) = (0, 0);
        for _ in 0..300 {
            let n = f.canonical(game, &st, &mut canon);
            let complete = f.explore(game, &st);
            if n > 0 {
                assert!(complete, "a merged class is within the cap");
                assert_eq!(f.members.len(), n, "class size\n{:?}", game.position(&st));
            }
            if n > 1 {
                merged += 1;
                let key = fingerprint(game, &canon);
                assert!(f.fps.contains(&key), "the canonical member is in the class");
                for m in &f.members[1..] {
                    let mut g2 = ClassFinder::default();
                    assert_eq!(g2.canonical(game, &m.st, &mut other), n);
                    assert_eq!(fingerprint(game, &other), key, "one canonical member");
                }
            } else {
                for m in &f.members {
                    let mut g2 = ClassFinder::default();
                    assert!(g2.canonical(game, &m.st, &mut other) <= 1.max(n));
                    assert_eq!(g2.canonical(game, &m.st, &mut other) == 0, n == 0);
                }
            }
            checked += 1;
            if !random_step(game, &mut st, &mut rng) {
                break;
            }
        }
        (checked, merged)
    }
}
