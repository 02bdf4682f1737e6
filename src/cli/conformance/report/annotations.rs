//! The matrix as GitHub annotations (`--annotations github`, the default
//! under GitHub Actions): one per cell that is not ok, in corpus order and
//! then `--impl` order, and one per stale expectation. A failed cell is
//! placed on its session at the first differing op's line; a pass or a
//! stale entry that `--expect` contradicts, on the expectation's line of
//! its file; a skip and an error, on the session, at no line (nothing in
//! it is at fault). A session no implementation could be given (malformed,
//! no golden) is one annotation, not one per implementation. Each message
//! is the cell as the human report tells it.

use super::{CaseOutcome, CellVerdict, MatrixReport, cell_detail, expect_file};
use crate::cli::format::github::Annotation;

impl MatrixReport {
    /// One annotation per cell that is not ok, then one per stale
    /// expectation.
    pub fn annotations(&self) -> Vec<Annotation> {
        let mut out = Vec::new();
        for (c, (case, session)) in self.cases.iter().enumerate() {
            if let Some(why) = self.corpus_problem(c) {
                out.push(Annotation {
                    file: session.clone(),
                    line: None,
                    column: None,
                    title: "disclose check --impl: the session could not be run".into(),
                    message: why.to_string(),
                });
                continue;
            }
            for run in &self.runs {
                let verdict = self.verdict(run, c);
                if verdict.is_ok() {
                    continue;
                }
                let outcome = run.outcomes.get(c).unwrap_or(&CaseOutcome::NotRun);
                let (file, line, what) = match (verdict, outcome) {
                    (CellVerdict::Fail, CaseOutcome::Fail { line, .. }) => (
                        session.clone(),
                        *line,
                        "the transcript differs from the golden",
                    ),
                    (CellVerdict::UnexpectedPass, _) => match run.expectations.get(case) {
                        Some(e) => (
                            expect_file(run),
                            Some(e.line),
                            "passed, though --expect says otherwise",
                        ),
                        None => (
                            session.clone(),
                            None,
                            "passed, though --expect says otherwise",
                        ),
                    },
                    (CellVerdict::Skip, _) => {
                        (session.clone(), None, "skipped, and not in --expect")
                    }
                    _ => (session.clone(), None, "errored"),
                };
                out.push(Annotation {
                    file,
                    line,
                    column: None,
                    title: format!("disclose check --impl: {} {what}", run.id),
                    message: unindented(&cell_detail(run, case, outcome, verdict)),
                });
            }
        }
        for run in &self.runs {
            for (case, entry) in &run.stale {
                out.push(Annotation {
                    file: expect_file(run),
                    line: Some(entry.line),
                    column: None,
                    title: format!("disclose check --impl: a stale expectation of {}", run.id),
                    message: format!("case \"{case}\" is not in the corpus; remove the entry"),
                });
            }
        }
        out
    }
}

/// The human report's lines of one cell, without its two-space indent.
fn unindented(text: &str) -> String {
    text.lines()
        .map(|line| line.strip_prefix("  ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{passing, report};
    use crate::cli::format::github::{Workspace, commands};

    #[test]
    fn the_matrix_as_annotations() {
        insta::assert_snapshot!(commands(&report().annotations(), &Workspace::default()), @r#"
        ::error file=expect.jsonl,line=3,title=disclose check --impl%3A port-ts passed%2C though --expect says otherwise::passed, but expect.jsonl:3 expects it to fail: was broken; remove the entry
        ::error file=corpora/a/hint|cut.jsonl,line=4,title=disclose check --impl%3A port-ts the transcript differs from the golden::line 4 (render): the transcript differs from "golden/a/hint|cut.txt"%0A  --- golden%0A  +++ replay%0A  @@ -1,2 +1,2 @@%0A   === 4 render 10%0A  -- x: a␉b%0A  +- x: a b·
        ::error file=corpora/b/broken.jsonl,title=disclose check --impl%3A the session could not be run::corpora/b/broken.jsonl:2:1: op "render" needs a started run
        ::error file=corpora/b/crash.jsonl,title=disclose check --impl%3A port-ts errored::it closed stdout without answering; it exited with status 1%0Astderr (last 2 lines):%0A  | TypeError: undefined is not a function%0A  |     at pack (index.ts:40)
        ::error file=expect.jsonl,line=2,title=disclose check --impl%3A a stale expectation of port-ts::case "a/renamed" is not in the corpus; remove the entry
        "#);
        assert_eq!(passing().annotations(), []);
    }
}
