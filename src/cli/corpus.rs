//! Finding sessions and their goldens on disk, and reading them.
//!
//! Sessions are `**/*.jsonl` under the corpus directory, sorted by path so
//! every report lists them in the same order; `corpora/a/b.jsonl` ↔
//! `golden/a/b.txt` (SPEC §12).

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use disclose::session::{self, Session, SessionError};
use walkdir::WalkDir;

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

    /// Where its golden lives under `golden_dir`.
    pub fn golden(&self, golden_dir: &Path) -> PathBuf {
        golden_dir.join(format!("{}.txt", self.name()))
    }
}

/// Every `*.jsonl` under `dir`, sorted by relative path. A missing
/// directory, or one that cannot be walked, is an I/O error.
pub fn discover(dir: &Path) -> Result<Vec<SessionFile>> {
    if !dir.is_dir() {
        bail!(
            "corpus directory \"{}\" does not exist or is not a directory",
            dir.display()
        );
    }
    let mut files = Vec::new();
    for entry in WalkDir::new(dir).follow_links(true) {
        let entry = entry.with_context(|| format!("failed to walk \"{}\"", dir.display()))?;
        let path = entry.path();
        if entry.file_type().is_file() && path.extension().is_some_and(|e| e == "jsonl") {
            files.push(SessionFile {
                rel: relative(dir, path),
                path: path.to_path_buf(),
            });
        }
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(files)
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

/// Reads and parses one session file.
pub fn load(path: &Path) -> Result<Loaded> {
    let bytes =
        std::fs::read(path).with_context(|| format!("failed to read \"{}\"", path.display()))?;
    Ok(match session::parse(&bytes) {
        Ok(session) => Loaded::Session(session),
        Err(error) => Loaded::Malformed(Malformed {
            path: path.to_path_buf(),
            error,
        }),
    })
}
