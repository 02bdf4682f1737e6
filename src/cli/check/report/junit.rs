//! The report as JUnit XML (`--junit`), through the one JUnit writer
//! ([`crate::cli::format::junit`]): one testcase per case, classed by its
//! kind; a failing case carries its first failure as its message and every
//! failure, with its diff and the bless command, as its text.

use std::fmt::Write as _;

use super::{Case, CaseStatus, CheckReport, where_and_what};
use crate::cli::format::junit::{self, JunitCase, JunitStatus, JunitSuite, NotPassed};

impl CheckReport {
    /// The `--junit` report: one testcase per case; a failure carries every
    /// message and diff as its text.
    pub fn junit(&self) -> Result<String, quick_junit::SerializeError> {
        let cases = self
            .cases
            .iter()
            .map(|case| JunitCase {
                name: case.name.clone(),
                classname: case.kind.as_str().to_string(),
                status: self.junit_status(case),
            })
            .collect();
        junit::write(
            "disclose",
            vec![JunitSuite {
                name: format!("disclose check {}", self.corpus),
                cases,
            }],
        )
    }

    fn junit_status(&self, case: &Case) -> JunitStatus {
        let not_passed = || {
            let first = case.failures.first();
            NotPassed {
                kind: first.map(|f| f.kind.as_str().to_string()),
                message: first.map(where_and_what),
                description: Some(self.failure_text(case)),
            }
        };
        match case.status() {
            CaseStatus::Pass => JunitStatus::Passed,
            CaseStatus::Fail => JunitStatus::Failed(not_passed()),
            CaseStatus::Error => JunitStatus::Errored(not_passed()),
        }
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
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::every_kind;

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
}
