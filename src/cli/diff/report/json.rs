//! The `diff` report as JSON (`--json`): both paths, the counts, and every
//! session with its status and, for a changed transcript, every figure.
//! Built explicitly, key by key; the text is
//! [`crate::cli::format::json::pretty`]'s.

use std::path::Path;

use serde_json::{Value, json};

use super::{Change, DiffEntry, DiffStatus, Sizes, counts};
use crate::cli::format::json::pretty;

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

#[cfg(test)]
mod tests {
    use super::super::fixtures::every_status;
    use super::*;

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
}
