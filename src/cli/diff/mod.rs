//! `disclose diff OLD NEW`: two transcript trees (or two transcripts) in,
//! per session added, removed, unchanged or changed out, with what a change
//! costs (SPEC §14–§15).
//!
//! Fast on large trees by construction: both trees are walked once and
//! merge-joined by relative path, each pair's raw bytes are compared first
//! (in parallel), and only a pair whose bytes differ is decoded
//! ([`session`]). The three reports live in [`report`]. This module does not
//! replay sessions: it reads transcripts as written.

mod report;
mod session;

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use rayon::prelude::*;
use walkdir::WalkDir;

use super::corpus::relative;
use super::files::{
    FileError, GOLDEN_MAX_BYTES, kind_of, read_regular, starts_as_transcript, walk_error_text,
};
use super::{Exit, emit};
use session::Change;

/// `disclose diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The old transcript tree (e.g. `golden/`), or one transcript file.
    pub old: PathBuf,
    /// The new transcript tree (e.g. from `disclose replay corpora --out`),
    /// or one transcript file.
    pub new: PathBuf,
    /// Print the report as JSON.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the report as Markdown (for a pull-request comment).
    #[arg(long)]
    pub markdown: bool,
}

/// One session's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffStatus {
    /// Same bytes.
    Unchanged,
    /// Only in NEW.
    Added,
    /// Only in OLD.
    Removed,
    /// Only in one tree, and not a transcript (`vocabulary.txt` beside
    /// goldens, which `replay --out` does not write): shown, not a difference.
    Unpaired {
        /// `OLD` or `NEW`.
        side: &'static str,
    },
    /// Different bytes.
    Changed(Box<Change>),
}

/// A session (a relative path) and its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffEntry {
    /// `/`-separated, relative to the tree root, with `.txt`.
    pub name: String,
    /// What happened to it.
    pub status: DiffStatus,
}

/// Runs `disclose diff`. An entry that cannot be read (a dangling link, a
/// loop, a FIFO, a transcript past the golden limit) is one error on stderr:
/// the rest are still compared and reported, and the exit is 2.
pub fn run(args: &DiffArgs) -> Result<Exit> {
    let Compared { entries, errors } = compare_paths(&args.old, &args.new)?;
    let text = if args.json {
        report::json(&args.old, &args.new, &entries)
    } else if args.markdown {
        report::markdown(&entries)
    } else {
        report::human(&entries)
    };
    emit(&text)?;
    for error in &errors {
        eprintln!("disclose: {error}");
    }
    let same = entries.iter().all(|e| {
        matches!(
            e.status,
            DiffStatus::Unchanged | DiffStatus::Unpaired { .. }
        )
    });
    Ok(if !errors.is_empty() {
        Exit::Usage
    } else if same {
        Exit::Pass
    } else {
        Exit::Fail
    })
}

/// The verdicts, and every entry that could not be read (`"path": why`).
#[derive(Default)]
struct Compared {
    entries: Vec<DiffEntry>,
    errors: Vec<String>,
}

fn compare_paths(old: &Path, new: &Path) -> Result<Compared> {
    for (side, path) in [("OLD", old), ("NEW", new)] {
        if !path.exists() {
            bail!("{side} \"{}\" does not exist", path.display());
        }
    }
    match (old.is_dir(), new.is_dir()) {
        (true, true) => Ok(compare_trees(old, new)),
        (false, false) => {
            let name = new.display().to_string();
            let status = compare_files(old, new).map_err(anyhow::Error::msg)?;
            Ok(Compared {
                entries: vec![DiffEntry { name, status }],
                errors: Vec::new(),
            })
        }
        _ => bail!(
            "\"{}\" and \"{}\" are not both directories or both files",
            old.display(),
            new.display()
        ),
    }
}

/// Every `*.txt` under `dir`, by relative path (links followed: a tree is
/// only read), and the entries that could not be walked.
fn transcripts(dir: &Path, errors: &mut Vec<String>) -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for entry in WalkDir::new(dir).follow_links(true) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                let path = error.path().unwrap_or(dir);
                errors.push(format!(
                    "\"{}\": {}",
                    path.display(),
                    walk_error_text(&error)
                ));
                continue;
            }
        };
        let path = entry.path();
        if !entry.file_type().is_dir() && path.extension().is_some_and(|e| e == "txt") {
            files.push((relative(dir, path), path.to_path_buf()));
        }
    }
    files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    files
}

/// Both trees merge-joined by relative path; only pairs are read.
fn compare_trees(old: &Path, new: &Path) -> Compared {
    let mut errors = Vec::new();
    let (old, new) = (transcripts(old, &mut errors), transcripts(new, &mut errors));
    let mut pairs: Vec<(String, Option<PathBuf>, Option<PathBuf>)> = Vec::new();
    let (mut a, mut b) = (old.into_iter().peekable(), new.into_iter().peekable());
    loop {
        let order = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(x), Some(y)) => x.0.cmp(&y.0),
        };
        match order {
            Ordering::Less => {
                if let Some((name, path)) = a.next() {
                    pairs.push((name, Some(path), None));
                }
            }
            Ordering::Greater => {
                if let Some((name, path)) = b.next() {
                    pairs.push((name, None, Some(path)));
                }
            }
            Ordering::Equal => {
                if let (Some((name, x)), Some((_, y))) = (a.next(), b.next()) {
                    pairs.push((name, Some(x), Some(y)));
                }
            }
        }
    }
    let verdicts: Vec<Result<DiffEntry, String>> = pairs
        .into_par_iter()
        .map(|(name, old, new)| {
            let status = match (old, new) {
                (Some(old), Some(new)) => compare_files(&old, &new)?,
                (Some(old), None) => one_sided(&old, DiffStatus::Removed, "OLD")?,
                (None, Some(new)) => one_sided(&new, DiffStatus::Added, "NEW")?,
                (None, None) => DiffStatus::Unchanged,
            };
            Ok(DiffEntry { name, status })
        })
        .collect();
    let mut compared = Compared {
        entries: Vec::with_capacity(verdicts.len()),
        errors,
    };
    for verdict in verdicts {
        match verdict {
            Ok(entry) => compared.entries.push(entry),
            Err(error) => compared.errors.push(error),
        }
    }
    compared
}

/// A file in one tree only is added or removed when it is a transcript
/// (read up to the magic line only), and unpaired otherwise.
fn one_sided(path: &Path, status: DiffStatus, side: &'static str) -> Result<DiffStatus, String> {
    if let Some(kind) = std::fs::metadata(path).ok().as_ref().and_then(kind_of) {
        return Err(format!(
            "\"{}\": {}",
            path.display(),
            FileError::NotRegular(kind)
        ));
    }
    Ok(if starts_as_transcript(path) {
        status
    } else {
        DiffStatus::Unpaired { side }
    })
}

/// Bytes first; decoded only when they differ. Each side is a regular file
/// of at most the golden limit.
fn compare_files(old: &Path, new: &Path) -> Result<DiffStatus, String> {
    let read = |path: &Path| {
        read_regular(path, GOLDEN_MAX_BYTES, "a transcript")
            .map_err(|e| format!("\"{}\": {e}", path.display()))
    };
    let (a, b) = (read(old)?, read(new)?);
    Ok(if a == b {
        DiffStatus::Unchanged
    } else {
        DiffStatus::Changed(Box::new(session::compare(&a, &b)))
    })
}
