//! The report in Markdown (`--summary`), for `$GITHUB_STEP_SUMMARY`: the
//! totals, a table of every failure, and the sessions with the least
//! dormant-index headroom under the SPEC §16 ceiling; kept under GitHub's
//! limit by leaving out the failures table's last rows ([`fit`]).

use std::fmt::Write as _;

use disclose::DORMANT_INDEX_CEILING;

use super::{Case, CheckReport, FailureKind, RenderCost};
use crate::cli::format::markdown::{Align, SUMMARY_MAX, Table, Whole, cell, fit};

/// The sessions with the least index headroom listed by `--summary`.
pub const TIGHTEST: usize = 10;

impl CheckReport {
    /// The `--summary` report: Markdown for `$GITHUB_STEP_SUMMARY`, at
    /// most [`SUMMARY_MAX`] bytes; `whole` is where the whole report is
    /// when rows had to be left out.
    pub fn summary(&self, whole: &Whole) -> String {
        let totals = self.totals();
        let mut md = String::from("## disclose check\n\n");
        let _ = writeln!(md, "**{}**\n", totals.closing_line());
        if let Some(partition) = &self.partition {
            let _ = writeln!(md, "Partition `{partition}`.\n");
        }
        let mut table = Table::new(
            &mut md,
            &[
                ("passed", Align::Right),
                ("failed", Align::Right),
                ("errors", Align::Right),
            ],
        );
        table.row(&[totals.passed, totals.failed, totals.errors].map(|n| n.to_string()));
        md.push('\n');
        let failing = self.failing();
        let mut rows = Vec::new();
        if !failing.is_empty() {
            md.push_str("### Failures\n\n");
            let mut table = Table::new(
                &mut md,
                &[
                    ("case", Align::Left),
                    ("status", Align::Left),
                    ("kind", Align::Left),
                    ("line", Align::Right),
                    ("op", Align::Left),
                    ("message", Align::Left),
                ],
            );
            for case in failing {
                for f in &case.failures {
                    let kind = match f.kind {
                        FailureKind::Invariant(id) => id.to_string(),
                        kind => kind.as_str().to_string(),
                    };
                    rows.push(table.row(&[
                        cell(&case.name),
                        case.status().as_str().to_string(),
                        kind,
                        f.line.map_or(String::new(), |l| l.to_string()),
                        cell(f.op.as_deref().unwrap_or("")),
                        cell(&f.message),
                    ]));
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
            let mut table = Table::new(
                &mut md,
                &[
                    ("session", Align::Left),
                    ("render line", Align::Right),
                    ("index bytes", Align::Right),
                    ("headroom", Align::Right),
                ],
            );
            for (case, render) in tight.into_iter().take(TIGHTEST) {
                table.row(&[
                    cell(&case.name),
                    render.line.to_string(),
                    render.index_bytes.to_string(),
                    render.headroom().to_string(),
                ]);
            }
        }
        fit(&md, &rows, SUMMARY_MAX, whole)
    }
}

#[cfg(test)]
mod tests {
    use super::super::CaseKind;
    use super::super::fixtures::{breached, every_kind, report};
    use super::*;

    #[test]
    fn the_summary_escapes_cells_and_lists_the_tightest_render() {
        let md = report(vec![breached()]).summary(&Whole::default());
        assert!(
            md.contains("| modes/switch | fail | I7 | 9 | render | the prefix bytes differ \\| on the re-replay |"),
            "{md}"
        );
        assert!(md.contains("| modes/switch | 9 | 1024 | 0 |"), "{md}");
    }

    #[test]
    fn every_kind_as_a_step_summary() {
        insta::assert_snapshot!(every_kind().summary(&Whole::default()), @r#"
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
        insta::assert_snapshot!(report.summary(&Whole::default()), @r#"
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
