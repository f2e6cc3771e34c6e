//! demon-core: cards, rules as data, deals from every source, and the game
//! state with its moves for the Canfield family of solitaires.
//!
//! The rules reference is GAMES.md (shared with this repository's
//! developers); each module names the section it implements.

pub mod card;
pub mod deal;
pub mod format;
pub mod perft;
pub mod pysolfc;
pub mod replay;
pub mod rules;
pub mod state;

pub use card::{Card, Rank, Suit};
pub use deal::{Layout, LayoutPile, Source};
pub use rules::{GameKind, Reading, RuleOverrides, Rules, RulesError};
pub use state::{Game, LayoutError, Loc, Move, MoveList, Position, Reach, State, Undo};
