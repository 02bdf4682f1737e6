//! The matrix as JSON (`--json`): cases by id in corpus order, each with
//! its state on each implementation by id, and the implementations with
//! their hello, problem, expectations and totals. Built explicitly, key by
//! key; the text is [`crate::cli::format::json::pretty`]'s.

use serde_json::{Value, json};

use super::{CaseOutcome, ImplRun, MatrixReport, MatrixTotals};

impl MatrixTotals {
    fn json(&self) -> Value {
        json!({
            "passed": self.passed,
            "failed": self.failed,
            "errored": self.errored,
            "skipped": self.skipped,
            "expected": self.expected,
        })
    }
}

impl MatrixReport {
    /// The `--json` report: cases by id (corpus order), each with its state
    /// on each implementation by id.
    pub fn json(&self) -> Value {
        let implementations: Vec<Value> = self
            .runs
            .iter()
            .map(|run| {
                let hello = run.hello.as_ref().map(|h| {
                    json!({
                        "name": h.implementation.name,
                        "version": h.implementation.version,
                        "language": h.implementation.language,
                        "homepage": h.implementation.homepage,
                        "contract": h.contract,
                    })
                });
                json!({
                    "id": run.id,
                    "command": run.command,
                    "hello": hello,
                    "problem": run.problem,
                    "expect": run.expectations.file.as_ref().map(|f| f.display().to_string()),
                    "restarts": run.restarts,
                    "stale": run.stale.iter().map(|(case, e)| json!({"case": case, "line": e.line, "expect": e.expect.to_string(), "why": e.why})).collect::<Vec<_>>(),
                    "totals": self.totals(run).json(),
                })
            })
            .collect();
        let cases: Vec<Value> = self
            .cases
            .iter()
            .enumerate()
            .map(|(c, (case, path))| {
                let results: serde_json::Map<String, Value> = self
                    .runs
                    .iter()
                    .map(|run| (run.id.clone(), self.cell_json(run, c)))
                    .collect();
                json!({"case": case, "path": path, "results": results})
            })
            .collect();
        json!({
            "format": 1,
            "report": "check --impl",
            "contract": disclose::CONTRACT_VERSION,
            "corpus": self.corpus,
            "golden": self.golden,
            "partition": self.partition,
            "totals": self.grand_totals().json(),
            "implementations": implementations,
            "cases": cases,
        })
    }

    fn cell_json(&self, run: &ImplRun, c: usize) -> Value {
        let outcome = run.outcomes.get(c).unwrap_or(&CaseOutcome::NotRun);
        let mut cell = json!({"state": self.verdict(run, c).state()});
        let Some(map) = cell.as_object_mut() else {
            return cell;
        };
        if let Some(e) = run.expectations.get(&self.cases[c].0) {
            map.insert(
                "expected".into(),
                json!({"expect": e.expect.to_string(), "why": e.why}),
            );
        }
        let (outcome_word, extra) = match outcome {
            CaseOutcome::Pass => ("pass", json!({})),
            CaseOutcome::Fail {
                line,
                op,
                message,
                diff,
            } => (
                "fail",
                json!({"line": line, "op": op, "message": message, "diff": diff}),
            ),
            CaseOutcome::Skipped(why) => ("skipped", json!({"message": why})),
            CaseOutcome::Errored(t) => (
                "errored",
                json!({
                    "message": t.what,
                    "offending": t.offending.as_ref().map(|b| String::from_utf8_lossy(&b.head).into_owned()),
                    "offending_bytes": t.offending.as_ref().map(|b| b.len),
                    "stderr": t.stderr,
                }),
            ),
            CaseOutcome::NotRun => ("not_run", json!({"message": run.problem})),
            CaseOutcome::Corpus(why) => ("corpus_error", json!({"message": why})),
            CaseOutcome::Io(why) => ("io_error", json!({"message": why})),
        };
        map.insert("outcome".into(), json!(outcome_word));
        if let Value::Object(extra) = extra {
            map.extend(extra);
        }
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{report, report_with_one_unstarted};
    use crate::cli::format::json::pretty;

    #[test]
    fn the_matrix_as_json() {
        let text = pretty(&report().json());
        insta::assert_snapshot!(text, @r#"
        {
          "cases": [
            {
              "case": "a/fine",
              "path": "corpora/a/fine.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "expected": {
                    "expect": "fail",
                    "why": "was broken"
                  },
                  "outcome": "pass",
                  "state": "unexpected_pass"
                }
              }
            },
            {
              "case": "a/hint|cut",
              "path": "corpora/a/hint|cut.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "diff": "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 4 render 10\n-- x: a␉b\n+- x: a b·\n",
                  "line": 4,
                  "message": "the transcript differs from \"golden/a/hint|cut.txt\"",
                  "op": "render",
                  "outcome": "fail",
                  "state": "fail"
                }
              }
            },
            {
              "case": "b/broken",
              "path": "corpora/b/broken.jsonl",
              "results": {
                "disclose": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                },
                "port-ts": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                }
              }
            },
            {
              "case": "b/crash",
              "path": "corpora/b/crash.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "message": "it closed stdout without answering; it exited with status 1",
                  "offending": null,
                  "offending_bytes": null,
                  "outcome": "errored",
                  "state": "errored",
                  "stderr": [
                    "TypeError: undefined is not a function",
                    "    at pack (index.ts:40)"
                  ]
                }
              }
            },
            {
              "case": "b/skip",
              "path": "corpora/b/skip.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "port-ts": {
                  "expected": {
                    "expect": "skip",
                    "why": "no carried skills yet"
                  },
                  "message": "no carried skills yet",
                  "outcome": "skipped",
                  "state": "expected"
                }
              }
            }
          ],
          "contract": 5,
          "corpus": "corpora",
          "format": 1,
          "golden": "golden",
          "implementations": [
            {
              "command": "./disclose",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "disclose",
                "version": "1.2.0"
              },
              "id": "disclose",
              "problem": null,
              "restarts": 0,
              "stale": [],
              "totals": {
                "errored": 1,
                "expected": 0,
                "failed": 0,
                "passed": 4,
                "skipped": 0
              }
            },
            {
              "command": "./port-ts",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "port-ts",
                "version": "1.2.0"
              },
              "id": "port-ts",
              "problem": null,
              "restarts": 0,
              "stale": [
                {
                  "case": "a/renamed",
                  "expect": "fail",
                  "line": 2,
                  "why": "old name"
                }
              ],
              "totals": {
                "errored": 2,
                "expected": 1,
                "failed": 3,
                "passed": 0,
                "skipped": 0
              }
            }
          ],
          "partition": null,
          "report": "check --impl",
          "totals": {
            "errored": 3,
            "expected": 1,
            "failed": 3,
            "passed": 4,
            "skipped": 0
          }
        }
        "#);
    }

    #[test]
    fn an_unstarted_implementation_as_json() {
        let text = pretty(&report_with_one_unstarted().json());
        insta::assert_snapshot!(text, @r#"
        {
          "cases": [
            {
              "case": "a/fine",
              "path": "corpora/a/fine.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "expected": {
                    "expect": "fail",
                    "why": "was broken"
                  },
                  "outcome": "pass",
                  "state": "unexpected_pass"
                }
              }
            },
            {
              "case": "a/hint|cut",
              "path": "corpora/a/hint|cut.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "diff": "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 4 render 10\n-- x: a␉b\n+- x: a b·\n",
                  "line": 4,
                  "message": "the transcript differs from \"golden/a/hint|cut.txt\"",
                  "op": "render",
                  "outcome": "fail",
                  "state": "fail"
                }
              }
            },
            {
              "case": "b/broken",
              "path": "corpora/b/broken.jsonl",
              "results": {
                "disclose": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "message": "corpora/b/broken.jsonl:2:1: op \"render\" needs a started run",
                  "outcome": "corpus_error",
                  "state": "errored"
                }
              }
            },
            {
              "case": "b/crash",
              "path": "corpora/b/crash.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "message": "it closed stdout without answering; it exited with status 1",
                  "offending": null,
                  "offending_bytes": null,
                  "outcome": "errored",
                  "state": "errored",
                  "stderr": [
                    "TypeError: undefined is not a function",
                    "    at pack (index.ts:40)"
                  ]
                }
              }
            },
            {
              "case": "b/skip",
              "path": "corpora/b/skip.jsonl",
              "results": {
                "disclose": {
                  "outcome": "pass",
                  "state": "pass"
                },
                "gone": {
                  "message": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
                  "outcome": "not_run",
                  "state": "errored"
                },
                "port-ts": {
                  "expected": {
                    "expect": "skip",
                    "why": "no carried skills yet"
                  },
                  "message": "no carried skills yet",
                  "outcome": "skipped",
                  "state": "expected"
                }
              }
            }
          ],
          "contract": 5,
          "corpus": "corpora",
          "format": 1,
          "golden": "golden",
          "implementations": [
            {
              "command": "./disclose",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "disclose",
                "version": "1.2.0"
              },
              "id": "disclose",
              "problem": null,
              "restarts": 0,
              "stale": [],
              "totals": {
                "errored": 1,
                "expected": 0,
                "failed": 0,
                "passed": 4,
                "skipped": 0
              }
            },
            {
              "command": "./port-ts",
              "expect": "expect.jsonl",
              "hello": {
                "contract": [
                  2
                ],
                "homepage": null,
                "language": "typescript",
                "name": "port-ts",
                "version": "1.2.0"
              },
              "id": "port-ts",
              "problem": null,
              "restarts": 0,
              "stale": [
                {
                  "case": "a/renamed",
                  "expect": "fail",
                  "line": 2,
                  "why": "old name"
                }
              ],
              "totals": {
                "errored": 2,
                "expected": 1,
                "failed": 3,
                "passed": 0,
                "skipped": 0
              }
            },
            {
              "command": "./gone",
              "expect": null,
              "hello": null,
              "id": "gone",
              "problem": "could not start \"./gone\": No such file or directory (os error 2); none of its cases were run",
              "restarts": 0,
              "stale": [],
              "totals": {
                "errored": 5,
                "expected": 0,
                "failed": 0,
                "passed": 0,
                "skipped": 0
              }
            }
          ],
          "partition": "hash:2/3",
          "report": "check --impl",
          "totals": {
            "errored": 8,
            "expected": 1,
            "failed": 3,
            "passed": 4,
            "skipped": 0
          }
        }
        "#);
    }
}
