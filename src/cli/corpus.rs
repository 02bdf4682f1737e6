//! Finding sessions and their goldens on disk, and reading them.
//!
//! Sessions are `**/*.jsonl` under the corpus directory, sorted by path so
//! every report lists them in the same order; `corpora/a/b.jsonl` ↔
//! `golden/a/b.txt` (SPEC §12).

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use disclose_replay::session::{self, Session, SessionError};
use walkdir::WalkDir;

use super::files::{FileError, io_text, kind_of, read_regular, walk_error_text};

/// A session file: where it is, and its path relative to the corpus root.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SessionFile {
    /// The file's path as found.
    pub path: PathBuf,
    /// Relative to the corpus root, `/`-separated, with `.jsonl`.
    pub rel: String,
}

impl SessionFile {
    /// The relative path without `.jsonl`: the session's stable name.
    pub fn name(&self) -> &str {
        self.rel.strip_suffix(".jsonl").unwrap_or(&self.rel)
    }

    /// Its golden's path relative to the golden tree, with `.txt`.
    pub fn golden_rel(&self) -> String {
        format!("{}.txt", self.name())
    }
}

/// What a walk of the corpus found: the sessions, and every entry that
/// looked like one (or could hide some) but could not be used.
#[derive(Debug, Default)]
pub struct Corpus {
    /// Every readable `*.jsonl`, sorted by relative path.
    pub files: Vec<SessionFile>,
    /// Entries that could not be used, sorted by relative path: each is
    /// one error against its path, and the rest still run.
    pub unreadable: Vec<Unreadable>,
}

/// A corpus entry that could not be used: a dangling link or a link loop,
/// a directory that cannot be listed, or a `*.jsonl` that is not a regular
/// file (a FIFO, a device, a socket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The entry's path, as found.
    pub path: PathBuf,
    /// Relative to the corpus root, `/`-separated.
    pub rel: String,
    /// Why, in words, after the path.
    pub why: String,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\": {}", self.path.display(), self.why)
    }
}

/// Every `*.jsonl` under `dir`, sorted by relative path, following links
/// (a corpus is only read). A missing root is an I/O error; an entry below
/// it that cannot be used is listed in [`Corpus::unreadable`] and the walk
/// goes on.
pub fn discover(dir: &Path) -> Result<Corpus> {
    if !dir.is_dir() {
        bail!(
            "corpus directory \"{}\" does not exist or is not a directory",
            dir.display()
        );
    }
    let mut corpus = Corpus::default();
    for entry in WalkDir::new(dir).follow_links(true) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                if let Some(unreadable) = unreadable(dir, &error) {
                    corpus.unreadable.push(unreadable);
                }
                continue;
            }
        };
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "jsonl") || entry.file_type().is_dir() {
            continue;
        }
        let rel = relative(dir, path);
        if entry.file_type().is_file() {
            corpus.files.push(SessionFile {
                rel,
                path: path.to_path_buf(),
            });
        } else {
            let why = std::fs::metadata(path).map_or_else(
                |e| io_text(&e),
                |meta| FileError::NotRegular(kind_of(&meta).unwrap_or("not a file")).to_string(),
            );
            corpus.unreadable.push(Unreadable {
                path: path.to_path_buf(),
                rel,
                why,
            });
        }
    }
    corpus.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    corpus.unreadable.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(corpus)
}

/// A walk error worth reporting: a link loop, a directory that cannot be
/// listed, or a dangling or unreadable entry named like a session. A
/// dangling link named anything else cannot be a session and is skipped.
fn unreadable(root: &Path, error: &walkdir::Error) -> Option<Unreadable> {
    let path = error.path()?.to_path_buf();
    let why = walk_error_text(error);
    let session_like = path.extension().is_some_and(|e| e == "jsonl");
    let directory = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
    (session_like || directory || error.loop_ancestor().is_some()).then(|| Unreadable {
        rel: relative(root, &path),
        path,
        why,
    })
}

/// `path` relative to `root`, with `/` separators on every platform.
pub fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// A session that could not be parsed: `path:line:column: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The session's path, as given.
    pub path: PathBuf,
    /// Where and why.
    pub error: SessionError,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path.display(), self.error)
    }
}

/// Reading a session: an I/O error (exit 2) is kept apart from a malformed
/// session (exit 1).
pub enum Loaded {
    /// Parsed.
    Session(Session),
    /// Read, but not a well-formed session.
    Malformed(Malformed),
}

/// Reads and parses one session file: a regular file (links followed), of
/// any size (its replay costs what its ops cost).
pub fn load(path: &Path) -> Result<Loaded> {
    let bytes = read_regular(path, u64::MAX, "a session")
        .map_err(|e| anyhow!("failed to read \"{}\": {e}", path.display()))?;
    Ok(match session::parse(&bytes) {
        Ok(session) => Loaded::Session(session),
        Err(error) => Loaded::Malformed(Malformed {
            path: path.to_path_buf(),
            error,
        }),
    })
}
