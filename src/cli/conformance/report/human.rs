//! The matrix for a person, on stdout: the implementations, the matrix
//! (worst cases first), every cell that is not ok in full, a summary line
//! per implementation, and the closing line, always last. Colour only as
//! [`Paint`] says.

use std::fmt::Write as _;

use super::{CaseOutcome, MatrixReport, cell_detail, expect_file, who};
use crate::cli::term::Paint;

impl MatrixReport {
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
                let outcome = run.outcomes.get(c).unwrap_or(&CaseOutcome::NotRun);
                if matches!(outcome, CaseOutcome::NotRun) {
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
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{report, report_with_one_unstarted};
    use super::*;

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
    fn a_passing_matrix_for_a_person() {
        insta::assert_snapshot!(super::super::fixtures::passing().human(Paint::Plain), @r#"
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
