//! Findability as a metric (SPEC §14.3): how often `describe` puts
//! an expected capability among its hits, over a file of tasks.
//!
//! A task file is JSON Lines, one task per line:
//! `{"query": "…", "expect": ["minted_name", …]}` — the query as a person
//! would ask an agent, and the capabilities that would do it. [`parse`]
//! reads a file's bytes into [`Task`]s and collects every bad line as a
//! [`TaskError`] (line, byte column, message) instead of stopping at the
//! first; [`measure`] runs each query through [`Run::find`], the very answer
//! `describe` prints, and reports where the first expected capability
//! ranked; [`Summary`] turns outcomes into hit@1/3/8, recall@8 and MRR.
//!
//! This module reads bytes and a started run, never files: paths, reports
//! and exit codes belong to the CLI (`disclose recall`).

use std::fmt;

use serde_json::{Map, Value};

use crate::session::{OpKind, Session};
use disclose::internals::fit::type_name;
use disclose::{Catalog, Found, Run};

/// The run a catalog session starts: its declarations admitted in order and
/// its `start` (mode and profile); every other op is ignored. A refused
/// declaration is simply not admitted (the session's replay shows why).
/// `None` when the session never starts.
pub fn started(session: &Session) -> Option<Run> {
    let mut catalog = Catalog::new();
    for op in session.ops() {
        match &op.kind {
            OpKind::Tool { decl, admitted } if *admitted => {
                let _ = catalog.admit_tool(decl);
            }
            OpKind::Skill(decl) => {
                let _ = catalog.admit_skill(decl);
            }
            OpKind::CarriedSkill(decl) => {
                let _ = catalog.admit_carried_skill(decl);
            }
            OpKind::Dev { text } => catalog.set_dev_line(text),
            OpKind::Start { mode, profile } => {
                return Some(match profile {
                    Some(profile) => catalog.start_child(*mode, *profile),
                    None => catalog.start(*mode),
                });
            }
            _ => {}
        }
    }
    None
}

/// One task: a query and the capabilities that answer it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The task's 1-based line in its file.
    pub line: usize,
    /// The query, as `describe` receives it.
    pub query: String,
    /// The names any of which answers the query, distinct, in file order.
    pub expect: Vec<String>,
    /// Where the query's value starts (1-based byte column).
    query_column: usize,
    /// Where each expected name's value starts.
    expect_columns: Vec<usize>,
}

/// A bad task, and where: 1-based line and byte column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskError {
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// A plain message.
    pub message: String,
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// Reads a task file: every well-formed task, and an error for every
/// line that is not one (blank lines are skipped). A file with no task
/// at all is the caller's to refuse: a metric over nothing means nothing.
pub fn parse(bytes: &[u8]) -> (Vec<Task>, Vec<TaskError>) {
    let mut tasks = Vec::new();
    let mut errors = Vec::new();
    for (index, raw) in bytes.split(|b| *b == b'\n').enumerate() {
        let line = index + 1;
        match std::str::from_utf8(raw) {
            Err(e) => errors.push(TaskError {
                line,
                column: e.valid_up_to() + 1,
                message: "the line is not valid UTF-8".to_string(),
            }),
            Ok(raw) if raw.trim_matches([' ', '\t', '\r']).is_empty() => {}
            Ok(raw) => match task(raw, line) {
                Ok(task) => tasks.push(task),
                Err(error) => errors.push(error),
            },
        }
    }
    (tasks, errors)
}

/// The shape every task line takes, for messages.
const SHAPE: &str = r#"{"query": "…", "expect": ["name", …]}"#;

fn task(raw: &str, line: usize) -> Result<Task, TaskError> {
    let at = |column: usize, message: String| TaskError {
        line,
        column,
        message,
    };
    let value = crate::json::parse(raw)
        .map_err(|e| at(e.column, format!("invalid JSON: {}", e.message)))?;
    let fields = layout(raw);
    let start = first_column(raw);
    let Value::Object(map) = value else {
        return Err(at(
            start,
            format!(
                "a task must be a JSON object {SHAPE}, not {}",
                type_name(&value)
            ),
        ));
    };
    let field = |key: &str| fields.iter().find(|f| f.key == key);
    let key_column = |key: &str| field(key).map_or(start, |f| f.key_column);
    if let Some(key) = map
        .keys()
        .find(|k| !matches!(k.as_str(), "query" | "expect"))
    {
        return Err(at(
            key_column(key),
            format!("unknown field \"{key}\"; a task is {SHAPE}"),
        ));
    }
    let query = match map.get("query") {
        Some(Value::String(query)) => query.clone(),
        Some(other) => {
            return Err(at(
                key_column("query"),
                format!("\"query\" is {}, expected a string", type_name(other)),
            ));
        }
        None => return Err(at(start, format!("missing \"query\"; a task is {SHAPE}"))),
    };
    let names = expected(&map, &fields, &at, start)?;
    let mut expect = Vec::with_capacity(names.len());
    let mut expect_columns = Vec::with_capacity(names.len());
    for (name, column) in names {
        if !expect.contains(&name) {
            expect.push(name);
            expect_columns.push(column);
        }
    }
    Ok(Task {
        line,
        query,
        expect,
        query_column: field("query").map_or(start, |f| f.value_column),
        expect_columns,
    })
}

/// The `expect` list: at least one name, each a string, with its column.
fn expected(
    map: &Map<String, Value>,
    fields: &[Field],
    at: &impl Fn(usize, String) -> TaskError,
    start: usize,
) -> Result<Vec<(String, usize)>, TaskError> {
    let field = fields.iter().find(|f| f.key == "expect");
    let key_column = field.map_or(start, |f| f.key_column);
    let items = match map.get("expect") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        Some(Value::Array(_)) => {
            return Err(at(
                key_column,
                "\"expect\" is empty; list at least one name that answers the query".to_string(),
            ));
        }
        Some(other) => {
            return Err(at(
                key_column,
                format!(
                    "\"expect\" is {}, expected an array of names",
                    type_name(other)
                ),
            ));
        }
        None => return Err(at(start, format!("missing \"expect\"; a task is {SHAPE}"))),
    };
    let columns = field.map(|f| f.elements.as_slice()).unwrap_or_default();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let column = columns.get(i).copied().unwrap_or(key_column);
            match item {
                Value::String(name) => Ok((name.clone(), column)),
                other => Err(at(
                    column,
                    format!(
                        "\"expect\" holds {}, expected a capability's name",
                        type_name(other)
                    ),
                )),
            }
        })
        .collect()
}

/// Where `describe` put a task's expected capabilities.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskRank<'t> {
    /// The task.
    pub task: &'t Task,
    /// The 1-based rank of the first expected capability among the hits,
    /// or `None` when none was listed (a miss).
    pub rank: Option<usize>,
    /// What `describe` listed, best first: the ranked hits, or the one name
    /// the query matched exactly.
    pub hits: Vec<String>,
    /// How many distinct expected capabilities were listed.
    pub found: usize,
}

impl TaskRank<'_> {
    /// The first expected capability listed, if any.
    pub fn first_found(&self) -> Option<&str> {
        self.rank
            .and_then(|rank| self.hits.get(rank - 1))
            .map(String::as_str)
    }

    /// The names listed above the first expected capability (every hit,
    /// on a miss).
    pub fn above(&self) -> &[String] {
        let end = self.rank.map_or(self.hits.len(), |rank| rank - 1);
        self.hits.get(..end).unwrap_or_default()
    }
}

/// Runs every task through `run`'s `describe`. A task whose expected name
/// the run cannot show (not admitted, or not offered to this child), or
/// whose query `describe` refuses, is an error and is not measured: a
/// silent miss would hide a broken task file.
pub fn measure<'t>(run: &Run, tasks: &'t [Task]) -> (Vec<TaskRank<'t>>, Vec<TaskError>) {
    let mut outcomes = Vec::with_capacity(tasks.len());
    let mut errors = Vec::new();
    for task in tasks {
        let before = errors.len();
        for (name, column) in task.expect.iter().zip(&task.expect_columns) {
            if let Some(why) = unseen(run, name) {
                errors.push(TaskError {
                    line: task.line,
                    column: *column,
                    message: format!("\"{name}\" {why}, so describe can never list it"),
                });
            }
        }
        let found = run.find(&task.query);
        if let Err(refusal) = &found {
            errors.push(TaskError {
                line: task.line,
                column: task.query_column,
                message: format!("describe refuses the query: {}: {refusal}", refusal.code()),
            });
        }
        let hits: Vec<String> = match found {
            // Both kinds of error are reported above; such a task is not
            // measured.
            Ok(_) if errors.len() > before => continue,
            Err(_) => continue,
            Ok(Found::Tool(tool)) => vec![tool.name().to_string()],
            Ok(Found::Skill(skill)) => vec![skill.name().to_string()],
            Ok(Found::Ranked(hits)) => hits.iter().map(|h| h.name().to_string()).collect(),
        };
        let listed = |name: &String| hits.contains(name);
        outcomes.push(TaskRank {
            task,
            rank: hits
                .iter()
                .position(|h| task.expect.contains(h))
                .map(|i| i + 1),
            found: task.expect.iter().filter(|name| listed(name)).count(),
            hits,
        });
    }
    (outcomes, errors)
}

/// Why `run` can never list `name`, or `None` when it can.
fn unseen(run: &Run, name: &str) -> Option<String> {
    if run.tool(name).is_some() || run.skill(name).is_some() {
        return None;
    }
    match (run.admitted_tool(name), run.profile()) {
        (Some(_), Some(profile)) => Some(format!("is not offered to a {profile} child")),
        _ => Some("is not admitted in this catalog".to_string()),
    }
}

/// The figures of a set of outcomes. Every listing is `describe`'s, so
/// "@8" is `DESCRIBE_HITS` and a capability below the eighth is a miss.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Tasks measured.
    pub queries: usize,
    /// Tasks whose first expected capability ranked first.
    pub hit1: usize,
    /// … in the first three.
    pub hit3: usize,
    /// … in the first eight (listed at all).
    pub hit8: usize,
    /// Σ over tasks of (expected capabilities listed / expected).
    recall_sum: f64,
    /// Σ over tasks of 1 / rank of the first expected capability (0 on a
    /// miss).
    reciprocal_sum: f64,
}

impl Summary {
    /// The figures of `outcomes`.
    pub fn of<'a, 't: 'a>(outcomes: impl IntoIterator<Item = &'a TaskRank<'t>>) -> Summary {
        let mut summary = Summary::default();
        for outcome in outcomes {
            summary.queries += 1;
            if let Some(rank) = outcome.rank {
                summary.hit1 += usize::from(rank <= 1);
                summary.hit3 += usize::from(rank <= 3);
                summary.hit8 += 1;
                summary.reciprocal_sum += 1.0 / rank as f64;
            }
            summary.recall_sum += outcome.found as f64 / outcome.task.expect.len().max(1) as f64;
        }
        summary
    }

    /// The share of tasks with a hit in the first `k` (0 when there are
    /// no tasks), for k = 1, 3, 8.
    pub fn hit_rate(&self, hits: usize) -> f64 {
        ratio(hits as f64, self.queries)
    }

    /// recall@8: the mean share of each task's expected capabilities listed.
    pub fn recall8(&self) -> f64 {
        ratio(self.recall_sum, self.queries)
    }

    /// Mean reciprocal rank of the first expected capability (a miss
    /// counts 0; ranks stop at 8).
    pub fn mrr(&self) -> f64 {
        ratio(self.reciprocal_sum, self.queries)
    }
}

fn ratio(sum: f64, count: usize) -> f64 {
    if count == 0 { 0.0 } else { sum / count as f64 }
}

/// A top-level key of a task line, where it and its value start, and where
/// each element starts when the value is an array.
struct Field {
    key: String,
    key_column: usize,
    value_column: usize,
    elements: Vec<usize>,
}

/// The top-level fields of `raw`, which is valid JSON (it parsed), so
/// strings and nesting can be followed byte by byte. A non-object gives
/// none.
fn layout(raw: &str) -> Vec<Field> {
    let b = raw.as_bytes();
    let mut fields = Vec::new();
    let mut i = skip_space(b, 0);
    if b.get(i) != Some(&b'{') {
        return fields;
    }
    i += 1;
    loop {
        i = skip_space(b, i);
        if b.get(i) != Some(&b'"') {
            return fields;
        }
        let key_start = i;
        i = skip_value(b, i);
        let key = raw
            .get(key_start..i)
            .and_then(|literal| serde_json::from_str::<String>(literal).ok())
            .unwrap_or_default();
        i = skip_space(b, i) + 1; // the ':'
        let value_start = skip_space(b, i);
        let mut elements = Vec::new();
        if b.get(value_start) == Some(&b'[') {
            let mut j = value_start + 1;
            loop {
                j = skip_space(b, j);
                if matches!(b.get(j), None | Some(b']')) {
                    break;
                }
                elements.push(j + 1);
                j = skip_space(b, skip_value(b, j));
                if b.get(j) == Some(&b',') {
                    j += 1;
                }
            }
        }
        fields.push(Field {
            key,
            key_column: key_start + 1,
            value_column: value_start + 1,
            elements,
        });
        i = skip_space(b, skip_value(b, value_start));
        if b.get(i) != Some(&b',') {
            return fields;
        }
        i += 1;
    }
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    i
}

/// The index just past the JSON value starting at `i`.
fn skip_value(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                i += 1;
                while let Some(&c) = b.get(i) {
                    i += if c == b'\\' { 2 } else { 1 };
                    if c == b'"' {
                        break;
                    }
                }
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return i,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' | b' ' | b'\t' | b'\r' | b'\n' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// The column of the first non-blank byte.
fn first_column(raw: &str) -> usize {
    raw.find(|c: char| !matches!(c, ' ' | '\t' | '\r'))
        .unwrap_or(0)
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use disclose::{Approval, Catalog, Effect, Mode, Profile, ShelfSkill, ToolDecl};
    use serde_json::json;

    fn errors(text: &str) -> Vec<String> {
        parse(text.as_bytes())
            .1
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn tasks_are_read_and_every_bad_line_is_reported_where_it_is() {
        let text = concat!(
            "{\"query\": \"open an issue\", \"expect\": [\"a\", \"b\", \"a\"]}\n",
            "\n",
            "{\"query\": \"x\", \n",
            "[1]\n",
            "{\"query\": 3, \"expect\": [\"a\"]}\n",
            "{\"query\": \"x\", \"expect\": []}\n",
            "{\"query\": \"x\", \"expect\": [\"a\",  7]}\n",
            "{\"query\": \"x\", \"expect\": [\"a\"], \"why\": 1}\n",
            "  {\"expect\": [\"a\"]}\n",
            "{\"query\": \"x\", \"query\": \"y\", \"expect\": [\"a\"]}\n",
        );
        let (tasks, _) = parse(text.as_bytes());
        assert_eq!(tasks.len(), 1);
        assert_eq!(tasks[0].line, 1);
        assert_eq!(tasks[0].expect, ["a", "b"]);
        assert_eq!(tasks[0].query_column, 11);
        assert_eq!(tasks[0].expect_columns, [39, 44]);
        assert_eq!(
            errors(text),
            [
                "3:15: invalid JSON: EOF while parsing a value",
                "4:1: a task must be a JSON object {\"query\": \"…\", \"expect\": [\"name\", …]}, not array",
                "5:2: \"query\" is integer, expected a string",
                "6:16: \"expect\" is empty; list at least one name that answers the query",
                "7:33: \"expect\" holds integer, expected a capability's name",
                "8:33: unknown field \"why\"; a task is {\"query\": \"…\", \"expect\": [\"name\", …]}",
                "9:3: missing \"query\"; a task is {\"query\": \"…\", \"expect\": [\"name\", …]}",
                "10:16: invalid JSON: duplicate key \"query\": a key may appear only once in an object",
            ]
        );
        assert_eq!(
            errors("{\"query\":\"\u{e9}\"}\n\u{ff}"),
            [
                "1:1: missing \"expect\"; a task is {\"query\": \"…\", \"expect\": [\"name\", …]}",
                "2:1: invalid JSON: expected value",
            ]
        );
        assert_eq!(
            parse(b"{\"query\":\"a\",\"expect\":[\"b\"]}\n\xff\xfe").1,
            [TaskError {
                line: 2,
                column: 1,
                message: "the line is not valid UTF-8".into()
            }]
        );
    }

    fn run() -> Run {
        let mut catalog = Catalog::new();
        for (name, description, effect) in [
            ("create_issue", "Open an issue.", "reversible"),
            ("list_issues", "List issues.", "read"),
        ] {
            let decl = ToolDecl {
                origin: "gh".into(),
                name: name.into(),
                description: description.into(),
                input_schema: json!({"type": "object"}).into(),
                effect: Effect::from_declared(Some(effect)),
                approval: Approval::Never,
            };
            assert!(catalog.admit_tool(&decl).is_ok());
        }
        let skill = ShelfSkill {
            name: "triage".into(),
            disclosure: "Sort issues by label.".into(),
            address: "t.md".into(),
            hash: None,
            package: None,
        };
        assert!(catalog.admit_skill(&skill).is_ok());
        catalog.start_child(Mode::Chat, Profile::Scout)
    }

    #[test]
    fn outcomes_rank_the_first_expected_name_and_errors_name_the_cause() {
        let text = concat!(
            "{\"query\":\"issues\",\"expect\":[\"triage\",\"gh__list_issues\"]}\n",
            "{\"query\":\"sort\",\"expect\":[\"gh__list_issues\"]}\n",
            "{\"query\":\"triage\",\"expect\":[\"triage\"]}\n",
            "{\"query\":\"x\",\"expect\":[\"gh__create_issue\",\"nope\"]}\n",
            "{\"query\":\" \",\"expect\":[\"triage\"]}\n",
            "{\"query\":\"\\u0007\",\"expect\":[\"nope\"]}\n",
        );
        let (tasks, parse_errors) = parse(text.as_bytes());
        assert!(parse_errors.is_empty());
        let run = run();
        let (outcomes, errors) = measure(&run, &tasks);
        let seen: Vec<(usize, Option<usize>, Vec<&str>, usize)> = outcomes
            .iter()
            .map(|o| {
                let hits = o.hits.iter().map(String::as_str).collect();
                (o.task.line, o.rank, hits, o.found)
            })
            .collect();
        // Line 1: gh__list_issues (`issues` in name and text) leads, triage
        // (text) next, then `call` by its vector alone (describe's cosine
        // is not above 0); line 2's `sort` is in triage's disclosure only,
        // so the others rank by their vectors alone, and gh__list_issues
        // is third; line 3 is an exact name. (The ranking is
        // held to SPEC §5 by tests/ranking.rs; this test is about what
        // recall measures from it.)
        assert_eq!(
            seen,
            [
                (1, Some(1), vec!["gh__list_issues", "triage", "call"], 2),
                (
                    2,
                    Some(3),
                    vec!["triage", "describe", "gh__list_issues", "call"],
                    1
                ),
                (3, Some(1), vec!["triage"], 1),
            ]
        );
        assert_eq!(outcomes[1].above(), ["triage", "describe"]);
        assert_eq!(outcomes[0].first_found(), Some("gh__list_issues"));
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            errors,
            [
                "4:24: \"gh__create_issue\" is not offered to a scout child, so describe can never list it",
                "4:43: \"nope\" is not admitted in this catalog, so describe can never list it",
                "5:10: describe refuses the query: describe.query: the query is empty",
                "6:29: \"nope\" is not admitted in this catalog, so describe can never list it",
                "6:10: describe refuses the query: describe.query: the query holds a control character",
            ]
        );
        let summary = Summary::of(&outcomes);
        assert_eq!(
            (summary.queries, summary.hit1, summary.hit3, summary.hit8),
            (3, 2, 3, 3)
        );
        assert_eq!(summary.recall8(), (1.0 + 1.0 + 1.0) / 3.0);
        assert_eq!(summary.mrr(), (1.0 + 1.0 / 3.0 + 1.0) / 3.0);
        assert_eq!(Summary::of(&[]).mrr(), 0.0);
    }
}
