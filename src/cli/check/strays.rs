//! What the golden tree holds besides the goldens of this corpus's
//! sessions — orphan transcripts, other `*.txt` kept as they are, links and
//! entries that cannot be walked — found in one walk that never follows a
//! link; and the vocabulary golden against `disclose vocab` (SPEC §9). It
//! replays nothing: [`super::session`] does.

use std::collections::BTreeSet;

use disclose_replay::golden;
use walkdir::WalkDir;

use super::report::{Case, CaseFailure, CaseKind, FailureKind};
use super::session::bless;
use super::{Config, Goldens, VOCABULARY, file_failure, no_golden};
use crate::cli::corpus;
use crate::cli::files::{self, FileError, walk_error_text};

/// What the golden tree holds besides the goldens of this corpus's sessions.
#[derive(Default)]
pub(super) struct Strays {
    /// Transcripts (first line `disclose transcript 1`) with no session, in
    /// this share, by relative path.
    pub(super) orphans: Vec<String>,
    /// Other `*.txt` with no session: not goldens, never deleted, as shown.
    pub(super) kept: Vec<String>,
    /// Links in the tree and entries that could not be walked, one error
    /// each (a link that is a session's own golden is that session's error).
    pub(super) entries: Vec<Case>,
}

/// Walks the golden tree once, never following a link.
pub(super) fn strays(config: &Config, names: &BTreeSet<&str>) -> Strays {
    let mut strays = Strays::default();
    if !config.golden.is_dir() {
        return strays;
    }
    let root = config.tree.root();
    let first = config.first_share();
    for entry in WalkDir::new(root).follow_links(false).sort_by_file_name() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                if first && let Some(path) = error.path() {
                    let rel = corpus::relative(root, path);
                    let why = walk_error_text(&error);
                    strays.entries.push(entry_case(
                        rel.clone(),
                        config.tree.shown(&rel).display().to_string(),
                        why,
                    ));
                }
                continue;
            }
        };
        if entry.depth() == 0 {
            continue;
        }
        let rel = corpus::relative(root, entry.path());
        let name = rel.strip_suffix(".txt");
        if entry.path_is_symlink() {
            if first && !name.is_some_and(|n| names.contains(n)) {
                let shown = config.tree.shown(&rel);
                let why = FileError::Link(shown.clone()).to_string();
                strays
                    .entries
                    .push(entry_case(rel, shown.display().to_string(), why));
            }
            continue;
        }
        let Some(name) = name else { continue };
        if entry.file_type().is_dir() || name == VOCABULARY || names.contains(name) {
            continue;
        }
        if files::is_transcript(entry.path()) {
            if config.holds(name) {
                strays.orphans.push(rel);
            }
        } else if first {
            strays
                .kept
                .push(config.tree.shown(&rel).display().to_string());
        }
    }
    strays
}

/// An orphan's case, or `None` when blessing deleted it.
pub(super) fn orphan_case(config: &Config, rel: &str) -> Option<Case> {
    let name = rel.strip_suffix(".txt").unwrap_or(rel);
    let path = config.tree.shown(rel);
    let mut case = Case::new(CaseKind::Orphan, name, path.display().to_string());
    match config.goldens {
        Goldens::Bless => match config.tree.remove(rel) {
            Ok(()) => return None,
            Err(e) => case.failures.push(file_failure("delete", &path, &e)),
        },
        Goldens::Compare => case.failures.push(CaseFailure::about_the_case(
            FailureKind::Orphan,
            format!(
                "no session \"{}\" has this golden; blessing deletes it",
                config.dir.join(format!("{name}.jsonl")).display()
            ),
        )),
    }
    Some(case)
}

/// An entry of the corpus or golden tree that could not be used.
pub(super) fn entry_case(name: String, path: String, why: String) -> Case {
    let message = format!("\"{path}\": {why}");
    let mut case = Case::new(CaseKind::Entry, name, path);
    case.failures
        .push(CaseFailure::about_the_case(FailureKind::Io, message));
    case
}

/// `golden/vocabulary.txt` against `disclose vocab` (SPEC §9).
pub(super) fn vocabulary_case(config: &Config) -> Case {
    let rel = format!("{VOCABULARY}.txt");
    let path = config.tree.shown(&rel);
    let mut case = Case::new(CaseKind::Vocabulary, VOCABULARY, path.display().to_string());
    let actual = disclose::vocabulary_text();
    match config.goldens {
        Goldens::Bless => bless(config, &mut case, &rel, actual.as_bytes()),
        Goldens::Compare => match config.tree.read(&rel) {
            Ok(expected) => {
                if let Some(mismatch) = golden::compare_bytes(&expected, actual.as_bytes()) {
                    case.failures.push(CaseFailure {
                        kind: FailureKind::Mismatch,
                        line: None,
                        column: None,
                        op: None,
                        message: format!("`disclose vocab` differs from \"{}\"", path.display()),
                        diff: Some(mismatch.diff),
                    });
                }
            }
            Err(FileError::Missing) => case.failures.push(no_golden(config, &path)),
            Err(e) => case.failures.push(file_failure("read", &path, &e)),
        },
    }
    case
}
