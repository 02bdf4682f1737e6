//! The matrix as JUnit XML (`--junit`), through the one JUnit writer
//! ([`crate::cli::format::junit`]): one testsuite per implementation, one
//! testcase per case; an expected failure or skip is `skipped` with its
//! reason, a stale expectation a failing testcase of its own.

use super::{CaseOutcome, CellVerdict, ImplRun, MatrixReport, cell_detail, expect_file};
use crate::cli::format::junit::{self, JunitCase, JunitStatus, JunitSuite, NotPassed};

impl MatrixReport {
    /// The `--junit` report.
    pub fn junit(&self) -> Result<String, quick_junit::SerializeError> {
        let suites = self
            .runs
            .iter()
            .map(|run| {
                let mut cases: Vec<JunitCase> = self
                    .cases
                    .iter()
                    .enumerate()
                    .map(|(c, (case, _))| JunitCase {
                        name: case.clone(),
                        classname: run.id.clone(),
                        status: self.junit_status(run, c, case),
                    })
                    .collect();
                cases.extend(run.stale.iter().map(|(case, entry)| JunitCase {
                    name: format!("stale expectation {case}"),
                    classname: run.id.clone(),
                    status: JunitStatus::Failed(NotPassed {
                        kind: Some("stale_expectation".into()),
                        message: Some(format!(
                            "{}:{}: case \"{case}\" is not in the corpus",
                            expect_file(run),
                            entry.line
                        )),
                        description: None,
                    }),
                }));
                JunitSuite {
                    name: run.id.clone(),
                    cases,
                }
            })
            .collect();
        junit::write("disclose check --impl", suites)
    }

    /// One cell as a test case's status: an expected failure or skip is
    /// skipped, with the cell's detail as its reason; a cell that is not
    /// ok carries its verdict's state as its type, and its detail (for a
    /// case never run, the implementation's problem) as its text.
    fn junit_status(&self, run: &ImplRun, c: usize, case: &str) -> JunitStatus {
        let verdict = self.verdict(run, c);
        let outcome = run.outcomes.get(c).unwrap_or(&CaseOutcome::NotRun);
        let detail = cell_detail(run, case, outcome, verdict);
        let not_passed = |detail: String| {
            let text = match outcome {
                CaseOutcome::NotRun => run.problem.clone().unwrap_or_default(),
                _ => detail,
            };
            NotPassed {
                kind: Some(verdict.state().into()),
                message: Some(text.lines().next().unwrap_or("").trim().into()),
                description: Some(text),
            }
        };
        match verdict {
            CellVerdict::Pass => JunitStatus::Passed,
            CellVerdict::Expected => JunitStatus::Skipped(detail.trim().into()),
            CellVerdict::Errored => JunitStatus::Errored(not_passed(detail)),
            CellVerdict::Skip | CellVerdict::UnexpectedPass | CellVerdict::Fail => {
                JunitStatus::Failed(not_passed(detail))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{report, report_with_one_unstarted};

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
}
