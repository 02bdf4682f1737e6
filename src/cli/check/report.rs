//! What `disclose check` found, and the four ways it is told: the human
//! report on stdout, `--json`, `--junit` and `--summary` (SPEC §14).
//!
//! A [`Case`] is one thing that passes or fails on its own: a session, the
//! vocabulary golden, or an orphan golden. It keeps only what the reports
//! need (failures with their diffs, and the index bytes of each render),
//! never a transcript, so memory stays flat as the corpus grows. Every
//! format is built explicitly here; none is a derived serialization.

use std::fmt::Write as _;

use disclose::DORMANT_INDEX_CEILING;
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use serde_json::{Value, json};

use crate::cli::format::markdown::cell;
use crate::cli::term::Paint;

/// The sessions with the least index headroom listed by `--summary`.
pub const TIGHTEST: usize = 10;

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
pub enum Status {
    /// Everything held.
    Pass,
    /// A golden mismatch, a missing golden, an orphan or a broken invariant.
    Fail,
    /// The session is malformed, or could not be read or written.
    Error,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
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

    fn status(self) -> Status {
        match self {
            FailureKind::Malformed | FailureKind::Io | FailureKind::Limit => Status::Error,
            _ => Status::Fail,
        }
    }
}

/// One reason a case did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What kind.
    pub kind: FailureKind,
    /// The op's line in the session, when it concerns one op.
    pub line: Option<usize>,
    /// The op's name, when known.
    pub op: Option<String>,
    /// A plain message (for a malformed session, `path:line:column: message`).
    pub message: String,
    /// A unified diff with invisible bytes made visible (mismatches only).
    pub diff: Option<String>,
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
    pub failures: Vec<Failure>,
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
    pub fn status(&self) -> Status {
        self.failures
            .iter()
            .map(|f| f.kind.status())
            .max()
            .unwrap_or(Status::Pass)
    }

    fn tightest(&self) -> Option<&RenderCost> {
        self.renders.iter().min_by_key(|r| (r.headroom(), r.line))
    }
}

/// Counts for the closing line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that failed.
    pub failed: usize,
    /// Cases in error (malformed, or unreadable).
    pub errors: usize,
}

impl Totals {
    /// Counts `cases`.
    pub fn of(cases: &[Case]) -> Totals {
        let mut totals = Totals::default();
        for case in cases {
            match case.status() {
                Status::Pass => totals.passed += 1,
                Status::Fail => totals.failed += 1,
                Status::Error => totals.errors += 1,
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
pub struct Report {
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

impl Report {
    /// The cases that did not pass, in report order.
    fn failing(&self) -> Vec<&Case> {
        self.cases
            .iter()
            .filter(|c| c.status() != Status::Pass)
            .collect()
    }

    /// The counts.
    pub fn totals(&self) -> Totals {
        Totals::of(&self.cases)
    }

    /// The human report: one status line per case in order, then each
    /// failure in full, then the closing line (always last).
    pub fn human(&self, paint: Paint) -> String {
        let mut out = String::new();
        for case in &self.cases {
            let word = match case.status() {
                Status::Pass => paint.good("pass "),
                Status::Fail => paint.bad("FAIL "),
                Status::Error => paint.bad("ERROR"),
            };
            let _ = write!(out, "{word} {}", case.name);
            if let Some(blessed) = &case.blessed {
                let _ = write!(out, " ({blessed})");
            }
            out.push('\n');
        }
        for path in &self.deleted {
            let _ = writeln!(out, "deleted orphan {path}");
        }
        for path in &self.kept {
            let _ = writeln!(out, "not a golden, kept: {path}");
        }
        let failing = self.failing();
        if !failing.is_empty() {
            out.push_str("\nfailures:\n");
        }
        for case in failing {
            self.human_case(&mut out, case, paint);
        }
        let blessed = self.cases.iter().filter(|c| c.blessed.is_some()).count();
        if blessed + self.deleted.len() > 0 {
            let _ = writeln!(
                out,
                "\nblessed: wrote {blessed} goldens, deleted {} orphans",
                self.deleted.len()
            );
        }
        out.push('\n');
        out.push_str(&self.totals().closing_line());
        out.push('\n');
        out
    }

    fn human_case(&self, out: &mut String, case: &Case, paint: Paint) {
        let word = match case.status() {
            Status::Error => paint.bad("ERROR"),
            _ => paint.bad("FAIL"),
        };
        let _ = writeln!(out, "\n{word} {} ({})", case.name, case.path);
        for failure in &case.failures {
            if failure.kind == FailureKind::Malformed {
                // `path:line:column: message`, at the start of its line so
                // editors and CI annotators can jump to it.
                let _ = writeln!(out, "{}", failure.message);
                continue;
            }
            let _ = writeln!(out, "  {}", where_and_what(failure));
            if let Some(diff) = &failure.diff {
                for line in diff.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
        if case.failures.iter().any(|f| f.kind.wants_bless_command()) {
            let _ = writeln!(out, "  to bless: {}", self.bless_command);
        }
    }

    /// The `--json` report.
    pub fn json(&self) -> Value {
        let totals = self.totals();
        let cases: Vec<Value> = self
            .cases
            .iter()
            .map(|case| {
                let failures: Vec<Value> = case
                    .failures
                    .iter()
                    .map(|f| {
                        let mut failure = json!({
                            "kind": f.kind.as_str(),
                            "line": f.line,
                            "op": f.op,
                            "message": f.message,
                            "diff": f.diff,
                        });
                        if let (FailureKind::Invariant(id), Some(map)) =
                            (f.kind, failure.as_object_mut())
                        {
                            map.insert("invariant".into(), json!(id));
                        }
                        failure
                    })
                    .collect();
                let renders: Vec<Value> = case
                    .renders
                    .iter()
                    .map(|r| {
                        json!({"line": r.line, "index_bytes": r.index_bytes, "headroom": r.headroom()})
                    })
                    .collect();
                json!({
                    "name": case.name,
                    "path": case.path,
                    "kind": case.kind.as_str(),
                    "status": case.status().as_str(),
                    "failures": failures,
                    "renders": renders,
                    "blessed": case.blessed,
                })
            })
            .collect();
        json!({
            "format": 1,
            "corpus": self.corpus,
            "golden": self.golden,
            "partition": self.partition,
            "totals": {"passed": totals.passed, "failed": totals.failed, "errors": totals.errors},
            "cases": cases,
            "deleted_orphans": self.deleted,
            "kept": self.kept,
        })
    }

    /// The `--junit` report: one testcase per case; a failure carries every
    /// message and diff as its text.
    pub fn junit(&self) -> Result<String, quick_junit::SerializeError> {
        let mut suite = TestSuite::new(format!("disclose check {}", self.corpus));
        for case in &self.cases {
            let status = match case.status() {
                Status::Pass => TestCaseStatus::success(),
                status => {
                    let kind = if status == Status::Error {
                        NonSuccessKind::Error
                    } else {
                        NonSuccessKind::Failure
                    };
                    let mut status = TestCaseStatus::non_success(kind);
                    if let Some(first) = case.failures.first() {
                        status.set_message(where_and_what(first));
                        status.set_type(first.kind.as_str());
                    }
                    status.set_description(self.failure_text(case));
                    status
                }
            };
            let mut test = TestCase::new(case.name.as_str(), status);
            test.set_classname(case.kind.as_str());
            suite.add_test_case(test);
        }
        let mut report = quick_junit::Report::new("disclose");
        report.add_test_suite(suite);
        report.to_string()
    }

    fn failure_text(&self, case: &Case) -> String {
        let mut text = String::new();
        for failure in &case.failures {
            let _ = writeln!(text, "{}", where_and_what(failure));
            if let Some(diff) = &failure.diff {
                text.push_str(diff);
            }
        }
        if case.failures.iter().any(|f| f.kind.wants_bless_command()) {
            let _ = writeln!(text, "to bless: {}", self.bless_command);
        }
        text
    }

    /// The `--summary` report: Markdown for `$GITHUB_STEP_SUMMARY`.
    pub fn summary(&self) -> String {
        let totals = self.totals();
        let mut md = String::from("## disclose check\n\n");
        let _ = writeln!(md, "**{}**\n", totals.closing_line());
        if let Some(partition) = &self.partition {
            let _ = writeln!(md, "Partition `{partition}`.\n");
        }
        md.push_str("| passed | failed | errors |\n|---:|---:|---:|\n");
        let _ = writeln!(
            md,
            "| {} | {} | {} |\n",
            totals.passed, totals.failed, totals.errors
        );
        let failing = self.failing();
        if !failing.is_empty() {
            md.push_str("### Failures\n\n| case | status | kind | line | op | message |\n|---|---|---|---:|---|---|\n");
            for case in failing {
                for f in &case.failures {
                    let kind = match f.kind {
                        FailureKind::Invariant(id) => id.to_string(),
                        kind => kind.as_str().to_string(),
                    };
                    let _ = writeln!(
                        md,
                        "| {} | {} | {} | {} | {} | {} |",
                        cell(&case.name),
                        case.status().as_str(),
                        kind,
                        f.line.map_or(String::new(), |l| l.to_string()),
                        cell(f.op.as_deref().unwrap_or("")),
                        cell(&f.message),
                    );
                }
            }
            let _ = writeln!(md, "\nTo bless: `{}`\n", self.bless_command);
        }
        let mut tight: Vec<(&Case, &RenderCost)> = self
            .cases
            .iter()
            .filter_map(|c| Some((c, c.tightest()?)))
            .collect();
        tight.sort_by(|a, b| (a.1.headroom(), &a.0.name).cmp(&(b.1.headroom(), &b.0.name)));
        let _ = writeln!(
            md,
            "### Tightest dormant indexes\n\nThe {TIGHTEST} sessions with the least headroom under the {DORMANT_INDEX_CEILING}-byte ceiling (their tightest render).\n"
        );
        if tight.is_empty() {
            md.push_str("No session renders.\n");
        } else {
            md.push_str(
                "| session | render line | index bytes | headroom |\n|---|---:|---:|---:|\n",
            );
            for (case, render) in tight.into_iter().take(TIGHTEST) {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} |",
                    cell(&case.name),
                    render.line,
                    render.index_bytes,
                    render.headroom()
                );
            }
        }
        md
    }
}

/// `line 7 (describe): message` (`I3 line 7 …` for an invariant), or just
/// the message when it is not about one op or already says where.
fn where_and_what(failure: &Failure) -> String {
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

    fn report(cases: Vec<Case>) -> Report {
        Report {
            cases,
            deleted: Vec::new(),
            kept: Vec::new(),
            bless_command: "BLESS".into(),
            corpus: "corpora".into(),
            golden: "golden".into(),
            partition: None,
        }
    }

    fn breached() -> Case {
        let mut case = Case::new(
            CaseKind::Session,
            "modes/switch",
            "corpora/modes/switch.jsonl",
        );
        case.failures.push(Failure {
            kind: FailureKind::Invariant("I7"),
            line: Some(9),
            op: Some("render".into()),
            message: "the prefix bytes differ | on the re-replay".into(),
            diff: None,
        });
        case.renders = vec![
            RenderCost {
                line: 4,
                index_bytes: 1000,
            },
            RenderCost {
                line: 9,
                index_bytes: 1024,
            },
        ];
        case
    }

    #[test]
    fn the_closing_line_names_errors_only_when_there_are_some() {
        let mut totals = Totals {
            passed: 3,
            failed: 1,
            errors: 0,
        };
        assert_eq!(totals.closing_line(), "3 passed, 1 failed");
        totals.errors = 2;
        assert_eq!(totals.closing_line(), "3 passed, 1 failed, 2 errors");
    }

    #[test]
    fn an_invariant_breach_is_named_with_its_line_and_op_and_no_bless_command() {
        let out = report(vec![breached()]).human(Paint::Plain);
        assert_eq!(
            out,
            "FAIL  modes/switch\n\nfailures:\n\nFAIL modes/switch (corpora/modes/switch.jsonl)\n  I7 line 9 (render): the prefix bytes differ | on the re-replay\n\n0 passed, 1 failed\n"
        );
    }

    #[test]
    fn json_carries_the_invariant_and_each_render() {
        let json = report(vec![breached()]).json();
        let case = &json["cases"][0];
        assert_eq!(case["status"], "fail");
        assert_eq!(case["failures"][0]["kind"], "invariant");
        assert_eq!(case["failures"][0]["invariant"], "I7");
        assert_eq!(case["failures"][0]["line"], 9);
        assert_eq!(case["renders"][1]["headroom"], 0);
        assert_eq!(case["renders"][0]["headroom"], 24);
        assert_eq!(json["totals"]["failed"], 1);
    }

    #[test]
    fn the_summary_escapes_cells_and_lists_the_tightest_render() {
        let md = report(vec![breached()]).summary();
        assert!(
            md.contains("| modes/switch | fail | I7 | 9 | render | the prefix bytes differ \\| on the re-replay |"),
            "{md}"
        );
        assert!(md.contains("| modes/switch | 9 | 1024 | 0 |"), "{md}");
    }
    fn failure(kind: FailureKind, message: String) -> Failure {
        Failure {
            kind,
            line: None,
            op: None,
            message,
            diff: None,
        }
    }

    /// One case of every kind, every failure kind once, a blessed golden,
    /// a deleted orphan, a kept non-golden and a partition: what every
    /// format of the report is pinned on, byte for byte.
    fn every_kind() -> Report {
        let mut blessed = Case::new(CaseKind::Session, "a/blessed", "corpora/a/blessed.jsonl");
        blessed.blessed = Some("wrote golden/a/blessed.txt".into());
        blessed.renders = vec![RenderCost {
            line: 3,
            index_bytes: 0,
        }];
        let mut mismatch = Case::new(CaseKind::Session, "a/hint|cut", "corpora/a/hint|cut.jsonl");
        mismatch.failures.push(Failure {
            kind: FailureKind::Mismatch,
            line: Some(4),
            op: Some("render".into()),
            message: "the transcript differs from \"golden/a/hint|cut.txt\"".into(),
            diff: Some(disclose_replay::golden::unified(
                b"=== 4 render 10\n- x: a\tb\n",
                b"=== 4 render 10\n- x: a b \n",
                "golden",
                "replay",
            )),
        });
        mismatch.renders = vec![RenderCost {
            line: 4,
            index_bytes: 90,
        }];
        let mut malformed = Case::new(
            CaseKind::Session,
            "b/malformed",
            "corpora/b/malformed.jsonl",
        );
        malformed.failures.push(Failure {
            kind: FailureKind::Malformed,
            line: Some(2),
            op: None,
            message: "corpora/b/malformed.jsonl:2:1: op \"render\" needs a started run".into(),
            diff: None,
        });
        let mut limit = Case::new(CaseKind::Session, "b/huge", "corpora/b/huge.jsonl");
        limit.failures.push(Failure {
            kind: FailureKind::Limit,
            line: Some(7),
            op: Some("tool_defs".into()),
            message: "the transcript would pass 64 MiB".into(),
            diff: None,
        });
        let mut reserved = Case::new(CaseKind::Session, "vocabulary", "corpora/vocabulary.jsonl");
        reserved.failures.push(failure(
            FailureKind::ReservedName,
            "its golden would be \"golden/vocabulary.txt\"".into(),
        ));
        let mut unblessed = Case::new(CaseKind::Session, "c/new", "corpora/c/new.jsonl");
        unblessed.failures.push(failure(
            FailureKind::NoGolden,
            "no golden \"golden/c/new.txt\"; bless it with `BLESS`".into(),
        ));
        let mut orphan = Case::new(CaseKind::Orphan, "c/gone", "golden/c/gone.txt");
        orphan.failures.push(failure(
            FailureKind::Orphan,
            "no session \"corpora/c/gone.jsonl\" has this golden; blessing deletes it".into(),
        ));
        let mut entry = Case::new(CaseKind::Entry, "c/loop", "corpora/c/loop");
        entry.failures.push(failure(
            FailureKind::Io,
            "\"corpora/c/loop\": a link loop".into(),
        ));
        let mut vocabulary = Case::new(CaseKind::Vocabulary, "vocabulary", "golden/vocabulary.txt");
        vocabulary.failures.push(Failure {
            kind: FailureKind::Mismatch,
            line: None,
            op: None,
            message: "`disclose vocab` differs from \"golden/vocabulary.txt\"".into(),
            diff: Some(disclose_replay::golden::unified(
                b"E_A\n", b"E_B\n", "golden", "vocab",
            )),
        });
        Report {
            cases: vec![
                blessed,
                mismatch,
                malformed,
                limit,
                reserved,
                breached(),
                unblessed,
                orphan,
                entry,
                vocabulary,
            ],
            deleted: vec!["golden/old.txt".into()],
            kept: vec!["golden/notes.txt".into()],
            bless_command: "BLESS".into(),
            corpus: "corpora".into(),
            golden: "golden".into(),
            partition: Some("hash:1/2".into()),
        }
    }

    #[test]
    fn every_kind_for_a_person() {
        insta::assert_snapshot!(every_kind().human(Paint::Plain), @r#"
        pass  a/blessed (wrote golden/a/blessed.txt)
        FAIL  a/hint|cut
        ERROR b/malformed
        ERROR b/huge
        FAIL  vocabulary
        FAIL  modes/switch
        FAIL  c/new
        FAIL  c/gone
        ERROR c/loop
        FAIL  vocabulary
        deleted orphan golden/old.txt
        not a golden, kept: golden/notes.txt

        failures:

        FAIL a/hint|cut (corpora/a/hint|cut.jsonl)
          line 4 (render): the transcript differs from "golden/a/hint|cut.txt"
            --- golden
            +++ replay
            @@ -1,2 +1,2 @@
             === 4 render 10
            -- x: a␉b
            +- x: a b·
          to bless: BLESS

        ERROR b/malformed (corpora/b/malformed.jsonl)
        corpora/b/malformed.jsonl:2:1: op "render" needs a started run

        ERROR b/huge (corpora/b/huge.jsonl)
          line 7 (tool_defs): the transcript would pass 64 MiB

        FAIL vocabulary (corpora/vocabulary.jsonl)
          its golden would be "golden/vocabulary.txt"

        FAIL modes/switch (corpora/modes/switch.jsonl)
          I7 line 9 (render): the prefix bytes differ | on the re-replay

        FAIL c/new (corpora/c/new.jsonl)
          no golden "golden/c/new.txt"; bless it with `BLESS`

        FAIL c/gone (golden/c/gone.txt)
          no session "corpora/c/gone.jsonl" has this golden; blessing deletes it
          to bless: BLESS

        ERROR c/loop (corpora/c/loop)
          "corpora/c/loop": a link loop

        FAIL vocabulary (golden/vocabulary.txt)
          `disclose vocab` differs from "golden/vocabulary.txt"
            --- golden
            +++ vocab
            @@ -1 +1 @@
            -E_A
            +E_B
          to bless: BLESS

        blessed: wrote 1 goldens, deleted 1 orphans

        1 passed, 6 failed, 3 errors
        "#);
    }

    #[test]
    fn every_kind_in_colour() {
        let report = report(vec![
            breached(),
            Case::new(CaseKind::Vocabulary, "vocabulary", "golden/vocabulary.txt"),
        ]);
        insta::assert_snapshot!(format!("{:?}", report.human(Paint::Colour)), @"\"\\u{1b}[31mFAIL \\u{1b}[0m modes/switch\\n\\u{1b}[32mpass \\u{1b}[0m vocabulary\\n\\nfailures:\\n\\n\\u{1b}[31mFAIL\\u{1b}[0m modes/switch (corpora/modes/switch.jsonl)\\n  I7 line 9 (render): the prefix bytes differ | on the re-replay\\n\\n1 passed, 1 failed\\n\"");
    }

    #[test]
    fn every_kind_as_json() {
        let text = serde_json::to_string_pretty(&every_kind().json()).unwrap();
        insta::assert_snapshot!(text, @r#"
        {
          "cases": [
            {
              "blessed": "wrote golden/a/blessed.txt",
              "failures": [],
              "kind": "session",
              "name": "a/blessed",
              "path": "corpora/a/blessed.jsonl",
              "renders": [
                {
                  "headroom": 1024,
                  "index_bytes": 0,
                  "line": 3
                }
              ],
              "status": "pass"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 4 render 10\n-- x: a␉b\n+- x: a b·\n",
                  "kind": "mismatch",
                  "line": 4,
                  "message": "the transcript differs from \"golden/a/hint|cut.txt\"",
                  "op": "render"
                }
              ],
              "kind": "session",
              "name": "a/hint|cut",
              "path": "corpora/a/hint|cut.jsonl",
              "renders": [
                {
                  "headroom": 934,
                  "index_bytes": 90,
                  "line": 4
                }
              ],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "malformed",
                  "line": 2,
                  "message": "corpora/b/malformed.jsonl:2:1: op \"render\" needs a started run",
                  "op": null
                }
              ],
              "kind": "session",
              "name": "b/malformed",
              "path": "corpora/b/malformed.jsonl",
              "renders": [],
              "status": "error"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "limit",
                  "line": 7,
                  "message": "the transcript would pass 64 MiB",
                  "op": "tool_defs"
                }
              ],
              "kind": "session",
              "name": "b/huge",
              "path": "corpora/b/huge.jsonl",
              "renders": [],
              "status": "error"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "reserved_name",
                  "line": null,
                  "message": "its golden would be \"golden/vocabulary.txt\"",
                  "op": null
                }
              ],
              "kind": "session",
              "name": "vocabulary",
              "path": "corpora/vocabulary.jsonl",
              "renders": [],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "invariant": "I7",
                  "kind": "invariant",
                  "line": 9,
                  "message": "the prefix bytes differ | on the re-replay",
                  "op": "render"
                }
              ],
              "kind": "session",
              "name": "modes/switch",
              "path": "corpora/modes/switch.jsonl",
              "renders": [
                {
                  "headroom": 24,
                  "index_bytes": 1000,
                  "line": 4
                },
                {
                  "headroom": 0,
                  "index_bytes": 1024,
                  "line": 9
                }
              ],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "no_golden",
                  "line": null,
                  "message": "no golden \"golden/c/new.txt\"; bless it with `BLESS`",
                  "op": null
                }
              ],
              "kind": "session",
              "name": "c/new",
              "path": "corpora/c/new.jsonl",
              "renders": [],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "orphan",
                  "line": null,
                  "message": "no session \"corpora/c/gone.jsonl\" has this golden; blessing deletes it",
                  "op": null
                }
              ],
              "kind": "orphan",
              "name": "c/gone",
              "path": "golden/c/gone.txt",
              "renders": [],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "io",
                  "line": null,
                  "message": "\"corpora/c/loop\": a link loop",
                  "op": null
                }
              ],
              "kind": "entry",
              "name": "c/loop",
              "path": "corpora/c/loop",
              "renders": [],
              "status": "error"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": "--- golden\n+++ vocab\n@@ -1 +1 @@\n-E_A\n+E_B\n",
                  "kind": "mismatch",
                  "line": null,
                  "message": "`disclose vocab` differs from \"golden/vocabulary.txt\"",
                  "op": null
                }
              ],
              "kind": "vocabulary",
              "name": "vocabulary",
              "path": "golden/vocabulary.txt",
              "renders": [],
              "status": "fail"
            }
          ],
          "corpus": "corpora",
          "deleted_orphans": [
            "golden/old.txt"
          ],
          "format": 1,
          "golden": "golden",
          "kept": [
            "golden/notes.txt"
          ],
          "partition": "hash:1/2",
          "totals": {
            "errors": 3,
            "failed": 6,
            "passed": 1
          }
        }
        "#);
    }

    #[test]
    fn every_kind_as_junit() {
        insta::assert_snapshot!(every_kind().junit().unwrap(), @r#"
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="disclose" tests="10" skipped="0" failures="6" errors="3">
            <testsuite name="disclose check corpora" tests="10" skipped="0" errors="3" failures="6">
                <testcase name="a/blessed" classname="session"/>
                <testcase name="a/hint|cut" classname="session">
                    <failure message="line 4 (render): the transcript differs from &quot;golden/a/hint|cut.txt&quot;" type="mismatch">line 4 (render): the transcript differs from &quot;golden/a/hint|cut.txt&quot;
        --- golden
        +++ replay
        @@ -1,2 +1,2 @@
         === 4 render 10
        -- x: a␉b
        +- x: a b·
        to bless: BLESS
        </failure>
                </testcase>
                <testcase name="b/malformed" classname="session">
                    <error message="corpora/b/malformed.jsonl:2:1: op &quot;render&quot; needs a started run" type="malformed">corpora/b/malformed.jsonl:2:1: op &quot;render&quot; needs a started run
        </error>
                </testcase>
                <testcase name="b/huge" classname="session">
                    <error message="line 7 (tool_defs): the transcript would pass 64 MiB" type="limit">line 7 (tool_defs): the transcript would pass 64 MiB
        </error>
                </testcase>
                <testcase name="vocabulary" classname="session">
                    <failure message="its golden would be &quot;golden/vocabulary.txt&quot;" type="reserved_name">its golden would be &quot;golden/vocabulary.txt&quot;
        </failure>
                </testcase>
                <testcase name="modes/switch" classname="session">
                    <failure message="I7 line 9 (render): the prefix bytes differ | on the re-replay" type="invariant">I7 line 9 (render): the prefix bytes differ | on the re-replay
        </failure>
                </testcase>
                <testcase name="c/new" classname="session">
                    <failure message="no golden &quot;golden/c/new.txt&quot;; bless it with `BLESS`" type="no_golden">no golden &quot;golden/c/new.txt&quot;; bless it with `BLESS`
        </failure>
                </testcase>
                <testcase name="c/gone" classname="orphan">
                    <failure message="no session &quot;corpora/c/gone.jsonl&quot; has this golden; blessing deletes it" type="orphan">no session &quot;corpora/c/gone.jsonl&quot; has this golden; blessing deletes it
        to bless: BLESS
        </failure>
                </testcase>
                <testcase name="c/loop" classname="entry">
                    <error message="&quot;corpora/c/loop&quot;: a link loop" type="io">&quot;corpora/c/loop&quot;: a link loop
        </error>
                </testcase>
                <testcase name="vocabulary" classname="vocabulary">
                    <failure message="`disclose vocab` differs from &quot;golden/vocabulary.txt&quot;" type="mismatch">`disclose vocab` differs from &quot;golden/vocabulary.txt&quot;
        --- golden
        +++ vocab
        @@ -1 +1 @@
        -E_A
        +E_B
        to bless: BLESS
        </failure>
                </testcase>
            </testsuite>
        </testsuites>
        "#);
    }

    #[test]
    fn every_kind_as_a_step_summary() {
        insta::assert_snapshot!(every_kind().summary(), @r#"
        ## disclose check

        **1 passed, 6 failed, 3 errors**

        Partition `hash:1/2`.

        | passed | failed | errors |
        |---:|---:|---:|
        | 1 | 6 | 3 |

        ### Failures

        | case | status | kind | line | op | message |
        |---|---|---|---:|---|---|
        | a/hint\|cut | fail | mismatch | 4 | render | the transcript differs from "golden/a/hint\|cut.txt" |
        | b/malformed | error | malformed | 2 |  | corpora/b/malformed.jsonl:2:1: op "render" needs a started run |
        | b/huge | error | limit | 7 | tool\_defs | the transcript would pass 64 MiB |
        | vocabulary | fail | reserved_name |  |  | its golden would be "golden/vocabulary.txt" |
        | modes/switch | fail | I7 | 9 | render | the prefix bytes differ \| on the re-replay |
        | c/new | fail | no_golden |  |  | no golden "golden/c/new.txt"; bless it with \`BLESS\` |
        | c/gone | fail | orphan |  |  | no session "corpora/c/gone.jsonl" has this golden; blessing deletes it |
        | c/loop | error | io |  |  | "corpora/c/loop": a link loop |
        | vocabulary | fail | mismatch |  |  | \`disclose vocab\` differs from "golden/vocabulary.txt" |

        To bless: `BLESS`

        ### Tightest dormant indexes

        The 10 sessions with the least headroom under the 1024-byte ceiling (their tightest render).

        | session | render line | index bytes | headroom |
        |---|---:|---:|---:|
        | modes/switch | 9 | 1024 | 0 |
        | a/hint\|cut | 4 | 90 | 934 |
        | a/blessed | 3 | 0 | 1024 |
        "#);
    }

    #[test]
    fn a_passing_summary_without_renders() {
        let report = report(vec![Case::new(
            CaseKind::Vocabulary,
            "vocabulary",
            "golden/vocabulary.txt",
        )]);
        insta::assert_snapshot!(report.summary(), @r#"
        ## disclose check

        **1 passed, 0 failed**

        | passed | failed | errors |
        |---:|---:|---:|
        | 1 | 0 | 0 |

        ### Tightest dormant indexes

        The 10 sessions with the least headroom under the 1024-byte ceiling (their tightest render).

        No session renders.
        "#);
    }
}
