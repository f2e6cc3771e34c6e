//! The plain reference search the fast solver is tested against: a
//! depth-first search over the literal moves of `demon-core` (the stock
//! turned one deal at a time, no K+, no safe moves, no canonical piles),
//! with a visited set of whole states. Slow and obviously right; use it on
//! reduced decks.

use std::collections::HashSet;

use demon_core::{Game, Move, MoveList, State, Undo};

/// One level of the path: its moves, the next to try, the one being explored.
type Level = (MoveList, usize, Option<(Move, Undo)>);

/// `Some(true)` if the game can be won, `Some(false)` if not, `None` if
/// more than `max_nodes` positions would have to be visited.
pub fn reference_solve(game: &Game, max_nodes: usize) -> Option<bool> {
    reference_solve_from(game, &game.initial(), max_nodes)
}

/// [`reference_solve`] from position `start` instead of the deal.
pub fn reference_solve_from(game: &Game, start: &State, max_nodes: usize) -> Option<bool> {
    let mut st = start.clone();
    if game.is_won(&st) {
        return Some(true);
    }
    let mut seen: HashSet<State> = HashSet::new();
    seen.insert(st.clone());
    // Each level: its moves, the next to try, and the move being explored.
    let mut stack: Vec<Level> = vec![(game.legal_moves(&st), 0, None)];
    while let Some((moves, next, cur)) = stack.last_mut() {
        if let Some((m, u)) = cur.take() {
            game.undo(&mut st, m, u);
        }
        if *next == moves.len() {
            stack.pop();
            continue;
        }
        let m = moves[*next];
        *next += 1;
        let u = game.play(&mut st, m);
        *cur = Some((m, u));
        if game.is_won(&st) {
            return Some(true);
        }
        if seen.insert(st.clone()) {
            if seen.len() > max_nodes {
                return None;
            }
            let child = game.legal_moves(&st);
            stack.push((child, 0, None));
        }
    }
    Some(false)
}
