//! Checkpoint files: a search saved to a file when a limit or an
//! interruption stops it, and continued from the file by the same command
//! (see [`crate::solve_resumable`] for what is saved and why the verdict
//! stays exact).
//!
//! A file starts with a header naming what it belongs to (demon's version,
//! the search version, the rules, the search settings, the deal), which a
//! resumed search must match line by line. It is written to `FILE.tmp`,
//! synced, then renamed over `FILE`, so a crash while saving leaves the
//! previous file whole. Used by `demon solve --checkpoint` and by `demon
//! batch --checkpoint-dir`.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use demon_core::{Layout, Rules};

use crate::search::{solve_saving, Limit, Limits, Options, Outcome, SolveError};

/// What a checkpoint of this search belongs to: `game` is the game's
/// command-line name (it names the deal's text).
pub fn header(rules: &Rules, layout: &Layout, game: &str, options: &Options) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    // The layered search saves its own way, in a directory.
    let (what, version) = if options.layered {
        (" layered", LAYERED_SEARCH_VERSION)
    } else {
        ("", crate::search::CHECKPOINT_SEARCH_VERSION)
    };
    format!(
        "demon checkpoint 1, demon {}, search{what} {version}\nrules: {}\nsearch: tableau-classes={} deadlock={}\n{}",
        env!("CARGO_PKG_VERSION"),
        rules.signature(),
        on(options.tableau_classes),
        on(options.deadlock),
        demon_core::format::to_text(layout, game, "the deal")
    )
}

/// The version of the layered search's saves
/// ([`crate::layered::solve_layered_saving`]): raised when a change of its
/// levels, moves or files makes an older save wrong to continue.
pub const LAYERED_SEARCH_VERSION: u32 = 5;

/// What became of the file after a search ([`run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAfter {
    /// The search was saved in it.
    Saved,
    /// It held a saved search, now finished with (decided, or stopped
    /// by a limit the caller does not save at), and was removed.
    Removed,
    /// The search was not saved where it stopped, and the last save was
    /// kept: continued, the search goes on from there. (The layered
    /// search, at its memory limit as it rebuilt its table on resuming,
    /// or when a limit stopped its second search for the line of a win
    /// met without a log: [`crate::layered::solve_layered_saving`]; or a
    /// limit the caller does not save at.)
    Kept,
    /// There was none, and none was written.
    None,
}

fn err(what: String) -> SolveError {
    SolveError::Checkpoint(what)
}

/// Opens checkpoint `path` to resume from it, after its header: `None`
/// when there is no such file.
pub fn open(path: &Path, header: &str) -> Result<Option<BufReader<File>>, SolveError> {
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(format!("cannot open {}: {e}", path.display()))),
    };
    let short = |e: std::io::Error| err(format!("{} is cut short: {e}", path.display()));
    let mut r = BufReader::new(f);
    let mut len = [0u8; 8];
    r.read_exact(&mut len).map_err(short)?;
    let len = u64::from_le_bytes(len);
    if len > 1 << 20 {
        return Err(err(format!("{} is not a demon checkpoint", path.display())));
    }
    let mut saved = vec![0u8; len as usize];
    r.read_exact(&mut saved).map_err(short)?;
    let saved = String::from_utf8_lossy(&saved);
    if saved != header {
        let (a, b) = saved
            .lines()
            .zip(header.lines())
            .find(|(a, b)| a != b)
            .unwrap_or((saved.lines().last().unwrap_or(""), ""));
        return Err(err(format!(
            "{} belongs to another search:\n  it has:    {a}\n  this one: {b}\n(remove it, or give the command it was made with)",
            path.display()
        )));
    }
    Ok(Some(r))
}

/// Creates the file only when the search saves (writing the header
/// first), so a search that ends otherwise writes nothing.
struct Lazy<'a> {
    tmp: &'a Path,
    header: &'a str,
    w: Option<BufWriter<File>>,
}

impl Write for Lazy<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.w.is_none() {
            let mut w = BufWriter::new(File::create(self.tmp)?);
            w.write_all(&(self.header.len() as u64).to_le_bytes())?;
            w.write_all(self.header.as_bytes())?;
            self.w = Some(w);
        }
        self.w.as_mut().expect("created").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.w.as_mut().map_or(Ok(()), |w| w.flush())
    }
}

/// Runs the search from `resume` (the file as [`open`] left it, if any),
/// and saves it in `path` when it stops at a limit `save_at` accepts; when
/// the search ends otherwise, a file at `path` is removed.
#[allow(clippy::too_many_arguments)]
pub fn run(
    rules: &Rules,
    layout: &Layout,
    limits: &Limits,
    options: &Options,
    path: &Path,
    header: &str,
    resume: Option<BufReader<File>>,
    save_at: &dyn Fn(&Limit) -> bool,
) -> Result<(Outcome, FileAfter), SolveError> {
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(".tmp");
    let tmp = PathBuf::from(tmp_name);
    let write = |e: std::io::Error| err(format!("cannot write {}: {e}", tmp.display()));
    let mut resume = resume;
    let mut lazy = Lazy {
        tmp: &tmp,
        header,
        w: None,
    };
    let out = solve_saving(
        rules,
        layout,
        limits,
        options,
        resume.as_mut().map(|r| r as &mut dyn Read),
        Some(&mut lazy),
        save_at,
    );
    drop(resume);
    let Some(mut w) = lazy.w else {
        let o = out?;
        if path.exists() {
            std::fs::remove_file(path)
                .map_err(|e| err(format!("cannot remove {}: {e}", path.display())))?;
            return Ok((o, FileAfter::Removed));
        }
        return Ok((o, FileAfter::None));
    };
    let saved = out.and_then(|o| {
        w.flush().map_err(write)?;
        // On the disk before it replaces the old file.
        w.get_ref().sync_all().map_err(write)?;
        Ok(o)
    });
    drop(w);
    match saved {
        Ok(o) => {
            std::fs::rename(&tmp, path)
                .map_err(|e| err(format!("cannot write {}: {e}", path.display())))?;
            Ok((o, FileAfter::Saved))
        }
        Err(e) => {
            std::fs::remove_file(&tmp).ok();
            Err(e)
        }
    }
}
