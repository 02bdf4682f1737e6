//! The report as JSON (`--json`): every case with its status, failures
//! (an invariant's id beside its kind) and renders, the totals, the deleted
//! orphans and kept non-goldens. Built explicitly, key by key; the text is
//! [`crate::cli::format::json::pretty`]'s.

use serde_json::{Value, json};

use super::{CheckReport, FailureKind};

impl CheckReport {
    /// The `--json` report.
    pub fn json(&self) -> Value {
        let totals = self.totals();
        let cases: Vec<Value> = self
            .cases
            .iter()
            .map(|case| {
                let failures: Vec<Value> = case
                    .failures
                    .iter()
                    .map(|f| {
                        let mut failure = json!({
                            "kind": f.kind.as_str(),
                            "line": f.line,
                            "op": f.op,
                            "message": f.message,
                            "diff": f.diff,
                        });
                        if let (FailureKind::Invariant(id), Some(map)) =
                            (f.kind, failure.as_object_mut())
                        {
                            map.insert("invariant".into(), json!(id));
                        }
                        failure
                    })
                    .collect();
                let renders: Vec<Value> = case
                    .renders
                    .iter()
                    .map(|r| {
                        json!({"line": r.line, "index_bytes": r.index_bytes, "headroom": r.headroom()})
                    })
                    .collect();
                json!({
                    "name": case.name,
                    "path": case.path,
                    "kind": case.kind.as_str(),
                    "status": case.status().as_str(),
                    "failures": failures,
                    "renders": renders,
                    "blessed": case.blessed,
                })
            })
            .collect();
        json!({
            "format": 1,
            "corpus": self.corpus,
            "golden": self.golden,
            "partition": self.partition,
            "totals": {"passed": totals.passed, "failed": totals.failed, "errors": totals.errors},
            "cases": cases,
            "deleted_orphans": self.deleted,
            "kept": self.kept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{breached, every_kind, report};
    use crate::cli::format::json::pretty;

    #[test]
    fn json_carries_the_invariant_and_each_render() {
        let json = report(vec![breached()]).json();
        let case = &json["cases"][0];
        assert_eq!(case["status"], "fail");
        assert_eq!(case["failures"][0]["kind"], "invariant");
        assert_eq!(case["failures"][0]["invariant"], "I7");
        assert_eq!(case["failures"][0]["line"], 9);
        assert_eq!(case["renders"][1]["headroom"], 0);
        assert_eq!(case["renders"][0]["headroom"], 24);
        assert_eq!(json["totals"]["failed"], 1);
    }

    #[test]
    fn every_kind_as_json() {
        let text = pretty(&every_kind().json());
        insta::assert_snapshot!(text, @r#"
        {
          "cases": [
            {
              "blessed": "wrote golden/a/blessed.txt",
              "failures": [],
              "kind": "session",
              "name": "a/blessed",
              "path": "corpora/a/blessed.jsonl",
              "renders": [
                {
                  "headroom": 1024,
                  "index_bytes": 0,
                  "line": 3
                }
              ],
              "status": "pass"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 4 render 10\n-- x: a␉b\n+- x: a b·\n",
                  "kind": "mismatch",
                  "line": 4,
                  "message": "the transcript differs from \"golden/a/hint|cut.txt\"",
                  "op": "render"
                }
              ],
              "kind": "session",
              "name": "a/hint|cut",
              "path": "corpora/a/hint|cut.jsonl",
              "renders": [
                {
                  "headroom": 934,
                  "index_bytes": 90,
                  "line": 4
                }
              ],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "malformed",
                  "line": 2,
                  "message": "corpora/b/malformed.jsonl:2:1: op \"render\" needs a started run",
                  "op": null
                }
              ],
              "kind": "session",
              "name": "b/malformed",
              "path": "corpora/b/malformed.jsonl",
              "renders": [],
              "status": "error"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "limit",
                  "line": 7,
                  "message": "the transcript would pass 64 MiB",
                  "op": "tool_defs"
                }
              ],
              "kind": "session",
              "name": "b/huge",
              "path": "corpora/b/huge.jsonl",
              "renders": [],
              "status": "error"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "reserved_name",
                  "line": null,
                  "message": "its golden would be \"golden/vocabulary.txt\"",
                  "op": null
                }
              ],
              "kind": "session",
              "name": "vocabulary",
              "path": "corpora/vocabulary.jsonl",
              "renders": [],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "invariant": "I7",
                  "kind": "invariant",
                  "line": 9,
                  "message": "the prefix bytes differ | on the re-replay",
                  "op": "render"
                }
              ],
              "kind": "session",
              "name": "modes/switch",
              "path": "corpora/modes/switch.jsonl",
              "renders": [
                {
                  "headroom": 24,
                  "index_bytes": 1000,
                  "line": 4
                },
                {
                  "headroom": 0,
                  "index_bytes": 1024,
                  "line": 9
                }
              ],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "no_golden",
                  "line": null,
                  "message": "no golden \"golden/c/new.txt\"; bless it with `BLESS`",
                  "op": null
                }
              ],
              "kind": "session",
              "name": "c/new",
              "path": "corpora/c/new.jsonl",
              "renders": [],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "orphan",
                  "line": null,
                  "message": "no session \"corpora/c/gone.jsonl\" has this golden; blessing deletes it",
                  "op": null
                }
              ],
              "kind": "orphan",
              "name": "c/gone",
              "path": "golden/c/gone.txt",
              "renders": [],
              "status": "fail"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": null,
                  "kind": "io",
                  "line": null,
                  "message": "\"corpora/c/loop\": a link loop",
                  "op": null
                }
              ],
              "kind": "entry",
              "name": "c/loop",
              "path": "corpora/c/loop",
              "renders": [],
              "status": "error"
            },
            {
              "blessed": null,
              "failures": [
                {
                  "diff": "--- golden\n+++ vocab\n@@ -1 +1 @@\n-E_A\n+E_B\n",
                  "kind": "mismatch",
                  "line": null,
                  "message": "`disclose vocab` differs from \"golden/vocabulary.txt\"",
                  "op": null
                }
              ],
              "kind": "vocabulary",
              "name": "vocabulary",
              "path": "golden/vocabulary.txt",
              "renders": [],
              "status": "fail"
            }
          ],
          "corpus": "corpora",
          "deleted_orphans": [
            "golden/old.txt"
          ],
          "format": 1,
          "golden": "golden",
          "kept": [
            "golden/notes.txt"
          ],
          "partition": "hash:1/2",
          "totals": {
            "errors": 3,
            "failed": 6,
            "passed": 1
          }
        }
        "#);
    }
}
