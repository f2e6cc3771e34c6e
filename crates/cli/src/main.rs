//! The `demon` command: parses arguments, runs one subcommand, prints the
//! error chain and picks the exit code. All the work is in `demon-core`.

mod args;
mod batch;
mod solve;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;
use demon_core::format::{to_json, to_solvitaire, to_text};
use demon_core::GameKind;

use args::{Cli, Command, DealFormat};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (e.g. `demon deal … | head`) is not an error.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e}");
            for cause in e.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        Command::Games => {
            writeln!(
                out,
                "{:<21} {:<22} {:>7}  summary",
                "name", "game", "PySolFC"
            )?;
            for g in GameKind::ALL {
                let r = g.preset(demon_core::Reading::Standard)?;
                let id = g
                    .pysolfc_id()
                    .map(|i| i.to_string())
                    .unwrap_or_else(|| "-".into());
                let summary = format!(
                    "{} deck{}, {} piles, reserve {}, {}",
                    r.decks,
                    if r.decks == 1 { "" } else { "s" },
                    r.piles,
                    r.reserve,
                    r.options()
                        .iter()
                        .find(|(k, _)| *k == "stock")
                        .map(|(_, v)| v.as_str())
                        .unwrap_or("")
                );
                writeln!(
                    out,
                    "{:<21} {:<22} {:>7}  {}",
                    g.name(),
                    g.title(),
                    id,
                    summary
                )?;
            }
        }
        Command::Rules { game } => {
            let rules = game.rules()?;
            let reading = match game.reading() {
                demon_core::Reading::Standard => "standard rules",
                demon_core::Reading::Pysolfc => "PySolFC's rules",
            };
            writeln!(
                out,
                "{} ({reading}, with the options given)",
                game.game.title()
            )?;
            writeln!(out)?;
            for line in rules.describe() {
                writeln!(out, "  {line}")?;
            }
            writeln!(out)?;
            writeln!(out, "Options:")?;
            for (k, v) in rules.options() {
                writeln!(out, "  --{k:<20} {v}")?;
            }
        }
        Command::Solve {
            game,
            deal,
            limits,
            format,
            show_positions,
            checkpoint,
            log_every,
        } => {
            let rules = game.rules()?;
            let d = deal.load(&game, &rules)?;
            if let Some(n) = &d.note {
                eprintln!("{n}");
            }
            let title = format!("{}, {}", game.game.title(), d.source);
            let code = solve::run(
                &mut out,
                &rules,
                &d.layout,
                &title,
                &limits,
                format,
                show_positions,
                checkpoint.as_deref().map(|p| (p, game.game.name())),
                solve::Log::every(log_every),
            )?;
            out.flush()?;
            return Ok(code);
        }
        Command::Batch {
            game,
            run,
            limits,
            csv,
            resume,
            retry_unknown,
            checkpoint_dir,
            keep_unknown,
        } => {
            let mut r = batch::RunArgs::new(&run, &limits, retry_unknown.as_deref())?;
            r.checkpoints = checkpoint_dir;
            r.keep_unknown = keep_unknown;
            let code = batch::batch(&mut out, &game, &r, csv.as_deref(), resume)?;
            out.flush()?;
            return Ok(code);
        }
        Command::Compare {
            game,
            variants,
            run,
            limits,
            csv,
            resume,
        } => {
            let vs = variants
                .iter()
                .map(|v| batch::parse_variant(&game, v))
                .collect::<Result<Vec<_>>>()?;
            let r = batch::RunArgs::new(&run, &limits, None)?;
            let code = batch::compare(&mut out, &vs, &r, csv.as_deref(), resume)?;
            out.flush()?;
            return Ok(code);
        }
        Command::Merge {
            files,
            retried,
            csv,
            format,
        } => {
            let code = batch::merge(&mut out, &files, &retried, csv.as_deref(), format)?;
            out.flush()?;
            return Ok(code);
        }
        Command::Deal { game, deal, format } => {
            let rules = game.rules()?;
            let d = deal.load(&game, &rules)?;
            if let Some(n) = &d.note {
                eprintln!("{n}");
            }
            let title = format!("{}, {}", game.game.title(), d.source);
            let text = match format {
                DealFormat::Text => to_text(&d.layout, game.game.name(), &title),
                DealFormat::Json => to_json(&d.layout, game.game.name(), &d.source),
                DealFormat::Solvitaire => to_solvitaire(&d.layout, &rules)?,
            };
            out.write_all(text.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
