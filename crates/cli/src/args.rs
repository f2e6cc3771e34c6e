//! Command-line arguments: clap structs that mirror what was typed, and the
//! one fallible step that turns them into the core's configuration
//! (`Rules`, a deal) before any work starts.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use demon_core::format::{parse_any, FormatError};
use demon_core::pysolfc::GameNumber;
use demon_core::rules::{
    Base, BaseChoice, Build, EmptySpace, GroupMoves, Redeals, TableauDeal, TableauWrap, Visibility,
};
use demon_core::{Game, GameKind, Layout, Rank, Reading, RuleOverrides, Rules, Source};

const GAMES_HELP: &str = "canfield, superior-canfield, double-canfield, rainbow, selective-canfield, chameleon, storehouse, variegated-canfield, american-toad, double-easthaven, easthaven";

#[derive(Parser, Debug)]
#[command(
    name = "demon",
    version,
    about = "Decides, exactly, whether deals of Canfield-family solitaires can be won",
    long_about = "demon analyses Canfield-family solitaires: Canfield, Superior Canfield, Double Canfield, Rainbow, Selective Canfield, Chameleon, Storehouse, Variegated Canfield, American Toad, Double Easthaven and Easthaven.\n\nEvery rule dimension is an option, so the same deals can be compared under different rules. Deals come from demon's own seeds, from PySolFC game numbers, or from a deal file.",
    after_help = "Examples:\n  demon games\n  demon rules canfield --group-moves any\n  demon deal canfield 1\n  demon solve canfield 1 --group-moves any\n  demon batch canfield --seeds 1..1000 --csv canfield.csv\n  demon deal canfield --pysolfc 123456 --rules pysolfc\n  demon deal storehouse --file my-table.txt --format json"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the games demon knows, with their PySolFC ids.
    Games,
    /// Print the fully resolved rule set of a game and options.
    #[command(
        after_help = "Examples:\n  demon rules canfield\n  demon rules canfield --rules pysolfc\n  demon rules superior-canfield --group-moves whole --empty reserve-then-any"
    )]
    Rules {
        #[command(flatten)]
        game: GameArgs,
    },
    /// Decide whether a deal can be won: WON with a checked move list, LOST (proven), or UNKNOWN with the limit that stopped the search.
    ///
    /// Exit code: 0 WON, 3 LOST, 4 UNKNOWN (1 for errors, 2 for bad arguments).
    #[command(
        after_help = "Examples:\n  demon solve canfield 1\n  demon solve canfield --pysolfc 123456 --rules pysolfc --show-positions\n  demon solve superior-canfield 7 --timeout 30 --max-memory 8G\n  demon solve canfield 5 --group-moves any --format json\n  demon solve canfield 646 --group-moves any --max-memory 32M --forget-when-full\n  demon solve superior-canfield 664 --forget-when-full --timeout 3600 --checkpoint s664.ck\n  demon solve double-easthaven 362 --layered --max-memory 2G\n  demon solve chameleon 16 --layered --max-memory 16G --timeout 7200 --checkpoint c16    # run again to continue\n\nOn a terminal, a line on standard error shows how far the search has got (nodes, positions, peak memory; for --layered, the progress of the level under way); elsewhere (a log file, nohup) that line is written every ten minutes (--log-every). Ctrl-C stops the search and reports it UNKNOWN with its counts so far; a second Ctrl-C quits at once (exit code 130). With --checkpoint, Ctrl-C saves the search, and further Ctrl-Cs wait for the save.\n\nExit code: 0 WON, 3 LOST, 4 UNKNOWN, 1 error, 2 bad arguments."
    )]
    Solve {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        deal: DealArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutFormat::Text)]
        format: OutFormat,
        /// Print the table after every move of a win.
        #[arg(long)]
        show_positions: bool,
        /// Save the search's progress to FILE when a limit or Ctrl-C stops
        /// it (UNKNOWN), and continue from FILE when it exists: a long
        /// search can run across several sittings. The file holds the
        /// explored positions, about 17 bytes each (a full 4G table: about
        /// 3.5 GB); it is removed once the deal is decided, and refused
        /// for another deal, other rules, other search settings (tableau
        /// classes, dead ends), another version of the search, or when
        /// damaged. Any --cursors may save, and any may continue. With
        /// --layered, FILE is a directory (created if need be) that holds
        /// the search's files instead of the temporary directory: the
        /// levels' positions and the log of moves (about 35 bytes written
        /// a position stored), and the save, search.ck, written every ten
        /// minutes as well as when a limit or Ctrl-C stops the search, so
        /// a kill loses at most ten minutes; the directory is emptied and
        /// removed once the deal is decided.
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<std::path::PathBuf>,
        /// When standard error is not a terminal (a log file, or under
        /// nohup), write the progress line there every SECS seconds (0:
        /// never), after the time since this run started: "after
        /// 0:10:00: 612.30 M nodes (1.02 M/s), 98.20 M positions, peak
        /// memory 1.6 GiB of 4.0 GiB". On a terminal the line is redrawn
        /// in place instead.
        #[arg(long, value_name = "SECS", default_value_t = 600)]
        log_every: u64,
    },
    /// Solve a range of deals in parallel: win rate with its 95% interval, time and node statistics, and a CSV report.
    ///
    /// Each deal is searched on one thread; deals are spread over --jobs threads. --max-memory is the whole run's budget, shared equally by the jobs. The report gets one row per deal in seed order, each written as soon as it can be; a deal finished ahead of its turn waits in FILE.pending. Stopped by Ctrl-C or a kill, the run loses nothing it finished: run the same command with --resume to continue it. With --checkpoint-dir, Ctrl-C also saves the deals in progress, and --resume continues them where they stopped.
    #[command(
        after_help = "Examples:\n  demon batch canfield --seeds 1..1000 --group-moves any --csv canfield.csv\n  demon batch canfield --seeds 1..1000 --group-moves any --csv canfield.csv --resume\n  demon batch storehouse --rules pysolfc --seeds 1..10000 --timeout 10 --jobs 2 --max-memory 8G\n  demon batch canfield --seeds 1..1000000 --shard 3/8 --csv part3.csv\n  demon batch canfield --rules pysolfc --pysolfc 1..1000 --csv pysolfc-canfield.csv    # PySolFC's games 1 to 1000\n  demon batch canfield --group-moves any --retry-unknown canfield.csv --max-nodes 50M --csv canfield-50M.csv\n  demon batch superior-canfield --retry-unknown sc.csv --forget-when-full --csv sc-hard.csv --checkpoint-dir ck    # Ctrl-C saves the deals in progress; --resume goes on\n  demon batch chameleon --retry-unknown c.csv --layered --max-nodes 300M --csv c-300M.csv --checkpoint-dir ck --keep-unknown\n  demon batch chameleon --retry-unknown c-300M.csv --layered --max-nodes 1G --csv c-1G.csv --checkpoint-dir ck --keep-unknown    # goes on from 300 M\n\nSeeds A..B (and --pysolfc A..B) include both ends. --shard I/N takes every N-th seed starting at the I-th; merge the shards' reports with `demon merge`.\nExit code: 0 done, 130 interrupted (continue with --resume), 1 error, 2 bad arguments.",
        group = clap::ArgGroup::new("deals").required(true).args(["seeds", "pysolfc", "retry_unknown"])
    )]
    Batch {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        run: RunOpts,
        #[command(flatten)]
        limits: LimitArgs,
        /// Write one CSV row per deal to this file (never overwritten: see --resume): game, rules, seed, verdict, solution_moves, nodes, stored, seconds, peak_memory, limit (what stopped an unknown deal), found_by (what found a win: search, probe, ladder, restarts, beams, nrpa, tail or relaxed; for a lost deal, relaxed when the search under relaxed rules proved it, see --no-relaxation).
        #[arg(long, value_name = "FILE", help_heading = "Report")]
        csv: Option<PathBuf>,
        /// Continue the run whose report is --csv: solve only the deals it does not have yet.
        #[arg(long, requires = "csv", help_heading = "Report")]
        resume: bool,
        /// Instead of --seeds: solve again the deals REPORT left unknown (under this run's limits, larger ones as a rule), taken in seed order whatever the order of REPORT's rows (to try some first, give a report that holds only them). Fold the new report into the old with `demon merge REPORT --retried NEW`.
        #[arg(
            long,
            value_name = "REPORT",
            conflicts_with = "seeds",
            help_heading = "Deals"
        )]
        retry_unknown: Option<PathBuf>,
        /// Save the search of each deal that Ctrl-C interrupts in DIR (created if need be; GAME-SEED.ck, the format of `demon solve --checkpoint`), and continue it from there in the next run (--resume). Without it, Ctrl-C loses the deals in progress. A file is removed once its deal ends. Files can be large: about 17 bytes a position, up to 3.5 GB for a deal with a 4G share. With --layered, each deal has a directory instead (GAME-SEED.layered, as `demon solve --layered --checkpoint`), which holds its search's files as it runs, is saved every ten minutes as well, and goes when the deal ends.
        #[arg(long, value_name = "DIR", help_heading = "Report")]
        checkpoint_dir: Option<PathBuf>,
        /// With --checkpoint-dir: save the search of each deal that a limit stops (--max-nodes, --timeout, --max-memory) there too, not only those Ctrl-C interrupts. The deal's row says unknown as usual, and a later run with larger limits and the same DIR (--retry-unknown) goes on from where the search stopped instead of starting again; node counts add up across the runs, so --max-nodes counts them all. A file goes when its deal is decided (and, in a run over the same DIR without --keep-unknown, when its deal ends at all: that run goes on from the save too). Mind the disk: each deal left unknown keeps its file (up to 3.5 GB with a 4G share; with --layered, its levels and log).
        #[arg(long, requires = "checkpoint_dir", help_heading = "Report")]
        keep_unknown: bool,
    },
    /// Solve the same deals under several rule variants and compare their win rates, deal by deal.
    ///
    /// Each --variant is 'NAME: options', the options being rule options of the game (as for `demon rules`), applied over the rule options given outside the variants; a variant with no options has just those. The table gives each variant's win rate with its 95% interval, and for each variant against the first, the deals won under one only and McNemar's exact test.
    #[command(
        after_help = "Examples:\n  demon compare canfield --seeds 1..1000 --variant 'whole: --group-moves whole' --variant 'any: --group-moves any'\n  demon compare storehouse --seeds 1..2000 --variant 'standard:' --variant 'pysolfc: --rules pysolfc' --csv store\n  demon compare canfield --rules pysolfc --pysolfc 1..1000 --variant 'whole:' --variant 'any: --group-moves any'    # PySolFC's games 1 to 1000\n\nWith --csv PREFIX each variant's rows go to PREFIX-NAME.csv, a report like `demon batch` writes (and --resume continues), and the table to PREFIX-compare.csv.\nExit code: 0 done, 130 interrupted, 1 error, 2 bad arguments.",
        group = clap::ArgGroup::new("deals").required(true).args(["seeds", "pysolfc"])
    )]
    Compare {
        /// The game, and rule options shared by every variant.
        #[command(flatten)]
        game: GameArgs,
        /// A rule variant: 'NAME: options' (at least two).
        #[arg(long = "variant", value_name = "'NAME: OPTIONS'", required = true)]
        variants: Vec<String>,
        #[command(flatten)]
        run: RunOpts,
        #[command(flatten)]
        limits: LimitArgs,
        /// Write each variant's rows to PREFIX-NAME.csv and the table to PREFIX-compare.csv.
        #[arg(long, value_name = "PREFIX", help_heading = "Report")]
        csv: Option<PathBuf>,
        /// Continue the comparison whose reports are --csv PREFIX-NAME.csv.
        #[arg(long, requires = "csv", help_heading = "Report")]
        resume: bool,
    },
    /// Merge the CSV reports of one game and rule set (for example the shards of a run) and summarise them.
    ///
    /// Refuses reports of different games or rules and seeds present in two reports; warns of seeds missing between the first and the last.
    #[command(
        after_help = "Examples:\n  demon merge part1.csv part2.csv part3.csv\n  demon merge part*.csv --csv all.csv\n  demon merge canfield.csv --format json    # the summary of one report, for scripts\n  demon merge canfield.csv --retried canfield-50M.csv    # unknown deals solved again at a larger limit"
    )]
    Merge {
        /// The reports to merge.
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// A report of `demon batch --retry-unknown` over these reports: its rows replace their unknown rows, but for a row still unknown after fewer nodes than the earlier one, which keeps the earlier row (repeatable, applied in order; fold the shards of a retry in this way, one --retried each).
        #[arg(long, value_name = "FILE")]
        retried: Vec<PathBuf>,
        /// Write the merged rows, in seed order, to this new file.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Summary format.
        #[arg(long, value_enum, default_value_t = OutFormat::Text)]
        format: OutFormat,
    },
    /// Print the layout of a deal, so a person can lay it out on a table.
    #[command(
        after_help = "Examples:\n  demon deal canfield 1\n  demon deal canfield --pysolfc 1 --rules pysolfc\n  demon deal double-easthaven --pysolfc 12345678901234567890 --format json\n  demon deal canfield 7 --format solvitaire > deal.json\n  demon deal canfield --file deal.json\n\nText format: one `key: cards` line each for foundations, reserve (bottom to top), tableau (piles separated by |, each bottom to top, face-down cards in parentheses), stock (next card first) and waste (bottom to top); # starts a comment. See README.md."
    )]
    Deal {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        deal: DealArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DealFormat::Text)]
        format: DealFormat,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutFormat {
    /// Human-readable.
    Text,
    /// JSON, with the same content.
    Json,
}

/// Which deals a run solves, and on how many threads.
#[derive(Args, Debug)]
pub struct RunOpts {
    /// Seeds A..B (both included), or a single seed.
    #[arg(long, value_name = "A..B", value_parser = parse_seeds, help_heading = "Deals")]
    pub seeds: Option<demon_batch::SeedRange>,
    /// PySolFC game numbers A..B (both included, from 1) instead of demon's seeds: the deals PySolFC deals as those games, under the rules given (add --rules pysolfc for PySolFC's own). The report's rules column ends with "deals=pysolfc", so it is never mixed with reports of demon's seeds.
    #[arg(long, value_name = "A..B", value_parser = parse_pysolfc_range, help_heading = "Deals")]
    pub pysolfc: Option<demon_batch::SeedRange>,
    /// Solve only the I-th of N interleaved slices of the seeds (1 <= I <= N).
    #[arg(long, value_name = "I/N", value_parser = parse_shard, help_heading = "Deals")]
    pub shard: Option<demon_batch::Shard>,
    /// Deals solved at once (default: one per core, or one per --threads cores).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Deals")]
    pub jobs: Option<usize>,
    /// When standard error is not a terminal (a log file, or under nohup), write how far the run has got there every SECS seconds (0: never), after the time since this run started: "after 0:10:00: 12 of 35 deals done, won 90.00% of decided, 1 unknown; in progress: 1.23 G nodes, 45.60 M positions". On a terminal a progress bar is drawn instead.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 600,
        help_heading = "Deals"
    )]
    pub log_every: u64,
}

fn parse_seeds(s: &str) -> Result<demon_batch::SeedRange, String> {
    s.parse()
        .map_err(|e: demon_batch::SeedsError| e.to_string())
}

/// A range of PySolFC game numbers: a seed range that starts at 1 or
/// above (PySolFC has no game 0; its `ms` numbers are FreeCell's).
fn parse_pysolfc_range(s: &str) -> Result<demon_batch::SeedRange, String> {
    let r = parse_seeds(s)?;
    if r.first == 0 {
        return Err(format!(
            "'{s}': PySolFC game numbers start at 1; 0 is not a game"
        ));
    }
    Ok(r)
}

fn parse_playout(s: &str) -> Result<demon_solver::Weights, String> {
    demon_solver::rollout::playout_weights().set(s)
}

fn parse_shard(s: &str) -> Result<demon_batch::Shard, String> {
    s.parse()
        .map_err(|e: demon_batch::SeedsError| e.to_string())
}

/// Search limits.
#[derive(Args, Debug)]
pub struct LimitArgs {
    /// Stop (UNKNOWN) after expanding this many positions: a number, or with a suffix K, M or G (thousands, millions, billions: 2M is 2000000). The count includes the positions proved dead ends; the layered search finds those as it stores them, so it may stop a few positions past the limit.
    #[arg(long, value_name = "N", value_parser = parse_count, help_heading = "Limits")]
    pub max_nodes: Option<u64>,
    /// Memory, e.g. 4G, 512M, 1.5GiB (default 4G): for the search (solve), or for the whole run, shared equally by its jobs (batch, compare). A search stays inside its share and ends UNKNOWN when it is used up.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "4G", help_heading = "Limits")]
    pub max_memory: usize,
    /// Stop (UNKNOWN) after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = parse_secs, help_heading = "Limits")]
    pub timeout: Option<f64>,
    /// Store every position on its own, not once per tableau class (positions joined by reversible tableau moves; one deck, --group-moves any). Slower and bigger: for comparison.
    #[arg(long, help_heading = "Limits")]
    pub no_tableau_classes: bool,
    /// Do not stop at dead ends (positions where provably no tableau pile can ever be emptied, so its bottom card never reaches a foundation). Searches more positions: for comparison.
    #[arg(long, help_heading = "Limits")]
    pub no_deadlock: bool,
    /// Also prove lost the positions whose waste, in the last pass through the stock, can never be emptied because the cards that must then lie on the tableau need more piles than there are (the reserve is always checked so). On by default where the stock is never turned over (no redeal: Chameleon, PySolFC's Rainbow), where the whole game is the last pass and it proves deals lost far sooner; elsewhere it means fewer positions for more time per position where the waste is deep, worth it under --max-nodes rather than --timeout.
    #[arg(long, help_heading = "Limits", conflicts_with = "no_deadlock")]
    pub waste_bound: bool,
    /// Do not bound the last pass's waste even where that is the default (no redeal); see --waste-bound. For comparison. Batch reports of such games made before it was the default (without waste-bound=on in their settings) resume with --no-waste-bound.
    #[arg(long, help_heading = "Limits", conflicts_with = "waste_bound")]
    pub no_waste_bound: bool,
    /// Do not run nested rollouts beside the search (greedy look-ahead playouts that look for a win, taking about half a long search's nodes, nearly all of them in the two-deck games, until they run out of levels, and a sixteenth of --max-memory, at most 64 MiB). They are on by default except in one-deck games with unlimited redeals (Canfield, Superior and Selective Canfield), where the search alone decides deals sooner. For comparison, or to spend every node and byte on a deal believed lost. The verdicts of decided deals do not depend on it.
    #[arg(long, help_heading = "Limits")]
    pub no_rollouts: bool,
    /// Do not run beam searches beside the rollouts in the two-deck games (searches that keep the tens of thousands of most promising positions at each depth and look for a win only, growing wider from beam to beam; from 1.6 M nodes on they take a quarter of the rollouts' nodes, three quarters with --no-nrpa, and an eighth of --max-memory, at most 1 GiB, none below 128 MiB). For comparison; the verdicts of decided deals do not depend on it.
    #[arg(long, help_heading = "Limits")]
    pub no_beams: bool,
    /// Do not run NRPA searches beside the rollouts in the two-deck games (nested rollout policy adaptation: level-2 searches of 10,000 random playouts each that learn, from their best lines, which card to play where; from 1.6 M nodes on they take half of the rollouts' nodes, and 4 MiB of their memory). For comparison; the verdicts of decided deals do not depend on it.
    #[arg(long, help_heading = "Limits")]
    pub no_nrpa: bool,
    /// Do not search depth first near the end of each NRPA search's best line, and from 1.6 M nodes on of each new best line of the rollouts' restarts (tail searches: the exhaustive search alone from 8 moves before the line's end, then 16, 32 and so on while each proves its part lost, at most 100,000 nodes a line, in those searches' share of the nodes, with 4 MiB of memory; they win where a line stopped a few moves short of a win that the random playouts' choice of moves left out). They run only beside the NRPA searches (not with --no-nrpa). For comparison; the verdicts of decided deals do not depend on it.
    #[arg(long, help_heading = "Limits")]
    pub no_tails: bool,
    /// Do not also search the deal under relaxed rules. Where the stock is dealt onto the tableau only while no pile is empty (Double Easthaven, Easthaven), the search is also run, from 6.4 M nodes on, on the same deal with the stock dealt at any time: rules that allow every line of play and more, under which it may play safe foundation moves early (which it cannot while a deal waits for the piles to be filled) and so proves some deals lost far sooner (Double Easthaven 101: 9 M nodes). It takes a third of the nodes from then on and a quarter of --max-memory (in batch and compare, of each job's share), set aside from the start unless --max-nodes keeps it from running; LOST there is LOST here, and a win there counts only if every move of it is legal here. Not with --layered. Batch reports made before it (without relaxation=on in their settings) resume with --no-relaxation. The verdicts of decided deals do not depend on it.
    #[arg(long, help_heading = "Limits")]
    pub no_relaxation: bool,
    /// For experiments and tests: the node count from which the search under relaxed rules runs (default 6400000; 0 also runs it first, for 50,000 nodes).
    #[arg(long, value_name = "N", hide = true, value_parser = parse_count)]
    pub relax_from: Option<u64>,
    /// For experiments: the tail searches' nodes a line (default 100000).
    #[arg(long, value_name = "N", hide = true, value_parser = parse_count)]
    pub tail_nodes: Option<u64>,
    /// The seed of the random searches beside the exhaustive one (the NRPA searches' random stream and the noises of the rollouts' restarts, in the two-deck games; default 0). Another seed tries other random searches on the same deals: for retrying deals left unknown (the exhaustive search is the same). A search continued from a save draws new ones from this seed and the nodes already searched. The verdicts of decided deals do not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Limits")]
    pub rollout_seed: u64,
    /// For experiments: what the end of a playout of the rollouts, their restarts and the NRPA searches is worth, as weights of the probes' terms, e.g. `blocked=-4,unbuilt=-1`, each N a whole number of at most 100000 either way (the terms: found, reserve, down, empty, unbuilt, blocked, pass, pos, low; those not named keep their default, found=10,reserve=5,down=-3,low=60, the rest 0). Another value tries other lines on a deal, as another --rollout-seed does; the verdicts of decided deals do not depend on it.
    #[arg(long, value_name = "NAME=N,...", hide = true, value_parser = parse_playout)]
    pub playout_weights: Option<demon_solver::Weights>,
    /// Run nested rollouts beside the search even where they are off by default (one deck, unlimited redeals); see --no-rollouts.
    #[arg(long, help_heading = "Limits", conflicts_with = "no_rollouts")]
    pub rollouts: bool,
    /// Do not pause the search for best-first probes (searches ordered by how promising a position looks, that look for a win only). They are on by default except in one-deck games with unlimited redeals (Canfield, Superior and Selective Canfield), where the depth-first search finds the wins as soon. The verdicts of decided deals do not depend on it.
    #[arg(long, help_heading = "Limits")]
    pub no_probes: bool,
    /// Run the best-first probes even where they are off by default (one deck, unlimited redeals); see --no-probes.
    #[arg(long, help_heading = "Limits", conflicts_with = "no_probes")]
    pub probes: bool,
    /// Search paths explored side by side, taking turns, so that one deep lost subtree cannot hold up a win elsewhere. 1 gives a single depth-first path, for comparison. The verdicts do not depend on it.
    #[arg(long, default_value_t = demon_solver::Options::default().cursors as u32, value_parser = clap::value_parser!(u32).range(1..=65536), help_heading = "Limits")]
    pub cursors: u32,
    /// When the position table has filled its share of --max-memory, forget positions already explored to store new ones, instead of stopping UNKNOWN. When a deep search path needs more memory, the table shrinks to give it room, forgetting the same way. Verdicts stay exact and memory stays inside the budget, but a forgotten position is searched again when met again, so a search can take far longer: give --max-nodes or --timeout too.
    #[arg(long, help_heading = "Limits")]
    pub forget_when_full: bool,
    /// Search level by level instead of depth first, to prove lost the deals whose positions do not all fit in memory: a level is the cards on the foundations plus those out of the reserve and the talon, then the talon's state, then one of 16 parts (a hash of what is not in the tableau), which no move lowers, so a finished level is never met again, and its positions are forgotten when the table fills, as are those of levels waiting when they do not fit beside the level under way (checked again when their turn comes). Memory holds the table of the level under way and of as many waiting levels as fit; their positions wait in compressed files in the temporary directory (TMPDIR), one file a progress, removed as they finish and when the search ends, with a log of moves a win is read back from. It finds wins late (after every position of a lower level): for deals believed lost. It stores each tableau class once, as the depth-first search does (not with --no-tableau-classes), and runs alone: no rollouts, probes, beams or threads; not with worrying back. With --checkpoint DIR its files go in DIR, and it can be stopped and continued.
    #[arg(long, help_heading = "Limits", conflicts_with = "forget_when_full")]
    pub layered: bool,
    /// With --layered: keep no log of moves. The log takes about 6 bytes of disk a position stored and is never cut, so that a long search can need tens of GB for it. Without it, a win the search meets is searched for again from the deal, with a log (in the temporary directory, not saved), in the same sitting and within what is left of the limits, to read its move list back; if a limit stops that second search first, the answer is UNKNOWN. Given to a search saved with a log (--checkpoint), the log is removed and the search goes on without one; a search saved without a log goes on without one.
    #[arg(long, help_heading = "Limits", requires = "layered")]
    pub no_log: bool,
    /// Threads that search each deal together, sharing one position table (default 1). Two on a two-core machine decide a long search in less time; node counts then vary from run to run, verdicts do not. In batch and compare each of the --jobs deals takes this many threads. A search that forgets (--forget-when-full) or saves (--checkpoint) runs on one thread.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64), help_heading = "Limits")]
    pub threads: u32,
}

impl LimitArgs {
    pub fn limits(&self) -> demon_solver::Limits {
        demon_solver::Limits {
            max_nodes: self.max_nodes,
            max_memory: self.max_memory,
            timeout: self.timeout.map(std::time::Duration::from_secs_f64),
        }
    }

    /// The search options for a game's rules: the game's defaults
    /// ([`demon_solver::Options::for_rules`]: rollouts and probes only
    /// where they pay) as the options given change them.
    pub fn options(&self, rules: &Rules) -> demon_solver::Options {
        let game = demon_solver::Options::for_rules(rules);
        let o = demon_solver::Options {
            tableau_classes: !self.no_tableau_classes,
            deadlock: !self.no_deadlock,
            // Part of the dead-end test: off with it.
            waste_bound: !self.no_deadlock
                && (self.waste_bound || (!self.no_waste_bound && game.waste_bound)),
            rollouts: self.rollouts || (!self.no_rollouts && game.rollouts),
            beams: !self.no_beams,
            nrpa: !self.no_nrpa,
            tails: !self.no_tails,
            tail_nodes: self.tail_nodes,
            rollout_seed: self.rollout_seed,
            playout: self.playout_weights.unwrap_or(game.playout),
            probes: self.probes || (!self.no_probes && game.probes),
            relax: !self.no_relaxation,
            relax_from: self.relax_from.unwrap_or(game.relax_from),
            cursors: self.cursors as usize,
            replace_when_full: self.forget_when_full,
            layered: self.layered,
            layered_no_log: self.no_log,
            threads: self.threads as usize,
            ..game
        };
        // The layered search runs alone (`demon_solver::layered`): what
        // it does not run is not named in reports either.
        if self.layered {
            demon_solver::Options {
                rollouts: false,
                beams: false,
                nrpa: false,
                tails: false,
                probes: false,
                threads: 1,
                ..o
            }
        } else {
            o
        }
    }
}

/// Parses a count: `2000000`, `2M`, `500k`, `1.5G` (powers of ten), in
/// integers throughout (no float rounding: `4.1M` is 4100000).
pub fn parse_count(s: &str) -> Result<u64, String> {
    let bad = || format!("'{s}' is not a count (e.g. 2000000, 2M, 500K)");
    let t = s.trim();
    let (num, digits) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 3u32),
        Some((i, 'm' | 'M')) => (&t[..i], 6),
        Some((i, 'g' | 'G')) => (&t[..i], 9),
        _ => (t, 0),
    };
    let (whole, frac) = num.split_once('.').unwrap_or((num, ""));
    let all_digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(frac) || frac.len() > digits as usize {
        return Err(bad());
    }
    let scale = 10u64.pow(digits);
    let frac_value = if frac.is_empty() {
        0
    } else {
        frac.parse::<u64>().map_err(|_| bad())? * 10u64.pow(digits - frac.len() as u32)
    };
    whole
        .parse::<u64>()
        .ok()
        .and_then(|w| w.checked_mul(scale))
        .and_then(|w| w.checked_add(frac_value))
        .ok_or_else(bad)
}

/// Parses `4G`, `512M`, `1.5GiB`, `100000` (bytes).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let v: f64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a size (e.g. 4G, 512M, 1.5GiB)"))?;
    let mul: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        u => return Err(format!("'{u}' is not a size unit (use K, M, G or T)")),
    };
    let bytes = v * mul;
    if bytes < (1 << 20) as f64 {
        return Err(format!(
            "{s} is too little memory for a search; give at least 1M"
        ));
    }
    Ok(bytes as usize)
}

fn parse_secs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1e9 => Ok(v),
        Ok(v) if v > 1e9 => Err(format!(
            "{s} seconds is more than 30 years: leave --timeout out for no time limit"
        )),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealFormat {
    /// demon's plain-text deal format (reads back with --file).
    Text,
    /// demon's JSON deal format (reads back with --file).
    Json,
    /// Solvitaire's deal JSON (one-deck Canfield games only).
    Solvitaire,
}

/// Which deal to use.
#[derive(Args, Debug)]
#[group(id = "deal_source", required = true, multiple = false)]
pub struct DealArgs {
    /// demon's own deal number (any integer from 0 to 2^64-1).
    pub seed: Option<u64>,
    /// A PySolFC game number, dealt exactly as PySolFC deals it (e.g. 1, 123456, ms40000).
    #[arg(long, value_name = "N", value_parser = parse_game_number)]
    pub pysolfc: Option<GameNumber>,
    /// A deal file: demon's text or JSON format, or Solvitaire's deal JSON.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
}

fn parse_game_number(s: &str) -> Result<GameNumber, String> {
    GameNumber::parse(s).map_err(|e| e.to_string())
}

fn parse_game(s: &str) -> Result<GameKind, String> {
    GameKind::from_name(s).ok_or_else(|| format!("unknown game '{s}' (known games: {GAMES_HELP})"))
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum YesNo {
    Yes,
    No,
}

impl From<YesNo> for bool {
    fn from(v: YesNo) -> bool {
        v == YesNo::Yes
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadingArg {
    /// The rules of the seed documents (GAMES.md §2).
    Standard,
    /// PySolFC's implementation of the game.
    Pysolfc,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VisibilityArg {
    Hidden,
    Open,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildArg {
    AlternateColour,
    Suit,
    AnySuit,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapArg {
    /// A King may go on an Ace.
    Yes,
    /// Nothing goes on an Ace.
    No,
    /// Wrap like the foundations, except onto the base rank.
    Base,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupArg {
    /// One card at a time.
    Top,
    /// The top card alone, or the whole pile as a unit.
    Whole,
    /// Between piles only whole piles move.
    Pile,
    /// Any properly built run.
    Any,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyArg {
    ReserveThenAny,
    ReserveThenWaste,
    Any,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StockArg {
    ToWaste,
    ToTableau,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseChoiceArg {
    Fixed,
    Selective,
}

/// The game and every rule option (GAMES.md §1). Options left out keep
/// the game's preset value.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game.
    #[arg(value_name = "GAME", value_parser = parse_game, help = format!("The game: {GAMES_HELP}"))]
    pub game: GameKind,
    /// Whose reading of the game's rules to start from (default: standard).
    #[arg(long = "rules", value_enum, help_heading = "Rules")]
    pub reading: Option<ReadingArg>,
    /// Number of decks: 1 or 2.
    #[arg(long, help_heading = "Rules")]
    pub decks: Option<u8>,
    /// Ranks per suit, 3 to 13: reduced decks (A up to the N-th rank) for experiments and tests.
    #[arg(long, help_heading = "Rules")]
    pub ranks: Option<u8>,
    /// Foundation base: first-card, or a rank (A, 2, … K).
    #[arg(long, value_parser = parse_base, help_heading = "Rules")]
    pub base: Option<Base>,
    /// Who picks the base card: fixed, or selective (from the five cards dealt).
    #[arg(long, value_enum, help_heading = "Rules")]
    pub base_choice: Option<BaseChoiceArg>,
    /// All cards of the base rank start on the foundations.
    #[arg(long, value_enum, help_heading = "Rules")]
    pub preplaced: Option<YesNo>,
    /// A foundation's top card may come back to the tableau.
    #[arg(long, value_enum, help_heading = "Rules")]
    pub worrying_back: Option<YesNo>,
    /// Cards in the reserve (0 for none).
    #[arg(long, help_heading = "Rules")]
    pub reserve: Option<u8>,
    /// Reserve face down but for its top card, or all face up.
    #[arg(long, value_enum, help_heading = "Rules")]
    pub reserve_visibility: Option<VisibilityArg>,
    /// Number of tableau piles.
    #[arg(long, help_heading = "Rules")]
    pub piles: Option<u8>,
    /// Cards dealt to each pile: 1, or 3 (two face down).
    #[arg(long, value_parser = parse_tableau_deal, help_heading = "Rules")]
    pub tableau_deal: Option<TableauDeal>,
    /// How the tableau builds down.
    #[arg(long, value_enum, help_heading = "Rules")]
    pub build: Option<BuildArg>,
    /// Tableau wrap: yes (a King may go on an Ace), no, or base (wrap like the foundations, except onto the base rank: Solvitaire's reading of Canfield).
    #[arg(long, value_enum, help_heading = "Rules")]
    pub tableau_wrap: Option<WrapArg>,
    /// Which cards move between piles as a unit.
    #[arg(long, value_enum, help_heading = "Rules")]
    pub group_moves: Option<GroupArg>,
    /// How empty tableau spaces are filled.
    #[arg(long, value_enum, help_heading = "Rules")]
    pub empty: Option<EmptyArg>,
    /// Where the stock goes: onto a waste pile, or onto the tableau.
    #[arg(long, value_enum, help_heading = "Rules")]
    pub stock: Option<StockArg>,
    /// Cards turned from the stock at a time: 1 or 3.
    #[arg(long, help_heading = "Rules")]
    pub draw: Option<u8>,
    /// Redeals of the waste: unlimited, or a number (0 = a single pass).
    #[arg(long, value_parser = parse_redeals, help_heading = "Rules")]
    pub redeals: Option<Redeals>,
    /// To-tableau stock: may it be dealt while a pile is empty?
    #[arg(long, value_enum, help_heading = "Rules")]
    pub deal_when_empty: Option<YesNo>,
}

fn parse_base(s: &str) -> Result<Base, String> {
    if s.eq_ignore_ascii_case("first-card") {
        return Ok(Base::FirstCard);
    }
    Rank::parse(s)
        .map(Base::Fixed)
        .ok_or_else(|| format!("'{s}' is not first-card or a rank (A 2 … 9 T J Q K)"))
}

fn parse_tableau_deal(s: &str) -> Result<TableauDeal, String> {
    match s {
        "1" => Ok(TableauDeal::One),
        "3" => Ok(TableauDeal::ThreeTwoDown),
        _ => Err(format!("'{s}' is not 1 or 3")),
    }
}

fn parse_redeals(s: &str) -> Result<Redeals, String> {
    if s.eq_ignore_ascii_case("unlimited") {
        return Ok(Redeals::Unlimited);
    }
    s.parse::<u8>()
        .map(Redeals::Limited)
        .map_err(|_| format!("'{s}' is not 'unlimited' or a number from 0 to 255"))
}

impl GameArgs {
    pub fn reading(&self) -> Reading {
        match self.reading {
            None | Some(ReadingArg::Standard) => Reading::Standard,
            Some(ReadingArg::Pysolfc) => Reading::Pysolfc,
        }
    }

    /// These options with `over`'s on top: each option `over` gives
    /// replaces this one's (a rule variant over the shared options).
    pub fn overlay(&self, over: &GameArgs) -> GameArgs {
        GameArgs {
            game: over.game,
            reading: over.reading.or(self.reading),
            decks: over.decks.or(self.decks),
            ranks: over.ranks.or(self.ranks),
            base: over.base.or(self.base),
            base_choice: over.base_choice.or(self.base_choice),
            preplaced: over.preplaced.or(self.preplaced),
            worrying_back: over.worrying_back.or(self.worrying_back),
            reserve: over.reserve.or(self.reserve),
            reserve_visibility: over.reserve_visibility.or(self.reserve_visibility),
            piles: over.piles.or(self.piles),
            tableau_deal: over.tableau_deal.or(self.tableau_deal),
            build: over.build.or(self.build),
            tableau_wrap: over.tableau_wrap.or(self.tableau_wrap),
            group_moves: over.group_moves.or(self.group_moves),
            empty: over.empty.or(self.empty),
            stock: over.stock.or(self.stock),
            draw: over.draw.or(self.draw),
            redeals: over.redeals.or(self.redeals),
            deal_when_empty: over.deal_when_empty.or(self.deal_when_empty),
        }
    }

    /// The resolved, validated rule set.
    pub fn rules(&self) -> Result<Rules> {
        let o = RuleOverrides {
            decks: self.decks,
            ranks: self.ranks,
            base: self.base,
            preplaced: self.preplaced.map(Into::into),
            worrying_back: self.worrying_back.map(Into::into),
            reserve: self.reserve,
            reserve_visibility: self.reserve_visibility.map(|v| match v {
                VisibilityArg::Hidden => Visibility::Hidden,
                VisibilityArg::Open => Visibility::Open,
            }),
            piles: self.piles,
            tableau_deal: self.tableau_deal,
            build: self.build.map(|b| match b {
                BuildArg::AlternateColour => Build::AltColour,
                BuildArg::Suit => Build::Suit,
                BuildArg::AnySuit => Build::AnySuit,
            }),
            tableau_wrap: self.tableau_wrap.map(|w| match w {
                WrapArg::Yes => TableauWrap::KingOnAce,
                WrapArg::No => TableauWrap::No,
                WrapArg::Base => TableauWrap::AtBase,
            }),
            group_moves: self.group_moves.map(|g| match g {
                GroupArg::Top => GroupMoves::Top,
                GroupArg::Whole => GroupMoves::Whole,
                GroupArg::Pile => GroupMoves::Pile,
                GroupArg::Any => GroupMoves::Any,
            }),
            empty_space: self.empty.map(|e| match e {
                EmptyArg::ReserveThenAny => EmptySpace::ReserveThenAny,
                EmptyArg::ReserveThenWaste => EmptySpace::ReserveThenWaste,
                EmptyArg::Any => EmptySpace::Any,
            }),
            stock_to_waste: self.stock.map(|s| s == StockArg::ToWaste),
            draw: self.draw,
            redeals: self.redeals,
            deal_only_when_no_empty: self.deal_when_empty.map(|y| y == YesNo::No),
            base_choice: self.base_choice.map(|b| match b {
                BaseChoiceArg::Fixed => BaseChoice::Fixed,
                BaseChoiceArg::Selective => BaseChoice::Selective,
            }),
        };
        Rules::resolve(self.game, self.reading(), &o)
            .with_context(|| format!("invalid rules for {}", self.game))
    }
}

/// Refuses PySolFC game numbers for a game PySolFC does not have, and
/// says when `rules` are not PySolFC's own for the game (its cards for
/// `which`, e.g. "#7" or "games 1..100", laid out under other rules).
pub fn pysolfc_note(g: GameKind, rules: &Rules, which: &str) -> Result<Option<String>> {
    if g.pysolfc_id().is_none() {
        bail!("{} is not in PySolFC, so PySolFC game numbers do not apply to it; use a seed or --file", g.title());
    }
    Ok(match g.preset(Reading::Pysolfc) {
        Ok(p) if &p != rules => Some(format!(
            "note: these are PySolFC's cards for {which}, laid out under the rules shown, which differ from PySolFC's {} (add --rules pysolfc for PySolFC's)",
            g.title()
        )),
        _ => None,
    })
}

/// A deal checked against the rules, and where it came from.
pub struct LoadedDeal {
    pub layout: Layout,
    /// e.g. "seed 7", "PySolFC #1", "file deal.txt".
    pub source: String,
    /// A remark for stderr, e.g. that PySolFC lays this deal out differently.
    pub note: Option<String>,
}

impl DealArgs {
    pub fn load(&self, args: &GameArgs, rules: &Rules) -> Result<LoadedDeal> {
        let g = args.game;
        let (layout, source, note) = if let Some(seed) = self.seed {
            let src = Source::Native(seed);
            (src.layout(rules), src.to_string(), None)
        } else if let Some(n) = self.pysolfc {
            let note = pysolfc_note(g, rules, &format!("#{n}"))?;
            let src = Source::Pysolfc(n);
            (src.layout(rules), src.to_string(), note)
        } else if let Some(path) = &self.file {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read deal file {}", path.display()))?;
            let parsed = parse_any(&text)
                .map_err(|e: FormatError| anyhow::anyhow!(e))
                .with_context(|| format!("in deal file {}", path.display()))?;
            if let Some(name) = &parsed.game {
                match GameKind::from_name(name) {
                    Some(fg) if fg == g => {}
                    Some(fg) => bail!("deal file {} is a {} deal, not {}", path.display(), fg.title(), g.title()),
                    None => bail!("deal file {}: unknown game '{name}' on its game line (known games: {GAMES_HELP})", path.display()),
                }
            }
            (parsed.layout, format!("file {}", path.display()), None)
        } else {
            unreachable!("clap requires one deal source")
        };
        Game::new(rules, &layout)
            .with_context(|| format!("{source} is not a valid {} deal", g.title()))?;
        Ok(LoadedDeal {
            layout,
            source,
            note,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn counts_take_decimal_suffixes() {
        assert_eq!(parse_count("2000000"), Ok(2_000_000));
        assert_eq!(parse_count("2M"), Ok(2_000_000));
        assert_eq!(parse_count("250k"), Ok(250_000));
        assert_eq!(parse_count("1.5G"), Ok(1_500_000_000));
        assert_eq!(parse_count(" 7 "), Ok(7));
        // Decimals that binary floating point would round off.
        assert_eq!(parse_count("4.1M"), Ok(4_100_000));
        assert_eq!(parse_count("8.2M"), Ok(8_200_000));
        assert_eq!(parse_count("16.1K"), Ok(16_100));
        assert_eq!(parse_count("2.01M"), Ok(2_010_000));
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
        for bad in [
            "",
            "M",
            "2x",
            "-1M",
            "1.5",
            "0.0001K",
            "2MB",
            "1e30G",
            ".5M",
            "20000000000G",
        ] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rule_options_reach_the_rules() {
        let cli = Cli::try_parse_from([
            "demon",
            "rules",
            "canfield",
            "--group-moves",
            "any",
            "--redeals",
            "2",
            "--draw",
            "1",
        ])
        .unwrap();
        let Command::Rules { game } = cli.command else {
            panic!()
        };
        let r = game.rules().unwrap();
        assert_eq!(r.group_moves, GroupMoves::Any);
        assert_eq!(
            r.stock,
            demon_core::rules::Stock::ToWaste {
                draw: 1,
                redeals: Redeals::Limited(2)
            }
        );
    }

    #[test]
    fn bad_arguments_are_clear_errors() {
        let e = Cli::try_parse_from(["demon", "deal", "canfeld", "1"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown game 'canfeld'"), "{e}");
        let e = Cli::try_parse_from(["demon", "deal", "canfield", "--pysolfc", "0"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("0 is not a game"), "{e}");
        let e = Cli::try_parse_from(["demon", "deal", "canfield", "--pysolfc", "x1"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a number"), "{e}");
        let e = Cli::try_parse_from(["demon", "deal", "canfield", "1", "--pysolfc", "2"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot be used with"), "{e}");
        let e = Cli::try_parse_from(["demon", "deal", "canfield"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("required"), "{e}");
        let e = Cli::try_parse_from(["demon", "rules", "canfield", "--base", "Z"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("'Z' is not first-card or a rank"), "{e}");
        let e = Cli::try_parse_from(["demon", "solve", "canfield", "1", "--max-memory", "lots"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("'lots' is not a size"), "{e}");
        let e = Cli::try_parse_from(["demon", "solve", "canfield", "1", "--timeout", "0"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a positive number of seconds"), "{e}");
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("2097152"), Ok(2 << 20));
        assert!(parse_size("10").is_err());
        assert!(parse_size("4X").is_err());
    }
}
