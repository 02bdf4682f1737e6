//! `Run::tools_for` through the public API: each provider's tool list
//! against the tool shape that provider's API reference documents, the
//! exact bytes SPEC §11 pins, and the bytes' stability (they are the cached
//! prefix).

use disclose::internals::canonical::canonical;
use disclose::{Approval, Catalog, Effect, Mode, Profile, Provider, Run, ToolDecl};
use serde_json::{Value, json};

/// Host tools with the descriptions and schemas a real runtime declares,
/// one description needing trimming and escaping, and a dormant server tool.
fn decls() -> Vec<ToolDecl> {
    let host = |name: &str, description: &str, schema: Value, effect| {
        ToolDecl::new("host", name, description, schema)
            .with_effect(effect)
            .with_approval(Approval::Never)
    };
    vec![
        host(
            "read",
            "  Read a file.\tReturns \"numbered\" lines.\n",
            json!({"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer", "maximum": 2000}}, "required": ["path"]}),
            Effect::Read,
        ),
        host(
            "edit",
            "Replace an exact string in a file.",
            json!({"type": "object", "properties": {"path": {"type": "string"}, "old": {"type": "string"}, "new": {"type": "string"}}, "required": ["path", "old", "new"]}),
            Effect::Reversible,
        ),
        host(
            "exec",
            "Run one shell command — é, 中, and a \u{1}.",
            json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}),
            Effect::Irreversible,
        ),
        ToolDecl::new(
            "github",
            "get_issue",
            "Get one issue.",
            json!({"type": "object"}),
        ),
    ]
}

fn run_of(decls: &[ToolDecl], mode: Mode) -> Run {
    let mut catalog = Catalog::new();
    for decl in decls {
        assert!(catalog.admit_tool(decl).is_ok(), "{}", decl.name);
    }
    catalog.start(mode)
}

fn validator(schema: Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(&schema).expect("the reference shape compiles")
}

/// Every tool object of `provider`'s list validates against `shape`, and
/// carries exactly `keys` (nothing the provider would reject or we did not
/// mean to send).
fn assert_shape(run: &Run, provider: Provider, shape: Value, keys: &[&str]) {
    let validator = validator(shape);
    let tools = run.tools_for(provider);
    let Value::Array(items) = tools.value() else {
        panic!("{provider}: the tool list is not an array");
    };
    assert_eq!(items.len(), run.tool_defs().len(), "{provider}");
    for (item, def) in items.iter().zip(run.tool_defs()) {
        let errors: Vec<String> = validator.iter_errors(item).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{provider} {}: {errors:?}", def.name());
        let mut found: Vec<&str> = item
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        found.sort_unstable();
        assert_eq!(found, keys, "{provider} {}", def.name());
    }
}

/// Anthropic Messages, `tools[]` (custom tool):
/// https://docs.anthropic.com/en/api/messages (request body, `tools`), and
/// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
/// ("Specifying client tools": `name` matching `^[a-zA-Z0-9_-]{1,64}$`,
/// `description`, `input_schema` a JSON Schema object).
#[test]
fn anthropic_messages_tool_shape() {
    let run = run_of(&decls(), Mode::Work);
    let shape = json!({
        "type": "object",
        "required": ["name", "input_schema"],
        "properties": {
            "name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
            "description": {"type": "string"},
            "input_schema": {
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"const": "object"}}
            }
        }
    });
    assert_shape(
        &run,
        Provider::Anthropic,
        shape,
        &["description", "input_schema", "name"],
    );
}

/// OpenAI Chat Completions, `tools[]`:
/// https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
/// (`type` "function", required; `function` required, with `name`
/// required, a-z A-Z 0-9 `_` `-`, at most 64; `description`; `parameters`
/// a JSON Schema object).
#[test]
fn openai_chat_completions_tool_shape() {
    let run = run_of(&decls(), Mode::Work);
    let shape = json!({
        "type": "object",
        "required": ["type", "function"],
        "properties": {
            "type": {"const": "function"},
            "function": {
                "type": "object",
                "required": ["name"],
                "additionalProperties": false,
                "properties": {
                    "name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
                    "description": {"type": "string"},
                    "parameters": {"type": "object"},
                    "strict": {"type": ["boolean", "null"]}
                }
            }
        }
    });
    assert_shape(&run, Provider::OpenAiChat, shape, &["function", "type"]);
    for item in run
        .tools_for(Provider::OpenAiChat)
        .value()
        .as_array()
        .into_iter()
        .flatten()
    {
        let mut inner: Vec<&String> = item["function"]
            .as_object()
            .into_iter()
            .flat_map(|o| o.keys())
            .collect();
        inner.sort_unstable();
        assert_eq!(inner, ["description", "name", "parameters"]);
    }
}

/// OpenAI Responses, `tools[]` (function tool, flat):
/// https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
/// (`type` "function", `name`, `parameters` a JSON Schema object,
/// `description`; no nested `function`).
#[test]
fn openai_responses_tool_shape() {
    let run = run_of(&decls(), Mode::Work);
    let shape = json!({
        "type": "object",
        "required": ["type", "name", "parameters"],
        "not": {"required": ["function"]},
        "properties": {
            "type": {"const": "function"},
            "name": {"type": "string", "pattern": "^[a-zA-Z0-9_-]{1,64}$"},
            "description": {"type": "string"},
            "parameters": {"type": "object"},
            "strict": {"type": ["boolean", "null"]}
        }
    });
    assert_shape(
        &run,
        Provider::OpenAiResponses,
        shape,
        &["description", "name", "parameters", "type"],
    );
}

/// MCP, a `tools/list` result's `tools[]` entry (SPEC §11 `mcp`,
/// contract 3): `name`, `inputSchema` (a JSON Schema object), optional
/// `description`; nothing else is written.
#[test]
fn mcp_tool_shape() {
    let run = run_of(&decls(), Mode::Work);
    let shape = json!({
        "type": "object",
        "required": ["name", "inputSchema"],
        "properties": {
            "name": {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,128}$"},
            "description": {"type": "string"},
            "inputSchema": {"type": "object"}
        }
    });
    assert_shape(
        &run,
        Provider::Mcp,
        shape,
        &["description", "inputSchema", "name"],
    );
}

/// The bytes SPEC §11 pins, written out by hand for one tool.
#[test]
fn exact_bytes_per_provider() {
    let run = run_of(&decls()[..1], Mode::Chat);
    let schema = r#"{"properties":{"limit":{"maximum":2000,"type":"integer"},"path":{"type":"string"}},"required":["path"],"type":"object"}"#;
    let description = r#""Read a file.\tReturns \"numbered\" lines.""#;
    let expected = [
        (
            Provider::Anthropic,
            format!(r#"{{"description":{description},"input_schema":{schema},"name":"read"}}"#),
        ),
        (
            Provider::OpenAiChat,
            format!(
                r#"{{"function":{{"description":{description},"name":"read","parameters":{schema}}},"type":"function"}}"#
            ),
        ),
        (
            Provider::OpenAiResponses,
            format!(
                r#"{{"description":{description},"name":"read","parameters":{schema},"type":"function"}}"#
            ),
        ),
        (
            Provider::Mcp,
            format!(r#"{{"description":{description},"inputSchema":{schema},"name":"read"}}"#),
        ),
    ];
    for (provider, first) in expected {
        let tools = run.tools_for(provider);
        let objects: Vec<&str> = tools.objects().collect();
        assert_eq!(objects.len(), 3, "read, describe, call");
        assert_eq!(objects[0], first, "{provider}");
        assert_eq!(tools.as_str(), format!("[{}]", objects.join(",")));
        assert_eq!(tools.lines(), format!("{}\n", objects.join("\n")));
        assert_eq!(canonical(tools.value()), tools.as_str(), "{provider}");
        let parsed: Value = serde_json::from_slice(tools.as_bytes()).expect("JSON");
        assert_eq!(&parsed, tools.value(), "{provider}");
        assert_eq!(tools.provider(), provider);
    }
}

/// The same declarations in another admission order, a mode switch and a
/// fresh catalog all give the same bytes: the prefix is a function of what
/// is offered, nothing else.
#[test]
fn bytes_are_stable_across_runs_orders_and_mode_switches() {
    let decls = decls();
    let mut reversed = decls.clone();
    reversed.reverse();
    let mut first = run_of(&decls, Mode::Work);
    let second = run_of(&reversed, Mode::Work);
    for provider in Provider::ALL {
        let before = first.tools_for(provider);
        assert_eq!(before, second.tools_for(provider), "{provider}");
        first.switch_mode(Mode::Chat);
        assert_eq!(before, first.tools_for(provider), "{provider}");
        first.switch_mode(Mode::Work);
    }
}

/// A child's list in every shape holds only what it is offered (SPEC §8).
#[test]
fn a_child_lists_only_offered_tools_in_every_shape() {
    let mut catalog = Catalog::new();
    for decl in decls() {
        assert!(catalog.admit_tool(&decl).is_ok());
    }
    let child = catalog.start_child(Mode::Work, Profile::Writer);
    for provider in Provider::ALL {
        let names: Vec<String> = child
            .tools_for(provider)
            .value()
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                let name = t.get("name").or_else(|| t["function"].get("name"));
                name.and_then(Value::as_str).unwrap_or_default().to_string()
            })
            .collect();
        assert_eq!(names, ["read", "describe", "call", "edit"], "{provider}");
    }
}
