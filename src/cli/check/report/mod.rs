//! What `disclose check` found, as one typed model, [`CheckReport`]: a
//! [`Case`] per session, orphan, unusable entry and the vocabulary golden,
//! each with its [`CaseFailure`]s and its renders' index bytes, and the
//! [`CheckTotals`] of the closing line (SPEC §14). A case keeps only what
//! the reports need, never a transcript, so memory stays flat as the corpus
//! grows.
//!
//! One module per format renders it: [`human`] (stdout), [`json`]
//! (`--json`), [`junit`] (`--junit`), [`markdown`] (`--summary`) and
//! [`annotations`] (GitHub's, on stdout before the human report). Every
//! format is built explicitly; none is a derived serialization. This module
//! writes no format, and judges nothing: `check` fills the model.

mod annotations;
#[cfg(test)]
mod fixtures;
mod human;
mod json;
mod junit;
mod markdown;

use std::fmt::Write as _;

use disclose::DORMANT_INDEX_CEILING;

/// What a case is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseKind {
    /// A session under the corpus directory.
    Session,
    /// `golden/vocabulary.txt` against `disclose vocab`.
    Vocabulary,
    /// A golden with no session.
    Orphan,
    /// An entry of the corpus or golden tree that could not be used (a
    /// dangling link, a loop, a link in the golden tree, a FIFO).
    Entry,
}

impl CaseKind {
    fn as_str(self) -> &'static str {
        match self {
            CaseKind::Session => "session",
            CaseKind::Vocabulary => "vocabulary",
            CaseKind::Orphan => "orphan",
            CaseKind::Entry => "entry",
        }
    }
}

/// A case's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CaseStatus {
    /// Everything held.
    Pass,
    /// A golden mismatch, a missing golden, an orphan or a broken invariant.
    Fail,
    /// The session is malformed, or could not be read or written.
    Error,
}

impl CaseStatus {
    fn as_str(self) -> &'static str {
        match self {
            CaseStatus::Pass => "pass",
            CaseStatus::Fail => "fail",
            CaseStatus::Error => "error",
        }
    }
}

/// Why a case did not pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The replay's bytes are not the golden's.
    Mismatch,
    /// The session has no golden.
    NoGolden,
    /// The golden has no session.
    Orphan,
    /// An invariant of SPEC §13 (`I1` … `I8`) did not hold.
    Invariant(&'static str),
    /// The session file name is taken by the vocabulary golden.
    ReservedName,
    /// The session is malformed (SPEC §11).
    Malformed,
    /// A file could not be read, written or deleted.
    Io,
    /// The session's transcript passes the limit of one transcript.
    Limit,
}

impl FailureKind {
    fn as_str(self) -> &'static str {
        match self {
            FailureKind::Mismatch => "mismatch",
            FailureKind::NoGolden => "no_golden",
            FailureKind::Orphan => "orphan",
            FailureKind::Invariant(_) => "invariant",
            FailureKind::ReservedName => "reserved_name",
            FailureKind::Malformed => "malformed",
            FailureKind::Io => "io",
            FailureKind::Limit => "limit",
        }
    }

    /// Whether the bless command should follow it: blessing resolves it,
    /// and its message does not already say how (a missing golden's does).
    pub fn wants_bless_command(self) -> bool {
        matches!(self, FailureKind::Mismatch | FailureKind::Orphan)
    }

    fn status(self) -> CaseStatus {
        match self {
            FailureKind::Malformed | FailureKind::Io | FailureKind::Limit => CaseStatus::Error,
            _ => CaseStatus::Fail,
        }
    }
}

/// One reason a case did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseFailure {
    /// What kind.
    pub kind: FailureKind,
    /// The op's line in the session, when it concerns one op.
    pub line: Option<usize>,
    /// The byte column of a malformed session's error.
    pub column: Option<usize>,
    /// The op's name, when known.
    pub op: Option<String>,
    /// A plain message (for a malformed session, `path:line:column: message`).
    pub message: String,
    /// A unified diff with invisible bytes made visible (mismatches only).
    pub diff: Option<String>,
}

impl CaseFailure {
    /// A failure of the whole case: about no one op, without a diff.
    pub fn about_the_case(kind: FailureKind, message: String) -> CaseFailure {
        CaseFailure {
            kind,
            line: None,
            column: None,
            op: None,
            message,
            diff: None,
        }
    }
}

/// One render's dormant index: its bytes and what is left under the ceiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderCost {
    /// The `render` op's line.
    pub line: usize,
    /// Bytes of the dormant index (header, lines and marker; 0 when none).
    pub index_bytes: usize,
}

impl RenderCost {
    /// Bytes left under [`DORMANT_INDEX_CEILING`].
    pub fn headroom(&self) -> usize {
        DORMANT_INDEX_CEILING.saturating_sub(self.index_bytes)
    }
}

/// One case's result.
#[derive(Clone, Debug)]
pub struct Case {
    /// The stable name: the relative path without extension, or `vocabulary`.
    pub name: String,
    /// The file it is about (the session, or the golden for the others).
    pub path: String,
    /// What it is.
    pub kind: CaseKind,
    /// Everything that did not hold, in the order found.
    pub failures: Vec<CaseFailure>,
    /// Each `render` of a session.
    pub renders: Vec<RenderCost>,
    /// What blessing wrote, when it wrote something (`wrote golden/x.txt`).
    pub blessed: Option<String>,
}

impl Case {
    /// A case with nothing found yet.
    pub fn new(kind: CaseKind, name: impl Into<String>, path: impl Into<String>) -> Case {
        Case {
            name: name.into(),
            path: path.into(),
            kind,
            failures: Vec::new(),
            renders: Vec::new(),
            blessed: None,
        }
    }

    /// Error when anything errs, fail when anything fails, else pass.
    pub fn status(&self) -> CaseStatus {
        self.failures
            .iter()
            .map(|f| f.kind.status())
            .max()
            .unwrap_or(CaseStatus::Pass)
    }

    fn tightest(&self) -> Option<&RenderCost> {
        self.renders.iter().min_by_key(|r| (r.headroom(), r.line))
    }
}

/// Counts for the closing line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckTotals {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases in error (malformed, or unreadable).
    pub errors: usize,
}

impl CheckTotals {
    /// Counts `cases`.
    pub fn of(cases: &[Case]) -> CheckTotals {
        let mut totals = CheckTotals::default();
        for case in cases {
            match case.status() {
                CaseStatus::Pass => totals.passed += 1,
                CaseStatus::Fail => totals.failed += 1,
                CaseStatus::Error => totals.errors += 1,
            }
        }
        totals
    }

    /// `N passed, N failed` and `, N errors` when there are any (SPEC §14).
    pub fn closing_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.errors > 0 {
            let _ = write!(line, ", {} errors", self.errors);
        }
        line
    }
}

/// Everything one `check` run found.
pub struct CheckReport {
    /// Sessions (by path), then orphans (by path), then the vocabulary.
    pub cases: Vec<Case>,
    /// Orphan goldens deleted by blessing.
    pub deleted: Vec<String>,
    /// `*.txt` files in the golden tree with no session that are not
    /// transcripts: never orphans, never deleted.
    pub kept: Vec<String>,
    /// The command that blesses this corpus.
    pub bless_command: String,
    /// The corpus directory, as given.
    pub corpus: String,
    /// The golden directory, as given.
    pub golden: String,
    /// `hash:K/N`, when partitioned.
    pub partition: Option<String>,
}

impl CheckReport {
    /// The cases that did not pass, in report order.
    fn failing(&self) -> Vec<&Case> {
        self.cases
            .iter()
            .filter(|c| c.status() != CaseStatus::Pass)
            .collect()
    }

    /// The counts.
    pub fn totals(&self) -> CheckTotals {
        CheckTotals::of(&self.cases)
    }
}

/// `line 7 (describe): message` (`I3 line 7 …` for an invariant), or just
/// the message when it is not about one op or already says where.
fn where_and_what(failure: &CaseFailure) -> String {
    let prefix = match failure.kind {
        FailureKind::Invariant(id) => format!("{id} "),
        FailureKind::Malformed => return failure.message.clone(),
        _ => String::new(),
    };
    match (failure.line, &failure.op) {
        (Some(line), Some(op)) => format!("{prefix}line {line} ({op}): {}", failure.message),
        (Some(line), None) => format!("{prefix}line {line}: {}", failure.message),
        _ => format!("{prefix}{}", failure.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_line_names_errors_only_when_there_are_some() {
        let mut totals = CheckTotals {
            passed: 3,
            failed: 1,
            errors: 0,
        };
        assert_eq!(totals.closing_line(), "3 passed, 1 failed");
        totals.errors = 2;
        assert_eq!(totals.closing_line(), "3 passed, 1 failed, 2 errors");
    }
}
