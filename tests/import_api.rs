//! `disclose::import` through the public API: MCP, OpenAI and Anthropic tool
//! lists in, declarations out, and bad input as a typed error.

use disclose::import::{self, ImportError, Skipped};
use disclose::{Approval, Catalog, Effect, Mode, ToolDecl};
use serde_json::{Value, json};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/import/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(path).expect("the fixture exists")
}

fn summary(tools: &[ToolDecl]) -> Vec<(String, String, Effect, Approval)> {
    tools
        .iter()
        .map(|t| (t.origin.clone(), t.name.clone(), t.effect, t.approval))
        .collect()
}

#[test]
fn mcp_annotations_become_effects_and_approval_is_required() {
    let imported = import::mcp(fixture("github_mcp.json"), "github").expect("imports");
    let declared: Value = serde_json::from_slice(&fixture("github_mcp.json")).expect("JSON");
    let expected = [
        ("get_issue", Effect::Read),
        ("create_issue", Effect::Reversible),
        ("add_labels", Effect::IdempotentWrite),
        ("merge_pull_request", Effect::Irreversible),
        ("delete_file", Effect::Irreversible),
        ("list_notifications", Effect::Irreversible),
    ];
    assert_eq!(
        summary(&imported.tools),
        expected
            .iter()
            .map(|(name, effect)| (
                "github".into(),
                name.to_string(),
                *effect,
                Approval::Required
            ))
            .collect::<Vec<_>>()
    );
    for (tool, source) in imported
        .tools
        .iter()
        .zip(declared["tools"].as_array().into_iter().flatten())
    {
        assert_eq!(*tool.input_schema, source["inputSchema"], "{}", tool.name);
        assert_eq!(
            tool.description,
            source["description"].as_str().unwrap_or_default(),
            "{}",
            tool.name
        );
    }
    assert!(imported.skipped.is_empty());
}

#[test]
fn a_json_rpc_response_and_a_bare_array_import_the_same() {
    let tools =
        json!([{"name": "search", "description": "Search.", "inputSchema": {"type": "object"}}]);
    let rpc = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}});
    let bare = import::mcp(tools.to_string(), "linear").expect("a bare array");
    let wrapped = import::mcp(rpc.to_string(), "linear").expect("a JSON-RPC response");
    assert_eq!(bare, wrapped);
    assert_eq!(summary(&bare.tools)[0].1, "search");
}

#[test]
fn openai_nested_and_flat_functions_and_skipped_built_ins() {
    let list = json!([
        {"type": "function", "function": {"name": "get_weather", "description": "Weather now.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}},
        {"type": "function", "name": "send_mail", "description": "Send a mail."},
        {"type": "web_search_preview"},
    ]);
    let imported = import::openai(list.to_string(), "acme").expect("imports");
    assert_eq!(
        summary(&imported.tools),
        [
            (
                "acme".into(),
                "get_weather".into(),
                Effect::Irreversible,
                Approval::Required
            ),
            (
                "acme".into(),
                "send_mail".into(),
                Effect::Irreversible,
                Approval::Required
            ),
        ]
    );
    assert_eq!(
        *imported.tools[1].input_schema,
        json!({"type": "object", "properties": {}}),
        "an omitted parameters is a function without arguments"
    );
    assert_eq!(
        imported.skipped,
        [Skipped {
            at: 3,
            kind: "web_search_preview".into()
        }]
    );
}

#[test]
fn anthropic_tools_import_as_declared() {
    let list = json!({"tools": [{"name": "kb_search", "description": "Search the KB.", "input_schema": {"type": "object"}}]});
    let imported = import::anthropic(list.to_string(), "kb").expect("imports");
    assert_eq!(imported.tools[0].name, "kb_search");
    assert_eq!(*imported.tools[0].input_schema, json!({"type": "object"}));
}

/// Defects are imported as declared; admission shows the refusal.
#[test]
fn defects_reach_admission_and_are_refused_there() {
    let list = json!({"tools": [
        {"name": "no_description", "inputSchema": {"type": "object"}},
        {"name": "no_schema", "description": "Has no schema."},
        {"name": "dotted.name", "description": "A dot.", "inputSchema": {"type": "object"}},
        {"name": "fine", "description": "Fine.", "inputSchema": {"type": "object"}},
    ]});
    let imported = import::mcp(list.to_string(), "srv").expect("imports");
    let mut catalog = Catalog::new();
    let codes: Vec<&str> = imported
        .tools
        .iter()
        .map(|t| catalog.admit_tool(t).map_or_else(|r| r.code(), |_| "ok"))
        .collect();
    assert_eq!(
        codes,
        ["admit.disclosure", "admit.schema", "admit.name", "ok"]
    );
    assert!(
        catalog
            .start(Mode::Chat)
            .render()
            .contains("- srv__fine: Fine.\n")
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    let not_json = import::mcp(fixture("not_json.json"), "x").expect_err("not JSON");
    assert!(
        matches!(not_json, ImportError::NotJson { .. }),
        "{not_json:?}"
    );
    assert!(
        not_json.to_string().starts_with("is not JSON: "),
        "{not_json}"
    );

    let nameless = import::mcp(fixture("nameless.json"), "x").expect_err("a tool without a name");
    assert_eq!(
        nameless,
        ImportError::Tool {
            at: 2,
            problem: "has no name".into()
        }
    );
    assert_eq!(nameless.to_string(), "tool #2 has no name");

    for (list, message) in [
        (json!([{"name": ""}]), "tool #1 has an empty name"),
        (
            json!([{"name": 7}]),
            "tool #1 has a name that is not a string",
        ),
        (json!([3]), "tool #1 is not an object"),
        (
            json!([{"name": "a", "description": 1}]),
            "tool #1 (\"a\") has a description that is not a string",
        ),
    ] {
        let error = import::mcp(list.to_string(), "x").expect_err("bad");
        assert_eq!(error.to_string(), message);
    }

    let wrong = import::anthropic(b"{\"result\": {\"tools\": []}}", "x").expect_err("not a list");
    assert!(matches!(wrong, ImportError::Shape { .. }));
    assert_eq!(
        wrong.to_string(),
        "is not an Anthropic tools array of {name, description, input_schema}, or {\"tools\": [...]}"
    );
    let openai =
        import::openai(b"{\"type\": \"function\", \"function\": 1}", "x").expect_err("not a list");
    assert!(matches!(openai, ImportError::Shape { .. }));
    let bad_function = import::openai(b"[{\"type\": \"function\", \"function\": 1}]", "x")
        .expect_err("a function that is not an object");
    assert_eq!(
        bad_function.to_string(),
        "tool #1 has a function that is not an object"
    );
}
