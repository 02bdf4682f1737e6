//! `disclose import` through the public CLI: MCP, OpenAI and Anthropic tool
//! lists in, session lines out; every bad input is exit 2 with a message.

mod common;

use common::{disclose, stderr, stdout};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/import")
        .join(name)
        .display()
        .to_string()
}

fn lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The fixture's tools as declared, read straight from the file.
fn fixture_tools(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    value["tools"].as_array().unwrap().clone()
}

/// Every line validates against the shipped schema, and the whole output
/// parses as a session.
fn assert_valid_session(text: &str) {
    let schema = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpora/session.schema.json"
    ))
    .unwrap();
    let schema: Value = serde_json::from_str(&schema).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    for line in text.lines() {
        let value: Value = serde_json::from_str(line).unwrap();
        assert!(validator.is_valid(&value), "not valid per schema: {line}");
    }
    disclose_replay::session::parse(text.as_bytes()).unwrap();
}

#[test]
fn mcp_tools_become_tool_ops_with_effects_from_annotations() {
    let path = fixture("github_mcp.json");
    let output = disclose(&["import", "mcp", &path, "--origin", "github"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert_valid_session(&text);
    let ops = lines(&output);

    assert_eq!(
        ops[0],
        json!({"op": "session", "format": 1,
               "about": format!("imported by disclose import: mcp {path} as origin github")})
    );
    let expected = [
        ("get_issue", "read"),
        ("create_issue", "reversible"),
        ("add_labels", "idempotent-write"),
        ("merge_pull_request", "irreversible"),
        ("delete_file", "irreversible"),
        ("list_notifications", "irreversible"),
    ];
    let declared = fixture_tools("github_mcp.json");
    assert_eq!(ops.len(), 1 + expected.len() + 3);
    for (i, (name, effect)) in expected.iter().enumerate() {
        let op = &ops[1 + i];
        assert_eq!(op["op"], "tool");
        assert_eq!(op["origin"], "github");
        assert_eq!(op["name"], *name);
        assert_eq!(op["effect"], *effect, "{name}");
        assert_eq!(op["approval"], "required");
        assert_eq!(op["input_schema"], declared[i]["inputSchema"]);
        let description = declared[i].get("description").cloned();
        assert_eq!(op["description"], description.unwrap_or(json!("")));
    }
    assert_eq!(
        &ops[ops.len() - 3..],
        [
            json!({"op": "start", "mode": "chat"}),
            json!({"op": "render"}),
            json!({"op": "tool_defs"})
        ]
    );
    // Keys are written with `op` first, values in canonical JSON.
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with(r#"{"op":"tool","origin":"github","name":"get_issue","description":"#)
    );
    assert!(stderr(&output).contains(
        "tool \"list_notifications\" has no description; the catalog will refuse it (admit.disclosure)"
    ));
}

#[test]
fn an_imported_session_replays_and_shows_the_catalogs_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("github.jsonl");
    let output = disclose(&[
        "import",
        "mcp",
        &fixture("github_mcp.json"),
        "--origin",
        "github",
    ]);
    std::fs::write(&session, &output.stdout).unwrap();
    let replayed = disclose(&["replay", session.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    let transcript = stdout(&replayed);
    assert!(
        transcript
            .contains("admitted tool github__get_issue (effect read, approval required, digest ")
    );
    assert!(transcript.contains(
        "refused E_INVALID_ARGS admit.disclosure: \"github__list_notifications\" has an empty disclosure\n"
    ));
    assert!(
        transcript.contains(
            "- github__merge_pull_request: Merge a pull request in a GitHub repository.\n"
        )
    );
}

#[test]
fn several_sources_of_every_kind_append_into_one_session() {
    let (mcp, openai, anthropic) = (
        fixture("linear_rpc.json"),
        fixture("openai_tools.json"),
        fixture("anthropic_tools.json"),
    );
    let output = disclose(&[
        "import",
        "mcp",
        &mcp,
        "--origin",
        "linear",
        "openai",
        &openai,
        "--origin",
        "acme",
        "anthropic",
        &anthropic,
        "--origin",
        "kb",
        "--mode",
        "work",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_valid_session(&stdout(&output));
    let ops = lines(&output);
    assert_eq!(
        ops[0]["about"],
        format!(
            "imported by disclose import: mcp {mcp} as origin linear; openai {openai} as origin acme; anthropic {anthropic} as origin kb"
        )
    );
    let tools: Vec<(&str, &str, &str)> = ops
        .iter()
        .filter(|op| op["op"] == "tool")
        .map(|op| {
            (
                op["origin"].as_str().unwrap(),
                op["name"].as_str().unwrap(),
                op["effect"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        tools,
        [
            ("linear", "search_issues", "read"),
            ("linear", "update_issue", "idempotent-write"),
            ("acme", "get_weather", "irreversible"),
            ("acme", "get_time", "irreversible"),
            ("kb", "read_doc", "irreversible"),
            ("kb", "archive.doc", "irreversible"),
        ]
    );
    // An OpenAI function without `parameters` takes no arguments.
    let get_time = ops.iter().find(|op| op["name"] == "get_time").unwrap();
    assert_eq!(
        get_time["input_schema"],
        json!({"type": "object", "properties": {}})
    );
    let get_weather = ops.iter().find(|op| op["name"] == "get_weather").unwrap();
    assert_eq!(get_weather["input_schema"]["required"], json!(["city"]));
    assert_eq!(ops[ops.len() - 3], json!({"op": "start", "mode": "work"}));
    assert!(stderr(&output).contains("skipped tool #3: type \"web_search_preview\" is a built-in"));
}

#[test]
fn stdin_is_read_for_a_dash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_disclose"))
        .args(["import", "anthropic", "-", "--origin", "s"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            br#"{"tools":[{"name":"t","description":"Do it.","input_schema":{"type":"object"}}]}"#,
        )
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        concat!(
            r#"{"op":"session","format":1,"about":"imported by disclose import: anthropic stdin as origin s"}"#,
            "\n",
            r#"{"op":"tool","origin":"s","name":"t","description":"Do it.","input_schema":{"type":"object"},"effect":"irreversible","approval":"required"}"#,
            "\n",
            r#"{"op":"start","mode":"chat"}"#,
            "\n",
            r#"{"op":"render"}"#,
            "\n",
            r#"{"op":"tool_defs"}"#,
            "\n"
        )
    );
}

/// Exit 2, nothing on stdout, and `disclose: <message>` on stderr.
fn assert_usage_error(args: &[&str], message: &str) {
    let output = disclose(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "", "{args:?}");
    assert!(
        stderr(&output).contains(message),
        "{args:?}: expected {message:?} in {:?}",
        stderr(&output)
    );
}

#[test]
fn bad_files_are_named_and_exit_2() {
    let not_json = fixture("not_json.json");
    assert_usage_error(
        &["import", "mcp", &not_json, "--origin", "x"],
        &format!("disclose: {not_json}: is not JSON: "),
    );
    let wrong = fixture("wrong_shape.json");
    assert_usage_error(
        &["import", "mcp", &wrong, "--origin", "x"],
        &format!("disclose: {wrong}: is not an MCP tools/list result"),
    );
    assert_usage_error(
        &["import", "openai", &wrong, "--origin", "x"],
        &format!("disclose: {wrong}: is not an OpenAI tools array"),
    );
    assert_usage_error(
        &["import", "anthropic", &wrong, "--origin", "x"],
        &format!("disclose: {wrong}: is not an Anthropic tools array"),
    );
    let nameless = fixture("nameless.json");
    assert_usage_error(
        &["import", "mcp", &nameless, "--origin", "x"],
        &format!("disclose: {nameless}: tool #2 has no name"),
    );
    let missing = fixture("there_is_no_such_file.json");
    assert_usage_error(
        &["import", "mcp", &missing, "--origin", "x"],
        &format!("disclose: {missing}: failed to read the file"),
    );
}

#[test]
fn malformed_tools_inside_a_list_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (r#"[1]"#, "tool #1 is not an object"),
        (
            r#"[{"name": 7}]"#,
            "tool #1 has a name that is not a string",
        ),
        (r#"[{"name": ""}]"#, "tool #1 has an empty name"),
        (
            r#"[{"name": "a", "description": 3, "inputSchema": {}}]"#,
            "tool #1 (\"a\") has a description that is not a string",
        ),
        (r#""tools""#, "is not an MCP tools/list result"),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("case{i}.json"));
        std::fs::write(&path, text).unwrap();
        assert_usage_error(
            &["import", "mcp", path.to_str().unwrap(), "--origin", "x"],
            message,
        );
    }
}

#[test]
fn bad_command_lines_exit_2() {
    let github = fixture("github_mcp.json");
    assert_usage_error(
        &["import", "mcp", &github, "--origin", "GitHub"],
        "--origin \"GitHub\" is not 1 to 32 lowercase letters, digits and inner hyphens",
    );
    assert_usage_error(
        &["import", "mcp", &github, "--origin", "a", "--origin", "b"],
        "give KIND FILE pairs and one --origin per pair",
    );
    assert_usage_error(
        &["import", "mcp", &github, "mcp", "--origin", "a"],
        "give KIND FILE pairs and one --origin per pair",
    );
    assert_usage_error(
        &["import", "yaml", &github, "--origin", "a"],
        "\"yaml\" is not a kind of tool list",
    );
    assert_usage_error(&["import", "mcp", &github], "--origin");
}
