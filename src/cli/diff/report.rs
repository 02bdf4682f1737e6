//! The three `diff` reports: human (stdout default), JSON, and Markdown for
//! a pull-request comment. Built explicitly from the verdicts; unchanged
//! sessions are counted in the human and Markdown reports and listed only in
//! JSON.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::cli::format::json::pretty;
use crate::cli::format::markdown::{Align, Table, cell, html};

use super::session::{Change, FirstDivergence, Sizes, TranscriptChange};
use super::{DiffEntry, DiffStatus};

const CACHE_MISS: &str = "a prompt-cache miss for every run like it";
const APPROVAL_VOID: &str = "an approval bound to the old digest no longer applies";

struct Counts {
    changed: usize,
    added: usize,
    removed: usize,
    unchanged: usize,
    unpaired: usize,
    prefix_changed: usize,
}

fn counts(entries: &[DiffEntry]) -> Counts {
    let mut c = Counts {
        changed: 0,
        added: 0,
        removed: 0,
        unchanged: 0,
        unpaired: 0,
        prefix_changed: 0,
    };
    for entry in entries {
        match &entry.status {
            DiffStatus::Unchanged => c.unchanged += 1,
            DiffStatus::Added => c.added += 1,
            DiffStatus::Removed => c.removed += 1,
            DiffStatus::Unpaired { .. } => c.unpaired += 1,
            DiffStatus::Changed(change) => {
                c.changed += 1;
                if matches!(&**change, Change::Transcript(t) if t.prefix_changed) {
                    c.prefix_changed += 1;
                }
            }
        }
    }
    c
}

fn summary(c: &Counts) -> String {
    let mut line = format!(
        "{} changed, {} added, {} removed, {} unchanged",
        c.changed, c.added, c.removed, c.unchanged
    );
    if c.unpaired > 0 {
        let _ = write!(
            line,
            " ({} non-transcript file{} in one tree only, ignored)",
            c.unpaired,
            if c.unpaired == 1 { "" } else { "s" }
        );
    }
    if c.prefix_changed > 0 {
        let _ = write!(
            line,
            "; the cached prefix changed in {} session{}: {CACHE_MISS}",
            c.prefix_changed,
            if c.prefix_changed == 1 { "" } else { "s" }
        );
    }
    line
}

fn bytes(n: Option<usize>) -> String {
    n.map_or("none".to_string(), |n| format!("{n} B"))
}

/// `601 B → 629 B (+28)`, or `601 B` when equal.
fn sizes(s: &Sizes) -> String {
    if s.old == s.new {
        return bytes(s.old);
    }
    match s.delta() {
        Some(d) => format!("{} → {} ({d:+})", bytes(s.old), bytes(s.new)),
        None => format!("{} → {}", bytes(s.old), bytes(s.new)),
    }
}

fn where_(divergence: &FirstDivergence) -> String {
    let side = |s: &Option<(usize, String)>| match s {
        Some((line, op)) => format!("line {line} {op}"),
        None => "no block".to_string(),
    };
    if divergence.old == divergence.new {
        format!("{}: output differs", side(&divergence.old))
    } else {
        format!(
            "old {}, new {}",
            side(&divergence.old),
            side(&divergence.new)
        )
    }
}

fn prefix_line(t: &TranscriptChange) -> String {
    if t.prefix_changed {
        format!(
            "changed (render {}, tool_defs {}): {CACHE_MISS}",
            sizes(&t.render),
            sizes(&t.tool_defs)
        )
    } else {
        "unchanged: the cached prefix still hits".to_string()
    }
}

fn refusals_line(t: &TranscriptChange) -> String {
    t.refusals
        .iter()
        .map(|r| {
            let verb = match (r.old, r.new) {
                (0, _) => "appeared",
                (_, 0) => "disappeared",
                _ => "count changed",
            };
            format!("{} {verb} ({} → {})", r.code, r.old, r.new)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn short(digest: &str) -> &str {
    digest.get(..16).unwrap_or(digest)
}

fn digests_line(t: &TranscriptChange) -> String {
    t.digests
        .iter()
        .map(|d| format!("{} {} → {}", d.name, short(&d.old), short(&d.new)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn indent(out: &mut String, text: &str, by: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "{by}{line}");
    }
}

/// The human report.
pub fn human(entries: &[DiffEntry]) -> String {
    let mut out = String::new();
    for entry in entries {
        let name = &entry.name;
        match &entry.status {
            DiffStatus::Unchanged => {}
            DiffStatus::Added => {
                let _ = writeln!(out, "added      {name}");
            }
            DiffStatus::Removed => {
                let _ = writeln!(out, "removed    {name}");
            }
            DiffStatus::Unpaired { side } => {
                let _ = writeln!(out, "ignored    {name} (not a transcript; only in {side})");
            }
            DiffStatus::Changed(change) => match &**change {
                Change::Text { diff } => {
                    let _ = writeln!(out, "changed    {name} (not a transcript)");
                    indent(&mut out, diff, "    ");
                }
                Change::Undecodable { side, error } => {
                    let _ = writeln!(
                        out,
                        "changed    {name}: the {side} transcript does not decode: {error}"
                    );
                }
                Change::Transcript(t) => {
                    let _ = writeln!(out, "changed    {name}");
                    match &t.divergence {
                        Some(d) => {
                            let _ = writeln!(out, "  first divergence: {}", where_(d));
                            indent(&mut out, &d.diff, "    ");
                        }
                        None => {
                            let _ = writeln!(
                                out,
                                "  every block is the same; only the framing bytes differ"
                            );
                        }
                    }
                    let _ = writeln!(out, "  prefix: {}", prefix_line(t));
                    if t.headroom.old.is_some() || t.headroom.new.is_some() {
                        let _ = writeln!(out, "  index headroom: {}", sizes(&t.headroom));
                    }
                    if !t.refusals.is_empty() {
                        let _ = writeln!(out, "  refusals: {}", refusals_line(t));
                    }
                    if !t.digests.is_empty() {
                        let _ = writeln!(
                            out,
                            "  digests changed: {}: {APPROVAL_VOID}",
                            digests_line(t)
                        );
                    }
                }
            },
        }
    }
    let _ = writeln!(out, "{}", summary(&counts(entries)));
    out
}

fn sizes_json(s: &Sizes) -> Value {
    json!({"old": s.old, "new": s.new, "delta": s.delta()})
}

fn side_json(side: &Option<(usize, String)>) -> Value {
    match side {
        Some((line, op)) => json!({"line": line, "op": op}),
        None => Value::Null,
    }
}

fn entry_json(entry: &DiffEntry) -> Value {
    let status = |s: &str| json!({"session": entry.name, "status": s});
    match &entry.status {
        DiffStatus::Unchanged => status("unchanged"),
        DiffStatus::Added => status("added"),
        DiffStatus::Removed => status("removed"),
        DiffStatus::Unpaired { side } => json!({
            "session": entry.name,
            "status": "ignored",
            "only_in": side,
        }),
        DiffStatus::Changed(change) => match &**change {
            Change::Text { diff } => json!({
                "session": entry.name,
                "status": "changed",
                "kind": "text",
                "diff": diff,
            }),
            Change::Undecodable { side, error } => json!({
                "session": entry.name,
                "status": "changed",
                "kind": "undecodable",
                "side": side,
                "error": error,
            }),
            Change::Transcript(t) => json!({
                "session": entry.name,
                "status": "changed",
                "kind": "transcript",
                "first_divergence": t.divergence.as_ref().map(|d| json!({
                    "old": side_json(&d.old),
                    "new": side_json(&d.new),
                    "diff": d.diff,
                })),
                "render_bytes": sizes_json(&t.render),
                "tool_defs_bytes": sizes_json(&t.tool_defs),
                "prefix_changed": t.prefix_changed,
                "index_headroom": sizes_json(&t.headroom),
                "refusals": t.refusals.iter().map(|r| json!({
                    "code": r.code, "old": r.old, "new": r.new,
                })).collect::<Vec<_>>(),
                "digests": t.digests.iter().map(|d| json!({
                    "name": d.name, "old": d.old, "new": d.new,
                })).collect::<Vec<_>>(),
            }),
        },
    }
}

/// The JSON report.
pub fn json(old: &Path, new: &Path, entries: &[DiffEntry]) -> String {
    let c = counts(entries);
    let report = json!({
        "old": old.display().to_string(),
        "new": new.display().to_string(),
        "summary": {
            "changed": c.changed,
            "added": c.added,
            "removed": c.removed,
            "unchanged": c.unchanged,
            "ignored": c.unpaired,
            "prefix_changed": c.prefix_changed,
        },
        "sessions": entries.iter().map(entry_json).collect::<Vec<_>>(),
    });
    pretty(&report)
}

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
                Change::Transcript(t) => table.row(&[
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
                ]),
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
    use super::*;
    use disclose_replay::golden::unified;

    use crate::cli::diff::session::{DigestChange, RefusalCount};

    fn entry(name: &str, status: DiffStatus) -> DiffEntry {
        DiffEntry {
            name: name.into(),
            status,
        }
    }

    /// One entry of every status and every kind of change: what the three
    /// reports are pinned on, byte for byte.
    fn every_status() -> Vec<DiffEntry> {
        let prefix = TranscriptChange {
            divergence: Some(FirstDivergence {
                old: Some((4, "render".into())),
                new: Some((4, "render".into())),
                diff: unified(
                    b"- x: a\tb\n",
                    b"- x: a b `` \n",
                    "old line 4 render",
                    "new line 4 render",
                ),
            }),
            render: Sizes {
                old: Some(120),
                new: Some(124),
            },
            tool_defs: Sizes {
                old: Some(300),
                new: Some(300),
            },
            prefix_changed: true,
            headroom: Sizes {
                old: Some(900),
                new: Some(896),
            },
            refusals: vec![
                RefusalCount {
                    code: "call.misfit".into(),
                    old: 1,
                    new: 0,
                },
                RefusalCount {
                    code: "gate.mode".into(),
                    old: 0,
                    new: 1,
                },
                RefusalCount {
                    code: "call.unknown".into(),
                    old: 2,
                    new: 3,
                },
            ],
            digests: vec![DigestChange {
                name: "x__get".into(),
                old: "0123456789abcdef0123".into(),
                new: "fedcba9876543210fedc".into(),
            }],
        };
        let framing = TranscriptChange {
            divergence: None,
            render: Sizes {
                old: None,
                new: None,
            },
            tool_defs: Sizes {
                old: Some(10),
                new: Some(10),
            },
            prefix_changed: false,
            headroom: Sizes {
                old: None,
                new: None,
            },
            refusals: Vec::new(),
            digests: Vec::new(),
        };
        let moved = TranscriptChange {
            divergence: Some(FirstDivergence {
                old: Some((5, "call".into())),
                new: None,
                diff: "-refused\n".into(),
            }),
            ..framing.clone()
        };
        vec![
            entry("a/same.txt", DiffStatus::Unchanged),
            entry("a/new.txt", DiffStatus::Added),
            entry("a/old.txt", DiffStatus::Removed),
            entry("a/notes.txt", DiffStatus::Unpaired { side: "OLD" }),
            entry(
                "b/prefix|cut.txt",
                DiffStatus::Changed(Box::new(Change::Transcript(prefix))),
            ),
            entry(
                "b/framing.txt",
                DiffStatus::Changed(Box::new(Change::Transcript(framing))),
            ),
            entry(
                "b/moved.txt",
                DiffStatus::Changed(Box::new(Change::Transcript(moved))),
            ),
            entry(
                "vocabulary.txt",
                DiffStatus::Changed(Box::new(Change::Text {
                    diff: unified(b"E_A\n", b"E_B\n", "old", "new"),
                })),
            ),
            entry(
                "c/<broken>.txt",
                DiffStatus::Changed(Box::new(Change::Undecodable {
                    side: "new",
                    error: "byte 22: a block header does not start with \"=== \"".into(),
                })),
            ),
        ]
    }

    #[test]
    fn every_status_for_a_person() {
        insta::assert_snapshot!(human(&every_status()), @r#"
        added      a/new.txt
        removed    a/old.txt
        ignored    a/notes.txt (not a transcript; only in OLD)
        changed    b/prefix|cut.txt
          first divergence: line 4 render: output differs
            --- old line 4 render
            +++ new line 4 render
            @@ -1 +1 @@
            -- x: a␉b
            +- x: a b ``·
          prefix: changed (render 120 B → 124 B (+4), tool_defs 300 B): a prompt-cache miss for every run like it
          index headroom: 900 B → 896 B (-4)
          refusals: call.misfit disappeared (1 → 0), gate.mode appeared (0 → 1), call.unknown count changed (2 → 3)
          digests changed: x__get 0123456789abcdef → fedcba9876543210: an approval bound to the old digest no longer applies
        changed    b/framing.txt
          every block is the same; only the framing bytes differ
          prefix: unchanged: the cached prefix still hits
        changed    b/moved.txt
          first divergence: old line 5 call, new no block
            -refused
          prefix: unchanged: the cached prefix still hits
        changed    vocabulary.txt (not a transcript)
            --- old
            +++ new
            @@ -1 +1 @@
            -E_A
            +E_B
        changed    c/<broken>.txt: the new transcript does not decode: byte 22: a block header does not start with "=== "
        5 changed, 1 added, 1 removed, 1 unchanged (1 non-transcript file in one tree only, ignored); the cached prefix changed in 1 session: a prompt-cache miss for every run like it
        "#);
    }

    #[test]
    fn every_status_as_json() {
        insta::assert_snapshot!(json(Path::new("old"), Path::new("new"), &every_status()), @r#"
        {
          "new": "new",
          "old": "old",
          "sessions": [
            {
              "session": "a/same.txt",
              "status": "unchanged"
            },
            {
              "session": "a/new.txt",
              "status": "added"
            },
            {
              "session": "a/old.txt",
              "status": "removed"
            },
            {
              "only_in": "OLD",
              "session": "a/notes.txt",
              "status": "ignored"
            },
            {
              "digests": [
                {
                  "name": "x__get",
                  "new": "fedcba9876543210fedc",
                  "old": "0123456789abcdef0123"
                }
              ],
              "first_divergence": {
                "diff": "--- old line 4 render\n+++ new line 4 render\n@@ -1 +1 @@\n-- x: a␉b\n+- x: a b ``·\n",
                "new": {
                  "line": 4,
                  "op": "render"
                },
                "old": {
                  "line": 4,
                  "op": "render"
                }
              },
              "index_headroom": {
                "delta": -4,
                "new": 896,
                "old": 900
              },
              "kind": "transcript",
              "prefix_changed": true,
              "refusals": [
                {
                  "code": "call.misfit",
                  "new": 0,
                  "old": 1
                },
                {
                  "code": "gate.mode",
                  "new": 1,
                  "old": 0
                },
                {
                  "code": "call.unknown",
                  "new": 3,
                  "old": 2
                }
              ],
              "render_bytes": {
                "delta": 4,
                "new": 124,
                "old": 120
              },
              "session": "b/prefix|cut.txt",
              "status": "changed",
              "tool_defs_bytes": {
                "delta": 0,
                "new": 300,
                "old": 300
              }
            },
            {
              "digests": [],
              "first_divergence": null,
              "index_headroom": {
                "delta": null,
                "new": null,
                "old": null
              },
              "kind": "transcript",
              "prefix_changed": false,
              "refusals": [],
              "render_bytes": {
                "delta": null,
                "new": null,
                "old": null
              },
              "session": "b/framing.txt",
              "status": "changed",
              "tool_defs_bytes": {
                "delta": 0,
                "new": 10,
                "old": 10
              }
            },
            {
              "digests": [],
              "first_divergence": {
                "diff": "-refused\n",
                "new": null,
                "old": {
                  "line": 5,
                  "op": "call"
                }
              },
              "index_headroom": {
                "delta": null,
                "new": null,
                "old": null
              },
              "kind": "transcript",
              "prefix_changed": false,
              "refusals": [],
              "render_bytes": {
                "delta": null,
                "new": null,
                "old": null
              },
              "session": "b/moved.txt",
              "status": "changed",
              "tool_defs_bytes": {
                "delta": 0,
                "new": 10,
                "old": 10
              }
            },
            {
              "diff": "--- old\n+++ new\n@@ -1 +1 @@\n-E_A\n+E_B\n",
              "kind": "text",
              "session": "vocabulary.txt",
              "status": "changed"
            },
            {
              "error": "byte 22: a block header does not start with \"=== \"",
              "kind": "undecodable",
              "session": "c/<broken>.txt",
              "side": "new",
              "status": "changed"
            }
          ],
          "summary": {
            "added": 1,
            "changed": 5,
            "ignored": 1,
            "prefix_changed": 1,
            "removed": 1,
            "unchanged": 1
          }
        }
        "#);
    }

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
    fn nothing_changed_as_markdown_and_for_a_person() {
        let same = vec![entry("a.txt", DiffStatus::Unchanged)];
        insta::assert_snapshot!(markdown(&same), @r#"
        ### disclose diff

        **0 changed, 0 added, 0 removed, 1 unchanged**
        "#);
        insta::assert_snapshot!(human(&same), @"0 changed, 0 added, 0 removed, 1 unchanged");
    }
}
