//! The matrix in Markdown, for `$GITHUB_STEP_SUMMARY` (`--summary`,
//! `--markdown`): the totals per implementation, and the matrix of the
//! cases that are not ok everywhere, worst first (cases that are ok
//! everywhere are counted, not listed, so a large corpus fits a step
//! summary).

use std::fmt::Write as _;

use super::{MatrixReport, expect_file};
use crate::cli::format::markdown::{Align, Table, cell};

impl MatrixReport {
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
                table.row(&row);
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
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{passing, report, report_with_one_unstarted};

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
    fn a_passing_matrix_for_a_step_summary() {
        insta::assert_snapshot!(passing().markdown(), @r#"
        ## disclose check --impl

        **5 passed, 0 failed**

        | implementation | version | language | passed | failed | errored | skipped | expected |
        |---|---|---|---:|---:|---:|---:|---:|
        | disclose | 1.2.0 | typescript | 5 | 0 | 0 | 0 | 0 |

        5 of 5 cases pass (or are expected) on every implementation.
        "#);
    }
}
