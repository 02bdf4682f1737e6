//! The three reports of `disclose recall`: human (stdout), `--json` and
//! `--markdown`. Each lists, per task file, where each task's first expected
//! capability ranked (or the miss, with what `describe` listed instead),
//! the file's figures, the figures over every task, and the `--min-hit8`
//! verdict when one was asked for.

use std::fmt::Write as _;

use disclose_replay::recall::{Summary, TaskRank};
use serde_json::{Value, json};

use super::{Hit8Gate, TaskFile};
use crate::cli::format::json::pretty;
use crate::cli::format::markdown::{Align, Table, pipes_escaped};

/// Every pair's outcomes, in argument order.
type Results<'a> = [(&'a TaskFile, Vec<TaskRank<'a>>)];

fn pct(rate: f64) -> String {
    format!("{:.1}%", rate * 100.0)
}

/// `hit@1 …  hit@3 …  hit@8 …  recall@8 …  MRR …`.
fn figures(summary: &Summary) -> String {
    format!(
        "hit@1 {}  hit@3 {}  hit@8 {}  recall@8 {}  MRR {:.3}",
        pct(summary.hit_rate(summary.hit1)),
        pct(summary.hit_rate(summary.hit3)),
        pct(summary.hit_rate(summary.hit8)),
        pct(summary.recall8()),
        summary.mrr()
    )
}

fn tasks(count: usize) -> String {
    format!("{count} task{}", if count == 1 { "" } else { "s" })
}

fn verdict_line(overall: &Summary, verdict: Hit8Gate) -> String {
    let hit8 = pct(overall.hit_rate(overall.hit8));
    if verdict.pass {
        format!("hit@8 {hit8} meets --min-hit8 {}%", verdict.min)
    } else {
        format!("hit@8 {hit8} is below --min-hit8 {}%", verdict.min)
    }
}

/// The human report.
pub fn human(results: &Results, overall: &Summary, verdict: Option<Hit8Gate>) -> String {
    let mut out = String::new();
    for (pair, outcomes) in results {
        let _ = writeln!(
            out,
            "{} on {}",
            pair.queries.display(),
            pair.catalog.display()
        );
        for outcome in outcomes {
            let task = outcome.task;
            let rank = outcome.rank.map_or("miss".to_string(), |r| format!("#{r}"));
            let _ = write!(
                out,
                "  {rank:<5} line {:<4} \"{}\" → ",
                task.line, task.query
            );
            match outcome.first_found() {
                Some(name) if outcome.above().is_empty() => {
                    let _ = writeln!(out, "{name}");
                }
                Some(name) => {
                    let _ = writeln!(out, "{name}, after {}", outcome.above().join(", "));
                }
                None if outcome.hits.is_empty() => {
                    let _ = writeln!(out, "missed {}: nothing matched", task.expect.join(" or "));
                }
                None => {
                    let _ = writeln!(
                        out,
                        "missed {}; listed instead: {}",
                        task.expect.join(" or "),
                        outcome.hits.join(", ")
                    );
                }
            }
        }
        let summary = Summary::of(outcomes);
        let _ = writeln!(out, "  {}: {}\n", tasks(summary.queries), figures(&summary));
    }
    let _ = writeln!(
        out,
        "{} in {} file{}: {}",
        tasks(overall.queries),
        results.len(),
        if results.len() == 1 { "" } else { "s" },
        figures(overall)
    );
    if let Some(verdict) = verdict {
        let _ = writeln!(out, "{}", verdict_line(overall, verdict));
    }
    out
}

fn summary_json(summary: &Summary) -> Value {
    json!({
        "tasks": summary.queries,
        "hit_at_1": summary.hit1,
        "hit_at_3": summary.hit3,
        "hit_at_8": summary.hit8,
        "hit_rate_at_1": summary.hit_rate(summary.hit1),
        "hit_rate_at_3": summary.hit_rate(summary.hit3),
        "hit_rate_at_8": summary.hit_rate(summary.hit8),
        "recall_at_8": summary.recall8(),
        "mrr": summary.mrr(),
    })
}

/// The `--json` report. `errors` counts the bad inputs reported on stderr
/// (those tasks are not measured).
pub fn json(
    results: &Results,
    overall: &Summary,
    verdict: Option<Hit8Gate>,
    errors: usize,
) -> String {
    let files: Vec<Value> = results
        .iter()
        .map(|(pair, outcomes)| {
            let tasks: Vec<Value> = outcomes
                .iter()
                .map(|o| {
                    json!({
                        "line": o.task.line,
                        "query": o.task.query,
                        "expect": o.task.expect,
                        "rank": o.rank,
                        "found": o.first_found(),
                        "expected_listed": o.found,
                        "hits": o.hits,
                    })
                })
                .collect();
            json!({
                "catalog": pair.catalog.display().to_string(),
                "queries": pair.queries.display().to_string(),
                "summary": summary_json(&Summary::of(outcomes)),
                "tasks": tasks,
            })
        })
        .collect();
    let report = json!({
        "files": files,
        "summary": summary_json(overall),
        "min_hit8": verdict.map(|v| v.min),
        "pass": verdict.map(|v| v.pass),
        "errors": errors,
    });
    pretty(&report)
}

fn names(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `--markdown` report (for `$GITHUB_STEP_SUMMARY` or a PR comment).
pub fn markdown(results: &Results, overall: &Summary, verdict: Option<Hit8Gate>) -> String {
    let mut out = String::from("## describe recall\n\n");
    let mut table = Table::new(
        &mut out,
        &[
            ("tasks", Align::Left),
            ("catalog", Align::Left),
            ("n", Align::Right),
            ("hit@1", Align::Right),
            ("hit@3", Align::Right),
            ("hit@8", Align::Right),
            ("recall@8", Align::Right),
            ("MRR", Align::Right),
        ],
    );
    let mut row = |tasks: String, catalog: String, s: &Summary| {
        table.row(&[
            tasks,
            catalog,
            s.queries.to_string(),
            pct(s.hit_rate(s.hit1)),
            pct(s.hit_rate(s.hit3)),
            pct(s.hit_rate(s.hit8)),
            pct(s.recall8()),
            format!("{:.3}", s.mrr()),
        ]);
    };
    for (pair, outcomes) in results {
        row(
            format!("`{}`", pair.queries.display()),
            format!("`{}`", pair.catalog.display()),
            &Summary::of(outcomes),
        );
    }
    row("**all**".into(), String::new(), overall);
    if let Some(verdict) = verdict {
        let mark = if verdict.pass { "✅" } else { "❌" };
        let _ = writeln!(out, "\n{mark} {}", verdict_line(overall, verdict));
    }
    let misses: Vec<(&TaskFile, &TaskRank)> = results
        .iter()
        .flat_map(|(pair, outcomes)| outcomes.iter().map(move |o| (*pair, o)))
        .filter(|(_, o)| o.rank.is_none())
        .collect();
    if !misses.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>{} missed</summary>\n",
            tasks(misses.len())
        );
        let mut table = Table::new(
            &mut out,
            &["task", "query", "expected", "listed instead"].map(|name| (name, Align::Left)),
        );
        for (pair, outcome) in misses {
            table.row(&[
                format!("`{}:{}`", pair.queries.display(), outcome.task.line),
                pipes_escaped(&outcome.task.query),
                names(&outcome.task.expect),
                names(&outcome.hits),
            ]);
        }
        out.push_str("\n</details>\n");
    }
    out
}
