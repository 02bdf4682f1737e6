//! What `check --impl` found, told four ways: the human matrix on stdout,
//! `--summary`/`--markdown` for `$GITHUB_STEP_SUMMARY`, `--json` (stable
//! case and implementation ids, no sequence numbers or timings, so two
//! reports diff), and `--junit` (one testsuite per implementation).
//!
//! A cell is one case on one implementation; its [`Verdict`] is the
//! outcome read against that implementation's expectations. Lowercase cell
//! words (`pass`, `expected`) keep the run green; uppercase ones fail it.
//! Every format is built explicitly here.

use std::fmt::Write as _;

use disclose_replay::golden::visible;
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use serde_json::{Value, json};

use super::process::Offending;
use super::{Expect, Expectation, Outcome, Run};
use crate::cli::markdown::cell;
use crate::cli::term::Paint;

/// Offending bytes are shown up to this many bytes.
const SHOWN_MAX: usize = 2000;

/// A cell's verdict, worst last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
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

impl Verdict {
    /// The word in a cell.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Expected => "expected",
            Verdict::Skip => "SKIP",
            Verdict::UnexpectedPass => "XPASS",
            Verdict::Fail => "FAIL",
            Verdict::Errored => "ERRORED",
        }
    }

    /// The JSON state.
    pub fn state(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Expected => "expected",
            Verdict::Skip => "skip",
            Verdict::UnexpectedPass => "unexpected_pass",
            Verdict::Fail => "fail",
            Verdict::Errored => "errored",
        }
    }

    /// Whether the run stays green.
    pub fn is_ok(self) -> bool {
        matches!(self, Verdict::Pass | Verdict::Expected)
    }
}

/// `outcome` read against an expectation.
pub fn verdict(outcome: &Outcome, expected: Option<&Expectation>) -> Verdict {
    match (outcome, expected.map(|e| e.expect)) {
        (Outcome::Pass, None) => Verdict::Pass,
        (Outcome::Pass, Some(_)) => Verdict::UnexpectedPass,
        (Outcome::Fail { .. }, Some(Expect::Fail)) => Verdict::Expected,
        (Outcome::Fail { .. }, _) => Verdict::Fail,
        (Outcome::Skipped(_), Some(Expect::Skip)) => Verdict::Expected,
        (Outcome::Skipped(_), _) => Verdict::Skip,
        (Outcome::Errored(_) | Outcome::NotRun | Outcome::Corpus(_) | Outcome::Io(_), _) => {
            Verdict::Errored
        }
    }
}

/// Counts for a closing line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
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

impl Totals {
    fn add(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail | Verdict::UnexpectedPass => self.failed += 1,
            Verdict::Errored => self.errored += 1,
            Verdict::Skip => self.skipped += 1,
            Verdict::Expected => self.expected += 1,
        }
    }

    fn sum(&mut self, other: Totals) {
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

    fn json(&self) -> Value {
        json!({
            "passed": self.passed,
            "failed": self.failed,
            "errored": self.errored,
            "skipped": self.skipped,
            "expected": self.expected,
        })
    }
}

/// Everything one `check --impl` run found.
pub struct Report {
    /// Each case's id and session path, in corpus order.
    pub cases: Vec<(String, String)>,
    /// One per `--impl`, in order.
    pub runs: Vec<Run>,
    /// The corpus directory, as given.
    pub corpus: String,
    /// The golden directory, as given.
    pub golden: String,
    /// `hash:K/N`, when partitioned.
    pub partition: Option<String>,
}

impl Report {
    fn verdict(&self, run: &Run, case: usize) -> Verdict {
        let outcome = run.outcomes.get(case).unwrap_or(&Outcome::NotRun);
        verdict(outcome, run.expectations.get(&self.cases[case].0))
    }

    /// One implementation's counts, stale expectations included.
    pub fn totals(&self, run: &Run) -> Totals {
        let mut totals = Totals::default();
        for case in 0..self.cases.len() {
            totals.add(self.verdict(run, case));
        }
        totals.failed += run.stale.len();
        totals
    }

    /// The counts summed over implementations.
    pub fn grand_totals(&self) -> Totals {
        let mut totals = Totals::default();
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
                Outcome::Io(why) => Some(why.as_str()),
                _ => None,
            })
            .filter(move |why| seen.insert(*why))
    }

    /// Case indexes, worst first: by the worst cell, then the number of
    /// cells that are not ok, then by id.
    fn worst_first(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.cases.len()).collect();
        let key = |c: usize| {
            let verdicts: Vec<Verdict> = self.runs.iter().map(|r| self.verdict(r, c)).collect();
            let worst = verdicts.iter().max().copied().unwrap_or(Verdict::Pass);
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
                Some(Outcome::Corpus(why) | Outcome::Io(why)) => Some(why.as_str()),
                _ => None,
            })
    }

    /// The human report: the implementations, the matrix (worst cases
    /// first), every cell that is not ok in full, a summary line per
    /// implementation, and the closing line, always last.
    pub fn human(&self, paint: Paint) -> String {
        let mut out = String::from("implementations:\n");
        for run in &self.runs {
            let _ = writeln!(out, "  {}: {} ({})", run.id, who(run), run.command);
        }
        out.push_str("cells: pass; expected (failed or skipped as --expect says); FAIL; XPASS (passed, but --expect says otherwise); SKIP (skipped, not in --expect); ERRORED. Uppercase fails the run.\n\n");
        let order = self.worst_first();
        let width = self
            .cases
            .iter()
            .map(|c| c.0.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let widths: Vec<usize> = self.runs.iter().map(|r| r.id.len().max(8)).collect();
        let _ = write!(out, "{:width$}", "case");
        for (run, w) in self.runs.iter().zip(&widths) {
            let _ = write!(out, "  {:w$}", run.id);
        }
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
        for &c in &order {
            let _ = write!(out, "{:width$}", self.cases[c].0);
            for (i, (run, w)) in self.runs.iter().zip(&widths).enumerate() {
                let verdict = self.verdict(run, c);
                // Padded for the next column; the last has none after it.
                let w = if i + 1 == self.runs.len() { 0 } else { *w };
                let word = format!("{:w$}", verdict.word());
                let word = if verdict.is_ok() {
                    paint.good(&word)
                } else {
                    paint.bad(&word)
                };
                let _ = write!(out, "  {word}");
            }
            out.push('\n');
        }
        let details = self.details(&order);
        if !details.is_empty() {
            out.push_str("\nfailures:\n");
            out.push_str(&details);
        }
        out.push('\n');
        for run in &self.runs {
            let _ = writeln!(out, "{}: {}", run.id, self.totals(run).line());
        }
        out.push_str(&self.grand_totals().line());
        out.push('\n');
        out
    }

    /// Everything that is not ok, in full: implementations that did not
    /// run, corpus problems (once per case), each bad cell, stale entries.
    fn details(&self, order: &[usize]) -> String {
        let mut out = String::new();
        for run in &self.runs {
            if let Some(problem) = &run.problem {
                let _ = writeln!(out, "\nERRORED {}: {problem}", run.id);
            }
        }
        for &c in order {
            let (case, path) = &self.cases[c];
            if let Some(problem) = self.corpus_problem(c) {
                let _ = writeln!(
                    out,
                    "\nERRORED {case} ({path}), on every implementation\n  {problem}"
                );
                continue;
            }
            for run in &self.runs {
                let verdict = self.verdict(run, c);
                if verdict.is_ok() {
                    continue;
                }
                let outcome = run.outcomes.get(c).unwrap_or(&Outcome::NotRun);
                if matches!(outcome, Outcome::NotRun) {
                    continue; // said once, with the implementation
                }
                let _ = writeln!(out, "\n{} {case} on {} ({path})", verdict.word(), run.id);
                out.push_str(&cell_detail(run, case, outcome, verdict));
            }
        }
        for run in &self.runs {
            for (case, entry) in &run.stale {
                let _ = writeln!(
                    out,
                    "\nFAIL stale expectation of {}: {}:{}: case \"{case}\" is not in the corpus; remove the entry",
                    run.id,
                    expect_file(run),
                    entry.line
                );
            }
        }
        out
    }

    /// Markdown for `$GITHUB_STEP_SUMMARY`: the totals per implementation,
    /// and the matrix of the cases that are not ok everywhere, worst first
    /// (cases that are ok everywhere are counted, not listed, so a large
    /// corpus fits a step summary).
    pub fn markdown(&self) -> String {
        let mut md = String::from("## disclose check --impl\n\n");
        let _ = writeln!(md, "**{}**\n", self.grand_totals().line());
        if let Some(partition) = &self.partition {
            let _ = writeln!(md, "Partition `{partition}`.\n");
        }
        md.push_str("| implementation | version | language | passed | failed | errored | skipped | expected |\n|---|---|---|---:|---:|---:|---:|---:|\n");
        for run in &self.runs {
            let t = self.totals(run);
            let (version, language) = run.hello.as_ref().map_or(("", ""), |h| {
                (
                    h.implementation.version.as_str(),
                    h.implementation.language.as_str(),
                )
            });
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(&run.id),
                cell(version),
                cell(language),
                t.passed,
                t.failed,
                t.errored,
                t.skipped,
                t.expected
            );
        }
        let problems: Vec<String> = self
            .runs
            .iter()
            .filter_map(|r| {
                Some(format!(
                    "- **{}**: {}",
                    cell(&r.id),
                    cell(r.problem.as_ref()?)
                ))
            })
            .collect();
        if !problems.is_empty() {
            let _ = writeln!(md, "\n{}", problems.join("\n"));
        }
        let order = self.worst_first();
        let listed: Vec<usize> = order
            .into_iter()
            .filter(|&c| self.runs.iter().any(|r| !self.verdict(r, c).is_ok()))
            .collect();
        let fine = self.cases.len() - listed.len();
        if !listed.is_empty() {
            md.push_str("\n### Cases not passing everywhere, worst first\n\n| case |");
            for run in &self.runs {
                let _ = write!(md, " {} |", cell(&run.id));
            }
            md.push_str("\n|---|");
            md.push_str(&"---|".repeat(self.runs.len()));
            md.push('\n');
            for c in listed {
                let _ = write!(md, "| {} |", cell(&self.cases[c].0));
                for run in &self.runs {
                    let _ = write!(md, " {} |", self.verdict(run, c).word());
                }
                md.push('\n');
            }
        }
        let _ = writeln!(
            md,
            "\n{fine} of {} cases pass (or are expected) on every implementation.",
            self.cases.len()
        );
        let stale: Vec<String> = self
            .runs
            .iter()
            .flat_map(|run| {
                run.stale.iter().map(move |(case, entry)| {
                    format!(
                        "- {}: {}:{}: {} is not in the corpus",
                        cell(&run.id),
                        cell(&expect_file(run)),
                        entry.line,
                        cell(case)
                    )
                })
            })
            .collect();
        if !stale.is_empty() {
            let _ = writeln!(md, "\n### Stale expectations\n\n{}", stale.join("\n"));
        }
        md
    }

    /// The `--json` report: cases by id (corpus order), each with its state
    /// on each implementation by id.
    pub fn json(&self) -> Value {
        let implementations: Vec<Value> = self
            .runs
            .iter()
            .map(|run| {
                let hello = run.hello.as_ref().map(|h| {
                    json!({
                        "name": h.implementation.name,
                        "version": h.implementation.version,
                        "language": h.implementation.language,
                        "homepage": h.implementation.homepage,
                        "contract": h.contract,
                    })
                });
                json!({
                    "id": run.id,
                    "command": run.command,
                    "hello": hello,
                    "problem": run.problem,
                    "expect": run.expectations.file.as_ref().map(|f| f.display().to_string()),
                    "restarts": run.restarts,
                    "stale": run.stale.iter().map(|(case, e)| json!({"case": case, "line": e.line, "expect": e.expect.to_string(), "why": e.why})).collect::<Vec<_>>(),
                    "totals": self.totals(run).json(),
                })
            })
            .collect();
        let cases: Vec<Value> = self
            .cases
            .iter()
            .enumerate()
            .map(|(c, (case, path))| {
                let results: serde_json::Map<String, Value> = self
                    .runs
                    .iter()
                    .map(|run| (run.id.clone(), self.cell_json(run, c)))
                    .collect();
                json!({"case": case, "path": path, "results": results})
            })
            .collect();
        json!({
            "format": 1,
            "report": "check --impl",
            "contract": disclose::CONTRACT_VERSION,
            "corpus": self.corpus,
            "golden": self.golden,
            "partition": self.partition,
            "totals": self.grand_totals().json(),
            "implementations": implementations,
            "cases": cases,
        })
    }

    fn cell_json(&self, run: &Run, c: usize) -> Value {
        let outcome = run.outcomes.get(c).unwrap_or(&Outcome::NotRun);
        let mut cell = json!({"state": self.verdict(run, c).state()});
        let Some(map) = cell.as_object_mut() else {
            return cell;
        };
        if let Some(e) = run.expectations.get(&self.cases[c].0) {
            map.insert(
                "expected".into(),
                json!({"expect": e.expect.to_string(), "why": e.why}),
            );
        }
        let (outcome_word, extra) = match outcome {
            Outcome::Pass => ("pass", json!({})),
            Outcome::Fail {
                line,
                op,
                message,
                diff,
            } => (
                "fail",
                json!({"line": line, "op": op, "message": message, "diff": diff}),
            ),
            Outcome::Skipped(why) => ("skipped", json!({"message": why})),
            Outcome::Errored(t) => (
                "errored",
                json!({
                    "message": t.what,
                    "offending": t.offending.as_ref().map(|b| String::from_utf8_lossy(&b.head).into_owned()),
                    "offending_bytes": t.offending.as_ref().map(|b| b.len),
                    "stderr": t.stderr,
                }),
            ),
            Outcome::NotRun => ("not_run", json!({"message": run.problem})),
            Outcome::Corpus(why) => ("corpus_error", json!({"message": why})),
            Outcome::Io(why) => ("io_error", json!({"message": why})),
        };
        map.insert("outcome".into(), json!(outcome_word));
        if let Value::Object(extra) = extra {
            map.extend(extra);
        }
        cell
    }

    /// The `--junit` report: one testsuite per implementation, one testcase
    /// per case; an expected failure or skip is `skipped` with its reason.
    pub fn junit(&self) -> Result<String, quick_junit::SerializeError> {
        let mut report = quick_junit::Report::new("disclose check --impl");
        for run in &self.runs {
            let mut suite = TestSuite::new(run.id.as_str());
            for (c, (case, _)) in self.cases.iter().enumerate() {
                let verdict = self.verdict(run, c);
                let outcome = run.outcomes.get(c).unwrap_or(&Outcome::NotRun);
                let detail = cell_detail(run, case, outcome, verdict);
                let status = match verdict {
                    Verdict::Pass => TestCaseStatus::success(),
                    Verdict::Expected => {
                        let mut status = TestCaseStatus::skipped();
                        status.set_message(detail.trim());
                        status
                    }
                    _ => {
                        let kind = if verdict == Verdict::Errored {
                            NonSuccessKind::Error
                        } else {
                            NonSuccessKind::Failure
                        };
                        let mut status = TestCaseStatus::non_success(kind);
                        status.set_type(verdict.state());
                        let text = match outcome {
                            Outcome::NotRun => run.problem.clone().unwrap_or_default(),
                            _ => detail,
                        };
                        status.set_message(text.lines().next().unwrap_or("").trim());
                        status.set_description(text);
                        status
                    }
                };
                let mut test = TestCase::new(case.as_str(), status);
                test.set_classname(run.id.as_str());
                suite.add_test_case(test);
            }
            for (case, entry) in &run.stale {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_type("stale_expectation");
                status.set_message(format!(
                    "{}:{}: case \"{case}\" is not in the corpus",
                    expect_file(run),
                    entry.line
                ));
                let mut test = TestCase::new(format!("stale expectation {case}"), status);
                test.set_classname(run.id.as_str());
                suite.add_test_case(test);
            }
            report.add_test_suite(suite);
        }
        report.to_string()
    }
}

/// `disclose 0.1.0 (rust), contract [2]`, or what is known without a hello.
fn who(run: &Run) -> String {
    match &run.hello {
        Some(h) => format!(
            "{} {} ({}), contract {:?}",
            h.implementation.name, h.implementation.version, h.implementation.language, h.contract
        ),
        None => "no hello".to_string(),
    }
}

fn expect_file(run: &Run) -> String {
    run.expectations
        .file
        .as_ref()
        .map_or_else(|| "--expect".to_string(), |f| f.display().to_string())
}

/// One cell in full, each line indented two spaces.
fn cell_detail(run: &Run, case: &str, outcome: &Outcome, verdict: Verdict) -> String {
    let mut out = String::new();
    let expected = run.expectations.get(case);
    match outcome {
        Outcome::Pass => {
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
        Outcome::Fail {
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
                Some(e) if verdict == Verdict::Expected => {
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
        Outcome::Skipped(why) => {
            let _ = writeln!(out, "  skipped: {why}");
            if verdict == Verdict::Skip {
                let entry = json!({"case": case, "expect": "skip", "why": why});
                let _ = writeln!(
                    out,
                    "  not expected; to accept it, add this line to its --expect file: {entry}"
                );
            }
        }
        Outcome::Errored(trouble) => {
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
        Outcome::NotRun => {
            let _ = writeln!(
                out,
                "  not run: {}",
                run.problem
                    .as_deref()
                    .unwrap_or("the implementation is not usable")
            );
        }
        Outcome::Corpus(why) | Outcome::Io(why) => {
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::cli::check::conformance::Expectations;
    use crate::cli::check::conformance::process::Trouble;
    use crate::cli::protocol::{HelloReply, Implementation};

    fn hello(name: &str) -> Option<HelloReply> {
        Some(HelloReply {
            implementation: Implementation {
                name: name.into(),
                version: "1.2.0".into(),
                language: "typescript".into(),
                homepage: None,
            },
            contract: vec![2],
        })
    }

    fn run(id: &str, outcomes: Vec<Outcome>, expectations: &[(&str, Expect, &str, usize)]) -> Run {
        let mut expect = Expectations {
            file: Some(PathBuf::from("expect.jsonl")),
            entries: Default::default(),
        };
        for (case, kind, why, line) in expectations {
            expect.entries.insert(
                case.to_string(),
                Expectation {
                    expect: *kind,
                    why: why.to_string(),
                    line: *line,
                },
            );
        }
        Run {
            command: format!("./{id}"),
            id: id.into(),
            hello: hello(id),
            problem: None,
            expectations: expect,
            outcomes,
            stale: Vec::new(),
            warnings: Vec::new(),
            restarts: 0,
            unstartable: false,
        }
    }

    /// Two implementations over five cases: every verdict once.
    fn report() -> Report {
        let cases = ["a/fine", "a/hint|cut", "b/broken", "b/crash", "b/skip"];
        let corpus =
            Outcome::Corpus("corpora/b/broken.jsonl:2:1: op \"render\" needs a started run".into());
        let reference = run(
            "disclose",
            vec![
                Outcome::Pass,
                Outcome::Pass,
                corpus.clone(),
                Outcome::Pass,
                Outcome::Pass,
            ],
            &[],
        );
        let mut port = run(
            "port-ts",
            vec![
                Outcome::Pass,
                Outcome::Fail {
                    line: Some(4),
                    op: Some("render".into()),
                    message: "the transcript differs from \"golden/a/hint|cut.txt\"".into(),
                    diff: disclose_replay::golden::unified(
                        b"=== 4 render 10\n- x: a\tb\n",
                        b"=== 4 render 10\n- x: a b \n",
                        "golden",
                        "replay",
                    ),
                },
                corpus,
                Outcome::Errored(Trouble {
                    what: "it closed stdout without answering; it exited with status 1".into(),
                    offending: None,
                    stderr: vec![
                        "TypeError: undefined is not a function".into(),
                        "    at pack (index.ts:40)".into(),
                    ],
                }),
                Outcome::Skipped("no carried skills yet".into()),
            ],
            &[
                ("a/fine", Expect::Fail, "was broken", 3),
                ("b/skip", Expect::Skip, "no carried skills yet", 1),
            ],
        );
        port.stale = vec![(
            "a/renamed".into(),
            Expectation {
                expect: Expect::Fail,
                why: "old name".into(),
                line: 2,
            },
        )];
        Report {
            cases: cases
                .iter()
                .map(|c| (c.to_string(), format!("corpora/{c}.jsonl")))
                .collect(),
            runs: vec![reference, port],
            corpus: "corpora".into(),
            golden: "golden".into(),
            partition: None,
        }
    }

    #[test]
    fn the_matrix_for_a_person() {
        // Worst first: a corpus error on both, an error, a failure, an
        // unexpected pass, then an expected skip; the tab and the trailing
        // space of the diff are visible; every problem is said once.
        insta::assert_snapshot!(report().human(Paint::Plain), @r#"
        implementations:
          disclose: disclose 1.2.0 (typescript), contract [2] (./disclose)
          port-ts: port-ts 1.2.0 (typescript), contract [2] (./port-ts)
        cells: pass; expected (failed or skipped as --expect says); FAIL; XPASS (passed, but --expect says otherwise); SKIP (skipped, not in --expect); ERRORED. Uppercase fails the run.

        case        disclose  port-ts
        b/broken    ERRORED   ERRORED
        b/crash     pass      ERRORED
        a/hint|cut  pass      FAIL
        a/fine      pass      XPASS
        b/skip      pass      expected

        failures:

        ERRORED b/broken (corpora/b/broken.jsonl), on every implementation
          corpora/b/broken.jsonl:2:1: op "render" needs a started run

        ERRORED b/crash on port-ts (corpora/b/crash.jsonl)
          it closed stdout without answering; it exited with status 1
          stderr (last 2 lines):
            | TypeError: undefined is not a function
            |     at pack (index.ts:40)

        FAIL a/hint|cut on port-ts (corpora/a/hint|cut.jsonl)
          line 4 (render): the transcript differs from "golden/a/hint|cut.txt"
            --- golden
            +++ replay
            @@ -1,2 +1,2 @@
             === 4 render 10
            -- x: a␉b
            +- x: a b·

        XPASS a/fine on port-ts (corpora/a/fine.jsonl)
          passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry

        FAIL stale expectation of port-ts: expect.jsonl:2: case "a/renamed" is not in the corpus; remove the entry

        disclose: 4 passed, 0 failed, 1 errored
        port-ts: 0 passed, 3 failed, 2 errored, 1 expected
        4 passed, 3 failed, 3 errored, 1 expected
        "#);
    }

    #[test]
    fn the_matrix_for_a_step_summary() {
        // Only the cases not ok everywhere; the `|` of a case id escaped.
        insta::assert_snapshot!(report().markdown(), @r#"
        ## disclose check --impl

        **4 passed, 3 failed, 3 errored, 1 expected**

        | implementation | version | language | passed | failed | errored | skipped | expected |
        |---|---|---|---:|---:|---:|---:|---:|
        | disclose | 1.2.0 | typescript | 4 | 0 | 1 | 0 | 0 |
        | port-ts | 1.2.0 | typescript | 0 | 3 | 2 | 0 | 1 |

        ### Cases not passing everywhere, worst first

        | case | disclose | port-ts |
        |---|---|---|
        | b/broken | ERRORED | ERRORED |
        | b/crash | pass | ERRORED |
        | a/hint\|cut | pass | FAIL |
        | a/fine | pass | XPASS |

        1 of 5 cases pass (or are expected) on every implementation.

        ### Stale expectations

        - port-ts: expect.jsonl:2: a/renamed is not in the corpus
        "#);
    }
    /// [`report`] with a third implementation that never started, and a
    /// partition: every line a report can hold about a run that did not run.
    fn report_with_one_unstarted() -> Report {
        let mut report = report();
        let cases = report.cases.len();
        let mut gone = run("gone", vec![Outcome::NotRun; cases], &[]);
        gone.hello = None;
        gone.expectations.file = None;
        gone.problem = Some("could not start \"./gone\": No such file or directory (os error 2); none of its cases were run".into());
        gone.unstartable = true;
        report.runs.push(gone);
        report.partition = Some("hash:2/3".into());
        report
    }

    #[test]
    fn the_matrix_as_json() {
        let text = serde_json::to_string_pretty(&report().json()).unwrap();
        insta::assert_snapshot!(text, @r#"
        {
          "cases": [
            {
              "case": "a/fine",
              "path": "corpora/a/fine.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "expected": {
                    "expect": "fail",
                    "why": "was broken"
                  },
                  "outcome": "pass",
                  "state": "unexpected_pass"
                }
              }
            },
            {
              "case": "a/hint|cut",
              "path": "corpora/a/hint|cut.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "diff": "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 4 render 10\n-- x: a␉b\n+- x: a b·\n",
                  "line": 4,
                  "message": "the transcript differs from \"golden/a/hint|cut.txt\"",
                  "op": "render",
                  "outcome": "fail",
                  "state": "fail"
                }
              }
            },
            {
              "case": "b/broken",
              "path": "corpora/b/broken.jsonl",
              "results": {
                "disclose": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                },
                "port-ts": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                }
              }
            },
            {
              "case": "b/crash",
              "path": "corpora/b/crash.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "message": "it closed stdout without answering; it exited with status 1",
                  "offending": null,
                  "offending_bytes": null,
                  "outcome": "errored",
                  "state": "errored",
                  "stderr": [
                    "TypeError: undefined is not a function",
                    "    at pack (index.ts:40)"
                  ]
                }
              }
            },
            {
              "case": "b/skip",
              "path": "corpora/b/skip.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "expected": {
                    "expect": "skip",
                    "why": "no carried skills yet"
                  },
                  "message": "no carried skills yet",
                  "outcome": "skipped",
                  "state": "expected"
                }
              }
            }
          ],
          "contract": 3,
          "corpus": "corpora",
          "format": 1,
          "golden": "golden",
          "implementations": [
            {
              "command": "./disclose",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "disclose",
                "version": "1.2.0"
              },
              "id": "disclose",
              "problem": null,
              "restarts": 0,
              "stale": [],
              "totals": {
                "errored": 1,
                "expected": 0,
                "failed": 0,
                "passed": 4,
                "skipped": 0
              }
            },
            {
              "command": "./port-ts",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "port-ts",
                "version": "1.2.0"
              },
              "id": "port-ts",
              "problem": null,
              "restarts": 0,
              "stale": [
                {
                  "case": "a/renamed",
                  "expect": "fail",
                  "line": 2,
                  "why": "old name"
                }
              ],
              "totals": {
                "errored": 2,
                "expected": 1,
                "failed": 3,
                "passed": 0,
                "skipped": 0
              }
            }
          ],
          "partition": null,
          "report": "check --impl",
          "totals": {
            "errored": 3,
            "expected": 1,
            "failed": 3,
            "passed": 4,
            "skipped": 0
          }
        }
        "#);
    }

    #[test]
    fn the_matrix_as_junit() {
        insta::assert_snapshot!(report().junit().unwrap(), @r#"
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="disclose check --impl" tests="11" skipped="1" failures="3" errors="3">
            <testsuite name="disclose" tests="5" skipped="0" errors="1" failures="0">
                <testcase name="a/fine" classname="disclose"/>
                <testcase name="a/hint|cut" classname="disclose"/>
                <testcase name="b/broken" classname="disclose">
                    <error message="corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run" type="errored">  corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run
        </error>
                </testcase>
                <testcase name="b/crash" classname="disclose"/>
                <testcase name="b/skip" classname="disclose"/>
            </testsuite>
            <testsuite name="port-ts" tests="6" skipped="1" errors="2" failures="3">
                <testcase name="a/fine" classname="port-ts">
                    <failure message="passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry" type="unexpected_pass">  passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry
        </failure>
                </testcase>
                <testcase name="a/hint|cut" classname="port-ts">
                    <failure message="line 4 (render): the transcript differs from &quot;golden/a/hint|cut.txt&quot;" type="fail">  line 4 (render): the transcript differs from &quot;golden/a/hint|cut.txt&quot;
            --- golden
            +++ replay
            @@ -1,2 +1,2 @@
             === 4 render 10
            -- x: a␉b
            +- x: a b·
        </failure>
                </testcase>
                <testcase name="b/broken" classname="port-ts">
                    <error message="corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run" type="errored">  corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run
        </error>
                </testcase>
                <testcase name="b/crash" classname="port-ts">
                    <error message="it closed stdout without answering; it exited with status 1" type="errored">  it closed stdout without answering; it exited with status 1
          stderr (last 2 lines):
            | TypeError: undefined is not a function
            |     at pack (index.ts:40)
        </error>
                </testcase>
                <testcase name="b/skip" classname="port-ts">
                    <skipped message="skipped: no carried skills yet"/>
                </testcase>
                <testcase name="stale expectation a/renamed" classname="port-ts">
                    <failure message="expect.jsonl:2: case &quot;a/renamed&quot; is not in the corpus" type="stale_expectation"/>
                </testcase>
            </testsuite>
        </testsuites>
        "#);
    }

    #[test]
    fn the_matrix_in_colour() {
        insta::assert_snapshot!(format!("{:?}", report().human(Paint::Colour)), @"\"implementations:\\n  disclose: disclose 1.2.0 (typescript), contract [2] (./disclose)\\n  port-ts: port-ts 1.2.0 (typescript), contract [2] (./port-ts)\\ncells: pass; expected (failed or skipped as --expect says); FAIL; XPASS (passed, but --expect says otherwise); SKIP (skipped, not in --expect); ERRORED. Uppercase fails the run.\\n\\ncase        disclose  port-ts\\nb/broken    \\u{1b}[31mERRORED \\u{1b}[0m  \\u{1b}[31mERRORED\\u{1b}[0m\\nb/crash     \\u{1b}[32mpass    \\u{1b}[0m  \\u{1b}[31mERRORED\\u{1b}[0m\\na/hint|cut  \\u{1b}[32mpass    \\u{1b}[0m  \\u{1b}[31mFAIL\\u{1b}[0m\\na/fine      \\u{1b}[32mpass    \\u{1b}[0m  \\u{1b}[31mXPASS\\u{1b}[0m\\nb/skip      \\u{1b}[32mpass    \\u{1b}[0m  \\u{1b}[32mexpected\\u{1b}[0m\\n\\nfailures:\\n\\nERRORED b/broken (corpora/b/broken.jsonl), on every implementation\\n  corpora/b/broken.jsonl:2:1: op \\\"render\\\" needs a started run\\n\\nERRORED b/crash on port-ts (corpora/b/crash.jsonl)\\n  it closed stdout without answering; it exited with status 1\\n  stderr (last 2 lines):\\n    | TypeError: undefined is not a function\\n    |     at pack (index.ts:40)\\n\\nFAIL a/hint|cut on port-ts (corpora/a/hint|cut.jsonl)\\n  line 4 (render): the transcript differs from \\\"golden/a/hint|cut.txt\\\"\\n    --- golden\\n    +++ replay\\n    @@ -1,2 +1,2 @@\\n     === 4 render 10\\n    -- x: a␉b\\n    +- x: a b·\\n\\nXPASS a/fine on port-ts (corpora/a/fine.jsonl)\\n  passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry\\n\\nFAIL stale expectation of port-ts: expect.jsonl:2: case \\\"a/renamed\\\" is not in the corpus; remove the entry\\n\\ndisclose: 4 passed, 0 failed, 1 errored\\nport-ts: 0 passed, 3 failed, 2 errored, 1 expected\\n4 passed, 3 failed, 3 errored, 1 expected\\n\"");
    }

    #[test]
    fn an_unstarted_implementation_for_a_person() {
        insta::assert_snapshot!(report_with_one_unstarted().human(Paint::Plain), @r#"
        implementations:
          disclose: disclose 1.2.0 (typescript), contract [2] (./disclose)
          port-ts: port-ts 1.2.0 (typescript), contract [2] (./port-ts)
          gone: no hello (./gone)
        cells: pass; expected (failed or skipped as --expect says); FAIL; XPASS (passed, but --expect says otherwise); SKIP (skipped, not in --expect); ERRORED. Uppercase fails the run.

        case        disclose  port-ts   gone
        b/broken    ERRORED   ERRORED   ERRORED
        a/fine      pass      XPASS     ERRORED
        a/hint|cut  pass      FAIL      ERRORED
        b/crash     pass      ERRORED   ERRORED
        b/skip      pass      expected  ERRORED

        failures:

        ERRORED gone: could not start "./gone": No such file or directory (os error 2); none of its cases were run

        ERRORED b/broken (corpora/b/broken.jsonl), on every implementation
          corpora/b/broken.jsonl:2:1: op "render" needs a started run

        XPASS a/fine on port-ts (corpora/a/fine.jsonl)
          passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry

        FAIL a/hint|cut on port-ts (corpora/a/hint|cut.jsonl)
          line 4 (render): the transcript differs from "golden/a/hint|cut.txt"
            --- golden
            +++ replay
            @@ -1,2 +1,2 @@
             === 4 render 10
            -- x: a␉b
            +- x: a b·

        ERRORED b/crash on port-ts (corpora/b/crash.jsonl)
          it closed stdout without answering; it exited with status 1
          stderr (last 2 lines):
            | TypeError: undefined is not a function
            |     at pack (index.ts:40)

        FAIL stale expectation of port-ts: expect.jsonl:2: case "a/renamed" is not in the corpus; remove the entry

        disclose: 4 passed, 0 failed, 1 errored
        port-ts: 0 passed, 3 failed, 2 errored, 1 expected
        gone: 0 passed, 0 failed, 5 errored
        4 passed, 3 failed, 8 errored, 1 expected
        "#);
    }

    #[test]
    fn an_unstarted_implementation_for_a_step_summary() {
        insta::assert_snapshot!(report_with_one_unstarted().markdown(), @r#"
        ## disclose check --impl

        **4 passed, 3 failed, 8 errored, 1 expected**

        Partition `hash:2/3`.

        | implementation | version | language | passed | failed | errored | skipped | expected |
        |---|---|---|---:|---:|---:|---:|---:|
        | disclose | 1.2.0 | typescript | 4 | 0 | 1 | 0 | 0 |
        | port-ts | 1.2.0 | typescript | 0 | 3 | 2 | 0 | 1 |
        | gone |  |  | 0 | 0 | 5 | 0 | 0 |

        - **gone**: could not start "./gone": No such file or directory (os error 2); none of its cases were run

        ### Cases not passing everywhere, worst first

        | case | disclose | port-ts | gone |
        |---|---|---|---|
        | b/broken | ERRORED | ERRORED | ERRORED |
        | a/fine | pass | XPASS | ERRORED |
        | a/hint\|cut | pass | FAIL | ERRORED |
        | b/crash | pass | ERRORED | ERRORED |
        | b/skip | pass | expected | ERRORED |

        0 of 5 cases pass (or are expected) on every implementation.

        ### Stale expectations

        - port-ts: expect.jsonl:2: a/renamed is not in the corpus
        "#);
    }

    #[test]
    fn an_unstarted_implementation_as_json() {
        let text = serde_json::to_string_pretty(&report_with_one_unstarted().json()).unwrap();
        insta::assert_snapshot!(text, @r#"
        {
          "cases": [
            {
              "case": "a/fine",
              "path": "corpora/a/fine.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "expected": {
                    "expect": "fail",
                    "why": "was broken"
                  },
                  "outcome": "pass",
                  "state": "unexpected_pass"
                }
              }
            },
            {
              "case": "a/hint|cut",
              "path": "corpora/a/hint|cut.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "diff": "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 4 render 10\n-- x: a␉b\n+- x: a b·\n",
                  "line": 4,
                  "message": "the transcript differs from \"golden/a/hint|cut.txt\"",
                  "op": "render",
                  "outcome": "fail",
                  "state": "fail"
                }
              }
            },
            {
              "case": "b/broken",
              "path": "corpora/b/broken.jsonl",
              "results": {
                "disclose": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                }
              }
            },
            {
              "case": "b/crash",
              "path": "corpora/b/crash.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "message": "it closed stdout without answering; it exited with status 1",
                  "offending": null,
                  "offending_bytes": null,
                  "outcome": "errored",
                  "state": "errored",
                  "stderr": [
                    "TypeError: undefined is not a function",
                    "    at pack (index.ts:40)"
                  ]
                }
              }
            },
            {
              "case": "b/skip",
              "path": "corpora/b/skip.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "expected": {
                    "expect": "skip",
                    "why": "no carried skills yet"
                  },
                  "message": "no carried skills yet",
                  "outcome": "skipped",
                  "state": "expected"
                }
              }
            }
          ],
          "contract": 3,
          "corpus": "corpora",
          "format": 1,
          "golden": "golden",
          "implementations": [
            {
              "command": "./disclose",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "disclose",
                "version": "1.2.0"
              },
              "id": "disclose",
              "problem": null,
              "restarts": 0,
              "stale": [],
              "totals": {
                "errored": 1,
                "expected": 0,
                "failed": 0,
                "passed": 4,
                "skipped": 0
              }
            },
            {
              "command": "./port-ts",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "port-ts",
                "version": "1.2.0"
              },
              "id": "port-ts",
              "problem": null,
              "restarts": 0,
              "stale": [
                {
                  "case": "a/renamed",
                  "expect": "fail",
                  "line": 2,
                  "why": "old name"
                }
              ],
              "totals": {
                "errored": 2,
                "expected": 1,
                "failed": 3,
                "passed": 0,
                "skipped": 0
              }
            },
            {
              "command": "./gone",
              "expect": null,
              "hello": null,
              "id": "gone",
              "problem": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
              "restarts": 0,
              "stale": [],
              "totals": {
                "errored": 5,
                "expected": 0,
                "failed": 0,
                "passed": 0,
                "skipped": 0
              }
            }
          ],
          "partition": "hash:2/3",
          "report": "check --impl",
          "totals": {
            "errored": 8,
            "expected": 1,
            "failed": 3,
            "passed": 4,
            "skipped": 0
          }
        }
        "#);
    }

    #[test]
    fn an_unstarted_implementation_as_junit() {
        insta::assert_snapshot!(report_with_one_unstarted().junit().unwrap(), @r#"
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="disclose check --impl" tests="16" skipped="1" failures="3" errors="8">
            <testsuite name="disclose" tests="5" skipped="0" errors="1" failures="0">
                <testcase name="a/fine" classname="disclose"/>
                <testcase name="a/hint|cut" classname="disclose"/>
                <testcase name="b/broken" classname="disclose">
                    <error message="corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run" type="errored">  corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run
        </error>
                </testcase>
                <testcase name="b/crash" classname="disclose"/>
                <testcase name="b/skip" classname="disclose"/>
            </testsuite>
            <testsuite name="port-ts" tests="6" skipped="1" errors="2" failures="3">
                <testcase name="a/fine" classname="port-ts">
                    <failure message="passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry" type="unexpected_pass">  passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry
        </failure>
                </testcase>
                <testcase name="a/hint|cut" classname="port-ts">
                    <failure message="line 4 (render): the transcript differs from &quot;golden/a/hint|cut.txt&quot;" type="fail">  line 4 (render): the transcript differs from &quot;golden/a/hint|cut.txt&quot;
            --- golden
            +++ replay
            @@ -1,2 +1,2 @@
             === 4 render 10
            -- x: a␉b
            +- x: a b·
        </failure>
                </testcase>
                <testcase name="b/broken" classname="port-ts">
                    <error message="corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run" type="errored">  corpora/b/broken.jsonl:2:1: op &quot;render&quot; needs a started run
        </error>
                </testcase>
                <testcase name="b/crash" classname="port-ts">
                    <error message="it closed stdout without answering; it exited with status 1" type="errored">  it closed stdout without answering; it exited with status 1
          stderr (last 2 lines):
            | TypeError: undefined is not a function
            |     at pack (index.ts:40)
        </error>
                </testcase>
                <testcase name="b/skip" classname="port-ts">
                    <skipped message="skipped: no carried skills yet"/>
                </testcase>
                <testcase name="stale expectation a/renamed" classname="port-ts">
                    <failure message="expect.jsonl:2: case &quot;a/renamed&quot; is not in the corpus" type="stale_expectation"/>
                </testcase>
            </testsuite>
            <testsuite name="gone" tests="5" skipped="0" errors="5" failures="0">
                <testcase name="a/fine" classname="gone">
                    <error message="could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run" type="errored">could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run</error>
                </testcase>
                <testcase name="a/hint|cut" classname="gone">
                    <error message="could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run" type="errored">could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run</error>
                </testcase>
                <testcase name="b/broken" classname="gone">
                    <error message="could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run" type="errored">could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run</error>
                </testcase>
                <testcase name="b/crash" classname="gone">
                    <error message="could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run" type="errored">could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run</error>
                </testcase>
                <testcase name="b/skip" classname="gone">
                    <error message="could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run" type="errored">could not start &quot;./gone&quot;: No such file or directory (os error 2); none of its cases were run</error>
                </testcase>
            </testsuite>
        </testsuites>
        "#);
    }

    #[test]
    fn a_passing_matrix_for_a_step_summary() {
        let mut report = report();
        report.runs.truncate(1);
        report.runs[0].outcomes = vec![Outcome::Pass; report.cases.len()];
        insta::assert_snapshot!(report.markdown(), @r#"
        ## disclose check --impl

        **5 passed, 0 failed**

        | implementation | version | language | passed | failed | errored | skipped | expected |
        |---|---|---|---:|---:|---:|---:|---:|
        | disclose | 1.2.0 | typescript | 5 | 0 | 0 | 0 | 0 |

        5 of 5 cases pass (or are expected) on every implementation.
        "#);
        insta::assert_snapshot!(report.human(Paint::Plain), @r#"
        implementations:
          disclose: disclose 1.2.0 (typescript), contract [2] (./disclose)
        cells: pass; expected (failed or skipped as --expect says); FAIL; XPASS (passed, but --expect says otherwise); SKIP (skipped, not in --expect); ERRORED. Uppercase fails the run.

        case        disclose
        a/fine      pass
        a/hint|cut  pass
        b/broken    pass
        b/crash     pass
        b/skip      pass

        disclose: 5 passed, 0 failed
        5 passed, 0 failed
        "#);
    }
}
