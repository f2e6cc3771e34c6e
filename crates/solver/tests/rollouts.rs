//! Nested rollouts (`demon_solver::rollout`): the wins they find are
//! real (replayed by the checker), they find wins the exhaustive search
//! does not reach, they stay inside the node limit and their memory, and
//! they are deterministic.

use demon_core::{GameKind, Reading, Rules, Source};
use demon_solver::rollout::{rollouts_alone, rollouts_alone_best, BestEnd, LINE_BYTES};
use demon_solver::{solve_resumable, solve_with, Finder, Limit, Limits, Options, Verdict};

fn toad() -> Rules {
    GameKind::AmericanToad.preset(Reading::Standard).unwrap()
}

fn limits(nodes: u64) -> Limits {
    Limits {
        max_nodes: Some(nodes),
        max_memory: 512 << 20,
        timeout: None,
    }
}

fn no_rollouts() -> Options {
    Options {
        rollouts: false,
        ..Options::default()
    }
}

/// American Toad seeds 67 and 58: the exhaustive search with its
/// best-first probes leaves both unknown at 1,000,000 nodes, with at most
/// 62 and 50 of the 104 cards up in a position; with rollouts (after the
/// first pause at 100,000 search nodes and the first probe's 50,000) seed 67 is won after 6,471 rollout moves, 156,471 nodes in all,
/// and seed 58 after 184,827, 334,827 nodes, both by the ladder of levels
/// in the first phase (which may play 400,000 in a two-deck game, half of
/// them the ladder's). (183,183 before the NRPA searches took 4 MiB of
/// the rollouts' memory, so less of it for the ladder's playouts;
/// 180,490 for seed 58 while the ladder had all of the rollouts' memory,
/// not half; 7,508 and 198,319 rollout moves
/// before the rollouts weighed the lowest foundation; seed 58 took
/// 200,805, the first phase's 100,000 and part of the second's, before
/// two-deck games gave the rollouts four times the pause.) `solve_with` replays each win with the
/// independent checker before it reports it. (Seeds 7 and 8, used first,
/// are won by the search alone in 116 and 114 nodes since the last pass
/// offers its nearest waste cards first, and seeds 1 and 15, used next,
/// since earlier passes prefer them too.)
#[test]
fn rollouts_win_american_toad_deals_the_search_leaves_unknown() {
    let rules = toad();
    for (seed, nodes, rollout_nodes, most_up) in [
        (67u64, 156_471u64, 6_471u64, 62u32),
        (58, 334_827, 184_827, 50),
    ] {
        let layout = Source::Native(seed).layout(&rules);
        let out = solve_with(&rules, &layout, &limits(1_000_000), &no_rollouts()).unwrap();
        assert_eq!(
            out.verdict,
            Verdict::Unknown(Limit::Nodes(1_000_000)),
            "seed {seed}"
        );
        assert_eq!(out.stats.rollout_nodes, 0);
        // How near the search alone came (`Stats::most_up`): for a won
        // deal it is every card, whichever search found the line.
        assert_eq!(out.stats.most_up, most_up, "seed {seed}");
        let out = solve_with(&rules, &layout, &limits(1_000_000), &Options::default()).unwrap();
        assert!(matches!(out.verdict, Verdict::Won(_)), "seed {seed}");
        assert_eq!(
            (out.stats.nodes, out.stats.rollout_nodes),
            (nodes, rollout_nodes),
            "seed {seed}"
        );
        assert_eq!(out.stats.found_by, Some(Finder::Ladder), "seed {seed}");
        assert_eq!(out.stats.most_up, 104, "seed {seed}");
    }
    // Without the NRPA searches the ladder has its memory of before, and
    // the search is the one before them, node for node.
    let layout = Source::Native(58).layout(&rules);
    let no_nrpa = Options {
        nrpa: false,
        ..Options::default()
    };
    let out = solve_with(&rules, &layout, &limits(1_000_000), &no_nrpa).unwrap();
    assert!(matches!(out.verdict, Verdict::Won(_)));
    assert_eq!(
        (out.stats.nodes, out.stats.rollout_nodes),
        (333_183, 183_183)
    );
}

/// A node limit that falls inside a rollout phase (American Toad seed 58's
/// first, from 150,000 nodes until its win at 334,827) stops it there
/// exactly.
#[test]
fn rollouts_stop_at_the_node_limit() {
    let rules = toad();
    let layout = Source::Native(58).layout(&rules);
    for n in [150_001u64, 157_777, 200_000, 249_999] {
        let out = solve_with(&rules, &layout, &limits(n), &Options::default()).unwrap();
        assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(n)));
        assert_eq!(out.stats.nodes, n);
        assert!(out.stats.rollout_nodes > 0, "{n}");
    }
}

/// The same search twice gives the same line and the same counts.
#[test]
fn rollouts_are_deterministic() {
    let rules = toad();
    let layout = Source::Native(58).layout(&rules);
    let a = solve_with(&rules, &layout, &limits(1_000_000), &Options::default()).unwrap();
    let b = solve_with(&rules, &layout, &limits(1_000_000), &Options::default()).unwrap();
    assert_eq!(a.verdict, b.verdict);
    assert_eq!(a.stats.nodes, b.stats.nodes);
}

/// The playouts' memory may be tiny (emptied every few playouts) or
/// absent: the lines read back from it stay legal, and the wins replay
/// (`rollouts_alone` asserts it). With no memory for playouts seed 58
/// takes more moves than with it.
#[test]
fn rollouts_win_with_little_playout_memory() {
    let rules = toad();
    let layout = Source::Native(58).layout(&rules);
    let (won, roomy, _) = rollouts_alone(&rules, &layout, false, 64 << 20, 400_000, 4);
    assert!(won.is_some());
    for bytes in [LINE_BYTES, LINE_BYTES + 128 * 40, LINE_BYTES + 128 * 2_000] {
        let (won, moves, _) = rollouts_alone(&rules, &layout, false, bytes, 20_000_000, 1);
        assert!(won.is_some(), "{bytes}");
        if bytes == LINE_BYTES {
            assert!(moves > roomy, "{moves} against {roomy}");
        }
    }
}

/// The restarts (level-1 rollouts, each with its own noise on the move
/// scores) win a deal the ladder of levels leaves: American Toad 899,
/// which the ladder won only after 108.8 M nodes of the search
/// (`results/2026-11-28-toad-retry-100M-300M`). The first restart wins it
/// after 11,942 moves; the ladder has no win in 1,000,000. Restarts are
/// deterministic, and with the least memory (their playouts' memory
/// emptied again and again) they still win it.
#[test]
fn restarts_win_where_the_ladder_does_not() {
    let rules = toad();
    let layout = Source::Native(899).layout(&rules);
    let (won, moves, restart) = rollouts_alone(&rules, &layout, true, 64 << 20, 1_000_000, 1);
    assert!(won.is_some());
    assert_eq!((moves, restart), (11_942, 1));
    let again = rollouts_alone(&rules, &layout, true, 64 << 20, 1_000_000, 1);
    assert_eq!(again, (won, moves, restart));
    let (won, moves, _) = rollouts_alone(&rules, &layout, true, LINE_BYTES, 1_000_000, 1);
    assert!(won.is_some(), "{moves}");
    let (won, moves, level) = rollouts_alone(&rules, &layout, false, 64 << 20, 1_000_000, 1);
    assert_eq!((won, moves), (None, 1_000_000), "level {level}");
}

/// Half the restarts start partway along the best line the restarts have
/// found so far, keeping its opening. Variegated Canfield 6 (unknown at
/// 30 M nodes of the search before they did, and with restarts all from
/// the deal unwon in 15 M moves) is won by restart 146, one that starts
/// partway (146 is 2 modulo 4), after 627,871 moves, every time (651,875
/// before the last pass played its waste's top card up when safe).
#[test]
fn restarts_that_start_partway_win() {
    let rules = GameKind::VariegatedCanfield
        .preset(Reading::Standard)
        .unwrap();
    let layout = Source::Native(6).layout(&rules);
    let r = rollouts_alone(&rules, &layout, true, 64 << 20, 1_000_000, 1);
    assert!(r.0.is_some());
    assert_eq!((r.1, r.2), (627_871, 146));
    assert_eq!(
        rollouts_alone(&rules, &layout, true, 64 << 20, 1_000_000, 1),
        r
    );
    // In phases of 20,000 moves, which cut restarts short, each is played
    // again from the same place: the same restart wins, with the moves of
    // the restarts cut short on top.
    let phased = rollouts_alone(&rules, &layout, true, 64 << 20, 20_000, 200);
    assert_eq!((phased.0, phased.2), (r.0, 146));
    assert!(phased.1 > r.1, "{}", phased.1);
    assert_eq!(
        rollouts_alone(&rules, &layout, true, 64 << 20, 20_000, 200),
        phased
    );
}

/// Where the restarts' best line ends, on a deal they have not won
/// (`Rollouts::best_end`, replayed from the deal): Variegated Canfield 1
/// after 300,000 moves (restarts 1-71 ended, 72 under way) has a best
/// line of 104 steps that puts 69 cards up (the 8 Aces among them) and
/// empties the reserve, with 25 cards left in the stock and the waste;
/// its value is 69 * 10 + 13 * 5 + 60 * 3 (the lowest foundation at 3).
/// Before any restart has ended there is no best line (American Toad 899
/// after 10,000 moves, its first restart under way).
#[test]
fn the_best_line_of_the_restarts_is_replayed() {
    let rules = GameKind::VariegatedCanfield
        .preset(Reading::Standard)
        .unwrap();
    let layout = Source::Native(1).layout(&rules);
    let r = rollouts_alone_best(&rules, &layout, true, 64 << 20, 300_000, 1);
    let end = BestEnd {
        value: 935,
        steps: 104,
        foundation: 69,
        reserve: 0,
        talon: 25,
    };
    assert_eq!(r, (None, 300_000, 72, Some(end)));
    let layout = Source::Native(899).layout(&toad());
    let r = rollouts_alone_best(&toad(), &layout, true, 64 << 20, 10_000, 1);
    assert_eq!(r, (None, 10_000, 1, None));
}

/// In the search the restarts share the two-deck rollout phases with the
/// ladder: American Toad 899, unknown at 1 M nodes without rollouts, is
/// won at 361,942 nodes: the search's first 100,000, the probe's 50,000,
/// then in the first rollout phase the ladder's half (200,000 moves, no
/// win) and the first restart's 11,942 moves; its line is replayed by the
/// checker.
#[test]
fn the_search_wins_with_a_restart() {
    let rules = toad();
    let layout = Source::Native(899).layout(&rules);
    let out = solve_with(&rules, &layout, &limits(1_000_000), &no_rollouts()).unwrap();
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(1_000_000)));
    let out = solve_with(&rules, &layout, &limits(1_000_000), &Options::default()).unwrap();
    assert!(matches!(out.verdict, Verdict::Won(_)));
    assert_eq!(
        (out.stats.nodes, out.stats.rollout_nodes),
        (361_942, 211_942)
    );
    assert_eq!(out.stats.found_by, Some(Finder::Restarts));
}

/// Another rollout seed (`Options::rollout_seed`) plays other restarts:
/// American Toad 899, won by seed 0's first restart at 361,942 nodes
/// (above), is won by the restarts of seeds 1 to 5 at other counts, each
/// the same when run again. The first 150,000 nodes (the search's and the
/// probe's) do not depend on the seed.
#[test]
fn another_rollout_seed_plays_other_restarts() {
    let rules = toad();
    let layout = Source::Native(899).layout(&rules);
    let seeded = |seed| {
        let o = Options {
            rollout_seed: seed,
            ..Options::default()
        };
        let out = solve_with(&rules, &layout, &limits(3_000_000), &o).unwrap();
        assert!(matches!(out.verdict, Verdict::Won(_)), "seed {seed}");
        assert_eq!(out.stats.found_by, Some(Finder::Restarts), "seed {seed}");
        (out.stats.nodes, out.stats.rollout_nodes)
    };
    let want = [
        (0u64, 361_942u64),
        (1, 379_289),
        (2, 391_305),
        (3, 438_554),
        (4, 350_199),
        (5, 395_147),
    ];
    for (seed, nodes) in want {
        assert_eq!(seeded(seed), (nodes, nodes - 150_000), "seed {seed}");
    }
    assert_eq!(seeded(3).0, 438_554, "seed 3 again");
}

/// A search continued from a save draws its sitting's own random searches
/// (`demon_solver::search::sitting_seed`), instead of playing the first
/// sitting's again: American Toad 899 stopped at 150,000 or 250,000 nodes
/// and continued is won by the restarts at 1,339,589 and 1,314,648 nodes
/// in all. With the first sitting's seed both were won at 1,311,942, by
/// the restart that won the unbroken search (measured before the seed
/// was drawn afresh). A sitting's seed is its search's seed for a search
/// from the deal, and differs from it after any node.
#[test]
fn a_continued_search_draws_new_random_searches() {
    use demon_solver::search::sitting_seed;
    let rules = toad();
    let layout = Source::Native(899).layout(&rules);
    for (stop, nodes) in [(150_000u64, 1_339_589u64), (250_000, 1_314_648)] {
        let mut save = Vec::new();
        let o = Options::default();
        let first =
            solve_resumable(&rules, &layout, &limits(stop), &o, None, Some(&mut save)).unwrap();
        assert_eq!(first.verdict, Verdict::Unknown(Limit::Nodes(stop)));
        let out = solve_resumable(
            &rules,
            &layout,
            &limits(3_000_000),
            &o,
            Some(&mut &save[..]),
            None,
        )
        .unwrap();
        assert!(matches!(out.verdict, Verdict::Won(_)), "{stop}");
        assert_eq!(out.stats.found_by, Some(Finder::Restarts), "{stop}");
        assert_eq!(out.stats.nodes, nodes, "stopped at {stop}");
    }
    for seed in [0u64, 1, 7, u64::MAX] {
        assert_eq!(sitting_seed(seed, 0), seed);
        let drawn: std::collections::HashSet<u64> = [1u64, 2, 150_000, 250_000]
            .map(|n| sitting_seed(seed, n))
            .into();
        assert_eq!(drawn.len(), 4, "seed {seed}");
        assert!(!drawn.contains(&seed), "seed {seed}");
    }
}

/// Rollouts only ever report wins: on a lost deal (Canfield with runs
/// moving in any part, seed 479) the verdict and the positions stored are
/// those of the search without them, which is unchanged by them. (With
/// one search path: the cursors take turns by node counts, which count
/// the rollouts' moves too, and a lost deal's stored positions depend a
/// little on the order they are met in, see the CLI's checkpoint tests.)
/// Their cost: a phase of 100,000 moves and a second that ends early, when
/// the highest level's rollout ends without a win, 314,439 moves in
/// all: 505,719 nodes without them against 820,158 with them (528,775
/// and 843,214 before the stack bound counted every choice of the
/// foundations' heights).
#[test]
fn rollouts_leave_a_lost_deal_lost() {
    let rules = Rules::resolve(
        GameKind::Canfield,
        Reading::Standard,
        &demon_core::RuleOverrides {
            group_moves: Some(demon_core::rules::GroupMoves::Any),
            ..Default::default()
        },
    )
    .unwrap();
    let layout = Source::Native(479).layout(&rules);
    let one = Options {
        cursors: 1,
        ..Options::default()
    };
    let without = Options {
        rollouts: false,
        ..one
    };
    let a = solve_with(&rules, &layout, &limits(5_000_000), &without).unwrap();
    let b = solve_with(&rules, &layout, &limits(5_000_000), &one).unwrap();
    assert_eq!(a.verdict, Verdict::Lost);
    assert_eq!(b.verdict, Verdict::Lost);
    assert_eq!(a.stats.stored, b.stats.stored);
    assert_eq!(a.stats.nodes, 505_719);
    assert_eq!((b.stats.nodes, b.stats.rollout_nodes), (820_158, 314_439));
}

/// The rollouts' memory is set aside from the start: table, paths and
/// rollouts together stay inside the limit (American Toad seed 30, unknown
/// at 3,000,000 nodes, which fills a small table). Below 32 MiB rollouts do
/// not run.
#[test]
fn rollouts_stay_inside_the_memory_limit() {
    let rules = toad();
    let layout = Source::Native(30).layout(&rules);
    for (memory, runs) in [(24usize << 20, false), (48 << 20, true), (512 << 20, true)] {
        let limits = Limits {
            max_nodes: Some(3_000_000),
            max_memory: memory,
            timeout: None,
        };
        let out = solve_with(&rules, &layout, &limits, &Options::default()).unwrap();
        assert!(
            out.stats.peak_memory <= memory,
            "{memory}: {}",
            out.stats.peak_memory
        );
        assert_eq!(out.stats.rollout_nodes > 0, runs, "{memory}");
    }
}

/// Variegated Canfield 1020 is won by the NRPA searches
/// (`demon_solver::nrpa`) at 4,143,290 nodes with 3 GiB; without them the
/// search is still unknown there. `solve_with` replays the win with the
/// independent checker. (Seed 426, unknown at 100 M nodes with the beams,
/// was won so at 4,596,616 nodes with 4 GiB, as in
/// `results/2026-11-29-vc-nrpa`, until the last pass played its waste's
/// top card up when safe, which changed the random searches' course; 1020
/// was won by NRPA at 4,105,648 nodes then, in
/// `results/2026-12-03-tail-searches`.)
#[test]
fn nrpa_wins_a_deal_the_beams_leave() {
    let rules = GameKind::VariegatedCanfield
        .preset(Reading::Standard)
        .unwrap();
    let layout = Source::Native(1020).layout(&rules);
    let limits = Limits {
        max_nodes: Some(4_150_000),
        max_memory: 3 << 30,
        timeout: None,
    };
    let with = Options::for_rules(&rules);
    let out = solve_with(&rules, &layout, &limits, &with).unwrap();
    assert!(matches!(out.verdict, Verdict::Won(_)), "{:?}", out.verdict);
    assert_eq!(out.stats.nodes, 4_143_290);
    assert_eq!(out.stats.found_by, Some(Finder::Nrpa));
    let without = Options {
        nrpa: false,
        ..with
    };
    let out = solve_with(&rules, &layout, &limits, &without).unwrap();
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(4_150_000)));
}

/// `Stats::most_up`, how near an unknown search came (see also
/// `rollouts_win_american_toad_deals_the_search_leaves_unknown`): the most
/// cards up in a position the search entered (Superior Canfield 142
/// without rollouts at 200,000 nodes, as `demon solve` runs it: 14 of
/// 52; 339 and 766, used here before with their 6 and 2 of 52, are lost
/// at the deal since the stack bound's pile tops and its choice of
/// heights), or
/// in the lines of the searches beside it, where
/// they get further (Variegated Canfield 7 at 600,000 nodes: 50 of 104
/// with the rollouts, 38 without).
#[test]
fn most_up_says_how_near_a_search_came() {
    let sup = GameKind::SuperiorCanfield
        .preset(Reading::Standard)
        .unwrap();
    let layout = Source::Native(142).layout(&sup);
    let out = solve_with(&sup, &layout, &limits(200_000), &no_rollouts()).unwrap();
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(200_000)));
    assert_eq!(out.stats.most_up, 14);
    let vc = GameKind::VariegatedCanfield
        .preset(Reading::Standard)
        .unwrap();
    let layout = Source::Native(7).layout(&vc);
    let most = |o: &Options| {
        let out = solve_with(&vc, &layout, &limits(600_000), o).unwrap();
        assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(600_000)));
        out.stats.most_up
    };
    assert_eq!((most(&no_rollouts()), most(&Options::default())), (38, 50));
}

/// Another value of a playout's end (`Options::playout`) plays other
/// lines: Double Easthaven 84, which the default value leaves unknown at
/// 1,084,446 nodes (and at 100 M, `results/2026-11-28-double-easthaven-
/// retry-100M`), is won by the ladder at exactly that count when tableau
/// cards above a lower card of their suit cost 4 and face-up cards not
/// built on the card below cost 1 (`results/2026-12-06-de-down-weight`).
/// 2 GiB of memory, so that the beams run as in a batch's 6 GiB.
#[test]
fn another_playout_value_plays_other_lines() {
    let rules = GameKind::DoubleEasthaven.preset(Reading::Standard).unwrap();
    let layout = Source::Native(84).layout(&rules);
    let limits = Limits {
        max_nodes: Some(1_084_446),
        max_memory: 2 << 30,
        timeout: None,
    };
    let valued = Options {
        playout: demon_solver::rollout::playout_weights()
            .set("blocked=-4,unbuilt=-1")
            .unwrap(),
        ..Options::default()
    };
    let out = solve_with(&rules, &layout, &limits, &valued).unwrap();
    assert!(matches!(out.verdict, Verdict::Won(_)), "{:?}", out.verdict);
    assert_eq!(out.stats.found_by, Some(Finder::Ladder));
    assert_eq!(out.stats.nodes, 1_084_446);
    let out = solve_with(&rules, &layout, &limits, &Options::default()).unwrap();
    assert_eq!(out.verdict, Verdict::Unknown(Limit::Nodes(1_084_446)));
}
