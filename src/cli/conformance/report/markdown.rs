//! The matrix in Markdown, for `$GITHUB_STEP_SUMMARY` (`--summary`,
//! `--markdown`): the totals per implementation, and the matrix of the
//! cases that are not ok everywhere, worst first (cases that are ok
//! everywhere are counted, not listed, so a large corpus fits a step
//! summary); past GitHub's limit, the matrix's last rows and the stale
//! expectations are left out ([`fit`]).

use std::fmt::Write as _;

use super::{MatrixReport, expect_file};
use crate::cli::format::markdown::{Align, SUMMARY_MAX, Table, Whole, cell, fit};

impl MatrixReport {
    /// Markdown for `$GITHUB_STEP_SUMMARY`: the totals per implementation,
    /// and the matrix of the cases that are not ok everywhere, worst first
    /// (cases that are ok everywhere are counted, not listed, so a large
    /// corpus fits a step summary); at most [`SUMMARY_MAX`] bytes, `whole`
    /// being where the whole report is when rows had to be left out.
    pub fn markdown(&self, whole: &Whole) -> String {
        let mut md = String::from("## disclose check --impl\n\n");
        let _ = writeln!(md, "**{}**\n", self.grand_totals().line());
        if let Some(partition) = &self.partition {
            let _ = writeln!(md, "Partition `{partition}`.\n");
        }
        let mut table = Table::new(
            &mut md,
            &[
                ("implementation", Align::Left),
                ("version", Align::Left),
                ("language", Align::Left),
                ("passed", Align::Right),
                ("failed", Align::Right),
                ("errored", Align::Right),
                ("skipped", Align::Right),
                ("expected", Align::Right),
            ],
        );
        for run in &self.runs {
            let t = self.totals(run);
            let (version, language) = run.hello.as_ref().map_or(("", ""), |h| {
                (
                    h.implementation.version.as_str(),
                    h.implementation.language.as_str(),
                )
            });
            table.row(&[
                cell(&run.id),
                cell(version),
                cell(language),
                t.passed.to_string(),
                t.failed.to_string(),
                t.errored.to_string(),
                t.skipped.to_string(),
                t.expected.to_string(),
            ]);
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
        let mut rows = Vec::new();
        if !listed.is_empty() {
            md.push_str("\n### Cases not passing everywhere, worst first\n\n");
            let ids: Vec<String> = self.runs.iter().map(|run| cell(&run.id)).collect();
            let header: Vec<(&str, Align)> = std::iter::once("case")
                .chain(ids.iter().map(String::as_str))
                .map(|name| (name, Align::Left))
                .collect();
            let mut table = Table::new(&mut md, &header);
            for c in listed {
                let row: Vec<String> = std::iter::once(cell(&self.cases[c].0))
                    .chain(
                        self.runs
                            .iter()
                            .map(|run| self.verdict(run, c).word().to_string()),
                    )
                    .collect();
                rows.push(table.row(&row));
            }
        }
        let _ = writeln!(
            md,
            "\n{fine} of {} cases pass (or are expected) on every implementation.",
            self.cases.len()
        );
        if self.runs.iter().any(|run| !run.stale.is_empty()) {
            md.push_str("\n### Stale expectations\n\n");
        }
        for run in &self.runs {
            for (case, entry) in &run.stale {
                let start = md.len();
                let _ = writeln!(
                    md,
                    "- {}: {}:{}: {} is not in the corpus",
                    cell(&run.id),
                    cell(&expect_file(run)),
                    entry.line,
                    cell(case)
                );
                rows.push(start..md.len());
            }
        }
        fit(&md, &rows, SUMMARY_MAX, whole)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::CaseOutcome;
    use super::super::fixtures::{passing, report, report_with_one_unstarted};
    use crate::cli::format::markdown::{SUMMARY_MAX, Whole};

    #[test]
    fn the_matrix_for_a_step_summary() {
        // Only the cases not ok everywhere; the `|` of a case id escaped.
        insta::assert_snapshot!(report().markdown(&Whole::default()), @r#"
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

    #[test]
    fn an_unstarted_implementation_for_a_step_summary() {
        insta::assert_snapshot!(report_with_one_unstarted().markdown(&Whole::default()), @r#"
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
    fn a_passing_matrix_for_a_step_summary() {
        insta::assert_snapshot!(passing().markdown(&Whole::default()), @r#"
        ## disclose check --impl

        **5 passed, 0 failed**

        | implementation | version | language | passed | failed | errored | skipped | expected |
        |---|---|---|---:|---:|---:|---:|---:|
        | disclose | 1.2.0 | typescript | 5 | 0 | 0 | 0 | 0 |

        5 of 5 cases pass (or are expected) on every implementation.
        "#);
    }

    #[test]
    fn a_matrix_past_githubs_limit_keeps_its_first_rows_whole() {
        // 40,000 more cases skipped everywhere: 27 bytes a row, 1.1 MB.
        let mut report = report();
        for i in 0..40_000 {
            report
                .cases
                .push((format!("big/{i:05}"), format!("corpora/big/{i:05}.jsonl")));
            for run in &mut report.runs {
                run.outcomes.push(CaseOutcome::Skipped("not yet".into()));
            }
        }
        let whole = Whole {
            json: None,
            junit: Some(Path::new("m.xml")),
        };
        let md = report.markdown(&whole);
        assert!(md.len() <= SUMMARY_MAX, "{}", md.len());
        // Worst first, as when nothing is left out: the fixture's four
        // cases, then the skipped ones in id order, each row whole.
        let rows: Vec<&str> = md
            .lines()
            .skip_while(|l| !l.starts_with("| case |"))
            .skip(2)
            .take_while(|l| l.starts_with("| "))
            .collect();
        assert_eq!(
            rows[..4],
            [
                "| b/broken | ERRORED | ERRORED |",
                "| b/crash | pass | ERRORED |",
                "| a/hint\\|cut | pass | FAIL |",
                "| a/fine | pass | XPASS |"
            ]
        );
        for (i, row) in rows[4..].iter().enumerate() {
            assert_eq!(*row, format!("| big/{i:05} | SKIP | SKIP |"));
        }
        // The stale expectation came last, so it is left out too.
        let left_out = 40_005 - rows.len();
        assert!(md.contains(&format!("\n\n**{left_out} of 40005 rows left out** to keep this summary under GitHub's 1 MiB limit; the whole report is in m.xml (JUnit).\n\n1 of 40005 cases pass")), "{}", &md[md.len() - 400..]);
        assert!(
            md.ends_with("### Stale expectations\n\n"),
            "{}",
            &md[md.len() - 400..]
        );
    }
}
