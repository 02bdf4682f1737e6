//! The `diff` report in Markdown (`--markdown`), for a pull-request
//! comment: the summary, a table of the sessions that changed, and each
//! change's diff folded in a `<details>` block whose fence outgrows any
//! backticks in it.

use std::fmt::Write as _;

use super::{
    APPROVAL_VOID, Change, DiffEntry, DiffStatus, counts, digests_line, refusals_line, sizes,
    summary, where_,
};
use crate::cli::format::markdown::{Align, Table, cell, html};

fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// The Markdown report, for a pull-request comment.
pub fn markdown(entries: &[DiffEntry]) -> String {
    let c = counts(entries);
    let mut out = String::from("### disclose diff\n\n");
    let _ = writeln!(out, "**{}**\n", summary(&c));
    let listed: Vec<&DiffEntry> = entries
        .iter()
        .filter(|e| {
            !matches!(
                e.status,
                DiffStatus::Unchanged | DiffStatus::Unpaired { .. }
            )
        })
        .collect();
    if listed.is_empty() {
        return out;
    }
    let mut table = Table::new(
        &mut out,
        &[
            "session",
            "status",
            "prefix",
            "render",
            "tool_defs",
            "index headroom",
            "refusals",
            "digests changed",
        ]
        .map(|name| (name, Align::Left)),
    );
    for entry in &listed {
        let name = cell(&entry.name);
        match &entry.status {
            DiffStatus::Unchanged | DiffStatus::Unpaired { .. } => continue,
            DiffStatus::Added => table.row_then_empty(&[name, "added".into()]),
            DiffStatus::Removed => table.row_then_empty(&[name, "removed".into()]),
            DiffStatus::Changed(change) => match &**change {
                Change::Text { .. } => {
                    table.row_then_empty(&[name, "changed (not a transcript)".into()]);
                }
                Change::Undecodable { side, error } => table.row_then_empty(&[
                    name,
                    format!(
                        "changed: the {side} transcript does not decode ({})",
                        cell(error)
                    ),
                ]),
                Change::Transcript(t) => {
                    table.row(&[
                        name,
                        "changed".into(),
                        if t.prefix_changed {
                            "**changed: cache miss**"
                        } else {
                            "unchanged"
                        }
                        .into(),
                        sizes(&t.render),
                        sizes(&t.tool_defs),
                        sizes(&t.headroom),
                        cell(&refusals_line(t)),
                        cell(&digests_line(t)),
                    ]);
                }
            },
        }
    }
    let changed_digests = listed.iter().any(|e| {
        matches!(&e.status, DiffStatus::Changed(c) if matches!(&**c, Change::Transcript(t) if !t.digests.is_empty()))
    });
    if changed_digests {
        let _ = writeln!(out, "\nA changed digest means {APPROVAL_VOID}.");
    }
    for entry in &listed {
        let DiffStatus::Changed(change) = &entry.status else {
            continue;
        };
        let (title, body) = match &**change {
            Change::Transcript(t) => match &t.divergence {
                Some(d) => (format!("first divergence: {}", where_(d)), d.diff.clone()),
                None => continue,
            },
            Change::Text { diff } => ("not a transcript".to_string(), diff.clone()),
            Change::Undecodable { .. } => continue,
        };
        let fence = "`".repeat((longest_run(&body, '`') + 1).max(3));
        let _ = write!(
            out,
            "\n<details><summary>{}: {}</summary>\n\n{fence}diff\n{body}{fence}\n\n</details>\n",
            html(&entry.name),
            html(&title)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{entry, every_status};
    use super::*;

    #[test]
    fn every_status_as_markdown() {
        insta::assert_snapshot!(markdown(&every_status()), @r#"
        ### disclose diff

        **5 changed, 1 added, 1 removed, 1 unchanged (1 non-transcript file in one tree only, ignored); the cached prefix changed in 1 session: a prompt-cache miss for every run like it**

        | session | status | prefix | render | tool_defs | index headroom | refusals | digests changed |
        |---|---|---|---|---|---|---|---|
        | a/new.txt | added | | | | | | |
        | a/old.txt | removed | | | | | | |
        | b/prefix\|cut.txt | changed | **changed: cache miss** | 120 B → 124 B (+4) | 300 B | 900 B → 896 B (-4) | call.misfit disappeared (1 → 0), gate.mode appeared (0 → 1), call.unknown count changed (2 → 3) | x\_\_get 0123456789abcdef → fedcba9876543210 |
        | b/framing.txt | changed | unchanged | none | 10 B | none |  |  |
        | b/moved.txt | changed | unchanged | none | 10 B | none |  |  |
        | vocabulary.txt | changed (not a transcript) | | | | | | |
        | c/\<broken\>.txt | changed: the new transcript does not decode (byte 22: a block header does not start with "=== ") | | | | | | |

        A changed digest means an approval bound to the old digest no longer applies.

        <details><summary>b/prefix|cut.txt: first divergence: line 4 render: output differs</summary>

        ```diff
        --- old line 4 render
        +++ new line 4 render
        @@ -1 +1 @@
        -- x: a␉b
        +- x: a b ``·
        ```

        </details>

        <details><summary>b/moved.txt: first divergence: old line 5 call, new no block</summary>

        ```diff
        -refused
        ```

        </details>

        <details><summary>vocabulary.txt: not a transcript</summary>

        ```diff
        --- old
        +++ new
        @@ -1 +1 @@
        -E_A
        +E_B
        ```

        </details>
        "#);
    }

    #[test]
    fn nothing_changed_as_markdown() {
        let same = vec![entry("a.txt", DiffStatus::Unchanged)];
        insta::assert_snapshot!(markdown(&same), @r#"
        ### disclose diff

        **0 changed, 0 added, 0 removed, 1 unchanged**
        "#);
    }
}
