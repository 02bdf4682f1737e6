//! `disclose cost` through the public CLI. Every expected byte count is
//! built here from literal strings of SPEC §1, §4 and §11, never from the
//! library.

mod common;

use common::{disclose, stderr, stdout, write};
use std::process::Output;

use serde_json::{Value, json};

/// SPEC §1: the two doors' canonical definitions, one line each.
const DOORS: &str = concat!(
    r#"{"description":"Find a capability by exact name for its full guide, or by keywords for a ranked list.","input_schema":{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"name":"describe"}"#,
    "\n",
    r#"{"description":"Run a dormant tool by name; its args are checked against that tool's input schema first.","input_schema":{"additionalProperties":false,"properties":{"args":{"type":"object"},"name":{"type":"string"}},"required":["name","args"],"type":"object"},"name":"call"}"#,
    "\n"
);
const HEADER: &str = "Dormant (describe a name for its guide; call runs a tool):\n";
const GET_DEF: &str = "{\"description\":\"Get a thing.\",\"input_schema\":{\"type\":\"object\"},\"name\":\"x__get\"}\n";
const PUT_DEF: &str = "{\"description\":\"Put a thing.\",\"input_schema\":{\"type\":\"object\"},\"name\":\"x__put\"}\n";

/// Two dormant tools and a skill; a guide, a routed call and a keyword
/// query: four requests.
const DORMANT_SESSION: &str = r#"{"op":"session","format":1,"about":"cost: two dormant tools and a skill"}
{"op":"tool","origin":"x","name":"get","description":"Get a thing.","input_schema":{"type":"object"},"effect":"read","approval":"never"}
{"op":"tool","origin":"x","name":"put","description":"Put a thing.","input_schema":{"type":"object"}}
{"op":"skill","name":"triage","disclosure":"Sort issues. Then more.","address":"skills/triage.md"}
{"op":"start","mode":"chat"}
{"op":"render"}
{"op":"tool_defs"}
{"op":"describe","name":" x__get "}
{"op":"call","id":"1","name":"call","args":{"name":"x__get","args":{}}}
{"op":"describe","name":"thing"}
"#;

/// A scout child with a resident host tool: only offered tools count, and
/// resident or unoffered targets load nothing.
const CHILD_SESSION: &str = r#"{"op":"session","format":1,"about":"cost: a scout child"}
{"op":"tool","origin":"host","name":"read","description":"Read a file.","input_schema":{"type":"object"},"effect":"read","approval":"never"}
{"op":"tool","origin":"x","name":"get","description":"Get a thing.","input_schema":{"type":"object"},"effect":"read","approval":"never"}
{"op":"tool","origin":"x","name":"put","description":"Put a thing.","input_schema":{"type":"object"},"effect":"read","approval":"required"}
{"op":"start","mode":"chat","profile":"scout"}
{"op":"call","id":"1","name":"read","args":{}}
{"op":"call","id":"2","name":"call","args":{"name":"x__put","args":{}}}
{"op":"call","id":"3","name":"x__get","args":{}}
{"op":"call","id":"4","name":"call","args":{"name":"x__get","args":{}}}
"#;

fn cost_json(path: &str) -> (Output, Value) {
    let output = disclose(&["cost", path, "--json"]);
    let value = serde_json::from_str(&stdout(&output)).unwrap();
    (output, value)
}

#[test]
fn one_session_under_three_strategies() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "s.jsonl", DORMANT_SESSION);
    let (output, report) = cost_json(&path);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    let index = format!(
        "{HEADER}- x__get: Get a thing.\n- x__put: Put a thing.\n- skill triage: Sort issues.\n"
    );
    let render = format!("## Capabilities\nmode: chat\n{index}");
    let dormant = DOORS.len() + render.len();
    // Eager: every admitted tool, the doors included (SPEC §15); render
    // keeps only the skill's line.
    let eager = DOORS.len()
        + GET_DEF.len()
        + PUT_DEF.len()
        + "## Capabilities\nmode: chat\n".len()
        + HEADER.len()
        + "- skill triage: Sort issues.\n".len();
    // Deferred: x__get is appended after the exact describe, once.
    let loaded = dormant + GET_DEF.len();

    let session = &report["sessions"][0];
    assert_eq!(session["session"], path);
    assert_eq!(session["requests"], 4);
    assert_eq!(session["tool_defs_bytes"], DOORS.len());
    assert_eq!(session["render_bytes"], render.len());
    assert_eq!(session["index_bytes"], index.len());
    assert_eq!(session["index_headroom"], 1024 - index.len());
    assert_eq!(
        session["dormant"],
        json!({"per_request": [dormant, dormant, dormant, dormant], "first": dormant,
               "last": dormant, "total": 4 * dormant, "invalidations": 0})
    );
    assert_eq!(
        session["eager"],
        json!({"per_request": [eager, eager, eager, eager], "first": eager,
               "last": eager, "total": 4 * eager, "invalidations": 0})
    );
    assert_eq!(
        session["deferred"],
        json!({"per_request": [dormant, loaded, loaded, loaded], "first": dormant,
               "last": loaded, "total": dormant + 3 * loaded, "invalidations": 1})
    );
    assert_eq!(
        report["totals"],
        json!({"sessions": 1, "requests": 4, "dormant": 4 * dormant, "eager": 4 * eager,
               "deferred": dormant + 3 * loaded, "deferred_invalidations": 1})
    );
    assert_eq!(report["malformed"], json!([]));
}

#[test]
fn a_child_counts_only_what_it_is_offered() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "child.jsonl", CHILD_SESSION);
    let (output, report) = cost_json(&path);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    let read_def = "{\"description\":\"Read a file.\",\"input_schema\":{\"type\":\"object\"},\"name\":\"read\"}\n";
    let get_def = "{\"description\":\"Get a thing.\",\"input_schema\":{\"type\":\"object\"},\"name\":\"x__get\"}\n";
    let render = format!("## Capabilities\nmode: chat\n{HEADER}- x__get: Get a thing.\n");
    let dormant = read_def.len() + DOORS.len() + render.len();
    let eager =
        read_def.len() + DOORS.len() + get_def.len() + "## Capabilities\nmode: chat\n".len();
    let loaded = dormant + get_def.len();

    let session = &report["sessions"][0];
    assert_eq!(session["requests"], 5);
    assert_eq!(session["eager"]["first"], eager);
    // read is resident, x__put is not offered: only the direct call of
    // x__get (the third) loads, and the fourth finds it loaded.
    assert_eq!(
        session["deferred"]["per_request"],
        json!([dormant, dormant, dormant, loaded, loaded])
    );
    assert_eq!(session["deferred"]["invalidations"], 1);
}

#[test]
fn a_directory_totals_and_reports_malformed_sessions() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/dormant.jsonl", DORMANT_SESSION);
    write(dir.path(), "b/child.jsonl", CHILD_SESSION);
    let broken = write(
        dir.path(),
        "c/broken.jsonl",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n{\"op\":\"render\"}\n",
    );
    write(
        dir.path(),
        "d/never_started.jsonl",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n{\"op\":\"dev\",\"text\":\"d\"}\n",
    );
    let root = dir.path().to_str().unwrap();

    let (output, report) = cost_json(root);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with(&format!("{broken}:2:1: ")),
        "{}",
        stderr(&output)
    );
    let names: Vec<&str> = report["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["session"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a/dormant", "b/child"]);
    assert_eq!(report["not_started"], json!(["d/never_started"]));
    assert_eq!(report["malformed"][0]["path"], broken);
    assert_eq!(report["malformed"][0]["line"], 2);

    let total = |strategy: &str| -> u64 {
        report["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s[strategy]["total"].as_u64().unwrap())
            .sum()
    };
    let (dormant, eager, deferred) = (total("dormant"), total("eager"), total("deferred"));
    assert_eq!(report["totals"]["dormant"], dormant);
    assert_eq!(report["totals"]["requests"], 9);
    // With the doors counted on both sides, even these tiny catalogs cost
    // less dormant than eager; deferred pays its loads on top of dormant.
    assert!(dormant < eager && dormant < deferred);
    let percent =
        |other: u64| ((other as f64 - dormant as f64) * 100.0 / other as f64 * 10.0).round() / 10.0;
    assert_eq!(report["saving_percent"]["vs_eager"], json!(percent(eager)));
    assert_eq!(
        report["saving_percent"]["vs_deferred"],
        json!(percent(deferred))
    );

    let human = disclose(&["cost", root]);
    assert_eq!(human.status.code(), Some(1));
    let text = stdout(&human);
    assert!(text.contains("a/dormant: 4 requests\n"), "{text}");
    assert!(text.contains("d/never_started: not costed: the session never starts a run\n"));
    assert!(text.contains("2 sessions costed, 9 requests (1 malformed, 1 never started)\n"));
    assert!(text.contains(&format!(
        "  eager     total {eager:>10} B   dormant saves {:.1}%\n",
        percent(eager)
    )));
    assert!(text.contains(&format!(
        "  deferred  total {deferred:>10} B   dormant saves {:.1}%   (2 prefix invalidations)\n",
        percent(deferred)
    )));
}

#[test]
fn human_report_of_one_session() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "s.jsonl", DORMANT_SESSION);
    let output = disclose(&["cost", &path]);
    assert_eq!(output.status.code(), Some(0));
    let index = HEADER.len()
        + "- x__get: Get a thing.\n- x__put: Put a thing.\n- skill triage: Sort issues.\n".len();
    let render = "## Capabilities\nmode: chat\n".len() + index;
    let dormant = DOORS.len() + render;
    let loaded = dormant + GET_DEF.len();
    let text = stdout(&output);
    assert!(text.starts_with(&format!(
        "{path}: 4 requests\n  prefix: tool_defs {} B + render {render} B; dormant index {index} B (headroom {} B); describe answers ",
        DOORS.len(),
        1024 - index
    )), "{text}");
    assert!(
        text.contains(&format!(
            "  deferred  {:<28} total {:>9} B   1 prefix invalidation\n",
            format!("{dormant} B first, {loaded} B last"),
            dormant + 3 * loaded
        )),
        "{text}"
    );
}

#[test]
fn bad_paths_and_malformed_files() {
    let output = disclose(&["cost", "/nonexistent/disclose/cost.jsonl"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output)
            .starts_with("disclose: failed to read \"/nonexistent/disclose/cost.jsonl\"")
    );

    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "bad.jsonl",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\nnot json\n",
    );
    let output = disclose(&["cost", &path]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with(&format!("{path}:2:")),
        "{}",
        stderr(&output)
    );
    assert!(
        stdout(&output).contains("0 sessions costed, 0 requests (1 malformed, 0 never started)")
    );
}
