//! What `check --impl` found, as one typed model, [`MatrixReport`]: the
//! cases in corpus order, one [`ImplRun`] per implementation, and what every
//! format reads from them — each cell's [`CellVerdict`] (its outcome read
//! against that implementation's expectations), the [`MatrixTotals`], the
//! worst-first order, and each cell told in full. Lowercase cell words
//! (`pass`, `expected`) keep the run green; uppercase ones fail it.
//!
//! One module per format renders it: [`human`] (the matrix on stdout),
//! [`markdown`] (`--summary`/`--markdown`, for `$GITHUB_STEP_SUMMARY`),
//! [`json`] (`--json`: stable case and implementation ids, no sequence
//! numbers or timings, so two reports diff) and [`junit`] (`--junit`: one
//! testsuite per implementation), and [`annotations`] (GitHub's, on stdout
//! before the matrix). This module writes no format, and runs nothing: the
//! runner fills the model.

mod annotations;
#[cfg(test)]
mod fixtures;
mod human;
mod json;
mod junit;
mod markdown;

use std::fmt::Write as _;

use disclose_replay::golden::visible;
use serde_json::json;

use super::expect::{ExpectKind, Expectation};
use super::runner::process::Offending;
use super::runner::{CaseOutcome, ImplRun};

/// Offending bytes are shown up to this many bytes.
const SHOWN_MAX: usize = 2000;

/// A cell's verdict, worst last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CellVerdict {
    /// Passed, as nothing said otherwise.
    Pass,
    /// Failed or skipped, as `--expect` says.
    Expected,
    /// Skipped without an expectation.
    Skip,
    /// Passed, though `--expect` says it fails or skips.
    UnexpectedPass,
    /// The transcript differs from the golden.
    Fail,
    /// Not judged: the implementation erred, broke the protocol or was not
    /// run, or the corpus could not give it the case.
    Errored,
}

impl CellVerdict {
    /// The word in a cell.
    pub fn word(self) -> &'static str {
        match self {
            CellVerdict::Pass => "pass",
            CellVerdict::Expected => "expected",
            CellVerdict::Skip => "SKIP",
            CellVerdict::UnexpectedPass => "XPASS",
            CellVerdict::Fail => "FAIL",
            CellVerdict::Errored => "ERRORED",
        }
    }

    /// The JSON state.
    pub fn state(self) -> &'static str {
        match self {
            CellVerdict::Pass => "pass",
            CellVerdict::Expected => "expected",
            CellVerdict::Skip => "skip",
            CellVerdict::UnexpectedPass => "unexpected_pass",
            CellVerdict::Fail => "fail",
            CellVerdict::Errored => "errored",
        }
    }

    /// Whether the run stays green.
    pub fn is_ok(self) -> bool {
        matches!(self, CellVerdict::Pass | CellVerdict::Expected)
    }
}

/// `outcome` read against an expectation.
pub fn verdict(outcome: &CaseOutcome, expected: Option<&Expectation>) -> CellVerdict {
    match (outcome, expected.map(|e| e.expect)) {
        (CaseOutcome::Pass, None) => CellVerdict::Pass,
        (CaseOutcome::Pass, Some(_)) => CellVerdict::UnexpectedPass,
        (CaseOutcome::Fail { .. }, Some(ExpectKind::Fail)) => CellVerdict::Expected,
        (CaseOutcome::Fail { .. }, _) => CellVerdict::Fail,
        (CaseOutcome::Skipped(_), Some(ExpectKind::Skip)) => CellVerdict::Expected,
        (CaseOutcome::Skipped(_), _) => CellVerdict::Skip,
        (
            CaseOutcome::Errored(_)
            | CaseOutcome::NotRun
            | CaseOutcome::Corpus(_)
            | CaseOutcome::Io(_),
            _,
        ) => CellVerdict::Errored,
    }
}

/// Counts for a closing line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatrixTotals {
    /// Cells that passed.
    pub passed: usize,
    /// Cells that failed or passed unexpectedly, and stale expectations.
    pub failed: usize,
    /// Cells not judged.
    pub errored: usize,
    /// Cells skipped without an expectation.
    pub skipped: usize,
    /// Cells that failed or skipped as expected.
    pub expected: usize,
}

impl MatrixTotals {
    fn add(&mut self, verdict: CellVerdict) {
        match verdict {
            CellVerdict::Pass => self.passed += 1,
            CellVerdict::Fail | CellVerdict::UnexpectedPass => self.failed += 1,
            CellVerdict::Errored => self.errored += 1,
            CellVerdict::Skip => self.skipped += 1,
            CellVerdict::Expected => self.expected += 1,
        }
    }

    fn sum(&mut self, other: MatrixTotals) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.errored += other.errored;
        self.skipped += other.skipped;
        self.expected += other.expected;
    }

    /// `N passed, N failed`, then `, N errored`, `, N skipped` and
    /// `, N expected` when not zero.
    pub fn line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        for (n, word) in [
            (self.errored, "errored"),
            (self.skipped, "skipped"),
            (self.expected, "expected"),
        ] {
            if n > 0 {
                let _ = write!(line, ", {n} {word}");
            }
        }
        line
    }
}

/// Everything one `check --impl` run found.
pub struct MatrixReport {
    /// Each case's id and session path, in corpus order.
    pub cases: Vec<(String, String)>,
    /// One per `--impl`, in order.
    pub runs: Vec<ImplRun>,
    /// The corpus directory, as given.
    pub corpus: String,
    /// The golden directory, as given.
    pub golden: String,
    /// `hash:K/N`, when partitioned.
    pub partition: Option<String>,
}

impl MatrixReport {
    fn verdict(&self, run: &ImplRun, case: usize) -> CellVerdict {
        let outcome = run.outcomes.get(case).unwrap_or(&CaseOutcome::NotRun);
        verdict(outcome, run.expectations.get(&self.cases[case].0))
    }

    /// One implementation's counts, stale expectations included.
    pub fn totals(&self, run: &ImplRun) -> MatrixTotals {
        let mut totals = MatrixTotals::default();
        for case in 0..self.cases.len() {
            totals.add(self.verdict(run, case));
        }
        totals.failed += run.stale.len();
        totals
    }

    /// The counts summed over implementations.
    pub fn grand_totals(&self) -> MatrixTotals {
        let mut totals = MatrixTotals::default();
        for run in &self.runs {
            totals.sum(self.totals(run));
        }
        totals
    }

    /// Whether every cell is pass or expected and no expectation is stale.
    pub fn all_good(&self) -> bool {
        self.runs.iter().all(|run| {
            run.stale.is_empty()
                && run.problem.is_none()
                && (0..self.cases.len()).all(|c| self.verdict(run, c).is_ok())
        })
    }

    /// Files that could not be read.
    pub fn io_errors(&self) -> impl Iterator<Item = &str> {
        let mut seen = std::collections::BTreeSet::new();
        self.runs
            .iter()
            .flat_map(|run| &run.outcomes)
            .filter_map(|o| match o {
                CaseOutcome::Io(why) => Some(why.as_str()),
                _ => None,
            })
            .filter(move |why| seen.insert(*why))
    }

    /// Case indexes, worst first: by the worst cell, then the number of
    /// cells that are not ok, then by id.
    fn worst_first(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.cases.len()).collect();
        let key = |c: usize| {
            let verdicts: Vec<CellVerdict> = self.runs.iter().map(|r| self.verdict(r, c)).collect();
            let worst = verdicts.iter().max().copied().unwrap_or(CellVerdict::Pass);
            let bad = verdicts.iter().filter(|v| !v.is_ok()).count();
            (std::cmp::Reverse(worst), std::cmp::Reverse(bad))
        };
        order.sort_by(|a, b| {
            key(*a)
                .cmp(&key(*b))
                .then_with(|| self.cases[*a].0.cmp(&self.cases[*b].0))
        });
        order
    }

    /// A corpus problem of a case, the same on every implementation.
    fn corpus_problem(&self, case: usize) -> Option<&str> {
        self.runs
            .iter()
            .find_map(|run| match run.outcomes.get(case) {
                Some(CaseOutcome::Corpus(why) | CaseOutcome::Io(why)) => Some(why.as_str()),
                _ => None,
            })
    }
}

/// `disclose 0.1.0 (rust), contract [2]`, or what is known without a hello.
fn who(run: &ImplRun) -> String {
    match &run.hello {
        Some(h) => format!(
            "{} {} ({}), contract {:?}",
            h.implementation.name, h.implementation.version, h.implementation.language, h.contract
        ),
        None => "no hello".to_string(),
    }
}

fn expect_file(run: &ImplRun) -> String {
    run.expectations
        .file
        .as_ref()
        .map_or_else(|| "--expect".to_string(), |f| f.display().to_string())
}

/// One cell in full, each line indented two spaces.
fn cell_detail(run: &ImplRun, case: &str, outcome: &CaseOutcome, verdict: CellVerdict) -> String {
    let mut out = String::new();
    let expected = run.expectations.get(case);
    match outcome {
        CaseOutcome::Pass => {
            if let Some(e) = expected {
                let _ = writeln!(
                    out,
                    "  passed, but {}:{} expects it to {}: {}; remove the entry",
                    expect_file(run),
                    e.line,
                    e.expect,
                    e.why
                );
            }
        }
        CaseOutcome::Fail {
            line,
            op,
            message,
            diff,
        } => {
            let at = match (line, op) {
                (Some(line), Some(op)) => format!("line {line} ({op}): "),
                (Some(line), None) => format!("line {line}: "),
                _ => String::new(),
            };
            let _ = writeln!(out, "  {at}{message}");
            for line in diff.lines() {
                let _ = writeln!(out, "    {line}");
            }
            match expected {
                Some(e) if verdict == CellVerdict::Expected => {
                    let _ = writeln!(
                        out,
                        "  expected ({}:{}): {}",
                        expect_file(run),
                        e.line,
                        e.why
                    );
                }
                Some(e) => {
                    let _ = writeln!(
                        out,
                        "  {}:{} expects a skip, but it ran: {}",
                        expect_file(run),
                        e.line,
                        e.why
                    );
                }
                None => {}
            }
        }
        CaseOutcome::Skipped(why) => {
            let _ = writeln!(out, "  skipped: {why}");
            if verdict == CellVerdict::Skip {
                let entry = json!({"case": case, "expect": "skip", "why": why});
                let _ = writeln!(
                    out,
                    "  not expected; to accept it, add this line to its --expect file: {entry}"
                );
            }
        }
        CaseOutcome::Errored(trouble) => {
            let _ = writeln!(out, "  {}", trouble.what);
            if let Some(bytes) = &trouble.offending {
                let _ = writeln!(out, "  it wrote: {}", shown(bytes));
            }
            if !trouble.stderr.is_empty() {
                let _ = writeln!(out, "  stderr (last {} lines):", trouble.stderr.len());
                for line in &trouble.stderr {
                    let _ = writeln!(out, "    | {}", visible_line(line.as_bytes()));
                }
            }
        }
        CaseOutcome::NotRun => {
            let _ = writeln!(
                out,
                "  not run: {}",
                run.problem
                    .as_deref()
                    .unwrap_or("the implementation is not usable")
            );
        }
        CaseOutcome::Corpus(why) | CaseOutcome::Io(why) => {
            let _ = writeln!(out, "  {why}");
        }
    }
    out
}

/// Bytes an implementation wrote, on one line, invisible bytes visible,
/// cut after [`SHOWN_MAX`] bytes (of the first `KEPT_MAX` it kept).
pub fn shown(bytes: &Offending) -> String {
    let head = &bytes.head[..bytes.head.len().min(SHOWN_MAX)];
    let cut = bytes.len - head.len();
    let mut text = visible_line(head);
    if cut > 0 {
        let _ = write!(text, "… ({cut} more bytes)");
    }
    text
}

/// One line made visible, without the end-of-line marks of a diff.
fn visible_line(bytes: &[u8]) -> String {
    let mut line = bytes.to_vec();
    // Within one line a `\n` cannot occur; a final one is added so that
    // `visible` does not note its absence.
    line.push(b'\n');
    visible(&line).trim_end_matches('\n').replace('\n', "␊")
}
