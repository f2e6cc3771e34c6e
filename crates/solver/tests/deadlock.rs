//! The deadlock tests, checked position by position against the plain
//! reference search: along random playouts of small deals of every game
//! and every rule option, wherever [`dead`] calls a position lost (by
//! [`stuck`] or by the stack bound, with the waste looked at too), the
//! reference search must not find a win from it. Foundation moves are
//! favoured so that the playouts reach the middle and end game, where
//! deadlocks are.

mod common;

use common::playouts;
use demon_core::{Game, GameKind, State};
use demon_solver::deadlock::stuck_reference::stuck_reference;
use demon_solver::deadlock::{
    dead, dead_cached, overfull, overfull_cached, stuck, Chains, STACK_BOUND_IDLE,
    STACK_BOUND_SPARSE,
};
use demon_solver::reference::reference_solve_from;

/// Positions the reference search may visit per question.
const REFERENCE_NODES: usize = 20_000;

#[derive(Default, Debug)]
struct Tally {
    /// Positions visited by the playouts.
    positions: usize,
    /// Positions called dead that the reference search proved lost.
    dead_checked: usize,
    /// Positions called dead too big for the reference search.
    dead_skipped: usize,
    /// Of the dead positions checked, those only [`overfull`] calls dead.
    overfull_checked: usize,
    /// Positions [`stuck`] calls lost (it and its first implementation
    /// agree on every position).
    stuck: usize,
}

fn check(g: GameKind, seeds: u64, steps: usize) -> Tally {
    let mut t = Tally::default();
    // One answer cache across a deal's positions, as a search keeps one
    // (its key leaves out the deal: playouts go deal by deal, and `what`
    // names the deal, then the step).
    let mut cache: Option<(String, Chains)> = None;
    playouts(g, seeds, steps, 0xDEAD, |game, st, what| {
        let deal = what.rsplit_once(" step ").map_or(what, |(d, _)| d);
        if cache.as_ref().is_none_or(|(s, _)| s != deal) {
            cache = Some((deal.to_string(), Chains::with_bytes(4096)));
        }
        let (_, c) = cache.as_mut().expect("made");
        verify(game, st, c, &mut t, what)
    });
    t
}

fn verify(game: &Game, st: &State, cache: &mut Chains, t: &mut Tally, what: &str) {
    t.positions += 1;
    // `stuck` follows its sets as bit sets; the first implementation
    // rescans every card: the same least fixpoint, so the same answer.
    let is_stuck = stuck(game, st);
    assert_eq!(
        is_stuck,
        stuck_reference(game, st),
        "{what}: stuck and its first implementation differ\n{:?}",
        game.position(st)
    );
    t.stuck += usize::from(is_stuck);
    // The cached answer is the answer: it depends only on where the cards
    // are by kind of place, which is the cache's key.
    for waste in [false, true] {
        assert_eq!(
            overfull_cached(cache, game, st, waste),
            overfull(game, st, waste),
            "{what}: the cached answer differs (waste {waste})"
        );
    }
    if !dead(game, st) {
        return;
    }
    let only_overfull = !stuck(game, st);
    if only_overfull {
        backs_off(game, st, what);
    }
    match reference_solve_from(game, st, REFERENCE_NODES) {
        None => t.dead_skipped += 1,
        Some(won) => {
            assert!(
                !won,
                "{what}: called dead, but the reference search wins\n{}\n{:?}",
                game.rules().signature(),
                game.position(st)
            );
            t.dead_checked += 1;
            t.overfull_checked += usize::from(only_overfull);
        }
    }
}

/// The search's dead-end test on a position only the stack bound calls
/// lost: it asks the bound until [`STACK_BOUND_IDLE`] positions in a row
/// were not lost, then only every [`STACK_BOUND_SPARSE`]-th, and a lost
/// answer starts the count again.
fn backs_off(game: &Game, st: &State, what: &str) {
    let mut c = Chains::with_bytes(4096);
    for (idle, asked) in [
        (0, true),
        (STACK_BOUND_IDLE - 1, true),
        (STACK_BOUND_IDLE + 1, false),
        (STACK_BOUND_IDLE + STACK_BOUND_SPARSE - 1, false),
        (STACK_BOUND_IDLE + STACK_BOUND_SPARSE, true),
        (7 * STACK_BOUND_IDLE, true),
    ] {
        c.idle = idle;
        assert_eq!(
            dead_cached(&mut c, game, st, true),
            asked,
            "{what}: idle {idle}"
        );
        assert_eq!(
            c.idle,
            if asked { 0 } else { idle + 1 },
            "{what}: idle {idle}"
        );
    }
}

// The minimum counts are about half of those measured (100 steps of
// 150 seeds of every variant): a change that weakens the test fails. The
// second is of the positions only [`overfull`](demon_solver::deadlock::overfull)
// calls dead (reserve and last-pass waste); none in Easthaven, which has
// neither a reserve nor a waste.
fn family(g: GameKind, seeds: u64, min: usize, min_overfull: Option<usize>) {
    let t = check(g, seeds, 100);
    println!("{g}: {t:?}");
    assert!(
        t.dead_checked >= min,
        "only {} dead positions checked",
        t.dead_checked
    );
    if let Some(m) = min_overfull {
        assert!(
            t.overfull_checked >= m,
            "only {} positions checked that only the stack bound calls dead",
            t.overfull_checked
        );
    }
}

macro_rules! family {
    ($name:ident, $g:expr, $seeds:expr, $min:expr) => {
        #[test]
        fn $name() {
            family($g, $seeds, $min, None);
        }
    };
    ($name:ident, $g:expr, $seeds:expr, $min:expr, $min_overfull:expr) => {
        #[test]
        fn $name() {
            family($g, $seeds, $min, Some($min_overfull));
        }
    };
}

family!(canfield, GameKind::Canfield, 150, 10000, 1500);
family!(
    superior_canfield,
    GameKind::SuperiorCanfield,
    150,
    10000,
    3000
);
family!(double_canfield, GameKind::DoubleCanfield, 150, 2000, 4000);
family!(rainbow, GameKind::Rainbow, 150, 5000, 350);
family!(
    selective_canfield,
    GameKind::SelectiveCanfield,
    150,
    10000,
    1400
);
family!(chameleon, GameKind::Chameleon, 150, 20000, 1300);
family!(storehouse, GameKind::Storehouse, 150, 1500, 350);
family!(
    variegated_canfield,
    GameKind::VariegatedCanfield,
    150,
    600,
    1800
);
family!(american_toad, GameKind::AmericanToad, 150, 200, 550);
family!(double_easthaven, GameKind::DoubleEasthaven, 150, 6000, 300);
family!(easthaven, GameKind::Easthaven, 150, 10000);
