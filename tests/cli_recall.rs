//! `disclose recall` through the public CLI: ranks, misses, figures and
//! report formats; every bad input is checked for its `path:line:column`,
//! its exit status 2, and that the good tasks beside it are still measured.
//! The ranks are contract 4's (SPEC §5.3): where only keywords can score
//! (a query whose words have no vector, so every cosine is 0) the
//! arithmetic is in the comments; elsewhere a rank also weighs the cosine of
//! the word vectors, and is the one `describe` lists, which
//! tests/ranking.rs holds to an independent model of §5.

mod common;

use common::{disclose, stderr, stdout};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Three tools and a skill: with the doors, N = 6 and (N+1)² = 49. The
/// `describe` op is ignored: recall uses only declarations and `start`.
const CATALOG: &str = r#"{"op":"session","format":1,"about":"recall test catalog"}
{"op":"tool","origin":"gh","name":"create_issue","description":"Open a new issue.","input_schema":{"type":"object"},"effect":"reversible","approval":"never"}
{"op":"tool","origin":"gh","name":"list_issues","description":"List issues.","input_schema":{"type":"object"},"effect":"read","approval":"never"}
{"op":"tool","origin":"gh","name":"close_issue","description":"Close an issue. ꙮ","input_schema":{"type":"object"},"effect":"reversible","approval":"never"}
{"op":"skill","name":"triage","disclosure":"Sort new issues by label.","address":"t.md"}
{"op":"start","mode":"chat"}
{"op":"describe","name":"ignored"}
"#;

/// Weights over N = 6: `open`, `close`, `sort` df 1 → bit_length(49) = 6;
/// `new` (create_issue, triage), `issue` (create_issue, close_issue) and
/// `issues` (list_issues, triage) df 2 → bit_length(12) = 4.
///
/// 1. open 6 + new 4 + issue 4·4 → gh__create_issue 26, gh__close_issue 16,
///    triage 4: #1.
/// 2. `is` and `it` are stopwords and `ꙮ` (U+A66E) has no WordPiece split,
///    so the query vector is 0 and every cosine 0; `ꙮ` is in
///    gh__close_issue's text only (df 1, weight 6): it alone scores, 1024,
///    and gh__list_issues is a miss.
/// 3. gh__list_issues (`list`, `issues`) leads; with the vectors, triage
///    (`sort`, `issues`) comes second (the fused ranking).
/// 4. (after a blank line) close 6·4 + issue 4·4: gh__close_issue 40,
///    gh__create_issue 16: #1, both expected names listed.
const QUERIES: &str = r#"{"query": "Please open a new issue about the crash.", "expect": ["gh__create_issue"]}
{"query": "Is it ꙮ?", "expect": ["gh__list_issues"]}
{"query": "List the issues I should sort", "expect": ["triage"]}

{"query": "Close the issue.", "expect": ["gh__close_issue", "gh__create_issue"]}
"#;

/// hit@1 2/4, hit@3 3/4, hit@8 3/4; recall@8 (1 + 0 + 1 + 1)/4; MRR
/// (1 + 0 + 1/2 + 1)/4.
const FIGURES: &str = "hit@1 50.0%  hit@3 75.0%  hit@8 75.0%  recall@8 75.0%  MRR 0.625";

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        Files {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn write(&self, rel: &str, text: &str) -> String {
        common::write(self.dir.path(), rel, text)
    }
}

fn recall(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["recall"];
    all.extend(args);
    let output = disclose(&all);
    (output.status.code(), stdout(&output), stderr(&output))
}

#[test]
fn human_report_ranks_each_task_and_sums_up() {
    let files = Files::new();
    let catalog = files.write("catalog.jsonl", CATALOG);
    let queries = files.write("tasks.recall", QUERIES);
    let (code, out, err) = recall(&[&catalog, &queries]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert_eq!(
        out,
        format!(
            "{queries} on {catalog}\n\
             \x20 #1    line 1    \"Please open a new issue about the crash.\" → gh__create_issue\n\
             \x20 miss  line 2    \"Is it ꙮ?\" → missed gh__list_issues; listed instead: gh__close_issue\n\
             \x20 #2    line 3    \"List the issues I should sort\" → triage, after gh__list_issues\n\
             \x20 #1    line 5    \"Close the issue.\" → gh__close_issue\n\
             \x20 4 tasks: {FIGURES}\n\
             \n\
             4 tasks in 1 file: {FIGURES}\n"
        )
    );
}

#[test]
fn min_hit8_passes_at_the_figure_and_fails_below_it() {
    let files = Files::new();
    let catalog = files.write("catalog.jsonl", CATALOG);
    let queries = files.write("tasks.recall", QUERIES);
    let (code, out, _) = recall(&[&catalog, &queries, "--min-hit8", "75"]);
    assert_eq!(code, Some(0));
    assert!(
        out.ends_with("\nhit@8 75.0% meets --min-hit8 75%\n"),
        "{out}"
    );
    let (code, out, _) = recall(&[&catalog, &queries, "--min-hit8", "75.1"]);
    assert_eq!(code, Some(1));
    assert!(
        out.ends_with("\nhit@8 75.0% is below --min-hit8 75.1%\n"),
        "{out}"
    );
    for bad in ["101", "-1", "most", "NaN"] {
        let flag = format!("--min-hit8={bad}");
        let (code, _, err) = recall(&[&catalog, &queries, &flag]);
        assert_eq!(code, Some(2), "--min-hit8 {bad}");
        assert!(err.contains("is not a percentage from 0 to 100"), "{err}");
    }
}

#[test]
fn json_report_holds_every_task_and_the_figures() {
    let files = Files::new();
    let catalog = files.write("catalog.jsonl", CATALOG);
    let queries = files.write("tasks.recall", QUERIES);
    let (code, out, _) = recall(&[&catalog, &queries, "--json", "--min-hit8", "80"]);
    assert_eq!(code, Some(1));
    let report: Value = serde_json::from_str(&out).unwrap();
    let file = &report["files"][0];
    assert_eq!(file["catalog"], catalog.as_str());
    assert_eq!(file["queries"], queries.as_str());
    let ranks: Vec<&Value> = (0..4).map(|i| &file["tasks"][i]["rank"]).collect();
    assert_eq!(
        ranks,
        [
            &Value::from(1),
            &Value::Null,
            &Value::from(2),
            &Value::from(1)
        ]
    );
    assert_eq!(file["tasks"][1]["found"], Value::Null);
    assert_eq!(
        file["tasks"][1]["hits"],
        serde_json::json!(["gh__close_issue"])
    );
    assert_eq!(file["tasks"][3]["line"], 5);
    assert_eq!(file["tasks"][3]["expected_listed"], 2);
    assert_eq!(file["tasks"][2]["found"], "triage");
    let summary = &report["summary"];
    assert_eq!(summary["tasks"], 4);
    assert_eq!(
        (
            &summary["hit_at_1"],
            &summary["hit_at_3"],
            &summary["hit_at_8"]
        ),
        (&Value::from(2), &Value::from(3), &Value::from(3))
    );
    assert_eq!(summary["hit_rate_at_8"], 0.75);
    assert_eq!(summary["recall_at_8"], 0.75);
    let mrr = summary["mrr"].as_f64().unwrap_or_default();
    assert!((mrr - 2.5 / 4.0).abs() < 1e-12, "{mrr}");
    assert_eq!(report["min_hit8"], 80.0);
    assert_eq!(report["pass"], false);
    assert_eq!(report["errors"], 0);
    assert_eq!(file["summary"], report["summary"]);
    // Byte for byte, with the tempdir's paths named instead.
    let named = out
        .replace(&catalog, "CATALOG")
        .replace(&queries, "QUERIES");
    insta::assert_snapshot!(named, @r#"
    {
      "errors": 0,
      "files": [
        {
          "catalog": "CATALOG",
          "queries": "QUERIES",
          "summary": {
            "hit_at_1": 2,
            "hit_at_3": 3,
            "hit_at_8": 3,
            "hit_rate_at_1": 0.5,
            "hit_rate_at_3": 0.75,
            "hit_rate_at_8": 0.75,
            "mrr": 0.625,
            "recall_at_8": 0.75,
            "tasks": 4
          },
          "tasks": [
            {
              "expect": [
                "gh__create_issue"
              ],
              "expected_listed": 1,
              "found": "gh__create_issue",
              "hits": [
                "gh__create_issue",
                "gh__close_issue",
                "gh__list_issues",
                "call",
                "triage"
              ],
              "line": 1,
              "query": "Please open a new issue about the crash.",
              "rank": 1
            },
            {
              "expect": [
                "gh__list_issues"
              ],
              "expected_listed": 0,
              "found": null,
              "hits": [
                "gh__close_issue"
              ],
              "line": 2,
              "query": "Is it ꙮ?",
              "rank": null
            },
            {
              "expect": [
                "triage"
              ],
              "expected_listed": 1,
              "found": "triage",
              "hits": [
                "gh__list_issues",
                "triage",
                "gh__close_issue",
                "describe",
                "gh__create_issue",
                "call"
              ],
              "line": 3,
              "query": "List the issues I should sort",
              "rank": 2
            },
            {
              "expect": [
                "gh__close_issue",
                "gh__create_issue"
              ],
              "expected_listed": 2,
              "found": "gh__close_issue",
              "hits": [
                "gh__close_issue",
                "gh__create_issue",
                "gh__list_issues",
                "triage",
                "describe",
                "call"
              ],
              "line": 5,
              "query": "Close the issue.",
              "rank": 1
            }
          ]
        }
      ],
      "min_hit8": 80.0,
      "pass": false,
      "summary": {
        "hit_at_1": 2,
        "hit_at_3": 3,
        "hit_at_8": 3,
        "hit_rate_at_1": 0.5,
        "hit_rate_at_3": 0.75,
        "hit_rate_at_8": 0.75,
        "mrr": 0.625,
        "recall_at_8": 0.75,
        "tasks": 4
      }
    }
    "#);
}

#[test]
fn markdown_report_has_a_table_and_the_misses() {
    let files = Files::new();
    let catalog = files.write("catalog.jsonl", CATALOG);
    let queries = files.write("tasks.recall", QUERIES);
    let (code, out, _) = recall(&[&catalog, &queries, "--markdown", "--min-hit8", "70"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!(
            "## describe recall\n\n\
             | tasks | catalog | n | hit@1 | hit@3 | hit@8 | recall@8 | MRR |\n\
             |---|---|---:|---:|---:|---:|---:|---:|\n\
             | `{queries}` | `{catalog}` | 4 | 50.0% | 75.0% | 75.0% | 75.0% | 0.625 |\n\
             | **all** |  | 4 | 50.0% | 75.0% | 75.0% | 75.0% | 0.625 |\n\
             \n✅ hit@8 75.0% meets --min-hit8 70%\n\
             \n<details><summary>1 task missed</summary>\n\n\
             | task | query | expected | listed instead |\n|---|---|---|---|\n\
             | `{queries}:2` | Is it ꙮ? | `gh__list_issues` | `gh__close_issue` |\n\
             \n</details>\n"
        )
    );
}

#[test]
fn pairs_are_summed_and_a_child_catalog_sees_only_what_it_is_offered() {
    let files = Files::new();
    let catalog = files.write("catalog.jsonl", CATALOG);
    let scout = files.write(
        "scout.jsonl",
        &CATALOG.replace(r#""mode":"chat"}"#, r#""mode":"chat","profile":"scout"}"#),
    );
    let queries = files.write("tasks.recall", QUERIES);
    // The scout is offered gh__list_issues only (the others are
    // reversible): N = 4, (N+1)² = 25. `issues` df 2 (list_issues,
    // triage) and `list` df 2 (list_issues, and describe's "ranked list")
    // weigh bit_length(6) = 3; `open` is in nothing the scout sees; `sort`
    // df 1 weighs 5. Task 1: gh__list_issues 12 + 12 = 24, then describe
    // 3 and triage 3. Task 2: gh__list_issues holds `list` and `issues`
    // in its name, triage `sort` and `issues`. (That is the keyword half,
    // over stems; the fused order with the cosine keeps these two ranks.
    // Under contract 4 the cosine lifts triage over gh__list_issues for
    // the shorter "Sort issues.".)
    let child = files.write(
        "child.recall",
        "{\"query\": \"List the open issues.\", \"expect\": [\"gh__list_issues\"]}\n\
         {\"query\": \"Sort the list of issues.\", \"expect\": [\"triage\"]}\n",
    );
    let (code, out, err) = recall(&[&catalog, &queries, &scout, &child]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(
        out.contains(&format!(
            "{child} on {scout}\n\
             \x20 #1    line 1    \"List the open issues.\" → gh__list_issues\n\
             \x20 #2    line 2    \"Sort the list of issues.\" → triage, after gh__list_issues\n\
             \x20 2 tasks: hit@1 50.0%  hit@3 100.0%  hit@8 100.0%  recall@8 100.0%  MRR 0.750\n"
        )),
        "{out}"
    );
    // 6 tasks: hit@1 3, hit@3 5, hit@8 5; recall 5/6; MRR (2.5 + 1.5)/6.
    assert!(
        out.ends_with(
            "6 tasks in 2 files: hit@1 50.0%  hit@3 83.3%  hit@8 83.3%  recall@8 83.3%  MRR 0.667\n"
        ),
        "{out}"
    );
}

#[test]
fn bad_task_lines_are_located_and_the_rest_is_still_measured() {
    let files = Files::new();
    let catalog = files.write("catalog.jsonl", CATALOG);
    let scout = files.write(
        "scout.jsonl",
        &CATALOG.replace(r#""mode":"chat"}"#, r#""mode":"work","profile":"scout"}"#),
    );
    let long = "x".repeat(257);
    let queries = files.write(
        "tasks.recall",
        &format!(
            "{{\"query\": \"Close the issue.\", \"expect\": [\"gh__close_issue\"]}}\n\
             {{\"query\": \"x\"\n\
             {{\"query\": \"Delete an issue.\", \"expect\": [\"gh__close_issue\", \"gh__delete_issue\"]}}\n\
             {{\"query\": \"{long}\", \"expect\": [\"triage\"]}}\n\
             {{\"query\": \"a\\u0007b\", \"expect\": [\"triage\"]}}\n\
             {{\"query\": \"Sort issues.\", \"expect\": [\"triage\"], \"note\": \"why\"}}\n"
        ),
    );
    let child = files.write(
        "child.recall",
        "{\"query\": \"Open an issue.\", \"expect\": [\"gh__create_issue\"]}\n",
    );
    let (code, out, err) = recall(&[&catalog, &queries, &scout, &child]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!(
            "{queries}:2:13: invalid JSON: EOF while parsing an object\n\
             {queries}:3:61: \"gh__delete_issue\" is not admitted in this catalog, so describe can never list it\n\
             {queries}:4:11: describe refuses the query: describe.query: the query is longer than 256 bytes\n\
             {queries}:5:11: describe refuses the query: describe.query: the query holds a control character\n\
             {queries}:6:49: unknown field \"note\"; a task is {{\"query\": \"…\", \"expect\": [\"name\", …]}}\n\
             {child}:1:40: \"gh__create_issue\" is not offered to a scout child, so describe can never list it\n"
        )
    );
    // Nothing else lost: the one good task is measured and reported.
    assert!(
        out.starts_with(&format!(
            "{queries} on {catalog}\n\
             \x20 #1    line 1    \"Close the issue.\" → gh__close_issue\n"
        )),
        "{out}"
    );
    assert!(out.contains("\n1 task in 2 files: "), "{out}");
}

#[test]
fn unusable_files_are_usage_errors_and_the_other_pairs_still_run() {
    let files = Files::new();
    let catalog = files.write("catalog.jsonl", CATALOG);
    let queries = files.write("tasks.recall", QUERIES);
    let malformed = files.write(
        "malformed.jsonl",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n{\"op\":\"tool\"}\n",
    );
    let unstarted = files.write(
        "unstarted.jsonl",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n",
    );
    let empty = files.write("empty.recall", "\n\n");
    let missing = files
        .dir
        .path()
        .join("missing.recall")
        .display()
        .to_string();
    let (code, out, err) = recall(&[
        &malformed, &queries, &unstarted, &queries, &catalog, &empty, &catalog, &missing, &catalog,
        &queries,
    ]);
    assert_eq!(code, Some(2));
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(lines[0].starts_with(&format!("{malformed}:2:1: ")), "{err}");
    assert_eq!(
        lines[1],
        format!(
            "{unstarted}: the session never starts; recall needs its {{\"op\":\"start\",…}} line to know what the run is offered"
        )
    );
    assert_eq!(
        lines[2],
        format!(
            "{empty}: no tasks; write one {{\"query\": \"…\", \"expect\": [\"name\", …]}} per line"
        )
    );
    assert!(
        lines[3].starts_with(&format!("disclose: failed to read \"{missing}\": ")),
        "{err}"
    );
    assert!(
        out.ends_with(&format!("4 tasks in 1 file: {FIGURES}\n")),
        "{out}"
    );

    let (code, _, err) = recall(&[&catalog]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!(
            "disclose: recall takes CATALOG QUERIES pairs, but 1 paths were given; the last, \"{catalog}\", has no partner\n"
        )
    );
    let (code, _, _) = recall(&[]);
    assert_eq!(code, Some(2));
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A shipped findability suite, as `.ci/run` runs it (`script/recall`):
/// every query file directly under `tasks` against the realistic catalog
/// of the same name, at least `least` tasks, at the threshold CI gates on
/// (the number after `gate` in `.ci/run`).
fn meets_its_ci_threshold(tasks: &str, gate: &str, least: u64) {
    let dir = root().join(tasks);
    let mut args: Vec<String> = Vec::new();
    let mut names: Vec<PathBuf> = (std::fs::read_dir(&dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    names.sort();
    for queries in names {
        assert_eq!(queries.extension().and_then(|e| e.to_str()), Some("recall"));
        let stem = queries.file_stem().unwrap().to_str().unwrap();
        let catalog = root()
            .join("corpora/realistic")
            .join(format!("{stem}.jsonl"));
        assert!(
            Path::new(&catalog).is_file(),
            "{stem} names no realistic catalog"
        );
        args.push(catalog.display().to_string());
        args.push(queries.display().to_string());
    }
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let threshold = ci
        .lines()
        .find_map(|line| line.strip_prefix(gate))
        .unwrap_or_else(|| panic!(".ci/run runs {gate}P"))
        .trim()
        .to_string();
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["--json", "--min-hit8", &threshold]);
    let (code, out, err) = recall(&all);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let report: Value = serde_json::from_str(&out).unwrap();
    assert!(report["summary"]["tasks"].as_u64().unwrap() >= least);
    assert_eq!(report["pass"], true);
}

#[test]
fn the_shipped_suite_meets_its_ci_threshold() {
    meets_its_ci_threshold("corpora/recall", "script/recall --min-hit8 ", 60);
}

/// The Chinese suite (contract 5): Chinese MCP servers' tools asked for in
/// Chinese and in English.
#[test]
fn the_chinese_suite_meets_its_ci_threshold() {
    meets_its_ci_threshold(
        "corpora/recall/chinese",
        "script/recall --suite chinese --min-hit8 ",
        50,
    );
}
