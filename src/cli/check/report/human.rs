//! The report for a person, on stdout: one status line per case in
//! order, the deleted orphans and kept non-goldens, each failure in full
//! with its diff and the bless command where blessing resolves it, then the
//! closing line, always last (SPEC §14). Colour only as [`Paint`] says.

use std::fmt::Write as _;

use super::{Case, CaseStatus, CheckReport, FailureKind, where_and_what};
use crate::cli::term::Paint;

impl CheckReport {
    /// The human report: one status line per case in order, then each
    /// failure in full, then the closing line (always last).
    pub fn human(&self, paint: Paint) -> String {
        let mut out = String::new();
        for case in &self.cases {
            let word = match case.status() {
                CaseStatus::Pass => paint.good("pass "),
                CaseStatus::Fail => paint.bad("FAIL "),
                CaseStatus::Error => paint.bad("ERROR"),
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
            CaseStatus::Error => paint.bad("ERROR"),
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
}

#[cfg(test)]
mod tests {
    use super::super::CaseKind;
    use super::super::fixtures::{breached, every_kind, report};
    use super::*;

    #[test]
    fn an_invariant_breach_is_named_with_its_line_and_op_and_no_bless_command() {
        let out = report(vec![breached()]).human(Paint::Plain);
        assert_eq!(
            out,
            "FAIL  modes/switch\n\nfailures:\n\nFAIL modes/switch (corpora/modes/switch.jsonl)\n  I7 line 9 (render): the prefix bytes differ | on the re-replay\n\n0 passed, 1 failed\n"
        );
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
}
