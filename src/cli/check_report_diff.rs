//! `disclose diff-report OLD.json NEW.json`: which cases changed state, for
//! which implementation, between two `check --json` reports.
//!
//! Both `check --impl` reports (cases by id, states by implementation id)
//! and in-process `check` reports (read as one implementation,
//! `in-process`) are understood; a case is matched by its stable id, never
//! by position. Exit 0 when no state changed, 1 when one did, 2 when a
//! report cannot be read.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::{Exit, emit};

/// `disclose diff-report`.
#[derive(Debug, clap::Args)]
pub struct DiffReportArgs {
    /// The older `check --json` report.
    pub old: PathBuf,
    /// The newer one.
    pub new: PathBuf,
}

/// Implementation id → case id → state.
type States = BTreeMap<String, BTreeMap<String, String>>;

/// The id an in-process `check` report is read under.
const IN_PROCESS: &str = "in-process";

/// Runs `disclose diff-report`.
pub fn run(args: &DiffReportArgs) -> Result<Exit> {
    let old = load(&args.old)?;
    let new = load(&args.new)?;
    let (text, changed) = compare(&old, &new);
    emit(&text)?;
    Ok(if changed { Exit::Fail } else { Exit::Pass })
}

fn load(path: &Path) -> Result<States> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("failed to read \"{}\"", path.display()))?;
    let report = disclose_replay::json::parse(&text)
        .with_context(|| format!("\"{}\" is not JSON", path.display()))?;
    states(&report).with_context(|| {
        format!(
            "\"{}\" is not a `disclose check --json` report",
            path.display()
        )
    })
}

/// Reads the states out of either kind of report.
fn states(report: &Value) -> Result<States> {
    let cases = report
        .get("cases")
        .and_then(Value::as_array)
        .context("it has no \"cases\" list")?;
    let mut states = States::new();
    for case in cases {
        // A `check --impl` case has its id in `case` and its states in
        // `results`; an in-process one has `name` and `status`.
        if case.get("case").is_some() || case.get("results").is_some() {
            let id = text(case, "case")?;
            let results = case
                .get("results")
                .and_then(Value::as_object)
                .with_context(|| format!("case \"{id}\" has no \"results\" object"))?;
            for (implementation, result) in results {
                states
                    .entry(implementation.clone())
                    .or_default()
                    .insert(id.clone(), text(result, "state")?);
            }
        } else {
            states
                .entry(IN_PROCESS.to_string())
                .or_default()
                .insert(text(case, "name")?, text(case, "status")?);
        }
    }
    Ok(states)
}

fn text(value: &Value, key: &str) -> Result<String> {
    match value.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => bail!("a case has no string \"{key}\""),
    }
}

/// Whether a state keeps a run green.
fn ok(state: &str) -> bool {
    matches!(state, "pass" | "expected")
}

/// The report, and whether anything changed.
fn compare(old: &States, new: &States) -> (String, bool) {
    let mut out = String::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let empty = BTreeMap::new();
    let implementations: std::collections::BTreeSet<&String> =
        old.keys().chain(new.keys()).collect();
    for implementation in implementations {
        let (before, after) = (
            old.get(implementation).unwrap_or(&empty),
            new.get(implementation).unwrap_or(&empty),
        );
        if !old.contains_key(implementation) || !new.contains_key(implementation) {
            let side = if old.contains_key(implementation) {
                "OLD"
            } else {
                "NEW"
            };
            let _ = writeln!(out, "{implementation}: only in {side}");
        }
        let cases: std::collections::BTreeSet<&String> =
            before.keys().chain(after.keys()).collect();
        for case in cases {
            let (kind, text) = match (before.get(case), after.get(case)) {
                (Some(a), Some(b)) if a == b => {
                    *counts.entry("unchanged").or_default() += 1;
                    continue;
                }
                (Some(a), Some(b)) => {
                    let kind = match (ok(a), ok(b)) {
                        (true, false) => "regressed",
                        (false, true) => "improved",
                        _ => "changed",
                    };
                    (kind, format!("{a} → {b}"))
                }
                (None, Some(b)) => ("added", b.clone()),
                (Some(a), None) => ("removed", format!("was {a}")),
                (None, None) => continue,
            };
            *counts.entry(kind).or_default() += 1;
            let _ = writeln!(out, "{kind:<9} {implementation}  {case}  {text}");
        }
    }
    let changed = ["regressed", "improved", "changed", "added", "removed"]
        .iter()
        .any(|k| counts.contains_key(k))
        || old.keys().ne(new.keys());
    let summary: Vec<String> = [
        "regressed",
        "improved",
        "changed",
        "added",
        "removed",
        "unchanged",
    ]
    .iter()
    .map(|k| format!("{} {k}", counts.get(k).copied().unwrap_or(0)))
    .collect();
    if !out.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(out, "{}", summary.join(", "));
    (out, changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn matrix(cells: &[(&str, &str, &str)]) -> Value {
        let mut cases: BTreeMap<&str, serde_json::Map<String, Value>> = BTreeMap::new();
        for (case, implementation, state) in cells {
            cases
                .entry(case)
                .or_default()
                .insert(implementation.to_string(), json!({"state": state}));
        }
        let cases: Vec<Value> = cases
            .into_iter()
            .map(|(case, results)| json!({"case": case, "results": results}))
            .collect();
        json!({"format": 1, "report": "check --impl", "cases": cases})
    }

    #[test]
    fn states_are_matched_by_case_and_implementation() {
        let old = states(&matrix(&[
            ("s/a", "ts", "pass"),
            ("s/b", "ts", "fail"),
            ("s/c", "ts", "pass"),
            ("s/d", "ts", "fail"),
            ("s/gone", "ts", "pass"),
            ("s/a", "py", "pass"),
        ]))
        .unwrap();
        let new = states(&matrix(&[
            ("s/d", "ts", "errored"),
            ("s/c", "ts", "pass"),
            ("s/b", "ts", "pass"),
            ("s/a", "ts", "fail"),
            ("s/new", "ts", "skip"),
            ("s/a", "py", "pass"),
        ]))
        .unwrap();
        let (text, changed) = compare(&old, &new);
        assert!(changed);
        assert_eq!(
            text,
            "regressed ts  s/a  pass → fail\n\
             improved  ts  s/b  fail → pass\n\
             changed   ts  s/d  fail → errored\n\
             removed   ts  s/gone  was pass\n\
             added     ts  s/new  skip\n\
             \n\
             1 regressed, 1 improved, 1 changed, 1 added, 1 removed, 2 unchanged\n"
        );
        let (text, changed) = compare(&old, &old);
        assert!(!changed);
        assert_eq!(
            text,
            "0 regressed, 0 improved, 0 changed, 0 added, 0 removed, 6 unchanged\n"
        );
    }

    #[test]
    fn an_in_process_report_is_one_implementation() {
        let report = json!({"format": 1, "cases": [{"name": "s/a", "status": "pass"}, {"name": "vocabulary", "status": "fail"}]});
        let found = states(&report).unwrap();
        assert_eq!(found[IN_PROCESS]["s/a"], "pass");
        assert_eq!(found[IN_PROCESS]["vocabulary"], "fail");
        // A `check --impl` case is told by its fields, and the field that
        // is wrong is the one named.
        let error = |report: Value| format!("{:#}", states(&report).unwrap_err());
        assert_eq!(
            error(json!({"cases": [{"case": 1}]})),
            "a case has no string \"case\""
        );
        assert_eq!(
            error(json!({"cases": [{"case": "s/a"}]})),
            "case \"s/a\" has no \"results\" object"
        );
        assert_eq!(
            error(json!({"cases": [{"case": "s/a", "results": {"x": {}}}]})),
            "a case has no string \"state\""
        );
        assert_eq!(
            error(json!({"cases": [{"name": "s/a"}]})),
            "a case has no string \"status\""
        );
        assert!(states(&json!({"totals": {}})).is_err());
    }
}
