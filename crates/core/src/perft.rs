//! Perft: the number of move sequences of a given length from a position,
//! the move-generation fingerprint chess programs use. The counts of fixed
//! deals are kept in `tests/data/perft.txt` and checked by a test, so any
//! change to move generation shows up as a changed number.

use crate::state::{Game, MoveList, State};

/// Number of legal move sequences of exactly `depth` moves from `st`
/// (sequences that reach a position with no moves earlier are not counted).
pub fn perft(game: &Game, st: &mut State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    game.moves(st, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for &mv in &moves {
        let u = game.play(st, mv);
        n += perft(game, st, depth - 1);
        game.undo(st, mv, u);
    }
    n
}
